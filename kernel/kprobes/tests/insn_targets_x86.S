/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hand-written functions for the x86 instruction suite: each one puts a
 * known instruction at a global label, so that a test can probe exactly
 * that instruction and check what it did.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/nospec-branch.h>

	.data
	.balign 8
SYM_DATA(kpt_data, .quad 0x1122334455667788)

	.text

/* long kpt_rip_load(void): a RIP-relative load, run out of line. */
SYM_FUNC_START(kpt_rip_load)
SYM_INNER_LABEL(kpt_rip_load_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	movq	kpt_data(%rip), %rax
SYM_INNER_LABEL(kpt_rip_load_next, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	RET
SYM_FUNC_END(kpt_rip_load)

/*
 * long kpt_stack_gap(void): how far the SUB moved the stack pointer, 16;
 * a post handler on the SUB may move it back, or skip to the LEAVE.
 */
SYM_FUNC_START(kpt_stack_gap)
	pushq	%rbp
	movq	%rsp, %rbp
SYM_INNER_LABEL(kpt_stack_gap_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	subq	$16, %rsp
	movq	%rbp, %rax
	subq	%rsp, %rax
SYM_INNER_LABEL(kpt_stack_gap_leave, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	leave
	RET
SYM_FUNC_END(kpt_stack_gap)

/* unsigned long kpt_df(void): the flags after a MOV run with DF set. */
SYM_FUNC_START(kpt_df)
	std
SYM_INNER_LABEL(kpt_df_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	movq	%rdi, %rax
	pushfq
	popq	%rax
	cld
	RET
SYM_FUNC_END(kpt_df)

/* long kpt_jcc8(long x): 0 if x == 0, else 1; probe on a Jcc rel8. */
SYM_FUNC_START(kpt_jcc8)
	xorl	%eax, %eax
	testq	%rdi, %rdi
SYM_INNER_LABEL(kpt_jcc8_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	jz	1f
	movl	$1, %eax
1:	RET
SYM_FUNC_END(kpt_jcc8)

/* long kpt_jcc32(long x): as kpt_jcc8, with a Jcc rel32. */
SYM_FUNC_START(kpt_jcc32)
	xorl	%eax, %eax
	testq	%rdi, %rdi
SYM_INNER_LABEL(kpt_jcc32_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	.byte	0x0f, 0x84
	.long	1f - 2f
2:	movl	$1, %eax
1:	RET
SYM_FUNC_END(kpt_jcc32)

/* long kpt_callee(void): 41 */
SYM_FUNC_START(kpt_callee)
	movl	$41, %eax
	RET
SYM_FUNC_END(kpt_callee)

/* long kpt_call(void): kpt_callee() + 1; probe on CALL rel32. */
SYM_FUNC_START(kpt_call)
	pushq	%rbp
	movq	%rsp, %rbp
SYM_INNER_LABEL(kpt_call_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	call	kpt_callee
	incl	%eax
	popq	%rbp
	RET
SYM_FUNC_END(kpt_call)

/* long kpt_jmp(long x): 9 if x == 0, else 7; probe on JMP rel8. */
SYM_FUNC_START(kpt_jmp)
SYM_INNER_LABEL(kpt_jmp_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	jmp	2f
1:	movl	$7, %eax
	RET
2:	testq	%rdi, %rdi
	jnz	1b
	movl	$9, %eax
	RET
SYM_FUNC_END(kpt_jmp)

/* long kpt_ret(void): 5; probe on a plain RET. */
SYM_FUNC_START(kpt_ret)
	movl	$5, %eax
	ANNOTATE_UNRET_SAFE
SYM_INNER_LABEL(kpt_ret_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	ret
	int3
SYM_FUNC_END(kpt_ret)

/* long kpt_call_reg(long (*fn)(void)): fn() + 1; probe on CALL *%rax. */
SYM_FUNC_START(kpt_call_reg)
	pushq	%rbp
	movq	%rsp, %rbp
	movq	%rdi, %rax
	ANNOTATE_RETPOLINE_SAFE
SYM_INNER_LABEL(kpt_call_reg_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	call	*%rax
	incl	%eax
	popq	%rbp
	RET
SYM_FUNC_END(kpt_call_reg)

/* long kpt_jmp_reg(long (*fn)(void)): fn(); probe on JMP *%r11. */
SYM_FUNC_START(kpt_jmp_reg)
	movq	%rdi, %r11
	ANNOTATE_RETPOLINE_SAFE
SYM_INNER_LABEL(kpt_jmp_reg_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	jmp	*%r11
SYM_FUNC_END(kpt_jmp_reg)

/* long kpt_loop(void): 3; probe on LOOP, hit three times. */
SYM_FUNC_START(kpt_loop)
	movl	$3, %ecx
	xorl	%eax, %eax
1:	incl	%eax
SYM_INNER_LABEL(kpt_loop_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	loop	1b
	RET
SYM_FUNC_END(kpt_loop)

/*
 * long kpt_loope(long stop): LOOPE with RCX = 5 while the count is below
 * @stop; the count reached, i.e. min(@stop, 5).  The probe is on LOOPE.
 */
SYM_FUNC_START(kpt_loope)
	movl	$5, %ecx
	xorl	%eax, %eax
1:	incl	%eax
	cmpq	%rdi, %rax
	setae	%dl
	testb	%dl, %dl		/* ZF = (count < stop) */
SYM_INNER_LABEL(kpt_loope_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	loope	1b
	RET
SYM_FUNC_END(kpt_loope)

/* long kpt_loopne(long stop): as kpt_loope, with LOOPNE until count == stop. */
SYM_FUNC_START(kpt_loopne)
	movl	$5, %ecx
	xorl	%eax, %eax
1:	incl	%eax
	cmpq	%rdi, %rax		/* ZF = (count == stop) */
SYM_INNER_LABEL(kpt_loopne_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	loopne	1b
	RET
SYM_FUNC_END(kpt_loopne)

/* long kpt_jrcxz(long x): 1 if x == 0, else 2; probe on JRCXZ. */
SYM_FUNC_START(kpt_jrcxz)
	movq	%rdi, %rcx
	movl	$1, %eax
SYM_INNER_LABEL(kpt_jrcxz_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	jrcxz	1f
	movl	$2, %eax
1:	RET
SYM_FUNC_END(kpt_jrcxz)

/*
 * long kpt_ret_imm(void): 16 plus how far the stack is off after a call
 * to a function that returns with RET $16 over two pushed words; 16 when
 * RET imm16 dropped them.  The probe is on that RET $16.
 */
SYM_FUNC_START(kpt_ret_imm)
	pushq	%rbp
	movq	%rsp, %rbp
	pushq	$0
	pushq	$0
	call	kpt_ret_imm_callee
	movq	%rbp, %rdx
	subq	%rsp, %rdx
	addq	%rdx, %rax
	leave
	RET
SYM_FUNC_END(kpt_ret_imm)

SYM_FUNC_START_LOCAL(kpt_ret_imm_callee)
	movl	$16, %eax
	ANNOTATE_UNRET_SAFE
SYM_INNER_LABEL(kpt_ret_imm_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	ret	$16
	int3
SYM_FUNC_END(kpt_ret_imm_callee)

/* unsigned long kpt_pushf(void): the flags, pushed by a probed PUSHF. */
SYM_FUNC_START(kpt_pushf)
SYM_INNER_LABEL(kpt_pushf_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	pushfq
	popq	%rax
	RET
SYM_FUNC_END(kpt_pushf)

/* unsigned long kpt_cli(void): the flags right after a probed CLI. */
SYM_FUNC_START(kpt_cli)
SYM_INNER_LABEL(kpt_cli_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	cli
	pushfq
	popq	%rax
	sti
	RET
SYM_FUNC_END(kpt_cli)

/* unsigned long kpt_sti(void): the flags right after a probed STI. */
SYM_FUNC_START(kpt_sti)
	cli
SYM_INNER_LABEL(kpt_sti_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	sti
	pushfq
	popq	%rax
	RET
SYM_FUNC_END(kpt_sti)

/*
 * unsigned long kpt_popf(unsigned long flags): the flags right after a
 * probed POPF of @flags; the caller's own come back at the end.
 */
SYM_FUNC_START(kpt_popf)
	pushfq
	pushq	%rdi
SYM_INNER_LABEL(kpt_popf_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	popfq
	pushfq
	popq	%rax
	popfq
	RET
SYM_FUNC_END(kpt_popf)

/*
 * long kpt_fault_load(long *p): *p, or -EFAULT through the fixup (#PF or
 * #GP).  A fault handler that handles the fault may resume at
 * kpt_fault_next instead, with its own result in RAX.
 */
SYM_FUNC_START(kpt_fault_load)
SYM_INNER_LABEL(kpt_fault_insn, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
1:	movq	(%rdi), %rax
SYM_INNER_LABEL(kpt_fault_next, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	RET
2:	movq	$-14, %rax
	RET
	_ASM_EXTABLE(1b, 2b)
SYM_FUNC_END(kpt_fault_load)

/*
 * long kpt_gp_load(long *p): *p, with no fixup: a fault that nobody
 * handles is an oops.  For fault handlers that resume at kpt_gp_next.
 */
SYM_FUNC_START(kpt_gp_load)
	movq	(%rdi), %rax
SYM_INNER_LABEL(kpt_gp_next, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	RET
SYM_FUNC_END(kpt_gp_load)

/* Never called: instructions that cannot be probed. */
SYM_FUNC_START(kpt_refused)
SYM_INNER_LABEL(kpt_refused_call_mem, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	ANNOTATE_RETPOLINE_SAFE
	call	*(%rdi)
SYM_INNER_LABEL(kpt_refused_hlt, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	hlt
SYM_INNER_LABEL(kpt_refused_int3, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	int3
SYM_INNER_LABEL(kpt_refused_ud2, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	ud2
SYM_FUNC_END(kpt_refused)
