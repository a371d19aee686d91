// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: return probes.
 *
 * A return probe is a kprobe on a function's entry whose pre handler
 * takes an instance from the probe's pool, remembers the return address
 * and replaces it with the architecture's return trampoline.  When the
 * function returns, the trampoline calls kretprobe_trampoline_handler(),
 * which finds the instance again, runs the return handler and gives the
 * real return address back to the trampoline.
 *
 * Instances in flight are chained on their task (task->kretprobe_instances)
 * newest first, so the chain mirrors the task's stack.  Only the task
 * itself adds to and takes from its chain, from the entry probe (handler
 * context) or from the trampoline, which marks itself busy with
 * kprobe_running() first.  An interrupt or NMI that comes in meanwhile
 * may hook and return from functions of its own on the same chain: it
 * pushes its instances on top and takes them off again before it
 * returns, so the chain is as the trampoline left it.
 *
 * Tail calls: when a hooked function f ends with a jump to a hooked
 * function g, g's entry probe finds the trampoline's address where the
 * return address was, and its instance keeps that, with the frame of
 * f's.  Such an instance stands for the same return as the next instance
 * of its frame down the chain, and the one return to the trampoline ends
 * them all, g's first: every handler sees the real return address.
 *
 * Unwinders read the chain of a task that does not run, from another
 * CPU, and the task may start and return meanwhile.  They read it under
 * rcu_read_lock(), and a pool is freed only after a grace period that
 * follows the return of its last instance (pool_release_iw()), so what
 * they read stays memory of an instance until they are done.
 *
 * Pools and lifetimes: each probe owns an objpool of instances.  An
 * instance may still be in flight when its probe is unregistered: the
 * real return address must never be lost.  The pool counts a reference
 * per instance plus one for the registration, and a hit counts nothing:
 *
 *   1. while the probe is registered, instances only go out of and back
 *      into the objpool;
 *   2. unregistering clears the pool's back pointer (no handler starts
 *      from then on) and waits for the hits in flight
 *      (kprobe_hits_quiesce(): an instance goes home only from a hit, or
 *      with kprobes marked busy, after reading the pointer);
 *   3. it then retires the instances at home and the registration's
 *      reference; an instance that comes back later finds the pointer
 *      clear and retires itself.
 *
 * Whoever drops the last reference, possibly a return in interrupt or
 * NMI context, queues an irq_work that hands the freeing to a workqueue,
 * after an RCU grace period (see the unwinders, above).
 *
 * Growth: with maxactive > 0 the pool is one objpool of that many
 * instances, and a call that finds none free is missed.  With the default
 * (maxactive <= 0) nobody can say how many calls will be in flight at
 * once (thousands of tasks may sleep in one function), so the pool is a
 * chain of tiers, each an objpool with its own references as above:
 *
 *   1. registration makes two tiers of KRETPROBE_DEFAULT_INSTANCES, the
 *      second one ready for when the first runs dry;
 *   2. a call takes an instance from the oldest tier that has one; an
 *      instance always goes home to its own tier;
 *   3. a call that takes one from the newest tier (every older one was
 *      empty) marks it drawn and asks, through an irq_work (it may run in
 *      any context), for a work that appends a tier twice as big as all
 *      the others together, up to KRETPROBE_MAX_INSTANCES: at least two
 *      thirds of the pool are free then.  Each tier asks once: at the
 *      cap, the newest stays drawn and nothing asks again.  The work runs on a kthread
 *      worker of its own at a real-time priority: a burst of calls comes
 *      from as many runnable tasks, and a worker that competes with them
 *      (or a workqueue that has to create one) would come too late;
 *   4. unregistration clears every tier's back pointer under the grow
 *      mutex, so that no tier is appended after it, and retires them all.
 *
 * A call is missed only when more calls than the pool holds free come
 * in before one work item runs, or at the cap; nmissed counts each one.
 * Tiers are never taken away while the probe is registered.
 */
#include <linux/kprobes.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/llist.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "internal.h"

/* Instances per tier to start with when the caller leaves maxactive <= 0. */
#define KRETPROBE_DEFAULT_INSTANCES(ncpus)	max(64, 8 * (ncpus))
/* How many instances the tiers of one such probe may hold in all. */
#define KRETPROBE_MAX_INSTANCES			65536

/* Growth step 3 against step 4: no tier joins an unregistered probe. */
static DEFINE_MUTEX(kretprobe_grow_mutex);
/* Growth step 3's worker; NULL if it could not be made (pools never grow). */
static struct kthread_worker *kretprobe_grow_worker;

static struct kprobe kretprobe_busy;

static int kretprobe_entry(struct kprobe *p, struct pt_regs *regs);

/**
 * kprobe_is_kretprobe - is @p the entry probe of a return probe?
 * @p: a registered kprobe
 *
 * Return: true if it is.
 */
bool kprobe_is_kretprobe(struct kprobe *p)
{
	return p->pre_handler == kretprobe_entry;
}
EXPORT_SYMBOL_GPL(kprobe_is_kretprobe);

/* Drop a reference; the last one frees the pool from a workqueue. */
static void pool_put(struct kretprobe_pool *pool)
{
	if (atomic_dec_and_test(&pool->refs))
		irq_work_queue(&pool->release_iw);
}

NOKPROBE_SYMBOL(pool_put);

/* Step 1 or 3: home, or retired once the probe is gone. */
static void instance_put(struct kretprobe_instance *ri)
{
	struct kretprobe_pool *pool = ri->pool;

	/* Inside a hit or busy section: the unregistration waits for it. */
	lockdep_assert(kprobe_running());
	if (likely(rcu_access_pointer(pool->rp)))
		objpool_push(ri, &pool->objs);
	else
		pool_put(pool);
}

NOKPROBE_SYMBOL(instance_put);

/*
 * Step 3 for a pool whose probe is gone and whose hits are over: the
 * instances at home and the registration drop their references.
 */
static void pool_retire_home(struct kretprobe_pool *pool)
{
	int n = 1;

	WARN_ON_ONCE(rcu_access_pointer(pool->rp));
	while (objpool_pop(&pool->objs))
		n++;
	if (atomic_sub_and_test(n, &pool->refs))
		irq_work_queue(&pool->release_iw);
}

/*
 * The last instance came back, but an unwinder on another CPU may still
 * be reading it (kretprobe_find_ret_addr()): free after a grace period.
 * An rcu_work rather than a synchronize_rcu() in the work: it only asks
 * call_rcu() here, which hard interrupt context allows, and no worker
 * sits blocked for the length of a grace period.
 */
static void pool_release_iw(struct irq_work *iw)
{
	struct kretprobe_pool *pool;

	pool = container_of(iw, struct kretprobe_pool, release_iw);
	queue_rcu_work(system_wq, &pool->release_rwork);
}

/* The pool freed last (a name, never read) and how many were (KUnit). */
static struct kretprobe_pool *kretprobe_pool_freed_last;
static atomic_long_t kretprobe_pools_freed;

/**
 * kretprobe_pool_last_freed - the pool freed last
 * @count: receives how many pools were freed so far
 *
 * For the KUnit suites, which check when a pool is freed.  The pointer
 * only names the pool; what it points to is gone, and a later pool may
 * be at the same address: compare @count too.
 *
 * Return: the pool, or NULL when none was freed yet.
 */
const void *kretprobe_pool_last_freed(unsigned long *count)
{
	/* Acquire: the pool that goes with the count. */
	*count = atomic_long_read_acquire(&kretprobe_pools_freed);
	return READ_ONCE(kretprobe_pool_freed_last);
}
EXPORT_SYMBOL_IF_KUNIT(kretprobe_pool_last_freed);

static void pool_release_work(struct work_struct *work)
{
	struct kretprobe_pool *pool;

	pool = container_of(to_rcu_work(work), struct kretprobe_pool,
			    release_rwork);
	/* The irq_work may still be finishing on another CPU. */
	irq_work_sync(&pool->release_iw);
	WRITE_ONCE(kretprobe_pool_freed_last, pool);
	/* Release: pairs with kretprobe_pool_last_freed(). */
	atomic_long_inc_return_release(&kretprobe_pools_freed);
	/*
	 * Every instance is retired and none is in the objpool any more, so
	 * its own count would never drop to zero: free it outright, the
	 * instances and, last (pool_release()), the pool.
	 */
	objpool_free(&pool->objs);
}

/*
 * Growth step 2 past the first tier, and step 3.  Tiers are appended with
 * a release: the acquire makes the new one's objpool ready to use.
 */
static noinline struct kretprobe_instance *
instance_get_newer(struct kretprobe_pool *first)
{
	struct kretprobe_pool *pool = first, *next;
	struct kretprobe_instance *ri;

	/* Acquire: pairs with the release in pool_grow_work(). */
	while ((next = smp_load_acquire(&pool->newer))) {
		pool = next;
		ri = objpool_pop(&pool->objs);
		if (!ri)
			continue;
		/* Only whether there is a newer tier: nothing read from it. */
		if (!READ_ONCE(pool->newer) && !READ_ONCE(pool->drawn)) {
			WRITE_ONCE(pool->drawn, true);
			irq_work_queue(&first->grow_iw);
		}
		return ri;
	}
	return NULL;
}

NOKPROBE_SYMBOL(instance_get_newer);

/* Growth step 2: an instance from the oldest tier that has one. */
static struct kretprobe_instance *instance_get(struct kretprobe *rp)
{
	struct kretprobe_instance *ri = objpool_pop(&rp->pool->objs);

	if (likely(ri))
		return ri;
	return instance_get_newer(rp->pool);
}

NOKPROBE_SYMBOL(instance_get);

static int kretprobe_entry(struct kprobe *p, struct pt_regs *regs)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	struct kretprobe_instance *ri;

	ri = instance_get(rp);
	if (!ri) {
		kprobe_count_inc(&rp->nmissed);
		return 0;
	}
	ri->task = current;
	if (rp->entry_handler && rp->entry_handler(ri, regs)) {
		instance_put(ri);
		return 0;
	}
	arch_kretprobe_hook(ri, regs);
	__llist_add(&ri->llist, &current->kretprobe_instances);
	return 0;
}

NOKPROBE_SYMBOL(kretprobe_entry);

/* Does @ri stand for the return of the next instance of its frame? */
static bool instance_tail_called(struct kretprobe_instance *ri)
{
	return is_kretprobe_trampoline((unsigned long)ri->ret_addr);
}

NOKPROBE_SYMBOL(instance_tail_called);

/*
 * The instance of @frame, from @node down, whose return address is the
 * real one (not the trampoline's: see "Tail calls" above), or NULL.
 * Readers of another task's chain hold rcu_read_lock().
 */
static struct kretprobe_instance *frame_real_return(struct llist_node *node,
						    unsigned long frame)
{
	struct kretprobe_instance *ri;

	for (; node; node = READ_ONCE(node->next)) {
		ri = llist_entry(node, struct kretprobe_instance, llist);
		if (ri->frame == frame && !instance_tail_called(ri))
			return ri;
	}
	return NULL;
}

NOKPROBE_SYMBOL(frame_real_return);

/*
 * Run @ri's return handler, if its probe still wants it; busy section.
 * Or, when the trampoline could not open one (@run false: it returned
 * inside a section of its own context, from a handler's flow), count the
 * return as missed.
 */
static void instance_return(struct kretprobe_instance *ri,
			    struct pt_regs *regs, unsigned long ret, bool run)
{
	struct kretprobe *rp = get_kretprobe(ri);

	if (!rp || !rp->handler || kprobe_silent(&rp->kp))
		return;
	if (!run) {
		kprobe_count_miss(&rp->kp, KPROBE_MISS_RETURN);
		return;
	}
	instruction_pointer_set(regs, ret);
	kprobe_running_set(&rp->kp);
	rp->handler(ri, regs);
	kprobe_running_set(&kretprobe_busy);
}

NOKPROBE_SYMBOL(instance_return);

/**
 * kretprobe_trampoline_handler - a hooked function returned
 * @regs: registers at the return, built by the trampoline
 * @frame: which call returned, in the value arch_kretprobe_hook() gave
 *	the instance
 *
 * Called by the architecture's trampoline on the returning task:
 *
 *   1. mark kprobes busy on this CPU;
 *   2. drop the instances that frames unwound without returning left
 *      above the first one of @frame;
 *   3. find the real return address: down from there, the first
 *      instance of @frame that was not hooked behind a tail call;
 *   4. run the return handlers of @frame's instances down to that one,
 *      innermost first, each with the real return address in @regs;
 *   5. give all of those instances back.
 *
 * The instances stay on the chain until step 5: an unwinder that meets
 * the trampoline's address in a frame meanwhile still finds them.
 *
 * Return: the real return address.
 */
unsigned long kretprobe_trampoline_handler(struct pt_regs *regs,
					   unsigned long frame)
{
	struct llist_head *chain = &current->kretprobe_instances;
	struct kretprobe_instance *ri, *last;
	struct llist_node *node, *end;
	struct kprobe_outer outer;
	unsigned long ret;
	bool run;

	/*
	 * 1. Busy first, nested in the section an interrupt or NMI that
	 *    returns here came in on.  Inside a section of our own context
	 *    (a handler's flow) the handlers do not run.
	 */
	preempt_disable();
	run = kprobe_section_begin(&kretprobe_busy, &outer);

	/* 2. Deeper, stale instances are given back. */
	while (chain->first) {
		ri = llist_entry(chain->first, struct kretprobe_instance, llist);
		if (ri->frame == frame)
			break;
		chain->first = ri->llist.next;
		instance_put(ri);
	}

	/* 3. The real return address. */
	last = frame_real_return(chain->first, frame);
	if (WARN_ON_ONCE(!last))
		panic("kretprobe: return address for frame %lx lost\n", frame);
	ret = (unsigned long)last->ret_addr;
	end = last->llist.next;
	instruction_pointer_set(regs, ret);

	/* 4. The handlers; what is not of @frame in between is stale. */
	for (node = chain->first; node != end; node = node->next) {
		ri = llist_entry(node, struct kretprobe_instance, llist);
		if (ri->frame == frame)
			instance_return(ri, regs, ret, run);
	}

	/* 5. Recycle and return. */
	while (chain->first != end) {
		ri = llist_entry(chain->first, struct kretprobe_instance, llist);
		chain->first = ri->llist.next;
		instance_put(ri);
	}
	if (run)
		kprobe_section_end(&outer);
	preempt_enable();
	return ret;
}

NOKPROBE_SYMBOL(kretprobe_trampoline_handler);

/* What follows @mark on the chain from @node; NULL if @mark is not on it. */
static struct llist_node *chain_after(struct llist_node *node,
				      struct llist_node *mark)
{
	while (node && node != mark)
		node = READ_ONCE(node->next);
	return node ? READ_ONCE(node->next) : NULL;
}

NOKPROBE_SYMBOL(chain_after);

/**
 * kretprobe_find_ret_addr - the real return address behind a trampoline
 * @tsk: the task whose stack is being unwound
 * @fp: what identifies the call to the unwinder, the value
 *	arch_kretprobe_hook() kept in &kretprobe_instance.frame (x86: where
 *	it found the trampoline's address; arm64: the caller's frame
 *	pointer; RISC-V: the stack pointer at the entry)
 * @cur: unwinder cursor, NULL for the innermost trampoline of a walk: the
 *	search starts after *@cur, and *@cur is set to the node found
 *
 * An unwinder meets the trampoline's address once per hooked return, in
 * the order of the chain, so each call goes on from where the last one
 * stopped.  Instances hooked behind a tail call (see "Tail calls" above)
 * are passed over: the one found holds the real return address.
 *
 * *@cur is only compared with the nodes of the chain, never read: the
 * instance may have been freed since the last call.  The walk itself
 * holds rcu_read_lock(), which keeps what it reads allocated.  A task
 * that runs on another CPU pushes and pops its chain meanwhile, so its
 * chain is not walked (the unwinder gets 0, as with the stock kernel).
 *
 * Return: the real return address, or 0 when no instance matches.
 */
unsigned long kretprobe_find_ret_addr(struct task_struct *tsk, void *fp,
				      struct llist_node **cur)
{
	struct kretprobe_instance *ri = NULL;
	struct llist_node *node;
	unsigned long ret = 0;

	rcu_read_lock();
	if (tsk == current || !task_is_running(tsk)) {
		node = READ_ONCE(tsk->kretprobe_instances.first);
		if (*cur)
			node = chain_after(node, *cur);
		ri = frame_real_return(node, (unsigned long)fp);
	}
	if (ri) {
		*cur = &ri->llist;
		ret = (unsigned long)ri->ret_addr;
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kretprobe_find_ret_addr);
NOKPROBE_SYMBOL(kretprobe_find_ret_addr);

/**
 * kprobe_flush_task - a task is gone: give its instances back
 * @tk: the dead task
 *
 * Runs from the task's RCU-delayed release, a softirq that may have
 * interrupted a hit or a return handler on this CPU.  Busy, so that an
 * unregistration waits for us (step 2 above); if kprobes already was,
 * the interrupted section covers us and stays as it was.
 */
void kprobe_flush_task(struct task_struct *tk)
{
	struct llist_node *node = llist_del_all(&tk->kretprobe_instances);
	struct kretprobe_instance *ri, *tmp;
	struct kprobe *outer;

	preempt_disable();
	outer = kprobe_running();
	if (!outer)
		kprobe_running_begin(&kretprobe_busy);
	llist_for_each_entry_safe(ri, tmp, node, llist)
		instance_put(ri);
	if (!outer)
		kprobe_running_end();
	preempt_enable();
}

NOKPROBE_SYMBOL(kprobe_flush_task);

static int instance_init(void *obj, void *context)
{
	struct kretprobe_instance *ri = obj;

	ri->pool = context;
	return 0;
}

static int pool_release(struct objpool_head *head, void *context)
{
	kfree(context);
	return 0;
}

/* May the function @addr is the entry of not be return-probed? */
static bool refused_function(kprobe_opcode_t *addr)
{
	unsigned long off;

	if (!kallsyms_lookup_size_offset((unsigned long)addr, NULL, &off))
		return false;
	return arch_kretprobe_refuses((unsigned long)addr - off);
}

static int kretprobe_check(struct kretprobe *rp)
{
	kprobe_opcode_t *addr;
	bool on_entry;

	/* Before anything of the caller's is touched, as for a kprobe. */
	if (kprobe_registered(&rp->kp))
		return -EINVAL;
	addr = kprobe_resolve_addr(rp->kp.addr, rp->kp.symbol_name,
				   rp->kp.offset, 0, &on_entry);
	if (IS_ERR(addr))
		return PTR_ERR(addr);
	if (!on_entry || refused_function(addr))
		return -EINVAL;
	if (rp->data_size > KRETPROBE_MAX_DATA_SIZE)
		return -E2BIG;
	return 0;
}

static void pool_grow_iw(struct irq_work *iw)
{
	struct kretprobe_pool *first;

	first = container_of(iw, struct kretprobe_pool, grow_iw);
	kthread_queue_work(kretprobe_grow_worker, &first->grow_work);
}

/* A tier of @nr instances for @rp, not yet in its chain. */
static struct kretprobe_pool *pool_new(struct kretprobe *rp, int nr)
{
	struct kretprobe_pool *pool = kzalloc(sizeof(*pool), GFP_KERNEL);

	if (!pool)
		return NULL;
	if (objpool_init(&pool->objs, nr,
			 sizeof(struct kretprobe_instance) + rp->data_size,
			 GFP_KERNEL, pool, instance_init, pool_release)) {
		kfree(pool);
		return NULL;
	}
	atomic_set(&pool->refs, nr + 1);
	init_irq_work(&pool->release_iw, pool_release_iw);
	INIT_RCU_WORK(&pool->release_rwork, pool_release_work);
	rcu_assign_pointer(pool->rp, rp);
	return pool;
}

/*
 * Growth step 3, the work: append a tier after the newest, if that was
 * drawn from and the probe is still registered.  A tier that cannot be
 * allocated is asked for again by the next call that draws.
 */
static void pool_grow_work(struct kthread_work *work)
{
	struct kretprobe_pool *first, *last, *pool;
	struct kretprobe *rp;
	int total = 0;

	first = container_of(work, struct kretprobe_pool, grow_work);
	mutex_lock(&kretprobe_grow_mutex);
	rp = rcu_dereference_protected(first->rp,
				       lockdep_is_held(&kretprobe_grow_mutex));
	if (!rp)
		goto out;
	for (pool = first; pool; pool = pool->newer) {
		total += pool->objs.nr_objs;
		last = pool;
	}
	if (!READ_ONCE(last->drawn) || total >= KRETPROBE_MAX_INSTANCES)
		goto out;
	pool = pool_new(rp, min(2 * total, KRETPROBE_MAX_INSTANCES - total));
	if (!pool) {
		WRITE_ONCE(last->drawn, false);
		goto out;
	}
	/* Release: the tier is ready before a call can find it. */
	smp_store_release(&last->newer, pool);
out:
	mutex_unlock(&kretprobe_grow_mutex);
}

/* Free the tiers of a probe that was never registered. */
static void pool_chain_fini(struct kretprobe_pool *first)
{
	struct kretprobe_pool *pool, *next;

	for (pool = first; pool; pool = next) {
		next = pool->newer;
		objpool_fini(&pool->objs);
	}
}

/* Give a checked @rp its instances (growth step 1); nothing is registered. */
static int kretprobe_prepare(struct kretprobe *rp)
{
	bool grows = rp->maxactive <= 0 && kretprobe_grow_worker;
	struct kretprobe_pool *first;
	int nr;

	nr = grows ? KRETPROBE_DEFAULT_INSTANCES(num_possible_cpus()) :
		     rp->maxactive;
	first = pool_new(rp, nr);
	if (!first)
		return -ENOMEM;
	init_irq_work(&first->grow_iw, pool_grow_iw);
	kthread_init_work(&first->grow_work, pool_grow_work);
	if (grows) {
		first->newer = pool_new(rp, nr);
		if (!first->newer) {
			pool_chain_fini(first);
			return -ENOMEM;
		}
	}
	rp->pool = first;
	rp->nmissed = 0;
	rp->kp.pre_handler = kretprobe_entry;
	rp->kp.post_handler = NULL;
	return 0;
}

/* Undo kretprobe_prepare() for a probe that was never registered. */
static void kretprobe_unprepare(struct kretprobe *rp)
{
	pool_chain_fini(rp->pool);
	rp->pool = NULL;
}

/* Growth step 4, first part: no handler and no tier for @rp from now on. */
static void pool_chain_orphan(struct kretprobe_pool *first)
{
	struct kretprobe_pool *pool;

	mutex_lock(&kretprobe_grow_mutex);
	for (pool = first; pool; pool = pool->newer)
		RCU_INIT_POINTER(pool->rp, NULL);
	mutex_unlock(&kretprobe_grow_mutex);
}

/* Growth step 4, second part, once no call can ask for a tier. */
static void pool_chain_retire(struct kretprobe_pool *first)
{
	struct kretprobe_pool *pool, *next;

	irq_work_sync(&first->grow_iw);
	kthread_cancel_work_sync(&first->grow_work);
	for (pool = first; pool; pool = next) {
		next = pool->newer;
		pool_retire_home(pool);
	}
}

/**
 * register_kretprobe - hook the returns of a function
 * @rp: the return probe; @rp->kp names the function's entry
 *
 * Return: 0; -EINVAL when the address is not a function entry, the
 * function may not be return-probed, or @rp is already registered;
 * -E2BIG when @data_size exceeds KRETPROBE_MAX_DATA_SIZE; -ENOENT for an
 * unknown symbol; -ENOMEM; or register_kprobe()'s error when the entry
 * probe cannot be placed.
 */
int register_kretprobe(struct kretprobe *rp)
{
	return register_kretprobes(&rp, 1);
}
EXPORT_SYMBOL_GPL(register_kretprobe);

/**
 * unregister_kretprobes - remove several return probes
 * @rps: the probes
 * @num: how many
 *
 * Returns in flight keep working: they go back to their callers, without
 * running the handler.
 */
void unregister_kretprobes(struct kretprobe **rps, int num)
{
	int i;

	if (num <= 0)
		return;
	/* 1. Returns from now on run no handler of these probes. */
	for (i = 0; i < num; i++) {
		if (rps[i]->pool)
			pool_chain_orphan(rps[i]->pool);
	}
	/*
	 * 2. Remove the entry probes.  The wait for the hits in flight
	 * that this ends with covers the return handlers too.
	 */
	kprobes_unregister_batch((void *const *)rps, num,
				 offsetof(struct kretprobe, kp));
	/* 3. Retire the instances at home; those in flight follow. */
	for (i = 0; i < num; i++) {
		if (!rps[i]->pool)
			continue;
		pool_chain_retire(rps[i]->pool);
		rps[i]->pool = NULL;
	}
}
EXPORT_SYMBOL_GPL(unregister_kretprobes);

/**
 * unregister_kretprobe - remove a return probe
 * @rp: the probe
 */
void unregister_kretprobe(struct kretprobe *rp)
{
	unregister_kretprobes(&rp, 1);
}
EXPORT_SYMBOL_GPL(unregister_kretprobe);

/**
 * register_kretprobes - hook several functions, all or none
 * @rps: the probes
 * @num: how many
 *
 * The entry probes are placed as one batch (see register_kprobes()).
 *
 * Return: 0, or the first error (the earlier probes are removed again);
 * -EINVAL also when a probe is in @rps twice or is already registered,
 * and then none of @rps is registered.
 */
int register_kretprobes(struct kretprobe **rps, int num)
{
	int i, done, ret;

	if (num <= 0)
		return -EINVAL;

	/* 1. Refuse the batch before touching any probe of it. */
	for (i = 0; i < num; i++) {
		ret = kretprobe_check(rps[i]);
		if (ret)
			return ret;
	}

	/*
	 * 2. Instances for every probe, before any goes live.  No probe of
	 * the batch is registered, so their pools are ours to reset: a pool
	 * already set during this loop means the probe is in @rps twice.
	 */
	for (i = 0; i < num; i++)
		rps[i]->pool = NULL;
	for (i = 0; i < num; i++) {
		ret = rps[i]->pool ? -EINVAL : kretprobe_prepare(rps[i]);
		if (ret)
			goto unprepare;
	}

	/* 3. The entry probes, in one batch. */
	ret = kprobes_register_batch((void *const *)rps, num,
				     offsetof(struct kretprobe, kp), &done);
	if (!ret)
		return 0;

	/* 4. Undo: the live ones may have calls in flight. */
	unregister_kretprobes(rps, done);
	i = num;
	while (i-- > done)
		kretprobe_unprepare(rps[i]);
	return ret;

unprepare:
	while (i--)
		kretprobe_unprepare(rps[i]);
	return ret;
}
EXPORT_SYMBOL_GPL(register_kretprobes);

/**
 * enable_kretprobe - arm a disabled return probe
 * @rp: the probe
 *
 * Return: as enable_kprobe().
 */
int enable_kretprobe(struct kretprobe *rp)
{
	return enable_kprobe(&rp->kp);
}
EXPORT_SYMBOL_GPL(enable_kretprobe);

/**
 * disable_kretprobe - stop hooking new calls
 * @rp: the probe
 *
 * Calls already hooked still return through the trampoline, but the
 * return handler is not run for them while @rp stays disabled.
 *
 * Return: as disable_kprobe().
 */
int disable_kretprobe(struct kretprobe *rp)
{
	return disable_kprobe(&rp->kp);
}
EXPORT_SYMBOL_GPL(disable_kretprobe);

static int __init kretprobe_grow_init(void)
{
	struct kthread_worker *w = kthread_create_worker(0, "kretprobe_grow");

	if (IS_ERR(w)) {
		pr_warn("kprobes: no worker to grow return probe pools (%ld)\n",
			PTR_ERR(w));
		return 0;
	}
	sched_set_fifo_low(w->task);
	kretprobe_grow_worker = w;
	return 0;
}
early_initcall(kretprobe_grow_init);
