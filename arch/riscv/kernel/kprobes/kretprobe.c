// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RISC-V kprobes: return probes.
 *
 * At a function's entry the return address is in ra.  It is replaced by
 * kretprobe_trampoline (trampoline.S), which the function then returns
 * to; the trampoline builds a pt_regs, asks the core for the real return
 * address, and returns there.  The stack pointer at the entry, which is
 * the stack pointer again at the return and the frame pointer of the
 * function's frame record, identifies the call: the unwinder
 * (stacktrace.c) passes it to kretprobe_find_ret_addr() when it meets the
 * trampoline's address as a frame's return address.
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
	ri->ret_addr = (kprobe_opcode_t *)regs->ra;
	ri->frame = regs->sp;
	regs->ra = (unsigned long)kretprobe_trampoline;
}

NOKPROBE_SYMBOL(arch_kretprobe_hook);

/**
 * arch_kretprobe_refuses - functions whose return cannot be diverted
 * @func: the start of the function to be return-probed
 *
 * __switch_to() saves ra in the outgoing task's thread and returns with
 * the incoming task's: a diverted return would be looked for on the
 * wrong task.
 *
 * Return: true for __switch_to().
 */
bool arch_kretprobe_refuses(unsigned long func)
{
	return func == (unsigned long)__switch_to;
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
 * return address, which the trampoline puts in ra and returns to.
 */
asmlinkage unsigned long riscv_kretprobe_return(struct pt_regs *regs)
{
	return kretprobe_trampoline_handler(regs, regs->sp);
}

NOKPROBE_SYMBOL(riscv_kretprobe_return);
