// SPDX-License-Identifier: GPL-2.0
/*
 * stack_trace_save_regs() for the external build of the pristine
 * lib/test_kprobes.c: the kernel does not export it, so modpost would reject
 * the module.  Same walk as the x86 arch_stack_walk(): regs->ip first, then
 * the unwinder's return addresses, after skipping @skipnr entries.  Only the
 * unwinder entry points exported to modules are used.
 */
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <asm/unwind.h>

unsigned int stack_trace_save_regs(struct pt_regs *regs, unsigned long *store,
				   unsigned int size, unsigned int skipnr)
{
	struct unwind_state state;
	unsigned int len = 0;
	unsigned long addr;

	if (!size)
		return 0;
	if (regs) {
		if (skipnr)
			skipnr--;
		else
			store[len++] = regs->ip;
	}
	for (unwind_start(&state, current, regs, NULL);
	     len < size && !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		if (skipnr) {
			skipnr--;
			continue;
		}
		store[len++] = addr;
	}
	return len;
}
