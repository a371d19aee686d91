// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc side of user-space probes (kernel/kprobes/user.c): the rest of
 * the work is uprobes', whose powerpc code steps and emulates.
 */
#include <linux/kprobes_arch.h>
#include <linux/sched.h>
#include <asm/inst.h>

/* A word, or two for a prefixed instruction (64-bit only). */
int arch_kprobe_user_insn_len(const u8 *buf, int len, unsigned int mode)
{
	u32 word;
	int n;

	if (len < (int)sizeof(word))
		return -EILSEQ;
	memcpy(&word, buf, sizeof(word));
	n = IS_ENABLED(CONFIG_PPC64) && (word >> 26) == OP_PREFIX ? 8 : 4;
	return len >= n ? n : -EILSEQ;
}

int arch_kprobe_user_trapnr(void)
{
	/* The interrupt vector of the fault, kept by the trap path. */
	return current->thread.trap_nr;
}
