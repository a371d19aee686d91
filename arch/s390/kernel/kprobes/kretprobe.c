// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * s390 kprobes: return probes.
 *
 * At a function's entry the return address is in %r14.  It is replaced
 * by kretprobe_trampoline (trampoline.S), which the function then returns
 * to; the trampoline builds a pt_regs, asks the core for the real return
 * address, and returns there.  The stack pointer at the entry, which is
 * the caller's frame, whose register save area the function saves %r14
 * in, and the stack pointer again at the return, identifies the call:
 * the unwinder (<asm/unwind.h>) passes it to kretprobe_find_ret_addr()
 * when it finds the trampoline's address there.
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
	ri->ret_addr = (kprobe_opcode_t *)regs->gprs[14];
	ri->frame = regs->gprs[15];
	regs->gprs[14] = (unsigned long)kretprobe_trampoline;
}

NOKPROBE_SYMBOL(arch_kretprobe_hook);

/**
 * arch_kretprobe_refuses - functions whose return cannot be diverted
 * @func: the start of the function to be return-probed
 *
 * The context switch (__switch_to_asm()) is entry code, in .kprobes.text,
 * which is never probed; nothing else returns on another stack than it
 * was called on.
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
 * return address, which the trampoline puts in %r14 and returns to.
 */
asmlinkage unsigned long s390_kretprobe_return(struct pt_regs *regs)
{
	return kretprobe_trampoline_handler(regs, regs->gprs[15]);
}

NOKPROBE_SYMBOL(s390_kretprobe_return);
