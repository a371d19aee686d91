/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 kprobes, 32-bit: the assembly the step trampoline, the return
 * trampoline and the detour template share to build a struct pt_regs
 * outside an exception and to leave it.  Included, not built alone.
 */
#ifndef _X86_KERNEL_KPROBES_REGS_32_S
#define _X86_KERNEL_KPROBES_REGS_32_S

#include <asm/asm-offsets.h>

/* gs, fs, es, ds, then the general registers, in pt_regs order. */
.macro KPROBE_PUSH_REGS_32
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
.endm

/*
 * Back to the general registers and the flags of the pt_regs at ESP,
 * ESP just above it (regs->sp is not loaded).  Skips ds, es, fs, gs,
 * orig_ax, ip and cs, then sp and ss; LEA leaves the restored flags
 * alone.
 */
.macro KPROBE_POP_REGS_32
	popl	%ebx
	popl	%ecx
	popl	%edx
	popl	%esi
	popl	%edi
	popl	%ebp
	popl	%eax
	leal	(7 * 4)(%esp), %esp
	popfl
	leal	(2 * 4)(%esp), %esp
.endm

/*
 * Resume at regs->ip with regs->flags and regs->sp, %esp pointing at the
 * pt_regs.  IRET between kernel contexts does not load ESP, so EFLAGS,
 * CS, EIP and EAX are written below regs->sp, top down so that no source
 * is overwritten before it is read, and ESP only moves up to them after
 * the other registers are back: an NMI in between pushes below ESP,
 * never onto what is still to be read.
 */
.macro KPROBE_IRET_TO_REGS_32
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
.endm

#endif /* _X86_KERNEL_KPROBES_REGS_32_S */
