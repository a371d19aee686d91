/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _LINUX_KPROBES_H
#define _LINUX_KPROBES_H
/*
 * Kprobes: dynamic breakpoints in kernel text.
 *
 * A kprobe names one instruction (by address, or by symbol plus offset).
 * Registering it replaces the first byte of that instruction with the
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
 * Handlers run with preemption disabled, in the exception context of the
 * breakpoint (NMI-like on x86): they must not sleep.  A probe that is hit
 * while a handler runs on the same CPU runs no handler and counts the
 * hit in its @nmissed instead.
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
#include <linux/rethook.h>
#include <asm/kprobes.h>

/* Values of &struct kprobe_frame.status, for the CPU that hit a probe. */
#define KPROBE_HIT_ACTIVE	0x00000001	/* pre handlers running */
#define KPROBE_HIT_SS		0x00000002	/* original insn executing */
#define KPROBE_REENTER		0x00000004	/* hit inside a handler */
#define KPROBE_HIT_SSDONE	0x00000008	/* post handlers running */
#define KPROBE_HIT_JPROBE	0x00000010	/* a jprobe's mirror runs */

#ifndef CONFIG_KPROBES
#include <asm-generic/kprobes.h>
typedef int kprobe_opcode_t;
struct arch_specific_insn {
	int dummy;
};
#endif

struct kprobe;
struct kprobe_site;
struct pt_regs;
struct kretprobe;
struct kretprobe_instance;

typedef int (*kprobe_pre_handler_t)(struct kprobe *, struct pt_regs *);
typedef void (*kprobe_post_handler_t)(struct kprobe *, struct pt_regs *,
				      unsigned long flags);
typedef int (*kprobe_fault_handler_t)(struct kprobe *, struct pt_regs *,
				      int trapnr);
typedef int (*kretprobe_handler_t)(struct kretprobe_instance *,
				   struct pt_regs *);

/**
 * struct kprobe - one breakpoint handler set at one instruction
 * @hlist: never hashed by kprobes; kept initialised so that callers can
 *	test "registered" as !list_empty(@list) || !hlist_unhashed(@hlist)
 * @list: link in the probe's &struct kprobe_site list while registered
 * @nmissed: hits that ran no handler because a handler was already
 *	running on that CPU; cleared by register
 * @addr: the probed instruction; written by register when @symbol_name
 *	is used instead
 * @symbol_name: symbol to probe, "sym" or "module:sym"
 * @offset: byte offset from @symbol_name (or from @addr)
 * @pre_handler: runs before the instruction; returning non-zero means
 *	"I changed regs->ip": the instruction and @post_handler are skipped
 * @post_handler: runs after the instruction was executed
 * @fault_handler: runs when a handler of this probe, or the execution of
 *	the probed instruction, takes a fault; non-zero means "handled"
 * @opcode: the first byte of the original instruction (read only)
 * @flags: KPROBE_FLAG_* bits; protected by the kprobe mutex once registered
 */
struct kprobe {
	struct hlist_node hlist;
	struct list_head list;
	unsigned long nmissed;
	kprobe_opcode_t *addr;
	const char *symbol_name;
	unsigned int offset;
	kprobe_pre_handler_t pre_handler;
	kprobe_post_handler_t post_handler;
	kprobe_fault_handler_t fault_handler;
	kprobe_opcode_t opcode;
	u32 flags;
};

#define KPROBE_FLAG_GONE		1	/* the probed text was freed */
#define KPROBE_FLAG_DISABLED		2	/* registered but not armed */
#define KPROBE_FLAG_OPTIMIZED		4	/* runs through a jump detour */
#define KPROBE_FLAG_FTRACE		8	/* runs through ftrace */
#define KPROBE_FLAG_ON_FUNC_ENTRY	16	/* sits on a function entry */

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
 * @maxactive: instances that may be in flight at once (<= 0: default)
 * @nmissed: returns that could not be hooked
 * @data_size: bytes of per-instance scratch in &kretprobe_instance.data
 * @pool: the instances; owned by kprobes while registered
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
 * @frame: the stack slot that held @ret_addr
 * @data: the probe's data_size bytes for the handlers
 */
struct kretprobe_instance {
	struct llist_node llist;
	struct kretprobe_pool *pool;
	struct task_struct *task;
	kprobe_opcode_t *ret_addr;
	unsigned long *frame;
	char data[];
};

/**
 * struct kretprobe_pool - the instances of one return probe
 * @objs: free instances (lock-free, NMI-safe)
 * @rp: the probe, or NULL once it was unregistered; instances in flight
 *	outlive the probe and free the pool when the last one comes back
 * @refs: instances in flight, plus one while the probe is registered
 * @release_iw: queues @release_work from any context, NMI included
 * @release_work: frees the pool, which may sleep
 */
struct kretprobe_pool {
	struct objpool_head objs;
	struct kretprobe __rcu *rp;
	atomic_t refs;
	struct irq_work release_iw;
	struct work_struct release_work;
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

/**
 * struct kprobe_site - everything registered at one probed instruction
 * @node: link in the probe hash table (RCU readers, kprobe mutex writers)
 * @link: link on the gone list, or on a private list between unlinking
 *	and freeing; never walked by RCU readers
 * @addr: the probed instruction
 * @probes: the &struct kprobe objects at @addr, linked by their @list
 * @nr_enabled: how many of @probes are neither disabled nor gone
 * @nr_post: how many of those have a post handler; read by the hit path
 *	without the mutex, so a hit that races with a change may run a new
 *	probe's pre handler but not yet its post handler
 * @dirty: on the list of sites whose text a batch changes; kprobe mutex
 * @opt_link: on the optimizer's queue or wait list, on its list of
 *	sites blocked for now, or on a commit's list of jumps to take out;
 *	kprobe mutex
 * @armed: the breakpoint (or the optimized jump) is in the text
 * @gone: the text under @addr was freed; the site left the hash table
 * @opt: KPROBE_OPT_* state of jump optimization; written under the
 *	kprobe mutex, read by the hit path through kprobe_site_via_detour()
 * @opt_refused: the arch said this site can never be optimized
 * @opt_used: the site has had a detour: once it goes, it is freed only
 *	after the optimizer's next wait (a task preempted in the detour
 *	may still call in with it)
 * @on_ftrace: @addr is a function's ftrace call site: the site is armed
 *	by attaching it to one of kprobes' ftrace_ops, never by a breakpoint,
 *	and has no @ainsn
 * @fops: the ftrace_ops whose calls run the site's probes, or NULL;
 *	written under the kprobe mutex, read by the ftrace handler
 * @fops_in: bit mask of kprobes' ftrace_ops whose filter holds @addr;
 *	kprobe mutex
 * @opcode: first byte of the original instruction, set by the arch
 * @boost_to: set by the arch when a hit that runs nothing after the
 *	instruction needs only to continue there (a boosted copy), so
 *	the core can send it on without a call; NULL otherwise
 * @ainsn: the architecture's copy of the instruction
 *
 * Shared between the generic core and the architecture code, which only
 * reads @addr and owns @opcode, @boost_to and @ainsn.  The rest belongs to
 * the core and is protected by the kprobe mutex.
 */
struct kprobe_site {
	struct hlist_node node;
	struct list_head link;
	kprobe_opcode_t *addr;
	struct list_head probes;
	struct list_head dirty;
	struct list_head opt_link;
	unsigned int nr_enabled;
	unsigned int nr_post;
	bool armed;
	bool gone;
	u8 opt;
	bool opt_refused;
	bool opt_used;
	bool on_ftrace;
	u8 fops_in;
	struct ftrace_ops *fops;
	kprobe_opcode_t opcode;
	kprobe_opcode_t *boost_to;
	struct arch_specific_insn ainsn;
};

/*
 * Values of &struct kprobe_site.opt.  Every state but NONE has a detour
 * buffer, and a CPU that traps on the site's breakpoint continues through
 * the detour's copy of the instructions, never into the original ones
 * after the first: that is what lets the jump be written over them.
 */
#define KPROBE_OPT_NONE		0	/* plain breakpoint */
#define KPROBE_OPT_QUEUED	1	/* detour built, optimizer to run */
#define KPROBE_OPT_DONE		2	/* the jump is in the text */

/* Must a hit at @site leave through the detour? (any context) */
static inline bool kprobe_site_via_detour(struct kprobe_site *site)
{
	/* Pairs with the release that publishes a new detour (opt.c). */
	return smp_load_acquire(&site->opt) != KPROBE_OPT_NONE;
}

/* Is @site armed through ftrace rather than by a breakpoint? */
static inline bool kprobe_site_on_ftrace(struct kprobe_site *site)
{
	return IS_ENABLED(CONFIG_KPROBES_ON_FTRACE) && site->on_ftrace;
}

/* Nested hits one CPU can track: task, handler, NMI, handler in NMI. */
#define KPROBE_MAX_NESTING	4

/**
 * struct kprobe_frame - one probe hit being processed on a CPU
 * @site: the site that was hit
 * @prev: kprobe_running() before this hit, restored when it ends
 * @arch_saved: scratch for the architecture (x86: the interrupt flag)
 * @status: one of KPROBE_HIT_ACTIVE, _HIT_SS, _REENTER, _HIT_SSDONE,
 *	_HIT_JPROBE
 */
struct kprobe_frame {
	struct kprobe_site *site;
	struct kprobe *prev;
	unsigned long arch_saved;
	unsigned int status;
};

/**
 * struct kprobe_ctlblk - per-CPU stack of probe hits in progress
 * @depth: number of valid entries in @frames
 * @frames: innermost hit last
 */
struct kprobe_ctlblk {
	unsigned int depth;
	struct kprobe_frame frames[KPROBE_MAX_NESTING];
};

DECLARE_PER_CPU(struct kprobe *, current_kprobe);
DECLARE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/* kprobe_running - the probe whose handler runs on this CPU, if any */
static inline struct kprobe *kprobe_running(void)
{
	return __this_cpu_read(current_kprobe);
}

static inline struct kprobe_ctlblk *get_kprobe_ctlblk(void)
{
	return this_cpu_ptr(&kprobe_ctlblk);
}

/**
 * kprobe_top_frame - the innermost hit this CPU is processing
 *
 * Return: the frame, or NULL when no hit is in progress.
 */
static __always_inline struct kprobe_frame *kprobe_top_frame(void)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();

	return kcb->depth ? &kcb->frames[kcb->depth - 1] : NULL;
}

/* Is this CPU processing a hit?  kprobe_top_frame() in one access. */
static __always_inline bool kprobe_hit_in_progress(void)
{
	return __this_cpu_read(kprobe_ctlblk.depth);
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

/* Breakpoint traps kprobes handled so far, for KUnit only. */
unsigned long kprobe_trap_count(void);

/*
 * Generic services for the architecture code's breakpoint path.  All of
 * them run in the breakpoint's exception context.
 */
struct kprobe_site *get_kprobe_site(kprobe_opcode_t *addr);
int kprobe_breakpoint_hit(kprobe_opcode_t *addr, struct pt_regs *regs);
void kprobe_step_done(struct kprobe_frame *f, struct pt_regs *regs);
void kprobe_frame_abort(struct kprobe_frame *f);
bool kprobe_jprobe_return(struct pt_regs *regs);

DECLARE_PER_CPU(unsigned long, kprobe_traps);

/* Account one breakpoint trap handled by kprobes (see kprobe_trap_count). */
static __always_inline void kprobe_count_trap(void)
{
	__this_cpu_inc(kprobe_traps);
}

int kprobe_site_fault(struct kprobe_site *site, struct pt_regs *regs,
		      int trapnr);
int kprobe_handler_fault(struct pt_regs *regs, int trapnr);

/*
 * Architecture interface.  Every hook is required; there are no weak
 * defaults.  <asm/kprobes.h> also defines KPROBE_BREAKPOINT_INSN, the
 * breakpoint opcode, and KPROBE_BREAKPOINT_SIZE, how far past the probed
 * address the trap leaves the instruction pointer.  Hooks that change
 * text run under kprobe_text_lock(), the others under the kprobe mutex
 * unless stated otherwise.
 *
 * arch_prepare_kprobe_site()	check @site->addr and fill @site->ainsn
 *				(copy, decode, slot) and @site->boost_to;
 *				text lock held
 * arch_release_kprobe_site()	free what prepare allocated; no CPU can be
 *				using the site any more
 * arch_arm_kprobe_site()	write the breakpoint; text lock held
 * arch_disarm_kprobe_site()	restore the original byte; text lock held
 * arch_kprobe_text_sync()	make every text change asked for so far
 *				visible to every CPU; text lock held.  The
 *				core calls it once per batch of changes,
 *				which the arch may hold back until then
 * arch_kprobe_step()		execute the probed instruction for a hit
 *				(exception context); true if nothing more
 *				comes back (emulated, or boosted when the
 *				core allows it), false if it will finish
 *				when the copy comes back to the architecture
 *				(a trap, a trampoline), which then calls
 *				kprobe_step_done()
 * arch_adjust_kprobe_addr()	move a function-entry address past entry
 *				markers (x86: ENDBR64); says if on entry
 * arch_within_kprobe_blacklist() text the architecture never lets be
 *				probed; any context
 * arch_populate_kprobe_blacklist() add architecture areas at boot
 * arch_jprobe_stack_room()	bytes that may be read from @sp up to the
 *				end of the stack it lies on; any context
 *
 * The architecture also provides jprobe_return(), whose breakpoint its
 * handler passes to kprobe_jprobe_return().
 */
int arch_prepare_kprobe_site(struct kprobe_site *site);
void arch_release_kprobe_site(struct kprobe_site *site);
void arch_arm_kprobe_site(struct kprobe_site *site);
void arch_disarm_kprobe_site(struct kprobe_site *site);
void arch_kprobe_text_sync(void);
bool arch_kprobe_step(struct kprobe_site *site, struct pt_regs *regs,
		      struct kprobe_frame *frame, bool boost);
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry);
bool arch_within_kprobe_blacklist(unsigned long addr);
int arch_populate_kprobe_blacklist(void);
unsigned long arch_jprobe_stack_room(unsigned long sp);
int kprobe_add_area_blacklist(unsigned long start, unsigned long end);

/*
 * Jump optimization (CONFIG_OPTPROBES); the core calls these with the
 * text lock held, except arch_kprobe_opt_covers() (kprobe mutex).
 *
 * arch_prepare_kprobe_opt()	check that the site's code allows a jump
 *				and build its detour; -EAGAIN when only
 *				another probe in the region (asked with
 *				kprobe_opt_region_taken()) is in the way,
 *				any other error means never
 * arch_release_kprobe_opt()	hand the detour to the deferred free
 * arch_optimize_kprobe_tail()	write all but the first byte of the jump
 *				(the breakpoint stays in front of it)
 * arch_optimize_kprobe_head()	replace the breakpoint by the jump opcode
 * arch_unoptimize_kprobe_head() put the breakpoint back in front
 * arch_unoptimize_kprobe_tail() restore the bytes behind the breakpoint
 * arch_kprobe_opt_covers()	does the optimized @site's region, the
 *				instructions its jump replaces, contain @addr?
 *
 * Each step is separated from the next one by arch_kprobe_text_sync().
 * A detour calls kprobe_site_hit_optimized() with its site, which
 * stays allocated until no task can be inside the detour any more.
 */
int arch_prepare_kprobe_opt(struct kprobe_site *site);
void arch_release_kprobe_opt(struct kprobe_site *site);
void arch_optimize_kprobe_tail(struct kprobe_site *site);
void arch_optimize_kprobe_head(struct kprobe_site *site);
void arch_unoptimize_kprobe_head(struct kprobe_site *site);
void arch_unoptimize_kprobe_tail(struct kprobe_site *site);
bool arch_kprobe_opt_covers(struct kprobe_site *site, unsigned long addr);
bool kprobe_site_hit_optimized(struct kprobe_site *site,
			       struct pt_regs *regs);
bool kprobe_opt_region_taken(unsigned long addr, int len);

/* Executable slots for out-of-line copies; kprobe mutex held. */
kprobe_opcode_t *kprobe_slot_alloc(void);
void kprobe_slot_free(kprobe_opcode_t *slot);
kprobe_opcode_t *kprobe_detour_alloc(void);
void kprobe_detour_free_deferred(kprobe_opcode_t *slot);
bool kprobe_slots_gc_begin_locked(void);
void kprobe_slots_gc_end_locked(void);
void kprobe_text_lock(void);
void kprobe_text_unlock(void);

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
unsigned long kretprobe_find_ret_addr(struct task_struct *tsk,
				      unsigned long frame,
				      struct llist_node **cur);
void kprobe_flush_task(struct task_struct *tk);
bool kprobe_is_kretprobe(struct kprobe *p);

/* Architecture interface for return probes (all required). */
void arch_kretprobe_hook(struct kretprobe_instance *ri, struct pt_regs *regs);
unsigned long kretprobe_trampoline_handler(struct pt_regs *regs,
					   unsigned long *frame);
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
/* For KUnit: the debug.kprobes-optimization switch. */
void kprobes_set_optimization(bool on);
bool kprobes_optimization_enabled(void);
#else
static inline void wait_for_kprobe_optimizer(void) { }
static inline void kprobes_set_optimization(bool on) { }

static inline bool kprobes_optimization_enabled(void)
{
	return false;
}
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
