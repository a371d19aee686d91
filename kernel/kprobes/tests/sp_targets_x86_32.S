/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets for test_sp_x86_32.c: code whose probe handlers move the
 * stack pointer.  Each loads known values into the callee-saved
 * registers, compares its arguments (EAX, EDX: regparm) and then runs
 * the two MOVs a probe covers (2 and 5 bytes: long enough for the jump
 * of an optimized probe).  EBP and kpt_sp_frame keep ESP as it was at
 * the probe; the way out takes it from kpt_sp_frame, so that a wrong
 * EBP shows in the record rather than as a crash.
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include "sp_targets_x86_32.h"

	.text

.macro KPT_SP_PROLOGUE reserve
	pushl	%ebp
	pushl	%ebx
	pushl	%esi
	pushl	%edi
	subl	$\reserve, %esp
	movl	%esp, %ebp
	movl	%esp, kpt_sp_frame
	movl	$KPT_SP_BX, %ebx
	movl	$KPT_SP_SI, %esi
	movl	$KPT_SP_DI, %edi
	cmpl	%edx, %eax
.endm

.macro KPT_SP_EPILOGUE reserve
	movl	kpt_sp_frame, %esp
	addl	$\reserve, %esp
	popl	%edi
	popl	%esi
	popl	%ebx
	popl	%ebp
	RET
.endm

/* Every register, ESP and EFLAGS into kpt_sp_seen; changes no flag. */
.macro KPT_SP_RECORD
	movl	%esp, kpt_sp_seen + KPT_SEEN_SP
	pushfl
	popl	kpt_sp_seen + KPT_SEEN_FLAGS
	movl	%eax, kpt_sp_seen + KPT_SEEN_AX
	movl	%ebx, kpt_sp_seen + KPT_SEEN_BX
	movl	%ecx, kpt_sp_seen + KPT_SEEN_CX
	movl	%edx, kpt_sp_seen + KPT_SEEN_DX
	movl	%esi, kpt_sp_seen + KPT_SEEN_SI
	movl	%edi, kpt_sp_seen + KPT_SEEN_DI
	movl	%ebp, kpt_sp_seen + KPT_SEEN_BP
.endm

/*
 * unsigned long kpt_sp_pushed(long a, long b): a post handler at the
 * first MOV pushes three words for it; they are popped, lowest first,
 * into kpt_sp_seen.words, then everything is recorded: ESP is back where
 * it was at the probe.  Without the handler the pops read the saved
 * registers, and kpt_sp_frame puts ESP back.
 */
SYM_FUNC_START(kpt_sp_pushed)
	KPT_SP_PROLOGUE 0
.Lkpt_sp_pushed:
	movl	%eax, %ecx		/* 2 bytes: the probed instruction */
	movl	$0x5a5a5a5a, %ecx	/* 5 bytes: in the jump's region */
	popl	kpt_sp_seen + KPT_SEEN_WORDS
	popl	kpt_sp_seen + KPT_SEEN_WORDS + 4
	popl	kpt_sp_seen + KPT_SEEN_WORDS + 8
	KPT_SP_RECORD
	movl	$1, %eax
	KPT_SP_EPILOGUE 0
SYM_FUNC_END(kpt_sp_pushed)

/*
 * unsigned long kpt_sp_detour(long a, long b): a pre handler at the
 * first MOV moves ESP and sends the CPU to kpt_sp_landing, which records
 * everything with the word at ESP, and returns 1.  The
 * KPT_SP_RAISE_MAX bytes above ESP at the probe are the handler's to
 * move ESP into: they hold nothing the function needs.
 */
SYM_FUNC_START(kpt_sp_detour)
	KPT_SP_PROLOGUE KPT_SP_RAISE_MAX
.Lkpt_sp_detour:
	movl	%eax, %ecx		/* 2 bytes: the probed instruction */
	movl	$0x5a5a5a5a, %ecx	/* 5 bytes: in the jump's region */
	xorl	%eax, %eax
	jmp	.Lkpt_sp_detour_out
SYM_INNER_LABEL(kpt_sp_landing, SYM_L_GLOBAL)
	KPT_SP_RECORD
	popl	kpt_sp_seen + KPT_SEEN_WORDS
	movl	$1, %eax
.Lkpt_sp_detour_out:
	KPT_SP_EPILOGUE KPT_SP_RAISE_MAX
SYM_FUNC_END(kpt_sp_detour)

	.section .rodata
	.balign 4
SYM_DATA(kpt_sp_pushed_off, .long .Lkpt_sp_pushed - kpt_sp_pushed)
SYM_DATA(kpt_sp_detour_off, .long .Lkpt_sp_detour - kpt_sp_detour)
