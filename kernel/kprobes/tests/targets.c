// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Functions for the kprobes KUnit suites to probe.
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/compiler.h>

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

static noinline void kpt_forbidden_fn(void)
{
	barrier();
}

NOKPROBE_SYMBOL(kpt_forbidden_fn);

int (*kpt_target)(int x) = kpt_target_fn;
int (*kpt_other)(int x) = kpt_other_fn;
int (*kpt_inner)(int x) = kpt_inner_fn;
int (*kpt_replacement)(int x) = kpt_replacement_fn;
void (*kpt_forbidden)(void) = kpt_forbidden_fn;

MODULE_DESCRIPTION("KUnit tests for kprobes");
MODULE_LICENSE("GPL");
