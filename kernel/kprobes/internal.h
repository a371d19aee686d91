/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Declarations shared by the files of kernel/kprobes/ and nobody else.
 */
#ifndef _KERNEL_KPROBES_INTERNAL_H
#define _KERNEL_KPROBES_INTERNAL_H

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/seq_file.h>
#include <linux/ftrace.h>
#include <linux/hash.h>

struct module;

/*
 * Lock context in names: a function whose name ends in _locked is called
 * with the mutex that serializes registration in its file held:
 * kprobe_mutex, but for the kinds of probe that have registrations of
 * their own and say which mutex at the top of their file.  One ending
 * in _text_locked is called with the text lock (kprobe_text_lock()) as
 * well, which nests inside kprobe_mutex.  Each asserts what its name says
 * (for _text_locked: the text lock).  Functions without either suffix
 * take what they need.
 */
extern struct mutex kprobe_mutex;

/* core.c */
typedef bool (*kprobe_addr_match_t)(unsigned long addr, void *data);
void kprobes_kill_matching_locked(kprobe_addr_match_t match, void *data);
int kprobes_set_armed(bool armed);
bool kprobe_registered(struct kprobe *p);
bool kprobes_armed(void);
void kprobes_show_all(struct seq_file *m, bool show_addr);
void kprobes_show_missed(struct seq_file *m, bool show_addr);
void kprobes_show_addr(struct seq_file *m, unsigned long where, char type,
		       bool show_addr);
bool kprobe_site_wants_armed_locked(struct kprobe_site *site);
void kprobe_site_mark_dirty_locked(struct kprobe_site *site);
int kprobes_update_all_locked(void);
void kprobes_unregister_batch(void *const *objs, int num, size_t kp_offset);
int kprobes_register_batch(void *const *objs, int num, size_t kp_offset,
			   int *done);

/*
 * The site table, by address (table.c).  Lookups are RCU readers: the
 * breakpoint path by exception context, other hit paths with preemption
 * disabled; writers hold the kprobe mutex.  The hit paths inline the
 * lookup.
 */
struct kprobe_site_table {
	struct hlist_head *heads;	/* 1 << bits chains */
	unsigned int bits;
	unsigned int which;		/* the sites' node used here */
};

extern struct kprobe_site_table __rcu *kprobe_sites;

void kprobe_sites_reserve_locked(unsigned int more);
void kprobe_sites_shrink_locked(void);
void kprobe_site_hash_locked(struct kprobe_site *site);
void kprobe_site_unhash_locked(struct kprobe_site *site);
typedef void (*kprobe_site_fn_t)(struct kprobe_site *site, void *arg);
void kprobe_sites_walk_locked(kprobe_site_fn_t fn, void *arg);
unsigned int kprobe_sites_table_bits(void);

/* The site whose node number @which is @n. */
static __always_inline struct kprobe_site *
kprobe_site_of_node(struct hlist_node *n, unsigned int which)
{
	return container_of(n - which, struct kprobe_site, node[0]);
}

/* The lookup; @cond: the caller may read the table (for lockdep). */
static __always_inline struct kprobe_site *
__kprobe_site_find(kprobe_opcode_t *addr, bool cond)
{
	struct kprobe_site_table *t = rcu_dereference_check(kprobe_sites, cond);
	struct hlist_head *head = &t->heads[hash_ptr(addr, t->bits)];
	unsigned int which = t->which;
	struct hlist_node *n;

	for (n = rcu_dereference_raw(hlist_first_rcu(head)); n;
	     n = rcu_dereference_raw(hlist_next_rcu(n))) {
		struct kprobe_site *site = kprobe_site_of_node(n, which);

		if (site->addr == addr)
			return site;
	}
	return NULL;
}

/* core.c: parked sites (see there) */
void kprobe_unpark_now(void);

/* quiesce.c: waiting for the hits in flight */
void kprobe_hits_quiesce(void);
void kprobe_cpu_forget_hits(void);
unsigned long kprobe_quiesce_kick_count(void);
struct notifier_block;
int kprobe_oops_notify(struct notifier_block *nb, unsigned long val,
		       void *data);

/* Per CPU: how many times kprobe_running() went back to NULL. */
DECLARE_PER_CPU(unsigned long, kprobe_hits_ended);

/*
 * Nesting by context.  A hit that comes in while a section (a hit, a
 * return handler, a busy section) is open on its CPU is recursion when it
 * comes from the section's own flow, and runs no handler; it is a hit of
 * its own, with its handlers, when an interrupt or NMI brought it.  The
 * two differ by the context the probed code runs in: an interrupt raises
 * it, nothing a handler calls does.  kprobe_running_ctx is the context of
 * the innermost open section (of its handlers; of the probed code while
 * its instruction executes): a new hit nests when its code's context is
 * above it.
 *
 * The context is preempt_count()'s NMI and hardirq counts and whether a
 * softirq is being served; bottom halves being disabled are left out, as
 * a handler may do that.
 */
DECLARE_PER_CPU(unsigned int, kprobe_running_ctx);

static __always_inline unsigned int kprobe_ctx_now(void)
{
	unsigned int ctx = preempt_count() & (NMI_MASK | HARDIRQ_MASK);

	return in_serving_softirq() ? ctx | SOFTIRQ_OFFSET : ctx;
}

/*
 * The context of the code that trapped, from the breakpoint handler.  An
 * entry that did not add the offset counts as task context: the lowest,
 * where a hit is taken for recursion rather than for an interrupt.
 */
static __always_inline unsigned int kprobe_trap_ctx(void)
{
	unsigned int ctx = kprobe_ctx_now();

	return ctx >= KPROBE_TRAP_CTX_OFFSET ? ctx - KPROBE_TRAP_CTX_OFFSET : 0;
}

/* May a hit from code in context @ctx nest in this CPU's open section? */
static __always_inline bool kprobe_ctx_nests(unsigned int ctx)
{
	return ctx > __this_cpu_read(kprobe_running_ctx);
}

static __always_inline void kprobe_ctx_set(unsigned int ctx)
{
	__this_cpu_write(kprobe_running_ctx, ctx);
}

/*
 * Must a hit leave @p's handlers alone?  Disabled and gone probes, and
 * those of a batch still being committed: a registration or enable that
 * fails at its commit (ftrace refused a site, another probe of the batch
 * failed) returns with none of its handlers ever run.
 */
static __always_inline bool kprobe_silent(struct kprobe *p)
{
	return p->flags & (KPROBE_FLAG_DISABLED | KPROBE_FLAG_GONE |
			   KPROBE_FLAG_ARMING);
}

/*
 * Add one to a miss counter.  Misses of one probe may be counted on
 * several CPUs at once, and a plain increment would lose some; the
 * counters keep their types (readers outside kprobes use them as they
 * are), so the add is a cmpxchg loop, which NMIs allow.  Misses are rare.
 */
#define kprobe_count_inc(counter)					\
do {									\
	typeof(counter) __ctr = (counter);				\
	typeof(*__ctr) __old = READ_ONCE(*__ctr);			\
									\
	while (!try_cmpxchg(__ctr, &__old, __old + 1))			\
		;							\
} while (0)

/* Count a hit of @p that ran no handler, and why. */
static __always_inline void kprobe_count_miss(struct kprobe *p,
					      enum kprobe_miss why)
{
	kprobe_count_inc(&p->nmissed_by[why]);
	kprobe_count_inc(&p->nmissed);
}

/* Forget @p's misses, for its registration. */
static inline void kprobe_clear_misses(struct kprobe *p)
{
	p->nmissed = 0;
	memset(p->nmissed_by, 0, sizeof(p->nmissed_by));
}

/**
 * struct kprobe_outer - the section a nested one interrupted
 * @p: its kprobe_running(), NULL when there was none
 * @ctx: its context
 */
struct kprobe_outer {
	struct kprobe *p;
	unsigned int ctx;
};

/*
 * The writes of kprobe_running() go through the three helpers below and
 * nowhere else (scripts/check-running.py fails the build check on any
 * other): the order of the accesses around the first one is what makes a
 * hit visible to kprobe_hits_quiesce().
 */

/*
 * Start this CPU's outermost hit, return handler or busy section, which
 * is in flight for kprobe_hits_quiesce() from here on: mark the CPU, then
 * read what the section uses (site, probes, a pool's probe).  A plain
 * per-CPU store may be sunk by the compiler below later loads, even
 * READ_ONCE() ones: the barrier keeps it first.  Across CPUs the order is
 * kept by the round trip of kprobe_hits_quiesce() (an interrupt of its own,
 * or the full barrier of a CPU's way out of an idle or user-space state).
 */
static __always_inline void kprobe_running_begin(struct kprobe *p)
{
	__this_cpu_write(current_kprobe, p);
	/* Pairs with kprobe_hits_quiesce()'s round trip; see above. */
	barrier();
	/*
	 * Then the context.  Until it is set it is the lowest: whatever
	 * comes in meanwhile is an interrupt, and nests.
	 */
	kprobe_ctx_set(kprobe_ctx_now());
}

/*
 * Inside a section kprobe_running_begin() started: say whose handler runs
 * now (@p), or that none does (a marker).  The section stays in flight
 * whatever the order, so no barrier.  NULL only where the caller ends the
 * section itself, with interrupts off (hit.c).
 */
static __always_inline void kprobe_running_set(struct kprobe *p)
{
	__this_cpu_write(current_kprobe, p);
}

/*
 * End this CPU's outermost hit, return handler or busy section.  Whoever
 * reads either store after the change also sees every access the
 * handlers made, and may free what they used: see kprobe_hits_quiesce().
 * Both stores are releases, which pair with its acquires.
 */
#ifdef KPROBE_PERCPU_STORE_RELEASES
static __always_inline void kprobe_running_end(void)
{
	kprobe_ctx_set(0);
	barrier();
	this_cpu_write(current_kprobe, NULL);
	this_cpu_inc(kprobe_hits_ended);
}
#else
static __always_inline void kprobe_running_end(void)
{
	unsigned long *ended = this_cpu_ptr(&kprobe_hits_ended);

	/* The lowest context first: see kprobe_running_begin(). */
	kprobe_ctx_set(0);
	/* Release: pairs with the acquires of kprobe_hits_quiesce(). */
	smp_store_release(this_cpu_ptr(&current_kprobe), NULL);
	/* The same, for a waiter that sees the count move. */
	smp_store_release(ended, *ended + 1);
}
#endif

/*
 * Open a section for a hit or a return handler (kprobe_running() @p) that
 * runs no frame, whether or not another is open.  Return: false when
 * another is open in the same context: recursion, nothing done.
 */
static __always_inline bool kprobe_section_begin(struct kprobe *p,
						 struct kprobe_outer *o)
{
	unsigned int ctx = kprobe_ctx_now();

	o->p = kprobe_running();
	if (likely(!o->p)) {
		kprobe_running_begin(p);
		return true;
	}
	o->ctx = __this_cpu_read(kprobe_running_ctx);
	if (ctx <= o->ctx)
		return false;
	/* Any order: whatever comes in meanwhile is above both contexts. */
	kprobe_running_set(p);
	kprobe_ctx_set(ctx);
	return true;
}

/* Close what kprobe_section_begin() opened, given the same @o. */
static __always_inline void kprobe_section_end(const struct kprobe_outer *o)
{
	if (likely(!o->p)) {
		kprobe_running_end();
		return;
	}
	kprobe_running_set(o->p);
	kprobe_ctx_set(o->ctx);
}

/**
 * struct kprobe_site_kind - what differs between the kinds of probe site
 * @prepare: check the instruction at the new site's address and make
 *	what a hit needs; NULL if nothing.  Both locks held
 * @release: undo @prepare; NULL if nothing.  kprobe mutex held
 * @write_text: put the site's breakpoint in (@arm) or take it out, to take
 *	effect at the batch's commit; NULL for a kind that is attached after
 *	the commit instead (ftrace call sites, ftrace.c).  Both locks held
 * @probe_flags: KPROBE_FLAG_* of every probe at such a site
 * @traps: a breakpoint trap at the site's address can be the site's
 * @optimizable: jump optimization may replace the breakpoint
 *
 * Registration, arming, freeing, the breakpoint path and the optimizer
 * decide with these.  Code that serves one kind only (ftrace.c, the
 * ftrace handler in hit.c, the detaching of killed ftrace sites) asks
 * kprobe_site_on_ftrace().
 */
struct kprobe_site_kind {
	int (*prepare)(struct kprobe_site *site);
	void (*release)(struct kprobe_site *site);
	void (*write_text)(struct kprobe_site *site, bool arm);
	u32 probe_flags;
	bool traps;
	bool optimizable;
};

/* core.c: a breakpoint; ftrace.c: a function's ftrace call site */
extern const struct kprobe_site_kind kprobe_bp_site_kind;
extern const struct kprobe_site_kind kprobe_ftrace_site_kind;

/* Is @site armed through ftrace rather than by a breakpoint? */
static __always_inline bool kprobe_site_on_ftrace(struct kprobe_site *site)
{
	return IS_ENABLED(CONFIG_KPROBES_ON_FTRACE) &&
	       site->kind == &kprobe_ftrace_site_kind;
}

/* get_kprobe_site() for the hit paths, which never run preemptible. */
static __always_inline struct kprobe_site *kprobe_site_find(kprobe_opcode_t *addr)
{
	return __kprobe_site_find(addr, !preemptible());
}

/* jprobe.c: every jprobe's pre handler. */
int jprobe_divert(struct kprobe *p, struct pt_regs *regs);

/* kprobe_is_jprobe() for the hit paths. */
static __always_inline bool kprobe_pre_is_jprobe(struct kprobe *p)
{
	return p->pre_handler == jprobe_divert;
}

/* hit.c */
void kprobe_hit_step(struct kprobe_frame *f, struct pt_regs *regs);
void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs);

/* opt.c: jump optimization; text lock held unless said otherwise */
#ifdef CONFIG_OPTPROBES
void kprobe_opt_commit_text_locked(struct list_head *dirty);
void kprobe_opt_clear_region_text_locked(unsigned long addr);
void kprobe_opt_kill_locked(struct kprobe_site *site);	/* mutex only */
void kprobe_opt_free_site_locked(struct kprobe_site *site);	/* mutex only */
#else
static inline void kprobe_opt_commit_text_locked(struct list_head *dirty) { }
static inline void kprobe_opt_clear_region_text_locked(unsigned long addr) { }
static inline void kprobe_opt_kill_locked(struct kprobe_site *site) { }
/* Never called: only opt.c sets &kprobe_site.opt_used. */
static inline void kprobe_opt_free_site_locked(struct kprobe_site *site) { }
#endif

/*
 * ftrace.c: probes on ftrace call sites.  A batch's dirty sites are
 * attached to and detached from ftrace after its text commit, with the
 * text lock released (ftrace takes text_mutex itself).
 */
#ifdef CONFIG_KPROBES_ON_FTRACE
/**
 * struct kprobe_fops - one of kprobes' ftrace_ops and its filter count
 * @ops: registered with ftrace while @nr_ips is not zero
 * @nr_ips: how many sites its filter holds; it becomes non-zero only
 *	once ftrace has patched the first batch's call sites, and zero
 *	before their removal: while it is zero (ftrace calls the handler
 *	from every site it has patched so far), no site runs probes through
 *	@ops and the handler has nothing to look up
 */
struct kprobe_fops {
	struct ftrace_ops ops;
	unsigned int nr_ips;
};

/*
 * The plain ops and the IPMODIFY ops, for the sites whose probes may send
 * the function elsewhere (a jprobe, a post handler): see ftrace.c.
 */
enum { KPROBE_FOPS_PLAIN, KPROBE_FOPS_IPMODIFY, KPROBE_FOPS_NR };
extern struct kprobe_fops kprobe_fops[KPROBE_FOPS_NR];

int kprobe_ftrace_commit_locked(struct list_head *dirty);	/* mutex */
bool kprobe_ftrace_dead_swap(bool dead);		/* KUnit */

/* For the handler: may a site run its probes through @ops? */
static __always_inline bool kprobe_fops_live(struct ftrace_ops *ops)
{
	return READ_ONCE(container_of(ops, struct kprobe_fops, ops)->nr_ips);
}

/*
 * For the handler: is @ops the plain one?  Its sites have neither a
 * jprobe nor a post handler, except while one joins and the site moves
 * to the other ops.
 */
static __always_inline bool kprobe_fops_plain(struct ftrace_ops *ops)
{
	return ops == &kprobe_fops[KPROBE_FOPS_PLAIN].ops;
}

/*
 * Is @addr an ftrace call site, probed through ftrace?  As
 * ftrace_location(@addr) == @addr, without its symbol lookup when @addr
 * is no call site (a walk of a module's symbols).
 */
static inline bool kprobe_ftrace_addr(unsigned long addr)
{
	return ftrace_location_range(addr, addr) == addr;
}

/* Does the ftrace call site @site run its probes through the plain ops? */
static inline bool kprobe_ftrace_site_plain_locked(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	return site->fops == &kprobe_fops[KPROBE_FOPS_PLAIN].ops;
}

/* Where a hit continues once the call to ftrace at @site is over. */
static inline unsigned long kprobe_ftrace_next_ip(struct kprobe_site *site)
{
	return arch_kprobe_ftrace_next_ip((unsigned long)site->addr);
}
#else
static inline int kprobe_ftrace_commit_locked(struct list_head *dirty)
{
	return 0;
}

static inline bool kprobe_ftrace_addr(unsigned long addr)
{
	return false;
}

static inline bool kprobe_ftrace_site_plain_locked(struct kprobe_site *site)
{
	return false;
}

static inline unsigned long kprobe_ftrace_next_ip(struct kprobe_site *site)
{
	return 0;
}
#endif

/* kretprobe.c, for the KUnit suites */
const void *kretprobe_pool_last_freed(unsigned long *count);

/* modsyms.c */
#ifdef CONFIG_MODULES
void kprobe_modsyms_prepare(void);
bool kprobe_modsyms_lookup(const char *name, unsigned long *addr);
unsigned long kprobe_modsyms_generation(void);
unsigned long kprobe_modsyms_build_count(void);
void kprobe_modsyms_module_event(void);
#else
static inline void kprobe_modsyms_prepare(void)
{
}

static inline bool kprobe_modsyms_lookup(const char *name,
					 unsigned long *addr)
{
	return false;
}

static inline unsigned long kprobe_modsyms_generation(void)
{
	return 0;
}

static inline unsigned long kprobe_modsyms_build_count(void)
{
	return 0;
}
#endif

/* address.c */
struct kprobe_sym {
	const char *name;
	unsigned long addr;		/* 0: not found before the mutex */
	bool in_module;			/* @addr is a module's */
};

/* From this many probes on, a batch walks the vmlinux symbols once. */
#define KPROBE_SYMS_BATCH	1024

/* The symbols of a batch, looked up at once (see kprobe_syms_lookup()). */
struct kprobe_syms {
	struct kprobe_sym *syms;	/* the names (distinct when hashed) */
	unsigned int *of;		/* per probe: 1 + index in syms, or 0 */
	unsigned int *slots;		/* big batch: 1 + index in syms */
	unsigned int mask;
	unsigned int nr;
	unsigned int found;
	unsigned long modgen;		/* kprobe_modsyms_generation() */
};

void kprobe_syms_lookup(struct kprobe_syms *syms, void *const *objs, int num,
			size_t kp_offset);
unsigned long kprobe_syms_addr(const struct kprobe_syms *syms, int i);
void kprobe_syms_release(struct kprobe_syms *syms);
kprobe_opcode_t *kprobe_resolve_addr(kprobe_opcode_t *addr, const char *sym,
				     unsigned long offset,
				     unsigned long sym_addr, bool *on_entry);
kprobe_opcode_t *kprobe_resolve_addr_text_locked(kprobe_opcode_t *addr,
						 const char *sym,
						 unsigned long offset,
						 unsigned long sym_addr,
						 bool *on_entry);
int kprobe_func_name_text_locked(unsigned long addr, char *name);
void kprobe_func_bounds_forget_text_locked(void);
int kprobe_check_address_text_locked(unsigned long addr, struct module **modp);

/* blacklist.c; the vmlinux _kprobe_blacklist section is init data */
extern unsigned long __start_kprobe_blacklist[];
extern unsigned long __stop_kprobe_blacklist[];

int kprobe_blacklist_init(void);
bool kprobe_blacklisted_text_locked(unsigned long addr);
void kprobe_blacklist_add_module_locked(struct module *mod);
void kprobe_blacklist_remove_module_locked(struct module *mod);
void kprobe_blacklist_show(struct seq_file *m, bool show_addr);

/* kwatch.c: the watchpoints' lines of the debugfs list */
#ifdef CONFIG_HAVE_HW_BREAKPOINT
void kwatch_show_all(struct seq_file *m, bool show_addr);
#else
static inline void kwatch_show_all(struct seq_file *m, bool show_addr) { }
#endif

/*
 * For the KUnit suites (kernel/kprobes/tests/) only: breakpoint traps
 * counted by kprobe_count_trap(), and the debug.kprobes-optimization
 * switch.
 */
unsigned long kprobe_trap_count(void);
#ifdef CONFIG_OPTPROBES
void kprobes_set_optimization(bool on);
bool kprobes_optimization_enabled(void);
#else
static inline void kprobes_set_optimization(bool on) { }

static inline bool kprobes_optimization_enabled(void)
{
	return false;
}
#endif

#endif /* _KERNEL_KPROBES_INTERNAL_H */
