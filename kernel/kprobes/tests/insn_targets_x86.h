/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The functions and instruction labels of insn_targets_x86.S.
 */
#ifndef _KPROBES_INSN_TARGETS_X86_H
#define _KPROBES_INSN_TARGETS_X86_H

#include <linux/types.h>

extern const u8 kpt_rip_load_insn[], kpt_rip_load_next[];
extern const u8 kpt_jcc8_insn[], kpt_jcc32_insn[];
extern const u8 kpt_call_insn[], kpt_jmp_insn[], kpt_ret_insn[];
extern const u8 kpt_call_reg_insn[], kpt_jmp_reg_insn[], kpt_loop_insn[];
extern const u8 kpt_loope_insn[], kpt_loopne_insn[], kpt_jrcxz_insn[];
extern const u8 kpt_ret_imm_insn[];
extern const u8 kpt_pushf_insn[], kpt_cli_insn[], kpt_sti_insn[];
extern const u8 kpt_popf_insn[];
extern const u8 kpt_fault_insn[], kpt_fault_next[], kpt_gp_next[];
extern const u8 kpt_stack_gap_insn[], kpt_stack_gap_leave[];
extern const u8 kpt_df_insn[];
extern const u8 kpt_refused_call_mem[], kpt_refused_hlt[];
extern const u8 kpt_refused_int3[], kpt_refused_ud2[];
extern u64 kpt_data;

long kpt_rip_load(void);
long kpt_stack_gap(void);
unsigned long kpt_df(void);
long kpt_jcc8(long x);
long kpt_jcc32(long x);
long kpt_callee(void);
long kpt_call(void);
long kpt_jmp(long x);
long kpt_ret(void);
long kpt_call_reg(long (*fn)(void));
long kpt_jmp_reg(long (*fn)(void));
long kpt_loop(void);
long kpt_loope(long stop);
long kpt_loopne(long stop);
long kpt_jrcxz(long x);
long kpt_ret_imm(void);
unsigned long kpt_pushf(void);
unsigned long kpt_cli(void);
unsigned long kpt_sti(void);
unsigned long kpt_popf(unsigned long flags);
long kpt_fault_load(long *p);
long kpt_gp_load(long *p);

/* opt_targets_x86.S: where in each function the probe goes */
extern const long kpt_opt_plain_off, kpt_opt_rip_off, kpt_opt_jump_in_off;
extern const long kpt_opt_indirect_off, kpt_opt_extable_off;
extern const long kpt_opt_call_off;
#define KPT_OPT_AT(fn)	((const u8 *)(fn) + fn##_off)

long kpt_opt_plain(long x);
long kpt_opt_alt(void);
long kpt_opt_rip(void);
long kpt_opt_jump_in(long x);
long kpt_opt_indirect(long x, void *never);
long kpt_opt_extable(long *p);
long kpt_opt_call(void);

/**
 * struct kpt_emu_form - a target of the opt_emu_* cases (opt_targets_x86.S)
 * @fn: loads registers from @a and @b, runs the probed instruction,
 *	stores RAX, RCX, R9, R10 and RFLAGS into @out
 * @off: the probed instruction's offset in @fn
 * @on_regs: whether the detour does it on pt_regs for post handlers
 * @name: the form's name
 */
struct kpt_emu_form {
	void (*fn)(long a, long b, unsigned long *out);
	long off;
	long on_regs;
	const char *name;
};

extern const struct kpt_emu_form kpt_emu_forms[], kpt_emu_forms_end[];
void kpt_emu_sub_rsp(unsigned long *out);
extern const long kpt_emu_sub_rsp_off;

/* flags_targets_x86_*.S: flags live across the probe; offsets as above */
long kpt_flags_c(long a, long b);
long kpt_flags_z(long a, long b);
long kpt_flags_s(long a, long b);
long kpt_flags_o(long a, long b);
long kpt_flags_p(long a, long b);
unsigned long kpt_flags_all(long a, long b);
unsigned long kpt_flags_std_stac(long a, long b);
long kpt_flags_cmp_ret(long a, long b);
unsigned long kpt_flags_after_ret(long a, long b);
extern const long kpt_flags_c_off, kpt_flags_z_off, kpt_flags_s_off;
extern const long kpt_flags_o_off, kpt_flags_p_off, kpt_flags_all_off;
extern const long kpt_flags_std_stac_off;

#endif
