// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes: deciding how a probed instruction gets executed.
 *
 * The first byte of a probed instruction becomes INT3, so on every hit
 * the instruction has to run somewhere else.  There are two ways:
 *
 *   emulated     Instructions whose effect depends on where they run
 *                (relative jumps, Jcc, LOOP/JRCXZ, calls, returns,
 *                indirect branches) or on the interrupt flag (CLI, STI,
 *                PUSHF, POPF) are carried out on the trapped registers
 *                by emulate.c.  Nothing that can enable interrupts ever
 *                runs in a slot.
 *   out of line  Everything else runs as a copy in an executable slot,
 *                with a RIP-relative operand re-aimed at the data the
 *                original addresses.  A slot holds three copies (see
 *                KPROBE_SLOT_* in <asm/kprobes.h>): one for hits with
 *                post handlers, which comes back to kprobes through the
 *                step trampoline (step_*.S), or through a second INT3
 *                when the instruction is not boostable; and two
 *                "boosted" ones that jump straight on to the next
 *                instruction, one of them ending in STI; JMP.
 *
 * Why a second INT3 and not the trap flag: this kernel's #DB handler does
 * not call into kprobes, and INT3 needs no debug-register state.  Only
 * hits on an instruction that is not boostable (one with an
 * exception-table entry) pay that second trap, with or without post
 * handlers: such an instruction has no boosted copy to go through.
 *
 * No task is ever scheduled away inside a slot: the copies that come
 * back run with interrupts off, and so do boosted ones on preemptible
 * kernels (see boost_entry() in core.c).  One RCU grace period after a
 * site went, its slot is free.
 *
 * A table indexed by opcode says which way an instruction goes, or that
 * it cannot be probed at all (it traps by design, halts, switches
 * privilege, or would never come back from the slot).
 */
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/uaccess.h>
#include <linux/memory.h>
#include <linux/perf_event.h>
#include <linux/extable.h>
#include <linux/unaligned.h>
#include <asm/insn.h>
#include <asm/insn-eval.h>
#include <asm/text-patching.h>

#include "internal.h"

enum insn_plan {
	PLAN_EMULATE,		/* carried out by @emulate */
	PLAN_GROUP5,		/* 0xff: depends on ModRM.reg */
	PLAN_REFUSE,		/* cannot be probed: -EOPNOTSUPP */
	PLAN_REFUSE_TRAP,	/* raises an exception by design: -EILSEQ */
};

struct insn_rule {
	u8 first;
	u8 last;
	u8 plan;
	kprobe_emulate_t emulate;
};

/* Anything not listed runs out of line. */
static const struct insn_rule one_byte_rules[] = {
	{ 0x70, 0x7f, PLAN_EMULATE, kprobe_emulate_jcc },
	{ 0x9c, 0x9c, PLAN_EMULATE, kprobe_emulate_pushf },
	{ 0x9d, 0x9d, PLAN_EMULATE, kprobe_emulate_popf },
	{ 0xc2, 0xc3, PLAN_EMULATE, kprobe_emulate_ret },
	{ 0xca, 0xcb, PLAN_REFUSE },	/* far RET */
	{ 0xcc, 0xce, PLAN_REFUSE_TRAP },	/* INT3, INT n, INTO */
	{ 0xcf, 0xcf, PLAN_REFUSE },	/* IRET */
	{ 0xe0, 0xe3, PLAN_EMULATE, kprobe_emulate_loop },
	{ 0xe8, 0xe8, PLAN_EMULATE, kprobe_emulate_call },
	{ 0xe9, 0xe9, PLAN_EMULATE, kprobe_emulate_jmp },
	{ 0xeb, 0xeb, PLAN_EMULATE, kprobe_emulate_jmp },
	{ 0xf1, 0xf1, PLAN_REFUSE_TRAP },	/* INT1 */
	{ 0xf4, 0xf4, PLAN_REFUSE },	/* HLT: would sleep with IF clear */
	{ 0xfa, 0xfb, PLAN_EMULATE, kprobe_emulate_cli_sti },
	{ 0xff, 0xff, PLAN_GROUP5 },
};

static const struct insn_rule two_byte_rules[] = {	/* after 0x0f */
	{ 0x05, 0x05, PLAN_REFUSE },	/* SYSCALL */
	{ 0x07, 0x07, PLAN_REFUSE },	/* SYSRET */
	{ 0x0b, 0x0b, PLAN_REFUSE_TRAP },	/* UD2 */
	{ 0x34, 0x35, PLAN_REFUSE },	/* SYSENTER, SYSEXIT */
	{ 0x80, 0x8f, PLAN_EMULATE, kprobe_emulate_jcc },
	{ 0xb9, 0xb9, PLAN_REFUSE_TRAP },	/* UD1 */
	{ 0xff, 0xff, PLAN_REFUSE_TRAP },	/* UD0 */
};

/* Opcode plus ModRM combinations that are refused: { op0, op1, modrm }. */
static const u8 refused_modrm[][3] = {
	{ 0x0f, 0x01, 0xf8 },		/* SWAPGS */
	{ 0x0f, 0x01, 0xc9 },		/* MWAIT */
	{ 0x0f, 0x01, 0xfb },		/* MWAITX */
	{ 0xc7, 0x00, 0xf8 },		/* XBEGIN: RIP-relative abort path */
};

static const struct insn_rule *find_rule(const struct insn_rule *rules,
					 unsigned int n, u8 op)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (op >= rules[i].first && op <= rules[i].last)
			return &rules[i];
	}
	return NULL;
}

static bool modrm_refused(struct insn *insn)
{
	u8 op0 = insn->opcode.bytes[0];
	u8 op1 = insn->opcode.nbytes > 1 ? insn->opcode.bytes[1] : 0;
	unsigned int i;

	if (!insn->modrm.nbytes)
		return false;
	for (i = 0; i < ARRAY_SIZE(refused_modrm); i++) {
		if (refused_modrm[i][0] == op0 && refused_modrm[i][1] == op1 &&
		    refused_modrm[i][2] == insn->modrm.bytes[0])
			return true;
	}
	return false;
}

static bool has_prefix(struct insn *insn, insn_byte_t want)
{
	insn_byte_t prefix;
	int i;

	for_each_insn_prefix(insn, i, prefix) {
		if (prefix == want)
			return true;
	}
	return false;
}

/*
 * Put back into @buf, which holds the @n bytes at @addr, what the site
 * at @q changed: its breakpoint, and the jump of an optimized site.
 */
static void undo_site_bytes(struct kprobe_site *q, unsigned long addr,
			    u8 *buf, int n)
{
	const struct arch_specific_insn *ai = &q->ainsn;
	long at = (long)q->addr - (long)addr;
	int i;

	if (q->armed && at >= 0)
		buf[at] = q->opcode;
	if (q->opt == KPROBE_OPT_NONE)
		return;
	for (i = 1; i < JMP32_INSN_SIZE; i++) {
		if (at + i >= 0 && at + i < n)
			buf[at + i] = ai->opt_orig[i];
	}
}

/**
 * x86_kprobe_read_orig - read kernel text as it is without kprobes
 * @addr: where to read
 * @buf: MAX_INSN_SIZE bytes
 *
 * Undoes our breakpoints and optimized jumps that overlap the bytes
 * read.  Called under kprobe_text_lock().
 *
 * Return: how many bytes could be read.
 */
int x86_kprobe_read_orig(unsigned long addr, u8 *buf)
{
	struct kprobe_site *q;
	long d;
	int n;

	lockdep_assert_held(&text_mutex);
	x86_kprobe_text_settle();
	if (!copy_from_kernel_nofault(buf, (void *)addr, MAX_INSN_SIZE)) {
		n = MAX_INSN_SIZE;
	} else {
		/* Up to the end of the readable text (the last page). */
		for (n = 0; n < MAX_INSN_SIZE; n++) {
			if (get_kernel_nofault(buf[n], (u8 *)addr + n))
				break;
		}
	}
	/*
	 * A site before @addr may have its jump's tail here; a site inside
	 * starts with our INT3 or JMP opcode.
	 */
	for (d = 1 - JMP32_INSN_SIZE; d < n; d++) {
		if (d >= 0 && buf[d] != INT3_INSN_OPCODE &&
		    buf[d] != JMP32_INSN_OPCODE)
			continue;
		q = get_kprobe_site((kprobe_opcode_t *)(addr + d));
		if (q)
			undo_site_bytes(q, addr, buf, n);
	}
	return n;
}

/**
 * x86_kprobe_decode - decode the original instruction at @addr
 * @addr: where
 * @insn: the result
 * @buf: MAX_INSN_SIZE bytes that @insn will point into
 *
 * Return: 0, or -EILSEQ when it cannot be read or decoded.
 */
int x86_kprobe_decode(unsigned long addr, struct insn *insn, u8 *buf)
{
	int n = x86_kprobe_read_orig(addr, buf);

	if (!n || insn_decode(insn, buf, n, INSN_MODE_KERN) < 0)
		return -EILSEQ;
	return 0;
}

/* Decode from the start of the function: @addr must start an insn. */
static int check_boundary(unsigned long addr)
{
	unsigned long size, off, pos;
	u8 buf[MAX_INSN_SIZE];
	struct insn insn;

	if (!kprobe_func_bounds_text_locked(addr, &size, &off))
		return -EILSEQ;
	for (pos = addr - off; pos < addr; pos += insn.length) {
		if (x86_kprobe_decode(pos, &insn, buf))
			return -EILSEQ;
	}
	return pos == addr ? 0 : -EILSEQ;
}

static int plan_emulation(struct insn *insn, struct arch_specific_insn *ai,
			  kprobe_emulate_t emulate)
{
	/* 16-bit branch targets and 32-bit counters are not emulated. */
	if (has_prefix(insn, 0x66) || has_prefix(insn, 0x67))
		return -EOPNOTSUPP;
	ai->emulate = emulate;
	ai->op = insn->opcode.bytes[insn->opcode.nbytes - 1];
	ai->disp = insn->immediate.value;
	return 0;
}

/* 0xff: INC, DEC, CALL, CALLF, JMP, JMPF, PUSH by ModRM.reg */
static int plan_group5(struct insn *insn, struct arch_specific_insn *ai)
{
	u8 modrm = insn->modrm.bytes[0];
	int off;

	switch (X86_MODRM_REG(modrm)) {
	case 2:
		ai->emulate = kprobe_emulate_call_reg;
		break;
	case 4:
		ai->emulate = kprobe_emulate_jmp_reg;
		break;
	case 3:
	case 5:
		return -EOPNOTSUPP;	/* far branches */
	default:
		return 0;		/* runs out of line */
	}
	/* Branches through memory would need the operand's address. */
	if (X86_MODRM_MOD(modrm) != 3 || has_prefix(insn, 0x66)) {
		ai->emulate = NULL;
		return -EOPNOTSUPP;
	}
	/* The register form looks only at the instruction, not at regs. */
	off = insn_get_modrm_rm_off(insn, NULL);
	if (off < 0) {
		ai->emulate = NULL;
		return -EOPNOTSUPP;
	}
	ai->reg = off;
	return 0;
}

/*
 * Fill @ai->emulate, or refuse the instruction.  The
 * errno of a refusal is the one tools know from the stock kernel: -EILSEQ
 * for an instruction that traps by design (INT3 padding, BUG's UD2),
 * -EINVAL for one that holds off interrupts for the next (MOV/POP SS),
 * -EOPNOTSUPP for the rest.
 */
static int plan_insn(struct insn *insn, struct arch_specific_insn *ai)
{
	const struct insn_rule *rule;
	u8 op0 = insn->opcode.bytes[0];

	if (insn_masking_exception(insn))
		return -EINVAL;
	if (modrm_refused(insn))
		return -EOPNOTSUPP;
	if (op0 != 0x0f)
		rule = find_rule(one_byte_rules, ARRAY_SIZE(one_byte_rules),
				 op0);
	else if (insn->opcode.nbytes == 2)
		rule = find_rule(two_byte_rules, ARRAY_SIZE(two_byte_rules),
				 insn->opcode.bytes[1]);
	else
		rule = NULL;			/* three-byte maps */
	if (!rule || insn->vex_prefix.nbytes)
		return 0;

	switch (rule->plan) {
	case PLAN_EMULATE:
		return plan_emulation(insn, ai, rule->emulate);
	case PLAN_GROUP5:
		return plan_group5(insn, ai);
	case PLAN_REFUSE_TRAP:
		return -EILSEQ;
	default:
		return -EOPNOTSUPP;
	}
}

/**
 * x86_kprobe_relocate - copy an instruction to where it will run
 * @buf: receives the copy
 * @insn: the decoded original
 * @from: where the original is
 * @to: where the copy will be
 *
 * A RIP-relative operand is re-aimed at what the original addresses.
 *
 * Return: the bytes written, or -ERANGE when the operand is out of reach.
 */
int x86_kprobe_relocate(u8 *buf, struct insn *insn, unsigned long from,
			unsigned long to)
{
	s64 disp;

	memcpy(buf, insn->kaddr, insn->length);
	if (insn_rip_relative(insn)) {
		disp = (s64)insn->displacement.value + ((long)from - (long)to);
		if (disp != (s32)disp)
			return -ERANGE;
		put_unaligned((s32)disp,
			      (s32 *)(buf + insn_offset_displacement(insn)));
	}
	return insn->length;
}

/*
 * Write the copy that starts at offset @off of @slot (KPROBE_SLOT_*) into
 * @buf, the image of the whole slot: the instruction, then its way back.
 * Return: 0, or -ERANGE when an operand or the way back is out of reach.
 */
static int build_copy(struct kprobe_site *site, struct insn *insn, u8 *buf,
		      kprobe_opcode_t *slot, unsigned int off)
{
	unsigned long back = (unsigned long)site->addr + site->ainsn.len;
	int n;

	n = x86_kprobe_relocate(buf + off, insn, (unsigned long)site->addr,
				(unsigned long)slot + off);
	if (n < 0)
		return n;
	n += off;

	if (off == KPROBE_SLOT_STEP) {
		if (!site->ainsn.boostable) {
			buf[n] = INT3_INSN_OPCODE;
			return 0;
		}
		back = (unsigned long)x86_kprobe_step_trampoline;
	}
	if (off == KPROBE_SLOT_BOOST_STI)
		buf[n++] = 0xfb;			/* STI */
	if (!x86_rel32_reaches((unsigned long)slot + n + JMP32_INSN_SIZE, back))
		return -ERANGE;
	__text_gen_insn(buf + n, JMP32_INSN_OPCODE, slot + n, (void *)back,
			JMP32_INSN_SIZE);
	return 0;
}

/*
 * Write the copies of KPROBE_SLOT_* into a new slot: all three on
 * preemptible kernels, where the STI one is used, the first two
 * otherwise.  The boosted ones are written even when @ai->boostable is
 * false (they are never used then), which keeps the layout simple.
 */
static int build_slot(struct kprobe_site *site, struct insn *insn)
{
	static const unsigned int copies[] = {
		KPROBE_SLOT_STEP, KPROBE_SLOT_BOOST, KPROBE_SLOT_BOOST_STI,
	};
	u8 buf[KPROBE_SLOT_SIZE];
	kprobe_opcode_t *slot;
	int i, ret;

	slot = kprobe_slot_alloc_locked();
	if (!slot)
		return -ENOMEM;
	memset(buf, INT3_INSN_OPCODE, sizeof(buf));
	for (i = 0; i < ARRAY_SIZE(copies); i++) {
		if (copies[i] == KPROBE_SLOT_BOOST_STI &&
		    !X86_KPROBE_BOOST_IRQS_OFF)
			continue;	/* never used here */
		ret = build_copy(site, insn, buf, slot, copies[i]);
		if (ret) {
			kprobe_slot_free_locked(slot);
			return ret;
		}
	}

	x86_kprobe_slot_write(slot, buf, sizeof(buf));
	perf_event_text_poke(slot, NULL, 0, buf, sizeof(buf));
	site->ainsn.slot = slot;
	return 0;
}

/**
 * x86_kprobe_relocatable - may the instruction at @addr run elsewhere
 *	and go straight on?
 * @insn: the decoded instruction
 * @addr: where it is
 *
 * True for what runs out of line, is boostable and has no exception-
 * table entry: what the copies of an optimized region may hold.
 *
 * Return: true if so.
 */
bool x86_kprobe_relocatable(struct insn *insn, unsigned long addr)
{
	struct arch_specific_insn ai = {};

	return !plan_insn(insn, &ai) && !ai.emulate &&
	       !search_exception_tables(addr);
}

/*
 * May the copy jump straight back?  Not when the instruction has an
 * exception-table entry: a fault in a boosted copy is no longer a kprobes
 * hit in progress, so it could not be rewound to the original address
 * for the fixup.  (Instructions that set the interrupt flag are emulated.)
 */
static bool insn_boostable(struct kprobe_site *site)
{
	return !search_exception_tables((unsigned long)site->addr);
}

/**
 * arch_prepare_kprobe_site - decode a probed instruction and plan its run
 * @site: the new site; only @site->addr is set
 *
 * Called under kprobe_text_lock().
 *
 * Return: 0; -EILSEQ when @site->addr is not at an instruction boundary,
 * cannot be decoded or holds an instruction that traps by design;
 * -EINVAL for MOV/POP SS; -EOPNOTSUPP for another instruction that cannot
 * be probed; -ENOMEM or -ERANGE when no usable slot could be had.
 */
int arch_prepare_kprobe_site(struct kprobe_site *site)
{
	struct arch_specific_insn *ai = &site->ainsn;
	unsigned long addr = (unsigned long)site->addr;
	struct insn insn;
	int ret;

	lockdep_assert_held(&text_mutex);

	/* 1. The address must start an instruction of its function. */
	ret = check_boundary(addr);
	if (ret)
		return ret;

	/* 2. Decode the original instruction. */
	if (x86_kprobe_decode(addr, &insn, ai->insn))
		return -EILSEQ;
	ai->len = insn.length;
	site->opcode = ai->insn[0];

	/* 3. Emulate it, or run it out of line, or refuse it. */
	ret = plan_insn(&insn, ai);
	if (ret || ai->emulate)
		return ret;

	/* 4. Out of line: build the slot; decide whether it may be boosted. */
	ai->boostable = insn_boostable(site);
	ret = build_slot(site, &insn);
	if (ret)
		return ret;

	/* 5. A boost that only needs a jump is the core's to take. */
	if (ai->boostable && !X86_KPROBE_BOOST_IRQS_OFF)
		site->boost_to = ai->slot + KPROBE_SLOT_BOOST;
	return 0;
}

/**
 * arch_release_kprobe_site - free the slot of a site nobody uses any more
 * @site: the site
 */
void arch_release_kprobe_site(struct kprobe_site *site)
{
	if (site->ainsn.slot) {
		x86_kprobe_slot_forget(site->ainsn.slot);
		kprobe_slot_free_locked(site->ainsn.slot);
	}
	site->ainsn.slot = NULL;
	site->boost_to = NULL;
}
