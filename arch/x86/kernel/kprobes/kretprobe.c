// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes: return probes.
 *
 * At a function's entry the return address sits at regs->sp.  It is
 * replaced by kretprobe_trampoline (trampoline_*.S), which the function
 * then "returns" to; the trampoline builds a pt_regs, asks the core for
 * the real return address, and returns there.  No trap is taken on the
 * way back.
 */
#include <linux/kprobes.h>
#include <asm/ptrace.h>
#include <asm/switch_to.h>

#include "internal.h"

/**
 * arch_kretprobe_hook - divert a function's return to the trampoline
 * @ri: the instance that remembers the real return address
 * @regs: registers at the function's entry
 */
void arch_kretprobe_hook(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned long *slot = (unsigned long *)kernel_stack_pointer(regs);

	ri->ret_addr = (kprobe_opcode_t *)*slot;
	ri->frame = (unsigned long)slot;
	*slot = (unsigned long)kretprobe_trampoline;
}

NOKPROBE_SYMBOL(arch_kretprobe_hook);

/**
 * arch_kretprobe_refuses - functions whose return cannot be diverted
 * @func: the start of the function to be return-probed
 *
 * The context switch returns on another task's stack: the return address
 * a hook saved on one stack would be looked up on the other's.
 *
 * Return: true for __switch_to() and __switch_to_asm().
 */
bool arch_kretprobe_refuses(unsigned long func)
{
	return func == (unsigned long)__switch_to ||
	       func == (unsigned long)__switch_to_asm;
}

/**
 * is_kretprobe_trampoline - does a return address point at the trampoline?
 * @addr: a return address found on a stack
 *
 * Return: true if it does.
 */
bool is_kretprobe_trampoline(unsigned long addr)
{
	return addr == (unsigned long)kretprobe_trampoline;
}
EXPORT_SYMBOL_GPL(is_kretprobe_trampoline);
NOKPROBE_SYMBOL(is_kretprobe_trampoline);

/*
 * Called by the trampoline with the pt_regs it built just below the slot
 * that held the return address.  The slot becomes the final RET's target.
 */
__visible unsigned long x86_kretprobe_return(struct pt_regs *regs)
{
	unsigned long *frame = (unsigned long *)(regs + 1);
	unsigned long ret;

	/* The trampoline could not know the stack pointer at the return. */
	regs->sp = (unsigned long)(frame + 1);
	ret = kretprobe_trampoline_handler(regs, (unsigned long)frame);
	*frame = ret;
	return ret;
}

NOKPROBE_SYMBOL(x86_kretprobe_return);
