/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * s390 kprobes: the return trampoline.
 *
 * A hooked function's "br %r14" lands here with its result in %r2, %r14
 * holding our own address, %r15 the stack pointer it was called with
 * and the condition code as it left it.  We store %r14 in the caller's
 * register save area (where the function saved it, if it is not a leaf)
 * for unwinders, which recover the real address there from the task's
 * instances by that stack pointer, and open a frame with a back chain
 * and a struct pt_regs.  s390_kretprobe_return() runs the handlers and
 * gives the real return address, which goes in %r14.  The condition
 * code and program mask (saved by ipm, restored by spm) and %r0-%r14
 * go back as pt_regs holds them, %r15 by the frame's size; the return
 * takes no trap.
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/nospec-insn.h>
#include <asm/ptrace.h>

#define TRAMP_REGS	STACK_FRAME_OVERHEAD
#define TRAMP_CC	(STACK_FRAME_OVERHEAD + __PT_SIZE)
#define TRAMP_FRAME	(TRAMP_CC + 8)

	GEN_BR_THUNK %r14

	.text
SYM_CODE_START(kretprobe_trampoline)
	stg	%r14,(__SF_GPRS + 8 * 8)(%r15)
	lay	%r15,-TRAMP_FRAME(%r15)
	stmg	%r0,%r14,TRAMP_REGS + __PT_R0(%r15)
	ipm	%r0
	st	%r0,TRAMP_CC(%r15)
	la	%r1,TRAMP_FRAME(%r15)
	stg	%r1,__SF_BACKCHAIN(%r15)
	stg	%r1,TRAMP_REGS + __PT_R15(%r15)
	/* The PSW, as a handler would see it at the return. */
	epsw	%r2,%r3
	risbg	%r3,%r2,0,31,32
	stg	%r3,TRAMP_REGS + __PT_PSW(%r15)
	larl	%r1,kretprobe_trampoline
	stg	%r1,TRAMP_REGS + __PT_PSW + 8(%r15)

	la	%r2,TRAMP_REGS(%r15)
	brasl	%r14,s390_kretprobe_return

	stg	%r2,TRAMP_REGS + __PT_R14(%r15)
	l	%r0,TRAMP_CC(%r15)
	spm	%r0
	lmg	%r0,%r14,TRAMP_REGS + __PT_R0(%r15)
	la	%r15,TRAMP_FRAME(%r15)
	BR_EX	%r14
SYM_CODE_END(kretprobe_trampoline)
/* Never probed: a probe here would run inside every return. */
	.pushsection "_kprobe_blacklist", "aw"
	.quad	kretprobe_trampoline
	.popsection
