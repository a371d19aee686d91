// SPDX-License-Identifier: GPL-2.0-only
/*
 * A first watchpoint probe: who writes jiffies_64?
 *
 *	insmod kwatch_example.ko [addr=0x... len=8 type=2]
 *
 * register_kwatch() asks the debug registers of every CPU to trap when
 * the kernel touches an address.  By default this watches writes to
 * jiffies_64 and logs where the first few came from; addr, len and type
 * (2 write, 3 read or write, 4 execute) watch something else, e.g. an
 * address from /proc/kallsyms.  The handler runs in the debug exception,
 * like an NMI: it must not sleep or take locks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/jiffies.h>
#include <linux/kwatch.h>
#include <linux/ptrace.h>

static unsigned long addr;
module_param(addr, ulong, 0444);
MODULE_PARM_DESC(addr, "kernel address to watch (default: &jiffies_64)");

static ushort len = 8;
module_param(len, ushort, 0444);
MODULE_PARM_DESC(len, "bytes to watch: 1, 2, 4 or 8");

static ushort type = KWATCH_WRITE;
module_param(type, ushort, 0444);
MODULE_PARM_DESC(type, "2 write, 3 read or write, 4 execute");

static unsigned int verbose_hits = 5;
module_param(verbose_hits, uint, 0644);
MODULE_PARM_DESC(verbose_hits, "how many hits to log before going quiet");

static atomic_t hits = ATOMIC_INIT(0);
static int watch = -1;

static void watch_hit(struct kwatch *kw, struct pt_regs *regs)
{
	int n = atomic_inc_return(&hits);

	if (n <= verbose_hits)
		pr_info("hit %d on CPU %d: %#lx touched at %pS\n", n,
			raw_smp_processor_id(), kw->addr,
			(void *)instruction_pointer(regs));
}

static int __init kwatch_example_init(void)
{
	if (!addr)
		addr = (unsigned long)&jiffies_64;
	watch = register_kwatch(addr, len, type, watch_hit);
	if (watch < 0) {
		pr_err("register_kwatch failed: %d\n", watch);
		return watch;
	}
	pr_info("watch %d on %#lx (%u bytes, type %u)\n", watch, addr, len,
		type);
	return 0;
}

static void __exit kwatch_example_exit(void)
{
	unregister_kwatch(watch);
	pr_info("watch %d removed: %d hits seen\n", watch, atomic_read(&hits));
}

module_init(kwatch_example_init);
module_exit(kwatch_example_exit);
MODULE_DESCRIPTION("kernel watchpoint probe example");
MODULE_LICENSE("GPL");
