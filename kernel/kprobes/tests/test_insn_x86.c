// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: the x86 backend, one instruction kind at a time.  Each target
 * (insn_targets_x86.S) has a known instruction at a global label; the
 * test probes exactly that instruction, runs the function with and
 * without the probe, and checks the results are the same, the handlers
 * ran once per execution, and the interrupt flag survived.
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/kprobes.h>
#include <linux/irqflags.h>
#include <linux/vmalloc.h>
#include <asm/traps.h>

#include "tests.h"
#include "insn_targets_x86.h"

struct insn_ctx {
	struct kprobe kp;
	int pre;
	int post;
	int faults;
	int trapnr;
	bool fault_running;	/* the fault handler's probe was running */
	long handler_load;	/* what a faulting pre handler loaded */
	/* What the last post handler saw. */
	unsigned long post_ip;
	bool post_irqs_off;
	bool post_running;
	unsigned long post_df_regs;	/* DF in regs->flags */
	unsigned long post_df_now;	/* DF as the handler runs */
};

static struct insn_ctx *ictx(void)
{
	return ((struct kunit *)kunit_get_current_test())->priv;
}

static int insn_pre(struct kprobe *p, struct pt_regs *regs)
{
	ictx()->pre++;
	return 0;
}

static void insn_post(struct kprobe *p, struct pt_regs *regs,
		      unsigned long flags)
{
	struct insn_ctx *c = ictx();

	c->post++;
	c->post_ip = regs->ip;
	c->post_irqs_off = irqs_disabled();
	c->post_running = kprobe_running() == p;
}

static int insn_fault(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	ictx()->faults++;
	ictx()->trapnr = trapnr;
	return 0;
}

static int x86_insn_init(struct kunit *test)
{
	struct insn_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	if (!c)
		return -ENOMEM;
	c->kp.pre_handler = insn_pre;
	c->kp.post_handler = insn_post;
	c->kp.fault_handler = insn_fault;
	test->priv = c;
	return 0;
}

static void probe_at(struct kunit *test, const u8 *where)
{
	struct insn_ctx *c = test->priv;

	c->kp.addr = (kprobe_opcode_t *)where;
	KUNIT_ASSERT_EQ(test, kpt_register(test, &c->kp), 0);
}

static void unprobe(struct kunit *test)
{
	struct insn_ctx *c = test->priv;

	unregister_kprobe(&c->kp);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	KUNIT_EXPECT_NULL(test, kprobe_running());
}

static void expect_hits(struct kunit *test, int n)
{
	struct insn_ctx *c = test->priv;

	KUNIT_EXPECT_EQ(test, c->pre, n);
	KUNIT_EXPECT_EQ(test, c->post, n);
}

static void insn_rip_relative_load(struct kunit *test)
{
	struct insn_ctx *c = test->priv;
	long want = kpt_rip_load();

	KUNIT_ASSERT_EQ(test, want, (long)kpt_data);
	probe_at(test, kpt_rip_load_insn);
	KUNIT_EXPECT_EQ(test, kpt_rip_load(), want);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	expect_hits(test, 1);
	/* The post handler sees the CPU after the instruction. */
	KUNIT_EXPECT_EQ(test, c->post_ip, (unsigned long)kpt_rip_load_next);
	KUNIT_EXPECT_TRUE(test, c->post_irqs_off);
	KUNIT_EXPECT_TRUE(test, c->post_running);
	unprobe(test);
}

static void insn_jcc(struct kunit *test)
{
	probe_at(test, kpt_jcc8_insn);
	KUNIT_EXPECT_EQ(test, kpt_jcc8(0), 0L);
	KUNIT_EXPECT_EQ(test, kpt_jcc8(5), 1L);
	expect_hits(test, 2);
	unprobe(test);

	probe_at(test, kpt_jcc32_insn);
	KUNIT_EXPECT_EQ(test, kpt_jcc32(0), 0L);
	KUNIT_EXPECT_EQ(test, kpt_jcc32(5), 1L);
	expect_hits(test, 4);
	unprobe(test);
}

static void insn_call_jmp_ret(struct kunit *test)
{
	probe_at(test, kpt_call_insn);
	KUNIT_EXPECT_EQ(test, kpt_call(), 42L);
	expect_hits(test, 1);
	unprobe(test);

	probe_at(test, kpt_jmp_insn);
	KUNIT_EXPECT_EQ(test, kpt_jmp(0), 9L);
	KUNIT_EXPECT_EQ(test, kpt_jmp(1), 7L);
	expect_hits(test, 3);
	unprobe(test);

	probe_at(test, kpt_ret_insn);
	KUNIT_EXPECT_EQ(test, kpt_ret(), 5L);
	expect_hits(test, 4);
	unprobe(test);

	/* RET imm16 also drops the 16 bytes of arguments. */
	KUNIT_ASSERT_EQ(test, kpt_ret_imm(), 16L);
	probe_at(test, kpt_ret_imm_insn);
	KUNIT_EXPECT_EQ(test, kpt_ret_imm(), 16L);
	expect_hits(test, 5);
	unprobe(test);
}

static void insn_indirect_branches(struct kunit *test)
{
	probe_at(test, kpt_call_reg_insn);
	KUNIT_EXPECT_EQ(test, kpt_call_reg(kpt_callee), 42L);
	expect_hits(test, 1);
	unprobe(test);

	probe_at(test, kpt_jmp_reg_insn);
	KUNIT_EXPECT_EQ(test, kpt_jmp_reg(kpt_callee), 41L);
	expect_hits(test, 2);
	unprobe(test);
}

static void insn_loop(struct kunit *test)
{
	probe_at(test, kpt_loop_insn);
	KUNIT_EXPECT_EQ(test, kpt_loop(), 3L);
	expect_hits(test, 3);
	unprobe(test);
}

/*
 * LOOPE and LOOPNE end on the zero flag or on the count, whichever comes
 * first; JRCXZ branches on RCX alone.  Each is run both ways, and each
 * execution of the probed instruction is one hit.
 */
static void insn_loop_conditional(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, kpt_loope(3), 3L);
	KUNIT_ASSERT_EQ(test, kpt_loopne(2), 2L);
	KUNIT_ASSERT_EQ(test, kpt_jrcxz(0), 1L);

	probe_at(test, kpt_loope_insn);
	KUNIT_EXPECT_EQ(test, kpt_loope(3), 3L);	/* ZF ends it */
	expect_hits(test, 3);
	KUNIT_EXPECT_EQ(test, kpt_loope(9), 5L);	/* RCX ends it */
	expect_hits(test, 8);
	unprobe(test);

	probe_at(test, kpt_loopne_insn);
	KUNIT_EXPECT_EQ(test, kpt_loopne(2), 2L);
	expect_hits(test, 10);
	KUNIT_EXPECT_EQ(test, kpt_loopne(9), 5L);
	expect_hits(test, 15);
	unprobe(test);

	probe_at(test, kpt_jrcxz_insn);
	KUNIT_EXPECT_EQ(test, kpt_jrcxz(0), 1L);
	KUNIT_EXPECT_EQ(test, kpt_jrcxz(-1), 2L);
	KUNIT_EXPECT_EQ(test, kpt_jrcxz(1L << 32), 2L);	/* all 64 bits */
	expect_hits(test, 18);
	unprobe(test);
}

static void insn_interrupt_flag(struct kunit *test)
{
	KUNIT_ASSERT_FALSE(test, irqs_disabled());

	probe_at(test, kpt_pushf_insn);
	KUNIT_EXPECT_TRUE(test, kpt_pushf() & X86_EFLAGS_IF);
	expect_hits(test, 1);
	unprobe(test);

	probe_at(test, kpt_cli_insn);
	KUNIT_EXPECT_FALSE(test, kpt_cli() & X86_EFLAGS_IF);
	expect_hits(test, 2);
	unprobe(test);

	probe_at(test, kpt_sti_insn);
	KUNIT_EXPECT_TRUE(test, kpt_sti() & X86_EFLAGS_IF);
	expect_hits(test, 3);
	unprobe(test);
}

/*
 * POPF loads every flag it may: IF off with the caller's on, IF on with
 * the caller's off, and the arithmetic flags and DF as given.  It is
 * emulated, so interrupts never come on in a slot.
 */
static void insn_popf(struct kunit *test)
{
	const unsigned long mask = X86_EFLAGS_IF | X86_EFLAGS_ZF |
				   X86_EFLAGS_CF | X86_EFLAGS_DF |
				   X86_EFLAGS_SF;
	unsigned long flags, got;

	probe_at(test, kpt_popf_insn);
	got = kpt_popf(X86_EFLAGS_FIXED | X86_EFLAGS_ZF | X86_EFLAGS_CF);
	KUNIT_EXPECT_EQ(test, got & mask, X86_EFLAGS_ZF | X86_EFLAGS_CF);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	expect_hits(test, 1);

	local_irq_save(flags);
	got = kpt_popf(X86_EFLAGS_FIXED | X86_EFLAGS_IF | X86_EFLAGS_SF |
		       X86_EFLAGS_DF);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, got & mask,
			X86_EFLAGS_IF | X86_EFLAGS_SF | X86_EFLAGS_DF);
	expect_hits(test, 2);
	unprobe(test);
}

static void insn_fault_in_step(struct kunit *test)
{
	struct insn_ctx *c = test->priv;
	void *area = vmalloc(PAGE_SIZE);
	long ok = 1234;

	KUNIT_ASSERT_NOT_NULL(test, area);
	probe_at(test, kpt_fault_insn);
	KUNIT_EXPECT_EQ(test, kpt_fault_load(&ok), 1234L);
	expect_hits(test, 1);

	/* The copy faults; the fixup of the original address applies. */
	KUNIT_EXPECT_EQ(test, kpt_fault_load(area + PAGE_SIZE), -14L);
	KUNIT_EXPECT_EQ(test, c->pre, 2);
	KUNIT_EXPECT_EQ(test, c->post, 1);
	KUNIT_EXPECT_EQ(test, c->faults, 1);
	KUNIT_EXPECT_EQ(test, c->trapnr, X86_TRAP_PF);
	unprobe(test);
	vfree(area);
}

static void insn_gp_in_step(struct kunit *test)
{
	struct insn_ctx *c = test->priv;

	/* A non-canonical address raises #GP, not #PF. */
	long *bad = (long *)0x8000000000001000UL;

	KUNIT_ASSERT_EQ(test, kpt_fault_load(bad), -14L);
	probe_at(test, kpt_fault_insn);
	KUNIT_EXPECT_EQ(test, kpt_fault_load(bad), -14L);
	KUNIT_EXPECT_EQ(test, c->pre, 1);
	KUNIT_EXPECT_EQ(test, c->post, 0);
	KUNIT_EXPECT_EQ(test, c->faults, 1);
	KUNIT_EXPECT_EQ(test, c->trapnr, X86_TRAP_GP);
	unprobe(test);
}

/* A fault handler that takes over: resume at kpt_fault_next with 77. */
static int insn_fault_takes_over(struct kprobe *p, struct pt_regs *regs,
				 int trapnr)
{
	struct insn_ctx *c = ictx();

	c->faults++;
	c->trapnr = trapnr;
	/* The context is the original instruction's, not the slot's. */
	if (regs->ip != (unsigned long)kpt_fault_insn)
		return 0;
	regs->ax = 77;
	regs->ip = (unsigned long)kpt_fault_next;
	return 1;
}

/*
 * The probed instruction faults out of line and the fault handler says
 * it handled the fault: the kernel neither applies the fixup nor oopses,
 * and the CPU goes on where the handler sent it.  (A #GP: a handled #PF
 * makes the 6.12 page-fault path warn.)
 */
static void insn_fault_handled_in_step(struct kunit *test)
{
	struct insn_ctx *c = test->priv;
	long *bad = (long *)0x8000000000001000UL;
	long ok = 1;

	c->kp.fault_handler = insn_fault_takes_over;
	probe_at(test, kpt_fault_insn);
	KUNIT_EXPECT_EQ(test, kpt_fault_load(bad), 77L);
	KUNIT_EXPECT_EQ(test, c->pre, 1);
	KUNIT_EXPECT_EQ(test, c->post, 0);
	KUNIT_EXPECT_EQ(test, c->faults, 1);
	KUNIT_EXPECT_EQ(test, c->trapnr, X86_TRAP_GP);
	KUNIT_EXPECT_NULL(test, kprobe_running());

	/* Without a fault the handler is not asked. */
	KUNIT_EXPECT_EQ(test, kpt_fault_load(&ok), 1L);
	KUNIT_EXPECT_EQ(test, c->faults, 1);
	KUNIT_EXPECT_EQ(test, c->pre, 2);
	KUNIT_EXPECT_EQ(test, c->post, 1);
	unprobe(test);
}

/* A pre handler that loads from a non-canonical address, unfixed. */
static int insn_pre_gp(struct kprobe *p, struct pt_regs *regs)
{
	struct insn_ctx *c = ictx();

	c->pre++;
	c->handler_load = kpt_gp_load((long *)0x8000000000002000UL);
	return 0;
}

static int insn_fault_skips_load(struct kprobe *p, struct pt_regs *regs,
				 int trapnr)
{
	struct insn_ctx *c = ictx();

	c->faults++;
	c->trapnr = trapnr;
	c->fault_running = kprobe_running() == p;
	regs->ax = 88;
	regs->ip = (unsigned long)kpt_gp_next;
	return 1;
}

/*
 * A handler's own fault goes to the fault handler of the probe whose
 * handler runs, with the trap number; when it handles the fault the
 * handler goes on, and so does the probed code.
 */
static void insn_fault_handled_in_handler(struct kunit *test)
{
	struct insn_ctx *c = test->priv;

	c->kp.pre_handler = insn_pre_gp;
	c->kp.fault_handler = insn_fault_skips_load;
	probe_at(test, kpt_rip_load_insn);
	KUNIT_EXPECT_EQ(test, kpt_rip_load(), (long)kpt_data);
	KUNIT_EXPECT_EQ(test, c->pre, 1);
	KUNIT_EXPECT_EQ(test, c->faults, 1);
	KUNIT_EXPECT_EQ(test, c->trapnr, X86_TRAP_GP);
	KUNIT_EXPECT_TRUE(test, c->fault_running);
	KUNIT_EXPECT_EQ(test, c->handler_load, 88L);
	KUNIT_EXPECT_EQ(test, c->post, 1);
	unprobe(test);
}

static void insn_refused(struct kunit *test)
{
	struct insn_ctx *c = test->priv;
	static const struct {
		const u8 *addr;
		int err;
	} cases[] = {
		{ kpt_refused_call_mem, -EOPNOTSUPP },
		{ kpt_refused_hlt, -EOPNOTSUPP },
		{ kpt_refused_int3, -EILSEQ },	/* as the stock kernel */
		{ kpt_refused_ud2, -EILSEQ },
		{ kpt_rip_load_insn + 1, -EILSEQ },
		{ kpt_rip_load_insn + 3, -EILSEQ },
		{ kpt_call_insn + 2, -EILSEQ },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		c->kp.addr = (kprobe_opcode_t *)cases[i].addr;
		KUNIT_EXPECT_EQ_MSG(test, register_kprobe(&c->kp), cases[i].err,
				    "case %d at %pS", i, cases[i].addr);
	}
	/* Nothing was left behind. */
	KUNIT_EXPECT_EQ(test, kpt_rip_load(), (long)kpt_data);
	KUNIT_EXPECT_EQ(test, kpt_call(), 42L);
	KUNIT_EXPECT_EQ(test, c->pre, 0);
}

/* Breakpoint traps that one call of kpt_rip_load() takes. */
static unsigned long traps_of_rip_load(struct kunit *test)
{
	unsigned long before = kprobe_trap_count();

	KUNIT_EXPECT_EQ(test, kpt_rip_load(), (long)kpt_data);
	return kprobe_trap_count() - before;
}

static void insn_boosted_without_post(struct kunit *test)
{
	struct insn_ctx *c = test->priv;
	unsigned long flags;

	c->kp.post_handler = NULL;
	probe_at(test, kpt_rip_load_insn);
	KUNIT_EXPECT_EQ(test, traps_of_rip_load(test), 1UL);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());

	/* A caller with interrupts off gets them back off. */
	local_irq_save(flags);
	KUNIT_EXPECT_EQ(test, traps_of_rip_load(test), 1UL);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, c->pre, 2);
	unprobe(test);
}

/*
 * Post handlers on a boostable instruction: the copy comes back through
 * the step trampoline, one trap in all.
 */
static void insn_post_handler_one_trap(struct kunit *test)
{
	struct insn_ctx *c = test->priv;
	struct kprobe *plain = kunit_kzalloc(test, sizeof(*plain), GFP_KERNEL);
	unsigned long flags;

	KUNIT_ASSERT_NOT_NULL(test, plain);
	plain->addr = (kprobe_opcode_t *)kpt_rip_load_insn;
	plain->pre_handler = insn_pre;
	KUNIT_ASSERT_EQ(test, kpt_register(test, plain), 0);
	KUNIT_EXPECT_EQ(test, traps_of_rip_load(test), 1UL);

	/* A probe with a post handler joins. */
	probe_at(test, kpt_rip_load_insn);
	KUNIT_EXPECT_EQ(test, traps_of_rip_load(test), 1UL);
	KUNIT_EXPECT_EQ(test, c->post, 1);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());

	/* A caller with interrupts off gets them back off. */
	local_irq_save(flags);
	KUNIT_EXPECT_EQ(test, traps_of_rip_load(test), 1UL);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, c->post, 2);

	/* Disabled, its post handler no longer runs. */
	KUNIT_EXPECT_EQ(test, disable_kprobe(&c->kp), 0);
	KUNIT_EXPECT_EQ(test, traps_of_rip_load(test), 1UL);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&c->kp), 0);
	KUNIT_EXPECT_EQ(test, traps_of_rip_load(test), 1UL);
	KUNIT_EXPECT_EQ(test, c->post, 3);
	KUNIT_EXPECT_EQ(test, c->pre, 8);	/* both count in c->pre */

	/* Unregistered, neither does it. */
	unprobe(test);
	KUNIT_EXPECT_EQ(test, traps_of_rip_load(test), 1UL);
	KUNIT_EXPECT_EQ(test, c->post, 3);
	unregister_kprobe(plain);
}

/* Post handlers on an instruction that is not boostable: a second trap. */
static void insn_post_handler_not_boostable(struct kunit *test)
{
	struct insn_ctx *c = test->priv;
	unsigned long before;
	long val = 3;

	probe_at(test, kpt_fault_insn);		/* has an extable entry */
	before = kprobe_trap_count();
	KUNIT_EXPECT_EQ(test, kpt_fault_load(&val), 3L);
	KUNIT_EXPECT_EQ(test, kprobe_trap_count() - before, 2UL);
	expect_hits(test, 1);
	KUNIT_EXPECT_TRUE(test, c->post_irqs_off);
	KUNIT_EXPECT_TRUE(test, c->post_running);
	unprobe(test);
}

static void stack_gap_post_sp(struct kprobe *p, struct pt_regs *regs,
			      unsigned long flags)
{
	regs->sp += 16;		/* undo the SUB */
	ictx()->post++;
}

static void stack_gap_post_ip(struct kprobe *p, struct pt_regs *regs,
			      unsigned long flags)
{
	regs->ip = (unsigned long)kpt_stack_gap_leave;
	regs->ax = 7;
	ictx()->post++;
}

static void df_post(struct kprobe *p, struct pt_regs *regs,
		    unsigned long flags)
{
	struct insn_ctx *c = ictx();

	c->post++;
	c->post_df_regs = regs->flags & X86_EFLAGS_DF;
	c->post_df_now = native_save_fl() & X86_EFLAGS_DF;
}

/*
 * Code that runs with the direction flag set: the post handler runs
 * with it clear, sees it set in regs, and the code gets it back.
 */
static void insn_post_handler_direction_flag(struct kunit *test)
{
	struct insn_ctx *c = test->priv;

	c->kp.post_handler = df_post;
	probe_at(test, kpt_df_insn);
	KUNIT_EXPECT_NE(test, kpt_df() & X86_EFLAGS_DF, 0UL);
	KUNIT_EXPECT_EQ(test, c->post, 1);
	KUNIT_EXPECT_NE(test, c->post_df_regs, 0UL);
	KUNIT_EXPECT_EQ(test, c->post_df_now, 0UL);
	unprobe(test);
}

/*
 * A post handler may change the registers the function goes on with:
 * the instruction pointer (the trampoline returns there), the stack
 * pointer (it returns with IRET then).
 */
static void insn_post_handler_changes_regs(struct kunit *test)
{
	struct insn_ctx *c = test->priv;

	KUNIT_ASSERT_EQ(test, kpt_stack_gap(), 16L);

	c->kp.post_handler = stack_gap_post_sp;
	probe_at(test, kpt_stack_gap_insn);
	KUNIT_EXPECT_EQ(test, kpt_stack_gap(), 0L);
	KUNIT_EXPECT_EQ(test, c->post, 1);
	unprobe(test);

	c->kp.post_handler = stack_gap_post_ip;
	probe_at(test, kpt_stack_gap_insn);
	KUNIT_EXPECT_EQ(test, kpt_stack_gap(), 7L);
	KUNIT_EXPECT_EQ(test, c->post, 2);
	unprobe(test);

	KUNIT_EXPECT_EQ(test, kpt_stack_gap(), 16L);
}

/*
 * A batch that arms nothing leaves its new slot buffered (text.c): it must
 * be written before its page can go, and before a breakpoint leads to it.
 */
static void insn_disabled_slot(struct kunit *test)
{
	struct insn_ctx *c = test->priv;

	c->kp.flags = KPROBE_FLAG_DISABLED;
	probe_at(test, kpt_rip_load_insn);
	KUNIT_EXPECT_EQ(test, traps_of_rip_load(test), 0UL);
	unprobe(test);

	c->kp.flags = KPROBE_FLAG_DISABLED;
	probe_at(test, kpt_rip_load_insn);
	KUNIT_EXPECT_EQ(test, traps_of_rip_load(test), 0UL);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&c->kp), 0);
	KUNIT_EXPECT_EQ(test, traps_of_rip_load(test), 1UL);
	KUNIT_EXPECT_EQ(test, c->pre, 1);
	KUNIT_EXPECT_EQ(test, c->post, 1);
	unprobe(test);
}

/* Slots built by one batch are written together (text.c): all of them. */
static void insn_batch_slots(struct kunit *test)
{
	struct kprobe *k = kunit_kcalloc(test, 2, sizeof(*k), GFP_KERNEL);
	struct kprobe *kps[2];
	long val = 5;

	KUNIT_ASSERT_NOT_NULL(test, k);
	k[0].addr = (kprobe_opcode_t *)kpt_rip_load_insn;
	k[1].addr = (kprobe_opcode_t *)kpt_fault_insn;
	k[0].pre_handler = insn_pre;
	k[1].pre_handler = insn_pre;
	kps[0] = &k[0];
	kps[1] = &k[1];
	KUNIT_ASSERT_EQ(test, register_kprobes(kps, 2), 0);
	KUNIT_EXPECT_EQ(test, kpt_rip_load(), (long)kpt_data);
	KUNIT_EXPECT_EQ(test, kpt_fault_load(&val), 5L);
	KUNIT_EXPECT_EQ(test, ictx()->pre, 2);
	unregister_kprobes(kps, 2);
}

static void insn_extable_not_boosted(struct kunit *test)
{
	struct insn_ctx *c = test->priv;
	unsigned long before;
	long val = 11;

	c->kp.post_handler = NULL;
	probe_at(test, kpt_fault_insn);
	before = kprobe_trap_count();
	KUNIT_EXPECT_EQ(test, kpt_fault_load(&val), 11L);
	KUNIT_EXPECT_EQ(test, kprobe_trap_count() - before, 2UL);
	unprobe(test);
}

static struct kunit_case insn_cases[] = {
	KUNIT_CASE(insn_rip_relative_load),
	KUNIT_CASE(insn_jcc),
	KUNIT_CASE(insn_call_jmp_ret),
	KUNIT_CASE(insn_indirect_branches),
	KUNIT_CASE(insn_loop),
	KUNIT_CASE(insn_loop_conditional),
	KUNIT_CASE(insn_interrupt_flag),
	KUNIT_CASE(insn_popf),
	KUNIT_CASE(insn_fault_in_step),
	KUNIT_CASE(insn_gp_in_step),
	KUNIT_CASE(insn_fault_handled_in_step),
	KUNIT_CASE(insn_fault_handled_in_handler),
	KUNIT_CASE(insn_refused),
	KUNIT_CASE(insn_boosted_without_post),
	KUNIT_CASE(insn_post_handler_one_trap),
	KUNIT_CASE(insn_post_handler_not_boostable),
	KUNIT_CASE(insn_post_handler_changes_regs),
	KUNIT_CASE(insn_post_handler_direction_flag),
	KUNIT_CASE(insn_extable_not_boosted),
	KUNIT_CASE(insn_disabled_slot),
	KUNIT_CASE(insn_batch_slots),
	{}
};

static bool insn_saved_optimization;

/* Trap counts and single-stepping are what this suite looks at. */
static int x86_insn_suite_init(struct kunit_suite *suite)
{
	insn_saved_optimization = kprobes_optimization_enabled();
	kprobes_set_optimization(false);
	return 0;
}

static void x86_insn_suite_exit(struct kunit_suite *suite)
{
	kprobes_set_optimization(insn_saved_optimization);
}

static struct kunit_suite insn_suite = {
	.name = "kprobes_x86_insn",
	.suite_init = x86_insn_suite_init,
	.suite_exit = x86_insn_suite_exit,
	.init = x86_insn_init,
	.test_cases = insn_cases,
};

kunit_test_suite(insn_suite);
