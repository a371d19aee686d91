/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 kprobes: jprobe_return(), the way out of a jprobe's mirror.
 *
 * The breakpoint is the whole function: kprobe_int3_handler() recognises
 * it by the address after it and hands the context to
 * kprobe_jprobe_return(), which never comes back here.  Called outside a
 * mirror (from a kprobe handler, or with no probe hit at all), the
 * breakpoint costs a one-time warning and the RET returns.
 * It lives in .kprobes.text, where no probe may be placed.  The generic
 * kernel/kprobes/jprobe.c exports it.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>

	.pushsection .kprobes.text, "ax"
SYM_FUNC_START(jprobe_return)
	int3
SYM_INNER_LABEL(x86_jprobe_return_trap, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	RET
SYM_FUNC_END(jprobe_return)
	.popsection
