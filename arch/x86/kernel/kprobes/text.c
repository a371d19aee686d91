// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes: writing the probed text.
 *
 * Every change kprobes makes to probed instructions (a breakpoint put in
 * or taken out, an optimized jump's bytes) is queued here and written at
 * the next arch_kprobe_text_sync(), which then serializes every CPU once
 * for the whole batch.  Writing is merged too: each text_poke() maps a
 * page, copies and unmaps it, and with thousands of sites in a batch that
 * was most of the time spent.  Queued changes that fall in one page go
 * out as one text_poke() of the span between them, the bytes in between
 * copied from the text as they are.  Rewriting a byte with its own value
 * is harmless to a CPU executing it, and nothing else can change kernel
 * text meanwhile: every text patcher holds text_mutex, as we do.
 *
 * Each queued change is one that is safe on its own while other CPUs run
 * the code (one INT3 byte, or bytes behind an INT3), so the order in
 * which a flush writes them does not matter, as long as two changes to
 * the same bytes are never queued together: the second one flushes the
 * queue first.  Reading the text back (x86_kprobe_read_orig()) flushes
 * too, unless the queue holds nothing but breakpoints going over original
 * bytes (a batch of new probes): a reader that still finds the original
 * bytes there reads what it would have undone anyway.  Detours are not
 * probed text; they are written at once, before anything that leads to
 * them is queued.
 *
 * Out-of-line slots are not probed text either, and nothing leads to a
 * new one before its site is armed, that is before the next flush.  A
 * batch takes its slots one after the other, most of them from one page,
 * so slot writes are buffered per page and written with one text_poke()
 * when the batch moves to another page, and at each flush before the
 * probed text.
 */
#include <linux/kprobes.h>
#include <linux/execmem.h>
#include <linux/memory.h>
#include <linux/set_memory.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/bitmap.h>
#include <linux/hash.h>
#include <linux/uaccess.h>
#include <asm/text-patching.h>

#include "internal.h"

/*
 * Enough for a tool's batch of probes to go out in one flush: a flush
 * writes each page it touches once, and a page write is what costs.
 */
#define TEXT_QUEUE_LEN	2048
#define TEXT_WRITE_MAX	JMP32_INSN_SIZE

struct text_write {
	u8 *addr;
	u8 len;
	u8 bytes[TEXT_WRITE_MAX];
};

/*
 * Which 8-byte chunks of text the queued writes touch, hashed: a write
 * whose chunks are all clear overlaps none, and a batch of thousands of
 * writes needs no scan of the queue per write.
 */
#define TEXT_CHUNK_SHIFT	3
#define TEXT_CHUNK_BITS		14

/* All under text_mutex. */
static struct text_write text_queue[TEXT_QUEUE_LEN];
static unsigned int text_queued;
static DECLARE_BITMAP(text_chunks, 1 << TEXT_CHUNK_BITS);
static bool text_queued_arms_only = true;
static u8 text_page_buf[PAGE_SIZE];

/*
 * The slot page being buffered, its new contents (a page allocated on
 * first use and kept), and the range that changed.
 */
static u8 *slot_page;
static u8 *slot_page_buf;
static unsigned int slot_lo, slot_hi;

static int cmp_text_write(const void *a, const void *b)
{
	const struct text_write *x = a, *y = b;

	if (x->addr == y->addr)
		return 0;
	return x->addr < y->addr ? -1 : 1;
}

static unsigned long page_end(const u8 *addr)
{
	return ((unsigned long)addr & PAGE_MASK) + PAGE_SIZE;
}

/* Write queue entries [@first, @last) with one text_poke() if we can. */
static void write_run(unsigned int first, unsigned int last)
{
	const struct text_write *w;
	u8 *start = text_queue[first].addr;
	size_t len;
	unsigned int i;

	w = &text_queue[last - 1];
	len = w->addr + w->len - start;
	if (last - first == 1 ||
	    copy_from_kernel_nofault(text_page_buf, start, len)) {
		for (i = first; i < last; i++) {
			w = &text_queue[i];
			text_poke(w->addr, w->bytes, w->len);
		}
		return;
	}
	for (i = first; i < last; i++) {
		w = &text_queue[i];
		memcpy(text_page_buf + (w->addr - start), w->bytes, w->len);
	}
	text_poke(start, text_page_buf, len);
}

/* Write the buffered slot page, if any, as one text_poke(). */
static void slot_page_flush(void)
{
	lockdep_assert_held(&text_mutex);
	if (!slot_page)
		return;
	text_poke(slot_page + slot_lo, slot_page_buf + slot_lo,
		  slot_hi - slot_lo);
	slot_page = NULL;
}

/**
 * x86_kprobe_slot_write - fill an out-of-line slot before its site is armed
 * @slot: the slot, inside one page
 * @bytes: its contents
 * @len: how many bytes
 *
 * Called under text_mutex.  The bytes are in place at the next
 * x86_kprobe_text_flush(), before any breakpoint it writes.  The rest of
 * the slot's page is rewritten with the bytes it holds, which live slots
 * there do not notice (only writers holding text_mutex change them).
 */
void x86_kprobe_slot_write(u8 *slot, const u8 *bytes, size_t len)
{
	u8 *page = (u8 *)((unsigned long)slot & PAGE_MASK);
	unsigned int off = slot - page;

	lockdep_assert_held(&text_mutex);
	if (WARN_ON_ONCE(off + len > PAGE_SIZE))
		return;
	if (!slot_page_buf)
		slot_page_buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!slot_page_buf) {
		/* No buffer: write at once, as correct and only slower. */
		text_poke(slot, bytes, len);
		return;
	}
	if (page != slot_page) {
		slot_page_flush();
		memcpy(slot_page_buf, page, PAGE_SIZE);
		slot_page = page;
		slot_lo = off;
		slot_hi = off + len;
	}
	memcpy(slot_page_buf + off, bytes, len);
	slot_lo = min(slot_lo, off);
	slot_hi = max_t(unsigned int, slot_hi, off + len);
}

/**
 * x86_kprobe_slot_forget - a slot is about to be freed
 * @slot: the slot
 *
 * Called without text_mutex, which it takes.  A batch that armed nothing
 * (its probes disabled) leaves its slots buffered: write out the slot's
 * page if it is the one buffered, so that no write reaches the page
 * after it may be gone.
 */
void x86_kprobe_slot_forget(u8 *slot)
{
	mutex_lock(&text_mutex);
	if (((unsigned long)slot & PAGE_MASK) == (unsigned long)slot_page)
		slot_page_flush();
	mutex_unlock(&text_mutex);
}

/**
 * x86_kprobe_text_flush - write out the queued text changes
 *
 * Called under text_mutex.  Buffered slots are written first.  Other
 * CPUs may see the changes from now on, and are sure to after the next
 * text_poke_sync().
 */
void x86_kprobe_text_flush(void)
{
	unsigned int first, last;
	u8 *start;

	lockdep_assert_held(&text_mutex);
	slot_page_flush();
	if (!text_queued)
		return;
	sort(text_queue, text_queued, sizeof(text_queue[0]), cmp_text_write,
	     NULL);

	/* A run: the writes that end in the page where the first one starts. */
	for (first = 0; first < text_queued; first = last) {
		start = text_queue[first].addr;
		for (last = first + 1; last < text_queued; last++) {
			const struct text_write *w = &text_queue[last];

			if ((unsigned long)(w->addr + w->len) > page_end(start))
				break;
		}
		write_run(first, last);
	}
	text_queued = 0;
	text_queued_arms_only = true;
	bitmap_zero(text_chunks, 1 << TEXT_CHUNK_BITS);
}

/**
 * x86_kprobe_text_settle - make the text match the sites for a reader
 *
 * Called under text_mutex, before reading probed text back.
 */
void x86_kprobe_text_settle(void)
{
	if (!text_queued_arms_only)
		x86_kprobe_text_flush();
}

/* Mark the chunks of [@addr, @addr + @len); true if one was marked already. */
static bool mark_chunks(const u8 *addr, size_t len)
{
	unsigned long c = (unsigned long)addr >> TEXT_CHUNK_SHIFT;
	unsigned long last = (unsigned long)(addr + len - 1) >> TEXT_CHUNK_SHIFT;
	bool seen = false;

	for (; c <= last; c++)
		seen |= __test_and_set_bit(hash_long(c, TEXT_CHUNK_BITS),
					   text_chunks);
	return seen;
}

static bool overlaps_queued(const u8 *addr, size_t len)
{
	unsigned int i;

	for (i = 0; i < text_queued; i++) {
		const struct text_write *w = &text_queue[i];

		if (addr < w->addr + w->len && w->addr < addr + len)
			return true;
	}
	return false;
}

static void text_queue_add(void *addr, const void *bytes, size_t len)
{
	struct text_write *w;

	lockdep_assert_held(&text_mutex);
	if (WARN_ON_ONCE(len > TEXT_WRITE_MAX))
		return;
	/*
	 * A write that shares no chunk with the queued ones overlaps none;
	 * one that does (or only collides in the hash) looks at the queue.
	 */
	if (text_queued == TEXT_QUEUE_LEN ||
	    (mark_chunks(addr, len) && overlaps_queued(addr, len))) {
		x86_kprobe_text_flush();
		mark_chunks(addr, len);
	}
	w = &text_queue[text_queued++];
	w->addr = addr;
	w->len = len;
	memcpy(w->bytes, bytes, len);
}

/**
 * x86_kprobe_text_queue - change probed text at the next flush
 * @addr: where
 * @bytes: the new bytes
 * @len: how many, at most JMP32_INSN_SIZE
 *
 * Called under text_mutex.  The change must be safe for CPUs running the
 * code at any time before the next sync (see the top of this file).
 */
void x86_kprobe_text_queue(void *addr, const void *bytes, size_t len)
{
	text_queue_add(addr, bytes, len);
	text_queued_arms_only = false;
}

/**
 * arch_arm_kprobe_site - put INT3 on the probed instruction
 * @site: the site; its slot or emulation is ready
 *
 * Called under kprobe_text_lock().  Replacing the first byte of an
 * instruction with INT3 is safe while other CPUs execute it; they are
 * sure to see it after the next arch_kprobe_text_sync().
 */
void arch_arm_kprobe_site(struct kprobe_site *site)
{
	u8 int3 = INT3_INSN_OPCODE;

	/* Over the original byte: readers need not flush for it. */
	text_queue_add(site->addr, &int3, INT3_INSN_SIZE);
	perf_event_text_poke(site->addr, &site->opcode, 1, &int3, 1);
}

/**
 * arch_disarm_kprobe_site - put the original first byte back
 * @site: the site
 *
 * Called under kprobe_text_lock().  A CPU that still sees the INT3 until
 * the next arch_kprobe_text_sync() traps and, finding the byte restored,
 * executes the original instruction (kprobe_breakpoint_hit()).
 */
void arch_disarm_kprobe_site(struct kprobe_site *site)
{
	u8 int3 = INT3_INSN_OPCODE;

	x86_kprobe_text_queue(site->addr, &site->opcode, 1);
	perf_event_text_poke(site->addr, &int3, 1, &site->opcode, 1);
}

/**
 * arch_kprobe_text_is_breakpoint - is there still an INT3 at @addr?
 * @addr: where a CPU trapped, for which kprobes found no site
 *
 * Exception context.  An unreadable address counts as a breakpoint: the
 * trap is then not kprobes' to settle.
 *
 * Return: true if the text holds INT3 or cannot be read.
 */
bool arch_kprobe_text_is_breakpoint(kprobe_opcode_t *addr)
{
	u8 insn;

	return get_kernel_nofault(insn, addr) || insn == INT3_INSN_OPCODE;
}

NOKPROBE_SYMBOL(arch_kprobe_text_is_breakpoint);

/**
 * arch_kprobe_text_sync - write the queued text, serialize every CPU
 *
 * Called under kprobe_text_lock(), once per batch of arm and disarm
 * calls.  Also waits for every CPU that trapped on a breakpoint before
 * it was removed: the IPI is not taken while such a CPU handles the
 * breakpoint or runs a copy that comes back to kprobes, both with
 * interrupts off.
 * (A boosted copy never comes back to kprobes; the grace period before
 * its slot is freed covers it.)
 */
void arch_kprobe_text_sync(void)
{
	x86_kprobe_text_flush();
	text_poke_sync();
}

/**
 * arch_alloc_kprobe_slot_page - a page for out-of-line slots or detours
 *
 * execmem places EXECMEM_KPROBES pages within reach of a rel32 jump from
 * kernel and module text, which is how slots and detours return.  The
 * page is made read-only and executable before anything is written to
 * it: slots are written with text_poke() like the rest of the text.
 *
 * Return: the page, or NULL.
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
	execmem_free(page);
}
