/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Targets of the modfuncs group: KPB_NMFNS (2000) small functions,
 * kpb_mfn_0000 ... kpb_mfn_1999, each a few plain register instructions
 * and a return, so that a probe on its entry can be jump-optimized, as
 * a tool's probe on every function of a module would be.  kpb_mfns[]
 * holds their addresses, for calling each once.  The file is linked
 * last, so that its size moves nothing the other groups measure.
 */
#include <linux/linkage.h>
#include <asm/nospec-branch.h>

.macro kpb_mfn n
SYM_FUNC_START(kpb_mfn_\n)
	mov	%rdi, %rax
	add	$7, %rax
	lea	3(%rax), %rax
	xor	%rdi, %rax
	RET
SYM_FUNC_END(kpb_mfn_\n)
	.pushsection .rodata
	.quad	kpb_mfn_\n
	.popsection
.endm

	.pushsection .rodata
	.balign	8
SYM_DATA_START(kpb_mfns)
	.popsection
	.irp a, 0, 1
	.irp b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	.irp c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	.irp d, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	kpb_mfn \a\b\c\d
	.endr
	.endr
	.endr
	.endr
	.pushsection .rodata
SYM_DATA_END(kpb_mfns)
SYM_DATA(kpb_nmfns, .long 2000)
	.popsection
