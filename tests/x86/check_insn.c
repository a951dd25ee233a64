// SPDX-License-Identifier: GPL-2.0-only
/* check_x86_insn.c - The emulator's IsBranch classification (lib/x86_insn.c).
 *
 * Expected values are KVM's: a row is a branch iff the opcode_table[] / twobyte_table[] /
 * group5[] entry x86_decode_insn() lands on carries IsBranch (arch/x86/kvm/emulate.c,
 * kvm-x86/linux 042007c262e5; ENTER/LEAVE carried it from 018d70ffcfec until e8f85d7884e0,
 * 6.18), kvm-vpmu-semantics.md 3.3.
 */
#include "config.h"

#include <string.h>

#include "check_common.h"
#include "insn.h"
#include "vpmc.h"

#define K618 VPMC_KERNEL(6, 18)
#define K612 VPMC_KERNEL(6, 12)
#define BR X86_INSN_BRANCH
#define NO X86_INSN_OTHER
#define TR X86_INSN_TRUNCATED
#define REAL KVM_MODE_REAL
#define P32 KVM_MODE_PROT32
#define P64 KVM_MODE_PROT64
#define UNK KVM_MODE_UNKNOWN

struct insn_case {
	const char *name;
	uint8_t bytes[X86_MAX_INSTRUCTION_LENGTH];
	size_t len;
	enum kvm_insn_mode mode;
	unsigned int host;
	enum x86_insn_class want;
};

#define B(...) { __VA_ARGS__ }, sizeof((uint8_t[]){ __VA_ARGS__ })

static const struct insn_case cases[] = {
	/* Every row of kvm-vpmu-semantics.md 3.3. */
	{ "jo rel8 (70)", B(0x70, 0x05), P64, K618, BR },
	{ "jg rel8 (7f)", B(0x7f, 0xfe), P32, K618, BR },
	{ "jo rel32 (0f 80)", B(0x0f, 0x80, 1, 0, 0, 0), P64, K618, BR },
	{ "jg rel32 (0f 8f)", B(0x0f, 0x8f, 1, 0, 0, 0), P64, K618, BR },
	{ "loopne (e0)", B(0xe0, 0xfe), P64, K618, BR },
	{ "loope (e1)", B(0xe1, 0xfe), P64, K618, BR },
	{ "loop (e2)", B(0xe2, 0xfe), P64, K618, BR },
	{ "jrcxz (e3)", B(0xe3, 0x02), P64, K618, BR },
	{ "call rel32 (e8)", B(0xe8, 0, 0, 0, 0), P64, K618, BR },
	{ "jmp rel32 (e9)", B(0xe9, 0, 0, 0, 0), P64, K618, BR },
	{ "jmp rel8 (eb)", B(0xeb, 0xfe), P64, K618, BR },
	{ "call far ptr (9a) prot32", B(0x9a, 0, 0x10, 0, 0, 0x08, 0), P32, K618, BR },
	{ "jmp far ptr (ea) real", B(0xea, 0, 0x7c, 0, 0), REAL, K618, BR },
	{ "call far ptr (9a) No64", B(0x9a, 0, 0x10, 0, 0, 0x08, 0), P64, K618, NO },
	{ "jmp far ptr (ea) No64", B(0xea, 0, 0x10, 0, 0, 0x08, 0), P64, K618, NO },
	{ "call near indirect (ff /2)", B(0xff, 0xd0), P64, K618, BR },
	{ "call far indirect (ff /3)", B(0xff, 0x18), P64, K618, BR },
	{ "jmp near indirect (ff /4)", B(0xff, 0xe0), P64, K618, BR },
	{ "jmp far indirect (ff /5)", B(0xff, 0x28), P64, K618, BR },
	{ "inc r/m (ff /0)", B(0xff, 0xc0), P64, K618, NO },
	{ "dec r/m (ff /1)", B(0xff, 0xce), P64, K618, NO },
	{ "push r/m (ff /6)", B(0xff, 0x30), P64, K618, NO },
	{ "undefined (ff /7)", B(0xff, 0xf8), P64, K618, NO },
	{ "ret imm16 (c2)", B(0xc2, 8, 0), P64, K618, BR },
	{ "ret (c3)", B(0xc3), P64, K618, BR },
	{ "retf imm16 (ca)", B(0xca, 8, 0), P64, K618, BR },
	{ "retf (cb)", B(0xcb), P64, K618, BR },
	{ "int3 (cc)", B(0xcc), P64, K618, BR },
	{ "int imm8 (cd)", B(0xcd, 0x80), P32, K618, BR },
	{ "into (ce) prot32", B(0xce), P32, K618, BR },
	{ "into (ce) No64", B(0xce), P64, K618, NO },
	{ "iret (cf)", B(0xcf), P32, K618, BR },
	{ "syscall (0f 05)", B(0x0f, 0x05), P64, K618, BR },
	{ "sysenter (0f 34)", B(0x0f, 0x34), P32, K618, BR },
	{ "sysexit (0f 35)", B(0x0f, 0x35), P32, K618, BR },
	{ "enter (c8) on 6.12", B(0xc8, 8, 0, 0), P64, K612, BR },
	{ "leave (c9) on 6.12", B(0xc9), P64, K612, BR },
	{ "enter (c8) on 6.18", B(0xc8, 8, 0, 0), P64, K618, NO },
	{ "leave (c9) on 6.18", B(0xc9), P64, K618, NO },
	{ "leave (c9) on 7.0", B(0xc9), P64, VPMC_KERNEL(7, 0), NO },
	/* Not branches (3.3: VMCALL, RSM, string instructions; and the rest). */
	{ "vmcall (0f 01 c1)", B(0x0f, 0x01, 0xc1), P64, K618, NO },
	{ "vmmcall (0f 01 d9)", B(0x0f, 0x01, 0xd9), P64, K618, NO },
	{ "rsm (0f aa)", B(0x0f, 0xaa), P64, K618, NO },
	{ "rep movsd (f3 a5)", B(0xf3, 0xa5), P64, K618, NO },
	{ "rep insb (f3 6c)", B(0xf3, 0x6c), P64, K618, NO },
	{ "sysret (0f 07), not emulated", B(0x0f, 0x07), P64, K618, NO },
	{ "0f 38 map (movbe)", B(0x0f, 0x38, 0xf0, 0x06), P64, K618, NO },
	/* Prefixes: skipped before the opcode, whatever they are. */
	{ "66 e8 (call rel16)", B(0x66, 0xe8, 0, 0), P32, K618, BR },
	{ "67 e3 (jcxz)", B(0x67, 0xe3, 0x02), P32, K618, BR },
	{ "f0 ff /2", B(0xf0, 0xff, 0x10), P64, K618, BR },
	{ "f2 c3 (bnd ret)", B(0xf2, 0xc3), P64, K618, BR },
	{ "f3 c3 (rep ret)", B(0xf3, 0xc3), P64, K618, BR },
	{ "2e 74 (cs: jz, hint)", B(0x2e, 0x74, 0x02), P64, K618, BR },
	{ "3e 75 (ds: jnz, hint)", B(0x3e, 0x75, 0x02), P64, K618, BR },
	{ "26 ff /4 (es: jmp)", B(0x26, 0xff, 0x20), P32, K618, BR },
	{ "36 ff /2 (ss: call)", B(0x36, 0xff, 0x10), P32, K618, BR },
	{ "64 ff /4 (fs: jmp)", B(0x64, 0xff, 0x24, 0x25, 0, 0, 0, 0), P64, K618, BR },
	{ "65 ff /2 (gs: call)", B(0x65, 0xff, 0x14, 0x25, 0, 0, 0, 0), P64, K618, BR },
	{ "66 67 f3 2e prefixes then 0f 84", B(0x66, 0x67, 0xf3, 0x2e, 0x0f, 0x84, 0, 0), P32, K618,
	  BR },
	{ "prefixes then mov", B(0x66, 0x2e, 0x89, 0xc0), P32, K618, NO },
	/* REX: a prefix in 64-bit mode only; INC/DEC otherwise. */
	{ "48 cf iretq (prot64)", B(0x48, 0xcf), P64, K618, BR },
	{ "48 cf = dec eax; iret (prot32)", B(0x48, 0xcf), P32, K618, NO },
	{ "41 ff d3 call r11", B(0x41, 0xff, 0xd3), P64, K618, BR },
	{ "48 ff e0 jmp rax", B(0x48, 0xff, 0xe0), P64, K618, BR },
	{ "4f alone (prot64)", B(0x4f), P64, K618, TR },
	{ "40 inc eax (prot32)", B(0x40), P32, K618, NO },
	{ "40 inc ax (real)", B(0x40), REAL, K618, NO },
	{ "66 48 ff e0: legacy then REX", B(0x66, 0x48, 0xff, 0xe0), P64, K618, BR },
	{ "48 66 ff e0: REX then legacy", B(0x48, 0x66, 0xff, 0xe0), P64, K618, BR },
	/* Unknown mode (trace-cmd's kvm plugin prints no mode): the length decides REX. */
	{ "unknown: 48 cf is iretq", B(0x48, 0xcf), UNK, K618, BR },
	{ "unknown: 48 alone is dec eax", B(0x48), UNK, K618, NO },
	{ "unknown: 66 40 is inc ax", B(0x66, 0x40), UNK, K618, NO },
	{ "unknown: 9a is call far", B(0x9a, 0, 0, 0, 0, 0, 0), UNK, K618, BR },
	{ "unknown: 70 jo", B(0x70, 0x02), UNK, K618, BR },
	/* Forced-emulation prefix: stripped by handle_ud(), not counted itself. */
	{ "fep + jmp rel8", B(0x0f, 0x0b, 0x6b, 0x76, 0x6d, 0xeb, 0xfe), P64, K618, BR },
	{ "fep + cpuid", B(0x0f, 0x0b, 0x6b, 0x76, 0x6d, 0x0f, 0xa2), P64, K618, NO },
	{ "fep + 48 cf", B(0x0f, 0x0b, 0x6b, 0x76, 0x6d, 0x48, 0xcf), P64, K618, BR },
	{ "fep alone", B(0x0f, 0x0b, 0x6b, 0x76, 0x6d), P64, K618, TR },
	{ "ud2 without kvm signature", B(0x0f, 0x0b), P64, K618, NO },
	/* Truncated input. */
	{ "empty", { 0 }, 0, P64, K618, TR },
	{ "prefixes only", B(0x66, 0xf3, 0x2e), P64, K618, TR },
	{ "0f alone", B(0x0f), P64, K618, TR },
	{ "ff without modrm", B(0xff), P64, K618, TR },
	{ "66 0f alone", B(0x66, 0x0f), P32, K618, TR },
	{ "15 prefixes", B(0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
			     0x66, 0x66, 0x66), P32, K618, TR },
	/* Every instruction of traces/local-kvm (NAME.raw.txt: len, insn, flags). */
	{ "trace real: wrmsr 0f 30", B(0x0f, 0x30), REAL, K618, NO },
	{ "trace real: rdtsc 0f 31", B(0x0f, 0x31), REAL, K618, NO },
	{ "trace real: rdmsr 0f 32", B(0x0f, 0x32), REAL, K618, NO },
	{ "trace real: rdpmc 0f 33", B(0x0f, 0x33), REAL, K618, NO },
	{ "trace real: jnz rel16 0f 85 18 ff", B(0x0f, 0x85, 0x18, 0xff), REAL, K618, BR },
	{ "trace real: jnz rel16 0f 85 5f ff", B(0x0f, 0x85, 0x5f, 0xff), REAL, K618, BR },
	{ "trace real: cpuid 0f a2", B(0x0f, 0xa2), REAL, K618, NO },
	{ "trace real: push bp 55", B(0x55), REAL, K618, NO },
	{ "trace real: pop bp 5d", B(0x5d), REAL, K618, NO },
	{ "trace real: 66 01 d8", B(0x66, 0x01, 0xd8), REAL, K618, NO },
	{ "trace real: 66 31 c2", B(0x66, 0x31, 0xc2), REAL, K618, NO },
	{ "trace real: 66 31 c9", B(0x66, 0x31, 0xc9), REAL, K618, NO },
	{ "trace real: 66 31 d2", B(0x66, 0x31, 0xd2), REAL, K618, NO },
	{ "trace real: 66 39 d0", B(0x66, 0x39, 0xd0), REAL, K618, NO },
	{ "trace real: 66 6b d8 03", B(0x66, 0x6b, 0xd8, 0x03), REAL, K618, NO },
	{ "trace real: 66 89 f0", B(0x66, 0x89, 0xf0), REAL, K618, NO },
	{ "trace real: 66 b8 imm32", B(0x66, 0xb8, 0, 0, 0x53, 0), REAL, K618, NO },
	{ "trace real: 66 b9 imm32", B(0x66, 0xb9, 0x8f, 0x03, 0, 0), REAL, K618, NO },
	{ "trace real: 66 ba imm32", B(0x66, 0xba, 0xe9, 0, 0, 0), REAL, K618, NO },
	{ "trace real: 66 c1 c0 05", B(0x66, 0xc1, 0xc0, 0x05), REAL, K618, NO },
	{ "trace real: 66 ef (out dx, eax)", B(0x66, 0xef), REAL, K618, NO },
	{ "trace real: 66 ff ce (dec esi)", B(0x66, 0xff, 0xce), REAL, K618, NO },
	{ "trace real: jae 73 03", B(0x73, 0x03), REAL, K618, BR },
	{ "trace real: je 74 03", B(0x74, 0x03), REAL, K618, BR },
	{ "trace real: 83 46 02 02", B(0x83, 0x46, 0x02, 0x02), REAL, K618, NO },
	{ "trace real: 89 e5", B(0x89, 0xe5), REAL, K618, NO },
	{ "trace real: a8 01", B(0xa8, 0x01), REAL, K618, NO },
	{ "trace real: iret cf", B(0xcf), REAL, K618, BR },
	{ "trace real: in e4 e9", B(0xe4, 0xe9), REAL, K618, NO },
	{ "trace real: out e6 e9", B(0xe6, 0xe9), REAL, K618, NO },
	{ "trace real: out e6 f1", B(0xe6, 0xf1), REAL, K618, NO },
	{ "trace real: hlt f4", B(0xf4), REAL, K618, NO },
	{ "trace pm32: jnz rel32", B(0x0f, 0x85, 0x3c, 0xff, 0xff, 0xff), P32, K618, BR },
	{ "trace pm32: pop eax 58", B(0x58), P32, K618, NO },
	{ "trace pm32: 83 c0 02", B(0x83, 0xc0, 0x02), P32, K618, NO },
	{ "trace pm32: 83 c4 04", B(0x83, 0xc4, 0x04), P32, K618, NO },
	{ "trace pm32: popfd 9d", B(0x9d), P32, K618, NO },
	{ "trace pm32: jmp eax ff e0", B(0xff, 0xe0), P32, K618, BR },
	{ "trace pm32: dec esi ff ce", B(0xff, 0xce), P32, K618, NO },
	{ "trace pm32: jae 73 02", B(0x73, 0x02), P32, K618, BR },
	{ "trace pm32: in al e4 e9", B(0xe4, 0xe9), P32, K618, NO },
	{ "trace pm32: out dx ef", B(0xef), P32, K618, NO },
	{ "trace pm32: mov ecx b9", B(0xb9, 0x86, 0x01, 0, 0), P32, K618, NO },
	{ "trace lm64: 48 83 04 24 02", B(0x48, 0x83, 0x04, 0x24, 0x02), P64, K618, NO },
	{ "trace lm64: 48 83 c4 08", B(0x48, 0x83, 0xc4, 0x08), P64, K618, NO },
	{ "trace lm64: iretq 48 cf", B(0x48, 0xcf), P64, K618, BR },
	{ "trace lm64: je 74 02", B(0x74, 0x02), P64, K618, BR },
	{ "trace lm64: 01 d8", B(0x01, 0xd8), P64, K618, NO },
	{ "trace lm64: 6b d8 03", B(0x6b, 0xd8, 0x03), P64, K618, NO },
	{ "trace lm64: wrmsr 0f 30", B(0x0f, 0x30), P64, K618, NO },
	{ "trace lm64: hlt f4", B(0xf4), P64, K618, NO },
};

START_TEST(test_classify_table)
{
	const struct insn_case *c = &cases[_i];
	enum x86_insn_class got = x86_insn_classify(c->bytes, c->len, c->mode, c->host);

	ck_assert_msg(got == c->want, "%s: got %d want %d", c->name, got, c->want);
}
END_TEST

/* Bytes past @len (the -R layout always prints 15) must not be decoded. */
START_TEST(test_classify_stops_at_len)
{
	const uint8_t ud_then_jmp[X86_MAX_INSTRUCTION_LENGTH] = { 0x66, 0xeb, 0xfe };

	ck_assert_int_eq(x86_insn_classify(ud_then_jmp, 1, KVM_MODE_PROT64, K618), TR);
	ck_assert_int_eq(x86_insn_classify(ud_then_jmp, 2, KVM_MODE_PROT64, K618), BR);
	ck_assert_int_eq(x86_insn_classify(ud_then_jmp, 99, KVM_MODE_PROT64, K618), BR);
}
END_TEST

static Suite *x86_insn_suite(void)
{
	Suite *s = suite_create("x86_insn");
	TCase *tc = tcase_create("isbranch");

	tcase_add_loop_test(tc, test_classify_table, 0, ARRAY_SIZE(cases));
	tcase_add_test(tc, test_classify_stops_at_len);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(x86_insn_suite)
