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

MODULE_DESCRIPTION("KUnit tests for kprobes");
MODULE_LICENSE("GPL");
