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

int (*kpt_target)(int x) = kpt_target_fn;
int (*kpt_other)(int x) = kpt_other_fn;
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
