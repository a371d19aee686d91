/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 kprobes: the code at the start of every detour buffer.
 *
 * An optimized probe's JMP lands here with the probed code's registers,
 * stack and interrupt flag.  We build a struct pt_regs on the stack as a
 * breakpoint would have (kernel CS and SS, the stack pointer from before
 * the jump), call kprobe_site_hit_optimized(site, regs), and then
 * do what its verdict (X86_DETOUR_* in internal.h) says:
 *   COPY  restore everything and fall through into the copy of the
 *         region that opt.c places right after this code;
 *   IRET  a handler took over regs->ip: restore the registers and IRET
 *         to regs->ip with regs->sp and regs->flags;
 *   STEP  post handlers are to run: restore everything, flags from
 *         regs->flags (interrupts off), and jump to the way through the
 *         region that stops after its first instruction (opt.c).  No
 *         IRET on this way: it serializes, and costs more than the copy.
 *   FIRST post handlers are to run, and the detour does the region's
 *         first instruction itself, on pt_regs: jump, with pt_regs
 *         still on the stack, to the code opt.c generated for that
 *         instruction, which goes on with x86_detour_post_template.
 *
 * x86_detour_post_template calls kprobe_site_hit_post_optimized(site,
 * regs) for the post handlers, and for its verdict REST restores
 * everything, the stack pointer from regs->sp (the instruction may have
 * moved it), and jumps to the copy of the rest of the region; for IRET
 * it resumes at regs->ip as above.
 *
 * No instruction here may change a flag before PUSHF has saved them all:
 * the probed code may be between a compare and the branch that reads it.
 * POPF or IRET puts back every flag, DF, AC and IF included.
 *
 * These are templates, not code that runs where it is: they live in
 * .rodata and opt.c copies them into each detour, filling in the site
 * (the MOVABS at x86_detour_site and x86_detour_post_site), the
 * displacements of the calls (x86_detour_call, x86_detour_post_call)
 * and the jumps (x86_detour_first_jmp, x86_detour_step_jmp,
 * x86_detour_post_rest_jmp) and, without SMAP, a NOP for the CLAC
 * (x86_detour_clac).  So they must not contain anything
 * position-dependent besides those.
 */
#include <linux/linkage.h>
#include <asm/segment.h>
#include <asm/ptrace-abi.h>
#include "internal.h"

/* The general registers, in the reverse of pt_regs order. */
.macro POP_DETOUR_REGS
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rax
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
.endm

	.pushsection .rodata, "a"
SYM_DATA_START(x86_detour_template)
	/* The hardware part of pt_regs: ss, sp, flags, cs, ip, orig_ax. */
	pushq	$__KERNEL_DS
	pushq	%rsp			/* the value before this push ... */
	pushfq				/* (saved before the ADD changes them) */
	addq	$8, 8(%rsp)		/* ... plus the SS slot */
	/* C code runs with DF and AC clear, as after an exception entry. */
	cld
SYM_INNER_LABEL(x86_detour_clac, SYM_L_GLOBAL)
	clac				/* a NOP without SMAP */
	pushq	$__KERNEL_CS
	pushq	$0			/* ip: set by the callee */
	pushq	$-1			/* orig_ax */
	/* The general registers, in pt_regs order. */
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%rax
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, %rsi
SYM_INNER_LABEL(x86_detour_site, SYM_L_GLOBAL)
	movabsq	$0, %rdi
SYM_INNER_LABEL(x86_detour_call, SYM_L_GLOBAL)
	.byte	0xe8			/* CALL rel32, filled in */
	.long	0
	/* The callee's verdict (X86_DETOUR_*) goes where orig_ax was. */
	movzbl	%al, %eax
	movq	%rax, ORIG_RAX(%rsp)
	cmpl	$X86_DETOUR_FIRST, %eax
SYM_INNER_LABEL(x86_detour_first_jmp, SYM_L_GLOBAL)
	.byte	0x0f, 0x84		/* JE rel32, filled in */
	.long	0
	POP_DETOUR_REGS
	/* Flags may change now: IRET or POPF restores them. */
	cmpq	$X86_DETOUR_IRET, (%rsp)
	jb	.Lresume
	ja	.Lstep
	/* A handler took over: resume at regs->ip. */
	addq	$8, %rsp		/* orig_ax */
	iretq
.Lstep:
	/* Into the way with a stop, with regs->flags (interrupts off). */
	leaq	24(%rsp), %rsp
	popfq
	leaq	16(%rsp), %rsp
SYM_INNER_LABEL(x86_detour_step_jmp, SYM_L_GLOBAL)
	.byte	0xe9			/* JMP rel32, filled in */
	.long	0
.Lresume:
	/* Skip orig_ax, ip and cs; LEA leaves the restored flags alone. */
	leaq	24(%rsp), %rsp
	popfq
	leaq	16(%rsp), %rsp		/* sp and ss */
SYM_INNER_LABEL(x86_detour_template_end, SYM_L_GLOBAL)
SYM_DATA_END(x86_detour_template)

/*
 * After the code generated for a FIRST verdict: pt_regs on the stack hold
 * what the region's first instruction left, regs->ip after it.
 */
SYM_DATA_START(x86_detour_post_template)
	movq	%rsp, %rsi
SYM_INNER_LABEL(x86_detour_post_site, SYM_L_GLOBAL)
	movabsq	$0, %rdi
SYM_INNER_LABEL(x86_detour_post_call, SYM_L_GLOBAL)
	.byte	0xe8			/* CALL rel32, filled in */
	.long	0
	/* The verdict, REST or IRET, decided now: POP leaves the flags be. */
	cmpb	$X86_DETOUR_REST, %al
	POP_DETOUR_REGS
	jne	.Lpost_iret
	leaq	24(%rsp), %rsp		/* orig_ax, ip and cs */
	popfq
	movq	(%rsp), %rsp		/* regs->sp, which ss follows */
SYM_INNER_LABEL(x86_detour_post_rest_jmp, SYM_L_GLOBAL)
	.byte	0xe9			/* JMP rel32, filled in */
	.long	0
.Lpost_iret:
	/* A post handler took over: resume at regs->ip. */
	addq	$8, %rsp		/* orig_ax */
	iretq
SYM_INNER_LABEL(x86_detour_post_template_end, SYM_L_GLOBAL)
SYM_DATA_END(x86_detour_post_template)
	.popsection
