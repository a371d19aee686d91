// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes: emulation of the instructions that cannot run elsewhere.
 *
 * Relative jumps and calls, returns and indirect branches compute or
 * push addresses from where they execute, and CLI/STI/PUSHF/POPF read or
 * write the interrupt flag that kprobes clears while an instruction runs
 * out of line.  These are carried out here, on the trapped registers, in the
 * breakpoint handler.  @addr is the probed address; the instruction's
 * successor is @addr + @ai->len.
 *
 * Pushing onto the trapped stack is safe: the INT3 entry code leaves a
 * gap below the interrupted stack pointer (see int3_emulate_push()).
 */
#include <linux/kprobes.h>
#include <asm/text-patching.h>
#include <asm/ptrace.h>

#include "internal.h"

static unsigned long next_ip(const struct arch_specific_insn *ai,
			     unsigned long addr)
{
	return addr + ai->len;
}

NOKPROBE_SYMBOL(next_ip);

static unsigned long gpr_value(const struct arch_specific_insn *ai,
			       struct pt_regs *regs)
{
	return *(unsigned long *)((u8 *)regs + ai->reg);
}

NOKPROBE_SYMBOL(gpr_value);

/* JMP rel8 / rel32 */
void kprobe_emulate_jmp(const struct arch_specific_insn *ai,
			struct pt_regs *regs, unsigned long addr)
{
	int3_emulate_jmp(regs, next_ip(ai, addr) + ai->disp);
}

NOKPROBE_SYMBOL(kprobe_emulate_jmp);

/* Jcc rel8 / rel32; the low nibble of @ai->op is the condition code. */
void kprobe_emulate_jcc(const struct arch_specific_insn *ai,
			struct pt_regs *regs, unsigned long addr)
{
	int3_emulate_jcc(regs, ai->op & 0xf, next_ip(ai, addr), ai->disp);
}

NOKPROBE_SYMBOL(kprobe_emulate_jcc);

/* LOOPNE, LOOPE, LOOP, JRCXZ (opcodes 0xe0..0xe3 in @ai->op) */
void kprobe_emulate_loop(const struct arch_specific_insn *ai,
			 struct pt_regs *regs, unsigned long addr)
{
	bool zf = regs->flags & X86_EFLAGS_ZF;
	unsigned int kind = ai->op & 3;
	bool taken;

	if (kind == 3) {
		taken = !regs->cx;
	} else {
		regs->cx--;
		taken = regs->cx && (kind == 2 || zf == (kind == 1));
	}
	int3_emulate_jmp(regs, next_ip(ai, addr) + (taken ? ai->disp : 0));
}

NOKPROBE_SYMBOL(kprobe_emulate_loop);

/* CALL rel32 */
void kprobe_emulate_call(const struct arch_specific_insn *ai,
			 struct pt_regs *regs, unsigned long addr)
{
	int3_emulate_push(regs, next_ip(ai, addr));
	int3_emulate_jmp(regs, next_ip(ai, addr) + ai->disp);
}

NOKPROBE_SYMBOL(kprobe_emulate_call);

/* RET, RET imm16 */
void kprobe_emulate_ret(const struct arch_specific_insn *ai,
			struct pt_regs *regs, unsigned long addr)
{
	int3_emulate_ret(regs);
	regs->sp += ai->disp;
}

NOKPROBE_SYMBOL(kprobe_emulate_ret);

/* CALL *%reg */
void kprobe_emulate_call_reg(const struct arch_specific_insn *ai,
			     struct pt_regs *regs, unsigned long addr)
{
	unsigned long target = gpr_value(ai, regs);

	int3_emulate_push(regs, next_ip(ai, addr));
	int3_emulate_jmp(regs, target);
}

NOKPROBE_SYMBOL(kprobe_emulate_call_reg);

/* JMP *%reg */
void kprobe_emulate_jmp_reg(const struct arch_specific_insn *ai,
			    struct pt_regs *regs, unsigned long addr)
{
	int3_emulate_jmp(regs, gpr_value(ai, regs));
}

NOKPROBE_SYMBOL(kprobe_emulate_jmp_reg);

/* PUSHF: the image has RF and VM clear, like the real instruction's. */
void kprobe_emulate_pushf(const struct arch_specific_insn *ai,
			  struct pt_regs *regs, unsigned long addr)
{
	int3_emulate_push(regs, regs->flags & ~(X86_EFLAGS_RF | X86_EFLAGS_VM));
	int3_emulate_jmp(regs, next_ip(ai, addr));
}

NOKPROBE_SYMBOL(kprobe_emulate_pushf);

/* What POPF may change in kernel mode; VM, VIF and VIP stay, RF clears. */
#define POPF_CHANGES	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | \
			 X86_EFLAGS_ZF | X86_EFLAGS_SF | X86_EFLAGS_TF | \
			 X86_EFLAGS_IF | X86_EFLAGS_DF | X86_EFLAGS_OF | \
			 X86_EFLAGS_IOPL | X86_EFLAGS_NT | X86_EFLAGS_AC | \
			 X86_EFLAGS_ID)

/*
 * POPF, emulated rather than run out of line: it may set IF, and an
 * interrupt taken in a slot could preempt the task there (see
 * boost_entry() in core.c).  The interrupt flag it pops takes effect when
 * the CPU returns to the probed code.
 */
void kprobe_emulate_popf(const struct arch_specific_insn *ai,
			 struct pt_regs *regs, unsigned long addr)
{
	unsigned long val = int3_emulate_pop(regs);

	regs->flags = (regs->flags & (X86_EFLAGS_VM | X86_EFLAGS_VIF |
				      X86_EFLAGS_VIP)) |
		      (val & POPF_CHANGES) | X86_EFLAGS_FIXED;
	int3_emulate_jmp(regs, next_ip(ai, addr));
}

NOKPROBE_SYMBOL(kprobe_emulate_popf);

/* CLI (0xfa) and STI (0xfb) */
void kprobe_emulate_cli_sti(const struct arch_specific_insn *ai,
			    struct pt_regs *regs, unsigned long addr)
{
	if (ai->op & 1)
		regs->flags |= X86_EFLAGS_IF;
	else
		regs->flags &= ~X86_EFLAGS_IF;
	int3_emulate_jmp(regs, next_ip(ai, addr));
}

NOKPROBE_SYMBOL(kprobe_emulate_cli_sti);
