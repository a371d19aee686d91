// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Jprobes: the classic mirror-function interface, built on kprobes.
 *
 * A jprobe is a kprobe on a function's entry whose pre handler does not
 * let the hit go on: it sends the CPU into a "mirror" function that has
 * the probed function's prototype.  The mirror finds the arguments where
 * the probed function would find them, in registers and on the stack,
 * and ends by calling jprobe_return() instead of returning.  That call
 * traps; the trap puts back everything the mirror may have changed and
 * the hit goes on like any other: the original instruction executes and
 * the post handlers of the site run.
 *
 * One hit, step by step (the code below is numbered the same way):
 *
 *   1. jprobe_divert(), the pre handler: save the registers and the top
 *      of the stack (where arguments beyond the registers live) in this
 *      CPU's save area, mark the hit as paused, disable preemption and
 *      point the context at the mirror;
 *   2. the mirror runs in the interrupted context.  The hit is still open
 *      on this CPU, so probes it reaches count as missed;
 *   3. jprobe_return() traps and the architecture calls
 *      kprobe_jprobe_return(): forget the mirror's stack frames, restore
 *      the stack bytes and registers of step 1, enable preemption and
 *      resume the hit at the original instruction.
 *
 * One save area per CPU is enough: preemption is off from step 1 to
 * step 3 and no other jprobe can start on this CPU while a hit is open.
 * Disabled preemption also makes the mirror an RCU read-side critical
 * section, which is what lets unregister_jprobe() promise that no mirror
 * call is still running when it returns.
 *
 * A jprobe's pre handler must run after the other probes at its address,
 * since the hit does not come back to the list: the core keeps jprobes
 * last, and allows one per address.
 */
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/kasan.h>
#include <linux/minmax.h>
#include <linux/preempt.h>

#include "internal.h"

/*
 * What a hit saves for its mirror: the registers, the stack pointer, and
 * @len bytes of stack from @start, the region the architecture says the
 * mirror may change (arch_jprobe_stack_region()).
 */
struct jprobe_save {
	struct pt_regs regs;
	unsigned long sp;
	unsigned long start;
	unsigned long len;
	unsigned long stack[KPROBE_JPROBE_STACK_BYTES / sizeof(long)];
};

static DEFINE_PER_CPU(struct jprobe_save, jprobe_save);

/*
 * Copy whole words to or from the stack.  The words around a stack
 * pointer belong to other functions' frames and may be KASAN redzones:
 * this copy is not checked.
 */
static void __no_sanitize_address
jprobe_copy_words(unsigned long *to, const unsigned long *from,
		  unsigned long len)
{
	unsigned long i;

	for (i = 0; i < len / sizeof(long); i++)
		WRITE_ONCE(to[i], READ_ONCE(from[i]));
}

NOKPROBE_SYMBOL(jprobe_copy_words);

int jprobe_divert(struct kprobe *p, struct pt_regs *regs)
{
	struct jprobe *jp = container_of(p, struct jprobe, kp);
	struct jprobe_save *s = this_cpu_ptr(&jprobe_save);
	struct kprobe_frame *f = kprobe_top_frame();

	/* 1. Save what the mirror may change; pause the hit; divert. */
	s->regs = *regs;
	s->sp = kernel_stack_pointer(regs);
	s->len = min_t(unsigned long,
		       arch_jprobe_stack_region(s->sp, &s->start),
		       sizeof(s->stack));
	jprobe_copy_words(s->stack, (unsigned long *)s->start, s->len);

	f->status = KPROBE_HIT_JPROBE;
	preempt_disable();
	arch_jprobe_enter_mirror(regs, jp->entry);
	return 1;
}

NOKPROBE_SYMBOL(jprobe_divert);

/*
 * The frames the mirror leaves when, at stack pointer @sp, it calls
 * jprobe_return(): between @sp and the hit's stack pointer, below it
 * where the stack grows down, above it where it grows up (parisc).
 * They are abandoned without running their epilogues, so their KASAN
 * redzones are cleared.  Return: false when @sp is on the wrong side.
 */
static bool jprobe_abandon_frames(struct jprobe_save *s, unsigned long sp)
{
	bool up = IS_ENABLED(CONFIG_STACK_GROWSUP);

	if (up ? sp < s->sp : sp > s->sp)
		return false;
	if (up)
		kasan_unpoison_range((void *)s->sp, sp - s->sp);
	else
		kasan_unpoison_range((void *)sp, s->sp - sp);
	return true;
}

NOKPROBE_SYMBOL(jprobe_abandon_frames);

/**
 * kprobe_jprobe_stack_pointer - where jprobe_return() may move the stack
 * @sp: the mirror's stack pointer, in jprobe_return()
 *
 * For an architecture whose return from an exception cannot move the
 * stack pointer (arm64 takes it from where the exception frame was):
 * its jprobe_return() moves there itself before it traps.  The mirror's
 * frames, between @sp and there, are abandoned: their KASAN redzones
 * are cleared.
 *
 * Return: the stack pointer of the hit the mirror paused, or 0 when no
 * mirror runs on this CPU.
 */
unsigned long kprobe_jprobe_stack_pointer(unsigned long sp)
{
	struct jprobe_save *s = this_cpu_ptr(&jprobe_save);
	struct kprobe_frame *f = kprobe_top_frame();

	if (!f || f->status != KPROBE_HIT_JPROBE ||
	    !jprobe_abandon_frames(s, sp))
		return 0;
	return s->sp;
}

NOKPROBE_SYMBOL(kprobe_jprobe_stack_pointer);

/**
 * kprobe_jprobe_return - the breakpoint in jprobe_return() was hit
 * @regs: the trapped context, inside the mirror function
 *
 * Called by the architecture's breakpoint handler.
 *
 * Return: true when a mirror was running on this CPU and the hit it
 * paused was resumed; false when nothing was paused (jprobe_return()
 * called outside a mirror), which leaves @regs alone.
 */
bool kprobe_jprobe_return(struct pt_regs *regs)
{
	struct jprobe_save *s = this_cpu_ptr(&jprobe_save);
	struct kprobe_frame *f = kprobe_top_frame();
	unsigned long sp = kernel_stack_pointer(regs);

	if (!f || f->status != KPROBE_HIT_JPROBE)
		return false;

	/*
	 * 3. Drop the mirror's frames, then put back the stack and the
	 * registers.
	 */
	if (WARN_ON_ONCE(!jprobe_abandon_frames(s, sp)))
		return false;
	jprobe_copy_words((unsigned long *)s->start, s->stack, s->len);
	arch_jprobe_restore_regs(regs, &s->regs);
	preempt_enable_no_resched();

	kprobe_hit_step(f, regs);
	return true;
}

NOKPROBE_SYMBOL(kprobe_jprobe_return);

/**
 * kprobe_is_jprobe - is @p the kprobe of a jprobe?
 * @p: a registered kprobe
 *
 * Return: true for &struct jprobe.kp.
 */
bool kprobe_is_jprobe(struct kprobe *p)
{
	return kprobe_pre_is_jprobe(p);
}
EXPORT_SYMBOL_GPL(kprobe_is_jprobe);

/* A mirror is a function: it must start a symbol. */
static bool jprobe_entry_ok(void *entry)
{
	unsigned long size, off;

	return entry &&
	       kallsyms_lookup_size_offset(arch_jprobe_mirror_entry(entry),
					   &size, &off) &&
	       !off;
}

/**
 * register_jprobe - call a mirror function at a function's entry
 * @jp: the jprobe; @jp->kp names the probed function, @jp->entry the
 *	mirror
 *
 * Other kprobes and a kretprobe may share the address; another jprobe
 * may not.
 *
 * Return: 0; -EINVAL when @jp->entry is not the start of a function or
 * the address is not a function entry; -EEXIST when the address already
 * has a jprobe; -ENOENT for an unknown symbol; -ENOMEM; or
 * register_kprobe()'s error when the kprobe cannot be placed.
 */
int register_jprobe(struct jprobe *jp)
{
	return register_jprobes(&jp, 1);
}
EXPORT_SYMBOL_GPL(register_jprobe);

/* Check @jp and turn its kprobe into a jprobe's. */
static int jprobe_prepare(struct jprobe *jp)
{
	int ret;

	if (kprobe_registered(&jp->kp) || !jprobe_entry_ok(jp->entry))
		return -EINVAL;
	ret = kprobe_on_func_entry(jp->kp.addr, jp->kp.symbol_name,
				   jp->kp.offset);
	if (ret)
		return ret;

	jp->kp.pre_handler = jprobe_divert;
	jp->kp.post_handler = NULL;
	return 0;
}

/**
 * register_jprobes - register several jprobes, all or none
 * @jps: the jprobes
 * @num: how many
 *
 * Return: 0, or the first error (the jprobes before it are removed).
 */
int register_jprobes(struct jprobe **jps, int num)
{
	int i, done, ret;

	if (num <= 0)
		return -EINVAL;
	for (i = 0; i < num; i++) {
		ret = jprobe_prepare(jps[i]);
		if (ret)
			return ret;
	}
	ret = kprobes_register_batch((void *const *)jps, num,
				     offsetof(struct jprobe, kp), &done);
	if (ret)
		unregister_jprobes(jps, done);
	return ret;
}
EXPORT_SYMBOL_GPL(register_jprobes);

/**
 * unregister_jprobes - remove several jprobes
 * @jps: the jprobes
 * @num: how many
 *
 * Returns once no mirror of any of them runs; they share one grace
 * period.
 */
void unregister_jprobes(struct jprobe **jps, int num)
{
	kprobes_unregister_batch((void *const *)jps, num,
				 offsetof(struct jprobe, kp));
}
EXPORT_SYMBOL_GPL(unregister_jprobes);

/**
 * unregister_jprobe - remove a jprobe
 * @jp: the jprobe; ignored when not registered
 */
void unregister_jprobe(struct jprobe *jp)
{
	unregister_jprobes(&jp, 1);
}
EXPORT_SYMBOL_GPL(unregister_jprobe);

/**
 * enable_jprobe - arm a disabled jprobe
 * @jp: the jprobe
 *
 * Return: as enable_kprobe().
 */
int enable_jprobe(struct jprobe *jp)
{
	return enable_kprobe(&jp->kp);
}
EXPORT_SYMBOL_GPL(enable_jprobe);

/**
 * disable_jprobe - stop calling the mirror without unregistering
 * @jp: the jprobe
 *
 * Return: as disable_kprobe().
 */
int disable_jprobe(struct jprobe *jp)
{
	return disable_kprobe(&jp->kp);
}
EXPORT_SYMBOL_GPL(disable_jprobe);

/*
 * jprobe_return() is the architecture's, a trap written in assembly.  It
 * is exported here, from C, because genksyms reads C prototypes only: an
 * export in the assembly file would carry no CRC, and with MODVERSIONS
 * no module calling it could load.
 */
EXPORT_SYMBOL_GPL(jprobe_return);
