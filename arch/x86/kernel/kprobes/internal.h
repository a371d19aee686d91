/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the x86 kprobes files only.
 */
#ifndef _X86_KERNEL_KPROBES_INTERNAL_H
#define _X86_KERNEL_KPROBES_INTERNAL_H

/*
 * What a detour's template does once its callee returned, the callee's
 * verdict (enum kprobe_detour_verdict's values, for the assembly): run
 * the copy that follows, IRET to regs->ip, POPF regs->flags and jump to
 * the way with a stop after the first instruction (x86_detour_step_jmp),
 * or (x86_64) jump to the code generated for the first instruction
 * (x86_detour_first_jmp), whose post template, for REST, POPFs
 * regs->flags, loads regs->sp and jumps to the copy of the region after
 * its first instruction (x86_detour_post_rest_jmp).
 */
#define X86_DETOUR_COPY		0
#define X86_DETOUR_IRET		1
#define X86_DETOUR_STEP		2
#define X86_DETOUR_REST		3
#define X86_DETOUR_FIRST	4

#ifndef __ASSEMBLY__
#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>

/* emulate.c: one routine per kind of instruction that must not move. */
void kprobe_emulate_jmp(const struct arch_specific_insn *ai,
			struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_jcc(const struct arch_specific_insn *ai,
			struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_loop(const struct arch_specific_insn *ai,
			 struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_call(const struct arch_specific_insn *ai,
			 struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_ret(const struct arch_specific_insn *ai,
			struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_call_reg(const struct arch_specific_insn *ai,
			     struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_jmp_reg(const struct arch_specific_insn *ai,
			    struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_pushf(const struct arch_specific_insn *ai,
			  struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_popf(const struct arch_specific_insn *ai,
			 struct pt_regs *regs, unsigned long addr);
void kprobe_emulate_cli_sti(const struct arch_specific_insn *ai,
			    struct pt_regs *regs, unsigned long addr);

/*
 * Boosted copies run with interrupts off (and end in STI; JMP for callers
 * that had them on) only where a task could be preempted inside a slot;
 * see boost_entry() in core.c.
 */
#define X86_KPROBE_BOOST_IRQS_OFF	IS_ENABLED(CONFIG_PREEMPTION)

/* text.c: changes to probed text, written and merged at each sync. */
void x86_kprobe_text_queue(void *addr, const void *bytes, size_t len);
void x86_kprobe_text_flush(void);
void x86_kprobe_text_settle(void);
void x86_kprobe_slot_write(u8 *slot, const u8 *bytes, size_t len);
void x86_kprobe_slot_forget(u8 *slot);

/* decode.c: reading, checking and moving original instructions. */
struct insn;
int x86_kprobe_read_orig(unsigned long addr, u8 *buf);
int x86_kprobe_decode(unsigned long addr, struct insn *insn, u8 *buf);
int x86_kprobe_relocate(u8 *buf, struct insn *insn, unsigned long from,
			unsigned long to);
bool x86_kprobe_relocatable(struct insn *insn, unsigned long addr);

/*
 * regop_64.c: the code a detour runs for its region's first instruction
 * on pt_regs, for post handlers (x86_64; on i386 the detour always takes
 * the way through the copy).
 */
#define X86_REGOP_MAX_CODE	80

#ifdef CONFIG_X86_64
int x86_regop_emit(struct insn *insn, unsigned long next, u8 *buf);
#else
static inline int x86_regop_emit(struct insn *insn, unsigned long next,
				 u8 *buf)
{
	return 0;
}
#endif

/* Can a rel32 branch ending at @next reach @target? */
static inline bool x86_rel32_reaches(unsigned long next, unsigned long target)
{
	s64 rel = (s64)target - (s64)next;

	return rel == (s32)rel;
}

/*
 * detour_*.S: the template every detour buffer starts with.  The
 * instruction at x86_detour_site loads the site into the first argument
 * register; these are its bytes before the immediate.
 */
#ifdef CONFIG_X86_64
#define X86_DETOUR_SITE_OPCODE	"\x48\xbf"	/* MOVABS $imm64, %rdi */
#else
#define X86_DETOUR_SITE_OPCODE	"\xb8"		/* MOVL $imm32, %eax */
#endif
extern const u8 x86_detour_template[];
extern const u8 x86_detour_site[];
extern const u8 x86_detour_clac[];
extern const u8 x86_detour_call[];
extern const u8 x86_detour_step_jmp[];
extern const u8 x86_detour_template_end[];
/* x86_64 only: the way for the first instruction done on pt_regs. */
extern const u8 x86_detour_first_jmp[];
extern const u8 x86_detour_post_template[];
extern const u8 x86_detour_post_site[];
extern const u8 x86_detour_post_call[];
extern const u8 x86_detour_post_rest_jmp[];
extern const u8 x86_detour_post_template_end[];

/* The copy of the region follows the template in a detour. */
static inline size_t x86_detour_copy_offset(void)
{
	return x86_detour_template_end - x86_detour_template;
}

/* jprobe.S: the address just after jprobe_return()'s breakpoint. */
extern const u8 x86_jprobe_return_trap[];

/* core.c: called by the step trampoline (step_*.S) and by detours. */
void x86_kprobe_step_trampoline(void);
__visible void x86_kprobe_step_return(struct pt_regs *regs);
__visible u8 x86_kprobe_detour_post(struct kprobe_site *site,
				    struct pt_regs *regs);

/* kretprobe.c: called by the return trampoline (trampoline_*.S). */
void kretprobe_trampoline(void);
__visible unsigned long x86_kretprobe_return(struct pt_regs *regs);

#endif /* !__ASSEMBLY__ */
#endif /* _X86_KERNEL_KPROBES_INTERNAL_H */
