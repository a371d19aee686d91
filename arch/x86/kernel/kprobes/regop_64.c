// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes: the first instruction of a jump-optimized region, done in C.
 *
 * A hit with post handlers needs the registers as the probed instruction
 * left them.  The detour's general way there runs the copy of that
 * instruction and builds a second struct pt_regs after it (opt.c).  When
 * the instruction reads and writes nothing but general registers and
 * the arithmetic flags, we do it here instead, on the pt_regs the detour
 * already saved: the post handlers run at once, in the same call, and the
 * detour goes on with the copy of the rest of the region.
 *
 * Only forms whose every effect we reproduce exactly are taken: MOV
 * between registers or from an immediate, and ADD, OR, AND, SUB, XOR,
 * CMP and TEST with a register or immediate source, 32 or 64 bits wide.
 * The operation itself is the CPU's (inline assembly), so the flags it
 * leaves, the ones the SDM calls undefined (AF after a logical operation)
 * included, are those the original instruction would have left; we copy
 * CF, PF, AF, ZF, SF and OF into regs->flags and nothing else.  None of
 * these operations reads a flag.  A 32-bit result clears the upper half
 * of its register, as on the CPU.  Anything else (memory operands, 8- and
 * 16-bit forms, ADC and SBB, prefixes other than REX) keeps the general
 * way.
 */
#include <linux/kprobes.h>
#include <linux/stddef.h>
#include <asm/insn.h>
#include <asm/processor-flags.h>

#include "internal.h"

/* The ALU group's /digit, and TEST. */
#define REGOP_ADD	0
#define REGOP_OR	1
#define REGOP_AND	4
#define REGOP_SUB	5
#define REGOP_XOR	6
#define REGOP_CMP	7
#define REGOP_TEST	8

#define REGOP_FLAGS	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | \
			 X86_EFLAGS_ZF | X86_EFLAGS_SF | X86_EFLAGS_OF)

/* pt_regs offsets of the registers, in the encoding's order. */
static const u8 gpr_offset[16] = {
	offsetof(struct pt_regs, ax), offsetof(struct pt_regs, cx),
	offsetof(struct pt_regs, dx), offsetof(struct pt_regs, bx),
	offsetof(struct pt_regs, sp), offsetof(struct pt_regs, bp),
	offsetof(struct pt_regs, si), offsetof(struct pt_regs, di),
	offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
	offsetof(struct pt_regs, r10), offsetof(struct pt_regs, r11),
	offsetof(struct pt_regs, r12), offsetof(struct pt_regs, r13),
	offsetof(struct pt_regs, r14), offsetof(struct pt_regs, r15),
};

/* Opcode bytes of "op r/m, reg" for the ALU operations, by /digit. */
static const u8 alu_store_opcode[8] = {
	[REGOP_ADD] = 0x01, [REGOP_OR] = 0x09, [REGOP_AND] = 0x21,
	[REGOP_SUB] = 0x29, [REGOP_XOR] = 0x31, [REGOP_CMP] = 0x39,
};

/* The ALU operation of opcode @op in the 0x00-0x3f block, or -1. */
static int alu_of_opcode(u8 op, bool *to_reg, bool *to_ax)
{
	int digit = op >> 3;

	/* ADC (2) and SBB (3) read CF; 0x?0/0x?2 are 8-bit forms. */
	if (op >= 0x40 || !alu_store_opcode[digit])
		return -1;
	*to_reg = (op & 7) == 3;	/* op reg, r/m */
	*to_ax = (op & 7) == 5;		/* op eAX, imm32 */
	if ((op & 7) != 1 && !*to_reg && !*to_ax)
		return -1;
	return digit;
}

/* Fill @op for "ALU @alu" with ModRM destination or source. */
static bool decode_alu(struct x86_regop *op, int alu, u8 reg, u8 rm,
		       bool to_reg)
{
	op->kind = X86_REGOP_ALU;
	op->alu = alu;
	op->dst = gpr_offset[to_reg ? reg : rm];
	op->src = gpr_offset[to_reg ? rm : reg];
	return true;
}

/* Fill @op for "ALU @alu" with an immediate source. */
static bool decode_alu_imm(struct insn *insn, struct x86_regop *op,
			   int alu, u8 dst)
{
	op->kind = X86_REGOP_ALU;
	op->alu = alu;
	op->dst = gpr_offset[dst];
	op->src = X86_REGOP_IMM;
	op->imm = insn->immediate.value;	/* sign-extended by the decoder */
	return true;
}

/* The forms with a ModRM byte; @reg and @rm are the full register numbers. */
static bool decode_modrm(struct insn *insn, struct x86_regop *op, u8 opc,
			 u8 reg, u8 rm)
{
	bool to_reg, to_ax;
	int alu;

	switch (opc) {
	case 0x89:				/* MOV r/m, reg */
	case 0x8b:				/* MOV reg, r/m */
		op->kind = X86_REGOP_MOV;
		op->dst = gpr_offset[opc == 0x8b ? reg : rm];
		op->src = gpr_offset[opc == 0x8b ? rm : reg];
		return true;
	case 0x85:				/* TEST r/m, reg */
		return decode_alu(op, REGOP_TEST, reg, rm, false);
	case 0x81:				/* ALU r/m, imm32 */
	case 0x83:				/* ALU r/m, imm8 */
		alu = X86_MODRM_REG(insn->modrm.bytes[0]);
		if (!alu_store_opcode[alu])
			return false;
		return decode_alu_imm(insn, op, alu, rm);
	case 0xc7:				/* MOV r/m, imm32 */
		if (X86_MODRM_REG(insn->modrm.bytes[0]))
			return false;
		op->kind = X86_REGOP_MOV;
		op->dst = gpr_offset[rm];
		op->src = X86_REGOP_IMM;
		op->imm = insn->immediate.value;
		return true;
	case 0xf7:				/* TEST r/m, imm32 (/0) */
		if (X86_MODRM_REG(insn->modrm.bytes[0]))
			return false;
		return decode_alu_imm(insn, op, REGOP_TEST, rm);
	}
	alu = alu_of_opcode(opc, &to_reg, &to_ax);
	if (alu < 0 || to_ax)
		return false;
	return decode_alu(op, alu, reg, rm, to_reg);
}

/* The forms without one: MOV reg, imm and ALU eAX, imm32. */
static bool decode_short(struct insn *insn, struct x86_regop *op, u8 opc,
			 u8 rex_b)
{
	bool to_reg, to_ax;
	int alu;

	if (opc >= 0xb8 && opc <= 0xbf) {	/* MOV reg, imm32 / imm64 */
		op->kind = X86_REGOP_MOV;
		op->dst = gpr_offset[(opc & 7) | rex_b];
		op->src = X86_REGOP_IMM;
		op->imm = op->width == 8 ?
			  (s64)((u32)insn->immediate1.value |
				(u64)insn->immediate2.value << 32) :
			  (u32)insn->immediate.value;
		return true;
	}
	if (opc == 0xa9)			/* TEST eAX, imm32 */
		return decode_alu_imm(insn, op, REGOP_TEST, 0);
	alu = alu_of_opcode(opc, &to_reg, &to_ax);
	if (alu < 0 || !to_ax)
		return false;
	return decode_alu_imm(insn, op, alu, 0);
}

/**
 * x86_regop_decode - can a detour do this instruction in C?
 * @insn: the decoded instruction (64-bit mode)
 * @op: filled in when it can; kind %X86_REGOP_NONE when it cannot
 *
 * Return: true when x86_regop_run() reproduces every effect of @insn.
 */
bool x86_regop_decode(struct insn *insn, struct x86_regop *op)
{
	u8 opc = insn->opcode.bytes[0];
	u8 rex = insn->rex_prefix.nbytes ? insn->rex_prefix.bytes[0] : 0;
	u8 modrm, reg, rm;

	memset(op, 0, sizeof(*op));
	/*
	 * REX alone: no operand-size, LOCK, REP or segment prefix, no VEX,
	 * and no REX2, whose registers beyond R15 pt_regs does not have.
	 */
	if (insn->prefixes.nbytes || insn->vex_prefix.nbytes ||
	    insn_is_rex2(insn) || insn->opcode.nbytes != 1)
		return false;
	op->width = X86_REX_W(rex) ? 8 : 4;
	if (!insn->modrm.nbytes) {
		if (!decode_short(insn, op, opc, X86_REX_B(rex) ? 8 : 0))
			goto none;
		return true;
	}
	modrm = insn->modrm.bytes[0];
	if (X86_MODRM_MOD(modrm) != 3)		/* a memory operand */
		goto none;
	reg = X86_MODRM_REG(modrm) | (X86_REX_R(rex) ? 8 : 0);
	rm = X86_MODRM_RM(modrm) | (X86_REX_B(rex) ? 8 : 0);
	if (decode_modrm(insn, op, opc, reg, rm))
		return true;
none:
	memset(op, 0, sizeof(*op));
	return false;
}

/*
 * One ALU operation on @a and @b at the operand size of their type, the
 * CPU's flags after it into @f.
 */
#define REGOP_ALU(mnemonic, a, b, f)					\
	asm(mnemonic " %[src], %[dst]\n\tpushf\n\tpop %[fl]"		\
	    : [dst] "+r" (a), [fl] "=r" (f) : [src] "r" (b) : "cc")

static __always_inline u64 alu64(u8 alu, u64 a, u64 b, unsigned long *flags)
{
	unsigned long f = 0;

	switch (alu) {
	case REGOP_ADD:
		REGOP_ALU("addq", a, b, f);
		break;
	case REGOP_OR:
		REGOP_ALU("orq", a, b, f);
		break;
	case REGOP_AND:
		REGOP_ALU("andq", a, b, f);
		break;
	case REGOP_SUB:
		REGOP_ALU("subq", a, b, f);
		break;
	case REGOP_XOR:
		REGOP_ALU("xorq", a, b, f);
		break;
	case REGOP_CMP:
		REGOP_ALU("cmpq", a, b, f);
		break;
	case REGOP_TEST:
		REGOP_ALU("testq", a, b, f);
		break;
	}
	*flags = f;
	return a;
}

static __always_inline u32 alu32(u8 alu, u32 a, u32 b, unsigned long *flags)
{
	unsigned long f = 0;

	switch (alu) {
	case REGOP_ADD:
		REGOP_ALU("addl", a, b, f);
		break;
	case REGOP_OR:
		REGOP_ALU("orl", a, b, f);
		break;
	case REGOP_AND:
		REGOP_ALU("andl", a, b, f);
		break;
	case REGOP_SUB:
		REGOP_ALU("subl", a, b, f);
		break;
	case REGOP_XOR:
		REGOP_ALU("xorl", a, b, f);
		break;
	case REGOP_CMP:
		REGOP_ALU("cmpl", a, b, f);
		break;
	case REGOP_TEST:
		REGOP_ALU("testl", a, b, f);
		break;
	}
	*flags = f;
	return a;
}

static __always_inline unsigned long *gpr(struct pt_regs *regs, u8 offset)
{
	return (unsigned long *)((u8 *)regs + offset);
}

/* Do @op on @regs, but for regs->ip. */
static __always_inline void regop_run(const struct x86_regop *op,
				      struct pt_regs *regs)
{
	unsigned long src = op->src == X86_REGOP_IMM ? op->imm :
						       *gpr(regs, op->src);
	unsigned long *dst = gpr(regs, op->dst);
	unsigned long res, flags;

	if (op->kind == X86_REGOP_MOV) {
		*dst = op->width == 8 ? src : (u32)src;
		return;
	}
	if (op->width == 8)
		res = alu64(op->alu, *dst, src, &flags);
	else
		res = alu32(op->alu, *dst, src, &flags);
	regs->flags = (regs->flags & ~REGOP_FLAGS) | (flags & REGOP_FLAGS);
	if (op->alu != REGOP_CMP && op->alu != REGOP_TEST)
		*dst = res;		/* a 32-bit result is zero-extended */
}

/**
 * arch_kprobe_detour_first_insn - do the region's first instruction in C
 * @site: an optimized site whose detour has called the core
 * @regs: the registers the detour saved
 *
 * For a hit with post handlers.  When this returns true, the detour's
 * verdict is %X86_DETOUR_REST (or IRET), which the detour of a site
 * whose first instruction x86_regop_decode() took has a way for
 * (link_rest_way() in opt.c).
 *
 * Return: true when the instruction is done on @regs, regs->ip after it.
 */
bool arch_kprobe_detour_first_insn(struct kprobe_site *site,
				   struct pt_regs *regs)
{
	const struct arch_specific_insn *ai = &site->ainsn;

	if (ai->opt_op.kind == X86_REGOP_NONE)
		return false;
	regop_run(&ai->opt_op, regs);
	regs->ip = (unsigned long)site->addr + ai->len;
	return true;
}

NOKPROBE_SYMBOL(arch_kprobe_detour_first_insn);
