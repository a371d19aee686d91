// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: /sys/kernel/debug/kprobes/
 *
 *   list       one line per registered probe, in the stock kernel's
 *              layout (see kprobes_show_addr() in core.c):
 *              "<address>  <type>  <symbol>+0x<offset>  <module> <tags>"
 *              type k (kprobe), r (return probe) or j (jprobe); tags run
 *              together: [GONE] (never with [DISABLED]), [DISABLED],
 *              [OPTIMIZED], [FTRACE]; then one line per watchpoint, type
 *              w, tags access type and length ([WRITE][8], see kwatch.c)
 *   enabled    "1" or "0"; writing 0 takes every probe out of the text
 *              (breakpoints, optimized jumps, ftrace attachments), 1
 *              puts those of enabled probes back
 *   blacklist  "0x<start>-0x<end>\t<symbol>" per never-probe range
 *   missed     one line per registered probe: the columns of list up to
 *              the tags, then its misses, in total and by cause
 *              ("<total> recursion=<n> depth=<n> ...": see
 *              kprobes_show_missed() in core.c)
 *
 * The addresses in list and blacklist are zeros unless kallsyms would show
 * them to whoever opened the file (kallsyms_show_value()), as in
 * /proc/kallsyms.
 */
#include <linux/kprobes.h>
#include <linux/debugfs.h>
#include <linux/kstrtox.h>
#include <linux/kallsyms.h>
#include <linux/init.h>
#include <linux/fs.h>

#include "internal.h"

static int list_show(struct seq_file *m, void *unused)
{
	bool show_addr = kallsyms_show_value(m->file->f_cred);

	kprobes_show_all(m, show_addr);
	kwatch_show_all(m, show_addr);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(list);

static int missed_show(struct seq_file *m, void *unused)
{
	kprobes_show_missed(m, kallsyms_show_value(m->file->f_cred));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(missed);

static int blacklist_show(struct seq_file *m, void *unused)
{
	kprobe_blacklist_show(m, kallsyms_show_value(m->file->f_cred));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(blacklist);

static ssize_t enabled_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	const char *val = kprobes_armed() ? "1\n" : "0\n";

	return simple_read_from_buffer(ubuf, count, ppos, val, 2);
}

static ssize_t enabled_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	bool armed;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &armed);
	if (ret)
		return ret;
	ret = kprobes_set_armed(armed);
	return ret ?: count;
}

static const struct file_operations enabled_fops = {
	.read = enabled_read,
	.write = enabled_write,
	.llseek = default_llseek,
};

static int __init kprobes_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("kprobes", NULL);

	debugfs_create_file("list", 0400, dir, NULL, &list_fops);
	debugfs_create_file("enabled", 0600, dir, NULL, &enabled_fops);
	debugfs_create_file("blacklist", 0400, dir, NULL, &blacklist_fops);
	debugfs_create_file("missed", 0400, dir, NULL, &missed_fops);
	return 0;
}
late_initcall(kprobes_debugfs_init);
