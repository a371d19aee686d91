// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: the table of sites by address.
 *
 * Every hit starts with a lookup here, and a tool may probe tens of
 * thousands of functions, so the table grows with the number of sites:
 * an array of hash chains with one chain per site or more, not fewer
 * than KPROBE_TABLE_MIN_BITS.  Lookups take no lock (see "RCU" in
 * core.c); writers hold the kprobe mutex.
 *
 * Resizing must not hide a site from a lookup that runs meanwhile.  So a
 * site has two chain nodes, and the two tables of kprobe_tables[] use one
 * each: a resize links every site into the table that is not current,
 * through that table's node, while lookups still walk the current one,
 * then makes it current.  A lookup that loaded the old pointer finishes
 * on chains that are intact.  The old table's nodes, and its array, may
 * be reused once such lookups are over: one grace period after the
 * switch, which the next resize waits for if it comes sooner.
 *
 * A site unhashed from the current table may still be linked, through its
 * other node, in the table before it.  That is harmless: sites are freed
 * a grace period after they are unhashed (the reaper in core.c), and a
 * lookup in the old table started before the switch.
 */
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "internal.h"

#define KPROBE_TABLE_MIN_BITS	6

static struct hlist_head kprobe_table_min[1 << KPROBE_TABLE_MIN_BITS];

static struct kprobe_site_table kprobe_tables[2] = {
	[0] = {
		.heads	= kprobe_table_min,
		.bits	= KPROBE_TABLE_MIN_BITS,
		.which	= 0,
	},
	[1] = {
		.which	= 1,
	},
};

struct kprobe_site_table __rcu *kprobe_sites =
	RCU_INITIALIZER(&kprobe_tables[0]);

static unsigned int kprobe_nr_sites;
/*
 * The grace period after which the table that is not current is free;
 * meaningful once that table has been current.
 */
static unsigned long kprobe_table_retired;

static struct kprobe_site_table *table_locked(void)
{
	lockdep_assert_held(&kprobe_mutex);
	return rcu_dereference_protected(kprobe_sites,
					 lockdep_is_held(&kprobe_mutex));
}

/* The table's size, as the number of bits of its index, for @nr sites. */
static unsigned int table_bits_for(unsigned int nr)
{
	if (nr <= (1U << KPROBE_TABLE_MIN_BITS))
		return KPROBE_TABLE_MIN_BITS;
	return order_base_2(nr);
}

/*
 * Make a table of 1 << @bits chains the current one.  On failure to
 * allocate it the current table stays: longer chains, same answers.
 */
static void table_resize_locked(unsigned int bits)
{
	struct kprobe_site_table *cur = table_locked();
	struct kprobe_site_table *next = &kprobe_tables[!cur->which];
	struct kprobe_site *site;
	struct hlist_head *heads;
	struct hlist_node *n;
	unsigned int i;

	lockdep_assert_held(&kprobe_mutex);

	/*
	 * 1. The lookups that could still walk @next are over (it has no
	 * array if it was never current, or was already waited for).
	 */
	if (next->heads) {
		cond_synchronize_rcu(kprobe_table_retired);
		if (next->heads != kprobe_table_min)
			kvfree(next->heads);
		next->heads = NULL;
	}

	/* 2. Its array, and every site linked into it through its node. */
	if (bits == KPROBE_TABLE_MIN_BITS) {
		heads = kprobe_table_min;
		for (i = 0; i < ARRAY_SIZE(kprobe_table_min); i++)
			INIT_HLIST_HEAD(&heads[i]);
	} else {
		heads = kvcalloc(1U << bits, sizeof(*heads), GFP_KERNEL);
		if (!heads)
			return;
	}
	next->heads = heads;
	next->bits = bits;
	for (i = 0; i < (1U << cur->bits); i++) {
		hlist_for_each(n, &cur->heads[i]) {
			site = kprobe_site_of_node(n, cur->which);
			hlist_add_head(&site->node[next->which],
				       &heads[hash_ptr(site->addr, bits)]);
		}
	}

	/* 3. Switch; the old table is free one grace period from now. */
	rcu_assign_pointer(kprobe_sites, next);
	kprobe_table_retired = get_state_synchronize_rcu();
}

/**
 * kprobe_sites_reserve_locked - make room for more sites
 * @more: how many sites may be hashed before the next call
 *
 * Called before a batch takes the text lock, so that hashing its sites
 * never allocates or waits.  Grows the table to one chain per site.
 */
void kprobe_sites_reserve_locked(unsigned int more)
{
	unsigned int bits = table_bits_for(kprobe_nr_sites + more);

	lockdep_assert_held(&kprobe_mutex);
	/* Up to two sites per chain before growing: no resize per call. */
	if (bits > table_locked()->bits + 1)
		table_resize_locked(bits);
}

/**
 * kprobe_sites_shrink_locked - give back the memory of a table too big
 *
 * Called by the reaper, after sites were freed: shrinks the table when it
 * has more than eight chains per site, or no site at all.  (Sites may go
 * in waves, parked ones last: the wave before may have left it just under
 * eight times too big.)
 */
void kprobe_sites_shrink_locked(void)
{
	unsigned int bits = table_bits_for(kprobe_nr_sites);
	unsigned int cur = table_locked()->bits;

	lockdep_assert_held(&kprobe_mutex);
	if (bits + 3 <= cur || (!kprobe_nr_sites && bits < cur))
		table_resize_locked(bits);
}

/**
 * kprobe_site_hash_locked - add a site to the table
 * @site: a site not in it, whose address is set
 */
void kprobe_site_hash_locked(struct kprobe_site *site)
{
	struct kprobe_site_table *t = table_locked();

	lockdep_assert_held(&kprobe_mutex);
	hlist_add_head_rcu(&site->node[t->which],
			   &t->heads[hash_ptr(site->addr, t->bits)]);
	kprobe_nr_sites++;
}

/**
 * kprobe_site_unhash_locked - take a site out of the table
 * @site: a site in it
 *
 * Lookups that already walk its chain may still find it: it must be
 * freed no sooner than one grace period later.
 */
void kprobe_site_unhash_locked(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	hlist_del_rcu(&site->node[table_locked()->which]);
	kprobe_nr_sites--;
}

/**
 * kprobe_sites_walk_locked - call a function for every hashed site
 * @fn: the function; it may unhash the site it is given
 * @arg: passed to @fn
 */
void kprobe_sites_walk_locked(kprobe_site_fn_t fn, void *arg)
{
	struct kprobe_site_table *t = table_locked();
	struct hlist_node *n, *tmp;
	unsigned int i;

	lockdep_assert_held(&kprobe_mutex);
	for (i = 0; i < (1U << t->bits); i++) {
		hlist_for_each_safe(n, tmp, &t->heads[i])
			fn(kprobe_site_of_node(n, t->which), arg);
	}
}

/**
 * kprobe_sites_table_bits - how big the site table is, for the self-tests
 *
 * Return: log2 of its number of chains.
 */
unsigned int kprobe_sites_table_bits(void)
{
	unsigned int bits;

	mutex_lock(&kprobe_mutex);
	bits = table_locked()->bits;
	mutex_unlock(&kprobe_mutex);
	return bits;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_sites_table_bits);
