/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What test_sp_x86_32.c and sp_targets_x86_32.S share: the record the
 * targets fill in once past the probe, and the values they load.
 */
#ifndef _KPROBES_SP_TARGETS_X86_32_H
#define _KPROBES_SP_TARGETS_X86_32_H

/* Offsets in struct kpt_sp_seen. */
#define KPT_SEEN_BX		0
#define KPT_SEEN_CX		4
#define KPT_SEEN_DX		8
#define KPT_SEEN_SI		12
#define KPT_SEEN_DI		16
#define KPT_SEEN_BP		20
#define KPT_SEEN_AX		24
#define KPT_SEEN_SP		28
#define KPT_SEEN_FLAGS		32
#define KPT_SEEN_WORDS		36
#define KPT_SEEN_NR_WORDS	3

/* What the targets load before the probe, and what a handler puts in ECX. */
#define KPT_SP_BX		0x0b0b0b01
#define KPT_SP_SI		0x05050502
#define KPT_SP_DI		0x0d0d0d03
#define KPT_SP_CX		0x0c0c0c04

/* How far above its stack pointer at the probe kpt_sp_detour reserves. */
#define KPT_SP_RAISE_MAX	64

#ifndef __ASSEMBLY__
#include <linux/stddef.h>
#include <linux/build_bug.h>

struct kpt_sp_seen {
	unsigned long bx, cx, dx, si, di, bp, ax;
	unsigned long sp;
	unsigned long flags;
	unsigned long words[KPT_SEEN_NR_WORDS];
};

static_assert(offsetof(struct kpt_sp_seen, ax) == KPT_SEEN_AX);
static_assert(offsetof(struct kpt_sp_seen, sp) == KPT_SEEN_SP);
static_assert(offsetof(struct kpt_sp_seen, flags) == KPT_SEEN_FLAGS);
static_assert(offsetof(struct kpt_sp_seen, words) == KPT_SEEN_WORDS);

/* Filled in by the targets; the tests' own. */
extern struct kpt_sp_seen kpt_sp_seen;
/* ESP at the probe, for the targets' way out. */
extern unsigned long kpt_sp_frame;

/* Records after three pops; returns 1. */
unsigned long kpt_sp_pushed(long a, long b);
/* Returns 1 when it went through kpt_sp_landing (which records), or 0. */
unsigned long kpt_sp_detour(long a, long b);
void kpt_sp_landing(void);
extern const unsigned long kpt_sp_pushed_off, kpt_sp_detour_off;
#endif

#endif
