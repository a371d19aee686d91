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

#include "internal.h"

/**
 * kprobe_lookup_name - address of a symbol, as kprobes resolves it
 * @name: "sym" or "module:sym"
 * @offset: not added; kept for the callers' convenience
 *
 * Return: the address, or NULL when there is no such symbol.
 */
kprobe_opcode_t *kprobe_lookup_name(const char *name, unsigned int offset)
{
	return (kprobe_opcode_t *)kallsyms_lookup_name(name);
}

/**
 * kprobe_resolve_addr - turn a probe request into an address
 * @addr: the address asked for, or NULL
 * @sym: the symbol asked for, or NULL
 * @offset: bytes past @addr or @sym
 * @on_entry: set when the result is the entry of a function
 *
 * Return: the address to probe, or ERR_PTR(-EINVAL) when both or neither
 * of @addr and @sym are given, ERR_PTR(-ENOENT) when @sym is unknown.
 * An address that no symbol covers comes back unchanged; the address
 * check refuses it later.
 */
kprobe_opcode_t *kprobe_resolve_addr(kprobe_opcode_t *addr, const char *sym,
				     unsigned long offset, bool *on_entry)
{
	unsigned long target, func_off;

	*on_entry = false;
	if (!addr == !sym)
		return ERR_PTR(-EINVAL);

	if (sym) {
		addr = kprobe_lookup_name(sym, 0);
		if (!addr)
			return ERR_PTR(-ENOENT);
	}
	target = (unsigned long)addr + offset;

	if (!kallsyms_lookup_size_offset(target, NULL, &func_off))
		return sym ? ERR_PTR(-ENOENT) : (kprobe_opcode_t *)target;
	return arch_adjust_kprobe_addr(target - func_off, func_off, on_entry);
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
	kprobe_opcode_t *where = kprobe_resolve_addr(addr, sym, offset,
						     &on_entry);

	if (IS_ERR(where))
		return PTR_ERR(where);
	return on_entry ? 0 : -EINVAL;
}
EXPORT_SYMBOL_GPL(kprobe_on_func_entry);

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

	if (ftrace_location(addr) == addr)
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
	if (within_kprobe_blacklist(addr))
		return -EINVAL;

	/* 3. Not on text that somebody else patches. */
	if (text_owned_elsewhere(addr))
		return -EINVAL;

	/* 4. Keep the module while the site is built. */
	return pin_text_owner(addr, modp);
}
