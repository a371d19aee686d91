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
 * Then back to regs->ip: with RET through the SS slot of pt_regs, which
 * lies just below regs->sp, unless a handler moved regs->sp, in which
 * case IRET.
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
	leaq	SS+8(%rsp), %rax
	cmpq	%rax, RSP(%rsp)
	jne	.Lstep_iret
	movq	RIP(%rsp), %rax
	movq	%rax, SS(%rsp)
	POP_REGS
	UNWIND_HINT_IRET_REGS offset=8
	/* Skip orig_ax, ip and cs; LEA leaves the restored flags alone. */
	leaq	(3 * 8)(%rsp), %rsp
	popfq
	leaq	8(%rsp), %rsp		/* sp: RET pops the SS slot */
	UNWIND_HINT_FUNC
	RET
.Lstep_iret:
	UNWIND_HINT_REGS
	POP_REGS
	addq	$8, %rsp		/* orig_ax */
	UNWIND_HINT_IRET_REGS
	iretq
SYM_CODE_END(x86_kprobe_step_trampoline)
_ASM_NOKPROBE(x86_kprobe_step_trampoline)
