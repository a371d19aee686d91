/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _LINUX_KWATCH_H
#define _LINUX_KWATCH_H
/*
 * Kernel watchpoint probes: call a handler when the CPU touches a kernel
 * address, on every CPU, through the debug registers.  Built on the
 * kernel's hw_breakpoint layer, which shares the registers with perf and
 * ptrace.  See Documentation/trace/kwatch.rst.
 */
#include <linux/errno.h>
#include <linux/types.h>
#include <uapi/linux/hw_breakpoint.h>

struct kwatch;
struct perf_event;
struct pt_regs;

/*
 * Called on the CPU that made the access, with its registers: before an
 * instruction at a watched address executes, and for a data access, after
 * it where data watchpoints trap (x86) or before it where they fault
 * (arm64: the access completes once the handler returns).  It runs in
 * the debug exception: NMI-like context, it must not sleep or take locks
 * that an NMI may not.
 */
typedef void (*kwatch_handler_t)(struct kwatch *kw, struct pt_regs *regs);

/* The kinds of access: the kernel's hw_breakpoint types. */
#define KWATCH_WRITE	HW_BREAKPOINT_W
#define KWATCH_RW	HW_BREAKPOINT_RW
#define KWATCH_EXEC	HW_BREAKPOINT_X

/* At most this many watches at a time: one per debug register. */
#define KWATCH_MAX	4

/**
 * struct kwatch - one watchpoint; read-only for its handler
 * @addr: the first watched byte
 * @length: how many bytes (data), or the length the architecture wants
 *	for an instruction (x86: sizeof(long); arm64 takes any)
 * @type: %KWATCH_WRITE, %KWATCH_RW or %KWATCH_EXEC
 * @handler: what runs on a hit
 * @events: the hw_breakpoint of each online CPU (private)
 * @cpuhp_node: the watch as an instance of kprobes' CPU hotplug state,
 *	whose callbacks create and free @events (private)
 * @live: hits call @handler: set once the watch is on every CPU, clear
 *	from the start of unregistration (private)
 */
struct kwatch {
	unsigned long addr;
	u8 length;
	u8 type;
	kwatch_handler_t handler;
	/* private: */
	struct perf_event * __percpu *events;
	struct hlist_node cpuhp_node;
	bool live;
};

#if IS_ENABLED(CONFIG_KPROBES) && IS_ENABLED(CONFIG_HAVE_HW_BREAKPOINT)
int register_kwatch(unsigned long addr, u8 length, u8 type,
		    kwatch_handler_t handler);
int unregister_kwatch(int debugreg);
bool is_kwatch_event(struct perf_event *bp);
#else
static inline int register_kwatch(unsigned long addr, u8 length, u8 type,
				  kwatch_handler_t handler)
{
	return -EOPNOTSUPP;
}

static inline int unregister_kwatch(int debugreg)
{
	return -EINVAL;
}

static inline bool is_kwatch_event(struct perf_event *bp)
{
	return false;
}
#endif

#endif /* _LINUX_KWATCH_H */
