// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_perf.c - The simulated x86 perf event (lib/x86/perf.c). Expected values follow
 * x86_perf_event_set_period() / x86_perf_event_update() (arch/x86/events/core.c) and
 * perf_event_pause() / __perf_event_period() (kernel/events/core.c), worked out by hand.
 */
#include "config.h"

#include <errno.h>

#include "check_common.h"
#include "perf.h"

struct hits {
	unsigned int n;
	void *ctx;
};

static void on_overflow(struct simperf_event *event)
{
	struct hits *h = event->overflow_handler_context;

	h->n++;
	h->ctx = event->overflow_handler_context;
}

static void make(struct simperf_event *ev, struct hits *h, uint64_t period)
{
	struct simperf_attr attr = { .config = 0xc0, .sample_period = period };

	h->n = 0;
	h->ctx = NULL;
	ck_assert_int_eq(simperf_create(ev, &attr, on_overflow, h), 0);
}

/* create: count 0, period_left = period, armed with max(period, 2). */
static const struct {
	uint64_t period, armed;
} arm_cases[] = {
	{ 1, 2 },	  /* the arming clamp: one event before the wrap overflows one late */
	{ 2, 2 },
	{ 3, 3 },
	{ 1ULL << 48, 1ULL << 48 },
};

START_TEST(test_create_arms_with_clamp)
{
	struct simperf_event ev = { 0 };
	struct hits h;

	make(&ev, &h, arm_cases[_i].period);
	ck_assert(ev.active);
	ck_assert_uint_eq(simperf_read(&ev), 0);
	ck_assert_uint_eq(simperf_events_to_overflow(&ev), arm_cases[_i].armed);
	ck_assert(!simperf_count(&ev, arm_cases[_i].armed - 1));
	ck_assert_uint_eq(h.n, 0);
	ck_assert(simperf_count(&ev, 1));
	ck_assert_uint_eq(h.n, 1);
	ck_assert_ptr_eq(h.ctx, &h);
	ck_assert_uint_eq(simperf_read(&ev), arm_cases[_i].armed);
}
END_TEST

/*
 * Period 1, armed 2: at the overflow period_left = 1 - 2 = -1 <= -period -> left = period = 1
 * -> armed 2 again. Period 5 armed 5: after the overflow period_left = 0 -> += 5 -> 5.
 */
START_TEST(test_rearm_after_overflow)
{
	struct simperf_event ev = { 0 };
	struct hits h;

	make(&ev, &h, 1);
	simperf_count(&ev, 2);
	ck_assert_uint_eq(simperf_events_to_overflow(&ev), 2);
	ck_assert_int_eq(ev.period_left, 1);

	make(&ev, &h, 5);
	simperf_count(&ev, 5);
	ck_assert_uint_eq(simperf_events_to_overflow(&ev), 5);
	simperf_count(&ev, 5);
	ck_assert_uint_eq(h.n, 2);
	ck_assert_uint_eq(simperf_read(&ev), 10);
}
END_TEST

/*
 * Period 3 after a period-1 style clamp: a period of 3 with period_left 1 (set by a pause after
 * 2 of 3 events) is armed with 2 on enable; after those 2, period_left = 1 - 2 = -1 -> -1 + 3 =
 * 2: the event that came one late is taken from the next period.
 */
START_TEST(test_pause_keeps_remaining_period)
{
	struct simperf_event ev = { 0 };
	struct hits h;

	make(&ev, &h, 3);
	simperf_count(&ev, 2);
	ck_assert_uint_eq(simperf_pause(&ev, true), 2);
	ck_assert(!ev.active);
	ck_assert_uint_eq(simperf_read(&ev), 0);
	ck_assert_int_eq(ev.period_left, 1);
	ck_assert_uint_eq(simperf_events_to_overflow(&ev), UINT64_MAX);
	ck_assert(!simperf_counts_at(&ev, 0));

	simperf_enable(&ev);
	ck_assert_uint_eq(simperf_events_to_overflow(&ev), 2);
	ck_assert(simperf_count(&ev, 2));
	ck_assert_int_eq(ev.period_left, 2);
	ck_assert_uint_eq(simperf_events_to_overflow(&ev), 2);

	/* enabling an active event changes nothing */
	simperf_count(&ev, 1);
	simperf_enable(&ev);
	ck_assert_uint_eq(simperf_events_to_overflow(&ev), 1);
}
END_TEST

/* pause without reset keeps the count (KVM always resets; the API allows both). */
START_TEST(test_pause_without_reset)
{
	struct simperf_event ev = { 0 };
	struct hits h;

	make(&ev, &h, 100);
	simperf_count(&ev, 7);
	ck_assert_uint_eq(simperf_pause(&ev, false), 7);
	ck_assert_uint_eq(simperf_read(&ev), 7);
	/* pausing a paused event returns the same count */
	ck_assert_uint_eq(simperf_pause(&ev, true), 7);
	ck_assert_uint_eq(simperf_read(&ev), 0);
}
END_TEST

/*
 * __perf_event_period() on an active event: stop (update), period_left = 0, start: armed with
 * the full new period from now; the count is not reset (the §2.9 drift).
 */
START_TEST(test_period_rearms_from_now_keeping_count)
{
	struct simperf_event ev = { 0 };
	struct hits h;

	make(&ev, &h, 100);
	simperf_count(&ev, 30);
	ck_assert_int_eq(simperf_period(&ev, 10), 0);
	ck_assert_uint_eq(ev.attr.sample_period, 10);
	ck_assert_uint_eq(simperf_read(&ev), 30);
	ck_assert_uint_eq(simperf_events_to_overflow(&ev), 10);
	simperf_count(&ev, 10);
	ck_assert_uint_eq(h.n, 1);
	ck_assert_uint_eq(simperf_read(&ev), 40);
}
END_TEST

/* On a paused event the new period is armed at the next enable, in full. */
START_TEST(test_period_on_paused_event)
{
	struct simperf_event ev = { 0 };
	struct hits h;

	make(&ev, &h, 100);
	simperf_count(&ev, 30);
	simperf_pause(&ev, true);
	ck_assert_int_eq(simperf_period(&ev, 50), 0);
	ck_assert(!ev.active);
	simperf_enable(&ev);
	ck_assert_uint_eq(simperf_events_to_overflow(&ev), 50);
}
END_TEST

/* _perf_event_period(): -EINVAL for a counting event, period 0, or bit 63. */
START_TEST(test_period_refused)
{
	struct simperf_event ev = { 0 };
	struct hits h;

	make(&ev, &h, 100);
	ck_assert_int_eq(simperf_period(&ev, 0), -EINVAL);
	ck_assert_int_eq(simperf_period(&ev, 1ULL << 63), -EINVAL);
	ck_assert_uint_eq(ev.attr.sample_period, 100);
	make(&ev, &h, 0);
	ck_assert(!simperf_is_sampling(&ev));
	ck_assert_int_eq(simperf_period(&ev, 10), -EINVAL);
}
END_TEST

/* A counting event (period 0: KVM's IN_TXCP quirk) counts and never overflows. */
START_TEST(test_counting_event_never_overflows)
{
	struct simperf_event ev = { 0 };
	struct hits h;

	make(&ev, &h, 0);
	ck_assert_uint_eq(simperf_events_to_overflow(&ev), UINT64_MAX);
	ck_assert(!simperf_count(&ev, 1ULL << 50));
	ck_assert_uint_eq(simperf_read(&ev), 1ULL << 50);
	ck_assert_uint_eq(h.n, 0);
}
END_TEST

/* exclude_kernel drops CPL 0, exclude_user CPL 1..3; an inactive event counts nowhere. */
START_TEST(test_counts_at_cpl)
{
	struct simperf_event ev = { 0 };
	struct simperf_attr attr = { .config = 0xc0, .sample_period = 5, .exclude_user = true };

	simperf_create(&ev, &attr, NULL, NULL);
	ck_assert(simperf_counts_at(&ev, 0));
	ck_assert(!simperf_counts_at(&ev, 3));
	attr.exclude_user = false;
	attr.exclude_kernel = true;
	simperf_create(&ev, &attr, NULL, NULL);
	ck_assert(!simperf_counts_at(&ev, 0));
	ck_assert(simperf_counts_at(&ev, 1));
	/* no handler: the overflow still re-arms */
	ck_assert(simperf_count(&ev, 5));
	simperf_release(&ev);
	ck_assert(!ev.active);
	ck_assert(!simperf_counts_at(&ev, 1));
}
END_TEST

/*
 * Injected failures of perf (struct simperf_inject): a refused creation leaves the storage
 * alone; a refused period; an overflow interrupt held back by skid until delivered; one raised
 * by the next pause, once. The bits survive create and release.
 */
START_TEST(test_injected_failures)
{
	struct simperf_event ev = { 0 };
	struct simperf_attr attr = { .config = 0xc0, .sample_period = 5 };
	struct hits h = { 0, NULL };

	ev.inject.fail_create = true;
	ck_assert_int_eq(simperf_create(&ev, &attr, on_overflow, &h), -EBUSY);
	ck_assert(!ev.active);
	ev.inject.fail_create = false;
	ev.inject.refuse_period = true;
	ck_assert_int_eq(simperf_create(&ev, &attr, on_overflow, &h), 0);
	ck_assert(ev.inject.refuse_period);
	ck_assert_int_eq(simperf_period(&ev, 10), -EINVAL);
	ck_assert_uint_eq(ev.attr.sample_period, 5);

	ev.inject.skid = true;
	ck_assert(!simperf_count(&ev, 5));
	ck_assert_uint_eq(h.n, 0);
	ck_assert(ev.inject.skid_pending);
	ck_assert(simperf_deliver_skid(&ev));
	ck_assert_uint_eq(h.n, 1);
	ck_assert(!simperf_deliver_skid(&ev));

	ev.inject.pause_overflow = true;
	ck_assert_uint_eq(simperf_pause(&ev, true), 5);
	ck_assert_uint_eq(h.n, 2);
	simperf_enable(&ev);
	simperf_pause(&ev, true);
	ck_assert_uint_eq(h.n, 2);
	simperf_release(&ev);
	ck_assert(ev.inject.skid);
}
END_TEST

static Suite *perf_suite(void)
{
	Suite *s = suite_create("perf");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_create_arms_with_clamp, 0, ARRAY_SIZE(arm_cases));
	tcase_add_test(tc, test_rearm_after_overflow);
	tcase_add_test(tc, test_pause_keeps_remaining_period);
	tcase_add_test(tc, test_pause_without_reset);
	tcase_add_test(tc, test_period_rearms_from_now_keeping_count);
	tcase_add_test(tc, test_period_on_paused_event);
	tcase_add_test(tc, test_period_refused);
	tcase_add_test(tc, test_counting_event_never_overflows);
	tcase_add_test(tc, test_counts_at_cpl);
	tcase_add_test(tc, test_injected_failures);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(perf_suite)
