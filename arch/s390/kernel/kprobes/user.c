// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * s390 side of user-space probes (kernel/kprobes/user.c): the rest of
 * the work is uprobes', whose s390 code steps and fixes up.
 */
#include <linux/kprobes_arch.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <asm/dis.h>

/* 2, 4 or 6 bytes, by the two high bits of the first byte. */
int arch_kprobe_user_insn_len(const u8 *buf, int len, unsigned int mode)
{
	int n;

	if (len < 2)
		return -EILSEQ;
	n = insn_length(buf[0]);
	return len >= n ? n : -EILSEQ;
}

int arch_kprobe_user_trapnr(void)
{
	/* The program interruption code, in the task's saved registers. */
	return current_pt_regs()->int_code & 0xffff;
}
