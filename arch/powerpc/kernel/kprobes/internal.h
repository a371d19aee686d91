/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the powerpc kprobes files only.
 */
#ifndef _POWERPC_KERNEL_KPROBES_INTERNAL_H
#define _POWERPC_KERNEL_KPROBES_INTERNAL_H

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <asm/hw_irq.h>
#include <asm/probes.h>

/* decode.c: may the instruction at @addr be probed. */
int ppc_kprobe_check_insn(kprobe_opcode_t *addr, ppc_inst_t insn);

/* text.c: the original instruction, and slots. */
int ppc_kprobe_read_orig(kprobe_opcode_t *addr, ppc_inst_t *insn);
int ppc_kprobe_slot_write(kprobe_opcode_t *slot, ppc_inst_t insn);

/*
 * jprobe.S and trampoline.S.  Arrays, not functions: on ELFv1 a
 * function's symbol would be its descriptor, and these are compared
 * with instruction addresses.
 */
extern const u32 ppc_jprobe_return_trap[];
extern const u32 kretprobe_trampoline[];
asmlinkage unsigned long ppc_kretprobe_return(struct pt_regs *regs);

/*
 * The MSR bits a step turns off and the end of the step turns back on:
 * MSR_CE too where enable_single_step() clears it (the debug registers
 * of BookE and 40x).
 */
#ifdef CONFIG_PPC_ADV_DEBUG_REGS
#define STEP_MSR_KEPT	(MSR_EE | MSR_CE)
#else
#define STEP_MSR_KEPT	MSR_EE
#endif

/*
 * The copy of an instruction runs with interrupts off, whatever the
 * caller had (see "Hooks the architecture provides" in
 * <linux/kprobes_arch.h>), and gets them back when the hit is done or the
 * copy faults.  On 64-bit, interrupts are masked in software: the
 * context the trap returns to is soft-masked, and an interrupt that comes
 * in meanwhile is kept pending and replayed once the caller's mask is
 * back.  MSR_EE is put back too, since that interrupt clears it to stay
 * masked in hardware.  On 32-bit, MSR_EE is the mask.
 */
#ifdef CONFIG_PPC64
static __always_inline void ppc_kprobe_copy_irqs_off(struct pt_regs *regs,
						     struct arch_kprobe_hit_state *s)
{
	s->softe = regs->softe;
	s->msr = regs->msr & STEP_MSR_KEPT;
	regs->softe = IRQS_ALL_DISABLED;
}
#else
static __always_inline void ppc_kprobe_copy_irqs_off(struct pt_regs *regs,
						     struct arch_kprobe_hit_state *s)
{
	s->msr = regs->msr & STEP_MSR_KEPT;
	regs_set_return_msr(regs, regs->msr & ~MSR_EE);
}
#endif

#ifdef CONFIG_PPC64
static __always_inline void ppc_kprobe_copy_irqs_back(struct pt_regs *regs,
						      const struct arch_kprobe_hit_state *s)
{
	regs->softe = s->softe;
	regs_set_return_msr(regs, regs->msr | s->msr);
}
#else
static __always_inline void ppc_kprobe_copy_irqs_back(struct pt_regs *regs,
						      const struct arch_kprobe_hit_state *s)
{
	regs_set_return_msr(regs, regs->msr | s->msr);
}
#endif

#endif /* _POWERPC_KERNEL_KPROBES_INTERNAL_H */
