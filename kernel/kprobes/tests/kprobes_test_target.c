// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A module for the kprobes KUnit suites to probe and then unload, to see
 * probes on its text become gone.  Loaded with probe_init=1, it probes
 * its own init function before calling it, to see a probe on init text go
 * once the module is live (a suite cannot register a module notifier for
 * that: KUnit runs it from one).  Loaded with spin=1, it runs a thread on
 * every CPU that calls its functions until it is unloaded, so that it goes
 * away while its probes are being hit; a wrong result is a WARN.
 */
#include <linux/module.h>
#include <linux/compiler.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/bug.h>
#include <linux/kprobes.h>

#include "kprobes_test_target.h"

noinline int kpt_mod_func(int x)
{
	barrier();
	return x + 42;
}
EXPORT_SYMBOL_GPL(kpt_mod_func);

/* Not an ftrace site: a probe on its entry is a breakpoint (or a jump). */
noinline notrace int kpt_mod_notrace_func(int x)
{
	barrier();
	return x + 43;
}

/*
 * A blacklisted function and a function named as the compiler names the
 * parts it splits off one ("fn.part.0"): the part is blacklisted too.
 */
noinline int kpt_mod_split_fn(int x)
{
	barrier();
	return x + 44;
}

NOKPROBE_SYMBOL(kpt_mod_split_fn);

int kpt_mod_split_part(int x) __asm__("kpt_mod_split_fn.part.0");

noinline int kpt_mod_split_part(int x)
{
	barrier();
	return x + 45;
}

/* The same shape, but the function it was split from may be probed. */
noinline int kpt_mod_whole_fn(int x)
{
	barrier();
	return x + 46;
}

int kpt_mod_whole_part(int x) __asm__("kpt_mod_whole_fn.part.0");

noinline int kpt_mod_whole_part(int x)
{
	barrier();
	return x + 47;
}

#ifdef MODULE
/*
 * For the kprobes_module suite, which compares kprobes' lookups with
 * this module's own symbol table: call @fn for each of its named symbols,
 * in the table's order, until it returns non-zero.
 */
int kpt_mod_each_symbol(int (*fn)(void *data, const char *name,
				  unsigned long addr), void *data)
{
	struct mod_kallsyms *ks;
	unsigned int i;
	int ret = 0;

	preempt_disable();
	ks = rcu_dereference_sched(THIS_MODULE->kallsyms);
	for (i = 0; i < ks->num_symtab && !ret; i++) {
		const Elf_Sym *sym = &ks->symtab[i];

		if (sym->st_shndx != SHN_UNDEF && sym->st_name)
			ret = fn(data, ks->strtab + sym->st_name,
				 kallsyms_symbol_value(sym));
	}
	preempt_enable();
	return ret;
}
#else
/* Built in, the target has no symbol table of its own. */
int kpt_mod_each_symbol(int (*fn)(void *data, const char *name,
				  unsigned long addr), void *data)
{
	return -ENOENT;
}
#endif
EXPORT_SYMBOL_GPL(kpt_mod_each_symbol);

noinline int __init kpt_init_func(int x)
{
	barrier();
	return x + 7;
}

/* probe_init=1: what the kprobes_module suite looks at afterwards. */
struct kpt_init_probe_state kpt_init_probe_state;
EXPORT_SYMBOL_GPL(kpt_init_probe_state);

static bool probe_init;
module_param(probe_init, bool, 0444);
MODULE_PARM_DESC(probe_init, "Probe the module's own init function first");

static int kpt_init_pre(struct kprobe *p, struct pt_regs *regs)
{
	kpt_init_probe_state.hits++;
	return 0;
}

static bool spin;
module_param(spin, bool, 0444);
MODULE_PARM_DESC(spin, "Call the probe targets on every CPU until unloaded");

static struct task_struct **spinners;

static int kpt_spin(void *unused)
{
	unsigned int i = 0;

	while (!kthread_should_stop()) {
		WARN_ON_ONCE(kpt_mod_func(i) != i + 42 ||
			     kpt_mod_notrace_func(i) != i + 43);
		if (!(++i & 255))
			cond_resched();
	}
	return 0;
}

static void kpt_stop_spinners(void)
{
	unsigned int cpu;

	if (!spinners)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!IS_ERR_OR_NULL(spinners[cpu]))
			kthread_stop(spinners[cpu]);
	}
	kfree(spinners);
	spinners = NULL;
}

static int kpt_start_spinners(void)
{
	unsigned int cpu;

	spinners = kcalloc(nr_cpu_ids, sizeof(*spinners), GFP_KERNEL);
	if (!spinners)
		return -ENOMEM;
	for_each_online_cpu(cpu) {
		spinners[cpu] = kthread_run_on_cpu(kpt_spin, NULL, cpu,
						   "kpt_spin/%u");
		if (IS_ERR(spinners[cpu])) {
			int ret = PTR_ERR(spinners[cpu]);

			kpt_stop_spinners();
			return ret;
		}
	}
	return 0;
}

static int __init kpt_target_init(void)
{
	struct kpt_init_probe_state *st = &kpt_init_probe_state;

	if (probe_init) {
		st->kp.symbol_name = "kpt_init_func";
		st->kp.pre_handler = kpt_init_pre;
		st->ret = register_kprobe(&st->kp);
	}
	st->result = kpt_init_func(1);
	return spin ? kpt_start_spinners() : 0;
}
module_init(kpt_target_init);

static void __exit kpt_target_exit(void)
{
	kpt_stop_spinners();
	if (probe_init && !kpt_init_probe_state.ret)
		unregister_kprobe(&kpt_init_probe_state.kp);
}
module_exit(kpt_target_exit);

MODULE_DESCRIPTION("Target module for the kprobes KUnit tests");
MODULE_LICENSE("GPL");
