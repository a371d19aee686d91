// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: waiting for the hits in flight, for unregistration.
 *
 * When unregister_*() returns, its caller may free the probe at once, so
 * no CPU may still run one of its handlers or read it.  A grace period
 * would do (every hit is an RCU-sched reader: it runs with interrupts or
 * preemption off), but costs milliseconds per call.  Instead each CPU says
 * when it is inside a hit (kprobe_running() set, through
 * kprobe_running_begin(); hit.c) and counts the hits it ended
 * (kprobe_hits_ended), and kprobe_hits_quiesce() waits for the CPUs that
 * are inside one.  For that the CPUs must be seen:
 *
 *   - a CPU that is coming up or going down is in no mask that can be
 *     trusted; the CPU hotplug lock, read-held for the whole wait, keeps
 *     every CPU either online or dead meanwhile;
 *   - a CPU that has just marked itself may not show it yet (a store
 *     waits in its store buffer while it reads the probes): one
 *     interrupt round trip orders that.  A CPU that RCU sees in an
 *     extended quiescent state (idle, or a nohz_full CPU in user space) is
 *     in no hit and takes a full barrier on its way out, before any hit:
 *     it is left alone, which is what keeps unregistration from waking
 *     idle CPUs and disturbing isolated ones;
 *   - a CPU whose hit never ends (its task oopsed in a handler and was
 *     killed, or it is stuck) must not hold unregistration up forever:
 *     after a short wait a grace period decides instead, which no dead
 *     task holds up.  An oops in task context also clears its CPU's hit
 *     state (kprobe_oops_notify()), as the hit will never end otherwise.
 */
#include <linux/kprobes.h>
#include <linux/context_tracking_state.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <kunit/visibility.h>

#include "internal.h"

/* How long a CPU may stay inside one hit before a grace period decides. */
#define KPROBE_QUIESCE_PATIENCE_MS	20

/* CPUs sent the round trip of step 2 below, ever (for the KUnit suites). */
static atomic_long_t kprobe_quiesce_kicks;

/**
 * kprobe_quiesce_kick_count - CPUs interrupted by unregistration so far
 *
 * Return: how many interrupt round trips kprobe_hits_quiesce() has sent,
 * one per CPU per call.
 */
unsigned long kprobe_quiesce_kick_count(void)
{
	return atomic_long_read(&kprobe_quiesce_kicks);
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_quiesce_kick_count);

/*
 * Is @cpu in an extended quiescent state, as RCU sees it?  Without RCU's
 * idle tracking (a kernel without SMP) nobody says: assume not.
 */
#ifdef CONFIG_CONTEXT_TRACKING_IDLE
static bool cpu_in_eqs(int cpu)
{
	return !(ct_rcu_watching_cpu_acquire(cpu) & CT_RCU_WATCHING);
}
#else
static bool cpu_in_eqs(int cpu)
{
	return false;
}
#endif

/*
 * Can @cpu be inside a hit, or about to be, without showing it?  Not if
 * RCU sees it in an extended quiescent state: it leaves one with a fully
 * ordered update of its context-tracking state, before any hit it may
 * then take, and the caller's smp_mb() orders the probes' removal before
 * this read.  This is RCU's own argument for the same state.
 */
static bool cpu_may_hide_hit(int cpu, void *unused)
{
	/* Ours is in process context, in no hit. */
	if (cpu == smp_processor_id() || cpu_in_eqs(cpu))
		return false;
	atomic_long_inc(&kprobe_quiesce_kicks);
	return true;
}

static void quiesce_ipi(void *unused)
{
}

/*
 * Is @cpu out of the hit it was in when its count of ended hits was
 * @seen?
 */
static bool cpu_left_hit(int cpu, unsigned long seen)
{
	/* Acquire: pairs with the releases of kprobe_running_end(). */
	if (!smp_load_acquire(per_cpu_ptr(&current_kprobe, cpu)))
		return true;
	/* Acquire: the same. */
	return smp_load_acquire(per_cpu_ptr(&kprobe_hits_ended, cpu)) != seen;
}

/*
 * Step 3 of kprobe_hits_quiesce(): wait for @cpu's hit to end, until
 * @deadline.  Return: false when the deadline passed first.
 */
static bool cpu_wait_hit_cpuslocked(int cpu, unsigned long deadline)
{
	/* Acquire: pairs with the releases of kprobe_running_end(). */
	unsigned long seen = smp_load_acquire(per_cpu_ptr(&kprobe_hits_ended,
							  cpu));

	while (!cpu_left_hit(cpu, seen)) {
		if (time_after(jiffies, deadline))
			return false;
		cpu_relax();
		cond_resched();
	}
	return true;
}

/**
 * kprobe_hits_quiesce - wait for the hits in flight on every CPU
 *
 * For unregistration: the caller has taken probes off their sites (and
 * return probes off their pools).  When this returns, no CPU runs a
 * handler of those probes or reads them any more, and their owner may
 * free them.  The steps (see the top of this file for why):
 *
 *   1. hold CPU hotplug off: every CPU is online or dead until the end;
 *   2. one interrupt round trip to each other online CPU that may be in a
 *      hit: not to those in an extended quiescent state.  A hit that runs
 *      with interrupts off (a breakpoint hit) holds the round trip up
 *      until it is over; one that runs with interrupts on (through an
 *      optimized jump or ftrace, a return handler) may take it in the
 *      middle, and its kprobe_running() is then visible here.  A hit that
 *      starts later finds the probes gone;
 *   3. for each online CPU whose kprobe_running() is set now, wait until
 *      it is NULL or its count of ended hits moves: the hit seen, or a
 *      later one, is then over;
 *   4. should a CPU stay in its hit for longer than
 *      KPROBE_QUIESCE_PATIENCE_MS, wait for a grace period instead: the
 *      hits that are still in flight end before it does, or never were
 *      (a task killed in a handler left its CPU's state behind).
 *
 * Context: process context, no kprobes lock, no CPU hotplug lock held;
 * might sleep.
 */
void kprobe_hits_quiesce(void)
{
	unsigned long deadline;
	int cpu;

	might_sleep();
	lockdep_assert_not_held(&kprobe_mutex);

	/* 1. */
	cpus_read_lock();

	/* 2. Full barrier: the removal before the reads of the CPUs' state. */
	smp_mb();
	on_each_cpu_cond_mask(cpu_may_hide_hit, quiesce_ipi, NULL, true,
			      cpu_online_mask);

	/* 3. */
	deadline = jiffies + msecs_to_jiffies(KPROBE_QUIESCE_PATIENCE_MS);
	for_each_online_cpu(cpu) {
		if (!cpu_wait_hit_cpuslocked(cpu, deadline))
			goto grace_period;
	}
	cpus_read_unlock();
	return;

grace_period:
	/* 4. */
	cpus_read_unlock();
	synchronize_rcu();
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_hits_quiesce);

/**
 * kprobe_cpu_forget_hits - this CPU's hits will never end: forget them
 *
 * For a task killed inside a handler (an oops in an optimized probe's pre
 * handler, say): the hit's end is never reached, and without this every
 * later hit on the CPU would count as nested and missed.  Ends the hits as
 * kprobe_running_end() would, so a waiting kprobe_hits_quiesce() goes on.
 *
 * Context: the dying task, preemption and interrupts off.
 */
void kprobe_cpu_forget_hits(void)
{
	get_kprobe_ctlblk()->depth = 0;
	kprobe_running_end();
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_cpu_forget_hits);
NOKPROBE_SYMBOL(kprobe_cpu_forget_hits);

/**
 * kprobe_oops_notify - the die notifier
 * @nb: its notifier_block
 * @val: what died (DIE_OOPS for an oops)
 * @data: the arch's die_args
 *
 * An oops in task context kills the task, and whatever
 * hit this CPU had in flight was that task's (hits run with preemption
 * off, and one in an interrupt is over before its task runs again).  An
 * oops in interrupt context panics; nothing to do then.  Runs last of the
 * die notifiers, so only when nobody took the oops over.
 *
 * Return: NOTIFY_DONE, always: the oops goes on as it would.
 */
int kprobe_oops_notify(struct notifier_block *nb, unsigned long val,
		       void *data)
{
	if (val == DIE_OOPS && !in_interrupt() && kprobe_running())
		kprobe_cpu_forget_hits();
	return NOTIFY_DONE;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_oops_notify);
NOKPROBE_SYMBOL(kprobe_oops_notify);

static struct notifier_block kprobe_oops_nb = {
	.notifier_call	= kprobe_oops_notify,
	.priority	= INT_MIN,
};

static int __init kprobe_quiesce_init(void)
{
	return register_die_notifier(&kprobe_oops_nb);
}
early_initcall(kprobe_quiesce_init);
