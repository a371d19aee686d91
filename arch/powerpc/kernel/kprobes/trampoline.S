/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * powerpc kprobes: the return trampoline.
 *
 * A hooked function's blr lands here with its results in r3/r4, LR
 * holding our own address and r1 the stack pointer it was called with.
 * Below that we open a frame with a struct pt_regs in it: the back chain
 * leads an unwinder on to the caller's frame, whose LR save word we set
 * to our address (a leaf function leaves it as it was), which the
 * unwinder recovers from the task's instances by that stack pointer.
 * ppc_kretprobe_return() runs the handlers and gives the real return
 * address, which goes in LR.  CR, XER, CTR and every GPR go back as
 * pt_regs holds them, but r1, which the frame's size gives back, and
 * r13, the per-CPU area pointer on 64-bit, which is the CPU's and not
 * the function's: the task may have moved to another CPU meanwhile.
 * blr needs nothing else and no trap; MSR is never touched.
 */
#include <linux/linkage.h>
#include <asm/ppc_asm.h>
#include <asm/asm-compat.h>
#include <asm/asm-offsets.h>
#include <asm/ptrace.h>

	.text
	.align	2
	.globl	kretprobe_trampoline
kretprobe_trampoline:
	/*
	 * The caller's LR save word is the callee's to fill; a leaf
	 * function never does, so we do, with our address, for unwinders.
	 */
	mflr	r0
	PPC_STL	r0, PPC_LR_STKOFF(r1)
	PPC_STLU r1, -SWITCH_FRAME_SIZE(r1)
	SAVE_GPR(0, r1)
	SAVE_GPRS(2, 12, r1)
	SAVE_GPRS(14, 31, r1)
	addi	r0, r1, SWITCH_FRAME_SIZE
	PPC_STL	r0, GPR1(r1)
	/* The trampoline is where the function returned to: nip and lr. */
	mflr	r0
	PPC_STL	r0, _NIP(r1)
	PPC_STL	r0, _LINK(r1)
	mfmsr	r0
	PPC_STL	r0, _MSR(r1)
	mfctr	r0
	PPC_STL	r0, _CTR(r1)
	mfxer	r0
	PPC_STL	r0, _XER(r1)
	mfcr	r0
	PPC_STL	r0, _CCR(r1)
	li	r0, 0
	PPC_STL	r0, _TRAP(r1)
	PPC_STL	r0, ORIG_GPR3(r1)
#ifdef CONFIG_PPC64
	/* A module's function returns with the module's TOC pointer. */
	LOAD_PACA_TOC()
#endif
	addi	r3, r1, STACK_INT_FRAME_REGS
	bl	CFUNC(DOTSYM(ppc_kretprobe_return))

	mtlr	r3
	PPC_LL	r0, _CTR(r1)
	mtctr	r0
	PPC_LL	r0, _XER(r1)
	mtxer	r0
	PPC_LL	r0, _CCR(r1)
	mtcr	r0
	REST_GPR(0, r1)
	REST_GPRS(2, 12, r1)
	REST_GPRS(14, 31, r1)
	addi	r1, r1, SWITCH_FRAME_SIZE
	blr
/* Never probed: a probe here would run inside every return. */
_ASM_NOKPROBE_SYMBOL(kretprobe_trampoline)
