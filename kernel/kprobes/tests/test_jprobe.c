// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: jprobes.  The mirror sees the arguments (registers and stack),
 * the probed function still gets the original ones, the order against
 * other probes at the address, a kretprobe on the same function, probes
 * hit inside a mirror, enable/disable, batches and bad requests.
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/kprobes.h>
#include <linux/preempt.h>

#include "tests.h"

#define ARGS8_SUM	204L	/* kpt_args8(1, 2, ..., 8) */

struct jp_ctx {
	struct jprobe jp;
	struct jprobe other;
	struct kprobe kp;
	struct kretprobe rp;
	long args[8];
	int mirror_calls;
	int int_mirror_calls;
	int kp_pre;
	bool preemptible_in_mirror;
	struct kprobe *running_in_mirror;
	bool call_inner;
	int inner_result;
	char order[8];
	int norder;
	long rp_ret;
	int rp_returns;
};

static struct jp_ctx *jctx(void)
{
	return ((struct kunit *)kunit_get_current_test())->priv;
}

static void jp_mark(struct jp_ctx *c, char what)
{
	if (c->norder < ARRAY_SIZE(c->order) - 1)
		c->order[c->norder++] = what;
}

static long jp_args8_mirror(long a1, long a2, long a3, long a4, long a5,
			    long a6, long a7, long a8)
{
	struct jp_ctx *c = jctx();

	c->args[0] = a1;
	c->args[1] = a2;
	c->args[2] = a3;
	c->args[3] = a4;
	c->args[4] = a5;
	c->args[5] = a6;
	c->args[6] = a7;
	c->args[7] = a8;
	c->mirror_calls++;
	c->preemptible_in_mirror |= preemptible();
	c->running_in_mirror = kprobe_running();
	jp_mark(c, 'J');
	if (c->call_inner)
		c->inner_result = kpt_target(5);

	/* Scribble over the arguments, including the two on the stack. */
	WRITE_ONCE(a1, -1);
	WRITE_ONCE(a6, -1);
	WRITE_ONCE(a7, -1);
	WRITE_ONCE(a8, -1);
	jprobe_return();
	return 0;
}

static int jp_int_mirror(int x)
{
	jctx()->int_mirror_calls++;
	jprobe_return();
	return 0;
}

static int jp_kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct jp_ctx *c = jctx();

	c->kp_pre++;
	jp_mark(c, 'P');
	return 0;
}

static void jp_kp_post(struct kprobe *p, struct pt_regs *regs,
		       unsigned long flags)
{
	jp_mark(jctx(), 'S');
}

static int jp_rp_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct jp_ctx *c = jctx();

	c->rp_returns++;
	c->rp_ret = regs_return_value(regs);
	jp_mark(c, 'R');
	return 0;
}

static long call_args8(void)
{
	return kpt_args8(1, 2, 3, 4, 5, 6, 7, 8);
}

static void jp_unregister_action(void *jp)
{
	unregister_jprobe(jp);
}

static int jp_register(struct kunit *test, struct jprobe *jp)
{
	int ret = register_jprobe(jp);

	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, jp_unregister_action, jp);
}

static int jp_init(struct kunit *test)
{
	struct jp_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	if (!c)
		return -ENOMEM;
	c->jp.kp.symbol_name = "kpt_args8_fn";
	c->jp.entry = jp_args8_mirror;
	c->other.kp.symbol_name = "kpt_other_fn";
	c->other.entry = jp_int_mirror;
	c->kp.symbol_name = "kpt_args8_fn";
	c->kp.pre_handler = jp_kp_pre;
	c->kp.post_handler = jp_kp_post;
	c->rp.kp.symbol_name = "kpt_args8_fn";
	c->rp.handler = jp_rp_handler;
	test->priv = c;
	return 0;
}

static void jp_mirror_sees_arguments(struct kunit *test)
{
	struct jp_ctx *c = test->priv;
	int i;

	KUNIT_ASSERT_EQ(test, jp_register(test, &c->jp), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_is_jprobe(&c->jp.kp));
	KUNIT_EXPECT_FALSE(test, kprobe_is_kretprobe(&c->jp.kp));

	/* The mirror clobbered its arguments; the function did not see it. */
	KUNIT_EXPECT_EQ(test, call_args8(), ARGS8_SUM);
	KUNIT_EXPECT_EQ(test, c->mirror_calls, 1);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, c->args[i], i + 1L);
	KUNIT_EXPECT_FALSE(test, c->preemptible_in_mirror);
	KUNIT_EXPECT_PTR_EQ(test, c->running_in_mirror, &c->jp.kp);
	/* After the mirror, nothing is left running on this CPU. */
	KUNIT_EXPECT_NULL(test, kprobe_running());
	if (IS_ENABLED(CONFIG_PREEMPT_COUNT))
		KUNIT_EXPECT_TRUE(test, preemptible());

	KUNIT_EXPECT_EQ(test, kpt_args8(-1, 0, 0, 0, 0, 0, 0, 10), 79L);
	KUNIT_EXPECT_EQ(test, c->mirror_calls, 2);
	KUNIT_EXPECT_EQ(test, c->args[7], 10L);
	KUNIT_EXPECT_EQ(test, c->jp.kp.nmissed, 0);
}

static void jp_runs_after_other_probes(struct kunit *test)
{
	struct jp_ctx *c = test->priv;

	/* Registered after the jprobe, the kprobe still runs first. */
	KUNIT_ASSERT_EQ(test, jp_register(test, &c->jp), 0);
	KUNIT_ASSERT_EQ(test, kpt_register(test, &c->kp), 0);
	KUNIT_EXPECT_EQ(test, call_args8(), ARGS8_SUM);
	KUNIT_EXPECT_STREQ(test, c->order, "PJS");
}

static void jp_rp_unregister_action(void *rp)
{
	unregister_kretprobe(rp);
}

static void jp_with_kretprobe(struct kunit *test)
{
	struct jp_ctx *c = test->priv;

	if (!IS_ENABLED(CONFIG_KRETPROBES))
		kunit_skip(test, "CONFIG_KRETPROBES is off");
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, jp_rp_unregister_action,
					       &c->rp), 0);
	KUNIT_ASSERT_EQ(test, jp_register(test, &c->jp), 0);
	KUNIT_ASSERT_EQ(test, register_kretprobe(&c->rp), 0);
	KUNIT_EXPECT_EQ(test, call_args8(), ARGS8_SUM);
	KUNIT_EXPECT_EQ(test, c->mirror_calls, 1);
	KUNIT_EXPECT_EQ(test, c->rp_returns, 1);
	KUNIT_EXPECT_EQ(test, c->rp_ret, ARGS8_SUM);
	KUNIT_EXPECT_STREQ(test, c->order, "JR");
	unregister_kretprobe(&c->rp);

	/* And the other way round: kretprobe first. */
	unregister_jprobe(&c->jp);
	c->jp.kp.addr = NULL;
	c->rp.kp.addr = NULL;
	c->norder = 0;
	memset(c->order, 0, sizeof(c->order));
	KUNIT_ASSERT_EQ(test, register_kretprobe(&c->rp), 0);
	KUNIT_ASSERT_EQ(test, jp_register(test, &c->jp), 0);
	KUNIT_EXPECT_EQ(test, call_args8(), ARGS8_SUM);
	KUNIT_EXPECT_EQ(test, c->rp_ret, ARGS8_SUM);
	KUNIT_EXPECT_STREQ(test, c->order, "JR");
	unregister_kretprobe(&c->rp);
}

static void jp_probe_inside_mirror_missed(struct kunit *test)
{
	struct jp_ctx *c = test->priv;

	c->kp.symbol_name = "kpt_target_fn";
	c->call_inner = true;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &c->kp), 0);
	KUNIT_ASSERT_EQ(test, jp_register(test, &c->jp), 0);
	KUNIT_EXPECT_EQ(test, call_args8(), ARGS8_SUM);
	KUNIT_EXPECT_EQ(test, c->inner_result, 6);
	KUNIT_EXPECT_EQ(test, c->kp_pre, 0);
	KUNIT_EXPECT_EQ(test, c->kp.nmissed, 1);
	KUNIT_EXPECT_EQ(test, c->kp.nmissed_by[KPROBE_MISS_RECURSION], 1);
	/* Outside a mirror the same probe runs. */
	KUNIT_EXPECT_EQ(test, kpt_target(5), 6);
	KUNIT_EXPECT_EQ(test, c->kp_pre, 1);
}

static void jp_enable_disable(struct kunit *test)
{
	struct jp_ctx *c = test->priv;

	c->jp.kp.flags = KPROBE_FLAG_DISABLED;
	KUNIT_ASSERT_EQ(test, jp_register(test, &c->jp), 0);
	KUNIT_EXPECT_EQ(test, call_args8(), ARGS8_SUM);
	KUNIT_EXPECT_EQ(test, c->mirror_calls, 0);
	KUNIT_EXPECT_EQ(test, enable_jprobe(&c->jp), 0);
	KUNIT_EXPECT_EQ(test, call_args8(), ARGS8_SUM);
	KUNIT_EXPECT_EQ(test, c->mirror_calls, 1);
	KUNIT_EXPECT_EQ(test, disable_jprobe(&c->jp), 0);
	KUNIT_EXPECT_EQ(test, call_args8(), ARGS8_SUM);
	KUNIT_EXPECT_EQ(test, c->mirror_calls, 1);
	unregister_jprobe(&c->jp);
	KUNIT_EXPECT_EQ(test, enable_jprobe(&c->jp), -EINVAL);
	KUNIT_EXPECT_EQ(test, call_args8(), ARGS8_SUM);
	KUNIT_EXPECT_EQ(test, c->mirror_calls, 1);
}

static void jp_batches(struct kunit *test)
{
	struct jp_ctx *c = test->priv;
	struct jprobe *bad = kunit_kzalloc(test, sizeof(*bad), GFP_KERNEL);
	struct jprobe *jps[] = { &c->jp, &c->other, bad };

	KUNIT_ASSERT_NOT_NULL(test, bad);
	bad->kp.symbol_name = "kpt_inner_fn";

	/* All or none: the third has no mirror. */
	KUNIT_EXPECT_EQ(test, register_jprobes(jps, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, call_args8(), ARGS8_SUM);
	KUNIT_EXPECT_EQ(test, kpt_other(1), 3);
	KUNIT_EXPECT_EQ(test, c->mirror_calls + c->int_mirror_calls, 0);

	c->jp.kp.addr = NULL;
	c->other.kp.addr = NULL;
	KUNIT_ASSERT_EQ(test, register_jprobes(jps, 2), 0);
	KUNIT_EXPECT_EQ(test, call_args8(), ARGS8_SUM);
	KUNIT_EXPECT_EQ(test, kpt_other(1), 3);
	KUNIT_EXPECT_EQ(test, c->mirror_calls, 1);
	KUNIT_EXPECT_EQ(test, c->int_mirror_calls, 1);
	unregister_jprobes(jps, 2);
	KUNIT_EXPECT_EQ(test, kpt_other(1), 3);
	KUNIT_EXPECT_EQ(test, c->int_mirror_calls, 1);
	KUNIT_EXPECT_EQ(test, register_jprobes(jps, 0), -EINVAL);
}

static void jp_bad_requests(struct kunit *test)
{
	struct jp_ctx *c = test->priv;
	struct jprobe *j = kunit_kzalloc(test, sizeof(*j), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, j);

	/* No mirror, or a mirror that is not the start of a function. */
	j->kp.symbol_name = "kpt_args8_fn";
	KUNIT_EXPECT_EQ(test, register_jprobe(j), -EINVAL);
	j->entry = (void *)((unsigned long)jp_args8_mirror + 1);
	KUNIT_EXPECT_EQ(test, register_jprobe(j), -EINVAL);

	/* Not a function entry; not probeable; unknown. */
	j->entry = jp_args8_mirror;
	j->kp.offset = 1;
	KUNIT_EXPECT_EQ(test, register_jprobe(j), -EINVAL);
	j->kp.offset = 0;
	j->kp.addr = NULL;
	j->kp.symbol_name = NULL;
	j->kp.addr = (kprobe_opcode_t *)kpt_forbidden;
	KUNIT_EXPECT_EQ(test, register_jprobe(j), -EINVAL);
	j->kp.addr = NULL;
	j->kp.symbol_name = "kpt_no_such_function";
	KUNIT_EXPECT_EQ(test, register_jprobe(j), -ENOENT);

	/* One jprobe per address; one registration per jprobe. */
	KUNIT_ASSERT_EQ(test, jp_register(test, &c->jp), 0);
	j->kp.symbol_name = "kpt_args8_fn";
	KUNIT_EXPECT_EQ(test, register_jprobe(j), -EEXIST);
	KUNIT_EXPECT_EQ(test, register_jprobe(&c->jp), -EINVAL);
	KUNIT_EXPECT_EQ(test, call_args8(), ARGS8_SUM);
	KUNIT_EXPECT_EQ(test, c->mirror_calls, 1);

	/* Unregistering what is not registered is harmless. */
	unregister_jprobe(j);
	KUNIT_EXPECT_EQ(test, disable_jprobe(j), -EINVAL);
}

/*
 * jprobe_return() where no mirror runs is a caller's bug: the kernel
 * names the caller once in the log, without a backtrace, and goes on.
 * Twice, to see that the second call costs no more than the first.
 */
static void jp_return_outside_mirror(struct kunit *test)
{
	unsigned long traps = kprobe_trap_count();

	jprobe_return();
	jprobe_return();
	KUNIT_EXPECT_EQ(test, kprobe_trap_count() - traps, 2UL);
	KUNIT_EXPECT_NULL(test, kprobe_running());
	KUNIT_EXPECT_TRUE(test, preemptible() || !IS_ENABLED(CONFIG_PREEMPTION));
}

static struct kunit_case jprobe_cases[] = {
	KUNIT_CASE(jp_mirror_sees_arguments),
	KUNIT_CASE(jp_runs_after_other_probes),
	KUNIT_CASE(jp_with_kretprobe),
	KUNIT_CASE(jp_probe_inside_mirror_missed),
	KUNIT_CASE(jp_enable_disable),
	KUNIT_CASE(jp_batches),
	KUNIT_CASE(jp_bad_requests),
	KUNIT_CASE(jp_return_outside_mirror),
	{}
};

static struct kunit_suite jprobe_suite = {
	.name = "kprobes_jprobe",
	.init = jp_init,
	.test_cases = jprobe_cases,
};

kunit_test_suite(jprobe_suite);
