/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 kprobes: the return trampoline.
 *
 * A hooked function's RET lands here with its results in the argument
 * registers, the caller's frame pointer back in X29 and the caller's
 * stack pointer.  We save the registers and the condition flags in a
 * struct pt_regs on the stack, with a frame record {X29, the trampoline}
 * in it so that an unwinder walks through to the caller (the frame
 * record's return address is recovered from the task's instances, by the
 * frame pointer), and let arm64_kretprobe_return() run the handlers.
 *
 * Then every register, NZCV included, goes back as pt_regs holds it,
 * except X30, which gets the real return address: what the function's
 * own RET left there.  RET through it needs no other register and no
 * trap, and changes no flag.  DAIF is never touched: the handlers run
 * with interrupts as the function returned with them.
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/assembler.h>

	.text
SYM_CODE_START(kretprobe_trampoline)
	sub	sp, sp, #PT_REGS_SIZE
	stp	x0, x1, [sp, #S_X0]
	stp	x2, x3, [sp, #S_X2]
	stp	x4, x5, [sp, #S_X4]
	stp	x6, x7, [sp, #S_X6]
	stp	x8, x9, [sp, #S_X8]
	stp	x10, x11, [sp, #S_X10]
	stp	x12, x13, [sp, #S_X12]
	stp	x14, x15, [sp, #S_X14]
	stp	x16, x17, [sp, #S_X16]
	stp	x18, x19, [sp, #S_X18]
	stp	x20, x21, [sp, #S_X20]
	stp	x22, x23, [sp, #S_X22]
	stp	x24, x25, [sp, #S_X24]
	stp	x26, x27, [sp, #S_X26]
	stp	x28, x29, [sp, #S_X28]
	/* lr and sp, pc, pstate (the flags and the interrupt masks). */
	add	x0, sp, #PT_REGS_SIZE
	stp	x30, x0, [sp, #S_LR]
	adr	x0, kretprobe_trampoline
	mrs	x1, nzcv
	mrs	x2, daif
	orr	x1, x1, x2
	stp	x0, x1, [sp, #S_PC]
	/* The frame record, and X29 pointing at it, for unwinders. */
	stp	x29, x0, [sp, #S_STACKFRAME]
	add	x29, sp, #S_STACKFRAME

	mov	x0, sp
	bl	arm64_kretprobe_return

	mov	x30, x0
	ldr	x0, [sp, #S_PSTATE]
	msr	nzcv, x0
	ldp	x0, x1, [sp, #S_X0]
	ldp	x2, x3, [sp, #S_X2]
	ldp	x4, x5, [sp, #S_X4]
	ldp	x6, x7, [sp, #S_X6]
	ldp	x8, x9, [sp, #S_X8]
	ldp	x10, x11, [sp, #S_X10]
	ldp	x12, x13, [sp, #S_X12]
	ldp	x14, x15, [sp, #S_X14]
	ldp	x16, x17, [sp, #S_X16]
	ldp	x18, x19, [sp, #S_X18]
	ldp	x20, x21, [sp, #S_X20]
	ldp	x22, x23, [sp, #S_X22]
	ldp	x24, x25, [sp, #S_X24]
	ldp	x26, x27, [sp, #S_X26]
	ldp	x28, x29, [sp, #S_X28]
	add	sp, sp, #PT_REGS_SIZE
	ret
SYM_CODE_END(kretprobe_trampoline)
/* Never probed: a probe here would run inside every return. */
NOKPROBE(kretprobe_trampoline)
