// SPDX-License-Identifier: GPL-2.0-only
/*
 * A first user-space probe: watch one instruction of one program run.
 *
 *	insmod uprobe_user_example.ko path=/bin/prog offset=0x1139 pid=1234
 *
 * register_kprobe_user() puts a probe on the instruction at byte @offset
 * of the file @path; insert_kprobe_userspace() arms it in the address
 * space of process @pid only.  Other processes running the same file do
 * not stop there.  The handlers run in the probed process's context, with
 * its user registers, and may sleep.  The offset is a file offset, not
 * an address: for a symbol, its address minus its segment's address plus
 * the segment's file offset (readelf -l, readelf -s).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kprobe_user.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/pid.h>
#include <linux/ptrace.h>
#include <linux/sched/mm.h>

static char *path;
module_param(path, charp, 0444);
MODULE_PARM_DESC(path, "the probed file");

static ulong offset;
module_param(offset, ulong, 0444);
MODULE_PARM_DESC(offset, "byte offset of the probed instruction in the file");

static int pid;
module_param(pid, int, 0444);
MODULE_PARM_DESC(pid, "the process to arm the probe in");

static unsigned int verbose_hits = 5;
module_param(verbose_hits, uint, 0644);
MODULE_PARM_DESC(verbose_hits, "how many hits to log before going quiet");

static atomic_t hits = ATOMIC_INIT(0);
static struct kprobe_user where;
static struct kprobe probe = { .user = &where };
static struct path file;

static int user_pre(struct kprobe *p, struct pt_regs *regs)
{
	int n = atomic_inc_return(&hits);

	if (n <= verbose_hits)
		pr_info("hit %d in %s[%d]: ip %#lx sp %#lx arg0 %#lx\n", n,
			current->comm, task_tgid_nr(current),
			instruction_pointer(regs), user_stack_pointer(regs),
			regs_get_kernel_argument(regs, 0));
	return 0;
}

static void user_post(struct kprobe *p, struct pt_regs *regs,
		      unsigned long flags)
{
	if (atomic_read(&hits) <= verbose_hits)
		pr_info("  after it: ip %#lx return value register %#lx\n",
			instruction_pointer(regs), regs_return_value(regs));
}

static int user_fault(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	pr_info("the probed instruction trapped (trap %d)\n", trapnr);
	return 0;
}

/* The mm of process @nr, with a reference, or NULL. */
static struct mm_struct *mm_of_pid(int nr)
{
	struct pid *p = find_get_pid(nr);
	struct task_struct *task = get_pid_task(p, PIDTYPE_PID);
	struct mm_struct *mm = NULL;

	put_pid(p);
	if (task) {
		mm = get_task_mm(task);
		put_task_struct(task);
	}
	return mm;
}

static int __init uprobe_user_example_init(void)
{
	struct mm_struct *mm;
	int ret;

	if (!path || !pid) {
		pr_err("path= and pid= are required\n");
		return -EINVAL;
	}
	ret = kern_path(path, LOOKUP_FOLLOW, &file);
	if (ret)
		return ret;
	where.inode = d_inode(file.dentry);
	where.offset = offset;
	probe.pre_handler = user_pre;
	probe.post_handler = user_post;
	probe.fault_handler = user_fault;
	ret = register_kprobe_user(&probe);
	if (ret) {
		pr_err("register_kprobe_user failed: %d\n", ret);
		goto put_path;
	}

	/* The probe pins what it needs of the mm while it is armed there. */
	mm = mm_of_pid(pid);
	ret = mm ? insert_kprobe_userspace(&probe, mm) : -ESRCH;
	if (mm)
		mmput(mm);
	if (ret) {
		pr_err("insert_kprobe_userspace in %d failed: %d\n", pid, ret);
		goto unregister;
	}
	pr_info("probe at %s+%#lx armed in process %d\n", path, offset, pid);
	return 0;

unregister:
	unregister_kprobe_user(&probe);
put_path:
	path_put(&file);
	return ret;
}

static void __exit uprobe_user_example_exit(void)
{
	/*
	 * Unregistering disarms it everywhere; remove_kprobe_user() is for
	 * a probe that stays registered.
	 */
	unregister_kprobe_user(&probe);
	path_put(&file);
	pr_info("%d hits, %lu missed\n", atomic_read(&hits), probe.nmissed);
}

module_init(uprobe_user_example_init);
module_exit(uprobe_user_example_exit);
MODULE_DESCRIPTION("register_kprobe_user() sample");
MODULE_LICENSE("GPL");
