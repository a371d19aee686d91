/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The functions of insn_targets_powerpc.S, and where in each the probe
 * goes.
 */
#ifndef _KPROBES_INSN_TARGETS_POWERPC_H
#define _KPROBES_INSN_TARGETS_POWERPC_H

#include <linux/types.h>

void kpt_ppc_flags(unsigned long *out, long a, long b);
long kpt_ppc_branch(long x);
void kpt_ppc_refused(void);

extern const long kpt_ppc_emul_off, kpt_ppc_step_off, kpt_ppc_cr_off;
extern const long kpt_ppc_bl_off;
extern const long kpt_ppc_larx_off, kpt_ppc_in_seq_off, kpt_ppc_stcx_off;
extern const long kpt_ppc_after_seq_off, kpt_ppc_trap_off;
extern const long kpt_ppc_suffix_off;
extern const long kpt_ppc_mtsrr0_off, kpt_ppc_wrteei_off, kpt_ppc_bctar_off;
extern const long kpt_ppc_softmask_off;

#endif /* _KPROBES_INSN_TARGETS_POWERPC_H */
