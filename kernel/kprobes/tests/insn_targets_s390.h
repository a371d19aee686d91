/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The functions of insn_targets_s390.S, and where in each the probe goes.
 */
#ifndef _KPROBES_INSN_TARGETS_S390_H
#define _KPROBES_INSN_TARGETS_S390_H

#include <linux/types.h>

long kpt_s390_cc(long a, long b);
unsigned long kpt_s390_larl(void);
long kpt_s390_basr(long x);
long kpt_s390_branch(long x);
void kpt_s390_refused(void);

extern const long kpt_s390_keep_off, kpt_s390_larl_off, kpt_s390_basr_off;
extern const long kpt_s390_brc_off, kpt_s390_exrl_off;

#endif /* _KPROBES_INSN_TARGETS_S390_H */
