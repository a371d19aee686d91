// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * s390 kprobes: the branches and the relative-long loads, carried out
 * on the saved registers.
 *
 * A copy of a branch in a slot would branch relative to the slot, or
 * leave the slot's address as its return address, and the PER event
 * after it would have to be fixed up.  Carrying the common branches out
 * here instead costs no second trap, and takes nothing from where the
 * PER event leaves the PSW (which QEMU's TCG sets to the next sequential
 * instruction, even after a taken branch).  The condition code, the
 * link registers and the counters are as the instruction itself would
 * leave them; no branch changes the condition code.
 *
 * Simulated: BALR, BASR, BAL, BAS, BCR (with a register), BC, BRC,
 * BRCL, BRAS, BRASL, BRCT, BRCTG and the relative compare-and-branch
 * family CRJ, CGRJ, CLRJ, CLGRJ, CIJ, CGIJ, CLIJ, CLGIJ.  The other
 * branches run as a copy, with the fixups of probe_get_fixup_type().
 */
#include <linux/kprobes.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>

#include "internal.h"

/* The condition code of the PSW. */
static unsigned int psw_cc(const struct pt_regs *regs)
{
	return (regs->psw.mask >> 44) & 3;
}

/* Does a 4-bit branch mask select condition code @cc? */
static bool mask_takes(unsigned int mask, unsigned int cc)
{
	return mask & (8 >> cc);
}

/* The second-operand address D2(X2,B2) of an RX instruction. */
static unsigned long rx_address(const u16 *insn, const struct pt_regs *regs)
{
	unsigned int x2 = insn[0] & 0xf, b2 = insn[1] >> 12;
	unsigned long ea = insn[1] & 0xfff;

	if (x2)
		ea += regs->gprs[x2];
	if (b2)
		ea += regs->gprs[b2];
	return ea;
}

/* A relative target: @halfwords from the instruction at @addr. */
static unsigned long rel(unsigned long addr, long halfwords)
{
	return addr + 2 * halfwords;
}

/*
 * The comparison of a compare-and-branch: as a condition code would say
 * it (0 equal, 1 first operand low, 2 high).
 */
static unsigned int compare(u8 op, const u16 *insn, const struct pt_regs *regs)
{
	unsigned long a = regs->gprs[(insn[0] >> 4) & 0xf];
	unsigned long b = regs->gprs[insn[0] & 0xf];
	s64 sa, sb;
	u64 ua, ub;

	switch (op) {
	case 0x76:	/* crj: 32-bit signed, registers */
		sa = (s32)a;
		sb = (s32)b;
		goto signed_cmp;
	case 0x64:	/* cgrj */
		sa = a;
		sb = b;
		goto signed_cmp;
	case 0x7e:	/* cij: 32-bit signed, 8-bit immediate */
		sa = (s32)a;
		sb = (s8)(insn[2] >> 8);
		goto signed_cmp;
	case 0x7c:	/* cgij */
		sa = a;
		sb = (s8)(insn[2] >> 8);
		goto signed_cmp;
	case 0x77:	/* clrj: 32-bit unsigned */
		ua = (u32)a;
		ub = (u32)b;
		break;
	case 0x65:	/* clgrj */
		ua = a;
		ub = b;
		break;
	case 0x7f:	/* clij: unsigned 8-bit immediate */
		ua = (u32)a;
		ub = insn[2] >> 8;
		break;
	default:	/* 0x7d clgij */
		ua = a;
		ub = insn[2] >> 8;
		break;
	}
	return ua == ub ? 0 : ua < ub ? 1 : 2;
signed_cmp:
	return sa == sb ? 0 : sa < sb ? 1 : 2;
}

/* The second operand address of a RIL-b/c instruction at @addr. */
static unsigned long ril_address(const u16 *insn, unsigned long addr)
{
	return rel(addr, (s32)((u32)insn[1] << 16 | insn[2]));
}

/*
 * LARL and the relative-long loads of a full or half register (LGRL,
 * LRL, LGFRL, LLGFRL).  The other relative-long instructions run as a
 * copy whose displacement is rewritten for the slot (core.c); carrying
 * these out here keeps the commonest ones off that path, which QEMU's
 * TCG computes wrongly once the slot is more than 2 GB away.  A load
 * that cannot be read goes to the copy, to take its fault there.
 */
static bool relative_long_load(const u16 *insn, unsigned long addr,
			       struct pt_regs *regs)
{
	unsigned int r1 = (insn[0] >> 4) & 0xf;
	unsigned long ea = ril_address(insn, addr);
	u64 d;
	u32 w;

	switch (insn[0] & 0xff0f) {
	case 0xc000:	/* larl */
		regs->gprs[r1] = ea;
		break;
	case 0xc408:	/* lgrl */
		if (get_kernel_nofault(d, (u64 *)ea))
			return false;
		regs->gprs[r1] = d;
		break;
	case 0xc40d:	/* lrl: the low word */
	case 0xc40c:	/* lgfrl: sign-extended */
	case 0xc40e:	/* llgfrl: zero-extended */
		if (get_kernel_nofault(w, (u32 *)ea))
			return false;
		if ((insn[0] & 0xf) == 0xd)
			regs->gprs[r1] = (regs->gprs[r1] & ~0xffffffffUL) | w;
		else if ((insn[0] & 0xf) == 0xc)
			regs->gprs[r1] = (s64)(s32)w;
		else
			regs->gprs[r1] = w;
		break;
	default:
		return false;
	}
	regs->psw.addr = addr + 6;
	return true;
}

/**
 * s390_kprobe_simulate - carry out a branch on the saved registers
 * @insn: the instruction
 * @addr: where it lives
 * @regs: the registers, the PSW's address is set to where it goes on
 *
 * Return: true if it is one of the branches carried out here (@regs are
 * after it), false if it must run as a copy (@regs untouched).
 */
bool s390_kprobe_simulate(const u16 *insn, unsigned long addr,
			  struct pt_regs *regs)
{
	unsigned int r1 = (insn[0] >> 4) & 0xf, r2 = insn[0] & 0xf;
	unsigned long next, target;
	bool taken = true;

	if (relative_long_load(insn, addr, regs))
		return true;
	switch (insn[0] >> 8) {
	case 0x05:	/* balr */
	case 0x0d:	/* basr */
		next = addr + 2;
		target = r2 ? regs->gprs[r2] : next;
		regs->gprs[r1] = next;
		break;
	case 0x07:	/* bcr */
		if (!r2)
			return false;	/* no branch: a serialization */
		next = addr + 2;
		target = regs->gprs[r2];
		taken = mask_takes(r1, psw_cc(regs));
		break;
	case 0x45:	/* bal */
	case 0x4d:	/* bas */
		next = addr + 4;
		target = rx_address(insn, regs);
		regs->gprs[r1] = next;
		break;
	case 0x47:	/* bc */
		next = addr + 4;
		target = rx_address(insn, regs);
		taken = mask_takes(r1, psw_cc(regs));
		break;
	case 0xa7:
		next = addr + 4;
		target = rel(addr, (s16)insn[1]);
		switch (r2) {
		case 0x4:	/* brc */
			taken = mask_takes(r1, psw_cc(regs));
			break;
		case 0x5:	/* bras */
			regs->gprs[r1] = next;
			break;
		case 0x6:	/* brct: the low word counts */
			regs->gprs[r1] = (regs->gprs[r1] & ~0xffffffffUL) |
					 (u32)(regs->gprs[r1] - 1);
			taken = (u32)regs->gprs[r1];
			break;
		case 0x7:	/* brctg */
			taken = --regs->gprs[r1];
			break;
		default:
			return false;
		}
		break;
	case 0xc0:
		next = addr + 6;
		target = rel(addr, (s32)((u32)insn[1] << 16 | insn[2]));
		switch (r2) {
		case 0x4:	/* brcl */
			taken = mask_takes(r1, psw_cc(regs));
			break;
		case 0x5:	/* brasl */
			regs->gprs[r1] = next;
			break;
		default:
			return false;
		}
		break;
	case 0xec:
		switch (insn[2] & 0xff) {
		case 0x76: case 0x64: case 0x77: case 0x65:
			/* register forms: the mask is in the third halfword */
			taken = mask_takes(insn[2] >> 12,
					   compare(insn[2] & 0xff, insn, regs));
			break;
		case 0x7e: case 0x7c: case 0x7f: case 0x7d:
			/* immediate forms: the mask is where R2 would be */
			taken = mask_takes(r2, compare(insn[2] & 0xff, insn,
						       regs));
			break;
		default:
			return false;
		}
		next = addr + 6;
		target = rel(addr, (s16)insn[1]);
		break;
	default:
		return false;
	}
	regs->psw.addr = taken ? target : next;
	return true;
}

NOKPROBE_SYMBOL(s390_kprobe_simulate);

/**
 * s390_kprobe_simulates - is @insn one of the branches carried out here?
 * @insn: the instruction
 *
 * Return: true if s390_kprobe_simulate() takes it.
 */
bool s390_kprobe_simulates(const u16 *insn)
{
	switch (insn[0] & 0xff0f) {
	case 0xc000: case 0xc408: case 0xc40d: case 0xc40c: case 0xc40e:
		return true;
	}
	switch (insn[0] >> 8) {
	case 0x05: case 0x0d: case 0x45: case 0x4d: case 0x47:
		return true;
	case 0x07:
		return insn[0] & 0xf;
	case 0xa7:
		return (insn[0] & 0xf) >= 0x4 && (insn[0] & 0xf) <= 0x7;
	case 0xc0:
		return (insn[0] & 0xf) == 0x4 || (insn[0] & 0xf) == 0x5;
	case 0xec:
		switch (insn[2] & 0xff) {
		case 0x76: case 0x64: case 0x77: case 0x65:
		case 0x7e: case 0x7c: case 0x7f: case 0x7d:
			return true;
		}
		return false;
	}
	return false;
}
