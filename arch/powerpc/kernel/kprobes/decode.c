// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc kprobes: which instructions may be probed.
 *
 * A hit carries the instruction out with emulate_step() or single-steps
 * a copy of it (core.c); what neither can do is refused here, with
 * -EINVAL as on the stock kernel:
 *   - an address that is not word-aligned, or the suffix word of a
 *     prefixed instruction (a probe there would split it);
 *   - what can_single_step() (<asm/probes.h>, shared with uprobes) says
 *     must not be stepped: the traps, sc, the returns from interrupt,
 *     the power-saving states and mtmsr/mtmsrd;
 *   - unlike the stock kernel, a load-and-reserve and every instruction
 *     up to the store-conditional that ends its sequence: the return
 *     from the trap clears the reservation (interrupt exit does a
 *     stcx. or a larx of its own), so the store would fail, and the
 *     loop retry, forever.
 */
#include <linux/uaccess.h>

#include "internal.h"

/* Extended opcodes (primary opcode 31) of the reservation instructions. */
#define XOP_LWARX	20
#define XOP_LDARX	84
#define XOP_LBARX	52
#define XOP_LHARX	116
#define XOP_LQARX	276
#define XOP_STWCX	150
#define XOP_STDCX	214
#define XOP_STBCX	694
#define XOP_STHCX	726
#define XOP_STQCX	182

/* How far after a probed word we look for the store-conditional. */
#define RESERVATION_WINDOW	16

static bool is_larx(u32 word)
{
	if (get_op(word) != 31)
		return false;
	switch (get_xop(word)) {
	case XOP_LWARX:
	case XOP_LDARX:
	case XOP_LBARX:
	case XOP_LHARX:
	case XOP_LQARX:
		return true;
	}
	return false;
}

static bool is_stcx(u32 word)
{
	if (get_op(word) != 31 || !(word & 1))
		return false;
	switch (get_xop(word)) {
	case XOP_STWCX:
	case XOP_STDCX:
	case XOP_STBCX:
	case XOP_STHCX:
	case XOP_STQCX:
		return true;
	}
	return false;
}

/*
 * Is @addr inside a reservation sequence?  A larx there starts one; from
 * anything else, a stcx. met before the next larx ends the sequence
 * @addr is in.
 */
static bool in_reservation(const u32 *addr, u32 word)
{
	int i;

	if (is_larx(word))
		return true;
	for (i = 0; i < RESERVATION_WINDOW; i++) {
		if (get_kernel_nofault(word, addr + i))
			return false;
		if (is_stcx(word))
			return true;
		if (is_larx(word))
			return false;
	}
	return false;
}

/* Is the word before @addr the prefix of a prefixed instruction? */
static bool after_prefix(const u32 *addr)
{
	u32 prev;

	if (!IS_ENABLED(CONFIG_PPC64))
		return false;
	if (get_kernel_nofault(prev, addr - 1))
		return false;
	return get_op(prev) == OP_PREFIX;
}

/**
 * ppc_kprobe_check_insn - may the instruction at @addr be probed?
 * @addr: the probed address
 * @insn: the instruction there
 *
 * Return: 0, or -EINVAL (see the top of this file).
 */
int ppc_kprobe_check_insn(kprobe_opcode_t *addr, ppc_inst_t insn)
{
	if (!IS_ALIGNED((unsigned long)addr, sizeof(u32)))
		return -EINVAL;
	if (after_prefix(addr))
		return -EINVAL;
	if (!can_single_step(ppc_inst_val(insn)))
		return -EINVAL;
	if (in_reservation(addr, ppc_inst_val(insn)))
		return -EINVAL;
	return 0;
}
