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
 *
 * The hit runs this next to the rest of the hit path, in .kprobes.text
 * (never traced or probed), and picks the operation with one switch on
 * a code decoded once, when the detour is built.
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

/*
 * struct x86_regop's operations, one per operand size, so that a hit
 * picks the code to run with a single switch.  32-bit forms first, each
 * 64-bit one REGOP_WIDE after its 32-bit twin.
 */
enum {
	REGOP_MOV32 = X86_REGOP_NONE + 1,
	REGOP_ADD32, REGOP_OR32, REGOP_AND32, REGOP_SUB32, REGOP_XOR32,
	REGOP_CMP32, REGOP_TEST32,
	REGOP_MOV64,
	REGOP_ADD64, REGOP_OR64, REGOP_AND64, REGOP_SUB64, REGOP_XOR64,
	REGOP_CMP64, REGOP_TEST64,
};

#define REGOP_WIDE	(REGOP_MOV64 - REGOP_MOV32)

/* The 32-bit operation of each /digit (and TEST); 0 for ADC and SBB. */
static const u8 alu_op32[REGOP_TEST + 1] = {
	[REGOP_ADD] = REGOP_ADD32, [REGOP_OR] = REGOP_OR32,
	[REGOP_AND] = REGOP_AND32, [REGOP_SUB] = REGOP_SUB32,
	[REGOP_XOR] = REGOP_XOR32, [REGOP_CMP] = REGOP_CMP32,
	[REGOP_TEST] = REGOP_TEST32,
};

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

/* The ALU operation of opcode @op in the 0x00-0x3f block, or -1. */
static int alu_of_opcode(u8 op, bool *to_reg, bool *to_ax)
{
	int digit = op >> 3;

	/* ADC (2) and SBB (3) read CF; 0x?0/0x?2 are 8-bit forms. */
	if (op >= 0x40 || !alu_op32[digit])
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
	op->op = alu_op32[alu];
	op->dst = gpr_offset[to_reg ? reg : rm];
	op->src = gpr_offset[to_reg ? rm : reg];
	return true;
}

/* Fill @op for "ALU @alu" with an immediate source. */
static bool decode_alu_imm(struct insn *insn, struct x86_regop *op,
			   int alu, u8 dst)
{
	op->op = alu_op32[alu];
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
		op->op = REGOP_MOV32;
		op->dst = gpr_offset[opc == 0x8b ? reg : rm];
		op->src = gpr_offset[opc == 0x8b ? rm : reg];
		return true;
	case 0x85:				/* TEST r/m, reg */
		return decode_alu(op, REGOP_TEST, reg, rm, false);
	case 0x81:				/* ALU r/m, imm32 */
	case 0x83:				/* ALU r/m, imm8 */
		alu = X86_MODRM_REG(insn->modrm.bytes[0]);
		if (!alu_op32[alu])
			return false;
		return decode_alu_imm(insn, op, alu, rm);
	case 0xc7:				/* MOV r/m, imm32 */
		if (X86_MODRM_REG(insn->modrm.bytes[0]))
			return false;
		op->op = REGOP_MOV32;
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
			 u8 rex)
{
	u8 rex_b = X86_REX_B(rex) ? 8 : 0;
	bool to_reg, to_ax;
	int alu;

	if (opc >= 0xb8 && opc <= 0xbf) {	/* MOV reg, imm32 / imm64 */
		op->op = REGOP_MOV32;
		op->dst = gpr_offset[(opc & 7) | rex_b];
		op->src = X86_REGOP_IMM;
		op->imm = X86_REX_W(rex) ?
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
 * @op: filled in when it can; @op->op is %X86_REGOP_NONE when it cannot
 *
 * Return: true when regop_run() reproduces every effect of @insn.
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
	if (!insn->modrm.nbytes) {
		if (!decode_short(insn, op, opc, rex))
			goto none;
		goto found;
	}
	modrm = insn->modrm.bytes[0];
	if (X86_MODRM_MOD(modrm) != 3)		/* a memory operand */
		goto none;
	reg = X86_MODRM_REG(modrm) | (X86_REX_R(rex) ? 8 : 0);
	rm = X86_MODRM_RM(modrm) | (X86_REX_B(rex) ? 8 : 0);
	if (!decode_modrm(insn, op, opc, reg, rm))
		goto none;
found:
	if (X86_REX_W(rex))
		op->op += REGOP_WIDE;
	return true;
none:
	memset(op, 0, sizeof(*op));
	return false;
}

/*
 * @mnemonic on the destination's value (of @type, the operand size) and
 * the source, the CPU's flags after it into @fl.  @store: the result goes
 * back to the destination; a 32-bit one is zero-extended to the whole
 * register, as on the CPU.
 */
#define REGOP_ALU(mnemonic, type, store, dst, src, fl)			\
	do {								\
		unsigned long *__to = (dst);				\
		type __d = *__to;					\
									\
		asm(mnemonic " %[s], %[d]\n\tpushf\n\tpop %[f]"		\
		    : [d] "+r" (__d), [f] "=r" (fl)			\
		    : [s] "r" ((type)(src)) : "cc");			\
		if (store)						\
			*__to = __d;					\
	} while (0)

/* Do @op on @regs, but for regs->ip. */
static __always_inline void regop_run(const struct x86_regop *op,
				      struct pt_regs *regs)
{
	unsigned long *dst = (unsigned long *)((u8 *)regs + op->dst);
	unsigned long src, fl;

	src = op->src == X86_REGOP_IMM ? op->imm :
	      *(unsigned long *)((u8 *)regs + op->src);
	switch (op->op) {
	case REGOP_MOV32:
		*dst = (u32)src;
		return;
	case REGOP_MOV64:
		*dst = src;
		return;
	case REGOP_ADD32:
		REGOP_ALU("addl", u32, true, dst, src, fl);
		break;
	case REGOP_OR32:
		REGOP_ALU("orl", u32, true, dst, src, fl);
		break;
	case REGOP_AND32:
		REGOP_ALU("andl", u32, true, dst, src, fl);
		break;
	case REGOP_SUB32:
		REGOP_ALU("subl", u32, true, dst, src, fl);
		break;
	case REGOP_XOR32:
		REGOP_ALU("xorl", u32, true, dst, src, fl);
		break;
	case REGOP_CMP32:
		REGOP_ALU("cmpl", u32, false, dst, src, fl);
		break;
	case REGOP_TEST32:
		REGOP_ALU("testl", u32, false, dst, src, fl);
		break;
	case REGOP_ADD64:
		REGOP_ALU("addq", u64, true, dst, src, fl);
		break;
	case REGOP_OR64:
		REGOP_ALU("orq", u64, true, dst, src, fl);
		break;
	case REGOP_AND64:
		REGOP_ALU("andq", u64, true, dst, src, fl);
		break;
	case REGOP_SUB64:
		REGOP_ALU("subq", u64, true, dst, src, fl);
		break;
	case REGOP_XOR64:
		REGOP_ALU("xorq", u64, true, dst, src, fl);
		break;
	case REGOP_CMP64:
		REGOP_ALU("cmpq", u64, false, dst, src, fl);
		break;
	case REGOP_TEST64:
		REGOP_ALU("testq", u64, false, dst, src, fl);
		break;
	default:
		return;
	}
	regs->flags = (regs->flags & ~REGOP_FLAGS) | (fl & REGOP_FLAGS);
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
bool __kprobes arch_kprobe_detour_first_insn(struct kprobe_site *site,
					     struct pt_regs *regs)
{
	const struct arch_specific_insn *ai = &site->ainsn;

	if (ai->opt_op.op == X86_REGOP_NONE)
		return false;
	regop_run(&ai->opt_op, regs);
	regs->ip = (unsigned long)site->addr + ai->len;
	return true;
}
