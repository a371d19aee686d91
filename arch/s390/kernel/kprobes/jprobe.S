/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * s390 kprobes: jprobe_return(), the way out of a jprobe's mirror.
 *
 * Its breakpoint reaches the die notifier (core.c), which knows it by
 * its address and hands the context to kprobe_jprobe_return(); that
 * never comes back here.  Called outside a mirror, the breakpoint costs
 * a one-time warning and the function returns.  It lives in
 * .kprobes.text, where no probe may be placed; the generic
 * kernel/kprobes/jprobe.c exports it.
 */
#include <linux/linkage.h>
#include <asm/nospec-insn.h>

	GEN_BR_THUNK %r14

	.pushsection .kprobes.text, "ax"
SYM_FUNC_START(jprobe_return)
SYM_INNER_LABEL(s390_jprobe_return_bp, SYM_L_GLOBAL)
	.word	0x0002
	BR_EX	%r14
SYM_FUNC_END(jprobe_return)
	.popsection
