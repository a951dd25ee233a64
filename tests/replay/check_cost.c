// SPDX-License-Identifier: GPL-2.0-only
/* check_cost.c - Host cost model parameters and the modeled cost (lib/cost.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "vpmc.h"

START_TEST(test_defaults_and_formula)
{
	struct vpmc_cost c;

	vpmc_cost_default(&c);
	ck_assert_double_eq(c.resume_us, 2.4);
	ck_assert_double_eq(c.create_us, 5.2);
	ck_assert_double_eq(c.trigger_cycles, 200.0);
	ck_assert_double_eq(c.cpu_ghz, 2.5);
	/* 3 * 2.4 + 1 * 5.2 + 1000 triggers * 200 cycles / 2.5 GHz (= 80 us) */
	ck_assert_double_eq_tol(vpmc_cost_us(&c, 3, 1, 1000), 7.2 + 5.2 + 80.0, 1e-9);
	ck_assert_double_eq(vpmc_cost_us(&c, 0, 0, 0), 0.0);
}
END_TEST

START_TEST(test_parse_overrides)
{
	struct vpmc_cost c;

	vpmc_cost_default(&c);
	ck_assert_int_eq(vpmc_cost_parse(&c, "resume_us=0.5,cpu_ghz=4", NULL), 0);
	ck_assert_double_eq(c.resume_us, 0.5);
	ck_assert_double_eq(c.cpu_ghz, 4.0);
	ck_assert_double_eq(c.create_us, 5.2); /* untouched */
	ck_assert_int_eq(vpmc_cost_parse(&c, "trigger_cycles=0", NULL), 0);
	ck_assert_double_eq(c.trigger_cycles, 0.0);
	/* 2 resumes at 0.5 us, triggers free */
	ck_assert_double_eq_tol(vpmc_cost_us(&c, 2, 0, 99), 1.0, 1e-12);
}
END_TEST

static const struct {
	const char *name;
	const char *spec;
	const char *why_contains;
} bad[] = {
	{ "empty", "", "NAME=VALUE" },
	{ "unknown-name", "resume=1", "resume_us" },
	{ "no-value", "resume_us", "NAME=VALUE" },
	{ "empty-value", "resume_us=", "resume_us: expected microseconds" },
	{ "negative", "create_us=-1", "create_us: expected microseconds per perf event created, "
	  "from 0 to 1e6" },
	{ "zero-ghz", "cpu_ghz=0", "cpu_ghz: expected the host clock in GHz, from 0.01 to 100" },
	{ "trailing", "resume_us=1x", "resume_us: expected" },
	{ "nan", "resume_us=nan", "resume_us: expected" },
	{ "inf", "trigger_cycles=inf", "trigger_cycles: expected host cycles per "
	  "kvm_pmu_trigger_event(), from 0 to 1e8" },
	{ "beyond-double", "resume_us=1e309", "resume_us: expected" },
	/* finite, but an exit's cost would not be (F9: 1e308 us per resume) */
	{ "huge-resume", "resume_us=1e308", "resume_us: expected microseconds per perf event "
	  "resumed, from 0 to 1e6" },
	{ "resume-over", "resume_us=1000000.5", "resume_us: expected" },
	{ "create-over", "create_us=1e7", "create_us: expected" },
	{ "trigger-over", "trigger_cycles=100000001", "trigger_cycles: expected" },
	/* each in range, but together 1e8 cycles / 0.01 GHz = 1e10 ns (10 s) per trigger */
	{ "trigger-ns-over", "trigger_cycles=1e8,cpu_ghz=0.01", "trigger_cycles / cpu_ghz: "
	  "expected at most 1e6 ns (1 ms) per kvm_pmu_trigger_event()" },
	/* 2.5e6 cycles at the default 2.5 GHz: 1e6 ns is the bound; one cycle more is not */
	{ "trigger-ns-over-default-ghz", "trigger_cycles=2500001", "trigger_cycles / cpu_ghz" },
	{ "ghz-under", "cpu_ghz=0.0099", "cpu_ghz: expected" },
	{ "ghz-over", "cpu_ghz=100.5", "cpu_ghz: expected" },
	{ "second-over", "resume_us=1,create_us=2e6", "create_us: expected" },
	{ "trailing-comma", "resume_us=1,", "NAME=VALUE" },
	{ "second-bad", "resume_us=1,bogus=2", "NAME=VALUE" },
	/* one value per NAME: not the last of two silently */
	{ "twice", "resume_us=1,resume_us=2", "resume_us given twice" },
	{ "twice-apart", "cpu_ghz=3,create_us=1,cpu_ghz=3", "cpu_ghz given twice" },
};

START_TEST(test_parse_bad_leaves_params)
{
	struct vpmc_cost c, before;
	const char *why = NULL;

	vpmc_cost_default(&c);
	before = c;
	ck_assert_msg(vpmc_cost_parse(&c, bad[_i].spec, &why) == VPMC_ERR_INVAL, "%s: accepted",
		      bad[_i].name);
	ck_assert_msg(why && strstr(why, bad[_i].why_contains), "%s: why '%s'", bad[_i].name,
		      why ? why : "(null)");
	ck_assert(!memcmp(&c, &before, sizeof(c)));
}
END_TEST

/* The bounds themselves are allowed; the largest exit then costs a finite amount. */
START_TEST(test_parse_bounds_inclusive)
{
	struct vpmc_cost c;

	vpmc_cost_default(&c);
	ck_assert_int_eq(vpmc_cost_parse(&c, "resume_us=1e6,create_us=1e6,trigger_cycles=1e8,"
					 "cpu_ghz=100", NULL), 0);
	/* 1e8 cycles at 100 GHz are 1e6 ns, 1e3 us */
	ck_assert_double_eq_tol(vpmc_cost_us(&c, 1, 1, 1), 1e6 + 1e6 + 1e3, 1e-6);
	/* the clock alone at its lower bound, with a trigger cost it keeps within 1 ms */
	ck_assert_int_eq(vpmc_cost_parse(&c, "cpu_ghz=0.01,trigger_cycles=1e4", NULL), 0);
	ck_assert_double_eq_tol(vpmc_cost_us(&c, 0, 0, 1), 1e3, 1e-9);
	vpmc_cost_default(&c);
	ck_assert_int_eq(vpmc_cost_parse(&c, "trigger_cycles=2.5e6", NULL), 0);
}
END_TEST

/* The per-trigger bound takes earlier values into account: a later spec that sets only the
 * clock is refused when it would make the trigger cost too much. */
START_TEST(test_parse_trigger_bound_across_specs)
{
	struct vpmc_cost c, before;

	vpmc_cost_default(&c);
	ck_assert_int_eq(vpmc_cost_parse(&c, "trigger_cycles=1e6", NULL), 0);
	before = c;
	ck_assert_int_eq(vpmc_cost_parse(&c, "cpu_ghz=0.5", NULL), VPMC_ERR_INVAL);
	ck_assert(!memcmp(&c, &before, sizeof(c)));
	ck_assert_int_eq(vpmc_cost_parse(&c, "cpu_ghz=1", NULL), 0); /* 1e6 ns: the bound */
}
END_TEST


/* P2: the shipped files are the compiled-in text, parse, and tag every parameter line. */
static char *read_text(const char *rel)
{
	const char *top = getenv("top_srcdir");
	char path[1024], *buf = calloc(1, 1 << 16);
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
	f = fopen(path, "r");
	ck_assert_msg(f && buf, "%s", path);
	n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

START_TEST(test_profiles_shipped)
{
	static const char *const names[] = { "default", "rfc-milan" };
	struct vpmc_cost_profile p;
	struct vpmc_cost d;
	char err[256], rel[64], *text;
	size_t n, i;

	snprintf(rel, sizeof(rel), "profiles/%s.cost", names[_i]);
	text = read_text(rel);
	ck_assert_str_eq(text, vpmc_cost_profile_shipped(names[_i]));
	free(text);
	ck_assert_int_eq(vpmc_cost_profile_load(&p, names[_i], err, sizeof(err)), 0);
	vpmc_cost_params(&n);
	for (i = 0; i < n; i++)
		ck_assert_msg(p.tag[i] != VPMC_COST_TAG_NONE && p.source[i], "%s: param %zu",
			      names[_i], i);
	if (_i == 0) {
		/* "default" is vpmcsim 0.1's model: the four values, nothing more priced */
		vpmc_cost_default(&d);
		ck_assert(!memcmp(&d, &p.cost, sizeof(d)));
		ck_assert(!vpmc_cost_v2(&p.cost));
	} else {
		ck_assert(vpmc_cost_v2(&p.cost));
		ck_assert_double_eq(p.cost.msr_access_cycles, 180);
		ck_assert_str_eq(p.fitted, "handler_overhead_ns drain_extra_p0 drain_extra_quantum_us");
	}
	vpmc_cost_profile_release(&p);
}
END_TEST

static const struct {
	const char *text, *err;
} bad_profiles[] = {
	{ "resume_us = 1\n", "x.cost:1: resume_us: expected '# TAG; SOURCE'" },
	{ "resume_us = 1  # guess; me\n", "x.cost:1: resume_us: expected a tag" },
	{ "# c\nbogus = 1  # estimate; x\n", "x.cost:2: unknown parameter 'bogus'" },
	{ "cpu_ghz = 3  # estimate; a\ncpu_ghz = 3  # estimate; b\n", "x.cost:2: cpu_ghz given twice" },
	{ "cpu_ghz = 0  # estimate; a\n", "x.cost:1: cpu_ghz: expected the host clock" },
	{ "drain_extra_mult = 1:0.5  # estimate; a\n", "x.cost:1: drain_extra_mult: expected" },
	{ "resume_us = 1  # estimate; a\r\n", "x.cost:1: carriage return" },
};

START_TEST(test_profile_bad)
{
	struct vpmc_cost_profile p;
	char err[256] = "";

	memset(&p, 0, sizeof(p));
	vpmc_cost_default(&p.cost);
	ck_assert_int_eq(vpmc_cost_profile_parse(&p, bad_profiles[_i].text, "x.cost", err,
						 sizeof(err)), VPMC_ERR_INVAL);
	ck_assert_msg(!strncmp(err, bad_profiles[_i].err, strlen(bad_profiles[_i].err)), "'%s'",
		      err);
	vpmc_cost_profile_release(&p);
}
END_TEST

/* The drain extra by hand: u1 < q: none; else k by the CDF of the pairs, times the quantum,
 * times (1 + jitter (2 u3 - 1)). */
START_TEST(test_drain_extra)
{
	struct vpmc_cost c;

	vpmc_cost_default(&c);
	ck_assert_int_eq(vpmc_cost_parse(&c, "drain_extra_p0=0.25,drain_extra_quantum_us=50,"
					 "drain_extra_mult=5:0.98 9:0.018 17:0.002,"
					 "drain_extra_jitter=0.1", NULL), 0);
	ck_assert_double_eq(vpmc_cost_drain_extra_us(&c, 0.2, 0.5, 0.5), 0.0);
	ck_assert_double_eq_tol(vpmc_cost_drain_extra_us(&c, 0.3, 0.5, 0.5), 250.0, 1e-9);
	ck_assert_double_eq_tol(vpmc_cost_drain_extra_us(&c, 0.3, 0.99, 1.0), 9 * 50 * 1.1, 1e-9);
	ck_assert_double_eq_tol(vpmc_cost_drain_extra_us(&c, 0.3, 0.999, 0.0), 17 * 50 * 0.9, 1e-9);
	ck_assert(vpmc_cost_v2(&c));
}
END_TEST

static Suite *cost_suite(void)
{
	Suite *s = suite_create("cost");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_defaults_and_formula);
	tcase_add_test(tc, test_parse_overrides);
	tcase_add_loop_test(tc, test_parse_bad_leaves_params, 0, ARRAY_SIZE(bad));
	tcase_add_test(tc, test_parse_bounds_inclusive);
	tcase_add_test(tc, test_parse_trigger_bound_across_specs);
	tcase_add_loop_test(tc, test_profiles_shipped, 0, 2);
	tcase_add_loop_test(tc, test_profile_bad, 0, ARRAY_SIZE(bad_profiles));
	tcase_add_test(tc, test_drain_extra);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(cost_suite)
