// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * s390 kprobes: writing probed text and slots.
 *
 * A breakpoint replaces the first halfword of an instruction that may be
 * two or three halfwords long, and without the sequential-instruction-
 * fetching facility another CPU may have fetched part of the old
 * instruction and go on with part of the new text.  Arming and disarming
 * therefore only queue the change, and arch_kprobe_text_sync() writes
 * the whole queue under one stop_machine(): the last CPU to arrive
 * writes, the others wait, and every CPU serializes before it goes on.
 * A batch of probes costs one stop_machine(), not one per probe.
 *
 * Slots are written with s390_kernel_write(), before the breakpoint that
 * leads to them; their pages are read-only and executable.
 */
#include <linux/cpuhplock.h>
#include <linux/execmem.h>
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/slab.h>
#include <linux/stop_machine.h>
#include <linux/uaccess.h>
#include <asm/set_memory.h>
#include <asm/text-patching.h>

#include "internal.h"

struct text_change {
	kprobe_opcode_t *addr;
	u16 hw;
};

/* The changes since the last sync, in order; text lock. */
static struct {
	struct text_change *changes;
	unsigned int len;
	unsigned int cap;
} queue;

/* What one stop_machine() writes. */
struct text_write {
	const struct text_change *changes;
	unsigned int n;
	atomic_t cpus;
};

/* On every online CPU, stopped: the last one in writes. */
static int text_write_cb(void *data)
{
	struct text_write *w = data;
	unsigned int i;

	if (atomic_inc_return(&w->cpus) == num_online_cpus()) {
		for (i = 0; i < w->n; i++)
			s390_kernel_write(w->changes[i].addr, &w->changes[i].hw,
					  sizeof(u16));
		/* The writes before the release of the waiting CPUs. */
		atomic_inc_return_release(&w->cpus);
	} else {
		while (atomic_read(&w->cpus) <= num_online_cpus())
			cpu_relax();
	}
	sync_core();
	return 0;
}

NOKPROBE_SYMBOL(text_write_cb);

static void text_write_now(const struct text_change *changes, unsigned int n)
{
	struct text_write w = { .changes = changes, .n = n };

	if (!n)
		return;
	atomic_set(&w.cpus, 0);
	stop_machine_cpuslocked(text_write_cb, &w, cpu_online_mask);
}

static bool queue_grow(void)
{
	unsigned int cap = max(queue.cap * 2, 64U);
	struct text_change *c = krealloc_array(queue.changes, cap, sizeof(*c),
					       GFP_KERNEL);

	if (!c)
		return false;
	queue.changes = c;
	queue.cap = cap;
	return true;
}

/**
 * s390_kprobe_text_queue - write a halfword at the next sync
 * @addr: a probed address
 * @hw: what goes there
 *
 * Without memory for the queue, the queue and @hw are written at once.
 */
void s390_kprobe_text_queue(kprobe_opcode_t *addr, u16 hw)
{
	struct text_change change = { addr, hw };

	lockdep_assert_held(&text_mutex);
	if (queue.len == queue.cap && !queue_grow()) {
		text_write_now(queue.changes, queue.len);
		queue.len = 0;
		text_write_now(&change, 1);
		return;
	}
	queue.changes[queue.len++] = change;
}

/**
 * s390_kprobe_read_orig - the halfword at @addr as the text will hold it
 * @addr: a halfword of text
 * @hw: set to it; a change not written yet counts as written
 *
 * Return: 0, or -EFAULT when the text cannot be read.
 */
int s390_kprobe_read_orig(kprobe_opcode_t *addr, u16 *hw)
{
	unsigned int i;

	lockdep_assert_held(&text_mutex);
	for (i = queue.len; i-- > 0; ) {
		if (queue.changes[i].addr == addr) {
			*hw = queue.changes[i].hw;
			return 0;
		}
	}
	return get_kernel_nofault(*hw, addr) ? -EFAULT : 0;
}

/**
 * arch_arm_kprobe_site - put the breakpoint at a site (at the next sync)
 * @site: a prepared site
 */
void arch_arm_kprobe_site(struct kprobe_site *site)
{
	s390_kprobe_text_queue(site->addr, BREAKPOINT_INSTRUCTION);
}

/**
 * arch_disarm_kprobe_site - put the original first halfword back
 * @site: an armed site
 */
void arch_disarm_kprobe_site(struct kprobe_site *site)
{
	s390_kprobe_text_queue(site->addr, site->ainsn.insn[0]);
}

/**
 * arch_kprobe_text_sync - write every queued change, on every CPU
 */
void arch_kprobe_text_sync(void)
{
	lockdep_assert_held(&text_mutex);
	lockdep_assert_cpus_held();
	text_write_now(queue.changes, queue.len);
	queue.len = 0;
}

/**
 * arch_kprobe_text_is_breakpoint - would @addr still trap?
 * @addr: where a 2-byte instruction took an operation exception
 *
 * Any 0x00xx halfword does (ours is 0x0002, QEMU's gdbstub plants
 * 0x0000): a trap on one of those that no site claims is someone
 * else's.  Probed instructions never start with one.
 *
 * Return: true if it would, or if the text cannot be read.
 */
bool arch_kprobe_text_is_breakpoint(kprobe_opcode_t *addr)
{
	u16 hw;

	if (get_kernel_nofault(hw, addr))
		return true;
	return !(hw >> 8);
}

NOKPROBE_SYMBOL(arch_kprobe_text_is_breakpoint);

/**
 * s390_kprobe_slot_write - copy an instruction into a slot
 * @slot: a slot no CPU executes
 * @insn: the instruction, displacement already rewritten for @slot
 * @len: its length in bytes
 *
 * Return: 0.
 */
int s390_kprobe_slot_write(kprobe_opcode_t *slot, const u16 *insn,
			   unsigned int len)
{
	s390_kernel_write(slot, insn, len);
	return 0;
}

/**
 * arch_alloc_kprobe_slot_page - a page for out-of-line slots
 *
 * In the module area, below the kernel image: a relative-long
 * displacement rewritten for a slot always reaches what the original
 * instruction did.
 *
 * Return: the page, read-only and executable, or NULL.
 */
void *arch_alloc_kprobe_slot_page(void)
{
	void *page = execmem_alloc(EXECMEM_KPROBES, PAGE_SIZE);

	if (page)
		set_memory_rox((unsigned long)page, 1);
	return page;
}

/**
 * arch_free_kprobe_slot_page - give back a page of slots
 * @page: from arch_alloc_kprobe_slot_page(); no CPU executes in it
 */
void arch_free_kprobe_slot_page(void *page)
{
	set_memory_nx((unsigned long)page, 1);
	set_memory_rw((unsigned long)page, 1);
	execmem_free(page);
}
