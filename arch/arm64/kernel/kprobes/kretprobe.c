// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 kprobes: return probes.
 *
 * At a function's entry the return address is in X30.  It is replaced by
 * kretprobe_trampoline (trampoline.S), which the function then returns
 * to; the trampoline builds a pt_regs, asks the core for the real return
 * address, and returns there.  The caller's frame pointer, X29 at the
 * entry and again at the return, identifies the call: it is what the
 * unwinder (stacktrace.c) passes to kretprobe_find_ret_addr() when it
 * meets the trampoline's address in a frame record.
 */
#include <linux/kprobes.h>
#include <asm/ptrace.h>

#include "internal.h"

/**
 * arch_kretprobe_hook - divert a function's return to the trampoline
 * @ri: the instance that remembers the real return address
 * @regs: registers at the function's entry
 */
void arch_kretprobe_hook(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	ri->ret_addr = (kprobe_opcode_t *)procedure_link_pointer(regs);
	ri->frame = regs->regs[29];
	procedure_link_pointer_set(regs, (unsigned long)kretprobe_trampoline);
}

NOKPROBE_SYMBOL(arch_kretprobe_hook);

/**
 * arch_kretprobe_refuses - functions whose return cannot be diverted
 * @func: the start of the function to be return-probed
 *
 * The context switch (cpu_switch_to()) and the exception entry and return
 * code are in the entry text, which is never probed; nothing else on
 * arm64 returns on another stack than it was called on.
 *
 * Return: false.
 */
bool arch_kretprobe_refuses(unsigned long func)
{
	return false;
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
 * return address, which the trampoline puts in X30 and returns to.
 *
 * The handlers run with interrupts as the function returned with them,
 * as on the other ports: an interrupt that comes in meanwhile runs the
 * handlers of the probes it hits (the core nests hits by context).
 */
asmlinkage unsigned long arm64_kretprobe_return(struct pt_regs *regs)
{
	return kretprobe_trampoline_handler(regs, regs->regs[29]);
}

NOKPROBE_SYMBOL(arm64_kretprobe_return);
