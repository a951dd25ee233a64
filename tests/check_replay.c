/*
 * check_replay.c - The replay engine on hand-written scenarios (traces/scenarios/replay-*.vtr):
 * every expected number is worked out in the scenario's header comment from KVM's semantics.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "vpmc-internal.h"

static struct vpmc_replay *run_scenario_cost(const char *file, const char *const *policies,
					     unsigned int n, const struct vpmc_cost *cost);

static struct vpmc_replay *run_scenario(const char *file, const char *const *policies,
					unsigned int n)
{
	return run_scenario_cost(file, policies, n, NULL);
}

/* @file under traces/scenarios replayed through @policies, priced by @cost (NULL: defaults). */
static struct vpmc_replay *run_scenario_cost(const char *file, const char *const *policies,
					     unsigned int n, const struct vpmc_cost *cost)
{
	struct vpmc_replay *r;
	struct vpmc_reader *rd;
	char path[1024];
	const char *dir = getenv("VPMC_TRACES");
	unsigned int i;

	snprintf(path, sizeof(path), "%s/scenarios/%s", dir ? dir : "traces", file);
	ck_assert_int_eq(vpmc_reader_new(&rd, NULL), 0);
	ck_assert_msg(vpmc_reader_open(rd, path) == 0, "%s", vpmc_reader_error(rd));
	ck_assert_int_eq(vpmc_replay_new(&r), 0);
	if (cost)
		vpmc_replay_set_cost(r, cost);
	for (i = 0; i < n; i++) {
		struct vpmc_policy p;

		ck_assert_int_eq(vpmc_policy_parse(&p, policies[i], NULL), 0);
		ck_assert_int_eq(vpmc_replay_add_policy(r, &p), 0);
	}
	ck_assert_msg(vpmc_replay_run(r, rd) == 0, "%s: %s", file, vpmc_replay_error(r));
	vpmc_reader_free(rd);
	return r;
}

static struct vpmc_metrics metrics(struct vpmc_replay *r, size_t i)
{
	struct vpmc_metrics m;

	ck_assert_int_eq(vpmc_replay_metrics(r, i, -1, -1, &m), 0);
	return m;
}

START_TEST(test_disabled_read_error_is_minus_k)
{
	static const char *const pol[] = { "exact", "disabled=0x2", "tolerance=100" };
	struct vpmc_replay *r = run_scenario("replay-disabled-read-error.vtr", pol, 3);
	struct vpmc_metrics ex = metrics(r, 0), dis = metrics(r, 1), tol = metrics(r, 2);

	/* exact: reads are exact; 5 drains = 1 create + 4 resumes; 5 triggers */
	ck_assert_uint_eq(ex.reads, 1);
	ck_assert_uint_eq(ex.reads_with_error, 0);
	ck_assert_uint_eq(ex.drains, 5);
	ck_assert_uint_eq(ex.perf_creates, 1);
	ck_assert_uint_eq(ex.perf_resumes, 4);
	ck_assert_uint_eq(ex.triggers, 5);
	ck_assert_uint_eq(ex.exits, 5);
	ck_assert_uint_eq(ex.exits_with_drain, 5);
	/* 5.2 (create) + 4 * 2.4 (resumes) + 5 * 200 cycles / 2.5 GHz (0.4) us */
	ck_assert_double_eq_tol(ex.host_us_total, 15.2, 1e-9);
	/* disabled=0x2: the 3 retirements after the write are missing */
	ck_assert_uint_eq(dis.reads, 1);
	ck_assert_uint_eq(dis.reads_with_error, 1);
	ck_assert_double_eq(dis.error_events_mean, -3.0);
	ck_assert_uint_eq(dis.error_events_max_abs, 3);
	ck_assert_uint_eq(dis.drains, 1);
	ck_assert_uint_eq(dis.perf_creates, 1);
	ck_assert_uint_eq(dis.triggers, 0);
	ck_assert_uint_eq(dis.exits, 5);
	ck_assert_uint_eq(dis.exits_with_drain, 1);
	/* tolerance=100: pending events are part of every read; only the EVNTSEL drain */
	ck_assert_uint_eq(tol.reads_with_error, 0);
	ck_assert_uint_eq(tol.drains, 1);
	ck_assert_uint_eq(tol.triggers, 5);
	vpmc_replay_free(r);
}
END_TEST

START_TEST(test_tolerance_late_pmi)
{
	static const char *const pol[] = { "exact", "tolerance=100" };
	struct vpmc_replay *r = run_scenario("replay-tolerance-late-pmi.vtr", pol, 2);
	struct vpmc_metrics ex = metrics(r, 0), tol = metrics(r, 1);

	ck_assert_uint_eq(ex.ref_overflows, 1);
	ck_assert_uint_eq(ex.overflows_matched, 1);
	ck_assert_uint_eq(ex.overflows_missed, 0);
	ck_assert_uint_eq(ex.pmis_delivered, 1);
	ck_assert_uint_eq(ex.pmis_spurious, 0);
	ck_assert_uint_eq(ex.lateness_events_max, 0);
	ck_assert_uint_eq(ex.lateness_ns_max, 5);
	ck_assert_uint_eq(ex.exits, 21);
	ck_assert_uint_eq(ex.drains, 21);
	ck_assert_uint_eq(ex.perf_creates, 1);
	ck_assert_uint_eq(ex.perf_resumes, 20);
	ck_assert_uint_eq(ex.triggers, 21);

	ck_assert_uint_eq(tol.ref_overflows, 1);
	ck_assert_uint_eq(tol.overflows_matched, 1);
	ck_assert_uint_eq(tol.pmis_delivered, 1);
	ck_assert_uint_eq(tol.lateness_events_max, 20);
	ck_assert_uint_eq(tol.lateness_events_p50, 20);
	ck_assert_uint_eq(tol.lateness_ns_max, 124);
	ck_assert_uint_eq(tol.exits, 22);
	ck_assert_uint_eq(tol.exits_implicit, 1);
	ck_assert_uint_eq(tol.drains, 2);
	ck_assert_uint_eq(tol.perf_creates, 1);
	ck_assert_uint_eq(tol.perf_resumes, 1);
	ck_assert_uint_eq(tol.triggers, 21);
	vpmc_replay_free(r);
}
END_TEST

START_TEST(test_tolerance_missed_pmi)
{
	static const char *const pol[] = { "exact", "tolerance=100" };
	struct vpmc_replay *r = run_scenario("replay-tolerance-missed-pmi.vtr", pol, 2);
	struct vpmc_metrics ex = metrics(r, 0), tol = metrics(r, 1);

	ck_assert_uint_eq(ex.overflows_matched, 1);
	ck_assert_uint_eq(ex.overflows_missed, 0);
	ck_assert_uint_eq(tol.ref_overflows, 1);
	ck_assert_uint_eq(tol.overflows_matched, 0);
	ck_assert_uint_eq(tol.overflows_missed, 1);
	ck_assert_uint_eq(tol.pmis_delivered, 0);
	vpmc_replay_free(r);
}
END_TEST

/* Recorded values are checked, never used (the scenario's header works every row out). */
START_TEST(test_host_values_checked)
{
	static const char *const pol[] = { "exact", "disabled=0x12", "mediated" };
	struct vpmc_replay *r = run_scenario("replay-host-values.vtr", pol, 3);
	struct vpmc_metrics m;
	size_t i;

	for (i = 0; i < 3; i++) {
		m = metrics(r, i);
		ck_assert_uint_eq(m.host_reads, 6);
		ck_assert_uint_eq(m.host_differ, 4);
		ck_assert_uint_eq(m.host_first_differ.time_ns, 45);
		ck_assert_uint_eq(m.host_first_differ.vcpu, 1);
		ck_assert(m.host_first_differ.rdpmc);
		ck_assert_uint_eq(m.host_first_differ.index, 0);
		ck_assert(!m.host_first_differ.gp);
		ck_assert_uint_eq(m.host_first_differ.value, 0);
		ck_assert_uint_eq(m.host_first_differ.host, 1);
		/* the recorded values are no input: reads are exact against the reference */
		ck_assert_uint_eq(m.reads, 5);
		ck_assert_uint_eq(m.reads_with_error, 0);
	}
	ck_assert_int_eq(vpmc_replay_metrics(r, 0, 0, -1, &m), 0);
	ck_assert_uint_eq(m.host_reads, 5);
	ck_assert_uint_eq(m.host_differ, 3);
	ck_assert_uint_eq(m.host_first_differ.time_ns, 50);
	ck_assert_uint_eq(m.host_first_differ.value, 100);
	ck_assert_uint_eq(m.host_first_differ.host, 101);
	vpmc_replay_free(r);
}
END_TEST

/*
 * Costs set through the API beyond vpmc_cost_parse()'s bounds. late-pmi under exact has 21 exits,
 * each with one perf event created or resumed (test_tolerance_late_pmi): at 1e300 us each, every
 * exit is beyond the histogram's 2^64 ns, so p50 and p99 are its top, never more than the max.
 */
START_TEST(test_cost_beyond_histogram)
{
	static const char *const pol[] = { "exact" };
	static const struct vpmc_cost huge = { 1e300, 1e300, 200, 2.5 };
	struct vpmc_replay *r = run_scenario_cost("replay-tolerance-late-pmi.vtr", pol, 1, &huge);
	struct vpmc_metrics m = metrics(r, 0);
	const char *text;

	ck_assert_uint_eq(m.exits, 21);
	ck_assert_double_eq(m.host_us_per_exit_p50, 18446744073709551615.0 / 1000.0);
	ck_assert_double_eq(m.host_us_per_exit_p99, 18446744073709551615.0 / 1000.0);
	ck_assert_double_eq_tol(m.host_us_per_exit_max, 1e300, 1e285);
	ck_assert_int_eq(vpmc_replay_report(r, VPMC_VIEW_COMPARE, VPMC_OUTPUT_JSON, &text), 0);
	vpmc_replay_free(r);
}
END_TEST

/* 21 exits at 1e308 us: the total (and the mean) are infinite. JSON cannot hold that: the
 * report fails and says why, not "out of memory"; text prints "inf". */
START_TEST(test_cost_not_finite_json)
{
	static const char *const pol[] = { "exact" };
	static const struct vpmc_cost huge = { 1e308, 1e308, 200, 2.5 };
	struct vpmc_replay *r = run_scenario_cost("replay-tolerance-late-pmi.vtr", pol, 1, &huge);
	const char *text;

	ck_assert_int_eq(vpmc_replay_report(r, VPMC_VIEW_COMPARE, VPMC_OUTPUT_JSON, &text),
			 VPMC_ERR_LIMIT);
	ck_assert_str_eq(vpmc_replay_error(r), "host_us_per_exit_mean is inf, which JSON cannot "
			 "hold (only finite numbers)");
	ck_assert_int_eq(vpmc_replay_report(r, VPMC_VIEW_COMPARE, VPMC_OUTPUT_TEXT, &text), 0);
	ck_assert_ptr_nonnull(strstr(text, " inf "));
	vpmc_replay_free(r);
}
END_TEST

static Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("scenarios");

	tcase_add_test(tc, test_disabled_read_error_is_minus_k);
	tcase_add_test(tc, test_tolerance_late_pmi);
	tcase_add_test(tc, test_tolerance_missed_pmi);
	tcase_add_test(tc, test_host_values_checked);
	tcase_add_test(tc, test_cost_beyond_histogram);
	tcase_add_test(tc, test_cost_not_finite_json);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(replay_suite)
