// SPDX-License-Identifier: GPL-2.0
/*
 * kprobes side-by-side benchmark.  Built out of tree against either kernel
 * (our rewrite or the stock one) and loaded once per boot by the
 * kpmode=bench guest init.  It measures, then prints "BENCH <key> <value>"
 * lines on the kernel log; the guest then unloads it.  With hold=1 it only
 * keeps the o-mode probe registered, so that the guest can see in
 * /sys/kernel/debug/kprobes/list whether it was optimized.
 *
 * Hit cost (ns per call of an assembly target called in a loop):
 *   none  no probe          k   pre+post handler on the 2nd instruction
 *   b     pre handler only  o   pre only, on a jump-optimizable site
 *   ko    pre+post handler on the o mode's site
 *   r     kretprobe         kr  kprobe on the entry + kretprobe
 *   none_oh  kpb_opt_fn plus a call of the o mode's pre handler (the
 *         "call + handler call" that an optimized hit is compared with)
 *   o_floor  a hand-written minimal detour around the same handler
 *         call (pt_regs saved and restored, nothing else; kpb_targets.S)
 *   b_floor  the bare INT3 round trip with the handler call, completed
 *         by a die notifier (kpb_trap_fn)
 *   r_floor  a bare return hook: an INT3 at the entry whose die notifier
 *         sends the return through a minimal trampoline that calls the
 *         handler with a struct pt_regs (kpb_rtrap_fn, kpb_rfloor_tramp)
 *   f_floor  an ftrace_ops of the benchmark's own on kpb_ftrace_fn that
 *         only calls the handler
 *   f     pre only, on the ftrace call at the entry of a traced C
 *         function (kpb_ftrace_fn; none_f is its unprobed cost).  Where
 *         the kernel cannot probe through ftrace the probe is a
 *         breakpoint: BENCH-INFO says which.
 * Sleepers (counts, not times): a kretprobe with the default maxactive (0)
 * on a function that sleeps, entered by sleepers= kthreads (64) all inside it
 * at once; reports how many returns the handler saw and rp.nmissed.
 * Nest (counts): hits from a hard interrupt during another probe's
 * handler on the same CPU; see kpb_nest.c.
 * Attach cost (ns of wall time): register / unregister 2000 and 10000
 * probes, batched (register_kprobes) and one by one.
 *
 * Only the public kprobes API is used.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/hardirq.h>
#include <linux/sched/clock.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/kernel_read_file.h>
#include <linux/kdebug.h>
#include <linux/ftrace.h>
#include <linux/vmalloc.h>
#include <linux/uaccess.h>
#include <asm/text-patching.h>

#include "kpb.h"

/* kpb_targets.S */
unsigned long kpb_oh_fn(unsigned long x);
unsigned long kpb_floor_fn(unsigned long x);
unsigned long kpb_trap_fn(unsigned long x);
unsigned long kpb_rtrap_fn(unsigned long x);
void kpb_rfloor_tramp(void);
extern const unsigned long kpb_trap_site, kpb_rtrap_site;
/* Where kpb_rfloor_tramp returns to (r_floor; one caller at a time). */
unsigned long kpb_rfloor_ret;
extern const unsigned long kpb_slots[];
extern const int kpb_slots_per_blk, kpb_nslotblk;
/* kpb_mfns.S */
extern const unsigned long kpb_mfns[];
extern const int kpb_nmfns;

static unsigned int reps = 3;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "timed repetitions per hit-cost mode (best is reported)");
static unsigned int target_ms = 250;
module_param(target_ms, uint, 0444);
MODULE_PARM_DESC(target_ms, "aim for this many ms per timed repetition");
static char *counts = "2000,10000";
module_param(counts, charp, 0444);
MODULE_PARM_DESC(counts, "comma-separated probe counts for the attach-cost runs");
static bool hold;
module_param(hold, bool, 0444);
MODULE_PARM_DESC(hold, "only register the o-mode probe and keep it until unload (the guest then reads the debugfs kprobes list)");
static char *skip = "";
module_param(skip, charp, 0444);
MODULE_PARM_DESC(skip, "comma-separated groups to skip: hit,sleepers,nest,attach,funcs,modfuncs");
static char *only = "";
module_param(only, charp, 0444);
MODULE_PARM_DESC(only, "comma-separated groups to run, nothing else (default: all): hit,sleepers,nest,attach,funcs,modfuncs");

static char *funcs = "";
module_param(funcs, charp, 0444);
MODULE_PARM_DESC(funcs, "comma-separated counts of function entries for the funcs group, largest last (each at most what funcs_file lists)");
static char *funcs_file = "/tmp/kpb_funcs";
module_param(funcs_file, charp, 0444);
MODULE_PARM_DESC(funcs_file, "names of the functions for the funcs group, one per line (the guest writes it)");
static unsigned int funcs_budget_s = 120;
module_param(funcs_budget_s, uint, 0444);
MODULE_PARM_DESC(funcs_budget_s, "a count that would take longer at the pace of the ones before (two: fitted as quadratic) is not run");

static unsigned int modfuncs = 2000;
module_param(modfuncs, uint, 0444);
MODULE_PARM_DESC(modfuncs, "probes on the entries of that many functions of this module for the modfuncs group (at most 2000; 0: none)");

static unsigned int sleepers = 64;
module_param(sleepers, uint, 0444);
MODULE_PARM_DESC(sleepers, "kthreads inside the return-probed function at once in the sleepers group (at most 8192)");

static char *spin = "";
module_param(spin, charp, 0444);
MODULE_PARM_DESC(spin, "k, b, o or f: register that mode's probe and call its target for spin_s seconds, nothing else (for scripts/hit-trace.sh)");
static unsigned int spin_s = 600;
module_param(spin_s, uint, 0444);
MODULE_PARM_DESC(spin_s, "how long spin= keeps calling");

static atomic_long_t kpb_hits;
static volatile unsigned long kpb_sink;

/* A traced function: its entry is a call to ftrace (compiled as a nop). */
static noinline __noclone unsigned long kpb_ftrace_fn(unsigned long x)
{
	barrier();
	return x + 1;
}

static int kpb_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_long_inc(&kpb_hits);
	return 0;
}

/* The handler the yardsticks of kpb_targets.S call, through this pointer. */
extern int (*const kpb_handler)(struct kprobe *p, struct pt_regs *regs);
int (*const kpb_handler)(struct kprobe *p, struct pt_regs *regs) = kpb_pre;

static void kpb_post(struct kprobe *p, struct pt_regs *regs,
		     unsigned long flags)
{
	atomic_long_inc(&kpb_hits);
}

static int kpb_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	atomic_long_inc(&kpb_hits);
	return 0;
}

static u64 kpb_loop(unsigned long (*fn)(unsigned long), unsigned long n)
{
	unsigned long i, acc = 0;
	u64 t0, t1;

	t0 = local_clock();
	for (i = 0; i < n; i++)
		acc += fn(i);
	t1 = local_clock();
	kpb_sink = acc;
	return t1 - t0;
}

/*
 * Grow the iteration count until one loop takes target_ms (this doubles as
 * the warm-up), then report the best per-call time of @reps loops, in
 * tenths of a nanosecond for a bit more resolution on the fast modes.
 */
static void kpb_hit_cost(const char *key, unsigned long (*fn)(unsigned long))
{
	u64 target = (u64)target_ms * NSEC_PER_MSEC, t, best = U64_MAX;
	unsigned long n = 256;
	long before = atomic_long_read(&kpb_hits);
	unsigned int r;

	for (;;) {
		t = kpb_loop(fn, n);
		if (t >= target / 2 || n >= (1UL << 30))
			break;
		n = t ? min_t(u64, div64_u64((u64)n * target, t) + 1, (u64)n * 16) : n * 16;
		cond_resched();
	}
	if (t)	/* aim at target_ms per timed loop */
		n = max_t(u64, div64_u64((u64)n * target, t), 1);
	for (r = 0; r < max(reps, 1U); r++) {
		t = kpb_loop(fn, n);
		if (t < best)
			best = t;
		cond_resched();
	}
	t = div64_u64(best * 10, n);
	pr_info("BENCH %s %llu.%llu\n", key, t / 10, t % 10);
	pr_info("BENCH-INFO %s n=%lu best_ms=%llu handler_hits=%ld\n", key, n,
		div64_u64(best, NSEC_PER_MSEC), atomic_long_read(&kpb_hits) - before);
}

/*
 * b_floor: the INT3 in kpb_trap_fn, which no kprobe owns, reaches the die
 * notifiers after the kprobes lookup; we call the handler and resume
 * after the INT3.  The bare trap round trip a breakpoint hit cannot beat.
 */
static int kpb_trap_notify(struct notifier_block *nb, unsigned long val,
			   void *data)
{
	struct die_args *args = data;
	unsigned long *ret_addr = (unsigned long *)args->regs->sp;

	if (val != DIE_INT3)
		return NOTIFY_DONE;
	if (args->regs->ip == kpb_trap_site + 1) {
		kpb_handler(NULL, args->regs);
		return NOTIFY_STOP;
	}
	/* r_floor: at the entry, so the return address is on the top. */
	if (args->regs->ip == kpb_rtrap_site + 1) {
		kpb_rfloor_ret = *ret_addr;
		*ret_addr = (unsigned long)kpb_rfloor_tramp;
		return NOTIFY_STOP;
	}
	return NOTIFY_DONE;
}

static struct notifier_block kpb_trap_nb = {
	.notifier_call = kpb_trap_notify,
};

/* f_floor: an ftrace_ops of our own that only calls the handler. */
static void kpb_ftrace_floor(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	kpb_handler(NULL, ftrace_get_regs(fregs));
}

static struct ftrace_ops kpb_floor_ops = {
	.func	= kpb_ftrace_floor,
	.flags	= FTRACE_OPS_FL_SAVE_REGS,
};

/* The yardsticks that run no kprobes code: b_floor, r_floor, f_floor. */
static void kpb_floors(void)
{
	int ret;

	ret = register_die_notifier(&kpb_trap_nb);
	if (ret) {
		pr_info("BENCH b_floor error %d\n", ret);
	} else {
		kpb_hit_cost("b_floor", kpb_trap_fn);
		kpb_hit_cost("r_floor", kpb_rtrap_fn);
		unregister_die_notifier(&kpb_trap_nb);
	}

	ret = ftrace_set_filter_ip(&kpb_floor_ops,
				   (unsigned long)kpb_ftrace_fn, 0, 0);
	if (!ret)
		ret = register_ftrace_function(&kpb_floor_ops);
	if (ret) {
		pr_info("BENCH f_floor error %d\n", ret);
		return;
	}
	kpb_hit_cost("f_floor", kpb_ftrace_fn);
	unregister_ftrace_function(&kpb_floor_ops);
	ftrace_free_filter(&kpb_floor_ops);
}

static void kpb_hit_modes(void)
{
	struct kprobe kp, kp2;
	struct kretprobe rp;
	int ret;

	kpb_hit_cost("none", kpb_hit_fn);

	memset(&kp, 0, sizeof(kp));
	kp.addr = (kprobe_opcode_t *)kpb_hit_site;
	kp.pre_handler = kpb_pre;
	kp.post_handler = kpb_post;
	ret = register_kprobe(&kp);
	if (ret) {
		pr_info("BENCH k error %d\n", ret);
	} else {
		kpb_hit_cost("k", kpb_hit_fn);
		unregister_kprobe(&kp);
	}

	memset(&kp, 0, sizeof(kp));
	kp.addr = (kprobe_opcode_t *)kpb_hit_site;
	kp.pre_handler = kpb_pre;
	ret = register_kprobe(&kp);
	if (ret) {
		pr_info("BENCH b error %d\n", ret);
	} else {
		kpb_hit_cost("b", kpb_hit_fn);
		unregister_kprobe(&kp);
	}

	kpb_hit_cost("none_o", kpb_opt_fn);
	kpb_hit_cost("none_oh", kpb_oh_fn);
	kpb_hit_cost("o_floor", kpb_floor_fn);
	memset(&kp, 0, sizeof(kp));
	kp.addr = (kprobe_opcode_t *)kpb_opt_site;
	kp.pre_handler = kpb_pre;
	ret = register_kprobe(&kp);
	if (ret) {
		pr_info("BENCH o error %d\n", ret);
	} else {
		msleep(200);	/* let a delayed optimizer run */
		kpb_hit_cost("o", kpb_opt_fn);
		unregister_kprobe(&kp);
	}
	/* The same site with a post handler too: the stock kernel traps. */
	memset(&kp, 0, sizeof(kp));
	kp.addr = (kprobe_opcode_t *)kpb_opt_site;
	kp.pre_handler = kpb_pre;
	kp.post_handler = kpb_post;
	ret = register_kprobe(&kp);
	if (ret) {
		pr_info("BENCH ko error %d\n", ret);
	} else {
		msleep(200);
		kpb_hit_cost("ko", kpb_opt_fn);
		unregister_kprobe(&kp);
	}

	memset(&rp, 0, sizeof(rp));
	rp.kp.addr = (kprobe_opcode_t *)kpb_hit_fn;
	rp.handler = kpb_ret;
	rp.maxactive = 4;
	ret = register_kretprobe(&rp);
	if (ret) {
		pr_info("BENCH r n/a\n");
		pr_info("BENCH kr n/a\n");
		pr_info("BENCH-INFO r register_kretprobe %d\n", ret);
		goto ftrace;
	}
	/*
	 * As in the o mode: a kernel that jump-optimizes the entry does so
	 * now.  Its optimizer waits for every task to have slept, this one
	 * too, which otherwise only happens by chance before the loop.
	 */
	msleep(200);
	kpb_hit_cost("r", kpb_hit_fn);

	memset(&kp2, 0, sizeof(kp2));
	kp2.addr = (kprobe_opcode_t *)kpb_hit_fn;
	kp2.pre_handler = kpb_pre;
	ret = register_kprobe(&kp2);
	if (ret) {
		pr_info("BENCH kr error %d\n", ret);
	} else {
		msleep(200);
		kpb_hit_cost("kr", kpb_hit_fn);
		unregister_kprobe(&kp2);
	}
	unregister_kretprobe(&rp);
ftrace:
	kpb_hit_cost("none_f", kpb_ftrace_fn);
	memset(&kp, 0, sizeof(kp));
	kp.symbol_name = "kpb_ftrace_fn";
	kp.pre_handler = kpb_pre;
	ret = register_kprobe(&kp);
	if (ret) {
		pr_info("BENCH f error %d\n", ret);
		return;
	}
	pr_info("BENCH-INFO f ftrace-based=%d\n", kprobe_ftrace(&kp) ? 1 : 0);
	kpb_hit_cost("f", kpb_ftrace_fn);
	unregister_kprobe(&kp);
	kpb_floors();
}

/* ---- sleepers: one kretprobe, default maxactive, many tasks inside ---- */

#define KPB_SLEEPERS		min(sleepers, 8192U)
#define KPB_SLEEP_MS		200
#define KPB_SLEEP_TIMEOUT	(60 * HZ)	/* per wait; QEMU/TCG is slow */

static struct kpb_sleepers {
	struct kretprobe rp;
	int expected;			/* threads started */
	atomic_t arrived;		/* threads waiting at the start gate */
	atomic_t inside;		/* threads that entered kpb_sleep_fn */
	atomic_t finished;		/* threads that left it */
	atomic_t late;			/* inside-barrier waits that timed out */
	atomic_long_t returns;		/* return handler calls */
	struct completion all_arrived, go, all_inside, all_finished;
} kpb_sl;

static int kpb_sleep_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	atomic_long_inc(&kpb_sl.returns);
	return 0;
}

/*
 * The return-probed function.  Every caller waits here until all the
 * sleepers are inside, then sleeps KPB_SLEEP_MS more, so that all their
 * returns are pending at the same time.  noinline and __noclone: the calls
 * must go to the very function the kretprobe is on.
 */
static noinline __noclone int kpb_sleep_fn(struct kpb_sleepers *s)
{
	int in = atomic_inc_return(&s->inside);

	if (in == s->expected)
		complete_all(&s->all_inside);
	if (!wait_for_completion_timeout(&s->all_inside, KPB_SLEEP_TIMEOUT))
		atomic_inc(&s->late);
	msleep(KPB_SLEEP_MS);
	return in;
}

static int kpb_sleeper(void *data)
{
	struct kpb_sleepers *s = data;

	if (atomic_inc_return(&s->arrived) == s->expected)
		complete(&s->all_arrived);
	wait_for_completion(&s->go);
	kpb_sleep_fn(s);
	if (atomic_inc_return(&s->finished) == s->expected)
		complete(&s->all_finished);
	/* Stay until kthread_stop(), which then returns once we are gone. */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void kpb_sleepers_run(void)
{
	struct kpb_sleepers *s = &kpb_sl;
	struct task_struct **tasks;
	bool arrived, finished;
	u64 t0 = ktime_get_ns();
	int i, n, ret;

	memset(s, 0, sizeof(*s));
	init_completion(&s->all_arrived);
	init_completion(&s->go);
	init_completion(&s->all_inside);
	init_completion(&s->all_finished);
	s->rp.kp.addr = (kprobe_opcode_t *)kpb_sleep_fn;
	s->rp.handler = kpb_sleep_ret;
	/* s->rp.maxactive = 0: the kernel's default is what is measured */
	ret = register_kretprobe(&s->rp);
	if (ret) {
		pr_info("BENCH sleepers_returns error %d\n", ret);
		pr_info("BENCH sleepers_nmissed error %d\n", ret);
		return;
	}
	pr_info("BENCH-INFO sleepers registered, maxactive now %d (possible cpus %u)\n",
		s->rp.maxactive, num_possible_cpus());

	tasks = kcalloc(KPB_SLEEPERS, sizeof(*tasks), GFP_KERNEL);
	if (!tasks) {
		ret = -ENOMEM;
		goto unregister;
	}
	/* Create them all stopped, so that expected is final before any runs. */
	for (n = 0; n < KPB_SLEEPERS; n++) {
		tasks[n] = kthread_create(kpb_sleeper, s, "kpb_sleeper/%d", n);
		if (IS_ERR(tasks[n])) {
			ret = PTR_ERR(tasks[n]);
			break;
		}
	}
	if (n < KPB_SLEEPERS) {
		/* Never woken: kthread_stop() ends them before kpb_sleeper. */
		while (n-- > 0)
			kthread_stop(tasks[n]);
		goto free;
	}
	s->expected = n;
	for (i = 0; i < n; i++)
		wake_up_process(tasks[i]);
	arrived = wait_for_completion_timeout(&s->all_arrived, KPB_SLEEP_TIMEOUT);
	complete_all(&s->go);
	finished = wait_for_completion_timeout(&s->all_finished,
					       3 * KPB_SLEEP_TIMEOUT);
	for (i = 0; i < n; i++)
		kthread_stop(tasks[i]);

	pr_info("BENCH sleepers_tasks %d\n", n);
	pr_info("BENCH sleepers_returns %ld\n", atomic_long_read(&s->returns));
	pr_info("BENCH sleepers_nmissed %d\n", s->rp.nmissed);
	pr_info("BENCH-INFO sleepers threads=%d arrived=%d inside=%d finished=%d together=%s%s%s ms=%llu\n",
		n, atomic_read(&s->arrived), atomic_read(&s->inside),
		atomic_read(&s->finished),
		(atomic_read(&s->late) || atomic_read(&s->inside) != n) ? "no" : "yes",
		arrived ? "" : " (start gate timed out)",
		finished ? "" : " (end timed out)",
		div64_u64(ktime_get_ns() - t0, NSEC_PER_MSEC));
free:
	kfree(tasks);
unregister:
	unregister_kretprobe(&s->rp);
	if (ret) {
		pr_info("BENCH sleepers_returns error %d\n", ret);
		pr_info("BENCH sleepers_nmissed error %d\n", ret);
	}
}

/* ---- attach cost ---- */

static unsigned long kpb_slot_addr(int i)
{
	return kpb_slots[i / kpb_slots_per_blk] + 2UL * (i % kpb_slots_per_blk);
}

static void kpb_fill(struct kprobe *kps, struct kprobe **ptrs, int num)
{
	int i;

	memset(kps, 0, sizeof(*kps) * num);
	for (i = 0; i < num; i++) {
		kps[i].addr = (kprobe_opcode_t *)kpb_slot_addr(i);
		kps[i].pre_handler = kpb_pre;
		ptrs[i] = &kps[i];
	}
}

/*
 * Before a timed registration: let the work the kernel deferred from the
 * runs before finish (stock's optimizer unoptimizing, our unparker
 * taking parked sites back), so that every registration starts from
 * text without probes and pays for all of its own work.
 */
static void kpb_settle(void)
{
	msleep(500);
}

/*
 * register_kprobe() each of @kps in turn: the time in *@ns, or, at the
 * first failure, the probes before it unregistered again and the error
 * (with the failing index in *@failed).
 */
static int kpb_register_each(struct kprobe *kps, int num, u64 *ns,
			     int *failed)
{
	u64 t0 = ktime_get_ns();
	int i, ret;

	for (i = 0; i < num; i++) {
		ret = register_kprobe(&kps[i]);
		if (ret) {
			*failed = i;
			while (i-- > 0)
				unregister_kprobe(&kps[i]);
			return ret;
		}
	}
	*ns = ktime_get_ns() - t0;
	return 0;
}

/*
 * Function-call IPIs (the interrupts on_each_cpu() and text patching
 * send) taken by all CPUs so far; x86 counts them per CPU.  A CPU never
 * sends one to itself, so the sum over all CPUs is what other CPUs took,
 * wherever the bench runs.  -1 where the arch keeps no such count.
 */
#if defined(CONFIG_X86) && defined(CONFIG_SMP)
static long long kpb_call_ipis(void)
{
	long long n = 0;
	int cpu;

	for_each_online_cpu(cpu)
		n += per_cpu(irq_stat, cpu).irq_call_count;
	return n;
}
#else
static long long kpb_call_ipis(void)
{
	return -1;
}
#endif

/* unregister_kprobe() each of @kps in turn; return the time it took. */
static u64 kpb_unregister_each(struct kprobe *kps, int num)
{
	u64 t0 = ktime_get_ns();
	int i;

	for (i = 0; i < num; i++)
		unregister_kprobe(&kps[i]);
	return ktime_get_ns() - t0;
}

/*
 * The IPIs other CPUs took since @before: during the timed calls, and
 * with what either kernel left for later (one settle more).
 */
static void kpb_report_ipis(const char *key, int num, long long before)
{
	long long during = kpb_call_ipis();

	if (before < 0) {
		pr_info("BENCH %s_%d n/a\n", key, num);
		pr_info("BENCH %s_after_%d n/a\n", key, num);
		return;
	}
	kpb_settle();
	kpb_settle();
	pr_info("BENCH %s_%d %lld\n", key, num, during - before);
	pr_info("BENCH %s_after_%d %lld\n", key, num, kpb_call_ipis() - before);
}

static void kpb_attach(int num)
{
	struct kprobe *kps;
	struct kprobe **ptrs;
	u64 t0, t1, ns;
	int i, ret;

	if (num > kpb_slots_per_blk * kpb_nslotblk) {
		pr_info("BENCH reg_batch_%d error %d\n", num, -ERANGE);
		return;
	}
	kps = kvcalloc(num, sizeof(*kps), GFP_KERNEL);
	ptrs = kvcalloc(num, sizeof(*ptrs), GFP_KERNEL);
	if (!kps || !ptrs) {
		pr_info("BENCH reg_batch_%d error %d\n", num, -ENOMEM);
		goto out;
	}

	/* batched */
	kpb_fill(kps, ptrs, num);
	kpb_settle();
	t0 = ktime_get_ns();
	ret = register_kprobes(ptrs, num);
	t1 = ktime_get_ns();
	if (ret) {
		pr_info("BENCH reg_batch_%d error %d\n", num, ret);
		pr_info("BENCH unreg_batch_%d error %d\n", num, ret);
	} else {
		pr_info("BENCH reg_batch_%d %llu\n", num, t1 - t0);
		t0 = ktime_get_ns();
		unregister_kprobes(ptrs, num);
		t1 = ktime_get_ns();
		pr_info("BENCH unreg_batch_%d %llu\n", num, t1 - t0);
	}
	cond_resched();

	/* one by one */
	kpb_fill(kps, ptrs, num);
	kpb_settle();
	ret = kpb_register_each(kps, num, &ns, &i);
	if (ret) {
		pr_info("BENCH reg_single_%d error %d\n", num, ret);
		pr_info("BENCH-INFO reg_single_%d failed at probe %d (%px)\n",
			num, i, kps[i].addr);
		pr_info("BENCH unreg_single_%d error %d\n", num, ret);
	} else {
		long long ipis = kpb_call_ipis();

		pr_info("BENCH reg_single_%d %llu\n", num, ns);
		pr_info("BENCH unreg_single_%d %llu\n", num,
			kpb_unregister_each(kps, num));
		kpb_report_ipis("ipis_unreg_single", num, ipis);
	}
out:
	kvfree(ptrs);
	kvfree(kps);
}

/* ---- a tool's worth of probes: function entries by name ---- */

/*
 * The guest writes to funcs_file the functions a tool would pick: those
 * of vmlinux in available_filter_functions, less the kprobes blacklist.
 * Return: how many names, each NUL-terminated in *@bufp and pointed to
 * by (*@namesp)[i], or a negative error.
 */
static int kpb_read_funcs(void **bufp, char ***namesp)
{
	size_t size = 0;
	char **names, *p, *end;
	ssize_t len;
	int n = 0;

	*bufp = NULL;
	len = kernel_read_file_from_path(funcs_file, 0, bufp, INT_MAX, &size,
					 READING_UNKNOWN);
	if (len < 0)
		return len;
	end = (char *)*bufp + len;
	for (p = *bufp; p < end; p++)
		n += *p == '\n';
	names = kvcalloc(n + 1, sizeof(*names), GFP_KERNEL);
	if (!names) {
		vfree(*bufp);
		return -ENOMEM;
	}
	n = 0;
	for (p = *bufp; p < end; ) {
		char *nl = memchr(p, '\n', end - p);

		if (!nl)
			break;
		*nl = '\0';
		if (nl > p)
			names[n++] = p;
		p = nl + 1;
	}
	*namesp = names;
	return n;
}

static void kpb_fill_funcs(struct kprobe *kps, struct kprobe **ptrs,
			   char **names, int num)
{
	int i;

	memset(kps, 0, sizeof(*kps) * num);
	for (i = 0; i < num; i++) {
		kps[i].symbol_name = names[i];
		kps[i].pre_handler = kpb_pre;
		ptrs[i] = &kps[i];
	}
}

/*
 * Keep only the names that register_kprobe() takes on this kernel: a
 * batch fails as a whole.  One by one, so only after a batch failed.
 * Return: how many are left, first in @names.
 */
static int kpb_weed_funcs(struct kprobe *kps, char **names, int num)
{
	int i, kept = 0;

	for (i = 0; i < num; i++) {
		memset(&kps[0], 0, sizeof(kps[0]));
		kps[0].symbol_name = names[i];
		kps[0].pre_handler = kpb_pre;
		if (register_kprobe(&kps[0]))
			continue;
		unregister_kprobe(&kps[0]);
		names[kept++] = names[i];
	}
	return kept;
}

/* The floor of the funcs group: an ftrace_ops whose handler does nothing. */
static void kpb_ftrace_nop(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
}

/*
 * reg_funcs_floor_N / unreg_funcs_floor_N: what ftrace alone takes to
 * attach an ftrace_ops to the @num function entries the kprobes of @kps
 * were at (their addresses as registration resolved them), and to
 * detach it: its filter hash and the patching of every call site, which
 * kprobes on function entries pay too.  No kprobes code runs.
 *
 * A new ftrace_ops each time: ftrace_free_filter() leaves the ops'
 * hashes freed but still pointed to, so an ops cannot be used again.
 * The ops of a module is "dynamic" to ftrace: unregistering it waits
 * for the tasks-RCU grace periods that kprobes' built-in ops skip, so
 * unreg_funcs_floor_N is no floor for unregistration.
 */
static void kpb_funcs_floor(unsigned long *ips, int n, int num)
{
	struct ftrace_ops *ops;
	u64 t0, t1;
	int ret;

	ops = kzalloc(sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return;
	ops->func = kpb_ftrace_nop;
	ops->flags = FTRACE_OPS_FL_SAVE_REGS;
	if (n != num)
		pr_info("BENCH-INFO funcs: %d of %d kprobes on ftrace: floor on those\n",
			n, num);
	t0 = ktime_get_ns();
	ret = ftrace_set_filter_ips(ops, ips, n, 0, 1) ?:
	      register_ftrace_function(ops);
	t1 = ktime_get_ns();
	if (ret) {
		pr_info("BENCH reg_funcs_floor_%d error %d\n", num, ret);
		ftrace_free_filter(ops);
		goto out;
	}
	pr_info("BENCH reg_funcs_floor_%d %llu\n", num, t1 - t0);
	t0 = ktime_get_ns();
	unregister_ftrace_function(ops);
	ftrace_free_filter(ops);
	t1 = ktime_get_ns();
	pr_info("BENCH unreg_funcs_floor_%d %llu\n", num, t1 - t0);
out:
	kfree(ops);
}

/*
 * register_kprobes()/unregister_kprobes() of @num function entries, and
 * then the floor of the same.
 */
static int kpb_funcs_one(struct kprobe *kps, struct kprobe **ptrs,
			 char **names, int num, u64 *reg_ns)
{
	unsigned long *ips;
	int i, n = 0, ret;
	u64 t0, t1;

	ips = kvcalloc(num, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;
	kpb_fill_funcs(kps, ptrs, names, num);
	kpb_settle();
	t0 = ktime_get_ns();
	ret = register_kprobes(ptrs, num);
	t1 = ktime_get_ns();
	if (ret)
		goto out;
	*reg_ns = t1 - t0;
	pr_info("BENCH reg_funcs_%d %llu\n", num, t1 - t0);
	/* The floor's addresses: those of the kprobes that went on ftrace. */
	for (i = 0; i < num; i++) {
		if (kps[i].flags & KPROBE_FLAG_FTRACE)
			ips[n++] = (unsigned long)kps[i].addr;
	}
	t0 = ktime_get_ns();
	unregister_kprobes(ptrs, num);
	t1 = ktime_get_ns();
	pr_info("BENCH unreg_funcs_%d %llu\n", num, t1 - t0);
	if (n)
		kpb_funcs_floor(ips, n, num);
out:
	kvfree(ips);
	return ret;
}

/*
 * How long registering @num would take, from the counts done before:
 * @done[0..@nr) with their times @ns.  One count: linear.  Two: the cost
 * per probe as a + b * count through both (b >= 0), which is exact for a
 * kernel whose registration is quadratic, as the stock kernel's is on
 * ftrace sites (each probe updates ftrace's hash and walks its records).
 */
static u64 kpb_funcs_predict(const int *done, const u64 *ns, int nr, int num)
{
	s64 pp0, pp1, b, a;

	if (nr == 1)
		return div64_u64(ns[0] * num, done[0]);
	pp0 = div64_u64(ns[0], done[0]);
	pp1 = div64_u64(ns[1], done[1]);
	/* b in ns per probe per probe, times 1024. */
	b = max_t(s64, 0, div64_s64((pp1 - pp0) * 1024, done[1] - done[0]));
	a = max_t(s64, 0, pp1 - ((b * done[1]) >> 10));
	return (u64)num * (a + ((b * num) >> 10));
}

static void kpb_funcs(void)
{
	char list[64], *cur = list, *tok, **names = NULL;
	struct kprobe **ptrs = NULL;
	struct kprobe *kps = NULL;
	void *buf;
	int n, num, ret, weeded = 0;	/* names[0..weeded) all register */
	int done[2], nr = 0;		/* the last two counts done ... */
	u64 ns[2], reg_ns = 0;		/* ... and their times */

	n = kpb_read_funcs(&buf, &names);
	if (n <= 0) {
		pr_info("BENCH-INFO funcs: %s: %d\n", funcs_file, n);
		return;
	}
	pr_info("BENCH-INFO funcs: %d names in %s\n", n, funcs_file);
	kps = kvcalloc(n, sizeof(*kps), GFP_KERNEL);
	ptrs = kvcalloc(n, sizeof(*ptrs), GFP_KERNEL);
	if (!kps || !ptrs)
		goto out;

	strscpy(list, funcs, sizeof(list));
	while ((tok = strsep(&cur, ","))) {
		if (kstrtoint(tok, 10, &num) || num <= 0)
			continue;
		num = min(num, n);
		/* At the pace of the counts before, would this one take too long? */
		if (nr && kpb_funcs_predict(done, ns, nr, num) >
			  (u64)funcs_budget_s * NSEC_PER_SEC) {
			pr_info("BENCH-INFO funcs: %d would take over %u s, not run\n",
				num, funcs_budget_s);
			break;
		}
		ret = kpb_funcs_one(kps, ptrs, names, num, &reg_ns);
		if (ret && num > weeded) {
			/* Drop what this kernel refuses among them, again. */
			int kept = kpb_weed_funcs(kps, names, num);

			memmove(names + kept, names + num,
				(n - num) * sizeof(*names));
			pr_info("BENCH-INFO funcs: %d of the first %d refused (batch: %d)\n",
				num - kept, num, ret);
			n -= num - kept;
			weeded = kept;
			num = min(num, n);
			ret = kpb_funcs_one(kps, ptrs, names, num, &reg_ns);
		}
		if (ret) {
			pr_info("BENCH reg_funcs_%d error %d\n", num, ret);
			break;
		}
		if (nr && done[nr - 1] == num)
			nr--;			/* the same count again: replace it */
		if (nr == 2) {
			done[0] = done[1];
			ns[0] = ns[1];
			nr = 1;
		}
		done[nr] = num;
		ns[nr++] = reg_ns;
	}
out:
	kvfree(ptrs);
	kvfree(kps);
	kvfree(names);
	vfree(buf);
}

/* ---- every function of one module, by name ---- */

#define KPB_MFN_NAME_LEN	16	/* "kpb_mfn_1999" */

/*
 * Point @kps at the entries of the first @num of kpb_mfn_NNNN, by name
 * (the names are in @names, KPB_MFN_NAME_LEN apart).
 */
static void kpb_fill_mfns(struct kprobe *kps, struct kprobe **ptrs,
			  char *names, int num)
{
	int i;

	memset(kps, 0, sizeof(*kps) * num);
	for (i = 0; i < num; i++) {
		kps[i].symbol_name = names + i * KPB_MFN_NAME_LEN;
		kps[i].pre_handler = kpb_pre;
		ptrs[i] = &kps[i];
	}
}

/*
 * Call each of the first @num targets once; false unless that made
 * @want hits.
 */
static bool kpb_call_mfns(int num, int want, const char *when)
{
	long before = atomic_long_read(&kpb_hits), got;
	unsigned long acc = 0;
	int i;

	for (i = 0; i < num; i++)
		acc += ((unsigned long (*)(unsigned long))kpb_mfns[i])(i);
	kpb_sink = acc;
	got = atomic_long_read(&kpb_hits) - before;
	if (got != want)
		pr_info("BENCH-INFO modfuncs: %s: %ld hits of %d calls, not %d\n",
			when, got, num, want);
	return got == want;
}

/*
 * How many of @kps have their jump in the text now.  KPROBE_FLAG_OPTIMIZED
 * does not tell: both kernels set it when the site is queued, before
 * the optimizer has written anything.
 */
static int kpb_count_jumps(struct kprobe *kps, int num)
{
	int i, n = 0;
	u8 op;

	for (i = 0; i < num; i++) {
		if (!copy_from_kernel_nofault(&op, kps[i].addr, 1) &&
		    op == JMP32_INSN_OPCODE)
			n++;
	}
	return n;
}

/*
 * What a tool pays to probe every function of a module (kpb_mfns.S):
 *   reg_modfn_N         register_kprobes() of the N entries by name
 *   unreg_modfn_N       unregister_kprobes() of them, each called once
 *                       since registration (the optimizer has not run)
 *   reg_modfn_single_N  the same N registered one by one ...
 *   unreg_modfn_single_N  ... and unregistered one by one, after a call
 *   opt_wait_modfn_N    registered again and called once: until every
 *                       one of them has its jump in the text (not an
 *                       attach cost; -1 when not all had in 60 s)
 *   unreg_modfn_opt_N   unregister_kprobes() of the optimized probes
 */
static void kpb_modfuncs(int num)
{
	struct kprobe **ptrs = NULL;
	struct kprobe *kps = NULL;
	char *names;
	u64 t0, t1, end, ns;
	int i, ret;

	num = min(num, kpb_nmfns);
	names = kvcalloc(num, KPB_MFN_NAME_LEN, GFP_KERNEL);
	kps = kvcalloc(num, sizeof(*kps), GFP_KERNEL);
	ptrs = kvcalloc(num, sizeof(*ptrs), GFP_KERNEL);
	if (!names || !kps || !ptrs)
		goto out;
	for (i = 0; i < num; i++)
		snprintf(names + i * KPB_MFN_NAME_LEN, KPB_MFN_NAME_LEN,
			 "kpb_mfn_%04d", i);

	/* 1. A batch by name; called once; a batch out. */
	kpb_fill_mfns(kps, ptrs, names, num);
	kpb_settle();
	t0 = ktime_get_ns();
	ret = register_kprobes(ptrs, num);
	t1 = ktime_get_ns();
	if (ret) {
		pr_info("BENCH reg_modfn_%d error %d\n", num, ret);
		goto out;
	}
	pr_info("BENCH reg_modfn_%d %llu\n", num, t1 - t0);
	kpb_call_mfns(num, num, "batch");
	t0 = ktime_get_ns();
	unregister_kprobes(ptrs, num);
	t1 = ktime_get_ns();
	pr_info("BENCH unreg_modfn_%d %llu\n", num, t1 - t0);

	/* 2. One by one, in and out. */
	kpb_fill_mfns(kps, ptrs, names, num);
	kpb_settle();
	ret = kpb_register_each(kps, num, &ns, &i);
	if (ret) {
		pr_info("BENCH reg_modfn_single_%d error %d\n", num, ret);
		goto out;
	}
	pr_info("BENCH reg_modfn_single_%d %llu\n", num, ns);
	kpb_call_mfns(num, num, "one by one");
	pr_info("BENCH unreg_modfn_single_%d %llu\n", num,
		kpb_unregister_each(kps, num));

	/* 3. A batch that the optimizer has finished with goes out. */
	kpb_fill_mfns(kps, ptrs, names, num);
	kpb_settle();
	ret = register_kprobes(ptrs, num);
	if (ret) {
		pr_info("BENCH unreg_modfn_opt_%d error %d\n", num, ret);
		goto out;
	}
	kpb_call_mfns(num, num, "before the optimizer");
	t0 = ktime_get_ns();
	end = t0 + 60 * NSEC_PER_SEC;
	while (kpb_count_jumps(kps, num) < num && ktime_get_ns() < end)
		msleep(20);
	t1 = ktime_get_ns();
	i = kpb_count_jumps(kps, num);
	if (i == num) {
		pr_info("BENCH opt_wait_modfn_%d %llu\n", num, t1 - t0);
	} else {
		pr_info("BENCH-INFO modfuncs: %d of %d jumps in after 60 s\n",
			i, num);
		pr_info("BENCH opt_wait_modfn_%d -1\n", num);
	}
	kpb_call_mfns(num, num, "optimized");
	t0 = ktime_get_ns();
	unregister_kprobes(ptrs, num);
	t1 = ktime_get_ns();
	pr_info("BENCH unreg_modfn_opt_%d %llu\n", num, t1 - t0);
	kpb_call_mfns(num, 0, "after unregistration");
out:
	kvfree(ptrs);
	kvfree(kps);
	kvfree(names);
}

/*
 * spin=MODE: one probe as in the hit-cost mode MODE, then its target
 * called in a loop, so that a debugger can single-step whole hits.
 */
static int kpb_spin(void)
{
	unsigned long (*fn)(unsigned long) = kpb_hit_fn;
	u64 end = ktime_get_ns() + (u64)spin_s * NSEC_PER_SEC;
	unsigned long i = 0, acc = 0;
	struct kprobe kp = { .pre_handler = kpb_pre };
	const char *mode = spin;
	int j, ret;

	if (!strcmp(mode, "ko")) {
		kp.post_handler = kpb_post;
		mode = "o";
	}
	switch (mode[0]) {
	case 'k':
		kp.post_handler = kpb_post;
		fallthrough;
	case 'b':
		kp.addr = (kprobe_opcode_t *)kpb_hit_site;
		break;
	case 'o':
		kp.addr = (kprobe_opcode_t *)kpb_opt_site;
		fn = kpb_opt_fn;
		break;
	case 'f':
		kp.symbol_name = "kpb_ftrace_fn";
		fn = kpb_ftrace_fn;
		break;
	default:
		pr_info("BENCH-ERROR spin=%s: not k, b, o, ko or f\n", spin);
		return -EINVAL;
	}
	ret = register_kprobe(&kp);
	if (ret) {
		pr_info("BENCH-ERROR spin=%s: register_kprobe %d\n", spin, ret);
		return ret;
	}
	msleep(200);	/* as in the o mode */
	pr_info("BENCH-SPIN %s fn=%px\n", spin, fn);
	while (ktime_get_ns() < end) {
		for (j = 0; j < 100000; j++)
			acc += fn(i++);
		cond_resched();
	}
	kpb_sink = acc;
	unregister_kprobe(&kp);
	return 0;
}

static struct kprobe kpb_held;
static bool kpb_holding;

/* Is @name one of the comma-separated words of @list? */
static bool kpb_listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return true;
		p += len;
	}
	return false;
}

/* Run group @name?  only= (when set) picks groups, skip= then drops some. */
static bool kpb_run(const char *name)
{
	if (*only && !kpb_listed(only, name))
		return false;
	return !kpb_listed(skip, name);
}

static int __init kpb_init(void)
{
	u64 t0 = ktime_get_ns();
	int ret;

	if (*spin) {
		kpb_spin();
		return 0;
	}
	if (hold) {
		kpb_held.addr = (kprobe_opcode_t *)kpb_opt_site;
		kpb_held.pre_handler = kpb_pre;
		ret = register_kprobe(&kpb_held);
		if (ret)
			return ret;
		kpb_holding = true;
		msleep(200);	/* as in the o mode */
		return 0;
	}

	pr_info("BENCH-INFO start hit_site=%pS opt_site=%pS slots=%d\n",
		(void *)kpb_hit_site, (void *)kpb_opt_site, kpb_slots_per_blk * kpb_nslotblk);
	if (kpb_run("hit"))
		kpb_hit_modes();
	if (kpb_run("sleepers"))
		kpb_sleepers_run();
	if (kpb_run("nest"))
		kpb_nest_run();
	if (kpb_run("attach")) {
		char list[64], *cur = list, *tok;
		int num;

		strscpy(list, counts, sizeof(list));
		while ((tok = strsep(&cur, ","))) {
			if (!kstrtoint(tok, 10, &num) && num > 0)
				kpb_attach(num);
		}
	}
	if (*funcs && kpb_run("funcs"))
		kpb_funcs();
	if (modfuncs && kpb_run("modfuncs"))
		kpb_modfuncs(modfuncs);
	pr_info("BENCH-INFO done in %llu ms\n",
		div64_u64(ktime_get_ns() - t0, NSEC_PER_MSEC));
	/*
	 * Stay loaded (the guest rmmods us): busybox insmod retries a failed
	 * finit_module() with init_module(), so returning an error would run
	 * everything twice.
	 */
	return 0;
}
module_init(kpb_init);

static void __exit kpb_exit(void)
{
	if (kpb_holding)
		unregister_kprobe(&kpb_held);
}
module_exit(kpb_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kprobes hit and attach cost benchmark");
