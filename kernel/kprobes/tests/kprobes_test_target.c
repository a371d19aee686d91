// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A module for the kprobes KUnit suites to probe and then unload, to see
 * probes on its text become gone.
 */
#include <linux/module.h>
#include <linux/compiler.h>

int kpt_mod_func(int x);

noinline int kpt_mod_func(int x)
{
	barrier();
	return x + 42;
}
EXPORT_SYMBOL_GPL(kpt_mod_func);

MODULE_DESCRIPTION("Target module for the kprobes KUnit tests");
MODULE_LICENSE("GPL");
