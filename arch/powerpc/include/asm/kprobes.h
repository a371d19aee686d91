/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _ASM_POWERPC_KPROBES_H
#define _ASM_POWERPC_KPROBES_H
/*
 * powerpc side of kprobes: the breakpoint is the unconditional trap
 * (BREAKPOINT_INSTRUCTION, "tw 31,0,0").  A hit carries out the probed
 * instruction with the kernel's instruction emulator (emulate_step())
 * where it can, and otherwise single-steps a copy of it in a slot
 * (MSR_SE, or the debug event of BookE's debug registers), whose trace
 * interrupt brings the CPU back.
 */
#include <asm-generic/kprobes.h>
/*
 * BREAKPOINT_INSTRUCTION, which the BPF JITs fill their holes with, and
 * ppc_function_entry(), which they take from here too.
 */
#include <asm/probes.h>
#include <asm/code-patching.h>

struct pt_regs;

#ifdef CONFIG_KPROBES
#include <linux/array_size.h>
#include <linux/types.h>
#include <linux/ptrace.h>
#include <linux/percpu.h>
#include <asm/inst.h>

/* The unit of text: a word; a prefixed instruction is two. */
typedef u32 kprobe_opcode_t;

/**
 * struct arch_kprobe_hit_state - powerpc's part of one hit in progress
 * @softe: the caller's interrupt soft mask (&pt_regs.softe, 64-bit
 *	only), all masked while the copy runs
 * @msr: the caller's MSR bits that a step clears: MSR_EE on 32-bit,
 *	and MSR_CE where the step uses the debug registers
 */
struct arch_kprobe_hit_state {
	unsigned long softe;
	unsigned long msr;
};

#define arch_kprobe_hit_state arch_kprobe_hit_state

/*
 * Hits one CPU may have in progress: a hit and one in its handlers in
 * task, softirq and hardirq context, and in each NMI-like level that may
 * interrupt the ones before it: on 64-bit a performance monitor interrupt
 * taken while soft-masked, the soft-NMI watchdog, system reset and
 * machine check; on BookE and 40x the critical (watchdog) and machine
 * check interrupts.
 */
#if defined(CONFIG_PPC64) || defined(CONFIG_BOOKE) || defined(CONFIG_40x)
#define KPROBE_MAX_NESTING	14
#endif

/**
 * struct arch_specific_insn - powerpc copy of a probed instruction
 * @insn: the original instruction, prefixed or not
 * @slot: its copy, which a hit single-steps when the emulator cannot
 *	carry it out
 * @emulate: whether emulate_step() carried it out the first time it was
 *	asked (kprobes/core.c); written by the hit path, once
 */
struct arch_specific_insn {
	ppc_inst_t insn;
	kprobe_opcode_t *slot;
	u8 emulate;
};

/* The trap reports its own address in nip. */
#define KPROBE_BREAKPOINT_SIZE	0

/*
 * A slot: the copy alone (the trace interrupt comes after it).  A
 * prefixed instruction must not cross a 64-byte boundary: at the start
 * of an aligned slot it does not.
 */
#define KPROBE_SLOT_SIZE	64

/* User-space probes: a prefixed instruction. */
#define KPROBE_USER_INSN_MAX	8

#ifdef CONFIG_PPC64_ELF_ABI_V2
/*
 * A jprobe's mirror is entered at its global entry, whose first two
 * instructions compute the TOC pointer from r12: point r12 there too, as
 * a call through a function pointer does.
 */
static __always_inline void arch_jprobe_enter_mirror(struct pt_regs *regs,
						     void *entry)
{
	regs->gpr[12] = (unsigned long)entry;
	regs_set_return_ip(regs, (unsigned long)entry);
}

#define arch_jprobe_enter_mirror arch_jprobe_enter_mirror
#endif

/*
 * A jprobe's hit resumes from the trap in jprobe_return() with the
 * registers of the probed code as the hit saved them.  The rest of
 * pt_regs (MSR, the soft interrupt mask, the trap number, the
 * user-access keys, PPR) is the trap's own, and the mirror ran in the
 * probed code's context; a hit through ftrace never filled most of it
 * in: it stays.
 */
static __always_inline void arch_jprobe_restore_regs(struct pt_regs *regs,
						     const struct pt_regs *saved)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(regs->gpr); i++)
		regs->gpr[i] = saved->gpr[i];
	regs->ctr = saved->ctr;
	regs->link = saved->link;
	regs->xer = saved->xer;
	regs->ccr = saved->ccr;
	regs_set_return_ip(regs, saved->nip);
}

#define arch_jprobe_restore_regs arch_jprobe_restore_regs

int kprobe_fault_handler(struct pt_regs *regs, int trapnr);
/* The trap path (traps.c) calls these two directly. */
int kprobe_handler(struct pt_regs *regs);
int kprobe_post_handler(struct pt_regs *regs);

#else /* !CONFIG_KPROBES */

static inline int kprobe_handler(struct pt_regs *regs)
{
	return 0;
}

static inline int kprobe_post_handler(struct pt_regs *regs)
{
	return 0;
}

#endif /* CONFIG_KPROBES */
#endif /* _ASM_POWERPC_KPROBES_H */
