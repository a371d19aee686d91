// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A user-space probe driven from the guest's shell, for
 * tests/guest/tests.d/user-probes.sh: the programs it probes run in
 * user space, which a KUnit case cannot start and stop at will.
 *
 * /sys/kernel/debug/kprobes_user_test/ctl takes one command per write:
 *	reg <path> <offset>	register_kprobe_user() on that file
 *	arm <pid>		insert_kprobe_userspace() in pid's mm
 *	disarm <pid>		remove_kprobe_user() from pid's mm
 *	unreg			unregister_kprobe_user()
 *	sleep <usecs>		handlers sleep that long on each hit (0: not)
 *	misuse <0|1>		the next pre handler calls the API on its own
 *				probe: insert_kprobe_userspace(), whose error
 *				is "inner_ret", and unregister_kprobe_user()
 * The write fails with the call's error, which ".../stats" repeats as
 * "ret", next to the counts and registers the handlers saw:
 *	ret pre post fault missed tgid_other trapnr
 *	pre_ip post_ip sum_di sum_si sum_ax inner_ret
 * The counts and sums start again at each "reg".
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kprobe_user.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/pid.h>
#include <linux/ptrace.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

static DEFINE_MUTEX(kpu_mutex);	/* commands, one at a time */
static DEFINE_SPINLOCK(kpu_lock);	/* the counts below */

static struct kprobe kpu_probe;
static struct kprobe_user kpu_user;
static struct path kpu_path;	/* keeps kpu_user.inode while registered */
static bool kpu_registered;
static unsigned int kpu_sleep_us;
static bool kpu_misuse;
static int kpu_inner_ret;
static pid_t kpu_tgid;		/* the last armed process */
static int kpu_ret;

static struct {
	unsigned long pre, post, fault, tgid_other;
	int trapnr;
	unsigned long pre_ip, post_ip, sum_di, sum_si, sum_ax;
} kpu;

static void kpu_maybe_sleep(void)
{
	unsigned int us = READ_ONCE(kpu_sleep_us);

	might_sleep();
	if (us)
		fsleep(us);
}

/* The API called from inside a handler: refused, the probe stays. */
static void kpu_misuse_api(struct kprobe *p)
{
	if (!xchg(&kpu_misuse, false))
		return;
	WRITE_ONCE(kpu_inner_ret, insert_kprobe_userspace(p, current->mm));
	unregister_kprobe_user(p);
}

static int kpu_pre(struct kprobe *p, struct pt_regs *regs)
{
	spin_lock(&kpu_lock);
	kpu.pre++;
	if (current->tgid != READ_ONCE(kpu_tgid))
		kpu.tgid_other++;
	kpu.pre_ip = instruction_pointer(regs);
	kpu.sum_di += regs_get_kernel_argument(regs, 0);
	kpu.sum_si += regs_get_kernel_argument(regs, 1);
	spin_unlock(&kpu_lock);
	kpu_misuse_api(p);
	kpu_maybe_sleep();
	return 0;
}

static void kpu_post(struct kprobe *p, struct pt_regs *regs,
		     unsigned long flags)
{
	spin_lock(&kpu_lock);
	kpu.post++;
	kpu.post_ip = instruction_pointer(regs);
	kpu.sum_ax += regs_return_value(regs);
	spin_unlock(&kpu_lock);
	kpu_maybe_sleep();
}

static int kpu_fault(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	spin_lock(&kpu_lock);
	kpu.fault++;
	kpu.trapnr = trapnr;
	spin_unlock(&kpu_lock);
	return 0;
}

/* Run @fn on the mm of process @pid. */
static int kpu_on_pid(const char *arg,
		      int (*fn)(struct kprobe *p, struct mm_struct *mm))
{
	struct task_struct *task;
	struct mm_struct *mm;
	struct pid *pid;
	int nr, ret;
	pid_t old;

	ret = kstrtoint(arg, 10, &nr);
	if (ret)
		return ret;
	pid = find_get_pid(nr);
	task = get_pid_task(pid, PIDTYPE_PID);
	put_pid(pid);
	if (!task)
		return -ESRCH;
	mm = get_task_mm(task);
	put_task_struct(task);
	if (!mm)
		return -ESRCH;
	/* Set before arming, since hits may follow at once; undone on error. */
	old = READ_ONCE(kpu_tgid);
	if (fn == insert_kprobe_userspace)
		WRITE_ONCE(kpu_tgid, nr);
	ret = fn(&kpu_probe, mm);
	if (ret)
		WRITE_ONCE(kpu_tgid, old);
	mmput(mm);
	return ret;
}

static int kpu_register(char *args)
{
	char *path = strsep(&args, " ");
	long long off;
	int ret;

	if (!path || !args || kstrtoll(args, 0, &off))
		return -EINVAL;
	if (kpu_registered)
		return -EBUSY;
	ret = kern_path(path, LOOKUP_FOLLOW, &kpu_path);
	if (ret)
		return ret;
	memset(&kpu, 0, sizeof(kpu));
	WRITE_ONCE(kpu_inner_ret, 0);
	memset(&kpu_probe, 0, sizeof(kpu_probe));
	kpu_user.inode = d_inode(kpu_path.dentry);
	kpu_user.offset = off;
	kpu_probe.user = &kpu_user;
	kpu_probe.pre_handler = kpu_pre;
	kpu_probe.post_handler = kpu_post;
	kpu_probe.fault_handler = kpu_fault;
	ret = register_kprobe_user(&kpu_probe);
	if (ret) {
		path_put(&kpu_path);
		return ret;
	}
	kpu_registered = true;
	return 0;
}

static void kpu_unregister(void)
{
	if (!kpu_registered)
		return;
	unregister_kprobe_user(&kpu_probe);
	path_put(&kpu_path);
	kpu_registered = false;
}

static int kpu_command(char *cmd)
{
	char *verb = strsep(&cmd, " ");

	if (!strcmp(verb, "reg"))
		return kpu_register(cmd);
	if (!strcmp(verb, "arm") && cmd)
		return kpu_on_pid(cmd, insert_kprobe_userspace);
	if (!strcmp(verb, "disarm") && cmd)
		return kpu_on_pid(cmd, remove_kprobe_user);
	if (!strcmp(verb, "unreg")) {
		kpu_unregister();
		return 0;
	}
	if (!strcmp(verb, "sleep") && cmd)
		return kstrtouint(cmd, 0, &kpu_sleep_us);
	if (!strcmp(verb, "misuse") && cmd)
		return kstrtobool(cmd, &kpu_misuse);
	return -EINVAL;
}

static ssize_t kpu_ctl_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char *buf;
	int ret;

	if (count > PATH_MAX + 32)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&kpu_mutex);
	ret = kpu_command(strim(buf));
	kpu_ret = ret;
	mutex_unlock(&kpu_mutex);
	kfree(buf);
	return ret ?: count;
}

static const struct file_operations kpu_ctl_fops = {
	.owner = THIS_MODULE,
	.write = kpu_ctl_write,
};

static int kpu_stats_show(struct seq_file *m, void *v)
{
	mutex_lock(&kpu_mutex);
	spin_lock(&kpu_lock);
	seq_printf(m, "ret %d\npre %lu\npost %lu\nfault %lu\nmissed %lu\n",
		   kpu_ret, kpu.pre, kpu.post, kpu.fault, kpu_probe.nmissed);
	seq_printf(m, "tgid_other %lu\ntrapnr %d\n", kpu.tgid_other,
		   kpu.trapnr);
	seq_printf(m, "pre_ip %lu\npost_ip %lu\n", kpu.pre_ip, kpu.post_ip);
	seq_printf(m, "sum_di %lu\nsum_si %lu\nsum_ax %lu\n", kpu.sum_di,
		   kpu.sum_si, kpu.sum_ax);
	seq_printf(m, "inner_ret %d\n", READ_ONCE(kpu_inner_ret));
	spin_unlock(&kpu_lock);
	mutex_unlock(&kpu_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kpu_stats);

static struct dentry *kpu_dir;

static int __init kpu_init(void)
{
	kpu_dir = debugfs_create_dir("kprobes_user_test", NULL);
	debugfs_create_file("ctl", 0200, kpu_dir, NULL, &kpu_ctl_fops);
	debugfs_create_file("stats", 0400, kpu_dir, NULL, &kpu_stats_fops);
	return 0;
}

static void __exit kpu_exit(void)
{
	debugfs_remove_recursive(kpu_dir);
	mutex_lock(&kpu_mutex);
	kpu_unregister();
	mutex_unlock(&kpu_mutex);
}

module_init(kpu_init);
module_exit(kpu_exit);
MODULE_DESCRIPTION("A user-space probe driven through debugfs, for tests");
MODULE_LICENSE("GPL");
