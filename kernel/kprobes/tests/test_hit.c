// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: what a hit does.  Handler order and context, several probes at
 * one address, a pre handler that redirects execution, re-entry counted
 * as missed, and faults inside handlers reaching the fault handler.
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/kprobes.h>
#include <linux/uaccess.h>
#include <linux/preempt.h>
#include <linux/vmalloc.h>

#include "tests.h"

#define NR_AGG	3

struct hit_ctx {
	struct kprobe probes[NR_AGG];
	int pre[NR_AGG];
	int post[NR_AGG];
	int order[2 * NR_AGG];
	int norder;
	unsigned long pre_ip;
	struct kprobe *running_in_pre;
	bool preemptible_in_handler;
	int inner_result;
	int faults;
	int fault_trapnr;
	void *unmapped;
};

static struct hit_ctx *hctx(void)
{
	return ((struct kunit *)kunit_get_current_test())->priv;
}

static int idx_of(struct kprobe *p)
{
	return p - hctx()->probes;
}

static int record_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct hit_ctx *c = hctx();

	c->pre[idx_of(p)]++;
	c->order[c->norder++] = idx_of(p);
	c->pre_ip = instruction_pointer(regs);
	c->running_in_pre = kprobe_running();
	c->preemptible_in_handler |= preemptible();
	return 0;
}

static void record_post(struct kprobe *p, struct pt_regs *regs,
			unsigned long flags)
{
	struct hit_ctx *c = hctx();

	c->post[idx_of(p)]++;
	c->order[c->norder++] = NR_AGG + idx_of(p);
	c->preemptible_in_handler |= preemptible();
}

static int hit_init(struct kunit *test)
{
	struct hit_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	int i;

	if (!c)
		return -ENOMEM;
	for (i = 0; i < NR_AGG; i++) {
		c->probes[i].symbol_name = "kpt_target_fn";
		c->probes[i].pre_handler = record_pre;
		c->probes[i].post_handler = record_post;
	}
	test->priv = c;
	return 0;
}

static void hit_runs_handlers_in_order(struct kunit *test)
{
	struct hit_ctx *c = test->priv;
	struct kprobe *p = &c->probes[0];

	KUNIT_ASSERT_EQ(test, kpt_register(test, p), 0);
	KUNIT_EXPECT_EQ(test, kpt_target(10), 11);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	KUNIT_EXPECT_EQ(test, c->post[0], 1);
	KUNIT_EXPECT_EQ(test, c->order[0], 0);
	KUNIT_EXPECT_EQ(test, c->order[1], NR_AGG);
	/* The pre handler sees the trap where the breakpoint leaves it. */
	KUNIT_EXPECT_EQ(test, c->pre_ip,
			(unsigned long)p->addr + KPROBE_BREAKPOINT_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, c->running_in_pre, p);
	KUNIT_EXPECT_FALSE(test, c->preemptible_in_handler);
	KUNIT_EXPECT_NULL(test, kprobe_running());
	KUNIT_EXPECT_EQ(test, p->nmissed, 0UL);
	unregister_kprobe(p);

	KUNIT_EXPECT_EQ(test, kpt_target(10), 11);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
}

static void hit_aggregate(struct kunit *test)
{
	struct hit_ctx *c = test->priv;
	struct kprobe *kps[NR_AGG];
	int i;

	for (i = 0; i < NR_AGG; i++)
		kps[i] = &c->probes[i];
	KUNIT_ASSERT_EQ(test, register_kprobes(kps, NR_AGG), 0);
	for (i = 0; i < NR_AGG; i++)
		kunit_add_action(test, kpt_unregister_action, kps[i]);
	KUNIT_EXPECT_PTR_EQ(test, (void *)c->probes[0].addr,
			    (void *)c->probes[2].addr);

	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	for (i = 0; i < NR_AGG; i++) {
		KUNIT_EXPECT_EQ(test, c->pre[i], 1);
		KUNIT_EXPECT_EQ(test, c->post[i], 1);
	}

	/* Each probe is disabled on its own. */
	KUNIT_EXPECT_EQ(test, disable_kprobe(&c->probes[1]), 0);
	kpt_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0], 2);
	KUNIT_EXPECT_EQ(test, c->pre[1], 1);
	KUNIT_EXPECT_EQ(test, c->pre[2], 2);

	/* Disabling them all removes the breakpoint; one brings it back. */
	disable_kprobe(&c->probes[0]);
	disable_kprobe(&c->probes[2]);
	kpt_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0] + c->pre[1] + c->pre[2], 5);
	enable_kprobe(&c->probes[1]);
	kpt_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[1], 2);

	/* Each probe is unregistered on its own. */
	enable_kprobe(&c->probes[0]);
	unregister_kprobe(&c->probes[1]);
	kpt_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0], 3);
	KUNIT_EXPECT_EQ(test, c->pre[1], 2);
	KUNIT_EXPECT_EQ(test, c->pre[2], 2);

	/* A probe can join an existing site again. */
	kpt_reset(&c->probes[1]);
	KUNIT_EXPECT_EQ(test, register_kprobe(&c->probes[1]), 0);
	kpt_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[1], 3);
	unregister_kprobes(kps, NR_AGG);
	kpt_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0] + c->pre[1] + c->pre[2], 4 + 3 + 2);
}

static int redirect_pre(struct kprobe *p, struct pt_regs *regs)
{
	hctx()->pre[0]++;
	instruction_pointer_set(regs, (unsigned long)kpt_replacement);
	return 1;
}

static void hit_pre_handler_redirects(struct kunit *test)
{
	struct hit_ctx *c = test->priv;
	struct kprobe *p = &c->probes[0];

	p->pre_handler = redirect_pre;
	KUNIT_ASSERT_EQ(test, kpt_register(test, p), 0);
	/* kpt_target() now runs as kpt_replacement(); no post handler. */
	KUNIT_EXPECT_EQ(test, kpt_target(7), -7);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	KUNIT_EXPECT_EQ(test, c->post[0], 0);
	KUNIT_EXPECT_NULL(test, kprobe_running());
	unregister_kprobe(p);
	KUNIT_EXPECT_EQ(test, kpt_target(7), 8);
}

static int reenter_pre(struct kprobe *p, struct pt_regs *regs)
{
	hctx()->pre[idx_of(p)]++;
	if (idx_of(p) == 0)
		hctx()->inner_result = kpt_inner(21);
	return 0;
}

static void hit_reentry_is_missed(struct kunit *test)
{
	struct hit_ctx *c = test->priv;
	struct kprobe *outer = &c->probes[0], *inner = &c->probes[1];

	outer->pre_handler = reenter_pre;
	inner->symbol_name = "kpt_inner_fn";
	inner->pre_handler = reenter_pre;
	KUNIT_ASSERT_EQ(test, kpt_register(test, inner), 0);
	KUNIT_ASSERT_EQ(test, kpt_register(test, outer), 0);

	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, c->inner_result, 42);	/* still executed */
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	KUNIT_EXPECT_EQ(test, c->pre[1], 0);		/* no handler ran */
	KUNIT_EXPECT_EQ(test, inner->nmissed, 1UL);
	KUNIT_EXPECT_EQ(test, inner->nmissed_by[KPROBE_MISS_RECURSION], 1UL);
	KUNIT_EXPECT_EQ(test, c->post[1], 0);

	/* Outside a handler the inner probe works normally. */
	KUNIT_EXPECT_EQ(test, kpt_inner(2), 4);
	KUNIT_EXPECT_EQ(test, c->pre[1], 1);
	KUNIT_EXPECT_EQ(test, inner->nmissed, 1UL);

	/* Re-registering resets the count. */
	unregister_kprobe(inner);
	kpt_reset(inner);
	KUNIT_ASSERT_EQ(test, register_kprobe(inner), 0);
	KUNIT_EXPECT_EQ(test, inner->nmissed, 0UL);
	unregister_kprobe(inner);
	unregister_kprobe(outer);
}

static int faulting_pre(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long val;

	/* A fault with an exception-table fixup, taken inside a handler. */
	if (!copy_from_kernel_nofault(&val, hctx()->unmapped, sizeof(val)))
		hctx()->pre[1]++;	/* would be a bug */
	hctx()->pre[0]++;
	return 0;
}

static int count_fault(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	hctx()->faults++;
	hctx()->fault_trapnr = trapnr;
	return 0;	/* not handled: let the fixup run */
}

static void hit_fault_in_handler(struct kunit *test)
{
	struct hit_ctx *c = test->priv;
	struct kprobe *p = &c->probes[0];

	void *area = vmalloc(PAGE_SIZE);

	KUNIT_ASSERT_NOT_NULL(test, area);
	c->unmapped = kpt_handler_fault_addr(area + PAGE_SIZE);
	p->pre_handler = faulting_pre;
	p->fault_handler = count_fault;
	KUNIT_ASSERT_EQ(test, kpt_register(test, p), 0);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	KUNIT_EXPECT_EQ(test, c->pre[1], 0);
	KUNIT_EXPECT_GE(test, c->faults, 1);
	kpt_expect_page_fault_trap(test, c->fault_trapnr);
	KUNIT_EXPECT_EQ(test, c->post[0], 1);
	unregister_kprobe(p);
	vfree(area);
}

static void hit_busy_counts_missed(struct kunit *test)
{
	struct hit_ctx *c = test->priv;
	struct kprobe *p = &c->probes[0];

	KUNIT_ASSERT_EQ(test, kpt_register(test, p), 0);
	kprobe_busy_begin();
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	kprobe_busy_end();
	KUNIT_EXPECT_EQ(test, c->pre[0], 0);
	KUNIT_EXPECT_EQ(test, p->nmissed, 1UL);
	KUNIT_EXPECT_EQ(test, p->nmissed_by[KPROBE_MISS_RECURSION], 1UL);
	kpt_target(1);
	KUNIT_EXPECT_EQ(test, c->pre[0], 1);
	unregister_kprobe(p);
}

static struct kunit_case hit_cases[] = {
	KUNIT_CASE(hit_runs_handlers_in_order),
	KUNIT_CASE(hit_aggregate),
	KUNIT_CASE(hit_pre_handler_redirects),
	KUNIT_CASE(hit_reentry_is_missed),
	KUNIT_CASE(hit_fault_in_handler),
	KUNIT_CASE(hit_busy_counts_missed),
	{}
};

static struct kunit_suite hit_suite = {
	.name = "kprobes_hit",
	.init = hit_init,
	.test_cases = hit_cases,
};

kunit_test_suite(hit_suite);
