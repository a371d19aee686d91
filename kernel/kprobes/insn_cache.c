// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: executable slots for out-of-line code.
 *
 * Two caches hand out slots: one for the copies of probed instructions
 * (KPROBE_SLOT_SIZE bytes each) and, with jump optimization, one for the
 * detour buffers of optimized probes (KPROBE_DETOUR_SIZE bytes each).
 * Slots are carved from pages the architecture hands out
 * (arch_alloc_kprobe_slot_page()): close enough to kernel text for its
 * jumps back, read-only and executable from the moment they exist.  The
 * arch writes slots with its text-poking primitive.
 *
 * Allocation and freeing happen under the kprobe mutex.  An instruction
 * slot is freed only after a grace period has passed since its site was
 * unlinked, so no CPU executes in a freed slot.  A detour may still hold
 * a preempted task, so it is freed in two steps around the optimizer's
 * grace periods: kprobe_detour_free_deferred_locked() marks it dying, the
 * optimizer moves the dying slots to "reaping" before it waits
 * (kprobe_slots_gc_begin_locked()) and frees them after
 * (kprobe_slots_gc_end_locked()).
 *
 * The page lists are also read locklessly (RCU) by is_kprobe_insn_slot(),
 * is_kprobe_optinsn_slot() and kprobe_get_kallsym(), which the unwinder
 * and /proc/kallsyms use.
 *
 * A page whose last slot is freed is not returned at once: giving back
 * executable memory costs a permission change and a TLB flush, which
 * would make removing a batch of probes pay once per page.  Empty pages
 * stay on the list, ready for reuse, and a delayed work item returns
 * those still empty a second later.
 */
#include <linux/kprobes.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/bitmap.h>
#include <linux/workqueue.h>

#include "internal.h"

/*
 * The smallest slot size.  Slots are counted in bytes whatever the
 * architecture's kprobe_opcode_t is: a page holds at most this many.
 */
#define MIN_SLOT_SIZE		64
#define MAX_SLOTS_PER_PAGE	(PAGE_SIZE / MIN_SLOT_SIZE)

/**
 * struct slot_page - one page of slots
 * @node: on its cache's @pages (RCU readers)
 * @rcu: frees this descriptor after lockless readers are done
 * @base: the executable page
 * @used: slots handed out, dying and reaping ones included
 * @busy: which slots are handed out
 * @dying: freed, waiting for the next optimizer pass
 * @reaping: freed before the optimizer pass that runs now
 */
struct slot_page {
	struct list_head node;
	struct rcu_head rcu;
	void *base;
	unsigned int used;
	DECLARE_BITMAP(busy, MAX_SLOTS_PER_PAGE);
	DECLARE_BITMAP(dying, MAX_SLOTS_PER_PAGE);
	DECLARE_BITMAP(reaping, MAX_SLOTS_PER_PAGE);
};

/**
 * struct slot_cache - slots of one size
 * @pages: the pages, newest first
 * @size: bytes per slot
 * @sym: the name the pages get in kallsyms and perf
 */
struct slot_cache {
	struct list_head pages;
	unsigned int size;
	const char *sym;
};

static struct slot_cache insn_slots = {
	.pages	= LIST_HEAD_INIT(insn_slots.pages),
	.size	= KPROBE_SLOT_SIZE,
	.sym	= "kprobe_insn_page",
};

static_assert(KPROBE_SLOT_SIZE >= MIN_SLOT_SIZE);

/* Only architectures with jump optimization define KPROBE_DETOUR_SIZE. */
#ifdef CONFIG_OPTPROBES
static struct slot_cache detour_slots = {
	.pages	= LIST_HEAD_INIT(detour_slots.pages),
	.size	= KPROBE_DETOUR_SIZE,
	.sym	= "kprobe_optinsn_page",
};

static_assert(KPROBE_DETOUR_SIZE >= MIN_SLOT_SIZE);
#endif

static struct slot_cache *const slot_caches[] = {
	&insn_slots,
#ifdef CONFIG_OPTPROBES
	&detour_slots,
#endif
};

static void slot_reap_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(slot_reap_work, slot_reap_fn);

static unsigned int slots_per_page(struct slot_cache *c)
{
	return PAGE_SIZE / c->size;
}

static struct slot_page *slot_page_new(struct slot_cache *c)
{
	struct slot_page *pg;

	pg = kzalloc(sizeof(*pg), GFP_KERNEL);
	if (!pg)
		return NULL;
	pg->base = arch_alloc_kprobe_slot_page();
	if (!pg->base) {
		kfree(pg);
		return NULL;
	}
	list_add_rcu(&pg->node, &c->pages);
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL,
			   (unsigned long)pg->base, PAGE_SIZE, false, c->sym);
	return pg;
}

static void slot_page_free(struct slot_cache *c, struct slot_page *pg)
{
	lockdep_assert_held(&kprobe_mutex);
	list_del_rcu(&pg->node);
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL,
			   (unsigned long)pg->base, PAGE_SIZE, true, c->sym);
	arch_free_kprobe_slot_page(pg->base);
	kfree_rcu(pg, rcu);
}

/* Return the pages that are still empty. */
static void slot_reap_fn(struct work_struct *work)
{
	struct slot_page *pg, *tmp;
	int i;

	mutex_lock(&kprobe_mutex);
	for (i = 0; i < ARRAY_SIZE(slot_caches); i++) {
		list_for_each_entry_safe(pg, tmp, &slot_caches[i]->pages,
					 node) {
			if (!pg->used)
				slot_page_free(slot_caches[i], pg);
		}
	}
	mutex_unlock(&kprobe_mutex);
}

static kprobe_opcode_t *cache_alloc(struct slot_cache *c)
{
	unsigned int i, n = slots_per_page(c);
	struct slot_page *pg;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(pg, &c->pages, node) {
		if (pg->used < n)
			goto found;
	}
	pg = slot_page_new(c);
	if (!pg)
		return NULL;
found:
	i = find_first_zero_bit(pg->busy, n);
	__set_bit(i, pg->busy);
	pg->used++;
	return pg->base + i * c->size;
}

/*
 * The page of @c that holds @slot, with the slot's index in *@index, or
 * NULL (and a warning) if no page of @c does.
 */
static struct slot_page *cache_page_of(struct slot_cache *c,
				       kprobe_opcode_t *slot,
				       unsigned int *index)
{
	unsigned long addr = (unsigned long)slot, base;
	struct slot_page *pg;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(pg, &c->pages, node) {
		base = (unsigned long)pg->base;
		if (addr >= base && addr < base + PAGE_SIZE) {
			*index = (addr - base) / c->size;
			return pg;
		}
	}
	WARN(1, "kprobes: freeing unknown slot %px\n", slot);
	return NULL;
}

static void page_release_slot(struct slot_page *pg, unsigned int i)
{
	__clear_bit(i, pg->busy);
	if (!--pg->used)
		schedule_delayed_work(&slot_reap_work, HZ);
}

/**
 * kprobe_slot_alloc_locked - get a free instruction slot
 *
 * Called with the kprobe mutex held.
 *
 * Return: a KPROBE_SLOT_SIZE slot, or NULL when out of memory.
 */
kprobe_opcode_t *kprobe_slot_alloc_locked(void)
{
	lockdep_assert_held(&kprobe_mutex);
	return cache_alloc(&insn_slots);
}

/**
 * kprobe_slot_free_locked - give back an instruction slot no CPU can be in
 * @slot: from kprobe_slot_alloc_locked()
 *
 * Called with the kprobe mutex held.
 */
void kprobe_slot_free_locked(kprobe_opcode_t *slot)
{
	struct slot_page *pg;
	unsigned int i;

	lockdep_assert_held(&kprobe_mutex);
	pg = cache_page_of(&insn_slots, slot, &i);
	if (pg)
		page_release_slot(pg, i);
}

#ifdef CONFIG_OPTPROBES

/**
 * kprobe_detour_alloc_locked - get a free detour slot
 *
 * Called with the kprobe mutex held.
 *
 * Return: a KPROBE_DETOUR_SIZE slot, or NULL when out of memory.
 */
kprobe_opcode_t *kprobe_detour_alloc_locked(void)
{
	lockdep_assert_held(&kprobe_mutex);
	return cache_alloc(&detour_slots);
}

/**
 * kprobe_detour_free_deferred_locked - give back a detour slot once it is safe
 * @slot: from kprobe_detour_alloc_locked()
 *
 * Called with the kprobe mutex held.  The slot is freed by the first
 * optimizer pass that starts afterwards, once that pass has waited for
 * every task and CPU to leave the detours (see opt.c).
 */
void kprobe_detour_free_deferred_locked(kprobe_opcode_t *slot)
{
	struct slot_page *pg;
	unsigned int i;

	lockdep_assert_held(&kprobe_mutex);
	pg = cache_page_of(&detour_slots, slot, &i);
	if (pg)
		__set_bit(i, pg->dying);
}

/**
 * kprobe_slots_gc_begin_locked - an optimizer pass is about to wait
 *
 * Slots freed with kprobe_detour_free_deferred_locked() so far become free once
 * the pass has waited: see kprobe_slots_gc_end_locked().
 *
 * Return: true when there is something to free after the wait.
 */
bool kprobe_slots_gc_begin_locked(void)
{
	unsigned int n = slots_per_page(&detour_slots);
	struct slot_page *pg;
	bool any = false;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(pg, &detour_slots.pages, node) {
		if (bitmap_empty(pg->dying, n))
			continue;
		bitmap_or(pg->reaping, pg->reaping, pg->dying, n);
		bitmap_zero(pg->dying, n);
		any = true;
	}
	return any;
}

/**
 * kprobe_slots_gc_end_locked - the optimizer pass has waited: free
 */
void kprobe_slots_gc_end_locked(void)
{
	unsigned int i, n = slots_per_page(&detour_slots);
	struct slot_page *pg;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(pg, &detour_slots.pages, node) {
		for_each_set_bit(i, pg->reaping, n)
			page_release_slot(pg, i);
		bitmap_zero(pg->reaping, n);
	}
}
#endif /* CONFIG_OPTPROBES */

static bool cache_contains(struct slot_cache *c, unsigned long addr)
{
	struct slot_page *pg;
	bool found = false;

	rcu_read_lock();
	list_for_each_entry_rcu(pg, &c->pages, node) {
		if (addr >= (unsigned long)pg->base &&
		    addr < (unsigned long)pg->base + PAGE_SIZE) {
			found = true;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/**
 * is_kprobe_insn_slot - is @addr inside an instruction slot page?
 * @addr: any address
 *
 * Lock-free and sleep-free; safe from NMI and the unwinder.
 *
 * Return: true if it is.
 */
bool is_kprobe_insn_slot(unsigned long addr)
{
	return cache_contains(&insn_slots, addr);
}

NOKPROBE_SYMBOL(is_kprobe_insn_slot);

/**
 * is_kprobe_optinsn_slot - is @addr inside a detour page?
 * @addr: any address
 *
 * Lock-free and sleep-free; safe from NMI and the unwinder.
 *
 * Return: true if it is; always false without jump optimization.
 */
#ifdef CONFIG_OPTPROBES
bool is_kprobe_optinsn_slot(unsigned long addr)
{
	return cache_contains(&detour_slots, addr);
}
#else
bool is_kprobe_optinsn_slot(unsigned long addr)
{
	return false;
}
#endif

NOKPROBE_SYMBOL(is_kprobe_optinsn_slot);

/**
 * kprobe_get_kallsym - describe slot page number @symnum for kallsyms
 * @symnum: index of the page, instruction pages first
 * @value: receives its address
 * @type: receives 't'
 * @sym: receives its name (KSYM_NAME_LEN bytes)
 *
 * Return: 0, or -ERANGE past the last page.
 */
int kprobe_get_kallsym(unsigned int symnum, unsigned long *value, char *type,
		       char *sym)
{
	struct slot_page *pg;
	int i, ret = -ERANGE;

	rcu_read_lock();
	for (i = 0; i < ARRAY_SIZE(slot_caches) && ret; i++) {
		list_for_each_entry_rcu(pg, &slot_caches[i]->pages, node) {
			if (symnum--)
				continue;
			*value = (unsigned long)pg->base;
			*type = 't';
			strscpy(sym, slot_caches[i]->sym, KSYM_NAME_LEN);
			ret = 0;
			break;
		}
	}
	rcu_read_unlock();
	return ret;
}
