// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: executable slots for out-of-line instruction copies.
 *
 * Slots are KPROBE_SLOT_SIZE bytes, carved from pages that execmem hands
 * out for EXECMEM_KPROBES (close enough to kernel text for 32-bit
 * relative addressing on x86).  A page is read-only and executable from
 * the moment it is allocated; the arch writes slots with its text-poking
 * primitive.
 *
 * Allocation and freeing happen under the kprobe mutex.  Slots are freed
 * only after a grace period has passed since their site was unlinked, so
 * no CPU executes in a freed slot.  The page list is also read locklessly
 * (RCU) by is_kprobe_insn_slot() and kprobe_get_kallsym(), which the
 * unwinder and /proc/kallsyms use.
 *
 * A page whose last slot is freed is not returned at once: giving back
 * executable memory costs a permission change and a TLB flush, which
 * would make removing a batch of probes pay once per page.  Empty pages
 * stay on the list, ready for reuse, and a delayed work item returns
 * those still empty a second later.
 */
#include <linux/kprobes.h>
#include <linux/execmem.h>
#include <linux/set_memory.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/bitmap.h>
#include <linux/workqueue.h>

#include "internal.h"

#define SLOTS_PER_PAGE		(PAGE_SIZE / KPROBE_SLOT_SIZE)
#define SLOT_PAGE_SYM		"kprobe_insn_page"

/**
 * struct slot_page - one page of slots
 * @node: on slot_pages (RCU readers)
 * @rcu: frees this descriptor after lockless readers are done
 * @base: the executable page
 * @used: slots handed out
 * @busy: which slots are handed out
 */
struct slot_page {
	struct list_head node;
	struct rcu_head rcu;
	kprobe_opcode_t *base;
	unsigned int used;
	DECLARE_BITMAP(busy, SLOTS_PER_PAGE);
};

static LIST_HEAD(slot_pages);

static void slot_reap_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(slot_reap_work, slot_reap_fn);

static struct slot_page *slot_page_new(void)
{
	struct slot_page *pg;

	pg = kzalloc(sizeof(*pg), GFP_KERNEL);
	if (!pg)
		return NULL;
	pg->base = execmem_alloc(EXECMEM_KPROBES, PAGE_SIZE);
	if (!pg->base) {
		kfree(pg);
		return NULL;
	}
	set_memory_rox((unsigned long)pg->base, 1);
	list_add_rcu(&pg->node, &slot_pages);
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL,
			   (unsigned long)pg->base, PAGE_SIZE, false,
			   SLOT_PAGE_SYM);
	return pg;
}

static void slot_page_free(struct slot_page *pg)
{
	lockdep_assert_held(&kprobe_mutex);
	list_del_rcu(&pg->node);
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL,
			   (unsigned long)pg->base, PAGE_SIZE, true,
			   SLOT_PAGE_SYM);
	execmem_free(pg->base);
	kfree_rcu(pg, rcu);
}

/* Return the pages that are still empty. */
static void slot_reap_fn(struct work_struct *work)
{
	struct slot_page *pg, *tmp;

	mutex_lock(&kprobe_mutex);
	list_for_each_entry_safe(pg, tmp, &slot_pages, node) {
		if (!pg->used)
			slot_page_free(pg);
	}
	mutex_unlock(&kprobe_mutex);
}

/**
 * kprobe_slot_alloc - get a free slot
 *
 * Called with the kprobe mutex held.
 *
 * Return: the slot, or NULL when out of memory.
 */
kprobe_opcode_t *kprobe_slot_alloc(void)
{
	struct slot_page *pg;
	unsigned int i;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(pg, &slot_pages, node) {
		if (pg->used < SLOTS_PER_PAGE)
			goto found;
	}
	pg = slot_page_new();
	if (!pg)
		return NULL;
found:
	i = find_first_zero_bit(pg->busy, SLOTS_PER_PAGE);
	__set_bit(i, pg->busy);
	pg->used++;
	return pg->base + i * KPROBE_SLOT_SIZE;
}

/**
 * kprobe_slot_free - give back a slot no CPU can be executing in
 * @slot: from kprobe_slot_alloc()
 *
 * Called with the kprobe mutex held.  The page goes back to execmem once
 * its last slot is free.
 */
void kprobe_slot_free(kprobe_opcode_t *slot)
{
	struct slot_page *pg;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(pg, &slot_pages, node) {
		if (slot < pg->base || slot >= pg->base + PAGE_SIZE)
			continue;
		__clear_bit((slot - pg->base) / KPROBE_SLOT_SIZE, pg->busy);
		if (!--pg->used)
			schedule_delayed_work(&slot_reap_work, HZ);
		return;
	}
	WARN(1, "kprobes: freeing unknown slot %px\n", slot);
}

/**
 * is_kprobe_insn_slot - is @addr inside a slot page?
 * @addr: any address
 *
 * Lock-free and sleep-free; safe from NMI and the unwinder.
 *
 * Return: true if it is.
 */
bool is_kprobe_insn_slot(unsigned long addr)
{
	struct slot_page *pg;
	bool found = false;

	rcu_read_lock();
	list_for_each_entry_rcu(pg, &slot_pages, node) {
		if (addr >= (unsigned long)pg->base &&
		    addr < (unsigned long)pg->base + PAGE_SIZE) {
			found = true;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

NOKPROBE_SYMBOL(is_kprobe_insn_slot);

/**
 * kprobe_get_kallsym - describe slot page number @symnum for kallsyms
 * @symnum: index of the page
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
	int ret = -ERANGE;

	rcu_read_lock();
	list_for_each_entry_rcu(pg, &slot_pages, node) {
		if (symnum--)
			continue;
		*value = (unsigned long)pg->base;
		*type = 't';
		strscpy(sym, SLOT_PAGE_SYM, KSYM_NAME_LEN);
		ret = 0;
		break;
	}
	rcu_read_unlock();
	return ret;
}
