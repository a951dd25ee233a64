/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf_period.h - The arithmetic of x86_perf_event_set_period() (arch/x86/events/core.c), once:
 * for the host perf double (perf.c) and for the guest's perf in the replay overlay (overlay.c).
 */
#ifndef VPMC_PERF_PERIOD_H
#define VPMC_PERF_PERIOD_H

#include <stdint.h>

/*
 * perf_period_left() - Mirrors x86_perf_event_set_period()'s arithmetic: fold the remaining
 * period *@left into (0, @period], and arm at least 2 events ("certain CPUs don't like it if
 * just 1 event is left"). *@left keeps the unclamped value, so one event counted late now is
 * one event early next period. The caller clamps to its max_period, if it has one.
 * @left: the event's period_left; updated
 * @period: its sample period, events (> 0)
 *
 * Return: the number of events to arm the counter with.
 */
static inline int64_t perf_period_left(int64_t *left, int64_t period)
{
	if (*left <= -period)
		*left = period;
	if (*left <= 0)
		*left += period;
	return *left < 2 ? 2 : *left;
}

#endif /* VPMC_PERF_PERIOD_H */
