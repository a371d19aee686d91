/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _LINUX_KPROBES_ARCH_H
#define _LINUX_KPROBES_ARCH_H
/*
 * The contract between the generic kprobes core (kernel/kprobes/) and an
 * architecture's backend (arch/<arch>/kernel/kprobes/), in one place.
 * Only those two include this header; everyone else uses <linux/kprobes.h>.
 *
 * 1. <asm/kprobes.h> defines, with CONFIG_KPROBES:
 *	kprobe_opcode_t		the unit of instruction text: a byte on
 *				x86, 32 bits on fixed-width ISAs.  Sizes and
 *				offsets in this contract are in bytes
 *	struct arch_specific_insn
 *				the arch's copy of one probed instruction,
 *				embedded in &struct kprobe_site
 *	KPROBE_BREAKPOINT_SIZE	how far past the probed address the trap
 *				leaves the instruction pointer (0 where the
 *				trap reports the breakpoint's own address)
 *	KPROBE_SLOT_SIZE	bytes of one out-of-line instruction slot: at
 *				least 64, a power of two
 *	kprobe_fault_handler()	int (struct pt_regs *, int trapnr): the
 *				arch's fault path asks it first, directly or
 *				through kprobe_page_fault(); it settles a
 *				fault taken while a hit was in progress
 *   and with CONFIG_OPTPROBES:
 *	KPROBE_DETOUR_SIZE	bytes of one detour buffer (same rules)
 *	KPROBE_OPT_MAX_REGION	the most bytes, counted from the probed
 *				address, that an optimized site's jump may
 *				cover; a new site in that range makes the
 *				core take the jump out first (see
 *				arch_kprobe_opt_covers())
 *   and with CONFIG_UPROBES:
 *	KPROBE_USER_INSN_MAX	the longest user-space instruction, in bytes
 *   and optionally:
 *	struct arch_kprobe_hit_state
 *				what the arch keeps for one hit from
 *				arch_kprobe_step() to the end of the step
 *				(the caller's interrupt mask, say), in
 *				&kprobe_frame.arch; defined together with
 *				"#define arch_kprobe_hit_state
 *				arch_kprobe_hit_state".  Default: one word
 *	KPROBE_MAX_NESTING	the most hits one CPU may have in progress at
 *				once: a hit, one in its handlers, and as
 *				many again for each level of NMI-like entry
 *				that can interrupt them (powerpc: system
 *				reset, machine check, soft-NMI).  Default: 8,
 *				for a hit and one in its handlers in each of
 *				task, softirq, hardirq and NMI context
 *	KPROBE_TRAP_CTX_OFFSET	what the arch's entry to its breakpoint
 *				handler adds to preempt_count() (x86 and
 *				RISC-V: irqentry_nmi_enter()'s NMI_OFFSET +
 *				HARDIRQ_OFFSET), so that the core can tell
 *				the context the probed code ran in.  Default: 0
 *	KPROBE_JPROBE_STACK_BYTES
 *				the most bytes of stack a jprobe's hit saves
 *				for its mirror to clobber and restores after
 *				it (see arch_jprobe_stack_region()).
 *				Default: 128, a return address and 15 words
 *	KPROBE_PERCPU_STORE_RELEASES
 *				defined where a this_cpu_write() placed after
 *				a compiler barrier is ordered after every
 *				earlier access of the CPU, as a release is;
 *				the end of a hit is then two plain per-CPU
 *				stores
 *
 * 2. The arch implements every arch_*() hook declared below by a
 *    prototype: those are required, and there are no weak defaults.
 *    The hooks of the block "Hooks the architecture may provide" are
 *    optional: each has a default, which an architecture replaces by
 *    defining its own in <asm/kprobes.h>, followed by "#define <hook>
 *    <hook>".
 *
 * 3. The core provides the services at the end for the arch's trap,
 *    trampoline and detour code.
 *
 * Locking: hooks that change text run under kprobe_text_lock(), the
 * others under the kprobe mutex, unless the hook's line says otherwise.
 * Lookups and hits never take a lock.
 */
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/ptrace.h>

#ifdef CONFIG_KPROBES

struct kprobe_site_kind;

/* Values of &struct kprobe_frame.status, for the CPU that hit a probe. */
#define KPROBE_HIT_ACTIVE	0x00000001	/* pre handlers running */
#define KPROBE_HIT_SS		0x00000002	/* original insn executing */
#define KPROBE_REENTER		0x00000004	/* hit inside a handler */
#define KPROBE_HIT_SSDONE	0x00000008	/* post handlers running */
#define KPROBE_HIT_JPROBE	0x00000010	/* a jprobe's mirror runs */

/*
 * Nested hits one CPU can track.  The default counts a hit and one in its
 * handlers for each of task, softirq, hardirq and NMI context, since a
 * hit in an interrupt runs its handlers even while the interrupted
 * context's are running; an architecture with more NMI-like entries
 * defines more (see the top).
 */
#ifndef KPROBE_MAX_NESTING
#define KPROBE_MAX_NESTING	8
#endif

/* What the breakpoint handler's entry adds to preempt_count() (see the top). */
#ifndef KPROBE_TRAP_CTX_OFFSET
#define KPROBE_TRAP_CTX_OFFSET	0
#endif

/* Stack a jprobe's hit saves for its mirror (see the top). */
#ifndef KPROBE_JPROBE_STACK_BYTES
#define KPROBE_JPROBE_STACK_BYTES	128
#endif

#ifndef arch_kprobe_hit_state
/**
 * struct arch_kprobe_hit_state - the arch's part of one hit, by default
 * @word: what an architecture that keeps no more than one word needs
 */
struct arch_kprobe_hit_state {
	unsigned long word;
};
#endif

/**
 * struct kprobe_frame - one probe hit being processed on a CPU
 * @site: the site that was hit
 * @prev: kprobe_running() before this hit, restored when it ends
 * @prev_ctx: the context of the section @prev belongs to, restored with
 *	it (kernel/kprobes/internal.h)
 * @arch: the architecture's state for the hit: written by
 *	arch_kprobe_step() before it sends the CPU to a copy that comes
 *	back, read by the arch when the copy is done or faulted; the core
 *	never looks at it
 * @status: one of KPROBE_HIT_ACTIVE, _HIT_SS, _REENTER, _HIT_SSDONE,
 *	_HIT_JPROBE
 */
struct kprobe_frame {
	struct kprobe_site *site;
	struct kprobe *prev;
	struct arch_kprobe_hit_state arch;
	unsigned int status;
	unsigned int prev_ctx;
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

DECLARE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

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

/**
 * struct kprobe_site - everything registered at one probed instruction
 * @node: links in the site tables, one per table (see kernel/kprobes/table.c)
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
 * @solo: the one probe a hit calls without walking @probes, or NULL; set
 *	by each commit that touches the site (see site_solo_locked() in
 *	kernel/kprobes/core.c), read by the hit paths
 * @opt: KPROBE_OPT_* state of jump optimization; written under the
 *	kprobe mutex, read by the hit path through kprobe_site_via_detour()
 * @opt_refused: the arch said this site can never be optimized
 * @opt_used: the site has had a detour: once it goes, it is freed only
 *	after the optimizer's next wait (a task preempted in the detour
 *	may still call in with it)
 * @opt_first_on_regs: set by arch_prepare_kprobe_opt() when the detour
 *	can do the region's first instruction on the saved registers, for
 *	hits with post handlers (%KPROBE_DETOUR_FIRST)
 * @kind: how the site is prepared, armed and hit: a breakpoint, or a
 *	function's ftrace call site, which is armed by attaching it to one
 *	of kprobes' ftrace_ops and has no @ainsn (private to the core)
 * @fops: the ftrace_ops whose calls run the site's probes, or NULL;
 *	written under the kprobe mutex, read by the ftrace handler
 * @fops_in: bit mask of kprobes' ftrace_ops whose filter holds @addr;
 *	kprobe mutex
 * @opcode: the first unit (kprobe_opcode_t) of the original
 *	instruction, which the breakpoint replaces; set by the arch
 * @boost_to: set by the arch when a hit that runs nothing after the
 *	instruction needs only to continue there (a boosted copy), so
 *	the core can send it on without a call; NULL otherwise
 * @ainsn: the architecture's copy of the instruction
 *
 * Shared between the generic core and the architecture code, which owns
 * @opcode, @boost_to, @opt_first_on_regs and @ainsn and only reads the
 * rest (@addr, and the fields that say what is in the text).  The rest
 * belongs to the core and is protected by the kprobe mutex.
 */
struct kprobe_site {
	struct hlist_node node[2];
	struct list_head link;
	kprobe_opcode_t *addr;
	struct list_head probes;
	struct list_head dirty;
	struct list_head opt_link;
	unsigned int nr_enabled;
	unsigned int nr_post;
	struct kprobe *solo;
	bool armed;
	bool gone;
	bool parked;
	u8 opt;
	bool opt_refused;
	bool opt_used;
	bool opt_first_on_regs;
	const struct kprobe_site_kind *kind;
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

/*
 * How a hit leaves the probed instruction, decided once per hit by the
 * core (hit_step()) and passed to arch_kprobe_step():
 *   KPROBE_STEP_BACK	come back to kprobes after it: post handlers run
 *			when the copy is done
 *   KPROBE_STEP_BOOST	nothing runs after it: the arch may go straight on
 *   KPROBE_STEP_DETOUR	through the detour's copy of the region, as every
 *			hit must while the site's jump optimization state
 *			is not KPROBE_OPT_NONE (kprobe_site_via_detour())
 *   KPROBE_STEP_DETOUR_BACK  through the detour too, but coming back to
 *			kprobes after the copy of the first instruction,
 *			for the post handlers, before the rest of the
 *			region; also the way of an optimized hit with post
 *			handlers once its pre handlers are done
 * An instruction that the arch emulates is emulated whatever the way.
 */
enum kprobe_step_way {
	KPROBE_STEP_BACK,
	KPROBE_STEP_BOOST,
	KPROBE_STEP_DETOUR,
	KPROBE_STEP_DETOUR_BACK,
};

/*
 * Hooks the architecture provides: probe sites and their text.
 *
 * While a copy that comes back runs (arch_kprobe_step() returned
 * false), interrupts stay off on this CPU until the architecture has
 * handed the hit back with kprobe_step_done() or kprobe_frame_abort().
 * The core depends on it: the task can then neither be scheduled away
 * nor migrate with its hit open on this CPU's stack of frames, it stays
 * an RCU-sched reader, so that one synchronize_rcu() after a site is
 * unhashed means no CPU still runs in its slot (kernel/kprobes/core.c,
 * "RCU"), and no interrupt can hit a probe and find the hit open.
 * x86, arm64 and riscv take the interrupt enable out of the context the
 * copy runs in (IF, DAIF, SPIE) and keep the caller's in
 * &kprobe_frame.arch.  An architecture whose trap returns with
 * interrupts as the caller had them does the same with its own bits
 * (powerpc: MSR_EE; s390: the I/O and external masks of the PSW; arm:
 * CPSR.I) and restores them at the end of the step or at a fault in the
 * copy.  One that cannot must hold preemption instead (preempt_disable()
 * before arch_kprobe_step() returns false, preempt_enable_no_resched()
 * once the hit is handed back), and probes hit by interrupts meanwhile
 * then count as missed.  A boosted copy runs after its hit has ended,
 * but on a preemptible kernel it must not be preempted before it has
 * left the slot either: x86 keeps interrupts off in it and sets them
 * again only with its last instruction.  (A detour's copy may be
 * preempted: the optimizer waits for RCU-tasks before it frees one.)
 *
 * arch_prepare_kprobe_site()	check @site->addr and fill @site->ainsn
 *				(copy, decode, slot) and @site->boost_to;
 *				text lock held
 * arch_release_kprobe_site()	free what prepare allocated; no CPU can be
 *				using the site any more
 * arch_arm_kprobe_site()	write the breakpoint; text lock held
 * arch_disarm_kprobe_site()	restore the original instruction; text lock
 *				held
 * arch_kprobe_text_is_breakpoint() does the text at @addr still hold a
 *				breakpoint, of whatever encoding a trap
 *				that reached kprobe_breakpoint_hit() may
 *				have come from (true also when it cannot
 *				be read)?  Exception context, NMI-safe
 * arch_kprobe_text_sync()	make every text change asked for so far
 *				visible to every CPU; text lock held.  The
 *				core calls it at the end of a batch of
 *				changes, which the arch may hold back until
 *				then, and wherever one step of a change
 *				must be seen before the next
 * arch_kprobe_step()		execute the probed instruction for a hit
 *				(exception context) the way the core
 *				decided (enum kprobe_step_way); true if
 *				nothing more comes back (emulated, boosted,
 *				or sent through the detour), false if it
 *				will finish when the copy comes back to
 *				the architecture (a trap, a trampoline),
 *				which then calls kprobe_step_done()
 * arch_adjust_kprobe_addr()	move a function-entry address past entry
 *				markers (x86: ENDBR64); says if on entry;
 *				no lock needed
 * arch_within_kprobe_blacklist() text the architecture never lets be
 *				probed; any context
 * arch_populate_kprobe_blacklist() add architecture areas at boot,
 *				through kprobe_add_area_blacklist(); called
 *				without the kprobe mutex, which that takes
 * arch_jprobe_stack_room()	bytes that may be read from @sp up to the
 *				end of the stack it lies on; any context.
 *				Used only by the default of
 *				arch_jprobe_stack_region()
 * arch_alloc_kprobe_slot_page() one page for slots (or detours), mapped
 *				read-only and executable, reachable from
 *				the text the arch's slots jump back to
 * arch_free_kprobe_slot_page() give such a page back
 *
 * The architecture also provides jprobe_return(), whose breakpoint its
 * handler passes to kprobe_jprobe_return().  Where the return from that
 * exception cannot move the stack pointer back up to the hit's, the
 * breakpoint is taken there: kprobe_jprobe_stack_pointer() says where.
 */
int arch_prepare_kprobe_site(struct kprobe_site *site);
void arch_release_kprobe_site(struct kprobe_site *site);
void arch_arm_kprobe_site(struct kprobe_site *site);
void arch_disarm_kprobe_site(struct kprobe_site *site);
bool arch_kprobe_text_is_breakpoint(kprobe_opcode_t *addr);
void arch_kprobe_text_sync(void);
bool arch_kprobe_step(struct kprobe_site *site, struct pt_regs *regs,
		      struct kprobe_frame *frame, enum kprobe_step_way way);
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry);
bool arch_within_kprobe_blacklist(unsigned long addr);
int arch_populate_kprobe_blacklist(void);
unsigned long arch_jprobe_stack_room(unsigned long sp);
void *arch_alloc_kprobe_slot_page(void);
void arch_free_kprobe_slot_page(void *page);

/*
 * Hooks the architecture may provide (see 2. at the top).  An
 * architecture's own version runs in the same context as the default's
 * caller, and is NOKPROBE_SYMBOL() when it is not inlined.
 *
 * arch_jprobe_mirror_entry()	the address of the first instruction of
 *				the jprobe mirror function @entry.  Default:
 *				@entry (ppc64 ELFv1 and parisc64 read it
 *				from the function descriptor @entry points
 *				to).  Registration, no lock needed
 * arch_jprobe_restore_regs()	put the registers a jprobe's hit saved
 *				(@saved) back into the context of the
 *				breakpoint in jprobe_return() (@regs), to
 *				resume the hit.  Default: all of them.  An
 *				architecture whose pt_regs also hold state
 *				of the exception itself, which a hit through
 *				ftrace never filled in (powerpc: the soft
 *				interrupt mask, the trap number, the
 *				user-access key), copies only the registers
 *				of the probed code.  Handler context
 * arch_jprobe_enter_mirror()	point the hit's @regs at the mirror
 *				@entry.  Default: set the instruction
 *				pointer to arch_jprobe_mirror_entry() (ppc64
 *				ELFv2 also loads r12 with it, which the
 *				mirror's global entry computes its TOC
 *				from).  Handler context
 * arch_jprobe_stack_region()	the bytes of stack, from the hit's stack
 *				pointer @sp, that the mirror may change and
 *				the probed function may still read (its
 *				stack arguments): the first at *@start, their
 *				number returned, at most
 *				KPROBE_JPROBE_STACK_BYTES.  Default: from @sp
 *				up, as far as arch_jprobe_stack_room() says
 *				(parisc's stack grows up, the region lies
 *				below @sp; sparc64's stack pointer is biased,
 *				with a register window save area above it).
 *				Handler context
 * arch_kprobe_opt_post_way()	does every detour have the second way
 *				through its region, the one for hits with
 *				post handlers (see the jump optimization
 *				hooks)?  Default: false, and the core then
 *				optimizes no site with a post handler, as
 *				the stock kernel does not.  Any context
 * arch_kprobe_ftrace_pre_ip()	the instruction pointer the pre handlers
 *				of a hit through ftrace see, for the ftrace
 *				call site @ip (CONFIG_KPROBES_ON_FTRACE).
 *				Default: @ip + KPROBE_BREAKPOINT_SIZE, what
 *				a breakpoint at the call would show them.
 *				Where the call is not the probed function
 *				entry (arm64's patchable-function-entry
 *				puts it after the NOP that ftrace's own
 *				sequence begins with), the arch says what
 *				its breakpoint path would show.  Any context
 * arch_kprobe_ftrace_next_ip()	where the function goes on once the call
 *				to ftrace at @ip is over, as the post
 *				handlers see it and as a jprobe's hit
 *				resumes.  Default: @ip + MCOUNT_INSN_SIZE.
 *				Any context
 * arch_kprobe_user_sym_mode()	the ISA mode, for
 *				arch_kprobe_user_insn_len(), of the user
 *				function an ELF symbol names, from the file
 *				header's @e_flags, the symbol's @st_other
 *				and its st_value in *@value, from which it
 *				takes the bits that say the mode (ARM: bit 0
 *				for Thumb-2; microMIPS: bit 0, with
 *				STO_MICROMIPS in @st_other).  Default: 0,
 *				the one mode, *@value untouched
 *				(CONFIG_UPROBES; no lock held)
 */
#ifndef arch_jprobe_mirror_entry
static __always_inline unsigned long arch_jprobe_mirror_entry(void *entry)
{
	return (unsigned long)entry;
}
#endif

#ifndef arch_jprobe_restore_regs
static __always_inline void arch_jprobe_restore_regs(struct pt_regs *regs,
						     const struct pt_regs *saved)
{
	*regs = *saved;
}
#endif

#ifndef arch_jprobe_enter_mirror
static __always_inline void arch_jprobe_enter_mirror(struct pt_regs *regs,
						     void *entry)
{
	instruction_pointer_set(regs, arch_jprobe_mirror_entry(entry));
}
#endif

#ifndef arch_jprobe_stack_region
static __always_inline unsigned long
arch_jprobe_stack_region(unsigned long sp, unsigned long *start)
{
	*start = sp;
	return min_t(unsigned long, arch_jprobe_stack_room(sp),
		     KPROBE_JPROBE_STACK_BYTES);
}
#endif

#ifndef arch_kprobe_opt_post_way
static __always_inline bool arch_kprobe_opt_post_way(void)
{
	return false;
}
#endif

#ifndef arch_kprobe_ftrace_pre_ip
static __always_inline unsigned long arch_kprobe_ftrace_pre_ip(unsigned long ip)
{
	return ip + KPROBE_BREAKPOINT_SIZE;
}
#endif

#ifndef arch_kprobe_user_sym_mode
static inline unsigned int arch_kprobe_user_sym_mode(u32 e_flags,
						     unsigned char st_other,
						     u64 *value)
{
	return 0;
}
#endif

#if defined(CONFIG_KPROBES_ON_FTRACE) && !defined(arch_kprobe_ftrace_next_ip)
static __always_inline unsigned long
arch_kprobe_ftrace_next_ip(unsigned long ip)
{
	return ip + MCOUNT_INSN_SIZE;
}
#endif

/*
 * Hooks the architecture provides: jump optimization (CONFIG_OPTPROBES).
 * Text lock held, except for arch_release_kprobe_opt() and
 * arch_kprobe_opt_covers(), which may be called with the kprobe mutex
 * only.
 *
 * arch_prepare_kprobe_opt()	check that the site's code allows a jump
 *				and build its detour; -EAGAIN when only
 *				another probe in the region (see
 *				kprobe_opt_region_taken_locked()) is in
 *				the way, any other error means never
 * arch_release_kprobe_opt()	hand the detour to the deferred free
 * arch_optimize_kprobe_tail()	write what follows the jump's first unit
 *				(the breakpoint stays in front of it); may
 *				do nothing where the jump is one unit
 * arch_optimize_kprobe_head()	replace the breakpoint by the jump's first
 *				unit
 * arch_unoptimize_kprobe_head() put the breakpoint back in front
 * arch_unoptimize_kprobe_tail() restore what follows the breakpoint
 * arch_kprobe_opt_covers()	does the optimized @site's region, the
 *				instructions its jump replaces, contain @addr?
 *
 * Each step is separated from the next one by arch_kprobe_text_sync().
 * A detour calls kprobe_site_hit_optimized() with its site, which
 * stays allocated until no task can be inside the detour any more, and
 * does what the verdict says: %KPROBE_DETOUR_COPY, run the copy of the
 * region and jump back; %KPROBE_DETOUR_RESUME, resume at the registers
 * where a pre handler sent them; %KPROBE_DETOUR_STEP, resume where
 * arch_kprobe_step() sent them for %KPROBE_STEP_DETOUR_BACK (which may
 * be done as for RESUME, or more cheaply: the stack pointer and the code
 * segment are the detour's own); %KPROBE_DETOUR_FIRST (only where
 * arch_prepare_kprobe_opt() set @site->opt_first_on_regs), do the
 * region's first instruction on @regs, set the instruction pointer in
 * them after it and call kprobe_site_hit_post_optimized(), whose verdict
 * is %KPROBE_DETOUR_REST, resume at the registers in the copy of the
 * rest of the region, or %KPROBE_DETOUR_RESUME.  So every detour has a
 * second way through its region, for hits with post handlers: the copy
 * of the first instruction, then a call that gives the hit back to the
 * arch, which finishes it with kprobe_step_done(), then the copy of the
 * rest of the region.  Only where arch_kprobe_opt_post_way() says so:
 * elsewhere a site with a post handler keeps its breakpoint, and the
 * way back after the first instruction (%KPROBE_STEP_DETOUR_BACK,
 * %KPROBE_DETOUR_STEP, %KPROBE_DETOUR_FIRST) is never asked for.
 */
int arch_prepare_kprobe_opt(struct kprobe_site *site);
void arch_release_kprobe_opt(struct kprobe_site *site);
void arch_optimize_kprobe_tail(struct kprobe_site *site);
void arch_optimize_kprobe_head(struct kprobe_site *site);
void arch_unoptimize_kprobe_head(struct kprobe_site *site);
void arch_unoptimize_kprobe_tail(struct kprobe_site *site);
bool arch_kprobe_opt_covers(struct kprobe_site *site, unsigned long addr);

/*
 * Hooks the architecture provides: return probes (CONFIG_KRETPROBES).
 *
 * arch_kretprobe_hook()	at a function's entry (handler context):
 *				save the return address in @ri->ret_addr,
 *				a value that identifies this call in
 *				@ri->frame, and make the function return
 *				to the arch's trampoline.  The trampoline
 *				calls kretprobe_trampoline_handler() with
 *				the same @frame value and returns to what
 *				it gives back.  A function reached by a
 *				tail call from a hooked one has the
 *				trampoline's address as its return
 *				address: save it as it is, and the same
 *				@frame value as the caller's hook did
 * arch_kretprobe_refuses()	may the function that starts at @func not
 *				be return-probed (it switches stacks, or
 *				runs the trampoline's own code)?  No lock
 *				held
 *
 * The architecture also provides is_kretprobe_trampoline() (declared in
 * <linux/kprobes.h> for the unwinders): is a return address its
 * trampoline's?  The core asks it too, of saved return addresses, to
 * tell the instances of tail-called functions.
 */
void arch_kretprobe_hook(struct kretprobe_instance *ri, struct pt_regs *regs);
bool arch_kretprobe_refuses(unsigned long func);

/*
 * Hooks the architecture provides: user-space probes (CONFIG_UPROBES).
 * No lock held.
 *
 * arch_kprobe_user_insn_len()	the length of the user instruction at
 *				@buf (@len bytes readable) in ISA mode
 *				@mode, as arch_kprobe_user_sym_mode() gave
 *				it for the function that holds it, or
 *				-EILSEQ when those bytes do not decode
 * arch_kprobe_user_trapnr()	the trap number of what the current task
 *				took stepping a probed instruction out of
 *				line; valid in uprobes' fault callbacks
 */
int arch_kprobe_user_insn_len(const u8 *buf, int len, unsigned int mode);
int arch_kprobe_user_trapnr(void);

/*
 * Services of the core for the architecture.  The first group runs in
 * the breakpoint's exception context.
 */
struct kprobe_site *get_kprobe_site(kprobe_opcode_t *addr);
int kprobe_breakpoint_hit(kprobe_opcode_t *addr, struct pt_regs *regs);
void kprobe_step_done(struct kprobe_frame *f, struct pt_regs *regs);
void kprobe_frame_abort(struct kprobe_frame *f);
bool kprobe_jprobe_return(struct pt_regs *regs);
unsigned long kprobe_jprobe_stack_pointer(unsigned long sp);
int kprobe_fault_in_step(struct kprobe_site *site, struct pt_regs *regs,
			 int trapnr);
int kprobe_fault_in_handler(struct pt_regs *regs, int trapnr);

DECLARE_PER_CPU(unsigned long, kprobe_traps);

/*
 * Account one breakpoint trap kprobes handled.  Only the KUnit suites
 * read the count: without them this compiles to nothing.
 */
static __always_inline void kprobe_count_trap(void)
{
	if (IS_ENABLED(CONFIG_KPROBES_SANITY_TEST))
		__this_cpu_inc(kprobe_traps);
}

/* What a detour does once kprobe_site_hit_optimized() returns. */
enum kprobe_detour_verdict {
	KPROBE_DETOUR_COPY,	/* run the copy of the region */
	KPROBE_DETOUR_RESUME,	/* resume at regs, sp and flags included */
	KPROBE_DETOUR_STEP,	/* into the way that stops after one insn */
	KPROBE_DETOUR_REST,	/* the first insn is done: run the rest */
	KPROBE_DETOUR_FIRST,	/* do the first insn on regs, then the post */
};

/* Reached from a detour (CONFIG_OPTPROBES); preemption disabled. */
enum kprobe_detour_verdict kprobe_site_hit_optimized(struct kprobe_site *site,
						     struct pt_regs *regs);
enum kprobe_detour_verdict
kprobe_site_hit_post_optimized(struct kprobe_site *site, struct pt_regs *regs);
/* Has a site with probes an address in (@addr, @addr + @len)?  Mutex. */
bool kprobe_opt_region_taken_locked(unsigned long addr, int len);

/* Reached from the return trampoline (CONFIG_KRETPROBES). */
unsigned long kretprobe_trampoline_handler(struct pt_regs *regs,
					   unsigned long frame);

/* Executable slots for out-of-line copies; kprobe mutex held. */
kprobe_opcode_t *kprobe_slot_alloc_locked(void);
void kprobe_slot_free_locked(kprobe_opcode_t *slot);
kprobe_opcode_t *kprobe_detour_alloc_locked(void);
void kprobe_detour_free_deferred_locked(kprobe_opcode_t *slot);
bool kprobe_slots_gc_begin_locked(void);
void kprobe_slots_gc_end_locked(void);

/* The text lock, and the blacklist for the arch's boot-time areas. */
void kprobe_text_lock(void);
void kprobe_text_unlock(void);
/* kallsyms_lookup_size_offset(), answered once per function; text lock. */
bool kprobe_func_bounds_text_locked(unsigned long addr, unsigned long *size,
				    unsigned long *off);
int kprobe_add_area_blacklist(unsigned long start, unsigned long end);

#endif /* CONFIG_KPROBES */
#endif /* _LINUX_KPROBES_ARCH_H */
