/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _ASM_X86_KPROBES_H
#define _ASM_X86_KPROBES_H
/*
 * x86 side of kprobes: the breakpoint is INT3, and the probed
 * instruction is either emulated or executed out of line in a slot, from
 * where a second INT3 or a jump ("boost") leads back.
 */
#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES
#include <linux/types.h>
#include <linux/ptrace.h>
#include <linux/percpu.h>
#include <asm/text-patching.h>
#include <asm/insn.h>

struct pt_regs;
struct arch_specific_insn;

typedef u8 kprobe_opcode_t;

/**
 * struct arch_kprobe_hit_state - x86's part of one hit in progress
 * @caller_if: the caller's X86_EFLAGS_IF, which the copy runs without
 */
struct arch_kprobe_hit_state {
	unsigned long caller_if;
};

#define arch_kprobe_hit_state arch_kprobe_hit_state

/* Emulates the probed instruction; @addr is where it really lives. */
typedef void (*kprobe_emulate_t)(const struct arch_specific_insn *ai,
				 struct pt_regs *regs, unsigned long addr);

/**
 * struct arch_specific_insn - x86 copy of a probed instruction
 * @insn: the original bytes
 * @slot: executable out-of-line copies (see KPROBE_SLOT_*), or NULL
 *	when the instruction is emulated
 * @emulate: emulation routine for instructions that use or change the
 *	instruction pointer or the interrupt flag, or NULL when it runs in
 *	@slot
 * @disp: branch displacement of a relative jump or call, or the bytes
 *	a RET imm16 releases
 * @len: instruction length
 * @op: detail the emulation needs: condition code (Jcc), variant
 *	(LOOP family, CLI/STI)
 * @reg: pt_regs offset of the target register of an indirect branch
 * @boostable: the copy may jump straight back instead of trapping
 * @detour: jump optimization's detour buffer (see opt.c), or NULL
 * @opt_len: bytes of whole instructions the jump covers (the region)
 * @opt_step: where in @detour the way for hits with post handlers starts
 * @opt_orig: the original bytes the jump overwrites
 */
struct arch_specific_insn {
	kprobe_opcode_t insn[MAX_INSN_SIZE];
	kprobe_opcode_t *slot;
	kprobe_emulate_t emulate;
	s32 disp;
	u8 len;
	u8 op;
	u8 reg;
	bool boostable;
	kprobe_opcode_t *detour;
	u8 opt_len;
	u16 opt_step;
	u8 opt_orig[JMP32_INSN_SIZE];
};

/*
 * One slot holds up to three copies of the instruction, each followed by
 * its way back:
 *   KPROBE_SLOT_STEP       for hits that come back to kprobes (post
 *                          handlers, or an instruction that is not
 *                          boostable): a JMP to x86_kprobe_step_trampoline,
 *                          which finishes the hit without a trap, when
 *                          the instruction is boostable; otherwise INT3,
 *                          which finishes it from the breakpoint handler
 *   KPROBE_SLOT_BOOST      JMP to the next instruction
 *   KPROBE_SLOT_BOOST_STI  STI; JMP, for callers that had interrupts on;
 *                          written only on preemptible kernels.  STI's
 *                          one-instruction delay keeps them off until
 *                          the CPU is back in the original code
 * The longest instruction is 15 bytes.
 */
#define KPROBE_SLOT_STEP	0
#define KPROBE_SLOT_BOOST	20
#define KPROBE_SLOT_BOOST_STI	40
#define KPROBE_SLOT_SIZE	64

/* The breakpoint is INT3: a pre handler sees regs->ip past it. */
#define KPROBE_BREAKPOINT_SIZE	INT3_INSN_SIZE

/* Kernel breakpoints enter through irqentry_nmi_enter(). */
#define KPROBE_TRAP_CTX_OFFSET	(NMI_OFFSET + HARDIRQ_OFFSET)

/* Jump optimization: every detour has the way for hits with post handlers. */
static __always_inline bool arch_kprobe_opt_post_way(void)
{
	return true;
}

#define arch_kprobe_opt_post_way arch_kprobe_opt_post_way

/*
 * Jump optimization: a JMP rel32 replaces the instructions it overlaps,
 * the region, at most 4 + 15 bytes.  The detour buffer holds the
 * register save and restore code (143 bytes on x86_64, 138 on i386),
 * the region's copy and a jump back, twice over: once for hits without
 * post handlers and once, split after the first instruction, for hits
 * with them; on x86_64 also the code that does the first instruction on
 * pt_regs (at most 80 bytes) and what runs the post handlers after it
 * (66 bytes).
 */
#define KPROBE_OPT_MAX_REGION	(JMP32_INSN_SIZE - 1 + MAX_INSN_SIZE)
#define KPROBE_DETOUR_SIZE	512

/* User-space probes decode the instructions of a function up to the probe. */
#define KPROBE_USER_INSN_MAX	MAX_INSN_SIZE

/*
 * x86 keeps the order of a CPU's stores with its earlier loads and stores
 * (TSO): a per-CPU store is a release once the compiler keeps it in place.
 */
#define KPROBE_PERCPU_STORE_RELEASES

int kprobe_int3_handler(struct pt_regs *regs);
int kprobe_fault_handler(struct pt_regs *regs, int trapnr);

#endif /* CONFIG_KPROBES */
#endif /* _ASM_X86_KPROBES_H */
