// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: kernel watchpoint probes (register_kwatch()).  Watches fire on
 * every CPU, once per access of their type, after a data access and with
 * the accessing context's registers; bad requests are refused with an
 * errno and change nothing; the four debug registers are shared with a
 * perf breakpoint; CPUs that come online get the watch; unregistering
 * under hits leaves no handler running.
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

static u64 kw_var __aligned(8);
static u64 kw_other[KWATCH_MAX + 1] __aligned(8);

static DEFINE_PER_CPU(unsigned int, kw_hits);
static DEFINE_PER_CPU(u64, kw_seen);		/* kw_var as the handler saw it */
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

/* Run on one CPU: write kw_var, checking the handler saw each value. */
static noinline int kw_write_here(void *data)
{
	unsigned long base = (smp_processor_id() + 1) * 100;
	int *late = data;
	int i;

	for (i = 1; i <= KW_WRITES; i++) {
		WRITE_ONCE(kw_var, base + i);
		if (this_cpu_read(kw_seen) != base + i)
			(*late)++;
	}
	return 0;
}

static void kwatch_write_fires_on_every_cpu(struct kunit *test)
{
	int n, cpu, late = 0, total;
	struct kwatch *kw;
	u64 v;

	n = register_kwatch((unsigned long)&kw_var, 8, KWATCH_WRITE, kw_count);
	KUNIT_ASSERT_GE(test, n, 0);
	KUNIT_EXPECT_LT(test, n, KWATCH_MAX);

	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_EQ(test, smp_call_on_cpu(cpu, kw_write_here, &late,
						      false), 0);
		KUNIT_EXPECT_EQ_MSG(test, per_cpu(kw_hits, cpu), KW_WRITES,
				    "CPU %d", cpu);
	}
	/* The handler ran after each write: it saw the new value. */
	KUNIT_EXPECT_EQ(test, late, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_bad_ctx), 0);
	kw = READ_ONCE(kw_last);
	KUNIT_ASSERT_NOT_NULL(test, kw);
	KUNIT_EXPECT_EQ(test, kw->addr, (unsigned long)&kw_var);
	KUNIT_EXPECT_EQ(test, kw->length, 8);
	KUNIT_EXPECT_EQ(test, kw->type, KWATCH_WRITE);
	KUNIT_EXPECT_TRUE(test, kw->handler == kw_count);

	/* Reads do not fire a write watch. */
	total = atomic_read(&kw_total);
	v = READ_ONCE(kw_var);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), total);

	/* Gone: writes fire nothing, and the number is free again. */
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);
	WRITE_ONCE(kw_var, v + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), total);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), -EINVAL);
}

/* A read-write watch fires on reads too; a narrow one only on its bytes. */
static void kwatch_rw_and_lengths(struct kunit *test)
{
	u8 *bytes = (u8 *)&kw_other[0];
	int n, before;

	n = register_kwatch((unsigned long)&kw_var, 8, KWATCH_RW, kw_count);
	KUNIT_ASSERT_GE(test, n, 0);
	preempt_disable();
	(void)READ_ONCE(kw_var);
	(void)READ_ONCE(kw_var);
	WRITE_ONCE(kw_var, 5);
	KUNIT_EXPECT_EQ(test, this_cpu_read(kw_hits), 3U);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);

	/* Two bytes at offset 2: touching bytes 0, 1, 4 does not fire. */
	n = register_kwatch((unsigned long)&bytes[2], 2, KWATCH_WRITE,
			    kw_count);
	KUNIT_ASSERT_GE(test, n, 0);
	before = atomic_read(&kw_total);
	WRITE_ONCE(bytes[0], 1);
	WRITE_ONCE(bytes[1], 1);
	WRITE_ONCE(bytes[4], 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), before);
	WRITE_ONCE(bytes[3], 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), before + 1);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);

	/* One byte. */
	n = register_kwatch((unsigned long)&bytes[7], 1, KWATCH_WRITE,
			    kw_count);
	KUNIT_ASSERT_GE(test, n, 0);
	WRITE_ONCE(bytes[6], 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), before + 1);
	WRITE_ONCE(bytes[7], 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), before + 2);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);
}

/* An execute watch fires before each execution; the function still works. */
static void kwatch_exec_fires_per_call(struct kunit *test)
{
	int n, i;

	n = register_kwatch((unsigned long)kpt_target, sizeof(long),
			    KWATCH_EXEC, kw_count);
	KUNIT_ASSERT_GE(test, n, 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, kpt_target(i), i + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_bad_ctx), 0);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);
	KUNIT_EXPECT_EQ(test, kpt_target(7), 8);
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
	/* x86 wants sizeof(long) for an instruction; hw_breakpoint says so. */
	KUNIT_EXPECT_EQ(test, register_kwatch((unsigned long)kpt_target, 1,
					      KWATCH_EXEC, kw_count), -EINVAL);

	/* Numbers that are not watches. */
	KUNIT_EXPECT_EQ(test, unregister_kwatch(-1), -EINVAL);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(KWATCH_MAX), -EINVAL);
	for (i = 0; i < KWATCH_MAX; i++)
		KUNIT_EXPECT_EQ(test, unregister_kwatch(i), -EINVAL);

	/* None of that took a register: all four are still there. */
	for (i = 0; i < KWATCH_MAX; i++) {
		n[i] = register_kwatch((unsigned long)&kw_other[i], 8,
				       KWATCH_WRITE, kw_count);
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
		n[i] = register_kwatch((unsigned long)&kw_other[i], 8,
				       KWATCH_WRITE, kw_count);
		KUNIT_ASSERT_EQ(test, n[i], i);
	}
	KUNIT_EXPECT_EQ(test, register_kwatch((unsigned long)&kw_var, 8,
					      KWATCH_WRITE, kw_count), -EBUSY);
	for (i = 0; i < KWATCH_MAX; i++) {
		WRITE_ONCE(kw_other[i], i);
		KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), i + 1);
	}
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n[2]), 0);
	again = register_kwatch((unsigned long)&kw_var, 8, KWATCH_WRITE,
				kw_count);
	KUNIT_EXPECT_EQ(test, again, n[2]);
	WRITE_ONCE(kw_var, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kw_total), KWATCH_MAX + 1);
	for (i = 0; i < KWATCH_MAX; i++)
		KUNIT_EXPECT_EQ(test, unregister_kwatch(i), 0);
}

static void kw_perf_hit(struct perf_event *bp, struct perf_sample_data *d,
			struct pt_regs *regs)
{
}

/*
 * A perf breakpoint holds one debug register on every CPU: three watches
 * fit beside it, a fourth gets hw_breakpoint's -ENOSPC, and once perf
 * lets go the fourth fits.
 */
static void kwatch_shares_registers_with_perf(struct kunit *test)
{
	struct perf_event * __percpu *perf_bp;
	struct perf_event_attr attr;
	int i, n[KWATCH_MAX];

	hw_breakpoint_init(&attr);
	attr.bp_addr = (unsigned long)&kw_var;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.bp_type = HW_BREAKPOINT_W;
	perf_bp = register_wide_hw_breakpoint(&attr, kw_perf_hit, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR((void __force *)perf_bp));

	for (i = 0; i < KWATCH_MAX - 1; i++) {
		n[i] = register_kwatch((unsigned long)&kw_other[i], 8,
				       KWATCH_WRITE, kw_count);
		KUNIT_EXPECT_GE(test, n[i], 0);
	}
	KUNIT_EXPECT_EQ(test, register_kwatch((unsigned long)&kw_other[i], 8,
					      KWATCH_WRITE, kw_count),
			-ENOSPC);
	unregister_wide_hw_breakpoint(perf_bp);
	n[i] = register_kwatch((unsigned long)&kw_other[i], 8, KWATCH_WRITE,
			       kw_count);
	KUNIT_EXPECT_GE(test, n[i], 0);
	for (i = 0; i < KWATCH_MAX; i++)
		KUNIT_EXPECT_EQ(test, unregister_kwatch(n[i]), 0);
}

/*
 * A CPU that goes offline and comes back has the watch again, and so does
 * one that was offline when the watch was made.
 */
static void kwatch_follows_cpu_hotplug(struct kunit *test)
{
	int cpu = cpumask_last(cpu_online_mask), n, late = 0;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU that can go offline");

	n = register_kwatch((unsigned long)&kw_var, 8, KWATCH_WRITE, kw_count);
	KUNIT_ASSERT_GE(test, n, 0);
	KUNIT_ASSERT_EQ(test, remove_cpu(cpu), 0);
	KUNIT_EXPECT_EQ(test, add_cpu(cpu), 0);
	KUNIT_EXPECT_EQ(test, smp_call_on_cpu(cpu, kw_write_here, &late,
					      false), 0);
	KUNIT_EXPECT_EQ(test, per_cpu(kw_hits, cpu), KW_WRITES);
	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);

	KUNIT_ASSERT_EQ(test, remove_cpu(cpu), 0);
	n = register_kwatch((unsigned long)&kw_var, 8, KWATCH_WRITE, kw_count);
	KUNIT_EXPECT_GE(test, n, 0);
	KUNIT_EXPECT_EQ(test, add_cpu(cpu), 0);
	KUNIT_EXPECT_EQ(test, smp_call_on_cpu(cpu, kw_write_here, &late,
					      false), 0);
	KUNIT_EXPECT_EQ(test, per_cpu(kw_hits, cpu), 2 * KW_WRITES);
	KUNIT_EXPECT_EQ(test, late, 0);
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
	int n, late = 0, total, ret;

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

	n = register_kwatch((unsigned long)&kw_var, 8, KWATCH_WRITE, kw_count);
	KUNIT_ASSERT_GE(test, n, 0);
	KUNIT_ASSERT_EQ(test, kw_cpu_target(cpu, CPUHP_ONLINE), 0);
	KUNIT_EXPECT_EQ(test, smp_call_on_cpu(cpu, kw_write_here, &late,
					      false), 0);
	KUNIT_EXPECT_EQ(test, per_cpu(kw_hits, cpu), KW_WRITES);
	KUNIT_EXPECT_EQ(test, late, 0);

	KUNIT_EXPECT_EQ(test, unregister_kwatch(n), 0);
	total = atomic_read(&kw_total);
	KUNIT_EXPECT_EQ(test, smp_call_on_cpu(cpu, kw_write_here, &late,
					      false), 0);
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
		n = register_kwatch((unsigned long)&kw_var, 8, KWATCH_WRITE,
				    kw_count);
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
