// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc kprobes: writing probed text and slots.
 *
 * The breakpoint replaces one aligned word, the first of the probed
 * instruction (the prefix of a prefixed one), and the Power ISA lets a
 * word of text change under other CPUs as long as each of them passes a
 * context-synchronizing event before it must see the new one.  So
 * arming and disarming write at once with patch_instruction(), which
 * flushes the line out to the instruction caches of every CPU, and
 * arch_kprobe_text_sync() interrupts every other CPU once (an interrupt
 * synchronizes context): a batch of probes costs one round of IPIs, and
 * no stop_machine() at all.
 *
 * Slots are written with patch_instruction() too, before the breakpoint
 * that leads to them.
 */
#include <linux/execmem.h>
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <asm/code-patching.h>
#include <asm/inst.h>

#include "internal.h"

/**
 * ppc_kprobe_read_orig - the instruction at @addr
 * @addr: a probed address
 * @insn: set to the instruction, with its suffix when prefixed
 *
 * Return: 0, or -EFAULT when the text cannot be read.
 */
int ppc_kprobe_read_orig(kprobe_opcode_t *addr, ppc_inst_t *insn)
{
	lockdep_assert_held(&text_mutex);
	return copy_inst_from_kernel_nofault(insn, addr) ? -EFAULT : 0;
}

static void text_write(kprobe_opcode_t *addr, ppc_inst_t insn)
{
	int ret = patch_instruction(addr, insn);

	WARN_ONCE(ret, "kprobes: writing %pS failed: %d\n", addr, ret);
}

/**
 * arch_arm_kprobe_site - put the breakpoint at a site
 * @site: a prepared site
 */
void arch_arm_kprobe_site(struct kprobe_site *site)
{
	lockdep_assert_held(&text_mutex);
	text_write(site->addr, ppc_inst(BREAKPOINT_INSTRUCTION));
}

/**
 * arch_disarm_kprobe_site - put the original instruction back
 * @site: an armed site
 *
 * Only the word the breakpoint took: a prefixed instruction's suffix
 * was never changed.
 */
void arch_disarm_kprobe_site(struct kprobe_site *site)
{
	lockdep_assert_held(&text_mutex);
	text_write(site->addr, ppc_inst(ppc_inst_val(site->ainsn.insn)));
}

/**
 * arch_kprobe_text_sync - every CPU sees the text as written
 *
 * The writes are out in the instruction caches already; one interrupt
 * on each other CPU discards whatever it fetched before them.
 */
void arch_kprobe_text_sync(void)
{
	lockdep_assert_held(&text_mutex);
	kick_all_cpus_sync();
}

/**
 * arch_kprobe_text_is_breakpoint - is there still a trap at @addr?
 * @addr: where a trap was taken
 *
 * Any trap counts: BUG() and WARN() use them too, and a trap that is
 * theirs must reach them.
 *
 * Return: true if there is, or if the text cannot be read.
 */
bool arch_kprobe_text_is_breakpoint(kprobe_opcode_t *addr)
{
	u32 word;

	if (get_kernel_nofault(word, addr))
		return true;
	return is_trap(word);
}

NOKPROBE_SYMBOL(arch_kprobe_text_is_breakpoint);

/**
 * ppc_kprobe_slot_write - copy an instruction into a slot
 * @slot: a slot no CPU executes
 * @insn: the instruction
 *
 * Return: 0 or the error of the write.
 */
int ppc_kprobe_slot_write(kprobe_opcode_t *slot, ppc_inst_t insn)
{
	return patch_instruction(slot, insn);
}

/**
 * arch_alloc_kprobe_slot_page - a page for out-of-line slots
 *
 * Return: the page, or NULL.
 */
void *arch_alloc_kprobe_slot_page(void)
{
	return execmem_alloc(EXECMEM_KPROBES, PAGE_SIZE);
}

/**
 * arch_free_kprobe_slot_page - give back a page of slots
 * @page: from arch_alloc_kprobe_slot_page(); no CPU executes in it
 */
void arch_free_kprobe_slot_page(void *page)
{
	execmem_free(page);
}
