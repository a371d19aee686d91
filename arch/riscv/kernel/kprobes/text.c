// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RISC-V kprobes: writing probed text and slots.
 *
 * A 4-byte instruction may sit on a 2-byte boundary, so replacing it is
 * not one atomic store, and another CPU must not execute it meanwhile.
 * Arming and disarming therefore only queue the change, and
 * arch_kprobe_text_sync() writes the whole queue under one
 * stop_machine(): the last CPU to arrive writes, the others wait, and
 * every CPU flushes its instruction cache before it goes on.  A batch of
 * a thousand probes costs one stop_machine(), not a thousand.
 *
 * Slots are written with patch_text_nosync(): no CPU runs a slot before
 * the breakpoint that leads to it is armed and synced.
 */
#include <linux/bug.h>
#include <linux/cacheflush.h>
#include <linux/cpuhplock.h>
#include <linux/execmem.h>
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/slab.h>
#include <linux/stop_machine.h>
#include <linux/uaccess.h>
#include <asm/patch.h>

#include "internal.h"

struct text_change {
	void *addr;
	u32 insn;
	u8 len;
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
	int ret = 0;

	if (atomic_inc_return(&w->cpus) == num_online_cpus()) {
		for (i = 0; i < w->n && !ret; i++)
			ret = patch_insn_write(w->changes[i].addr,
					       &w->changes[i].insn,
					       w->changes[i].len);
		/* The writes before the release of the waiting CPUs. */
		atomic_inc_return_release(&w->cpus);
	} else {
		while (atomic_read(&w->cpus) <= num_online_cpus())
			cpu_relax();
	}
	local_flush_icache_all();
	return ret;
}

NOKPROBE_SYMBOL(text_write_cb);

static void text_write_now(const struct text_change *changes, unsigned int n)
{
	struct text_write w = { .changes = changes, .n = n };
	int ret;

	if (!n)
		return;
	atomic_set(&w.cpus, 0);
	/* patch_insn_write() checks text_mutex unless told this is why. */
	riscv_patch_in_stop_machine = true;
	ret = stop_machine_cpuslocked(text_write_cb, &w, cpu_online_mask);
	riscv_patch_in_stop_machine = false;
	WARN_ONCE(ret, "kprobes: writing %u instruction(s) failed: %d\n", n,
		  ret);
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
 * riscv_kprobe_text_queue - write an instruction at the next sync
 * @addr: a probed address
 * @insn: what goes there
 * @len: its length, 2 or 4
 *
 * Without memory for the queue, the queue and @insn are written at once.
 */
void riscv_kprobe_text_queue(kprobe_opcode_t *addr, u32 insn, u8 len)
{
	struct text_change change = { addr, insn, len };

	lockdep_assert_held(&text_mutex);
	if (queue.len == queue.cap && !queue_grow()) {
		text_write_now(queue.changes, queue.len);
		queue.len = 0;
		text_write_now(&change, 1);
		return;
	}
	queue.changes[queue.len++] = change;
}

/* The instruction the last queued change writes at @addr, if any. */
static bool queued_insn(kprobe_opcode_t *addr, u32 *insn)
{
	unsigned int i;

	for (i = queue.len; i-- > 0; ) {
		if (queue.changes[i].addr == addr) {
			*insn = queue.changes[i].insn;
			return true;
		}
	}
	return false;
}

/**
 * riscv_kprobe_read_orig - the instruction at @addr as it is without us
 * @addr: an instruction boundary
 * @insn: set to the instruction, the low half only when compressed
 * @len: set to its length
 *
 * A change not written yet counts as written.  Text lock held.
 *
 * Return: 0, -EFAULT when the text cannot be read, or -EBUSY for a
 * breakpoint that nothing is going to take out.
 */
int riscv_kprobe_read_orig(kprobe_opcode_t *addr, u32 *insn, u8 *len)
{
	u16 lo, hi;

	lockdep_assert_held(&text_mutex);
	if (!queued_insn(addr, insn)) {
		if (get_kernel_nofault(lo, (u16 *)addr))
			return -EFAULT;
		*insn = lo;
		if (GET_INSN_LENGTH(lo) == 4) {
			if (get_kernel_nofault(hi, (u16 *)addr + 1))
				return -EFAULT;
			*insn |= (u32)hi << 16;
		}
	}
	*len = GET_INSN_LENGTH(*insn);
	if (*insn == RV_EBREAK || *insn == RV_C_EBREAK)
		return -EBUSY;
	return 0;
}

/* The breakpoint for an instruction of @len bytes. */
static u32 breakpoint_for(u8 len)
{
	return len == 2 ? RV_C_EBREAK : RV_EBREAK;
}

/**
 * arch_arm_kprobe_site - put the breakpoint at a site (at the next sync)
 * @site: a prepared site
 */
void arch_arm_kprobe_site(struct kprobe_site *site)
{
	u8 len = site->ainsn.len;

	riscv_kprobe_text_queue(site->addr, breakpoint_for(len), len);
}

/**
 * arch_disarm_kprobe_site - put the original instruction back
 * @site: an armed site
 */
void arch_disarm_kprobe_site(struct kprobe_site *site)
{
	riscv_kprobe_text_queue(site->addr, site->ainsn.insn, site->ainsn.len);
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
 * arch_kprobe_text_is_breakpoint - is there still an EBREAK at @addr?
 * @addr: where an EBREAK trapped
 *
 * Either encoding counts: BUG() and kgdb use them too, and a trap on
 * one of theirs must reach them.
 *
 * Return: true if there is, or if the text cannot be read.
 */
bool arch_kprobe_text_is_breakpoint(kprobe_opcode_t *addr)
{
	u16 lo, hi;

	if (get_kernel_nofault(lo, (u16 *)addr))
		return true;
	if (lo == RV_C_EBREAK)
		return true;
	if (lo != (RV_EBREAK & 0xffff))
		return false;
	if (get_kernel_nofault(hi, (u16 *)addr + 1))
		return true;
	return hi == RV_EBREAK >> 16;
}

NOKPROBE_SYMBOL(arch_kprobe_text_is_breakpoint);

/**
 * riscv_kprobe_slot_write - fill a slot: the copy, then EBREAK
 * @slot: a slot no CPU executes
 * @insn: the instruction to copy
 * @len: its length
 *
 * Return: 0 or the error of the write.
 */
int riscv_kprobe_slot_write(kprobe_opcode_t *slot, u32 insn, u8 len)
{
	u8 buf[8];
	u32 ebreak = RV_EBREAK;

	memcpy(buf, &insn, len);
	memcpy(buf + len, &ebreak, sizeof(ebreak));
	return patch_text_nosync(slot, buf, len + sizeof(ebreak));
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
