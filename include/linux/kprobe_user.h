/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _LINUX_KPROBE_USER_H
#define _LINUX_KPROBE_USER_H
/*
 * User-space probes with the kprobe handler model: a struct kprobe whose
 * ->user names an instruction in a file, armed in the address spaces the
 * caller picks.  Built on the kernel's uprobes, which place and step the
 * breakpoints.  See Documentation/trace/kprobes.rst, "User-space probes".
 *
 * The interface this implements calls the user part "struct uprobe"; the
 * kernel already has a struct uprobe (one per probed inode and offset,
 * inside kernel/events/uprobes.c), so ours is struct kprobe_user.
 */
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uprobes.h>

struct inode;
struct mm_struct;

/**
 * struct kprobe_user - where a user-space probe sits
 * @inode: the file (an executable or a library); the caller holds a
 *	reference on it until unregister_kprobe_user() returns
 * @offset: the probed instruction's byte offset in that file
 * @kp: the probe this belongs to (private, set by registration)
 * @uprobe: the kernel's uprobe at @inode and @offset (private)
 * @consumer: how uprobes calls us (private)
 * @lock: protects @armed and @dying (private)
 * @armed: the address spaces the probe is armed in (private)
 * @dying: unregistration has begun; hits only count in nmissed (private)
 * @checked: the file's headers were checked against @offset (private)
 *
 * Only @inode and @offset are the caller's to set.
 */
struct kprobe_user {
	struct inode *inode;
	loff_t offset;

	/* private: */
	struct kprobe *kp;
	struct uprobe *uprobe;
	struct uprobe_consumer consumer;
	spinlock_t lock;		/* protects armed and dying */
	struct list_head armed;
	bool dying;
	bool checked;
};

#if IS_ENABLED(CONFIG_KPROBES) && IS_ENABLED(CONFIG_UPROBES)
int register_kprobe_user(struct kprobe *p);
void unregister_kprobe_user(struct kprobe *p);
int insert_kprobe_userspace(struct kprobe *p, struct mm_struct *mm);
int remove_kprobe_user(struct kprobe *p, struct mm_struct *mm);
#else
static inline int register_kprobe_user(struct kprobe *p)
{
	return -EOPNOTSUPP;
}

static inline void unregister_kprobe_user(struct kprobe *p)
{
}

static inline int insert_kprobe_userspace(struct kprobe *p,
					  struct mm_struct *mm)
{
	return -EOPNOTSUPP;
}

static inline int remove_kprobe_user(struct kprobe *p, struct mm_struct *mm)
{
	return -EINVAL;
}
#endif

#endif /* _LINUX_KPROBE_USER_H */
