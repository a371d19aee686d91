// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: the registry of probe sites and their life cycle.
 *
 * Objects
 *   struct kprobe       what a user registers: handlers, flags, nmissed.
 *   struct kprobe_site  one per probed address: the breakpoint, the arch
 *                       copy of the instruction and the kprobes there.
 *
 * Locking
 *   kprobe_mutex protects the site table and the gone list (writers),
 *   every site's probe list (writers), the site fields nr_enabled,
 *   nr_post, armed and gone, the flags of registered kprobes, the global
 *   arm switch and the slot cache.  Text is changed only under
 *   kprobe_text_lock(), which nests in kprobe_mutex and takes the locks in
 *   the one order used by every other text patcher (jump labels, static
 *   calls):
 *
 *     kprobe_mutex -> cpus_read_lock -> jump_label_lock -> text_mutex
 *
 *   Writing a breakpoint is cheap; making every CPU see it (a cross-CPU
 *   serialization) is not.  So each call, and each array passed to
 *   register_kprobes() or unregister_kprobes(), writes all its text under
 *   one kprobe_text_lock() and ends with one kprobe_batch_commit_unlock():
 *   one synchronization, then the jump-optimization decisions for every
 *   site the batch touched (its "dirty" list; see opt.c), then, with the
 *   text lock released, one ftrace update for the batch's sites on
 *   ftrace call sites (see ftrace.c).
 *
 * RCU
 *   The breakpoint path finds a site in the site table (table.c) and
 *   walks its probes with list_for_each_entry_rcu(), taking no lock: it
 *   runs in exception context with interrupts off, which RCU treats as a
 *   read-side critical section.  No task is ever scheduled away inside an
 *   out-of-line copy either (the arch keeps interrupts off there, or at
 *   least preemption, as kprobes_arch.h asks of arch_kprobe_step(); on
 *   kernels without preemption an interrupt cannot schedule).  So once
 *   a site is disarmed and unlinked, one synchronize_rcu() guarantees
 *   that no CPU still looks it up, runs one of its handlers or executes
 *   in its slot.
 *
 *   Unregistration does not wait that long.  Its caller needs only its
 *   own kprobes back, and only the CPUs inside a hit can still use them:
 *   kprobe_hits_quiesce() (quiesce.c) waits for those.  The sites left
 *   without probes go to the reaper, which frees them, and their slots,
 *   after one grace period for all of them.
 *
 *   A site is always disarmed before it is unhashed: a CPU that traps on
 *   a breakpoint must find its site.  A site left without probes stays
 *   hashed until its batch is committed, because taking out an optimized
 *   jump goes through a breakpoint again.
 *
 * Parked sites
 *   Taking a breakpoint or a jump out of the text is the expensive part
 *   of unregistration (a page write per page and a cross-CPU
 *   synchronization per batch), and the caller does not need it: once its
 *   probes are off the site and the hits quiesced, no handler of theirs
 *   can run.  So an armed breakpoint site that unregistration leaves
 *   without probes keeps its text and stays hashed, "parked": a hit there
 *   runs no handler and goes on as the instruction would.  The unparker
 *   takes the text of every parked site back in one batch,
 *   KPROBE_PARK_DELAY later, and hands the sites to the reaper; a probe
 *   registered there meanwhile takes its site back as it is.  A parked
 *   site still owns the bytes of its instruction: no jump may be
 *   optimized over it (kprobe_opt_region_taken_locked()).
 */
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/cpu.h>
#include <linux/jump_label.h>
#include <linux/memory.h>
#include <linux/kallsyms.h>
#include <linux/init.h>
#include <linux/workqueue.h>
#include <asm/sections.h>
#include <kunit/visibility.h>

#include "internal.h"

/* Serialises every change to probes, sites and slots; see above. */
DEFINE_MUTEX(kprobe_mutex);

static LIST_HEAD(kprobe_reap_sites);		/* struct kprobe_site.link */
static LIST_HEAD(kprobe_parked_sites);		/* struct kprobe_site.link */
static LIST_HEAD(kprobe_gone_sites);		/* struct kprobe_site.link */
static LIST_HEAD(kprobe_dirty_sites);		/* struct kprobe_site.dirty */
static bool kprobes_disarmed;			/* debugfs "enabled" is 0 */
static bool kprobe_text_written;		/* since the last commit */

/* How long a parked site keeps its text; see "Parked sites" above. */
#define KPROBE_PARK_DELAY	(HZ / 10)

static void kprobe_reaper(struct work_struct *work);
static DECLARE_WORK(kprobe_reap_work, kprobe_reaper);
static void kprobe_unparker(struct work_struct *work);
static DECLARE_DELAYED_WORK(kprobe_unpark_work, kprobe_unparker);

/**
 * get_kprobe_site - find the live site at an address
 * @addr: the probed instruction
 *
 * Callable from the breakpoint path (RCU by exception context) and with
 * the kprobe mutex held.
 *
 * Return: the site, or NULL.
 */
struct kprobe_site *get_kprobe_site(kprobe_opcode_t *addr)
{
	return __kprobe_site_find(addr, !preemptible() ||
				  (IS_ENABLED(CONFIG_LOCKDEP) &&
				   lockdep_is_held(&kprobe_mutex)));
}

NOKPROBE_SYMBOL(get_kprobe_site);

/**
 * kprobe_text_lock - take every lock needed to change kernel text
 *
 * The kprobe mutex must be held.  See the lock order at the top of this
 * file.
 */
void kprobe_text_lock(void)
{
	lockdep_assert_held(&kprobe_mutex);
	cpus_read_lock();
	jump_label_lock();
	mutex_lock(&text_mutex);
}

/**
 * kprobe_text_unlock - release what kprobe_text_lock() took
 */
void kprobe_text_unlock(void)
{
	kprobe_func_bounds_forget_text_locked();
	mutex_unlock(&text_mutex);
	jump_label_unlock();
	cpus_read_unlock();
}

/*
 * @p starts (@delta 1) or stops (@delta -1) counting among the enabled
 * probes of @site.  The hit path reads nr_post without the mutex.
 */
static void site_count_enabled_locked(struct kprobe_site *site,
				      struct kprobe *p, int delta)
{
	lockdep_assert_held(&kprobe_mutex);
	site->nr_enabled += delta;
	if (p->post_handler)
		WRITE_ONCE(site->nr_post, site->nr_post + delta);
}

/**
 * kprobe_site_wants_armed_locked - should @site's breakpoint be in the text?
 * @site: a site; the kprobe mutex is held
 *
 * Return: true when it has an enabled probe, its text is there and the
 * global switch is on.
 */
bool kprobe_site_wants_armed_locked(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	return site->nr_enabled && !site->gone && !kprobes_disarmed;
}

/**
 * kprobe_site_mark_dirty_locked - have the next commit look at @site
 * @site: a live site
 */
void kprobe_site_mark_dirty_locked(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	if (list_empty(&site->dirty))
		list_add_tail(&site->dirty, &kprobe_dirty_sites);
}

/*
 * Note that @site changed: the next commit looks at its optimization.
 * Then write the breakpoint, or the original instruction, so that the text
 * matches the site's state and the global switch.  Other CPUs are sure
 * to see the change only after the commit.  An optimized site is left
 * alone: its jump is taken out by the commit, through a breakpoint.
 */
static void site_write_text_locked(struct kprobe_site *site)
{
	bool want = kprobe_site_wants_armed_locked(site);

	lockdep_assert_held(&text_mutex);
	kprobe_site_mark_dirty_locked(site);
	/* Kinds without text of their own are attached after the commit. */
	if (!site->kind->write_text)
		return;
	if (want == site->armed || site->opt == KPROBE_OPT_DONE)
		return;
	site->kind->write_text(site, want);
	site->armed = want;
	kprobe_text_written = true;
}

/*
 * The probe a hit on @site may call without walking the site's probes:
 * its one probe, when that is enabled, has a pre handler and needs no
 * jprobe frame (and, at an ftrace call site, runs through the plain ops,
 * which a post handler rules out).  Both of its handlers are called
 * without the walk.  NULL otherwise.
 */
static struct kprobe *site_solo_locked(struct kprobe_site *site)
{
	struct kprobe *p;

	lockdep_assert_held(&kprobe_mutex);
	if (!list_is_singular(&site->probes))
		return NULL;
	p = list_first_entry(&site->probes, struct kprobe, list);
	if (kprobe_silent(p) || !p->pre_handler || kprobe_is_jprobe(p))
		return NULL;
	if (kprobe_site_on_ftrace(site) &&
	    !kprobe_ftrace_site_plain_locked(site))
		return NULL;
	return p;
}

/*
 * The batch has put the probes, text and ftrace ops of the sites of @dirty
 * in place.  If it succeeded (@ok), the probes it registered or enabled
 * may run their handlers from now on.  Then elect each site's solo and
 * forget the sites.  Until then a hit may still call the old solo;
 * unregistration waits for such hits after the commit
 * (kprobe_hits_quiesce()).
 */
static void sites_clean_locked(struct list_head *dirty, bool ok)
{
	struct kprobe_site *site, *tmp;
	struct kprobe *p;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry_safe(site, tmp, dirty, dirty) {
		if (ok) {
			list_for_each_entry(p, &site->probes, list)
				p->flags &= ~KPROBE_FLAG_ARMING;
		}
		WRITE_ONCE(site->solo, site_solo_locked(site));
		list_del_init(&site->dirty);
	}
}

/**
 * kprobe_batch_commit_unlock - end a batch of site changes
 * @err: 0, or the error that already dooms the batch (a probe of it
 *	that could not be placed); its caller undoes it then
 *
 * Called under kprobe_text_lock(), which it releases, with the kprobe
 * mutex held, which it keeps.  The probes the batch registered or
 * enabled carry KPROBE_FLAG_ARMING: their breakpoints may be live from
 * step 1 on, but hits leave their handlers alone until step 4.  The steps:
 *
 *   1. synchronize every CPU with the text the batch wrote;
 *   2. let the optimizer act on the sites the batch touched;
 *   3. release the text lock, and attach or detach the batch's ftrace
 *      sites (ftrace writes its own text, under text_mutex);
 *   4. if nothing failed, let the batch's probes run their handlers;
 *   5. forget the batch.
 *
 * Return: @err, or else the error that kept ftrace sites from being
 * armed.  A failed batch's probes never ran a handler.
 */
static int kprobe_batch_commit_unlock(int err)
{
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	lockdep_assert_held(&text_mutex);

	/* 1. */
	if (kprobe_text_written)
		arch_kprobe_text_sync();
	kprobe_text_written = false;

	/* 2. */
	kprobe_opt_commit_text_locked(&kprobe_dirty_sites);

	/* 3. */
	kprobe_text_unlock();
	ret = kprobe_ftrace_commit_locked(&kprobe_dirty_sites);
	if (err)
		ret = err;

	/* 4. and 5. */
	sites_clean_locked(&kprobe_dirty_sites, !ret);
	return ret;
}

/* site_write_text_locked() for one site, committed. */
static int site_sync_armed_locked(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	kprobe_text_lock();
	site_write_text_locked(site);
	return kprobe_batch_commit_unlock(0);
}

static bool site_has_probe(struct kprobe_site *site, struct kprobe *p)
{
	struct kprobe *q;

	list_for_each_entry(q, &site->probes, list) {
		if (q == p)
			return true;
	}
	return false;
}

/*
 * The site @p is registered at, live or gone, or NULL when @p is not
 * registered.  Looks only at sites, never at @p's own links, so it is safe
 * for a kprobe that was never registered.
 */
static struct kprobe_site *kprobe_site_of_locked(struct kprobe *p)
{
	struct kprobe_site *site;

	lockdep_assert_held(&kprobe_mutex);
	if (!p->addr)
		return NULL;

	site = get_kprobe_site(p->addr);
	if (site && site_has_probe(site, p))
		return site;

	list_for_each_entry(site, &kprobe_gone_sites, link) {
		if (site->addr == p->addr && site_has_probe(site, p))
			return site;
	}
	return NULL;
}

/**
 * kprobe_registered - is @p registered (live or gone)?
 * @p: a kprobe, registered or not
 *
 * Return: true if it is.
 */
bool kprobe_registered(struct kprobe *p)
{
	bool ret;

	mutex_lock(&kprobe_mutex);
	ret = kprobe_site_of_locked(p);
	mutex_unlock(&kprobe_mutex);
	return ret;
}

/* A breakpoint site: the arch decodes the instruction and copies it. */
static int bp_site_prepare(struct kprobe_site *site)
{
	/* An optimized jump over the address goes before we look at it. */
	kprobe_opt_clear_region_text_locked((unsigned long)site->addr);
	return arch_prepare_kprobe_site(site);
}

static void bp_site_write_text(struct kprobe_site *site, bool arm)
{
	if (arm)
		arch_arm_kprobe_site(site);
	else
		arch_disarm_kprobe_site(site);
}

const struct kprobe_site_kind kprobe_bp_site_kind = {
	.prepare	= bp_site_prepare,
	.release	= arch_release_kprobe_site,
	.write_text	= bp_site_write_text,
	.traps		= true,
	.optimizable	= true,
};

/* The kind of site that goes at @addr: ftrace owns its call sites. */
static const struct kprobe_site_kind *site_kind_at(unsigned long addr)
{
	if (IS_ENABLED(CONFIG_KPROBES_ON_FTRACE) && kprobe_ftrace_addr(addr))
		return &kprobe_ftrace_site_kind;
	return &kprobe_bp_site_kind;
}

/*
 * Create and hash the site for @addr: check the address, have the site's
 * kind prepare it (for a breakpoint: decode the instruction, copy it).
 * Nothing is armed yet.
 */
static struct kprobe_site *site_create_text_locked(kprobe_opcode_t *addr)
{
	struct kprobe_site *site;
	struct module *mod = NULL;
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	lockdep_assert_held(&text_mutex);
	site = kzalloc(sizeof(*site), GFP_KERNEL);
	if (!site)
		return ERR_PTR(-ENOMEM);
	site->addr = addr;
	INIT_LIST_HEAD(&site->probes);
	INIT_LIST_HEAD(&site->link);
	INIT_LIST_HEAD(&site->dirty);
	INIT_LIST_HEAD(&site->opt_link);

	site->kind = site_kind_at((unsigned long)addr);

	ret = kprobe_check_address_text_locked((unsigned long)addr, &mod);
	if (!ret && site->kind->prepare)
		ret = site->kind->prepare(site);

	if (!ret)
		kprobe_site_hash_locked(site);
	/*
	 * The module reference only had to last until the site is hashed:
	 * from now on the module notifier, which takes kprobe_mutex, finds
	 * the site when the module goes.
	 */
	module_put(mod);
	if (ret) {
		kfree(site);
		return ERR_PTR(ret);
	}
	return site;
}

/*
 * Called after a grace period: nobody can see @site any more, except a
 * task preempted in its detour if it has had one (opt.c frees it then).
 */
static void site_free_locked(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	if (site->kind->release)
		site->kind->release(site);
	if (site->opt_used)
		kprobe_opt_free_site_locked(site);
	else
		kfree(site);
}

/* The jprobe at @site, always the last probe of the list, or NULL. */
static struct kprobe *site_jprobe_locked(struct kprobe_site *site)
{
	struct kprobe *last;

	lockdep_assert_held(&kprobe_mutex);
	if (list_empty(&site->probes))
		return NULL;
	last = list_last_entry(&site->probes, struct kprobe, list);
	return kprobe_is_jprobe(last) ? last : NULL;
}

/*
 * Register @p with the kprobe mutex and the text lock held; @sym_addr is
 * the address of its symbol if its batch looked it up, else 0.  The
 * caller ends the batch with kprobe_batch_commit_unlock().
 */
static int register_kprobe_text_locked(struct kprobe *p,
				       unsigned long sym_addr)
{
	struct kprobe_site *site;
	struct kprobe *jprobe;
	kprobe_opcode_t *addr;
	bool on_entry;

	lockdep_assert_held(&kprobe_mutex);
	lockdep_assert_held(&text_mutex);

	/*
	 * 1. A kprobe can be registered once, and a user-space one only by
	 * register_kprobe_user(); refuse before touching it.
	 */
	if (p->user || kprobe_site_of_locked(p))
		return -EINVAL;

	/* 2. From here on, even a failure leaves the links initialised. */
	INIT_LIST_HEAD(&p->list);
	INIT_HLIST_NODE(&p->hlist);

	/* 3. Resolve where it goes; only DISABLED is the caller's flag. */
	addr = kprobe_resolve_addr_text_locked(p->addr, p->symbol_name,
					       p->offset, sym_addr, &on_entry);
	if (IS_ERR(addr))
		return PTR_ERR(addr);
	p->addr = addr;
	kprobe_clear_misses(p);
	p->flags &= KPROBE_FLAG_DISABLED;
	if (on_entry)
		p->flags |= KPROBE_FLAG_ON_FUNC_ENTRY;

	/* 4. Join the site at @addr (taking it back if parked), or create it. */
	site = get_kprobe_site(addr);
	if (!site) {
		site = site_create_text_locked(addr);
		if (IS_ERR(site))
			return PTR_ERR(site);
	} else if (site->parked) {
		site->parked = false;
		list_del_init(&site->link);
	}
	jprobe = site_jprobe_locked(site);
	if (jprobe && kprobe_is_jprobe(p))
		return -EEXIST;
	p->opcode = site->opcode;
	p->flags |= site->kind->probe_flags;

	/*
	 * 5. Publish the probe, silent until its batch is committed, then
	 * arm if it is the first enabled one.  The probes run in list order,
	 * a jprobe last (its pre handler does not come back).
	 */
	p->flags |= KPROBE_FLAG_ARMING;
	list_add_tail_rcu(&p->list, jprobe ? &jprobe->list : &site->probes);
	if (!kprobe_disabled(p))
		site_count_enabled_locked(site, p, 1);
	site_write_text_locked(site);
	return 0;
}

/**
 * register_kprobe - insert a probe
 * @p: the probe; @addr or @symbol_name (not both) says where, plus @offset
 *
 * On success @p->addr holds the resolved address: a probe given by
 * @symbol_name must have @addr set back to NULL before it is registered
 * again.  A probe registered with KPROBE_FLAG_DISABLED set stays unarmed
 * until enable_kprobe().
 *
 * Return: 0 on success; -EINVAL for a bad request or an address that may
 * not be probed (not text, blacklisted, kprobes' own code, patched by
 * another subsystem, an instruction the architecture must not step, such
 * as one that loads SS), or when @p is already registered; -ENOENT for
 * an unknown symbol or a module that is going away; -EILSEQ when the
 * address is not at an instruction boundary or holds an instruction that
 * traps by design (a breakpoint, an undefined opcode); -EOPNOTSUPP for
 * another instruction that cannot be probed; -EBUSY or another error of
 * ftrace's for an ftrace call site whose IPMODIFY claim is taken; -ERANGE
 * when the slot cannot reach what the instruction refers to; -ENOMEM.
 */
int register_kprobe(struct kprobe *p)
{
	return register_kprobes(&p, 1);
}
EXPORT_SYMBOL_GPL(register_kprobe);

/*
 * Park @site, armed and left without probes: its text stays as it is
 * for now (see "Parked sites" at the top).  A hit there no longer calls
 * the probe that was its solo.
 */
static void site_park_locked(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	WRITE_ONCE(site->solo, NULL);
	site->parked = true;
	list_add_tail(&site->link, &kprobe_parked_sites);
	schedule_delayed_work(&kprobe_unpark_work, KPROBE_PARK_DELAY);
}

/*
 * Take @p off its site.  An armed breakpoint site left without probes is
 * parked.  Any other site left without probes is disarmed and queued on
 * @dead; the caller commits the text, unhashes the dead sites
 * (site_unhash_dead_locked()) and frees them after a grace period.
 */
static void kprobe_detach_text_locked(struct kprobe *p,
				      struct list_head *dead)
{
	struct kprobe_site *site = kprobe_site_of_locked(p);

	lockdep_assert_held(&text_mutex);
	if (!site)
		return;

	if (!kprobe_disabled(p))
		site_count_enabled_locked(site, p, -1);
	list_del_rcu(&p->list);
	if (list_empty(&site->probes) && !site->gone && site->armed &&
	    site->kind->write_text) {
		site_park_locked(site);
		return;
	}
	site_write_text_locked(site);
	if (!list_empty(&site->probes))
		return;

	/* Disarmed (or about to be, by the commit): no enabled probe left. */
	if (site->gone)
		list_del(&site->link);
	list_add(&site->link, dead);
}

/* After the commit: the dead sites' text is back; unhash the live ones. */
static void site_unhash_dead_locked(struct list_head *dead)
{
	struct kprobe_site *site;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(site, dead, link) {
		if (!site->gone)
			kprobe_site_unhash_locked(site);
	}
}

/*
 * The reaper: frees the sites that unregistration left without probes,
 * one grace period after they were unhashed (see "RCU" at the top), and
 * shrinks the site table if they leave it too big.
 */
static void kprobe_reaper(struct work_struct *work)
{
	struct kprobe_site *site, *tmp;
	LIST_HEAD(reap);

	mutex_lock(&kprobe_mutex);
	list_splice_init(&kprobe_reap_sites, &reap);
	mutex_unlock(&kprobe_mutex);
	if (list_empty(&reap))
		return;

	synchronize_rcu();

	mutex_lock(&kprobe_mutex);
	list_for_each_entry_safe(site, tmp, &reap, link)
		site_free_locked(site);
	kprobe_sites_shrink_locked();
	mutex_unlock(&kprobe_mutex);
}

/*
 * The unparker: takes the text of every parked site back in one batch,
 * then leaves the sites to the reaper as unregistration does.
 */
static void kprobe_unparker(struct work_struct *work)
{
	struct kprobe_site *site, *tmp;
	LIST_HEAD(dead);

	mutex_lock(&kprobe_mutex);
	if (list_empty(&kprobe_parked_sites))
		goto out;
	kprobe_text_lock();
	list_for_each_entry_safe(site, tmp, &kprobe_parked_sites, link) {
		site->parked = false;
		list_move_tail(&site->link, &dead);
		site_write_text_locked(site);
	}
	kprobe_batch_commit_unlock(0);
	site_unhash_dead_locked(&dead);
	list_splice_tail(&dead, &kprobe_reap_sites);
	schedule_work(&kprobe_reap_work);
out:
	mutex_unlock(&kprobe_mutex);
}

/**
 * kprobe_unpark_now - take the parked sites' text back now
 *
 * For tests that look at the text after unregistration.
 */
void kprobe_unpark_now(void)
{
	/* The unparker takes the mutex. */
	lockdep_assert_not_held(&kprobe_mutex);
	flush_delayed_work(&kprobe_unpark_work);
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_unpark_now);

/**
 * kprobes_unregister_batch - remove the kprobes inside several objects
 * @objs: the objects (kprobes, jprobes, kretprobes, ...)
 * @num: how many
 * @kp_offset: where the &struct kprobe sits in each object
 *
 * Probes that are not registered are skipped.  Returns once no handler of
 * any of them runs or can run any more, without waiting for a grace
 * period: see "RCU" at the top.
 */
void kprobes_unregister_batch(void *const *objs, int num, size_t kp_offset)
{
	LIST_HEAD(dead);
	bool reap;
	int i;

	if (num <= 0)
		return;

	/* 1. Take every probe off; one text commit for all. */
	mutex_lock(&kprobe_mutex);
	kprobe_text_lock();
	for (i = 0; i < num; i++)
		kprobe_detach_text_locked(objs[i] + kp_offset, &dead);
	kprobe_batch_commit_unlock(0);
	site_unhash_dead_locked(&dead);
	/* 2. The sites left without probes go to the reaper. */
	reap = !list_empty(&dead);
	list_splice_tail(&dead, &kprobe_reap_sites);
	mutex_unlock(&kprobe_mutex);
	if (reap)
		schedule_work(&kprobe_reap_work);

	/* 3. Wait for the CPUs that may still be using the probes. */
	kprobe_hits_quiesce();
}

/**
 * unregister_kprobes - remove several probes at once
 * @kps: the probes
 * @num: how many
 *
 * Probes that are not registered are skipped.  Returns once no handler of
 * any of them runs or can run any more.
 */
void unregister_kprobes(struct kprobe **kps, int num)
{
	kprobes_unregister_batch((void *const *)kps, num, 0);
}
EXPORT_SYMBOL_GPL(unregister_kprobes);

/**
 * unregister_kprobe - remove a probe
 * @p: the probe
 *
 * Does nothing when @p is not registered.  When it returns, no handler of
 * @p runs on any CPU and @p may be freed or registered again.
 */
void unregister_kprobe(struct kprobe *p)
{
	unregister_kprobes(&p, 1);
}
EXPORT_SYMBOL_GPL(unregister_kprobe);

/**
 * kprobes_register_batch - register the kprobes inside several objects
 * @objs: the objects (kprobes, jprobes, kretprobes, ...)
 * @num: how many, > 0
 * @kp_offset: where the &struct kprobe sits in each object
 * @done: set to how many were registered
 *
 * Stops at the first failure and leaves the rollback of the @done
 * registered ones to the caller, who knows what else they own.  All the
 * breakpoints are written under one text lock and committed once.
 *
 * Return: 0, or the error of object number @done; or, when every object
 * was placed but arming the batch failed (ftrace), that error with @done
 * set to @num.
 */
int kprobes_register_batch(void *const *objs, int num, size_t kp_offset,
			   int *done)
{
	struct kprobe_syms syms;
	int i, ret = 0, err;

	kprobe_syms_lookup(&syms, objs, num, kp_offset);
	mutex_lock(&kprobe_mutex);
	kprobe_sites_reserve_locked(num);
	kprobe_text_lock();
	for (i = 0; i < num; i++) {
		ret = register_kprobe_text_locked(objs[i] + kp_offset,
						  kprobe_syms_addr(&syms, i));
		if (ret)
			break;
	}
	err = kprobe_batch_commit_unlock(ret);
	mutex_unlock(&kprobe_mutex);
	kprobe_syms_release(&syms);
	/* Some probe of the batch could not be armed: undo them all. */
	if (err && !ret) {
		ret = err;
		i = num;
	}
	*done = i;
	return ret;
}

/**
 * register_kprobes - insert several probes, all or none
 * @kps: the probes
 * @num: how many
 *
 * Return: 0, or the error of the first probe that failed, in which case
 * the probes before it were unregistered again; or, when the batch's
 * ftrace sites could not be armed, ftrace's error, and every probe of
 * the array was unregistered again.
 */
int register_kprobes(struct kprobe **kps, int num)
{
	int done, ret;

	if (num <= 0)
		return -EINVAL;
	ret = kprobes_register_batch((void *const *)kps, num, 0, &done);
	if (ret)
		unregister_kprobes(kps, done);
	return ret;
}
EXPORT_SYMBOL_GPL(register_kprobes);

/**
 * enable_kprobe - arm a registered, disabled probe
 * @p: the probe
 *
 * Return: 0 (also when it was already enabled), -EINVAL when @p is not
 * registered or its text is gone, or ftrace's error when @p's site is an
 * ftrace call site that could not be attached; @p stays disabled then.
 */
int enable_kprobe(struct kprobe *p)
{
	struct kprobe_site *site;
	int ret = 0;

	mutex_lock(&kprobe_mutex);
	site = kprobe_site_of_locked(p);
	if (!site || kprobe_gone(p)) {
		ret = -EINVAL;
	} else if (p->flags & KPROBE_FLAG_DISABLED) {
		/* Silent until the commit has armed it. */
		p->flags &= ~KPROBE_FLAG_DISABLED;
		p->flags |= KPROBE_FLAG_ARMING;
		site_count_enabled_locked(site, p, 1);
		ret = site_sync_armed_locked(site);
		if (ret) {
			/*
			 * Only an ftrace site can fail; it stayed as it was,
			 * armed only if other probes there are enabled.
			 */
			p->flags &= ~KPROBE_FLAG_ARMING;
			p->flags |= KPROBE_FLAG_DISABLED;
			site_count_enabled_locked(site, p, -1);
		}
	}
	mutex_unlock(&kprobe_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(enable_kprobe);

/**
 * disable_kprobe - stop a probe's handlers without unregistering it
 * @p: the probe
 *
 * The breakpoint goes away when no enabled probe is left at the address.
 * A handler that already started on another CPU may still finish.
 *
 * Return: 0 (also when it was already disabled), or -EINVAL when @p is not
 * registered.
 */
int disable_kprobe(struct kprobe *p)
{
	struct kprobe_site *site;
	int ret = 0;

	mutex_lock(&kprobe_mutex);
	site = kprobe_site_of_locked(p);
	if (!site) {
		ret = -EINVAL;
	} else if (!kprobe_disabled(p)) {
		p->flags |= KPROBE_FLAG_DISABLED;
		site_count_enabled_locked(site, p, -1);
		site_sync_armed_locked(site);
	}
	mutex_unlock(&kprobe_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(disable_kprobe);

/* The text under @site is being freed: leave it alone from now on. */
static void site_kill_locked(struct kprobe_site *site)
{
	struct kprobe *p;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(p, &site->probes, list)
		p->flags |= KPROBE_FLAG_GONE;
	site->nr_enabled = 0;
	WRITE_ONCE(site->nr_post, 0);
	WRITE_ONCE(site->solo, NULL);
	site->gone = true;
	/* No text write: whatever runs there next brings its own bytes. */
	site->armed = false;
	list_del_init(&site->dirty);
	kprobe_opt_kill_locked(site);
	kprobe_site_unhash_locked(site);
	if (site->parked) {
		/* Nobody will unregister anything there: free it. */
		site->parked = false;
		list_move_tail(&site->link, &kprobe_reap_sites);
		schedule_work(&kprobe_reap_work);
		return;
	}
	list_add_tail(&site->link, &kprobe_gone_sites);
}

struct kill_walk {
	kprobe_addr_match_t match;
	void *data;
	struct list_head ftrace_sites;
};

static void site_kill_if_matching_locked(struct kprobe_site *site, void *arg)
{
	struct kill_walk *w = arg;

	lockdep_assert_held(&kprobe_mutex);
	if (!w->match((unsigned long)site->addr, w->data))
		return;
	site_kill_locked(site);
	if (kprobe_site_on_ftrace(site))
		list_add_tail(&site->dirty, &w->ftrace_sites);
}

/**
 * kprobes_kill_matching_locked - mark probes whose text goes away as gone
 * @match: says whether a site address is in the text being freed
 * @data: passed to @match
 *
 * The probes stay registered (and listed as [GONE]) until their owners
 * unregister them; their handlers never run again.
 */
void kprobes_kill_matching_locked(kprobe_addr_match_t match, void *data)
{
	struct kill_walk w = { .match = match, .data = data };

	lockdep_assert_held(&kprobe_mutex);
	INIT_LIST_HEAD(&w.ftrace_sites);
	kprobe_sites_walk_locked(site_kill_if_matching_locked, &w);
	/*
	 * ftrace still knows the call sites: it forgets a module's after
	 * the GOING notifiers, and init text after kprobe_free_init_mem().
	 */
	kprobe_ftrace_commit_locked(&w.ftrace_sites);
	sites_clean_locked(&w.ftrace_sites, false);
}

static bool addr_in_init_text(unsigned long addr, void *unused)
{
	return addr >= (unsigned long)__init_begin &&
	       addr < (unsigned long)__init_end;
}

/**
 * kprobe_free_init_mem - the kernel's init text is about to be freed
 *
 * Probes on it become gone; the text itself is not touched.
 */
void kprobe_free_init_mem(void)
{
	mutex_lock(&kprobe_mutex);
	kprobes_kill_matching_locked(addr_in_init_text, NULL);
	mutex_unlock(&kprobe_mutex);
}

/**
 * kprobes_set_armed - the global switch behind debugfs "enabled"
 * @armed: false removes every breakpoint, true puts back those of
 *	enabled probes
 *
 * Registration keeps working while disarmed; new probes are not armed.
 *
 * Return: 0, or the error that kept ftrace sites from being armed again
 * (they are retried whenever they change).
 */
int kprobes_set_armed(bool armed)
{
	int ret;

	mutex_lock(&kprobe_mutex);
	kprobes_disarmed = !armed;
	ret = kprobes_update_all_locked();
	mutex_unlock(&kprobe_mutex);
	return ret;
}

static void site_write_text_walk(struct kprobe_site *site, void *unused)
{
	site_write_text_locked(site);
}

/**
 * kprobes_update_all_locked - bring every live site up to date
 *
 * For the global switches: arms or disarms, optimizes or unoptimizes
 * each site as its probes and the switches now say, in one batch.
 *
 * Return: 0, or the error that kept ftrace sites from being armed.
 */
int kprobes_update_all_locked(void)
{
	lockdep_assert_held(&kprobe_mutex);
	kprobe_text_lock();
	kprobe_sites_walk_locked(site_write_text_walk, NULL);
	return kprobe_batch_commit_unlock(0);
}

/**
 * kprobes_armed - read the global switch
 *
 * Return: true unless every breakpoint was removed through debugfs.
 */
bool kprobes_armed(void)
{
	return !READ_ONCE(kprobes_disarmed);
}

static char kprobe_type_char(struct kprobe *p)
{
	if (kprobe_is_kretprobe(p))
		return 'r';
	return kprobe_is_jprobe(p) ? 'j' : 'k';
}

/**
 * kprobes_show_addr - the first columns of a debugfs list line
 * @m: the list file
 * @where: the probed (or watched) address
 * @type: the type letter
 * @show_addr: may the reader see addresses?
 *
 * Laid out as the stock kernel lays it out, since scripts parse it:
 * "<addr>  <type>  <sym>+0x<off>  <module or blank> ", the tags to follow
 * run together.  A gone probe on freed init text keeps its symbol while
 * kallsyms knows it; an address kallsyms does not know prints bare,
 * hidden like the first column.
 */
void kprobes_show_addr(struct seq_file *m, unsigned long where, char type,
		       bool show_addr)
{
	void *addr = show_addr ? (void *)where : NULL;
	unsigned long off = 0;
	char sym[KSYM_NAME_LEN];
	char *modname = NULL;

	if (kallsyms_lookup(where, NULL, &off, &modname, sym))
		seq_printf(m, "%px  %c  %s+0x%lx  %s ", addr, type, sym, off,
			   modname ?: " ");
	else
		seq_printf(m, "%px  %c  %pS ", addr, type, addr);
}

static void show_site(struct seq_file *m, struct kprobe_site *site,
		      bool show_addr)
{
	struct kprobe *p;

	list_for_each_entry(p, &site->probes, list) {
		kprobes_show_addr(m, (unsigned long)site->addr,
				  kprobe_type_char(p), show_addr);
		/* A gone probe is not also called disabled. */
		seq_printf(m, "%s%s%s%s\n",
			   kprobe_gone(p) ? "[GONE]" : "",
			   kprobe_disabled(p) && !kprobe_gone(p) ?
			   "[DISABLED]" : "",
			   kprobe_optimized(p) ? "[OPTIMIZED]" : "",
			   kprobe_ftrace(p) ? "[FTRACE]" : "");
	}
}

struct show_walk {
	struct seq_file *m;
	bool show_addr;
	void (*show)(struct seq_file *m, struct kprobe_site *site,
		     bool show_addr);
};

static void show_site_walk(struct kprobe_site *site, void *arg)
{
	struct show_walk *w = arg;

	w->show(w->m, site, w->show_addr);
}

/* @show each site, live ones first, then gone ones. */
static void show_sites(struct seq_file *m, bool show_addr,
		       void (*show)(struct seq_file *m,
				    struct kprobe_site *site, bool show_addr))
{
	struct show_walk w = { .m = m, .show_addr = show_addr, .show = show };
	struct kprobe_site *site;

	mutex_lock(&kprobe_mutex);
	kprobe_sites_walk_locked(show_site_walk, &w);
	list_for_each_entry(site, &kprobe_gone_sites, link)
		show(m, site, show_addr);
	mutex_unlock(&kprobe_mutex);
}

/**
 * kprobes_show_all - one line per registered probe, for debugfs
 * @m: where to print
 * @show_addr: print the addresses; zeros otherwise (kallsyms_show_value())
 */
void kprobes_show_all(struct seq_file *m, bool show_addr)
{
	show_sites(m, show_addr, show_site);
}

/* The names of &enum kprobe_miss in debugfs, in its order. */
static const char * const kprobe_miss_names[KPROBE_MISS_NR] = {
	[KPROBE_MISS_RECURSION]		= "recursion",
	[KPROBE_MISS_DEPTH]		= "depth",
	[KPROBE_MISS_MODE]		= "mode",
	[KPROBE_MISS_RETURN]		= "return",
	[KPROBE_MISS_UNREGISTERING]	= "unregistering",
};

static void show_site_missed(struct seq_file *m, struct kprobe_site *site,
			     bool show_addr)
{
	struct kprobe *p;
	int why;

	list_for_each_entry(p, &site->probes, list) {
		struct kretprobe *rp = NULL;
		unsigned long total = READ_ONCE(p->nmissed);

		if (kprobe_is_kretprobe(p)) {
			rp = container_of(p, struct kretprobe, kp);
			total += READ_ONCE(rp->nmissed);
		}
		kprobes_show_addr(m, (unsigned long)site->addr,
				  kprobe_type_char(p), show_addr);
		seq_printf(m, "%lu", total);
		for (why = 0; why < KPROBE_MISS_NR; why++)
			seq_printf(m, " %s=%lu", kprobe_miss_names[why],
				   READ_ONCE(p->nmissed_by[why]));
		if (rp)
			seq_printf(m, " instances=%d", READ_ONCE(rp->nmissed));
		seq_putc(m, '\n');
	}
}

/**
 * kprobes_show_missed - one line per registered probe with its misses
 * @m: where to print
 * @show_addr: print the addresses; zeros otherwise (kallsyms_show_value())
 *
 * The columns of a list line up to the tags, then the total a trace
 * event's kprobe_profile shows (for a return probe, with the returns
 * that found no instance), then "<cause>=<count>" for each cause of
 * &enum kprobe_miss, and for a return probe "instances=<count>".
 */
void kprobes_show_missed(struct seq_file *m, bool show_addr)
{
	show_sites(m, show_addr, show_site_missed);
}

/**
 * dump_kprobe - print a probe's identity to the kernel log
 * @kp: the probe
 */
void dump_kprobe(struct kprobe *kp)
{
	pr_err("kprobe at %pS: symbol %s offset %u flags %#x\n",
	       kp->addr, kp->symbol_name ?: "-", kp->offset, kp->flags);
}

NOKPROBE_SYMBOL(dump_kprobe);

static int __init kprobes_init(void)
{
	int ret;

	ret = kprobe_blacklist_init();
	if (ret)
		pr_err("kprobes: blacklist not built (%d), probing refused\n",
		       ret);
	return ret;
}
early_initcall(kprobes_init);
