// SPDX-License-Identifier: GPL-2.0-only
/* check_exit_reasons.c - VM-exit codes and names (lib/x86/exit_reasons.c).
 *
 * Expected values: arch/x86/include/uapi/asm/svm.h and vmx.h (SVM_EXIT_*, EXIT_REASON_*), the
 * print format of kvm_exit in 6.18 (traces/local-kvm/small-mixed-real.v6.dat: 0x0a5 "buslock",
 * 0x0a6 "idle-halt") and libtraceevent's plugin_kvm.c (EXIT_VMMCALL for 0x081).
 */
#include "config.h"

#include <string.h>

#include "check_common.h"
#include "exit-reasons.h"

START_TEST(test_svm_names)
{
	uint32_t code = 0;

	ck_assert_str_eq(x86_svm_exit_name(SVM_EXIT_CPUID), "cpuid");
	ck_assert_str_eq(x86_svm_exit_name(0x081), "hypercall");   /* SVM_EXIT_VMMCALL */
	ck_assert_str_eq(x86_svm_exit_plugin_name(0x081), "EXIT_VMMCALL");
	ck_assert_str_eq(x86_svm_exit_name(0x0a5), "buslock");
	ck_assert_str_eq(x86_svm_exit_name(0x0a6), "idle-halt");
	ck_assert_str_eq(x86_svm_exit_name(0xffffffff), "invalid_guest_state"); /* SVM_EXIT_ERR */
	ck_assert_ptr_null(x86_svm_exit_name(0x08c));        /* MWAIT_COND: only the plugin's */
	ck_assert_str_eq(x86_svm_exit_plugin_name(0x08c), "EXIT_MWAIT_COND");
	ck_assert_ptr_null(x86_svm_exit_plugin_name(0x002)); /* read_cr2: not in the plugin */
	ck_assert_ptr_null(x86_svm_exit_name(0x0a7));
	ck_assert(x86_svm_exit_code("npf", &code) && code == SVM_EXIT_NPF);
	ck_assert(x86_svm_exit_code("EXIT_NPF", &code) && code == SVM_EXIT_NPF);
	ck_assert(x86_svm_exit_code("EXIT_IOIO", &code) && code == SVM_EXIT_IOIO);
	ck_assert(!x86_svm_exit_code("CPUID", &code));
}
END_TEST

/* Each name of codes @lo to @hi in either alphabet gives its code back. Return: how many of
 * them have a kernel name. */
static unsigned int svm_round_trip(uint32_t lo, uint32_t hi)
{
	unsigned int found = 0;
	const char *name;
	uint64_t c; /* hi may be UINT32_MAX */
	uint32_t code;

	for (c = lo; c <= hi; c++) {
		name = x86_svm_exit_name((uint32_t)c);
		if (name) {
			ck_assert(x86_svm_exit_code(name, &code) && code == c);
			found++;
		}
		name = x86_svm_exit_plugin_name((uint32_t)c);
		if (name)
			ck_assert(x86_svm_exit_code(name, &code) && code == c);
	}
	return found;
}

/* The lookup is a binary search of both alphabets sorted: every name, the first and last in
 * that order included, gives its own code, and what is only near a name gives none. */
START_TEST(test_svm_codes_round_trip)
{
	const char *near[] = { "", "np", "npf ", "npff", "EXIT_", "EXIT_NPF_", "Npf", "~", "A" };
	uint32_t code;
	size_t i;

	/* the table's 111 codes: 100 up to 0x403 (99 with a kernel name: 0x08c has only the
	 * plugin's), ten SEV-ES VMGEXIT codes 0x80000001-0x8000fffd, and 0xffffffff */
	ck_assert_uint_eq(svm_round_trip(0, 0x500), 99);
	ck_assert_uint_eq(svm_round_trip(0x80000000u, 0x80010000u), 10);
	ck_assert_uint_eq(svm_round_trip(0xffffffffu, 0xffffffffu), 1);
	for (i = 0; i < sizeof(near) / sizeof(near[0]); i++)
		ck_assert_msg(!x86_svm_exit_code(near[i], &code), "'%s'", near[i]);
}
END_TEST

START_TEST(test_vmx_names)
{
	uint32_t code = 0;

	ck_assert_str_eq(x86_vmx_exit_name(EXIT_REASON_CPUID), "CPUID");
	ck_assert_str_eq(x86_vmx_exit_name(EXIT_REASON_MSR_WRITE_IMM), "MSR_WRITE_IMM");
	ck_assert_ptr_null(x86_vmx_exit_name(5)); /* no VMX exit reason 5 */
	/* the first word of "INVALID_STATE FAILED_VMENTRY": 13 bytes */
	ck_assert(x86_vmx_exit_code("INVALID_STATE FAILED_VMENTRY", 13, &code) && code == 33);
	ck_assert(x86_vmx_exit_code("VMRESUME", 8, &code) && code == EXIT_REASON_VMRESUME);
	ck_assert(!x86_vmx_exit_code("VMRESUM", 7, &code));
	ck_assert(!x86_vmx_exit_code("cpuid", 5, &code));
}
END_TEST

static Suite *exit_reasons_suite(void)
{
	Suite *s = suite_create("x86_exit_reasons");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, test_svm_names);
	tcase_add_test(tc, test_svm_codes_round_trip);
	tcase_add_test(tc, test_vmx_names);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(exit_reasons_suite)
