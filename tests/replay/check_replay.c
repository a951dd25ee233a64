// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_replay.c - The replay engine on hand-written scenarios (traces/scenarios/replay-*.vtr):
 * every expected number is worked out in the scenario's header comment from KVM's semantics.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "vpmc.h"

#define MAX_PMIS 16

/* The times of one policy's delivered PMIs, from the replay log. */
struct pmi_times {
	const char *policy; /* "\"policy\":\"exact\"" */
	uint64_t t[MAX_PMIS];
	unsigned int n;
};

static void pmi_log(void *data, const char *line)
{
	struct pmi_times *p = data;
	unsigned long long t;

	if (!strstr(line, "\"kind\":\"pmi\"") || !strstr(line, p->policy) ||
	    !strstr(line, "\"delivered\":true"))
		return;
	ck_assert_int_eq(sscanf(strstr(line, "\"t_ns\":"), "\"t_ns\":%llu", &t), 1);
	ck_assert_uint_lt(p->n, MAX_PMIS);
	p->t[p->n++] = t;
}

/* An engine replaying @policies, with --assume @assume (or none), PMI times into @log (or
 * none); not begun. */
static struct vpmc_replay *replay_make(const char *const *policies, unsigned int n,
				       const char *assume, struct pmi_times *log)
{
	struct vpmc_replay *r;
	unsigned int i;

	ck_assert_int_eq(vpmc_replay_new(&r), 0);
	for (i = 0; i < n; i++) {
		struct vpmc_policy p;

		ck_assert_int_eq(vpmc_policy_parse(&p, policies[i], NULL), 0);
		ck_assert_int_eq(vpmc_replay_add_policy(r, &p), 0);
	}
	if (assume)
		ck_assert_int_eq(vpmc_replay_assume(r, assume), 0);
	if (log)
		vpmc_replay_set_log(r, pmi_log, log);
	return r;
}

/* @r (from replay_make()) run over @file under traces/scenarios. */
static struct vpmc_replay *run_file(struct vpmc_replay *r, const char *file)
{
	struct vpmc_reader *rd;
	char path[1024];
	const char *dir = getenv("VPMC_TRACES");

	snprintf(path, sizeof(path), "%s/scenarios/%s", dir ? dir : "traces", file);
	ck_assert_int_eq(vpmc_reader_new(&rd, NULL), 0);
	ck_assert_msg(vpmc_reader_open(rd, path) == 0, "%s", vpmc_reader_error(rd));
	ck_assert_msg(vpmc_replay_run(r, rd) == 0, "%s: %s", file, vpmc_replay_error(r));
	vpmc_reader_free(rd);
	return r;
}

static struct vpmc_replay *run_scenario_assume(const char *file, const char *const *policies,
					       unsigned int n, const char *assume,
					       struct pmi_times *log)
{
	return run_file(replay_make(policies, n, assume, log), file);
}

static struct vpmc_replay *run_scenario(const char *file, const char *const *policies,
					unsigned int n)
{
	return run_scenario_assume(file, policies, n, NULL, NULL);
}

/* @file replayed through @policies, priced by @cost. */
static struct vpmc_replay *run_scenario_cost(const char *file, const char *const *policies,
					     unsigned int n, const struct vpmc_cost *cost)
{
	struct vpmc_replay *r = replay_make(policies, n, NULL, NULL);

	vpmc_replay_set_cost(r, cost);
	return run_file(r, file);
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

/*
 * exact on a scenario whose header works the numbers out: the guest's masked LVTPC dropped the
 * reference's PMI (dropped_by_guest, not missed); a counter programmed with CMASK is not modeled
 * (its read counted apart, its overflow not tracked, its PMI not spurious; GP1 is scored).
 */
static const struct {
	const char *file;
	uint64_t reads, not_modeled, by_guest, pmis, pmis_dropped;
} exact_cases[] = {
	{ "replay-guest-masked-lvtpc.vtr", 0, 0, 1, 0, 1 },
	{ "replay-not-modeled.vtr", 1, 1, 0, 1, 0 },
};

START_TEST(test_exact_scenario)
{
	static const char *const pol[] = { "exact" };
	struct vpmc_replay *r = run_scenario(exact_cases[_i].file, pol, 1);
	struct vpmc_metrics ex = metrics(r, 0);

	ck_assert_uint_eq(ex.reads, exact_cases[_i].reads);
	ck_assert_uint_eq(ex.reads_with_error, 0);
	ck_assert_uint_eq(ex.reads_not_modeled, exact_cases[_i].not_modeled);
	ck_assert_uint_eq(ex.ref_overflows, 0);
	ck_assert_uint_eq(ex.overflows_matched, 0);
	ck_assert_uint_eq(ex.overflows_missed, 0);
	ck_assert_uint_eq(ex.dropped_by_guest, exact_cases[_i].by_guest);
	ck_assert_uint_eq(ex.pmis_delivered, exact_cases[_i].pmis);
	ck_assert_uint_eq(ex.pmis_dropped, exact_cases[_i].pmis_dropped);
	ck_assert_uint_eq(ex.pmis_spurious, 0);
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
	static const struct vpmc_cost huge = { .resume_us = 1e300, .create_us = 1e300,
						.trigger_cycles = 200, .cpu_ghz = 2.5 };
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
	static const struct vpmc_cost huge = { .resume_us = 1e308, .create_us = 1e308,
						.trigger_cycles = 200, .cpu_ghz = 2.5 };
	struct vpmc_replay *r = run_scenario_cost("replay-tolerance-late-pmi.vtr", pol, 1, &huge);
	const char *text;

	ck_assert_int_eq(vpmc_replay_report(r, VPMC_VIEW_COMPARE, VPMC_OUTPUT_JSON, &text),
			 VPMC_ERR_LIMIT);
	/* host_us_total is the first of the row's figures that is inf (report.c's fields[]) */
	ck_assert_str_eq(vpmc_replay_error(r), "host_us_total is inf, which JSON cannot "
			 "hold (only finite numbers)");
	ck_assert_int_eq(vpmc_replay_report(r, VPMC_VIEW_COMPARE, VPMC_OUTPUT_TEXT, &text), 0);
	ck_assert_ptr_nonnull(strstr(text, " inf "));
	vpmc_replay_free(r);
}
END_TEST

/* The plot's x axis is log(T), over the data's range (issue 12): one T (however often given,
 * with T = 0 left out) would be an empty range, which gnuplot warns about; it gets a decade
 * either side. Two Ts: from the smaller to the larger. */
static const struct {
	const char *name;
	const char *policies[2];
	unsigned int n;
	const char *xrange; /* NULL: none set */
} plot_ranges[] = {
	{ "one-t", { "tolerance=10" }, 1, "set xrange [1:100]\n" },
	{ "t0-and-one-t", { "tolerance=0", "tolerance-wrap=1000" }, 2, "set xrange [100:10000]\n" },
	{ "same-t-twice", { "tolerance=7", "tolerance=7" }, 2, "set xrange [0.7:70]\n" },
	{ "two-t", { "tolerance=1", "tolerance=10" }, 2, "set xrange [1:10]\n" },
};

START_TEST(test_plot_x_range)
{
	struct vpmc_replay *r = run_scenario("replay-tolerance-late-pmi.vtr",
					     plot_ranges[_i].policies, plot_ranges[_i].n);
	const char *script;

	ck_assert_int_eq(vpmc_replay_plot(r, "x.svg", &script), 0);
	if (plot_ranges[_i].xrange)
		ck_assert_msg(strstr(script, plot_ranges[_i].xrange), "%s", script);
	else
		ck_assert_msg(!strstr(script, "set xrange"), "%s", script);
	vpmc_replay_free(r);
}
END_TEST

/* The plot's labels are not cut (issue 12 follow-up): x tics at the swept Ts, written in full
 * (2^31 = 2147483648, not "2.14748x10^9") and read upwards; the "lost" label at the smallest T
 * moved off the y axis. replay-overlay-tolerance-k-of-n.vtr's header: with --assume
 * gp0=instructions,period=10 the ideal guest takes 3 samples, tolerance=25 delivers 1:
 * "lost 2/3". A title line longer than 90 characters breaks;
 * a path longer than that keeps its last 87 characters after "...". */
START_TEST(test_plot_labels)
{
	static const char *const two[] = { "tolerance=1", "tolerance=2147483648" };
	static const char *const k_of_n[] = { "tolerance=25" };
	struct vpmc_replay *r = run_scenario("replay-tolerance-late-pmi.vtr", two, 2);
	char path[160], want[256];
	const char *script;

	ck_assert_int_eq(vpmc_replay_plot(r, "x.svg", &script), 0);
	ck_assert_msg(strstr(script, "set format x '%.0f'\nset xtics rotate by 90 right "
			     "(1, 2147483648)\n"), "%s", script);
	vpmc_replay_free(r);

	r = run_scenario_assume("replay-overlay-tolerance-k-of-n.vtr", k_of_n, 1,
				"gp0=instructions,period=10", NULL);
	memset(path, 'p', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	memcpy(path + sizeof(path) - 9, "/end.vtr", 8); /* before the NUL */
	vpmc_replay_set_source(r, path, NULL);
	ck_assert_int_eq(vpmc_replay_plot(r, "x.svg", &script), 0);
	ck_assert_msg(strstr(script, "set label 'lost 2/3' at first 25, graph 0.03 rotate by 90 "
			     "left font ',8' offset character 1,0\n"), "%s", script);
	/* the first line as long as it may be: the path on the next, cut to 3 + 87 */
	snprintf(want, sizeof(want), "set title \"vpmcsim sweep of tolerance=T (no --wrap) on\\n"
		 "...%s\\n--assume gp0=instructions,period=10\"", path + sizeof(path) - 1 - 87);
	ck_assert_msg(strstr(script, want), "%s", script);
	vpmc_replay_free(r);
}
END_TEST

/* ---- issue 12: samples against the ideal guest ---- */

/* replay-overlay-tolerance-k-of-n.vtr's header: the ideal guest takes 3 samples (positions 9,
 * 17, 25); tolerance=25 delivers 1 at position 26 (1 instruction, 15 ns after 25) and loses 2;
 * exact and tolerance-wrap=25 deliver all 3 at the entry after the wrapping retire (5 ns). */
START_TEST(test_ideal_tolerance_k_of_n)
{
	static const char *const pol[] = { "exact", "tolerance=25", "tolerance-wrap=25" };
	struct vpmc_replay *r = run_scenario_assume("replay-overlay-tolerance-k-of-n.vtr", pol, 3,
						    "gp0=instructions,period=10", NULL);
	struct vpmc_metrics ex = metrics(r, 0), tol = metrics(r, 1), wrap = metrics(r, 2);
	const char *text;

	ck_assert_uint_eq(ex.samples_ideal, 3);
	ck_assert_uint_eq(ex.samples, 3);
	ck_assert_uint_eq(ex.samples_matched, 3);
	ck_assert_uint_eq(ex.ideal_lateness_insn_max, 0);
	ck_assert_uint_eq(ex.ideal_lateness_ns_max, 5);
	ck_assert_uint_eq(wrap.samples, 3);
	ck_assert_uint_eq(wrap.samples_matched, 3);
	ck_assert_uint_eq(wrap.ideal_lateness_insn_max, 0);
	ck_assert_uint_eq(tol.samples_ideal, 3);
	ck_assert_uint_eq(tol.samples, 1);
	ck_assert_uint_eq(tol.samples_matched, 1);
	ck_assert_uint_eq(tol.samples_unmatched, 0);
	ck_assert_uint_eq(tol.ideal_lateness_insn_p50, 1);
	ck_assert_uint_eq(tol.ideal_lateness_ns_max, 15);
	/* 2 of 3 lost: 66.67 % in the report */
	ck_assert_int_eq(vpmc_replay_report(r, VPMC_VIEW_COMPARE, VPMC_OUTPUT_CSV, &text), 0);
	ck_assert_msg(strstr(text, "\ntolerance=25,1,3,66.67,0,1,1,1,15,"), "%s", text);
	vpmc_replay_free(r);
}
END_TEST

/* replay-disabled-read-error.vtr's header: disabled=0x2 reads 100 where its reference reads
 * 103: count_error_rel_mean = 3 / 103. */
START_TEST(test_disabled_relative_count_error)
{
	static const char *const pol[] = { "exact", "disabled=0x2" };
	struct vpmc_replay *r = run_scenario("replay-disabled-read-error.vtr", pol, 2);
	struct vpmc_metrics ex = metrics(r, 0), dis = metrics(r, 1);

	ck_assert_double_eq(ex.count_error_rel_mean, 0.0);
	ck_assert_uint_eq(dis.reads, 1);
	ck_assert_double_eq_tol(dis.count_error_rel_mean, 3.0 / 103.0, 1e-12);
	vpmc_replay_free(r);
}
END_TEST

/* Without an overlay the ideal guest and every lane's reference are the same guest (the
 * trace's, counted exactly): each policy's samples against the ideal guest give the numbers
 * of its PMIs against its lane's reference. The scenarios' counters count instructions and
 * every instruction is the trace's, so lateness in trace instructions is lateness in events. */
static const char *const equality_files[] = {
	"replay-tolerance-late-pmi.vtr", "replay-tolerance-missed-pmi.vtr",
	"replay-disabled-read-error.vtr", "replay-overlay-segment.vtr",
};

START_TEST(test_ideal_equals_lane_reference_without_overlay)
{
	static const char *const pol[] = { "exact", "disabled=0x12", "tolerance=10",
					   "tolerance=100", "tolerance-wrap=100", "mediated",
					   "reference" };
	struct vpmc_replay *r = run_scenario(equality_files[_i], pol, ARRAY_SIZE(pol));
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pol); i++) {
		struct vpmc_metrics m = metrics(r, i);

		ck_assert_msg(m.samples_ideal == m.ref_overflows, "%s: %llu ideal, %llu lane-ref",
			      pol[i], (unsigned long long)m.samples_ideal,
			      (unsigned long long)m.ref_overflows);
		ck_assert_uint_eq(m.samples_matched, m.overflows_matched);
		ck_assert_uint_eq(m.samples_unmatched, m.pmis_spurious);
		ck_assert_uint_eq(m.ideal_lateness_insn_p50, m.lateness_events_p50);
		ck_assert_uint_eq(m.ideal_lateness_insn_p99, m.lateness_events_p99);
		ck_assert_uint_eq(m.ideal_lateness_insn_max, m.lateness_events_max);
		ck_assert_uint_eq(m.ideal_lateness_ns_p50, m.lateness_ns_p50);
		ck_assert_uint_eq(m.ideal_lateness_ns_max, m.lateness_ns_max);
	}
	vpmc_replay_free(r);
}
END_TEST

/* A trace whose guest uses no counter (replay-overlay-segment.vtr without --assume: 2 exits,
 * no PMU access) gives two warnings: no counter and no --assume, and identical rows. */
START_TEST(test_verdict_warnings)
{
	static const char *const pol[] = { "exact", "tolerance=100" };
	struct vpmc_replay *r = run_scenario("replay-overlay-segment.vtr", pol, 2);
	char msg[512];

	ck_assert(vpmc_replay_verdict_warning(r, 0, msg, sizeof(msg)));
	ck_assert_ptr_nonnull(strstr(msg, "programs no PMU counter"));
	ck_assert(vpmc_replay_verdict_warning(r, 1, msg, sizeof(msg)));
	ck_assert_str_eq(msg, "all 2 rows are identical: on this trace the policies do not differ");
	ck_assert(!vpmc_replay_verdict_warning(r, 2, msg, sizeof(msg)));
	vpmc_replay_free(r);
	/* with the overlay the guest uses its counter, and the rows differ */
	r = run_scenario_assume("replay-overlay-segment.vtr", pol, 2, "gp0=instructions,period=100",
				NULL);
	ck_assert(!vpmc_replay_verdict_warning(r, 0, msg, sizeof(msg)));
	vpmc_replay_free(r);
}
END_TEST

/* ---- overlay: the guest's PMI handler inside guest segments ---- */

/* The PMI counts, lateness and costs are worked out in the scenario's header comment. */
START_TEST(test_overlay_pmis_inside_segment)
{
	static const char *const pol[] = { "exact", "disabled=0x12", "tolerance=100", "mediated",
					   "reference" };
	struct pmi_times log = { .policy = "\"policy\":\"exact\"" };
	struct vpmc_replay *r = run_scenario_assume("replay-overlay-segment.vtr", pol, 5,
						    "gp0=instructions,period=100", &log);
	struct vpmc_metrics m;
	unsigned int i, k;

	/* exact: at instruction 99 + 98 k of the segment, t = 1000 + 99 + 98 k */
	ck_assert_uint_eq(log.n, 10);
	for (k = 0; k < log.n; k++)
		ck_assert_uint_eq(log.t[k], 1099 + 98 * k);
	for (i = 0; i < 5; i++) {
		m = metrics(r, i);
		ck_assert_msg(m.ref_overflows == 10, "%s: %llu reference overflows", pol[i],
			      (unsigned long long)m.ref_overflows);
		ck_assert_uint_eq(m.overflows_matched, 10);
		ck_assert_uint_eq(m.overflows_missed, 0);
		ck_assert_uint_eq(m.pmis_delivered, 10);
		ck_assert_uint_eq(m.pmis_spurious, 0);
		ck_assert_uint_eq(m.reads, 10);
		ck_assert_uint_eq(m.status_reads, 20);
		ck_assert_uint_eq(m.status_reads_differ, 0);
		ck_assert_uint_eq(m.exits, 96);
		ck_assert_uint_eq(m.exits_implicit, 10);
	}
	for (i = 0; i < 5; i += i == 0 ? 3 : 1) { /* exact, mediated, reference */
		m = metrics(r, i);
		ck_assert_uint_eq(m.lateness_events_max, 0);
		ck_assert_uint_eq(m.lateness_ns_max, 0);
		ck_assert_uint_eq(m.reads_with_error, 0);
	}
	m = metrics(r, 0);
	ck_assert_uint_eq(m.triggers, 21);
	ck_assert_uint_eq(m.drains, 43);
	ck_assert_uint_eq(m.reprograms, 260);
	ck_assert_uint_eq(m.perf_resumes, 30);
	ck_assert_uint_eq(m.perf_creates, 1);
	ck_assert_uint_eq(metrics(r, 3).drains, 23);

	m = metrics(r, 1); /* disabled=0x12: 1 event late, then 2 */
	ck_assert_uint_eq(m.lateness_events_p50, 2);
	ck_assert_uint_eq(m.lateness_events_max, 2);
	ck_assert_uint_eq(m.lateness_ns_p50, 2);
	ck_assert_uint_eq(m.lateness_ns_max, 2);
	ck_assert_uint_eq(m.reads_with_error, 10);
	ck_assert_double_eq_tol(m.error_events_mean, -1.9, 1e-9);
	ck_assert_uint_eq(m.error_events_max_abs, 2);
	ck_assert_uint_eq(m.triggers, 0);
	ck_assert_uint_eq(m.drains, 33);

	m = metrics(r, 2); /* tolerance=100: 0 once, then 1 event late */
	ck_assert_uint_eq(m.lateness_events_p50, 1);
	ck_assert_uint_eq(m.lateness_events_max, 1);
	ck_assert_uint_eq(m.lateness_ns_max, 1);
	ck_assert_uint_eq(m.reads_with_error, 0);
	ck_assert_uint_eq(m.drains, 33);
	vpmc_replay_free(r);
}
END_TEST

/*
 * A period of 2 (x86_perf_event_set_period()'s least) and exact: the handler's last two exits,
 * WRMSR GLOBAL_CTRL = all and WRMSR LVTPC, each retire an instruction that KVM counts once the
 * counter is enabled again (kvm_skip_emulated_instruction() -> kvm_pmu_instruction_retired()),
 * so the counter, rewritten to -2, overflows at the handler's end and LVTPC, just unmasked,
 * lets the PMI in: every run of the handler brings the next, and the 8th is cut off, once, at
 * the first PMI (t = 1002: the enabling WRMSR left the counter at -1, so KVM's perf event gets
 * a sample period of 1, which the host's x86_perf_event_set_period() arms as 2: the hardware
 * overflow is the segment's 2nd instruction, one after the reference's). After it LVTPC stays
 * masked. Under
 * disabled=0x12 the handler's exits count nothing, so no handler is cut off.
 */
START_TEST(test_overlay_handler_cut_off)
{
	static const char *const pol[] = { "exact", "disabled=0x12" };
	struct vpmc_replay *r = run_scenario_assume("replay-overlay-segment.vtr", pol, 2,
						    "gp0=instructions,period=2", NULL);
	uint64_t t = 0;
	uint32_t vcpu = 99;

	ck_assert_uint_eq(vpmc_replay_handler_capped(r, 0, &t, &vcpu), 1);
	ck_assert_uint_eq(t, 1002);
	ck_assert_uint_eq(vcpu, 0);
	ck_assert_uint_eq(metrics(r, 0).pmis_delivered, 9); /* 8 handler runs; none for the 9th */
	ck_assert_uint_eq(vpmc_replay_handler_capped(r, 1, NULL, NULL), 0);
	ck_assert_uint_eq(vpmc_replay_handler_capped(r, 2, NULL, NULL), 0); /* no such policy */
	vpmc_replay_free(r);
}
END_TEST

/* Apply one event to the engine. */
static void replay_ev(struct vpmc_replay *r, uint64_t t, enum vpmc_event_type type, uint64_t insn)
{
	struct vpmc_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.time_ns = t;
	ev.type = type;
	ev.cpl = VPMC_CPL_KEEP;
	ev.insn = insn;
	if (type == VPMC_EV_EXIT)
		snprintf(ev.reason, sizeof(ev.reason), "HLT");
	ck_assert_msg(vpmc_replay_event(r, &ev) == 0, "%s", vpmc_replay_error(r));
}

/*
 * The same segment on an AMD PerfMonV2 guest, exact. Programming: WRMSR GLOBAL_CTL = 0,
 * PERF_CTR0 = -100, PERF_CTL0, GLOBAL_CTL = 0x3f (its retire counts: -99). amd_pmu_v2_handle_irq()
 * makes 6 accesses: WRMSR GLOBAL_CTL = 0, RDMSR GLOBAL_STATUS, RDPMC 0 (reads 0: delta 100,
 * left 100), WRMSR PERF_CTR0 = -100, WRMSR GLOBAL_STATUS_CLR, WRMSR GLOBAL_CTL = 0x3f (counted:
 * -99). No LVTPC write: AMD guests' LVTPC is not masked by a PMI (6.9+, 49ff3b4aec51). PMIs at
 * instructions 99 k, k = 1..10 (t = 1000 + 99 k); exits 4 + 2 + 10 implicit + 10 x 6 = 76;
 * reads 10, status reads 10.
 */
START_TEST(test_overlay_amd_pmis_inside_segment)
{
	static const char *const pol[] = { "exact" };
	struct pmi_times log = { .policy = "\"policy\":\"exact\"" };
	struct vpmc_replay *r = replay_make(pol, 1, "gp0=instructions,period=100", &log);
	struct vpmc_pmu_config cfg;
	struct vpmc_metrics m;
	unsigned int k;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_AMD);
	ck_assert_int_eq(vpmc_replay_begin(r, &cfg), 0);
	replay_ev(r, 1000, VPMC_EV_ENTRY, 0);
	replay_ev(r, 2000, VPMC_EV_GUEST, 1000);
	replay_ev(r, 2000, VPMC_EV_EXIT, 0);
	replay_ev(r, 2100, VPMC_EV_ENTRY, 0);
	ck_assert_int_eq(vpmc_replay_finish(r), 0);

	ck_assert_uint_eq(log.n, 10);
	for (k = 0; k < log.n; k++)
		ck_assert_uint_eq(log.t[k], 1000 + 99 * (k + 1));
	m = metrics(r, 0);
	ck_assert_uint_eq(m.ref_overflows, 10);
	ck_assert_uint_eq(m.overflows_matched, 10);
	ck_assert_uint_eq(m.lateness_events_max, 0);
	ck_assert_uint_eq(m.reads, 10);
	ck_assert_uint_eq(m.reads_with_error, 0);
	ck_assert_uint_eq(m.status_reads, 10);
	ck_assert_uint_eq(m.exits, 76);
	ck_assert_uint_eq(m.exits_implicit, 10);
	vpmc_replay_free(r);
}
END_TEST

/*
 * Without an overlay nothing runs between the parts of a segment: the trace's own guest
 * programs GP0 as the overlay would (the enabling write's retire counts: -99) and has no
 * handler, so the segment runs through in one piece: one overflow at instruction 99 (t = 1099,
 * the PMI there, lateness 0), then the counter runs on to 1000 - 99 = 901 at the RDPMC. Exits:
 * the entries at 1000 and 2100 and the implicit one.
 */
START_TEST(test_no_overlay_segment_in_one_piece)
{
	static const struct {
		uint32_t msr;
		uint64_t value;
	} prog[] = {
		{ 0x38f, 0 }, { 0x4c1, (1ULL << 48) - 100 }, { 0x186, 0x5300c0 }, { 0x38f, 0x7000000ff },
	};
	static const char *const names[] = { "exact", "mediated" };
	struct vpmc_replay *r = replay_make(names, ARRAY_SIZE(names), NULL, NULL);
	struct vpmc_pmu_config cfg;
	struct vpmc_metrics m;
	struct vpmc_event ev;
	unsigned int i;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	ck_assert_int_eq(vpmc_replay_begin(r, &cfg), 0);
	for (i = 0; i < ARRAY_SIZE(prog); i++) {
		memset(&ev, 0, sizeof(ev));
		ev.time_ns = 1000;
		ev.type = VPMC_EV_WRMSR;
		ev.cpl = VPMC_CPL_KEEP;
		ev.index = prog[i].msr;
		ev.value = prog[i].value;
		ck_assert_int_eq(vpmc_replay_event(r, &ev), 0);
		replay_ev(r, 1000, VPMC_EV_RETIRE, 0);
	}
	replay_ev(r, 1000, VPMC_EV_ENTRY, 0);
	replay_ev(r, 2000, VPMC_EV_GUEST, 1000);
	replay_ev(r, 2000, VPMC_EV_EXIT, 0);
	memset(&ev, 0, sizeof(ev));
	ev.time_ns = 2000;
	ev.type = VPMC_EV_RDPMC;
	ev.cpl = VPMC_CPL_KEEP;
	ck_assert_int_eq(vpmc_replay_event(r, &ev), 0);
	replay_ev(r, 2100, VPMC_EV_ENTRY, 0);
	ck_assert_int_eq(vpmc_replay_finish(r), 0);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		m = metrics(r, i);
		ck_assert_uint_eq(m.ref_overflows, 1);
		ck_assert_uint_eq(m.overflows_matched, 1);
		ck_assert_uint_eq(m.pmis_delivered, 1);
		ck_assert_uint_eq(m.lateness_events_max, 0);
		ck_assert_uint_eq(m.lateness_ns_max, 0);
		ck_assert_uint_eq(m.reads, 1);
		ck_assert_uint_eq(m.reads_with_error, 0);
		ck_assert_uint_eq(m.exits, 3);
		ck_assert_uint_eq(m.exits_implicit, 1);
	}
	vpmc_replay_free(r);
}
END_TEST

/*
 * The --assume conflict check is the engine's (vpmc_replay_event()), so a library user feeding
 * events without a reader gets the warning too, placed by the event's number. gp0 on a default
 * Intel PMU (full-width writes): the overlay programs IA32_PMC0 through its full-width alias
 * 0x4c1 at the vCPU's first event (the ENTRY, event 1). Event 2, the trace's own WRMSR of 0x4c1,
 * overwrites that counter; event 3, a second such write, changes nothing: the first is kept.
 */
START_TEST(test_assume_conflict_without_reader)
{
	static const char *const pol[] = { "exact" };
	struct vpmc_replay *r = replay_make(pol, 1, "gp0=instructions", NULL);
	struct vpmc_pmu_config cfg;
	struct vpmc_event ev;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	ck_assert_int_eq(vpmc_replay_begin(r, &cfg), 0);
	replay_ev(r, 100, VPMC_EV_ENTRY, 0);
	ck_assert_str_eq(vpmc_replay_warning(r), "");
	memset(&ev, 0, sizeof(ev));
	ev.time_ns = 200;
	ev.type = VPMC_EV_WRMSR;
	ev.cpl = VPMC_CPL_KEEP;
	ev.index = 0x4c1;
	ev.value = 5;
	ck_assert_int_eq(vpmc_replay_event(r, &ev), 0);
	ev.time_ns = 300;
	ev.value = 7;
	ck_assert_int_eq(vpmc_replay_event(r, &ev), 0);
	ck_assert_int_eq(vpmc_replay_finish(r), 0);
	ck_assert_str_eq(vpmc_replay_warning(r), "the trace writes IA32_A_PMC0 (0x4c1) = 0x5 itself "
			 "at event 2 (vCPU 0, 200 ns): --assume gp0=instructions,period=100000 will "
			 "be overwritten");
	vpmc_replay_free(r);
}
END_TEST

/*
 * vpmc_replay_event() refuses a CPL out of range (VPMC_ERR_INVAL, replay.h) before any model
 * takes the event, with an overlay too, where guest segments bypass vpmc_vcpu_event()
 * (fuzz/crashes/engine/overlay-segment-bad-cpl: the segment was taken, CPL 7 as "keep").
 * Refused, it leaves no trace: no vCPU, no event, no time; a valid segment then is event 1.
 */
/*
 * More policies than a share holds (16, parallel.c), on one thread: vpmc_replay_run() runs them
 * in shares, each over whole blocks of events; vpmc_replay_event(), fed event by event, runs
 * them on one engine. Both are the same replay: every figure of the detailed JSON report (per
 * policy, vCPU and counter, all digits) is the same. The overlay's PMIs every 100 instructions
 * make each policy's handler run at its own points.
 */
START_TEST(test_shares_equal_one_engine)
{
	static const char *const pol[] = {
		"exact", "mediated", "disabled=0x2", "tolerance-wrap=50", "tolerance=1",
		"tolerance=2", "tolerance=4", "tolerance=8", "tolerance=16", "tolerance=32",
		"tolerance=64", "tolerance=128", "tolerance=256", "tolerance=512",
		"tolerance=1024", "tolerance=2048", "tolerance=4096", "tolerance=8192",
		"tolerance=16384", "tolerance=32768",
	};
	const char *file = "replay-tolerance-late-pmi.vtr";
	const char *assume = "gp0=instructions,period=100";
	unsigned int n = sizeof(pol) / sizeof(pol[0]);
	struct vpmc_replay *shares = run_scenario_assume(file, pol, n, assume, NULL);
	struct vpmc_replay *one = replay_make(pol, n, assume, NULL);
	const char *dir = getenv("VPMC_TRACES"), *json;
	struct vpmc_reader *rd;
	struct vpmc_reader_stats st;
	struct vpmc_event ev;
	char path[1024], *a;

	snprintf(path, sizeof(path), "%s/scenarios/%s", dir ? dir : "traces", file);
	ck_assert_int_eq(vpmc_reader_new(&rd, NULL), 0);
	ck_assert_msg(vpmc_reader_open(rd, path) == 0, "%s", vpmc_reader_error(rd));
	ck_assert_int_eq(vpmc_replay_begin(one, vpmc_reader_pmu(rd)), 0);
	while (vpmc_reader_next(rd, &ev) > 0)
		ck_assert_msg(vpmc_replay_event(one, &ev) == 0, "%s", vpmc_replay_error(one));
	ck_assert_int_eq(vpmc_replay_finish(one), 0);
	vpmc_reader_stats(rd, &st); /* as vpmc_replay_run() does */
	vpmc_replay_set_source(one, NULL, &st);
	vpmc_reader_free(rd);
	ck_assert_int_eq(vpmc_replay_report(shares, VPMC_VIEW_DETAIL, VPMC_OUTPUT_JSON, &json), 0);
	a = strdup(json);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(vpmc_replay_report(one, VPMC_VIEW_DETAIL, VPMC_OUTPUT_JSON, &json), 0);
	ck_assert(strcmp(a, json) == 0); /* (ck_assert_str_eq() cannot print 100 KB) */
	ck_assert_ptr_nonnull(strstr(json, "\"policy\": \"tolerance=32768\""));
	free(a);
	vpmc_replay_free(shares);
	vpmc_replay_free(one);
}
END_TEST

START_TEST(test_bad_cpl_refused)
{
	static const char *const pol[] = { "exact" };
	static const char *const assume[] = { NULL, "gp0=instructions" };
	static const enum vpmc_event_type types[] = { VPMC_EV_GUEST, VPMC_EV_RETIRE, VPMC_EV_CPL };
	struct vpmc_pmu_config cfg;
	struct vpmc_event ev;
	uint64_t first, last;
	uint32_t nr_vcpus;
	unsigned int a, t;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	for (a = 0; a < ARRAY_SIZE(assume); a++) {
		for (t = 0; t < ARRAY_SIZE(types); t++) {
			struct vpmc_replay *r = replay_make(pol, 1, assume[a], NULL);

			ck_assert_int_eq(vpmc_replay_begin(r, &cfg), 0);
			memset(&ev, 0, sizeof(ev));
			ev.time_ns = 1000;
			ev.vcpu = 1;
			ev.type = types[t];
			ev.insn = 10;
			ev.cpl = 7;
			ck_assert_int_eq(vpmc_replay_event(r, &ev), VPMC_ERR_INVAL);
			ck_assert_ptr_nonnull(strstr(vpmc_replay_error(r), "bad type or CPL"));
			ck_assert_uint_eq(vpmc_replay_span(r, &nr_vcpus, &first, &last), 0);
			ck_assert_uint_eq(nr_vcpus, 0);
			ck_assert_uint_eq(last, 0);
			ck_assert(!vpmc_replay_has_vcpu(r, 1));
			ev.time_ns = 2000;
			ev.cpl = 3;
			ck_assert_int_eq(vpmc_replay_event(r, &ev), 0);
			ck_assert_uint_eq(vpmc_replay_span(r, &nr_vcpus, &first, &last), 1);
			ck_assert_uint_eq(nr_vcpus, 2);
			ck_assert_uint_eq(first, 2000);
			ck_assert_int_eq(vpmc_replay_finish(r), 0);
			vpmc_replay_free(r);
		}
	}
}
END_TEST

static Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("scenarios");

	tcase_add_test(tc, test_disabled_read_error_is_minus_k);
	tcase_add_test(tc, test_tolerance_late_pmi);
	tcase_add_test(tc, test_tolerance_missed_pmi);
	tcase_add_loop_test(tc, test_exact_scenario, 0, ARRAY_SIZE(exact_cases));
	tcase_add_test(tc, test_host_values_checked);
	tcase_add_test(tc, test_cost_beyond_histogram);
	tcase_add_test(tc, test_cost_not_finite_json);
	tcase_add_loop_test(tc, test_plot_x_range, 0, ARRAY_SIZE(plot_ranges));
	tcase_add_test(tc, test_plot_labels);
	suite_add_tcase(s, tc);

	tc = tcase_create("ideal");
	tcase_add_test(tc, test_ideal_tolerance_k_of_n);
	tcase_add_test(tc, test_disabled_relative_count_error);
	tcase_add_loop_test(tc, test_ideal_equals_lane_reference_without_overlay, 0,
			    ARRAY_SIZE(equality_files));
	tcase_add_test(tc, test_verdict_warnings);
	suite_add_tcase(s, tc);

	tc = tcase_create("overlay");
	tcase_add_test(tc, test_overlay_pmis_inside_segment);
	tcase_add_test(tc, test_overlay_handler_cut_off);
	tcase_add_test(tc, test_overlay_amd_pmis_inside_segment);
	tcase_add_test(tc, test_no_overlay_segment_in_one_piece);
	tcase_add_test(tc, test_assume_conflict_without_reader);
	tcase_add_test(tc, test_bad_cpl_refused);
	tcase_add_test(tc, test_shares_equal_one_engine);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(replay_suite)
