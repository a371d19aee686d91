/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the RISC-V instruction suite (test_insn_riscv.c).  Each
 * function has one instruction of interest; its offset in the function
 * is in kpt_rv_<name>_off, so that kallsyms sees whole functions.  The
 * 4-byte forms are assembled with .option norvc, the compressed ones are
 * named (c.j, c.beqz, ...).
 *
 * Before the offsets, the return probe suite's tail call (kpt_tail_*),
 * which only assembly can promise.
 */
#include <linux/linkage.h>
#include <asm/asm.h>

	.text

/* long kpt_rv_leaf(long x): x + 3. */
SYM_FUNC_START(kpt_rv_leaf)
	addi	a0, a0, 3
	ret
SYM_FUNC_END(kpt_rv_leaf)

	.option push
	.option norvc

/* long kpt_rv_jal(long x): x + 3 + 7, through JAL ra, kpt_rv_leaf. */
SYM_FUNC_START(kpt_rv_jal)
	addi	sp, sp, -16
	REG_S	ra, 8(sp)
.Lkpt_rv_jal:
	jal	ra, kpt_rv_leaf
	addi	a0, a0, 7
	REG_L	ra, 8(sp)
	addi	sp, sp, 16
	ret
SYM_FUNC_END(kpt_rv_jal)

/* long kpt_rv_jalr(long x, long (*fn)(long)): fn(x) * 2, through JALR. */
SYM_FUNC_START(kpt_rv_jalr)
	addi	sp, sp, -16
	REG_S	ra, 8(sp)
.Lkpt_rv_jalr:
	jalr	ra, 0(a1)
	add	a0, a0, a0
	REG_L	ra, 8(sp)
	addi	sp, sp, 16
	ret
SYM_FUNC_END(kpt_rv_jalr)

/* unsigned long kpt_rv_auipc(void): its own address, by AUIPC. */
SYM_FUNC_START(kpt_rv_auipc)
.Lkpt_rv_auipc:
	auipc	a0, 0
	ret
SYM_FUNC_END(kpt_rv_auipc)

/* long kpt_rv_<b>(long a, long b): 1 when the branch is taken. */
.macro KPT_RV_BRANCH op
SYM_FUNC_START(kpt_rv_\op)
.Lkpt_rv_\op:
	\op	a0, a1, 1f
	li	a0, 0
	ret
1:	li	a0, 1
	ret
SYM_FUNC_END(kpt_rv_\op)
.endm

KPT_RV_BRANCH beq
KPT_RV_BRANCH bne
KPT_RV_BRANCH blt
KPT_RV_BRANCH bge
KPT_RV_BRANCH bltu
KPT_RV_BRANCH bgeu

/*
 * unsigned long kpt_rv_sie(long off): sstatus.SIE after an instruction
 * that ran out of line, with interrupts off (off != 0) or on.
 */
SYM_FUNC_START(kpt_rv_sie)
	csrr	t0, sstatus
	beqz	a0, 1f
	csrc	sstatus, 2
1:
.Lkpt_rv_sie:
	addi	t1, a0, 1
	csrr	a0, sstatus
	andi	a0, a0, 2
	csrw	sstatus, t0
	ret
SYM_FUNC_END(kpt_rv_sie)

/*
 * long kpt_rv_set_temps(void): sets t0..t6 and a1..a7 and returns;
 * kpt_rv_after_ret() sums them after the call, with ra minus the call's
 * return address: what a return probe's trampoline must give back.
 */
SYM_FUNC_START(kpt_rv_set_temps)
	li	t0, 1
	li	t1, 2
	li	t2, 3
	li	t3, 4
	li	t4, 5
	li	t5, 6
	li	t6, 7
	li	a1, 8
	li	a2, 9
	li	a3, 10
	li	a4, 11
	li	a5, 12
	li	a6, 13
	li	a7, 14
	li	a0, 15
	ret
SYM_FUNC_END(kpt_rv_set_temps)

SYM_FUNC_START(kpt_rv_after_ret)
	addi	sp, sp, -16
	REG_S	ra, 8(sp)
	call	kpt_rv_set_temps
.Lkpt_rv_after_call:
	add	a0, a0, t0
	add	a0, a0, t1
	add	a0, a0, t2
	add	a0, a0, t3
	add	a0, a0, t4
	add	a0, a0, t5
	add	a0, a0, t6
	add	a0, a0, a1
	add	a0, a0, a2
	add	a0, a0, a3
	add	a0, a0, a4
	add	a0, a0, a5
	add	a0, a0, a6
	add	a0, a0, a7
	la	t0, .Lkpt_rv_after_call
	sub	t0, ra, t0
	add	a0, a0, t0
	REG_L	ra, 8(sp)
	addi	sp, sp, 16
	ret
SYM_FUNC_END(kpt_rv_after_ret)

/* Never called: instructions that are refused. */
SYM_FUNC_START(kpt_rv_refused)
.Lkpt_rv_refused_ecall:
	ecall
.Lkpt_rv_refused_csr:
	csrr	a0, sstatus
.Lkpt_rv_refused_fence:
	fence
.Lkpt_rv_refused_lr:
	lr.w	t0, (a0)
.Lkpt_rv_refused_in_seq:
	addi	t0, t0, 1
	sc.w	t1, t0, (a0)
.Lkpt_rv_after_seq:
	addi	a0, a0, 1
.Lkpt_rv_inside:
	lui	a0, 0x12345
	ret
SYM_FUNC_END(kpt_rv_refused)

	.option pop

/* The compressed branches: long kpt_rv_<c>(long x), 1 when taken. */
SYM_FUNC_START(kpt_rv_c_j)
.Lkpt_rv_c_j:
	c.j	1f
	li	a0, 0
	ret
1:	addi	a0, a0, 1
	ret
SYM_FUNC_END(kpt_rv_c_j)

SYM_FUNC_START(kpt_rv_c_beqz)
.Lkpt_rv_c_beqz:
	c.beqz	a0, 1f
	li	a0, 0
	ret
1:	li	a0, 1
	ret
SYM_FUNC_END(kpt_rv_c_beqz)

SYM_FUNC_START(kpt_rv_c_bnez)
.Lkpt_rv_c_bnez:
	c.bnez	a0, 1f
	li	a0, 0
	ret
1:	li	a0, 1
	ret
SYM_FUNC_END(kpt_rv_c_bnez)

/* long kpt_rv_c_jalr(long x, long (*fn)(long)): fn(x) * 2, C.JALR. */
SYM_FUNC_START(kpt_rv_c_jalr)
	addi	sp, sp, -16
	REG_S	ra, 8(sp)
.Lkpt_rv_c_jalr:
	c.jalr	a1
	add	a0, a0, a0
	REG_L	ra, 8(sp)
	addi	sp, sp, 16
	ret
SYM_FUNC_END(kpt_rv_c_jalr)

/* long kpt_rv_c_jr(long x): x + 5, through C.JR. */
SYM_FUNC_START(kpt_rv_c_jr)
	la	t0, 1f
.Lkpt_rv_c_jr:
	c.jr	t0
	li	a0, -1
	ret
1:	addi	a0, a0, 5
	ret
SYM_FUNC_END(kpt_rv_c_jr)

/* long kpt_rv_c_addi(long x): x + 1, a compressed instruction out of line. */
SYM_FUNC_START(kpt_rv_c_addi)
.Lkpt_rv_c_addi:
	c.addi	a0, 1
	ret
SYM_FUNC_END(kpt_rv_c_addi)

/*
 * long kpt_tail_caller(long x): x + 3.  It calls kpt_tail_outer, whose
 * last act is a tail call of kpt_tail_inner, so kpt_tail_inner returns
 * straight to .Lkpt_tail_ret with the ra kpt_tail_outer was called with
 * (test_kretprobe.c).  The caller keeps a frame record for unwinders.
 */
SYM_FUNC_START(kpt_tail_caller)
	addi	sp, sp, -2 * SZREG
	REG_S	ra, SZREG(sp)
	REG_S	s0, 0(sp)
	addi	s0, sp, 2 * SZREG
	call	kpt_tail_outer
.Lkpt_tail_ret:
	REG_L	ra, SZREG(sp)
	REG_L	s0, 0(sp)
	addi	sp, sp, 2 * SZREG
	ret
SYM_FUNC_END(kpt_tail_caller)

SYM_FUNC_START(kpt_tail_outer)
	addi	a0, a0, 1
	tail	kpt_tail_inner
SYM_FUNC_END(kpt_tail_outer)

SYM_FUNC_START(kpt_tail_inner)
	addi	a0, a0, 2
	ret
SYM_FUNC_END(kpt_tail_inner)

	.section .rodata
	.balign 8
.macro KPT_RV_OFF name, func, label
SYM_DATA(kpt_rv_\name\()_off, .quad \label - \func)
.endm
KPT_RV_OFF jal, kpt_rv_jal, .Lkpt_rv_jal
KPT_RV_OFF jalr, kpt_rv_jalr, .Lkpt_rv_jalr
KPT_RV_OFF auipc, kpt_rv_auipc, .Lkpt_rv_auipc
.irp b, beq, bne, blt, bge, bltu, bgeu, c_j, c_beqz, c_bnez, c_jalr, c_jr, c_addi, sie
KPT_RV_OFF \b, kpt_rv_\b, .Lkpt_rv_\b
.endr
.irp r, refused_ecall, refused_csr, refused_fence, refused_lr, refused_in_seq, after_seq, inside
KPT_RV_OFF \r, kpt_rv_refused, .Lkpt_rv_\r
.endr
SYM_DATA(kpt_tail_ret_off, .quad .Lkpt_tail_ret - kpt_tail_caller)
