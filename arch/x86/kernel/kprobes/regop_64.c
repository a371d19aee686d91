// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes: the first instruction of a jump-optimized region, done on
 * pt_regs by code generated into the detour.
 *
 * A hit with post handlers needs the registers as the probed instruction
 * left them.  The detour's general way there runs the copy of that
 * instruction and builds a second struct pt_regs after it (opt.c).  When
 * the instruction reads and writes nothing but general registers and
 * the arithmetic flags, the detour does it on the pt_regs it already
 * saved instead, with code written here when the detour is built:
 *
 *   1. load the destination's and the source's pt_regs slots into RAX
 *      and RCX;
 *   2. run the instruction itself, its register fields pointed at RAX
 *      and RCX (same opcode, operand size and immediate);
 *   3. store RAX back into the destination's slot;
 *   4. copy the arithmetic flags the instruction left into regs->flags;
 *   5. set regs->ip to the instruction after it.
 *
 * Then x86_detour_post_template runs the post handlers and goes on with
 * the copy of the rest of the region: no second struct pt_regs, no POPF
 * in between, no choice among operations at run time.
 *
 * Only forms whose every effect we reproduce exactly are taken: MOV
 * between registers or from an immediate, and ADD, OR, AND, SUB, XOR,
 * CMP and TEST with a register or immediate source, 32 or 64 bits wide.
 * Because the operation is the original's own, the flags it leaves, the
 * ones the SDM calls undefined (AF after a logical operation) included,
 * are those the original would have left; step 4 copies CF, PF, AF, ZF,
 * SF and OF and nothing else.  None of these operations reads a flag.
 * MOV writes none, and does without steps 1 (for its destination) and 4;
 * CMP and TEST write no register, and do without step 3.  A 32-bit
 * result clears the upper half of RAX, as it would the original
 * destination's, and step 3 stores the whole register.  When both
 * operands are one register, RAX and RCX hold the same value, which
 * gives the same result and flags.  Anything else (memory operands, 8-
 * and 16-bit forms, ADC and SBB, prefixes other than REX) keeps the
 * general way.
 */
#include <linux/kprobes.h>
#include <linux/stddef.h>
#include <linux/unaligned.h>
#include <asm/insn.h>
#include <asm/processor-flags.h>

#include "internal.h"

/* The ALU group's /digit. */
#define ALU_ADC		2
#define ALU_SBB		3
#define ALU_CMP		7

#define REGOP_FLAGS	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | \
			 X86_EFLAGS_ZF | X86_EFLAGS_SF | X86_EFLAGS_OF)

/* The scratch registers' numbers in ModRM fields. */
#define REG_RAX		0
#define REG_RCX		1

/* A ModRM byte for two registers. */
#define MODRM_RR(reg, rm)	(0xc0 | (reg) << 3 | (rm))

#define NO_SRC		0xff

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

/*
 * One instruction the detour can do, as decoded: the pt_regs slots of
 * its operands, what it does with them, and its opcode and ModRM with
 * the register fields pointed at RAX (destination) and RCX (source).
 */
struct regop {
	u8 opcode;
	u8 modrm;		/* 0: the form has none */
	u8 dst;
	u8 src;			/* NO_SRC: an immediate */
	bool alu;		/* reads its destination, sets the flags */
	bool store;		/* writes its destination */
};

/* "op r/m, reg" (@to_reg false) or "op reg, r/m" on two registers. */
static void regop_rr(struct regop *op, u8 reg, u8 rm, bool to_reg)
{
	op->dst = gpr_offset[to_reg ? reg : rm];
	op->src = gpr_offset[to_reg ? rm : reg];
	op->modrm = to_reg ? MODRM_RR(REG_RAX, REG_RCX) :
			     MODRM_RR(REG_RCX, REG_RAX);
}

/* An immediate operation with a ModRM byte: /@digit on register @rm. */
static void regop_ri(struct regop *op, u8 digit, u8 rm)
{
	op->dst = gpr_offset[rm];
	op->src = NO_SRC;
	op->modrm = MODRM_RR(digit, REG_RAX);
}

/* The forms with a ModRM byte; @reg and @rm are the full register numbers. */
static bool decode_modrm(struct regop *op, u8 opc, u8 digit, u8 reg, u8 rm)
{
	op->alu = true;
	op->store = true;
	switch (opc) {
	case 0x89:				/* MOV r/m, reg */
	case 0x8b:				/* MOV reg, r/m */
		op->alu = false;
		regop_rr(op, reg, rm, opc == 0x8b);
		return true;
	case 0x85:				/* TEST r/m, reg */
		op->store = false;
		regop_rr(op, reg, rm, false);
		return true;
	case 0x81:				/* ALU r/m, imm32 */
	case 0x83:				/* ALU r/m, imm8 */
		if (digit == ALU_ADC || digit == ALU_SBB)
			return false;
		op->store = digit != ALU_CMP;
		regop_ri(op, digit, rm);
		return true;
	case 0xc7:				/* MOV r/m, imm32 (/0) */
		op->alu = false;
		regop_ri(op, 0, rm);
		return digit == 0;
	case 0xf7:				/* TEST r/m, imm32 (/0) */
		op->store = false;
		regop_ri(op, 0, rm);
		return digit == 0;
	}
	/* ALU r/m, reg (0x?1 and 0x?9) and ALU reg, r/m (0x?3 and 0x?b). */
	if (opc >= 0x40 || ((opc & 7) != 1 && (opc & 7) != 3))
		return false;
	digit = opc >> 3;
	if (digit == ALU_ADC || digit == ALU_SBB)
		return false;
	op->store = digit != ALU_CMP;
	regop_rr(op, reg, rm, (opc & 7) == 3);
	return true;
}

/* The forms without one: MOV reg, imm and ALU/TEST eAX, imm32. */
static bool decode_short(struct regop *op, u8 opc, u8 rex_b)
{
	u8 digit = opc >> 3;

	op->src = NO_SRC;
	op->modrm = 0;
	if (opc >= 0xb8 && opc <= 0xbf) {	/* MOV reg, imm32 / imm64 */
		op->opcode = 0xb8 + REG_RAX;
		op->dst = gpr_offset[(opc & 7) | rex_b];
		op->alu = false;
		op->store = true;
		return true;
	}
	op->dst = gpr_offset[REG_RAX];
	op->alu = true;
	if (opc == 0xa9) {			/* TEST eAX, imm32 */
		op->store = false;
		return true;
	}
	if (opc >= 0x40 || (opc & 7) != 5 ||	/* ALU eAX, imm32 */
	    digit == ALU_ADC || digit == ALU_SBB)
		return false;
	op->store = digit != ALU_CMP;
	return true;
}

/* Can the detour do @insn (64-bit mode)?  Then @op says how. */
static bool regop_decode(struct insn *insn, struct regop *op)
{
	u8 opc = insn->opcode.bytes[0];
	u8 rex = insn->rex_prefix.nbytes ? insn->rex_prefix.bytes[0] : 0;
	u8 modrm, reg, rm;

	/*
	 * REX alone: no operand-size, LOCK, REP or segment prefix, no VEX,
	 * and no REX2, whose registers beyond R15 pt_regs does not have.
	 */
	if (insn->prefixes.nbytes || insn->vex_prefix.nbytes ||
	    insn_is_rex2(insn) || insn->opcode.nbytes != 1)
		return false;
	op->opcode = opc;
	if (!insn->modrm.nbytes)
		return decode_short(op, opc, X86_REX_B(rex) ? 8 : 0);
	modrm = insn->modrm.bytes[0];
	if (X86_MODRM_MOD(modrm) != 3)		/* a memory operand */
		return false;
	reg = X86_MODRM_REG(modrm) | (X86_REX_R(rex) ? 8 : 0);
	rm = X86_MODRM_RM(modrm) | (X86_REX_B(rex) ? 8 : 0);
	return decode_modrm(op, opc, X86_MODRM_REG(modrm), reg, rm);
}

/* MOV between RAX or RCX (@r) and the pt_regs slot at @off. */
static u8 *emit_slot_mov(u8 *p, u8 opcode, u8 r, u8 off)
{
	*p++ = 0x48;				/* REX.W */
	*p++ = opcode;				/* 0x8b load, 0x89 store */
	*p++ = 0x84 | r << 3;			/* [RSP + disp32] */
	*p++ = 0x24;				/* SIB: base RSP, no index */
	put_unaligned_le32(off, p);
	return p + 4;
}

#define emit_load(p, r, off)	emit_slot_mov(p, 0x8b, r, off)
#define emit_store(p, r, off)	emit_slot_mov(p, 0x89, r, off)

/* Step 2: @insn's own bytes, but for REX's register bits and its ModRM. */
static u8 *emit_op(u8 *p, struct insn *insn, const struct regop *op)
{
	int imm = insn_offset_immediate(insn);

	if (insn->rex_prefix.nbytes && X86_REX_W(insn->rex_prefix.bytes[0]))
		*p++ = 0x48;			/* REX.W alone */
	*p++ = op->opcode;
	if (op->modrm)
		*p++ = op->modrm;
	memcpy(p, insn->kaddr + imm, insn->length - imm);
	return p + insn->length - imm;
}

/* Step 4: regs->flags = (regs->flags & ~REGOP_FLAGS) | (RFLAGS & it). */
static u8 *emit_flags(u8 *p)
{
	u8 off = offsetof(struct pt_regs, flags);

	*p++ = 0x9c;				/* PUSHF */
	*p++ = 0x58 + REG_RCX;			/* POP %rcx */
	*p++ = 0x81;				/* AND $imm32, %ecx */
	*p++ = MODRM_RR(4, REG_RCX);
	put_unaligned_le32(REGOP_FLAGS, p);
	p += 4;
	*p++ = 0x48;				/* ANDQ $imm32, off(%rsp) */
	*p++ = 0x81;
	*p++ = 0xa4;
	*p++ = 0x24;
	put_unaligned_le32(off, p);
	put_unaligned_le32((u32)~REGOP_FLAGS, p + 4);
	p += 8;
	*p++ = 0x48;				/* ORQ %rcx, off(%rsp) */
	*p++ = 0x09;
	*p++ = 0x84 | REG_RCX << 3;
	*p++ = 0x24;
	put_unaligned_le32(off, p);
	return p + 4;
}

/* Step 5: MOVABS $next, %rax; MOV %rax, regs->ip. */
static u8 *emit_ip(u8 *p, unsigned long next)
{
	*p++ = 0x48;
	*p++ = 0xb8 + REG_RAX;
	put_unaligned_le64(next, p);
	return emit_store(p + 8, REG_RAX, offsetof(struct pt_regs, ip));
}

/**
 * x86_regop_emit - write the code that does an instruction on pt_regs
 * @insn: the region's first instruction, decoded (64-bit mode)
 * @next: the address of the instruction after it
 * @buf: room for %X86_REGOP_MAX_CODE bytes
 *
 * The code runs with the struct pt_regs of the detour at the stack
 * pointer and may change RAX, RCX and the flags.
 *
 * Return: the length of the code, or 0 when @insn is not a form the
 * detour can do this way.
 */
int x86_regop_emit(struct insn *insn, unsigned long next, u8 *buf)
{
	struct regop op;
	u8 *p = buf;

	if (!regop_decode(insn, &op))
		return 0;
	/* 1. */
	if (op.alu)
		p = emit_load(p, REG_RAX, op.dst);
	if (op.src != NO_SRC)
		p = emit_load(p, REG_RCX, op.src);
	/* 2. */
	p = emit_op(p, insn, &op);
	/* 3. */
	if (op.store)
		p = emit_store(p, REG_RAX, op.dst);
	/* 4. */
	if (op.alu)
		p = emit_flags(p);
	/* 5. */
	p = emit_ip(p, next);
	if (WARN_ON_ONCE(p - buf > X86_REGOP_MAX_CODE))
		return 0;
	return p - buf;
}
