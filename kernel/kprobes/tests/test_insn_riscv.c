// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: the RISC-V backend, instruction by instruction.
 *
 * Every class that decode.c simulates (JAL, JALR, AUIPC, the six
 * conditional branches, C.J, C.JR, C.JALR, C.BEQZ, C.BNEZ) is probed in
 * a target of insn_targets_riscv.S, and what the function computes with
 * the probe is checked against what it computes without one, and against
 * C; so is a compressed instruction that runs out of line.  Then the
 * laws a probe keeps: the caller's interrupt flag across the step, and
 * the temporaries and ra as a function returns through the return
 * trampoline.  Last, the refusals and their errno.
 */
#include <kunit/test.h>
#include <linux/kprobes.h>

#include "tests.h"
#include "insn_targets_riscv.h"

#define RV_AT(fn, name) \
	((kprobe_opcode_t *)((u8 *)(fn) + kpt_rv_##name##_off))

struct rv_ctx {
	struct kprobe kp;
	int pre;
	int post;
};

static struct rv_ctx *rctx(struct kprobe *p)
{
	return container_of(p, struct rv_ctx, kp);
}

static int rv_pre(struct kprobe *p, struct pt_regs *regs)
{
	rctx(p)->pre++;
	return 0;
}

static void rv_post(struct kprobe *p, struct pt_regs *regs,
		    unsigned long flags)
{
	rctx(p)->post++;
}

/* Probe @where, with a post handler, for the rest of the test. */
static struct rv_ctx *probe(struct kunit *test, kprobe_opcode_t *where)
{
	struct rv_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->kp.addr = where;
	c->kp.pre_handler = rv_pre;
	c->kp.post_handler = rv_post;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &c->kp), 0);
	return c;
}

static void rv_jumps(struct kunit *test)
{
	unsigned long here = kpt_rv_auipc();
	struct rv_ctx *c;

	KUNIT_EXPECT_EQ(test, here, (unsigned long)RV_AT(kpt_rv_auipc, auipc));

	c = probe(test, RV_AT(kpt_rv_jal, jal));
	KUNIT_EXPECT_EQ(test, kpt_rv_jal(1), 11);
	KUNIT_EXPECT_EQ(test, c->pre, 1);
	KUNIT_EXPECT_EQ(test, c->post, 1);

	c = probe(test, RV_AT(kpt_rv_jalr, jalr));
	KUNIT_EXPECT_EQ(test, kpt_rv_jalr(1, kpt_rv_leaf), 8);

	c = probe(test, RV_AT(kpt_rv_auipc, auipc));
	KUNIT_EXPECT_EQ(test, kpt_rv_auipc(), here);

	c = probe(test, RV_AT(kpt_rv_c_j, c_j));
	KUNIT_EXPECT_EQ(test, kpt_rv_c_j(41), 42);

	c = probe(test, RV_AT(kpt_rv_c_jalr, c_jalr));
	KUNIT_EXPECT_EQ(test, kpt_rv_c_jalr(2, kpt_rv_leaf), 10);

	c = probe(test, RV_AT(kpt_rv_c_jr, c_jr));
	KUNIT_EXPECT_EQ(test, kpt_rv_c_jr(1), 6);

	/* A compressed instruction in a slot. */
	c = probe(test, RV_AT(kpt_rv_c_addi, c_addi));
	KUNIT_EXPECT_EQ(test, kpt_rv_c_addi(1), 2);
	KUNIT_EXPECT_EQ(test, c->post, 1);
}

static const long pairs[][2] = {
	{ 1, 2 }, { 2, 2 }, { 3, 1 }, { -1, 1 }, { 1, -1 },
	{ LONG_MIN, LONG_MAX }, { LONG_MAX, LONG_MIN }, { 0, 0 },
};

struct rv_branch {
	const char *name;
	long (*fn)(long a, long b);
	const long *off;
	int op;
};

/* Is the branch @op taken for (a, b)?  Plain C, to check against. */
static bool taken(int op, long a, long b)
{
	switch (op) {
	case 0: return a == b;
	case 1: return a != b;
	case 2: return a < b;
	case 3: return a >= b;
	case 4: return (unsigned long)a < (unsigned long)b;
	default: return (unsigned long)a >= (unsigned long)b;
	}
}

#define BR(n, op) { #n, kpt_rv_##n, &kpt_rv_##n##_off, op }

static const struct rv_branch branches[] = {
	BR(beq, 0), BR(bne, 1), BR(blt, 2), BR(bge, 3), BR(bltu, 4),
	BR(bgeu, 5),
};

static void rv_branches(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(branches); i++) {
		const struct rv_branch *b = &branches[i];
		struct rv_ctx *c;

		for (j = 0; j < ARRAY_SIZE(pairs); j++)
			KUNIT_EXPECT_EQ_MSG(test, b->fn(pairs[j][0], pairs[j][1]),
					    (long)taken(b->op, pairs[j][0],
							pairs[j][1]),
					    "%s unprobed, pair %u", b->name, j);
		c = probe(test, (kprobe_opcode_t *)((u8 *)b->fn + *b->off));
		for (j = 0; j < ARRAY_SIZE(pairs); j++)
			KUNIT_EXPECT_EQ_MSG(test, b->fn(pairs[j][0], pairs[j][1]),
					    (long)taken(b->op, pairs[j][0],
							pairs[j][1]),
					    "%s probed, pair %u", b->name, j);
		KUNIT_EXPECT_EQ(test, c->pre, (int)ARRAY_SIZE(pairs));
		unregister_kprobe(&c->kp);
	}

	probe(test, RV_AT(kpt_rv_c_beqz, c_beqz));
	probe(test, RV_AT(kpt_rv_c_bnez, c_bnez));
	KUNIT_EXPECT_EQ(test, kpt_rv_c_beqz(0), 1);
	KUNIT_EXPECT_EQ(test, kpt_rv_c_beqz(5), 0);
	KUNIT_EXPECT_EQ(test, kpt_rv_c_bnez(0), 0);
	KUNIT_EXPECT_EQ(test, kpt_rv_c_bnez(5), 1);
}

/* The caller's interrupt flag comes back after the copy, on or off. */
static void rv_interrupts_kept(struct kunit *test)
{
	unsigned long on = kpt_rv_sie(0), off = kpt_rv_sie(1);
	struct rv_ctx *c;

	KUNIT_EXPECT_NE(test, on, off);
	c = probe(test, RV_AT(kpt_rv_sie, sie));
	KUNIT_EXPECT_EQ(test, kpt_rv_sie(0), on);
	KUNIT_EXPECT_EQ(test, kpt_rv_sie(1), off);
	KUNIT_EXPECT_EQ(test, c->post, 2);
}

#ifdef CONFIG_KRETPROBES
static int rv_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

/* t0..t6, a0..a7 and ra as without a return probe. */
static void rv_return_keeps_registers(struct kunit *test)
{
	static struct kretprobe rp;

	KUNIT_ASSERT_EQ(test, kpt_rv_after_ret(), 120L);
	memset(&rp, 0, sizeof(rp));
	rp.kp.addr = (kprobe_opcode_t *)kpt_rv_set_temps;
	rp.handler = rv_ret_handler;
	KUNIT_ASSERT_EQ(test, register_kretprobe(&rp), 0);
	KUNIT_EXPECT_EQ(test, kpt_rv_after_ret(), 120L);
	unregister_kretprobe(&rp);
	KUNIT_EXPECT_EQ(test, rp.nmissed, 0);
}
#else
static void rv_return_keeps_registers(struct kunit *test)
{
	kunit_skip(test, "no CONFIG_KRETPROBES");
}
#endif

/* What may not be probed, with the stock kernel's errno. */
static void rv_refused(struct kunit *test)
{
	static const long *const refused[] = {
		&kpt_rv_refused_ecall_off, &kpt_rv_refused_csr_off,
		&kpt_rv_refused_fence_off, &kpt_rv_refused_lr_off,
		&kpt_rv_refused_in_seq_off,
	};
	struct kprobe p;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		memset(&p, 0, sizeof(p));
		p.addr = (kprobe_opcode_t *)((u8 *)kpt_rv_refused + *refused[i]);
		p.pre_handler = rv_pre;
		KUNIT_EXPECT_EQ_MSG(test, register_kprobe(&p), -EINVAL,
				    "offset %ld", *refused[i]);
	}
	/* Inside a 4-byte instruction, and at an odd address. */
	memset(&p, 0, sizeof(p));
	p.addr = (kprobe_opcode_t *)((u8 *)RV_AT(kpt_rv_refused, inside) + 2);
	KUNIT_EXPECT_EQ(test, register_kprobe(&p), -EILSEQ);
	memset(&p, 0, sizeof(p));
	p.addr = (kprobe_opcode_t *)((u8 *)RV_AT(kpt_rv_refused, inside) + 1);
	KUNIT_EXPECT_EQ(test, register_kprobe(&p), -EILSEQ);
	/* After the sequence's SC: fine. */
	memset(&p, 0, sizeof(p));
	p.addr = RV_AT(kpt_rv_refused, after_seq);
	KUNIT_EXPECT_EQ(test, register_kprobe(&p), 0);
	unregister_kprobe(&p);
}

static struct kunit_case rv_cases[] = {
	KUNIT_CASE(rv_jumps),
	KUNIT_CASE(rv_branches),
	KUNIT_CASE(rv_interrupts_kept),
	KUNIT_CASE(rv_return_keeps_registers),
	KUNIT_CASE(rv_refused),
	{}
};

static struct kunit_suite rv_suite = {
	.name = "kprobes_riscv_insn",
	.test_cases = rv_cases,
};

kunit_test_suite(rv_suite);
