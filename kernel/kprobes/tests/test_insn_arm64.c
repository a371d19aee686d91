// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: the arm64 backend, instruction by instruction.
 *
 * Every class that decode.c simulates (B, BL, B.cond, CBZ/CBNZ,
 * TBZ/TBNZ, ADR/ADRP, BR/BLR/RET, loads of a literal) is probed in a
 * target of insn_targets_arm64.S, and what the function computes with the
 * probe is checked against what it computes without one, and against C.
 * Then the laws a probe keeps: NZCV across an out-of-line copy, with and
 * without a post handler; the caller's DAIF bits; NZCV, X9..X17 and X30
 * as a function returns through the return trampoline.  Last, the
 * refusals and their errno.
 */
#include <kunit/test.h>
#include <linux/kprobes.h>

#include "tests.h"

#include "insn_targets_arm64.h"

#define A64_AT(fn, name) \
	((kprobe_opcode_t *)((u8 *)(fn) + kpt_a64_##name##_off))

struct a64_ctx {
	struct kprobe kp;
	int pre;
	int post;
};

static struct a64_ctx *actx(struct kprobe *p)
{
	return container_of(p, struct a64_ctx, kp);
}

static int a64_pre(struct kprobe *p, struct pt_regs *regs)
{
	actx(p)->pre++;
	return 0;
}

static void a64_post(struct kprobe *p, struct pt_regs *regs,
		     unsigned long flags)
{
	actx(p)->post++;
}

/* Probe @where, with a post handler if @post, for the rest of the test. */
static struct a64_ctx *probe(struct kunit *test, kprobe_opcode_t *where,
			     bool post)
{
	struct a64_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->kp.addr = where;
	c->kp.pre_handler = a64_pre;
	if (post)
		c->kp.post_handler = a64_post;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &c->kp), 0);
	return c;
}

static void a64_branches(struct kunit *test)
{
	struct a64_ctx *c;

	c = probe(test, A64_AT(kpt_a64_b, b), true);
	KUNIT_EXPECT_EQ(test, kpt_a64_b(41), 42);
	KUNIT_EXPECT_EQ(test, c->pre, 1);
	KUNIT_EXPECT_EQ(test, c->post, 1);

	c = probe(test, A64_AT(kpt_a64_bl, bl), true);
	KUNIT_EXPECT_EQ(test, kpt_a64_bl(1), 11);

	c = probe(test, A64_AT(kpt_a64_blr, blr), true);
	KUNIT_EXPECT_EQ(test, kpt_a64_blr(1, kpt_a64_leaf), 8);
	KUNIT_EXPECT_EQ(test, c->pre, 1);

	c = probe(test, A64_AT(kpt_a64_br, br), true);
	KUNIT_EXPECT_EQ(test, kpt_a64_br(1), 6);

	/* RET, in the leaf the BL and BLR cases call. */
	c = probe(test, A64_AT(kpt_a64_leaf, ret), true);
	KUNIT_EXPECT_EQ(test, kpt_a64_bl(2), 12);
	KUNIT_EXPECT_EQ(test, kpt_a64_blr(2, kpt_a64_leaf), 10);
	KUNIT_EXPECT_EQ(test, c->pre, 2);
	KUNIT_EXPECT_EQ(test, c->post, 2);
}

/* Pairs (a, b) whose difference sets each of N, Z, C and V, and not. */
static const long pairs[][2] = {
	{ 1, 2 }, { 2, 2 }, { 3, 1 }, { LONG_MIN, 1 }, { 0, LONG_MIN },
	{ -5, -3 }, { 7, -1 }, { LONG_MAX, -1 }, { -1, LONG_MAX },
};

enum a64_cc {
	A64_EQ, A64_NE, A64_CS, A64_CC, A64_MI, A64_PL, A64_VS, A64_VC,
	A64_HI, A64_LS, A64_GE, A64_LT, A64_GT, A64_LE,
};

/* Does "a - b" set condition @cc?  Plain C, to check B.cond against. */
static bool cond_holds(enum a64_cc cc, long a, long b)
{
	long d;

	switch (cc) {
	case A64_EQ: return a == b;
	case A64_NE: return a != b;
	case A64_CS: return (u64)a >= (u64)b;
	case A64_CC: return (u64)a < (u64)b;
	case A64_MI: return (s64)((u64)a - (u64)b) < 0;
	case A64_PL: return (s64)((u64)a - (u64)b) >= 0;
	case A64_VS: return check_sub_overflow(a, b, &d);
	case A64_VC: return !check_sub_overflow(a, b, &d);
	case A64_HI: return (u64)a > (u64)b;
	case A64_LS: return (u64)a <= (u64)b;
	case A64_GE: return a >= b;
	case A64_LT: return a < b;
	case A64_GT: return a > b;
	case A64_LE: return a <= b;
	}
	return false;
}

struct a64_cond {
	const char *name;
	long (*fn)(long a, long b);
	const long *off;
	enum a64_cc cc;
};

#define COND(cc, CC) \
	{ #cc, kpt_a64_bcond_##cc, &kpt_a64_bcond_##cc##_off, A64_##CC }

static const struct a64_cond conds[] = {
	COND(eq, EQ), COND(ne, NE), COND(cs, CS), COND(cc, CC), COND(mi, MI),
	COND(pl, PL), COND(vs, VS), COND(vc, VC), COND(hi, HI), COND(ls, LS),
	COND(ge, GE), COND(lt, LT), COND(gt, GT), COND(le, LE),
};

static void a64_bcond(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(conds); i++) {
		const struct a64_cond *k = &conds[i];
		long expect[ARRAY_SIZE(pairs)];
		struct a64_ctx *c;

		for (j = 0; j < ARRAY_SIZE(pairs); j++) {
			expect[j] = k->fn(pairs[j][0], pairs[j][1]);
			KUNIT_EXPECT_EQ_MSG(test, expect[j],
					    (long)cond_holds(k->cc, pairs[j][0],
							     pairs[j][1]),
					    "b.%s unprobed, pair %u", k->name, j);
		}
		c = probe(test, (kprobe_opcode_t *)((u8 *)k->fn + *k->off),
			  false);
		for (j = 0; j < ARRAY_SIZE(pairs); j++)
			KUNIT_EXPECT_EQ_MSG(test, k->fn(pairs[j][0], pairs[j][1]),
					    expect[j], "b.%s probed, pair %u",
					    k->name, j);
		KUNIT_EXPECT_EQ(test, c->pre, (int)ARRAY_SIZE(pairs));
		unregister_kprobe(&c->kp);
	}
}

struct a64_test {
	const char *name;
	long (*fn)(long x);
	const long *off;
	long x;
	long taken;
};

#define TEST(n, x, t) { #n, kpt_a64_##n, &kpt_a64_##n##_off, x, t }

static const struct a64_test tests[] = {
	TEST(cbz_x, 0, 1), TEST(cbz_x, 1L << 40, 0),
	TEST(cbnz_x, 0, 0), TEST(cbnz_x, 1L << 40, 1),
	/* The W forms look at the low 32 bits only. */
	TEST(cbz_w, 1L << 40, 1), TEST(cbz_w, 5, 0),
	TEST(cbnz_w, 1L << 40, 0), TEST(cbnz_w, 5, 1),
	TEST(tbz_3, 8, 0), TEST(tbz_3, 7, 1),
	TEST(tbnz_3, 8, 1), TEST(tbnz_3, 7, 0),
	TEST(tbz_40, 1L << 40, 0), TEST(tbz_40, 1L << 39, 1),
	TEST(tbnz_40, 1L << 40, 1), TEST(tbnz_40, 1L << 39, 0),
};

static void a64_test_branches(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		const struct a64_test *t = &tests[i];
		struct a64_ctx *c;

		KUNIT_EXPECT_EQ_MSG(test, t->fn(t->x), t->taken, "%s unprobed",
				    t->name);
		c = probe(test, (kprobe_opcode_t *)((u8 *)t->fn + *t->off),
			  true);
		KUNIT_EXPECT_EQ_MSG(test, t->fn(t->x), t->taken, "%s(%lx)",
				    t->name, t->x);
		KUNIT_EXPECT_EQ(test, c->pre, 1);
		KUNIT_EXPECT_EQ(test, c->post, 1);
		unregister_kprobe(&c->kp);
	}
}

static void a64_pc_relative_data(struct kunit *test)
{
	unsigned long adr = kpt_a64_adr(), adrp = kpt_a64_adrp();
	u64 x = kpt_a64_ldr_x(), w = kpt_a64_ldr_w();
	s64 sw = kpt_a64_ldrsw();

	KUNIT_EXPECT_EQ(test, adrp, adr & ~0xfffUL);
	KUNIT_EXPECT_EQ(test, x, 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, w, 0xfedcba98ULL);
	KUNIT_EXPECT_EQ(test, sw, (s64)(s32)0xfedcba98);

	probe(test, A64_AT(kpt_a64_adr, adr), true);
	probe(test, A64_AT(kpt_a64_adrp, adrp), true);
	probe(test, A64_AT(kpt_a64_ldr_x, ldr_x), true);
	probe(test, A64_AT(kpt_a64_ldr_w, ldr_w), true);
	probe(test, A64_AT(kpt_a64_ldrsw, ldrsw), true);
	probe(test, A64_AT(kpt_a64_prfm, prfm), true);
	KUNIT_EXPECT_EQ(test, kpt_a64_adr(), adr);
	KUNIT_EXPECT_EQ(test, kpt_a64_adrp(), adrp);
	KUNIT_EXPECT_EQ(test, kpt_a64_ldr_x(), x);
	KUNIT_EXPECT_EQ(test, kpt_a64_ldr_w(), w);
	KUNIT_EXPECT_EQ(test, kpt_a64_ldrsw(), sw);
	KUNIT_EXPECT_EQ(test, kpt_a64_prfm(1), 2);
}

/* NZCV survives the out-of-line copy, with or without a post handler. */
static void a64_nzcv_kept(struct kunit *test)
{
	unsigned long expect[ARRAY_SIZE(pairs)];
	unsigned int j, post;

	for (j = 0; j < ARRAY_SIZE(pairs); j++)
		expect[j] = kpt_a64_nzcv(pairs[j][0], pairs[j][1]);
	for (post = 0; post < 2; post++) {
		struct a64_ctx *c = probe(test, A64_AT(kpt_a64_nzcv, nzcv),
					  post);

		for (j = 0; j < ARRAY_SIZE(pairs); j++)
			KUNIT_EXPECT_EQ_MSG(test,
					    kpt_a64_nzcv(pairs[j][0], pairs[j][1]),
					    expect[j], "post %u, pair %u", post, j);
		KUNIT_EXPECT_EQ(test, c->pre, (int)ARRAY_SIZE(pairs));
		unregister_kprobe(&c->kp);
	}
}

/* The caller's DAIF bits come back after the copy, masked or not. */
static void a64_daif_kept(struct kunit *test)
{
	unsigned long on = kpt_a64_daif(0), off = kpt_a64_daif(1);
	struct a64_ctx *c;

	KUNIT_EXPECT_NE(test, on, off);
	c = probe(test, A64_AT(kpt_a64_daif, daif), true);
	KUNIT_EXPECT_EQ(test, kpt_a64_daif(0), on);
	KUNIT_EXPECT_EQ(test, kpt_a64_daif(1), off);
	KUNIT_EXPECT_EQ(test, c->post, 2);
}

#ifdef CONFIG_KRETPROBES
static int a64_ret_handler(struct kretprobe_instance *ri,
			   struct pt_regs *regs)
{
	return 0;
}

/* NZCV, X9..X17 and X30 as without a return probe. */
static void a64_return_keeps_registers(struct kunit *test)
{
	static struct kretprobe rp;
	unsigned long expect[ARRAY_SIZE(pairs)];
	unsigned int j;

	for (j = 0; j < ARRAY_SIZE(pairs); j++) {
		expect[j] = kpt_a64_after_ret(pairs[j][0], pairs[j][1]);
		/* 9 + 10 + ... + 17, and X30 the call's return address. */
		KUNIT_EXPECT_EQ(test, expect[j] & 0xffff, 117UL);
	}
	memset(&rp, 0, sizeof(rp));
	rp.kp.addr = (kprobe_opcode_t *)kpt_a64_cmp_ret;
	rp.handler = a64_ret_handler;
	KUNIT_ASSERT_EQ(test, register_kretprobe(&rp), 0);
	for (j = 0; j < ARRAY_SIZE(pairs); j++)
		KUNIT_EXPECT_EQ_MSG(test,
				    kpt_a64_after_ret(pairs[j][0], pairs[j][1]),
				    expect[j], "pair %u", j);
	unregister_kretprobe(&rp);
	KUNIT_EXPECT_EQ(test, rp.nmissed, 0);
}
#else
static void a64_return_keeps_registers(struct kunit *test)
{
	kunit_skip(test, "no CONFIG_KRETPROBES");
}
#endif

/* What may not be probed, with the stock kernel's errno. */
static void a64_refused(struct kunit *test)
{
	static const long *const refused[] = {
		&kpt_a64_refused_svc_off, &kpt_a64_refused_msr_off,
		&kpt_a64_refused_autiasp_off, &kpt_a64_refused_wfi_off,
		&kpt_a64_refused_mrs_daif_off, &kpt_a64_refused_ldxr_off,
		&kpt_a64_refused_in_seq_off,
	};
	struct kprobe p = { .pre_handler = a64_pre };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		memset(&p, 0, sizeof(p));
		p.addr = (kprobe_opcode_t *)((u8 *)kpt_a64_refused + *refused[i]);
		KUNIT_EXPECT_EQ_MSG(test, register_kprobe(&p), -EINVAL,
				    "offset %ld", *refused[i]);
	}
	/* Misaligned. */
	memset(&p, 0, sizeof(p));
	p.addr = (kprobe_opcode_t *)((u8 *)kpt_a64_leaf + 2);
	KUNIT_EXPECT_EQ(test, register_kprobe(&p), -EINVAL);
	/* After the sequence's store: fine. */
	memset(&p, 0, sizeof(p));
	p.addr = A64_AT(kpt_a64_refused, after_seq);
	KUNIT_EXPECT_EQ(test, register_kprobe(&p), 0);
	unregister_kprobe(&p);
}

static struct kunit_case a64_cases[] = {
	KUNIT_CASE(a64_branches),
	KUNIT_CASE(a64_bcond),
	KUNIT_CASE(a64_test_branches),
	KUNIT_CASE(a64_pc_relative_data),
	KUNIT_CASE(a64_nzcv_kept),
	KUNIT_CASE(a64_daif_kept),
	KUNIT_CASE(a64_return_keeps_registers),
	KUNIT_CASE(a64_refused),
	{}
};

static struct kunit_suite a64_suite = {
	.name = "kprobes_arm64_insn",
	.test_cases = a64_cases,
};

kunit_test_suite(a64_suite);
