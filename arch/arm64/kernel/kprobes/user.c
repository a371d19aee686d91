// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 side of user-space probes (kernel/kprobes/user.c): the rest of
 * the work is uprobes', whose arm64 code decodes, steps and simulates.
 */
#include <linux/kprobes_arch.h>
#include <linux/sched.h>

/*
 * Every A64 instruction is one word; a shorter rest is not one.  @mode is
 * always the default 0: the core reads ELF64 files only, all A64.
 */
int arch_kprobe_user_insn_len(const u8 *buf, int len, unsigned int mode)
{
	return len >= AARCH64_INSN_SIZE ? AARCH64_INSN_SIZE : -EILSEQ;
}

int arch_kprobe_user_trapnr(void)
{
	/* The syndrome of the fault, kept by the fault path for uprobes. */
	return current->thread.fault_code;
}
