// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RISC-V side of user-space probes (kernel/kprobes/user.c): the rest of
 * the work is uprobes', whose RISC-V code decodes, steps and simulates.
 */
#include <linux/bug.h>
#include <linux/kprobes_arch.h>
#include <linux/sched.h>

/* 2 or 4 bytes, by the low bits of the first half. */
int arch_kprobe_user_insn_len(const u8 *buf, int len, unsigned int mode)
{
	u16 lo;
	int n;

	if (len < 2)
		return -EILSEQ;
	lo = buf[0] | buf[1] << 8;
	n = GET_INSN_LENGTH(lo);
	return len >= n ? n : -EILSEQ;
}

int arch_kprobe_user_trapnr(void)
{
	/* The cause of the fault, kept by the trap path. */
	return current->thread.bad_cause;
}
