// SPDX-License-Identifier: GPL-2.0-only
/* check_kvm_record.c - Names and codes shared by the kvm readers (lib/kvm_record.c).
 * Expected strings are the kernel's tables: VMX_EXIT_REASONS / VMX_EXIT_REASON_FLAGS
 * (arch/x86/include/uapi/asm/vmx.h), SVM_EXIT_REASONS (uapi/asm/svm.h), and
 * kvm_trace_symbol_emul_flags (arch/x86/kvm/trace.h). */
#include "config.h"

#include <string.h>

#include "check_common.h"
#include "record.h"

static const struct {
	const char *name;
	enum kvm_rec_kind kind;
} kinds[] = {
	{ "kvm_entry", KVM_REC_ENTRY },
	{ "kvm_exit", KVM_REC_EXIT },
	{ "kvm_msr", KVM_REC_MSR },
	{ "kvm_emulate_insn", KVM_REC_EMULATE_INSN },
	{ "kvm_inj_exception", KVM_REC_INJ_EXCEPTION },
	{ "kvm_inj_virq", KVM_REC_INJ_VIRQ },
	{ "kvm_apic_accept_irq", KVM_REC_APIC_ACCEPT_IRQ },
	{ "kvm_eoi", KVM_REC_EOI },
	{ "kvm_apic", KVM_REC_APIC },
	{ "kvm_pio", KVM_REC_PIO },
	{ "kvm_userspace_exit", KVM_REC_USERSPACE_EXIT },
	{ "kvm_cpuid", KVM_REC_CPUID },
	{ "kvm_fpu", KVM_REC_FPU },
	{ "kvm_hypercall", KVM_REC_HYPERCALL },
	{ "kvm_nested_vmexit", KVM_REC_NESTED_VMEXIT },
	{ "kvm_nested_vmexit_inject", KVM_REC_NESTED_VMEXIT_INJECT },
	{ "kvm_nested_vmenter", KVM_REC_NESTED_VMENTER },
	{ "kvm_nested_vmrun", KVM_REC_NESTED_VMENTER },
	{ "kvm_nested_intercepts", KVM_REC_NESTED_OTHER },
	{ "kvm_nested_intr_vmexit", KVM_REC_NESTED_OTHER },
	{ "kvm_apicv_accept_irq", KVM_REC_OTHER },
	{ "kvm_pv_eoi", KVM_REC_OTHER },
	{ "kvm_page_fault", KVM_REC_OTHER },
	{ "kvm_exits", KVM_REC_OTHER },
	{ "kvm_", KVM_REC_OTHER },
	{ "tracing_mark_write", KVM_REC_OTHER },
	{ "", KVM_REC_OTHER },
};

START_TEST(test_kind_of_name)
{
	ck_assert_msg(trace_record_kind(kinds[_i].name) == kinds[_i].kind, "%s: %d want %d",
		      kinds[_i].name, trace_record_kind(kinds[_i].name), kinds[_i].kind);
}
END_TEST

START_TEST(test_insn_mode_from_flags)
{
	/* KVM_EMUL_INSN_F_CR0_PE 1, _EFL_VM 2, _CS_D 4, _CS_L 8 */
	ck_assert_int_eq(trace_insn_mode_from_flags(0), KVM_MODE_REAL);
	ck_assert_int_eq(trace_insn_mode_from_flags(1 | 2), KVM_MODE_VM86);
	ck_assert_int_eq(trace_insn_mode_from_flags(1), KVM_MODE_PROT16);
	ck_assert_int_eq(trace_insn_mode_from_flags(1 | 4), KVM_MODE_PROT32);
	ck_assert_int_eq(trace_insn_mode_from_flags(1 | 8), KVM_MODE_PROT64);
	/* kei_decode_mode() gives 0xff for a mode it does not know; VM without PE cannot be */
	ck_assert_int_eq(trace_insn_mode_from_flags(0xff), KVM_MODE_UNKNOWN);
	ck_assert_int_eq(trace_insn_mode_from_flags(2), KVM_MODE_UNKNOWN);
}
END_TEST

static const struct {
	unsigned int isa;
	uint64_t code;
	const char *want;
} reasons[] = {
	{ 1, 0, "EXCEPTION_NMI" },
	{ 1, 10, "CPUID" },
	{ 1, 15, "RDPMC" },
	{ 1, 31, "MSR_READ" },
	{ 1, 32, "MSR_WRITE" },
	{ 1, 48, "EPT_VIOLATION" },
	{ 1, 85, "MSR_WRITE_IMM" },
	/* basic reason 33 with bit 31: "INVALID_STATE" " " "FAILED_VMENTRY" */
	{ 1, 0x80000021u, "INVALID_STATE FAILED_VMENTRY" },
	/* bit 27 (from enclave) has no name in VMX_EXIT_REASON_FLAGS: __print_flags prints it */
	{ 1, 0x08000000u | 12, "HLT 0x8000000" },
	{ 1, 0x88000000u | 12, "HLT FAILED_VMENTRY 0x8000000" },
	{ 1, 99, "0x63" },
	{ 2, 0x7c, "msr" },
	{ 2, 0x81, "hypercall" },
	{ 2, 0x400, "npf" },
	{ 2, 0x6f, "rdpmc" },
	{ 2, 0x4d, "GP excp" },
	{ 2, 0xffffffffu, "invalid_guest_state" },
	{ 2, 0x999, "0x999" },
};

START_TEST(test_exit_reason_name)
{
	char buf[VPMC_REASON_MAX];

	memset(buf, 'x', sizeof(buf));
	trace_exit_reason_name(reasons[_i].isa, reasons[_i].code, buf, sizeof(buf));
	ck_assert_str_eq(buf, reasons[_i].want);
}
END_TEST

/* Which isa an exit reason as printed says (issue 12): VMX_EXIT_REASONS names (with flags),
 * SVM_EXIT_REASONS names no VMX name equals without case, trace-cmd's plugin's EXIT_* SVM
 * names; lower-case names that are also VMX names ("hlt": an ancient VMX trace prints lower
 * case), unknown codes and unknown names say nothing. */
static const struct {
	const char *reason;
	unsigned int isa;
} isas[] = {
	{ "MSR_WRITE", 1 }, { "INVALID_STATE FAILED_VMENTRY", 1 }, { "EPT_VIOLATION", 1 },
	{ "EXIT_MSR", 2 }, { "EXIT_NPF", 2 }, { "msr", 2 }, { "npf", 2 }, { "vintr", 2 },
	{ "GP excp", 2 }, { "hypercall", 2 },
	{ "hlt", 0 }, { "cpuid", 0 }, { "io_instruction", 0 }, { "0x7b", 0 }, { "", 0 },
	{ "GP", 0 }, { "msrx", 0 },
};

START_TEST(test_exit_reason_isa)
{
	ck_assert_msg(trace_exit_reason_isa(isas[_i].reason) == isas[_i].isa, "'%s': %u",
		      isas[_i].reason, trace_exit_reason_isa(isas[_i].reason));
}
END_TEST

static Suite *kvm_record_suite(void)
{
	Suite *s = suite_create("kvm_record");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_kind_of_name, 0, ARRAY_SIZE(kinds));
	tcase_add_test(tc, test_insn_mode_from_flags);
	tcase_add_loop_test(tc, test_exit_reason_name, 0, ARRAY_SIZE(reasons));
	tcase_add_loop_test(tc, test_exit_reason_isa, 0, ARRAY_SIZE(isas));
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(kvm_record_suite)
