// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: probes registered, enabled, disabled and unregistered while
 * other CPUs keep running through them.  What is checked: nothing
 * crashes or splats, the target always returns the right value, and a
 * handler never runs on a probe that unregister_kprobe() already
 * returned for (its memory is poisoned right after, and kept until the
 * test ends).
 *
 * The kprobes_unregister suite makes the last point certain rather than
 * likely: a handler holds on while the probe is unregistered, in each
 * way a hit can run: breakpoint and return handler here, optimized jump
 * in test_opt.c, ftrace in test_ftrace_x86.c.  It also checks that the
 * wait covers a CPU going down, that an oops in a handler does not leave
 * its CPU in a hit for ever (the task is killed: the die notifier ends
 * the hit; tests.d/zz-oops-unregister.sh does it for real), and that the
 * wait leaves idle CPUs alone when no text changed.
 */
#include <kunit/test.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/jiffies.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/cpu.h>
#include <linux/completion.h>
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/uaccess.h>
#include <linux/ktime.h>

#include "tests.h"

#define STRESS_SECONDS		3	/* at least this long ... */
#define STRESS_MIN_ROUNDS	4	/* ... and at least this many rounds, */
#define STRESS_MAX_SECONDS	60	/* but never longer than this */
#define STRESS_PROBES		4
#define POISON_MAGIC		0x6b6b6b6bU

struct stress_ctx {
	atomic_t calls;
	atomic_t wrong;
	atomic_t hits;
	atomic_t dead_hits;
	bool stop;
};

struct stress_probe {
	struct kprobe kp;
	struct stress_ctx *ctx;
	u32 magic;
};

static int stress_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct stress_probe *sp = container_of(p, struct stress_probe, kp);

	if (READ_ONCE(sp->magic) == POISON_MAGIC)
		atomic_inc(&sp->ctx->dead_hits);
	else
		atomic_inc(&sp->ctx->hits);
	return 0;
}

static int stress_caller(void *data)
{
	struct stress_ctx *c = data;
	int i = 0;

	while (!READ_ONCE(c->stop)) {
		if (kpt_target(i) != i + 1 || kpt_other(i) != i + 2)
			atomic_inc(&c->wrong);
		atomic_inc(&c->calls);
		if (!(++i & 1023))
			cond_resched();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * One round on fresh probes, poisoned once unregistered and never reused
 * (the test frees them at its end), so that a handler running late for
 * any round finds the poison.  Return: false when allocation or
 * registration failed (no assertion: the threads still run).
 */
static bool stress_one_round(struct kunit *test, struct stress_ctx *c,
			     unsigned int round)
{
	struct kprobe *kps[STRESS_PROBES];
	struct stress_probe *sps;
	int i;

	sps = kunit_kcalloc(test, STRESS_PROBES, sizeof(*sps), GFP_KERNEL);
	if (!sps) {
		KUNIT_FAIL(test, "no memory in round %u", round);
		return false;
	}
	for (i = 0; i < STRESS_PROBES; i++) {
		sps[i].ctx = c;
		sps[i].kp.symbol_name = (i & 1) ? "kpt_other_fn" :
						  "kpt_target_fn";
		sps[i].kp.pre_handler = stress_pre;
		kps[i] = &sps[i].kp;
	}
	if (register_kprobes(kps, STRESS_PROBES)) {
		KUNIT_FAIL(test, "register_kprobes failed in round %u", round);
		return false;
	}
	if (round & 1) {
		disable_kprobe(kps[round % STRESS_PROBES]);
		enable_kprobe(kps[round % STRESS_PROBES]);
	}
	if (round & 2)
		unregister_kprobe(kps[0]);
	unregister_kprobes(kps, STRESS_PROBES);
	/* From here on a handler running for these probes is a bug. */
	for (i = 0; i < STRESS_PROBES; i++)
		WRITE_ONCE(sps[i].magic, POISON_MAGIC);
	return true;
}

static void stress_register_while_hitting(struct kunit *test)
{
	struct task_struct **threads;
	struct stress_ctx *c;
	unsigned long deadline, cap;
	unsigned int round = 0;
	int cpu, n = 0, i;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	threads = kunit_kcalloc(test, nr_cpu_ids, sizeof(*threads), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, threads);

	for_each_online_cpu(cpu) {
		threads[n] = kthread_run_on_cpu(stress_caller, c, cpu,
						"kpt_stress/%u");
		if (IS_ERR(threads[n])) {
			KUNIT_FAIL(test, "no thread for CPU %d", cpu);
			break;
		}
		n++;
	}

	deadline = jiffies + STRESS_SECONDS * HZ;
	cap = jiffies + STRESS_MAX_SECONDS * HZ;
	while (n && time_before(jiffies, cap) &&
	       (time_before(jiffies, deadline) || round < STRESS_MIN_ROUNDS)) {
		if (!stress_one_round(test, c, round++))
			break;
		/* Let late handlers, if there were any, show up. */
		usleep_range(50, 100);
		cond_resched();
	}

	WRITE_ONCE(c->stop, true);
	for (i = 0; i < n; i++)
		kthread_stop(threads[i]);

	kunit_info(test, "%u rounds, %d calls, %d hits on %d CPUs\n", round,
		   atomic_read(&c->calls), atomic_read(&c->hits), n);
	KUNIT_EXPECT_GE(test, round, STRESS_MIN_ROUNDS);
	KUNIT_EXPECT_GT(test, atomic_read(&c->calls), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&c->hits), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->wrong), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->dead_hits), 0);
}

/* How long the first handler holds on: far longer than unregistering. */
#define INFLIGHT_HOLD_MS	50
#define INFLIGHT_WAIT_SECONDS	20

/**
 * kpt_inflight_hold - the handler's part of kpt_expect_unregister_waits()
 * @f: the test's state
 */
void kpt_inflight_hold(struct kpt_inflight *f)
{
	if (READ_ONCE(f->returned))
		atomic_inc(&f->late);
	if (atomic_inc_return(&f->entered) != 1)
		return;
	mdelay(INFLIGHT_HOLD_MS);
	if (READ_ONCE(f->returned))
		atomic_inc(&f->late);
}

static int inflight_caller(void *data)
{
	struct kpt_inflight *f = data;
	int i = 0;

	while (!READ_ONCE(f->stop)) {
		f->call(i++);
		cond_resched();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/**
 * kpt_expect_unregister_waits - unregister while a handler holds on
 * @test: the test
 * @f: its state, zeroed but for @f->call; the probe on @f->call is
 *	registered and its handler calls kpt_inflight_hold(@f)
 * @unregister: unregisters @probe
 * @probe: the probe
 */
void kpt_expect_unregister_waits(struct kunit *test, struct kpt_inflight *f,
				 void (*unregister)(void *probe), void *probe)
{
	struct task_struct *t;
	unsigned long deadline;
	unsigned int cpu;

	/* The caller's CPU is another than ours, for the whole test. */
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, smp_processor_id());
	if (cpu >= nr_cpu_ids) {
		migrate_enable();
		unregister(probe);
		kunit_mark_skipped(test, "needs a second CPU");
		return;
	}
	t = kthread_run_on_cpu(inflight_caller, f, cpu, "kpt_inflight/%u");
	if (IS_ERR(t)) {
		migrate_enable();
		unregister(probe);
		KUNIT_FAIL(test, "no thread for CPU %u", cpu);
		return;
	}

	/* The first hit is on its way or holding on: unregister now. */
	deadline = jiffies + INFLIGHT_WAIT_SECONDS * HZ;
	while (!atomic_read(&f->entered) && time_before(jiffies, deadline))
		cond_resched();
	unregister(probe);
	WRITE_ONCE(f->returned, true);

	WRITE_ONCE(f->stop, true);
	kthread_stop(t);
	migrate_enable();
	KUNIT_EXPECT_GT(test, atomic_read(&f->entered), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->late), 0);
}

static int inflight_pre(struct kprobe *p, struct pt_regs *regs)
{
	kpt_inflight_hold(&container_of(p, struct kpt_inflight_kprobe, kp)->f);
	return 0;
}

static void inflight_unregister_kprobe(void *p)
{
	unregister_kprobe(p);
}

/**
 * kpt_inflight_kprobe - a kprobe for kpt_expect_kprobe_unregister_waits()
 * @test: the test, which owns the memory
 * @call: what the thread on the other CPU calls, through the probe
 *
 * Return: the probe, its pre handler set; the caller sets where it goes.
 */
struct kpt_inflight_kprobe *kpt_inflight_kprobe(struct kunit *test,
						int (*call)(int x))
{
	struct kpt_inflight_kprobe *k = kunit_kzalloc(test, sizeof(*k),
						      GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, k);
	k->f.call = call;
	k->kp.pre_handler = inflight_pre;
	return k;
}

/**
 * kpt_expect_kprobe_unregister_waits - the test for a registered kprobe
 * @test: the test
 * @k: the probe, from kpt_inflight_kprobe()
 */
void kpt_expect_kprobe_unregister_waits(struct kunit *test,
					struct kpt_inflight_kprobe *k)
{
	kpt_expect_unregister_waits(test, &k->f, inflight_unregister_kprobe,
				    &k->kp);
}

static int hammer_fn(void *data)
{
	struct kpt_hammer *h = data;
	int i = 0;

	while (!kthread_should_stop()) {
		h->call(i++);
		atomic_inc(&h->calls);
		cond_resched();
	}
	return 0;
}

/**
 * kpt_hammer_start - call a function in a loop on another CPU
 * @test: the test; skipped when only one CPU is online
 * @h: @h->call set, the rest zeroed
 *
 * The caller's task stays on its CPU until kpt_hammer_stop(), so that
 * the calls always come from elsewhere.
 *
 * Return: true when the thread runs; false when the test was skipped or
 * failed, after which the caller returns at once.
 */
bool kpt_hammer_start(struct kunit *test, struct kpt_hammer *h)
{
	unsigned int cpu;

	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, smp_processor_id());
	if (cpu >= nr_cpu_ids) {
		migrate_enable();
		kunit_mark_skipped(test, "needs a second CPU");
		return false;
	}
	h->task = kthread_run_on_cpu(hammer_fn, h, cpu, "kpt_hammer/%u");
	if (IS_ERR(h->task)) {
		migrate_enable();
		KUNIT_FAIL(test, "no thread for CPU %u", cpu);
		return false;
	}
	return true;
}

/**
 * kpt_hammer_wait - wait until the thread made some calls more
 * @h: a started hammer
 * @calls: how many more
 *
 * Return: true once it did, false after a few seconds without.
 */
bool kpt_hammer_wait(struct kpt_hammer *h, int calls)
{
	int target = atomic_read(&h->calls) + calls;
	unsigned long deadline = jiffies + INFLIGHT_WAIT_SECONDS * HZ;

	while (atomic_read(&h->calls) < target) {
		if (time_after(jiffies, deadline))
			return false;
		usleep_range(500, 1000);
	}
	return true;
}

/**
 * kpt_hammer_stop - stop what kpt_hammer_start() started
 * @h: a started hammer
 */
void kpt_hammer_stop(struct kpt_hammer *h)
{
	kthread_stop(h->task);
	migrate_enable();
}

static void inflight_post(struct kprobe *p, struct pt_regs *regs,
			  unsigned long flags)
{
}

/*
 * A breakpoint hit holds interrupts off: the text sync waits for it.  The
 * probe is new, so its first hits trap even where the site is optimized
 * later (a detour's hit is covered by the kprobes_opt suite), and the
 * post handler makes the copy come back to kprobes.
 */
static void unregister_waits_breakpoint(struct kunit *test)
{
	struct kpt_inflight_kprobe *k = kpt_inflight_kprobe(test, kpt_target);

	k->kp.symbol_name = "kpt_target_fn";
	k->kp.post_handler = inflight_post;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &k->kp), 0);
	kpt_expect_kprobe_unregister_waits(test, k);
}

#ifdef CONFIG_KRETPROBES
struct inflight_kretprobe {
	struct kretprobe rp;
	struct kpt_inflight f;
};

static int inflight_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);

	kpt_inflight_hold(&container_of(rp, struct inflight_kretprobe, rp)->f);
	return 0;
}

static void inflight_unregister_kretprobe(void *rp)
{
	unregister_kretprobe(rp);
}

/* A return handler runs from the trampoline, with interrupts on. */
static void unregister_waits_return(struct kunit *test)
{
	struct inflight_kretprobe *k = kunit_kzalloc(test, sizeof(*k),
						     GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, k);
	k->f.call = kpt_target;
	k->rp.kp.symbol_name = "kpt_target_fn";
	k->rp.handler = inflight_ret;
	k->rp.maxactive = 8;
	KUNIT_ASSERT_EQ(test, register_kretprobe(&k->rp), 0);
	kpt_expect_unregister_waits(test, &k->f, inflight_unregister_kretprobe,
				    &k->rp);
}
#else
static void unregister_waits_return(struct kunit *test)
{
	kunit_skip(test, "CONFIG_KRETPROBES is off");
}
#endif

/*
 * A CPU going down is out of cpu_online_mask while it still runs kernel
 * code, probes included: cpuhp_report_idle_dead() runs on it after that.
 * The wait for hits in flight must cover it.  The handler holds on there;
 * kprobe_hits_quiesce(), called meanwhile, must return only after it.
 */
struct hotplug_hold {
	struct kprobe kp;
	atomic_t entered;
	atomic_t left;
	unsigned int cpu;
	int down_ret;
};

static int hotplug_hold_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct hotplug_hold *h = container_of(p, struct hotplug_hold, kp);

	if (cpu_online(smp_processor_id()) ||
	    atomic_inc_return(&h->entered) != 1)
		return 0;
	mdelay(4 * INFLIGHT_HOLD_MS);
	atomic_set_release(&h->left, 1);
	return 0;
}

static int hotplug_hold_down(void *data)
{
	struct hotplug_hold *h = data;

	h->down_ret = remove_cpu(h->cpu);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static int hotplug_back(void *unused)
{
	return 0;
}

/*
 * Probe the function a CPU going down reports itself dead with.  powerpc
 * turns ftrace off on that CPU from __cpu_disable() on, so a probe on the
 * function's ftrace call would never fire there: it goes on the next
 * instruction instead (4 bytes on), as a breakpoint.
 */
static int hotplug_hold_register(struct kunit *test, struct hotplug_hold *h)
{
	unsigned long next;
	int ret;

	h->kp.symbol_name = "cpuhp_report_idle_dead";
	h->kp.pre_handler = hotplug_hold_pre;
	ret = register_kprobe(&h->kp);
	if (!ret && IS_ENABLED(CONFIG_PPC) && kprobe_ftrace(&h->kp)) {
		next = (unsigned long)h->kp.addr + 4;
		unregister_kprobe(&h->kp);
		memset(&h->kp, 0, sizeof(h->kp));
		h->kp.addr = (kprobe_opcode_t *)next;
		h->kp.pre_handler = hotplug_hold_pre;
		ret = register_kprobe(&h->kp);
	}
	return ret ?: kunit_add_action_or_reset(test, kpt_unregister_action,
						&h->kp);
}

static void quiesce_waits_for_cpu_going_down(struct kunit *test)
{
	struct hotplug_hold *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	unsigned long deadline;
	struct task_struct *t;
	int ret;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs CPU hotplug and a second CPU");
	KUNIT_ASSERT_NOT_NULL(test, h);
	h->cpu = cpumask_last(cpu_online_mask);
	ret = hotplug_hold_register(test, h);
	/* Its first instruction may be one the arch cannot probe (riscv). */
	if (ret)
		kunit_skip(test, "cpuhp_report_idle_dead() cannot be probed: %d",
			   ret);

	t = kthread_run(hotplug_hold_down, h, "kpt_cpu_down");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	deadline = jiffies + INFLIGHT_WAIT_SECONDS * HZ;
	while (!atomic_read(&h->entered) && time_before(jiffies, deadline))
		schedule_timeout_uninterruptible(1);

	/* The dying CPU holds on in the handler: the wait covers it. */
	kprobe_hits_quiesce();
	KUNIT_EXPECT_EQ(test, atomic_read(&h->entered), 1);
	KUNIT_EXPECT_EQ(test, atomic_read_acquire(&h->left), 1);

	kthread_stop(t);
	unregister_kprobe(&h->kp);
	KUNIT_EXPECT_EQ(test, h->down_ret, 0);
	if (h->down_ret)
		return;
	KUNIT_EXPECT_EQ(test, add_cpu(h->cpu), 0);
	/* Back at work: the next cases need it. */
	KUNIT_EXPECT_EQ(test, smp_call_on_cpu(h->cpu, hotplug_back, NULL,
					      false), 0);
}

static atomic_t counting_hits;

static int counting_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&counting_hits);
	return 0;
}

static void oops_forgets_the_cpus_hits(struct kunit *test)
{
	struct kprobe *kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	static struct kprobe marker;

	KUNIT_ASSERT_NOT_NULL(test, kp);
	preempt_disable();
	kprobe_running_begin(&marker);
	kprobe_oops_notify(NULL, DIE_OOPS + 1, NULL);
	KUNIT_EXPECT_PTR_EQ(test, kprobe_running(), &marker);
	kprobe_oops_notify(NULL, DIE_OOPS, NULL);
	KUNIT_EXPECT_NULL(test, kprobe_running());
	preempt_enable();

	/* Hits on the CPU run their handlers again. */
	kp->symbol_name = "kpt_target_fn";
	kp->pre_handler = counting_pre;
	atomic_set(&counting_hits, 0);
	KUNIT_ASSERT_EQ(test, kpt_register(test, kp), 0);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&counting_hits), 1);
	KUNIT_EXPECT_EQ(test, kp->nmissed, 0UL);
}

/*
 * Removing one of two probes at a site changes no text: no CPU needs a
 * text sync, and an idle CPU cannot be in a hit.  Unregistration must not
 * interrupt it every time (it did, with one IPI per online CPU per call).
 */
static int quiet_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static void unregister_leaves_idle_cpus_alone(struct kunit *test)
{
	struct kprobe *kp = kunit_kcalloc(test, 2, sizeof(*kp), GFP_KERNEL);
	unsigned long kicks;
	int i, rounds = 50;

	if (!IS_ENABLED(CONFIG_CONTEXT_TRACKING_IDLE) || num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU and RCU's idle tracking");
	KUNIT_ASSERT_NOT_NULL(test, kp);
	for (i = 0; i < 2; i++) {
		kp[i].symbol_name = "kpt_target_fn";
		kp[i].pre_handler = quiet_pre;
	}
	KUNIT_ASSERT_EQ(test, kpt_register(test, &kp[0]), 0);

	kicks = kprobe_quiesce_kick_count();
	for (i = 0; i < rounds; i++) {
		kpt_reset(&kp[1]);
		KUNIT_ASSERT_EQ(test, register_kprobe(&kp[1]), 0);
		unregister_kprobe(&kp[1]);
		/* Let the other CPUs go idle again. */
		schedule_timeout_uninterruptible(1);
	}
	kicks = kprobe_quiesce_kick_count() - kicks;
	kunit_info(test, "%lu CPUs interrupted in %d unregistrations\n",
		   kicks, rounds);
	KUNIT_EXPECT_LT(test, kicks, (unsigned long)rounds * 9 / 10);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
}

/*
 * Unregistration leaves the site's text for the unparker: until it runs,
 * a hit there calls no handler and computes what the function computes,
 * and a probe registered there again takes the site back.  Then the
 * original instruction is back.
 */
static int parked_hits;

static int parked_pre(struct kprobe *p, struct pt_regs *regs)
{
	parked_hits++;
	return 0;
}

static kprobe_opcode_t text_at(struct kunit *test, kprobe_opcode_t *addr)
{
	kprobe_opcode_t op;

	KUNIT_ASSERT_EQ(test, get_kernel_nofault(op, addr), 0);
	return op;
}

static void unregister_parks_then_restores_text(struct kunit *test)
{
	struct kprobe *kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	kprobe_opcode_t *addr, orig;
	u64 t0;

	KUNIT_ASSERT_NOT_NULL(test, kp);
	parked_hits = 0;
	kp->symbol_name = "kpt_notrace_fn";
	kp->pre_handler = parked_pre;

	/* 0. Where the probe goes, and what the text holds there. */
	KUNIT_ASSERT_EQ(test, register_kprobe(kp), 0);
	addr = kp->addr;
	unregister_kprobe(kp);
	kprobe_unpark_now();
	orig = text_at(test, addr);

	kpt_reset(kp);
	KUNIT_ASSERT_EQ(test, kpt_register(test, kp), 0);
	KUNIT_EXPECT_EQ(test, kpt_notrace(1), 4);
	KUNIT_EXPECT_EQ(test, parked_hits, 1);
	KUNIT_EXPECT_NE(test, text_at(test, addr), orig);

	/* 1. Unregistered: no handler runs, the text may still be ours. */
	t0 = ktime_get_ns();
	unregister_kprobe(kp);
	KUNIT_EXPECT_EQ(test, kpt_notrace(2), 5);
	KUNIT_EXPECT_EQ(test, parked_hits, 1);
	if (ktime_get_ns() - t0 < 50 * NSEC_PER_MSEC)
		KUNIT_EXPECT_NE(test, text_at(test, addr), orig);

	/* 2. Registered again at the parked site: it works as before. */
	kpt_reset(kp);
	KUNIT_ASSERT_EQ(test, register_kprobe(kp), 0);
	KUNIT_EXPECT_PTR_EQ(test, kp->addr, addr);
	KUNIT_EXPECT_EQ(test, kpt_notrace(3), 6);
	KUNIT_EXPECT_EQ(test, parked_hits, 2);
	unregister_kprobe(kp);

	/* 3. The unparker puts the instruction back. */
	kprobe_unpark_now();
	KUNIT_EXPECT_EQ(test, text_at(test, addr), orig);
	KUNIT_EXPECT_EQ(test, kpt_notrace(4), 7);
	KUNIT_EXPECT_EQ(test, parked_hits, 2);
}

static struct kunit_case unregister_cases[] = {
	KUNIT_CASE(unregister_waits_breakpoint),
	KUNIT_CASE(unregister_waits_return),
	KUNIT_CASE_SLOW(quiesce_waits_for_cpu_going_down),
	KUNIT_CASE(oops_forgets_the_cpus_hits),
	KUNIT_CASE(unregister_leaves_idle_cpus_alone),
	KUNIT_CASE(unregister_parks_then_restores_text),
	{}
};

static struct kunit_suite unregister_suite = {
	.name = "kprobes_unregister",
	.test_cases = unregister_cases,
};

static struct kunit_case stress_cases[] = {
	KUNIT_CASE_SLOW(stress_register_while_hitting),
	{}
};

static struct kunit_suite stress_suite = {
	.name = "kprobes_stress",
	.test_cases = stress_cases,
};

kunit_test_suites(&stress_suite, &unregister_suite);
