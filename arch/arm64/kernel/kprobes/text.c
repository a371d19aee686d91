// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 kprobes: writing probed text and slots.
 *
 * Arming and disarming only queue the new instruction.  The core's
 * arch_kprobe_text_sync() writes the whole queue under one stop_machine()
 * (aarch64_insn_patch_text()): every other CPU waits in the stopper with
 * an ISB to follow, so none can execute a half-changed site, and
 * restoring an arbitrary instruction over a BRK, which the architecture
 * does not allow while another CPU may be executing it, is safe.  A batch
 * of a thousand probes costs one stop_machine(), not a thousand.
 *
 * Slots are written with aarch64_insn_patch_text_nosync(): no CPU runs a
 * slot before the breakpoint that leads to it is armed and synced.
 */
#include <linux/execmem.h>
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/cpuhplock.h>
#include <asm/debug-monitors.h>
#include <asm/patching.h>

#include "internal.h"

/* The changes since the last sync, in order; text lock. */
static struct {
	void **addrs;
	u32 *insns;
	unsigned int len;
	unsigned int cap;
} queue;

static void text_write_now(void **addrs, u32 *insns, unsigned int n)
{
	int ret;

	if (!n)
		return;
	ret = aarch64_insn_patch_text(addrs, insns, n);
	WARN_ONCE(ret, "kprobes: writing %u instruction(s) failed: %d\n", n,
		  ret);
}

static bool queue_grow(void)
{
	unsigned int cap = max(queue.cap * 2, 64U);
	void **addrs = krealloc_array(queue.addrs, cap, sizeof(*addrs),
				      GFP_KERNEL);
	u32 *insns;

	if (!addrs)
		return false;
	queue.addrs = addrs;
	insns = krealloc_array(queue.insns, cap, sizeof(*insns), GFP_KERNEL);
	if (!insns)
		return false;
	queue.insns = insns;
	queue.cap = cap;
	return true;
}

/**
 * arm64_kprobe_text_queue - write an instruction at the next sync
 * @addr: a probed address
 * @insn: what goes there
 *
 * Without memory for the queue, the queue and @insn are written at once.
 */
void arm64_kprobe_text_queue(kprobe_opcode_t *addr, u32 insn)
{
	lockdep_assert_held(&text_mutex);
	if (queue.len == queue.cap && !queue_grow()) {
		text_write_now(queue.addrs, queue.insns, queue.len);
		queue.len = 0;
		text_write_now((void **)&addr, &insn, 1);
		return;
	}
	queue.addrs[queue.len] = addr;
	queue.insns[queue.len++] = insn;
}

/* The instruction the last queued change writes at @addr, if any. */
static bool queued_insn(kprobe_opcode_t *addr, u32 *insn)
{
	unsigned int i;

	for (i = queue.len; i-- > 0; ) {
		if (queue.addrs[i] == addr) {
			*insn = queue.insns[i];
			return true;
		}
	}
	return false;
}

/**
 * arch_arm_kprobe_site - put the breakpoint at a site (at the next sync)
 * @site: a prepared site
 */
void arch_arm_kprobe_site(struct kprobe_site *site)
{
	arm64_kprobe_text_queue(site->addr, BRK64_OPCODE_KPROBES);
}

/**
 * arch_disarm_kprobe_site - put the original instruction back
 * @site: an armed site
 */
void arch_disarm_kprobe_site(struct kprobe_site *site)
{
	arm64_kprobe_text_queue(site->addr, site->ainsn.insn);
}

/**
 * arch_kprobe_text_sync - write every queued change, on every CPU
 */
void arch_kprobe_text_sync(void)
{
	lockdep_assert_held(&text_mutex);
	lockdep_assert_cpus_held();
	text_write_now(queue.addrs, queue.insns, queue.len);
	queue.len = 0;
}

/**
 * arm64_kprobe_read_orig - the instruction at @addr as it is without us
 * @addr: a word-aligned text address
 * @insn: where to put it
 *
 * A change not written yet counts as written: a breakpoint whose site
 * went, to be taken out at the next sync, gives the instruction that
 * comes back.  Text lock held.
 *
 * Return: 0, -EFAULT when the text cannot be read, or -EBUSY for a
 * kprobes breakpoint that nothing is going to take out.
 */
int arm64_kprobe_read_orig(kprobe_opcode_t *addr, u32 *insn)
{
	lockdep_assert_held(&text_mutex);
	if (!queued_insn(addr, insn) && aarch64_insn_read(addr, insn))
		return -EFAULT;
	return *insn == BRK64_OPCODE_KPROBES ? -EBUSY : 0;
}

/**
 * arch_kprobe_text_is_breakpoint - is our BRK still at @addr?
 * @addr: where a kprobes BRK trapped
 *
 * Return: true if it is, or if the text cannot be read.
 */
bool arch_kprobe_text_is_breakpoint(kprobe_opcode_t *addr)
{
	u32 insn;

	if (get_kernel_nofault(insn, addr))
		return true;
	return le32_to_cpu((__force __le32)insn) == BRK64_OPCODE_KPROBES;
}

NOKPROBE_SYMBOL(arch_kprobe_text_is_breakpoint);

/**
 * arm64_kprobe_slot_write - fill a slot: the copy, then the step BRK
 * @slot: a slot no CPU executes
 * @insn: the instruction to copy
 *
 * Return: 0 or the error of the write.
 */
int arm64_kprobe_slot_write(kprobe_opcode_t *slot, u32 insn)
{
	int ret = aarch64_insn_patch_text_nosync(slot, insn);

	return ret ?: aarch64_insn_patch_text_nosync(slot + 1,
						     BRK64_OPCODE_KPROBES_SS);
}

/**
 * arch_alloc_kprobe_slot_page - a page for out-of-line slots
 *
 * execmem gives EXECMEM_KPROBES pages read-only and executable; slots are
 * written through the text-patching alias like the rest of the text.
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
