/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 kprobes: the return trampoline.
 *
 * A hooked function's RET lands here with its return value in RAX and
 * the stack pointer just above the slot its return address came from.
 * We push a word into that very slot (the trampoline's own address, so
 * that an unwinder sees where it is), build a struct pt_regs below it,
 * and let x86_kretprobe_return() run the handler and overwrite the slot
 * with the real return address.  Then we unwind our pt_regs, flags
 * included, and RET through the slot.  No trap is involved.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/segment.h>
#include <asm/unwind_hints.h>
#include <asm/nospec-branch.h>
#include "../../entry/calling.h"

	.text
SYM_CODE_START(kretprobe_trampoline)
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	/* The slot: becomes the real return address. */
	pushq	$kretprobe_trampoline
	UNWIND_HINT_FUNC
	/* The hardware part of pt_regs: ss, sp, flags, cs, ip, orig_ax. */
	pushq	$__KERNEL_DS
	pushq	$0
	pushfq
	pushq	$__KERNEL_CS
	pushq	$kretprobe_trampoline
	pushq	$-1
	/* The general registers, in pt_regs order. */
	PUSH_REGS
	movq	%rsp, %rdi
	call	x86_kretprobe_return
	POP_REGS
	/*
	 * Skip orig_ax, ip and cs, put back the flags the function returned
	 * with (an assembly caller may read them), skip sp and ss: RET
	 * through the slot.  LEA leaves the flags alone.  Under call-depth
	 * tracking the return thunk sets the arithmetic flags on every RET,
	 * the function's own included, so there no caller can read them, and
	 * going through the thunk once more hides nothing it could have seen.
	 */
	leaq	(3 * 8)(%rsp), %rsp
	popfq
	leaq	(2 * 8)(%rsp), %rsp
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(kretprobe_trampoline)
/* Never probed: a probe here would run inside every return. */
_ASM_NOKPROBE(kretprobe_trampoline)
