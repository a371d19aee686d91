/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probe targets for the kprobes benchmark, in assembly so that the probed
 * instructions and their offsets are the same whatever the compiler does.
 *
 *   kpb_hit_fn(x)   hit-cost target for the k/b/r/kr modes.  The probe goes on
 *                   the 2nd instruction (address in kpb_hit_site).  The never-taken jz
 *                   back into the bytes that follow the probe makes the
 *                   function unsuitable for a 5-byte jump detour, so a
 *                   pre-handler-only probe here is boosted, not optimized.
 *   kpb_opt_fn(x)   target for the o mode: after the probe (address in kpb_opt_site)
 *                   only plain register instructions (>= 5 bytes), no
 *                   jumps, so the stock optimizer can use a jump detour.
 *   kpb_slots       table of KPB_NSLOTBLK addresses; each points at the first
 *                   of KPB_SLOTS_PER_BLK 2-byte NOPs (66 90) of a small
 *                   never-called function: probe addresses for the attach
 *                   cost runs are slot_block[i] + 2 * j.  Small functions
 *                   keep the per-probe instruction walk of the kernels
 *                   (which decode from the function start) short.
 *
 * Two yardsticks for the o mode, which no kprobe ever touches; both
 * compute what kpb_opt_fn computes and call kpb_handler (the benchmark's
 * pre handler) through a pointer, as kprobes must:
 *
 *   kpb_oh_fn(x)    kpb_opt_fn plus the handler call: "a call of the
 *                   function plus a call of its handler".
 *   kpb_floor_fn(x) kpb_opt_fn with a jump at the probe site to a minimal
 *                   hand-written detour: save a struct pt_regs as our
 *                   detour does, call the handler with it, restore, run
 *                   the two displaced instructions, jump back.  No probe
 *                   lookup, no per-CPU state, no preemption count: a
 *                   lower bound for any jump-optimized probe that gives
 *                   its handlers a struct pt_regs.
 *
 * They come after everything else, so that adding them moved nothing
 * the other modes measure; so do kpb_trap_fn and kpb_rtrap_fn (see
 * there).
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include <asm/segment.h>
#include <asm/unwind_hints.h>

/* The general registers of a struct pt_regs, in its order. */
.macro KPB_PUSH_GPRS
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%rax
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
.endm

.macro KPB_POP_GPRS
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rax
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
.endm

	.text

SYM_FUNC_START(kpb_hit_fn)
	mov	%rdi, %rax
	ANNOTATE_NOENDBR
.Lkpb_hit_site:
	add	$1, %rax
.Lkpb_hit_after:
	lea	3(%rax), %rax
	add	%rdi, %rax
	test	%rax, %rax
	jz	.Lkpb_hit_after
	RET
SYM_FUNC_END(kpb_hit_fn)

SYM_FUNC_START(kpb_opt_fn)
	mov	%rdi, %rax
	ANNOTATE_NOENDBR
.Lkpb_opt_site:
	add	$1, %rax
	lea	3(%rax), %rax
	add	%rdi, %rax
	xor	%rdi, %rax
	RET
SYM_FUNC_END(kpb_opt_fn)

#define KPB_SLOTS_PER_BLK	64
#define KPB_NSLOTBLK		160	/* 160 * 64 = 10240 >= 10000 probes */

.macro kpb_slot_block
	/* SYM_FUNC_START_LOCAL/SYM_FUNC_END spelled out: a gas macro cannot
	 * feed \@ through them. */
	.balign	16, 0x90
	.type	kpb_slot_blk_\@, @function
kpb_slot_blk_\@:
	ENDBR
	ANNOTATE_NOENDBR
.Lkpb_slot_first_\@:
	.rept KPB_SLOTS_PER_BLK
	xchg	%ax, %ax
	.endr
	RET
	.size	kpb_slot_blk_\@, . - kpb_slot_blk_\@
	.pushsection .rodata
	.quad	.Lkpb_slot_first_\@
	.popsection
.endm

	.pushsection .rodata
	.balign	8
SYM_DATA_START(kpb_slots)
	.popsection
	.rept KPB_NSLOTBLK
	kpb_slot_block
	.endr
	.pushsection .rodata
SYM_DATA_END(kpb_slots)
	.popsection

SYM_FUNC_START(kpb_oh_fn)
	mov	%rdi, %rax
	add	$1, %rax
	lea	3(%rax), %rax
	add	%rdi, %rax
	xor	%rdi, %rax
	push	%rax
	xor	%edi, %edi
	xor	%esi, %esi
	mov	kpb_handler(%rip), %rax
	CALL_NOSPEC rax
	pop	%rax
	RET
SYM_FUNC_END(kpb_oh_fn)

SYM_FUNC_START(kpb_floor_fn)
	mov	%rdi, %rax
	jmp	.Lkpb_floor_detour	/* where add + lea were */
.Lkpb_floor_back:
	add	%rdi, %rax
	xor	%rdi, %rax
	RET

.Lkpb_floor_detour:
	pushq	$__KERNEL_DS
	pushq	%rsp
	addq	$8, (%rsp)
	pushfq
	pushq	$__KERNEL_CS
	pushq	$0
	pushq	$-1
	KPB_PUSH_GPRS
	movq	%rsp, %rsi
	xorl	%edi, %edi
	movq	kpb_handler(%rip), %rax
	CALL_NOSPEC rax
	KPB_POP_GPRS
	leaq	24(%rsp), %rsp
	popfq
	leaq	16(%rsp), %rsp
	add	$1, %rax
	lea	3(%rax), %rax
	jmp	.Lkpb_floor_back
SYM_FUNC_END(kpb_floor_fn)

/*
 * kpb_trap_fn(x): kpb_hit_fn with an INT3 where the probe goes, for the
 * b_floor yardstick: the bare breakpoint round trip, which the benchmark
 * completes from a die notifier, no kprobe involved.
 */
SYM_FUNC_START(kpb_trap_fn)
	mov	%rdi, %rax
	ANNOTATE_NOENDBR
.Lkpb_trap_site:
	int3
	add	$1, %rax
.Lkpb_trap_after:
	lea	3(%rax), %rax
	add	%rdi, %rax
	test	%rax, %rax
	jz	.Lkpb_trap_after
	RET
SYM_FUNC_END(kpb_trap_fn)

/*
 * kpb_rtrap_fn(x): kpb_hit_fn with an INT3 before its first instruction,
 * for the r_floor yardstick: the benchmark's die notifier points the
 * return address at kpb_rfloor_tramp, which saves a struct pt_regs as our
 * return trampoline does, calls the handler with it, and returns where
 * the call would have.  The bare return hook on a breakpoint entry, no
 * kprobe involved: no instance, no lookup, no per-task state.
 */
SYM_FUNC_START(kpb_rtrap_fn)
	ANNOTATE_NOENDBR
.Lkpb_rtrap_site:
	int3
	mov	%rdi, %rax
	add	$1, %rax
.Lkpb_rtrap_after:
	lea	3(%rax), %rax
	add	%rdi, %rax
	test	%rax, %rax
	jz	.Lkpb_rtrap_after
	RET
SYM_FUNC_END(kpb_rtrap_fn)

SYM_CODE_START(kpb_rfloor_tramp)
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	pushq	$0			/* the slot for the real return address */
	UNWIND_HINT_FUNC
	pushq	$__KERNEL_DS
	pushq	$0
	pushfq
	pushq	$__KERNEL_CS
	pushq	$0
	pushq	$-1
	KPB_PUSH_GPRS
	movq	%rsp, %rsi
	xorl	%edi, %edi
	movq	kpb_handler(%rip), %rax
	CALL_NOSPEC rax
	movq	kpb_rfloor_ret(%rip), %rax
	movq	%rax, (21 * 8)(%rsp)
	KPB_POP_GPRS
	leaq	(3 * 8)(%rsp), %rsp
	popfq
	leaq	(2 * 8)(%rsp), %rsp
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(kpb_rfloor_tramp)

	.pushsection .rodata
SYM_DATA(kpb_rtrap_site, .quad .Lkpb_rtrap_site)
SYM_DATA(kpb_trap_site, .quad .Lkpb_trap_site)
SYM_DATA(kpb_hit_site, .quad .Lkpb_hit_site)
SYM_DATA(kpb_opt_site, .quad .Lkpb_opt_site)
SYM_DATA(kpb_slots_per_blk, .long KPB_SLOTS_PER_BLK)
SYM_DATA(kpb_nslotblk, .long KPB_NSLOTBLK)
	.popsection
