// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: jump optimization on x86.  The targets are in opt_targets_x86.S;
 * kpt_opt_plain is the one every check accepts.  A probe reported
 * optimized must show it in the text (a JMP at its address), take no
 * breakpoint trap per hit, and run its handlers as a breakpoint would.
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <asm/text-patching.h>

#include "tests.h"
#include "insn_targets_x86.h"

#define REGION_BYTES	8	/* enough to see any jump or breakpoint */
#define PLAIN_AT	KPT_OPT_AT(kpt_opt_plain)
#define RIP_AT		KPT_OPT_AT(kpt_opt_rip)

struct opt_ctx {
	struct kprobe kp;
	atomic_t pre;
	atomic_t post;
	bool preempt_off;
	bool running_is_us;
	unsigned long ip;
	unsigned long di;
	long new_di;
	void *redirect;
	/* What the post handler saw, and what it changes. */
	unsigned long post_ip;
	unsigned long post_ax;
	bool post_irqs_off;
	bool post_running_is_us;
	long post_add;
	void *post_redirect;
};

static struct opt_ctx *octx(struct kprobe *p)
{
	return container_of(p, struct opt_ctx, kp);
}

static int opt_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct opt_ctx *c = octx(p);

	atomic_inc(&c->pre);
	c->preempt_off = !preemptible();
	c->running_is_us = kprobe_running() == p;
	c->ip = regs->ip;
	c->di = regs->di;
	if (c->new_di)
		regs->di = c->new_di;
	if (!c->redirect)
		return 0;
	regs->ip = (unsigned long)c->redirect;
	return 1;
}

static void opt_post(struct kprobe *p, struct pt_regs *regs,
		     unsigned long flags)
{
	struct opt_ctx *c = octx(p);

	atomic_inc(&c->post);
	c->post_ip = regs->ip;
	c->post_ax = regs->ax;
	c->post_irqs_off = irqs_disabled();
	c->post_running_is_us = kprobe_running() == p;
	regs->ax += c->post_add;
	if (c->post_redirect)
		regs->ip = (unsigned long)c->post_redirect;
}

/* The debug.kprobes-optimization setting the suite found, put back. */
static bool opt_saved_switch;

static int opt_suite_init(struct kunit_suite *suite)
{
	opt_saved_switch = kprobes_optimization_enabled();
	kprobes_set_optimization(true);
	return 0;
}

static void opt_suite_exit(struct kunit_suite *suite)
{
	kprobes_set_optimization(opt_saved_switch);
}

/* Every case starts optimizing, whatever a failed case before it left. */
static int opt_test_init(struct kunit *test)
{
	kprobes_set_optimization(true);
	/* The text as the compiler left it, not as a test before parked it. */
	kprobe_unpark_now();
	return 0;
}

static struct opt_ctx *new_ctx(struct kunit *test, const u8 *where)
{
	struct opt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->kp.addr = (kprobe_opcode_t *)where;
	c->kp.pre_handler = opt_pre;
	return c;
}

static void add_probe(struct kunit *test, struct opt_ctx *c)
{
	KUNIT_ASSERT_EQ(test, kpt_register(test, &c->kp), 0);
	wait_for_kprobe_optimizer();
}

static bool text_is_jump(const u8 *where)
{
	return where[0] == JMP32_INSN_OPCODE;
}

static void snapshot(const u8 *where, u8 *bytes)
{
	memcpy(bytes, where, REGION_BYTES);
}

static void opt_hit_takes_the_detour(struct kunit *test)
{
	struct opt_ctx *c = new_ctx(test, PLAIN_AT);
	unsigned long traps;
	unsigned long flags;

	add_probe(test, c);
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_TRUE(test, text_is_jump(PLAIN_AT));

	traps = kprobe_trap_count();
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(4), 7L);
	KUNIT_EXPECT_EQ(test, kprobe_trap_count(), traps);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 1);

	/* What the handler saw is what a breakpoint would have shown. */
	KUNIT_EXPECT_EQ(test, c->ip, (unsigned long)PLAIN_AT + 1);
	KUNIT_EXPECT_EQ(test, c->di, 4UL);
	KUNIT_EXPECT_TRUE(test, c->preempt_off);
	KUNIT_EXPECT_TRUE(test, c->running_is_us);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	KUNIT_EXPECT_NULL(test, kprobe_running());

	/* The caller's interrupt flag comes back as it was. */
	local_irq_save(flags);
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(1), 4L);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 2);
	KUNIT_EXPECT_EQ(test, kprobe_trap_count(), traps);
}

static void opt_rip_relative_copy(struct kunit *test)
{
	struct opt_ctx *c = new_ctx(test, RIP_AT);

	add_probe(test, c);
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_EQ(test, kpt_opt_rip(), (long)kpt_data + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 1);
}

static void opt_handler_changes_regs(struct kunit *test)
{
	struct opt_ctx *c = new_ctx(test, PLAIN_AT);
	unsigned long traps;

	c->new_di = 10;
	add_probe(test, c);
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(4), 13L);

	/* Taking over regs->ip works without unoptimizing. */
	c->new_di = 0;
	c->redirect = kpt_opt_alt;
	traps = kprobe_trap_count();
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(4), -1L);
	KUNIT_EXPECT_EQ(test, kprobe_trap_count(), traps);
	KUNIT_EXPECT_TRUE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 2);
}

/* @where must stay a breakpoint, and still work. */
static void expect_refused(struct kunit *test, const u8 *where)
{
	struct opt_ctx *c = new_ctx(test, where);

	add_probe(test, c);
	KUNIT_EXPECT_FALSE_MSG(test, kprobe_optimized(&c->kp), "%ps", where);
	KUNIT_EXPECT_EQ(test, where[0], INT3_INSN_OPCODE);
	unregister_kprobe(&c->kp);
}

static void opt_safety_checks_refuse(struct kunit *test)
{
	long v = 4;

	expect_refused(test, KPT_OPT_AT(kpt_opt_jump_in));
	KUNIT_EXPECT_EQ(test, kpt_opt_jump_in(0), 3L);
	KUNIT_EXPECT_EQ(test, kpt_opt_jump_in(5), 6L);

	expect_refused(test, KPT_OPT_AT(kpt_opt_indirect));
	KUNIT_EXPECT_EQ(test, kpt_opt_indirect(1, NULL), 4L);

	expect_refused(test, KPT_OPT_AT(kpt_opt_extable));
	KUNIT_EXPECT_EQ(test, kpt_opt_extable(&v), 9L);

	expect_refused(test, KPT_OPT_AT(kpt_opt_call));
	KUNIT_EXPECT_EQ(test, kpt_opt_call(), 42L);

	/* The control: the same shape without the hazard is optimized. */
	add_probe(test, new_ctx(test, PLAIN_AT));
	KUNIT_EXPECT_TRUE(test, text_is_jump(PLAIN_AT));
}

static void opt_disable_and_unregister_unoptimize(struct kunit *test)
{
	struct opt_ctx *c = new_ctx(test, PLAIN_AT);
	u8 orig[REGION_BYTES], now[REGION_BYTES];

	snapshot(PLAIN_AT, orig);
	add_probe(test, c);
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&c->kp));

	/* Disabled: the original text, at once. */
	KUNIT_EXPECT_EQ(test, disable_kprobe(&c->kp), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_optimized(&c->kp));
	snapshot(PLAIN_AT, now);
	KUNIT_EXPECT_MEMEQ(test, now, orig, REGION_BYTES);
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(1), 4L);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 0);

	/* Enabled again: optimized again. */
	KUNIT_EXPECT_EQ(test, enable_kprobe(&c->kp), 0);
	wait_for_kprobe_optimizer();
	KUNIT_EXPECT_TRUE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(1), 4L);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 1);

	/* Unregistered: the original text, once the site is unparked. */
	unregister_kprobe(&c->kp);
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(1), 4L);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 1);
	kprobe_unpark_now();
	snapshot(PLAIN_AT, now);
	KUNIT_EXPECT_MEMEQ(test, now, orig, REGION_BYTES);
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(1), 4L);
}

/*
 * A post handler keeps the site optimized: the post handler runs without
 * a trap, with the registers the first instruction (movq %rdi, %rax)
 * left.  The detour does that instruction on pt_regs (regop_64.c), so
 * the post handler runs with interrupts as the caller had them, on; at
 * kpt_opt_rip, whose first instruction loads from memory, the detour
 * stops after its copy of it and runs the post handler there, with
 * interrupts off.
 */
static void opt_post_handler_in_detour(struct kunit *test)
{
	struct opt_ctx *c = new_ctx(test, PLAIN_AT);
	struct opt_ctx *d = new_ctx(test, PLAIN_AT);
	struct opt_ctx *e = new_ctx(test, RIP_AT);
	unsigned long traps;

	add_probe(test, c);
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&c->kp));

	d->kp.post_handler = opt_post;
	add_probe(test, d);
	KUNIT_EXPECT_TRUE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_TRUE(test, kprobe_optimized(&d->kp));
	KUNIT_EXPECT_TRUE(test, text_is_jump(PLAIN_AT));

	traps = kprobe_trap_count();
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), 5L);
	KUNIT_EXPECT_EQ(test, kprobe_trap_count(), traps);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->pre), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->post), 1);
	KUNIT_EXPECT_EQ(test, d->ip, (unsigned long)PLAIN_AT + 1);
	KUNIT_EXPECT_EQ(test, d->post_ip, (unsigned long)PLAIN_AT + 3);
	KUNIT_EXPECT_EQ(test, d->post_ax, 2UL);
	KUNIT_EXPECT_FALSE(test, d->post_irqs_off);
	KUNIT_EXPECT_TRUE(test, d->post_running_is_us);

	/* The post handler's changes take effect; it may take over. */
	d->post_add = 100;
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), 105L);
	d->post_add = 0;
	d->post_redirect = kpt_opt_alt;
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), -1L);
	d->post_redirect = NULL;
	KUNIT_EXPECT_EQ(test, atomic_read(&d->post), 3);
	KUNIT_EXPECT_EQ(test, kprobe_trap_count(), traps);

	/* Without a post handler at the site, still optimized. */
	unregister_kprobe(&d->kp);
	wait_for_kprobe_optimizer();
	KUNIT_EXPECT_TRUE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), 5L);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->post), 3);
	KUNIT_EXPECT_EQ(test, kprobe_trap_count(), traps);

	/* One the detour cannot do on pt_regs: the way through its copy. */
	e->kp.post_handler = opt_post;
	add_probe(test, e);
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&e->kp));
	KUNIT_EXPECT_EQ(test, kpt_opt_rip(), (long)kpt_data + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->post), 1);
	KUNIT_EXPECT_EQ(test, e->post_ip, (unsigned long)RIP_AT + 7);
	KUNIT_EXPECT_EQ(test, e->post_ax, (unsigned long)kpt_data);
	KUNIT_EXPECT_TRUE(test, e->post_irqs_off);
	KUNIT_EXPECT_EQ(test, kprobe_trap_count(), traps);
}

/* The pre and post handler calls @c has seen. */
static void expect_calls(struct kunit *test, struct opt_ctx *c, int pre,
			 int post)
{
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), pre);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->post), post);
}

/*
 * A probe alone at its site with both handlers is the site's solo: the
 * hit calls both without walking the site's probes.  Each commit elects
 * the solo again: a second probe, a disable, an enable and the second
 * probe's removal each change which handlers run, through the jump and
 * through the breakpoint alike.
 */
static void opt_solo_post_follows_changes(struct kunit *test)
{
	struct opt_ctx *c = new_ctx(test, PLAIN_AT);
	struct opt_ctx *d = new_ctx(test, PLAIN_AT);
	unsigned long traps;

	c->kp.post_handler = opt_post;
	add_probe(test, c);
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&c->kp));
	traps = kprobe_trap_count();
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), 5L);
	expect_calls(test, c, 1, 1);
	KUNIT_EXPECT_TRUE(test, c->post_running_is_us);
	KUNIT_EXPECT_EQ(test, c->post_ip, (unsigned long)PLAIN_AT + 3);
	KUNIT_EXPECT_NULL(test, kprobe_running());

	add_probe(test, d);
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), 5L);
	expect_calls(test, c, 2, 2);
	expect_calls(test, d, 1, 0);

	KUNIT_ASSERT_EQ(test, disable_kprobe(&c->kp), 0);
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), 5L);
	expect_calls(test, c, 2, 2);
	expect_calls(test, d, 2, 0);

	KUNIT_ASSERT_EQ(test, enable_kprobe(&c->kp), 0);
	unregister_kprobe(&d->kp);
	wait_for_kprobe_optimizer();
	KUNIT_EXPECT_TRUE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), 5L);
	expect_calls(test, c, 3, 3);
	expect_calls(test, d, 2, 0);
	KUNIT_EXPECT_EQ(test, kprobe_trap_count(), traps);

	/* The same through the breakpoint. */
	kprobes_set_optimization(false);
	KUNIT_ASSERT_FALSE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), 5L);
	expect_calls(test, c, 4, 4);
	KUNIT_EXPECT_EQ(test, c->post_ip, (unsigned long)PLAIN_AT + 3);
	KUNIT_EXPECT_GT(test, kprobe_trap_count(), traps);
	KUNIT_ASSERT_EQ(test, disable_kprobe(&c->kp), 0);
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), 5L);
	expect_calls(test, c, 4, 4);
	KUNIT_ASSERT_EQ(test, enable_kprobe(&c->kp), 0);
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), 5L);
	expect_calls(test, c, 5, 5);
	KUNIT_EXPECT_NULL(test, kprobe_running());
}

/* What the post handler of an opt_emu case saw. */
struct emu_ctx {
	struct kprobe kp;
	int pre;
	int post;
	unsigned long ip;
	unsigned long regs[5];		/* ax, cx, r9, r10, flags */
	bool irqs_off;
};

static int emu_pre(struct kprobe *p, struct pt_regs *regs)
{
	container_of(p, struct emu_ctx, kp)->pre++;
	return 0;
}

static void emu_post(struct kprobe *p, struct pt_regs *regs,
		     unsigned long flags)
{
	struct emu_ctx *c = container_of(p, struct emu_ctx, kp);

	c->post++;
	c->ip = regs->ip;
	c->regs[0] = regs->ax;
	c->regs[1] = regs->cx;
	c->regs[2] = regs->r9;
	c->regs[3] = regs->r10;
	c->regs[4] = regs->flags;
	c->irqs_off = irqs_disabled();
}

/* A probe with both handlers at @where, optimized; unregistered at the end. */
static struct emu_ctx *emu_probe(struct kunit *test, const u8 *where)
{
	struct emu_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->kp.addr = (kprobe_opcode_t *)where;
	c->kp.pre_handler = emu_pre;
	c->kp.post_handler = emu_post;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &c->kp), 0);
	wait_for_kprobe_optimizer();
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&c->kp));
	return c;
}

static const void *emu_gen_params(const void *prev, char *desc)
{
	const struct kpt_emu_form *f = prev ? (const struct kpt_emu_form *)prev + 1 :
					      kpt_emu_forms;

	if (f >= kpt_emu_forms_end)
		return NULL;
	strscpy(desc, f->name, KUNIT_PARAM_DESC_SIZE);
	return f;
}

/* Operands that make each arithmetic flag come out set, and clear. */
static const long emu_pairs[][2] = {
	{ 1, 2 }, { 2, 2 }, { 3, 1 }, { 16, 1 }, { LONG_MIN, 1 },
	{ 0, LONG_MIN }, { -5, -3 }, { 7, -1 }, { 0x80000000L, 0x7fffffffL },
	{ 0xffffffffL, 1 }, { 0x100, 0x100 }, { 0, 0 },
};

#define EMU_ARITH	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | \
			 X86_EFLAGS_ZF | X86_EFLAGS_SF | X86_EFLAGS_OF)

/*
 * A post handler at an optimized site whose first instruction the detour
 * does on pt_regs (regop_64.c) sees, and leaves behind, exactly what the
 * instruction itself computes: each form's registers and flags, probed,
 * match the same call unprobed, for operands that set and clear every
 * flag; the handler sees them with the instruction pointer after the
 * instruction.  The detour does the forms marked on_regs itself, with
 * code generated for them (interrupts stay as the caller had them: on);
 * the others take the way that runs the copy (interrupts off), with the
 * same results.
 */
static void opt_emu_first_insn(struct kunit *test)
{
	const struct kpt_emu_form *form = test->param_value;
	const u8 *where = (const u8 *)form->fn + form->off;
	unsigned long want[ARRAY_SIZE(emu_pairs)][5], got[5], traps;
	struct emu_ctx *c;
	int i, j;

	for (i = 0; i < ARRAY_SIZE(emu_pairs); i++)
		form->fn(emu_pairs[i][0], emu_pairs[i][1], want[i]);

	c = emu_probe(test, where);

	traps = kprobe_trap_count();
	for (i = 0; i < ARRAY_SIZE(emu_pairs); i++) {
		long a = emu_pairs[i][0], b = emu_pairs[i][1];

		c->post = 0;
		form->fn(a, b, got);
		KUNIT_ASSERT_EQ(test, c->post, 1);
		for (j = 0; j < 5; j++)
			KUNIT_EXPECT_EQ_MSG(test, got[j], want[i][j],
					    "a=%ld b=%ld word %d", a, b, j);
		for (j = 0; j < 4; j++)
			KUNIT_EXPECT_EQ_MSG(test, c->regs[j], want[i][j],
					    "post handler, a=%ld b=%ld reg %d",
					    a, b, j);
		KUNIT_EXPECT_EQ_MSG(test, c->regs[4] & EMU_ARITH,
				    want[i][4] & EMU_ARITH,
				    "post handler's flags, a=%ld b=%ld", a, b);
		KUNIT_EXPECT_GT(test, c->ip, (unsigned long)where);
		KUNIT_EXPECT_LE(test, c->ip, (unsigned long)where + MAX_INSN_SIZE);
		KUNIT_EXPECT_EQ(test, c->irqs_off, !form->on_regs);
	}
	KUNIT_EXPECT_EQ(test, c->pre, (int)ARRAY_SIZE(emu_pairs));
	KUNIT_EXPECT_EQ(test, kprobe_trap_count(), traps);
}

/*
 * SUB from the stack pointer, done on pt_regs: the code after it runs on the
 * stack pointer the detour left in pt_regs, 24 bytes lower.
 */
static void opt_emu_moves_stack_pointer(struct kunit *test)
{
	const u8 *where = KPT_OPT_AT(kpt_emu_sub_rsp);
	unsigned long want[2], got[2];
	struct emu_ctx *c;

	kpt_emu_sub_rsp(want);
	c = emu_probe(test, where);
	kpt_emu_sub_rsp(got);
	KUNIT_ASSERT_EQ(test, c->post, 1);
	KUNIT_EXPECT_FALSE(test, c->irqs_off);
	KUNIT_EXPECT_EQ(test, got[0], want[0]);
	KUNIT_EXPECT_EQ(test, got[1], 0x5a5aUL);
	KUNIT_EXPECT_EQ(test, c->ip, (unsigned long)where + 4);
}

/* A jprobe needs the breakpoint: it takes the jump out. */
static long opt_jprobe_mirror(long x)
{
	jprobe_return();
	return 0;
}

static void opt_jprobe_unoptimizes(struct kunit *test)
{
	struct opt_ctx *c = new_ctx(test, PLAIN_AT);
	struct jprobe *jp = kunit_kzalloc(test, sizeof(*jp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, jp);
	add_probe(test, c);
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&c->kp));

	jp->kp.addr = (kprobe_opcode_t *)PLAIN_AT;
	jp->entry = opt_jprobe_mirror;
	KUNIT_ASSERT_EQ(test, register_jprobe(jp), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), 5L);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 1);

	unregister_jprobe(jp);
	wait_for_kprobe_optimizer();
	KUNIT_EXPECT_TRUE(test, kprobe_optimized(&c->kp));
}

static void opt_probe_in_region_unoptimizes(struct kunit *test)
{
	struct opt_ctx *c = new_ctx(test, PLAIN_AT);
	struct opt_ctx *d = new_ctx(test, PLAIN_AT + 3);

	add_probe(test, c);
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&c->kp));

	KUNIT_ASSERT_EQ(test, kpt_register(test, &d->kp), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_optimized(&c->kp));
	wait_for_kprobe_optimizer();
	KUNIT_EXPECT_FALSE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(2), 5L);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->pre), 1);

	unregister_kprobe(&d->kp);
	wait_for_kprobe_optimizer();
	KUNIT_EXPECT_TRUE(test, kprobe_optimized(&c->kp));
}

static void opt_switch_unoptimizes_all(struct kunit *test)
{
	struct opt_ctx *c = new_ctx(test, PLAIN_AT);
	struct opt_ctx *d = new_ctx(test, RIP_AT);

	add_probe(test, c);
	add_probe(test, d);
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&c->kp));
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&d->kp));

	kprobes_set_optimization(false);
	KUNIT_EXPECT_FALSE(test, kprobes_optimization_enabled());
	KUNIT_EXPECT_FALSE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_FALSE(test, kprobe_optimized(&d->kp));
	KUNIT_EXPECT_EQ(test, PLAIN_AT[0], INT3_INSN_OPCODE);
	/* New probes stay breakpoints too. */
	unregister_kprobe(&c->kp);
	c->kp.addr = (kprobe_opcode_t *)PLAIN_AT;
	add_probe(test, c);
	KUNIT_EXPECT_FALSE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(0), 3L);

	kprobes_set_optimization(true);
	wait_for_kprobe_optimizer();
	KUNIT_EXPECT_TRUE(test, kprobe_optimized(&c->kp));
	KUNIT_EXPECT_TRUE(test, kprobe_optimized(&d->kp));
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(0), 3L);
	KUNIT_EXPECT_EQ(test, kpt_opt_rip(), (long)kpt_data + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->pre), 1);
}

static int call_inner_pre(struct kprobe *p, struct pt_regs *regs)
{
	kpt_opt_plain(0);
	return 0;
}

static void opt_nested_hit_is_missed(struct kunit *test)
{
	struct opt_ctx *c = new_ctx(test, PLAIN_AT);
	struct opt_ctx *outer = new_ctx(test, RIP_AT);

	add_probe(test, c);
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&c->kp));
	outer->kp.pre_handler = call_inner_pre;
	add_probe(test, outer);

	KUNIT_EXPECT_EQ(test, kpt_opt_rip(), (long)kpt_data + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre), 0);
	KUNIT_EXPECT_EQ(test, c->kp.nmissed, 1UL);
	KUNIT_EXPECT_EQ(test, c->kp.nmissed_by[KPROBE_MISS_RECURSION], 1UL);
}

/* Stress: other CPUs hit the probe while its optimization flips. */
struct hammer {
	struct completion done;
	atomic_t *stop;
	long calls;
	long wrong;
};

static int hammer_fn(void *data)
{
	struct hammer *h = data;

	while (!atomic_read(h->stop)) {
		if (kpt_opt_plain(h->calls) != h->calls + 3)
			h->wrong++;
		h->calls++;
		/* Sleep now and then: RCU-tasks waits for that. */
		if (!(h->calls & 255))
			schedule_timeout_uninterruptible(1);
	}
	complete(&h->done);
	return 0;
}

static void opt_flip_while_hit(struct kunit *test)
{
	const bool *post = test->param_value;
	struct opt_ctx *c = new_ctx(test, PLAIN_AT);
	struct opt_ctx *d = new_ctx(test, PLAIN_AT + 3);
	struct hammer h[2] = {};
	atomic_t stop = ATOMIC_INIT(0);
	long calls = 0;
	int i, cpu;

	if (*post)
		c->kp.post_handler = opt_post;
	add_probe(test, c);
	for (i = 0; i < ARRAY_SIZE(h); i++) {
		struct task_struct *t;

		init_completion(&h[i].done);
		h[i].stop = &stop;
		t = kthread_create(hammer_fn, &h[i], "kpt_hammer/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		cpu = cpumask_next(i, cpu_online_mask);
		if (cpu < nr_cpu_ids)
			kthread_bind(t, cpu);
		wake_up_process(t);
	}

	for (i = 0; i < 12; i++) {
		switch (i % 4) {
		case 0:
			kprobes_set_optimization(false);
			break;
		case 1:
			kprobes_set_optimization(true);
			break;
		case 2:
			/* Queued, then dropped before the optimizer ran. */
			kprobes_set_optimization(false);
			kprobes_set_optimization(true);
			kprobes_set_optimization(false);
			kprobes_set_optimization(true);
			break;
		case 3:
			d->kp.addr = (kprobe_opcode_t *)PLAIN_AT + 3;
			KUNIT_EXPECT_EQ(test, register_kprobe(&d->kp), 0);
			usleep_range(5000, 6000);
			unregister_kprobe(&d->kp);
			break;
		}
		wait_for_kprobe_optimizer();
		usleep_range(5000, 6000);
	}

	atomic_set(&stop, 1);
	for (i = 0; i < ARRAY_SIZE(h); i++) {
		wait_for_completion(&h[i].done);
		KUNIT_EXPECT_EQ(test, h[i].wrong, 0L);
		calls += h[i].calls;
	}
	kunit_info(test, "%ld calls, %d hits, %lu missed\n", calls,
		   atomic_read(&c->pre), c->kp.nmissed);
	KUNIT_EXPECT_GT(test, calls, 0L);
	/* Every call is a hit, or a miss while a task sat in a detour. */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->pre) + (long)c->kp.nmissed,
			calls);
	/* Every hit ran its post handler, whichever way it went. */
	if (*post)
		KUNIT_EXPECT_EQ(test, atomic_read(&c->post),
				atomic_read(&c->pre));
	KUNIT_EXPECT_TRUE(test, kprobe_optimized(&c->kp));
}

static const bool flip_posts[] = { false, true };

static void flip_desc(const bool *post, char *desc)
{
	strscpy(desc, *post ? "pre_and_post" : "pre_only",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(flip, flip_posts, flip_desc);

static int opt_inflight_call(int x)
{
	return kpt_opt_plain(x);
}

/* Through the jump the handler runs with interrupts on: unregister waits. */
static void opt_unregister_waits(struct kunit *test)
{
	struct kpt_inflight_kprobe *k;

	k = kpt_inflight_kprobe(test, opt_inflight_call);
	k->kp.addr = (kprobe_opcode_t *)PLAIN_AT;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &k->kp), 0);
	wait_for_kprobe_optimizer();
	KUNIT_ASSERT_TRUE(test, kprobe_optimized(&k->kp));
	kpt_expect_kprobe_unregister_waits(test, k);
}

static struct kunit_case opt_cases[] = {
	KUNIT_CASE(opt_hit_takes_the_detour),
	KUNIT_CASE(opt_rip_relative_copy),
	KUNIT_CASE(opt_handler_changes_regs),
	KUNIT_CASE(opt_safety_checks_refuse),
	KUNIT_CASE(opt_disable_and_unregister_unoptimize),
	KUNIT_CASE(opt_post_handler_in_detour),
	KUNIT_CASE(opt_solo_post_follows_changes),
	KUNIT_CASE_PARAM(opt_emu_first_insn, emu_gen_params),
	KUNIT_CASE(opt_emu_moves_stack_pointer),
	KUNIT_CASE(opt_jprobe_unoptimizes),
	KUNIT_CASE(opt_probe_in_region_unoptimizes),
	KUNIT_CASE(opt_switch_unoptimizes_all),
	KUNIT_CASE(opt_nested_hit_is_missed),
	KUNIT_CASE_PARAM_ATTR(opt_flip_while_hit, flip_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(opt_unregister_waits),
	{}
};

static struct kunit_suite opt_suite = {
	.name = "kprobes_opt",
	.suite_init = opt_suite_init,
	.suite_exit = opt_suite_exit,
	.init = opt_test_init,
	.test_cases = opt_cases,
};

kunit_test_suite(opt_suite);
