/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _LINUX_KPROBES_H
#define _LINUX_KPROBES_H
/*
 * Kprobes: dynamic breakpoints in kernel text.
 *
 * A kprobe names one instruction (by address, or by symbol plus offset).
 * Registering it replaces the start of that instruction with the
 * architecture's breakpoint.  When a CPU reaches the breakpoint, the
 * probe's @pre_handler runs, the original instruction is executed on the
 * side (out of line in an executable slot, or emulated), the
 * @post_handler runs, and execution continues after the instruction as
 * if nothing had happened.
 *
 * Any number of kprobes may name the same instruction.  They share one
 * &struct kprobe_site, which owns the breakpoint and the copy of the
 * instruction; each probe keeps its own handlers, flags and miss count.
 *
 * Handlers run with preemption disabled and must not sleep (user-space
 * probes, <linux/kprobe_user.h>, are the exception).  A
 * breakpoint runs them in its exception context (NMI-like on x86); the
 * other ways to a site that Documentation/trace/kprobes.rst describes
 * run them in the probed code's context, with interrupts as it had them.  A probe that is hit
 * from a handler's own flow runs no handler and counts the hit in its
 * @nmissed instead; one hit in an interrupt that came in while a handler
 * ran is a hit of its own.  Each miss is also counted by its cause.
 *
 * unregister_kprobe() returns only once no CPU can still be running one
 * of the probe's handlers, so the caller may free the probe right away.
 */
#include <linux/compiler.h>
#include <linux/linkage.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/smp.h>
#include <linux/bug.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/rcupdate.h>
#include <linux/mutex.h>
#include <linux/ftrace.h>
#include <linux/objpool.h>
#include <linux/irq_work.h>
#include <linux/workqueue.h>
#include <linux/kthread.h>
#include <linux/rethook.h>
#include <asm/kprobes.h>

#ifndef CONFIG_KPROBES
#include <asm-generic/kprobes.h>
typedef int kprobe_opcode_t;
struct arch_specific_insn {
	int dummy;
};
#endif

struct kprobe;
struct kprobe_site;
struct kprobe_user;
struct pt_regs;
struct kretprobe;
struct kretprobe_instance;

/**
 * enum kprobe_miss - why a hit ran no handler, for &kprobe.nmissed_by
 * @KPROBE_MISS_RECURSION: it came from the flow of a handler (or of a
 *	kprobe_busy_begin() section) running in the same context on its CPU
 * @KPROBE_MISS_DEPTH: an interrupt's hit found its CPU with no room left
 *	for one more nested hit (KPROBE_MAX_NESTING)
 * @KPROBE_MISS_MODE: the way the hit came in cannot run this handler: a
 *	jprobe reached through an optimized jump or ftrace's plain ops
 *	before its site moved, or a jump being taken out
 * @KPROBE_MISS_RETURN: a return probe's function returned in the flow of
 *	a handler of its context, where its return handler cannot run
 * @KPROBE_MISS_UNREGISTERING: a user-space probe hit while being
 *	unregistered
 * @KPROBE_MISS_NR: the number of causes
 *
 * A return probe's returns that found no free instance are counted in
 * &kretprobe.nmissed, as they always were.
 */
enum kprobe_miss {
	KPROBE_MISS_RECURSION,
	KPROBE_MISS_DEPTH,
	KPROBE_MISS_MODE,
	KPROBE_MISS_RETURN,
	KPROBE_MISS_UNREGISTERING,
	KPROBE_MISS_NR
};

typedef int (*kprobe_pre_handler_t)(struct kprobe *, struct pt_regs *);
typedef void (*kprobe_post_handler_t)(struct kprobe *, struct pt_regs *,
				      unsigned long flags);
typedef int (*kprobe_fault_handler_t)(struct kprobe *, struct pt_regs *,
				      int trapnr);
typedef int (*kretprobe_handler_t)(struct kretprobe_instance *,
				   struct pt_regs *);

/**
 * struct kprobe - one breakpoint handler set at one instruction
 * @hlist: never hashed by kprobes; initialised by register, so that
 *	callers can test "registered" as !list_empty(@list) ||
 *	!hlist_unhashed(@hlist).  Unregister does not initialise them
 *	again: a caller that asks after it re-initialises both first
 * @list: link in the probe's &struct kprobe_site list while registered
 * @nmissed: hits that ran no handler (see &enum kprobe_miss); cleared by
 *	register
 * @nmissed_by: @nmissed by cause, indexed by &enum kprobe_miss; their
 *	sum is @nmissed.  Cleared by register
 * @addr: the probed instruction; written by register when @symbol_name
 *	is used instead
 * @symbol_name: symbol to probe, "sym" or "module:sym"
 * @offset: byte offset from @symbol_name (or from @addr)
 * @pre_handler: runs before the instruction; returning non-zero means
 *	"I changed regs->ip": the instruction and @post_handler are skipped
 * @post_handler: runs after the instruction was executed
 * @fault_handler: runs when a handler of this probe, or the execution of
 *	the probed instruction as part of the hit (not a boosted copy),
 *	takes a fault; non-zero means "handled"
 * @opcode: the first unit of the original instruction, which the
 *	breakpoint replaces (read only)
 * @flags: KPROBE_FLAG_* bits; protected by the kprobe mutex once registered
 * @user: NULL for a kernel probe; the file and offset of a user-space
 *	probe, which goes to register_kprobe_user() (<linux/kprobe_user.h>)
 */
struct kprobe {
	struct hlist_node hlist;
	struct list_head list;
	unsigned long nmissed;
	unsigned long nmissed_by[KPROBE_MISS_NR];
	kprobe_opcode_t *addr;
	const char *symbol_name;
	unsigned int offset;
	kprobe_pre_handler_t pre_handler;
	kprobe_post_handler_t post_handler;
	kprobe_fault_handler_t fault_handler;
	kprobe_opcode_t opcode;
	u32 flags;
	struct kprobe_user *user;
};

#define KPROBE_FLAG_GONE		1	/* the probed text was freed */
#define KPROBE_FLAG_DISABLED		2	/* registered but not armed */
#define KPROBE_FLAG_OPTIMIZED		4	/* runs through a jump detour */
#define KPROBE_FLAG_FTRACE		8	/* runs through ftrace */
#define KPROBE_FLAG_ON_FUNC_ENTRY	16	/* sits on a function entry */
#define KPROBE_FLAG_ARMING		32	/* its batch is not committed yet */

static inline bool kprobe_gone(struct kprobe *p)
{
	return p->flags & KPROBE_FLAG_GONE;
}

static inline bool kprobe_disabled(struct kprobe *p)
{
	return p->flags & (KPROBE_FLAG_DISABLED | KPROBE_FLAG_GONE);
}

static inline bool kprobe_optimized(struct kprobe *p)
{
	return p->flags & KPROBE_FLAG_OPTIMIZED;
}

static inline bool kprobe_ftrace(struct kprobe *p)
{
	return p->flags & KPROBE_FLAG_FTRACE;
}

/**
 * struct jprobe - a mirror function called at a function's entry
 * @kp: the entry probe; only its address fields are the caller's
 * @entry: the mirror, a function with the probed function's prototype
 *	that ends with jprobe_return() instead of returning
 *
 * The classic kprobes interface.  The mirror runs with the probed
 * function's arguments, in the probed function's stack frame, with
 * preemption disabled; whatever it does to its arguments, the probed
 * function then runs with the original ones.
 */
struct jprobe {
	struct kprobe kp;
	void *entry;
};

struct kretprobe_pool;

/**
 * struct kretprobe - a probe on the return of a function
 * @kp: the entry probe; only its address fields are the caller's
 * @handler: runs when the probed function returns
 * @entry_handler: runs at entry; non-zero skips the return hook
 * @maxactive: instances that may be in flight at once; <= 0: as many as
 *	the calls need, the pool growing with them (see kretprobe.c)
 * @nmissed: returns that could not be hooked
 * @data_size: bytes of per-instance scratch in &kretprobe_instance.data
 * @pool: the instances, the first of their tiers; owned by kprobes while
 *	registered
 */
struct kretprobe {
	struct kprobe kp;
	kretprobe_handler_t handler;
	kretprobe_handler_t entry_handler;
	int maxactive;
	int nmissed;
	size_t data_size;
	struct kretprobe_pool *pool;
};

#define KRETPROBE_MAX_DATA_SIZE	4096

/**
 * struct kretprobe_instance - one hooked call of a return-probed function
 * @llist: link in the calling task's chain of hooked returns
 * @pool: the pool it came from and goes back to
 * @task: the task that made the call
 * @ret_addr: where the function really returns to
 * @frame: which call this is, as the architecture tells calls apart: a
 *	value it can compute both at the entry and at the return (x86: the
 *	address of the stack slot that held @ret_addr)
 * @data: the probe's data_size bytes for the handlers
 */
struct kretprobe_instance {
	struct llist_node llist;
	struct kretprobe_pool *pool;
	struct task_struct *task;
	kprobe_opcode_t *ret_addr;
	unsigned long frame;
	char data[];
};

/**
 * struct kretprobe_pool - one tier of the instances of a return probe
 * @objs: free instances (lock-free, NMI-safe)
 * @rp: the probe, or NULL once it was unregistered; instances in flight
 *	outlive the probe and free their tier when the last one comes back
 * @newer: the tier added after this one, or NULL
 * @drawn: an instance was taken from this tier while it was the newest
 * @refs: instances not yet retired, plus one while the probe is
 *	registered.  Nothing counts per hit: an instance is retired once,
 *	when the unregistration finds it at home or when it comes back
 *	after that
 * @release_iw: queues @release_rwork from any context, NMI included
 * @release_rwork: frees the tier, which may sleep, after a grace period:
 *	unwinders read instances under rcu_read_lock()
 * @grow_iw: (first tier) queues @grow_work from any context
 * @grow_work: (first tier) adds a tier, on kprobes' grow worker
 */
struct kretprobe_pool {
	struct objpool_head objs;
	struct kretprobe __rcu *rp;
	struct kretprobe_pool *newer;
	bool drawn;
	atomic_t refs;
	struct irq_work release_iw;
	struct rcu_work release_rwork;
	struct irq_work grow_iw;
	struct kthread_work grow_work;
};

static inline struct kretprobe *get_kretprobe(struct kretprobe_instance *ri)
{
	return rcu_dereference_check(ri->pool->rp, rcu_read_lock_any_held());
}

static inline unsigned long
get_kretprobe_retaddr(struct kretprobe_instance *ri)
{
	return (unsigned long)ri->ret_addr;
}

#ifdef CONFIG_KPROBES

DECLARE_PER_CPU(struct kprobe *, current_kprobe);

/* kprobe_running - the probe whose handler runs on this CPU, if any */
static inline struct kprobe *kprobe_running(void)
{
	return __this_cpu_read(current_kprobe);
}

void kprobe_busy_begin(void);
void kprobe_busy_end(void);

int register_kprobe(struct kprobe *p);
void unregister_kprobe(struct kprobe *p);
int register_kprobes(struct kprobe **kps, int num);
void unregister_kprobes(struct kprobe **kps, int num);
int enable_kprobe(struct kprobe *kp);
int disable_kprobe(struct kprobe *kp);

kprobe_opcode_t *kprobe_lookup_name(const char *name, unsigned int offset);
int kprobe_on_func_entry(kprobe_opcode_t *addr, const char *sym,
			 unsigned long offset);
bool within_kprobe_blacklist(unsigned long addr);
bool is_kprobe_insn_slot(unsigned long addr);
bool is_kprobe_optinsn_slot(unsigned long addr);
int kprobe_get_kallsym(unsigned int symnum, unsigned long *value, char *type,
		       char *sym);
void kprobe_free_init_mem(void);
void dump_kprobe(struct kprobe *kp);

int register_jprobe(struct jprobe *jp);
void unregister_jprobe(struct jprobe *jp);
int register_jprobes(struct jprobe **jps, int num);
void unregister_jprobes(struct jprobe **jps, int num);
int enable_jprobe(struct jprobe *jp);
int disable_jprobe(struct jprobe *jp);
void jprobe_return(void);
bool kprobe_is_jprobe(struct kprobe *p);

#else /* !CONFIG_KPROBES */

static inline struct kprobe *kprobe_running(void)
{
	return NULL;
}

static inline void kprobe_busy_begin(void) { }
static inline void kprobe_busy_end(void) { }

static inline int register_kprobe(struct kprobe *p)
{
	return -EOPNOTSUPP;
}

static inline void unregister_kprobe(struct kprobe *p) { }

static inline int register_kprobes(struct kprobe **kps, int num)
{
	return -EOPNOTSUPP;
}

static inline void unregister_kprobes(struct kprobe **kps, int num) { }

static inline int enable_kprobe(struct kprobe *kp)
{
	return -EOPNOTSUPP;
}

static inline int disable_kprobe(struct kprobe *kp)
{
	return -EOPNOTSUPP;
}

static inline bool within_kprobe_blacklist(unsigned long addr)
{
	return true;
}

static inline bool is_kprobe_insn_slot(unsigned long addr)
{
	return false;
}

static inline bool is_kprobe_optinsn_slot(unsigned long addr)
{
	return false;
}

static inline int kprobe_get_kallsym(unsigned int symnum,
				     unsigned long *value, char *type,
				     char *sym)
{
	return -ERANGE;
}

static inline void kprobe_free_init_mem(void) { }

static inline int register_jprobe(struct jprobe *jp)
{
	return -EOPNOTSUPP;
}

static inline void unregister_jprobe(struct jprobe *jp) { }

static inline int register_jprobes(struct jprobe **jps, int num)
{
	return -EOPNOTSUPP;
}

static inline void unregister_jprobes(struct jprobe **jps, int num) { }

static inline int enable_jprobe(struct jprobe *jp)
{
	return -EOPNOTSUPP;
}

static inline int disable_jprobe(struct jprobe *jp)
{
	return -EOPNOTSUPP;
}

static inline void jprobe_return(void) { }

static inline bool kprobe_is_jprobe(struct kprobe *p)
{
	return false;
}

static inline int kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	return 0;
}

#endif /* CONFIG_KPROBES */

#ifdef CONFIG_KRETPROBES
int register_kretprobe(struct kretprobe *rp);
void unregister_kretprobe(struct kretprobe *rp);
int register_kretprobes(struct kretprobe **rps, int num);
void unregister_kretprobes(struct kretprobe **rps, int num);
int enable_kretprobe(struct kretprobe *rp);
int disable_kretprobe(struct kretprobe *rp);
bool is_kretprobe_trampoline(unsigned long addr);
unsigned long kretprobe_find_ret_addr(struct task_struct *tsk, void *fp,
				      struct llist_node **cur);
void kprobe_flush_task(struct task_struct *tk);
bool kprobe_is_kretprobe(struct kprobe *p);

#else
static inline int register_kretprobe(struct kretprobe *rp)
{
	return -EOPNOTSUPP;
}

static inline void unregister_kretprobe(struct kretprobe *rp) { }

static inline int register_kretprobes(struct kretprobe **rps, int num)
{
	return -EOPNOTSUPP;
}

static inline void unregister_kretprobes(struct kretprobe **rps, int num) { }

static inline int enable_kretprobe(struct kretprobe *rp)
{
	return -EOPNOTSUPP;
}

static inline int disable_kretprobe(struct kretprobe *rp)
{
	return -EOPNOTSUPP;
}

static inline bool is_kretprobe_trampoline(unsigned long addr)
{
	return false;
}

static inline void kprobe_flush_task(struct task_struct *tk) { }

static inline bool kprobe_is_kretprobe(struct kprobe *p)
{
	return false;
}
#endif /* CONFIG_KRETPROBES */

#ifdef CONFIG_OPTPROBES
void wait_for_kprobe_optimizer(void);
#else
static inline void wait_for_kprobe_optimizer(void) { }
#endif

#ifdef CONFIG_KPROBES_ON_FTRACE
void kprobe_ftrace_kill(void);
#else
static inline void kprobe_ftrace_kill(void) { }
#endif

/**
 * kprobe_page_fault - let kprobes look at a fault first
 * @regs: the faulting context
 * @trap: the trap number
 *
 * Only a kernel-mode fault taken in non-preemptible context while a probe
 * is being handled on this CPU can be ours.
 *
 * Return: true if kprobes handled the fault.
 */
static nokprobe_inline bool kprobe_page_fault(struct pt_regs *regs,
					      unsigned int trap)
{
	if (!IS_ENABLED(CONFIG_KPROBES) || user_mode(regs) || preemptible())
		return false;
	if (!kprobe_running())
		return false;
	return kprobe_fault_handler(regs, trap);
}

#endif /* _LINUX_KPROBES_H */
