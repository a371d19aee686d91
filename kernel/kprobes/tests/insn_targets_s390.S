/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the kprobes_s390_insn suite (test_insn_s390.c) and of the
 * kretprobe suite's tail call.  Each probed instruction has a local
 * label, whose offset from its function is in the table at the end.
 * The kernel's stack frames are packed: the register save area and the
 * back chain are where asm-offsets says.
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/nospec-insn.h>
#include <asm/ptrace.h>

	GEN_BR_THUNK %r14

	.text

/*
 * long kpt_s390_cc(long a, long b): the condition code of "a + b" (agr)
 * as computed after a probed instruction that leaves it alone (lgr), in
 * the low two bits, and the sum above them.
 */
SYM_FUNC_START(kpt_s390_cc)
	agr	%r2,%r3
.Lkpt_s390_keep:
	lgr	%r4,%r2
	ipm	%r0
	srl	%r0,28
	nill	%r0,3
	sllg	%r2,%r4,2
	ogr	%r2,%r0
	BR_EX	%r14
SYM_FUNC_END(kpt_s390_cc)

/* unsigned long kpt_s390_larl(void): the address larl computes. */
SYM_FUNC_START(kpt_s390_larl)
.Lkpt_s390_larl:
	larl	%r2,kpt_s390_larl
	BR_EX	%r14
SYM_FUNC_END(kpt_s390_larl)

/*
 * long kpt_s390_basr(long x): x + 10, through a call by basr, whose
 * return address the step must fix.
 */
SYM_FUNC_START(kpt_s390_basr)
	stmg	%r14,%r15,__SF_GPRS + 8 * 8(%r15)
	lgr	%r1,%r15
	aghi	%r15,-STACK_FRAME_OVERHEAD
	stg	%r1,__SF_BACKCHAIN(%r15)
	larl	%r1,kpt_s390_add10
.Lkpt_s390_basr:
	basr	%r14,%r1
	lmg	%r14,%r15,STACK_FRAME_OVERHEAD + __SF_GPRS + 8 * 8(%r15)
	BR_EX	%r14
SYM_FUNC_END(kpt_s390_basr)

SYM_FUNC_START(kpt_s390_add10)
	aghi	%r2,10
	BR_EX	%r14
SYM_FUNC_END(kpt_s390_add10)

/* long kpt_s390_branch(long x): x ? 1 : 2, through a conditional branch. */
SYM_FUNC_START(kpt_s390_branch)
	ltgr	%r2,%r2
.Lkpt_s390_brc:
	jz	.Lkpt_s390_zero
	lghi	%r2,1
	BR_EX	%r14
.Lkpt_s390_zero:
	lghi	%r2,2
	BR_EX	%r14
SYM_FUNC_END(kpt_s390_branch)

/* Never called: an execute-relative, which registration refuses. */
SYM_FUNC_START(kpt_s390_refused)
.Lkpt_s390_exrl:
	exrl	%r0,kpt_s390_refused
	BR_EX	%r14
SYM_FUNC_END(kpt_s390_refused)

/*
 * long kpt_tail_caller(long x): x + 3.  It calls kpt_tail_outer, whose
 * last act is a branch (no link) to kpt_tail_inner, so kpt_tail_inner
 * returns straight to .Lkpt_tail_ret with the %r14 kpt_tail_outer was
 * called with (test_kretprobe.c).  The caller has a frame of its own,
 * with the back chain and the register save area unwinders read.
 */
SYM_FUNC_START(kpt_tail_caller)
	stmg	%r14,%r15,__SF_GPRS + 8 * 8(%r15)
	lgr	%r1,%r15
	aghi	%r15,-STACK_FRAME_OVERHEAD
	stg	%r1,__SF_BACKCHAIN(%r15)
	brasl	%r14,kpt_tail_outer
.Lkpt_tail_ret:
	lmg	%r14,%r15,STACK_FRAME_OVERHEAD + __SF_GPRS + 8 * 8(%r15)
	BR_EX	%r14
SYM_FUNC_END(kpt_tail_caller)

SYM_FUNC_START(kpt_tail_outer)
	aghi	%r2,1
	jg	kpt_tail_inner
SYM_FUNC_END(kpt_tail_outer)

SYM_FUNC_START(kpt_tail_inner)
	aghi	%r2,2
	BR_EX	%r14
SYM_FUNC_END(kpt_tail_inner)

	.section .rodata
	.balign	8
.macro KPT_S390_OFF name, func, label
SYM_DATA(kpt_s390_\name\()_off, .quad \label - \func)
.endm
KPT_S390_OFF keep, kpt_s390_cc, .Lkpt_s390_keep
KPT_S390_OFF larl, kpt_s390_larl, .Lkpt_s390_larl
KPT_S390_OFF basr, kpt_s390_basr, .Lkpt_s390_basr
KPT_S390_OFF brc, kpt_s390_branch, .Lkpt_s390_brc
KPT_S390_OFF exrl, kpt_s390_refused, .Lkpt_s390_exrl
SYM_DATA(kpt_tail_ret_off, .quad .Lkpt_tail_ret - kpt_tail_caller)
