/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the kprobes KUnit suites share: functions to probe, always called
 * through pointers so that the compiler cannot inline or fold them.
 */
#ifndef _KPROBES_TESTS_H
#define _KPROBES_TESTS_H

#include <linux/types.h>
#include <linux/kprobes.h>
#include <kunit/test.h>

#include "../internal.h"

extern int (*kpt_target)(int x);	/* returns x + 1 */
extern int (*kpt_other)(int x);		/* returns x + 2 */
extern int (*kpt_notrace)(int x);	/* returns x + 3; notrace */
extern int (*kpt_inner)(int x);		/* returns x * 2 */
extern int (*kpt_replacement)(int x);	/* returns -x */
extern void (*kpt_forbidden)(void);	/* NOKPROBE_SYMBOL */
extern int (*kpt_recurse)(int depth);	/* returns depth, recursively */
struct completion;
extern int (*kpt_sleep)(struct completion *done);	/* 7 once done */
extern int (*kpt_exit)(struct completion *started);	/* kthread_exit() */
/* returns the sum of i * a<i>; a7 and a8 are passed on the stack */
extern long (*kpt_args8)(long a1, long a2, long a3, long a4, long a5,
			 long a6, long a7, long a8);
/* kpt_stack_caller_fn -> kpt_stack_outer_fn -> kpt_inner: x * 2 + 2 */
extern int (*kpt_stack_caller)(int x);
/*
 * In assembly, in the arch's targets file: kpt_tail_caller returns x + 3
 * through kpt_tail_outer, whose last act is a jump to kpt_tail_inner, so
 * kpt_tail_inner returns to kpt_tail_caller + kpt_tail_ret_off.
 */
long kpt_tail_caller(long x);
long kpt_tail_outer(long x);
long kpt_tail_inner(long x);
extern const long kpt_tail_ret_off;
/* kpt_many[i] is kpt_many_<i, two hex digits>, and returns x + i */
#define KPT_MANY	256
extern int (*const kpt_many[KPT_MANY])(int x);

/*
 * Check the trap number a fault handler was given for a page fault: the
 * one the architecture's fault path passes.  Where this file does not
 * know it yet, the case says so in its log instead.
 */
#if defined(CONFIG_X86)
#include <asm/trapnr.h>

static inline void kpt_expect_page_fault_trap(struct kunit *test, int trapnr)
{
	KUNIT_EXPECT_EQ(test, trapnr, X86_TRAP_PF);
}
#elif defined(CONFIG_ARM64)
#include <linux/sizes.h>
#include <asm/esr.h>

/* arm64 passes the syndrome: a data abort taken at the current EL. */
static inline void kpt_expect_page_fault_trap(struct kunit *test, int trapnr)
{
	KUNIT_EXPECT_EQ(test, ESR_ELx_EC((unsigned int)trapnr),
			ESR_ELx_EC_DABT_CUR);
}

/*
 * Where a handler's read faults through the path that asks kprobes: on
 * arm64 only faults on user addresses do (do_page_fault()); a kernel
 * address, such as @guard, goes straight to its fixup.
 */
#define KPT_HAVE_HANDLER_FAULT_ADDR
static inline void *kpt_handler_fault_addr(void *guard)
{
	return (void *)SZ_64K;
}
#elif defined(CONFIG_RISCV)
#include <asm/csr.h>

/* RISC-V passes the cause: a load page fault. */
static inline void kpt_expect_page_fault_trap(struct kunit *test, int trapnr)
{
	KUNIT_EXPECT_EQ(test, trapnr, EXC_LOAD_PAGE_FAULT);
}
#elif defined(CONFIG_PPC)
#include <linux/signal.h>

/* powerpc's do_page_fault() passes the signal it would send: SIGSEGV. */
static inline void kpt_expect_page_fault_trap(struct kunit *test, int trapnr)
{
	KUNIT_EXPECT_EQ(test, trapnr, SIGSEGV);
}
#elif defined(CONFIG_S390)
/* s390's do_exception() passes 14, as x86's page fault vector. */
static inline void kpt_expect_page_fault_trap(struct kunit *test, int trapnr)
{
	KUNIT_EXPECT_EQ(test, trapnr, 14);
}
#else
static inline void kpt_expect_page_fault_trap(struct kunit *test, int trapnr)
{
	kunit_info(test, "page fault trap number %d not checked here\n", trapnr);
}
#endif

#ifndef KPT_HAVE_HANDLER_FAULT_ADDR
/* A read of @guard, a guard page, faults through kprobe_page_fault(). */
static inline void *kpt_handler_fault_addr(void *guard)
{
	return guard;
}
#endif

/* The name of this module, for "module:symbol" requests. */
#define KPT_MODULE	"kprobes_kunit"

static inline void kpt_unregister_action(void *p)
{
	unregister_kprobe(p);
}

/*
 * Register @p, which must live in test-managed memory (kunit_kzalloc),
 * and make sure it is unregistered when the test ends, even when an
 * assertion ends it early.  Unregistering twice is harmless.
 */
static inline int kpt_register(struct kunit *test, struct kprobe *p)
{
	int ret = register_kprobe(p);

	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, kpt_unregister_action, p);
}

/*
 * Unregistration against a handler in flight (test_stress.c): a thread
 * on another CPU calls @call in a loop; the first handler to run holds
 * on for a while; the test unregisters meanwhile and then sets
 * @returned.  A handler that finds @returned set, on entry or after
 * holding on, ran after unregistration returned: @late counts those.
 */
struct kpt_inflight {
	int (*call)(int x);
	atomic_t entered;
	atomic_t late;
	bool returned;
	bool stop;
};

/* What the probe's handler calls. */
void kpt_inflight_hold(struct kpt_inflight *f);
/* Run the test: @unregister(@probe) while the first handler holds on. */
void kpt_expect_unregister_waits(struct kunit *test, struct kpt_inflight *f,
				 void (*unregister)(void *probe), void *probe);

/* A kprobe whose pre handler holds on; the caller says where it goes. */
struct kpt_inflight_kprobe {
	struct kprobe kp;
	struct kpt_inflight f;
};

struct kpt_inflight_kprobe *kpt_inflight_kprobe(struct kunit *test,
						int (*call)(int x));
/* kpt_expect_unregister_waits() for @k, registered. */
void kpt_expect_kprobe_unregister_waits(struct kunit *test,
					struct kpt_inflight_kprobe *k);

/* A kprobe that counts its handlers' runs, from any task. */
struct kpt_counted {
	struct kprobe kp;
	atomic_t pre;
	atomic_t post;
};

static inline int kpt_counted_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&container_of(p, struct kpt_counted, kp)->pre);
	return 0;
}

static inline void kpt_counted_post(struct kprobe *p, struct pt_regs *regs,
				    unsigned long flags)
{
	atomic_inc(&container_of(p, struct kpt_counted, kp)->post);
}

/* A thread on another CPU that calls @call in a loop (test_stress.c). */
struct task_struct;
struct kpt_hammer {
	int (*call)(int x);
	struct task_struct *task;
	atomic_t calls;
};

bool kpt_hammer_start(struct kunit *test, struct kpt_hammer *h);
bool kpt_hammer_wait(struct kpt_hammer *h, int calls);
void kpt_hammer_stop(struct kpt_hammer *h);

/* Forget a previous registration's resolved address. */
static inline void kpt_reset(struct kprobe *p)
{
	if (p->symbol_name)
		p->addr = NULL;
}

#endif
