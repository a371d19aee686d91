// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc kprobes: return probes.
 *
 * At a function's entry the return address is in LR.  It is replaced by
 * kretprobe_trampoline (trampoline.S), which the function then returns
 * to; the trampoline builds a pt_regs, asks the core for the real return
 * address, and returns there.  The stack pointer at the entry, which is
 * the caller's frame and the stack pointer again at the return,
 * identifies the call: the unwinder (stacktrace.c) passes it to
 * kretprobe_find_ret_addr() when it finds the trampoline's address in
 * the LR save word of that frame.
 */
#include <linux/kallsyms.h>
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
	ri->ret_addr = (kprobe_opcode_t *)regs->link;
	ri->frame = regs->gpr[1];
	regs->link = (unsigned long)kretprobe_trampoline;
}

NOKPROBE_SYMBOL(arch_kretprobe_hook);

/**
 * arch_kretprobe_refuses - functions whose return cannot be diverted
 * @func: the start of the function to be return-probed
 *
 * __switch_to() and _switch() return in the incoming task, with its
 * stack and its return address: a diverted return would be looked for
 * on the wrong task.
 *
 * Return: true for those two.
 */
bool arch_kretprobe_refuses(unsigned long func)
{
	return func == (unsigned long)dereference_symbol_descriptor(__switch_to) ||
	       func == (unsigned long)dereference_symbol_descriptor(_switch);
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
 * Called by the trampoline with the pt_regs it built.  Return: the real
 * return address, which the trampoline puts in LR and returns to.
 */
asmlinkage unsigned long ppc_kretprobe_return(struct pt_regs *regs)
{
	return kretprobe_trampoline_handler(regs, regs->gpr[1]);
}

NOKPROBE_SYMBOL(ppc_kretprobe_return);
