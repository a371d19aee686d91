// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: what happens on a CPU that hits a probe.
 *
 * The breakpoint path runs in the trap's exception context (NMI-like,
 * interrupts off); each other entry below says in which context it
 * runs.  Nothing here may sleep, take a lock, or be probed.
 *
 * Each CPU keeps a small stack of the hits it is processing (struct
 * kprobe_ctlblk).  A hit proceeds in three steps, which the code below
 * mirrors:
 *
 *   1. run the pre handlers of the enabled probes at the site, or, when
 *      the hit comes from a handler's own flow (recursion), run none and
 *      count a miss;
 *   2. execute the original instruction: the arch emulates it at once, or
 *      sends the CPU through an out-of-line copy that comes back to
 *      kprobes by a way of its own, a trap or a trampoline (interrupts
 *      stay off until then), or, when step 3 has nothing to run, jumps
 *      straight back ("boosted");
 *   3. when the instruction is done, run the post handlers and pop the
 *      hit off the stack.
 *
 * A jprobe's pre handler pauses a hit between steps 1 and 2 while its
 * mirror function runs; jprobe_return() resumes it at step 2.
 *
 * Two other ways in skip the breakpoint: an optimized site's jump (step
 * 1 only; the detour runs the instructions) and a function's call to
 * ftrace, whose handler runs all three steps in the caller's context,
 * step 2 being the call itself, already done.
 *
 * kprobe_running() is the probe whose handler runs, a marker while none
 * of the hit's handlers does, or NULL.  It is never NULL between the
 * breakpoint and the end of step 3, which is how faults taken meanwhile
 * find their way back here, and how a hit knows it is nested.  A nested
 * hit that an interrupt or NMI brought (its context is above the open
 * section's: see kprobe_running_ctx) is a hit of its own and runs its
 * handlers, in a frame that saves the interrupted section; one from the
 * section's own flow is recursion, and runs none.  A boosted
 * step 2 runs after the hit has ended (NULL then): its faults are the
 * kernel's, and an NMI hit meanwhile is an ordinary one.
 *
 * Every call, memory access and page crossed between the trap and the
 * handler is paid on each hit (dearly under an emulator, which cannot
 * chain code across pages).  So the entry points sit in .kprobes.text
 * (__kprobes: never traced or probed, next to the architecture's
 * breakpoint handler) and inline the steps; a first hit on a CPU, the
 * common case, pushes a frame only when step 2 (or a jprobe) needs one,
 * with a cheaper push and pop of its own; a boosted step that needs
 * only a jump (&kprobe_site.boost_to) does not call the arch.  Only the
 * handlers remain calls.
 */
#include <linux/kprobes.h>
#include <linux/kasan-checks.h>
#include <linux/preempt.h>
#include <linux/cpumask.h>
#include <linux/smp.h>
#include <kunit/visibility.h>

#include "internal.h"

DEFINE_PER_CPU(struct kprobe *, current_kprobe);
EXPORT_PER_CPU_SYMBOL_GPL(current_kprobe);
DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);
DEFINE_PER_CPU(unsigned long, kprobe_hits_ended);
DEFINE_PER_CPU(unsigned int, kprobe_running_ctx);
EXPORT_PER_CPU_SYMBOL_GPL(kprobe_running_ctx);

/* Breakpoint traps handled by kprobes on this CPU. */
DEFINE_PER_CPU(unsigned long, kprobe_traps);

/*
 * Walk the probes of @site from the hit path.  It always runs as an
 * RCU-sched reader (exception context, or preemption disabled), which
 * is what the cheap lockdep condition says; rcu_read_lock_any_held()
 * would cost several lockdep lookups per probe on debug kernels.
 */
#define site_for_each_probe(p, site)					\
	list_for_each_entry_rcu(p, &(site)->probes, list, !preemptible())

/*
 * This file is built without KASAN instrumentation (see the Makefile):
 * on a KASAN kernel every access it makes would be a call, on every hit,
 * and most of them are to memory that is never freed (the per-CPU frames,
 * the site table's header).  What can be freed and is read here, a site
 * (one grace period after it is unhashed) and a probe (when its
 * unregistration returns), is checked by hand: a site when a hit finds
 * it, a probe before its handler is called.
 */
static __always_inline void hit_check(const void *obj, unsigned int size)
{
	__kasan_check_read(obj, size);
}

/*
 * kprobe_running() during a hit while none of its handlers runs: from
 * the start of a first hit to its first pre handler, and while an
 * original instruction executes.
 */
static struct kprobe kprobe_in_hit;
/* kprobe_running() between kprobe_busy_begin() and kprobe_busy_end(). */
static struct kprobe kprobe_busy;

static nokprobe_inline struct kprobe_frame *
frame_push(struct kprobe_site *site, unsigned int status)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe_frame *f;

	if (WARN_ON_ONCE(kcb->depth == KPROBE_MAX_NESTING))
		return NULL;
	f = &kcb->frames[kcb->depth++];
	/* The frame is ours before it is filled in: see frame_push_first(). */
	barrier();
	f->site = site;
	f->prev = kprobe_running();
	f->prev_ctx = __this_cpu_read(kprobe_running_ctx);
	f->status = status;	/* arch: the arch sets it before use */
	return f;
}

/*
 * frame_push() on a CPU that processes no hit (kprobe_running() is NULL):
 * the first frame, with no room to check and nothing to restore.
 *
 * An interrupt or NMI on this CPU may hit a probe between any two of these
 * stores.  Whatever it pushes, it pops before this CPU comes back here, so
 * the only rule is the order of the stores, which the barriers keep:
 *   1. kprobe_running() is set first: from then on a hit counts as nested;
 *   2. then the depth: a nested hit pushes above frames[0], not on it;
 *   3. then frames[0] is filled in; nobody else writes it now.
 * Before 1, a hit in the interrupt is a first hit of its own, done and
 * undone (depth 0, kprobe_running() NULL) before we go on.
 */
static nokprobe_inline void frame_push_first(struct kprobe_site *site)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();

	kprobe_running_begin(&kprobe_in_hit);
	kcb->depth = 1;
	barrier();
	kcb->frames[0].site = site;
	kcb->frames[0].prev = NULL;
	kcb->frames[0].status = KPROBE_HIT_ACTIVE;
}

/*
 * Pop @f, the innermost frame.  @f->prev is read first: once the frame is
 * off the stack, an NMI's hit may reuse it.
 */
static nokprobe_inline void frame_pop(struct kprobe_frame *f)
{
	struct kprobe *prev = f->prev;
	unsigned int prev_ctx = f->prev_ctx;

	barrier();
	__this_cpu_dec(kprobe_ctlblk.depth);
	barrier();
	if (prev) {
		kprobe_running_set(prev);
		kprobe_ctx_set(prev_ctx);
	} else {
		kprobe_running_end();
	}
}

/* The frame frame_push_first() pushed; handlers push theirs above it. */
static nokprobe_inline struct kprobe_frame *frame_first(void)
{
	return &get_kprobe_ctlblk()->frames[0];
}

/* frame_pop() of a frame pushed by frame_push_first(). */
static nokprobe_inline void frame_pop_first(void)
{
	__this_cpu_write(kprobe_ctlblk.depth, 0);
	barrier();
	kprobe_running_end();
}

/*
 * Start a first hit without a frame: kprobe_running() is set before the
 * hit reads the site's probes, which makes it a hit in flight for
 * kprobe_hits_quiesce() and nests whatever hits this CPU meanwhile.
 * frame_push_first() may follow, as long as the hit is this CPU's
 * only one.
 */
static nokprobe_inline void hit_begin(void)
{
	kprobe_running_begin(&kprobe_in_hit);
}

/*
 * End a breakpoint hit that has no frame.  It ran with interrupts off
 * from the trap on, so kprobe_hits_quiesce()'s interrupt round trip
 * cannot have come in the middle of it: unlike kprobe_running_end(), it
 * needs no release.
 */
static nokprobe_inline void hit_end_irqs_off(void)
{
	lockdep_assert_irqs_disabled();
	kprobe_ctx_set(0);
	barrier();
	kprobe_running_set(NULL);
	__this_cpu_inc(kprobe_hits_ended);
}

static void site_count_miss(struct kprobe_site *site, enum kprobe_miss why)
{
	struct kprobe *p;

	site_for_each_probe(p, site) {
		hit_check(p, sizeof(*p));
		if (!kprobe_silent(p))
			kprobe_count_miss(p, why);
	}
}

NOKPROBE_SYMBOL(site_count_miss);

/*
 * How a hit came in, for the steps below.  Every entry point passes
 * constants (HIT_POST aside), so that each inlined copy of a step keeps
 * only its own branches.
 */
enum hit_how {
	HIT_FIRST	= BIT(0),	/* this CPU processes no other hit */
	HIT_NESTED	= BIT(1),	/* inside a handler: no handler runs */
	HIT_DETOUR	= BIT(2),	/* through an optimized site's jump */
	HIT_FTRACE	= BIT(3),	/* from ftrace: the call is over */
	HIT_POST	= BIT(4),	/* a post handler runs afterwards */
	HIT_FRAMELESS	= BIT(5),	/* no frame while pre handlers run */
	HIT_LAZY	= BIT(6),	/* no frame until one is needed */
	HIT_CTX		= BIT(7),	/* from an interrupt, in a frame */
};

/*
 * A pre handler of a hit that came in @how redirected execution.  That
 * ends the hit, except a jprobe's (@jprobe): its mirror runs with the hit
 * still open (jprobe.c).  A HIT_FIRST or HIT_CTX hit pops its frame
 * here, unless the jprobe took it over; a HIT_FRAMELESS or HIT_LAZY one
 * ends.
 */
static nokprobe_inline void site_pre_redirected(unsigned int how, bool jprobe)
{
	if (how & HIT_FRAMELESS) {
		kprobe_running_end();
	} else if (how & HIT_LAZY) {
		if (!jprobe)
			hit_end_irqs_off();
	} else if ((how & HIT_FIRST) &&
		   frame_first()->status != KPROBE_HIT_JPROBE) {
		frame_pop_first();
	} else if ((how & HIT_CTX) &&
		   kprobe_top_frame()->status != KPROBE_HIT_JPROBE) {
		frame_pop(kprobe_top_frame());
	}
}

/*
 * Step 1.  Return: true when a pre handler redirected execution; the hit
 * is then dealt with here already (site_pre_redirected(): done inside
 * the loop, it keeps a flag out of the registers that live across the
 * handler calls).  A jprobe needs a frame and the breakpoint path: a
 * HIT_LAZY hit pushes its frame for it; one that joined an optimized site
 * misses the hits that come through the jump (HIT_DETOUR) until the jump
 * is taken out, and the frameless hits (see ftrace_hit_frameless()).
 */
static nokprobe_inline bool site_run_pre(struct kprobe_site *site,
					 struct pt_regs *regs,
					 unsigned int how)
{
	struct kprobe *p;

	/*
	 * A site's solo (a plain probe, alone there) is called without the
	 * walk.  kprobe_running() is set already: the hit is in flight.
	 */
	p = READ_ONCE(site->solo);
	if (likely(p)) {
		hit_check(p, sizeof(*p));
		kprobe_running_set(p);
		if (!p->pre_handler(p, regs))
			return false;
		site_pre_redirected(how, false);
		return true;
	}

	site_for_each_probe(p, site) {
		hit_check(p, sizeof(*p));
		if (kprobe_silent(p))
			continue;
		if (!p->pre_handler)
			continue;
		if ((how & (HIT_DETOUR | HIT_FRAMELESS | HIT_LAZY)) &&
		    kprobe_pre_is_jprobe(p)) {
			if (!(how & HIT_LAZY)) {
				kprobe_count_miss(p, KPROBE_MISS_MODE);
				continue;
			}
			frame_push_first(site);
		}
		kprobe_running_set(p);
		if (p->pre_handler(p, regs)) {
			site_pre_redirected(how, kprobe_pre_is_jprobe(p));
			return true;
		}
	}
	return false;
}

/* Step 3.  The solo, when the site has one, is the probe the walk finds. */
static nokprobe_inline void site_run_post(struct kprobe_site *site,
					  struct pt_regs *regs)
{
	struct kprobe *p = READ_ONCE(site->solo);

	if (likely(p)) {
		if (p->post_handler) {
			hit_check(p, sizeof(*p));
			kprobe_running_set(p);
			p->post_handler(p, regs, 0);
		}
		return;
	}
	site_for_each_probe(p, site) {
		hit_check(p, sizeof(*p));
		if (kprobe_silent(p) || !p->post_handler)
			continue;
		kprobe_running_set(p);
		p->post_handler(p, regs, 0);
	}
}

/* HIT_POST if a post handler will have to run after the instruction. */
static nokprobe_inline unsigned int site_wants_post(struct kprobe_site *site)
{
	return READ_ONCE(site->nr_post) ? HIT_POST : 0;
}

/*
 * Step 2 of a hit: execute the original instruction.  @how: HIT_POST,
 * HIT_NESTED and HIT_FTRACE matter here.
 *
 * When no post handler will run, the arch may "boost": send the CPU
 * through the instruction and straight on, without coming back here.
 * A site on its way into or out of jump optimization always boosts.  At
 * an ftrace call site the instruction is the call to ftrace, which is
 * over.
 *
 * Return: true when the caller must pop the frame now: the instruction
 * is done (or on its way) and nothing more comes back for this hit;
 * false when the hit ends later, when the arch's copy comes back, or
 * ended here.
 */
static nokprobe_inline bool hit_step(struct kprobe_frame *f,
				     struct pt_regs *regs, unsigned int how)
{
	struct kprobe_site *site = f->site;
	bool post = how & HIT_POST;
	bool nested = how & HIT_NESTED;
	enum kprobe_step_way way = KPROBE_STEP_BOOST;

	if (how & HIT_FTRACE) {
		/* Needed also without post: a jprobe's hit resumes here. */
		instruction_pointer_set(regs, kprobe_ftrace_next_ip(site));
		if (!post)
			return true;
		f->status = KPROBE_HIT_SS;
		kprobe_step_done(f, regs);
		return false;
	}
	/* The one read of the site's optimization state that decides. */
	if (kprobe_site_via_detour(site)) {
		/*
		 * The CPU leaves through the detour's copy of the region (see
		 * opt.c), coming back after its first instruction when post
		 * handlers are to run.  An arch whose detours cannot do that
		 * (arch_kprobe_opt_post_way()) skips those of a probe added
		 * since the site was optimized, until the jump is taken out.
		 */
		way = KPROBE_STEP_DETOUR;
		if (post && arch_kprobe_opt_post_way()) {
			f->status = KPROBE_HIT_SS;
			way = KPROBE_STEP_DETOUR_BACK;
		} else if (!nested) {
			f->status = KPROBE_HIT_SSDONE;
		}
	} else if (!post && site->boost_to) {
		/* Boosted, and the arch needs nothing more than the jump. */
		instruction_pointer_set(regs, (unsigned long)site->boost_to);
		return true;
	} else if (!nested) {
		f->status = KPROBE_HIT_SS;
		if (post)
			way = KPROBE_STEP_BACK;
	}
	/* From a trap: its code's context, while the instruction executes. */
	kprobe_running_set(&kprobe_in_hit);
	kprobe_ctx_set(kprobe_trap_ctx());
	if (!arch_kprobe_step(site, regs, f, way))
		return false;	/* finished when the arch's copy comes back */
	/* The instruction is over: step 3 now, skipping the walk if no use. */
	if (post && f->status == KPROBE_HIT_SS) {
		kprobe_step_done(f, regs);
		return false;
	}
	return true;
}

/*
 * The three steps of a breakpoint hit on a CPU that processes no other.
 * The hit pushes its frame only when it needs one: for the arch's step,
 * or for a jprobe.  Return: true when a pre handler redirected execution.
 */
static nokprobe_inline bool hit_first(struct kprobe_site *site,
				      struct pt_regs *regs)
{
	unsigned int how = HIT_FIRST;

	/* 1. The pre handlers. */
	hit_begin();
	if (site_run_pre(site, regs, how | HIT_LAZY))
		return true;
	/*
	 * 2. The instruction: boosted by a jump alone when no post handler
	 * is to run (hit_step() reads the optimization state again if not);
	 * 3. at once when nothing comes back for it.
	 */
	how |= site_wants_post(site);
	if (!(how & HIT_POST) && site->boost_to &&
	    !kprobe_site_via_detour(site)) {
		instruction_pointer_set(regs, (unsigned long)site->boost_to);
		hit_end_irqs_off();
		return false;
	}
	frame_push_first(site);
	if (hit_step(frame_first(), regs, how))
		frame_pop_first();
	return false;
}

/*
 * Open a frame for a hit that came in, from an interrupt or NMI, while
 * another section is open on this CPU (kprobe_ctx_nests() said so): it
 * saves the section's state for frame_pop().  The hit's handlers run in
 * the context of @ctx.  Return: the frame, or NULL when this CPU has no
 * frame left.
 */
static nokprobe_inline struct kprobe_frame *
frame_push_interrupting(struct kprobe_site *site, unsigned int ctx)
{
	struct kprobe_frame *f;

	if (get_kprobe_ctlblk()->depth == KPROBE_MAX_NESTING)
		return NULL;
	f = frame_push(site, KPROBE_HIT_ACTIVE);
	kprobe_running_set(&kprobe_in_hit);
	kprobe_ctx_set(ctx);
	return f;
}

/*
 * A breakpoint hit from an interrupt or NMI while another section is open
 * on this CPU (@f from frame_push_interrupting()): the three steps of a
 * hit, in a frame of its own.
 */
static noinline void hit_interrupting(struct kprobe_frame *f,
				      struct pt_regs *regs)
{
	struct kprobe_site *site = f->site;
	unsigned int how = HIT_CTX;

	/* 1. */
	if (site_run_pre(site, regs, how))
		return;
	/* 2 and 3. */
	how |= site_wants_post(site);
	if (hit_step(f, regs, how))
		frame_pop(f);
}

NOKPROBE_SYMBOL(hit_interrupting);

/*
 * A breakpoint hit while another section is open on this CPU.  From an
 * interrupt, it is a hit of its own (hit_interrupting()); from the
 * section's own flow (a handler's), or with no frame left, no handler of
 * any kind runs, only the instruction.  Out of line, to keep the common
 * path short.
 */
static noinline int hit_nested(struct kprobe_site *site, struct pt_regs *regs)
{
	enum kprobe_miss why = KPROBE_MISS_RECURSION;
	struct kprobe_frame *f;

	if (kprobe_ctx_nests(kprobe_trap_ctx())) {
		f = frame_push_interrupting(site, kprobe_ctx_now());
		if (f) {
			hit_interrupting(f, regs);
			kprobe_count_trap();
			return 1;
		}
		why = KPROBE_MISS_DEPTH;
	}
	f = frame_push(site, KPROBE_REENTER);
	if (!f)
		return 0;
	site_count_miss(site, why);
	if (hit_step(f, regs, HIT_NESTED))
		frame_pop(f);
	kprobe_count_trap();
	return 1;
}

NOKPROBE_SYMBOL(hit_nested);

/*
 * A hit through a jump or ftrace while another section is open on this
 * CPU: from an interrupt, open its frame.  Return: true when it is a hit
 * of its own, in its frame; false when it is missed (counted here).
 */
static nokprobe_inline bool hit_interrupting_begin(struct kprobe_site *site)
{
	unsigned int ctx = kprobe_ctx_now();
	enum kprobe_miss why = KPROBE_MISS_RECURSION;

	if (kprobe_ctx_nests(ctx)) {
		if (frame_push_interrupting(site, ctx))
			return true;
		why = KPROBE_MISS_DEPTH;
	}
	site_count_miss(site, why);
	return false;
}

/*
 * No site at @addr: if the breakpoint this CPU trapped on was taken out
 * since (its site went meanwhile), the CPU resumes at @addr, on the
 * instruction now back there.  Otherwise the breakpoint is not ours.
 */
static noinline int breakpoint_gone(kprobe_opcode_t *addr,
				    struct pt_regs *regs)
{
	if (arch_kprobe_text_is_breakpoint(addr))
		return 0;
	instruction_pointer_set(regs, (unsigned long)addr);
	kprobe_count_trap();
	return 1;
}

NOKPROBE_SYMBOL(breakpoint_gone);

/**
 * kprobe_hit_step - resume a paused hit at step 2
 * @f: the hit's frame, innermost on this CPU
 * @regs: the context, pointing at the probed instruction's site
 *
 * Where a jprobe's hit resumes once its mirror is done.
 */
void kprobe_hit_step(struct kprobe_frame *f, struct pt_regs *regs)
{
	unsigned int how = site_wants_post(f->site);

	if (kprobe_site_on_ftrace(f->site))
		how |= HIT_FTRACE;
	if (hit_step(f, regs, how))
		frame_pop(f);
}

NOKPROBE_SYMBOL(kprobe_hit_step);

/**
 * kprobe_breakpoint_hit - process a breakpoint trap at a probe site
 * @addr: the address of the breakpoint that trapped
 * @regs: the trapped context
 *
 * Called by the architecture's breakpoint handler for a trap that is not
 * one of its own.  Runs the whole hit, or steps 1 and 2 when the arch's
 * copy of the instruction comes back to finish it.  A breakpoint that a
 * probe's removal took out after this CPU trapped on it counts as ours:
 * the CPU resumes on the restored instruction.
 *
 * Return: 1 if the trap was handled, 0 when it is not kprobes' (or this
 * CPU is already nested too deeply to execute the instruction safely).
 */
int __kprobes kprobe_breakpoint_hit(kprobe_opcode_t *addr,
				    struct pt_regs *regs)
{
	struct kprobe_site *site = kprobe_site_find(addr);

	lockdep_assert_irqs_disabled();
	/* Some kinds of site never trap: ftrace call sites. */
	if (unlikely(!site))
		return breakpoint_gone(addr, regs);
	hit_check(site, sizeof(*site));
	if (unlikely(!site->kind->traps))
		return breakpoint_gone(addr, regs);
	if (unlikely(kprobe_running()))
		return hit_nested(site, regs);
	hit_first(site, regs);
	kprobe_count_trap();
	return 1;
}

/*
 * An optimized hit whose post handlers are to run after the detour's
 * copy of the first instruction: a frame stays open until the arch's
 * detour comes back after it.
 */
static nokprobe_inline enum kprobe_detour_verdict
detour_post(struct kprobe_site *site, struct pt_regs *regs, bool nested)
{
	struct kprobe_frame *f;

	if (nested) {
		f = kprobe_top_frame();
	} else {
		frame_push_first(site);
		f = frame_first();
	}
	f->status = KPROBE_HIT_SS;
	arch_kprobe_step(site, regs, f, KPROBE_STEP_DETOUR_BACK);
	raw_local_irq_disable();
	return KPROBE_DETOUR_STEP;
}

/**
 * kprobe_site_hit_optimized - a CPU went through an optimized site's jump
 * @site: the site, as built into the detour
 * @regs: registers the detour saved; the instruction pointer not set yet
 *
 * Called by the detour with interrupts enabled or not, as the probed
 * code had them, and the pre handlers run that way, with preemption
 * disabled (as on the stock kernel, and as for return handlers).  An
 * interrupt that hits a probe meanwhile runs that probe's handlers; a
 * hit from a handler's own flow counts as missed, and so does this one
 * when it comes from the flow of a section open in its own context.
 * Otherwise the handlers see what a breakpoint would show them: the
 * instruction pointer just past it, kprobe_running() set.  A site that
 * is no longer optimized (a task was preempted in the detour meanwhile)
 * counts the hit as missed; so does one that is gone (unhashed, without
 * probes, and still allocated: see kprobe_opt_free_site_locked()).
 *
 * When post handlers are to run at a site whose detour does the first
 * instruction on @regs (@site->opt_first_on_regs), the hit goes on in
 * kprobe_site_hit_post_optimized(), with interrupts as the pre handlers
 * had them.
 * Otherwise the hit stays open: the arch sends the CPU through the
 * detour's copy of the first instruction with interrupts off and ends the
 * hit after it, as after an out-of-line copy.  Interrupts go off here
 * already, before preemption is enabled again, so that the task cannot
 * leave this CPU meanwhile; for lockdep they stay as they were until the
 * arch takes the hit back.
 *
 * Return: %KPROBE_DETOUR_RESUME when a handler took regs->ip over,
 * %KPROBE_DETOUR_STEP when the arch sent the hit on for its post
 * handlers, %KPROBE_DETOUR_FIRST when the detour is to do the first
 * instruction and call kprobe_site_hit_post_optimized(),
 * %KPROBE_DETOUR_COPY to run the region's copy.
 */
enum kprobe_detour_verdict __kprobes
kprobe_site_hit_optimized(struct kprobe_site *site, struct pt_regs *regs)
{
	enum kprobe_detour_verdict verdict = KPROBE_DETOUR_COPY;
	unsigned int how = HIT_DETOUR | HIT_FRAMELESS;
	bool nested = false;

	hit_check(site, sizeof(*site));
	/* An RCU-sched reader for the probe list; handlers do not migrate. */
	preempt_disable_notrace();
	if (unlikely(kprobe_running())) {
		if (!hit_interrupting_begin(site))
			goto out;
		nested = true;
		how = HIT_DETOUR | HIT_CTX;
	} else {
		/*
		 * The walk of the probes is a hit in flight from here on.
		 * Its handlers run without a frame, as those of a return
		 * probe do; a frame is pushed only for the way through the
		 * copy of the first instruction (detour_post()).
		 */
		hit_begin();
	}
	if (READ_ONCE(site->opt) != KPROBE_OPT_DONE) {
		site_count_miss(site, KPROBE_MISS_MODE);
		goto end;
	}
	instruction_pointer_set(regs, (unsigned long)site->addr +
				      KPROBE_BREAKPOINT_SIZE);
	if (site_run_pre(site, regs, how)) {
		verdict = KPROBE_DETOUR_RESUME;
		goto out;
	}
	if (arch_kprobe_opt_post_way() && site_wants_post(site)) {
		if (site->opt_first_on_regs) {
			/*
			 * The detour does the first instruction on @regs and
			 * calls kprobe_site_hit_post_optimized() for step 3:
			 * until then the hit stays in flight, frameless like
			 * step 1 (a fault in a post handler is handled as one
			 * in a pre handler, frame or not), and preemption
			 * disabled.
			 */
			kprobe_running_set(&kprobe_in_hit);
			return KPROBE_DETOUR_FIRST;
		}
		verdict = detour_post(site, regs, nested);
		goto out;
	}
end:
	if (nested)
		frame_pop(kprobe_top_frame());
	else
		kprobe_running_end();
out:
	preempt_enable_notrace();
	return verdict;
}

/**
 * kprobe_site_hit_post_optimized - the detour did the first instruction
 * @site: the site, as built into the detour
 * @regs: the registers the first instruction left, the instruction
 *	pointer after it
 *
 * Step 3 of a hit that kprobe_site_hit_optimized() sent on with
 * %KPROBE_DETOUR_FIRST, on the same CPU (it left preemption disabled)
 * with interrupts as they were there: run the post handlers, end the
 * hit and enable preemption.
 *
 * Return: %KPROBE_DETOUR_REST to run the copy of the rest of the region,
 * or %KPROBE_DETOUR_RESUME when a post handler took regs->ip over.
 */
enum kprobe_detour_verdict __kprobes
kprobe_site_hit_post_optimized(struct kprobe_site *site, struct pt_regs *regs)
{
	unsigned long next = instruction_pointer(regs);

	/* kprobe_site_hit_optimized() left the hit on this CPU. */
	lockdep_assert_preemption_disabled();
	site_run_post(site, regs);
	/*
	 * A hit that came in from an interrupt has a frame; a first hit
	 * has none, and whatever interrupted it is over.
	 */
	if (kprobe_hit_in_progress())
		frame_pop(kprobe_top_frame());
	else
		kprobe_running_end();
	preempt_enable_notrace();
	/* A post handler that moved the instruction pointer wins. */
	return instruction_pointer(regs) == next ? KPROBE_DETOUR_REST :
						   KPROBE_DETOUR_RESUME;
}

#ifdef CONFIG_KPROBES_ON_FTRACE
/* Step 3 of a hit through ftrace, out of line: few sites have post handlers. */
static noinline void __kprobes ftrace_hit_post(struct kprobe_site *site,
					       struct pt_regs *regs)
{
	instruction_pointer_set(regs, kprobe_ftrace_next_ip(site));
	kprobe_top_frame()->status = KPROBE_HIT_SSDONE;
	site_run_post(site, regs);
}

/*
 * The three steps of a hit through ftrace, on a CPU that processes no
 * other: step 2, the call to ftrace, is over.  A jprobe's pre handler
 * leaves the hit open (kprobe_hit_step() ends it).  Return: true when a
 * pre handler redirected execution.
 */
static nokprobe_inline bool ftrace_hit(struct kprobe_site *site,
				       struct pt_regs *regs)
{
	/* 1. */
	frame_push_first(site);
	if (site_run_pre(site, regs, HIT_FIRST))
		return true;
	/* 3. */
	if (unlikely(site_wants_post(site)))
		ftrace_hit_post(site, regs);
	frame_pop_first();
	return false;
}

/*
 * A hit through ftrace from an interrupt or NMI while another section is
 * open on this CPU, in the frame frame_push_interrupting() opened for it.
 * Return: true when a pre handler redirected execution.
 */
static noinline bool __kprobes
ftrace_hit_interrupting(struct kprobe_site *site, struct pt_regs *regs)
{
	if (site_run_pre(site, regs, HIT_CTX))
		return true;
	if (site_wants_post(site))
		ftrace_hit_post(site, regs);
	frame_pop(kprobe_top_frame());
	return false;
}

/*
 * A hit through the plain ftrace ops, whose sites have no post handler:
 * step 1 is all there is, and it needs no frame.  The pre handlers run
 * as return handlers do, kprobe_running() being the probe whose handler
 * runs (set before the hit reads the site's probes, which makes it a
 * hit in flight for kprobe_hits_quiesce()); a hit nested in them pushes
 * the first frame.  A probe with a post handler or a jprobe moves its
 * site to the other ops; until it has moved, the new probe is silent
 * (KPROBE_FLAG_ARMING).  Return: true when a pre handler redirected
 * execution.
 */
static nokprobe_inline bool ftrace_hit_frameless(struct kprobe_site *site,
						 struct pt_regs *regs)
{
	hit_begin();
	if (site_run_pre(site, regs, HIT_FRAMELESS))
		return true;
	kprobe_running_end();
	return false;
}

/**
 * kprobe_ftrace_handler - a function called ftrace at a probed entry
 * @ip: the ftrace call site
 * @parent_ip: the function's caller
 * @ops: which of kprobes' ftrace_ops called
 * @fregs: the registers ftrace saved; ftrace resumes at their ip, just
 *	past the call unless another ftrace user (livepatch, a BPF
 *	trampoline) redirected the function before us
 *
 * The handler of kprobes' ftrace_ops (ftrace.c), called with interrupts
 * as the function had them.  The handlers see what a breakpoint at the
 * call would show them: the instruction pointer just past the breakpoint
 * for the pre handlers, past the call for the post handlers.  A pre
 * handler that takes it over sends the function there; a jprobe's mirror
 * runs with the hit open until jprobe_return().  Otherwise it goes back
 * to what it was when we were called, so that a redirect stands.
 */
void __kprobes kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_ops *ops,
				     struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	struct kprobe_site *site;
	unsigned long orig_ip;
	bool redirected, nested = false;
	int bit;

	if (unlikely(!regs || !kprobe_fops_live(ops)))
		return;
	/* Disables preemption too (an RCU-sched reader), until the unlock. */
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;

	/* While a site moves between our ops, only one of them speaks. */
	site = kprobe_site_find((kprobe_opcode_t *)ip);
	if (!site)
		goto out;
	hit_check(site, sizeof(*site));
	if (READ_ONCE(site->fops) != ops)
		goto out;
	if (unlikely(kprobe_running())) {
		if (!hit_interrupting_begin(site))
			goto out;
		nested = true;
	}
	orig_ip = instruction_pointer(regs);
	instruction_pointer_set(regs, arch_kprobe_ftrace_pre_ip(ip));
	if (unlikely(nested))
		redirected = ftrace_hit_interrupting(site, regs);
	else if (likely(kprobe_fops_plain(ops)))
		redirected = ftrace_hit_frameless(site, regs);
	else
		redirected = ftrace_hit(site, regs);
	if (!redirected)
		instruction_pointer_set(regs, orig_ip);
out:
	ftrace_test_recursion_unlock(bit);
}
#endif /* CONFIG_KPROBES_ON_FTRACE */

/**
 * kprobe_step_done - the original instruction of the innermost hit is done
 * @f: the hit's frame, innermost on this CPU
 * @regs: the context, already pointing after the instruction
 *
 * Step 3: run the post handlers, unless the hit was nested, and forget
 * the hit.
 */
void __kprobes kprobe_step_done(struct kprobe_frame *f, struct pt_regs *regs)
{
	if (f->status == KPROBE_HIT_SS) {
		f->status = KPROBE_HIT_SSDONE;
		/* The post handlers' context, as the pre handlers had it. */
		kprobe_ctx_set(kprobe_ctx_now());
		site_run_post(f->site, regs);
	}
	frame_pop(f);
}

/**
 * kprobe_frame_abort - forget the innermost hit without finishing it
 * @f: the hit's frame, innermost on this CPU
 *
 * For a fault while the original instruction executed: the arch has put
 * the context back at the probed address and the fault is handled as if
 * the probe had not been there.
 */
void kprobe_frame_abort(struct kprobe_frame *f)
{
	frame_pop(f);
}

NOKPROBE_SYMBOL(kprobe_frame_abort);

/**
 * kprobe_fault_in_step - the probed instruction faulted out of line
 * @site: the site whose instruction faulted
 * @regs: the faulting context, already put back at the probed address
 * @trapnr: the trap number
 *
 * Offers the fault to the fault handlers of the site's enabled probes,
 * in registration order, until one of them handles it.
 *
 * Return: 1 if some enabled probe's fault handler handled it, else 0.
 */
int kprobe_fault_in_step(struct kprobe_site *site, struct pt_regs *regs,
			 int trapnr)
{
	struct kprobe *p;

	site_for_each_probe(p, site) {
		hit_check(p, sizeof(*p));
		if (kprobe_silent(p) || !p->fault_handler)
			continue;
		if (p->fault_handler(p, regs, trapnr))
			return 1;
	}
	return 0;
}

NOKPROBE_SYMBOL(kprobe_fault_in_step);

/**
 * kprobe_fault_in_handler - a probe's own handler faulted
 * @regs: the faulting context
 * @trapnr: the trap number
 *
 * Return: 1 if the running probe's fault handler handled it, else 0.
 */
int kprobe_fault_in_handler(struct pt_regs *regs, int trapnr)
{
	struct kprobe *p = kprobe_running();

	if (!p || p == &kprobe_in_hit || p == &kprobe_busy ||
	    !p->fault_handler)
		return 0;
	return p->fault_handler(p, regs, trapnr);
}

NOKPROBE_SYMBOL(kprobe_fault_in_handler);

/**
 * kprobe_busy_begin - make probes hit from now on count as missed
 *
 * For code that must not recurse into probe handlers (fprobe uses it
 * around its own handlers).  Disables preemption until kprobe_busy_end().
 */
void kprobe_busy_begin(void)
{
	preempt_disable();
	kprobe_running_begin(&kprobe_busy);
}
EXPORT_SYMBOL_GPL(kprobe_busy_begin);
NOKPROBE_SYMBOL(kprobe_busy_begin);

/**
 * kprobe_busy_end - undo kprobe_busy_begin()
 */
void kprobe_busy_end(void)
{
	kprobe_running_end();
	preempt_enable();
}
EXPORT_SYMBOL_GPL(kprobe_busy_end);
NOKPROBE_SYMBOL(kprobe_busy_end);

/**
 * kprobe_trap_count - breakpoint traps kprobes handled, on all CPUs
 *
 * Lets tests check which path a hit took: a boosted hit costs one trap,
 * a stepped one two.  Counts only when the KUnit suites are configured
 * (CONFIG_KPROBES_SANITY_TEST): see kprobe_count_trap().
 *
 * Return: the sum of the per-CPU counts.
 */
unsigned long kprobe_trap_count(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(kprobe_traps, cpu);
	return sum;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_trap_count);
