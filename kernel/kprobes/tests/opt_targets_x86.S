/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hand-written functions for the jump-optimization suite.  The offset of
 * the instruction to probe in each one is in kpt_<name>_off: a global
 * label there would end the function as kallsyms sees it, and with it
 * the range the safety checks decode.  kpt_opt_plain is the
 * shape every other target starts from: the region the jump would
 * replace is two plain instructions.  The others add exactly one thing
 * the safety checks must refuse, or one thing the detour must get right.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/nospec-branch.h>

	.text

/* long kpt_opt_plain(long x): x + 3 */
SYM_FUNC_START(kpt_opt_plain)
.Lkpt_opt_plain:
	movq	%rdi, %rax		/* 3 bytes */
	addq	$1, %rax		/* 4 bytes: the region ends here */
	addq	$2, %rax
	RET
SYM_FUNC_END(kpt_opt_plain)

/* long kpt_opt_alt(void): -1; where a redirecting handler sends calls */
SYM_FUNC_START(kpt_opt_alt)
	movq	$-1, %rax
	RET
SYM_FUNC_END(kpt_opt_alt)

/* long kpt_opt_rip(void): kpt_data + 1, through a RIP-relative load */
SYM_FUNC_START(kpt_opt_rip)
.Lkpt_opt_rip:
	movq	kpt_data(%rip), %rax	/* 7 bytes */
	addq	$1, %rax
	RET
SYM_FUNC_END(kpt_opt_rip)

/* long kpt_opt_jump_in(long x): 3 if x == 0, else x + 1 */
SYM_FUNC_START(kpt_opt_jump_in)
	movq	%rdi, %rax
	testq	%rdi, %rdi
	jnz	1f			/* into the region */
.Lkpt_opt_jump_in:
	addq	$2, %rax		/* 4 bytes */
1:	addq	$1, %rax
	RET
SYM_FUNC_END(kpt_opt_jump_in)

/* long kpt_opt_indirect(long x, void *never): x + 3 when never == NULL */
SYM_FUNC_START(kpt_opt_indirect)
.Lkpt_opt_indirect:
	movq	%rdi, %rax
	addq	$1, %rax
	addq	$2, %rax
	testq	%rsi, %rsi
	jz	1f
	ANNOTATE_RETPOLINE_SAFE
	jmp	*%rsi			/* never taken, but there */
1:	RET
SYM_FUNC_END(kpt_opt_indirect)

/* long kpt_opt_extable(long *p): *p + 5, with a fixup on the load */
SYM_FUNC_START(kpt_opt_extable)
.Lkpt_opt_extable:
	movq	$5, %rax		/* 7 bytes */
1:	addq	(%rdi), %rax
2:	RET
	_ASM_EXTABLE(1b, 2b)
SYM_FUNC_END(kpt_opt_extable)

/* long kpt_opt_call(void): kpt_callee() + 1, the CALL in the region */
SYM_FUNC_START(kpt_opt_call)
	pushq	%rbp
	movq	%rsp, %rbp
.Lkpt_opt_call:
	xorl	%eax, %eax		/* 2 bytes */
	call	kpt_callee
	addq	$1, %rax
	popq	%rbp
	RET
SYM_FUNC_END(kpt_opt_call)

	.section .rodata
	.balign 8
SYM_DATA(kpt_opt_plain_off, .quad .Lkpt_opt_plain - kpt_opt_plain)
SYM_DATA(kpt_opt_rip_off, .quad .Lkpt_opt_rip - kpt_opt_rip)
SYM_DATA(kpt_opt_jump_in_off, .quad .Lkpt_opt_jump_in - kpt_opt_jump_in)
SYM_DATA(kpt_opt_indirect_off, .quad .Lkpt_opt_indirect - kpt_opt_indirect)
SYM_DATA(kpt_opt_extable_off, .quad .Lkpt_opt_extable - kpt_opt_extable)
SYM_DATA(kpt_opt_call_off, .quad .Lkpt_opt_call - kpt_opt_call)
