// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * s390 kprobes: the breakpoints, and what comes back to us after them.
 *
 * Everything reaches kprobes through the die chain, where this file
 * registers its notifier:
 *
 *   DIE_BPT    an operation exception in the kernel (illegal_op()): a
 *              probe hit, which the core's kprobe_breakpoint_hit() takes
 *              from there (and tells someone else's 0x0002 apart), or
 *              the breakpoint in jprobe_return();
 *   DIE_SSTEP  a PER event in the kernel (do_per_trap()): the copy of a
 *              probed instruction was fetched and has executed, and the
 *              hit can finish;
 *   DIE_TRAP   another program exception, which the copy may have taken.
 *
 * The program-check handler runs them with interrupts as the interrupted
 * context had them; the notifier turns them off around each hit.  The
 * common branches are carried out on the saved registers (simulate.c);
 * any other copy runs under PER instruction-fetch tracing of its slot alone
 * (%cr9-%cr11), with the PSW's I/O and external interrupt masks off,
 * and the step puts the hit's control registers and mask bits back.
 * Faults in the copy come through kprobe_page_fault() or DIE_TRAP.
 */
#include <linux/kdebug.h>
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/notifier.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <asm/dis.h>
#include <asm/lowcore.h>
#include <asm/sections.h>

#include "internal.h"

/* The PSW bits a copy runs without (I/O, external) or with (PER). */
#define STEP_MASK_BITS	(PSW_MASK_PER | PSW_MASK_IO | PSW_MASK_EXT)

/*
 * The first halfword of the instruction at @addr, without our
 * breakpoint: a site's original, or what the text holds.  Return: 0, or
 * -EINVAL where a 0x00xx halfword hides the instruction (someone else's
 * breakpoint, such as QEMU's gdbstub 0x0000), -EFAULT.
 */
static int first_halfword(kprobe_opcode_t *addr, u16 *hw)
{
	struct kprobe_site *site;
	int ret = s390_kprobe_read_orig(addr, hw);

	if (ret || *hw >> 8)
		return ret;
	site = *hw == BREAKPOINT_INSTRUCTION ? get_kprobe_site(addr) : NULL;
	if (!site)
		return -EINVAL;
	*hw = site->ainsn.insn[0];
	return 0;
}

/* Is @addr an instruction boundary of its function?  Decoded from its start. */
static int check_boundary(unsigned long addr)
{
	unsigned long off, at;
	u16 hw;
	int ret;

	if (addr & 1)
		return -EINVAL;
	if (!kprobe_func_bounds_text_locked(addr, NULL, &off))
		return -EINVAL;
	for (at = addr - off; at < addr; at += insn_length(hw >> 8)) {
		ret = first_halfword((kprobe_opcode_t *)at, &hw);
		if (ret)
			return ret;
	}
	return at == addr ? 0 : -EINVAL;
}

/*
 * Copy the instruction into its slot.  A relative-long instruction
 * (RIL-b/c: larl, brasl, lgrl, ...) gets the displacement that reaches,
 * from the slot, what it reached from @addr: slots are in the module
 * area, within 4 GB of all kernel and module text.
 */
static int copy_to_slot(struct arch_specific_insn *ai, unsigned long addr)
{
	u16 copy[3];
	s64 disp;

	memcpy(copy, ai->insn, ai->len);
	if (probe_is_insn_relative_long(copy)) {
		disp = *(s32 *)&copy[1];
		disp = (s64)(addr + 2 * disp - (unsigned long)ai->slot) / 2;
		if (disp != (s32)disp)
			return -ERANGE;
		*(s32 *)&copy[1] = disp;
	}
	return s390_kprobe_slot_write(ai->slot, copy, ai->len);
}

/**
 * arch_prepare_kprobe_site - check a probed address and copy its instruction
 * @site: the new site
 *
 * Called under kprobe_text_lock().
 *
 * Return: 0; -EINVAL, as on the stock kernel, for an odd address, one
 * that is not an instruction boundary of its function, or an
 * instruction that may not be stepped (probe_is_prohibited_opcode():
 * the execute instructions, the mode and state changes, transactions,
 * ...); -EFAULT when the text cannot be read; -ENOMEM.
 */
int arch_prepare_kprobe_site(struct kprobe_site *site)
{
	struct arch_specific_insn *ai = &site->ainsn;
	unsigned long addr = (unsigned long)site->addr;
	int ret, i;

	lockdep_assert_held(&text_mutex);

	/* 1. An instruction boundary, and the instruction there. */
	ret = check_boundary(addr);
	if (ret)
		return ret;
	ret = first_halfword(site->addr, &ai->insn[0]);
	if (ret)
		return ret;
	ai->len = insn_length(ai->insn[0] >> 8);
	for (i = 1; i < ai->len / 2; i++)
		if (get_kernel_nofault(ai->insn[i], site->addr + i))
			return -EFAULT;

	/* 2. Whether it may be stepped, and what its step must fix. */
	if (probe_is_prohibited_opcode(ai->insn))
		return -EINVAL;
	ai->fixup = probe_get_fixup_type(ai->insn);
	site->opcode = ai->insn[0];
	ai->simulate = s390_kprobe_simulates(ai->insn);

	/*
	 * 3. Its copy, but for a simulated branch: a simulated load takes
	 * it when the load cannot be read, to fault there.
	 */
	if (ai->simulate && !probe_is_insn_relative_long(ai->insn))
		return 0;
	ai->slot = kprobe_slot_alloc_locked();
	if (!ai->slot)
		return -ENOMEM;
	ret = copy_to_slot(ai, addr);
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
 * @regs: the trapped context
 * @frame: the hit's frame, for the PER registers and PSW bits it changes
 * @way: how the core wants the hit to leave the instruction; s390 has no
 *	boosted copy, so every copy comes back
 *
 * Return: true for a branch, carried out on @regs (simulate.c); false
 * when the CPU was sent to the copy in the slot, traced by PER, whose
 * event comes back as DIE_SSTEP.
 */
bool arch_kprobe_step(struct kprobe_site *site, struct pt_regs *regs,
		      struct kprobe_frame *frame, enum kprobe_step_way way)
{
	unsigned long slot = (unsigned long)site->ainsn.slot;
	struct ctlreg per[3] = {
		{ .val = PER_EVENT_IFETCH }, { .val = slot }, { .val = slot },
	};

	if (site->ainsn.simulate &&
	    s390_kprobe_simulate(site->ainsn.insn, (unsigned long)site->addr,
				 regs))
		return true;

	__local_ctl_store(9, 11, frame->arch.ctl);
	__local_ctl_load(9, 11, per);
	frame->arch.mask = regs->psw.mask & STEP_MASK_BITS;
	regs->psw.mask &= ~(PSW_MASK_IO | PSW_MASK_EXT);
	regs->psw.mask |= PSW_MASK_PER;
	regs->psw.addr = slot;
	return false;
}

NOKPROBE_SYMBOL(arch_kprobe_step);

/* The step of @f is over: the hit's PER registers and PSW bits back. */
static nokprobe_inline void step_off(struct kprobe_frame *f,
				     struct pt_regs *regs)
{
	__local_ctl_load(9, 11, f->arch.ctl);
	regs->psw.mask &= ~STEP_MASK_BITS;
	regs->psw.mask |= f->arch.mask;
}

/*
 * Where the CPU goes on after the copy, and the return address it left
 * in a register, as the original instruction would have them.
 */
static nokprobe_inline void fix_after_copy(const struct kprobe_site *site,
					   struct pt_regs *regs)
{
	const struct arch_specific_insn *ai = &site->ainsn;
	unsigned long delta = (unsigned long)site->addr -
			      (unsigned long)ai->slot;
	unsigned long ip = regs->psw.addr;

	if (ai->fixup & FIXUP_PSW_NORMAL)
		ip += delta;
	if ((ai->fixup & FIXUP_BRANCH_NOT_TAKEN) &&
	    ip == (unsigned long)ai->slot + ai->len)
		ip = (unsigned long)site->addr + ai->len;
	if (ai->fixup & FIXUP_RETURN_REGISTER)
		regs->gprs[(ai->insn[0] >> 4) & 0xf] += delta;
	regs->psw.addr = ip;
}

/* A PER event: the end of the innermost copy, if it is ours.  Step 3. */
static int step_done(struct pt_regs *regs)
{
	struct kprobe_frame *f = kprobe_top_frame();

	if (!f || (f->status != KPROBE_HIT_SS && f->status != KPROBE_REENTER))
		return 0;
	if (get_lowcore()->per_address != (unsigned long)f->site->ainsn.slot)
		return 0;
	step_off(f, regs);
	fix_after_copy(f->site, regs);
	kprobe_step_done(f, regs);
	kprobe_count_trap();
	return 1;
}

NOKPROBE_SYMBOL(step_done);

/*
 * The breakpoint in jprobe_return(): the end of a jprobe's mirror, or a
 * call from anywhere else, which is named once in the log and returns.
 */
static noinline int jprobe_return_trap(struct pt_regs *regs)
{
	if (!kprobe_jprobe_return(regs))
		pr_warn_once("kprobes: jprobe_return() called outside a jprobe mirror, from %pS\n",
			     (void *)regs->gprs[14]);
	kprobe_count_trap();
	return 1;
}

NOKPROBE_SYMBOL(jprobe_return_trap);

/*
 * An operation exception in the kernel.  Only a 2-byte instruction can
 * be our 0x0002 (the PSW is past it then): anything longer is an
 * instruction the machine lacks, whose exception-table fixup or oops is
 * the kernel's business.
 */
static int breakpoint(struct pt_regs *regs)
{
	kprobe_opcode_t *addr = (kprobe_opcode_t *)(regs->psw.addr -
						    KPROBE_BREAKPOINT_SIZE);

	if ((regs->int_code >> 16) != KPROBE_BREAKPOINT_SIZE)
		return 0;
	if (addr == s390_jprobe_return_bp)
		return jprobe_return_trap(regs);
	return kprobe_breakpoint_hit(addr, regs);
}

NOKPROBE_SYMBOL(breakpoint);

/*
 * The copy faulted: put the context back on the probed instruction, not
 * traced, with the caller's interrupt masks, and drop the hit.  The fault
 * is then handled as if the original instruction had taken it.
 */
static void rewind_step(struct kprobe_frame *f, struct pt_regs *regs)
{
	step_off(f, regs);
	regs->psw.addr = (unsigned long)f->site->addr;
	kprobe_frame_abort(f);
}

NOKPROBE_SYMBOL(rewind_step);

/* Is the PSW of a fault on the copy of @site (at it, or past it)? */
static bool in_copy(const struct kprobe_site *site, struct pt_regs *regs)
{
	unsigned long slot = (unsigned long)site->ainsn.slot;

	return regs->psw.addr >= slot && regs->psw.addr <= slot + site->ainsn.len;
}

/**
 * kprobe_fault_handler - a fault while this CPU processes a probe hit
 * @regs: the faulting context
 * @trapnr: the cause the fault path passes (14 for a page fault, the
 *	program interruption code through DIE_TRAP)
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
		if (!in_copy(site, regs))
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

/* Kprobes' entry from the die chain (see the top of this file). */
static int s390_kprobe_notify(struct notifier_block *nb, unsigned long val,
			      void *data)
{
	struct die_args *args = data;
	struct pt_regs *regs = args->regs;
	unsigned long flags;
	int done = 0;

	if (user_mode(regs))
		return NOTIFY_DONE;
	local_irq_save(flags);
	switch (val) {
	case DIE_BPT:
		done = breakpoint(regs);
		break;
	case DIE_SSTEP:
		done = step_done(regs);
		break;
	case DIE_TRAP:
		done = kprobe_running() && kprobe_fault_handler(regs, args->trapnr);
		break;
	}
	local_irq_restore(flags);
	return done ? NOTIFY_STOP : NOTIFY_DONE;
}

NOKPROBE_SYMBOL(s390_kprobe_notify);

static struct notifier_block s390_kprobe_nb = {
	.notifier_call = s390_kprobe_notify,
	/* Before any other user of the die chain. */
	.priority = INT_MAX,
};

static int __init s390_kprobes_init(void)
{
	return register_die_notifier(&s390_kprobe_nb);
}
early_initcall(s390_kprobes_init);

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
 * arch_within_kprobe_blacklist - s390 text that is never probed
 * @addr: a text address
 *
 * Return: true for .kprobes.text, which holds the entry code too, and
 * the interrupt entry text.
 */
bool arch_within_kprobe_blacklist(unsigned long addr)
{
	return within(addr, __kprobes_text_start, __kprobes_text_end) ||
	       within(addr, __irqentry_text_start, __irqentry_text_end);
}

/**
 * arch_populate_kprobe_blacklist - list the interrupt entry text in debugfs
 *
 * Return: 0 or -ENOMEM.
 */
int __init arch_populate_kprobe_blacklist(void)
{
	return kprobe_add_area_blacklist((unsigned long)__irqentry_text_start,
					 (unsigned long)__irqentry_text_end);
}

/**
 * arch_jprobe_stack_room - how much stack lies above a stack pointer
 * @sp: a stack pointer of the current context
 *
 * Return: the bytes from @sp to the end of the task's stack; 0 when @sp
 * is on another stack (an interrupt or restart stack), whose top is not
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
