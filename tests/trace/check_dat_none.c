// SPDX-License-Identifier: GPL-2.0-only
/* check_trace_dat_none.c - The trace.dat stub of builds without libtracecmd
 * (lib/trace_dat_none.c, linked here directly so every build tests it). */
#include "config.h"

#include "check_common.h"
#include "dat.h"

START_TEST(test_stub_reports_nosupport)
{
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	struct kvm_record r;

	ck_assert_int_eq(trace_dat_open(&d, "x.dat", false, &err), VPMC_ERR_NOSUPPORT);
	ck_assert_str_eq(err.msg,
			 "x.dat: trace.dat support not built in (configure --with-libtracecmd)");
	ck_assert_ptr_null(d);
	ck_assert_int_eq(trace_dat_next(NULL, &r, &err), VPMC_ERR_NOSUPPORT);
	trace_dat_close(NULL);
}
END_TEST

static Suite *trace_dat_none_suite(void)
{
	Suite *s = suite_create("trace_dat_none");
	TCase *tc = tcase_create("stub");

	tcase_add_test(tc, test_stub_reports_nosupport);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(trace_dat_none_suite)
