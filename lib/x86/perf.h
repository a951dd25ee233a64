/* SPDX-License-Identifier: GPL-2.0-only */
/* perf.h - A simulated host perf event, as x86 perf behaves for KVM's vPMU (semantics §1.8). */
#ifndef VPMC_PERF_H
#define VPMC_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What KVM puts in struct perf_event_attr (pmc_reprogram_counter()). */
struct simperf_attr {
	uint64_t config;        /* raw event: eventsel & raw_event_mask */
	uint64_t sample_period; /* events per overflow; 0 = counting event, never overflows */
	bool exclude_user;      /* does not count at CPL > 0 */
	bool exclude_kernel;    /* does not count at CPL 0 */
	bool precise;           /* precise_ip != 0: a PEBS event */
};

struct simperf_event;

/* The overflow handler (KVM: kvm_perf_overflow), called at the event that exhausts the armed
 * count, after perf has re-armed the event; its context is event->overflow_handler_context. */
typedef void (*simperf_overflow_handler_t)(struct simperf_event *event);

/*
 * Failures of perf that tests inject (architecture.md §4.1), acted on only in VPMC_TESTING
 * builds. They live in the padding after simperf_event.active, and simperf_create() and
 * simperf_release() leave them as they are, so a test can set them on a counter's storage
 * before KVM creates its event.
 */
struct simperf_inject {
	bool fail_create;    /* simperf_create() fails with -EBUSY */
	bool refuse_period;  /* simperf_period() refuses with -EINVAL */
	bool skid;           /* simperf_count() holds the overflow interrupt back (skid_pending) */
	bool skid_pending;   /* ... until simperf_deliver_skid() */
	bool pause_overflow; /* the next simperf_pause() raises the overflow interrupt, once */
};

/*
 * One perf event. Only guest-mode hardware events reach it (exclude_host): KVM's emulated
 * instructions never do. The x86 counter is armed with max(period_left, 2) events
 * (x86_perf_event_set_period(): "certain CPUs don't like it if just 1 hw_event is left").
 */
struct simperf_event {
	struct simperf_attr attr;
	uint64_t count;      /* events counted since creation or the last reset (event->count) */
	int64_t period_left; /* hwc->period_left: events left in the current sample period */
	uint64_t armed;      /* events the hardware counter was armed with (0: not sampling) */
	uint64_t hw_done;    /* events counted since it was armed */
	bool active;         /* PERF_EVENT_STATE_ACTIVE: counting */
	struct simperf_inject inject;
	simperf_overflow_handler_t overflow_handler;
	void *overflow_handler_context;
};

_Static_assert(offsetof(struct simperf_event, overflow_handler) ==
		       offsetof(struct simperf_event, active) + 8,
	       "struct simperf_inject must fit in the padding after active");

int simperf_create(struct simperf_event *event, const struct simperf_attr *attr,
		   simperf_overflow_handler_t overflow_handler, void *context);
uint64_t simperf_pause(struct simperf_event *event, bool reset);
uint64_t simperf_read(const struct simperf_event *event);
int simperf_period(struct simperf_event *event, uint64_t value);
void simperf_enable(struct simperf_event *event);
void simperf_release(struct simperf_event *event);
bool simperf_is_sampling(const struct simperf_event *event);
bool simperf_counts_at(const struct simperf_event *event, unsigned int cpl);
uint64_t simperf_events_to_overflow(const struct simperf_event *event);
bool simperf_count(struct simperf_event *event, uint64_t n);

#ifdef VPMC_TESTING
bool simperf_deliver_skid(struct simperf_event *event);
#endif

#endif /* VPMC_PERF_H */
