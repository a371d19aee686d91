// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: a probe leaves every flag of the probed code as it was.
 *
 * The targets (flags_targets_x86_*.S) compare two numbers, run two MOVs
 * and then branch on, or push, the flags of the compare.  Each case
 * probes the first MOV in every way a hit can go on x86 and checks the
 * result against arithmetic done here in C, and against the same call
 * without a probe:
 *
 *   step       pre and post handler: the copy returns through the step
 *              trampoline, which builds a pt_regs
 *   boost      pre handler only, optimization off: a boosted copy
 *   optimized  pre handler only, optimization on: the detour
 *   opt_post   pre and post handler, optimization on: the detour's
 *              way that stops for the post handler
 *
 * and a return probe whose function returns with live flags.
 */
#include <kunit/test.h>
#include <linux/kprobes.h>
#include <linux/overflow.h>
#include <linux/bitops.h>
#include <linux/cpufeature.h>
#include <asm/processor-flags.h>

#include "tests.h"
#include "insn_targets_x86.h"

#define FLAGS_AT(fn)	((kprobe_opcode_t *)((u8 *)(fn) + fn##_off))

/* Every flag the probed code can observe, and the ones it cannot change. */
#define SEEN_FLAGS	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | \
			 X86_EFLAGS_ZF | X86_EFLAGS_SF | X86_EFLAGS_OF | \
			 X86_EFLAGS_DF | X86_EFLAGS_AC | X86_EFLAGS_IF | \
			 X86_EFLAGS_TF)

enum flags_mode { FM_STEP, FM_BOOST, FM_OPTIMIZED, FM_OPT_POST, FM_NR };

static const char * const mode_names[FM_NR] = {
	[FM_STEP] = "step",
	[FM_BOOST] = "boost",
	[FM_OPTIMIZED] = "optimized",
	[FM_OPT_POST] = "opt_post",
};

/* Pairs (a, b) whose difference sets each flag, and leaves it clear. */
static const long pairs[][2] = {
	{ 1, 2 },		/* borrow: CF, SF; 0xff..ff: PF */
	{ 2, 2 },		/* ZF, PF */
	{ 3, 1 },		/* 2: nothing but no parity */
	{ 4, 1 },		/* 3: PF only */
	{ 16, 1 },		/* 15: AF, PF */
	{ LONG_MIN, 1 },	/* OF */
	{ 0, LONG_MIN },	/* OF, SF, CF */
	{ -5, -3 },		/* SF, CF */
	{ 7, -1 },		/* CF, 8 */
};

struct flags_ctx {
	struct kprobe kp;
	int pre;
	int post;
	unsigned long pre_flags;	/* the handler's own, not the regs' */
	unsigned long post_flags;
};

static struct flags_ctx *fctx(struct kprobe *p)
{
	return container_of(p, struct flags_ctx, kp);
}

/* Handlers are C code: they change flags, and may rely on DF and AC. */
static int flags_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct flags_ctx *c = fctx(p);

	c->pre_flags = native_save_fl();
	c->pre++;
	return 0;
}

static void flags_post(struct kprobe *p, struct pt_regs *regs,
		       unsigned long unused)
{
	struct flags_ctx *c = fctx(p);

	c->post_flags = native_save_fl();
	c->post++;
}

static void mode_desc(const enum flags_mode *m, char *desc)
{
	strscpy(desc, mode_names[*m], KUNIT_PARAM_DESC_SIZE);
}

static const enum flags_mode all_modes[] = {
	FM_STEP, FM_BOOST, FM_OPTIMIZED, FM_OPT_POST,
};

KUNIT_ARRAY_PARAM(flags_mode, all_modes, mode_desc);

static void restore_optimization(void *on)
{
	kprobes_set_optimization(on);
}

/*
 * Probe @where in @mode for the rest of the test.  The probe is checked
 * to take the way the mode names, where the kernel lets us tell.
 */
static struct flags_ctx *probe_in_mode(struct kunit *test,
				       kprobe_opcode_t *where,
				       enum flags_mode mode)
{
	bool opt = mode == FM_OPTIMIZED || mode == FM_OPT_POST;
	bool post = mode == FM_STEP || mode == FM_OPT_POST;
	struct flags_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	void *was_on = kprobes_optimization_enabled() ? (void *)1 : NULL;

	KUNIT_ASSERT_NOT_NULL(test, c);
	if (opt && !IS_ENABLED(CONFIG_OPTPROBES))
		kunit_skip(test, "needs CONFIG_OPTPROBES");

	/* The switch goes back as it was, however the test ends. */
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							restore_optimization,
							was_on), 0);
	kprobes_set_optimization(opt);

	c->kp.addr = where;
	c->kp.pre_handler = flags_pre;
	if (post)
		c->kp.post_handler = flags_post;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &c->kp), 0);
	wait_for_kprobe_optimizer();
	KUNIT_ASSERT_EQ(test, kprobe_optimized(&c->kp), opt);
	return c;
}

/* What "a - b" does to each condition, worked out in C. */
static long cond_c(long a, long b) { return (unsigned long)a < (unsigned long)b; }
static long cond_z(long a, long b) { return a == b; }
static long cond_s(long a, long b) { return (long)((unsigned long)a - b) < 0; }

static long cond_o(long a, long b)
{
	long d;

	return check_sub_overflow(a, b, &d);
}

static long cond_p(long a, long b)
{
	return !(hweight8((u8)((unsigned long)a - b)) & 1);
}

struct jcc_target {
	const char *name;
	long (*fn)(long a, long b);
	kprobe_opcode_t *at;
	long (*cond)(long a, long b);
};

static void check_jcc(struct kunit *test, const struct jcc_target *t,
		      enum flags_mode mode)
{
	long expect[ARRAY_SIZE(pairs)];
	struct flags_ctx *c;
	int seen[2] = { 0, 0 };
	int i;

	/* The target and the arithmetic agree, both outcomes occur. */
	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		expect[i] = t->cond(pairs[i][0], pairs[i][1]);
		KUNIT_ASSERT_EQ_MSG(test, t->fn(pairs[i][0], pairs[i][1]),
				    expect[i], "%s, no probe, pair %d",
				    t->name, i);
		seen[expect[i]]++;
	}
	KUNIT_ASSERT_GT(test, seen[0], 0);
	KUNIT_ASSERT_GT(test, seen[1], 0);

	c = probe_in_mode(test, t->at, mode);
	for (i = 0; i < ARRAY_SIZE(pairs); i++)
		KUNIT_EXPECT_EQ_MSG(test, t->fn(pairs[i][0], pairs[i][1]),
				    expect[i], "%s, %s, pair %d (%lx, %lx)",
				    t->name, mode_names[mode], i,
				    pairs[i][0], pairs[i][1]);
	KUNIT_EXPECT_EQ(test, c->pre, (int)ARRAY_SIZE(pairs));
	if (c->kp.post_handler)
		KUNIT_EXPECT_EQ(test, c->post, (int)ARRAY_SIZE(pairs));
	unregister_kprobe(&c->kp);
}

#define JCC(cc) { "j" #cc, kpt_flags_##cc, FLAGS_AT(kpt_flags_##cc), cond_##cc }

static void flags_branch_on_each_flag(struct kunit *test)
{
	const enum flags_mode *mode = test->param_value;
	const struct jcc_target targets[] = {
		JCC(c), JCC(z), JCC(s), JCC(o), JCC(p),
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(targets); i++)
		check_jcc(test, &targets[i], *mode);
}

/* The flags @fn returns for every pair, as far as the probed code sees. */
static void flags_of_pairs(unsigned long (*fn)(long a, long b),
			   unsigned long *flags)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(pairs); i++)
		flags[i] = fn(pairs[i][0], pairs[i][1]) & SEEN_FLAGS;
}

static void flags_pushed_after_probe(struct kunit *test)
{
	const enum flags_mode *mode = test->param_value;
	unsigned long expect[ARRAY_SIZE(pairs)], got[ARRAY_SIZE(pairs)];
	struct flags_ctx *c;
	int i;

	flags_of_pairs(kpt_flags_all, expect);
	/* The 16 - 1 pair is there for AF. */
	KUNIT_ASSERT_TRUE(test, expect[4] & X86_EFLAGS_AF);

	c = probe_in_mode(test, FLAGS_AT(kpt_flags_all), *mode);
	flags_of_pairs(kpt_flags_all, got);
	for (i = 0; i < ARRAY_SIZE(pairs); i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], expect[i], "pair %d", i);
	KUNIT_EXPECT_EQ(test, c->pre, (int)ARRAY_SIZE(pairs));
}

/*
 * DF and AC set in the probed code come back set, and the handlers run
 * with both clear, as after an exception entry.
 */
static void flags_df_ac_kept_and_cleared_for_handlers(struct kunit *test)
{
	const enum flags_mode *mode = test->param_value;
	bool smap = cpu_feature_enabled(X86_FEATURE_SMAP);
	unsigned long want = X86_EFLAGS_DF | (smap ? X86_EFLAGS_AC : 0);
	unsigned long expect, got;
	struct flags_ctx *c;

	expect = kpt_flags_std_stac(2, 2) & SEEN_FLAGS;
	KUNIT_ASSERT_EQ(test, expect & want, want);
	KUNIT_ASSERT_TRUE(test, expect & X86_EFLAGS_ZF);

	c = probe_in_mode(test, FLAGS_AT(kpt_flags_std_stac), *mode);
	got = kpt_flags_std_stac(2, 2) & SEEN_FLAGS;
	KUNIT_EXPECT_EQ(test, got, expect);
	KUNIT_ASSERT_EQ(test, c->pre, 1);
	KUNIT_EXPECT_EQ(test, c->pre_flags & (X86_EFLAGS_DF | X86_EFLAGS_AC),
			0UL);
	if (c->kp.post_handler) {
		KUNIT_ASSERT_EQ(test, c->post, 1);
		KUNIT_EXPECT_EQ(test, c->post_flags &
				(X86_EFLAGS_DF | X86_EFLAGS_AC), 0UL);
	}
	if (!smap)
		kunit_mark_skipped(test, "no SMAP: AC not checked");
}

static unsigned long flags_at_return;

static int flags_ret_handler(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	flags_at_return = regs->flags & SEEN_FLAGS;
	return 0;
}

static void flags_live_across_return_probe(struct kunit *test)
{
	unsigned long expect[ARRAY_SIZE(pairs)];
	struct kretprobe *rp;
	int i;

	if (!IS_ENABLED(CONFIG_KRETPROBES))
		kunit_skip(test, "needs CONFIG_KRETPROBES");
	/*
	 * With call-depth tracking the return thunk's SHL sets the flags
	 * on every RET: no function returns with live flags then.
	 */
	if (cpu_feature_enabled(X86_FEATURE_CALL_DEPTH))
		kunit_skip(test, "call-depth tracking: RET changes the flags");
	flags_of_pairs(kpt_flags_after_ret, expect);
	rp = kunit_kzalloc(test, sizeof(*rp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rp);
	rp->kp.addr = (kprobe_opcode_t *)kpt_flags_cmp_ret;
	rp->handler = flags_ret_handler;
	KUNIT_ASSERT_EQ(test, register_kretprobe(rp), 0);
	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		flags_at_return = ~0UL;
		KUNIT_EXPECT_EQ_MSG(test,
				    kpt_flags_after_ret(pairs[i][0],
							pairs[i][1]) &
				    SEEN_FLAGS, expect[i], "pair %d", i);
		/* The handler saw them too. */
		KUNIT_EXPECT_EQ_MSG(test, flags_at_return, expect[i],
				    "pair %d", i);
	}
	unregister_kretprobe(rp);
	KUNIT_EXPECT_EQ(test, rp->nmissed, 0);
}

static struct kunit_case flags_cases[] = {
	KUNIT_CASE_PARAM(flags_branch_on_each_flag, flags_mode_gen_params),
	KUNIT_CASE_PARAM(flags_pushed_after_probe, flags_mode_gen_params),
	KUNIT_CASE_PARAM(flags_df_ac_kept_and_cleared_for_handlers,
			 flags_mode_gen_params),
	KUNIT_CASE(flags_live_across_return_probe),
	{}
};

static struct kunit_suite flags_suite = {
	.name = "kprobes_flags",
	.test_cases = flags_cases,
};

kunit_test_suite(flags_suite);
