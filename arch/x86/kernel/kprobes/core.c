// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes: the breakpoint, and what comes back to us after it.
 *
 * INT3 reaches kprobe_int3_handler() for three reasons: a probed
 * instruction was hit (the core's kprobe_breakpoint_hit() takes it from
 * there), an out-of-line copy of an instruction that cannot be boosted
 * finished (the INT3 after it in the slot), or a jprobe's mirror called
 * jprobe_return().  The copy of a boostable instruction whose hit has
 * post handlers comes back without a trap, through the step trampoline
 * (step_*.S) and x86_kprobe_step_return().  Faults taken while a
 * probe is being processed reach kprobe_fault_handler() through the #GP
 * and #PF handlers.
 *
 * While a copy that comes back to us runs, interrupts stay off, so
 * neither an interrupt handler nor the scheduler can come between the
 * breakpoint and the end of the hit on this CPU.  The caller's interrupt
 * flag is kept in the hit's frame and put back when the copy is done.
 * For boosted copies, see boost_entry(); on kernels without preemption
 * the core sends the CPU into them by itself (&kprobe_site.boost_to).
 */
#include <linux/kprobes.h>
#include <linux/irqflags.h>
#include <linux/uaccess.h>
#include <asm/text-patching.h>
#include <asm/sections.h>
#include <asm/ibt.h>
#include <asm/extable.h>
#include <asm/trapnr.h>
#include <asm/stacktrace.h>

#include "internal.h"

/*
 * Where a boosted copy starts in the slot, and with which interrupt flag.
 *
 * A slot is freed one RCU grace period after its site went (core.c), so
 * no task may be scheduled away while inside it.  Without kernel
 * preemption an interrupt cannot do that: the copy keeps the caller's
 * flag, and an interrupted CPU holds the grace period back until it has
 * left the slot.  With preemption the copy runs with interrupts off and,
 * for a caller that had them on, ends in STI; JMP: STI takes effect after
 * the JMP, back in the original code.  (Turning interrupts on costs an
 * emulator like QEMU a trip through its main loop, so the STI is only
 * there when it is needed.)
 */
static nokprobe_inline unsigned long boost_entry(struct pt_regs *regs)
{
	if (!X86_KPROBE_BOOST_IRQS_OFF || !(regs->flags & X86_EFLAGS_IF))
		return KPROBE_SLOT_BOOST;
	regs->flags &= ~X86_EFLAGS_IF;
	return KPROBE_SLOT_BOOST_STI;
}

/**
 * arch_kprobe_step - execute the probed instruction for a hit
 * @site: the site that was hit
 * @regs: the trapped context; regs->ip is just after the breakpoint
 * @frame: the hit's frame, for the saved interrupt flag
 * @way: how the core wants the hit to leave the instruction
 *
 * Emulated instructions are done here, whatever @way says.  Otherwise a
 * boosted copy (%KPROBE_STEP_BOOST) jumps back by itself (see
 * boost_entry()).  The other copy (%KPROBE_STEP_BACK, or a boost of an
 * instruction that is not boostable) runs with interrupts off and comes
 * back to kprobes: through the step trampoline, or for an instruction
 * that is not boostable, through an INT3.  %KPROBE_STEP_DETOUR (jump
 * optimization under way) sends the CPU through the detour's copy of the
 * whole region instead, with the caller's interrupt flag, and
 * %KPROBE_STEP_DETOUR_BACK through the detour's way with a stop after
 * the first instruction (opt.c), with interrupts off.
 *
 * Return: true when nothing more comes back to kprobes for this hit: the
 * instruction was emulated (@regs point after it) or the CPU was sent
 * through a boosted copy or the detour's whole copy; false when the copy
 * comes back through the step trampoline, the slot's INT3 or
 * x86_kprobe_detour_post().
 */
bool __kprobes arch_kprobe_step(struct kprobe_site *site,
				struct pt_regs *regs,
				struct kprobe_frame *frame,
				enum kprobe_step_way way)
{
	const struct arch_specific_insn *ai = &site->ainsn;
	unsigned long caller_if = regs->flags & X86_EFLAGS_IF;

	if (ai->emulate) {
		ai->emulate(ai, regs, (unsigned long)site->addr);
		return true;
	}
	/* Into or out of jump optimization: the region runs in the detour. */
	if (way == KPROBE_STEP_DETOUR) {
		regs->ip = (unsigned long)ai->detour + x86_detour_copy_offset();
		return true;
	}
	/* The same, with a stop after the first instruction (opt.c). */
	if (way == KPROBE_STEP_DETOUR_BACK) {
		regs->flags &= ~X86_EFLAGS_IF;
		frame->arch.caller_if = caller_if;
		regs->ip = (unsigned long)ai->detour + ai->opt_step;
		return false;
	}
	if (way == KPROBE_STEP_BOOST && ai->boostable) {
		regs->ip = (unsigned long)ai->slot + boost_entry(regs);
		return true;
	}
	regs->flags &= ~X86_EFLAGS_IF;
	frame->arch.caller_if = caller_if;
	regs->ip = (unsigned long)ai->slot + KPROBE_SLOT_STEP;
	return false;
}

/*
 * The copy of the innermost hit's instruction is done and came back to
 * us: the CPU goes on after the original, with the caller's interrupt
 * flag (instructions that change it are emulated); step 3.
 */
static nokprobe_inline void step_came_back(struct kprobe_frame *f,
					   struct pt_regs *regs)
{
	const struct arch_specific_insn *ai = &f->site->ainsn;

	regs->ip = (unsigned long)f->site->addr + ai->len;
	regs->flags |= f->arch.caller_if;
	kprobe_step_done(f, regs);
}

/**
 * x86_kprobe_step_return - a boostable instruction's copy is done
 * @regs: the registers it left, saved by the step trampoline; regs->ip
 *	is to be set
 *
 * Called by the step trampoline (step_*.S) with interrupts off, as
 * the copy ran, in the context of the probed code, not of an exception:
 * the hit ends here as it would at the INT3 of finish_step(), and the
 * trampoline IRETs to regs->ip with regs->flags.  Lockdep still thinks
 * interrupts are as the caller had them: for the post handlers, it is
 * told the truth.  Only lockdep, against which their locking is checked:
 * for the irq tracepoints and the irqsoff tracer, the short section with
 * interrupts off that began at the trap's exit (the copy ran in it) stays
 * unreported to its end.
 */
__visible void __kprobes x86_kprobe_step_return(struct pt_regs *regs)
{
	struct kprobe_frame *f = kprobe_top_frame();
	unsigned long caller_if = f->arch.caller_if;

	if (caller_if)
		lockdep_hardirqs_off(_THIS_IP_);
	lockdep_assert_irqs_disabled();
	step_came_back(f, regs);
	if (caller_if) {
		lockdep_hardirqs_on_prepare();
		lockdep_hardirqs_on(_THIS_IP_);
	}
}

/**
 * x86_kprobe_detour_post - the detour's copy of the first instruction is done
 * @site: the detour's site
 * @regs: the registers that copy left, saved by the detour's second
 *	template; regs->ip is to be set
 *
 * Called by the detour (opt.c) with interrupts off, for a hit sent there
 * by %KPROBE_STEP_DETOUR_BACK, whose frame is the innermost.  The post
 * handlers see the instruction pointer after the original instruction.
 *
 * The copy of the rest that follows the template does not load
 * regs->sp: when a post handler moved it, the detour IRETs to that copy
 * instead, as it does to wherever a post handler moved regs->ip.
 *
 * Return: %X86_DETOUR_COPY when the detour runs the copy of the rest of
 * the region; %X86_DETOUR_IRET when a post handler moved regs->ip or
 * regs->sp, where the detour resumes.
 */
__visible u8 __kprobes x86_kprobe_detour_post(struct kprobe_site *site,
					      struct pt_regs *regs)
{
	const struct arch_specific_insn *ai = &site->ainsn;
	unsigned long next = (unsigned long)site->addr + ai->len;
	unsigned long sp = regs->sp;

	x86_kprobe_step_return(regs);
	if (regs->ip != next)
		return X86_DETOUR_IRET;
	if (regs->sp == sp)
		return X86_DETOUR_COPY;
	/*
	 * Way 2 of the detour (build_detour()): at opt_step the copy of
	 * the first instruction, as long as the original, then this
	 * template, then the copy of the rest.
	 */
	regs->ip = (unsigned long)ai->detour + ai->opt_step + ai->len +
		   x86_detour_copy_offset();
	return X86_DETOUR_IRET;
}

/* The INT3 at @addr ends the innermost out-of-line copy: finish the hit. */
static nokprobe_inline bool finish_step(struct kprobe_frame *f,
					struct pt_regs *regs,
					kprobe_opcode_t *addr)
{
	const struct arch_specific_insn *ai;

	if (f->status != KPROBE_HIT_SS && f->status != KPROBE_REENTER)
		return false;
	ai = &f->site->ainsn;
	if (!ai->slot || addr != ai->slot + ai->len)
		return false;
	step_came_back(f, regs);
	return true;
}

/*
 * The breakpoint in jprobe_return(): the end of a jprobe's mirror, or a
 * call from anywhere else, a bug in the caller.  That one is named once
 * in the log (the return address on the stack is the caller), and the
 * RET after the breakpoint then returns to it.  Not a WARN: the caller
 * is told who it is, and nothing in kprobes is left in a bad state.
 */
static noinline int jprobe_return_trap(struct pt_regs *regs)
{
	if (!kprobe_jprobe_return(regs))
		pr_warn_once("kprobes: jprobe_return() called outside a jprobe mirror, from %pS\n",
			     (void *)*(unsigned long *)regs->sp);
	kprobe_count_trap();
	return 1;
}

NOKPROBE_SYMBOL(jprobe_return_trap);

/*
 * kprobe_int3_handler()'s cases for an INT3 taken while this CPU is in
 * the middle of a hit: 1 and 2 can only happen then and are looked at
 * first; 3 and 4 are the core's.  Out of line: the common trap finds no
 * hit in progress.
 */
static noinline int __kprobes int3_during_hit(struct pt_regs *regs,
					      kprobe_opcode_t *addr)
{
	struct kprobe_frame *f = kprobe_top_frame();

	/* 1. The end of an out-of-line copy. */
	if (finish_step(f, regs, addr)) {
		kprobe_count_trap();
		return 1;
	}

	/* 2. The end of a jprobe's mirror function. */
	if (regs->ip == (unsigned long)x86_jprobe_return_trap)
		return jprobe_return_trap(regs);

	/*
	 * 3 and 4. A probe hit from a handler, or while an NMI interrupted
	 * a hit, or a breakpoint already taken out.
	 */
	return kprobe_breakpoint_hit(addr, regs);
}

/**
 * kprobe_int3_handler - INT3 in kernel mode; is it ours?
 * @regs: the trapped context
 *
 * Called by do_int3() with interrupts off.  An INT3 is ours when it is
 * 1. the end of an out-of-line copy, 2. the breakpoint in
 * jprobe_return(), 3. a probe's breakpoint, or 4. a probe's breakpoint
 * taken out after this CPU trapped on it.  The first two only happen in
 * the middle of a hit; the core tells the last two apart.
 *
 * Return: 1 if kprobes handled the trap, 0 if it belongs to someone else.
 */
int __kprobes kprobe_int3_handler(struct pt_regs *regs)
{
	kprobe_opcode_t *addr = (kprobe_opcode_t *)(regs->ip - INT3_INSN_SIZE);

	if (user_mode(regs))
		return 0;
	if (unlikely(kprobe_hit_in_progress()))
		return int3_during_hit(regs, addr);
	if (kprobe_breakpoint_hit(addr, regs))
		return 1;
	/* 2, with no hit to end: jprobe_return() called out of place. */
	if (regs->ip == (unsigned long)x86_jprobe_return_trap)
		return jprobe_return_trap(regs);
	return 0;
}

/* Is @ip the copy of @site's instruction that a hit in step runs? */
static bool in_step_copy(struct kprobe_site *site, unsigned long ip)
{
	const struct arch_specific_insn *ai = &site->ainsn;

	if (ip == (unsigned long)ai->slot)
		return true;
	return ai->detour && ip == (unsigned long)ai->detour + ai->opt_step;
}

NOKPROBE_SYMBOL(in_step_copy);

/*
 * The out-of-line copy faulted: put the context back on the probed
 * instruction, with the caller's interrupt flag, and drop the hit.  The
 * fault is then handled as if the original instruction had taken it, so
 * exception-table fixups for that address apply.
 */
static void rewind_step(struct kprobe_frame *f, struct pt_regs *regs)
{
	regs->ip = (unsigned long)f->site->addr;
	regs->flags |= f->arch.caller_if;
	kprobe_frame_abort(f);
}

NOKPROBE_SYMBOL(rewind_step);

/*
 * The #PF path looks for exception-table fixups after asking kprobes, so
 * the rewound address is enough there.  The #GP path looked before, at
 * the slot address, and found nothing: look again for the original.
 */
static int fixup_rewound(struct pt_regs *regs, int trapnr)
{
	if (trapnr == X86_TRAP_PF)
		return 0;
	return fixup_exception(regs, trapnr, current->thread.error_code, 0);
}

NOKPROBE_SYMBOL(fixup_rewound);

/**
 * kprobe_fault_handler - a fault while this CPU processes a probe hit
 * @regs: the faulting context
 * @trapnr: the trap number
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
		if (!in_step_copy(site, regs->ip))
			return 0;
		nested = f->status == KPROBE_REENTER;
		rewind_step(f, regs);
		/* A nested hit runs no handler, not even a fault handler. */
		if (!nested && kprobe_fault_in_step(site, regs, trapnr))
			return 1;
		return fixup_rewound(regs, trapnr);
	case KPROBE_HIT_ACTIVE:
	case KPROBE_HIT_SSDONE:
	case KPROBE_HIT_JPROBE:
		return kprobe_fault_in_handler(regs, trapnr);
	}
	return 0;
}

NOKPROBE_SYMBOL(kprobe_fault_handler);

/**
 * arch_adjust_kprobe_addr - step over ENDBR64 at a function entry
 * @addr: start of the function
 * @offset: offset asked for inside it
 * @on_func_entry: set when the result is the function's entry
 *
 * With IBT, "the entry" is the instruction after ENDBR64: an indirect
 * call lands on ENDBR64, which must stay intact.
 *
 * Return: the address to probe.
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry)
{
	u32 first;
	bool endbr = !get_kernel_nofault(first, (u32 *)addr) &&
		     is_endbr(first);

	if (endbr && !offset)
		offset = ENDBR_INSN_SIZE;
	*on_func_entry = !offset || (endbr && offset == ENDBR_INSN_SIZE);
	return (kprobe_opcode_t *)(addr + offset);
}

/**
 * arch_within_kprobe_blacklist - x86 text that is never probed
 * @addr: a text address
 *
 * Return: true for the entry code and the .kprobes.text section.
 */
bool arch_within_kprobe_blacklist(unsigned long addr)
{
	return (addr >= (unsigned long)__entry_text_start &&
		addr < (unsigned long)__entry_text_end) ||
	       (addr >= (unsigned long)__kprobes_text_start &&
		addr < (unsigned long)__kprobes_text_end);
}

/**
 * arch_populate_kprobe_blacklist - list the entry code in debugfs too
 *
 * Return: 0 or -ENOMEM.
 */
int __init arch_populate_kprobe_blacklist(void)
{
	return kprobe_add_area_blacklist((unsigned long)__entry_text_start,
					 (unsigned long)__entry_text_end);
}

/**
 * arch_jprobe_stack_room - how much stack lies above a stack pointer
 * @sp: a stack pointer of the current context
 *
 * Return: the bytes from @sp to the end of the stack (task, IRQ or
 * exception stack) it lies on; 0 if it is on none of them.
 */
unsigned long arch_jprobe_stack_room(unsigned long sp)
{
	struct stack_info info;

	if (get_stack_info((unsigned long *)sp, current, &info, NULL))
		return 0;
	return (unsigned long)info.end - sp;
}

NOKPROBE_SYMBOL(arch_jprobe_stack_room);
