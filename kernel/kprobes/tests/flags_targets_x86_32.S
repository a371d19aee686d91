/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flags suite's targets for 32-bit x86: flags_targets_x86_64.S says
 * what each one is for.  The arguments come in EAX and EDX (regparm),
 * and the two instructions the probe covers are a 2-byte and a 5-byte
 * MOV, long enough for the jump of an optimized probe.
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/frame.h>
#include <asm/smap.h>

	.text

/* long kpt_flags_<cc>(long a, long b): 1 when "a - b" sets <cc>. */
.macro KPT_FLAGS_JCC cc
SYM_FUNC_START(kpt_flags_\cc)
	cmpl	%edx, %eax
.Lkpt_flags_\cc:
	movl	%eax, %ecx		/* 2 bytes: the probed instruction */
	movl	$0x5a5a5a5a, %ecx	/* 5 bytes: in the jump's region */
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

/* unsigned long kpt_flags_all(long a, long b): EFLAGS after "a - b". */
SYM_FUNC_START(kpt_flags_all)
	cmpl	%edx, %eax
.Lkpt_flags_all:
	movl	%eax, %ecx
	movl	$0x5a5a5a5a, %ecx
	pushfl
	popl	%eax
	RET
SYM_FUNC_END(kpt_flags_all)

/* The same with DF and, with SMAP, AC set. */
SYM_FUNC_START(kpt_flags_std_stac)
	ASM_STAC
	std
	cmpl	%edx, %eax
.Lkpt_flags_std_stac:
	movl	%eax, %ecx
	movl	$0x5a5a5a5a, %ecx
	pushfl
	popl	%eax
	cld
	ASM_CLAC
	RET
SYM_FUNC_END(kpt_flags_std_stac)

/* long kpt_flags_cmp_ret(long a, long b): returns with live flags. */
SYM_FUNC_START(kpt_flags_cmp_ret)
	cmpl	%edx, %eax
	RET
SYM_FUNC_END(kpt_flags_cmp_ret)

/* unsigned long kpt_flags_after_ret(long a, long b): EFLAGS after it. */
SYM_FUNC_START(kpt_flags_after_ret)
	call	kpt_flags_cmp_ret
	pushfl
	popl	%eax
	RET
SYM_FUNC_END(kpt_flags_after_ret)

/* long kpt_tail_caller(long x): x + 3, through a tail call (x86_64.S). */
SYM_FUNC_START(kpt_tail_caller)
	FRAME_BEGIN
	call	kpt_tail_outer
.Lkpt_tail_ret:
	FRAME_END
	RET
SYM_FUNC_END(kpt_tail_caller)

SYM_FUNC_START(kpt_tail_outer)
	addl	$1, %eax
	jmp	kpt_tail_inner
SYM_FUNC_END(kpt_tail_outer)

SYM_FUNC_START(kpt_tail_inner)
	addl	$2, %eax
	RET
SYM_FUNC_END(kpt_tail_inner)

	.section .rodata
	.balign 4
SYM_DATA(kpt_flags_c_off, .long .Lkpt_flags_c - kpt_flags_c)
SYM_DATA(kpt_flags_z_off, .long .Lkpt_flags_z - kpt_flags_z)
SYM_DATA(kpt_flags_s_off, .long .Lkpt_flags_s - kpt_flags_s)
SYM_DATA(kpt_flags_o_off, .long .Lkpt_flags_o - kpt_flags_o)
SYM_DATA(kpt_flags_p_off, .long .Lkpt_flags_p - kpt_flags_p)
SYM_DATA(kpt_flags_all_off, .long .Lkpt_flags_all - kpt_flags_all)
SYM_DATA(kpt_flags_std_stac_off,
	 .long .Lkpt_flags_std_stac - kpt_flags_std_stac)
SYM_DATA(kpt_tail_ret_off, .long .Lkpt_tail_ret - kpt_tail_caller)
