// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: probes on ftrace call sites (KPROBES_ON_FTRACE), on x86.
 *
 * The targets below are traced functions: their entry is a call to
 * ftrace, so a probe on them is armed through ftrace, never by a
 * breakpoint.  The cases check that the hit really goes that way (flag,
 * no trap, text untouched), that handlers see what a breakpoint would
 * show them, that register changes and a redirect take effect, re-entry,
 * several probes at one site, batches, kretprobes and jprobes there, and
 * the IPMODIFY claim: which probes take it, that ftrace refuses a second
 * claimant, and that a refused registration leaves no trace; that
 * unregistration waits for a handler in flight; and that after
 * ftrace_kill() a call site refuses probes with -ENODEV.
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/kprobes.h>
#include <linux/ftrace.h>
#include <linux/preempt.h>
#include <linux/vmalloc.h>
#include <asm/ibt.h>

#include "tests.h"

#define NR_FP	3

static noinline int kpft_target_fn(int x)
{
	barrier();
	return x + 1;
}

static noinline int kpft_other_fn(int x)
{
	barrier();
	return x + 2;
}

static noinline int kpft_inner_fn(int x)
{
	barrier();
	return x * 2;
}

static noinline int kpft_replacement_fn(int x)
{
	barrier();
	return -x;
}

static int (*kpft_target)(int x) = kpft_target_fn;
static int (*kpft_other)(int x) = kpft_other_fn;
static int (*kpft_inner)(int x) = kpft_inner_fn;
static int (*kpft_replacement)(int x) = kpft_replacement_fn;

struct ft_ctx {
	struct kprobe probes[NR_FP];
	int pre[NR_FP];
	int post[NR_FP];
	char order[8];
	int norder;
	unsigned long pre_ip;
	unsigned long post_ip;
	struct kprobe *running_in_pre;
	bool preemptible_in_handler;
	int inner_result;
	struct ftrace_ops rival;
	int rival_calls;
	struct kretprobe rp;
	int rp_entries;
	long rp_ret;
	struct jprobe jp;
	int mirror_arg;
	struct kprobe *running_after_inner;
	void *unmapped;
	int faults;
	int fault_trapnr;
	int fault_bug;
};

static struct ft_ctx *fctx(void)
{
	return ((struct kunit *)kunit_get_current_test())->priv;
}

static int idx_of(struct kprobe *p)
{
	return p - fctx()->probes;
}

static void ft_mark(struct ft_ctx *c, char what)
{
	if (c->norder < ARRAY_SIZE(c->order) - 1)
		c->order[c->norder++] = what;
}

static void ft_order_reset(struct ft_ctx *c)
{
	memset(c->order, 0, sizeof(c->order));
	c->norder = 0;
}

static int record_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct ft_ctx *c = fctx();

	c->pre[idx_of(p)]++;
	ft_mark(c, 'a' + idx_of(p));
	c->pre_ip = instruction_pointer(regs);
	c->running_in_pre = kprobe_running();
	c->preemptible_in_handler |= preemptible();
	return 0;
}

static void record_post(struct kprobe *p, struct pt_regs *regs,
			unsigned long flags)
{
	struct ft_ctx *c = fctx();

	c->post[idx_of(p)]++;
	ft_mark(c, 'A' + idx_of(p));
	c->post_ip = instruction_pointer(regs);
	c->preemptible_in_handler |= preemptible();
}

static int ft_init(struct kunit *test)
{
	struct ft_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	int i;

	if (!c)
		return -ENOMEM;
	for (i = 0; i < NR_FP; i++) {
		c->probes[i].symbol_name = "kpft_target_fn";
		c->probes[i].pre_handler = record_pre;
	}
	test->priv = c;
	return 0;
}

/* The entry of @fn, where its call to ftrace is (past ENDBR). */
static unsigned long ftrace_site_of(void *fn)
{
	unsigned long addr = (unsigned long)fn;

	/*
	 * No "fn + 4" the compiler could fold into a relocation: built in,
	 * objtool rightly flags references past an ENDBR.
	 */
	OPTIMIZER_HIDE_VAR(addr);
	return is_endbr(*(u32 *)addr) ? addr + ENDBR_INSN_SIZE : addr;
}

static void ft_entry_probe_goes_through_ftrace(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *p = &c->probes[0];
	unsigned long site = ftrace_site_of(kpft_target_fn);
	unsigned long traps;
	u8 before, after;

	KUNIT_ASSERT_NE(test, site, 0UL);
	KUNIT_ASSERT_EQ(test, get_kernel_nofault(before, (u8 *)site), 0);
	p->post_handler = record_post;
	KUNIT_ASSERT_EQ(test, kpt_register(test, p), 0);
	KUNIT_EXPECT_EQ(test, (unsigned long)p->addr, site);
	KUNIT_EXPECT_TRUE(test, kprobe_ftrace(p));
	KUNIT_EXPECT_FALSE(test, kprobe_optimized(p));

	/* No breakpoint: ftrace turned its own call on. */
	KUNIT_ASSERT_EQ(test, get_kernel_nofault(after, (u8 *)site), 0);
	KUNIT_EXPECT_NE(test, after, (u8)INT3_INSN_OPCODE);

	traps = kprobe_trap_count();
	KUNIT_EXPECT_EQ(test, kpft_target(10), 11);
	KUNIT_EXPECT_EQ(test, kprobe_trap_count(), traps);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	KUNIT_EXPECT_EQ(test, c->post[0], 1);
	KUNIT_EXPECT_STREQ(test, c->order, "aA");

	/* What a breakpoint at the call, then a step over it, would show. */
	KUNIT_EXPECT_EQ(test, c->pre_ip, site + 1);
	KUNIT_EXPECT_EQ(test, c->post_ip, site + MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, c->running_in_pre, p);
	KUNIT_EXPECT_FALSE(test, c->preemptible_in_handler);
	KUNIT_EXPECT_NULL(test, kprobe_running());
	KUNIT_EXPECT_EQ(test, p->nmissed, 0UL);

	unregister_kprobe(p);
	KUNIT_EXPECT_EQ(test, kpft_target(10), 11);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	KUNIT_ASSERT_EQ(test, get_kernel_nofault(after, (u8 *)site), 0);
	KUNIT_EXPECT_EQ(test, after, before);
}

static void ft_inside_the_call_is_refused(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *p = &c->probes[0];
	unsigned long site = ftrace_site_of(kpft_target_fn);

	/*
	 * Inside the call that ftrace rewrites: not an instruction boundary,
	 * -EILSEQ as on the stock kernel.
	 */
	p->symbol_name = NULL;
	p->addr = (kprobe_opcode_t *)(site + 1);
	KUNIT_EXPECT_EQ(test, register_kprobe(p), -EILSEQ);
	p->addr = (kprobe_opcode_t *)(site + MCOUNT_INSN_SIZE - 1);
	KUNIT_EXPECT_EQ(test, register_kprobe(p), -EILSEQ);
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_EQ(test, c->pre[0], 0);

	/* Just past it is an ordinary breakpoint probe. */
	p->addr = (kprobe_opcode_t *)(site + MCOUNT_INSN_SIZE);
	KUNIT_ASSERT_EQ(test, kpt_register(test, p), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_ftrace(p));
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	unregister_kprobe(p);
}

static void ft_aggregate(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *kps[NR_FP];
	int i;

	for (i = 0; i < NR_FP; i++)
		kps[i] = &c->probes[i];
	c->probes[1].post_handler = record_post;
	KUNIT_ASSERT_EQ(test, register_kprobes(kps, NR_FP), 0);
	for (i = 0; i < NR_FP; i++)
		kunit_add_action(test, kpt_unregister_action, kps[i]);

	/* Each once, pre handlers in order, then the post handler. */
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_STREQ(test, c->order, "abcB");

	KUNIT_EXPECT_EQ(test, disable_kprobe(kps[0]), 0);
	kpft_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	KUNIT_EXPECT_EQ(test, c->pre[1], 2);

	/* All disabled: ftrace stops calling; one enabled brings it back. */
	disable_kprobe(kps[1]);
	disable_kprobe(kps[2]);
	kpft_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0] + c->pre[1] + c->pre[2], 5);
	KUNIT_EXPECT_EQ(test, enable_kprobe(kps[2]), 0);
	kpft_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[2], 3);

	/* One unregistered (enabled: it comes back as it left), rejoins. */
	enable_kprobe(kps[0]);
	enable_kprobe(kps[1]);
	unregister_kprobe(kps[1]);
	kpt_reset(kps[1]);
	KUNIT_EXPECT_EQ(test, register_kprobe(kps[1]), 0);
	kpft_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0], 2);
	KUNIT_EXPECT_EQ(test, c->pre[1], 3);
	KUNIT_EXPECT_EQ(test, c->pre[2], 4);
	unregister_kprobes(kps, NR_FP);
	kpft_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0] + c->pre[1] + c->pre[2], 9);
}

/*
 * A site with one plain probe calls it without a walk (its solo): every
 * change to the site's probes must reach the hits, each way.
 */
static void ft_solo_follows_changes(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *a = &c->probes[0], *b = &c->probes[1];
	struct kprobe *post = &c->probes[2];

	KUNIT_ASSERT_EQ(test, kpt_register(test, a), 0);
	kpft_target(1);
	KUNIT_EXPECT_STREQ(test, c->order, "a");

	/* Disabled alone, then back. */
	KUNIT_EXPECT_EQ(test, disable_kprobe(a), 0);
	kpft_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	KUNIT_EXPECT_EQ(test, enable_kprobe(a), 0);
	kpft_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0], 2);

	/* A second probe joins; the first leaves: the second is alone. */
	KUNIT_ASSERT_EQ(test, kpt_register(test, b), 0);
	kpft_target(1);
	KUNIT_EXPECT_STREQ(test, c->order, "aaab");
	unregister_kprobe(a);
	kpft_target(1);
	KUNIT_EXPECT_STREQ(test, c->order, "aaabb");

	/* A post handler joins (the site moves ops) and leaves again. */
	ft_order_reset(c);
	post->post_handler = record_post;
	KUNIT_ASSERT_EQ(test, kpt_register(test, post), 0);
	kpft_target(1);
	KUNIT_EXPECT_STREQ(test, c->order, "bcC");
	unregister_kprobe(post);
	kpft_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[1], 4);
	KUNIT_EXPECT_EQ(test, c->pre[2], 1);
	KUNIT_EXPECT_EQ(test, c->post[2], 1);

	/* The last one leaves. */
	unregister_kprobe(b);
	ft_order_reset(c);
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_STREQ(test, c->order, "");
	KUNIT_EXPECT_EQ(test, c->pre[0], 3);
	KUNIT_EXPECT_EQ(test, c->pre[1], 4);
}

static int redirect_pre(struct kprobe *p, struct pt_regs *regs)
{
	fctx()->pre[0]++;
	instruction_pointer_set(regs, (unsigned long)kpft_replacement);
	return 1;
}

static void ft_pre_handler_redirects(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *p = &c->probes[0];

	/* The post handler asks for the IPMODIFY claim; it must not run. */
	p->pre_handler = redirect_pre;
	p->post_handler = record_post;
	KUNIT_ASSERT_EQ(test, kpt_register(test, p), 0);
	KUNIT_EXPECT_EQ(test, kpft_target(7), -7);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	KUNIT_EXPECT_EQ(test, c->post[0], 0);
	KUNIT_EXPECT_NULL(test, kprobe_running());
	unregister_kprobe(p);
	KUNIT_EXPECT_EQ(test, kpft_target(7), 8);
}

static int change_arg_pre(struct kprobe *p, struct pt_regs *regs)
{
	fctx()->pre[0]++;
	regs->di = 100;		/* the first argument */
	return 0;
}

static void ft_register_changes_stick(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *p = &c->probes[0];

	p->pre_handler = change_arg_pre;
	KUNIT_ASSERT_EQ(test, kpt_register(test, p), 0);
	KUNIT_EXPECT_EQ(test, kpft_target(1), 101);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	unregister_kprobe(p);
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
}

static int reenter_pre(struct kprobe *p, struct pt_regs *regs)
{
	fctx()->pre[idx_of(p)]++;
	if (idx_of(p) == 0)
		fctx()->inner_result = kpft_inner(21);
	return 0;
}

static void ft_reentry_is_missed(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *outer = &c->probes[0], *inner = &c->probes[1];

	outer->pre_handler = reenter_pre;
	inner->symbol_name = "kpft_inner_fn";
	inner->pre_handler = reenter_pre;
	KUNIT_ASSERT_EQ(test, kpt_register(test, inner), 0);
	KUNIT_ASSERT_EQ(test, kpt_register(test, outer), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_ftrace(inner));

	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_EQ(test, c->inner_result, 42);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	KUNIT_EXPECT_EQ(test, c->pre[1], 0);
	KUNIT_EXPECT_EQ(test, inner->nmissed, 1UL);

	KUNIT_EXPECT_EQ(test, kpft_inner(2), 4);
	KUNIT_EXPECT_EQ(test, c->pre[1], 1);
	KUNIT_EXPECT_EQ(test, inner->nmissed, 1UL);

	/* kprobe_busy_begin() makes a hit a miss here too. */
	kprobe_busy_begin();
	KUNIT_EXPECT_EQ(test, kpft_inner(2), 4);
	kprobe_busy_end();
	KUNIT_EXPECT_EQ(test, c->pre[1], 1);
	KUNIT_EXPECT_EQ(test, inner->nmissed, 2UL);
	KUNIT_EXPECT_EQ(test, inner->nmissed_by[KPROBE_MISS_RECURSION], 2UL);
	unregister_kprobe(outer);
	unregister_kprobe(inner);
}

/* An ftrace hit's pre handler that calls into a breakpoint probe. */
static int nest_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct ft_ctx *c = fctx();

	c->pre[idx_of(p)]++;
	c->inner_result = kpft_inner(21);
	c->running_after_inner = kprobe_running();
	return 0;
}

/*
 * A breakpoint hit nested in an ftrace hit is missed, whether the ftrace
 * hit runs without a frame (the plain ops, pre handlers only) or with
 * one (the IPMODIFY ops, for a post handler); either way the CPU is back
 * in the outer handler's hit afterwards, and out of any hit at the end.
 */
static void ft_breakpoint_hit_in_handler(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *outer = &c->probes[0], *inner = &c->probes[1];
	struct kprobe *post = &c->probes[2];

	inner->symbol_name = NULL;
	inner->addr = (kprobe_opcode_t *)(ftrace_site_of(kpft_inner_fn) +
					  MCOUNT_INSN_SIZE);
	outer->pre_handler = nest_pre;
	KUNIT_ASSERT_EQ(test, kpt_register(test, inner), 0);
	KUNIT_ASSERT_EQ(test, kpt_register(test, outer), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_ftrace(inner));
	KUNIT_EXPECT_TRUE(test, kprobe_ftrace(outer));

	/* 1. The plain ops: the hit has no frame. */
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	KUNIT_EXPECT_EQ(test, c->inner_result, 42);
	KUNIT_EXPECT_EQ(test, c->pre[1], 0);
	KUNIT_EXPECT_EQ(test, inner->nmissed, 1UL);
	KUNIT_EXPECT_PTR_EQ(test, c->running_after_inner, outer);
	KUNIT_EXPECT_NULL(test, kprobe_running());

	/* 2. A post handler joins: the IPMODIFY ops, a frame. */
	post->pre_handler = NULL;
	post->post_handler = record_post;
	KUNIT_ASSERT_EQ(test, kpt_register(test, post), 0);
	c->running_after_inner = NULL;
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_EQ(test, c->pre[0], 2);
	KUNIT_EXPECT_EQ(test, c->post[2], 1);
	KUNIT_EXPECT_EQ(test, inner->nmissed, 2UL);
	KUNIT_EXPECT_PTR_EQ(test, c->running_after_inner, outer);
	KUNIT_EXPECT_NULL(test, kprobe_running());

	/* 3. Back to the plain ops once the post handler is gone. */
	unregister_kprobe(post);
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_EQ(test, inner->nmissed, 3UL);
	KUNIT_EXPECT_EQ(test, c->pre[0], 3);
	unregister_kprobe(outer);
	unregister_kprobe(inner);
	KUNIT_EXPECT_EQ(test, kpft_inner(21), 42);
	KUNIT_EXPECT_EQ(test, c->pre[1], 0);
}

static int ft_faulting_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct ft_ctx *c = fctx();
	unsigned long val;

	/* A fault with an exception-table fixup, taken inside the handler. */
	if (!copy_from_kernel_nofault(&val, c->unmapped, sizeof(val)))
		c->fault_bug++;
	c->pre[idx_of(p)]++;
	return 0;
}

static int ft_count_fault(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	struct ft_ctx *c = fctx();

	c->faults++;
	c->fault_trapnr = trapnr;
	return 0;	/* not handled: let the fixup run */
}

/*
 * A fault in a pre handler at an ftrace call site goes to the probe's
 * fault handler, through either ops (the plain one runs the handler
 * without a frame).
 */
static void ft_fault_in_handler(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *p = &c->probes[0], *post = &c->probes[1];
	void *area = vmalloc(PAGE_SIZE);

	KUNIT_ASSERT_NOT_NULL(test, area);
	c->unmapped = kpt_handler_fault_addr(area + PAGE_SIZE);
	p->pre_handler = ft_faulting_pre;
	p->fault_handler = ft_count_fault;
	KUNIT_ASSERT_EQ(test, kpt_register(test, p), 0);
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	KUNIT_EXPECT_EQ(test, c->fault_bug, 0);
	KUNIT_EXPECT_GE(test, c->faults, 1);
	kpt_expect_page_fault_trap(test, c->fault_trapnr);

	post->pre_handler = NULL;
	post->post_handler = record_post;
	KUNIT_ASSERT_EQ(test, kpt_register(test, post), 0);
	c->faults = 0;
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_EQ(test, c->pre[0], 2);
	KUNIT_EXPECT_EQ(test, c->post[1], 1);
	KUNIT_EXPECT_GE(test, c->faults, 1);
	KUNIT_EXPECT_NULL(test, kprobe_running());
	unregister_kprobe(post);
	unregister_kprobe(p);
	vfree(area);
}

static void rival_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct ft_ctx *c = container_of(ops, struct ft_ctx, rival);

	WRITE_ONCE(c->rival_calls, c->rival_calls + 1);
}

/* Another user that may move the ip of kpft_target_fn, as a livepatch. */
static int rival_claim(struct kunit *test, struct ft_ctx *c)
{
	int ret;

	/* A refused ops keeps stale state: start from scratch each time. */
	memset(&c->rival, 0, sizeof(c->rival));
	c->rival.func = rival_func;
	c->rival.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY;
	ret = ftrace_set_filter_ip(&c->rival,
				   ftrace_site_of(kpft_target_fn), 0, 0);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = register_ftrace_function(&c->rival);
	if (ret)
		ftrace_free_filter(&c->rival);
	return ret;
}

static void rival_release(struct ft_ctx *c)
{
	unregister_ftrace_function(&c->rival);
	ftrace_free_filter(&c->rival);
	memset(&c->rival, 0, sizeof(c->rival));
}

static void ft_ipmodify_claim(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *plain = &c->probes[0], *post = &c->probes[1];

	/* 1. A pre handler alone does not claim: the rival gets in. */
	KUNIT_ASSERT_EQ(test, kpt_register(test, plain), 0);
	KUNIT_ASSERT_EQ(test, rival_claim(test, c), 0);
	kpft_target(1);
	KUNIT_EXPECT_EQ(test, c->rival_calls, 1);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);

	/*
	 * 2. A post handler claims: refused while the rival holds the
	 * function, and the refusal leaves the site as it was.
	 */
	post->post_handler = record_post;
	KUNIT_EXPECT_EQ(test, register_kprobe(post), -EBUSY);
	kpt_reset(post);
	KUNIT_EXPECT_EQ(test, register_kprobe(post), -EBUSY);
	kpft_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0], 2);
	KUNIT_EXPECT_EQ(test, c->pre[1], 0);
	KUNIT_EXPECT_EQ(test, c->post[1], 0);
	rival_release(c);

	/*
	 * 3. Without the rival it joins; the site moves to the claiming ops
	 * with every probe running exactly once per call.
	 */
	kpt_reset(post);
	KUNIT_ASSERT_EQ(test, kpt_register(test, post), 0);
	kpft_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0], 3);
	KUNIT_EXPECT_EQ(test, c->pre[1], 1);
	KUNIT_EXPECT_EQ(test, c->post[1], 1);
	KUNIT_EXPECT_EQ(test, rival_claim(test, c), -EBUSY);

	/* 4. It leaves: the claim goes, the plain probe goes on once. */
	unregister_kprobe(post);
	kpft_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0], 4);
	KUNIT_EXPECT_EQ(test, c->pre[1], 1);
	KUNIT_ASSERT_EQ(test, rival_claim(test, c), 0);
	rival_release(c);
	unregister_kprobe(plain);
}

/* What the thread of ft_refused_arming_runs_no_handler() calls. */
static int kpft_both(int x)
{
	return kpft_target(x) + kpft_other(x);
}

/*
 * A batch whose ftrace site is refused (a rival holds the IPMODIFY claim)
 * runs none of its handlers, not even those of its breakpoint probe,
 * which was in the text until the batch was undone; an enable refused the
 * same way runs none of the enabled probe's handlers, while its site goes
 * on running its neighbour's.  A thread on another CPU calls both
 * functions all along.
 */
static void ft_refused_arming_runs_no_handler(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kpt_counted *k = kunit_kcalloc(test, 3, sizeof(*k), GFP_KERNEL);
	struct kpt_counted *bp = &k[0], *claimer = &k[1], *plain = &k[2];
	struct kpt_hammer h = { .call = kpft_both };
	struct kprobe *batch[2];
	int i, ret;

	KUNIT_ASSERT_NOT_NULL(test, k);
	bp->kp.symbol_name = "kpft_other_fn";
	bp->kp.offset = ftrace_site_of(kpft_other_fn) + MCOUNT_INSN_SIZE -
			(unsigned long)kpft_other_fn;
	bp->kp.pre_handler = kpt_counted_pre;
	claimer->kp.symbol_name = "kpft_target_fn";
	claimer->kp.pre_handler = kpt_counted_pre;
	claimer->kp.post_handler = kpt_counted_post;
	plain->kp.symbol_name = "kpft_target_fn";
	plain->kp.pre_handler = kpt_counted_pre;
	batch[0] = &bp->kp;
	batch[1] = &claimer->kp;
	KUNIT_ASSERT_EQ(test, rival_claim(test, c), 0);
	if (!kpt_hammer_start(test, &h)) {
		rival_release(c);
		return;
	}

	/* 1. The batch, refused at its commit. */
	for (i = 0; i < 50; i++) {
		kpt_reset(&bp->kp);
		kpt_reset(&claimer->kp);
		ret = register_kprobes(batch, ARRAY_SIZE(batch));
		if (ret != -EBUSY) {
			KUNIT_FAIL(test, "batch %d: %d", i, ret);
			if (!ret)
				unregister_kprobes(batch, ARRAY_SIZE(batch));
		}
	}

	/* 2. The enable, refused while the site runs another probe. */
	kpt_reset(&claimer->kp);
	claimer->kp.flags = KPROBE_FLAG_DISABLED;
	ret = register_kprobe(&plain->kp);
	KUNIT_EXPECT_EQ(test, ret, 0);
	ret = register_kprobe(&claimer->kp);
	KUNIT_EXPECT_EQ(test, ret, 0);
	for (i = 0; i < 50; i++) {
		ret = enable_kprobe(&claimer->kp);
		if (ret != -EBUSY || !kprobe_disabled(&claimer->kp)) {
			KUNIT_FAIL(test, "enable %d: %d flags %#x", i, ret,
				   claimer->kp.flags);
			break;
		}
	}
	kpt_hammer_wait(&h, 100);
	unregister_kprobe(&claimer->kp);
	unregister_kprobe(&plain->kp);
	kpt_hammer_stop(&h);
	rival_release(c);

	KUNIT_EXPECT_EQ(test, atomic_read(&bp->pre), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&claimer->pre), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&claimer->post), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&plain->pre), 0);
}

static void ft_batch_mixed(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *kps[NR_FP];
	unsigned long other = ftrace_site_of(kpft_other_fn);
	int i;

	for (i = 0; i < NR_FP; i++)
		kps[i] = &c->probes[i];
	/* An ftrace site, another one, and a breakpoint behind the call. */
	c->probes[1].symbol_name = "kpft_other_fn";
	c->probes[2].symbol_name = NULL;
	c->probes[2].addr = (kprobe_opcode_t *)(other + MCOUNT_INSN_SIZE);
	KUNIT_ASSERT_EQ(test, register_kprobes(kps, NR_FP), 0);
	for (i = 0; i < NR_FP; i++)
		kunit_add_action(test, kpt_unregister_action, kps[i]);
	KUNIT_EXPECT_TRUE(test, kprobe_ftrace(kps[0]));
	KUNIT_EXPECT_TRUE(test, kprobe_ftrace(kps[1]));
	KUNIT_EXPECT_FALSE(test, kprobe_ftrace(kps[2]));
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_EQ(test, kpft_other(1), 3);
	KUNIT_EXPECT_STREQ(test, c->order, "abc");
	unregister_kprobes(kps, NR_FP);

	/* A bad request at the end undoes the whole batch. */
	for (i = 0; i < NR_FP; i++)
		kpt_reset(kps[i]);
	c->probes[2].addr = NULL;
	c->probes[2].symbol_name = "kpft_no_such_function";
	KUNIT_EXPECT_EQ(test, register_kprobes(kps, NR_FP), -ENOENT);
	kpft_target(1);
	kpft_other(1);
	KUNIT_EXPECT_EQ(test, c->pre[0] + c->pre[1] + c->pre[2], 3);
}

static int count_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	fctx()->rp_entries++;
	return 0;
}

static int record_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	fctx()->rp_ret = regs_return_value(regs);
	return 0;
}

static void ft_kretprobe(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kretprobe *rp = &c->rp;

	rp->kp.symbol_name = "kpft_target_fn";
	rp->entry_handler = count_entry;
	rp->handler = record_ret;
	KUNIT_ASSERT_EQ(test, register_kretprobe(rp), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_ftrace(&rp->kp));
	KUNIT_EXPECT_EQ(test, kpft_target(41), 42);
	KUNIT_EXPECT_EQ(test, c->rp_entries, 1);
	KUNIT_EXPECT_EQ(test, c->rp_ret, 42L);
	KUNIT_EXPECT_EQ(test, rp->nmissed, 0);
	unregister_kretprobe(rp);
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_EQ(test, c->rp_entries, 1);
}

static int ft_mirror(int x)
{
	struct ft_ctx *c = fctx();

	c->mirror_arg = x;
	ft_mark(c, 'J');
	jprobe_return();
	return 0;
}

static void ft_jprobe(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *p = &c->probes[0];
	int pc = preempt_count();

	c->jp.kp.symbol_name = "kpft_target_fn";
	c->jp.entry = ft_mirror;
	p->post_handler = record_post;
	KUNIT_ASSERT_EQ(test, register_jprobe(&c->jp), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_ftrace(&c->jp.kp));

	/* Alone: jprobe_return() resumes after the call, not inside it. */
	KUNIT_EXPECT_EQ(test, kpft_target(4), 5);
	KUNIT_EXPECT_EQ(test, c->mirror_arg, 4);
	KUNIT_EXPECT_STREQ(test, c->order, "J");
	memset(c->order, 0, sizeof(c->order));
	c->norder = 0;

	KUNIT_ASSERT_EQ(test, kpt_register(test, p), 0);

	/* kprobe pre, the mirror, then the post handler after the call. */
	KUNIT_EXPECT_EQ(test, kpft_target(5), 6);
	KUNIT_EXPECT_EQ(test, c->mirror_arg, 5);
	KUNIT_EXPECT_STREQ(test, c->order, "aJA");
	KUNIT_EXPECT_EQ(test, c->post_ip,
			ftrace_site_of(kpft_target_fn) + MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_NULL(test, kprobe_running());
	KUNIT_EXPECT_EQ(test, preempt_count(), pc);
	unregister_kprobe(p);
	unregister_jprobe(&c->jp);
	KUNIT_EXPECT_EQ(test, kpft_target(5), 6);
	KUNIT_EXPECT_EQ(test, c->norder, 3);
}

/* The ftrace handler runs with interrupts on: unregistration waits. */
static void ft_unregister_waits(struct kunit *test)
{
	struct kpt_inflight_kprobe *k = kpt_inflight_kprobe(test, kpft_target);

	k->kp.symbol_name = "kpft_target_fn";
	KUNIT_ASSERT_EQ(test, kpt_register(test, &k->kp), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_ftrace(&k->kp));
	kpt_expect_kprobe_unregister_waits(test, k);
}

/*
 * After ftrace_kill(), ftrace can attach nothing more: registering or
 * enabling a probe on a call site says so (-ENODEV) and leaves nothing
 * registered, and a probe elsewhere is not affected.
 */
static void ft_dead_ftrace_says_enodev(struct kunit *test)
{
	struct ft_ctx *c = test->priv;
	struct kprobe *p = &c->probes[0];
	struct kprobe *q = &c->probes[1];
	bool was_dead = kprobe_ftrace_dead_swap(true);

	KUNIT_EXPECT_EQ(test, register_kprobe(p), -ENODEV);
	/* Not left registered: a second try is not "already registered". */
	p->addr = NULL;
	KUNIT_EXPECT_EQ(test, register_kprobe(p), -ENODEV);
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_EQ(test, c->pre[0], 0);

	/* Registered disabled: nothing to attach until it is enabled. */
	p->addr = NULL;
	p->flags = KPROBE_FLAG_DISABLED;
	KUNIT_EXPECT_EQ(test, register_kprobe(p), 0);
	KUNIT_EXPECT_EQ(test, enable_kprobe(p), -ENODEV);
	KUNIT_EXPECT_TRUE(test, kprobe_disabled(p));
	unregister_kprobe(p);

	/* A breakpoint probe does not need ftrace. */
	q->symbol_name = "kpft_target_fn";
	q->offset = ftrace_site_of(kpft_target_fn) + MCOUNT_INSN_SIZE -
		    (unsigned long)kpft_target_fn;
	KUNIT_EXPECT_EQ(test, register_kprobe(q), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_ftrace(q));
	KUNIT_EXPECT_EQ(test, kpft_target(1), 2);
	KUNIT_EXPECT_EQ(test, c->pre[1], 1);
	unregister_kprobe(q);

	kprobe_ftrace_dead_swap(was_dead);
}

static struct kunit_case ft_cases[] = {
	KUNIT_CASE(ft_entry_probe_goes_through_ftrace),
	KUNIT_CASE(ft_inside_the_call_is_refused),
	KUNIT_CASE(ft_aggregate),
	KUNIT_CASE(ft_solo_follows_changes),
	KUNIT_CASE(ft_pre_handler_redirects),
	KUNIT_CASE(ft_register_changes_stick),
	KUNIT_CASE(ft_reentry_is_missed),
	KUNIT_CASE(ft_breakpoint_hit_in_handler),
	KUNIT_CASE(ft_fault_in_handler),
	KUNIT_CASE(ft_ipmodify_claim),
	KUNIT_CASE_SLOW(ft_refused_arming_runs_no_handler),
	KUNIT_CASE(ft_batch_mixed),
	KUNIT_CASE(ft_kretprobe),
	KUNIT_CASE(ft_jprobe),
	KUNIT_CASE(ft_unregister_waits),
	KUNIT_CASE(ft_dead_ftrace_says_enodev),
	{}
};

static struct kunit_suite ft_suite = {
	.name = "kprobes_ftrace",
	.init = ft_init,
	.test_cases = ft_cases,
};

kunit_test_suite(ft_suite);
