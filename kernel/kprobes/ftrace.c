// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: probes on ftrace call sites.
 *
 * With the function tracer built in, a traced function starts (after
 * any entry marker the arch skips, see arch_adjust_kprobe_addr()) with a
 * call to ftrace, MCOUNT_INSN_SIZE bytes long, which ftrace itself
 * rewrites.  A probe there is never armed with a breakpoint: its site is
 * attached to one of two ftrace_ops of ours, whose handler runs the
 * site's probes in the function's context.  The handlers see what a
 * breakpoint would have shown them (see kprobe_ftrace_handler() in hit.c),
 * as the arch defines it: arch_kprobe_ftrace_pre_ip() and
 * arch_kprobe_ftrace_next_ip().
 *
 * The two ops differ in one flag.  A site whose probes are meant to send
 * the function elsewhere, a jprobe or a probe with a post handler (which
 * is how fail_function and BPF's override_return ask for it, as on the
 * stock kernel), is attached to the IPMODIFY ops; ftrace then refuses to
 * let another IP-modifying user (a livepatch) take the same function, and
 * the registration fails with ftrace's error.  Other sites share the
 * plain ops.
 *
 * Sites are attached and detached in batches, when a batch of site
 * changes is committed (kprobe_ftrace_commit_locked()), with the text
 * lock released: ftrace patches the call sites itself, one text update
 * per ops and direction for the whole batch.  A site that moves from one
 * ops to the other is attached to the new one, then handed over, then
 * detached from the old one, so that exactly one of them runs its probes
 * at any time.  An ops is registered with ftrace only while its filter
 * holds sites: an empty filter would mean "every function".
 *
 * Locking: the kprobe mutex protects every field here and a site's fops
 * and fops_in.  The handler runs with preemption disabled, which makes it
 * an RCU reader for the site lookup, like the breakpoint path.
 */
#include <linux/kprobes.h>
#include <linux/ftrace.h>
#include <linux/slab.h>
#include <linux/bitops.h>
#include <kunit/visibility.h>

#include "internal.h"

struct kprobe_fops kprobe_fops[KPROBE_FOPS_NR] = {
	[KPROBE_FOPS_PLAIN] = {
		.ops.func = kprobe_ftrace_handler,
		.ops.flags = FTRACE_OPS_FL_SAVE_REGS,
	},
	[KPROBE_FOPS_IPMODIFY] = {
		.ops.func = kprobe_ftrace_handler,
		.ops.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
	},
};

/*
 * The call site needs nothing decoded or copied and is never written by
 * kprobes: ftrace runs its probes once the commit has attached it.
 */
const struct kprobe_site_kind kprobe_ftrace_site_kind = {
	.probe_flags	= KPROBE_FLAG_FTRACE,
};

/* Set by ftrace_kill(): ftrace is broken, never call into it again. */
static bool kprobe_ftrace_dead;

/**
 * kprobe_ftrace_kill - ftrace is shutting down after an internal error
 *
 * Called by ftrace_kill(), possibly in atomic context.  From now on
 * probes on ftrace call sites can no longer be armed, and sites are
 * detached without asking ftrace: a detached site's fops is cleared, and
 * the handler runs no probe of a site whose fops is not the ops it was
 * called for.  A site still attached runs its probes for as long as
 * ftrace calls the handler, as on a kernel whose ftrace is well.
 */
void kprobe_ftrace_kill(void)
{
	WRITE_ONCE(kprobe_ftrace_dead, true);
}

/**
 * kprobe_ftrace_dead_swap - play ftrace_kill() without killing ftrace
 * @dead: whether kprobes is to behave as after ftrace_kill()
 *
 * For the KUnit suites, which cannot take the kernel's ftrace down and
 * must leave it as they found it.  Takes the kprobe mutex.
 *
 * Return: the previous setting.
 */
bool kprobe_ftrace_dead_swap(bool dead)
{
	bool old;

	mutex_lock(&kprobe_mutex);
	old = READ_ONCE(kprobe_ftrace_dead);
	WRITE_ONCE(kprobe_ftrace_dead, dead);
	mutex_unlock(&kprobe_mutex);
	return old;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_ftrace_dead_swap);

/* Index of the ops @site should be attached to, or -1 for none. */
static int site_wanted_fops_locked(struct kprobe_site *site)
{
	struct kprobe *p;

	lockdep_assert_held(&kprobe_mutex);
	/*
	 * Not whether ftrace is dead: a site that wants an ops it cannot
	 * have any more must fail its commit with -ENODEV, not look unarmed.
	 */
	if (!kprobe_site_wants_armed_locked(site))
		return -1;
	/* A disabled probe claims nothing until it is enabled. */
	list_for_each_entry(p, &site->probes, list) {
		if (kprobe_disabled(p))
			continue;
		if (p->post_handler || kprobe_is_jprobe(p))
			return KPROBE_FOPS_IPMODIFY;
	}
	return KPROBE_FOPS_PLAIN;
}

static struct ftrace_ops *fops_of(int i)
{
	return i < 0 ? NULL : &kprobe_fops[i].ops;
}

/*
 * Attach @ips (@n sites not in its filter yet) to ops @i, registering it
 * with ftrace if they are its first.  On failure the filter is as before.
 */
static int fops_attach_locked(int i, unsigned long *ips, unsigned int n)
{
	struct kprobe_fops *kf = &kprobe_fops[i];
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	ret = ftrace_set_filter_ips(&kf->ops, ips, n, /* remove */ 0,
				    /* reset */ 0);
	if (ret)
		return ret;
	if (!kf->nr_ips) {
		ret = register_ftrace_function(&kf->ops);
		if (ret) {
			/* Unregistered: this changes no text. */
			ftrace_set_filter_ips(&kf->ops, ips, n,
					      /* remove */ 1, /* reset */ 0);
			return ret;
		}
	}
	/* The handler reads it (kprobe_fops_live()). */
	WRITE_ONCE(kf->nr_ips, kf->nr_ips + n);
	return 0;
}

/*
 * Detach @ips (@n sites in its filter) from ops @i, unregistering it
 * first when they are all it has.
 */
static void fops_detach_locked(int i, unsigned long *ips, unsigned int n)
{
	struct kprobe_fops *kf = &kprobe_fops[i];
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	WRITE_ONCE(kf->nr_ips, kf->nr_ips - n);
	if (READ_ONCE(kprobe_ftrace_dead))
		return;
	if (!kf->nr_ips)
		WARN_ON_ONCE(unregister_ftrace_function(&kf->ops));
	ret = ftrace_set_filter_ips(&kf->ops, ips, n, /* remove */ 1,
				    /* reset */ 0);
	WARN_ONCE(ret, "kprobes: cannot detach %u sites from ftrace: %d\n",
		  n, ret);
}

/*
 * Does ops @i gain @site (@attach) or lose it in this commit?  @failed:
 * ops whose attach failed in this commit; their sites stay where they
 * are.  Asked before and after the change to the filter, with the same
 * answer: the site's fields change only after both questions.
 */
static bool site_moves(struct kprobe_site *site, int i, bool attach,
		       unsigned long failed)
{
	if (!kprobe_site_on_ftrace(site))
		return false;
	if (attach)
		return site_wanted_fops_locked(site) == i &&
		       !(site->fops_in & BIT(i)) && !(failed & BIT(i));
	return (site->fops_in & BIT(i)) && site->fops != fops_of(i);
}

/* The sites of @dirty that ops @i gains or loses, into @ips; how many. */
static unsigned int collect_ips(struct list_head *dirty, int i, bool attach,
				unsigned long failed, unsigned long *ips)
{
	struct kprobe_site *site;
	unsigned int n = 0;

	list_for_each_entry(site, dirty, dirty) {
		if (site_moves(site, i, attach, failed))
			ips[n++] = (unsigned long)site->addr;
	}
	return n;
}

/*
 * Ops @i's filter gained (@attach) or lost the sites collect_ips() named:
 * record it in the sites; a gained site runs through ops @i from now on.
 */
static void publish(struct list_head *dirty, int i, bool attach,
		    unsigned long failed)
{
	struct kprobe_site *site;

	list_for_each_entry(site, dirty, dirty) {
		if (!site_moves(site, i, attach, failed))
			continue;
		if (attach) {
			site->fops_in |= BIT(i);
			WRITE_ONCE(site->fops, fops_of(i));
		} else {
			site->fops_in &= ~BIT(i);
		}
	}
}

/*
 * Stop the handler for the sites of @dirty that should not be armed, and
 * send every hit on them through the walk of their probes: a site's solo
 * stands for the ops it was elected with (see site_solo_locked()), and
 * the batch elects it again once the sites are where they go.
 */
static void silence_unwanted(struct list_head *dirty)
{
	struct kprobe_site *site;

	list_for_each_entry(site, dirty, dirty) {
		if (!kprobe_site_on_ftrace(site))
			continue;
		WRITE_ONCE(site->solo, NULL);
		if (site_wanted_fops_locked(site) < 0)
			WRITE_ONCE(site->fops, NULL);
	}
}

/* kprobe_ftrace_commit_locked() with room in @ips for every site. */
static int commit_sites_locked(struct list_head *dirty, unsigned long *ips)
{
	unsigned long failed = 0;
	unsigned int n;
	int i, ret = 0, err;

	lockdep_assert_held(&kprobe_mutex);

	/* 1. Sites that must stop running probes do so at once. */
	silence_unwanted(dirty);

	/* 2. Attach sites to the ops they want; hand them over. */
	for (i = 0; i < KPROBE_FOPS_NR; i++) {
		n = collect_ips(dirty, i, true, failed, ips);
		if (!n)
			continue;
		if (READ_ONCE(kprobe_ftrace_dead))
			err = -ENODEV;
		else
			err = fops_attach_locked(i, ips, n);
		if (err) {
			failed |= BIT(i);
			ret = ret ?: err;
			continue;
		}
		publish(dirty, i, true, failed);
	}

	/* 3. Detach them from the ops they no longer run through. */
	for (i = 0; i < KPROBE_FOPS_NR; i++) {
		n = collect_ips(dirty, i, false, failed, ips);
		if (!n)
			continue;
		fops_detach_locked(i, ips, n);
		publish(dirty, i, false, failed);
	}
	return ret;
}

/* Out of memory for a batch: one site at a time, with one ip of room. */
static int commit_each_site(struct list_head *dirty)
{
	struct kprobe_site *site, *tmp;
	LIST_HEAD(done);
	LIST_HEAD(one);
	unsigned long ip;
	int ret = 0, err;

	list_for_each_entry_safe(site, tmp, dirty, dirty) {
		list_move_tail(&site->dirty, &one);
		err = commit_sites_locked(&one, &ip);
		ret = ret ?: err;
		list_splice_tail_init(&one, &done);
	}
	list_splice(&done, dirty);
	return ret;
}

/**
 * kprobe_ftrace_commit_locked - attach and detach a batch's ftrace sites
 * @dirty: the sites the batch touched, linked by their @dirty member
 *
 * Brings every ftrace site of @dirty to the ops its probes ask for, or to
 * none.  Called with the kprobe mutex held and the text lock released.
 *
 * Return: 0, or ftrace's error for the first ops it would not attach
 * sites to (-ENODEV once ftrace has shut down); those sites stay as they
 * were (unarmed when new).
 */
int kprobe_ftrace_commit_locked(struct list_head *dirty)
{
	struct kprobe_site *site;
	unsigned long *ips;
	unsigned int n = 0;
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(site, dirty, dirty)
		n += kprobe_site_on_ftrace(site);
	if (!n)
		return 0;

	ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return commit_each_site(dirty);
	ret = commit_sites_locked(dirty, ips);
	kvfree(ips);
	return ret;
}
