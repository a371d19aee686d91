/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The functions of insn_targets_riscv.S, and where in each the probe goes.
 */
#ifndef _KPROBES_INSN_TARGETS_RISCV_H
#define _KPROBES_INSN_TARGETS_RISCV_H

#include <linux/types.h>

long kpt_rv_leaf(long x);
long kpt_rv_jal(long x);
long kpt_rv_jalr(long x, long (*fn)(long));
unsigned long kpt_rv_auipc(void);
long kpt_rv_beq(long a, long b);
long kpt_rv_bne(long a, long b);
long kpt_rv_blt(long a, long b);
long kpt_rv_bge(long a, long b);
long kpt_rv_bltu(long a, long b);
long kpt_rv_bgeu(long a, long b);
unsigned long kpt_rv_sie(long off);
long kpt_rv_set_temps(void);
long kpt_rv_after_ret(void);
void kpt_rv_refused(void);
long kpt_rv_c_j(long x);
long kpt_rv_c_beqz(long x);
long kpt_rv_c_bnez(long x);
long kpt_rv_c_jalr(long x, long (*fn)(long));
long kpt_rv_c_jr(long x);
long kpt_rv_c_addi(long x);

/* Offsets of the probed instructions in their functions */
extern const long kpt_rv_jal_off, kpt_rv_jalr_off, kpt_rv_auipc_off;
extern const long kpt_rv_beq_off, kpt_rv_bne_off, kpt_rv_blt_off;
extern const long kpt_rv_bge_off, kpt_rv_bltu_off, kpt_rv_bgeu_off;
extern const long kpt_rv_c_j_off, kpt_rv_c_beqz_off, kpt_rv_c_bnez_off;
extern const long kpt_rv_c_jalr_off, kpt_rv_c_jr_off, kpt_rv_c_addi_off;
extern const long kpt_rv_sie_off;
extern const long kpt_rv_refused_ecall_off, kpt_rv_refused_csr_off;
extern const long kpt_rv_refused_fence_off, kpt_rv_refused_lr_off;
extern const long kpt_rv_refused_in_seq_off, kpt_rv_after_seq_off;
extern const long kpt_rv_inside_off;

#endif /* _KPROBES_INSN_TARGETS_RISCV_H */
