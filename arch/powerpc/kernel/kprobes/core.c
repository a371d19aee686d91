// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc kprobes: the breakpoints, and what comes back to us after them.
 *
 * The trap path (traps.c) calls two functions of ours directly:
 *
 *   kprobe_handler()       from do_program_check(), for a trap taken in
 *                          the kernel, before the die notifiers and
 *                          report_bug(): a probe hit, which the core's
 *                          kprobe_breakpoint_hit() takes from there (and
 *                          tells a trap of someone else's apart), or the
 *                          trap in jprobe_return();
 *   kprobe_post_handler()  from the single-step (trace) interrupt, or
 *                          BookE's debug interrupt: the copy of a probed
 *                          instruction is done and the hit can finish.
 *
 * A hit first asks emulate_step() to carry the instruction out on the
 * saved registers: that is one trap per hit, and the only way for the
 * instructions that use the address they run at (branches, addpcis,
 * PC-relative prefixed loads).  An instruction the emulator has never
 * managed is single-stepped as a copy in a slot from then on, with
 * interrupts off (see internal.h).  A page fault the copy takes reaches
 * kprobe_fault_handler() through kprobe_page_fault().
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/sched/task_stack.h>
#include <asm/code-patching.h>
#include <asm/sections.h>
#include <asm/sstep.h>

#include "internal.h"

/* &arch_specific_insn.emulate: what emulate_step() did with it so far. */
enum {
	EMULATE_UNTRIED,
	EMULATE_WORKS,
	EMULATE_NEVER,
};

/**
 * arch_prepare_kprobe_site - check a probed address and copy its instruction
 * @site: the new site
 *
 * Called under kprobe_text_lock().
 *
 * Return: 0; -EINVAL for an address or instruction that may not be
 * probed (see decode.c); -EFAULT when the text cannot be read; -ENOMEM.
 */
int arch_prepare_kprobe_site(struct kprobe_site *site)
{
	struct arch_specific_insn *ai = &site->ainsn;
	int ret;

	lockdep_assert_held(&text_mutex);

	/* 1. The original instruction, and whether it may be probed. */
	if (!IS_ALIGNED((unsigned long)site->addr, sizeof(u32)))
		return -EINVAL;
	ret = ppc_kprobe_read_orig(site->addr, &ai->insn);
	if (ret)
		return ret;
	ret = ppc_kprobe_check_insn(site->addr, ai->insn);
	if (ret)
		return ret;
	site->opcode = ppc_inst_val(ai->insn);
	ai->emulate = EMULATE_UNTRIED;

	/* 2. Its copy, for the hits the emulator cannot carry out. */
	ai->slot = kprobe_slot_alloc_locked();
	if (!ai->slot)
		return -ENOMEM;
	ret = ppc_kprobe_slot_write(ai->slot, ai->insn);
	if (ret) {
		kprobe_slot_free_locked(ai->slot);
		ai->slot = NULL;
	}
	return ret;
}

/**
 * arch_release_kprobe_site - free the slot of a site nobody uses any more
 * @site: the site
 */
void arch_release_kprobe_site(struct kprobe_site *site)
{
	if (site->ainsn.slot) {
		kprobe_slot_free_locked(site->ainsn.slot);
		site->ainsn.slot = NULL;
	}
}

/*
 * Carry the instruction out on @regs.  Return: true when done.  A
 * failure on an instruction that emulated before is this run's alone (a
 * load that faults, say: the copy then takes the fault for real);
 * emulate_step() refuses for good only what the check let through by
 * mistake, which is said once.
 */
static nokprobe_inline bool try_emulate(struct arch_specific_insn *ai,
					struct pt_regs *regs)
{
	int state = READ_ONCE(ai->emulate);
	int ret;

	if (state == EMULATE_NEVER)
		return false;
	ret = emulate_step(regs, ai->insn);
	if (ret > 0) {
		if (state == EMULATE_UNTRIED)
			WRITE_ONCE(ai->emulate, EMULATE_WORKS);
		return true;
	}
	WARN_ONCE(ret < 0, "kprobes: cannot emulate %08lx\n",
		  ppc_inst_as_ulong(ai->insn));
	if (state == EMULATE_UNTRIED)
		WRITE_ONCE(ai->emulate, EMULATE_NEVER);
	return false;
}

/**
 * arch_kprobe_step - execute the probed instruction for a hit
 * @site: the site that was hit
 * @regs: the trapped context; regs->nip is the probed address
 * @frame: the hit's frame, for the caller's interrupt state
 * @way: how the core wants the hit to leave the instruction; there is
 *	no boosted copy on powerpc, so every copy comes back
 *
 * Return: true when the instruction was emulated (@regs are after it),
 * false when the CPU was sent to single-step the copy in the slot,
 * whose trace interrupt comes back to kprobe_post_handler().
 */
bool arch_kprobe_step(struct kprobe_site *site, struct pt_regs *regs,
		      struct kprobe_frame *frame, enum kprobe_step_way way)
{
	struct arch_specific_insn *ai = &site->ainsn;

	if (try_emulate(ai, regs))
		return true;
	ppc_kprobe_copy_irqs_off(regs, &frame->arch);
	enable_single_step(regs);
	regs_set_return_ip(regs, (unsigned long)ai->slot);
	return false;
}

NOKPROBE_SYMBOL(arch_kprobe_step);

/*
 * The trap in jprobe_return(): the end of a jprobe's mirror, or a call
 * from anywhere else, which is named once in the log and returns.
 */
static noinline int jprobe_return_trap(struct pt_regs *regs)
{
	if (!kprobe_jprobe_return(regs)) {
		pr_warn_once("kprobes: jprobe_return() called outside a jprobe mirror, from %pS\n",
			     (void *)regs->link);
		regs_add_return_ip(regs, sizeof(u32));
	}
	kprobe_count_trap();
	return 1;
}

NOKPROBE_SYMBOL(jprobe_return_trap);

/* A trap taken with translation off: never a probe (but on BookE). */
static nokprobe_inline bool real_mode(struct pt_regs *regs)
{
	return !IS_ENABLED(CONFIG_BOOKE) &&
	       (!(regs->msr & MSR_IR) || !(regs->msr & MSR_DR));
}

/**
 * kprobe_handler - a kernel trap that may be a probe's
 * @regs: the trapped context
 *
 * Return: 1 if kprobes handled it.
 */
int kprobe_handler(struct pt_regs *regs)
{
	kprobe_opcode_t *addr = (kprobe_opcode_t *)regs->nip;

	if (user_mode(regs) || real_mode(regs))
		return 0;
	if (addr == ppc_jprobe_return_trap)
		return jprobe_return_trap(regs);
	return kprobe_breakpoint_hit(addr, regs);
}

NOKPROBE_SYMBOL(kprobe_handler);

/* The end of the copy of @f's instruction, in the slot. */
static nokprobe_inline unsigned long slot_end(struct kprobe_frame *f)
{
	return (unsigned long)f->site->ainsn.slot +
	       ppc_inst_len(f->site->ainsn.insn);
}

/**
 * kprobe_post_handler - a trace interrupt that may end a copy of ours
 * @regs: the trapped context, single-step already off
 *
 * The innermost hit's copy is done: the CPU goes on after the original
 * instruction, with the caller's interrupt state.
 *
 * Return: 1 if kprobes handled it.
 */
int kprobe_post_handler(struct pt_regs *regs)
{
	struct kprobe_frame *f = kprobe_top_frame();

	if (user_mode(regs) || !f)
		return 0;
	if (f->status != KPROBE_HIT_SS && f->status != KPROBE_REENTER)
		return 0;
	if (regs->nip != slot_end(f))
		return 0;
	ppc_kprobe_copy_irqs_back(regs, &f->arch);
	regs_set_return_ip(regs, (unsigned long)f->site->addr +
				 ppc_inst_len(f->site->ainsn.insn));
	kprobe_step_done(f, regs);
	kprobe_count_trap();
	return 1;
}

NOKPROBE_SYMBOL(kprobe_post_handler);

/*
 * The copy faulted: put the context back on the probed instruction, not
 * single-stepping, with the caller's interrupt state, and drop the hit.
 * The fault is then handled as if the original instruction had taken it.
 */
static void rewind_step(struct kprobe_frame *f, struct pt_regs *regs)
{
	regs_set_return_msr(regs, regs->msr & ~MSR_SINGLESTEP);
	ppc_kprobe_copy_irqs_back(regs, &f->arch);
	regs_set_return_ip(regs, (unsigned long)f->site->addr);
	kprobe_frame_abort(f);
}

NOKPROBE_SYMBOL(rewind_step);

/**
 * kprobe_fault_handler - a fault while this CPU processes a probe hit
 * @regs: the faulting context
 * @trapnr: the cause the fault path passes (SIGSEGV for a page fault)
 *
 * Return: 1 if a probe's fault handler took care of the fault, 0 to let
 * the kernel handle it.
 */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	struct kprobe_frame *f = kprobe_top_frame();
	struct kprobe_site *site;
	bool nested;

	/*
	 * No frame: a handler that runs without one (pre handlers until the
	 * hit needs a frame, return handlers) or none at all.
	 */
	if (!f)
		return kprobe_fault_in_handler(regs, trapnr);

	switch (f->status) {
	case KPROBE_HIT_SS:
	case KPROBE_REENTER:
		site = f->site;
		if (regs->nip != (unsigned long)site->ainsn.slot)
			return 0;
		nested = f->status == KPROBE_REENTER;
		rewind_step(f, regs);
		/* A nested hit runs no handler, not even a fault handler. */
		return !nested && kprobe_fault_in_step(site, regs, trapnr);
	case KPROBE_HIT_ACTIVE:
	case KPROBE_HIT_SSDONE:
	case KPROBE_HIT_JPROBE:
		return kprobe_fault_in_handler(regs, trapnr);
	}
	return 0;
}

NOKPROBE_SYMBOL(kprobe_fault_handler);

/*
 * The ftrace call site among a function's first instructions, with
 * KPROBES_ON_FTRACE: -mprofile-kernel puts it after "mflr r0" (and, with
 * older compilers, a "std r0"), past the ELFv2 local entry.  0 if none.
 */
static unsigned long entry_ftrace_site(unsigned long func)
{
	unsigned long site;

	if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))
		return 0;
	site = ftrace_location(func);
	return site > func && site - func <= 16 ? site : 0;
}

/**
 * arch_adjust_kprobe_addr - the address to probe for a symbol and offset
 * @addr: start of the function
 * @offset: offset asked for inside it
 * @on_func_entry: set when the result is the function's entry
 *
 * On ELFv2 a function that sets up its TOC pointer has a global entry,
 * the symbol, and a local one after that setup, where calls from the same
 * TOC land: a probe on the function (offset 0) goes there, as on the
 * stock kernel, so that every call hits it; or, when the function has an
 * ftrace call site among its first instructions and probes may use it,
 * onto that site, whose probes ftrace runs.  The local entry and the
 * site asked for by their offsets are the entry too.
 *
 * Return: the address to probe.
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry)
{
	unsigned long local = ppc_function_entry((void *)addr) - addr;
	unsigned long site = entry_ftrace_site(addr);

	if (!IS_ENABLED(CONFIG_PPC64_ELF_ABI_V2))
		local = 0;
	*on_func_entry = !offset || offset == local ||
			 (site && offset == site - addr);
	if (offset)
		return (kprobe_opcode_t *)(addr + offset);
	return (kprobe_opcode_t *)(site ?: addr + local);
}

static bool within(unsigned long addr, const char *start, const char *end)
{
	return addr >= (unsigned long)start && addr < (unsigned long)end;
}

/**
 * arch_within_kprobe_blacklist - powerpc text that is never probed
 * @addr: a text address
 *
 * Return: true for .kprobes.text, the interrupt entry text and the head
 * text (_stext to __head_end): the interrupt vectors and exception
 * prologues, the TLB-miss handlers of the 32-bit MMUs, which run with
 * translation off or with no stack to take a trap on.
 */
bool arch_within_kprobe_blacklist(unsigned long addr)
{
	return within(addr, __kprobes_text_start, __kprobes_text_end) ||
	       within(addr, __irqentry_text_start, __irqentry_text_end) ||
	       within(addr, _stext, __head_end);
}

/**
 * arch_populate_kprobe_blacklist - list the interrupt and head text in
 * debugfs too
 *
 * Return: 0 or -ENOMEM.
 */
int __init arch_populate_kprobe_blacklist(void)
{
	int ret = kprobe_add_area_blacklist((unsigned long)__irqentry_text_start,
					    (unsigned long)__irqentry_text_end);

	return ret ?: kprobe_add_area_blacklist((unsigned long)_stext,
						(unsigned long)__head_end);
}

/**
 * arch_jprobe_stack_room - how much stack lies above a stack pointer
 * @sp: a stack pointer of the current context
 *
 * Return: the bytes from @sp to the end of the task's stack; 0 when @sp
 * is on another stack (an interrupt or emergency stack), whose top is
 * not copied.
 */
unsigned long arch_jprobe_stack_room(unsigned long sp)
{
	unsigned long low = (unsigned long)task_stack_page(current);

	if (sp < low || sp >= low + THREAD_SIZE)
		return 0;
	return low + THREAD_SIZE - sp;
}

NOKPROBE_SYMBOL(arch_jprobe_stack_room);
