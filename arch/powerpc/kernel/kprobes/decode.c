// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc kprobes: which instructions may be probed.
 *
 * A hit carries the instruction out with emulate_step() or single-steps
 * a copy of it (core.c); what neither can do right is refused here, with
 * -EINVAL as on the stock kernel:
 *   - an address that is not word-aligned, or the suffix word of a
 *     prefixed instruction (a probe there would split it);
 *   - what can_single_step() (<asm/probes.h>, shared with uprobes) says
 *     must not be stepped: the traps, sc, the returns from interrupt,
 *     the power-saving states and mtmsr/mtmsrd;
 *   - and, unlike the stock kernel:
 *     - a load-and-reserve and every instruction up to the
 *       store-conditional that ends its sequence: the return from the
 *       trap clears the reservation (interrupt exit does a stcx. or a
 *       larx of its own), so the store would fail, and the loop retry,
 *       forever;
 *     - what changes the interrupt state behind the step's back: wrtee
 *       and wrteei, mtspr to the save/restore registers of an
 *       interrupt (which the trace interrupt overwrites) or to the 8xx
 *       EIE/EID/NRI, and on 64-bit a byte load or store of the PACA's
 *       soft interrupt mask or pending-interrupt bits (local_irq_save()
 *       and friends inline them): the trap's exit puts the soft mask
 *       back as the trap found it;
 *     - bctar, which the emulator leaves and a copy cannot branch from.
 */
#include <linux/stddef.h>
#include <linux/uaccess.h>
#include <asm/paca.h>

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

/* Extended opcodes and SPRs of what changes the interrupt state. */
#define XOP_WRTEE	131
#define XOP_WRTEEI	163
#define XOP_MTSPR	467
#define XOP19_BCTAR	560

/* Primary opcodes of the byte loads and stores, with and without update. */
#define OP_LBZ		34
#define OP_LBZU		35
#define OP_STB		38
#define OP_STBU		39

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

/*
 * Is the word before @addr the prefix of a prefixed instruction?  A
 * probe there shows its trap: the site has the prefix.
 */
static bool after_prefix(u32 *addr)
{
	struct kprobe_site *site;
	u32 prev;

	if (!IS_ENABLED(CONFIG_PPC64))
		return false;
	if (get_kernel_nofault(prev, addr - 1))
		return false;
	if (prev == BREAKPOINT_INSTRUCTION) {
		site = get_kprobe_site(addr - 1);
		return site && ppc_inst_prefixed(site->ainsn.insn);
	}
	return get_op(prev) == OP_PREFIX;
}

/* An SPR that an interrupt saves its state in, or that sets MSR bits. */
static bool interrupt_spr(unsigned int spr)
{
	switch (spr) {
	case SPRN_SRR0:
	case SPRN_SRR1:
	case 58:	/* CSRR0 */
	case 59:	/* CSRR1 */
	case 574:	/* DSRR0 */
	case 575:	/* DSRR1 */
	case 80:	/* 8xx EIE */
	case 81:	/* 8xx EID */
	case 82:	/* 8xx NRI */
		return true;
	}
	return false;
}

#ifdef CONFIG_PPC64
/* lbz/stb (with update or not) of the PACA's soft mask or pending bits. */
static bool paca_irq_byte(u32 word)
{
	unsigned int d = word & 0xffff;

	switch (get_op(word)) {
	case OP_LBZ:
	case OP_LBZU:
	case OP_STB:
	case OP_STBU:
		break;
	default:
		return false;
	}
	if (get_ra(word) != 13)
		return false;
	return d == offsetof(struct paca_struct, irq_soft_mask) ||
	       d == offsetof(struct paca_struct, irq_happened);
}
#else
static bool paca_irq_byte(u32 word)
{
	return false;
}
#endif

/* Does @word change the interrupt state, or branch where no copy can? */
static bool changes_irq_state(u32 word)
{
	unsigned int spr;

	if (paca_irq_byte(word))
		return true;
	if (get_op(word) == 19)
		return get_xop(word) == XOP19_BCTAR;
	if (get_op(word) != 31)
		return false;
	switch (get_xop(word)) {
	case XOP_WRTEE:
	case XOP_WRTEEI:
		return true;
	case XOP_MTSPR:
		spr = ((word >> 16) & 0x1f) | ((word >> 6) & 0x3e0);
		return interrupt_spr(spr);
	}
	return false;
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
	if (!ppc_inst_prefixed(insn) && changes_irq_state(ppc_inst_val(insn)))
		return -EINVAL;
	if (in_reservation(addr, ppc_inst_val(insn)))
		return -EINVAL;
	return 0;
}
