/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _ASM_RISCV_KPROBES_H
#define _ASM_RISCV_KPROBES_H
/*
 * RISC-V side of kprobes: the breakpoint is EBREAK, or C.EBREAK over a
 * compressed instruction, and the probed instruction is either simulated
 * (it reads or writes the PC) or executed out of line in a slot,
 * followed by an EBREAK that brings the CPU back.
 */
#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES
#include <linux/types.h>
#include <linux/ptrace.h>
#include <linux/percpu.h>

struct pt_regs;

/* The unit of text: instructions are 2 or 4 bytes, 2-byte aligned. */
typedef u32 kprobe_opcode_t;

/**
 * struct arch_kprobe_hit_state - RISC-V's part of one hit in progress
 * @spie: the caller's SR_SPIE, clear while the copy runs, so that the
 *	copy starts with interrupts off
 */
struct arch_kprobe_hit_state {
	unsigned long spie;
};

#define arch_kprobe_hit_state arch_kprobe_hit_state

/* Carries out an instruction that uses the PC; @addr is where it lives. */
typedef void (*kprobe_simulate_t)(u32 insn, unsigned long addr,
				  struct pt_regs *regs);

/**
 * struct arch_specific_insn - RISC-V copy of a probed instruction
 * @insn: the original instruction (its low half only, when compressed)
 * @len: its length, 2 or 4
 * @slot: the out-of-line copy followed by EBREAK, or NULL when the
 *	instruction is simulated
 * @simulate: the simulation routine of an instruction that uses the PC,
 *	or NULL when it runs in @slot
 */
struct arch_specific_insn {
	u32 insn;
	u8 len;
	kprobe_opcode_t *slot;
	kprobe_simulate_t simulate;
};

/* The trap leaves epc on the EBREAK itself. */
#define KPROBE_BREAKPOINT_SIZE	0

/* Kernel breakpoints enter through irqentry_nmi_enter(). */
#define KPROBE_TRAP_CTX_OFFSET	(NMI_OFFSET + HARDIRQ_OFFSET)

/* A slot: the copy, then EBREAK; the rest is unused. */
#define KPROBE_SLOT_SIZE	64

/* User-space probes: the longest instruction of RV64GC. */
#define KPROBE_USER_INSN_MAX	4

int kprobe_fault_handler(struct pt_regs *regs, int trapnr);
bool kprobe_breakpoint_handler(struct pt_regs *regs);
bool kprobe_single_step_handler(struct pt_regs *regs);

#else /* !CONFIG_KPROBES */

/* Called by handle_break() for every kernel EBREAK. */
static inline bool kprobe_breakpoint_handler(struct pt_regs *regs)
{
	return false;
}

static inline bool kprobe_single_step_handler(struct pt_regs *regs)
{
	return false;
}

#endif /* CONFIG_KPROBES */
#endif /* _ASM_RISCV_KPROBES_H */
