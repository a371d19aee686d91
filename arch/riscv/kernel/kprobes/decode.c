// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RISC-V kprobes: which instructions may be probed, and how each runs.
 *
 * With the C extension instructions are 2 or 4 bytes long on 2-byte
 * boundaries, so an even address may be the middle of an instruction:
 * the function is decoded from its start up to the probed address
 * (riscv_kprobe_check_boundary()).  An instruction runs in one of two
 * ways:
 *
 *   simulated    JAL, JALR, AUIPC, the conditional branches, and C.J,
 *                C.JR, C.JALR, C.BEQZ, C.BNEZ: simulate.c does them on
 *                the saved registers;
 *   out of line  everything else runs as a copy in a slot, followed by
 *                EBREAK, with interrupts off.
 *
 * Refused with -EINVAL, as the stock kernel does:
 *
 *   1. SYSTEM instructions (ECALL, EBREAK, CSR accesses, SRET, WFI,
 *      SFENCE.VMA), and C.EBREAK;
 *   2. FENCE and FENCE.I;
 *   3. C.JAL, on RV32 (the same encoding is C.ADDIW on RV64, which runs
 *      out of line).
 *
 * And, beyond the stock kernel, LR and SC and any instruction between an
 * LR and the SC after it: the trap return clears the reservation, so
 * the SC would fail every time round its loop.
 */
#include <linux/bug.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <asm/insn.h>

#include "internal.h"

/* LR.W/LR.D (funct5 00010) and SC.W/SC.D (00011) of the A extension. */
static bool insn_is_lr(u32 insn)
{
	return (insn & 0xf800707f) == 0x1000202f ||
	       (insn & 0xf800707f) == 0x1000302f;
}

static bool insn_is_sc(u32 insn)
{
	return (insn & 0xf800707f) == 0x1800202f ||
	       (insn & 0xf800707f) == 0x1800302f;
}

/*
 * Read the instruction at @addr and its length (2 or 4); 0 when it cannot
 * be read.
 */
static int read_insn(unsigned long addr, u32 *insn)
{
	u16 lo, hi;

	if (get_kernel_nofault(lo, (u16 *)addr))
		return 0;
	if (GET_INSN_LENGTH(lo) == 2) {
		*insn = lo;
		return 2;
	}
	if (get_kernel_nofault(hi, (u16 *)(addr + 2)))
		return 0;
	*insn = lo | (u32)hi << 16;
	return 4;
}

/**
 * riscv_kprobe_check_boundary - does an instruction start at @addr?
 * @addr: a text address
 *
 * Decodes the function from its start.  Text of ours (a breakpoint of a
 * probe at an earlier instruction) is read as it is: EBREAK and C.EBREAK
 * have the lengths of the instructions they replace.
 *
 * Return: 0, or -EILSEQ.
 */
int riscv_kprobe_check_boundary(unsigned long addr)
{
	unsigned long size, off, pos;
	u32 insn;
	int len;

	if (addr & 1)
		return -EILSEQ;
	if (!kallsyms_lookup_size_offset(addr, &size, &off))
		return -EILSEQ;
	for (pos = addr - off; pos < addr; pos += len) {
		len = read_insn(pos, &insn);
		if (!len)
			return -EILSEQ;
	}
	return pos == addr ? 0 : -EILSEQ;
}

/* Is @addr between an LR and the SC that ends its sequence? */
static bool inside_lr_sc(unsigned long addr)
{
	unsigned long size, off, start, pos;
	u32 insn;
	int len;
	bool open = false;

	if (!kallsyms_lookup_size_offset(addr, &size, &off))
		return false;
	start = addr - off;
	for (pos = start; pos < addr; pos += len) {
		len = read_insn(pos, &insn);
		if (!len)
			return true;
		if (insn_is_lr(insn))
			open = true;
		else if (insn_is_sc(insn))
			open = false;
	}
	return open;
}

/* The simulation routine of an instruction that uses the PC, or NULL. */
static kprobe_simulate_t pc_relative(u32 insn, int len)
{
	if (len == 2) {
		if (riscv_insn_is_c_j(insn))
			return riscv_kprobe_sim_c_j;
		if (riscv_insn_is_c_jr(insn) || riscv_insn_is_c_jalr(insn))
			return riscv_kprobe_sim_c_jr;
		if (riscv_insn_is_c_beqz(insn) || riscv_insn_is_c_bnez(insn))
			return riscv_kprobe_sim_c_bz;
		return NULL;
	}
	if (riscv_insn_is_jal(insn))
		return riscv_kprobe_sim_jal;
	if (riscv_insn_is_jalr(insn))
		return riscv_kprobe_sim_jalr;
	if (riscv_insn_is_auipc(insn))
		return riscv_kprobe_sim_auipc;
	if (riscv_insn_is_branch(insn))
		return riscv_kprobe_sim_branch;
	return NULL;
}

/**
 * riscv_kprobe_decode - how the instruction at a probed address runs
 * @addr: the probed address, an instruction boundary
 * @insn: the instruction there (the low half only when compressed)
 * @simulate: set to the simulation routine, or NULL for a step in a slot
 *
 * Return: 0, or -EINVAL when the instruction may not be probed (see the
 * refusals at the top of this file).
 */
int riscv_kprobe_decode(unsigned long addr, u32 insn,
			kprobe_simulate_t *simulate)
{
	int len = GET_INSN_LENGTH(insn);

	*simulate = pc_relative(insn, len);
	if (*simulate)
		return 0;
	if (len == 2) {
		if (riscv_insn_is_c_ebreak(insn))
			return -EINVAL;
		if (IS_ENABLED(CONFIG_32BIT) && riscv_insn_is_c_jal(insn))
			return -EINVAL;
		return 0;
	}
	if (riscv_insn_is_system(insn) ||
	    (insn & RV_INSN_OPCODE_MASK) == RVG_OPCODE_FENCE)
		return -EINVAL;
	if (insn_is_lr(insn) || insn_is_sc(insn) || inside_lr_sc(addr))
		return -EINVAL;
	return 0;
}
