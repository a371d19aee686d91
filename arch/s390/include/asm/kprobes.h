/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _ASM_S390_KPROBES_H
#define _ASM_S390_KPROBES_H
/*
 * s390 side of kprobes: the breakpoint is the halfword 0x0002, an invalid
 * opcode whose operation exception reaches us through the die chain, and
 * the probed instruction runs as a copy in a slot under PER
 * instruction-fetch tracing (program event recording), whose event
 * brings the CPU back after it.
 */
#include <linux/types.h>
#include <asm/ctlreg.h>
#include <asm-generic/kprobes.h>

/* Shared with uprobes (arch/s390/lib/probes.c and kernel/uprobes.c). */
#define BREAKPOINT_INSTRUCTION	0x0002

#define FIXUP_PSW_NORMAL	0x08
#define FIXUP_BRANCH_NOT_TAKEN	0x04
#define FIXUP_RETURN_REGISTER	0x02
#define FIXUP_NOT_REQUIRED	0x01

int probe_is_prohibited_opcode(u16 *insn);
int probe_get_fixup_type(u16 *insn);
int probe_is_insn_relative_long(u16 *insn);

#ifdef CONFIG_KPROBES
#include <linux/ptrace.h>
#include <linux/percpu.h>

struct pt_regs;

/* The unit of text: a halfword; instructions are 2, 4 or 6 bytes. */
typedef u16 kprobe_opcode_t;

/**
 * struct arch_kprobe_hit_state - s390's part of one hit in progress
 * @ctl: the PER control registers %cr9-%cr11 as the hit found them
 * @mask: the caller's PSW bits that the copy runs without (the I/O and
 *	external interrupt masks) or with (PER)
 */
struct arch_kprobe_hit_state {
	struct ctlreg ctl[3];
	unsigned long mask;
};

#define arch_kprobe_hit_state arch_kprobe_hit_state

/**
 * struct arch_specific_insn - s390 copy of a probed instruction
 * @insn: the original instruction, as many halfwords as it has
 * @len: its length in bytes, 2, 4 or 6
 * @fixup: what the step must correct afterwards (FIXUP_*, from
 *	probe_get_fixup_type())
 * @simulate: a branch that kprobes/simulate.c carries out, with no copy
 * @slot: its copy, with a relative-long displacement rewritten for the
 *	slot's address, or NULL when simulated
 */
struct arch_specific_insn {
	u16 insn[3];
	u8 len;
	u8 fixup;
	bool simulate;
	kprobe_opcode_t *slot;
};

/* The operation exception leaves the PSW after the 2-byte breakpoint. */
#define KPROBE_BREAKPOINT_SIZE	2

/* A slot: the copy alone; PER reports the fetch after it. */
#define KPROBE_SLOT_SIZE	64

/* User-space probes: the longest instruction. */
#define KPROBE_USER_INSN_MAX	6

/*
 * What a jprobe's hit saves for its mirror: the 160-byte register save
 * area above the stack pointer, which the mirror's prologue writes, and
 * the first stack arguments after it.
 */
#define KPROBE_JPROBE_STACK_BYTES	256

/*
 * Hits through ftrace show their pre handlers the call's address, as on
 * the stock kernel (the breakpoint path shows the address after it).
 */
static __always_inline unsigned long arch_kprobe_ftrace_pre_ip(unsigned long ip)
{
	return ip;
}

#define arch_kprobe_ftrace_pre_ip arch_kprobe_ftrace_pre_ip

int kprobe_fault_handler(struct pt_regs *regs, int trapnr);

#endif /* CONFIG_KPROBES */
#endif /* _ASM_S390_KPROBES_H */
