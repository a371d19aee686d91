/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 kprobes: jprobe_return(), the way out of a jprobe's mirror.
 *
 * An exception return at EL1 takes the stack pointer from where the
 * exception frame was, so the hit's stack pointer cannot be restored
 * through pt_regs: the BRK is taken there instead.  The mirror's frames,
 * below it, are abandoned.  The BRK #KPROBES_BRK_SS_IMM reaches
 * kprobe_ss_brk_handler(), which knows it by its address and hands the
 * context to kprobe_jprobe_return(); that never comes back here.
 *
 * Called outside a mirror, the stack pointer stays, the BRK costs a
 * one-time warning and the function returns.  It lives in .kprobes.text,
 * where no probe may be placed; the generic kernel/kprobes/jprobe.c
 * exports it.
 */
#include <linux/linkage.h>
#include <asm/assembler.h>
#include <asm/brk-imm.h>

	.pushsection .kprobes.text, "ax"
SYM_FUNC_START(jprobe_return)
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	mov	x0, sp
	bl	kprobe_jprobe_stack_pointer
	cbz	x0, 1f
	mov	sp, x0
1:
SYM_INNER_LABEL(arm64_jprobe_return_brk, SYM_L_GLOBAL)
	brk	#KPROBES_BRK_SS_IMM
	ldp	x29, x30, [sp], #16
	ret
SYM_FUNC_END(jprobe_return)
	.popsection
