/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 kprobes, 32-bit: the code at the start of every detour buffer.
 * It does what the 64-bit template does (detour_64.S, which says why
 * each step is there), with i386's struct pt_regs and calling
 * convention: the site in EAX, the registers in EDX.
 *
 * Its pt_regs sits below the room the step trampoline leaves too, and
 * when a handler took over regs->ip, the way out is the step
 * trampoline's: KPROBE_IRET_TO_REGS_32 (regs_32.S).
 *
 * A template: opt.c fills in the MOVL at x86_detour_site, the CALL at
 * x86_detour_call, the JMP at x86_detour_step_jmp and, without SMAP, a
 * NOP for the CLAC at x86_detour_clac.  Nothing else in it may depend on
 * where it runs.
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/frame.h>
#include <asm/segment.h>

#include "regs_32.S"
#include "internal.h"

	.pushsection .rodata, "a"
SYM_DATA_START(x86_detour_template)
	/* ss, sp, flags below the room (regs_32.S), cs, ip, orig_ax. */
	KPROBE_PUSH_SS_SP_FLAGS_32
	cld
SYM_INNER_LABEL(x86_detour_clac, SYM_L_GLOBAL)
	clac				/* a NOP without SMAP */
	pushl	$__KERNEL_CS
	pushl	$0			/* ip: set by the callee */
	pushl	$-1			/* orig_ax */
	KPROBE_PUSH_REGS_32
	/* The frame-pointer unwinder finds pt_regs through EBP. */
	ENCODE_FRAME_POINTER
	movl	%esp, %edx
SYM_INNER_LABEL(x86_detour_site, SYM_L_GLOBAL)
	movl	$0, %eax
SYM_INNER_LABEL(x86_detour_call, SYM_L_GLOBAL)
	.byte	0xe8			/* CALL rel32, filled in */
	.long	0
	/* Flags may change now: IRET or POPFL restores them. */
	cmpb	$X86_DETOUR_IRET, %al
	jb	.Lresume
	ja	.Lstep
	/* A handler took over: resume at regs->ip. */
	KPROBE_IRET_TO_REGS_32
.Lstep:
	KPROBE_POP_REGS_32 room=KPROBE_ROOM_32
SYM_INNER_LABEL(x86_detour_step_jmp, SYM_L_GLOBAL)
	.byte	0xe9			/* JMP rel32, filled in */
	.long	0
.Lresume:
	KPROBE_POP_REGS_32 room=KPROBE_ROOM_32
SYM_INNER_LABEL(x86_detour_template_end, SYM_L_GLOBAL)
SYM_DATA_END(x86_detour_template)
	.popsection
