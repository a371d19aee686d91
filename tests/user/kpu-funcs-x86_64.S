/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The instructions tests/guest/tests.d/user-probes.sh probes, written
 * out so that each probe sits on a known instruction.  kpu-target prints
 * the file offset of every global symbol here ("offsets" mode).
 */
	.text

/* long kpu_add(long a, long b): a + b, in one 4-byte LEA. */
	.globl	kpu_add
	.type	kpu_add, @function
kpu_add:
	lea	(%rdi,%rsi), %rax
	ret
	.size	kpu_add, . - kpu_add

/*
 * long kpu_max(long a, long b): the larger one.  kpu_max_jcc is the
 * branch right after its compare: a probe there must not change which
 * way it goes.
 */
	.globl	kpu_max
	.type	kpu_max, @function
kpu_max:
	mov	%rdi, %rax
	cmp	%rsi, %rdi
	.globl	kpu_max_jcc
kpu_max_jcc:
	jge	1f
	mov	%rsi, %rax
1:	ret
	.size	kpu_max, . - kpu_max

/* long kpu_load(long *p): *p, loaded at kpu_load_insn. */
	.globl	kpu_load
	.type	kpu_load, @function
kpu_load:
	.globl	kpu_load_insn
kpu_load_insn:
	mov	(%rdi), %rax
	ret
	.size	kpu_load, . - kpu_load

/* Data, not code: a probe here is refused. */
	.data
	.globl	kpu_data
	.type	kpu_data, @object
kpu_data:
	.quad	0x6b7075
	.size	kpu_data, . - kpu_data

	.section .note.GNU-stack, "", @progbits
