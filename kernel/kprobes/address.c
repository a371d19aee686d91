// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: from what the user wrote to an address that may be probed.
 *
 * A request names an address, or a symbol ("sym" or "module:sym"), plus an
 * offset.  It becomes a function start plus an offset inside it, which the
 * arch may move past an entry marker, and then has to pass the checks in
 * kprobe_check_address_text_locked().
 */
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/memory.h>
#include <linux/jump_label.h>
#include <linux/static_call.h>
#include <linux/ftrace.h>
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/log2.h>
#include <linux/stringhash.h>
#include <kunit/visibility.h>

#include "internal.h"

/* kallsyms_on_each_match_symbol() callback: keep the first match. */
static int first_match(void *data, unsigned long addr)
{
	*(unsigned long *)data = addr;
	return 1;
}

/* A name's address in vmlinux, or 0. */
static unsigned long vmlinux_lookup_name(const char *name)
{
	unsigned long addr = 0;

	kallsyms_on_each_match_symbol(first_match, name, &addr);
	return addr;
}

/**
 * kprobe_lookup_name - address of a symbol, as kprobes resolves it
 * @name: "sym" or "module:sym"
 * @offset: not added; kept for the callers' convenience
 *
 * The answer of kallsyms_lookup_name(), found in the module symbol index
 * (modsyms.c) when the name is not in vmlinux and the index is current.
 *
 * Context: process context.
 *
 * Return: the address, or NULL when there is no such symbol.
 */
kprobe_opcode_t *kprobe_lookup_name(const char *name, unsigned int offset)
{
	unsigned long addr;

	might_sleep();
	/* kallsyms has no empty name, but modules have unnamed symbols. */
	if (!*name)
		return NULL;
	addr = vmlinux_lookup_name(name);
	if (!addr && !kprobe_modsyms_lookup(name, &addr))
		addr = kallsyms_lookup_name(name);
	return (kprobe_opcode_t *)addr;
}

/*
 * The names of a registration, looked up before it takes the kprobe
 * mutex.  kallsyms_lookup_name() is a binary search that decompresses a
 * score of names, and for a module's symbol then a walk of every
 * module's symbols; a tool that probes every function of the kernel, or
 * of a module, by name would pay that per probe.  So:
 *
 *   - a small batch looks each name up in vmlinux;
 *   - from KPROBE_SYMS_BATCH probes on, the batch's distinct names go
 *     into a hash table instead, and one walk of the vmlinux symbols
 *     answers for them all (the first match of a name is the one
 *     kallsyms_lookup_name() returns);
 *   - a name vmlinux does not have, and a "module:sym" name, need the
 *     module symbol index: it is made current here, where module_mutex
 *     may be taken, and answers in constant time;
 *   - a name nothing answered for is looked up alone, under the mutex,
 *     with the same result.
 */
/* The slot of @name in the table, empty (0) or holding it. */
static unsigned int *syms_slot(struct kprobe_syms *syms, const char *name,
			       u32 hash)
{
	unsigned int i = hash & syms->mask;

	while (syms->slots[i] &&
	       strcmp(syms->syms[syms->slots[i] - 1].name, name))
		i = (i + 1) & syms->mask;
	return &syms->slots[i];
}

static int syms_fill_one(void *data, const char *name, unsigned long addr)
{
	struct kprobe_syms *syms = data;
	unsigned int *slot = syms_slot(syms, name,
				       hashlen_hash(hashlen_string(NULL, name)));
	struct kprobe_sym *e;

	if (!*slot)
		return 0;
	e = &syms->syms[*slot - 1];
	if (!e->addr) {
		e->addr = addr;
		/* All found: stop the walk. */
		if (++syms->found == syms->nr)
			return 1;
	}
	return 0;
}

/*
 * Step 1 of kprobe_syms_lookup(): the plain names, each once when there
 * is a hash table.  Return: whether some name is "module:sym".
 */
static bool syms_add_names(struct kprobe_syms *syms, void *const *objs,
			   int num, size_t kp_offset)
{
	bool qualified = false;
	unsigned int *slot;
	int i;

	for (i = 0; i < num; i++) {
		const struct kprobe *p = objs[i] + kp_offset;
		const char *name = p->symbol_name;

		syms->of[i] = 0;
		if (!name)
			continue;
		if (strchr(name, ':')) {
			qualified = true;
			continue;
		}
		if (!syms->slots) {
			syms->syms[syms->nr].name = name;
			syms->of[i] = ++syms->nr;
			continue;
		}
		slot = syms_slot(syms, name,
				 hashlen_hash(hashlen_string(NULL, name)));
		if (!*slot) {
			syms->syms[syms->nr].name = name;
			*slot = ++syms->nr;
		}
		syms->of[i] = *slot;
	}
	return qualified;
}

/* Step 2 for a small batch: each name by kallsyms' binary search. */
static void syms_fill_each(struct kprobe_syms *syms)
{
	unsigned int i;

	for (i = 0; i < syms->nr; i++) {
		syms->syms[i].addr = vmlinux_lookup_name(syms->syms[i].name);
		if (syms->syms[i].addr)
			syms->found++;
	}
}

/* Step 3: the names vmlinux does not have, from the module index. */
static void syms_fill_modules(struct kprobe_syms *syms)
{
	unsigned int i;

	for (i = 0; i < syms->nr; i++) {
		struct kprobe_sym *e = &syms->syms[i];

		if (!e->addr && kprobe_modsyms_lookup(e->name, &e->addr) &&
		    e->addr) {
			e->in_module = true;
			syms->found++;
		}
	}
}

/**
 * kprobe_syms_lookup - look up the symbols of a batch of probes at once
 * @syms: filled in; kprobe_syms_release() it after the batch
 * @objs: the objects of the batch
 * @num: how many
 * @kp_offset: where the &struct kprobe sits in each object
 *
 * Should memory be short, every name is looked up alone, with the same
 * result.
 *
 * Context: process context, not under the kprobe mutex.
 */
void kprobe_syms_lookup(struct kprobe_syms *syms, void *const *objs, int num,
			size_t kp_offset)
{
	bool qualified;
	unsigned int size;

	/* Step 3 takes module_mutex, which nests in nothing of ours. */
	lockdep_assert_not_held(&kprobe_mutex);
	memset(syms, 0, sizeof(*syms));
	/* Before any lookup: kprobe_syms_addr() checks it against later. */
	syms->modgen = kprobe_modsyms_generation();
	syms->syms = kvcalloc(num, sizeof(*syms->syms), GFP_KERNEL);
	syms->of = kvcalloc(num, sizeof(*syms->of), GFP_KERNEL);
	if (!syms->syms || !syms->of)
		goto fail;
	if (num >= KPROBE_SYMS_BATCH) {
		/* At most half full. */
		size = roundup_pow_of_two(2 * num);
		syms->slots = kvcalloc(size, sizeof(*syms->slots),
				       GFP_KERNEL);
		if (!syms->slots)
			goto fail;
		syms->mask = size - 1;
	}

	/* 1. The names. */
	qualified = syms_add_names(syms, objs, num, kp_offset);

	/* 2. Their addresses in vmlinux ... */
	if (syms->slots && syms->nr)
		kallsyms_on_each_symbol(syms_fill_one, syms);
	else
		syms_fill_each(syms);

	/* 3. ... and in the modules for those still missing. */
	if (syms->found == syms->nr && !qualified)
		return;
	kprobe_modsyms_prepare();
	syms_fill_modules(syms);
	return;

fail:
	kprobe_syms_release(syms);
	memset(syms, 0, sizeof(*syms));
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_syms_lookup);

/**
 * kprobe_syms_addr - the address found for the symbol of a batch's probe
 * @syms: as filled by kprobe_syms_lookup()
 * @i: the probe's place in the batch
 *
 * Context: under the kprobe mutex, which keeps modules from going (their
 * notifier takes it).
 *
 * Return: the address, or 0 when the probe's symbol is to be looked up
 * alone.
 */
unsigned long kprobe_syms_addr(const struct kprobe_syms *syms, int i)
{
	const struct kprobe_sym *e;

	if (!syms->of || !syms->of[i])
		return 0;
	e = &syms->syms[syms->of[i] - 1];
	/*
	 * A module found before the mutex may have gone since, and another
	 * taken its text: then look the name up again, under the mutex.
	 */
	if (e->in_module && syms->modgen != kprobe_modsyms_generation())
		return 0;
	return e->addr;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_syms_addr);

/**
 * kprobe_syms_release - free what kprobe_syms_lookup() allocated
 * @syms: as filled by kprobe_syms_lookup()
 */
void kprobe_syms_release(struct kprobe_syms *syms)
{
	kvfree(syms->syms);
	kvfree(syms->of);
	kvfree(syms->slots);
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_syms_release);

/*
 * The function kprobe_func_bounds_text_locked() found last.  Setting up a
 * probe asks about its function several times (where the probe goes,
 * where its instruction starts, what a jump there would cover, whether
 * its name is blacklisted), and in a module each answer is a walk of the
 * module's symbols.  An answer holds while the text lock is held: a
 * module cannot go then, its notifier waits for the kprobe mutex.
 * kprobe_text_unlock() forgets it.  A module function's name comes with
 * its bounds, from the same walk; a vmlinux name is looked up when asked
 * for, by a binary search.
 */
static unsigned long last_func_start, last_func_size;
static char last_func_name[KSYM_NAME_LEN];

/* kallsyms' bounds of the function around @addr, and its name if cheap. */
static bool func_lookup(unsigned long addr, unsigned long *size,
			unsigned long *off, char *name)
{
	char *modname;

	name[0] = '\0';
	if (is_module_text_address(addr))
		return kallsyms_lookup(addr, size, off, &modname, name);
	return kallsyms_lookup_size_offset(addr, size, off);
}

/**
 * kprobe_func_bounds_text_locked - the function around @addr
 * @addr: a text address
 * @size: receives the function's size, if not NULL
 * @off: receives @addr's offset in it, if not NULL
 *
 * kallsyms_lookup_size_offset() for the callers that hold the text lock,
 * which ask about one function many times in a row.
 *
 * Return: false when no symbol covers @addr.
 */
bool kprobe_func_bounds_text_locked(unsigned long addr, unsigned long *size,
				    unsigned long *off)
{
	unsigned long sz, o;

	/* The mutex keeps modules from going (see above). */
	lockdep_assert_held(&kprobe_mutex);
	lockdep_assert_held(&text_mutex);
	if (addr - last_func_start < last_func_size) {
		sz = last_func_size;
		o = addr - last_func_start;
	} else {
		/* The name is overwritten: forget the last function. */
		last_func_size = 0;
		if (!func_lookup(addr, &sz, &o, last_func_name))
			return false;
		/* Only text whose going waits for us; not BPF, not slots. */
		if (core_kernel_text(addr) || is_module_text_address(addr)) {
			last_func_start = addr - o;
			last_func_size = sz;
		}
	}
	if (size)
		*size = sz;
	if (off)
		*off = o;
	return true;
}

/**
 * kprobe_func_name_text_locked - the name of the function around @addr
 * @addr: a text address
 * @name: receives the name, KSYM_NAME_LEN bytes
 *
 * lookup_symbol_name() for the callers that hold the text lock, from the
 * walk of kprobe_func_bounds_text_locked() when it had one.
 *
 * Return: 0, or -ERANGE when no symbol covers @addr.
 */
int kprobe_func_name_text_locked(unsigned long addr, char *name)
{
	lockdep_assert_held(&text_mutex);
	if (kprobe_func_bounds_text_locked(addr, NULL, NULL) &&
	    addr - last_func_start < last_func_size && last_func_name[0]) {
		strscpy(name, last_func_name, KSYM_NAME_LEN);
		return 0;
	}
	return lookup_symbol_name(addr, name);
}

/**
 * kprobe_func_bounds_forget_text_locked - the text lock is about to go
 */
void kprobe_func_bounds_forget_text_locked(void)
{
	lockdep_assert_held(&text_mutex);
	last_func_size = 0;
}

/* The offset of @addr in its function; false when no symbol covers it. */
static bool func_offset(unsigned long addr, unsigned long *off,
			bool text_locked)
{
	if (text_locked)
		return kprobe_func_bounds_text_locked(addr, NULL, off);
	return kallsyms_lookup_size_offset(addr, NULL, off);
}

/* kprobe_resolve_addr(), with or without the text lock held. */
static kprobe_opcode_t *resolve_addr(kprobe_opcode_t *addr, const char *sym,
				     unsigned long offset,
				     unsigned long sym_addr, bool *on_entry,
				     bool text_locked)
{
	unsigned long target, func_off;

	*on_entry = false;
	if (!addr == !sym)
		return ERR_PTR(-EINVAL);

	if (sym) {
		addr = sym_addr ? (kprobe_opcode_t *)sym_addr :
				  kprobe_lookup_name(sym, 0);
		if (!addr)
			return ERR_PTR(-ENOENT);
	}
	target = (unsigned long)addr + offset;

	if (!func_offset(target, &func_off, text_locked))
		return sym ? ERR_PTR(-ENOENT) : (kprobe_opcode_t *)target;
	return arch_adjust_kprobe_addr(target - func_off, func_off, on_entry);
}

/**
 * kprobe_resolve_addr - turn a probe request into an address
 * @addr: the address asked for, or NULL
 * @sym: the symbol asked for, or NULL
 * @offset: bytes past @addr or @sym
 * @sym_addr: @sym's address if the batch looked it up
 *	(kprobe_syms_addr()), else 0
 * @on_entry: set when the result is the entry of a function
 *
 * Return: the address to probe, or ERR_PTR(-EINVAL) when both or neither
 * of @addr and @sym are given, ERR_PTR(-ENOENT) when @sym is unknown.
 * An address that no symbol covers comes back unchanged; the address
 * check refuses it later.
 */
kprobe_opcode_t *kprobe_resolve_addr(kprobe_opcode_t *addr, const char *sym,
				     unsigned long offset,
				     unsigned long sym_addr, bool *on_entry)
{
	return resolve_addr(addr, sym, offset, sym_addr, on_entry, false);
}

/**
 * kprobe_resolve_addr_text_locked - kprobe_resolve_addr() under the text lock
 * @addr: as for kprobe_resolve_addr()
 * @sym: as for kprobe_resolve_addr()
 * @offset: as for kprobe_resolve_addr()
 * @sym_addr: as for kprobe_resolve_addr()
 * @on_entry: as for kprobe_resolve_addr()
 *
 * Return: as kprobe_resolve_addr(); the function found is remembered
 * for the checks that follow (kprobe_func_bounds_text_locked()).
 */
kprobe_opcode_t *kprobe_resolve_addr_text_locked(kprobe_opcode_t *addr,
						 const char *sym,
						 unsigned long offset,
						 unsigned long sym_addr,
						 bool *on_entry)
{
	lockdep_assert_held(&text_mutex);
	return resolve_addr(addr, sym, offset, sym_addr, on_entry, true);
}

/**
 * kprobe_on_func_entry - is a probe request on a function's entry?
 * @addr: the address, or NULL
 * @sym: the symbol, or NULL
 * @offset: bytes past @addr or @sym
 *
 * Return: 0 when it is, -EINVAL when it is not (or the request is
 * malformed), -ENOENT when the symbol cannot be found.
 */
int kprobe_on_func_entry(kprobe_opcode_t *addr, const char *sym,
			 unsigned long offset)
{
	bool on_entry;
	kprobe_opcode_t *where = kprobe_resolve_addr(addr, sym, offset, 0,
						     &on_entry);

	if (IS_ERR(where))
		return PTR_ERR(where);
	return on_entry ? 0 : -EINVAL;
}
EXPORT_SYMBOL_GPL(kprobe_on_func_entry);

#ifdef CONFIG_DYNAMIC_FTRACE
/*
 * Is @addr an ftrace call site itself?  Unlike ftrace_location(), which
 * looks the function up in kallsyms when @addr is no call site (in a
 * module, a walk of its symbols), this looks at ftrace's records only.
 */
static bool is_ftrace_call_site(unsigned long addr)
{
	return ftrace_location_range(addr, addr) == addr;
}
#else
static bool is_ftrace_call_site(unsigned long addr)
{
	return false;
}
#endif

/*
 * Text that another subsystem rewrites at run time.  An ftrace call site
 * itself is fine when probes there go through ftrace (ftrace.c); an
 * address inside the call is not an instruction boundary, which the arch
 * refuses with -EILSEQ.  A call site is nothing else's: the other checks,
 * which walk whole tables, are skipped for the function entries that
 * tools probe by the thousand.
 */
static bool text_owned_elsewhere(unsigned long addr)
{
	void *p = (void *)addr;

	if (is_ftrace_call_site(addr))
		return !IS_ENABLED(CONFIG_KPROBES_ON_FTRACE);
	return jump_label_text_reserved(p, p) ||
	       static_call_text_reserved(p, p) ||
	       find_bug(addr);
}

#ifdef CONFIG_MODULES
/* Is @addr init text of a module that finished init (about to be freed)? */
static bool module_init_text_going(struct module *mod, unsigned long addr)
{
	return within_module_init(addr, mod) &&
	       mod->state != MODULE_STATE_COMING;
}
#else
static bool module_init_text_going(struct module *mod, unsigned long addr)
{
	return false;		/* no module text: never reached */
}
#endif

/* Pin the module that owns @addr, if any, while the probe is set up. */
static int pin_text_owner(unsigned long addr, struct module **modp)
{
	struct module *mod;
	int ret = 0;

	preempt_disable();
	mod = __module_text_address(addr);
	if (mod && !try_module_get(mod))
		ret = -ENOENT;		/* the module is on its way out */
	preempt_enable();
	if (ret || !mod)
		return ret;

	if (module_init_text_going(mod, addr)) {
		module_put(mod);
		return -ENOENT;
	}
	*modp = mod;
	return 0;
}

/**
 * kprobe_check_address_text_locked - may a probe be placed at @addr?
 * @addr: the address
 * @modp: receives the module that owns @addr, with a reference held,
 *	or NULL for core kernel text
 *
 * Called under kprobe_text_lock(), so that jump labels and static calls
 * cannot change while we look at them.
 *
 * Return: 0, -EINVAL when the address is not probeable text, or -ENOENT
 * when its module is going away.
 */
int kprobe_check_address_text_locked(unsigned long addr, struct module **modp)
{
	lockdep_assert_held(&text_mutex);
	*modp = NULL;

	/* 1. Kernel or module text, and not one of our own slots. */
	if (!core_kernel_text(addr) && !is_module_text_address(addr))
		return -EINVAL;

	/* 2. Never where kprobes or the arch say no. */
	if (kprobe_blacklisted_text_locked(addr))
		return -EINVAL;

	/* 3. Not on text that somebody else patches. */
	if (text_owned_elsewhere(addr))
		return -EINVAL;

	/* 4. Keep the module while the site is built. */
	return pin_text_owner(addr, modp);
}
