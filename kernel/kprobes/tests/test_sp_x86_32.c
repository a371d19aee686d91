// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit, i386: handlers that move the stack pointer.
 *
 * An IRET from kernel to kernel mode on i386 neither pops nor loads ESP,
 * so where a hit ends in IRET (the step trampoline, after post handlers,
 * and a detour whose pre handler took regs->ip over) the IRET frame has
 * to be written where regs->sp says, wherever a handler moved it.  The
 * targets (sp_targets_x86_32.S) record every register, ESP and the flags
 * once past the probe; the cases check them against what the handlers
 * left in pt_regs:
 *
 *   sp_post_handler_pushes    a post handler at a boostable instruction
 *                             pushes three words for the probed code,
 *                             which pops them (step, and opt_post)
 *   sp_pre_handler_moves_sp   an optimized probe's pre handler moves
 *                             regs->sp down or up by 4 to 128 bytes and
 *                             sends the CPU to a landing function
 *
 * A handler may write below regs->sp as far as the room the kernel's
 * INT3 entry leaves on i386, six words: the cases write no further.
 */
#include <kunit/test.h>
#include <linux/kprobes.h>
#include <asm/processor-flags.h>

#include "tests.h"
#include "insn_targets_x86.h"
#include "sp_targets_x86_32.h"

struct kpt_sp_seen kpt_sp_seen;
unsigned long kpt_sp_frame;

#define SP_AT(fn)	((kprobe_opcode_t *)((u8 *)(fn) + fn##_off))

/* The flags a compare sets, and the ones the probed code may change. */
#define SP_FLAGS	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | \
			 X86_EFLAGS_ZF | X86_EFLAGS_SF | X86_EFLAGS_OF | \
			 X86_EFLAGS_DF | X86_EFLAGS_IF)

/* What a handler may write below regs->sp (see the top of the file). */
#define SP_ROOM		(6L * 4)

/* Pairs (a, b) whose compares leave different flags. */
static const long sp_pairs[][2] = {
	{ 1, 2 }, { 2, 2 }, { 16, 1 }, { LONG_MIN, 1 },
};

struct sp_ctx {
	struct kprobe kp;
	int pre;
	int post;
	unsigned long sp_at_hit;	/* regs->sp as the pre handler saw it */
	unsigned long post_sp;		/* ... and the post handler */
	long move;			/* what the pre handler adds to it */
	unsigned long words[KPT_SEEN_NR_WORDS];
};

static struct sp_ctx *sp_ctx(struct kprobe *p)
{
	return container_of(p, struct sp_ctx, kp);
}

static void restore_optimization(void *on)
{
	kprobes_set_optimization(on);
}

/* Optimization on or off for the rest of the test, back as it was after. */
static void sp_set_optimization(struct kunit *test, bool on)
{
	void *was_on = kprobes_optimization_enabled() ? (void *)1 : NULL;

	if (on && !IS_ENABLED(CONFIG_OPTPROBES))
		kunit_skip(test, "needs CONFIG_OPTPROBES");
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							restore_optimization,
							was_on), 0);
	kprobes_set_optimization(on);
}

/* What every target leaves in the registers the probe did not touch. */
static void sp_expect_regs(struct kunit *test, long a, long b,
			   unsigned long cx, unsigned long bp, const char *what)
{
	const struct kpt_sp_seen *s = &kpt_sp_seen;

	KUNIT_EXPECT_EQ_MSG(test, s->ax, (unsigned long)a, "%s: eax", what);
	KUNIT_EXPECT_EQ_MSG(test, s->dx, (unsigned long)b, "%s: edx", what);
	KUNIT_EXPECT_EQ_MSG(test, s->cx, cx, "%s: ecx", what);
	KUNIT_EXPECT_EQ_MSG(test, s->bx, (unsigned long)KPT_SP_BX,
			    "%s: ebx", what);
	KUNIT_EXPECT_EQ_MSG(test, s->si, (unsigned long)KPT_SP_SI,
			    "%s: esi", what);
	KUNIT_EXPECT_EQ_MSG(test, s->di, (unsigned long)KPT_SP_DI,
			    "%s: edi", what);
	KUNIT_EXPECT_EQ_MSG(test, s->bp, bp, "%s: ebp", what);
	KUNIT_EXPECT_EQ_MSG(test, s->flags & SP_FLAGS,
			    kpt_flags_all(a, b) & SP_FLAGS, "%s: flags", what);
}

static int sp_pre_record(struct kprobe *p, struct pt_regs *regs)
{
	struct sp_ctx *c = sp_ctx(p);

	c->sp_at_hit = regs->sp;
	c->pre++;
	return 0;
}

/* Three pushes, as an emulated instruction would do them. */
static void sp_post_push(struct kprobe *p, struct pt_regs *regs,
			 unsigned long unused)
{
	struct sp_ctx *c = sp_ctx(p);
	unsigned long *top;
	int i;

	c->post_sp = regs->sp;
	regs->sp -= sizeof(c->words);
	top = (unsigned long *)regs->sp;
	for (i = 0; i < KPT_SEEN_NR_WORDS; i++)
		top[i] = c->words[i];
	c->post++;
}

enum sp_post_mode { SP_STEP, SP_OPT_POST };

static const enum sp_post_mode sp_post_modes[] = { SP_STEP, SP_OPT_POST };

static void sp_post_mode_desc(const enum sp_post_mode *m, char *desc)
{
	strscpy(desc, *m == SP_STEP ? "step" : "opt_post",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sp_post_mode, sp_post_modes, sp_post_mode_desc);

static void sp_post_handler_pushes(struct kunit *test)
{
	bool opt = *(const enum sp_post_mode *)test->param_value == SP_OPT_POST;
	struct sp_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	char what[32];
	int i, w;

	KUNIT_ASSERT_NOT_NULL(test, c);
	sp_set_optimization(test, opt);
	c->kp.addr = SP_AT(kpt_sp_pushed);
	c->kp.pre_handler = sp_pre_record;
	c->kp.post_handler = sp_post_push;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &c->kp), 0);
	wait_for_kprobe_optimizer();
	KUNIT_ASSERT_EQ(test, kprobe_optimized(&c->kp), opt);

	for (i = 0; i < ARRAY_SIZE(sp_pairs); i++) {
		for (w = 0; w < KPT_SEEN_NR_WORDS; w++)
			c->words[w] = 0xfeed0000 + 0x100 * i + w;
		memset(&kpt_sp_seen, 0, sizeof(kpt_sp_seen));
		snprintf(what, sizeof(what), "pair %d", i);
		KUNIT_ASSERT_EQ(test, kpt_sp_pushed(sp_pairs[i][0],
						    sp_pairs[i][1]), 1UL);
		KUNIT_ASSERT_EQ(test, c->post, i + 1);
		KUNIT_EXPECT_EQ_MSG(test, c->post_sp, c->sp_at_hit, "%s", what);
		for (w = 0; w < KPT_SEEN_NR_WORDS; w++)
			KUNIT_EXPECT_EQ_MSG(test, kpt_sp_seen.words[w],
					    c->words[w], "%s: word %d", what, w);
		/* Three pops later, ESP is where it was at the probe. */
		KUNIT_EXPECT_EQ_MSG(test, kpt_sp_seen.sp, c->sp_at_hit,
				    "%s: esp", what);
		sp_expect_regs(test, sp_pairs[i][0], sp_pairs[i][1],
			       0x5a5a5a5a, c->sp_at_hit, what);
	}
	KUNIT_EXPECT_EQ(test, c->pre, (int)ARRAY_SIZE(sp_pairs));
}

/*
 * Move regs->sp by c->move and resume at kpt_sp_landing.  Moved down
 * within the room, the handler leaves a word at the new stack pointer,
 * as a push would.
 */
static int sp_pre_move(struct kprobe *p, struct pt_regs *regs)
{
	struct sp_ctx *c = sp_ctx(p);

	c->sp_at_hit = regs->sp;
	regs->sp += c->move;
	if (c->move < 0 && -c->move <= SP_ROOM)
		*(unsigned long *)regs->sp = c->words[0];
	regs->cx = KPT_SP_CX;
	regs->ip = (unsigned long)kpt_sp_landing;
	c->pre++;
	return 1;
}

/*
 * Down by every word up to 64 bytes, and further; up as far as the
 * target leaves room for.  Where a handler moves regs->sp decides where
 * the IRET frame goes, and how it overlaps the pt_regs it comes from.
 */
static const long sp_moves[] = {
	-4, -8, -12, -16, -20, -24, -28, -32, -36, -40, -44, -48, -52, -56,
	-60, -64, -96, -128, 4, 8, 16, 32, KPT_SP_RAISE_MAX,
};

static void sp_pre_handler_moves_sp(struct kunit *test)
{
	struct sp_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	char what[48];
	long a, b;
	int i, n = 0;

	KUNIT_ASSERT_NOT_NULL(test, c);
	sp_set_optimization(test, true);
	c->kp.addr = SP_AT(kpt_sp_detour);
	c->kp.pre_handler = sp_pre_move;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &c->kp), 0);
	wait_for_kprobe_optimizer();
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&c->kp));

	for (i = 0; i < ARRAY_SIZE(sp_moves); i++) {
		a = sp_pairs[i % ARRAY_SIZE(sp_pairs)][0];
		b = sp_pairs[i % ARRAY_SIZE(sp_pairs)][1];
		c->move = sp_moves[i];
		c->words[0] = 0xbeef0000 + i;
		memset(&kpt_sp_seen, 0, sizeof(kpt_sp_seen));
		snprintf(what, sizeof(what), "esp moved by %ld", c->move);
		KUNIT_EXPECT_EQ_MSG(test, kpt_sp_detour(a, b), 1UL, "%s", what);
		KUNIT_ASSERT_EQ(test, c->pre, ++n);
		KUNIT_EXPECT_EQ_MSG(test, kpt_sp_seen.sp,
				    c->sp_at_hit + c->move, "%s: esp", what);
		if (c->move < 0 && -c->move <= SP_ROOM)
			KUNIT_EXPECT_EQ_MSG(test, kpt_sp_seen.words[0],
					    c->words[0], "%s: word", what);
		sp_expect_regs(test, a, b, KPT_SP_CX, c->sp_at_hit, what);
	}
}

static struct kunit_case sp_cases[] = {
	KUNIT_CASE_PARAM(sp_post_handler_pushes, sp_post_mode_gen_params),
	KUNIT_CASE(sp_pre_handler_moves_sp),
	{}
};

static struct kunit_suite sp_suite = {
	.name = "kprobes_sp_x86_32",
	.test_cases = sp_cases,
};

kunit_test_suite(sp_suite);
