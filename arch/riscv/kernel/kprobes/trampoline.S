/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RISC-V kprobes: the return trampoline and jprobe_return().
 *
 * A hooked function's RET lands in kretprobe_trampoline with its results
 * in a0/a1, the caller's frame pointer back in s0 and the stack pointer
 * it was called with.  Below that stack pointer we put a frame record
 * {s0, the trampoline} and point s0 at it, so that an unwinder walks
 * through to the caller (the record's return address is recovered from
 * the task's instances, by this stack pointer), and below the record a
 * struct pt_regs.  riscv_kretprobe_return() runs the handlers and gives
 * the real return address, which goes in ra: what the function's own RET
 * left there.  Every other register goes back as pt_regs holds it, and
 * RET needs nothing else and no trap.
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/asm-offsets.h>
#include <asm/csr.h>

	.text
SYM_CODE_START(kretprobe_trampoline)
	addi	sp, sp, -(PT_SIZE_ON_STACK + 2 * SZREG)
	REG_S	x1, PT_RA(sp)
	REG_S	x3, PT_GP(sp)
	REG_S	x4, PT_TP(sp)
	REG_S	x5, PT_T0(sp)
	save_from_x6_to_x31
	addi	t0, sp, PT_SIZE_ON_STACK + 2 * SZREG
	REG_S	t0, PT_SP(sp)
	la	t1, kretprobe_trampoline
	REG_S	t1, PT_EPC(sp)
	csrr	t2, CSR_STATUS
	REG_S	t2, PT_STATUS(sp)
	/* The frame record, just below the stack pointer at the return. */
	REG_S	s0, PT_SIZE_ON_STACK(sp)
	REG_S	t1, (PT_SIZE_ON_STACK + SZREG)(sp)
	mv	s0, t0

	mv	a0, sp
	call	riscv_kretprobe_return

	mv	ra, a0
	REG_L	x3, PT_GP(sp)
	REG_L	x4, PT_TP(sp)
	REG_L	x5, PT_T0(sp)
	restore_from_x6_to_x31
	addi	sp, sp, PT_SIZE_ON_STACK + 2 * SZREG
	ret
SYM_CODE_END(kretprobe_trampoline)
/* Never probed: a probe here would run inside every return. */
	.pushsection "_kprobe_blacklist", "aw"
	RISCV_PTR kretprobe_trampoline
	.popsection
