/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the s390 kprobes files only.
 */
#ifndef _S390_KERNEL_KPROBES_INTERNAL_H
#define _S390_KERNEL_KPROBES_INTERNAL_H

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>

/* text.c: the original text, changes written at each sync, slots. */
int s390_kprobe_read_orig(kprobe_opcode_t *addr, u16 *hw);
void s390_kprobe_text_queue(kprobe_opcode_t *addr, u16 hw);
int s390_kprobe_slot_write(kprobe_opcode_t *slot, const u16 *insn,
			   unsigned int len);

/* simulate.c: the branches carried out on the saved registers. */
bool s390_kprobe_simulates(const u16 *insn);
bool s390_kprobe_simulate(const u16 *insn, unsigned long addr,
			  struct pt_regs *regs);

/* jprobe.S and trampoline.S: addresses compared with the PSW's. */
extern const u16 s390_jprobe_return_bp[];
extern const u16 kretprobe_trampoline[];
asmlinkage unsigned long s390_kretprobe_return(struct pt_regs *regs);

#endif /* _S390_KERNEL_KPROBES_INTERNAL_H */
