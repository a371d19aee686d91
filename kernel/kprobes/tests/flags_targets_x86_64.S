/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Functions whose result depends on flags that stay live across the
 * probed instructions: a CMP sets them, two MOVs that the probe replaces
 * (long enough for a jump, so every mode applies) leave them alone, and
 * a Jcc or PUSHF after them reads them.  A probe that changes a flag on
 * the way changes the result.
 *
 * As in opt_targets_x86.S, the probe's offset is in kpt_<name>_off and
 * not at a global label, so that kallsyms sees whole functions.
 *
 * At the end, the return probe suite's tail call (kpt_tail_*), which only
 * assembly can promise.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/frame.h>
#include <asm/smap.h>
#include <asm/nospec-branch.h>

	.text

/*
 * long kpt_flags_<cc>(long a, long b): 1 when "a - b" sets condition
 * <cc> (Jcc), 0 when it does not.
 */
.macro KPT_FLAGS_JCC cc
SYM_FUNC_START(kpt_flags_\cc)
	cmpq	%rsi, %rdi
.Lkpt_flags_\cc:
	movq	%rdi, %r8		/* 3 bytes: the probed instruction */
	movq	%rsi, %r9		/* 3 bytes: in the jump's region */
	j\cc	1f
	xorl	%eax, %eax
	RET
1:	movl	$1, %eax
	RET
SYM_FUNC_END(kpt_flags_\cc)
.endm

KPT_FLAGS_JCC c
KPT_FLAGS_JCC z
KPT_FLAGS_JCC s
KPT_FLAGS_JCC o
KPT_FLAGS_JCC p

/* unsigned long kpt_flags_all(long a, long b): RFLAGS after "a - b". */
SYM_FUNC_START(kpt_flags_all)
	cmpq	%rsi, %rdi
.Lkpt_flags_all:
	movq	%rdi, %r8
	movq	%rsi, %r9
	pushfq
	popq	%rax
	RET
SYM_FUNC_END(kpt_flags_all)

/*
 * unsigned long kpt_flags_std_stac(long a, long b): RFLAGS after "a - b"
 * with DF set and, with SMAP, AC set (as in a user_access_begin()
 * region).
 */
SYM_FUNC_START(kpt_flags_std_stac)
	ASM_STAC
	std
	cmpq	%rsi, %rdi
.Lkpt_flags_std_stac:
	movq	%rdi, %r8
	movq	%rsi, %r9
	pushfq
	popq	%rax
	cld
	ASM_CLAC
	RET
SYM_FUNC_END(kpt_flags_std_stac)

/*
 * long kpt_flags_cmp_ret(long a, long b): returns with the flags of
 * "a - b" live, for kpt_flags_after_ret() to read; what a return probe's
 * trampoline must give back.
 */
SYM_FUNC_START(kpt_flags_cmp_ret)
	cmpq	%rsi, %rdi
	RET
SYM_FUNC_END(kpt_flags_cmp_ret)

/* unsigned long kpt_flags_after_ret(long a, long b): RFLAGS after it. */
SYM_FUNC_START(kpt_flags_after_ret)
	call	kpt_flags_cmp_ret
	pushfq
	popq	%rax
	RET
SYM_FUNC_END(kpt_flags_after_ret)

/*
 * long kpt_tail_caller(long x): x + 3.  It calls kpt_tail_outer, which
 * jumps to kpt_tail_inner as its last act, so kpt_tail_inner returns
 * straight to .Lkpt_tail_ret, through the slot kpt_tail_outer was
 * called with (test_kretprobe.c).
 */
SYM_FUNC_START(kpt_tail_caller)
	FRAME_BEGIN
	call	kpt_tail_outer
.Lkpt_tail_ret:
	FRAME_END
	RET
SYM_FUNC_END(kpt_tail_caller)

SYM_FUNC_START(kpt_tail_outer)
	addq	$1, %rdi
	jmp	kpt_tail_inner
SYM_FUNC_END(kpt_tail_outer)

SYM_FUNC_START(kpt_tail_inner)
	leaq	2(%rdi), %rax
	RET
SYM_FUNC_END(kpt_tail_inner)

	.section .rodata
	.balign 8
SYM_DATA(kpt_flags_c_off, .quad .Lkpt_flags_c - kpt_flags_c)
SYM_DATA(kpt_flags_z_off, .quad .Lkpt_flags_z - kpt_flags_z)
SYM_DATA(kpt_flags_s_off, .quad .Lkpt_flags_s - kpt_flags_s)
SYM_DATA(kpt_flags_o_off, .quad .Lkpt_flags_o - kpt_flags_o)
SYM_DATA(kpt_flags_p_off, .quad .Lkpt_flags_p - kpt_flags_p)
SYM_DATA(kpt_flags_all_off, .quad .Lkpt_flags_all - kpt_flags_all)
SYM_DATA(kpt_flags_std_stac_off,
	 .quad .Lkpt_flags_std_stac - kpt_flags_std_stac)
SYM_DATA(kpt_tail_ret_off, .quad .Lkpt_tail_ret - kpt_tail_caller)
