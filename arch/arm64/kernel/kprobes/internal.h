/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the arm64 kprobes files only.
 */
#ifndef _ARM64_KERNEL_KPROBES_INTERNAL_H
#define _ARM64_KERNEL_KPROBES_INTERNAL_H

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>

/* simulate.c: the instructions that read or write the PC. */
void arm64_kprobe_sim_b(u32 insn, unsigned long addr, struct pt_regs *regs);
void arm64_kprobe_sim_b_cond(u32 insn, unsigned long addr,
			     struct pt_regs *regs);
void arm64_kprobe_sim_cb(u32 insn, unsigned long addr, struct pt_regs *regs);
void arm64_kprobe_sim_tb(u32 insn, unsigned long addr, struct pt_regs *regs);
void arm64_kprobe_sim_adr(u32 insn, unsigned long addr, struct pt_regs *regs);
void arm64_kprobe_sim_br(u32 insn, unsigned long addr, struct pt_regs *regs);
void arm64_kprobe_sim_ldr_lit(u32 insn, unsigned long addr,
			      struct pt_regs *regs);

/* decode.c: may the instruction at @addr be probed, and how. */
int arm64_kprobe_decode(unsigned long addr, u32 insn,
			kprobe_simulate_t *simulate);

/* text.c: changes to probed text, written at each sync; slots. */
void arm64_kprobe_text_queue(kprobe_opcode_t *addr, u32 insn);
int arm64_kprobe_read_orig(kprobe_opcode_t *addr, u32 *insn);
int arm64_kprobe_slot_write(kprobe_opcode_t *slot, u32 insn);

/* jprobe.S: the BRK in jprobe_return(). */
extern const u32 arm64_jprobe_return_brk[];

/* trampoline.S and kretprobe.c: the return trampoline. */
void kretprobe_trampoline(void);
asmlinkage unsigned long arm64_kretprobe_return(struct pt_regs *regs);

#endif /* _ARM64_KERNEL_KPROBES_INTERNAL_H */
