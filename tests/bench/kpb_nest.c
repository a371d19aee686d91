// SPDX-License-Identifier: GPL-2.0
/*
 * The nest group of the benchmark: hits from a hard interrupt while a
 * handler of another probe runs on the same CPU.
 *
 * A kthread bound to CPU 0 calls a function in a loop through probe T,
 * whose pre handler spins KPB_NEST_SPIN_US; a hard-interrupt hrtimer
 * pinned to CPU 0 fires every KPB_NEST_PERIOD_US and calls another
 * function, where probe I counts its runs.  Most timer interrupts come
 * in while T's handler spins.  For each variant, over nest_ms:
 *
 *   nest_<v>_fired   timer callbacks, each one call of I's function
 *   nest_<v>_seen    runs of I's pre handler
 *   nest_<v>_missed  I's nmissed
 *
 * Variants (where T sits and which handlers the probes have):
 *   opt   T pre only on kpb_opt_fn's optimizable site; I pre only
 *   post  T and I with pre and post handlers, T on the same site
 *   trap  T pre only on kpb_hit_fn's second instruction
 *
 * Only the public kprobes API is used.
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>

#include "kpb.h"

#define KPB_NEST_SPIN_US	30
#define KPB_NEST_PERIOD_US	250

static unsigned int nest_ms = 4000;
module_param(nest_ms, uint, 0444);
MODULE_PARM_DESC(nest_ms, "milliseconds per variant of the nest group");

static struct kpb_nest {
	struct kprobe t, i;
	struct hrtimer timer;
	struct completion started;
	atomic_t fired, seen, t_runs;
} kpb_nest;

/* I's function, called from the timer; noinline: the probe is on it. */
static noinline __noclone int kpb_nest_irq_fn(int x)
{
	barrier();
	return x + 1;
}

static int kpb_nest_t_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&kpb_nest.t_runs);
	udelay(KPB_NEST_SPIN_US);
	return 0;
}

static int kpb_nest_i_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&kpb_nest.seen);
	return 0;
}

static void kpb_nest_post(struct kprobe *p, struct pt_regs *regs,
			  unsigned long flags)
{
}

static enum hrtimer_restart kpb_nest_tick(struct hrtimer *t)
{
	atomic_inc(&kpb_nest.fired);
	kpb_nest_irq_fn(atomic_read(&kpb_nest.fired));
	hrtimer_forward_now(t, ns_to_ktime(KPB_NEST_PERIOD_US * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* CPU 0's loop; the timer is started here, so that it is pinned here. */
static int kpb_nest_loop(void *data)
{
	unsigned long (*fn)(unsigned long x) = data;
	unsigned long i = 0;

	hrtimer_start(&kpb_nest.timer, ns_to_ktime(KPB_NEST_PERIOD_US * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	complete(&kpb_nest.started);
	while (!kthread_should_stop()) {
		fn(i++);
		cond_resched();
	}
	return 0;
}

static void kpb_nest_variant(const char *name, unsigned long t_site,
			     unsigned long (*t_fn)(unsigned long x), bool post)
{
	struct kpb_nest *n = &kpb_nest;
	struct task_struct *task;
	bool optimized = false;
	int ret;

	memset(n, 0, sizeof(*n));
	init_completion(&n->started);
	hrtimer_init(&n->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	n->timer.function = kpb_nest_tick;
	n->t.addr = (kprobe_opcode_t *)t_site;
	n->t.pre_handler = kpb_nest_t_pre;
	n->i.addr = (kprobe_opcode_t *)kpb_nest_irq_fn;
	n->i.pre_handler = kpb_nest_i_pre;
	if (post) {
		n->t.post_handler = kpb_nest_post;
		n->i.post_handler = kpb_nest_post;
	}
	ret = register_kprobe(&n->t);
	if (ret)
		goto out;
	ret = register_kprobe(&n->i);
	if (ret) {
		unregister_kprobe(&n->t);
		goto out;
	}
	/* Let the optimizer act, as in the o mode. */
	msleep(200);
	optimized = n->t.flags & KPROBE_FLAG_OPTIMIZED;

	task = kthread_create_on_cpu(kpb_nest_loop, t_fn, 0, "kpb_nest/%u");
	if (IS_ERR(task)) {
		ret = PTR_ERR(task);
	} else {
		wake_up_process(task);
		wait_for_completion(&n->started);
		msleep(nest_ms);
		kthread_stop(task);
		hrtimer_cancel(&n->timer);
	}
	unregister_kprobe(&n->i);
	unregister_kprobe(&n->t);
out:
	if (ret) {
		pr_info("BENCH nest_%s_fired error %d\n", name, ret);
		return;
	}
	pr_info("BENCH nest_%s_fired %d\n", name, atomic_read(&n->fired));
	pr_info("BENCH nest_%s_seen %d\n", name, atomic_read(&n->seen));
	pr_info("BENCH nest_%s_missed %lu\n", name, n->i.nmissed);
	pr_info("BENCH-INFO nest_%s t_runs=%d t_optimized=%s\n", name,
		atomic_read(&n->t_runs), optimized ? "yes" : "no");
}

/**
 * kpb_nest_run - the nest group
 */
void kpb_nest_run(void)
{
	if (!cpu_online(0)) {
		pr_info("BENCH-INFO nest: CPU 0 offline, skipped\n");
		return;
	}
	kpb_nest_variant("opt", kpb_opt_site, kpb_opt_fn, false);
	kpb_nest_variant("post", kpb_opt_site, kpb_opt_fn, true);
	kpb_nest_variant("trap", kpb_hit_site, kpb_hit_fn, false);
}
