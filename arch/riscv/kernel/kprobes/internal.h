/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the RISC-V kprobes files only.
 */
#ifndef _RISCV_KERNEL_KPROBES_INTERNAL_H
#define _RISCV_KERNEL_KPROBES_INTERNAL_H

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>

#define RV_EBREAK	0x00100073U
#define RV_C_EBREAK	0x9002U

/* simulate.c: the instructions that read or write the PC. */
void riscv_kprobe_sim_jal(u32 insn, unsigned long addr, struct pt_regs *regs);
void riscv_kprobe_sim_jalr(u32 insn, unsigned long addr,
			   struct pt_regs *regs);
void riscv_kprobe_sim_auipc(u32 insn, unsigned long addr,
			    struct pt_regs *regs);
void riscv_kprobe_sim_branch(u32 insn, unsigned long addr,
			     struct pt_regs *regs);
void riscv_kprobe_sim_c_j(u32 insn, unsigned long addr, struct pt_regs *regs);
void riscv_kprobe_sim_c_jr(u32 insn, unsigned long addr,
			   struct pt_regs *regs);
void riscv_kprobe_sim_c_bz(u32 insn, unsigned long addr,
			   struct pt_regs *regs);

/* decode.c: may the instruction at @addr be probed, and how. */
int riscv_kprobe_decode(unsigned long addr, u32 insn,
			kprobe_simulate_t *simulate);
int riscv_kprobe_check_boundary(unsigned long addr);

/* text.c: changes to probed text, written at each sync; slots. */
int riscv_kprobe_read_orig(kprobe_opcode_t *addr, u32 *insn, u8 *len);
void riscv_kprobe_text_queue(kprobe_opcode_t *addr, u32 insn, u8 len);
int riscv_kprobe_slot_write(kprobe_opcode_t *slot, u32 insn, u8 len);

/* trampoline.S: jprobe_return()'s EBREAK, the return trampoline. */
extern const u32 riscv_jprobe_return_brk[];
void kretprobe_trampoline(void);
asmlinkage unsigned long riscv_kretprobe_return(struct pt_regs *regs);

/* x1..x31 are the words after epc in struct pt_regs; x0 reads as 0. */
static __always_inline unsigned long rv_reg(struct pt_regs *regs,
					    unsigned int n)
{
	return n ? ((unsigned long *)regs)[n] : 0;
}

static __always_inline void rv_set_reg(struct pt_regs *regs, unsigned int n,
				       unsigned long val)
{
	if (n)
		((unsigned long *)regs)[n] = val;
}

#endif /* _RISCV_KERNEL_KPROBES_INTERNAL_H */
