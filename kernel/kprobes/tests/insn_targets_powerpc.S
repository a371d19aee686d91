/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the kprobes_powerpc_insn suite (test_insn_powerpc.c) and of
 * the kretprobe suite's tail call.  Each probed instruction has a local
 * label, whose offset from its function is in the table at the end.
 * None of these functions uses the TOC: their global and local entries
 * are the same.
 */
#include <linux/linkage.h>
#include <asm/ppc_asm.h>
#include <asm/asm-compat.h>
#include <asm/ppc-opcode.h>
#include <asm/ptrace.h>
#include <asm/asm-offsets.h>
#include <asm/reg.h>

	.text

/*
 * void kpt_ppc_flags(unsigned long *out, long a, long b): starts from a
 * clear XER and CR, sets CR0 and CR7 by two compares of a and b, then
 *   .Lkpt_ppc_emul: addco. (emulated), which sets CA, OV, SO and CR0;
 *   .Lkpt_ppc_step: mfpvr (single-stepped: the emulator leaves it);
 *   .Lkpt_ppc_cr:   add, while CR and XER hold what addco. left;
 * and stores the sum, CR, XER and the PVR in out[0..3].  The caller's
 * XER is put back before the return.
 */
_GLOBAL(kpt_ppc_flags)
	mfxer	r10
	mfcr	r11
	li	r0, 0
	mtxer	r0
	mtcr	r0
	PPC_LCMP cr0, r4, r5
	cmplw	cr7, r5, r4
.Lkpt_ppc_emul:
	addco.	r6, r4, r5
.Lkpt_ppc_step:
	mfpvr	r7
.Lkpt_ppc_cr:
	add	r6, r6, r0
	mfcr	r8
	mfxer	r9
	PPC_STL	r6, 0(r3)
	PPC_STL	r8, SZL(r3)
	PPC_STL	r9, (2 * SZL)(r3)
	PPC_STL	r7, (3 * SZL)(r3)
	/*
	 * The caller's XER back: SO is sticky, and nothing else in the
	 * kernel clears it (a context switch does not save XER), so left
	 * set it would reach CR0 of every record-form instruction after us,
	 * and regs_return_value() negates a value returned with CR0[SO].
	 */
	mtxer	r10
	/* CR2-CR4 are the caller's to keep. */
	mtcrf	0x38, r11
	blr

/* long kpt_ppc_branch(long x): x + 10 through a taken "bl" (emulated). */
_GLOBAL(kpt_ppc_branch)
	mflr	r0
	PPC_STL	r0, PPC_LR_STKOFF(r1)
	PPC_STLU r1, -STACK_FRAME_MIN_SIZE(r1)
.Lkpt_ppc_bl:
	bl	kpt_ppc_add10
	addi	r1, r1, STACK_FRAME_MIN_SIZE
	PPC_LL	r0, PPC_LR_STKOFF(r1)
	mtlr	r0
	blr

_GLOBAL(kpt_ppc_add10)
	addi	r3, r3, 10
	blr

/*
 * Never called: what registration must refuse, and what it must not.
 * A reservation loop (its larx, an instruction inside, its stcx.; the
 * branch after the stcx. is fine), a trap, what changes the interrupt
 * state behind the step (mtspr to SRR0, wrteei, on 64-bit a load of the
 * PACA's soft mask), bctar, and the suffix of a prefixed instruction
 * (paddi r3,0,1).
 */
_GLOBAL(kpt_ppc_refused)
.Lkpt_ppc_larx:
	lwarx	r4, 0, r3
.Lkpt_ppc_in_seq:
	addi	r4, r4, 1
.Lkpt_ppc_stcx:
	stwcx.	r4, 0, r3
.Lkpt_ppc_after_seq:
	bne-	.Lkpt_ppc_larx
.Lkpt_ppc_trap:
	tw	31, 0, 0
.Lkpt_ppc_mtsrr0:
	mtspr	SPRN_SRR0, r3
.Lkpt_ppc_wrteei:
	.long	0x7c000146	/* wrteei 0 */
.Lkpt_ppc_bctar:
	.long	0x4e800460	/* bctar */
#ifdef CONFIG_PPC64
.Lkpt_ppc_softmask:
	lbz	r9, PACAIRQSOFTMASK(r13)
#else
	/* No soft mask on 32-bit: the offset names the trap (unused). */
	.set	.Lkpt_ppc_softmask, .Lkpt_ppc_trap
#endif
	.balign	64
.Lkpt_ppc_prefix:
	.long	0x06000000
.Lkpt_ppc_suffix:
	.long	0x38600001
	blr

/*
 * long kpt_tail_caller(long x): x + 3.  It calls kpt_tail_outer, whose
 * last act is a branch (no link) to kpt_tail_inner, so kpt_tail_inner
 * returns straight to .Lkpt_tail_ret with the LR kpt_tail_outer was
 * called with (test_kretprobe.c).  The caller has a frame of its own,
 * with the back chain and the LR save word unwinders read.
 */
_GLOBAL(kpt_tail_caller)
	mflr	r0
	PPC_STL	r0, PPC_LR_STKOFF(r1)
	PPC_STLU r1, -STACK_FRAME_MIN_SIZE(r1)
	bl	kpt_tail_outer
.Lkpt_tail_ret:
	addi	r1, r1, STACK_FRAME_MIN_SIZE
	PPC_LL	r0, PPC_LR_STKOFF(r1)
	mtlr	r0
	blr

_GLOBAL(kpt_tail_outer)
	addi	r3, r3, 1
	b	kpt_tail_inner

_GLOBAL(kpt_tail_inner)
	addi	r3, r3, 2
	blr

	.section .rodata
	.balign	8
.macro KPT_PPC_OFF name, func, label
	.globl	kpt_ppc_\name\()_off
kpt_ppc_\name\()_off:
	PPC_LONG \label - \func
.endm
KPT_PPC_OFF emul, kpt_ppc_flags, .Lkpt_ppc_emul
KPT_PPC_OFF step, kpt_ppc_flags, .Lkpt_ppc_step
KPT_PPC_OFF cr, kpt_ppc_flags, .Lkpt_ppc_cr
KPT_PPC_OFF bl, kpt_ppc_branch, .Lkpt_ppc_bl
.irp r, larx, in_seq, stcx, after_seq, trap, suffix, mtsrr0, wrteei, bctar, softmask
KPT_PPC_OFF \r, kpt_ppc_refused, .Lkpt_ppc_\r
.endr
	.globl	kpt_tail_ret_off
kpt_tail_ret_off:
	PPC_LONG .Lkpt_tail_ret - kpt_tail_caller
