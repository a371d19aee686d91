// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A probe handler that oopses, and the unregistrations that follow.
 *
 * Loaded by the guest's last script (tests.d/zz-oops-unregister.sh), never
 * by the KUnit run: it oopses on purpose, which turns lockdep off for the
 * rest of the boot.  At load it
 *
 *   1. registers a probe on one of its own functions, whose pre handler
 *      writes through a NULL pointer the first time it runs;
 *   2. calls that function from a kernel thread: the handler runs in the
 *      thread's context (an ftrace call site on x86_64, a BRK hit on
 *      arm64), the oops kills the thread and its hit never ends;
 *   3. registers and unregisters a probe on another of its functions
 *      KOT_ROUNDS times, and says how many unregistrations returned and
 *      in how long.  Each must return: the dead hit may neither hold them
 *      up nor make later hits on its CPU count as missed.
 *
 * With panic_on_oops set, the kernel panics at step 2 instead.
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/atomic.h>

#define KOT_ROUNDS	100

static atomic_t kot_fired;
static atomic_t kot_other_hits;

static noinline int kot_victim(int x)
{
	barrier();
	return x + 1;
}

static noinline int kot_other(int x)
{
	barrier();
	return x + 2;
}

static int (*kot_call_victim)(int x) = kot_victim;
static int (*kot_call_other)(int x) = kot_other;

static int kot_oops_pre(struct kprobe *p, struct pt_regs *regs)
{
	int *null = NULL;

	OPTIMIZER_HIDE_VAR(null);
	if (atomic_inc_return(&kot_fired) == 1)
		WRITE_ONCE(*null, 1);
	return 0;
}

static int kot_other_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&kot_other_hits);
	return 0;
}

static struct kprobe kot_oops_probe = {
	.symbol_name	= "kot_victim",
	.pre_handler	= kot_oops_pre,
};

static int kot_thread(void *unused)
{
	return kot_call_victim(1);
}

/* Step 3: how many of KOT_ROUNDS unregistrations returned. */
static int kot_rounds(void)
{
	struct kprobe kp = {
		.symbol_name	= "kot_other",
		.pre_handler	= kot_other_pre,
	};
	int i;

	for (i = 0; i < KOT_ROUNDS; i++) {
		kp.addr = NULL;
		kp.flags = 0;
		if (register_kprobe(&kp))
			break;
		kot_call_other(i);
		unregister_kprobe(&kp);
	}
	return i;
}

static int __init kot_init(void)
{
	struct task_struct *t;
	ktime_t start;
	int i, done;
	int ret;

	/* 1. */
	ret = register_kprobe(&kot_oops_probe);
	if (ret)
		return ret;

	/* 2. */
	t = kthread_run(kot_thread, NULL, "kprobes_oops");
	if (IS_ERR(t)) {
		unregister_kprobe(&kot_oops_probe);
		return PTR_ERR(t);
	}
	for (i = 0; i < 500 && !atomic_read(&kot_fired); i++)
		msleep(20);
	/* Let the oops run its course and the thread die. */
	msleep(200);

	/* 3. */
	start = ktime_get();
	done = kot_rounds();
	pr_info("kprobes_oops_test: handler fired %d, %d of %d unregistrations returned in %lld ms, other probe hit %d times\n",
		atomic_read(&kot_fired), done, KOT_ROUNDS,
		ktime_ms_delta(ktime_get(), start),
		atomic_read(&kot_other_hits));
	return 0;
}

static void __exit kot_exit(void)
{
	unregister_kprobe(&kot_oops_probe);
}

module_init(kot_init);
module_exit(kot_exit);
MODULE_DESCRIPTION("kprobes: unregistration after an oops in a handler");
MODULE_LICENSE("GPL");
