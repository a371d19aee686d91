// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RISC-V kprobes: instructions that cannot run in a slot because they
 * read or write the PC are carried out here, on the saved registers, as
 * the RISC-V unprivileged ISA defines them.  Each routine gets the
 * instruction and the address it really lives at, and leaves regs->epc
 * where the CPU goes next.  A link register is written after the source
 * registers are read: JALR ra, 0(ra) jumps to the old ra.
 */
#include <linux/kprobes.h>
#include <asm/insn.h>
#include <asm/ptrace.h>

#include "internal.h"

static nokprobe_inline void go(struct pt_regs *regs, unsigned long addr,
			       long offset)
{
	instruction_pointer_set(regs, addr + offset);
}

/* JAL: rd = pc + 4; pc += J-immediate. */
void riscv_kprobe_sim_jal(u32 insn, unsigned long addr, struct pt_regs *regs)
{
	rv_set_reg(regs, RV_EXTRACT_RD_REG(insn), addr + 4);
	go(regs, addr, (s32)RV_EXTRACT_JTYPE_IMM(insn));
}

NOKPROBE_SYMBOL(riscv_kprobe_sim_jal);

/* JALR: pc = (rs1 + I-immediate) & ~1; rd = pc + 4. */
void riscv_kprobe_sim_jalr(u32 insn, unsigned long addr,
			   struct pt_regs *regs)
{
	unsigned long target = rv_reg(regs, RV_EXTRACT_RS1_REG(insn)) +
			       (s32)RV_EXTRACT_ITYPE_IMM(insn);

	rv_set_reg(regs, RV_EXTRACT_RD_REG(insn), addr + 4);
	instruction_pointer_set(regs, target & ~1UL);
}

NOKPROBE_SYMBOL(riscv_kprobe_sim_jalr);

/* AUIPC: rd = pc + (imm[31:12] << 12), sign-extended. */
void riscv_kprobe_sim_auipc(u32 insn, unsigned long addr,
			    struct pt_regs *regs)
{
	rv_set_reg(regs, RV_EXTRACT_RD_REG(insn),
		   addr + (long)(s32)(insn & 0xfffff000));
	go(regs, addr, 4);
}

NOKPROBE_SYMBOL(riscv_kprobe_sim_auipc);

/* BEQ, BNE, BLT, BGE, BLTU, BGEU (funct3 0, 1, 4, 5, 6, 7). */
void riscv_kprobe_sim_branch(u32 insn, unsigned long addr,
			     struct pt_regs *regs)
{
	unsigned long a = rv_reg(regs, RV_EXTRACT_RS1_REG(insn));
	unsigned long b = rv_reg(regs, (insn >> 20) & 0x1f);
	bool taken;

	switch ((insn >> 12) & 7) {
	case 0:
		taken = a == b;
		break;
	case 1:
		taken = a != b;
		break;
	case 4:
		taken = (long)a < (long)b;
		break;
	case 5:
		taken = (long)a >= (long)b;
		break;
	case 6:
		taken = a < b;
		break;
	default:
		taken = a >= b;
		break;
	}
	go(regs, addr, taken ? (s32)RV_EXTRACT_BTYPE_IMM(insn) : 4);
}

NOKPROBE_SYMBOL(riscv_kprobe_sim_branch);

/* C.J: pc += CJ-immediate. */
void riscv_kprobe_sim_c_j(u32 insn, unsigned long addr, struct pt_regs *regs)
{
	go(regs, addr, (s32)RVC_EXTRACT_JTYPE_IMM(insn));
}

NOKPROBE_SYMBOL(riscv_kprobe_sim_c_j);

/* C.JR, C.JALR (bit 12): pc = rs1; C.JALR also ra = pc + 2. */
void riscv_kprobe_sim_c_jr(u32 insn, unsigned long addr,
			   struct pt_regs *regs)
{
	unsigned long target = rv_reg(regs, RVC_EXTRACT_C2_RS1_REG(insn));

	if (insn & BIT(12))
		rv_set_reg(regs, 1, addr + 2);
	instruction_pointer_set(regs, target & ~1UL);
}

NOKPROBE_SYMBOL(riscv_kprobe_sim_c_jr);

/* C.BEQZ, C.BNEZ (funct3 bit 13): rs1' (x8..x15) against zero. */
void riscv_kprobe_sim_c_bz(u32 insn, unsigned long addr,
			   struct pt_regs *regs)
{
	bool zero = !rv_reg(regs, ((insn >> 7) & 7) + 8);
	bool taken = (insn & BIT(13)) ? !zero : zero;

	go(regs, addr, taken ? (s32)RVC_EXTRACT_BTYPE_IMM(insn) : 2);
}

NOKPROBE_SYMBOL(riscv_kprobe_sim_c_bz);
