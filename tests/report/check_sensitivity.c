// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_sensitivity.c - The cost sensitivity of compare (issue 12): each lane's host us in all
 * at both ends of every estimated cost parameter's documented range, and the ranking flips.
 *
 * Scenario traces/scenarios/replay-disabled-read-error.vtr, whose header works out the counts
 * from KVM's code: exact 1 create, 4 resumes, 5 triggers; disabled=0x2 1 create, 0 triggers;
 * tolerance=100 1 create (its one drain), 5 triggers (check_replay.c asserts these). mediated:
 * no perf event is ever created or resumed (the counters are the guest's own), and the 5
 * emulated retirements of GP0's instructions still go through kvm_pmu_trigger_event(): 5
 * triggers, 0 creates, 0 resumes.
 *
 * Profile: "default" with create_us = 0.5 (tagged estimate), so that disabled=0x2's one
 * creation (0.5 us) and mediated's 5 triggers (5 * 200 cycles / 2.5 GHz = 0.4 us) are close.
 * Totals (us) = creates * create_us + resumes * resume_us + triggers * trigger_cycles / cpu_ghz
 * / 1000, at resume_us 2.4, trigger 0.08 us:
 *   base:                exact 0.5 + 9.6 + 0.4 = 10.5, dis 0.5, tol 0.9, med 0.4
 *                        (order med < dis < tol < exact)
 *   resume_us 1 | 8:     exact 4.9 | 32.9, the others unchanged         no flip
 *   create_us 5.2 | 21000: exact 15.2 | 21010, dis 5.2 | 21000, tol 5.6 | 21000.4, med 0.4
 *                                                                        no flip
 *   trigger_cycles 100 | 300 (0.04 | 0.12 us each): exact 10.3 | 10.7, dis 0.5, tol 0.7 | 1.1,
 *                        med 0.2 | 0.6: at 300 mediated costs more than disabled=0x2   FLIP
 *   cpu_ghz 2 | 4 (0.1 | 0.05 us a trigger): exact 10.6 | 10.35, dis 0.5, tol 1.0 | 0.75,
 *                        med 0.5 | 0.25: at 2 mediated ties disabled=0x2 (a tie is no flip)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "vpmc.h"

static const char *const pols[] = { "exact", "disabled=0x2", "tolerance=100", "mediated" };

static struct vpmc_replay *run(void)
{
	struct vpmc_cost_profile p;
	struct vpmc_replay *r;
	struct vpmc_reader *rd;
	char path[1024], err[256];
	const char *dir = getenv("VPMC_TRACES");
	size_t i;

	ck_assert_int_eq(vpmc_replay_new(&r), 0);
	for (i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		struct vpmc_policy pol;

		ck_assert_int_eq(vpmc_policy_parse(&pol, pols[i], NULL), 0);
		ck_assert_int_eq(vpmc_replay_add_policy(r, &pol), 0);
	}
	ck_assert_int_eq(vpmc_cost_profile_load(&p, "default", err, sizeof(err)), 0);
	ck_assert_int_eq(vpmc_cost_profile_set(&p, "create_us", 0.5, VPMC_COST_TAG_ESTIMATE,
					       "test"), 0);
	vpmc_replay_set_cost_profile(r, &p);
	vpmc_cost_profile_release(&p);
	snprintf(path, sizeof(path), "%s/scenarios/replay-disabled-read-error.vtr",
		 dir ? dir : "traces");
	ck_assert_int_eq(vpmc_reader_new(&rd, NULL), 0);
	ck_assert_msg(vpmc_reader_open(rd, path) == 0, "%s", vpmc_reader_error(rd));
	ck_assert_msg(vpmc_replay_run(r, rd) == 0, "%s", vpmc_replay_error(r));
	vpmc_reader_free(rd);
	return r;
}

/* The 8 totals of @policy's row in the text report's sensitivity table. */
static void sens_row(const char *text, const char *policy, double *v)
{
	const char *s = strstr(text, "\nSensitivity:");
	char want[64];

	ck_assert_ptr_nonnull(s);
	snprintf(want, sizeof(want), "\n%s ", policy);
	s = strstr(s, want);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(sscanf(s + strlen(want), "%lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1],
				&v[2], &v[3], &v[4], &v[5], &v[6], &v[7]), 8);
}

START_TEST(test_totals_at_the_ends)
{
	static const double want[4][8] = {
		/* resume_us 1, 8; create_us 5.2, 21000; trigger_cycles 100, 300; cpu_ghz 2, 4 */
		{ 4.9, 32.9, 15.2, 21010.0, 10.3, 10.7, 10.6, 10.35 },
		{ 0.5, 0.5, 5.2, 21000.0, 0.5, 0.5, 0.5, 0.5 },
		{ 0.9, 0.9, 5.6, 21000.4, 0.7, 1.1, 1.0, 0.75 },
		{ 0.4, 0.4, 0.4, 0.4, 0.2, 0.6, 0.5, 0.25 },
	};
	struct vpmc_replay *r = run();
	const char *text;
	double v[8];
	size_t i, k;

	ck_assert_int_eq(vpmc_replay_report(r, VPMC_VIEW_COMPARE, VPMC_OUTPUT_TEXT, &text), 0);
	ck_assert_ptr_nonnull(strstr(text, "create_us=0.5 [estimate]"));
	ck_assert_ptr_nonnull(strstr(text, "resume_us=2.4 [derived]"));
	ck_assert_ptr_nonnull(strstr(text, "trigger_cycles=300 *"));
	ck_assert_ptr_null(strstr(text, "cpu_ghz=2 *"));
	for (i = 0; i < 4; i++) {
		sens_row(text, pols[i], v);
		for (k = 0; k < 8; k++)
			ck_assert_double_eq_tol(v[k], want[i][k], 0.0005);
	}
	vpmc_replay_free(r);
}
END_TEST

START_TEST(test_flip_warns_and_is_listed)
{
	struct vpmc_replay *r = run();
	const char *json, *flips, *end;
	char buf[512];
	size_t i, n = 0;

	for (i = 0; vpmc_replay_verdict_warning(r, i, buf, sizeof(buf)); i++)
		n += !strcmp(buf, "an estimated cost parameter decides the ranking: trigger_cycles");
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(i, 1); /* and no other: resume_us, create_us and cpu_ghz do not flip */
	ck_assert_int_eq(vpmc_replay_report(r, VPMC_VIEW_COMPARE, VPMC_OUTPUT_JSON, &json), 0);
	/* the top-level list (each parameter's own "ranking_flips" is a boolean) */
	flips = strstr(json, "\"ranking_flips\": [");
	ck_assert_ptr_nonnull(flips);
	flips += strlen("\"ranking_flips\": [");
	flips += strspn(flips, " \n");
	ck_assert_int_eq(strncmp(flips, "\"trigger_cycles\"", 16), 0);
	end = flips + 16 + strspn(flips + 16, " \n");
	ck_assert_int_eq(*end, ']');
	ck_assert_ptr_nonnull(strstr(json, "\"cost\": {"));
	vpmc_replay_free(r);
}
END_TEST

static Suite *sensitivity_suite(void)
{
	Suite *s = suite_create("sensitivity");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_totals_at_the_ends);
	tcase_add_test(tc, test_flip_warns_and_is_listed);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(sensitivity_suite)
