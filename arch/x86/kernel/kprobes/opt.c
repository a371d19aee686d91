// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes: jump optimization.
 *
 * An optimized site's first five bytes become a JMP rel32 to its detour
 * buffer, which holds
 *
 *   the template (detour_*.S)   save pt_regs, call the core, restore them
 *   the region's copy         the instructions the JMP overlaps, moved
 *   JMP rel32                 back to the first byte after the region
 *
 * Overwriting several instructions is only safe if nothing can arrive
 * inside the region other than by falling through from its first
 * instruction; the core takes care of CPUs and tasks that are already
 * there.  arch_prepare_kprobe_opt() decodes the whole probed function
 * and checks, in this order:
 *
 *   1. every instruction of the region can run elsewhere and go straight
 *      on (no branch, call, return, interrupt-flag change, exception-
 *      table entry), and the region ends inside the function;
 *   2. no other kprobe site (-EAGAIN: it may go away) and no other text
 *      patcher (jump labels, static calls, ftrace, alternatives) owns a
 *      byte of the region;
 *   3. no relative branch in the function targets the inside of the
 *      region;
 *   4. the function has no indirect jump, which could come from a jump
 *      table aimed anywhere, and no exception-table entry, whose fixup
 *      could resume anywhere.
 */
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/extable.h>
#include <linux/jump_label.h>
#include <linux/static_call.h>
#include <linux/ftrace.h>
#include <linux/memory.h>
#include <linux/perf_event.h>
#include <linux/bug.h>
#include <linux/unaligned.h>
#include <asm/insn.h>
#include <asm/text-patching.h>
#include <asm/alternative.h>
#include <asm/nospec-branch.h>

#include "internal.h"

/* The retpoline and ITS thunks stand for indirect branches. */
static bool in_thunks(unsigned long t, const void *array, size_t each)
{
	unsigned long start = (unsigned long)array;

	/* Keep the compiler from making a code pointer of start + size. */
	OPTIMIZER_HIDE_VAR(start);
	return t - start < 16 * each;
}

static bool is_indirect_thunk(unsigned long t)
{
	if (IS_ENABLED(CONFIG_MITIGATION_RETPOLINE) &&
	    in_thunks(t, __x86_indirect_thunk_array,
		      sizeof(retpoline_thunk_t)))
		return true;
	if (IS_ENABLED(CONFIG_MITIGATION_CALL_DEPTH_TRACKING) &&
	    in_thunks(t, __x86_indirect_jump_thunk_array,
		      sizeof(retpoline_thunk_t)))
		return true;
	return IS_ENABLED(CONFIG_MITIGATION_ITS) &&
	       in_thunks(t, __x86_indirect_its_thunk_array,
			 sizeof(its_thunk_t));
}

/* JMP through a register or memory, near or far. */
static bool is_indirect_jump(struct insn *insn)
{
	u8 reg;

	if (insn->opcode.bytes[0] != 0xff || insn->opcode.nbytes != 1)
		return false;
	reg = X86_MODRM_REG(insn->modrm.bytes[0]);
	return reg == 4 || reg == 5;
}

/*
 * The target of a relative branch or call at @pos, or 0.  @is_call says
 * which of the two it is.
 */
static unsigned long branch_target(struct insn *insn, unsigned long pos,
				   bool *is_call)
{
	u8 op0 = insn->opcode.bytes[0];
	u8 op1 = insn->opcode.bytes[1];

	*is_call = op0 == CALL_INSN_OPCODE;
	switch (op0) {
	case 0x70 ... 0x7f:		/* Jcc rel8 */
	case 0xe0 ... 0xe3:		/* LOOP family, JrCXZ */
	case CALL_INSN_OPCODE:
	case JMP32_INSN_OPCODE:
	case JMP8_INSN_OPCODE:
		break;
	case 0x0f:			/* Jcc rel32 */
		if (insn->opcode.nbytes == 2 && (op1 & 0xf0) == 0x80)
			break;
		return 0;
	default:
		return 0;
	}
	return pos + insn->length + insn->immediate.value;
}

/* Check 1: the region's length, or an error. */
static int region_length(unsigned long addr, unsigned long func_end)
{
	u8 buf[MAX_INSN_SIZE];
	struct insn insn;
	int len;

	for (len = 0; len < JMP32_INSN_SIZE; len += insn.length) {
		if (x86_kprobe_decode(addr + len, &insn, buf))
			return -EILSEQ;
		if (!x86_kprobe_relocatable(&insn, addr + len))
			return -EOPNOTSUPP;
	}
	return addr + len <= func_end ? len : -ERANGE;
}

/* Check 2: somebody else patches bytes of [@addr, @addr + @len). */
static bool region_reserved(unsigned long addr, int len)
{
	void *start = (void *)addr, *end = (void *)(addr + len - 1);

	return jump_label_text_reserved(start, end) ||
	       static_call_text_reserved(start, end) ||
	       ftrace_text_reserved(start, end) ||
	       alternatives_text_reserved(start, end);
}

/* Checks 3 and 4, over the function [@start, @end). */
static int check_function(unsigned long start, unsigned long end,
			  unsigned long addr, int len)
{
	u8 buf[MAX_INSN_SIZE];
	unsigned long pos, target;
	struct insn insn;
	bool is_call;

	for (pos = start; pos < end; pos += insn.length) {
		if (x86_kprobe_decode(pos, &insn, buf))
			return -EILSEQ;
		if (search_exception_tables(pos) || is_indirect_jump(&insn))
			return -EOPNOTSUPP;
		target = branch_target(&insn, pos, &is_call);
		if (!target)
			continue;
		if (!is_call && is_indirect_thunk(target))
			return -EOPNOTSUPP;
		if (target > addr && target < addr + len)
			return -EBUSY;
	}
	return 0;
}

/* The templates' verdicts are the core's (detour_*.S cannot see enums). */
static_assert(X86_DETOUR_COPY == KPROBE_DETOUR_COPY);
static_assert(X86_DETOUR_IRET == KPROBE_DETOUR_RESUME);
static_assert(X86_DETOUR_STEP == KPROBE_DETOUR_STEP);
static_assert(X86_DETOUR_REST == KPROBE_DETOUR_REST);
static_assert(X86_DETOUR_FIRST == KPROBE_DETOUR_FIRST);

/*
 * Copy the template of @len bytes at @tmpl to @buf + *@pos: the MOVABS
 * at @site_at loads @site, the CALL at @call_at calls @fn.
 */
static int emit_blob(u8 *buf, size_t *pos, kprobe_opcode_t *detour,
		     struct kprobe_site *site, void *fn, const u8 *tmpl,
		     size_t len, size_t site_at, size_t call_at)
{
	size_t op = sizeof(X86_DETOUR_SITE_OPCODE) - 1;
	size_t imm = *pos + site_at + op;
	size_t call = *pos + call_at;

	memcpy(buf + *pos, tmpl, len);
	if (WARN_ON_ONCE(memcmp(buf + imm - op, X86_DETOUR_SITE_OPCODE, op)))
		return -EINVAL;		/* not the load of the first argument */
	memcpy(buf + imm, &site, sizeof(site));
	if (!x86_rel32_reaches((unsigned long)detour + call + CALL_INSN_SIZE,
			       (unsigned long)fn))
		return -ERANGE;
	__text_gen_insn(buf + call, CALL_INSN_OPCODE, detour + call, fn,
			CALL_INSN_SIZE);
	*pos += len;
	return 0;
}

/* Write the template at @buf + *@pos, calling @fn with @site. */
static int emit_template(u8 *buf, size_t *pos, kprobe_opcode_t *detour,
			 struct kprobe_site *site, void *fn)
{
	size_t clac = *pos + x86_detour_clac - x86_detour_template;
	int ret;

	ret = emit_blob(buf, pos, detour, site, fn, x86_detour_template,
			x86_detour_copy_offset(),
			x86_detour_site - x86_detour_template,
			x86_detour_call - x86_detour_template);
	if (!ret && !cpu_feature_enabled(X86_FEATURE_SMAP))
		memcpy(buf + clac, x86_nops[3], 3);
	return ret;
}

/* Move the instructions in [@from, @to) to @buf + *@pos. */
static int emit_copy(u8 *buf, size_t *pos, kprobe_opcode_t *detour,
		     unsigned long from, unsigned long to)
{
	u8 ibuf[MAX_INSN_SIZE];
	struct insn insn;
	int n;

	for (; from < to; from += insn.length) {
		if (x86_kprobe_decode(from, &insn, ibuf))
			return -EILSEQ;
		n = x86_kprobe_relocate(buf + *pos, &insn, from,
					(unsigned long)detour + *pos);
		if (n < 0)
			return n;
		*pos += n;
	}
	return 0;
}

/* Write a JMP to @target at @buf + @at. */
static int write_jump(u8 *buf, size_t at, kprobe_opcode_t *detour,
		      unsigned long target)
{
	if (!x86_rel32_reaches((unsigned long)detour + at + JMP32_INSN_SIZE,
			       target))
		return -ERANGE;
	__text_gen_insn(buf + at, JMP32_INSN_OPCODE, detour + at,
			(void *)target, JMP32_INSN_SIZE);
	return 0;
}

/* Write a JMP to @target at @buf + *@pos. */
static int emit_jump(u8 *buf, size_t *pos, kprobe_opcode_t *detour,
		     unsigned long target)
{
	int ret = write_jump(buf, *pos, detour, target);

	if (!ret)
		*pos += JMP32_INSN_SIZE;
	return ret;
}

/* Where the template at @buf + @start jumps for %X86_DETOUR_STEP. */
static size_t step_jump_at(size_t start)
{
	return start + (x86_detour_step_jmp - x86_detour_template);
}

/* Where the template at @buf + @start jumps for %X86_DETOUR_FIRST. */
static size_t first_jump_at(size_t start)
{
	return start + (x86_detour_first_jmp - x86_detour_template);
}

/* The longest way 3 (see build_detour()); i386 has none. */
static size_t first_way_size(void)
{
	if (!IS_ENABLED(CONFIG_X86_64))
		return 0;
	return X86_REGOP_MAX_CODE +
	       (x86_detour_post_template_end - x86_detour_post_template);
}

/* Aim the JE rel32 at @buf + @at to @buf + @target. */
static void write_je(u8 *buf, size_t at, size_t target)
{
	put_unaligned((s32)(target - (at + 6)), (s32 *)(buf + at + 2));
}

/*
 * Way 3 (x86_64): the code for the region's first instruction done on
 * pt_regs (regop_64.c), at @buf + *@pos when the instruction allows it,
 * then the post template, going on at @buf + @rest.  Return: 0, with
 * *@pos unchanged when the instruction does not allow it, or an error.
 */
static int emit_first_on_regs(struct kprobe_site *site, u8 *buf,
			      size_t *pos, kprobe_opcode_t *detour,
			      size_t rest)
{
	unsigned long addr = (unsigned long)site->addr;
	size_t tlen = x86_detour_post_template_end - x86_detour_post_template;
	size_t at, jmp;
	u8 ibuf[MAX_INSN_SIZE];
	struct insn insn;
	int n, ret;

	if (x86_kprobe_decode(addr, &insn, ibuf))
		return 0;
	n = x86_regop_emit(&insn, addr + site->ainsn.len, buf + *pos);
	if (!n)
		return 0;
	at = *pos + n;
	ret = emit_blob(buf, &at, detour, site, kprobe_site_hit_post_optimized,
			x86_detour_post_template, tlen,
			x86_detour_post_site - x86_detour_post_template,
			x86_detour_post_call - x86_detour_post_template);
	if (ret)
		return ret;
	jmp = at - tlen + (x86_detour_post_rest_jmp - x86_detour_post_template);
	ret = write_jump(buf, jmp, detour, (unsigned long)detour + rest);
	if (ret)
		return ret;
	*pos = at;
	return 0;
}

/*
 * Write the detour image for @site into @buf, for a detour at @detour,
 * and set @site->ainsn.opt_step and @site->opt_first_on_regs.  The image
 * has up to three ways through the region:
 *
 *   1. the template, calling kprobe_site_hit_optimized(); for
 *      %X86_DETOUR_COPY, the copy of the whole region and a jump back;
 *   2. at opt_step, where the first template jumps for hits with post
 *      handlers (%X86_DETOUR_STEP): the copy of the first instruction,
 *      the template again, calling x86_kprobe_detour_post(), then the
 *      copy of the rest of the region and a jump back.  That template
 *      never gets %X86_DETOUR_STEP: its step jump is a UD2;
 *   3. (x86_64) where the first template jumps for %X86_DETOUR_FIRST,
 *      for hits with post handlers at a site whose first instruction
 *      the detour can do on pt_regs: the code for it (regop_64.c) and
 *      the post template, which goes on with the copy of the rest of
 *      the region in way 2.
 *
 * A UD2 ends the image: where the %X86_DETOUR_FIRST jumps of templates
 * that never get that verdict lead.
 *
 * Return: the image's length, or a negative error.
 */
static int build_detour(struct kprobe_site *site, u8 *buf,
			kprobe_opcode_t *detour)
{
	unsigned long addr = (unsigned long)site->addr;
	unsigned long next = addr + site->ainsn.len;
	unsigned long back = addr + site->ainsn.opt_len;
	size_t pos = 0, second, rest, first;
	int ret;

	/*
	 * The longest image: two templates, the region twice, two jumps,
	 * way 3 and the UD2.
	 */
	if (WARN_ON_ONCE(2 * (x86_detour_copy_offset() + KPROBE_OPT_MAX_REGION +
			      JMP32_INSN_SIZE) + first_way_size() + 2 >
			 KPROBE_DETOUR_SIZE))
		return -E2BIG;

	/* 1. Hits without post handlers, and every hit's pre handlers. */
	ret = emit_template(buf, &pos, detour, site,
			    kprobe_site_hit_optimized) ?:
	      emit_copy(buf, &pos, detour, addr, back) ?:
	      emit_jump(buf, &pos, detour, back);
	if (ret)
		return ret;

	/* 2. Hits with post handlers. */
	site->ainsn.opt_step = pos;
	ret = write_jump(buf, step_jump_at(0), detour,
			 (unsigned long)detour + pos) ?:
	      emit_copy(buf, &pos, detour, addr, next);
	if (ret)
		return ret;
	second = pos;
	ret = emit_template(buf, &pos, detour, site, x86_kprobe_detour_post);
	if (ret)
		return ret;
	rest = pos;
	ret = emit_copy(buf, &pos, detour, next, back) ?:
	      emit_jump(buf, &pos, detour, back);
	if (ret)
		return ret;
	put_unaligned((u16)INSN_UD2, (u16 *)(buf + step_jump_at(second)));

	/* 3. Hits with post handlers, the first instruction on pt_regs. */
	first = pos;
	if (IS_ENABLED(CONFIG_X86_64)) {
		ret = emit_first_on_regs(site, buf, &pos, detour, rest);
		if (ret)
			return ret;
	}
	site->opt_first_on_regs = pos != first;

	put_unaligned((u16)INSN_UD2, (u16 *)(buf + pos));
	if (IS_ENABLED(CONFIG_X86_64)) {
		write_je(buf, first_jump_at(0), site->opt_first_on_regs ?
						 first : pos);
		write_je(buf, first_jump_at(second), pos);
	}
	return pos + 2;
}

/**
 * arch_prepare_kprobe_opt - check a site's code and build its detour
 * @site: an armed site whose instruction runs out of line
 *
 * Called under kprobe_text_lock().
 *
 * Return: 0 with @site->ainsn.detour ready; -EAGAIN while another probe
 * sits in the region; -EOPNOTSUPP, -EBUSY, -ERANGE or -EILSEQ when the
 * code does not allow a jump (see the checks at the top of this file);
 * -ENOMEM.
 */
int arch_prepare_kprobe_opt(struct kprobe_site *site)
{
	struct arch_specific_insn *ai = &site->ainsn;
	unsigned long addr = (unsigned long)site->addr;
	unsigned long size, off;
	u8 buf[KPROBE_DETOUR_SIZE], orig[MAX_INSN_SIZE];
	kprobe_opcode_t *detour;
	int len, ret;

	lockdep_assert_held(&text_mutex);
	if (!kprobe_func_bounds_text_locked(addr, &size, &off))
		return -EOPNOTSUPP;

	/* 1 and 2: the region, the probed instruction first; nobody in it. */
	len = region_length(addr, addr - off + size);
	if (len < 0)
		return len;
	if (kprobe_opt_region_taken_locked(addr, len))
		return -EAGAIN;
	if (region_reserved(addr, len))
		return -EBUSY;

	/* 3 and 4: the rest of the function. */
	ret = check_function(addr - off, addr - off + size, addr, len);
	if (ret)
		return ret;

	if (x86_kprobe_read_orig(addr, orig) < JMP32_INSN_SIZE)
		return -EILSEQ;
	memcpy(ai->opt_orig, orig, JMP32_INSN_SIZE);
	ai->opt_len = len;

	detour = kprobe_detour_alloc_locked();
	if (!detour)
		return -ENOMEM;
	memset(buf, INT3_INSN_OPCODE, sizeof(buf));
	ret = build_detour(site, buf, detour);
	if (ret < 0) {
		kprobe_detour_free_deferred_locked(detour);
		return ret;
	}
	text_poke(detour, buf, ret);
	perf_event_text_poke(detour, NULL, 0, buf, ret);
	/* Published to the breakpoint path by the core's release store. */
	ai->detour = detour;
	return 0;
}

/**
 * arch_release_kprobe_opt - the site no longer uses its detour
 * @site: the site
 *
 * The detour is freed after the optimizer's next wait.  @ai->detour keeps
 * pointing at it: a CPU in the breakpoint path may still read it, and
 * the wait covers that CPU too.
 */
void arch_release_kprobe_opt(struct kprobe_site *site)
{
	kprobe_detour_free_deferred_locked(site->ainsn.detour);
}

static void gen_jump(struct kprobe_site *site, u8 *jmp)
{
	__text_gen_insn(jmp, JMP32_INSN_OPCODE, site->addr, site->ainsn.detour,
			JMP32_INSN_SIZE);
}

/* What the first five bytes hold while the site is a breakpoint. */
static void gen_breakpoint(struct kprobe_site *site, u8 *bytes)
{
	memcpy(bytes, site->ainsn.opt_orig, JMP32_INSN_SIZE);
	bytes[0] = INT3_INSN_OPCODE;
}

/**
 * arch_optimize_kprobe_tail - write the jump's displacement
 * @site: a queued site whose wait is over; its breakpoint is in place
 */
void arch_optimize_kprobe_tail(struct kprobe_site *site)
{
	u8 jmp[JMP32_INSN_SIZE];

	lockdep_assert_held(&text_mutex);
	gen_jump(site, jmp);
	x86_kprobe_text_queue(site->addr + 1, jmp + 1, JMP32_INSN_SIZE - 1);
}

/**
 * arch_optimize_kprobe_head - replace the breakpoint by the JMP opcode
 * @site: a site whose displacement is written and synchronized
 */
void arch_optimize_kprobe_head(struct kprobe_site *site)
{
	u8 jmp[JMP32_INSN_SIZE], old[JMP32_INSN_SIZE];

	lockdep_assert_held(&text_mutex);
	gen_jump(site, jmp);
	gen_breakpoint(site, old);
	x86_kprobe_text_queue(site->addr, jmp, 1);
	perf_event_text_poke(site->addr, old, JMP32_INSN_SIZE, jmp,
			     JMP32_INSN_SIZE);
}

/**
 * arch_unoptimize_kprobe_head - put the breakpoint over the JMP opcode
 * @site: an optimized site
 */
void arch_unoptimize_kprobe_head(struct kprobe_site *site)
{
	u8 int3 = INT3_INSN_OPCODE;

	lockdep_assert_held(&text_mutex);
	x86_kprobe_text_queue(site->addr, &int3, 1);
}

/**
 * arch_unoptimize_kprobe_tail - restore the bytes behind the breakpoint
 * @site: a site whose breakpoint is back and synchronized
 */
void arch_unoptimize_kprobe_tail(struct kprobe_site *site)
{
	u8 jmp[JMP32_INSN_SIZE], now[JMP32_INSN_SIZE];

	lockdep_assert_held(&text_mutex);
	gen_jump(site, jmp);
	gen_breakpoint(site, now);
	x86_kprobe_text_queue(site->addr + 1, now + 1, JMP32_INSN_SIZE - 1);
	perf_event_text_poke(site->addr, jmp, JMP32_INSN_SIZE, now,
			     JMP32_INSN_SIZE);
}

/**
 * arch_kprobe_opt_covers - is @addr inside the region of @site?
 * @site: a site with a detour
 * @addr: any address
 *
 * Return: true when @addr is one of the bytes the jump replaces.
 */
bool arch_kprobe_opt_covers(struct kprobe_site *site, unsigned long addr)
{
	unsigned long start = (unsigned long)site->addr;

	return addr >= start && addr < start + site->ainsn.opt_len;
}
