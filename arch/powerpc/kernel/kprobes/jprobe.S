/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * powerpc kprobes: jprobe_return(), the way out of a jprobe's mirror.
 *
 * Its trap reaches kprobe_handler(), which knows it by its address and
 * hands the context to kprobe_jprobe_return(); that never comes back
 * here.  Called outside a mirror, the trap costs a one-time warning and
 * the function returns.  It lives in .kprobes.text, where no probe may
 * be placed; the generic kernel/kprobes/jprobe.c exports it.
 */
#include <linux/linkage.h>
#include <asm/ppc_asm.h>

	.pushsection .kprobes.text, "ax"
_GLOBAL(jprobe_return)
	.globl	ppc_jprobe_return_trap
ppc_jprobe_return_trap:
	trap
	blr
	.popsection
