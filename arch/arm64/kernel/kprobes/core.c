// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 kprobes: the breakpoints, and what comes back to us after them.
 *
 * call_el1_break_hook() sends two BRK immediates here, with interrupts
 * masked:
 *
 *   KPROBES_BRK_IMM     a probed instruction was hit: the core's
 *                       kprobe_breakpoint_hit() takes it from there;
 *   KPROBES_BRK_SS_IMM  either the BRK after an out-of-line copy (the
 *                       instruction is done and the hit can finish) or
 *                       the one in jprobe_return() (a jprobe's mirror is
 *                       done).
 *
 * The copy runs with every DAIF exception masked, so neither an
 * interrupt nor a debug exception can come between the two BRKs on this
 * CPU; the caller's DAIF bits are kept in the hit's frame and put back
 * when the copy is done.  A page fault taken by the copy reaches
 * kprobe_fault_handler() through kprobe_page_fault().
 */
#include <linux/extable.h>
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/sched/task_stack.h>
#include <asm/daifflags.h>
#include <asm/debug-monitors.h>
#include <asm/sections.h>
#include <asm/stacktrace.h>
#include <asm/virt.h>

#include "internal.h"

/**
 * arch_prepare_kprobe_site - check a probed address and plan its hits
 * @site: the new site
 *
 * Called under kprobe_text_lock().
 *
 * Return: 0; -EINVAL for an address that is not word-aligned, that has
 * an exception-table entry or whose instruction may not be probed (see
 * decode.c); -EFAULT when the text cannot be read, -EBUSY when it holds
 * a breakpoint of ours already; -ENOMEM.
 */
int arch_prepare_kprobe_site(struct kprobe_site *site)
{
	struct arch_specific_insn *ai = &site->ainsn;
	unsigned long addr = (unsigned long)site->addr;
	int ret;

	lockdep_assert_held(&text_mutex);

	/* 1. A word-aligned instruction without a fixup. */
	if (!IS_ALIGNED(addr, AARCH64_INSN_SIZE) ||
	    search_exception_tables(addr))
		return -EINVAL;

	/* 2. The original instruction, and how it runs. */
	ret = arm64_kprobe_read_orig(site->addr, &ai->insn);
	if (ret)
		return ret;
	site->opcode = ai->insn;
	ret = arm64_kprobe_decode(addr, ai->insn, &ai->simulate);
	if (ret || ai->simulate)
		return ret;

	/* 3. Out of line: the copy and the step BRK in a slot. */
	ai->slot = kprobe_slot_alloc_locked();
	if (!ai->slot)
		return -ENOMEM;
	ret = arm64_kprobe_slot_write(ai->slot, ai->insn);
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

/**
 * arch_kprobe_step - execute the probed instruction for a hit
 * @site: the site that was hit
 * @regs: the trapped context; regs->pc is the probed address
 * @frame: the hit's frame, for the caller's DAIF bits
 * @way: how the core wants the hit to leave the instruction; there is
 *	no boosted copy on arm64, so every copy comes back
 *
 * Return: true when the instruction was simulated (@regs are after it),
 * false when the CPU was sent to the copy in the slot, whose BRK comes
 * back to kprobe_ss_brk_handler().
 */
bool __kprobes arch_kprobe_step(struct kprobe_site *site,
				struct pt_regs *regs,
				struct kprobe_frame *frame,
				enum kprobe_step_way way)
{
	const struct arch_specific_insn *ai = &site->ainsn;

	if (ai->simulate) {
		ai->simulate(ai->insn, (unsigned long)site->addr, regs);
		return true;
	}
	frame->arch.daif = regs->pstate & DAIF_MASK;
	regs->pstate |= DAIF_MASK;
	instruction_pointer_set(regs, (unsigned long)ai->slot);
	return false;
}

/* Put the caller's DAIF bits back after the copy of @f's instruction. */
static nokprobe_inline void restore_daif(struct kprobe_frame *f,
					 struct pt_regs *regs)
{
	regs->pstate = (regs->pstate & ~DAIF_MASK) | f->arch.daif;
}

/*
 * The BRK at @pc ends the innermost out-of-line copy: the CPU goes on
 * after the original instruction; step 3 of the hit.
 */
static nokprobe_inline bool finish_step(struct kprobe_frame *f,
					struct pt_regs *regs, unsigned long pc)
{
	const struct arch_specific_insn *ai;

	if (!f || (f->status != KPROBE_HIT_SS && f->status != KPROBE_REENTER))
		return false;
	ai = &f->site->ainsn;
	if (!ai->slot || pc != (unsigned long)(ai->slot + 1))
		return false;
	restore_daif(f, regs);
	instruction_pointer_set(regs, (unsigned long)f->site->addr +
				      AARCH64_INSN_SIZE);
	kprobe_step_done(f, regs);
	return true;
}

/**
 * kprobe_brk_handler - BRK #KPROBES_BRK_IMM in kernel mode
 * @regs: the trapped context
 * @esr: the exception syndrome
 *
 * Return: DBG_HOOK_HANDLED, or DBG_HOOK_ERROR for a BRK that is not a
 * probe's (nor one taken out since this CPU trapped on it).
 */
int __kprobes kprobe_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	kprobe_opcode_t *addr = (kprobe_opcode_t *)instruction_pointer(regs);

	if (user_mode(regs))
		return DBG_HOOK_ERROR;
	return kprobe_breakpoint_hit(addr, regs) ? DBG_HOOK_HANDLED :
						   DBG_HOOK_ERROR;
}

/*
 * The BRK in jprobe_return(): the end of a jprobe's mirror, or a call
 * from anywhere else, which is named once in the log and returns.
 */
static noinline int jprobe_return_trap(struct pt_regs *regs)
{
	if (!kprobe_jprobe_return(regs)) {
		pr_warn_once("kprobes: jprobe_return() called outside a jprobe mirror, from %pS\n",
			     (void *)procedure_link_pointer(regs));
		instruction_pointer_set(regs, instruction_pointer(regs) +
					      AARCH64_INSN_SIZE);
	}
	kprobe_count_trap();
	return DBG_HOOK_HANDLED;
}

NOKPROBE_SYMBOL(jprobe_return_trap);

/**
 * kprobe_ss_brk_handler - BRK #KPROBES_BRK_SS_IMM in kernel mode
 * @regs: the trapped context
 * @esr: the exception syndrome
 *
 * Return: DBG_HOOK_HANDLED for the end of an out-of-line copy or of a
 * jprobe's mirror, DBG_HOOK_ERROR otherwise.
 */
int __kprobes kprobe_ss_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	unsigned long pc = instruction_pointer(regs);

	if (user_mode(regs))
		return DBG_HOOK_ERROR;
	if (finish_step(kprobe_top_frame(), regs, pc)) {
		kprobe_count_trap();
		return DBG_HOOK_HANDLED;
	}
	if (pc == (unsigned long)arm64_jprobe_return_brk)
		return jprobe_return_trap(regs);
	return DBG_HOOK_ERROR;
}

/*
 * The out-of-line copy faulted: put the context back on the probed
 * instruction, with the caller's DAIF bits, and drop the hit.  The fault
 * is then handled as if the original instruction had taken it.
 */
static void rewind_step(struct kprobe_frame *f, struct pt_regs *regs)
{
	restore_daif(f, regs);
	instruction_pointer_set(regs, (unsigned long)f->site->addr);
	kprobe_frame_abort(f);
}

NOKPROBE_SYMBOL(rewind_step);

/**
 * kprobe_fault_handler - a fault while this CPU processes a probe hit
 * @regs: the faulting context
 * @trapnr: the exception syndrome (ESR) the fault path passes
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
		if (instruction_pointer(regs) != (unsigned long)site->ainsn.slot)
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

/**
 * arch_adjust_kprobe_addr - the address to probe for a symbol and offset
 * @addr: start of the function
 * @offset: offset asked for inside it
 * @on_func_entry: set when the result is the function's entry
 *
 * Nothing at an arm64 function's start must stay intact: a BTI landing
 * pad runs out of line like any hint.
 *
 * Return: @addr + @offset.
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry)
{
	*on_func_entry = !offset;
	return (kprobe_opcode_t *)(addr + offset);
}

static bool within(unsigned long addr, const char *start, const char *end)
{
	return addr >= (unsigned long)start && addr < (unsigned long)end;
}

/**
 * arch_within_kprobe_blacklist - arm64 text that is never probed
 * @addr: a text address
 *
 * Return: true for the exception entry code, .kprobes.text, the
 * identity-mapped text and, when the kernel does not run at EL2 itself,
 * the hypervisor's text.
 */
bool arch_within_kprobe_blacklist(unsigned long addr)
{
	return within(addr, __entry_text_start, __entry_text_end) ||
	       within(addr, __kprobes_text_start, __kprobes_text_end) ||
	       within(addr, __irqentry_text_start, __irqentry_text_end) ||
	       within(addr, __idmap_text_start, __idmap_text_end) ||
	       within(addr, __hyp_idmap_text_start, __hyp_idmap_text_end) ||
	       (!is_kernel_in_hyp_mode() &&
		within(addr, __hyp_text_start, __hyp_text_end));
}

/**
 * arch_populate_kprobe_blacklist - list those areas in debugfs too
 *
 * Return: 0 or -ENOMEM.
 */
int __init arch_populate_kprobe_blacklist(void)
{
	static const struct {
		const char *start, *end;
	} areas[] = {
		{ __entry_text_start, __entry_text_end },
		{ __irqentry_text_start, __irqentry_text_end },
		{ __idmap_text_start, __idmap_text_end },
		{ __hyp_idmap_text_start, __hyp_idmap_text_end },
	};
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(areas) && !ret; i++)
		ret = kprobe_add_area_blacklist((unsigned long)areas[i].start,
						(unsigned long)areas[i].end);
	if (!ret && !is_kernel_in_hyp_mode())
		ret = kprobe_add_area_blacklist((unsigned long)__hyp_text_start,
						(unsigned long)__hyp_text_end);
	return ret;
}

/**
 * arch_jprobe_stack_room - how much stack lies above a stack pointer
 * @sp: a stack pointer of the current context
 *
 * Return: the bytes from @sp to the end of the task or IRQ stack it lies
 * on; 0 if it is on neither (overflow and SDEI stacks are not copied).
 */
unsigned long arch_jprobe_stack_room(unsigned long sp)
{
	struct stack_info info = stackinfo_get_task(current);

	if (stackinfo_on_stack(&info, sp, 1))
		return info.high - sp;
	info = stackinfo_get_irq();
	if (stackinfo_on_stack(&info, sp, 1))
		return info.high - sp;
	return 0;
}

NOKPROBE_SYMBOL(arch_jprobe_stack_room);
