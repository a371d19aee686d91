// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: hits that nest by context.  A probe hit in an interrupt that
 * comes in while another probe's handler runs on the same CPU runs its
 * own handlers; a probe hit from a handler's own flow (recursion) runs
 * none and is counted as missed.
 *
 * The outer handler queues a hard irq_work and waits for it, so that the
 * interrupt comes in while the handler runs; the irq_work calls the
 * function the inner probe is on.  The outer handler must run with
 * interrupts on: a return handler does on every port, a pre handler at
 * an ftrace call site or through an optimized jump does too.
 */
#include <kunit/test.h>
#include <linux/kprobes.h>
#include <linux/irq_work.h>
#include <linux/delay.h>
#include <linux/preempt.h>

#include "tests.h"
#if defined(CONFIG_X86_64) && defined(CONFIG_OPTPROBES)
#include "insn_targets_x86.h"
#endif
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

/* How long the outer handler waits for the interrupt, in microseconds. */
#define NEST_WAIT_US	200000

struct nest_state {
	struct kretprobe outer;
	struct kprobe outer_pre;
	struct kprobe inner;
	struct kretprobe inner_ret;
	struct irq_work work;
	/* What the outer handler does: queue the work, or call kpt_other. */
	bool recurse;
	bool work_ran;
	bool work_in_handler;		/* it ran while the handler waited */
	bool nmi_armed;
	bool outer_irqs_off;		/* the outer handler ran so */
	bool work_hardirq, work_nmi;	/* where the work ran */
	int inner_hits, inner_returns;
	int work_result;
};

static struct nest_state *nest;

static void nest_work(struct irq_work *work)
{
	nest->work_nmi = in_nmi();
	nest->work_hardirq = in_hardirq() && !in_nmi();
	WRITE_ONCE(nest->work_result, kpt_other(1));
	WRITE_ONCE(nest->work_ran, true);
}

/* What every outer handler does. */
static void nest_outer(void)
{
	int i;

	if (nest->recurse) {
		nest->work_result = kpt_other(1);
		return;
	}
	nest->outer_irqs_off = irqs_disabled();
	irq_work_queue(&nest->work);
	for (i = 0; i < NEST_WAIT_US && !READ_ONCE(nest->work_ran); i++)
		udelay(1);
	nest->work_in_handler = READ_ONCE(nest->work_ran);
}

static int nest_outer_return(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	nest_outer();
	return 0;
}

static int nest_outer_pre(struct kprobe *p, struct pt_regs *regs)
{
	nest_outer();
	return 0;
}

/* Traced (unlike the shared targets): an entry probe is an ftrace one. */
static noinline int nest_traced_fn(int x)
{
	asm volatile("" : "+r" (x));
	return x + 5;
}

static int (*nest_traced)(int x) = nest_traced_fn;

static int nest_inner_pre(struct kprobe *p, struct pt_regs *regs)
{
	nest->inner_hits++;
	return 0;
}

static int nest_inner_return(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	nest->inner_returns++;
	return 0;
}

static int nest_init(struct kunit *test)
{
	nest = kunit_kzalloc(test, sizeof(*nest), GFP_KERNEL);
	if (!nest)
		return -ENOMEM;
	nest->outer.kp.addr = (kprobe_opcode_t *)kpt_target;
	nest->outer.handler = nest_outer_return;
	nest->outer_pre.pre_handler = nest_outer_pre;
	nest->inner.addr = (kprobe_opcode_t *)kpt_other;
	nest->inner.pre_handler = nest_inner_pre;
	nest->inner_ret.kp.addr = (kprobe_opcode_t *)kpt_other;
	nest->inner_ret.handler = nest_inner_return;
	nest->work = IRQ_WORK_INIT_HARD(nest_work);
	return 0;
}

static void nest_exit(struct kunit *test)
{
	irq_work_sync(&nest->work);
}

/* @p missed nothing, for any cause. */
static void nest_expect_no_miss(struct kunit *test, struct kprobe *p)
{
	int why;

	KUNIT_EXPECT_EQ(test, p->nmissed, 0UL);
	for (why = 0; why < KPROBE_MISS_NR; why++)
		KUNIT_EXPECT_EQ_MSG(test, p->nmissed_by[why], 0UL, "cause %d",
				    why);
}

/* Call the outer probe's function with interrupts on; its return nests. */
static void nest_run(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, register_kretprobe(&nest->outer), 0);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	/* Had the handler run with interrupts off, the work came now. */
	irq_work_sync(&nest->work);
	unregister_kretprobe(&nest->outer);
	nest_expect_no_miss(test, &nest->outer.kp);
	KUNIT_EXPECT_EQ(test, nest->outer.nmissed, 0);
}

/*
 * Did the interrupt come in while the outer handler ran?  Return handlers
 * and handlers at ftrace call sites run with interrupts as the probed code
 * had them, on every port.
 */
static void nest_expect_interrupted(struct kunit *test)
{
	KUNIT_EXPECT_FALSE_MSG(test, nest->outer_irqs_off,
			       "the handler ran with interrupts off");
	KUNIT_EXPECT_TRUE_MSG(test, nest->work_in_handler,
			      "the interrupt did not come in the handler");
}

/*
 * A kprobe hit in a hard interrupt that came in during a return handler
 * runs its pre handler, once, and misses nothing.
 */
static void nest_irq_kprobe_in_return_handler(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, kpt_register(test, &nest->inner), 0);
	nest_run(test);
	unregister_kprobe(&nest->inner);

	KUNIT_EXPECT_EQ(test, nest->work_result, 3);
	KUNIT_EXPECT_EQ(test, nest->inner_hits, 1);
	KUNIT_EXPECT_TRUE(test, nest->work_hardirq);
	nest_expect_no_miss(test, &nest->inner);
	nest_expect_interrupted(test);
}

/*
 * The same with a return probe inside: the interrupt's instance goes on
 * the interrupted task's chain above the outer one's, and comes off it
 * before the outer return is done.
 */
static void nest_irq_kretprobe_in_return_handler(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, register_kretprobe(&nest->inner_ret), 0);
	nest_run(test);
	unregister_kretprobe(&nest->inner_ret);

	KUNIT_EXPECT_EQ(test, nest->work_result, 3);
	KUNIT_EXPECT_EQ(test, nest->inner_returns, 1);
	nest_expect_no_miss(test, &nest->inner_ret.kp);
	KUNIT_EXPECT_EQ(test, nest->inner_ret.nmissed, 0);
	nest_expect_interrupted(test);
}

/* The inner kprobe, checked after a hit of @outer's. */
static void nest_expect_inner(struct kunit *test, struct kprobe *outer)
{
	unregister_kprobe(outer);
	unregister_kprobe(&nest->inner);
	nest_expect_no_miss(test, outer);
	KUNIT_ASSERT_TRUE(test, nest->work_in_handler);
	KUNIT_EXPECT_EQ(test, nest->work_result, 3);
	KUNIT_EXPECT_EQ(test, nest->inner_hits, 1);
	KUNIT_EXPECT_TRUE(test, nest->work_hardirq);
	nest_expect_no_miss(test, &nest->inner);
}

/* The same in a pre handler at an ftrace call site. */
static void nest_irq_kprobe_in_ftrace_handler(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))
		kunit_skip(test, "no probes on ftrace call sites here");
	nest->outer_pre.addr = (kprobe_opcode_t *)nest_traced;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &nest->inner), 0);
	KUNIT_ASSERT_EQ(test, kpt_register(test, &nest->outer_pre), 0);
	if (!kprobe_ftrace(&nest->outer_pre)) {
		unregister_kprobe(&nest->outer_pre);
		unregister_kprobe(&nest->inner);
		kunit_skip(test, "no probe on an ftrace call site here");
	}
	KUNIT_EXPECT_EQ(test, nest_traced(1), 6);
	nest_expect_inner(test, &nest->outer_pre);
}

#if defined(CONFIG_X86_64) && defined(CONFIG_OPTPROBES)
/* The same in a pre handler reached through an optimized jump. */
static void nest_irq_kprobe_in_optimized_handler(struct kunit *test)
{
	bool opt_was = kprobes_optimization_enabled();

	kprobes_set_optimization(true);
	nest->outer_pre.addr = (kprobe_opcode_t *)KPT_OPT_AT(kpt_opt_plain);
	KUNIT_ASSERT_EQ(test, kpt_register(test, &nest->inner), 0);
	KUNIT_ASSERT_EQ(test, kpt_register(test, &nest->outer_pre), 0);
	wait_for_kprobe_optimizer();
	if (!kprobe_optimized(&nest->outer_pre)) {
		unregister_kprobe(&nest->outer_pre);
		unregister_kprobe(&nest->inner);
		kprobes_set_optimization(opt_was);
		KUNIT_FAIL(test, "the outer probe was not optimized");
		return;
	}
	KUNIT_EXPECT_EQ(test, kpt_opt_plain(4), 7L);
	nest_expect_inner(test, &nest->outer_pre);
	kprobes_set_optimization(opt_was);
}
#endif

#ifdef CONFIG_X86_LOCAL_APIC
/* The NMI: call the inner probe's function once, when the case asks. */
static int nest_nmi(unsigned int type, struct pt_regs *regs)
{
	if (!READ_ONCE(nest->nmi_armed))
		return NMI_DONE;
	WRITE_ONCE(nest->nmi_armed, false);
	nest_work(&nest->work);
	return NMI_HANDLED;
}

/* A breakpoint pre handler, interrupts off: only an NMI gets in. */
static int nest_outer_pre_nmi(struct kprobe *p, struct pt_regs *regs)
{
	int i;

	WRITE_ONCE(nest->nmi_armed, true);
	__apic_send_IPI_self(NMI_VECTOR);
	for (i = 0; i < NEST_WAIT_US && !READ_ONCE(nest->work_ran); i++)
		udelay(1);
	nest->work_in_handler = READ_ONCE(nest->work_ran);
	return 0;
}

/*
 * A kprobe hit in an NMI that came in during a breakpoint's pre handler
 * runs its handler, in the NMI, and misses nothing.  The breakpoint
 * handler is entered as an NMI is (irqentry_nmi_enter()): the context
 * compared is that of the code each trap interrupted.
 */
static void nest_nmi_kprobe_in_breakpoint_handler(struct kunit *test)
{
	bool opt_was = kprobes_optimization_enabled();

	/* A breakpoint, not a jump, whatever the configuration. */
	kprobes_set_optimization(false);
	KUNIT_ASSERT_EQ(test, register_nmi_handler(NMI_LOCAL, nest_nmi, 0,
						   "kpt_nest"), 0);
	nest->outer_pre.addr = (kprobe_opcode_t *)kpt_target;
	nest->outer_pre.pre_handler = nest_outer_pre_nmi;
	KUNIT_EXPECT_EQ(test, kpt_register(test, &nest->inner), 0);
	KUNIT_EXPECT_EQ(test, kpt_register(test, &nest->outer_pre), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_optimized(&nest->outer_pre));
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	WRITE_ONCE(nest->nmi_armed, false);
	unregister_nmi_handler(NMI_LOCAL, "kpt_nest");
	kprobes_set_optimization(opt_was);

	unregister_kprobe(&nest->outer_pre);
	unregister_kprobe(&nest->inner);
	nest_expect_no_miss(test, &nest->outer_pre);
	KUNIT_ASSERT_TRUE_MSG(test, nest->work_in_handler,
			      "the NMI did not come in the handler");
	KUNIT_EXPECT_EQ(test, nest->work_result, 3);
	KUNIT_EXPECT_EQ(test, nest->inner_hits, 1);
	KUNIT_EXPECT_TRUE(test, nest->work_nmi);
	nest_expect_no_miss(test, &nest->inner);
}
#endif

/*
 * A probe hit from the handler's own flow is recursion: its handler does
 * not run, and the miss is counted.  Once the handler is over, the same
 * probe hits as usual.
 */
static void nest_recursion_is_missed(struct kunit *test)
{
	nest->recurse = true;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &nest->inner), 0);
	nest_run(test);
	KUNIT_EXPECT_EQ(test, nest->work_result, 3);
	KUNIT_EXPECT_EQ(test, nest->inner_hits, 0);
	KUNIT_EXPECT_EQ(test, nest->inner.nmissed, 1UL);
	KUNIT_EXPECT_EQ(test, nest->inner.nmissed_by[KPROBE_MISS_RECURSION],
			1UL);

	KUNIT_EXPECT_EQ(test, kpt_other(1), 3);
	KUNIT_EXPECT_EQ(test, nest->inner_hits, 1);
	unregister_kprobe(&nest->inner);
}

static struct kunit_case nest_cases[] = {
	KUNIT_CASE(nest_irq_kprobe_in_return_handler),
	KUNIT_CASE(nest_irq_kretprobe_in_return_handler),
	KUNIT_CASE(nest_irq_kprobe_in_ftrace_handler),
#if defined(CONFIG_X86_64) && defined(CONFIG_OPTPROBES)
	KUNIT_CASE(nest_irq_kprobe_in_optimized_handler),
#endif
#ifdef CONFIG_X86_LOCAL_APIC
	KUNIT_CASE(nest_nmi_kprobe_in_breakpoint_handler),
#endif
	KUNIT_CASE(nest_recursion_is_missed),
	{}
};

static struct kunit_suite nest_suite = {
	.name = "kprobes_nest",
	.init = nest_init,
	.exit = nest_exit,
	.test_cases = nest_cases,
};

kunit_test_suite(nest_suite);
