// SPDX-License-Identifier: GPL-2.0-only
/*
 * A first return probe: time a kernel function and report what it
 * returned.
 *
 *	insmod kretprobe_example.ko func=kernel_clone
 *
 * The entry handler stamps the time into the instance's data; the return
 * handler logs the return value and how long the call took.  The entry
 * handler runs in the breakpoint's NMI-like context, so the clock is the
 * NMI-safe ktime_get_mono_fast_ns().  Calls made
 * while every instance is busy are not timed; unloading prints how many.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/sched.h>

static char func[KSYM_NAME_LEN] = "kernel_clone";
module_param_string(func, func, sizeof(func), 0444);
MODULE_PARM_DESC(func, "function whose calls are timed");

static unsigned int verbose_calls = 10;
module_param(verbose_calls, uint, 0644);
MODULE_PARM_DESC(verbose_calls, "how many calls to log before going quiet");

static atomic_t calls = ATOMIC_INIT(0);

struct call_stamp {
	u64 start_ns;
};

static int timer_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_stamp *stamp = (struct call_stamp *)ri->data;

	stamp->start_ns = ktime_get_mono_fast_ns();
	return 0;		/* time this call */
}

static int timer_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_stamp *stamp = (struct call_stamp *)ri->data;
	u64 took = ktime_get_mono_fast_ns() - stamp->start_ns;
	int n = atomic_inc_return(&calls);

	if (n <= verbose_calls)
		pr_info("call %d: %s returned %ld after %llu ns (to %pS)\n", n,
			func, regs_return_value(regs), took,
			(void *)get_kretprobe_retaddr(ri));
	return 0;
}

static struct kretprobe timer_rp = {
	.entry_handler = timer_entry,
	.handler = timer_return,
	.data_size = sizeof(struct call_stamp),
};

static int __init timer_init(void)
{
	int ret;

	timer_rp.kp.symbol_name = func;
	ret = register_kretprobe(&timer_rp);
	if (ret) {
		pr_err("cannot hook the returns of %s: %d\n", func, ret);
		return ret;
	}
	pr_info("timing %s\n", func);
	return 0;
}

static void __exit timer_exit(void)
{
	unregister_kretprobe(&timer_rp);
	pr_info("%s: %d calls timed, %d not hooked\n", func,
		atomic_read(&calls), timer_rp.nmissed);
}

module_init(timer_init);
module_exit(timer_exit);
MODULE_DESCRIPTION("kretprobe example: time a kernel function");
MODULE_LICENSE("GPL");
