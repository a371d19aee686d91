// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: modules coming and going.  Each event first makes the
 * module symbol index stale (modsyms.c); then, under the kprobe mutex:
 *
 *   COMING  read the module's blacklist before anyone can probe it;
 *   LIVE    its init text is about to be freed: probes there are gone;
 *   GOING   all of its text is about to be freed: probes there are gone,
 *           and its blacklist is dropped.
 *
 * Gone probes stay registered until their owners unregister them.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/init.h>

#include "internal.h"

static bool addr_in_module_init(unsigned long addr, void *mod)
{
	return within_module_init(addr, mod);
}

static bool addr_in_module(unsigned long addr, void *mod)
{
	return within_module(addr, mod);
}

static int kprobes_module_notify(struct notifier_block *nb,
				 unsigned long state, void *data)
{
	struct module *mod = data;

	/* Before the mutex: see kprobe_modsyms_module_event(). */
	kprobe_modsyms_module_event();
	mutex_lock(&kprobe_mutex);
	switch (state) {
	case MODULE_STATE_COMING:
		kprobe_blacklist_add_module_locked(mod);
		break;
	case MODULE_STATE_LIVE:
		kprobes_kill_matching_locked(addr_in_module_init, mod);
		break;
	case MODULE_STATE_GOING:
		kprobes_kill_matching_locked(addr_in_module, mod);
		kprobe_blacklist_remove_module_locked(mod);
		break;
	}
	mutex_unlock(&kprobe_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block kprobes_module_nb = {
	.notifier_call = kprobes_module_notify,
	/*
	 * First of all module notifiers: a tracer that registers probes on
	 * a module from its own COMING notifier (trace_kprobe does) finds
	 * the module's names and its blacklist already in place.
	 */
	.priority = INT_MAX,
};

static int __init kprobes_module_init(void)
{
	return register_module_notifier(&kprobes_module_nb);
}
early_initcall(kprobes_module_init);
