// SPDX-License-Identifier: GPL-2.0-only
/* x86_insn.c - Is an emulated instruction a branch, per KVM's emulator (IsBranch)?
 *
 * Only as much of x86_decode_insn() (arch/x86/kvm/emulate.c) as decides ctxt->is_branch:
 * legacy prefixes, REX in 64-bit mode, the one-byte and 0F two-byte opcode tables, and the
 * ModRM reg field of group 5 (FF). Table rows cite the opcode_table[] / twobyte_table[] /
 * group5[] entries that carry IsBranch (kvm-x86/linux 042007c262e5).
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "vpmc.h"
#include "insn.h"

enum {
	OP_BRANCH = 1 << 0, /* IsBranch */
	OP_NO64 = 1 << 1,   /* No64: #UD in 64-bit mode, so never retired there */
	OP_GROUP5 = 1 << 2, /* FF: IsBranch for ModRM.reg 2..5 (CALL/JMP near/far indirect) */
	OP_ENTER = 1 << 3,  /* C8/C9 ENTER/LEAVE: IsBranch before 6.18 (e8f85d7884e0) */
	OP_ESCAPE = 1 << 4, /* 0F: two-byte table */
};

/* opcode_table[]: the IsBranch rows (everything else decodes as a non-branch). */
static const uint8_t one_byte[256] = {
	[0x70 ... 0x7f] = OP_BRANCH,          /* Jcc rel8: X16(D(SrcImmByte|NearBranch|IsBranch)) */
	[0x9a] = OP_BRANCH | OP_NO64,         /* CALL far ptr: em_call_far */
	[0xc2] = OP_BRANCH,                   /* RET imm16: em_ret_near_imm */
	[0xc3] = OP_BRANCH,                   /* RET: em_ret */
	[0xc8] = OP_ENTER,                    /* ENTER: em_enter */
	[0xc9] = OP_ENTER,                    /* LEAVE: em_leave */
	[0xca] = OP_BRANCH,                   /* RETF imm16: em_ret_far_imm */
	[0xcb] = OP_BRANCH,                   /* RETF: em_ret_far */
	[0xcc] = OP_BRANCH,                   /* INT3 */
	[0xcd] = OP_BRANCH,                   /* INT imm8: intn */
	[0xce] = OP_BRANCH | OP_NO64,         /* INTO: D(ImplicitOps | No64 | IsBranch) */
	[0xcf] = OP_BRANCH,                   /* IRET: em_iret */
	[0xe0 ... 0xe2] = OP_BRANCH,          /* LOOPNE, LOOPE, LOOP: em_loop */
	[0xe3] = OP_BRANCH,                   /* JCXZ/JECXZ/JRCXZ: em_jcxz */
	[0xe8] = OP_BRANCH,                   /* CALL rel: em_call */
	[0xe9] = OP_BRANCH,                   /* JMP rel */
	[0xea] = OP_BRANCH | OP_NO64,         /* JMP far ptr: em_jmp_far */
	[0xeb] = OP_BRANCH,                   /* JMP rel8 */
	[0xff] = OP_GROUP5,                   /* group5 */
	[0x0f] = OP_ESCAPE,
};

/* twobyte_table[]: the IsBranch rows. */
static const uint8_t two_byte[256] = {
	[0x05] = OP_BRANCH,          /* SYSCALL: em_syscall */
	[0x34] = OP_BRANCH,          /* SYSENTER: em_sysenter */
	[0x35] = OP_BRANCH,          /* SYSEXIT: em_sysexit */
	[0x80 ... 0x8f] = OP_BRANCH, /* Jcc rel16/32 */
};

static const uint8_t fep[X86_FEP_LEN] = { 0x0f, 0x0b, 0x6b, 0x76, 0x6d }; /* ud2; .ascii "kvm" */

static bool is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0x66: case 0x67:                               /* operand / address size */
	case 0x26: case 0x2e: case 0x36: case 0x3e:         /* ES CS SS DS overrides */
	case 0x64: case 0x65:                               /* FS GS overrides */
	case 0xf0: case 0xf2: case 0xf3:                    /* LOCK, REPNE, REP */
		return true;
	default:
		return false;
	}
}

/* x86_decode_insn(): "case 0x40 ... 0x4f: if (mode != X86EMUL_MODE_PROT64) goto done_prefixes" */
static bool is_rex(uint8_t b, size_t pos, size_t len, enum kvm_insn_mode mode)
{
	if (b < 0x40 || b > 0x4f)
		return false;
	if (mode == KVM_MODE_PROT64)
		return true;
	if (mode == KVM_MODE_UNKNOWN)
		return pos + 1 < len;
	return false;
}

static enum x86_insn_class classify_opcode(const uint8_t *p, size_t i, size_t len,
					   enum kvm_insn_mode mode, unsigned int host_kernel)
{
	uint8_t flags = one_byte[p[i]];

	if (flags & OP_ESCAPE) {
		if (++i >= len)
			return X86_INSN_TRUNCATED;
		flags = two_byte[p[i]];
	}
	if (flags & OP_GROUP5) {
		uint8_t reg;

		if (++i >= len)
			return X86_INSN_TRUNCATED;
		reg = (p[i] >> 3) & 7;
		return reg >= 2 && reg <= 5 ? X86_INSN_BRANCH : X86_INSN_OTHER;
	}
	if (flags & OP_ENTER)
		return host_kernel < VPMC_KERNEL(6, 18) ? X86_INSN_BRANCH : X86_INSN_OTHER;
	if ((flags & OP_NO64) && mode == KVM_MODE_PROT64)
		return X86_INSN_OTHER;
	return (flags & OP_BRANCH) ? X86_INSN_BRANCH : X86_INSN_OTHER;
}

enum x86_insn_class x86_insn_classify(const uint8_t *insn, size_t len, enum kvm_insn_mode mode,
				      unsigned int host_kernel)
{
	size_t i = 0;

	if (len > X86_MAX_INSTRUCTION_LENGTH)
		len = X86_MAX_INSTRUCTION_LENGTH;
	/* handle_ud() strips the prefix before emulating; it is not an instruction of its own. */
	if (len >= X86_FEP_LEN && !memcmp(insn, fep, X86_FEP_LEN))
		i = X86_FEP_LEN;
	for (; i < len; i++) {
		if (!is_legacy_prefix(insn[i]) && !is_rex(insn[i], i, len, mode))
			return classify_opcode(insn, i, len, mode, host_kernel);
	}
	return X86_INSN_TRUNCATED;
}
