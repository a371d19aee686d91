// SPDX-License-Identifier: GPL-2.0-only
/*
 * A first kprobe: count and report calls of a kernel function.
 *
 * Load it with the function to watch (kernel_clone by default, which
 * every fork() and clone() goes through):
 *
 *	insmod kprobe_example.ko symbol=kernel_clone
 *
 * Each hit logs the CPU, the calling task and the first argument
 * register from the pre handler, and the instruction pointer after the
 * probed instruction from the post handler.  Unloading the module prints
 * how many times the function ran and how many hits were missed; while
 * it is loaded, /sys/module/kprobe_example/parameters/hits says how many
 * hits there have been so far, logged or not.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/atomic.h>
#include <linux/sysfs.h>

static char symbol[KSYM_NAME_LEN] = "kernel_clone";
module_param_string(symbol, symbol, sizeof(symbol), 0444);
MODULE_PARM_DESC(symbol, "function to probe (\"sym\" or \"module:sym\")");

static unsigned int verbose_hits = 10;
module_param(verbose_hits, uint, 0644);
MODULE_PARM_DESC(verbose_hits, "how many hits to log before going quiet");

static atomic_t hits = ATOMIC_INIT(0);

static int hits_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&hits));
}

static const struct kernel_param_ops hits_ops = {
	.get = hits_get,
};
module_param_cb(hits, &hits_ops, NULL, 0444);
MODULE_PARM_DESC(hits, "hits so far (read only)");

static int example_pre(struct kprobe *p, struct pt_regs *regs)
{
	int n = atomic_inc_return(&hits);

	if (n <= verbose_hits)
		pr_info("hit %d: %pS on CPU %d by %s[%d], arg0=%#lx\n", n,
			p->addr, smp_processor_id(),
			current->comm, task_pid_nr(current),
			regs_get_kernel_argument(regs, 0));
	return 0;		/* run the probed instruction as usual */
}

static void example_post(struct kprobe *p, struct pt_regs *regs,
			 unsigned long flags)
{
	if (atomic_read(&hits) <= verbose_hits)
		pr_info("  after the instruction: ip=%pS\n",
			(void *)instruction_pointer(regs));
}

static int example_fault(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	pr_warn("trap %d while handling the probe at %pS\n", trapnr, p->addr);
	return 0;		/* let the kernel deal with it */
}

static struct kprobe example_kp = {
	.pre_handler = example_pre,
	.post_handler = example_post,
	.fault_handler = example_fault,
};

static int __init example_init(void)
{
	int ret;

	example_kp.symbol_name = symbol;
	ret = register_kprobe(&example_kp);
	if (ret) {
		pr_err("cannot probe %s: %d\n", symbol, ret);
		return ret;
	}
	pr_info("probing %s at %px\n", symbol, example_kp.addr);
	return 0;
}

static void __exit example_exit(void)
{
	unregister_kprobe(&example_kp);
	pr_info("%s: %d hits, %lu missed\n", symbol, atomic_read(&hits),
		example_kp.nmissed);
}

module_init(example_init);
module_exit(example_exit);
MODULE_DESCRIPTION("kprobes example: report calls of a kernel function");
MODULE_LICENSE("GPL");
