/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 kprobes: the step trampoline, the way back to kprobes of an
 * out-of-line copy whose hit has post handlers, without a trap.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/ptrace-abi.h>
#include <asm/segment.h>
#include <asm/smap.h>
#include <asm/unwind_hints.h>
#include <asm/nospec-branch.h>
#include "../../entry/calling.h"

	.text

/*
 * The copy of a boostable instruction at KPROBE_SLOT_STEP jumps here
 * when the hit has post handlers, with interrupts still off and the
 * registers and stack just as the instruction left them.  We build a
 * struct pt_regs from them, as the INT3 after the copy of any other
 * instruction does, and let x86_kprobe_step_return() finish the hit.
 *
 * The way back to regs->ip is IRET, which loads the flags and the
 * instruction pointer in one go.  Nothing may run between the two: the
 * probed code may be between a compare and its branch, and a RET would
 * go through the return thunk, which under call-depth tracking
 * (retbleed=stuff) does arithmetic on a per-CPU counter.  IRET also
 * covers a handler that moved regs->sp, and with interrupts restored by
 * the same instruction, no interrupt can catch the CPU in between.
 */
SYM_CODE_START(x86_kprobe_step_trampoline)
	UNWIND_HINT_UNDEFINED
	ANNOTATE_NOENDBR
	pushq	$__KERNEL_DS
	pushq	%rsp			/* the value before this push ... */
	pushfq				/* (saved before the ADD changes them) */
	addq	$8, 8(%rsp)		/* ... plus the SS slot */
	/* C code runs with these clear, as after an exception entry. */
	ASM_CLAC
	cld
	pushq	$__KERNEL_CS
	pushq	$0			/* ip: set by the callee */
	pushq	$-1			/* orig_ax */
	PUSH_REGS
	movq	%rsp, %rdi
	call	x86_kprobe_step_return
	UNWIND_HINT_REGS
	POP_REGS
	addq	$8, %rsp		/* orig_ax; IRET restores the flags */
	UNWIND_HINT_IRET_REGS
	iretq
SYM_CODE_END(x86_kprobe_step_trampoline)
_ASM_NOKPROBE(x86_kprobe_step_trampoline)
