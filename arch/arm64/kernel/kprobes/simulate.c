// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 kprobes: instructions that cannot run in a slot because they
 * read or write the PC are carried out here, on the saved registers, as
 * the Arm Architecture Reference Manual defines them.  Each routine gets
 * the instruction and the address it really lives at, and leaves regs->pc
 * where the CPU goes next.
 *
 * Register number 31 is the zero register in every operand these
 * instructions have: it reads as 0 and a result written to it is dropped.
 */
#include <linux/bitops.h>
#include <linux/kprobes.h>
#include <asm/insn.h>
#include <asm/ptrace.h>

#include "internal.h"

static nokprobe_inline u64 xreg(struct pt_regs *regs, unsigned int n)
{
	return n == 31 ? 0 : regs->regs[n];
}

static nokprobe_inline void set_xreg(struct pt_regs *regs, unsigned int n,
				     u64 val)
{
	if (n != 31)
		regs->regs[n] = val;
}

/* Bits [@lo, @lo + @width) of @insn, sign-extended, times 4 (words). */
static nokprobe_inline s64 word_offset(u32 insn, unsigned int lo,
				       unsigned int width)
{
	u64 field = (insn >> lo) & GENMASK(width - 1, 0);

	return sign_extend64(field << 2, width + 1);
}

static nokprobe_inline void branch(struct pt_regs *regs, unsigned long addr,
				   bool taken, s64 offset)
{
	instruction_pointer_set(regs, addr + (taken ? offset :
					      AARCH64_INSN_SIZE));
}

/* B, BL: imm26; BL (bit 31) writes the return address to X30. */
void arm64_kprobe_sim_b(u32 insn, unsigned long addr, struct pt_regs *regs)
{
	if (insn & BIT(31))
		regs->regs[30] = addr + AARCH64_INSN_SIZE;
	branch(regs, addr, true, word_offset(insn, 0, 26));
}

NOKPROBE_SYMBOL(arm64_kprobe_sim_b);

/* B.cond, BC.cond: imm19 at bit 5, the condition in bits 3:0. */
void arm64_kprobe_sim_b_cond(u32 insn, unsigned long addr,
			     struct pt_regs *regs)
{
	unsigned int cond = insn & 0xf;
	/* AL and NV both mean "always" in A64. */
	bool taken = cond >= 14 ||
		     aarch32_opcode_cond_checks[cond](regs->pstate);

	branch(regs, addr, taken, word_offset(insn, 5, 19));
}

NOKPROBE_SYMBOL(arm64_kprobe_sim_b_cond);

/* CBZ, CBNZ (bit 24): Rt, 32 or 64 bits (sf, bit 31), imm19 at bit 5. */
void arm64_kprobe_sim_cb(u32 insn, unsigned long addr, struct pt_regs *regs)
{
	u64 val = xreg(regs, insn & 0x1f);

	if (!(insn & BIT(31)))
		val = (u32)val;
	branch(regs, addr, !val == !(insn & BIT(24)),
	       word_offset(insn, 5, 19));
}

NOKPROBE_SYMBOL(arm64_kprobe_sim_cb);

/* TBZ, TBNZ (bit 24): bit b5:b40 (bits 31, 23:19) of Rt, imm14 at bit 5. */
void arm64_kprobe_sim_tb(u32 insn, unsigned long addr, struct pt_regs *regs)
{
	unsigned int bit = ((insn >> 26) & 0x20) | ((insn >> 19) & 0x1f);
	bool set = (xreg(regs, insn & 0x1f) >> bit) & 1;

	branch(regs, addr, set == !!(insn & BIT(24)),
	       word_offset(insn, 5, 14));
}

NOKPROBE_SYMBOL(arm64_kprobe_sim_tb);

/*
 * ADR, ADRP (bit 31): Rd = PC + imm, or the PC's 4K page + imm * 4096;
 * imm is immhi (bits 23:5) : immlo (bits 30:29), 21 bits, signed.
 */
void arm64_kprobe_sim_adr(u32 insn, unsigned long addr, struct pt_regs *regs)
{
	u64 imm = (((insn >> 5) & GENMASK(18, 0)) << 2) | ((insn >> 29) & 3);
	s64 off = sign_extend64(imm, 20);
	u64 val;

	if (insn & BIT(31))
		val = (addr & ~0xfffUL) + (off << 12);
	else
		val = addr + off;
	set_xreg(regs, insn & 0x1f, val);
	instruction_pointer_set(regs, addr + AARCH64_INSN_SIZE);
}

NOKPROBE_SYMBOL(arm64_kprobe_sim_adr);

/*
 * BR, BLR, RET: to Rn (bits 9:5).  BLR (opc 0001, bit 21) links, after
 * reading Rn: BLR X30 branches to the old X30.
 */
void arm64_kprobe_sim_br(u32 insn, unsigned long addr, struct pt_regs *regs)
{
	u64 target = xreg(regs, (insn >> 5) & 0x1f);

	if (((insn >> 21) & 0xf) == 1)
		regs->regs[30] = addr + AARCH64_INSN_SIZE;
	instruction_pointer_set(regs, target);
}

NOKPROBE_SYMBOL(arm64_kprobe_sim_br);

/*
 * LDR (literal) of a general register: opc (bits 31:30) 00 loads 32 bits
 * zero-extended, 01 64 bits, 10 (LDRSW) 32 bits sign-extended, and 11 is
 * PRFM, a hint that loads nothing.  The literal is at PC + imm19 * 4.
 */
void arm64_kprobe_sim_ldr_lit(u32 insn, unsigned long addr,
			      struct pt_regs *regs)
{
	const void *lit = (const void *)(addr + word_offset(insn, 5, 19));
	unsigned int rt = insn & 0x1f;

	switch (insn >> 30) {
	case 0:
		set_xreg(regs, rt, READ_ONCE(*(const u32 *)lit));
		break;
	case 1:
		set_xreg(regs, rt, READ_ONCE(*(const u64 *)lit));
		break;
	case 2:
		set_xreg(regs, rt, (s64)READ_ONCE(*(const s32 *)lit));
		break;
	}
	instruction_pointer_set(regs, addr + AARCH64_INSN_SIZE);
}

NOKPROBE_SYMBOL(arm64_kprobe_sim_ldr_lit);
