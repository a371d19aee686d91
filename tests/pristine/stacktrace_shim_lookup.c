// SPDX-License-Identifier: GPL-2.0
/*
 * stack_trace_save_regs() for the external build of the pristine
 * lib/test_kprobes.c on architectures other than x86, whose unwinders
 * export nothing a module could walk with.  The kernel's own function is
 * found at load through the one lookup a module has, a kprobe on its name
 * (registered and at once unregistered), and called from then on.  The
 * test's suites run after this init (KUnit starts a module's suites once
 * it is live).
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/stacktrace.h>

typedef unsigned int (*save_regs_fn)(struct pt_regs *regs, unsigned long *store,
				     unsigned int size, unsigned int skipnr);
static save_regs_fn kernel_save_regs;

unsigned int stack_trace_save_regs(struct pt_regs *regs, unsigned long *store,
				   unsigned int size, unsigned int skipnr)
{
	return kernel_save_regs ? kernel_save_regs(regs, store, size, skipnr) : 0;
}

static int __init shim_init(void)
{
	struct kprobe kp = { .symbol_name = "stack_trace_save_regs" };
	int ret;

	ret = register_kprobe(&kp);
	if (ret)
		return ret;
	kernel_save_regs = (save_regs_fn)kp.addr;
	unregister_kprobe(&kp);
	return 0;
}
module_init(shim_init);

/* An exit, so that the module can be unloaded. */
static void __exit shim_exit(void)
{
}
module_exit(shim_exit);
