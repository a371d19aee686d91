// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel watchpoint probes (register_kwatch()).
 *
 * A watch is one hw_breakpoint per online CPU, all with the same address,
 * length and type, created through perf like any other kernel breakpoint:
 * the hw_breakpoint layer decides which debug register each CPU uses and
 * refuses a watch when perf or ptrace users already hold them all.
 *
 * Each watch is an instance of one multi-instance CPU hotplug state
 * (kwatch_hp_state, at CPUHP_AP_ONLINE_DYN): the state's startup
 * callback gives a CPU the watch's breakpoint, its teardown takes it
 * back.  The hotplug core calls them for every CPU that is past the state
 * when a watch comes or goes, and for each watch when a CPU crosses it,
 * so a CPU has exactly one breakpoint per watch while it is past the
 * state, and none below it, a CPU parked half-way included.  A CPU that
 * cannot get a watch's breakpoint does not come online.
 *
 * A watch's handler runs only while ->live is set: from the moment every
 * CPU has the breakpoint to the start of unregistration.  A registration
 * that fails half-way has then run no handler.
 *
 * The number register_kwatch() returns is the watch's index in a table of
 * KWATCH_MAX, one per debug register, as the interface it implements has
 * it; which register a CPU really uses is the hw_breakpoint layer's
 * business.
 *
 * Locking: kwatch_mutex protects the table (the _locked functions here
 * are called with it, not with kprobe_mutex); it is taken before the CPU
 * hotplug lock.  The hotplug callbacks run with the hotplug lock and
 * touch only their CPU's breakpoint of one watch.  Handlers run in the
 * debug exception and take nothing.
 */
#include <linux/kwatch.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/hw_breakpoint.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "internal.h"

static DEFINE_MUTEX(kwatch_mutex);
static struct kwatch kwatch_table[KWATCH_MAX];
/* The dynamic hotplug state whose instances the watches are, or an error. */
static int kwatch_hp_state = -ENODEV;

/* Is table entry @kw taken?  kwatch_mutex held. */
static bool kwatch_used_locked(struct kwatch *kw)
{
	lockdep_assert_held(&kwatch_mutex);
	return kw->handler;
}

/* perf's overflow callback: a hit on one CPU (debug exception context). */
static void kwatch_triggered(struct perf_event *bp,
			     struct perf_sample_data *data,
			     struct pt_regs *regs)
{
	struct kwatch *kw = bp->overflow_handler_context;

	if (READ_ONCE(kw->live))
		kw->handler(kw, regs);
}

NOKPROBE_SYMBOL(kwatch_triggered);

/**
 * is_kwatch_event - is @bp the breakpoint of a kernel watchpoint probe?
 * @bp: a hw_breakpoint perf event
 *
 * For the architectures that report a hit before the access: they step
 * over the access of such a breakpoint as over that of perf's own events.
 * Context: the debug exception.
 *
 * Return: true when a watch created @bp.
 */
bool is_kwatch_event(struct perf_event *bp)
{
	return bp->overflow_handler == kwatch_triggered;
}

NOKPROBE_SYMBOL(is_kwatch_event);

/* Hotplug startup: give @cpu the breakpoint of watch @node. */
static int kwatch_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct kwatch *kw = hlist_entry(node, struct kwatch, cpuhp_node);
	struct perf_event_attr attr;
	struct perf_event *bp;

	hw_breakpoint_init(&attr);
	attr.bp_addr = kw->addr;
	attr.bp_len = kw->length;
	attr.bp_type = kw->type;
	bp = perf_event_create_kernel_counter(&attr, cpu, NULL,
					      kwatch_triggered, kw);
	if (IS_ERR(bp))
		return PTR_ERR(bp);
	*per_cpu_ptr(kw->events, cpu) = bp;
	return 0;
}

/*
 * Hotplug teardown: take back @cpu's breakpoint of watch @node.  Freeing
 * it takes it off the CPU by a cross-call, which cannot be taken while
 * that CPU is in the debug exception: a handler running there is done
 * first.
 */
static int kwatch_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct kwatch *kw = hlist_entry(node, struct kwatch, cpuhp_node);
	struct perf_event **bp = per_cpu_ptr(kw->events, cpu);

	if (*bp) {
		unregister_hw_breakpoint(*bp);
		*bp = NULL;
	}
	return 0;
}

/* What the hw_breakpoint layer cannot tell apart from a user's mistake. */
static int kwatch_check(unsigned long addr, u8 length, u8 type,
			kwatch_handler_t handler)
{
	if (!handler)
		return -EINVAL;
	if (type != KWATCH_WRITE && type != KWATCH_RW && type != KWATCH_EXEC)
		return -EINVAL;
	if (length != 1 && length != 2 && length != 4 && length != 8)
		return -EINVAL;
	/* Data ranges are naturally aligned; the arch checks instructions. */
	if (type != KWATCH_EXEC && !IS_ALIGNED(addr, length))
		return -EINVAL;
	/* Kernel addresses only: a user one would fire in every task. */
	if (addr < TASK_SIZE_MAX)
		return -EINVAL;
	return 0;
}

/**
 * register_kwatch - call @handler when the kernel touches @addr
 * @addr: a kernel address
 * @length: data: 1, 2, 4 or 8 bytes, @addr aligned to it; an instruction:
 *	the length the architecture's hw_breakpoint code requires
 * @type: %KWATCH_WRITE (writes), %KWATCH_RW (reads and writes) or
 *	%KWATCH_EXEC (execution of the instruction at @addr)
 * @handler: called on every CPU that makes such an access, in the debug
 *	exception: before an instruction; after a data access on x86,
 *	before it on arm64
 *
 * The watch is armed on every online CPU, and on CPUs that come online
 * later, until unregister_kwatch(); a CPU that cannot be given it does
 * not come online.  (A CPU parked between offline and online through the
 * hotplug state control counts as online only past the point where the
 * watches are armed.)  Context: process, may sleep.
 *
 * Return: the watch's number, 0 to KWATCH_MAX - 1; -EINVAL for a bad
 * address, length, type or handler, -EBUSY when KWATCH_MAX watches
 * exist, -ENOMEM, or the hw_breakpoint layer's error (-ENOSPC when perf
 * or ptrace hold the debug registers this one would need, -EINVAL for
 * what the architecture refuses).  Nothing changes on an error, and the
 * handler has not run.
 */
int register_kwatch(unsigned long addr, u8 length, u8 type,
		    kwatch_handler_t handler)
{
	struct kwatch *kw = NULL;
	int i, ret;

	ret = kwatch_check(addr, length, type, handler);
	if (ret)
		return ret;
	if (kwatch_hp_state < 0)
		return kwatch_hp_state;

	mutex_lock(&kwatch_mutex);
	/* 1. A free table entry. */
	for (i = 0; i < KWATCH_MAX; i++) {
		if (!kwatch_used_locked(&kwatch_table[i])) {
			kw = &kwatch_table[i];
			break;
		}
	}
	ret = -EBUSY;
	if (!kw)
		goto out;

	/* 2. Fill it in, not yet live: breakpoints fire once they exist. */
	ret = -ENOMEM;
	kw->events = alloc_percpu(struct perf_event *);
	if (!kw->events)
		goto out;
	kw->addr = addr;
	kw->length = length;
	kw->type = type;
	kw->handler = handler;

	/* 3. A breakpoint on each online CPU, all or none. */
	ret = cpuhp_state_add_instance(kwatch_hp_state, &kw->cpuhp_node);
	if (ret) {
		free_percpu(kw->events);
		memset(kw, 0, sizeof(*kw));
		goto out;
	}

	/* 4. Hits call the handler from now on. */
	WRITE_ONCE(kw->live, true);
	ret = i;
out:
	mutex_unlock(&kwatch_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(register_kwatch);

/**
 * unregister_kwatch - remove a watch
 * @debugreg: what register_kwatch() returned
 *
 * When this returns, the handler is not running and will not run again
 * for this watch.  Context: process, may sleep.
 *
 * Return: 0, or -EINVAL when @debugreg is not a watch that exists.
 */
int unregister_kwatch(int debugreg)
{
	struct kwatch *kw;
	int ret = -EINVAL;

	if (debugreg < 0 || debugreg >= KWATCH_MAX)
		return -EINVAL;
	mutex_lock(&kwatch_mutex);
	kw = &kwatch_table[debugreg];
	if (kwatch_used_locked(kw)) {
		/* 1. Hits that still come call nothing. */
		WRITE_ONCE(kw->live, false);
		/* 2. Every CPU's breakpoint goes, each after its last hit. */
		cpuhp_state_remove_instance(kwatch_hp_state, &kw->cpuhp_node);
		/* 3. Nothing refers to the entry any more. */
		free_percpu(kw->events);
		memset(kw, 0, sizeof(*kw));
		ret = 0;
	}
	mutex_unlock(&kwatch_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(unregister_kwatch);

static const char *kwatch_type_name(u8 type)
{
	switch (type) {
	case KWATCH_WRITE:
		return "WRITE";
	case KWATCH_RW:
		return "RW";
	default:
		return "EXEC";
	}
}

/**
 * kwatch_show_all - the debugfs list lines of the watches
 * @m: the list file
 * @show_addr: may the reader see addresses?
 *
 * Type letter w; tags: the access type and the length, e.g. [WRITE][8].
 */
void kwatch_show_all(struct seq_file *m, bool show_addr)
{
	struct kwatch *kw;
	int i;

	mutex_lock(&kwatch_mutex);
	for (i = 0; i < KWATCH_MAX; i++) {
		kw = &kwatch_table[i];
		if (!kwatch_used_locked(kw))
			continue;
		kprobes_show_addr(m, kw->addr, 'w', show_addr);
		seq_printf(m, "[%s][%u]\n", kwatch_type_name(kw->type),
			   kw->length);
	}
	mutex_unlock(&kwatch_mutex);
}

static int __init kwatch_init(void)
{
	kwatch_hp_state = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
						  "kprobes/kwatch",
						  kwatch_cpu_online,
						  kwatch_cpu_offline);
	return kwatch_hp_state < 0 ? kwatch_hp_state : 0;
}
core_initcall(kwatch_init);
