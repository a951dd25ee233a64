// SPDX-License-Identifier: GPL-2.0-only
/* check_event.c - Event type names and PMU configuration defaults (lib/event.c). */
#include "config.h"

#include <string.h>

#include "check_common.h"
#include "internal.h"
#include <vpmc/event.h>

static const char *const want_names[VPMC_EV_NR] = {
	"entry", "exit", "guest", "retire", "wrmsr", "rdmsr", "rdpmc",
	"cpl", "lvtpc", "irq", "eoi", "sched_out", "sched_in",
};

START_TEST(test_event_type_names_match_trace_format)
{
	const char *got = vpmc_event_type_name(_i);

	ck_assert_msg(got && !strcmp(got, want_names[_i]), "type %d: got '%s' want '%s'", _i,
		      got ? got : "(null)", want_names[_i]);
}
END_TEST

START_TEST(test_event_type_name_out_of_range)
{
	ck_assert_ptr_null(vpmc_event_type_name(VPMC_EV_NR));
	ck_assert_ptr_null(vpmc_event_type_name((enum vpmc_event_type)-1));
}
END_TEST

/* trace-format.md, "!pmu keys and defaults". */
START_TEST(test_pmu_defaults_intel)
{
	struct vpmc_pmu_config c;

	vpmc_pmu_config_default(&c, VPMC_VENDOR_INTEL);
	ck_assert_int_eq(c.vendor, VPMC_VENDOR_INTEL);
	ck_assert_uint_eq(c.version, 2);
	ck_assert_uint_eq(c.nr_gp, 8);
	ck_assert_uint_eq(c.nr_fixed, 3);
	ck_assert_uint_eq(c.gp_width, 48);
	ck_assert_uint_eq(c.fixed_width, 48);
	ck_assert(c.fw_writes);
	ck_assert_uint_eq(c.host_kernel, VPMC_KERNEL(7, 0));
}
END_TEST

START_TEST(test_pmu_defaults_amd)
{
	struct vpmc_pmu_config c;

	vpmc_pmu_config_default(&c, VPMC_VENDOR_AMD);
	ck_assert_int_eq(c.vendor, VPMC_VENDOR_AMD);
	ck_assert_uint_eq(c.version, 2);
	ck_assert_uint_eq(c.nr_gp, 6);
	ck_assert_uint_eq(c.nr_fixed, 0);
	ck_assert_uint_eq(c.gp_width, 48);
	ck_assert(!c.fw_writes);
}
END_TEST

START_TEST(test_kernel_versions_order)
{
	ck_assert_uint_lt(VPMC_KERNEL(6, 8), VPMC_KERNEL(6, 18));
	ck_assert_uint_lt(VPMC_KERNEL(6, 18), VPMC_KERNEL(7, 0));
	ck_assert_uint_lt(VPMC_KERNEL(5, 99), VPMC_KERNEL(6, 0));
}
END_TEST

static Suite *event_suite(void)
{
	Suite *s = suite_create("event");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_event_type_names_match_trace_format, 0, VPMC_EV_NR);
	tcase_add_test(tc, test_event_type_name_out_of_range);
	tcase_add_test(tc, test_pmu_defaults_intel);
	tcase_add_test(tc, test_pmu_defaults_amd);
	tcase_add_test(tc, test_kernel_versions_order);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(event_suite)
