// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Functions for the kprobes KUnit suites to probe.
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/compiler.h>
#include <linux/completion.h>
#include <linux/kthread.h>

#include "tests.h"

static noinline int kpt_target_fn(int x)
{
	barrier();
	return x + 1;
}

/* Not an ftrace site: a probe on its entry is a breakpoint (or a jump). */
static noinline notrace int kpt_notrace_fn(int x)
{
	barrier();
	return x + 3;
}

static noinline int kpt_other_fn(int x)
{
	barrier();
	return x + 2;
}

static noinline int kpt_inner_fn(int x)
{
	barrier();
	return x * 2;
}

static noinline int kpt_replacement_fn(int x)
{
	barrier();
	return -x;
}

static noinline int kpt_recurse_fn(int depth)
{
	barrier();
	return depth ? kpt_recurse(depth - 1) + 1 : 0;
}

static noinline int kpt_sleep_fn(struct completion *done)
{
	return wait_for_completion_interruptible(done) ? -EINTR : 7;
}

static noinline int kpt_exit_fn(struct completion *started)
{
	complete(started);
	kthread_exit(0);
}

static noinline long kpt_args8_fn(long a1, long a2, long a3, long a4,
				  long a5, long a6, long a7, long a8)
{
	barrier();
	return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 +
	       8 * a8;
}

/* Not a tail call: the caller's frame stays on the stack. */
static noinline int kpt_stack_outer_fn(int x)
{
	int ret = kpt_inner(x);

	barrier();
	return ret + 1;
}

static noinline int kpt_stack_caller_fn(int x)
{
	int ret = kpt_stack_outer_fn(x);

	barrier();
	return ret + 1;
}

static noinline void kpt_forbidden_fn(void)
{
	barrier();
}

NOKPROBE_SYMBOL(kpt_forbidden_fn);

/*
 * KPT_MANY functions, kpt_many_00 to kpt_many_ff, for suites that need
 * many sites: kpt_many_<i> returns x + i.
 */
#define KPT_MANY_FN(hi, lo)						\
static noinline int kpt_many_##hi##lo(int x)				\
{									\
	barrier();							\
	return x + 0x##hi##lo;						\
}

KPT_MANY_FN(0, 0) KPT_MANY_FN(0, 1) KPT_MANY_FN(0, 2) KPT_MANY_FN(0, 3)
KPT_MANY_FN(0, 4) KPT_MANY_FN(0, 5) KPT_MANY_FN(0, 6) KPT_MANY_FN(0, 7)
KPT_MANY_FN(0, 8) KPT_MANY_FN(0, 9) KPT_MANY_FN(0, a) KPT_MANY_FN(0, b)
KPT_MANY_FN(0, c) KPT_MANY_FN(0, d) KPT_MANY_FN(0, e) KPT_MANY_FN(0, f)
KPT_MANY_FN(1, 0) KPT_MANY_FN(1, 1) KPT_MANY_FN(1, 2) KPT_MANY_FN(1, 3)
KPT_MANY_FN(1, 4) KPT_MANY_FN(1, 5) KPT_MANY_FN(1, 6) KPT_MANY_FN(1, 7)
KPT_MANY_FN(1, 8) KPT_MANY_FN(1, 9) KPT_MANY_FN(1, a) KPT_MANY_FN(1, b)
KPT_MANY_FN(1, c) KPT_MANY_FN(1, d) KPT_MANY_FN(1, e) KPT_MANY_FN(1, f)
KPT_MANY_FN(2, 0) KPT_MANY_FN(2, 1) KPT_MANY_FN(2, 2) KPT_MANY_FN(2, 3)
KPT_MANY_FN(2, 4) KPT_MANY_FN(2, 5) KPT_MANY_FN(2, 6) KPT_MANY_FN(2, 7)
KPT_MANY_FN(2, 8) KPT_MANY_FN(2, 9) KPT_MANY_FN(2, a) KPT_MANY_FN(2, b)
KPT_MANY_FN(2, c) KPT_MANY_FN(2, d) KPT_MANY_FN(2, e) KPT_MANY_FN(2, f)
KPT_MANY_FN(3, 0) KPT_MANY_FN(3, 1) KPT_MANY_FN(3, 2) KPT_MANY_FN(3, 3)
KPT_MANY_FN(3, 4) KPT_MANY_FN(3, 5) KPT_MANY_FN(3, 6) KPT_MANY_FN(3, 7)
KPT_MANY_FN(3, 8) KPT_MANY_FN(3, 9) KPT_MANY_FN(3, a) KPT_MANY_FN(3, b)
KPT_MANY_FN(3, c) KPT_MANY_FN(3, d) KPT_MANY_FN(3, e) KPT_MANY_FN(3, f)
KPT_MANY_FN(4, 0) KPT_MANY_FN(4, 1) KPT_MANY_FN(4, 2) KPT_MANY_FN(4, 3)
KPT_MANY_FN(4, 4) KPT_MANY_FN(4, 5) KPT_MANY_FN(4, 6) KPT_MANY_FN(4, 7)
KPT_MANY_FN(4, 8) KPT_MANY_FN(4, 9) KPT_MANY_FN(4, a) KPT_MANY_FN(4, b)
KPT_MANY_FN(4, c) KPT_MANY_FN(4, d) KPT_MANY_FN(4, e) KPT_MANY_FN(4, f)
KPT_MANY_FN(5, 0) KPT_MANY_FN(5, 1) KPT_MANY_FN(5, 2) KPT_MANY_FN(5, 3)
KPT_MANY_FN(5, 4) KPT_MANY_FN(5, 5) KPT_MANY_FN(5, 6) KPT_MANY_FN(5, 7)
KPT_MANY_FN(5, 8) KPT_MANY_FN(5, 9) KPT_MANY_FN(5, a) KPT_MANY_FN(5, b)
KPT_MANY_FN(5, c) KPT_MANY_FN(5, d) KPT_MANY_FN(5, e) KPT_MANY_FN(5, f)
KPT_MANY_FN(6, 0) KPT_MANY_FN(6, 1) KPT_MANY_FN(6, 2) KPT_MANY_FN(6, 3)
KPT_MANY_FN(6, 4) KPT_MANY_FN(6, 5) KPT_MANY_FN(6, 6) KPT_MANY_FN(6, 7)
KPT_MANY_FN(6, 8) KPT_MANY_FN(6, 9) KPT_MANY_FN(6, a) KPT_MANY_FN(6, b)
KPT_MANY_FN(6, c) KPT_MANY_FN(6, d) KPT_MANY_FN(6, e) KPT_MANY_FN(6, f)
KPT_MANY_FN(7, 0) KPT_MANY_FN(7, 1) KPT_MANY_FN(7, 2) KPT_MANY_FN(7, 3)
KPT_MANY_FN(7, 4) KPT_MANY_FN(7, 5) KPT_MANY_FN(7, 6) KPT_MANY_FN(7, 7)
KPT_MANY_FN(7, 8) KPT_MANY_FN(7, 9) KPT_MANY_FN(7, a) KPT_MANY_FN(7, b)
KPT_MANY_FN(7, c) KPT_MANY_FN(7, d) KPT_MANY_FN(7, e) KPT_MANY_FN(7, f)
KPT_MANY_FN(8, 0) KPT_MANY_FN(8, 1) KPT_MANY_FN(8, 2) KPT_MANY_FN(8, 3)
KPT_MANY_FN(8, 4) KPT_MANY_FN(8, 5) KPT_MANY_FN(8, 6) KPT_MANY_FN(8, 7)
KPT_MANY_FN(8, 8) KPT_MANY_FN(8, 9) KPT_MANY_FN(8, a) KPT_MANY_FN(8, b)
KPT_MANY_FN(8, c) KPT_MANY_FN(8, d) KPT_MANY_FN(8, e) KPT_MANY_FN(8, f)
KPT_MANY_FN(9, 0) KPT_MANY_FN(9, 1) KPT_MANY_FN(9, 2) KPT_MANY_FN(9, 3)
KPT_MANY_FN(9, 4) KPT_MANY_FN(9, 5) KPT_MANY_FN(9, 6) KPT_MANY_FN(9, 7)
KPT_MANY_FN(9, 8) KPT_MANY_FN(9, 9) KPT_MANY_FN(9, a) KPT_MANY_FN(9, b)
KPT_MANY_FN(9, c) KPT_MANY_FN(9, d) KPT_MANY_FN(9, e) KPT_MANY_FN(9, f)
KPT_MANY_FN(a, 0) KPT_MANY_FN(a, 1) KPT_MANY_FN(a, 2) KPT_MANY_FN(a, 3)
KPT_MANY_FN(a, 4) KPT_MANY_FN(a, 5) KPT_MANY_FN(a, 6) KPT_MANY_FN(a, 7)
KPT_MANY_FN(a, 8) KPT_MANY_FN(a, 9) KPT_MANY_FN(a, a) KPT_MANY_FN(a, b)
KPT_MANY_FN(a, c) KPT_MANY_FN(a, d) KPT_MANY_FN(a, e) KPT_MANY_FN(a, f)
KPT_MANY_FN(b, 0) KPT_MANY_FN(b, 1) KPT_MANY_FN(b, 2) KPT_MANY_FN(b, 3)
KPT_MANY_FN(b, 4) KPT_MANY_FN(b, 5) KPT_MANY_FN(b, 6) KPT_MANY_FN(b, 7)
KPT_MANY_FN(b, 8) KPT_MANY_FN(b, 9) KPT_MANY_FN(b, a) KPT_MANY_FN(b, b)
KPT_MANY_FN(b, c) KPT_MANY_FN(b, d) KPT_MANY_FN(b, e) KPT_MANY_FN(b, f)
KPT_MANY_FN(c, 0) KPT_MANY_FN(c, 1) KPT_MANY_FN(c, 2) KPT_MANY_FN(c, 3)
KPT_MANY_FN(c, 4) KPT_MANY_FN(c, 5) KPT_MANY_FN(c, 6) KPT_MANY_FN(c, 7)
KPT_MANY_FN(c, 8) KPT_MANY_FN(c, 9) KPT_MANY_FN(c, a) KPT_MANY_FN(c, b)
KPT_MANY_FN(c, c) KPT_MANY_FN(c, d) KPT_MANY_FN(c, e) KPT_MANY_FN(c, f)
KPT_MANY_FN(d, 0) KPT_MANY_FN(d, 1) KPT_MANY_FN(d, 2) KPT_MANY_FN(d, 3)
KPT_MANY_FN(d, 4) KPT_MANY_FN(d, 5) KPT_MANY_FN(d, 6) KPT_MANY_FN(d, 7)
KPT_MANY_FN(d, 8) KPT_MANY_FN(d, 9) KPT_MANY_FN(d, a) KPT_MANY_FN(d, b)
KPT_MANY_FN(d, c) KPT_MANY_FN(d, d) KPT_MANY_FN(d, e) KPT_MANY_FN(d, f)
KPT_MANY_FN(e, 0) KPT_MANY_FN(e, 1) KPT_MANY_FN(e, 2) KPT_MANY_FN(e, 3)
KPT_MANY_FN(e, 4) KPT_MANY_FN(e, 5) KPT_MANY_FN(e, 6) KPT_MANY_FN(e, 7)
KPT_MANY_FN(e, 8) KPT_MANY_FN(e, 9) KPT_MANY_FN(e, a) KPT_MANY_FN(e, b)
KPT_MANY_FN(e, c) KPT_MANY_FN(e, d) KPT_MANY_FN(e, e) KPT_MANY_FN(e, f)
KPT_MANY_FN(f, 0) KPT_MANY_FN(f, 1) KPT_MANY_FN(f, 2) KPT_MANY_FN(f, 3)
KPT_MANY_FN(f, 4) KPT_MANY_FN(f, 5) KPT_MANY_FN(f, 6) KPT_MANY_FN(f, 7)
KPT_MANY_FN(f, 8) KPT_MANY_FN(f, 9) KPT_MANY_FN(f, a) KPT_MANY_FN(f, b)
KPT_MANY_FN(f, c) KPT_MANY_FN(f, d) KPT_MANY_FN(f, e) KPT_MANY_FN(f, f)

#define KPT_MANY_PTR(hi, lo)						\
	[0x##hi##lo] = kpt_many_##hi##lo,

int (*const kpt_many[KPT_MANY])(int x) = {
	KPT_MANY_PTR(0, 0) KPT_MANY_PTR(0, 1) KPT_MANY_PTR(0, 2) KPT_MANY_PTR(0, 3)
	KPT_MANY_PTR(0, 4) KPT_MANY_PTR(0, 5) KPT_MANY_PTR(0, 6) KPT_MANY_PTR(0, 7)
	KPT_MANY_PTR(0, 8) KPT_MANY_PTR(0, 9) KPT_MANY_PTR(0, a) KPT_MANY_PTR(0, b)
	KPT_MANY_PTR(0, c) KPT_MANY_PTR(0, d) KPT_MANY_PTR(0, e) KPT_MANY_PTR(0, f)
	KPT_MANY_PTR(1, 0) KPT_MANY_PTR(1, 1) KPT_MANY_PTR(1, 2) KPT_MANY_PTR(1, 3)
	KPT_MANY_PTR(1, 4) KPT_MANY_PTR(1, 5) KPT_MANY_PTR(1, 6) KPT_MANY_PTR(1, 7)
	KPT_MANY_PTR(1, 8) KPT_MANY_PTR(1, 9) KPT_MANY_PTR(1, a) KPT_MANY_PTR(1, b)
	KPT_MANY_PTR(1, c) KPT_MANY_PTR(1, d) KPT_MANY_PTR(1, e) KPT_MANY_PTR(1, f)
	KPT_MANY_PTR(2, 0) KPT_MANY_PTR(2, 1) KPT_MANY_PTR(2, 2) KPT_MANY_PTR(2, 3)
	KPT_MANY_PTR(2, 4) KPT_MANY_PTR(2, 5) KPT_MANY_PTR(2, 6) KPT_MANY_PTR(2, 7)
	KPT_MANY_PTR(2, 8) KPT_MANY_PTR(2, 9) KPT_MANY_PTR(2, a) KPT_MANY_PTR(2, b)
	KPT_MANY_PTR(2, c) KPT_MANY_PTR(2, d) KPT_MANY_PTR(2, e) KPT_MANY_PTR(2, f)
	KPT_MANY_PTR(3, 0) KPT_MANY_PTR(3, 1) KPT_MANY_PTR(3, 2) KPT_MANY_PTR(3, 3)
	KPT_MANY_PTR(3, 4) KPT_MANY_PTR(3, 5) KPT_MANY_PTR(3, 6) KPT_MANY_PTR(3, 7)
	KPT_MANY_PTR(3, 8) KPT_MANY_PTR(3, 9) KPT_MANY_PTR(3, a) KPT_MANY_PTR(3, b)
	KPT_MANY_PTR(3, c) KPT_MANY_PTR(3, d) KPT_MANY_PTR(3, e) KPT_MANY_PTR(3, f)
	KPT_MANY_PTR(4, 0) KPT_MANY_PTR(4, 1) KPT_MANY_PTR(4, 2) KPT_MANY_PTR(4, 3)
	KPT_MANY_PTR(4, 4) KPT_MANY_PTR(4, 5) KPT_MANY_PTR(4, 6) KPT_MANY_PTR(4, 7)
	KPT_MANY_PTR(4, 8) KPT_MANY_PTR(4, 9) KPT_MANY_PTR(4, a) KPT_MANY_PTR(4, b)
	KPT_MANY_PTR(4, c) KPT_MANY_PTR(4, d) KPT_MANY_PTR(4, e) KPT_MANY_PTR(4, f)
	KPT_MANY_PTR(5, 0) KPT_MANY_PTR(5, 1) KPT_MANY_PTR(5, 2) KPT_MANY_PTR(5, 3)
	KPT_MANY_PTR(5, 4) KPT_MANY_PTR(5, 5) KPT_MANY_PTR(5, 6) KPT_MANY_PTR(5, 7)
	KPT_MANY_PTR(5, 8) KPT_MANY_PTR(5, 9) KPT_MANY_PTR(5, a) KPT_MANY_PTR(5, b)
	KPT_MANY_PTR(5, c) KPT_MANY_PTR(5, d) KPT_MANY_PTR(5, e) KPT_MANY_PTR(5, f)
	KPT_MANY_PTR(6, 0) KPT_MANY_PTR(6, 1) KPT_MANY_PTR(6, 2) KPT_MANY_PTR(6, 3)
	KPT_MANY_PTR(6, 4) KPT_MANY_PTR(6, 5) KPT_MANY_PTR(6, 6) KPT_MANY_PTR(6, 7)
	KPT_MANY_PTR(6, 8) KPT_MANY_PTR(6, 9) KPT_MANY_PTR(6, a) KPT_MANY_PTR(6, b)
	KPT_MANY_PTR(6, c) KPT_MANY_PTR(6, d) KPT_MANY_PTR(6, e) KPT_MANY_PTR(6, f)
	KPT_MANY_PTR(7, 0) KPT_MANY_PTR(7, 1) KPT_MANY_PTR(7, 2) KPT_MANY_PTR(7, 3)
	KPT_MANY_PTR(7, 4) KPT_MANY_PTR(7, 5) KPT_MANY_PTR(7, 6) KPT_MANY_PTR(7, 7)
	KPT_MANY_PTR(7, 8) KPT_MANY_PTR(7, 9) KPT_MANY_PTR(7, a) KPT_MANY_PTR(7, b)
	KPT_MANY_PTR(7, c) KPT_MANY_PTR(7, d) KPT_MANY_PTR(7, e) KPT_MANY_PTR(7, f)
	KPT_MANY_PTR(8, 0) KPT_MANY_PTR(8, 1) KPT_MANY_PTR(8, 2) KPT_MANY_PTR(8, 3)
	KPT_MANY_PTR(8, 4) KPT_MANY_PTR(8, 5) KPT_MANY_PTR(8, 6) KPT_MANY_PTR(8, 7)
	KPT_MANY_PTR(8, 8) KPT_MANY_PTR(8, 9) KPT_MANY_PTR(8, a) KPT_MANY_PTR(8, b)
	KPT_MANY_PTR(8, c) KPT_MANY_PTR(8, d) KPT_MANY_PTR(8, e) KPT_MANY_PTR(8, f)
	KPT_MANY_PTR(9, 0) KPT_MANY_PTR(9, 1) KPT_MANY_PTR(9, 2) KPT_MANY_PTR(9, 3)
	KPT_MANY_PTR(9, 4) KPT_MANY_PTR(9, 5) KPT_MANY_PTR(9, 6) KPT_MANY_PTR(9, 7)
	KPT_MANY_PTR(9, 8) KPT_MANY_PTR(9, 9) KPT_MANY_PTR(9, a) KPT_MANY_PTR(9, b)
	KPT_MANY_PTR(9, c) KPT_MANY_PTR(9, d) KPT_MANY_PTR(9, e) KPT_MANY_PTR(9, f)
	KPT_MANY_PTR(a, 0) KPT_MANY_PTR(a, 1) KPT_MANY_PTR(a, 2) KPT_MANY_PTR(a, 3)
	KPT_MANY_PTR(a, 4) KPT_MANY_PTR(a, 5) KPT_MANY_PTR(a, 6) KPT_MANY_PTR(a, 7)
	KPT_MANY_PTR(a, 8) KPT_MANY_PTR(a, 9) KPT_MANY_PTR(a, a) KPT_MANY_PTR(a, b)
	KPT_MANY_PTR(a, c) KPT_MANY_PTR(a, d) KPT_MANY_PTR(a, e) KPT_MANY_PTR(a, f)
	KPT_MANY_PTR(b, 0) KPT_MANY_PTR(b, 1) KPT_MANY_PTR(b, 2) KPT_MANY_PTR(b, 3)
	KPT_MANY_PTR(b, 4) KPT_MANY_PTR(b, 5) KPT_MANY_PTR(b, 6) KPT_MANY_PTR(b, 7)
	KPT_MANY_PTR(b, 8) KPT_MANY_PTR(b, 9) KPT_MANY_PTR(b, a) KPT_MANY_PTR(b, b)
	KPT_MANY_PTR(b, c) KPT_MANY_PTR(b, d) KPT_MANY_PTR(b, e) KPT_MANY_PTR(b, f)
	KPT_MANY_PTR(c, 0) KPT_MANY_PTR(c, 1) KPT_MANY_PTR(c, 2) KPT_MANY_PTR(c, 3)
	KPT_MANY_PTR(c, 4) KPT_MANY_PTR(c, 5) KPT_MANY_PTR(c, 6) KPT_MANY_PTR(c, 7)
	KPT_MANY_PTR(c, 8) KPT_MANY_PTR(c, 9) KPT_MANY_PTR(c, a) KPT_MANY_PTR(c, b)
	KPT_MANY_PTR(c, c) KPT_MANY_PTR(c, d) KPT_MANY_PTR(c, e) KPT_MANY_PTR(c, f)
	KPT_MANY_PTR(d, 0) KPT_MANY_PTR(d, 1) KPT_MANY_PTR(d, 2) KPT_MANY_PTR(d, 3)
	KPT_MANY_PTR(d, 4) KPT_MANY_PTR(d, 5) KPT_MANY_PTR(d, 6) KPT_MANY_PTR(d, 7)
	KPT_MANY_PTR(d, 8) KPT_MANY_PTR(d, 9) KPT_MANY_PTR(d, a) KPT_MANY_PTR(d, b)
	KPT_MANY_PTR(d, c) KPT_MANY_PTR(d, d) KPT_MANY_PTR(d, e) KPT_MANY_PTR(d, f)
	KPT_MANY_PTR(e, 0) KPT_MANY_PTR(e, 1) KPT_MANY_PTR(e, 2) KPT_MANY_PTR(e, 3)
	KPT_MANY_PTR(e, 4) KPT_MANY_PTR(e, 5) KPT_MANY_PTR(e, 6) KPT_MANY_PTR(e, 7)
	KPT_MANY_PTR(e, 8) KPT_MANY_PTR(e, 9) KPT_MANY_PTR(e, a) KPT_MANY_PTR(e, b)
	KPT_MANY_PTR(e, c) KPT_MANY_PTR(e, d) KPT_MANY_PTR(e, e) KPT_MANY_PTR(e, f)
	KPT_MANY_PTR(f, 0) KPT_MANY_PTR(f, 1) KPT_MANY_PTR(f, 2) KPT_MANY_PTR(f, 3)
	KPT_MANY_PTR(f, 4) KPT_MANY_PTR(f, 5) KPT_MANY_PTR(f, 6) KPT_MANY_PTR(f, 7)
	KPT_MANY_PTR(f, 8) KPT_MANY_PTR(f, 9) KPT_MANY_PTR(f, a) KPT_MANY_PTR(f, b)
	KPT_MANY_PTR(f, c) KPT_MANY_PTR(f, d) KPT_MANY_PTR(f, e) KPT_MANY_PTR(f, f)
};

int (*kpt_target)(int x) = kpt_target_fn;
int (*kpt_other)(int x) = kpt_other_fn;
int (*kpt_notrace)(int x) = kpt_notrace_fn;
int (*kpt_inner)(int x) = kpt_inner_fn;
int (*kpt_replacement)(int x) = kpt_replacement_fn;
int (*kpt_recurse)(int depth) = kpt_recurse_fn;
int (*kpt_sleep)(struct completion *done) = kpt_sleep_fn;
int (*kpt_exit)(struct completion *started) = kpt_exit_fn;
void (*kpt_forbidden)(void) = kpt_forbidden_fn;
long (*kpt_args8)(long a1, long a2, long a3, long a4, long a5, long a6,
		  long a7, long a8) = kpt_args8_fn;
int (*kpt_stack_caller)(int x) = kpt_stack_caller_fn;

MODULE_DESCRIPTION("KUnit tests for kprobes");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
