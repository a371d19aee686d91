// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 kprobes: which instructions may be probed, and how each runs.
 *
 * A64 instructions are one word each, so any word-aligned address in
 * kernel text is an instruction boundary.  An instruction runs in one of
 * two ways:
 *
 *   simulated    it reads or writes the PC (branches, ADR/ADRP, loads of
 *                a literal): simulate.c does it on the saved registers;
 *   out of line  everything else runs as a copy in a slot, followed by
 *                BRK #KPROBES_BRK_SS_IMM, with interrupts masked.
 *
 * Refused with -EINVAL, as the stock kernel does:
 *
 *   1. exception-generating instructions (SVC, HVC, SMC, BRK, HLT, DCPS)
 *      and exception returns (ERET, ERETAA/AB, DRPS);
 *   2. branches that authenticate their target (BRAA, BLRAA, RETAA, ...),
 *      which cannot be simulated without the key;
 *   3. writes to PSTATE or system registers (MSR), transactional
 *      instructions, and reads of DAIF, which the step masks;
 *   4. loads of a SIMD&FP register from a literal, whose register
 *      struct pt_regs does not hold;
 *   5. load/store exclusives, and any instruction between a load
 *      exclusive and the store that ends its sequence: the trap clears
 *      the exclusive monitor, and the store would fail forever.
 *
 * Sites with an exception-table entry are refused by the caller.
 */
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <asm/insn.h>
#include <asm/patching.h>

#include "internal.h"

/* Load/store exclusive, not CASP (o1 set with a 32 or 64-bit pair size). */
static bool insn_is_exclusive(u32 insn)
{
	if (!aarch64_insn_is_exclusive(insn))
		return false;
	return !((insn & BIT(21)) && !(insn & BIT(31)));
}

/* 5. Does the function walk back from @addr into an open sequence? */
static bool inside_exclusive_sequence(unsigned long addr)
{
	unsigned long size, off, start;
	u32 insn;

	if (!kallsyms_lookup_size_offset(addr, &size, &off))
		return false;
	for (start = addr - off; addr > start; ) {
		addr -= AARCH64_INSN_SIZE;
		if (aarch64_insn_read((void *)addr, &insn))
			return true;
		if (insn_is_exclusive(insn))
			return aarch64_insn_is_load_ex(insn);
	}
	return false;
}

/*
 * 3. The system instruction class: hints, barriers, SYS, MSR, MRS.  Of the
 * hints, only those the arm64 code calls steppable (NOP, BTI, the PAC
 * signing ones): not the authentications, which may fault in the slot,
 * nor WFI, WFE or the other waits and barrier hints, as on stock arm64.
 */
static bool system_insn_refused(u32 insn)
{
	if (aarch64_insn_is_hint(insn))
		return !aarch64_insn_is_steppable_hint(insn);
	if (aarch64_insn_is_msr_imm(insn) || aarch64_insn_is_msr_reg(insn))
		return true;
	if (aarch64_insn_is_mrs(insn))
		return aarch64_insn_extract_system_reg(insn) ==
		       AARCH64_INSN_SPCLREG_DAIF;
	/* L (bit 21) with op0 (bits 20:19) 0: TSTART, TTEST. */
	return (insn & 0x00380000) == 0x00200000;
}

/* Bits 31:22 of the system instruction class. */
static bool insn_is_system(u32 insn)
{
	return (insn & 0xffc00000) == 0xd5000000;
}

/* Load of a SIMD&FP register from a literal: bits 29:24 = 011100. */
static bool insn_is_fp_ldr_lit(u32 insn)
{
	return (insn & 0x3f000000) == 0x1c000000;
}

/* The simulation routine of an instruction that uses the PC, or NULL. */
static kprobe_simulate_t pc_relative(u32 insn)
{
	if (aarch64_insn_is_b(insn) || aarch64_insn_is_bl(insn))
		return arm64_kprobe_sim_b;
	if (aarch64_insn_is_bcond(insn))
		return arm64_kprobe_sim_b_cond;
	if (aarch64_insn_is_cbz(insn) || aarch64_insn_is_cbnz(insn))
		return arm64_kprobe_sim_cb;
	if (aarch64_insn_is_tbz(insn) || aarch64_insn_is_tbnz(insn))
		return arm64_kprobe_sim_tb;
	if (aarch64_insn_is_adr_adrp(insn))
		return arm64_kprobe_sim_adr;
	if (aarch64_insn_is_br(insn) || aarch64_insn_is_blr(insn) ||
	    aarch64_insn_is_ret(insn))
		return arm64_kprobe_sim_br;
	if (aarch64_insn_is_ldr_lit(insn) || aarch64_insn_is_ldrsw_lit(insn) ||
	    aarch64_insn_is_prfm_lit(insn))
		return arm64_kprobe_sim_ldr_lit;
	return NULL;
}

/**
 * arm64_kprobe_decode - how the instruction at a probed address runs
 * @addr: the probed address, word-aligned
 * @insn: the instruction there
 * @simulate: set to the simulation routine, or NULL for a step in a slot
 *
 * Return: 0, or -EINVAL when the instruction may not be probed (see the
 * refusals at the top of this file).
 */
int arm64_kprobe_decode(unsigned long addr, u32 insn,
			kprobe_simulate_t *simulate)
{
	*simulate = pc_relative(insn);
	if (*simulate)
		return 0;

	/* 1 and 2: exceptions, and branches this table does not know. */
	if (aarch64_insn_is_exception(insn) || aarch64_insn_is_eret(insn) ||
	    aarch64_insn_is_eret_auth(insn) || aarch64_insn_is_branch(insn) ||
	    (insn & 0xfe000000) == 0xd6000000)
		return -EINVAL;
	/* 3 and 4. */
	if (insn_is_system(insn) && system_insn_refused(insn))
		return -EINVAL;
	if (insn_is_fp_ldr_lit(insn))
		return -EINVAL;
	/* 5. */
	if (insn_is_exclusive(insn) || inside_exclusive_sequence(addr))
		return -EINVAL;
	return 0;
}
