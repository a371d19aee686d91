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

/*
 * The first instruction of a region done on pt_regs for post handlers
 * (regop_64.c), one function per form:
 *
 *   void kpt_emu_<name>(long a, long b, unsigned long out[5])
 *
 * loads a into RAX and R10, b into RCX and R9, compares a with b (so that
 * every flag has a known value before the probe), runs the probed
 * instruction, and stores RAX, RCX, R9, R10 and RFLAGS into out[].  Two
 * stores after the probe complete the jump's region.  Each function has
 * an entry in kpt_emu_forms[] (struct kpt_emu_form): the function, the
 * probe's offset, whether the detour is to do the instruction on pt_regs, and
 * the name.
 */
	.pushsection .rodata, "a"
	.balign 8
SYM_DATA_START(kpt_emu_forms)
	.popsection

.macro KPT_EMU name, on_regs, insn:vararg
SYM_FUNC_START(kpt_emu_\name)
	movq	%rdx, %r11
	movq	%rdi, %rax
	movq	%rdi, %r10
	movq	%rsi, %rcx
	movq	%rsi, %r9
	cmpq	%rsi, %rdi
.Lkpt_emu_\name:
	\insn
	movq	%rax, (%r11)
	movq	%rcx, 8(%r11)
	movq	%r9, 16(%r11)
	movq	%r10, 24(%r11)
	pushfq
	popq	32(%r11)
	RET
SYM_FUNC_END(kpt_emu_\name)
	.pushsection .rodata, "a"
	.quad	kpt_emu_\name, .Lkpt_emu_\name - kpt_emu_\name, \on_regs
	.quad	.Lkpt_emu_name_\name
	.popsection
	.pushsection .rodata.str1.1, "aMS", @progbits, 1
.Lkpt_emu_name_\name:
	.asciz	"\name"
	.popsection
.endm

KPT_EMU mov_rr,		1, movq %rcx, %rax
KPT_EMU mov_rr32,	1, movl %ecx, %eax
KPT_EMU mov_8b,		1, .byte 0x48, 0x8b, 0xc1	/* movq %rcx, %rax */
KPT_EMU mov_r9_r10,	1, movq %r9, %r10
KPT_EMU mov_rsp,	1, movq %rsp, %rax
KPT_EMU mov_imm32,	1, movl $0x87654321, %eax
KPT_EMU mov_imm64,	1, movabsq $0x123456789abcdef0, %rax
KPT_EMU mov_imm_sx,	1, movq $-5, %rax
KPT_EMU mov_imm_r9,	1, movl $7, %r9d
KPT_EMU add_rr,		1, addq %rcx, %rax
KPT_EMU add_rr32,	1, addl %ecx, %eax
KPT_EMU add_03,		1, .byte 0x48, 0x03, 0xc1	/* addq %rcx, %rax */
KPT_EMU add_r9_r10,	1, addq %r9, %r10
KPT_EMU add_imm8,	1, addq $1, %rax
KPT_EMU add_imm8_32,	1, addl $-1, %ecx
KPT_EMU sub_rr,		1, subq %rcx, %rax
KPT_EMU sub_r9d_r10d,	1, subl %r9d, %r10d
KPT_EMU sub_imm32,	1, subq $0x12345678, %rax
KPT_EMU and_rr,		1, andq %rcx, %rax
KPT_EMU and_imm_eax,	1, andl $0xff00ff00, %eax
KPT_EMU or_rr,		1, orq %rcx, %rax
KPT_EMU or_imm8_r10,	1, orq $-2, %r10
KPT_EMU xor_rr,		1, xorq %rcx, %rax
KPT_EMU xor_self32,	1, xorl %eax, %eax
KPT_EMU xor_imm_rax,	1, xorq $0x7fffffff, %rax
KPT_EMU cmp_rr,		1, cmpq %rcx, %rax
KPT_EMU cmp_rr32,	1, cmpl %ecx, %eax
KPT_EMU cmp_imm,	1, cmpq $-1, %rcx
KPT_EMU test_rr,	1, testq %rcx, %rax
KPT_EMU test_rr32,	1, testl %ecx, %eax
KPT_EMU test_imm_eax,	1, testl $0x80000001, %eax
KPT_EMU test_imm_rcx,	1, testq $0x100, %rcx
/* Operands in the detour's scratch registers the other way round, REX.B/R. */
KPT_EMU sub_rax_rcx,	1, subq %rax, %rcx
KPT_EMU mov_rax_r9,	1, movq %rax, %r9
KPT_EMU xor_r9_self,	1, xorq %r9, %r9
KPT_EMU cmp_imm_r10,	1, cmpq $0x1000, %r10
KPT_EMU test_r9_rcx,	1, testq %r9, %rcx
KPT_EMU and_r10d_ecx,	1, andl %r10d, %ecx
/* The general way: these read flags, or the detour cannot do them. */
KPT_EMU adc_rr,		0, adcq %rcx, %rax
KPT_EMU sbb_imm8,	0, sbbq $3, %rax
KPT_EMU inc_rax,	0, incq %rax
KPT_EMU lea_rcx,	0, leaq 8(%rcx, %rax, 2), %rax
KPT_EMU add_rr16,	0, addw %cx, %ax
KPT_EMU add_rr8,	0, addb %cl, %al

	.pushsection .rodata, "a"
SYM_DATA_END_LABEL(kpt_emu_forms, SYM_L_GLOBAL, kpt_emu_forms_end)
	.popsection

/*
 * void kpt_emu_sub_rsp(unsigned long out[2]): the stack pointer after a
 * SUB from it, the probed instruction, and a value stored at the new top
 * of the stack, read back.
 */
SYM_FUNC_START(kpt_emu_sub_rsp)
.Lkpt_emu_sub_rsp:
	subq	$24, %rsp		/* 4 bytes */
	movq	%rsp, (%rdi)
	movq	$0x5a5a, (%rsp)
	movq	(%rsp), %rax
	movq	%rax, 8(%rdi)
	addq	$24, %rsp
	RET
SYM_FUNC_END(kpt_emu_sub_rsp)

	.section .rodata
	.balign 8
SYM_DATA(kpt_emu_sub_rsp_off, .quad .Lkpt_emu_sub_rsp - kpt_emu_sub_rsp)
SYM_DATA(kpt_opt_plain_off, .quad .Lkpt_opt_plain - kpt_opt_plain)
SYM_DATA(kpt_opt_rip_off, .quad .Lkpt_opt_rip - kpt_opt_rip)
SYM_DATA(kpt_opt_jump_in_off, .quad .Lkpt_opt_jump_in - kpt_opt_jump_in)
SYM_DATA(kpt_opt_indirect_off, .quad .Lkpt_opt_indirect - kpt_opt_indirect)
SYM_DATA(kpt_opt_extable_off, .quad .Lkpt_opt_extable - kpt_opt_extable)
SYM_DATA(kpt_opt_call_off, .quad .Lkpt_opt_call - kpt_opt_call)
