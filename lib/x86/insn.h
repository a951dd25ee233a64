/* SPDX-License-Identifier: GPL-2.0-only */
/* x86_insn.h - Is an emulated instruction a branch, per KVM's emulator (IsBranch)? */
#ifndef VPMC_X86_INSN_H
#define VPMC_X86_INSN_H

#include <stddef.h>
#include <stdint.h>

/* Instruction mode of kvm_emulate_insn (the kernel's flags: real, vm16, prot16/32/64). */
enum kvm_insn_mode {
	KVM_MODE_UNKNOWN, /* layout without a mode (trace-cmd plugin form) */
	KVM_MODE_REAL,
	KVM_MODE_VM86,
	KVM_MODE_PROT16,
	KVM_MODE_PROT32,
	KVM_MODE_PROT64,
};

enum x86_insn_class {
	X86_INSN_OTHER,     /* decoded, not flagged IsBranch */
	X86_INSN_BRANCH,    /* decoded, flagged IsBranch: kvm_pmu_branch_retired() */
	X86_INSN_TRUNCATED, /* the bytes end before the opcode (or its ModRM) is complete */
};

/* An instruction is at most 15 bytes (arch/x86/include/asm/insn.h). */
#define X86_MAX_INSTRUCTION_LENGTH 15

/* The forced-emulation prefix (UD2 + "kvm", force_emulation_prefix=1): skipped, never counted. */
#define X86_FEP_LEN 5

/**
 * x86_insn_classify() - Decode an instruction far enough to read the emulator's IsBranch flag.
 * @insn: instruction bytes as kvm_emulate_insn records them
 * @len: number of valid bytes (the instruction's length; at most 15 are read)
 * @mode: CPU mode of the instruction; KVM_MODE_UNKNOWN when the layout did not print it
 * @host_kernel: VPMC_KERNEL() of the host; ENTER/LEAVE are branches before 6.18
 *
 * Mirrors the prefix loop and opcode-table lookup of x86_decode_insn() in
 * arch/x86/kvm/emulate.c, which sets ctxt->is_branch from the final opcode's IsBranch flag
 * (added by 018d70ffcfec; ENTER/LEAVE dropped by e8f85d7884e0 in 6.18). No64 opcodes (9A, EA,
 * CE) are not branches in 64-bit mode, where the emulator raises #UD for them. With an unknown
 * mode, a 40-4F byte is a REX prefix when more instruction bytes follow it (in 16/32-bit mode
 * it would be a complete one-byte INC/DEC), and No64 opcodes count as branches.
 *
 * Return: X86_INSN_BRANCH, X86_INSN_OTHER, or X86_INSN_TRUNCATED.
 */
enum x86_insn_class x86_insn_classify(const uint8_t *insn, size_t len, enum kvm_insn_mode mode,
				      unsigned int host_kernel);

#endif /* VPMC_X86_INSN_H */
