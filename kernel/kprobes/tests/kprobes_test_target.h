/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the kprobes_test_target module shares with the kprobes_module
 * suite.
 */
#ifndef _KPROBES_TEST_TARGET_H
#define _KPROBES_TEST_TARGET_H

#include <linux/kprobes.h>

/* probe_init=1: the target's probe on its own init function. */
struct kpt_init_probe_state {
	struct kprobe kp;
	int ret;		/* of register_kprobe(), while coming */
	int hits;
	int result;		/* kpt_init_func(1), under the probe */
};

/* The suite reaches it through __symbol_get(): no link dependency. */
extern struct kpt_init_probe_state kpt_init_probe_state;

int kpt_mod_func(int x);
int kpt_mod_notrace_func(int x);
int kpt_init_func(int x);
int kpt_mod_split_fn(int x);
int kpt_mod_whole_fn(int x);
int kpt_mod_each_symbol(int (*fn)(void *data, const char *name,
				  unsigned long addr), void *data);

#endif /* _KPROBES_TEST_TARGET_H */
