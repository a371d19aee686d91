// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: the powerpc backend, instruction by instruction.
 *
 * A probed instruction is carried out by emulate_step() (an add that
 * sets CA, OV, SO and CR0; a branch and link) or single-stepped as a
 * copy (mfpvr, which the emulator leaves), and what the function
 * computes, CR and XER included, is the same with the probe as without
 * it.  Then the refusals and their errno.
 */
#include <kunit/test.h>
#include <linux/kprobes.h>

#include "tests.h"
#include "insn_targets_powerpc.h"

#define PPC_AT(fn, name) \
	((kprobe_opcode_t *)((u8 *)(fn) + kpt_ppc_##name##_off))

struct ppc_ctx {
	struct kprobe kp;
	int pre;
	int post;
	unsigned long pre_ccr, pre_xer;
};

static struct ppc_ctx *pctx(struct kprobe *p)
{
	return container_of(p, struct ppc_ctx, kp);
}

static int ppc_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct ppc_ctx *c = pctx(p);

	c->pre++;
	c->pre_ccr = regs->ccr;
	c->pre_xer = regs->xer;
	return 0;
}

static void ppc_post(struct kprobe *p, struct pt_regs *regs,
		     unsigned long flags)
{
	pctx(p)->post++;
}

/* Probe @where, with a post handler, for the rest of the test. */
static struct ppc_ctx *probe(struct kunit *test, kprobe_opcode_t *where)
{
	struct ppc_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->kp.addr = where;
	c->kp.pre_handler = ppc_pre;
	c->kp.post_handler = ppc_post;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &c->kp), 0);
	return c;
}

/* XER's summary overflow and carry bits (the ISA's; no header has them). */
#define PPC_XER_SO	0x80000000UL
#define PPC_XER_CA	0x20000000UL

/* Operands whose sum carries out and overflows: CA, OV and SO all set. */
#define A_OPND	LONG_MIN
#define B_OPND	(-1L)

/*
 * Each mode gives what the function computes unprobed: the sum, CR, XER
 * and the PVR, whatever CR and XER held before the probed instruction.
 */
static void ppc_flags_kept(struct kunit *test)
{
	static const char * const where[] = { "emulated", "stepped", "after" };
	unsigned long want[4], got[4];
	struct ppc_ctx *c;
	int i;

	kpt_ppc_flags(want, A_OPND, B_OPND);
	KUNIT_ASSERT_NE(test, want[2] & PPC_XER_CA, 0UL);
	KUNIT_ASSERT_NE(test, want[2] & PPC_XER_SO, 0UL);

	for (i = 0; i < ARRAY_SIZE(where); i++) {
		kprobe_opcode_t *at = i == 0 ? PPC_AT(kpt_ppc_flags, emul) :
				      i == 1 ? PPC_AT(kpt_ppc_flags, step) :
					       PPC_AT(kpt_ppc_flags, cr);

		c = probe(test, at);
		memset(got, 0, sizeof(got));
		kpt_ppc_flags(got, A_OPND, B_OPND);
		KUNIT_EXPECT_EQ_MSG(test, c->pre, 1, "%s", where[i]);
		KUNIT_EXPECT_EQ_MSG(test, c->post, 1, "%s", where[i]);
		KUNIT_EXPECT_EQ_MSG(test, got[0], want[0], "%s: sum", where[i]);
		KUNIT_EXPECT_EQ_MSG(test, got[1], want[1], "%s: CR", where[i]);
		KUNIT_EXPECT_EQ_MSG(test, got[2], want[2], "%s: XER", where[i]);
		KUNIT_EXPECT_EQ_MSG(test, got[3], want[3], "%s: PVR", where[i]);
		unregister_kprobe(&c->kp);
	}
	/* The third probe saw CR and XER as the add left them. */
	KUNIT_EXPECT_EQ(test, c->pre_ccr, want[1]);
	KUNIT_EXPECT_EQ(test, c->pre_xer & 0xffffffffUL, want[2] & 0xffffffffUL);
}

/* A branch and link, emulated: the call goes where it went, LR too. */
static void ppc_branch(struct kunit *test)
{
	struct ppc_ctx *c = probe(test, PPC_AT(kpt_ppc_branch, bl));

	KUNIT_EXPECT_EQ(test, kpt_ppc_branch(32), 42L);
	KUNIT_EXPECT_EQ(test, kpt_ppc_branch(-10), 0L);
	KUNIT_EXPECT_EQ(test, c->pre, 2);
	KUNIT_EXPECT_EQ(test, c->post, 2);
}

static int ppc_try(kprobe_opcode_t *at)
{
	struct kprobe kp = { .addr = at, .pre_handler = ppc_pre };
	int ret = register_kprobe(&kp);

	if (!ret)
		unregister_kprobe(&kp);
	return ret;
}

/* What registration refuses, with stock's errno, and what it takes. */
static void ppc_refused(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ppc_try(PPC_AT(kpt_ppc_refused, larx)), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppc_try(PPC_AT(kpt_ppc_refused, in_seq)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ppc_try(PPC_AT(kpt_ppc_refused, stcx)), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppc_try(PPC_AT(kpt_ppc_refused, after_seq)), 0);
	KUNIT_EXPECT_EQ(test, ppc_try(PPC_AT(kpt_ppc_refused, trap)), -EINVAL);
	/* What changes the interrupt state behind the step's back. */
	KUNIT_EXPECT_EQ(test, ppc_try(PPC_AT(kpt_ppc_refused, mtsrr0)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ppc_try(PPC_AT(kpt_ppc_refused, wrteei)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ppc_try(PPC_AT(kpt_ppc_refused, bctar)), -EINVAL);
	if (IS_ENABLED(CONFIG_PPC64)) {
		KUNIT_EXPECT_EQ(test,
				ppc_try(PPC_AT(kpt_ppc_refused, softmask)),
				-EINVAL);
		KUNIT_EXPECT_EQ(test,
				ppc_try(PPC_AT(kpt_ppc_refused, suffix)),
				-EINVAL);
	}
	/* Not word-aligned. */
	KUNIT_EXPECT_EQ(test,
			ppc_try((kprobe_opcode_t *)((u8 *)PPC_AT(kpt_ppc_flags,
								 emul) + 2)),
			-EINVAL);
}

static struct kunit_case ppc_cases[] = {
	KUNIT_CASE(ppc_flags_kept),
	KUNIT_CASE(ppc_branch),
	KUNIT_CASE(ppc_refused),
	{}
};

static struct kunit_suite ppc_suite = {
	.name = "kprobes_powerpc_insn",
	.test_cases = ppc_cases,
};

kunit_test_suite(ppc_suite);
