/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RISC-V kprobes: jprobe_return(), the way out of a jprobe's mirror.
 *
 * Its EBREAK reaches kprobe_single_step_handler(), which knows it by its
 * address and hands the context to kprobe_jprobe_return(); that never
 * comes back here.  Called outside a mirror, the EBREAK costs a one-time
 * warning and the function returns.  A 4-byte EBREAK, whatever the
 * assembler would compress.  It lives in .kprobes.text, where no probe
 * may be placed; the generic kernel/kprobes/jprobe.c exports it.
 */
#include <linux/linkage.h>

	.pushsection .kprobes.text, "ax"
SYM_FUNC_START(jprobe_return)
SYM_INNER_LABEL(riscv_jprobe_return_brk, SYM_L_GLOBAL)
	.option push
	.option norvc
	ebreak
	.option pop
	ret
SYM_FUNC_END(jprobe_return)
	.popsection
