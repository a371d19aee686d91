/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 kprobes, 32-bit: the assembly the step trampoline, the return
 * trampoline and the detour template share to build a struct pt_regs
 * outside an exception and to leave it.  Included, not built alone.
 */
#ifndef _X86_KERNEL_KPROBES_REGS_32_S
#define _X86_KERNEL_KPROBES_REGS_32_S

#include <asm/asm-offsets.h>

/*
 * The room the step trampoline and the detour leave between the probed
 * code's stack pointer and their pt_regs: what the kernel's INT3 entry
 * leaves on i386 (six words), so that a handler may write as far below
 * regs->sp whichever way the hit went, e.g. to emulate a few pushes.
 */
#define KPROBE_ROOM_32		(6 * 4)

/*
 * The hardware part of pt_regs (ss, sp, flags), below the room; regs->sp
 * is the stack pointer before the room.  LEA and PUSHFL come before the
 * ADD, which changes the flags.
 */
.macro KPROBE_PUSH_SS_SP_FLAGS_32
	leal	-KPROBE_ROOM_32(%esp), %esp
	pushl	$__KERNEL_DS
	pushl	%esp			/* the value before this push ... */
	pushfl
	addl	$(4 + KPROBE_ROOM_32), 4(%esp)	/* ... plus ss and the room */
.endm

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
 * ESP just above it plus @room bytes (regs->sp is not loaded).  Skips
 * ds, es, fs, gs, orig_ax, ip and cs, then sp, ss and the room; LEA
 * leaves the restored flags alone.
 */
.macro KPROBE_POP_REGS_32 room=0
	popl	%ebx
	popl	%ecx
	popl	%edx
	popl	%esi
	popl	%edi
	popl	%ebp
	popl	%eax
	leal	(7 * 4)(%esp), %esp
	popfl
	leal	(2 * 4 + \room)(%esp), %esp
.endm

/*
 * Resume at regs->ip with regs->flags and regs->sp, %esp pointing at the
 * pt_regs.  IRET between kernel contexts does not load ESP: the way out
 * is a block of ten words that ends at regs->sp, the seven general
 * registers to POP, then EIP, CS and EFLAGS for IRET.  A handler may have
 * moved regs->sp anywhere, up or down, by a little or by a lot, so that
 * block may overlap the pt_regs in any way; copying in one direction
 * would overwrite a word not read yet for some of those moves.  Hence:
 *
 *  1. EBX = the pt_regs, EDX = regs->sp - 40, the block.  The general
 *     registers are free: their values are in the pt_regs.
 *  2. ESP goes down to the lower of the two, then the ten words are
 *     pushed below it: each push writes below every word still to be
 *     read and below the block, so the copy overwrites nothing.
 *  3. Each is popped into the block, lowest first.  The scratch words
 *     lie below the block, and every word of the block lies at or
 *     above ESP, as the pt_regs did before: an interrupt or NMI pushes
 *     below ESP, never onto a word still needed.
 *  4. ESP moves up to the block (what lies below is no longer needed),
 *     the registers are popped and IRET takes the rest.
 */
.macro KPROBE_IRET_TO_REGS_32
	movl	%esp, %ebx
	movl	PT_OLDESP(%ebx), %edx
	subl	$(10 * 4), %edx
	cmpl	%ebx, %edx
	jae	.Lstage_\@
	movl	%edx, %esp
.Lstage_\@:
	pushl	PT_EFLAGS(%ebx)
	pushl	PT_CS(%ebx)
	pushl	PT_EIP(%ebx)
	pushl	PT_EAX(%ebx)
	pushl	PT_EBP(%ebx)
	pushl	PT_EDI(%ebx)
	pushl	PT_ESI(%ebx)
	pushl	PT_EDX(%ebx)
	pushl	PT_ECX(%ebx)
	pushl	PT_EBX(%ebx)
	.irp	word, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	popl	(\word * 4)(%edx)
	.endr
	movl	%edx, %esp
	popl	%ebx
	popl	%ecx
	popl	%edx
	popl	%esi
	popl	%edi
	popl	%ebp
	popl	%eax
	iret
.endm

#endif /* _X86_KERNEL_KPROBES_REGS_32_S */
