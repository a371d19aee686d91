// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: kernel watchpoint probes (register_kwatch()).  Watches fire on
 * every CPU, once per access of their type, with the accessing context's
 * registers, after a data access on x86 and before it on arm64 (which
 * then completes it once); bad requests are refused with an errno and
 * change nothing; the debug registers are shared with perf breakpoints;
 * CPUs that come online get the watch; unregistering under hits leaves
 * no handler running.
 * QEMU's TCG emulates the debug registers, so this runs there too.
 */
#include <kunit/test.h>
#include <linux/kwatch.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/fs.h>
#include <linux/sched/signal.h>

#include "tests.h"

#define KW_WRITES	3
/* The watched words: 32-bit x86 watches at most four bytes. */
#define KW_LEN		sizeof(long)
/* A length for an instruction watch that x86 and arm64 both take. */
#define KW_INSN_LEN	sizeof(long)
/* Enough perf breakpoints to take every data debug register there is. */
#define KW_PERF_MAX	16

static unsigned long kw_var __aligned(8);
static unsigned long kw_other[KWATCH_MAX + 1] __aligned(8);

static DEFINE_PER_CPU(unsigned int, kw_hits);
static DEFINE_PER_CPU(unsigned long, kw_seen);	/* kw_var, as its handler saw it */
static atomic_t kw_total;
static atomic_t kw_bad_ctx;		/* hits outside what the API says */
static struct kwatch *kw_last;

static void kw_count(struct kwatch *kw, struct pt_regs *regs)
{
	this_cpu_inc(kw_hits);
	if (kw->addr == (unsigned long)&kw_var)
		this_cpu_write(kw_seen, READ_ONCE(kw_var));
	if (user_mode(regs) || !irqs_disabled())
		atomic_inc(&kw_bad_ctx);
	WRITE_ONCE(kw_last, kw);
	atomic_inc(&kw_total);
}

static void kw_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		per_cpu(kw_hits, cpu) = 0;
		per_cpu(kw_seen, cpu) = 0;
	}
	atomic_set(&kw_total, 0);
	atomic_set(&kw_bad_ctx, 0);
	WRITE_ONCE(kw_last, NULL);
}

static int kw_init(struct kunit *test)
{
	kw_reset();
	return 0;
}

/* Whatever a failed case left registered goes. */
static void kw_exit(struct kunit *test)
{
	int i;

	for (i = 0; i < KWATCH_MAX; i++)
		unregister_kwatch(i);
}

/* A watch of @type on the word at @p, counted by kw_count(). */
static int kw_watch(unsigned long *p, u8 type)
{
	return register_kwatch((unsigned long)p, KW_LEN, type, kw_count);
}

/*
 * The accesses whose hits the cases count exactly, made with interrupts
 * off.  arm64 reports an access before it is made and then steps over it
 * with the watch off; an interrupt taken between the report and the step
 * ends the step early, the access runs with the watch on again and is
 * reported twice (perf's own breakpoints there do the same).  With
 * interrupts off the step is not cut short.
 */
static noinline void kw_write(unsigned long *p, unsigned long v)
{
	unsigned long flags;

	local_irq_save(flags);
	WRITE_ONCE(*p, v);
	local_irq_restore(flags);
}

static noinline void kw_write_byte(u8 *p, u8 v)
{
	unsigned long flags;

	local_irq_save(flags);
	WRITE_ONCE(*p, v);
	local_irq_restore(flags);
}

static noinline unsigned long kw_read(unsigned long *p)
{
	unsigned long flags, v;

	local_irq_save(flags);
	v = READ_ONCE(*p);
	local_irq_restore(flags);
	return v;
}

static noinline int kw_call_target(int i)
{
	unsigned long flags;
	int ret;

	local_irq_save(flags);
	ret = kpt_target(i);
	local_irq_restore(flags);
	return ret;
}

/*
 * What a write watch's handler finds in memory when a write of @new
 * replaces @old: x86 reports the write once it is done, arm64 before it
 * is made.
 */
static unsigned long kw_seen_for(unsigned long old, unsigned long new)
{
	return IS_ENABLED(CONFIG_X86) ? new : old;
}

/*
 * Run on one CPU: write kw_var, counting in *@data the writes whose
 * handler saw memory other than kw_seen_for() says.
 */
static noinline int kw_write_here(void *data)
{
	unsigned long base = (smp_processor_id() + 1) * 100;
	int *mistimed = data;
	unsigned long old;
	int i;

	for (i = 1; i <= KW_WRITES; i++) {
		old = READ_ONCE(kw_var);
		kw_write(&kw_var, base + i);
		if (this_cpu_read(kw_seen) != kw_seen_for(old, base + i))
			(*mistimed)++;
		/* The write happened, once the handler was done. */
		if (READ_ONCE(kw_var) != base + i)
			(*mistimed)++;
	}
	return 0;
}

static void kwatch_write_fires_on_every_cpu(struct kunit *test)
{
	int n, cpu, mistimed = 0, total;
	struct kwatch *kw;
	unsigned long v;

	n = kw_watch(&kw_var, KWATCH_WRITE);
	KUNIT_ASSERT_GE(test, n, 0);
	KUNIT_EXPECT_LT(test, n, KWATCH_MAX);

	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_EQ(test, smp_call_on_cpu(cpu, kw_write_here,
						      &mistimed, false), 0);
		KUNIT_EXPECT_EQ_MSG(test, per_cpu(kw_hits, cpu), KW_WRITES,
				    "CPU %d", cpu);
	}
	/* Each handler ran when the architecture says, and each write took. */
	KUNIT_EXPECT_EQ(test, mistimed, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_bad_ctx), 0);
	kw = READ_ONCE(kw_last);
	KUNIT_ASSERT_NOT_NULL(test, kw);
	KUNIT_EXPECT_EQ(test, kw->addr, (unsigned long)&kw_var);
	KUNIT_EXPECT_EQ(test, kw->length, KW_LEN);
	KUNIT_EXPECT_EQ(test, kw->type, KWATCH_WRITE);
	KUNIT_EXPECT_TRUE(test, kw->handler == kw_count);

	/* Reads do not fire a write watch. */
	total = atomic_read(&kw_total);
	v = READ_ONCE(kw_var);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), total);

	/* Gone: writes fire nothing, and the number is free again. */
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);
	kw_write(&kw_var, v + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), total);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), -EINVAL);
}

/* A read-write watch fires on reads too; a narrow one only on its bytes. */
static void kwatch_rw_and_lengths(struct kunit *test)
{
	u8 *bytes = (u8 *)&kw_other[0];
	int n, before;

	n = kw_watch(&kw_var, KWATCH_RW);
	KUNIT_ASSERT_GE(test, n, 0);
	kw_read(&kw_var);
	kw_read(&kw_var);
	kw_write(&kw_var, 5);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), 3);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);

	/* Two bytes at offset 2: touching bytes 0, 1, 4 does not fire. */
	n = register_kwatch((unsigned long)&bytes[2], 2, KWATCH_WRITE,
			    kw_count);
	KUNIT_ASSERT_GE(test, n, 0);
	before = atomic_read(&kw_total);
	kw_write_byte(&bytes[0], 1);
	kw_write_byte(&bytes[1], 1);
	kw_write_byte(&bytes[4], 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), before);
	kw_write_byte(&bytes[3], 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), before + 1);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);

	/* One byte. */
	n = register_kwatch((unsigned long)&bytes[7], 1, KWATCH_WRITE,
			    kw_count);
	KUNIT_ASSERT_GE(test, n, 0);
	kw_write_byte(&bytes[6], 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), before + 1);
	kw_write_byte(&bytes[7], 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), before + 2);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);
}

/* An execute watch fires before each execution; the function still works. */
static void kwatch_exec_fires_per_call(struct kunit *test)
{
	int n, i;

	n = register_kwatch((unsigned long)kpt_target, KW_INSN_LEN,
			    KWATCH_EXEC, kw_count);
	KUNIT_ASSERT_GE(test, n, 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, kw_call_target(i), i + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_bad_ctx), 0);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);
	KUNIT_EXPECT_EQ(test, kw_call_target(7), 8);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), 3);
}

static void kwatch_bad_requests(struct kunit *test)
{
	unsigned long var = (unsigned long)&kw_var;
	int i, n[KWATCH_MAX];

	KUNIT_EXPECT_EQ(test, register_kwatch(var, 8, KWATCH_WRITE, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, register_kwatch(var, 8, 0, kw_count), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kwatch(var, 8, 0x7f, kw_count),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, register_kwatch(var, 3, KWATCH_WRITE, kw_count),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, register_kwatch(var, 16, KWATCH_RW, kw_count),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, register_kwatch(var, 0, KWATCH_RW, kw_count),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, register_kwatch(var + 2, 4, KWATCH_WRITE,
					      kw_count), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kwatch(var + 1, 2, KWATCH_RW,
					      kw_count), -EINVAL);
	/* A user-space address, and NULL. */
	KUNIT_EXPECT_EQ(test, register_kwatch(0x10000, 8, KWATCH_WRITE,
					      kw_count), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kwatch(0, 1, KWATCH_WRITE, kw_count),
			-EINVAL);
	/*
	 * x86 wants sizeof(long) for an instruction; arm64 takes any length
	 * and watches the instruction's four bytes.
	 */
	n[0] = register_kwatch((unsigned long)kpt_target, 1, KWATCH_EXEC,
			       kw_count);
	if (IS_ENABLED(CONFIG_ARM64)) {
		KUNIT_EXPECT_GE(test, n[0], 0);
		KUNIT_EXPECT_EQ(test, unregister_kwatch(n[0]), 0);
	} else {
		KUNIT_EXPECT_EQ(test, n[0], -EINVAL);
	}
	/* 32-bit x86 cannot watch eight bytes: hw_breakpoint's errno. */
	if (IS_ENABLED(CONFIG_X86_32))
		KUNIT_EXPECT_EQ(test, register_kwatch(var, 8, KWATCH_WRITE,
						      kw_count), -EOPNOTSUPP);

	/* Numbers that are not watches. */
	KUNIT_EXPECT_EQ(test, unregister_kwatch(-1), -EINVAL);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(KWATCH_MAX), -EINVAL);
	for (i = 0; i < KWATCH_MAX; i++)
		KUNIT_EXPECT_EQ(test, unregister_kwatch(i), -EINVAL);

	/* None of that took a register: all four are still there. */
	for (i = 0; i < KWATCH_MAX; i++) {
		n[i] = kw_watch(&kw_other[i], KWATCH_WRITE);
		KUNIT_EXPECT_GE(test, n[i], 0);
	}
	for (i = 0; i < KWATCH_MAX; i++)
		KUNIT_EXPECT_EQ(test, unregister_kwatch(n[i]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), 0);
}

/* Four watches at most; a freed number is taken again. */
static void kwatch_fifth_is_busy(struct kunit *test)
{
	int i, n[KWATCH_MAX], again;

	for (i = 0; i < KWATCH_MAX; i++) {
		n[i] = kw_watch(&kw_other[i], KWATCH_WRITE);
		KUNIT_ASSERT_EQ(test, n[i], i);
	}
	KUNIT_EXPECT_EQ(test, kw_watch(&kw_var, KWATCH_WRITE), -EBUSY);
	for (i = 0; i < KWATCH_MAX; i++) {
		kw_write(&kw_other[i], i);
		KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), i + 1);
	}
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n[2]), 0);
	again = kw_watch(&kw_var, KWATCH_WRITE);
	KUNIT_EXPECT_EQ(test, again, n[2]);
	kw_write(&kw_var, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), KWATCH_MAX + 1);
	for (i = 0; i < KWATCH_MAX; i++)
		KUNIT_EXPECT_EQ(test, unregister_kwatch(i), 0);
}

static void kw_perf_hit(struct perf_event *bp, struct perf_sample_data *d,
			struct pt_regs *regs)
{
}

/* A perf breakpoint on kw_var on every CPU (nothing here writes it). */
static struct perf_event * __percpu *kw_perf_bp(void)
{
	struct perf_event_attr attr;

	hw_breakpoint_init(&attr);
	attr.bp_addr = (unsigned long)&kw_var;
	attr.bp_len = KW_LEN;
	attr.bp_type = HW_BREAKPOINT_W;
	return register_wide_hw_breakpoint(&attr, kw_perf_hit, NULL);
}

/*
 * Watches and perf breakpoints share the data debug registers (x86 has
 * four, an arm64 CPU from two to sixteen): with perf holding all but
 * three, three watches fit, a fourth gets hw_breakpoint's -ENOSPC, and
 * once perf lets one go the fourth fits.
 */
static void kwatch_shares_registers_with_perf(struct kunit *test)
{
	struct perf_event * __percpu *perf_bp[KW_PERF_MAX];
	int i, nperf, err, n[KWATCH_MAX];

	/* 1. Count the registers: take them all with perf breakpoints. */
	for (nperf = 0; nperf < KW_PERF_MAX; nperf++) {
		perf_bp[nperf] = kw_perf_bp();
		if (IS_ERR((void __force *)perf_bp[nperf]))
			break;
	}
	err = nperf < KW_PERF_MAX ? PTR_ERR((void __force *)perf_bp[nperf]) :
				    0;
	KUNIT_EXPECT_EQ(test, err, -ENOSPC);
	KUNIT_EXPECT_EQ(test, kw_watch(&kw_other[0], KWATCH_WRITE), -ENOSPC);
	if (err != -ENOSPC || nperf < KWATCH_MAX) {
		kunit_info(test, "%d data debug registers\n", nperf);
		while (nperf--)
			unregister_wide_hw_breakpoint(perf_bp[nperf]);
		if (err == -ENOSPC)
			kunit_skip(test, "fewer than %d registers", KWATCH_MAX);
		return;
	}

	/* 2. Free three of them: three watches fit, a fourth does not. */
	for (i = 0; i < KWATCH_MAX - 1; i++)
		unregister_wide_hw_breakpoint(perf_bp[--nperf]);
	for (i = 0; i < KWATCH_MAX - 1; i++) {
		n[i] = kw_watch(&kw_other[i], KWATCH_WRITE);
		KUNIT_EXPECT_GE(test, n[i], 0);
	}
	KUNIT_EXPECT_EQ(test, kw_watch(&kw_other[i], KWATCH_WRITE), -ENOSPC);

	/* 3. One more free register: the fourth watch fits. */
	unregister_wide_hw_breakpoint(perf_bp[--nperf]);
	n[i] = kw_watch(&kw_other[i], KWATCH_WRITE);
	KUNIT_EXPECT_GE(test, n[i], 0);
	for (i = 0; i < KWATCH_MAX; i++)
		KUNIT_EXPECT_EQ(test, unregister_kwatch(n[i]), 0);
	while (nperf--)
		unregister_wide_hw_breakpoint(perf_bp[nperf]);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), 0);
}

/*
 * A CPU that goes offline and comes back has the watch again, and so does
 * one that was offline when the watch was made.
 */
static void kwatch_follows_cpu_hotplug(struct kunit *test)
{
	int cpu = cpumask_last(cpu_online_mask), n, mistimed = 0;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU that can go offline");

	n = kw_watch(&kw_var, KWATCH_WRITE);
	KUNIT_ASSERT_GE(test, n, 0);
	KUNIT_ASSERT_EQ(test, remove_cpu(cpu), 0);
	KUNIT_EXPECT_EQ(test, add_cpu(cpu), 0);
	KUNIT_EXPECT_EQ(test, smp_call_on_cpu(cpu, kw_write_here,
					      &mistimed, false), 0);
	KUNIT_EXPECT_EQ(test, per_cpu(kw_hits, cpu), KW_WRITES);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);

	KUNIT_ASSERT_EQ(test, remove_cpu(cpu), 0);
	n = kw_watch(&kw_var, KWATCH_WRITE);
	KUNIT_EXPECT_GE(test, n, 0);
	KUNIT_EXPECT_EQ(test, add_cpu(cpu), 0);
	KUNIT_EXPECT_EQ(test, smp_call_on_cpu(cpu, kw_write_here,
					      &mistimed, false), 0);
	KUNIT_EXPECT_EQ(test, per_cpu(kw_hits, cpu), 2 * KW_WRITES);
	KUNIT_EXPECT_EQ(test, mistimed, 0);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);
}

/*
 * Move @cpu to hotplug state @target through its sysfs "target" file, as
 * an administrator with CONFIG_CPU_HOTPLUG_STATE_CONTROL would.  sysfs
 * asks for a restart while another hotplug operation holds its lock.
 */
static int kw_cpu_target(int cpu, int target)
{
	char path[64], val[16];
	struct file *f;
	ssize_t n = -ERESTARTNOINTR;
	loff_t pos;
	int tries;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/hotplug/target", cpu);
	f = filp_open(path, O_WRONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	snprintf(val, sizeof(val), "%d", target);
	for (tries = 0; tries < 100 && n == -ERESTARTNOINTR; tries++) {
		pos = 0;
		n = kernel_write(f, val, strlen(val), &pos);
		if (n == -ERESTARTNOINTR) {
			recalc_sigpending();
			msleep(20);
		}
	}
	filp_close(f, NULL);
	return n < 0 ? n : 0;
}

static void kw_cpu_fully_online(void *cpu)
{
	kw_cpu_target((long)cpu, CPUHP_ONLINE);
}

/*
 * A watch made while a CPU is parked between offline and online (in
 * cpu_online_mask, but below the state that arms watches) gets exactly
 * one breakpoint there when the CPU goes on, and none once it is gone:
 * each write there fires once, and none after unregistering.
 */
static void kwatch_cpu_parked_half_way(struct kunit *test)
{
	long cpu = cpumask_last(cpu_online_mask);
	int n, mistimed = 0, total, ret;

	if (!IS_ENABLED(CONFIG_CPU_HOTPLUG_STATE_CONTROL) ||
	    num_online_cpus() < 2)
		kunit_skip(test, "needs CPU_HOTPLUG_STATE_CONTROL and 2 CPUs");
	ret = kw_cpu_target(cpu, CPUHP_OFFLINE);
	if (ret == -ENOENT)
		kunit_skip(test, "sysfs is not mounted at /sys");
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							kw_cpu_fully_online,
							(void *)cpu), 0);
	KUNIT_ASSERT_EQ(test, kw_cpu_target(cpu, CPUHP_AP_WORKQUEUE_ONLINE),
			0);
	KUNIT_ASSERT_TRUE(test, cpu_online(cpu));

	n = kw_watch(&kw_var, KWATCH_WRITE);
	KUNIT_ASSERT_GE(test, n, 0);
	KUNIT_ASSERT_EQ(test, kw_cpu_target(cpu, CPUHP_ONLINE), 0);
	KUNIT_EXPECT_EQ(test, smp_call_on_cpu(cpu, kw_write_here,
					      &mistimed, false), 0);
	KUNIT_EXPECT_EQ(test, per_cpu(kw_hits, cpu), KW_WRITES);
	KUNIT_EXPECT_EQ(test, mistimed, 0);

	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);
	total = atomic_read(&kw_total);
	KUNIT_EXPECT_EQ(test, smp_call_on_cpu(cpu, kw_write_here,
					      &mistimed, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), total);
}

static int kw_writer(void *data)
{
	unsigned long i = 0;

	while (!kthread_should_stop()) {
		WRITE_ONCE(kw_var, i++);
		if (!(i & 63))
			cond_resched();
	}
	return 0;
}

/*
 * Threads on every CPU write the watched variable while the watch comes
 * and goes: once unregister_kwatch() returned, its handler never runs.
 */
static void kwatch_unregister_under_hits(struct kunit *test)
{
	struct task_struct **threads;
	int cpu, nthreads = 0, round, n, after;

	threads = kunit_kcalloc(test, nr_cpu_ids, sizeof(*threads), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, threads);
	for_each_online_cpu(cpu) {
		threads[nthreads] = kthread_run_on_cpu(kw_writer, NULL, cpu,
						       "kpt_kwatch/%u");
		if (IS_ERR(threads[nthreads]))
			break;
		nthreads++;
	}
	for (round = 0; round < 10; round++) {
		n = kw_watch(&kw_var, KWATCH_WRITE);
		KUNIT_EXPECT_GE(test, n, 0);
		msleep(20);
		KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);
		after = atomic_read(&kw_total);
		msleep(20);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&kw_total), after,
				    "round %d: a handler ran after unregister",
				    round);
	}
	while (nthreads--)
		kthread_stop(threads[nthreads]);
	kunit_info(test, "%d hits in 10 rounds\n", atomic_read(&kw_total));
	KUNIT_EXPECT_GT(test, atomic_read(&kw_total), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_bad_ctx), 0);
}

static struct kunit_case kwatch_cases[] = {
	KUNIT_CASE(kwatch_write_fires_on_every_cpu),
	KUNIT_CASE(kwatch_rw_and_lengths),
	KUNIT_CASE(kwatch_exec_fires_per_call),
	KUNIT_CASE(kwatch_bad_requests),
	KUNIT_CASE(kwatch_fifth_is_busy),
	KUNIT_CASE(kwatch_shares_registers_with_perf),
	KUNIT_CASE(kwatch_follows_cpu_hotplug),
	KUNIT_CASE(kwatch_cpu_parked_half_way),
	KUNIT_CASE_SLOW(kwatch_unregister_under_hits),
	{}
};

static struct kunit_suite kwatch_suite = {
	.name = "kprobes_kwatch",
	.init = kw_init,
	.exit = kw_exit,
	.test_cases = kwatch_cases,
};

kunit_test_suite(kwatch_suite);
