/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 kprobes, 32-bit: the step trampoline.  See step_64.S for what it
 * is for; this file only differs in how it gets back.
 *
 * IRET between kernel contexts pops EIP, CS and EFLAGS, not ESP: the
 * three words must sit just below the stack pointer to be resumed with
 * (regs->sp, which a post handler may have moved).  They are written
 * there, the words below the frame from top to bottom so that no source
 * is overwritten before it is read, and ESP only moves up to them after
 * the registers are back.  An NMI that comes in between pushes below
 * ESP, never onto what is still to be read.
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/frame.h>
#include <asm/asm-offsets.h>
#include <asm/segment.h>
#include <asm/smap.h>

	.text

SYM_CODE_START(x86_kprobe_step_trampoline)
	/* The hardware part of pt_regs: ss, sp, flags, cs, ip, orig_ax. */
	pushl	$__KERNEL_DS
	pushl	%esp			/* the value before this push ... */
	pushfl				/* (saved before the ADD changes them) */
	addl	$4, 4(%esp)		/* ... plus the SS slot */
	ASM_CLAC
	cld
	pushl	$__KERNEL_CS
	pushl	$0			/* ip: set by the callee */
	pushl	$-1			/* orig_ax */
	/* gs, fs, es, ds, then the general registers, in pt_regs order. */
	pushl	$0
	pushl	%fs
	pushl	%es
	pushl	%ds
	pushl	%eax
	pushl	%ebp
	pushl	%edi
	pushl	%esi
	pushl	%edx
	pushl	%ecx
	pushl	%ebx
	/* The frame-pointer unwinder finds pt_regs through EBP. */
	ENCODE_FRAME_POINTER
	movl	%esp, %eax		/* regparm: the first argument */
	call	x86_kprobe_step_return

	/* EFLAGS, CS, EIP and EAX go below regs->sp, top down. */
	movl	PT_OLDESP(%esp), %eax
	movl	PT_EFLAGS(%esp), %ecx
	movl	%ecx, -1*4(%eax)
	movl	PT_CS(%esp), %ecx
	movl	%ecx, -2*4(%eax)
	movl	PT_EIP(%esp), %ecx
	movl	%ecx, -3*4(%eax)
	movl	PT_EAX(%esp), %ecx
	movl	%ecx, -4*4(%eax)
	popl	%ebx
	popl	%ecx
	popl	%edx
	popl	%esi
	popl	%edi
	popl	%ebp
	leal	-4*4(%eax), %esp
	popl	%eax
	iret
SYM_CODE_END(x86_kprobe_step_trampoline)
_ASM_NOKPROBE(x86_kprobe_step_trampoline)
