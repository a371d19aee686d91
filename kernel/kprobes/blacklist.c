// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: text that must never be probed.
 *
 * NOKPROBE_SYMBOL(fn) puts the address of fn into the _kprobe_blacklist
 * section.  The vmlinux copy of that section is init data, so it is read
 * once at boot; a module's copy is read when the module comes in.  Each
 * becomes a table of address ranges sorted by start, found by binary
 * search.  Areas (whole sections such as the entry text) are tables of
 * their own.
 *
 * The tables sit on an RCU list: within_kprobe_blacklist() may be called
 * from debugger context and must not sleep or lock.  Writers hold the
 * kprobe mutex.
 */
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/bsearch.h>
#include <linux/string.h>
#include <asm/sections.h>

#include "internal.h"

struct bl_range {
	unsigned long start;
	unsigned long end;		/* exclusive */
};

/**
 * struct bl_table - one sorted set of never-probe ranges
 * @node: on kprobe_blacklist (RCU)
 * @rcu: for freeing after readers are done
 * @owner: the module it came from, or NULL for the kernel itself
 * @nr: number of @ranges
 * @ranges: sorted by start, not overlapping
 */
struct bl_table {
	struct list_head node;
	struct rcu_head rcu;
	struct module *owner;
	unsigned int nr;
	struct bl_range ranges[] __counted_by(nr);
};

static LIST_HEAD(kprobe_blacklist);

static int range_cmp(const void *a, const void *b)
{
	const struct bl_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

static int range_find(const void *key, const void *elt)
{
	unsigned long addr = *(const unsigned long *)key;
	const struct bl_range *r = elt;

	if (addr < r->start)
		return -1;
	return addr >= r->end ? 1 : 0;
}

static bool table_has(const struct bl_table *t, unsigned long addr)
{
	return bsearch(&addr, t->ranges, t->nr, sizeof(t->ranges[0]),
		       range_find);
}

NOKPROBE_SYMBOL(table_has);

static bool listed(unsigned long addr)
{
	struct bl_table *t;
	bool found = false;

	rcu_read_lock();
	list_for_each_entry_rcu(t, &kprobe_blacklist, node) {
		if (table_has(t, addr)) {
			found = true;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

NOKPROBE_SYMBOL(listed);

/*
 * The compiler splits functions into parts named "fn.cold", "fn.part.0"
 * and so on.  A part of a blacklisted function is blacklisted too.
 * @name: the name of the function around the address.
 */
static bool listed_as_part(char *name)
{
	unsigned long base;
	char *dot;

	dot = strchr(name, '.');
	if (!dot || dot == name)
		return false;
	*dot = '\0';
	base = kallsyms_lookup_name(name);
	return base && listed(base);
}

/**
 * within_kprobe_blacklist - may @addr never be probed?
 * @addr: a text address
 *
 * Sleep-free and lock-free: debuggers call it from their own context.
 *
 * Return: true when @addr lies in a NOKPROBE_SYMBOL() function, in one of
 * the areas the kernel or a module never lets be probed, or in a compiler
 * split part of a blacklisted function.
 */
bool within_kprobe_blacklist(unsigned long addr)
{
	char name[KSYM_NAME_LEN];

	if (arch_within_kprobe_blacklist(addr) || listed(addr))
		return true;
	return !lookup_symbol_name(addr, name) && listed_as_part(name);
}
EXPORT_SYMBOL_GPL(within_kprobe_blacklist);

/**
 * kprobe_blacklisted_text_locked - within_kprobe_blacklist() for registration
 * @addr: a text address
 *
 * Return: within_kprobe_blacklist()'s answer, with the name of @addr's
 * function taken from the text-locked lookups of the registration.
 */
bool kprobe_blacklisted_text_locked(unsigned long addr)
{
	char name[KSYM_NAME_LEN];

	lockdep_assert_held(&text_mutex);
	if (arch_within_kprobe_blacklist(addr) || listed(addr))
		return true;
	return !kprobe_func_name_text_locked(addr, name) &&
	       listed_as_part(name);
}

/* Turn function addresses into sorted ranges; drops unknown entries. */
static struct bl_table *table_from_entries(const unsigned long *entries,
					   unsigned int n, struct module *owner)
{
	unsigned long size, off;
	struct bl_table *t;
	unsigned int i;

	t = kvzalloc(struct_size(t, ranges, n), GFP_KERNEL);
	if (!t)
		return NULL;
	t->owner = owner;
	for (i = 0; i < n; i++) {
		if (!kallsyms_lookup_size_offset(entries[i], &size, &off))
			continue;
		t->ranges[t->nr].start = entries[i] - off;
		t->ranges[t->nr].end = entries[i] - off + size;
		t->nr++;
	}
	sort(t->ranges, t->nr, sizeof(t->ranges[0]), range_cmp, NULL);
	return t;
}

static int table_add_area_locked(unsigned long start, unsigned long end,
				 struct module *owner)
{
	struct bl_table *t;

	lockdep_assert_held(&kprobe_mutex);
	if (start >= end)
		return 0;
	t = kvzalloc(struct_size(t, ranges, 1), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->owner = owner;
	t->nr = 1;
	t->ranges[0].start = start;
	t->ranges[0].end = end;
	list_add_tail_rcu(&t->node, &kprobe_blacklist);
	return 0;
}

/**
 * kprobe_add_area_blacklist - never probe [@start, @end)
 * @start: first address
 * @end: first address after the area
 *
 * For the architecture's boot-time areas.
 *
 * Return: 0 or -ENOMEM.
 */
int kprobe_add_area_blacklist(unsigned long start, unsigned long end)
{
	int ret;

	mutex_lock(&kprobe_mutex);
	ret = table_add_area_locked(start, end, NULL);
	mutex_unlock(&kprobe_mutex);
	return ret;
}

/**
 * kprobe_blacklist_init - read the kernel's blacklist at boot
 *
 * Return: 0 or -ENOMEM.
 */
int __init kprobe_blacklist_init(void)
{
	unsigned int n = __stop_kprobe_blacklist - __start_kprobe_blacklist;
	struct bl_table *t;
	int ret;

	t = table_from_entries(__start_kprobe_blacklist, n, NULL);
	if (!t)
		return -ENOMEM;

	mutex_lock(&kprobe_mutex);
	list_add_tail_rcu(&t->node, &kprobe_blacklist);
	ret = table_add_area_locked((unsigned long)__kprobes_text_start,
				    (unsigned long)__kprobes_text_end, NULL);
	if (!ret)
		ret = table_add_area_locked((unsigned long)__noinstr_text_start,
					    (unsigned long)__noinstr_text_end,
					    NULL);
	mutex_unlock(&kprobe_mutex);
	if (ret)
		return ret;
	return arch_populate_kprobe_blacklist();
}

#ifdef CONFIG_MODULES
/**
 * kprobe_blacklist_add_module_locked - a module is coming: read its list
 * @mod: the module
 *
 * Adds its NOKPROBE_SYMBOL() functions and its .kprobes.text and
 * .noinstr.text sections.  Out of memory leaves the module probeable
 * except for those areas that could be added; it is reported.
 */
void kprobe_blacklist_add_module_locked(struct module *mod)
{
	unsigned long start;
	struct bl_table *t;
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	if (mod->num_kprobe_blacklist) {
		t = table_from_entries(mod->kprobe_blacklist,
				       mod->num_kprobe_blacklist, mod);
		if (t)
			list_add_tail_rcu(&t->node, &kprobe_blacklist);
		else
			pr_warn("kprobes: no memory for %s's blacklist\n",
				mod->name);
	}
	start = (unsigned long)mod->kprobes_text_start;
	ret = table_add_area_locked(start, start + mod->kprobes_text_size, mod);
	start = (unsigned long)mod->noinstr_text_start;
	ret = ret ?: table_add_area_locked(start,
					   start + mod->noinstr_text_size, mod);
	if (ret)
		pr_warn("kprobes: no memory for %s's blacklist areas\n",
			mod->name);
}

/**
 * kprobe_blacklist_remove_module_locked - a module is going
 * @mod: the module
 */
void kprobe_blacklist_remove_module_locked(struct module *mod)
{
	struct bl_table *t, *tmp;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry_safe(t, tmp, &kprobe_blacklist, node) {
		if (t->owner != mod)
			continue;
		list_del_rcu(&t->node);
		kvfree_rcu(t, rcu);
	}
}
#endif /* CONFIG_MODULES */

/**
 * kprobe_blacklist_show - the debugfs "blacklist" file
 * @m: where to print
 * @show_addr: print the addresses; zeros otherwise (kallsyms_show_value())
 *
 * One line per range: "0x<start>-0x<end>\t<symbol>", the format perf reads.
 */
void kprobe_blacklist_show(struct seq_file *m, bool show_addr)
{
	struct bl_table *t;
	unsigned int i;

	mutex_lock(&kprobe_mutex);
	list_for_each_entry(t, &kprobe_blacklist, node) {
		for (i = 0; i < t->nr; i++)
			seq_printf(m, "0x%px-0x%px\t%ps\n",
				   show_addr ? (void *)t->ranges[i].start : NULL,
				   show_addr ? (void *)t->ranges[i].end : NULL,
				   (void *)t->ranges[i].start);
	}
	mutex_unlock(&kprobe_mutex);
}
