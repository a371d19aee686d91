/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 kprobes, 32-bit: the return trampoline.  It works as the 64-bit
 * one does (trampoline_64.S): a word pushed into the slot the return
 * address came from, a struct pt_regs below it, x86_kretprobe_return()
 * to run the handlers and fill the slot, then the function's registers
 * and flags back and RET through the slot.
 *
 * EAX and EDX carry the return value and are restored from pt_regs like
 * the rest, so a handler may change it.  The segment registers are saved
 * for the handlers to read, never loaded back.
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/frame.h>
#include <asm/segment.h>

#include "regs_32.S"

	.text
SYM_CODE_START(kretprobe_trampoline)
	/* The slot: becomes the real return address. */
	pushl	$kretprobe_trampoline
	/* ss, sp (set by the callee), flags, cs, ip, orig_ax. */
	pushl	$__KERNEL_DS
	pushl	$0
	pushfl
	pushl	$__KERNEL_CS
	pushl	$kretprobe_trampoline
	pushl	$-1
	KPROBE_PUSH_REGS_32
	/* The frame-pointer unwinder finds pt_regs through EBP. */
	ENCODE_FRAME_POINTER
	movl	%esp, %eax		/* regparm: the first argument */
	call	x86_kretprobe_return
	/* The flags the function returned with too; RET through the slot. */
	KPROBE_POP_REGS_32
	RET
SYM_CODE_END(kretprobe_trampoline)
/* Never probed: a probe here would run inside every return. */
_ASM_NOKPROBE(kretprobe_trampoline)
