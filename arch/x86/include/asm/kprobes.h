/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _ASM_X86_KPROBES_H
#define _ASM_X86_KPROBES_H
/*
 * x86 side of kprobes: the breakpoint is INT3, and the probed
 * instruction is either emulated or executed out of line in a slot that
 * ends with a second INT3.
 */
#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES
#include <linux/types.h>
#include <linux/ptrace.h>
#include <linux/percpu.h>
#include <asm/text-patching.h>
#include <asm/insn.h>

struct pt_regs;
struct arch_specific_insn;

typedef u8 kprobe_opcode_t;

/* Emulates the probed instruction; @addr is where it really lives. */
typedef void (*kprobe_emulate_t)(const struct arch_specific_insn *ai,
				 struct pt_regs *regs, unsigned long addr);

/**
 * struct arch_specific_insn - x86 copy of a probed instruction
 * @insn: the original bytes
 * @slot: executable out-of-line copy followed by INT3, or NULL when
 *	the instruction is emulated
 * @emulate: emulation routine for instructions that use or change the
 *	instruction pointer, or NULL when it runs in @slot
 * @disp: branch displacement of a relative jump or call, or the bytes
 *	a RET imm16 releases
 * @len: instruction length
 * @op: detail the emulation needs: condition code (Jcc), variant
 *	(LOOP family, CLI/STI)
 * @reg: pt_regs offset of the target register of an indirect branch
 * @sets_if: the instruction decides the interrupt flag itself (POPF)
 */
struct arch_specific_insn {
	kprobe_opcode_t insn[MAX_INSN_SIZE];
	kprobe_opcode_t *slot;
	kprobe_emulate_t emulate;
	s32 disp;
	u8 len;
	u8 op;
	u8 reg;
	bool sets_if;
};

/* Bytes one slot takes: the longest instruction plus the trailing INT3. */
#define KPROBE_SLOT_SIZE	32

int kprobe_int3_handler(struct pt_regs *regs);
int kprobe_fault_handler(struct pt_regs *regs, int trapnr);

#endif /* CONFIG_KPROBES */
#endif /* _ASM_X86_KPROBES_H */
