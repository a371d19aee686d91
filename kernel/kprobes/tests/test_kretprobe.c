// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: return probes.  Handlers and their context, entry handlers,
 * per-instance data, the limits on instances, functions that sleep,
 * recurse or never return, and unregistering while calls are in flight.
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/kallsyms.h>
#include <linux/string.h>

#include "tests.h"

struct rp_ctx {
	struct kretprobe rp;
	atomic_t entries;
	atomic_t returns;
	long last_ret;
	unsigned long last_ret_addr;
	struct task_struct *last_task;
	bool data_ok;
	bool skip_all;
	bool irqs_off;
	bool preempt_off;
};

static struct rp_ctx *rp_ctx_of(struct kretprobe_instance *ri)
{
	return container_of(get_kretprobe(ri), struct rp_ctx, rp);
}

static int rp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct rp_ctx *c = rp_ctx_of(ri);

	atomic_inc(&c->entries);
	if (c->rp.data_size >= sizeof(u64))
		*(u64 *)ri->data = 0x5eed5eedULL;
	return c->skip_all;
}

static int rp_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct rp_ctx *c = rp_ctx_of(ri);

	atomic_inc(&c->returns);
	c->last_ret = regs_return_value(regs);
	c->last_ret_addr = get_kretprobe_retaddr(ri);
	c->last_task = ri->task;
	c->irqs_off = irqs_disabled();
	c->preempt_off = !preemptible();
	if (c->rp.data_size >= sizeof(u64))
		c->data_ok = *(u64 *)ri->data == 0x5eed5eedULL;
	return 0;
}

static struct rp_ctx *new_rp(struct kunit *test, const char *sym)
{
	struct rp_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->rp.kp.symbol_name = sym;
	c->rp.handler = rp_return;
	c->rp.entry_handler = rp_entry;
	return c;
}

static void rp_unregister_action(void *rp)
{
	unregister_kretprobe(rp);
}

static int rp_register(struct kunit *test, struct rp_ctx *c)
{
	int ret = register_kretprobe(&c->rp);

	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, rp_unregister_action, &c->rp);
}

static void rp_handler_sees_return(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_target_fn");

	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	KUNIT_EXPECT_EQ(test, register_kretprobe(&c->rp), -EINVAL);
	KUNIT_EXPECT_TRUE(test, kprobe_is_kretprobe(&c->rp.kp));
	KUNIT_EXPECT_EQ(test, kpt_target(41), 42);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), 1);
	KUNIT_EXPECT_EQ(test, c->last_ret, 42L);
	KUNIT_EXPECT_PTR_EQ(test, c->last_task, current);
	/* The real return address is in this function, not a trampoline. */
	KUNIT_EXPECT_FALSE(test, is_kretprobe_trampoline(c->last_ret_addr));
	KUNIT_EXPECT_GT(test, c->last_ret_addr,
			(unsigned long)rp_handler_sees_return);
	/* (The difference: an address past our start would not be ENDBR.) */
	KUNIT_EXPECT_LT(test, c->last_ret_addr -
			(unsigned long)rp_handler_sees_return, 4096UL);
	KUNIT_EXPECT_EQ(test, c->rp.nmissed, 0);
	/*
	 * The handler runs with preemption off and with interrupts as the
	 * function returned: on, here.
	 */
	KUNIT_EXPECT_TRUE(test, c->preempt_off);
	KUNIT_EXPECT_FALSE(test, c->irqs_off);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	unregister_kretprobe(&c->rp);
	kpt_target(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), 1);
}

static void rp_entry_handler_skips(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_target_fn");

	c->skip_all = true;
	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), 0);
	KUNIT_EXPECT_EQ(test, c->rp.nmissed, 0);
}

static void rp_instance_data(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_target_fn");
	struct rp_ctx *big = new_rp(test, "kpt_other_fn");

	c->rp.data_size = sizeof(u64);
	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	kpt_target(1);
	KUNIT_EXPECT_TRUE(test, c->data_ok);

	big->rp.data_size = KRETPROBE_MAX_DATA_SIZE + 1;
	KUNIT_EXPECT_EQ(test, register_kretprobe(&big->rp), -E2BIG);
}

static void rp_bad_requests(struct kunit *test)
{
	struct rp_ctx *off = new_rp(test, "kpt_target_fn");
	struct rp_ctx *sw = new_rp(test, "__switch_to");
	struct rp_ctx *none = new_rp(test, "kpt_no_such_function");

	off->rp.kp.offset = 1;
	KUNIT_EXPECT_EQ(test, register_kretprobe(&off->rp), -EINVAL);
	/* x86's context switch returns on another task's stack. */
	if (IS_ENABLED(CONFIG_X86))
		KUNIT_EXPECT_EQ(test, register_kretprobe(&sw->rp), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kretprobe(&none->rp), -ENOENT);
}

static void rp_maxactive_recursion(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_recurse_fn");

	c->rp.maxactive = 1;
	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	KUNIT_EXPECT_EQ(test, kpt_recurse(3), 3);
	/* Four calls deep, one instance: three returns missed. */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), 1);
	KUNIT_EXPECT_EQ(test, c->rp.nmissed, 3);
	/* The instance came back: the next call is hooked again. */
	KUNIT_EXPECT_EQ(test, kpt_recurse(0), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), 2);
}

/* More than the first tiers of a pool at its default hold, many times. */
#define NR_SLEEPERS	2048

struct sleeper {
	struct completion *done;
	int ret;
};

static int sleeper_fn(void *data)
{
	struct sleeper *s = data;

	s->ret = kpt_sleep(s->done);
	/* Asleep until kthread_stop(): thousands of them must not poll. */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

struct gated_sleeper {
	struct sleeper s;
	struct completion *go;
};

static int gated_sleeper_fn(void *data)
{
	struct gated_sleeper *g = data;

	wait_for_completion(g->go);
	return sleeper_fn(&g->s);
}

/*
 * Run @n kthreads into the hooked kpt_sleep_fn, wait until each is inside
 * or missed, then let them all return.  With @together they wait at a
 * gate and go in at once when it opens; otherwise each goes in as soon
 * as it is made.  @wrong counts the calls that returned a wrong value.
 * Return: how many ran.
 */
static int rp_sleepers_run(struct kunit *test, struct rp_ctx *c, int n,
			   bool together, int *wrong)
{
	int i, started = 0, base = atomic_read(&c->entries) + c->rp.nmissed;
	struct completion *done, *go;
	struct gated_sleeper *g;
	struct task_struct **t;

	t = kvcalloc(n, sizeof(*t), GFP_KERNEL);
	g = kvcalloc(n, sizeof(*g), GFP_KERNEL);
	done = kunit_kzalloc(test, sizeof(*done), GFP_KERNEL);
	go = kunit_kzalloc(test, sizeof(*go), GFP_KERNEL);
	if (!t || !g || !done || !go) {
		kvfree(t);
		kvfree(g);
		KUNIT_FAIL(test, "no memory for the sleepers");
		return 0;
	}
	init_completion(done);
	init_completion(go);
	if (!together)
		complete_all(go);
	for (i = 0; i < n; i++) {
		g[i].s.done = done;
		g[i].go = go;
		t[i] = kthread_run(gated_sleeper_fn, &g[i], "kpt_sleeper/%d", i);
		if (IS_ERR(t[i]))
			t[i] = NULL;
		else
			started++;
	}
	complete_all(go);
	for (i = 0; i < 500 && atomic_read(&c->entries) +
			       READ_ONCE(c->rp.nmissed) < base + started; i++)
		msleep(20);
	complete_all(done);
	*wrong = 0;
	for (i = 0; i < n; i++) {
		if (!t[i])
			continue;
		kthread_stop(t[i]);
		if (g[i].s.ret != 7)
			(*wrong)++;
	}
	kvfree(t);
	kvfree(g);
	return started;
}

static void rp_sleepers_not_missed(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_sleep_fn");
	int started, wrong;

	/* maxactive left at its default: the pool grows as they come. */
	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	started = rp_sleepers_run(test, c, NR_SLEEPERS, false, &wrong);
	KUNIT_EXPECT_EQ(test, started, NR_SLEEPERS);
	KUNIT_EXPECT_EQ(test, wrong, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->entries), started);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), started);
	KUNIT_EXPECT_EQ(test, c->rp.nmissed, 0);
	KUNIT_EXPECT_EQ(test, c->rp.kp.nmissed, 0UL);
}

#define NR_BURST	1024

/*
 * The same at once: the sleepers wait at a gate and all go into the
 * function together when it opens.  Calls that come faster than a tier
 * can be allocated may miss, and are counted; the pool has grown by then
 * (it never shrinks while registered), and a second burst misses none.
 */
static void rp_burst_of_sleepers(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_sleep_fn");
	int first, second, missed, wrong;

	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	first = rp_sleepers_run(test, c, NR_BURST, true, &wrong);
	missed = c->rp.nmissed;
	KUNIT_EXPECT_EQ(test, first, NR_BURST);
	KUNIT_EXPECT_EQ(test, wrong, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns) + missed, first);

	second = rp_sleepers_run(test, c, NR_BURST, true, &wrong);
	KUNIT_EXPECT_EQ(test, second, NR_BURST);
	KUNIT_EXPECT_EQ(test, wrong, 0);
	KUNIT_EXPECT_EQ(test, c->rp.nmissed, missed);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), first + second - missed);
	kunit_info(test, "first burst of %d: %d missed\n", first, missed);
}

/*
 * With maxactive set, the pool holds that many and no more: the calls
 * beyond it are missed, and counted.
 */
static void rp_maxactive_is_a_limit(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_sleep_fn");
	int started, wrong;

	c->rp.maxactive = 3;
	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	started = rp_sleepers_run(test, c, 8, false, &wrong);
	KUNIT_EXPECT_EQ(test, started, 8);
	KUNIT_EXPECT_EQ(test, wrong, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->entries), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), 3);
	KUNIT_EXPECT_EQ(test, c->rp.nmissed, 5);
}

static int count_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	atomic_inc(&rp_ctx_of(ri)->returns);
	return 0;
}

/*
 * Misses counted on two CPUs at once are all counted: with one instance,
 * every call of two CPUs calling at full speed either returns through
 * the handler or is missed, and the two add up to the calls.
 */
static void rp_misses_counted_exactly(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_target_fn");
	struct kpt_hammer h = { .call = kpt_target };
	unsigned long end;
	int calls = 0;

	c->rp.maxactive = 1;
	c->rp.entry_handler = NULL;
	c->rp.handler = count_return;
	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	if (!kpt_hammer_start(test, &h))
		return;
	end = jiffies + 2 * HZ;
	while (time_before(jiffies, end))
		kpt_target(calls++);
	kpt_hammer_stop(&h);
	calls += atomic_read(&h.calls);
	unregister_kretprobe(&c->rp);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns) + c->rp.nmissed, calls);
	kunit_info(test, "%d calls, %d missed\n", calls, c->rp.nmissed);
}

static void rp_unregister_in_flight(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_sleep_fn");
	struct completion *done = kunit_kzalloc(test, sizeof(*done), GFP_KERNEL);
	struct sleeper *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct task_struct *t;
	int i;

	KUNIT_ASSERT_TRUE(test, done && s);
	init_completion(done);
	s->done = done;
	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	t = kthread_run(sleeper_fn, s, "kpt_inflight");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	for (i = 0; i < 500 && !atomic_read(&c->entries); i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->entries), 1);

	/* The probe goes while the call sleeps; the call must still return. */
	unregister_kretprobe(&c->rp);
	complete_all(done);
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, s->ret, 7);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), 0);
}

static int exiter_fn(void *data)
{
	return kpt_exit(data);
}

/* Run a kthread that dies inside kpt_exit_fn(), and wait until it is freed. */
static void run_exiter(struct kunit *test, struct completion *started)
{
	struct task_struct *t;
	int i;

	reinit_completion(started);
	t = kthread_create(exiter_fn, started, "kpt_exiter");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	wake_up_process(t);
	wait_for_completion(started);
	/*
	 * kprobe_flush_task() runs from the task's RCU-delayed release,
	 * just before that drops its reference: wait until ours is the
	 * last one (bounded, in case someone else holds one too).
	 */
	for (i = 0; i < 500 && refcount_read(&t->usage) > 1; i++) {
		rcu_barrier();
		usleep_range(10000, 20000);
	}
	put_task_struct(t);
}

static void rp_task_exits_mid_call(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_exit_fn");
	struct completion *started = kunit_kzalloc(test, sizeof(*started),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, started);
	init_completion(started);
	c->rp.maxactive = 1;
	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);

	run_exiter(test, started);
	/* One instance only: the second call is hooked iff the first came back. */
	run_exiter(test, started);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->entries), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), 0);
	KUNIT_EXPECT_EQ(test, c->rp.nmissed, 0);
}

static void rp_batches(struct kunit *test)
{
	struct rp_ctx *a = new_rp(test, "kpt_target_fn");
	struct rp_ctx *b = new_rp(test, "kpt_other_fn");
	struct rp_ctx *bad = new_rp(test, "kpt_no_such_function");
	struct kretprobe *rps[] = { &a->rp, &b->rp, &bad->rp };

	/* All or none: the third does not resolve. */
	KUNIT_EXPECT_EQ(test, register_kretprobes(rps, 3), -ENOENT);
	KUNIT_EXPECT_NULL(test, a->rp.pool);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, kpt_other(1), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->returns), 0);
	KUNIT_EXPECT_EQ(test, register_kretprobes(rps, 0), -EINVAL);

	a->rp.kp.addr = NULL;
	b->rp.kp.addr = NULL;
	KUNIT_ASSERT_EQ(test, register_kretprobes(rps, 2), 0);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, kpt_other(1), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->returns), 1);
	KUNIT_EXPECT_EQ(test, b->last_ret, 3L);
	unregister_kretprobes(rps, 2);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 1);
}

/* A probe twice in a batch, or one already registered: none registered. */
static void rp_batch_duplicates(struct kunit *test)
{
	struct rp_ctx *a = new_rp(test, "kpt_target_fn");
	struct rp_ctx *b = new_rp(test, "kpt_other_fn");
	struct kretprobe *twice[] = { &a->rp, &b->rp, &a->rp };
	struct kretprobe *again[] = { &b->rp, &a->rp };

	KUNIT_EXPECT_EQ(test, register_kretprobes(twice, 3), -EINVAL);
	KUNIT_EXPECT_NULL(test, a->rp.pool);
	KUNIT_EXPECT_NULL(test, b->rp.pool);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, kpt_other(1), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->returns), 0);

	/* @a alone, then a batch that names it again. */
	KUNIT_ASSERT_EQ(test, rp_register(test, a), 0);
	KUNIT_EXPECT_EQ(test, register_kretprobes(again, 2), -EINVAL);
	KUNIT_EXPECT_NULL(test, b->rp.pool);
	KUNIT_EXPECT_EQ(test, kpt_other(1), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->returns), 0);
	/* @a was left alone, and still works. */
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 1);
	unregister_kretprobe(&a->rp);
	KUNIT_EXPECT_NULL(test, a->rp.pool);
}

/* One stack trace, taken by the handlers of the stack-trace cases. */
#define ST_MAX	32
static unsigned long st_entries[ST_MAX];
static unsigned int st_nr;

static void st_take(void)
{
	st_nr = stack_trace_save(st_entries, ST_MAX, 0);
}

static int st_rp_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	st_take();
	return 0;
}

static int st_kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	st_take();
	return 0;
}

/* Does the trace name @fn (as "fn" or "fn [module]")? */
static bool st_has(const char *fn)
{
	char buf[KSYM_SYMBOL_LEN];
	size_t len = strlen(fn);
	unsigned int i;

	for (i = 0; i < st_nr; i++) {
		snprintf(buf, sizeof(buf), "%ps", (void *)st_entries[i]);
		if (!strncmp(buf, fn, len) && (!buf[len] || buf[len] == ' '))
			return true;
	}
	return false;
}

static bool st_has_trampoline(void)
{
	unsigned int i;

	for (i = 0; i < st_nr; i++) {
		if (is_kretprobe_trampoline(st_entries[i]))
			return true;
	}
	return false;
}

/* kpt_stack_caller_fn -> kpt_stack_outer_fn (return-probed) -> ... */
static void rp_stacktrace_in_handler(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_stack_outer_fn");

	c->rp.handler = st_rp_handler;
	c->rp.entry_handler = NULL;
	st_nr = 0;
	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	KUNIT_EXPECT_EQ(test, kpt_stack_caller(3), 8);
	KUNIT_ASSERT_GT(test, st_nr, 0U);
	/* The handler was called on behalf of the real return address. */
	KUNIT_EXPECT_TRUE(test, st_has("kpt_stack_caller_fn"));
	KUNIT_EXPECT_TRUE(test, st_has("rp_stacktrace_in_handler"));
	KUNIT_EXPECT_FALSE(test, st_has_trampoline());
}

/* ... and a trace taken in kpt_inner, below the hooked frame. */
static void rp_stacktrace_below_hooked_frame(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_stack_outer_fn");
	struct kprobe *kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, kp);
	kp->symbol_name = "kpt_inner_fn";
	kp->pre_handler = st_kp_pre;
	st_nr = 0;
	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	KUNIT_ASSERT_EQ(test, kpt_register(test, kp), 0);
	KUNIT_EXPECT_EQ(test, kpt_stack_caller(3), 8);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), 1);
	KUNIT_ASSERT_GT(test, st_nr, 0U);
	/*
	 * The probe is on kpt_inner_fn's first instruction, before its
	 * prologue: an unwinder that follows frame pointers goes from there
	 * to the frame of its caller's caller.  ORC sees the caller too.
	 */
	if (IS_ENABLED(CONFIG_UNWINDER_ORC))
		KUNIT_EXPECT_TRUE(test, st_has("kpt_stack_outer_fn"));
	KUNIT_EXPECT_TRUE(test, st_has("kpt_stack_caller_fn"));
	KUNIT_EXPECT_TRUE(test, st_has("rp_stacktrace_below_hooked_frame"));
	KUNIT_EXPECT_FALSE(test, st_has_trampoline());
}

/*
 * A tail call between two return-probed functions, in assembly in the
 * arch's targets file (flags_targets_x86_*.S, insn_targets_<arch>.S):
 * kpt_tail_caller calls kpt_tail_outer, whose last act is a jump to
 * kpt_tail_inner; kpt_tail_inner then returns straight to
 * kpt_tail_caller + kpt_tail_ret_off.  Its entry probe finds the
 * trampoline's address where the return address was: the outer probe's
 * hook.  Both returns are one return, at the real return address.
 */
static long (*kpt_tail)(long x) = kpt_tail_caller;

struct tail_ctx {
	struct kretprobe rp;
	atomic_t *seq;
	int returns;
	int order;
	int chain_len;
	unsigned long ip;
	unsigned long found[2];
};

static int tail_chain_len(void)
{
	struct llist_node *node;
	int n = 0;

	llist_for_each(node, current->kretprobe_instances.first)
		n++;
	return n;
}

static int tail_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct tail_ctx *c = container_of(get_kretprobe(ri), struct tail_ctx,
					  rp);

	c->returns++;
	c->order = atomic_inc_return(c->seq);
	c->chain_len = tail_chain_len();
	c->ip = instruction_pointer(regs);
	return 0;
}

/*
 * The inner handler also asks what an unwinder would, twice with one
 * cursor: the frame's return address, then nothing more for that frame.
 */
static int tail_inner_return(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct tail_ctx *c = container_of(get_kretprobe(ri), struct tail_ctx,
					  rp);
	struct llist_node *cur = NULL;
	int i;

	st_take();
	for (i = 0; i < ARRAY_SIZE(c->found); i++)
		c->found[i] = kretprobe_find_ret_addr(current,
						      (void *)ri->frame, &cur);
	return tail_return(ri, regs);
}

static int tail_register(struct kunit *test, struct tail_ctx *c)
{
	int ret = register_kretprobe(&c->rp);

	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, rp_unregister_action, &c->rp);
}

static struct tail_ctx *new_tail(struct kunit *test, void *fn, atomic_t *seq)
{
	struct tail_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->rp.kp.addr = fn;
	c->rp.handler = tail_return;
	c->seq = seq;
	return c;
}

static void rp_tail_call(struct kunit *test)
{
	atomic_t *seq = kunit_kzalloc(test, sizeof(*seq), GFP_KERNEL);
	struct tail_ctx *outer, *inner;
	unsigned long ret_addr;

	KUNIT_ASSERT_NOT_NULL(test, seq);
	outer = new_tail(test, kpt_tail_outer, seq);
	inner = new_tail(test, kpt_tail_inner, seq);
	inner->rp.handler = tail_inner_return;
	ret_addr = (unsigned long)kpt_tail_caller + kpt_tail_ret_off;
	KUNIT_ASSERT_EQ(test, tail_register(test, outer), 0);
	KUNIT_ASSERT_EQ(test, tail_register(test, inner), 0);
	st_nr = 0;

	KUNIT_EXPECT_EQ(test, kpt_tail(4), 7L);
	KUNIT_EXPECT_EQ(test, outer->returns, 1);
	KUNIT_EXPECT_EQ(test, inner->returns, 1);
	/* Each handler sees where the call really returns to. */
	KUNIT_EXPECT_EQ(test, inner->ip, ret_addr);
	KUNIT_EXPECT_EQ(test, outer->ip, ret_addr);
	/*
	 * One pass of the trampoline, innermost first: when the outer
	 * handler runs, the inner instance has not gone home yet.
	 */
	KUNIT_EXPECT_EQ(test, inner->order, 1);
	KUNIT_EXPECT_EQ(test, outer->order, 2);
	KUNIT_EXPECT_EQ(test, inner->chain_len, 2);
	KUNIT_EXPECT_EQ(test, outer->chain_len, 2);
	KUNIT_EXPECT_EQ(test, tail_chain_len(), 0);
	/* So does an unwinder, once, and a trace from the inner handler. */
	KUNIT_EXPECT_EQ(test, inner->found[0], ret_addr);
	KUNIT_EXPECT_EQ(test, inner->found[1], 0UL);
	KUNIT_ASSERT_GT(test, st_nr, 0U);
	KUNIT_EXPECT_TRUE(test, st_has("kpt_tail_caller"));
	KUNIT_EXPECT_TRUE(test, st_has("rp_tail_call"));
	KUNIT_EXPECT_FALSE(test, st_has_trampoline());
	KUNIT_EXPECT_EQ(test, outer->rp.nmissed, 0);
	KUNIT_EXPECT_EQ(test, inner->rp.nmissed, 0);
}

/*
 * Stack traces of tasks inside hooked calls, taken over and over from
 * another thread while the probe goes and the calls return: the last
 * return frees the pool, maybe while the unwinder reads its instances.
 * KASAN (the debug kernel of make test) reports a read of freed memory.
 */
#define NR_UNWOUND	8

struct unwinder {
	struct task_struct **tasks;
	atomic_t traces;
};

static int unwinder_fn(void *data)
{
	struct unwinder *u = data;
	unsigned long entries[16];
	int i;

	while (!kthread_should_stop()) {
		for (i = 0; i < NR_UNWOUND; i++) {
			if (!u->tasks[i])
				continue;
			stack_trace_save_tsk(u->tasks[i], entries,
					     ARRAY_SIZE(entries), 0);
			atomic_inc(&u->traces);
		}
		cond_resched();
	}
	return 0;
}

static void put_task_action(void *t)
{
	put_task_struct(t);
}

static bool sleepers_returned(struct sleeper *s, struct task_struct **t)
{
	int i;

	for (i = 0; i < NR_UNWOUND; i++) {
		if (t[i] && READ_ONCE(s[i].ret) != 7)
			return false;
	}
	return true;
}

static void rp_unwind_while_freed(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_sleep_fn");
	struct kretprobe_instance *ri;
	struct llist_node *cur = NULL;
	struct task_struct **t, *uw;
	struct completion *done;
	unsigned long frame;
	struct unwinder *u;
	struct sleeper *s;
	int i;

	t = kunit_kcalloc(test, NR_UNWOUND, sizeof(*t), GFP_KERNEL);
	s = kunit_kcalloc(test, NR_UNWOUND, sizeof(*s), GFP_KERNEL);
	u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	done = kunit_kzalloc(test, sizeof(*done), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, t && s && u && done);
	init_completion(done);
	u->tasks = t;

	/* 1. Tasks asleep inside the hooked function. */
	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	for (i = 0; i < NR_UNWOUND; i++) {
		s[i].done = done;
		t[i] = kthread_run(sleeper_fn, &s[i], "kpt_unwound/%d", i);
		if (IS_ERR(t[i]))
			t[i] = NULL;
	}
	KUNIT_ASSERT_NOT_NULL(test, t[0]);
	/* Step 5 asks about it after kthread_stop(). */
	get_task_struct(t[0]);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, put_task_action,
							t[0]), 0);
	for (i = 0; i < 500 && atomic_read(&c->entries) < NR_UNWOUND; i++)
		msleep(20);
	KUNIT_ASSERT_EQ(test, atomic_read(&c->entries), NR_UNWOUND);
	msleep(20);

	/* 2. A trace of one of them goes through to its caller. */
	st_nr = stack_trace_save_tsk(t[0], st_entries, ST_MAX, 0);
	KUNIT_EXPECT_TRUE(test, st_has("sleeper_fn"));
	KUNIT_EXPECT_FALSE(test, st_has_trampoline());
	/* An unwinder's cursor, kept across the return (step 5). */
	ri = llist_entry(READ_ONCE(t[0]->kretprobe_instances.first),
			 struct kretprobe_instance, llist);
	KUNIT_ASSERT_NOT_NULL(test, ri);
	frame = ri->frame;
	KUNIT_EXPECT_EQ(test, kretprobe_find_ret_addr(t[0], (void *)frame,
						      &cur),
			get_kretprobe_retaddr(ri));
	KUNIT_EXPECT_PTR_EQ(test, cur, &ri->llist);

	/* 3. Unwind them over and over; the probe goes, the calls return. */
	uw = kthread_run(unwinder_fn, u, "kpt_unwinder");
	KUNIT_ASSERT_FALSE(test, IS_ERR(uw));
	unregister_kretprobe(&c->rp);
	complete_all(done);
	for (i = 0; i < 500 && !sleepers_returned(s, t); i++)
		usleep_range(1000, 2000);

	/* 4. Unwind on while the pool is freed (a grace period, a work). */
	rcu_barrier();
	msleep(20);
	kthread_stop(uw);
	for (i = 0; i < NR_UNWOUND; i++) {
		if (t[i])
			kthread_stop(t[i]);
		KUNIT_EXPECT_EQ(test, s[i].ret, t[i] ? 7 : 0);
	}
	KUNIT_EXPECT_GT(test, atomic_read(&u->traces), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), 0);

	/* 5. The stale cursor is never read: the chain is empty now. */
	KUNIT_EXPECT_EQ(test, kretprobe_find_ret_addr(t[0], (void *)frame,
						      &cur), 0UL);
}

/*
 * The last return of an unregistered probe's instances frees its pool
 * only after a grace period: an unwinder reading the instances under
 * rcu_read_lock() on another CPU (kretprobe_find_ret_addr()) keeps them
 * allocated.  Here the test is that reader: the hooked call returns on
 * another CPU while it holds the read lock, and the pool must not be
 * freed before it lets go.  Freed at once, as it once was, it is gone
 * within the read section.
 */
/* Has @pool been freed since the count of freed pools was @before? */
static bool rp_pool_freed_since(const void *pool, unsigned long before)
{
	unsigned long count;

	return kretprobe_pool_last_freed(&count) == pool && count != before;
}

static void rp_pool_outlives_readers(struct kunit *test)
{
	struct rp_ctx *c = new_rp(test, "kpt_sleep_fn");
	unsigned long deadline, before;
	struct completion *done;
	struct task_struct *t;
	struct sleeper *s;
	bool early = false;
	const void *pool;
	int cpu, i;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	done = kunit_kzalloc(test, sizeof(*done), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, s && done);
	init_completion(done);
	s->done = done;

	/* 1. A task asleep in the hooked call, on another CPU than ours. */
	if (num_online_cpus() < 2)
		kunit_skip(test, "one CPU online");
	/* One tier: its freeing is the pool's. */
	c->rp.maxactive = 4;
	KUNIT_ASSERT_EQ(test, rp_register(test, c), 0);
	pool = c->rp.pool;
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	t = kthread_create(sleeper_fn, s, "kpt_reader_race");
	if (IS_ERR(t)) {
		migrate_enable();
		KUNIT_FAIL(test, "kthread_create: %ld", PTR_ERR(t));
		return;
	}
	kthread_bind(t, cpu);
	wake_up_process(t);
	for (i = 0; i < 500 && !atomic_read(&c->entries); i++)
		msleep(20);

	/* 2. The probe goes; its instance in flight keeps the pool. */
	unregister_kretprobe(&c->rp);
	kretprobe_pool_last_freed(&before);

	/* 3. As a reader: let the call return, wait for its pool's end. */
	rcu_read_lock();
	complete(done);
	deadline = jiffies + msecs_to_jiffies(200);
	while (time_before(jiffies, deadline) && !early) {
		early = rp_pool_freed_since(pool, before);
		cpu_relax();
	}
	rcu_read_unlock();
	migrate_enable();
	KUNIT_EXPECT_EQ(test, atomic_read(&c->entries), 1);
	KUNIT_EXPECT_FALSE(test, early);

	/* 4. Once the reader is done, the call is back and the pool goes. */
	for (i = 0; i < 50 && !rp_pool_freed_since(pool, before); i++) {
		rcu_barrier();
		msleep(20);
	}
	KUNIT_EXPECT_TRUE(test, rp_pool_freed_since(pool, before));
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->ret), 7);
	kthread_stop(t);
}

static struct kunit_case kretprobe_cases[] = {
	KUNIT_CASE(rp_handler_sees_return),
	KUNIT_CASE(rp_entry_handler_skips),
	KUNIT_CASE(rp_instance_data),
	KUNIT_CASE(rp_bad_requests),
	KUNIT_CASE(rp_maxactive_recursion),
	KUNIT_CASE_SLOW(rp_sleepers_not_missed),
	KUNIT_CASE_SLOW(rp_burst_of_sleepers),
	KUNIT_CASE(rp_maxactive_is_a_limit),
	KUNIT_CASE_SLOW(rp_misses_counted_exactly),
	KUNIT_CASE(rp_unregister_in_flight),
	KUNIT_CASE(rp_task_exits_mid_call),
	KUNIT_CASE(rp_batches),
	KUNIT_CASE(rp_batch_duplicates),
	KUNIT_CASE(rp_stacktrace_in_handler),
	KUNIT_CASE(rp_stacktrace_below_hooked_frame),
	KUNIT_CASE(rp_tail_call),
	KUNIT_CASE(rp_unwind_while_freed),
	KUNIT_CASE(rp_pool_outlives_readers),
	{}
};

static struct kunit_suite kretprobe_suite = {
	.name = "kprobes_kretprobe",
	.test_cases = kretprobe_cases,
};

kunit_test_suite(kretprobe_suite);
