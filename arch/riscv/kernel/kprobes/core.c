// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RISC-V kprobes: the breakpoints, and what comes back to us after them.
 *
 * handle_break() asks kprobe_single_step_handler() first, then
 * kprobe_breakpoint_handler(), then BUG() and kgdb, for every kernel
 * EBREAK:
 *
 *   kprobe_single_step_handler()  the EBREAK after an out-of-line copy
 *                                 (the instruction is done and the hit
 *                                 can finish), or the one in
 *                                 jprobe_return() (a jprobe's mirror is
 *                                 done): both known by their address;
 *   kprobe_breakpoint_handler()   a probed instruction was hit: the
 *                                 core's kprobe_breakpoint_hit() takes it
 *                                 from there, and tells a breakpoint of
 *                                 someone else's apart.
 *
 * The copy runs with interrupts off (SPIE cleared in the saved status,
 * so that SRET leaves them off), and the caller's SPIE comes back with
 * the second trap.  A page fault taken by the copy reaches
 * kprobe_fault_handler() through kprobe_page_fault().
 */
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/sched/task_stack.h>
#include <asm/csr.h>
#include <asm/sections.h>

#include "internal.h"

/**
 * arch_prepare_kprobe_site - check a probed address and plan its hits
 * @site: the new site
 *
 * Called under kprobe_text_lock().
 *
 * Return: 0; -EILSEQ for an address inside an instruction; -EINVAL for
 * an instruction that may not be probed (see decode.c); -EFAULT when the
 * text cannot be read, -EBUSY when it holds a breakpoint of ours
 * already; -ENOMEM.
 */
int arch_prepare_kprobe_site(struct kprobe_site *site)
{
	struct arch_specific_insn *ai = &site->ainsn;
	unsigned long addr = (unsigned long)site->addr;
	int ret;

	lockdep_assert_held(&text_mutex);

	/* 1. An instruction boundary of its function. */
	ret = riscv_kprobe_check_boundary(addr);
	if (ret)
		return ret;

	/* 2. The original instruction, and how it runs. */
	ret = riscv_kprobe_read_orig(site->addr, &ai->insn, &ai->len);
	if (ret)
		return ret;
	site->opcode = ai->insn;
	ret = riscv_kprobe_decode(addr, ai->insn, &ai->simulate);
	if (ret || ai->simulate)
		return ret;

	/* 3. Out of line: the copy and an EBREAK in a slot. */
	ai->slot = kprobe_slot_alloc_locked();
	if (!ai->slot)
		return -ENOMEM;
	ret = riscv_kprobe_slot_write(ai->slot, ai->insn, ai->len);
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
 * @regs: the trapped context; regs->epc is the probed address
 * @frame: the hit's frame, for the caller's SPIE bit
 * @way: how the core wants the hit to leave the instruction; there is
 *	no boosted copy on RISC-V, so every copy comes back
 *
 * Return: true when the instruction was simulated (@regs are after it),
 * false when the CPU was sent to the copy in the slot, whose EBREAK
 * comes back to kprobe_single_step_handler().
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
	frame->arch.spie = regs->status & SR_SPIE;
	regs->status &= ~SR_SPIE;
	instruction_pointer_set(regs, (unsigned long)ai->slot);
	return false;
}

/* The end of the copy of @f's instruction, in the slot. */
static nokprobe_inline unsigned long slot_end(struct kprobe_frame *f)
{
	return (unsigned long)f->site->ainsn.slot + f->site->ainsn.len;
}

/*
 * The EBREAK at @pc ends the innermost out-of-line copy: the CPU goes on
 * after the original instruction, with the caller's SPIE; step 3.
 */
static nokprobe_inline bool finish_step(struct kprobe_frame *f,
					struct pt_regs *regs, unsigned long pc)
{
	if (!f || (f->status != KPROBE_HIT_SS && f->status != KPROBE_REENTER))
		return false;
	if (!f->site->ainsn.slot || pc != slot_end(f))
		return false;
	regs->status |= f->arch.spie;
	instruction_pointer_set(regs, (unsigned long)f->site->addr +
				      f->site->ainsn.len);
	kprobe_step_done(f, regs);
	return true;
}

/**
 * kprobe_breakpoint_handler - a kernel EBREAK that may be a probe's
 * @regs: the trapped context
 *
 * Return: true if kprobes handled it.
 */
bool __kprobes kprobe_breakpoint_handler(struct pt_regs *regs)
{
	if (user_mode(regs))
		return false;
	return kprobe_breakpoint_hit((kprobe_opcode_t *)regs->epc, regs);
}

/*
 * The EBREAK in jprobe_return(): the end of a jprobe's mirror, or a call
 * from anywhere else, which is named once in the log and returns.
 */
static noinline bool jprobe_return_trap(struct pt_regs *regs)
{
	if (!kprobe_jprobe_return(regs)) {
		pr_warn_once("kprobes: jprobe_return() called outside a jprobe mirror, from %pS\n",
			     (void *)regs->ra);
		regs->epc += 4;
	}
	kprobe_count_trap();
	return true;
}

NOKPROBE_SYMBOL(jprobe_return_trap);

/**
 * kprobe_single_step_handler - the EBREAK after a copy, or a jprobe's
 * @regs: the trapped context
 *
 * Return: true if kprobes handled it.
 */
bool __kprobes kprobe_single_step_handler(struct pt_regs *regs)
{
	if (user_mode(regs))
		return false;
	if (finish_step(kprobe_top_frame(), regs, regs->epc)) {
		kprobe_count_trap();
		return true;
	}
	if (regs->epc == (unsigned long)riscv_jprobe_return_brk)
		return jprobe_return_trap(regs);
	return false;
}

/*
 * The out-of-line copy faulted: put the context back on the probed
 * instruction, with the caller's SPIE, and drop the hit.  The fault is
 * then handled as if the original instruction had taken it.
 */
static void rewind_step(struct kprobe_frame *f, struct pt_regs *regs)
{
	regs->status |= f->arch.spie;
	instruction_pointer_set(regs, (unsigned long)f->site->addr);
	kprobe_frame_abort(f);
}

NOKPROBE_SYMBOL(rewind_step);

/**
 * kprobe_fault_handler - a fault while this CPU processes a probe hit
 * @regs: the faulting context
 * @trapnr: the cause the fault path passes
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
		if (regs->epc != (unsigned long)site->ainsn.slot)
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
 * arch_within_kprobe_blacklist - RISC-V text that is never probed
 * @addr: a text address
 *
 * Return: true for .kprobes.text and the exception entry code.
 */
bool arch_within_kprobe_blacklist(unsigned long addr)
{
	return within(addr, __kprobes_text_start, __kprobes_text_end) ||
	       within(addr, __entry_text_start, __entry_text_end) ||
	       within(addr, __irqentry_text_start, __irqentry_text_end);
}

/**
 * arch_populate_kprobe_blacklist - list the entry code in debugfs too
 *
 * Return: 0 or -ENOMEM.
 */
int __init arch_populate_kprobe_blacklist(void)
{
	int ret = kprobe_add_area_blacklist((unsigned long)__entry_text_start,
					    (unsigned long)__entry_text_end);

	return ret ?: kprobe_add_area_blacklist((unsigned long)__irqentry_text_start,
						(unsigned long)__irqentry_text_end);
}

/**
 * arch_jprobe_stack_room - how much stack lies above a stack pointer
 * @sp: a stack pointer of the current context
 *
 * Return: the bytes from @sp to the end of the task's stack; 0 when @sp
 * is on another stack (the IRQ or overflow stack), whose top is not
 * copied.
 */
unsigned long arch_jprobe_stack_room(unsigned long sp)
{
	unsigned long low = (unsigned long)task_stack_page(current);

	if (sp < low || sp >= low + THREAD_SIZE)
		return 0;
	return low + THREAD_SIZE - sp;
}

NOKPROBE_SYMBOL(arch_jprobe_stack_room);
