/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the x86 kprobes files only.
 */
#ifndef _X86_KERNEL_KPROBES_INTERNAL_H
#define _X86_KERNEL_KPROBES_INTERNAL_H

#include <linux/kprobes.h>

/* emulate.c: one routine per kind of instruction that must not move. */
void kprobe_emulate_jmp(const struct arch_specific_insn *ai,
			struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_jcc(const struct arch_specific_insn *ai,
			struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_loop(const struct arch_specific_insn *ai,
			 struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_call(const struct arch_specific_insn *ai,
			 struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_ret(const struct arch_specific_insn *ai,
			struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_call_reg(const struct arch_specific_insn *ai,
			     struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_jmp_reg(const struct arch_specific_insn *ai,
			    struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_pushf(const struct arch_specific_insn *ai,
			  struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_cli_sti(const struct arch_specific_insn *ai,
			    struct pt_regs *regs, unsigned long addr);

/* jprobe.S: the address just after jprobe_return()'s breakpoint. */
extern const u8 x86_jprobe_return_trap[];

/* kretprobe.c: called by the return trampoline (trampoline.S). */
void kretprobe_trampoline(void);
__visible unsigned long x86_kretprobe_return(struct pt_regs *regs);

#endif /* _X86_KERNEL_KPROBES_INTERNAL_H */
