/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the arm64 instruction suite (test_insn_arm64.c).  Each
 * function has one instruction of interest; its offset in the function
 * is in kpt_a64_<name>_off, so that kallsyms sees whole functions and a
 * probe is placed by function and offset, as users place them.
 *
 * Before the offsets, the return probe suite's tail call (kpt_tail_*),
 * which only assembly can promise.
 */
#include <linux/linkage.h>
#include <asm/assembler.h>

	.text

/* long kpt_a64_leaf(long x): x + 3; its RET is probed too. */
SYM_FUNC_START(kpt_a64_leaf)
	add	x0, x0, #3
.Lkpt_a64_ret:
	ret
SYM_FUNC_END(kpt_a64_leaf)

/* long kpt_a64_b(long x): x + 1 through a B over a wrong result. */
SYM_FUNC_START(kpt_a64_b)
.Lkpt_a64_b:
	b	1f
	mov	x0, #-1
	ret
1:	add	x0, x0, #1
	ret
SYM_FUNC_END(kpt_a64_b)

/* long kpt_a64_bl(long x): x + 3 + 7, through BL kpt_a64_leaf. */
SYM_FUNC_START(kpt_a64_bl)
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
.Lkpt_a64_bl:
	bl	kpt_a64_leaf
	add	x0, x0, #7
	ldp	x29, x30, [sp], #16
	ret
SYM_FUNC_END(kpt_a64_bl)

/* long kpt_a64_blr(long x, long (*fn)(long)): fn(x) * 2, through BLR. */
SYM_FUNC_START(kpt_a64_blr)
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
.Lkpt_a64_blr:
	blr	x1
	add	x0, x0, x0
	ldp	x29, x30, [sp], #16
	ret
SYM_FUNC_END(kpt_a64_blr)

/* long kpt_a64_br(long x): x + 5, through BR to a BTI J landing pad. */
SYM_FUNC_START(kpt_a64_br)
	adr	x1, 1f
.Lkpt_a64_br:
	br	x1
	mov	x0, #-1
	ret
1:	hint	#36			/* BTI J */
	add	x0, x0, #5
	ret
SYM_FUNC_END(kpt_a64_br)

/* long kpt_a64_bcond_<cc>(long a, long b): 1 when "a - b" sets <cc>. */
.macro KPT_A64_BCOND cc
SYM_FUNC_START(kpt_a64_bcond_\cc)
	cmp	x0, x1
.Lkpt_a64_bcond_\cc:
	b.\cc	1f
	mov	x0, #0
	ret
1:	mov	x0, #1
	ret
SYM_FUNC_END(kpt_a64_bcond_\cc)
.endm

KPT_A64_BCOND eq
KPT_A64_BCOND ne
KPT_A64_BCOND cs
KPT_A64_BCOND cc
KPT_A64_BCOND mi
KPT_A64_BCOND pl
KPT_A64_BCOND vs
KPT_A64_BCOND vc
KPT_A64_BCOND hi
KPT_A64_BCOND ls
KPT_A64_BCOND ge
KPT_A64_BCOND lt
KPT_A64_BCOND gt
KPT_A64_BCOND le

/* long kpt_a64_<op>(long x): 1 when the branch is taken, 0 if not. */
.macro KPT_A64_TEST name, insn:vararg
SYM_FUNC_START(kpt_a64_\name)
.Lkpt_a64_\name:
	\insn
	mov	x0, #0
	ret
1:	mov	x0, #1
	ret
SYM_FUNC_END(kpt_a64_\name)
.endm

KPT_A64_TEST cbz_x, cbz x0, 1f
KPT_A64_TEST cbnz_x, cbnz x0, 1f
KPT_A64_TEST cbz_w, cbz w0, 1f
KPT_A64_TEST cbnz_w, cbnz w0, 1f
KPT_A64_TEST tbz_3, tbz x0, #3, 1f
KPT_A64_TEST tbnz_3, tbnz x0, #3, 1f
KPT_A64_TEST tbz_40, tbz x0, #40, 1f
KPT_A64_TEST tbnz_40, tbnz x0, #40, 1f

/* unsigned long kpt_a64_adr(void): the address of a label, by ADR. */
SYM_FUNC_START(kpt_a64_adr)
.Lkpt_a64_adr:
	adr	x0, kpt_a64_literals
	ret
SYM_FUNC_END(kpt_a64_adr)

/* unsigned long kpt_a64_adrp(void): its 4K page, by ADRP into X3. */
SYM_FUNC_START(kpt_a64_adrp)
.Lkpt_a64_adrp:
	adrp	x3, kpt_a64_literals
	mov	x0, x3
	ret
SYM_FUNC_END(kpt_a64_adrp)

/* The literal loads: 64 bits, 32 bits zero- and sign-extended, PRFM. */
SYM_FUNC_START(kpt_a64_ldr_x)
.Lkpt_a64_ldr_x:
	ldr	x0, kpt_a64_literals
	ret
SYM_FUNC_END(kpt_a64_ldr_x)

SYM_FUNC_START(kpt_a64_ldr_w)
	mov	x0, #-1
.Lkpt_a64_ldr_w:
	ldr	w0, kpt_a64_literals + 8
	ret
SYM_FUNC_END(kpt_a64_ldr_w)

SYM_FUNC_START(kpt_a64_ldrsw)
.Lkpt_a64_ldrsw:
	ldrsw	x0, kpt_a64_literals + 8
	ret
SYM_FUNC_END(kpt_a64_ldrsw)

SYM_FUNC_START(kpt_a64_prfm)
.Lkpt_a64_prfm:
	prfm	pldl1keep, kpt_a64_literals
	add	x0, x0, #1
	ret
SYM_FUNC_END(kpt_a64_prfm)

	.balign	8
SYM_DATA_START_LOCAL(kpt_a64_literals)
	.quad	0x1122334455667788
	.quad	0x00000000fedcba98
SYM_DATA_END(kpt_a64_literals)

/*
 * unsigned long kpt_a64_nzcv(long a, long b): NZCV after "a - b" and an
 * instruction that runs out of line in between.
 */
SYM_FUNC_START(kpt_a64_nzcv)
	cmp	x0, x1
.Lkpt_a64_nzcv:
	mov	x2, x0
	mrs	x0, nzcv
	ret
SYM_FUNC_END(kpt_a64_nzcv)

/*
 * unsigned long kpt_a64_daif(long masked): DAIF after an instruction
 * that ran out of line with IRQs masked (masked != 0) or not.
 */
SYM_FUNC_START(kpt_a64_daif)
	mrs	x1, daif
	cbz	x0, 1f
	msr	daifset, #2
1:
.Lkpt_a64_daif:
	mov	x2, x0
	mrs	x0, daif
	msr	daif, x1
	ret
SYM_FUNC_END(kpt_a64_daif)

/*
 * long kpt_a64_cmp_ret(long a, long b): returns with the flags of
 * "a - b" live and x9..x17 set, for kpt_a64_after_ret() to read: what a
 * return probe's trampoline must give back unchanged.
 */
SYM_FUNC_START(kpt_a64_cmp_ret)
	mov	x9, #9
	mov	x10, #10
	mov	x11, #11
	mov	x12, #12
	mov	x13, #13
	mov	x14, #14
	mov	x15, #15
	mov	x16, #16
	mov	x17, #17
	cmp	x0, x1
	ret
SYM_FUNC_END(kpt_a64_cmp_ret)

/*
 * unsigned long kpt_a64_after_ret(long a, long b): NZCV after the call,
 * plus (bits 0..15) a checksum of x9..x17 and of X30 minus the call's
 * return address.
 */
SYM_FUNC_START(kpt_a64_after_ret)
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	kpt_a64_cmp_ret
.Lkpt_a64_after_call:
	mrs	x0, nzcv
	add	x1, x9, x10
	add	x1, x1, x11
	add	x1, x1, x12
	add	x1, x1, x13
	add	x1, x1, x14
	add	x1, x1, x15
	add	x1, x1, x16
	add	x1, x1, x17
	adr	x2, .Lkpt_a64_after_call
	sub	x2, x30, x2
	add	x1, x1, x2
	and	x1, x1, #0xffff
	orr	x0, x0, x1
	ldp	x29, x30, [sp], #16
	ret
SYM_FUNC_END(kpt_a64_after_ret)

/*
 * Instructions that are refused: SVC, MSR DAIF, the hints that are not
 * steppable (AUTIASP, WFI), LDXR and its sequence.  Never called.
 */
SYM_FUNC_START(kpt_a64_refused)
.Lkpt_a64_refused_svc:
	svc	#0
.Lkpt_a64_refused_autiasp:
	hint	#29			/* AUTIASP */
.Lkpt_a64_refused_wfi:
	wfi
.Lkpt_a64_refused_msr:
	msr	daifset, #2
.Lkpt_a64_refused_mrs_daif:
	mrs	x0, daif
.Lkpt_a64_refused_ldxr:
	ldxr	x1, [x0]
.Lkpt_a64_refused_in_seq:
	add	x1, x1, #1
	stxr	w2, x1, [x0]
.Lkpt_a64_after_seq:
	ret
SYM_FUNC_END(kpt_a64_refused)

/*
 * long kpt_tail_caller(long x): x + 3.  It calls kpt_tail_outer, which
 * branches to kpt_tail_inner as its last act, so kpt_tail_inner returns
 * straight to .Lkpt_tail_ret with the X30 kpt_tail_outer was called with
 * (test_kretprobe.c).
 */
SYM_FUNC_START(kpt_tail_caller)
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	kpt_tail_outer
.Lkpt_tail_ret:
	ldp	x29, x30, [sp], #16
	ret
SYM_FUNC_END(kpt_tail_caller)

SYM_FUNC_START(kpt_tail_outer)
	add	x0, x0, #1
	b	kpt_tail_inner
SYM_FUNC_END(kpt_tail_outer)

SYM_FUNC_START(kpt_tail_inner)
	add	x0, x0, #2
	ret
SYM_FUNC_END(kpt_tail_inner)

	.section .rodata
	.balign 8
.macro KPT_A64_OFF name, func, label
SYM_DATA(kpt_a64_\name\()_off, .quad \label - \func)
.endm
KPT_A64_OFF ret, kpt_a64_leaf, .Lkpt_a64_ret
KPT_A64_OFF b, kpt_a64_b, .Lkpt_a64_b
KPT_A64_OFF bl, kpt_a64_bl, .Lkpt_a64_bl
KPT_A64_OFF blr, kpt_a64_blr, .Lkpt_a64_blr
KPT_A64_OFF br, kpt_a64_br, .Lkpt_a64_br
.irp cc, eq, ne, cs, cc, mi, pl, vs, vc, hi, ls, ge, lt, gt, le
KPT_A64_OFF bcond_\cc, kpt_a64_bcond_\cc, .Lkpt_a64_bcond_\cc
.endr
.irp t, cbz_x, cbnz_x, cbz_w, cbnz_w, tbz_3, tbnz_3, tbz_40, tbnz_40
KPT_A64_OFF \t, kpt_a64_\t, .Lkpt_a64_\t
.endr
KPT_A64_OFF adr, kpt_a64_adr, .Lkpt_a64_adr
KPT_A64_OFF adrp, kpt_a64_adrp, .Lkpt_a64_adrp
KPT_A64_OFF ldr_x, kpt_a64_ldr_x, .Lkpt_a64_ldr_x
KPT_A64_OFF ldr_w, kpt_a64_ldr_w, .Lkpt_a64_ldr_w
KPT_A64_OFF ldrsw, kpt_a64_ldrsw, .Lkpt_a64_ldrsw
KPT_A64_OFF prfm, kpt_a64_prfm, .Lkpt_a64_prfm
KPT_A64_OFF nzcv, kpt_a64_nzcv, .Lkpt_a64_nzcv
KPT_A64_OFF daif, kpt_a64_daif, .Lkpt_a64_daif
KPT_A64_OFF refused_svc, kpt_a64_refused, .Lkpt_a64_refused_svc
KPT_A64_OFF refused_msr, kpt_a64_refused, .Lkpt_a64_refused_msr
KPT_A64_OFF refused_autiasp, kpt_a64_refused, .Lkpt_a64_refused_autiasp
KPT_A64_OFF refused_wfi, kpt_a64_refused, .Lkpt_a64_refused_wfi
KPT_A64_OFF refused_mrs_daif, kpt_a64_refused, .Lkpt_a64_refused_mrs_daif
KPT_A64_OFF refused_ldxr, kpt_a64_refused, .Lkpt_a64_refused_ldxr
KPT_A64_OFF refused_in_seq, kpt_a64_refused, .Lkpt_a64_refused_in_seq
KPT_A64_OFF after_seq, kpt_a64_refused, .Lkpt_a64_after_seq
SYM_DATA(kpt_tail_ret_off, .quad .Lkpt_tail_ret - kpt_tail_caller)
