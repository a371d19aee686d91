// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: the s390 backend, instruction by instruction.
 *
 * Each class the step fixes up after the copy (a relative-long larl,
 * whose displacement is rewritten for the slot; a basr, whose return
 * register is; a conditional branch, taken and not) is probed in a
 * target of insn_targets_s390.S, and the function computes with the
 * probe what it computes without one; so does the condition code across
 * a probe.  Then the refusals and their errno (the odd and
 * inside-an-instruction ones are the stock kprobes_test_s390 suite's).
 */
#include <kunit/test.h>
#include <linux/kprobes.h>

#include "tests.h"
#include "insn_targets_s390.h"

#define S390_AT(fn, name) \
	((kprobe_opcode_t *)((u8 *)(fn) + kpt_s390_##name##_off))

struct s390_ctx {
	struct kprobe kp;
	int pre;
	int post;
};

static struct s390_ctx *sctx(struct kprobe *p)
{
	return container_of(p, struct s390_ctx, kp);
}

static int s390_pre(struct kprobe *p, struct pt_regs *regs)
{
	sctx(p)->pre++;
	return 0;
}

static void s390_post(struct kprobe *p, struct pt_regs *regs,
		      unsigned long flags)
{
	sctx(p)->post++;
}

/* Probe @where, with a post handler, for the rest of the test. */
static struct s390_ctx *probe(struct kunit *test, kprobe_opcode_t *where)
{
	struct s390_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->kp.addr = where;
	c->kp.pre_handler = s390_pre;
	c->kp.post_handler = s390_post;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &c->kp), 0);
	return c;
}

/* The condition code of an add survives a probe on the next instruction. */
static void s390_cc_kept(struct kunit *test)
{
	static const long ops[][2] = {
		{ 0, 0 }, { -5, 2 }, { 5, 2 }, { LONG_MAX, 1 },
	};
	long want[ARRAY_SIZE(ops)];
	struct s390_ctx *c;
	int i;

	for (i = 0; i < ARRAY_SIZE(ops); i++)
		want[i] = kpt_s390_cc(ops[i][0], ops[i][1]);
	/* Zero, negative, positive and overflow: four condition codes. */
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		KUNIT_ASSERT_EQ(test, want[i] & 3, (long)i);

	c = probe(test, S390_AT(kpt_s390_cc, keep));
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		KUNIT_EXPECT_EQ_MSG(test, kpt_s390_cc(ops[i][0], ops[i][1]),
				    want[i], "case %d", i);
	KUNIT_EXPECT_EQ(test, c->pre, (int)ARRAY_SIZE(ops));
	KUNIT_EXPECT_EQ(test, c->post, (int)ARRAY_SIZE(ops));
}

/* The fixed-up classes compute what they compute unprobed. */
static void s390_fixups(struct kunit *test)
{
	unsigned long here = kpt_s390_larl();
	struct s390_ctx *c;

	KUNIT_EXPECT_EQ(test, here, (unsigned long)kpt_s390_larl);

	c = probe(test, S390_AT(kpt_s390_larl, larl));
	KUNIT_EXPECT_EQ(test, kpt_s390_larl(), here);
	KUNIT_EXPECT_EQ(test, c->pre, 1);

	c = probe(test, S390_AT(kpt_s390_basr, basr));
	KUNIT_EXPECT_EQ(test, kpt_s390_basr(32), 42L);
	KUNIT_EXPECT_EQ(test, c->post, 1);

	c = probe(test, S390_AT(kpt_s390_branch, brc));
	KUNIT_EXPECT_EQ(test, kpt_s390_branch(0), 2L);
	KUNIT_EXPECT_EQ(test, kpt_s390_branch(7), 1L);
	KUNIT_EXPECT_EQ(test, c->pre, 2);
	KUNIT_EXPECT_EQ(test, c->post, 2);
}

static int s390_try(kprobe_opcode_t *at)
{
	struct kprobe kp = { .addr = at, .pre_handler = s390_pre };
	int ret = register_kprobe(&kp);

	if (!ret)
		unregister_kprobe(&kp);
	return ret;
}

/* What registration refuses, with stock's errno. */
static void s390_refused(struct kunit *test)
{
	u8 *larl = (u8 *)S390_AT(kpt_s390_larl, larl);

	KUNIT_EXPECT_EQ(test, s390_try(S390_AT(kpt_s390_refused, exrl)),
			-EINVAL);
	/* Odd, and inside the 6-byte larl. */
	KUNIT_EXPECT_EQ(test, s390_try((kprobe_opcode_t *)(larl + 1)), -EINVAL);
	KUNIT_EXPECT_EQ(test, s390_try((kprobe_opcode_t *)(larl + 2)), -EINVAL);
	KUNIT_EXPECT_EQ(test, s390_try((kprobe_opcode_t *)(larl + 4)), -EINVAL);
}

static struct kunit_case s390_cases[] = {
	KUNIT_CASE(s390_cc_kept),
	KUNIT_CASE(s390_fixups),
	KUNIT_CASE(s390_refused),
	{}
};

static struct kunit_suite s390_suite = {
	.name = "kprobes_s390_insn",
	.test_cases = s390_cases,
};

kunit_test_suite(s390_suite);
