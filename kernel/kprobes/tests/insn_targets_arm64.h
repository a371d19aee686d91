/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The functions of insn_targets_arm64.S, and where in each the probe goes.
 */
#ifndef _KPROBES_INSN_TARGETS_ARM64_H
#define _KPROBES_INSN_TARGETS_ARM64_H

#include <linux/types.h>

long kpt_a64_leaf(long x);
long kpt_a64_b(long x);
long kpt_a64_bl(long x);
long kpt_a64_blr(long x, long (*fn)(long));
long kpt_a64_br(long x);
unsigned long kpt_a64_adr(void);
unsigned long kpt_a64_adrp(void);
u64 kpt_a64_ldr_x(void);
u64 kpt_a64_ldr_w(void);
s64 kpt_a64_ldrsw(void);
long kpt_a64_prfm(long x);
unsigned long kpt_a64_nzcv(long a, long b);
unsigned long kpt_a64_daif(long masked);
long kpt_a64_cmp_ret(long a, long b);
unsigned long kpt_a64_after_ret(long a, long b);
void kpt_a64_refused(void);

/* long kpt_a64_bcond_<cc>(long a, long b): 1 when a - b sets <cc> */
long kpt_a64_bcond_eq(long a, long b);
long kpt_a64_bcond_ne(long a, long b);
long kpt_a64_bcond_cs(long a, long b);
long kpt_a64_bcond_cc(long a, long b);
long kpt_a64_bcond_mi(long a, long b);
long kpt_a64_bcond_pl(long a, long b);
long kpt_a64_bcond_vs(long a, long b);
long kpt_a64_bcond_vc(long a, long b);
long kpt_a64_bcond_hi(long a, long b);
long kpt_a64_bcond_ls(long a, long b);
long kpt_a64_bcond_ge(long a, long b);
long kpt_a64_bcond_lt(long a, long b);
long kpt_a64_bcond_gt(long a, long b);
long kpt_a64_bcond_le(long a, long b);

/* long kpt_a64_<insn>(long x): 1 when the branch is taken */
long kpt_a64_cbz_x(long x);
long kpt_a64_cbnz_x(long x);
long kpt_a64_cbz_w(long x);
long kpt_a64_cbnz_w(long x);
long kpt_a64_tbz_3(long x);
long kpt_a64_tbnz_3(long x);
long kpt_a64_tbz_40(long x);
long kpt_a64_tbnz_40(long x);

/* Offsets of the probed instructions in their functions */
extern const long kpt_a64_ret_off, kpt_a64_b_off, kpt_a64_bl_off;
extern const long kpt_a64_blr_off, kpt_a64_br_off, kpt_a64_bcond_eq_off;
extern const long kpt_a64_bcond_ne_off, kpt_a64_bcond_cs_off;
extern const long kpt_a64_bcond_cc_off, kpt_a64_bcond_mi_off;
extern const long kpt_a64_bcond_pl_off, kpt_a64_bcond_vs_off;
extern const long kpt_a64_bcond_vc_off, kpt_a64_bcond_hi_off;
extern const long kpt_a64_bcond_ls_off, kpt_a64_bcond_ge_off;
extern const long kpt_a64_bcond_lt_off, kpt_a64_bcond_gt_off;
extern const long kpt_a64_bcond_le_off, kpt_a64_cbz_x_off;
extern const long kpt_a64_cbnz_x_off, kpt_a64_cbz_w_off, kpt_a64_cbnz_w_off;
extern const long kpt_a64_tbz_3_off, kpt_a64_tbnz_3_off, kpt_a64_tbz_40_off;
extern const long kpt_a64_tbnz_40_off, kpt_a64_adr_off, kpt_a64_adrp_off;
extern const long kpt_a64_ldr_x_off, kpt_a64_ldr_w_off, kpt_a64_ldrsw_off;
extern const long kpt_a64_prfm_off, kpt_a64_nzcv_off, kpt_a64_daif_off;
extern const long kpt_a64_refused_svc_off, kpt_a64_refused_msr_off;
extern const long kpt_a64_refused_autiasp_off, kpt_a64_refused_wfi_off;
extern const long kpt_a64_refused_mrs_daif_off, kpt_a64_refused_ldxr_off;
extern const long kpt_a64_refused_in_seq_off, kpt_a64_after_seq_off;

#endif /* _KPROBES_INSN_TARGETS_ARM64_H */
