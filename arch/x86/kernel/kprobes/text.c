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
 * too.  Out-of-line slots and detours are not probed text; they are
 * written at once, before anything that leads to them is queued.
 */
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/perf_event.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <asm/text-patching.h>

#include "internal.h"

#define TEXT_QUEUE_LEN	512
#define TEXT_WRITE_MAX	JMP32_INSN_SIZE

struct text_write {
	u8 *addr;
	u8 len;
	u8 bytes[TEXT_WRITE_MAX];
};

/* All under text_mutex. */
static struct text_write text_queue[TEXT_QUEUE_LEN];
static unsigned int text_queued;
static u8 text_page_buf[PAGE_SIZE];

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

/**
 * x86_kprobe_text_flush - write out the queued text changes
 *
 * Called under text_mutex.  Other CPUs may see the changes from now on,
 * and are sure to after the next text_poke_sync().
 */
void x86_kprobe_text_flush(void)
{
	unsigned int first, last;
	u8 *start;

	lockdep_assert_held(&text_mutex);
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
	struct text_write *w;

	lockdep_assert_held(&text_mutex);
	if (WARN_ON_ONCE(len > TEXT_WRITE_MAX))
		return;
	if (text_queued == TEXT_QUEUE_LEN || overlaps_queued(addr, len))
		x86_kprobe_text_flush();
	w = &text_queue[text_queued++];
	w->addr = addr;
	w->len = len;
	memcpy(w->bytes, bytes, len);
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

	x86_kprobe_text_queue(site->addr, &int3, INT3_INSN_SIZE);
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
 * arch_kprobe_text_sync - write the queued text, serialize every CPU
 *
 * Called under kprobe_text_lock(), once per batch of arm and disarm
 * calls.  Also waits for every CPU that trapped on a breakpoint before
 * it was removed: the IPI is not taken while such a CPU handles the
 * breakpoint or runs a copy that ends in INT3, both with interrupts off.
 * (A boosted copy never comes back to kprobes; the grace period before
 * its slot is freed covers it.)
 */
void arch_kprobe_text_sync(void)
{
	x86_kprobe_text_flush();
	text_poke_sync();
}
