/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _ASM_ARM64_KPROBES_H
#define _ASM_ARM64_KPROBES_H
/*
 * arm64 side of kprobes: the breakpoint is BRK #KPROBES_BRK_IMM, and the
 * probed instruction is either simulated (it reads or writes the PC) or
 * executed out of line in a slot, followed by BRK #KPROBES_BRK_SS_IMM,
 * which brings the CPU back.
 */
#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES
#include <linux/types.h>
#include <linux/ptrace.h>
#include <linux/percpu.h>
#include <asm/insn-def.h>

struct pt_regs;
struct arch_specific_insn;

typedef u32 kprobe_opcode_t;

/**
 * struct arch_kprobe_hit_state - arm64's part of one hit in progress
 * @daif: the caller's DAIF bits of PSTATE, all set while the copy runs
 */
struct arch_kprobe_hit_state {
	u64 daif;
};

#define arch_kprobe_hit_state arch_kprobe_hit_state

/*
 * Hits one CPU may have in progress: the generic count knows task
 * context and one NMI.  arm64 has a pseudo-NMI (GIC priority masking)
 * and SDEI events, delivered by firmware whatever PSTATE masks, whose
 * critical priority preempts the normal one: four levels, each of which
 * may interrupt the one before while a hit or a hit in its handler is
 * open.
 */
#define KPROBE_MAX_NESTING	8

/* Carries out a PC-relative instruction; @addr is where it really lives. */
typedef void (*kprobe_simulate_t)(u32 insn, unsigned long addr,
				  struct pt_regs *regs);

/**
 * struct arch_specific_insn - arm64 copy of a probed instruction
 * @insn: the original instruction
 * @slot: the out-of-line copy followed by the step breakpoint, or NULL
 *	when the instruction is simulated
 * @simulate: the simulation routine of an instruction that uses the PC,
 *	or NULL when it runs in @slot
 */
struct arch_specific_insn {
	u32 insn;
	kprobe_opcode_t *slot;
	kprobe_simulate_t simulate;
};

/* The trap leaves the PC on the BRK itself. */
#define KPROBE_BREAKPOINT_SIZE	0

/* A slot: the copy, then BRK #KPROBES_BRK_SS_IMM; the rest is unused. */
#define KPROBE_SLOT_SIZE	64

/* User-space probes: every AArch64 instruction is one word. */
#define KPROBE_USER_INSN_MAX	AARCH64_INSN_SIZE

int kprobe_fault_handler(struct pt_regs *regs, int trapnr);

#endif /* CONFIG_KPROBES */

/*
 * The BRK handlers that call_el1_break_hook() dispatches to by immediate
 * (debug-monitors.c); declared for any configuration, as it refers to
 * them behind IS_ENABLED().
 */
int kprobe_brk_handler(struct pt_regs *regs, unsigned long esr);
int kprobe_ss_brk_handler(struct pt_regs *regs, unsigned long esr);

#endif /* _ASM_ARM64_KPROBES_H */
