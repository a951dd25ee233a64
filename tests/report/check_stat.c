// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_stat.c - Exit statistics (lib/report/stat.c): exit -> next entry of the same vCPU,
 * per reason, in perf kvm stat report's columns. Times below are chosen so that every column
 * can be checked by hand.
 */
#include "config.h"

#include <inttypes.h>
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

static void put(uint64_t t, uint32_t vcpu, enum vpmc_event_type type, uint32_t index,
		uint64_t value, const char *reason)
{
	struct vpmc_event e;

	memset(&e, 0, sizeof(e));
	e.time_ns = t;
	e.vcpu = vcpu;
	e.type = type;
	e.index = index;
	e.value = value;
	snprintf(e.reason, sizeof(e.reason), "%s", reason);
	ck_assert_int_eq(vpmc_stat_event(s, &e), 0);
}

static void ev(uint64_t t, uint32_t vcpu, enum vpmc_event_type type, const char *reason)
{
	put(t, vcpu, type, 0, 0, reason);
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
			      "MSR_WRITE,1,100.00,100.00,100,100,100.0,0.00,100,100\n"
			      "Total,1,100.00,100.00,100,100,100.0,0.00,100,100\n");
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
			 "MSR_WRITE,1,100.00,100.00,100,100,100.0,0.00,100,100\n"
			 "Total,1,100.00,100.00,100,100,100.0,0.00,100,100\n");
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

/* ---- issue 17, item 10: stat as perf kvm stat users expect --------------------------------- */

/* An MMIO (index: type, value: GPA) or I/O port access (index: port, value: 1 OUT, 0 IN). */
static void acc(uint64_t t, uint32_t vcpu, enum vpmc_event_type type, uint32_t index,
		uint64_t value)
{
	put(t, vcpu, type, index, value, "");
}

/* The data rows of CSV @out, reason names only, joined by ' '. */
static void csv_names(const char *out, char *buf, size_t len)
{
	const char *p = strchr(out, '\n') + 1;
	size_t n = 0;

	buf[0] = '\0';
	for (; *p; p = strchr(p, '\n') + 1)
		n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? " " : "",
				      (int)strcspn(p, ","), p);
}

/*
 * --key: A has 10, 10, 10 ns (n 3, mean 10, max 10, min 10); B 100 (n 1, mean 100, min = max
 * 100); C 1 and 199 (n 2, mean 100, max 199, min 1). Largest first, then by name
 * (builtin-kvm.c sorts every key descending).
 */
static const struct {
	const char *key, *order;
} keys[] = {
	{ "sample", "A C B Total" },  { "time", "B C A Total" }, { "mean", "B C A Total" },
	{ "max", "C B A Total" },     { "min", "B A C Total" },  { "max_t", "C B A Total" },
	{ "percent_sample", "A C B Total" },
	/* the time of all samples: A 30, B 100, C 200 ns */
	{ "percent_time", "C B A Total" },
};

START_TEST(test_keys)
{
	static const uint64_t a[] = { 0, 10, 100, 110, 200, 210 };
	const char *out;
	char names[128];
	size_t i;

	ck_assert_int_eq(vpmc_stat_set_key(s, keys[_i].key), 0);
	for (i = 0; i < ARRAY_SIZE(a); i += 2) {
		ev(a[i], 0, VPMC_EV_EXIT, "A");
		ev(a[i + 1], 0, VPMC_EV_ENTRY, "");
	}
	ev(1000, 1, VPMC_EV_EXIT, "B");
	ev(1100, 1, VPMC_EV_ENTRY, "");
	ev(2000, 2, VPMC_EV_EXIT, "C");
	ev(2001, 2, VPMC_EV_ENTRY, "");
	ev(3000, 2, VPMC_EV_EXIT, "C");
	ev(3199, 2, VPMC_EV_ENTRY, "");
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_CSV, &out), 0);
	csv_names(out, names, sizeof(names));
	ck_assert_msg(!strcmp(names, keys[_i].order), "--key %s: %s", keys[_i].key, names);
}
END_TEST

/*
 * The CSV total row, over feed()'s 4 samples 2000, 1000, 100 and 500 ns: 3600 ns, min 100,
 * max 2000, mean 900.0; deviations 1100, 100, -800, -400, squares summing to 2020000, / 3 / 4 =
 * 168333.33, sqrt 410.28, / 900 = 45.59 %; p50 rank 2 of 100 500 1000 2000 = 500, p99 rank 4.
 */
START_TEST(test_csv_total_row)
{
	const char *out;

	feed();
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_CSV, &out), 0);
	ck_assert_msg(strstr(out, "\nTotal,4,100.00,100.00,100,2000,900.0,45.59,500,2000\n"), "%s",
		      out);
	vpmc_stat_free(s);
	/* no sample: the total row says 0 and leaves the figures empty */
	ck_assert_int_eq(vpmc_stat_new(&s), 0);
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_CSV, &out), 0);
	ck_assert_str_eq(strchr(out, '\n') + 1, "Total,0,,,,,,,,\n");
}
END_TEST

/*
 * Percentiles are the nearest-rank order statistics while a row has at most 1000 samples:
 * samples 1000, 2000, ... 1000000 ns (n 1000): p50 is rank 500, 500000; p99 rank 990, 990000,
 * exactly (the histogram's buckets there are 1/64 of a power of two wide). One more sample
 * (1001000): the histogram, within 1 % of rank 501 (501000) and rank 991 (991000).
 */
START_TEST(test_exact_percentiles)
{
	const char *out;
	uint64_t i, p50 = 0, p99 = 0;

	for (i = 1; i <= 1000; i++) {
		ev(i * 10000000, 0, VPMC_EV_EXIT, "X");
		ev(i * 10000000 + i * 1000, 0, VPMC_EV_ENTRY, "");
	}
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_CSV, &out), 0);
	/* mean 500500; sample variance 1000^2 * 1000 * 1001 / 12, / 1000, sqrt = 9133.26, / mean:
	 * 1.82 % */
	ck_assert_msg(strstr(out, "\nX,1000,100.00,100.00,1000,1000000,500500.0,1.82,500000,990000\n"),
		      "%s", out);
	ev(20000000000ull, 0, VPMC_EV_EXIT, "X");
	ev(20000000000ull + 1001000, 0, VPMC_EV_ENTRY, "");
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_CSV, &out), 0);
	out = strstr(out, "\nX,1001,");
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(sscanf(out + 1, "X,%*u,%*[^,],%*[^,],%*u,%*u,%*[^,],%*[^,],%" SCNu64 ",%"
				SCNu64, &p50, &p99), 2);
	ck_assert_msg(p50 * 100 >= 501000 * 99 && p50 * 100 <= 501000 * 101, "p50 %" PRIu64, p50);
	ck_assert_msg(p99 * 100 >= 991000 * 99 && p99 * 100 <= 991000 * 101, "p99 %" PRIu64, p99);
}
END_TEST

/* print_vcpu_info(): "VCPU %d" for one vCPU; ours for a list. */
START_TEST(test_vcpu_header)
{
	const char *out;

	ck_assert_int_eq(vpmc_stat_set_vcpus(s, "3"), 0);
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_TEXT, &out), 0);
	ck_assert_msg(!strncmp(out, "Analyze events for all VMs, VCPU 3:\n\n", 37), "%s", out);
	ck_assert_int_eq(vpmc_stat_set_vcpus(s, "1"), 0);
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_TEXT, &out), 0);
	ck_assert_msg(!strncmp(out, "Analyze events for all VMs, selected VCPUs:\n\n", 45), "%s",
		      out);
}
END_TEST

/*
 * --event mmio (kvm-stat.c: mmio_event_begin/end), vCPU 0: exit 1000, MMIO write of 0xfee000b0
 * at 1200, entry 1500: "0xfee000b0:W" 300 ns (from the write). Exit 2000, unsatisfied read
 * (type 0: neither) 2100, MMIO read of 0xfebf0000 at 2600: "0xfebf0000:R" 600 ns (from the
 * exit); the entry at 3000 has nothing open. Exit 4000, entry 4500: no key, no sample.
 */
START_TEST(test_event_mmio)
{
	const char *out;

	ck_assert_int_eq(vpmc_stat_set_event(s, "mmio"), 0);
	ck_assert(vpmc_stat_wants_accesses(s));
	ev(1000, 0, VPMC_EV_EXIT, "EPT_MISCONFIG");
	acc(1200, 0, VPMC_EV_MMIO, 2, 0xfee000b0);
	ev(1500, 0, VPMC_EV_ENTRY, "");
	ev(2000, 0, VPMC_EV_EXIT, "EPT_MISCONFIG");
	acc(2100, 0, VPMC_EV_MMIO, 0, 0xfebf0000);
	acc(2600, 0, VPMC_EV_MMIO, 1, 0xfebf0000);
	ev(3000, 0, VPMC_EV_ENTRY, "");
	ev(4000, 0, VPMC_EV_EXIT, "HLT");
	ev(4500, 0, VPMC_EV_ENTRY, "");
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_TEXT, &out), 0);
	ck_assert_msg(strstr(out, "         MMIO Access    Samples"), "%s", out);
	/* 600 of 900 ns: 66.67 % */
	ck_assert_msg(strstr(out, "        0xfebf0000:R          1    50.00%    66.67%      0.60us"),
		      "%s", out);
	ck_assert_msg(strstr(out, "        0xfee000b0:W          1    50.00%    33.33%      0.30us"),
		      "%s", out);
	ck_assert_msg(strstr(out, "Total Samples:2, Total events handled time:0.90us.\n"), "%s", out);
	ck_assert(!strstr(out, "Exits without"));
}
END_TEST

/*
 * --event ioport (ioport_event_begin/end): kvm_pio to kvm_entry; exits are neither. OUT to 0x3f8
 * at 1100, entry 1400: "0x3f8:POUT" 300 ns; IN from 0x3fd at 2000, entry 2900: "0x3fd:PIN"
 * 900 ns. Most time first with --key time.
 */
START_TEST(test_event_ioport)
{
	const char *out;

	ck_assert_int_eq(vpmc_stat_set_event(s, "ioport"), 0);
	ck_assert_int_eq(vpmc_stat_set_key(s, "time"), 0);
	ev(1000, 0, VPMC_EV_EXIT, "IO_INSTRUCTION");
	acc(1100, 0, VPMC_EV_PIO, 0x3f8, 1);
	ev(1400, 0, VPMC_EV_ENTRY, "");
	acc(2000, 0, VPMC_EV_PIO, 0x3fd, 0);
	ev(2900, 0, VPMC_EV_ENTRY, "");
	ck_assert_int_eq(vpmc_stat_report(s, VPMC_OUTPUT_CSV, &out), 0);
	ck_assert_str_eq(strchr(out, '\n') + 1, "0x3fd:PIN,1,50.00,75.00,900,900,900.0,0.00,900,900\n"
			 "0x3f8:POUT,1,50.00,25.00,300,300,300.0,0.00,300,300\n"
			 "Total,2,100.00,100.00,300,900,600.0,50.00,300,900\n");
}
END_TEST

START_TEST(test_bad_key_and_event)
{
	ck_assert_int_eq(vpmc_stat_set_key(s, "samples"), VPMC_ERR_INVAL);
	ck_assert_str_eq(vpmc_stat_error(s), "--key 'samples': expected sample, time, max, min or "
			 "mean (perf's percent_sample, percent_time, mean_t, max_t, min_t too)");
	ck_assert_int_eq(vpmc_stat_set_event(s, "pio"), VPMC_ERR_INVAL);
	ck_assert_str_eq(vpmc_stat_error(s), "--event 'pio': expected vmexit, mmio or ioport");
	ck_assert(!vpmc_stat_wants_accesses(s));
}
END_TEST

static Suite *stat_suite(void)
{
	Suite *su = suite_create("stat");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_text_columns);
	tcase_add_loop_test(tc, test_keys, 0, ARRAY_SIZE(keys));
	tcase_add_test(tc, test_csv_total_row);
	tcase_add_test(tc, test_exact_percentiles);
	tcase_add_test(tc, test_vcpu_header);
	tcase_add_test(tc, test_event_mmio);
	tcase_add_test(tc, test_event_ioport);
	tcase_add_test(tc, test_bad_key_and_event);
	tcase_add_test(tc, test_vcpu_and_time_filters);
	tcase_add_test(tc, test_vcpu_lists_add_up);
	tcase_add_loop_test(tc, test_empty_selection_warning, 0, ARRAY_SIZE(selections));
	tcase_add_test(tc, test_no_exit_warning);
	tcase_add_loop_test(tc, test_bad_filters, 0, ARRAY_SIZE(bad));
	suite_add_tcase(su, tc);
	return su;
}

CHECK_MAIN(stat_suite)
