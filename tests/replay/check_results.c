// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_results.c - The replay engine's run-wide getters (lib/replay/results.c), black-box: what
 * a report prints besides the metrics. Each expected value follows from the few calls and events
 * of the test itself.
 */
#include "config.h"

#include <string.h>
#include <vpmc.h>

#include "check_common.h"

static struct vpmc_replay *r;

static void setup(void)
{
	struct vpmc_policy p;

	ck_assert_int_eq(vpmc_replay_new(&r), 0);
	ck_assert_int_eq(vpmc_policy_parse(&p, "exact", NULL), 0);
	ck_assert_int_eq(vpmc_replay_add_policy(r, &p), 0);
}

static void teardown(void)
{
	vpmc_replay_free(r);
}

/* One event of vCPU @vcpu at @t; an EXIT's reason is HLT. */
static void event(uint64_t t, uint32_t vcpu, enum vpmc_event_type type)
{
	struct vpmc_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.time_ns = t;
	ev.vcpu = vcpu;
	ev.type = type;
	ev.cpl = VPMC_CPL_KEEP;
	if (type == VPMC_EV_EXIT)
		strcpy(ev.reason, "HLT");
	ck_assert_msg(vpmc_replay_event(r, &ev) == 0, "%s", vpmc_replay_error(r));
}

/* A new engine has no trace, no events, no vCPU, no overlay, the default cost model. */
START_TEST(test_new_engine)
{
	static const struct vpmc_pmu_config zero;
	struct vpmc_reader_stats st = { .records = 99 };
	struct vpmc_cost dflt;
	const struct vpmc_cost *c = vpmc_replay_cost(r);
	const char *path = "unset";
	uint64_t first = 1, last = 1;
	uint32_t nr_vcpus = 1;

	ck_assert(!vpmc_replay_source(r, &path, &st));
	ck_assert_ptr_null(path);
	ck_assert_uint_eq(st.records, 99); /* not known: left alone */
	ck_assert_int_eq(memcmp(vpmc_replay_config(r), &zero, sizeof(zero)), 0);
	vpmc_cost_default(&dflt);
	ck_assert_int_eq(memcmp(c, &dflt, sizeof(dflt)), 0);
	ck_assert_uint_eq(vpmc_replay_span(r, &nr_vcpus, &first, &last), 0);
	ck_assert_uint_eq(nr_vcpus, 0);
	ck_assert_uint_eq(first, 0);
	ck_assert_uint_eq(last, 0);
	ck_assert(!vpmc_replay_has_vcpu(r, 0));
	ck_assert_uint_eq(vpmc_replay_nr_assumed(r), 0);
	ck_assert_ptr_null(vpmc_replay_assumed(r, 0));
}
END_TEST

/* vpmc_replay_source() gives back what vpmc_replay_set_source() was given (copies). */
START_TEST(test_source_mirrors_set_source)
{
	struct vpmc_reader_stats in = { .lines = 10, .records = 7, .skipped_lines = 1,
					  .lost_events = 3, .synthesized_entries = 5 }, out;
	char name[] = "traces/t.vtr";
	const char *path;

	vpmc_replay_set_source(r, name, &in);
	name[0] = 'X'; /* the engine kept its own copy */
	memset(&out, 0, sizeof(out));
	ck_assert(vpmc_replay_source(r, &path, &out));
	ck_assert_str_eq(path, "traces/t.vtr");
	ck_assert_uint_eq(out.lines, 10);
	ck_assert_uint_eq(out.records, 7);
	ck_assert_uint_eq(out.skipped_lines, 1);
	ck_assert_uint_eq(out.lost_events, 3);
	ck_assert_uint_eq(out.synthesized_entries, 5);
	ck_assert_uint_eq(out.events, 0);
	ck_assert(vpmc_replay_source(r, NULL, NULL));
	vpmc_replay_set_source(r, NULL, NULL);
	ck_assert(!vpmc_replay_source(r, &path, &out));
	ck_assert_ptr_null(path);
}
END_TEST

START_TEST(test_cost_is_the_one_set)
{
	static const struct vpmc_cost c = { .resume_us = 1.5, .create_us = 6.0,
					     .trigger_cycles = 300.0, .cpu_ghz = 3.0 };

	vpmc_replay_set_cost(r, &c);
	ck_assert_int_eq(memcmp(vpmc_replay_cost(r), &c, sizeof(c)), 0);
}
END_TEST

/* Assumed counters in the order given, as canonical text: the default period is 100000, a hex
 * period is printed in decimal. */
START_TEST(test_assumed_counters)
{
	ck_assert_int_eq(vpmc_replay_assume(r, "gp1=branches"), 0);
	ck_assert_int_eq(vpmc_replay_assume(r, "fixed0,period=0x10"), 0);
	ck_assert_uint_eq(vpmc_replay_nr_assumed(r), 2);
	ck_assert_str_eq(vpmc_replay_assumed(r, 0), "gp1=branches,period=100000");
	ck_assert_str_eq(vpmc_replay_assumed(r, 1), "fixed0,period=16");
	ck_assert_ptr_null(vpmc_replay_assumed(r, 2));
}
END_TEST

/* The PMU as the models have it: KVM caps an Intel guest at 8 GP counters and 48-bit widths
 * (vpmc_vcpu_config()); the rest of the default Intel PMU stays. */
START_TEST(test_config_as_capped)
{
	struct vpmc_pmu_config cfg;
	const struct vpmc_pmu_config *got;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.nr_gp = 12;
	cfg.gp_width = 64;
	ck_assert_int_eq(vpmc_replay_begin(r, &cfg), 0);
	got = vpmc_replay_config(r);
	ck_assert_int_eq(got->vendor, VPMC_VENDOR_INTEL);
	ck_assert_uint_eq(got->version, 2);
	ck_assert_uint_eq(got->nr_gp, 8);
	ck_assert_uint_eq(got->gp_width, 48);
	ck_assert_uint_eq(got->nr_fixed, 3);
	ck_assert_uint_eq(got->fixed_width, 48);
}
END_TEST

/*
 * Four events on vCPUs 2 and 0: vCPU indices 0 to 2 (3 of them), vCPU 1 never seen; the first
 * event at 100 ns, the latest at 300 ns although vCPU 0's exit at 250 ns comes after it.
 */
START_TEST(test_span_and_vcpus)
{
	struct vpmc_pmu_config cfg;
	struct vpmc_metrics m;
	uint64_t first, last;
	uint32_t nr_vcpus;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	ck_assert_int_eq(vpmc_replay_begin(r, &cfg), 0);
	event(100, 2, VPMC_EV_ENTRY);
	event(150, 0, VPMC_EV_ENTRY);
	event(300, 2, VPMC_EV_EXIT);
	event(250, 0, VPMC_EV_EXIT);
	ck_assert_int_eq(vpmc_replay_finish(r), 0);
	ck_assert_uint_eq(vpmc_replay_span(r, &nr_vcpus, &first, &last), 4);
	ck_assert_uint_eq(nr_vcpus, 3);
	ck_assert_uint_eq(first, 100);
	ck_assert_uint_eq(last, 300);
	ck_assert_uint_eq(vpmc_replay_span(r, NULL, NULL, NULL), 4);
	ck_assert(vpmc_replay_has_vcpu(r, 0));
	ck_assert(!vpmc_replay_has_vcpu(r, 1));
	ck_assert(vpmc_replay_has_vcpu(r, 2));
	ck_assert(!vpmc_replay_has_vcpu(r, 3));
	ck_assert(!vpmc_replay_has_vcpu(r, VPMC_MAX_VCPUS));
	/* vCPU 1 has no models: its metrics are all zero */
	ck_assert_int_eq(vpmc_replay_metrics(r, 0, 1, -1, &m), 0);
	ck_assert_uint_eq(m.exits, 0);
	ck_assert_uint_eq(m.reads, 0);
}
END_TEST

static Suite *results_suite(void)
{
	Suite *s = suite_create("results");
	TCase *tc = tcase_create("getters");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_new_engine);
	tcase_add_test(tc, test_source_mirrors_set_source);
	tcase_add_test(tc, test_cost_is_the_one_set);
	tcase_add_test(tc, test_assumed_counters);
	tcase_add_test(tc, test_config_as_capped);
	tcase_add_test(tc, test_span_and_vcpus);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(results_suite)
