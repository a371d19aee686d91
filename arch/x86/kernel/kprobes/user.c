// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 side of user-space probes (kernel/kprobes/user.c): the rest of the
 * work is uprobes', whose x86 code decodes, steps and emulates.
 */
#include <linux/kprobes_arch.h>
#include <linux/sched.h>
#include <asm/insn.h>

int arch_kprobe_user_insn_len(const u8 *buf, int len, unsigned int mode)
{
	struct insn insn;

	/*
	 * The kernel's own mode only: the core takes files of the kernel's
	 * ELF class, so a 64-bit kernel never sees a 32-bit program here.
	 */
	if (insn_decode(&insn, buf, len,
			IS_ENABLED(CONFIG_X86_64) ? INSN_MODE_64 : INSN_MODE_32) < 0)
		return -EILSEQ;
	return insn.length;
}

int arch_kprobe_user_trapnr(void)
{
	/* Set by the trap handler; uprobes restores it after the fault callbacks. */
	return current->thread.trap_nr;
}
