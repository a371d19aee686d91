// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: an index of the modules' symbol names.
 *
 * kallsyms finds a vmlinux name by a binary search, but a module's name
 * by comparing it with every symbol of every module in turn.  A tool that
 * puts a probe on each function of a module (ext4_*, one kprobe event at
 * a time) pays that walk once per probe.  This file keeps, on demand, a
 * hash of the names every module had when it was built, which answers
 * such a lookup in constant time:
 *
 *   - it is built in one walk of the modules' symbols, with copies of
 *     the names (a module's init symbol table is freed when it goes live;
 *     its names must not be referenced);
 *   - any module coming, going live or going makes it stale: a stale
 *     index answers nothing, and the next registration that needs it
 *     builds a new one;
 *   - an answer is taken only when the address is text outside init of
 *     a live module with its final symbol table.  Then it is the answer
 *     of kallsyms_lookup_name(): the walk met the names in the order
 *     kallsyms compares them, and it keeps every match, so the first one
 *     is the same.  Anything else (init text, data, a module coming or
 *     going) falls back to kallsyms.  "Not found" is an answer too: the
 *     index has every name of every module kallsyms had since the last
 *     event, except one that kallsyms shows between its formation and
 *     its COMING notifier, before anything of it has run;
 *   - it is freed after KPROBE_MODSYMS_IDLE without use.
 *
 * Building takes module_mutex (module_kallsyms_on_each_symbol()), so it
 * happens before registration takes the kprobe mutex; lookups are RCU
 * readers and may run anywhere a registration does.
 */
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/log2.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/stringhash.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include "internal.h"

/* How long an unused index is kept. */
#define KPROBE_MODSYMS_IDLE	(10 * HZ)

struct modsym {
	unsigned long addr;
	u32 hash;
	u32 name;		/* offset in names */
};

struct modsyms_index {
	unsigned long gen;	/* kprobe_modsyms_gen when the walk began */
	struct modsym *syms;	/* in the walk's order */
	char *names;
	u32 *slots;		/* open addressing: 1 + index in syms, or 0 */
	u32 mask;
	struct rcu_head rcu;
};

/* The building of the index. */
struct modsyms_build {
	struct modsym *syms;
	char *names;
	u32 nr, cap;
	size_t len, room;
	bool failed;
};

static struct modsyms_index __rcu *kprobe_modsyms;
static DEFINE_MUTEX(kprobe_modsyms_mutex);
/* Moved by every module event: an index of an older one is stale. */
static atomic_long_t kprobe_modsyms_gen;
static unsigned long kprobe_modsyms_used;	/* jiffies */
static unsigned long kprobe_modsyms_builds;

static void modsyms_idle_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(kprobe_modsyms_idle_work, modsyms_idle_fn);

static u32 modsym_hash(const char *name, size_t len)
{
	return full_name_hash(NULL, name, len);
}

static void modsyms_free(struct modsyms_index *idx)
{
	kvfree(idx->syms);
	kvfree(idx->names);
	kvfree(idx->slots);
	kfree(idx);
}

static void modsyms_free_rcu(struct rcu_head *head)
{
	modsyms_free(container_of(head, struct modsyms_index, rcu));
}

/* Replace the index with @idx (or none). */
static void modsyms_replace_locked(struct modsyms_index *idx)
{
	struct modsyms_index *old;

	lockdep_assert_held(&kprobe_modsyms_mutex);
	old = rcu_replace_pointer(kprobe_modsyms, idx,
				  lockdep_is_held(&kprobe_modsyms_mutex));
	if (old)
		call_rcu(&old->rcu, modsyms_free_rcu);
}

/* Grow the arrays of @b to hold one more name of @len bytes. */
static bool modsyms_grow(struct modsyms_build *b, size_t len)
{
	void *p;

	if (b->nr == b->cap) {
		u32 cap = b->cap ? 2 * b->cap : 1024;

		p = kvrealloc(b->syms, array_size(cap, sizeof(*b->syms)),
			      GFP_KERNEL);
		if (!p)
			return false;
		b->syms = p;
		b->cap = cap;
	}
	if (b->len + len + 1 > b->room) {
		size_t room = max(2 * b->room, (size_t)16384);

		p = kvrealloc(b->names, room, GFP_KERNEL);
		if (!p)
			return false;
		b->names = p;
		b->room = room;
	}
	return true;
}

/* module_kallsyms_on_each_symbol() callback: note one symbol. */
static int modsyms_add_one(void *data, const char *name, unsigned long addr)
{
	struct modsyms_build *b = data;
	size_t len = strlen(name);
	struct modsym *s;

	/* Names longer than 4 GiB, or more than 2^30 symbols: give up. */
	if (b->nr >= U32_MAX / 4 || b->len + len + 1 > U32_MAX ||
	    !modsyms_grow(b, len)) {
		b->failed = true;
		return 1;
	}
	s = &b->syms[b->nr++];
	s->addr = addr;
	s->hash = modsym_hash(name, len);
	s->name = b->len;
	memcpy(b->names + b->len, name, len + 1);
	b->len += len + 1;
	return 0;
}

/*
 * Build an index of every module's symbols, as of generation @gen.
 * Return: the index, or NULL when memory is short.
 */
static struct modsyms_index *modsyms_build(unsigned long gen)
{
	struct modsyms_build b = {};
	struct modsyms_index *idx;
	u32 i, size;

	/* 1. One walk of the modules' symbols, in kallsyms' order. */
	module_kallsyms_on_each_symbol(NULL, modsyms_add_one, &b);
	idx = kzalloc(sizeof(*idx), GFP_KERNEL);
	if (b.failed || !idx)
		goto fail;

	/* 2. The hash table, at most half full. */
	size = roundup_pow_of_two(max(2 * b.nr, 16U));
	idx->slots = kvcalloc(size, sizeof(*idx->slots), GFP_KERNEL);
	if (!idx->slots)
		goto fail;
	idx->mask = size - 1;

	/*
	 * 3. Insert in walk order: along a name's probe sequence its
	 *    matches then come in that order too.
	 */
	for (i = 0; i < b.nr; i++) {
		u32 slot = b.syms[i].hash & idx->mask;

		while (idx->slots[slot])
			slot = (slot + 1) & idx->mask;
		idx->slots[slot] = i + 1;
	}
	idx->syms = b.syms;
	idx->names = b.names;
	idx->gen = gen;
	return idx;

fail:
	if (idx)
		kvfree(idx->slots);
	kfree(idx);
	kvfree(b.syms);
	kvfree(b.names);
	return NULL;
}

/**
 * kprobe_modsyms_prepare - make the module symbol index current
 *
 * For a registration about to look up names that are not in vmlinux.
 * Does nothing when the index is current; otherwise builds it, in one
 * walk of the modules' symbols.  Should memory be short, there is no
 * index, and lookups fall back to kallsyms.
 *
 * Context: process context, not under the kprobe mutex (module_mutex is
 * taken).
 */
void kprobe_modsyms_prepare(void)
{
	struct modsyms_index *idx;
	unsigned long gen;

	might_sleep();
	lockdep_assert_not_held(&kprobe_mutex);
	mutex_lock(&kprobe_modsyms_mutex);
	WRITE_ONCE(kprobe_modsyms_used, jiffies);
	gen = atomic_long_read(&kprobe_modsyms_gen);
	idx = rcu_dereference_protected(kprobe_modsyms,
					lockdep_is_held(&kprobe_modsyms_mutex));
	if (!idx || idx->gen != gen) {
		/* A module event during the walk leaves the new one stale. */
		modsyms_replace_locked(modsyms_build(gen));
		WRITE_ONCE(kprobe_modsyms_builds, kprobe_modsyms_builds + 1);
		schedule_delayed_work(&kprobe_modsyms_idle_work,
				      KPROBE_MODSYMS_IDLE);
	}
	mutex_unlock(&kprobe_modsyms_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_modsyms_prepare);

/*
 * May the index's answer @addr stand for @modname's (any module's when
 * NULL)?  Only if it is text outside init of a module that is live with
 * its final symbol table (see the top of the file).  A module between
 * its formation and its LIVE notifier's aftermath is not: the notifiers
 * do not see each of those steps.
 */
static bool modsym_answer_ok(unsigned long addr, const char *modname,
			     size_t modlen)
{
	struct module *mod;
	bool ok;

	preempt_disable();
	mod = __module_text_address(addr);
	ok = mod && mod->state == MODULE_STATE_LIVE &&
	     rcu_access_pointer(mod->kallsyms) == &mod->core_kallsyms &&
	     !within_module_init(addr, mod) &&
	     (!modname || (strlen(mod->name) == modlen &&
			   !memcmp(mod->name, modname, modlen)));
	preempt_enable();
	return ok;
}

/**
 * kprobe_modsyms_lookup - a module symbol's address, from the index
 * @name: "sym" or "module:sym"
 * @addr: receives the address, or 0 when no module has @name
 *
 * Return: true when the index answered, false when the caller must ask
 * kallsyms (no current index, or an answer the index cannot vouch for).
 * An answer is the one module_kallsyms_lookup_name() gives.
 */
bool kprobe_modsyms_lookup(const char *name, unsigned long *addr)
{
	const char *modname = NULL;
	const char *colon = strnchr(name, MODULE_NAME_LEN, ':');
	size_t modlen = 0, len;
	struct modsyms_index *idx;
	bool answered = false;
	u32 hash, slot, e;

	if (colon) {
		modname = name;
		modlen = colon - name;
		name = colon + 1;
	}
	/* Unnamed symbols are in no index: let kallsyms answer. */
	if (!*name)
		return false;
	len = strlen(name);
	hash = modsym_hash(name, len);

	rcu_read_lock();
	idx = rcu_dereference(kprobe_modsyms);
	if (!idx || idx->gen != atomic_long_read(&kprobe_modsyms_gen))
		goto out;
	*addr = 0;
	answered = true;
	for (slot = hash & idx->mask; (e = idx->slots[slot]);
	     slot = (slot + 1) & idx->mask) {
		const struct modsym *s = &idx->syms[e - 1];

		if (s->hash != hash || strcmp(idx->names + s->name, name))
			continue;
		/*
		 * The first match is kallsyms' answer, if the index can
		 * vouch for it.  For "module:sym", a match in another module
		 * is skipped: ask kallsyms when it could be this module's
		 * in a form the index cannot check.
		 */
		if (modsym_answer_ok(s->addr, modname, modlen)) {
			*addr = s->addr;
			break;
		}
		if (!modname || !modsym_answer_ok(s->addr, NULL, 0)) {
			answered = false;
			break;
		}
	}
out:
	rcu_read_unlock();
	return answered;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_modsyms_lookup);

/**
 * kprobe_modsyms_generation - the count of module events so far
 *
 * An address found in a module stays valid while this does not move:
 * every module that goes says so first (MODULE_STATE_GOING).
 *
 * Return: the count.
 */
unsigned long kprobe_modsyms_generation(void)
{
	return atomic_long_read(&kprobe_modsyms_gen);
}

/**
 * kprobe_modsyms_build_count - how many times the index was built
 *
 * Return: the count, for the KUnit suites.
 */
unsigned long kprobe_modsyms_build_count(void)
{
	return READ_ONCE(kprobe_modsyms_builds);
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_modsyms_build_count);

/* Free the index once it has not been used for KPROBE_MODSYMS_IDLE. */
static void modsyms_idle_fn(struct work_struct *work)
{
	unsigned long idle_at;

	mutex_lock(&kprobe_modsyms_mutex);
	idle_at = READ_ONCE(kprobe_modsyms_used) + KPROBE_MODSYMS_IDLE;
	if (time_before(jiffies, idle_at))
		schedule_delayed_work(&kprobe_modsyms_idle_work,
				      idle_at - jiffies);
	else
		modsyms_replace_locked(NULL);
	mutex_unlock(&kprobe_modsyms_mutex);
}

/**
 * kprobe_modsyms_module_event - a module comes, goes live or goes
 *
 * Makes the index stale.  Called from the kprobes module notifier before
 * it takes the kprobe mutex, so that whoever holds the mutex and still
 * sees the generation it read earlier knows no module went meanwhile
 * (kprobe_syms_addr()).
 */
void kprobe_modsyms_module_event(void)
{
	/* Every state change adds, drops or swaps a symbol table. */
	atomic_long_inc(&kprobe_modsyms_gen);
}
