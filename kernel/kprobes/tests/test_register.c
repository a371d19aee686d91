// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: registering, enabling and unregistering kprobes, and every way
 * a request can be wrong.  Each bad request must fail with its documented
 * errno and leave nothing behind: the target keeps running unprobed.
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <linux/log2.h>

#include "tests.h"

struct reg_ctx {
	int pre_hits;
	int post_hits;
};

static struct reg_ctx *ctx_of(struct kprobe *p)
{
	return ((struct kunit *)kunit_get_current_test())->priv;
}

static int count_pre(struct kprobe *p, struct pt_regs *regs)
{
	ctx_of(p)->pre_hits++;
	return 0;
}

static void count_post(struct kprobe *p, struct pt_regs *regs,
		       unsigned long flags)
{
	ctx_of(p)->post_hits++;
}

static int reg_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct reg_ctx), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static struct reg_ctx *ctx(struct kunit *test)
{
	return test->priv;
}

static void reg_both_addr_and_symbol(struct kunit *test)
{
	struct kprobe p = {
		.addr = (kprobe_opcode_t *)kpt_target,
		.symbol_name = "kpt_target_fn",
		.pre_handler = count_pre,
	};

	KUNIT_EXPECT_EQ(test, register_kprobe(&p), -EINVAL);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 0);
}

static void reg_neither_addr_nor_symbol(struct kunit *test)
{
	struct kprobe p = { .pre_handler = count_pre };

	KUNIT_EXPECT_EQ(test, register_kprobe(&p), -EINVAL);
	KUNIT_EXPECT_TRUE(test, list_empty(&p.list));
	KUNIT_EXPECT_TRUE(test, hlist_unhashed(&p.hlist));
}

static void reg_unknown_symbol(struct kunit *test)
{
	struct kprobe p = {
		.symbol_name = "kpt_no_such_function_anywhere",
		.pre_handler = count_pre,
	};
	struct kprobe q = {
		.symbol_name = "no_such_module_kpt:kpt_target_fn",
		.pre_handler = count_pre,
	};

	KUNIT_EXPECT_EQ(test, register_kprobe(&p), -ENOENT);
	KUNIT_EXPECT_EQ(test, register_kprobe(&q), -ENOENT);
}

/*
 * Our own hit path and the code kprobes sends CPUs through: the core's,
 * then the architecture's.
 */
static const char * const own_code[] = {
	"kprobe_breakpoint_hit", "kprobe_step_done",
#ifdef CONFIG_X86
	"kprobe_int3_handler", "kretprobe_trampoline",
	"x86_kprobe_step_trampoline",
#endif
#ifdef CONFIG_ARM64
	"kprobe_brk_handler", "kprobe_ss_brk_handler", "kretprobe_trampoline",
#endif
#ifdef CONFIG_RISCV
	"kprobe_breakpoint_handler", "kprobe_single_step_handler",
	"kretprobe_trampoline",
#endif
#ifdef CONFIG_PPC
	"kprobe_handler", "kprobe_post_handler", "kretprobe_trampoline",
#endif
#ifdef CONFIG_S390
	"s390_kprobe_notify", "kretprobe_trampoline",
#endif
};

static void reg_blacklisted(struct kunit *test)
{
	struct kprobe mine = {
		.addr = (kprobe_opcode_t *)kpt_forbidden,
		.pre_handler = count_pre,
	};
	struct kprobe own;
	int i;

	KUNIT_EXPECT_TRUE(test,
			  within_kprobe_blacklist((unsigned long)kpt_forbidden));
	KUNIT_EXPECT_EQ(test, register_kprobe(&mine), -EINVAL);
	for (i = 0; i < ARRAY_SIZE(own_code); i++) {
		memset(&own, 0, sizeof(own));
		own.symbol_name = own_code[i];
		own.pre_handler = count_pre;
		KUNIT_EXPECT_EQ_MSG(test, register_kprobe(&own), -EINVAL,
				    "%s", own_code[i]);
	}
	kpt_forbidden();
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 0);
}

static int kpt_data_word = 42;

static void reg_not_text(struct kunit *test)
{
	struct kprobe data = {
		.addr = (kprobe_opcode_t *)&kpt_data_word,
		.pre_handler = count_pre,
	};
	struct kprobe user = {
		.addr = (kprobe_opcode_t *)0x400000UL,
		.pre_handler = count_pre,
	};
	struct kprobe heap = { .pre_handler = count_pre };
	void *buf = kunit_kzalloc(test, 64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	heap.addr = buf;
	KUNIT_EXPECT_EQ(test, register_kprobe(&data), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kprobe(&user), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kprobe(&heap), -EINVAL);
	KUNIT_EXPECT_EQ(test, kpt_data_word, 42);
}

static void reg_twice(struct kunit *test)
{
	struct kprobe p = {
		.symbol_name = "kpt_target_fn",
		.pre_handler = count_pre,
	};

	KUNIT_ASSERT_EQ(test, register_kprobe(&p), 0);
	KUNIT_EXPECT_EQ(test, register_kprobe(&p), -EINVAL);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 1);
	unregister_kprobe(&p);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 1);
}

static void reg_unregister_unregistered(struct kunit *test)
{
	struct kprobe never = {
		.symbol_name = "kpt_target_fn",
		.pre_handler = count_pre,
	};
	struct kprobe zero = {};
	struct kprobe live = {
		.symbol_name = "kpt_target_fn",
		.pre_handler = count_pre,
	};

	/* Nothing happens; addr is not resolved behind the caller's back. */
	unregister_kprobe(&never);
	unregister_kprobe(&zero);
	KUNIT_EXPECT_NULL(test, never.addr);

	/* Not even when another probe is live at the same address. */
	KUNIT_ASSERT_EQ(test, register_kprobe(&live), 0);
	never.addr = live.addr;
	never.symbol_name = NULL;
	unregister_kprobe(&never);
	KUNIT_EXPECT_EQ(test, kpt_target(3), 4);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 1);
	unregister_kprobe(&live);

	/* And twice in a row is fine. */
	unregister_kprobe(&live);
}

static void reg_resolves_addr_and_resets(struct kunit *test)
{
	struct kprobe p = {
		/* Built in, there is no module name to give. */
		.symbol_name = IS_MODULE(CONFIG_KPROBES_SANITY_TEST) ?
			       KPT_MODULE ":kpt_target_fn" : "kpt_target_fn",
		.pre_handler = count_pre,
		.nmissed = 99,
		.flags = KPROBE_FLAG_GONE | KPROBE_FLAG_OPTIMIZED,
	};

	KUNIT_ASSERT_EQ(test, register_kprobe(&p), 0);
	/* The entry, or just past an entry marker such as ENDBR64. */
	KUNIT_EXPECT_GE(test, (unsigned long)p.addr, (unsigned long)kpt_target);
	KUNIT_EXPECT_LT(test, (unsigned long)p.addr,
			(unsigned long)kpt_target + 8);
	KUNIT_EXPECT_EQ(test, kprobe_on_func_entry(p.addr, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, p.nmissed, 0UL);
	KUNIT_EXPECT_FALSE(test, p.flags & KPROBE_FLAG_GONE);
	KUNIT_EXPECT_FALSE(test, p.flags & KPROBE_FLAG_OPTIMIZED);
	KUNIT_EXPECT_TRUE(test, p.flags & KPROBE_FLAG_ON_FUNC_ENTRY);
	KUNIT_EXPECT_FALSE(test, list_empty(&p.list));
	KUNIT_EXPECT_EQ(test, kpt_target(5), 6);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 1);
	unregister_kprobe(&p);
}

static void reg_func_entry(struct kunit *test)
{
	unsigned long entry = (unsigned long)kpt_target;

	KUNIT_EXPECT_EQ(test, kprobe_on_func_entry(NULL, "kpt_target_fn", 0),
			0);
	KUNIT_EXPECT_EQ(test, kprobe_on_func_entry((void *)entry, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, kprobe_on_func_entry(NULL, "kpt_target_fn", 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kprobe_on_func_entry(NULL, "kpt_nonexistent", 0),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, kprobe_on_func_entry((void *)entry,
						   "kpt_target_fn", 0),
			-EINVAL);
}

static void reg_disabled_then_enabled(struct kunit *test)
{
	struct kprobe p = {
		.symbol_name = "kpt_target_fn",
		.pre_handler = count_pre,
		.post_handler = count_post,
		.flags = KPROBE_FLAG_DISABLED,
	};

	KUNIT_ASSERT_EQ(test, register_kprobe(&p), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_disabled(&p));
	kpt_target(0);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 0);

	KUNIT_EXPECT_EQ(test, enable_kprobe(&p), 0);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&p), 0);
	kpt_target(0);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 1);
	KUNIT_EXPECT_EQ(test, ctx(test)->post_hits, 1);

	KUNIT_EXPECT_EQ(test, disable_kprobe(&p), 0);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&p), 0);
	KUNIT_EXPECT_EQ(test, kpt_target(0), 1);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 1);

	KUNIT_EXPECT_EQ(test, enable_kprobe(&p), 0);
	kpt_target(0);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 2);
	unregister_kprobe(&p);

	/* Not registered any more. */
	KUNIT_EXPECT_EQ(test, enable_kprobe(&p), -EINVAL);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&p), -EINVAL);
}

static void reg_batch_rolls_back(struct kunit *test)
{
	struct kprobe a = { .symbol_name = "kpt_target_fn",
			    .pre_handler = count_pre };
	struct kprobe b = { .symbol_name = "kpt_other_fn",
			    .pre_handler = count_pre };
	struct kprobe bad = { .symbol_name = "kpt_nonexistent",
			      .pre_handler = count_pre };
	struct kprobe c = { .symbol_name = "kpt_inner_fn",
			    .pre_handler = count_pre };
	struct kprobe *kps[] = { &a, &b, &bad, &c };

	KUNIT_EXPECT_EQ(test, register_kprobes(kps, ARRAY_SIZE(kps)),
			-ENOENT);
	kpt_target(0);
	kpt_other(0);
	kpt_inner(0);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 0);

	/* The rolled-back probes can be registered again. */
	kpt_reset(&a);
	kpt_reset(&b);
	KUNIT_EXPECT_EQ(test, register_kprobes(kps, 2), 0);
	kpt_target(0);
	kpt_other(0);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 2);
	unregister_kprobes(kps, 2);

	KUNIT_EXPECT_EQ(test, register_kprobes(kps, 0), -EINVAL);
	unregister_kprobes(kps, 0);
}

/*
 * A batch that fails runs none of its handlers, although its good probes
 * were placed and their breakpoints were in the text until the batch was
 * undone: a thread on another CPU calls the probed function all along.
 * Then the same probe, registered alone, sees that thread's calls.
 */
static void reg_failed_batch_runs_no_handler(struct kunit *test)
{
	struct kpt_counted *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct kprobe bad = { .symbol_name = "kpt_nonexistent",
			      .pre_handler = count_pre };
	struct kpt_hammer h = { .call = kpt_target };
	struct kprobe *kps[2];
	int i, wrong = 0, during;
	bool called;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->kp.symbol_name = "kpt_target_fn";
	c->kp.pre_handler = kpt_counted_pre;
	kps[0] = &c->kp;
	kps[1] = &bad;
	if (!kpt_hammer_start(test, &h))
		return;
	for (i = 0; i < 100; i++) {
		kpt_reset(&c->kp);
		if (register_kprobes(kps, ARRAY_SIZE(kps)) != -ENOENT)
			wrong++;
	}
	called = kpt_hammer_wait(&h, 1);
	during = atomic_read(&c->pre);

	kpt_reset(&c->kp);
	KUNIT_EXPECT_EQ(test, register_kprobe(&c->kp), 0);
	kpt_hammer_wait(&h, 100);
	unregister_kprobe(&c->kp);
	kpt_hammer_stop(&h);

	KUNIT_EXPECT_EQ(test, wrong, 0);
	KUNIT_EXPECT_TRUE(test, called);
	KUNIT_EXPECT_EQ(test, during, 0);
	KUNIT_EXPECT_GT(test, atomic_read(&c->pre), 0);
}

/*
 * A probe twice in a batch, or one already registered: -EINVAL and none
 * registered (each can be registered on its own afterwards).
 */
static void reg_batch_duplicates(struct kunit *test)
{
	struct kprobe a = { .symbol_name = "kpt_target_fn",
			    .pre_handler = count_pre };
	struct kprobe b = { .symbol_name = "kpt_other_fn",
			    .pre_handler = count_pre };
	struct kprobe *twice[] = { &a, &b, &a };
	struct kprobe *again[] = { &b, &a };

	KUNIT_EXPECT_EQ(test, register_kprobes(twice, 3), -EINVAL);
	kpt_target(0);
	kpt_other(0);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 0);

	kpt_reset(&a);
	kpt_reset(&b);
	KUNIT_ASSERT_EQ(test, register_kprobe(&a), 0);
	KUNIT_EXPECT_EQ(test, register_kprobes(again, 2), -EINVAL);
	kpt_other(0);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 0);
	/* @a was left alone, and still works. */
	kpt_target(0);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 1);

	kpt_reset(&b);
	KUNIT_EXPECT_EQ(test, register_kprobe(&b), 0);
	kpt_other(0);
	KUNIT_EXPECT_EQ(test, ctx(test)->pre_hits, 2);
	unregister_kprobe(&b);
	unregister_kprobe(&a);
}

/*
 * Many sites: probes on the KPT_MANY functions, one by one and then four
 * to a function in one batch (with one on a function of vmlinux, for
 * when the suites are a module), while another thread keeps calling them.
 * The site table grows (and, as sites go, shrinks) under that thread; a
 * batch big enough to look its names up at once must find the addresses
 * each probe finds alone; a bad name in it must leave nothing behind.
 */
#define MANY_BATCH	(4 * KPT_MANY)

static struct {
	struct task_struct *tester;
	atomic_t hits;		/* the tester's own */
	atomic_t wrong;		/* wrong results the other thread saw */
} many;

static int many_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (current == READ_ONCE(many.tester))
		atomic_inc(&many.hits);
	return 0;
}

static int many_caller(void *unused)
{
	int i;

	while (!kthread_should_stop()) {
		for (i = 0; i < KPT_MANY; i++) {
			if (kpt_many[i](i) != 2 * i)
				atomic_inc(&many.wrong);
		}
		cond_resched();
	}
	return 0;
}

static void many_stop_caller(void *caller)
{
	kthread_stop(caller);
}

/* Call each function once: how many hits that made. */
static int many_call_all(void)
{
	int i, before = atomic_read(&many.hits);

	for (i = 0; i < KPT_MANY; i++)
		kpt_many[i](0);
	return atomic_read(&many.hits) - before;
}

/* @num probes in @kps, one on each function in turn. */
static void many_fill(struct kprobe *kps, struct kprobe **ptrs, int num,
		      char (*names)[16])
{
	int i;

	memset(kps, 0, num * sizeof(*kps));
	for (i = 0; i < num; i++) {
		kps[i].symbol_name = names[i % KPT_MANY];
		kps[i].pre_handler = many_pre;
		ptrs[i] = &kps[i];
	}
}

/*
 * A function of vmlinux that a probe alone can go on here: into @vm, its
 * address into @addr.  Where probes cannot go through ftrace (riscv, as
 * on the stock kernel), a traced function's entry is refused.
 * Return: 1, or 0 when none can.
 */
static int many_vmlinux_probe(struct kunit *test, struct kprobe *vm,
			      unsigned long *addr)
{
	static const char *const names[] = {
		"kthread_should_stop", "kernel_clone", "msleep",
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		vm->addr = NULL;
		vm->symbol_name = names[i];
		if (register_kprobe(vm))
			continue;
		*addr = (unsigned long)vm->addr;
		unregister_kprobe(vm);
		return 1;
	}
	kunit_info(test, "no function of vmlinux to probe: none in the batch");
	return 0;
}

static void reg_many_sites(struct kunit *test)
{
	struct kprobe bad = { .symbol_name = "kpt_nonexistent",
			      .pre_handler = many_pre };
	struct kprobe vm = { .pre_handler = many_pre };
	struct task_struct *caller;
	struct kprobe *kps, **ptrs;
	unsigned long *addrs, vm_addr = 0;
	char (*names)[16];
	int i, nvm, moved = 0;

	names = kunit_kcalloc(test, KPT_MANY, sizeof(*names), GFP_KERNEL);
	addrs = kunit_kcalloc(test, KPT_MANY, sizeof(*addrs), GFP_KERNEL);
	kps = kunit_kcalloc(test, MANY_BATCH, sizeof(*kps), GFP_KERNEL);
	ptrs = kunit_kcalloc(test, MANY_BATCH + 2, sizeof(*ptrs), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, names && addrs && kps && ptrs);
	for (i = 0; i < KPT_MANY; i++)
		snprintf(names[i], sizeof(names[i]), "kpt_many_%02x", i);
	atomic_set(&many.hits, 0);
	atomic_set(&many.wrong, 0);
	WRITE_ONCE(many.tester, current);
	caller = kthread_run(many_caller, NULL, "kpt_many");
	KUNIT_ASSERT_FALSE(test, IS_ERR(caller));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, many_stop_caller,
							caller), 0);

	/* 1. One by one: the table grows a probe at a time. */
	many_fill(kps, ptrs, KPT_MANY, names);
	for (i = 0; i < KPT_MANY; i++) {
		KUNIT_EXPECT_EQ(test, register_kprobe(&kps[i]), 0);
		addrs[i] = (unsigned long)kps[i].addr;
	}
	KUNIT_EXPECT_EQ(test, many_call_all(), KPT_MANY);
	KUNIT_EXPECT_GE(test, kprobe_sites_table_bits(), ilog2(KPT_MANY));
	for (i = 0; i < KPT_MANY; i++)
		unregister_kprobe(&kps[i]);
	KUNIT_EXPECT_EQ(test, many_call_all(), 0);
	nvm = many_vmlinux_probe(test, &vm, &vm_addr);

	/* 2. Four to a function in one batch, names looked up at once. */
	many_fill(kps, ptrs, MANY_BATCH, names);
	kpt_reset(&vm);
	ptrs[MANY_BATCH] = &vm;
	KUNIT_EXPECT_EQ(test, register_kprobes(ptrs, MANY_BATCH + nvm), 0);
	for (i = 0; i < MANY_BATCH; i++)
		moved += (unsigned long)kps[i].addr != addrs[i % KPT_MANY];
	KUNIT_EXPECT_EQ(test, moved, 0);
	if (nvm)
		KUNIT_EXPECT_EQ(test, (unsigned long)vm.addr, vm_addr);
	KUNIT_EXPECT_EQ(test, many_call_all(), MANY_BATCH);
	unregister_kprobes(ptrs, MANY_BATCH + nvm);
	KUNIT_EXPECT_EQ(test, many_call_all(), 0);

	/* 3. A bad name last: -ENOENT, and none of the others stays. */
	many_fill(kps, ptrs, MANY_BATCH, names);
	kpt_reset(&vm);
	ptrs[MANY_BATCH] = &vm;
	ptrs[MANY_BATCH + nvm] = &bad;
	KUNIT_EXPECT_EQ(test, register_kprobes(ptrs, MANY_BATCH + nvm + 1),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, many_call_all(), 0);

	kunit_release_action(test, many_stop_caller, caller);
	WRITE_ONCE(many.tester, NULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&many.wrong), 0);

	/* 4. Their sites freed, the table shrinks back (a few sites left). */
	for (i = 0; i < 500 && kprobe_sites_table_bits() >= ilog2(KPT_MANY);
	     i++)
		msleep(20);
	KUNIT_EXPECT_LT(test, kprobe_sites_table_bits(), ilog2(KPT_MANY));
}

static struct kunit_case register_cases[] = {
	KUNIT_CASE(reg_both_addr_and_symbol),
	KUNIT_CASE(reg_neither_addr_nor_symbol),
	KUNIT_CASE(reg_unknown_symbol),
	KUNIT_CASE(reg_blacklisted),
	KUNIT_CASE(reg_not_text),
	KUNIT_CASE(reg_twice),
	KUNIT_CASE(reg_unregister_unregistered),
	KUNIT_CASE(reg_resolves_addr_and_resets),
	KUNIT_CASE(reg_func_entry),
	KUNIT_CASE(reg_disabled_then_enabled),
	KUNIT_CASE(reg_batch_rolls_back),
	KUNIT_CASE(reg_failed_batch_runs_no_handler),
	KUNIT_CASE(reg_batch_duplicates),
	KUNIT_CASE_SLOW(reg_many_sites),
	{}
};

static struct kunit_suite register_suite = {
	.name = "kprobes_register",
	.init = reg_init,
	.test_cases = register_cases,
};

kunit_test_suite(register_suite);
