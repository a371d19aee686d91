/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The arm64 twin of kpu-funcs-x86_64.S: the same symbols, each probe on
 * a known A64 instruction.
 */
	.text

/* long kpu_add(long a, long b): a + b, in one ADD. */
	.globl	kpu_add
	.type	kpu_add, %function
kpu_add:
	add	x0, x0, x1
	ret
	.size	kpu_add, . - kpu_add

/*
 * long kpu_max(long a, long b): the larger one.  kpu_max_jcc is the
 * conditional branch right after the compare: a probe there must leave
 * NZCV as the compare set it.
 */
	.globl	kpu_max
	.type	kpu_max, %function
kpu_max:
	cmp	x0, x1
	.globl	kpu_max_jcc
kpu_max_jcc:
	b.ge	1f
	mov	x0, x1
1:	ret
	.size	kpu_max, . - kpu_max

/* long kpu_load(long *p): *p, loaded at kpu_load_insn. */
	.globl	kpu_load
	.type	kpu_load, %function
kpu_load:
	.globl	kpu_load_insn
kpu_load_insn:
	ldr	x0, [x0]
	ret
	.size	kpu_load, . - kpu_load

/* Data, not code: a probe here is refused. */
	.data
	.globl	kpu_data
	.type	kpu_data, %object
	.balign	8
kpu_data:
	.quad	0x6b7075
	.size	kpu_data, . - kpu_data

	.section .note.GNU-stack, "", %progbits
