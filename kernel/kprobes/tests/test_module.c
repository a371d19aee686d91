// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit: probes on module text.  The module is loaded and unloaded from
 * here (request_module() and the rmmod helper in the test initramfs);
 * when it goes, its probes stay registered but become gone, never run
 * again, and can still be unregistered.  Probes on its init text, set
 * while it is coming, go the same way once it is live.
 */
#include <kunit/test.h>
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/kmod.h>
#include <linux/module.h>
#include <linux/umh.h>
#include <linux/delay.h>
#include <linux/atomic.h>

#include "tests.h"
#include "kprobes_test_target.h"

#define TARGET_MODULE	"kprobes_test_target"
#define TARGET_SYMBOL	TARGET_MODULE ":kpt_mod_func"
#define TARGET_INIT_SYMBOL	TARGET_MODULE ":kpt_init_func"

static int mod_hits;

static int mod_pre(struct kprobe *p, struct pt_regs *regs)
{
	mod_hits++;
	return 0;
}

static char *rmmod_argv[] = { "/sbin/rmmod", TARGET_MODULE, NULL };
static char *rmmod_envp[] = { "HOME=/", "PATH=/sbin:/bin", NULL };

static int rmmod_target(void)
{
	return call_usermodehelper(rmmod_argv[0], rmmod_argv, rmmod_envp,
				   UMH_WAIT_PROC);
}

#ifdef CONFIG_MODULES
#define KPT_MOD_COMING	MODULE_STATE_COMING
#define KPT_MOD_GOING	MODULE_STATE_GOING

#ifdef CONFIG_MODULE_UNLOAD
static void put_symbol(const char *name)
{
	__symbol_put(name);
}
#else
/* Without unloading, __symbol_get() takes no reference to drop. */
static void put_symbol(const char *name)
{
}
#endif

/* Call kpt_mod_func() without keeping a reference on the module. */
static int call_target(int x)
{
	int (*fn)(int x) = __symbol_get("kpt_mod_func");
	int ret;

	if (!fn)
		return -1;
	ret = fn(x);
	put_symbol("kpt_mod_func");
	return ret;
}

/* kpt_mod_func's address, as a caller would call it. */
static void *target_addr(void)
{
	void *fn = __symbol_get("kpt_mod_func");

	if (fn)
		put_symbol("kpt_mod_func");
	return fn;
}

static struct kpt_init_probe_state *get_init_probe_state(void)
{
	return __symbol_get("kpt_init_probe_state");
}

static void put_init_probe_state(void)
{
	put_symbol("kpt_init_probe_state");
}

static void *get_each_symbol(void)
{
	return __symbol_get("kpt_mod_each_symbol");
}

static void put_each_symbol(void)
{
	put_symbol("kpt_mod_each_symbol");
}
#else
/* Never used: mod_init() skips every case. */
#define KPT_MOD_COMING	0
#define KPT_MOD_GOING	1

/* Never called: mod_init() skips every case. */
static int call_target(int x)
{
	return -1;
}

static void *target_addr(void)
{
	return NULL;
}

static struct kpt_init_probe_state *get_init_probe_state(void)
{
	return NULL;
}

static void put_init_probe_state(void)
{
}

static void *get_each_symbol(void)
{
	return NULL;
}

static void put_each_symbol(void)
{
}
#endif

static int mod_init(struct kunit *test)
{
	int ret;

	/* Built in (as kunit.py builds), the target is built in too. */
	if (!IS_MODULE(CONFIG_KPROBES_SANITY_TEST))
		kunit_skip(test, "%s is built in: no module to unload",
			   TARGET_MODULE);
	ret = request_module(TARGET_MODULE);
	if (ret)
		kunit_skip(test, "cannot load %s: %d", TARGET_MODULE, ret);
	mod_hits = 0;
	return 0;
}

static struct kprobe *new_probe(struct kunit *test)
{
	struct kprobe *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->symbol_name = TARGET_SYMBOL;
	p->pre_handler = mod_pre;
	return p;
}

static void mod_probe_goes_away(struct kunit *test)
{
	struct kprobe *p = new_probe(test), *late = new_probe(test);

	KUNIT_ASSERT_EQ(test, kpt_register(test, p), 0);
	/* The module is traced: with ftrace probes its entry is one. */
	KUNIT_EXPECT_EQ(test, kprobe_ftrace(p),
			IS_ENABLED(CONFIG_KPROBES_ON_FTRACE));
	KUNIT_EXPECT_EQ(test, call_target(1), 43);
	KUNIT_EXPECT_EQ(test, mod_hits, 1);
	KUNIT_EXPECT_FALSE(test, kprobe_gone(p));

	KUNIT_ASSERT_EQ(test, rmmod_target(), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_gone(p));
	KUNIT_EXPECT_TRUE(test, kprobe_disabled(p));
	KUNIT_EXPECT_EQ(test, enable_kprobe(p), -EINVAL);
	KUNIT_EXPECT_EQ(test, disable_kprobe(p), 0);
	KUNIT_EXPECT_EQ(test, register_kprobe(late), -ENOENT);

	/* Gone, but still registered until its owner says otherwise. */
	KUNIT_EXPECT_FALSE(test, list_empty(&p->list));
	unregister_kprobe(p);

	/* The module can come back and be probed again. */
	KUNIT_ASSERT_EQ(test, request_module(TARGET_MODULE), 0);
	kpt_reset(late);
	KUNIT_ASSERT_EQ(test, kpt_register(test, late), 0);
	KUNIT_EXPECT_EQ(test, call_target(2), 44);
	KUNIT_EXPECT_EQ(test, mod_hits, 2);
	unregister_kprobe(late);
	KUNIT_EXPECT_EQ(test, rmmod_target(), 0);
}

static char *probe_init_argv[] = { "/sbin/modprobe", TARGET_MODULE,
				   "probe_init=1", NULL };

static void mod_init_text_probe_goes_when_live(struct kunit *test)
{
	struct kprobe *late = new_probe(test);
	struct kpt_init_probe_state *st;

	late->symbol_name = TARGET_INIT_SYMBOL;
	/* 1. Reload the target: it probes its init function while coming. */
	KUNIT_ASSERT_EQ(test, rmmod_target(), 0);
	KUNIT_ASSERT_EQ(test, call_usermodehelper(probe_init_argv[0],
						  probe_init_argv, rmmod_envp,
						  UMH_WAIT_PROC), 0);
	st = get_init_probe_state();
	KUNIT_ASSERT_NOT_NULL(test, st);

	/* 2. The probe was accepted and hit once; the result is unchanged. */
	KUNIT_EXPECT_EQ(test, st->ret, 0);
	KUNIT_EXPECT_EQ(test, st->hits, 1);
	KUNIT_EXPECT_EQ(test, st->result, 8);

	/* 3. The init text is freed: the probe is gone, as if unloaded. */
	KUNIT_EXPECT_TRUE(test, kprobe_gone(&st->kp));
	KUNIT_EXPECT_FALSE(test, kprobe_optimized(&st->kp));
	KUNIT_EXPECT_EQ(test, enable_kprobe(&st->kp), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kprobe(late), -ENOENT);
	put_init_probe_state();

	/* 4. The rest of the module is still probed as usual. */
	KUNIT_EXPECT_EQ(test, call_target(1), 43);
	KUNIT_EXPECT_EQ(test, rmmod_target(), 0);
}

/* Hits from the target's own threads, on every CPU. */
static atomic_t spin_hits;

static int spin_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&spin_hits);
	return 0;
}

static char *spin_argv[] = { "/sbin/modprobe", TARGET_MODULE, "spin=1", NULL };

static void mod_unload_while_hit(struct kunit *test)
{
	struct kprobe *traced = new_probe(test), *plain = new_probe(test);
	int i;

	traced->pre_handler = spin_pre;
	plain->pre_handler = spin_pre;
	plain->symbol_name = TARGET_MODULE ":kpt_mod_notrace_func";
	atomic_set(&spin_hits, 0);
	/* 1. Reload the target with a caller thread on every CPU. */
	KUNIT_ASSERT_EQ(test, rmmod_target(), 0);
	KUNIT_ASSERT_EQ(test, call_usermodehelper(spin_argv[0], spin_argv,
						  rmmod_envp, UMH_WAIT_PROC), 0);
	KUNIT_ASSERT_EQ(test, kpt_register(test, traced), 0);
	KUNIT_ASSERT_EQ(test, kpt_register(test, plain), 0);

	/* 2. Let the hits come, on both probes. */
	for (i = 0; i < 250 && atomic_read(&spin_hits) < 1000; i++)
		msleep(20);
	KUNIT_EXPECT_GT(test, atomic_read(&spin_hits), 0);

	/* 3. Unload under the hits: both probes are gone, nothing ran late. */
	KUNIT_ASSERT_EQ(test, rmmod_target(), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_gone(traced));
	KUNIT_EXPECT_TRUE(test, kprobe_gone(plain));
	i = atomic_read(&spin_hits);
	msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&spin_hits), i);
	kunit_info(test, "%d hits before the unload\n", i);
}

static void mod_unload_unprobed_after_unregister(struct kunit *test)
{
	struct kprobe *p = new_probe(test);

	KUNIT_ASSERT_EQ(test, kpt_register(test, p), 0);
	unregister_kprobe(p);
	KUNIT_EXPECT_EQ(test, call_target(0), 42);
	KUNIT_EXPECT_EQ(test, mod_hits, 0);
	KUNIT_EXPECT_EQ(test, rmmod_target(), 0);
}

/*
 * A batch large enough to look its names up at once finds a module's
 * symbols in its walks too, at the address a lookup of the name alone
 * gives, and leaves only a name nobody has to be looked up alone.
 */
static void mod_batch_finds_module_symbols(struct kunit *test)
{
	static const char * const names[] = {
		"kpt_mod_func",		/* the module's */
		"register_kprobe",	/* vmlinux's */
		"kpt_mod_notrace_func",	/* the module's, not exported */
		"kpt_no_such_function",
	};
	struct kprobe_syms syms;
	struct kprobe *kps, **ptrs;
	void *mod_func;
	int i;

	kps = kunit_kcalloc(test, KPROBE_SYMS_BATCH, sizeof(*kps), GFP_KERNEL);
	ptrs = kunit_kcalloc(test, KPROBE_SYMS_BATCH, sizeof(*ptrs),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kps);
	KUNIT_ASSERT_NOT_NULL(test, ptrs);
	/* The rest of the batch asks for an address, not a name. */
	for (i = 0; i < KPROBE_SYMS_BATCH; i++) {
		if (i < ARRAY_SIZE(names))
			kps[i].symbol_name = names[i];
		else
			kps[i].addr = (kprobe_opcode_t *)register_kprobe;
		ptrs[i] = &kps[i];
	}
	mod_func = target_addr();
	KUNIT_ASSERT_NOT_NULL(test, mod_func);

	kprobe_syms_lookup(&syms, (void *const *)ptrs, KPROBE_SYMS_BATCH, 0);
	KUNIT_EXPECT_EQ(test, kprobe_syms_addr(&syms, 0),
			(unsigned long)mod_func);
	KUNIT_EXPECT_EQ(test, kprobe_syms_addr(&syms, 1),
			(unsigned long)register_kprobe);
	KUNIT_EXPECT_NE(test, kprobe_syms_addr(&syms, 2), 0);
	KUNIT_EXPECT_EQ(test, kprobe_syms_addr(&syms, 3), 0);
	KUNIT_EXPECT_EQ(test, kprobe_syms_addr(&syms, 4), 0);
	kprobe_syms_release(&syms);
	KUNIT_EXPECT_EQ(test, rmmod_target(), 0);
}

#define MOD_NAMES_MAX	64

struct mod_names {
	char name[MOD_NAMES_MAX][KSYM_NAME_LEN];
	unsigned long addr[MOD_NAMES_MAX];
	int nr;
};

/*
 * kpt_mod_each_symbol() callback: note the target's kpt_mod_* symbols,
 * which no other module or vmlinux has, the first of each name.
 */
static int note_mod_name(void *data, const char *name, unsigned long addr)
{
	struct mod_names *n = data;
	int i;

	if (strncmp(name, "kpt_mod_", 8))
		return 0;
	for (i = 0; i < n->nr; i++) {
		if (!strcmp(n->name[i], name))
			return 0;
	}
	if (n->nr == MOD_NAMES_MAX)
		return 1;
	strscpy(n->name[n->nr], name, KSYM_NAME_LEN);
	n->addr[n->nr++] = addr;
	return 0;
}

/* The target's names, from its own table. */
static struct mod_names *target_names(struct kunit *test)
{
	struct mod_names *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	int (*each)(int (*fn)(void *data, const char *name,
			      unsigned long addr), void *data);

	KUNIT_ASSERT_NOT_NULL(test, n);
	each = get_each_symbol();
	KUNIT_ASSERT_NOT_NULL(test, each);
	KUNIT_EXPECT_EQ(test, each(note_mod_name, n), 0);
	put_each_symbol();
	return n;
}

/* The address of @name in the target's own table, or 0. */
static unsigned long target_name_addr(struct mod_names *n, const char *name)
{
	int i;

	for (i = 0; i < n->nr; i++) {
		if (!strcmp(n->name[i], name))
			return n->addr[i];
	}
	return 0;
}

/*
 * The module symbol index answers (it does not hand over to kallsyms)
 * with the target's own table: for each of its kpt_mod_* functions,
 * plain and "module:sym"; "none" for its init function once it is live
 * (its table no longer has it) and for a name nobody has.
 */
static void mod_index_answers_as_the_module_table(struct kunit *test)
{
	struct mod_names *n = target_names(test);
	char *qualified = kunit_kzalloc(test, KSYM_NAME_LEN + MODULE_NAME_LEN,
					GFP_KERNEL);
	unsigned long addr;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, qualified);
	KUNIT_ASSERT_GT(test, n->nr, 4);
	KUNIT_EXPECT_NE(test, target_name_addr(n, "kpt_mod_func"), 0UL);

	kprobe_modsyms_prepare();
	for (i = 0; i < n->nr; i++) {
		snprintf(qualified, KSYM_NAME_LEN + MODULE_NAME_LEN, "%s:%s",
			 TARGET_MODULE, n->name[i]);
		addr = 0;
		KUNIT_EXPECT_TRUE_MSG(test,
				      kprobe_modsyms_lookup(n->name[i], &addr),
				      "%s", n->name[i]);
		KUNIT_EXPECT_EQ_MSG(test, addr, n->addr[i], "%s", n->name[i]);
		addr = 0;
		KUNIT_EXPECT_TRUE_MSG(test,
				      kprobe_modsyms_lookup(qualified, &addr),
				      "%s", qualified);
		KUNIT_EXPECT_EQ_MSG(test, addr, n->addr[i], "%s", qualified);
	}
	KUNIT_EXPECT_TRUE(test, kprobe_modsyms_lookup("kpt_init_func", &addr));
	KUNIT_EXPECT_EQ(test, addr, 0UL);
	KUNIT_EXPECT_TRUE(test, kprobe_modsyms_lookup(TARGET_INIT_SYMBOL,
						      &addr));
	KUNIT_EXPECT_EQ(test, addr, 0UL);
	KUNIT_EXPECT_TRUE(test, kprobe_modsyms_lookup("kpt_no_such_function",
						      &addr));
	KUNIT_EXPECT_EQ(test, addr, 0UL);
	/* Unnamed symbols are kallsyms' to answer for. */
	KUNIT_EXPECT_FALSE(test, kprobe_modsyms_lookup(TARGET_MODULE ":",
						       &addr));
	KUNIT_EXPECT_EQ(test, rmmod_target(), 0);
}

/*
 * Probes registered one by one by a module name look it up in the index,
 * built once for them all; a module going makes the index stale, so the
 * name is not found any more, and found again when the module is back.
 */
static void mod_index_built_once_stale_after_unload(struct kunit *test)
{
	struct kprobe *kps = kunit_kcalloc(test, 17, sizeof(*kps), GFP_KERNEL);
	struct kprobe *ref = &kps[16];
	unsigned long builds, addr;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, kps);
	/* Where a probe asked for by address goes (past an entry marker). */
	ref->addr = target_addr();
	KUNIT_ASSERT_EQ(test, register_kprobe(ref), 0);
	unregister_kprobe(ref);
	builds = kprobe_modsyms_build_count();
	for (i = 0; i < 16; i++) {
		kps[i].symbol_name = i & 1 ? "kpt_mod_func" : TARGET_SYMBOL;
		kps[i].pre_handler = mod_pre;
		KUNIT_ASSERT_EQ(test, register_kprobe(&kps[i]), 0);
		KUNIT_EXPECT_PTR_EQ(test, kps[i].addr, ref->addr);
	}
	KUNIT_EXPECT_LE(test, kprobe_modsyms_build_count() - builds, 1);
	KUNIT_EXPECT_EQ(test, call_target(1), 43);
	KUNIT_EXPECT_EQ(test, mod_hits, 16);
	for (i = 0; i < 16; i++)
		unregister_kprobe(&kps[i]);

	KUNIT_ASSERT_EQ(test, rmmod_target(), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_modsyms_lookup("kpt_mod_func", &addr));
	kpt_reset(&kps[0]);
	KUNIT_EXPECT_EQ(test, register_kprobe(&kps[0]), -ENOENT);

	KUNIT_ASSERT_EQ(test, request_module(TARGET_MODULE), 0);
	kpt_reset(&kps[1]);
	KUNIT_ASSERT_EQ(test, register_kprobe(&kps[1]), 0);
	KUNIT_EXPECT_PTR_EQ(test, kps[1].addr, ref->addr);
	unregister_kprobe(&kps[1]);
	KUNIT_EXPECT_EQ(test, rmmod_target(), 0);
}

/*
 * What a tracer's module notifier got when it probed the target in
 * @state.  COMING: @by_name and @listed; GOING: those two, @by_addr at
 * @addr and the batch of @in_vmlinux and @by_name.
 */
struct mod_notify_probes {
	unsigned long state;
	struct kprobe by_name, listed, by_addr, in_vmlinux;
	void *addr;
	int by_name_ret, listed_ret, by_addr_ret, batch_ret;
	bool seen;
};

/* Set by the case while it loads or unloads the target. */
static struct mod_notify_probes *mod_notify_armed;

/*
 * A tracer that puts probes on a module from its own COMING notifier, as
 * trace_kprobe does for an event defined before the module was loaded,
 * finds the module's names, and its blacklist, in place: the kprobes
 * notifier runs first, even when the index was current just before.
 */
static void mod_coming_notifier_probes_by_name(struct kunit *test)
{
	struct mod_notify_probes *c = kunit_kzalloc(test, sizeof(*c),
						    GFP_KERNEL);
	struct kprobe *early = new_probe(test);

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, rmmod_target(), 0);
	/* Not found, with an index current without the module. */
	KUNIT_EXPECT_EQ(test, register_kprobe(early), -ENOENT);

	c->state = KPT_MOD_COMING;
	c->by_name.symbol_name = TARGET_SYMBOL;
	c->by_name.pre_handler = mod_pre;
	c->listed.symbol_name = TARGET_MODULE ":kpt_mod_split_fn";
	c->listed.pre_handler = mod_pre;
	WRITE_ONCE(mod_notify_armed, c);
	KUNIT_EXPECT_EQ(test, request_module(TARGET_MODULE), 0);
	WRITE_ONCE(mod_notify_armed, NULL);

	KUNIT_ASSERT_TRUE(test, c->seen);
	KUNIT_EXPECT_EQ(test, c->by_name_ret, 0);
	KUNIT_EXPECT_EQ(test, c->listed_ret, -EINVAL);
	if (!c->by_name_ret) {
		KUNIT_EXPECT_EQ(test, call_target(1), 43);
		KUNIT_EXPECT_EQ(test, mod_hits, 1);
		unregister_kprobe(&c->by_name);
	}
	if (!c->listed_ret)
		unregister_kprobe(&c->listed);
	KUNIT_EXPECT_EQ(test, rmmod_target(), 0);
}

/*
 * A module that is going away takes no probe: a tracer's GOING notifier,
 * which runs after the kprobes one, asks for probes on it by name, by
 * address and in a batch with a good probe on vmlinux, while the text is
 * still there.  Each request says -ENOENT and leaves nothing registered:
 * the vmlinux probe of the batch never runs and can be registered again.
 */
static void mod_going_takes_no_probe(struct kunit *test)
{
	struct mod_notify_probes *c = kunit_kzalloc(test, sizeof(*c),
						    GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->state = KPT_MOD_GOING;
	c->by_name.symbol_name = TARGET_SYMBOL;
	c->by_name.pre_handler = mod_pre;
	c->listed.symbol_name = TARGET_MODULE ":kpt_mod_notrace_func";
	c->listed.pre_handler = mod_pre;
	c->by_addr.pre_handler = mod_pre;
	c->in_vmlinux.symbol_name = "kpt_target_fn";
	c->in_vmlinux.pre_handler = mod_pre;
	c->addr = target_addr();
	KUNIT_ASSERT_NOT_NULL(test, c->addr);
	WRITE_ONCE(mod_notify_armed, c);
	KUNIT_EXPECT_EQ(test, rmmod_target(), 0);
	WRITE_ONCE(mod_notify_armed, NULL);

	KUNIT_ASSERT_TRUE(test, c->seen);
	KUNIT_EXPECT_EQ(test, c->by_name_ret, -ENOENT);
	KUNIT_EXPECT_EQ(test, c->listed_ret, -ENOENT);
	KUNIT_EXPECT_EQ(test, c->by_addr_ret, -ENOENT);
	KUNIT_EXPECT_EQ(test, c->batch_ret, -ENOENT);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, mod_hits, 0);
	kpt_reset(&c->in_vmlinux);
	KUNIT_EXPECT_EQ(test, register_kprobe(&c->in_vmlinux), 0);
	KUNIT_EXPECT_EQ(test, kpt_target(1), 2);
	KUNIT_EXPECT_EQ(test, mod_hits, 1);
	unregister_kprobe(&c->in_vmlinux);
}

/*
 * A part the compiler split off a blacklisted module function is refused
 * as the function is, whether asked for by name or by address; a part of
 * a function that may be probed is not.
 */
static void mod_split_part_blacklisted(struct kunit *test)
{
	struct kprobe *part = new_probe(test), *by_addr = new_probe(test);
	struct kprobe *other = new_probe(test);
	struct mod_names *n = target_names(test);
	unsigned long addr = target_name_addr(n, "kpt_mod_split_fn.part.0");

	KUNIT_ASSERT_NE(test, addr, 0UL);
	KUNIT_EXPECT_TRUE(test, within_kprobe_blacklist(addr));
	part->symbol_name = TARGET_MODULE ":kpt_mod_split_fn.part.0";
	KUNIT_EXPECT_EQ(test, register_kprobe(part), -EINVAL);
	by_addr->symbol_name = NULL;
	by_addr->addr = (kprobe_opcode_t *)addr;
	KUNIT_EXPECT_EQ(test, register_kprobe(by_addr), -EINVAL);

	other->symbol_name = TARGET_MODULE ":kpt_mod_whole_fn.part.0";
	addr = target_name_addr(n, "kpt_mod_whole_fn.part.0");
	KUNIT_EXPECT_FALSE(test, within_kprobe_blacklist(addr));
	KUNIT_EXPECT_EQ(test, register_kprobe(other), 0);
	unregister_kprobe(other);
	KUNIT_EXPECT_EQ(test, rmmod_target(), 0);
}

static struct kunit_case module_cases[] = {
	KUNIT_CASE(mod_probe_goes_away),
	KUNIT_CASE(mod_unload_unprobed_after_unregister),
	KUNIT_CASE(mod_batch_finds_module_symbols),
	KUNIT_CASE(mod_index_answers_as_the_module_table),
	KUNIT_CASE(mod_index_built_once_stale_after_unload),
	KUNIT_CASE(mod_split_part_blacklisted),
	KUNIT_CASE(mod_coming_notifier_probes_by_name),
	KUNIT_CASE(mod_going_takes_no_probe),
	KUNIT_CASE(mod_init_text_probe_goes_when_live),
	KUNIT_CASE_SLOW(mod_unload_while_hit),
	{}
};

static struct kunit_suite module_suite = {
	.name = "kprobes_module",
	.init = mod_init,
	.test_cases = module_cases,
};

kunit_test_suite(module_suite);

#ifdef CONFIG_MODULES
static int mod_notify(struct notifier_block *nb, unsigned long state,
		      void *data)
{
	struct mod_notify_probes *c = READ_ONCE(mod_notify_armed);
	struct kprobe *batch[2];
	struct module *mod = data;

	if (!c || state != c->state || strcmp(mod->name, TARGET_MODULE))
		return NOTIFY_DONE;
	c->seen = true;
	c->by_name_ret = register_kprobe(&c->by_name);
	c->listed_ret = register_kprobe(&c->listed);
	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	c->by_addr.addr = c->addr;
	c->by_addr_ret = register_kprobe(&c->by_addr);
	kpt_reset(&c->by_name);
	batch[0] = &c->in_vmlinux;
	batch[1] = &c->by_name;
	c->batch_ret = register_kprobes(batch, ARRAY_SIZE(batch));
	return NOTIFY_DONE;
}

/*
 * trace_kprobe's place in the chain.  Registered when this module loads:
 * the cases run from KUnit's own module notifier, where registering one
 * would wait for the chain they run in.
 */
static struct notifier_block mod_notify_nb = {
	.notifier_call = mod_notify,
	.priority = 2,
};

static int __init mod_notify_nb_init(void)
{
	return register_module_notifier(&mod_notify_nb);
}
module_init(mod_notify_nb_init);

static void __exit mod_notify_nb_exit(void)
{
	unregister_module_notifier(&mod_notify_nb);
}
module_exit(mod_notify_nb_exit);
#endif
