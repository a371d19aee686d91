// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User-space probes (register_kprobe_user()).
 *
 * A user-space probe is one uprobes consumer at (inode, offset).  uprobes
 * places the breakpoint in the address spaces that map the file and that
 * the consumer's filter accepts, steps or emulates the instruction, and
 * calls the consumer in the probed task's own context: ->handler before
 * the instruction, ->post_handler after it and ->fault_handler when its
 * out-of-line step trapped (the last two come from the glue patch
 * "uprobes: let a consumer see how the probed instruction went").
 *
 * The filter accepts the address spaces on the probe's ->armed list.
 * insert_kprobe_userspace() and remove_kprobe_user() edit the list, then
 * have uprobes apply the filter again (uprobe_apply()), which puts in or
 * takes out the breakpoints.  An armed mm is pinned with mmgrab() while
 * it is on the list, so that no other mm can take its address.  A task
 * whose mm is not armed can still meet the breakpoint: a fork's child
 * starts with a copy of its parent's text.  Its hit runs no handler and
 * asks uprobes to take the breakpoint out of that mm.
 *
 * Registration checks what uprobes would only find out when the probe is
 * first armed, or never: the offset lies in the file, in an executable
 * segment, and at the start of an instruction of the function that holds
 * it, as far as the file's symbol table tells.  Reading the file takes a
 * struct file: some file systems (FUSE, CIFS) need theirs to fill the
 * page cache.  The file of a mapping of it is used, as uprobes does; when
 * no process maps the file at registration, the checks wait for the
 * first insert_kprobe_userspace(), whose mapping has one.
 *
 * Locking: kprobe_user_mutex serialises registering, arming, disarming
 * and unregistering (the _locked functions here are called with it, not
 * with kprobe_mutex).  A probe's ->lock, a spinlock, protects ->armed and
 * ->dying; the filter takes it under uprobes' locks and the mmap lock,
 * the handlers to look up the current mm.  Handlers run with no lock of
 * ours held and may sleep, but inside uprobes' RCU tasks trace read-side
 * section, which unregistering waits out with the mutex held: none of
 * the functions here may be called from a uprobe handler.
 */
#include <linux/kprobe_user.h>
#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/uprobes.h>

#include "internal.h"

static DEFINE_MUTEX(kprobe_user_mutex);

/* The most program or section headers, and the most code, we read. */
#define KPROBE_USER_MAX_HDRS	512
#define KPROBE_USER_MAX_DECODE	SZ_64K

/* A symbol of the kernel's ELF class; <linux/elf.h> names the others. */
#if ELF_CLASS == ELFCLASS32
#define kprobe_user_sym		elf32_sym
#else
#define kprobe_user_sym		elf64_sym
#endif

/* Symbols read at a time. */
#define KPROBE_USER_SYM_BATCH	(PAGE_SIZE / sizeof(struct kprobe_user_sym))

/* One address space a probe is armed in. */
struct kprobe_user_mm {
	struct list_head node;
	struct mm_struct *mm;
};

static struct kprobe_user *to_kprobe_user(struct uprobe_consumer *uc)
{
	return container_of(uc, struct kprobe_user, consumer);
}

/* @ku's entry for @mm, or NULL.  @ku->lock held. */
static struct kprobe_user_mm *kprobe_user_find_mm(struct kprobe_user *ku,
						  struct mm_struct *mm)
{
	struct kprobe_user_mm *e;

	lockdep_assert_held(&ku->lock);
	list_for_each_entry(e, &ku->armed, node) {
		if (e->mm == mm)
			return e;
	}
	return NULL;
}

/* What a hit in the current task's mm gets. */
enum kprobe_user_hit {
	KPROBE_USER_NOT_ARMED,	/* no handler: not this probe's mm */
	KPROBE_USER_MISSED,	/* no handler: unregistration began */
	KPROBE_USER_RUN,	/* the handlers run */
};

/* What a hit in the current mm gets.  @ku->lock held. */
static enum kprobe_user_hit __kprobe_user_classify(struct kprobe_user *ku)
{
	lockdep_assert_held(&ku->lock);
	if (!kprobe_user_find_mm(ku, current->mm))
		return KPROBE_USER_NOT_ARMED;
	return ku->dying ? KPROBE_USER_MISSED : KPROBE_USER_RUN;
}

static enum kprobe_user_hit kprobe_user_classify(struct kprobe_user *ku)
{
	enum kprobe_user_hit hit;

	spin_lock(&ku->lock);
	hit = __kprobe_user_classify(ku);
	spin_unlock(&ku->lock);
	return hit;
}

/* uprobes: may the breakpoint be in @mm? */
static bool kprobe_user_filter(struct uprobe_consumer *uc,
			       struct mm_struct *mm)
{
	struct kprobe_user *ku = to_kprobe_user(uc);
	bool armed;

	spin_lock(&ku->lock);
	armed = kprobe_user_find_mm(ku, mm);
	spin_unlock(&ku->lock);
	return armed;
}

/* uprobes: the task is about to run the probed instruction. */
static int kprobe_user_pre(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct kprobe_user *ku = to_kprobe_user(uc);
	struct kprobe *p = ku->kp;
	enum kprobe_user_hit hit;

	/* A miss is counted in the section that finds it. */
	spin_lock(&ku->lock);
	hit = __kprobe_user_classify(ku);
	if (hit == KPROBE_USER_MISSED)
		kprobe_count_miss(p, KPROBE_MISS_UNREGISTERING);
	spin_unlock(&ku->lock);

	switch (hit) {
	case KPROBE_USER_NOT_ARMED:
		/* uprobes asks the filter again and unpatches this mm. */
		return UPROBE_HANDLER_REMOVE;
	case KPROBE_USER_MISSED:
		return 0;
	case KPROBE_USER_RUN:
		break;
	}
	/*
	 * The return value means nothing here: a handler that moves the
	 * instruction pointer skips the instruction and the post handler,
	 * because uprobes sees it moved.
	 */
	if (p->pre_handler)
		p->pre_handler(p, regs);
	return 0;
}

/* uprobes: the probed instruction has run. */
static void kprobe_user_post(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct kprobe_user *ku = to_kprobe_user(uc);
	struct kprobe *p = ku->kp;

	if (p->post_handler && kprobe_user_classify(ku) == KPROBE_USER_RUN)
		p->post_handler(p, regs, 0);
}

/*
 * uprobes: stepping the probed instruction trapped.  The trap is the
 * program's own and reaches it as it would without the probe, whatever
 * the handler returns.
 */
static void kprobe_user_fault(struct uprobe_consumer *uc,
			      struct pt_regs *regs)
{
	struct kprobe_user *ku = to_kprobe_user(uc);
	struct kprobe *p = ku->kp;

	if (p->fault_handler && kprobe_user_classify(ku) == KPROBE_USER_RUN)
		p->fault_handler(p, regs, arch_kprobe_user_trapnr());
}

/*
 * Called from a uprobe handler, ours or another consumer's?  Taking
 * kprobe_user_mutex there can wait for an unregistration that waits for
 * this very handler.  Such a call is refused, with a warning.
 */
static bool kprobe_user_in_handler(void)
{
	return WARN_ONCE(READ_ONCE(current->trc_reader_nesting),
			 "kprobes: user-space probe API called from a uprobe handler\n");
}

/*
 * Copy @len bytes of @file at @pos through the page cache; -EINVAL when
 * the file (whose size may change under us) ends first.
 */
static int kprobe_user_read(struct file *file, loff_t pos, void *buf,
			    size_t len)
{
	struct address_space *mapping = file->f_mapping;
	struct inode *inode = file_inode(file);
	struct page *page;
	pgoff_t index;
	size_t off, n;

	if (pos < 0 || len > i_size_read(inode) ||
	    pos > i_size_read(inode) - len)
		return -EINVAL;
	while (len) {
		index = pos >> PAGE_SHIFT;
		off = offset_in_page(pos);
		n = min_t(size_t, len, PAGE_SIZE - off);
		if (shmem_mapping(mapping))
			page = shmem_read_mapping_page(mapping, index);
		else
			page = read_mapping_page(mapping, index, file);
		if (IS_ERR(page))
			return PTR_ERR(page);
		memcpy_from_page(buf, page, off, n);
		put_page(page);
		buf += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/* The file's headers, as far as the checks below need them. */
struct kprobe_user_elf {
	struct file *file;
	struct elfhdr ehdr;
	struct elf_shdr *shdrs;
	unsigned int mode;	/* ISA mode of the function found */
};

/* Read a table of @num entries of @size bytes at @off, or NULL. */
static void *kprobe_user_read_table(struct file *file, u64 off, u16 num,
				    u16 size, size_t want)
{
	void *table;

	if (!num || num > KPROBE_USER_MAX_HDRS || size != want)
		return NULL;
	table = kcalloc(num, size, GFP_KERNEL);
	if (table && kprobe_user_read(file, off, table, (size_t)num * size)) {
		kfree(table);
		table = NULL;
	}
	return table;
}

/*
 * Does a loadable, executable segment hold file offset @offset?  A file
 * without program headers cannot tell; it is taken at its word.
 */
static bool kprobe_user_in_exec_segment(struct kprobe_user_elf *elf,
					loff_t offset)
{
	struct elf_phdr *ph;
	bool exec = true;
	int i;

	ph = kprobe_user_read_table(elf->file, elf->ehdr.e_phoff,
				    elf->ehdr.e_phnum, elf->ehdr.e_phentsize,
				    sizeof(*ph));
	if (!ph)
		return true;
	for (i = 0; i < elf->ehdr.e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD || offset < ph[i].p_offset ||
		    offset - ph[i].p_offset >= ph[i].p_filesz)
			continue;
		exec = ph[i].p_flags & PF_X;
		goto out;
	}
	exec = false;
out:
	kfree(ph);
	return exec;
}

/*
 * If symbol @sym is a function whose bytes hold file offset @offset, its
 * first byte's file offset, else -1.
 */
static loff_t kprobe_user_func_start(struct kprobe_user_elf *elf,
				     const struct kprobe_user_sym *sym,
				     loff_t offset)
{
	const struct elf_shdr *sh;
	u64 start, off = offset, value = sym->st_value;
	unsigned int mode;

	if (ELF_ST_TYPE(sym->st_info) != STT_FUNC || !sym->st_size ||
	    sym->st_shndx == SHN_UNDEF ||
	    sym->st_shndx >= elf->ehdr.e_shnum)
		return -1;
	/* The arch takes the ISA mode bits (Thumb, microMIPS) off the value. */
	mode = arch_kprobe_user_sym_mode(elf->ehdr.e_flags, sym->st_other,
					 &value);
	sh = &elf->shdrs[sym->st_shndx];
	if (sh->sh_type != SHT_PROGBITS || !(sh->sh_flags & SHF_EXECINSTR) ||
	    value < sh->sh_addr || value - sh->sh_addr >= sh->sh_size)
		return -1;
	start = value - sh->sh_addr + sh->sh_offset;
	if (off < start || off - start >= sym->st_size)
		return -1;
	elf->mode = mode;
	return start;
}

/*
 * The file offset where the function holding @offset starts, by the
 * symbol table (.symtab, else .dynsym), or -1 when no symbol tells.
 */
static loff_t kprobe_user_find_func(struct kprobe_user_elf *elf,
				    loff_t offset)
{
	const struct elf_shdr *tab = NULL;
	struct kprobe_user_sym *syms;
	loff_t start = -1;
	u64 i, n, count;
	int s;

	for (s = 0; s < elf->ehdr.e_shnum; s++) {
		if (elf->shdrs[s].sh_type == SHT_SYMTAB ||
		    (!tab && elf->shdrs[s].sh_type == SHT_DYNSYM))
			tab = &elf->shdrs[s];
	}
	if (!tab || tab->sh_entsize != sizeof(struct kprobe_user_sym))
		return -1;
	syms = kmalloc_array(KPROBE_USER_SYM_BATCH, sizeof(*syms), GFP_KERNEL);
	if (!syms)
		return -1;
	count = tab->sh_size / sizeof(struct kprobe_user_sym);
	for (i = 0; i < count && start < 0; i += n) {
		n = min_t(u64, count - i, KPROBE_USER_SYM_BATCH);
		if (kprobe_user_read(elf->file,
				     tab->sh_offset + i * sizeof(*syms), syms,
				     n * sizeof(*syms)))
			break;
		for (s = 0; s < n && start < 0; s++)
			start = kprobe_user_func_start(elf, &syms[s], offset);
		cond_resched();
	}
	kfree(syms);
	return start;
}

/*
 * Decode from the function's first instruction at @start, which is at
 * most @offset, in the function's ISA mode @mode: does one begin at
 * @offset?  Undecodable bytes (data in the text, say) tell nothing.
 * @size is the file size the checks began with, more than @offset; a
 * file truncated since cannot be read to the end of the range and is
 * refused (-EINVAL, as for an offset outside).
 */
static int kprobe_user_check_boundary(struct file *file, loff_t size,
				      loff_t start, loff_t offset,
				      unsigned int mode)
{
	size_t len;
	loff_t pos = 0;
	int ret, n;
	u8 *buf;

	if (offset - start > KPROBE_USER_MAX_DECODE)
		return 0;
	/* Both terms are positive: start <= offset < size. */
	len = min_t(loff_t, offset - start + KPROBE_USER_INSN_MAX,
		    size - start);
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = kprobe_user_read(file, start, buf, len);
	if (ret)
		goto out;
	while (start + pos < offset) {
		n = arch_kprobe_user_insn_len(buf + pos, len - pos, mode);
		if (n <= 0)
			goto out;
		pos += n;
	}
	if (start + pos != offset)
		ret = -EILSEQ;
out:
	kvfree(buf);
	return ret;
}

/*
 * What the ELF headers of @file say about a probe at @offset.  Files that
 * are not ELF of this kernel's class and architecture tell nothing: 0.  -EINVAL when the
 * file no longer reaches @offset.
 */
static int kprobe_user_check_file(struct file *file, loff_t offset)
{
	struct kprobe_user_elf elf = { .file = file };
	loff_t size = i_size_read(file_inode(file));
	loff_t start;
	int ret = 0;

	if (offset >= size)
		return -EINVAL;
	if (kprobe_user_read(file, 0, &elf.ehdr, sizeof(elf.ehdr)) ||
	    memcmp(elf.ehdr.e_ident, ELFMAG, SELFMAG) ||
	    elf.ehdr.e_ident[EI_CLASS] != ELF_CLASS ||
	    elf.ehdr.e_machine != ELF_ARCH ||
	    (elf.ehdr.e_type != ET_EXEC && elf.ehdr.e_type != ET_DYN))
		return 0;

	/* 1. Code, not data: an executable segment holds the offset. */
	if (!kprobe_user_in_exec_segment(&elf, offset))
		return -ENOEXEC;

	/* 2. An instruction boundary, if a symbol table tells. */
	elf.shdrs = kprobe_user_read_table(file, elf.ehdr.e_shoff,
					   elf.ehdr.e_shnum,
					   elf.ehdr.e_shentsize,
					   sizeof(struct elf_shdr));
	if (!elf.shdrs)
		return 0;
	start = kprobe_user_find_func(&elf, offset);
	if (start >= 0)
		ret = kprobe_user_check_boundary(file, size, start, offset,
						 elf.mode);
	kfree(elf.shdrs);
	return ret;
}

/*
 * A struct file to read @inode through: that of some process's mapping
 * of it, with a reference for the caller to drop; NULL when nothing maps
 * the file.
 */
static struct file *kprobe_user_mapped_file(struct inode *inode)
{
	struct address_space *mapping = inode->i_mapping;
	struct vm_area_struct *vma;
	struct file *file = NULL;

	i_mmap_lock_read(mapping);
	vma = vma_interval_tree_iter_first(&mapping->i_mmap, 0, ULONG_MAX);
	/* The mapping holds the file while it is in the tree. */
	if (vma)
		file = get_file(vma->vm_file);
	i_mmap_unlock_read(mapping);
	return file;
}

/*
 * Check @ku's offset against the file, read through @file, unless that
 * was done.  kprobe_user_mutex held.
 */
static int kprobe_user_check_once_locked(struct kprobe_user *ku,
					 struct file *file)
{
	int ret;

	lockdep_assert_held(&kprobe_user_mutex);
	if (ku->checked)
		return 0;
	ret = kprobe_user_check_file(file, ku->offset);
	ku->checked = !ret;
	return ret;
}

/**
 * register_kprobe_user - register a probe on an instruction in a file
 * @p: the probe: @p->user names the file and offset, and at least one of
 *	@p->pre_handler and @p->post_handler is set; @p->fault_handler is
 *	optional.  @p->addr, @p->symbol_name and @p->offset are not used
 *
 * The probe is armed nowhere until insert_kprobe_userspace().  The
 * handlers run in the probed task's context, with its user registers in
 * @regs; they may sleep.  @p->pre_handler runs before the instruction;
 * if it moves the instruction pointer, the task resumes there and the
 * instruction and @p->post_handler are skipped, otherwise its return
 * value is ignored.  @p->post_handler runs after the instruction with
 * the registers it left.  @p->fault_handler runs when executing the
 * instruction out of line trapped, with the trap's registers and number;
 * the trap then reaches the program as it would without the probe; a
 * step that a fatal signal cut short calls no handler.
 *
 * The checks of the offset against the file's headers (-ENOEXEC,
 * -EILSEQ) read it through a process's mapping of it.  When no process
 * maps the file yet, they are made by the first insert_kprobe_userspace()
 * instead, which then fails with their error.
 * Context: process, may sleep; not from a uprobe handler.
 *
 * Return: 0; -EINVAL without @p->user, an inode, a handler, or for an
 * offset outside the file; -EBUSY when @p->user is registered already;
 * -ENOEXEC when the file's program headers put the offset outside
 * executable code; -EILSEQ when it is not aligned as the architecture's
 * instructions are (arm64: 4 bytes; checked at once) or the symbol table
 * shows it is inside an instruction; -EIO for a file that can be neither
 * read through its address space (no ->read_folio) nor is shmem;
 * -EDEADLK from a uprobe handler; -ENOMEM; an error reading the file.
 */
int register_kprobe_user(struct kprobe *p)
{
	struct kprobe_user *ku = p->user;
	struct uprobe *uprobe;
	struct file *file;
	int ret;

	/* 1. What only the caller can get wrong. */
	if (kprobe_user_in_handler())
		return -EDEADLK;
	if (!ku || !ku->inode || (!p->pre_handler && !p->post_handler))
		return -EINVAL;
	if (!S_ISREG(ku->inode->i_mode) || ku->offset < 0 ||
	    ku->offset >= i_size_read(ku->inode))
		return -EINVAL;
	/* Where instructions are aligned, a misaligned offset is inside one. */
	if (!IS_ALIGNED(ku->offset, UPROBE_SWBP_INSN_SIZE))
		return -EILSEQ;
	if (!ku->inode->i_mapping->a_ops->read_folio &&
	    !shmem_mapping(ku->inode->i_mapping))
		return -EIO;

	mutex_lock(&kprobe_user_mutex);
	ret = -EBUSY;
	if (ku->kp)
		goto out;

	/* 2. What the file says about the offset, if it can be read now. */
	ku->checked = false;
	file = kprobe_user_mapped_file(ku->inode);
	if (file) {
		ret = kprobe_user_check_once_locked(ku, file);
		fput(file);
		if (ret)
			goto out;
	}

	/* 3. An empty armed list: uprobes places no breakpoint yet. */
	spin_lock_init(&ku->lock);
	INIT_LIST_HEAD(&ku->armed);
	ku->dying = false;
	ku->kp = p;
	kprobe_clear_misses(p);
	memset(&ku->consumer, 0, sizeof(ku->consumer));
	ku->consumer.handler = kprobe_user_pre;
	ku->consumer.post_handler = kprobe_user_post;
	ku->consumer.fault_handler = kprobe_user_fault;
	ku->consumer.filter = kprobe_user_filter;

	/* 4. Become a consumer of the uprobe at (inode, offset). */
	uprobe = uprobe_register(ku->inode, ku->offset, 0, &ku->consumer);
	if (IS_ERR(uprobe)) {
		ku->kp = NULL;
		ret = PTR_ERR(uprobe);
		goto out;
	}
	ku->uprobe = uprobe;
	ret = 0;
out:
	mutex_unlock(&kprobe_user_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(register_kprobe_user);

/* Is @p a user probe registered with us?  kprobe_user_mutex held. */
static bool kprobe_user_registered_locked(struct kprobe *p)
{
	lockdep_assert_held(&kprobe_user_mutex);
	return p->user && p->user->kp == p;
}

/*
 * Does @mm map @inode at @offset executably?  0, with a reference on the
 * mapping's file in *@file; -ENOENT when nothing there maps it, -ENOEXEC
 * when only non-executable mappings do.
 */
static int kprobe_user_check_mm(struct mm_struct *mm, struct inode *inode,
				loff_t offset, struct file **file)
{
	VMA_ITERATOR(vmi, mm, 0);
	struct vm_area_struct *vma;
	int ret = -ENOENT;
	loff_t start, size;

	mmap_read_lock(mm);
	for_each_vma(vmi, vma) {
		if (!vma->vm_file || file_inode(vma->vm_file) != inode)
			continue;
		start = (loff_t)vma->vm_pgoff << PAGE_SHIFT;
		size = vma->vm_end - vma->vm_start;
		if (offset < start || offset - start >= size)
			continue;
		if (vma->vm_flags & VM_EXEC) {
			*file = get_file(vma->vm_file);
			ret = 0;
			break;
		}
		ret = -ENOEXEC;
	}
	mmap_read_unlock(mm);
	return ret;
}

/**
 * insert_kprobe_userspace - arm a user-space probe in one address space
 * @p: a probe registered with register_kprobe_user()
 * @mm: the address space, e.g. get_task_mm() of a task running the file
 *
 * The breakpoint goes into every executable mapping of the file at the
 * probe's offset in @mm, and into those @mm makes later, until
 * remove_kprobe_user() or unregister_kprobe_user().  Other address
 * spaces, a child that @mm's task forks included, are not armed.  The
 * interface this implements passed the page and mapping; the mm is what
 * the kernel's uprobes arms by.  @mm is pinned (mmgrab()) while armed;
 * the caller keeps its own reference for the call.  If registration
 * could not check the offset against the file (nothing mapped it then),
 * the first call here does, through @mm's mapping.  Context: process,
 * may sleep; not from a uprobe handler.
 *
 * Return: 0; -EINVAL when @p is not registered; -EEXIST when it is armed
 * in @mm already; -ENOENT when @mm does not map the offset; -ENOEXEC when
 * it maps it only without execute permission, or the file's headers put
 * it outside code; -EILSEQ when the symbol table shows it is inside an
 * instruction; uprobes' error when it cannot place the breakpoint
 * (-ENOTSUPP for an instruction it cannot step); -EDEADLK from a uprobe
 * handler; -ENOMEM.  Nothing changes on an error.
 */
int insert_kprobe_userspace(struct kprobe *p, struct mm_struct *mm)
{
	struct kprobe_user *ku = p->user;
	struct kprobe_user_mm *e;
	struct file *file;
	int ret;

	if (kprobe_user_in_handler())
		return -EDEADLK;
	if (!mm)
		return -EINVAL;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->mm = mm;

	mutex_lock(&kprobe_user_mutex);
	ret = -EINVAL;
	if (!kprobe_user_registered_locked(p))
		goto out_free;
	ret = kprobe_user_check_mm(mm, ku->inode, ku->offset, &file);
	if (ret)
		goto out_free;
	ret = kprobe_user_check_once_locked(ku, file);
	fput(file);
	if (ret)
		goto out_free;

	/* 1. Let the filter accept @mm, unless it does already. */
	spin_lock(&ku->lock);
	ret = kprobe_user_find_mm(ku, mm) ? -EEXIST : 0;
	if (!ret) {
		mmgrab(mm);
		list_add_tail(&e->node, &ku->armed);
	}
	spin_unlock(&ku->lock);
	if (ret)
		goto out_free;

	/* 2. uprobes places the breakpoints the filter now accepts. */
	ret = uprobe_apply(ku->uprobe, &ku->consumer, true);
	if (ret) {
		spin_lock(&ku->lock);
		list_del(&e->node);
		spin_unlock(&ku->lock);
		/* Take out what went in before the failure. */
		uprobe_apply(ku->uprobe, &ku->consumer, false);
		mmdrop(mm);
		goto out_free;
	}
	mutex_unlock(&kprobe_user_mutex);
	return 0;

out_free:
	mutex_unlock(&kprobe_user_mutex);
	kfree(e);
	return ret;
}
EXPORT_SYMBOL_GPL(insert_kprobe_userspace);

/**
 * remove_kprobe_user - disarm a user-space probe in one address space
 * @p: a probe registered with register_kprobe_user()
 * @mm: an address space insert_kprobe_userspace() armed it in
 *
 * When this returns the breakpoint is out of @mm and no handler of @p
 * starts for @mm; one already running finishes.  Context: process, may
 * sleep; not from a uprobe handler.
 *
 * Return: 0; -EINVAL when @p is not registered; -ENOENT when it is not
 * armed in @mm; -EDEADLK from a uprobe handler.
 */
int remove_kprobe_user(struct kprobe *p, struct mm_struct *mm)
{
	struct kprobe_user *ku = p->user;
	struct kprobe_user_mm *e = NULL;
	int ret;

	if (kprobe_user_in_handler())
		return -EDEADLK;
	mutex_lock(&kprobe_user_mutex);
	ret = -EINVAL;
	if (!kprobe_user_registered_locked(p))
		goto out;

	/* 1. The filter stops accepting @mm, and so do the handlers. */
	spin_lock(&ku->lock);
	e = kprobe_user_find_mm(ku, mm);
	if (e)
		list_del(&e->node);
	spin_unlock(&ku->lock);
	ret = -ENOENT;
	if (!e)
		goto out;

	/* 2. uprobes takes the breakpoints out where nobody wants them. */
	uprobe_apply(ku->uprobe, &ku->consumer, false);
	mmdrop(e->mm);
	kfree(e);
	ret = 0;
out:
	mutex_unlock(&kprobe_user_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(remove_kprobe_user);

/**
 * unregister_kprobe_user - remove a user-space probe everywhere
 * @p: a probe registered with register_kprobe_user(), or one whose
 *	registration failed (then nothing happens)
 *
 * Disarms the probe in every address space it is still armed in.  When
 * this returns no handler of @p is running or will run, and @p->user may
 * be registered again.  Hits that arrive while it works run no handler
 * and count in @p->nmissed.  Called from a uprobe handler, @p's own
 * included, it would wait for that handler: it warns and does nothing
 * then, and the probe stays registered.  Context: process, may sleep.
 */
void unregister_kprobe_user(struct kprobe *p)
{
	struct kprobe_user *ku = p->user;
	struct kprobe_user_mm *e, *tmp;

	if (kprobe_user_in_handler())
		return;

	mutex_lock(&kprobe_user_mutex);
	if (!kprobe_user_registered_locked(p))
		goto out;

	/* 1. From now on a hit only counts as missed. */
	spin_lock(&ku->lock);
	ku->dying = true;
	spin_unlock(&ku->lock);

	/* 2. Leave the uprobe, whose breakpoints go where nobody wants them. */
	uprobe_unregister_nosync(ku->uprobe, &ku->consumer);

	/* 3. Wait for handlers that started before step 2. */
	uprobe_unregister_sync();

	/* 4. Nothing looks at the armed list any more. */
	list_for_each_entry_safe(e, tmp, &ku->armed, node) {
		list_del(&e->node);
		mmdrop(e->mm);
		kfree(e);
	}
	ku->uprobe = NULL;
	ku->kp = NULL;
out:
	mutex_unlock(&kprobe_user_mutex);
}
EXPORT_SYMBOL_GPL(unregister_kprobe_user);
