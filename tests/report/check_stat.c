// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_stat.c - Exit statistics (lib/report/stat.c): exit -> next entry of the same vCPU,
 * per reason, in perf kvm stat report's columns. Times below are chosen so that every column
 * can be checked by hand.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "check_common.h"
#include "vpmc.h"

static struct vpmc_stat *s;

static void setup(void)
{
	ck_assert_int_eq(vpmc_stat_new(&s), 0);
}

static void teardown(void)
{
	vpmc_stat_free(s);
}

static void ev(uint64_t t, uint32_t vcpu, enum vpmc_event_type type, const char *reason)
{
	struct vpmc_event e;

	memset(&e, 0, sizeof(e));
	e.time_ns = t;
	e.vcpu = vcpu;
	e.type = type;
	snprintf(e.reason, sizeof(e.reason), "%s", reason);
	ck_assert_int_eq(vpmc_stat_event(s, &e), 0);
}

/* vCPU 0: MSR_WRITE 2000 ns and 1000 ns, HLT 500 ns; vCPU 1: MSR_WRITE 100 ns, interleaved. */
static void feed(void)
{
	ev(1000, 0, VPMC_EV_EXIT, "MSR_WRITE");
	ev(1000, 1, VPMC_EV_EXIT, "MSR_WRITE");
	ev(1050, 0, VPMC_EV_RETIRE, "");
	ev(1100, 1, VPMC_EV_ENTRY, "");
	ev(3000, 0, VPMC_EV_ENTRY, "");
	ev(5000, 0, VPMC_EV_EXIT, "MSR_WRITE");
	ev(6000, 0, VPMC_EV_ENTRY, "");
	ev(6500, 0, VPMC_EV_ENTRY, ""); /* an entry with no exit open: ignored */
	ev(7000, 0, VPMC_EV_EXIT, "HLT");
	ev(7500, 0, VPMC_EV_ENTRY, "");
	ev(8000, 1, VPMC_EV_EXIT, "CPUID"); /* never entered again: not a sample */
}

START_TEST(test_text_columns)
{
	const char *out;

	feed();
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_TEXT, &out), 0);
	/* MSR_WRITE: 3 samples of 4, 3100 of 3600 ns = 86.11 %, min 0.10 us, max 2.00 us,
	 * mean 1033.33 ns; samples 2000, 1000, 100: mean 1033.33, sample variance
	 * ((966.67^2 + 33.33^2 + 933.33^2) / 2) = 903333.33, of the mean / 3 = 301111.11,
	 * sqrt = 548.74, / 1033.33 = 53.10 %; p50 (rank 2) = 1000 ns, p99 (rank 3) = 2000 ns */
	ck_assert_msg(strstr(out, "           MSR_WRITE          3    75.00%    86.11%      0.10us"
				  "      2.00us      1.03us ( +-  53.10% )      1.00us      2.00us\n"),
		      "%s", out);
	/* HLT: 1 sample of 500 ns = 13.89 % of the time; one sample has no spread */
	ck_assert_msg(strstr(out, "                 HLT          1    25.00%    13.89%      0.50us"
				  "      0.50us      0.50us ( +-   0.00% )      0.50us      0.50us\n"),
		      "%s", out);
	ck_assert(strstr(out, "Total Samples:4, Total events handled time:3.60us.\n"));
	/* the CPUID exit of vCPU 1 never got its entry */
	ck_assert(strstr(out, "Exits without a following entry (not counted): 1\n"));
	/* most samples first */
	ck_assert(strstr(out, "MSR_WRITE") < strstr(out, "HLT"));
	ck_assert(!strstr(out, "CPUID"));
}
END_TEST

START_TEST(test_vcpu_and_time_filters)
{
	const char *out;

	ck_assert_int_eq(vpmc_stat_set_vcpus(s, "1,3-4"), 0);
	feed();
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_CSV, &out), 0);
	/* the JSON key names, in ns */
	ck_assert_str_eq(out, "reason,samples,samples_pct,time_pct,time_ns_min,time_ns_max,"
			      "time_ns_mean,time_mean_stddev_pct,time_ns_p50,time_ns_p99\n"
			      "MSR_WRITE,1,100.00,100.00,100,100,100.0,0.00,100,100\n");
	vpmc_stat_free(s);
	ck_assert_int_eq(vpmc_stat_new(&s), 0);
	/* exits from 0.000004 s on: the MSR_WRITE at 5000 and the HLT at 7000 */
	ck_assert_int_eq(vpmc_stat_set_time(s, "0.000004,"), 0);
	feed();
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_JSON, &out), 0);
	ck_assert_msg(strstr(out, "\"total_samples\": 2,") && strstr(out, "\"total_time_ns\": 1500"),
		      "%s", out);
	ck_assert(strstr(out, "\"time_ns_p50\": 1000"));
}
END_TEST

/* A second --vcpu list adds to the first; a bad one leaves the selection as it was. */
START_TEST(test_vcpu_lists_add_up)
{
	const char *out;

	ck_assert_int_eq(vpmc_stat_set_vcpus(s, "1"), 0);
	ck_assert_int_eq(vpmc_stat_set_vcpus(s, "5"), 0);
	ck_assert_int_eq(vpmc_stat_set_vcpus(s, "2-x"), VPMC_ERR_INVAL);
	feed();
	/* vCPU 1's MSR_WRITE of 100 ns alone (vCPU 5 has no exit; the last list does not win) */
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_CSV, &out), 0);
	ck_assert_str_eq(strchr(out, '\n') + 1,
			 "MSR_WRITE,1,100.00,100.00,100,100,100.0,0.00,100,100\n");
	vpmc_stat_free(s);
	ck_assert_int_eq(vpmc_stat_new(&s), 0);
	ck_assert_int_eq(vpmc_stat_set_vcpus(s, "1"), 0);
	ck_assert_int_eq(vpmc_stat_set_vcpus(s, "0"), 0);
	feed();
	/* both vCPUs: the 4 samples of test_text_columns */
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_TEXT, &out), 0);
	ck_assert_msg(strstr(out, "Total Samples:4, "), "%s", out);
}
END_TEST

/* An empty selection is warned about, with what the trace's exits have: feed()'s exits are on
 * vCPUs 0 and 1, from 1000 ns to 8000 ns. */
static const struct {
	const char *name, *vcpus, *time, *warning;
} selections[] = {
	{ "all", NULL, NULL, "" },
	{ "vcpu-none", "5", NULL, "no exit matched --vcpu 5 (the trace's exits are on vCPUs 0-1, "
	  "from 0.000001000 s to 0.000008000 s)" },
	{ "vcpus-none", "2-3,7,9-11", NULL, "no exit matched --vcpu 2-3,7,9-11 (" },
	{ "time-none", NULL, "1,2", "no exit matched --time 1,2 (the trace's exits are on vCPUs "
	  "0-1, from 0.000001000 s to 0.000008000 s)" },
	{ "both-none", "0", "0.000009,", "no exit matched --vcpu 0 --time 0.000009, (" },
	/* vCPU 1's CPUID at 8000 ns matches (a sample it is not: no entry follows) */
	{ "matched-no-sample", "1", "0.000008,", "" },
};

START_TEST(test_empty_selection_warning)
{
	if (selections[_i].vcpus)
		ck_assert_int_eq(vpmc_stat_set_vcpus(s, selections[_i].vcpus), 0);
	if (selections[_i].time)
		ck_assert_int_eq(vpmc_stat_set_time(s, selections[_i].time), 0);
	feed();
	ck_assert_msg(selections[_i].warning[0] ? strstr(vpmc_stat_warning(s),
							 selections[_i].warning) != NULL
						: !vpmc_stat_warning(s)[0],
		      "%s: '%s'", selections[_i].name, vpmc_stat_warning(s));
}
END_TEST

START_TEST(test_no_exit_warning)
{
	ev(100, 0, VPMC_EV_ENTRY, "");
	ck_assert_str_eq(vpmc_stat_warning(s), "no VM-exit in the trace (no kvm_exit): nothing to "
			 "count (compare and replay count one exit per VM-entry)");
	ev(200, 0, VPMC_EV_EXIT, "HLT");
	ck_assert_str_eq(vpmc_stat_warning(s), "");
}
END_TEST

static const struct {
	const char *name;
	bool vcpus;
	const char *arg;
} bad[] = {
	{ "vcpu-empty", true, "" },
	{ "vcpu-letters", true, "a" },
	{ "vcpu-trailing-comma", true, "1," },
	{ "vcpu-backwards", true, "3-1" },
	{ "vcpu-too-big", true, "4096" },
	{ "time-no-comma", false, "1.5" },
	{ "time-backwards", false, "2,1" },
	{ "time-garbage", false, "1s,2" },
	{ "time-too-precise", false, "0.0000000001," },
};

START_TEST(test_bad_filters)
{
	int rc = bad[_i].vcpus ? vpmc_stat_set_vcpus(s, bad[_i].arg)
			       : vpmc_stat_set_time(s, bad[_i].arg);

	ck_assert_msg(rc == VPMC_ERR_INVAL, "%s: accepted", bad[_i].name);
	ck_assert(strstr(vpmc_stat_error(s), bad[_i].vcpus ? "--vcpu" : "--time"));
}
END_TEST

static Suite *stat_suite(void)
{
	Suite *su = suite_create("stat");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_text_columns);
	tcase_add_test(tc, test_vcpu_and_time_filters);
	tcase_add_test(tc, test_vcpu_lists_add_up);
	tcase_add_loop_test(tc, test_empty_selection_warning, 0, ARRAY_SIZE(selections));
	tcase_add_test(tc, test_no_exit_warning);
	tcase_add_loop_test(tc, test_bad_filters, 0, ARRAY_SIZE(bad));
	suite_add_tcase(su, tc);
	return su;
}

CHECK_MAIN(stat_suite)
