/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 kprobes, 32-bit: the step trampoline.  See step_64.S for what it
 * is for; this file only differs in two ways, both for post handlers
 * that move regs->sp: the pt_regs sits below a room that such a handler
 * may write into, and the way back writes the IRET frame where regs->sp
 * says, which a kernel-to-kernel IRET does not load (both in regs_32.S).
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/frame.h>
#include <asm/asm-offsets.h>
#include <asm/segment.h>

#include "regs_32.S"
#include <asm/smap.h>

	.text

SYM_CODE_START(x86_kprobe_step_trampoline)
	/* The hardware part of pt_regs: ss, sp, flags, cs, ip, orig_ax. */
	KPROBE_PUSH_SS_SP_FLAGS_32
	ASM_CLAC
	cld
	pushl	$__KERNEL_CS
	pushl	$0			/* ip: set by the callee */
	pushl	$-1			/* orig_ax */
	KPROBE_PUSH_REGS_32
	/* The frame-pointer unwinder finds pt_regs through EBP. */
	ENCODE_FRAME_POINTER
	movl	%esp, %eax		/* regparm: the first argument */
	call	x86_kprobe_step_return

	KPROBE_IRET_TO_REGS_32
SYM_CODE_END(x86_kprobe_step_trampoline)
_ASM_NOKPROBE(x86_kprobe_step_trampoline)
