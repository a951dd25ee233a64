/* check_perf.c - The simulated x86 perf event (lib/perf.c). */
#include "config.h"

#include "check_common.h"
#include "perf.h"

START_TEST(test_placeholder)
{
	struct simperf_event ev;
	struct simperf_attr attr = { .config = 0xc0, .sample_period = 5 };

	simperf_create(&ev, &attr, NULL, NULL);
	ck_assert_uint_eq(simperf_events_to_overflow(&ev), 5);
}
END_TEST

static Suite *perf_suite(void)
{
	Suite *s = suite_create("perf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_placeholder);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(perf_suite)
