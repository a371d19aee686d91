// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: jump optimization.
 *
 * A breakpoint costs a trap per hit.  It can be replaced by a jump to a
 * "detour" buffer, built by the architecture, that saves the registers,
 * calls kprobe_site_hit_optimized(), restores them, executes copies of
 * the instructions the jump overwrote (its "region") and jumps back
 * after them.  When post handlers are to run, the detour takes a second
 * way: it saves the registers again after the copy of the first
 * instruction and hands them to the arch, which runs the post handlers
 * as after an out-of-line copy (%KPROBE_STEP_DETOUR_BACK), and then runs
 * the copy of the rest.  The stock kernel never optimizes such probes,
 * nor does an architecture whose detours lack that second way
 * (arch_kprobe_opt_post_way()): a site with a post handler keeps its
 * breakpoint there.
 *
 * A site qualifies when the arch accepts its region (arch_prepare_kprobe_
 * opt() checks the code around it), no other probe sits in the region,
 * it is armed, none of its enabled probes is a jprobe, and the switch
 * /proc/sys/debug/kprobes-optimization is on.  Whenever a batch of text
 * changes is committed, the sites it touched are looked at again.
 *
 * Optimizing a site takes four steps, which the code mirrors:
 *
 *   0. Want (commit): a site that qualifies goes on the wanted list.
 *      Its detour is built by the optimizer, a moment later: a probe
 *      registered next to it would block it again, a batch that is
 *      undone would throw it away, and a tool's registration should
 *      not wait for thousands of detours.
 *   1. Queue (optimizer work, kprobe mutex and text lock): build the
 *      detour of each wanted site that still qualifies and set its state
 *      to QUEUED.  From now on a CPU that traps on the breakpoint
 *      continues through the detour's copy of the region and so never
 *      enters the original region after its first instruction.
 *   2. Wait (optimizer work, no lock): a CPU or task may still be inside
 *      the region, having trapped earlier, or been preempted there.  One
 *      RCU grace period covers interrupt and NMI context, one RCU-tasks
 *      grace period covers tasks preempted anywhere, PREEMPT included.
 *   3. Patch (optimizer work, text lock): write the jump behind the
 *      breakpoint, synchronize, replace the breakpoint by the jump's
 *      opcode, synchronize.  Every queued site shares the two waits and
 *      the two synchronizations.
 *
 * Unoptimizing goes the other way at the next commit, synchronously:
 * breakpoint in front of the jump, synchronize, original bytes back,
 * synchronize.  The detour may still hold a preempted task, so it is
 * freed by the optimizer after its next wait
 * (kprobe_detour_free_deferred_locked()).
 * Registering a probe inside an optimized region unoptimizes the site
 * first (kprobe_opt_clear_region_text_locked()).
 *
 * A detour calls in with its site.  A task preempted in a detour before
 * the call may resume after the site went, so a site that has had a
 * detour is freed by the optimizer too, after its next wait
 * (kprobe_opt_free_site_locked()), and finds itself unoptimized.
 */
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/sysctl.h>
#include <linux/workqueue.h>
#include <linux/rcupdate.h>
#include <linux/rcupdate_wait.h>
#include <kunit/visibility.h>

#include "internal.h"

/* Let a burst of registrations queue up before the optimizer waits. */
#define OPTIMIZE_DELAY		5

static bool opt_enabled = true;
/* NONE sites, by opt_link, that qualified at their last commit. */
static LIST_HEAD(opt_wanted);
/* QUEUED sites, by opt_link: not yet waited for, and being waited for. */
static LIST_HEAD(opt_queue);
static LIST_HEAD(opt_waiting);
/*
 * NONE sites, by opt_link, that the arch turned down for now: another
 * probe in their region (-EAGAIN), or no memory.  Looked at again when a
 * site goes away.
 */
static LIST_HEAD(opt_blocked);
/* Sites that had a detour and went, by opt_link: to free after a wait. */
static LIST_HEAD(opt_dead);

static void kprobe_optimizer(struct work_struct *work);
static DECLARE_DELAYED_WORK(opt_work, kprobe_optimizer);

static bool site_wants_jump_locked(struct kprobe_site *site)
{
	struct kprobe *p;

	lockdep_assert_held(&kprobe_mutex);
	if (!opt_enabled || site->opt_refused || !site->kind->optimizable ||
	    !kprobe_site_wants_armed_locked(site))
		return false;
	if (site->nr_post && !arch_kprobe_opt_post_way())
		return false;
	list_for_each_entry(p, &site->probes, list) {
		if (kprobe_is_jprobe(p))
			return false;
	}
	return true;
}

static void site_tag_probes_locked(struct kprobe_site *site, bool optimized)
{
	struct kprobe *p;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(p, &site->probes, list) {
		if (optimized)
			p->flags |= KPROBE_FLAG_OPTIMIZED;
		else
			p->flags &= ~KPROBE_FLAG_OPTIMIZED;
	}
}

/**
 * kprobe_opt_region_taken_locked - is another probe inside a would-be region?
 * @addr: the site to optimize
 * @len: the length of its region
 *
 * For arch_prepare_kprobe_opt(): the breakpoint of such a probe would
 * never be reached.  A parked site counts too: its text is still in
 * place, and taking it back later must not write into a jump.  Other
 * sites left without probes are on their way out and do not count.
 * Kprobe mutex held.
 *
 * Return: true if there is one.
 */
bool kprobe_opt_region_taken_locked(unsigned long addr, int len)
{
	struct kprobe_site *q;
	int d;

	lockdep_assert_held(&kprobe_mutex);
	for (d = 1; d < len; d++) {
		q = get_kprobe_site((kprobe_opcode_t *)(addr + d));
		if (q && (!list_empty(&q->probes) || q->parked))
			return true;
	}
	return false;
}

/* Optimizing, step 0: the optimizer will build the site's detour. */
static void site_want_jump_locked(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	list_move_tail(&site->opt_link, &opt_wanted);	/* off opt_blocked */
	schedule_delayed_work(&opt_work, OPTIMIZE_DELAY);
}

/* Optimizing, step 1: build the detour and queue the site. */
static void site_queue_text_locked(struct kprobe_site *site)
{
	int ret;

	lockdep_assert_held(&text_mutex);
	ret = arch_prepare_kprobe_opt(site);
	list_del_init(&site->opt_link);		/* off opt_wanted */
	if (ret) {
		/* Another probe in the way may go; memory may come back. */
		site->opt_refused = ret != -EAGAIN && ret != -ENOMEM;
		if (!site->opt_refused)
			list_add_tail(&site->opt_link, &opt_blocked);
		return;
	}
	site->opt_used = true;
	/* The detour is complete before any CPU is sent into it. */
	smp_store_release(&site->opt, KPROBE_OPT_QUEUED);
	/* Tagged from now on, as the stock kernel tags a queued probe. */
	site_tag_probes_locked(site, true);
	list_add_tail(&site->opt_link, &opt_queue);
	schedule_delayed_work(&opt_work, OPTIMIZE_DELAY);
}

/*
 * Forget @site's optimization; its jump, if any, is out of the text.
 * The detour is freed after the optimizer's next wait.
 */
static void site_retire_locked(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	list_del_init(&site->opt_link);
	site_tag_probes_locked(site, false);
	WRITE_ONCE(site->opt, KPROBE_OPT_NONE);
	arch_release_kprobe_opt(site);
	schedule_delayed_work(&opt_work, OPTIMIZE_DELAY);
}

/* Take the jump of one optimized site out, synchronizing on the way. */
static void site_unoptimize_now_text_locked(struct kprobe_site *site)
{
	lockdep_assert_held(&text_mutex);
	arch_unoptimize_kprobe_head(site);
	arch_kprobe_text_sync();
	arch_unoptimize_kprobe_tail(site);
	arch_kprobe_text_sync();
}

/*
 * Blocked sites whose region may have held @addr's site get another
 * look.  Sites that go have left opt_blocked already (step 1 of
 * kprobe_opt_commit_text_locked()), so a batch that removes a crowd of
 * probes that blocked each other scans only the blocked sites that stay.
 */
static void mark_blocked_dirty_locked(unsigned long addr)
{
	struct kprobe_site *q;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(q, &opt_blocked, opt_link) {
		if (addr > (unsigned long)q->addr &&
		    addr < (unsigned long)q->addr + KPROBE_OPT_MAX_REGION)
			kprobe_site_mark_dirty_locked(q);
	}
}

/**
 * kprobe_opt_clear_region_text_locked - a new site is about to go at @addr
 * @addr: the new site's address
 *
 * A site optimized (or about to be) over @addr is unoptimized now, before
 * @addr is decoded or armed.  It is looked at again at the next commit,
 * when the arch sees the new site in its way.
 */
void kprobe_opt_clear_region_text_locked(unsigned long addr)
{
	struct kprobe_site *q;
	int d;

	lockdep_assert_held(&text_mutex);
	for (d = 1; d < KPROBE_OPT_MAX_REGION; d++) {
		q = get_kprobe_site((kprobe_opcode_t *)(addr - d));
		if (!q || q->opt == KPROBE_OPT_NONE ||
		    !arch_kprobe_opt_covers(q, addr))
			continue;
		if (q->opt == KPROBE_OPT_DONE)
			site_unoptimize_now_text_locked(q);
		site_retire_locked(q);
		kprobe_site_mark_dirty_locked(q);
	}
}

/**
 * kprobe_opt_kill_locked - @site's text is being freed
 * @site: the site
 *
 * Drops the optimization without touching the text.
 */
void kprobe_opt_kill_locked(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	if (site->opt != KPROBE_OPT_NONE)
		site_retire_locked(site);
	list_del_init(&site->opt_link);		/* off opt_blocked, opt_wanted */
}

/**
 * kprobe_opt_commit_text_locked - act on the sites a batch touched
 * @dirty: the sites, linked by &struct kprobe_site.dirty
 *
 * Called by the core at the end of every batch of text changes, after it
 * synchronized them.  The steps:
 *
 *   1. sites that go stop blocking their neighbours;
 *   2. jumps that must go get a breakpoint in front,
 *   3. then their original bytes back behind it, all of them sharing
 *      each synchronization;
 *   4. those sites are plain breakpoints now, disarmed if they should be;
 *   5. sites that qualify now are wanted (step 0 of optimizing, above),
 *      and sites that no longer do leave the optimizer's lists.
 */
void kprobe_opt_commit_text_locked(struct list_head *dirty)
{
	struct kprobe_site *site, *tmp;
	LIST_HEAD(undo);		/* DONE sites losing their jump */
	bool disarm = false;

	lockdep_assert_held(&kprobe_mutex);
	lockdep_assert_held(&text_mutex);

	/*
	 * 1. A site that goes may have kept a neighbour from optimizing.
	 * Sites that go leave opt_blocked or opt_wanted first; opt_link is
	 * theirs while NONE.
	 */
	list_for_each_entry(site, dirty, dirty) {
		if (list_empty(&site->probes) && site->opt == KPROBE_OPT_NONE)
			list_del_init(&site->opt_link);
	}
	list_for_each_entry(site, dirty, dirty) {
		if (list_empty(&site->probes) && !list_empty(&opt_blocked))
			mark_blocked_dirty_locked((unsigned long)site->addr);
	}

	/*
	 * 2. Jumps that must go: a breakpoint in front of each first.  A
	 * DONE site is on no optimizer list, so opt_link is free for @undo.
	 */
	list_for_each_entry(site, dirty, dirty) {
		if (site->opt != KPROBE_OPT_DONE ||
		    site_wants_jump_locked(site))
			continue;
		arch_unoptimize_kprobe_head(site);
		list_add_tail(&site->opt_link, &undo);
	}

	if (!list_empty(&undo)) {
		/* 3. Then the original bytes behind the breakpoints. */
		arch_kprobe_text_sync();
		list_for_each_entry(site, &undo, opt_link)
			arch_unoptimize_kprobe_tail(site);
		arch_kprobe_text_sync();

		/* 4. Plain breakpoints now; some should not even be armed. */
		list_for_each_entry_safe(site, tmp, &undo, opt_link) {
			site_retire_locked(site);
			if (!kprobe_site_wants_armed_locked(site)) {
				arch_disarm_kprobe_site(site);
				site->armed = false;
				disarm = true;
			}
		}
		if (disarm)
			arch_kprobe_text_sync();
	}

	/* 5. Queue the sites that qualify now, drop those that do not. */
	list_for_each_entry(site, dirty, dirty) {
		bool want = site_wants_jump_locked(site);

		switch (site->opt) {
		case KPROBE_OPT_NONE:
			if (want)
				site_want_jump_locked(site);
			else	/* off opt_blocked or opt_wanted */
				list_del_init(&site->opt_link);
			break;
		case KPROBE_OPT_QUEUED:
			if (!want) {
				site_retire_locked(site);
				break;
			}
			fallthrough;
		case KPROBE_OPT_DONE:
			site_tag_probes_locked(site, true);	/* newcomers */
			break;
		}
	}
}

/**
 * kprobe_opt_free_site_locked - free a site that has had a detour
 * @site: the site, unhashed and without probes, one grace period after
 *	it went
 *
 * A task preempted in its detour before the call still holds the site's
 * address: the site is freed after the optimizer's next wait, which
 * covers preempted tasks too.
 */
void kprobe_opt_free_site_locked(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	list_move_tail(&site->opt_link, &opt_dead);
	schedule_delayed_work(&opt_work, OPTIMIZE_DELAY);
}

/* Optimizing, step 1, for every wanted site that still qualifies. */
static void queue_wanted_locked(void)
{
	struct kprobe_site *site, *tmp;

	lockdep_assert_held(&kprobe_mutex);
	if (list_empty(&opt_wanted))
		return;
	kprobe_text_lock();
	list_for_each_entry_safe(site, tmp, &opt_wanted, opt_link) {
		if (site_wants_jump_locked(site))
			site_queue_text_locked(site);
		else
			list_del_init(&site->opt_link);
	}
	kprobe_text_unlock();
}

/*
 * Optimizing, steps 1 to 3, for every wanted site; also frees retired
 * detours and dead sites.
 */
static void kprobe_optimizer(struct work_struct *work)
{
	struct kprobe_site *site, *tmp;
	LIST_HEAD(reap);
	bool gc, wait;

	mutex_lock(&kprobe_mutex);
	queue_wanted_locked();
	list_splice_tail_init(&opt_queue, &opt_waiting);
	list_splice_init(&opt_dead, &reap);
	gc = kprobe_slots_gc_begin_locked() || !list_empty(&reap);
	wait = !list_empty(&opt_waiting);
	mutex_unlock(&kprobe_mutex);
	if (!gc && !wait)
		return;

	/*
	 * 2. Nobody may be inside a waiting site's region or a retired
	 * detour any more: interrupt and NMI context end within an RCU
	 * grace period, preempted tasks within an RCU-tasks one.
	 */
	synchronize_rcu();
	synchronize_rcu_tasks();

	list_for_each_entry_safe(site, tmp, &reap, opt_link)
		kfree(site);
	mutex_lock(&kprobe_mutex);
	kprobe_slots_gc_end_locked();
	if (list_empty(&opt_waiting))
		goto out;

	/* 3. The jumps: tails first, then the opcodes over the breakpoints. */
	kprobe_text_lock();
	list_for_each_entry(site, &opt_waiting, opt_link)
		arch_optimize_kprobe_tail(site);
	arch_kprobe_text_sync();
	list_for_each_entry_safe(site, tmp, &opt_waiting, opt_link) {
		arch_optimize_kprobe_head(site);
		WRITE_ONCE(site->opt, KPROBE_OPT_DONE);
		list_del_init(&site->opt_link);
		site_tag_probes_locked(site, true);
	}
	arch_kprobe_text_sync();
	kprobe_text_unlock();
out:
	mutex_unlock(&kprobe_mutex);
}

/**
 * wait_for_kprobe_optimizer - let queued optimizations finish
 *
 * Parked sites are unparked first: they may keep a neighbour from being
 * optimized.  Returns once no site waits to be optimized and no
 * optimizer pass is pending or running.  May sleep for a few grace
 * periods.
 */
void wait_for_kprobe_optimizer(void)
{
	bool busy;

	lockdep_assert_not_held(&kprobe_mutex);
	kprobe_unpark_now();

	for (;;) {
		mutex_lock(&kprobe_mutex);
		busy = !list_empty(&opt_wanted) || !list_empty(&opt_queue) ||
		       !list_empty(&opt_waiting) ||
		       delayed_work_pending(&opt_work);
		mutex_unlock(&kprobe_mutex);
		if (!busy)
			return;
		flush_delayed_work(&opt_work);
	}
}
EXPORT_SYMBOL_IF_KUNIT(wait_for_kprobe_optimizer);

/**
 * kprobes_set_optimization - the debug.kprobes-optimization switch
 * @on: false takes every jump out before returning; true queues every
 *	site that qualifies
 */
void kprobes_set_optimization(bool on)
{
	mutex_lock(&kprobe_mutex);
	if (opt_enabled != on) {
		opt_enabled = on;
		kprobes_update_all_locked();
	}
	mutex_unlock(&kprobe_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(kprobes_set_optimization);

/**
 * kprobes_optimization_enabled - read the switch
 *
 * Return: true when sites are optimized.
 */
bool kprobes_optimization_enabled(void)
{
	return READ_ONCE(opt_enabled);
}
EXPORT_SYMBOL_IF_KUNIT(kprobes_optimization_enabled);

static int proc_kprobes_optimization(const struct ctl_table *table, int write,
				     void *buffer, size_t *lenp, loff_t *ppos)
{
	int val = kprobes_optimization_enabled();
	struct ctl_table tmp = *table;
	int ret;

	tmp.data = &val;
	ret = proc_dointvec_minmax(&tmp, write, buffer, lenp, ppos);
	if (!ret && write)
		kprobes_set_optimization(val);
	return ret;
}

static struct ctl_table kprobe_opt_sysctls[] = {
	{
		.procname	= "kprobes-optimization",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_kprobes_optimization,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

static int __init kprobe_opt_sysctl_init(void)
{
	register_sysctl_init("debug", kprobe_opt_sysctls);
	return 0;
}
late_initcall(kprobe_opt_sysctl_init);
