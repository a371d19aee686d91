// SPDX-License-Identifier: GPL-2.0-only
/*
 * A first jprobe: watch the arguments of kernel_clone().
 *
 *	insmod jprobe_example.ko
 *
 * A jprobe calls a "mirror" of the probed function, declared with the
 * same prototype, every time the function is entered.  The mirror reads
 * the arguments like the function itself would, and must end with
 * jprobe_return() rather than a plain return: the probed function then
 * runs, with its original arguments.  The mirror runs with preemption
 * disabled and must not sleep.
 *
 * Jprobes are the classic kprobes interface; new code usually wants a
 * kprobe (pt_regs) or a kretprobe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/sched/task.h>

static unsigned int verbose_calls = 10;
module_param(verbose_calls, uint, 0644);
MODULE_PARM_DESC(verbose_calls, "how many calls to log before going quiet");

static atomic_t calls = ATOMIC_INIT(0);

/* Same prototype as kernel_clone() in kernel/fork.c. */
static pid_t clone_mirror(struct kernel_clone_args *args)
{
	int n = atomic_inc_return(&calls);

	if (n <= verbose_calls)
		pr_info("call %d: %s[%d] clones, flags %#llx, exit signal %d\n",
			n, current->comm, task_pid_nr(current), args->flags,
			args->exit_signal);
	jprobe_return();
	return 0;		/* never reached */
}

static struct jprobe clone_jp = {
	.kp.symbol_name = "kernel_clone",
	.entry = clone_mirror,
};

static int __init clone_watch_init(void)
{
	int ret = register_jprobe(&clone_jp);

	if (ret) {
		pr_err("cannot place a jprobe on kernel_clone: %d\n", ret);
		return ret;
	}
	pr_info("watching kernel_clone at %pS\n", clone_jp.kp.addr);
	return 0;
}

static void __exit clone_watch_exit(void)
{
	unregister_jprobe(&clone_jp);
	pr_info("%d calls seen, %lu missed\n", atomic_read(&calls),
		clone_jp.kp.nmissed);
}

module_init(clone_watch_init);
module_exit(clone_watch_exit);
MODULE_DESCRIPTION("jprobe sample: the arguments of kernel_clone()");
MODULE_LICENSE("GPL");
