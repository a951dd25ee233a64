// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.c - A simulated host perf event with the semantics x86 perf gives KVM's vPMU.
 *
 * KVM (arch/x86/kvm/pmu.c) backs every enabled guest counter with a pinned, exclude_host perf
 * event whose overflow handler is kvm_perf_overflow(). This file models that event: a count,
 * a sample period, the x86 arming clamp, pause-and-reset, period changes and the overflow call,
 * mirroring kernel/events/core.c and arch/x86/events/core.c. Counting is driven from outside
 * (simperf_count()): the caller feeds it the guest-mode hardware events it would see.
 *
 * Tests inject perf's own failures here (struct simperf_inject), not in KVM's code: a refused
 * creation or period, an overflow interrupt that skids past the VM-exit, one that races with
 * KVM's drain. Those checks are compiled only under VPMC_TESTING.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "perf.h"
#include "perf_period.h"

/*
 * simperf_arm() - Mirrors x86_perf_event_set_period() (arch/x86/events/core.c); the arithmetic
 * is perf_period_left(), which the guest's perf in the overlay shares.
 */
static void simperf_arm(struct simperf_event *event)
{
	int64_t period = (int64_t)event->attr.sample_period;

	event->hw_done = 0;
	if (!period) {
		event->armed = 0;
		return;
	}
	event->armed = (uint64_t)perf_period_left(&event->period_left, period);
}

/*
 * simperf_stop() - Mirrors x86_pmu_stop(PERF_EF_UPDATE) via x86_perf_event_update(): what the
 * hardware counted since it was armed leaves the period.
 */
static void simperf_stop(struct simperf_event *event)
{
	event->period_left -= (int64_t)event->hw_done;
	event->hw_done = 0;
	event->active = false;
}

/**
 * simperf_create() - Mirrors perf_event_create_kernel_counter() (kernel/events/core.c) for
 * KVM's attributes: a new event, count 0, period_left = sample_period, active and armed.
 * @event: storage (KVM's pmc->perf_event); its injected failures are kept
 * @attr: attributes; copied
 * @overflow_handler: overflow handler (kvm_perf_overflow)
 * @context: its context (the kvm_pmc)
 *
 * Return: 0, or -EBUSY if creation fails (injected: inject.fail_create); @event is then
 * untouched.
 */
int simperf_create(struct simperf_event *event, const struct simperf_attr *attr,
		   simperf_overflow_handler_t overflow_handler, void *context)
{
	struct simperf_inject inject = event->inject;

#ifdef VPMC_TESTING
	if (inject.fail_create)
		return -EBUSY;
#endif
	memset(event, 0, sizeof(*event));
	event->inject = inject;
	event->attr = *attr;
	event->period_left = (int64_t)attr->sample_period;
	event->overflow_handler = overflow_handler;
	event->overflow_handler_context = context;
	event->active = true;
	simperf_arm(event);
	return 0;
}

/**
 * simperf_pause() - Mirrors perf_event_pause(): disable the event and return its count,
 * resetting the count to 0 if @reset. The remaining period is kept (x86_pmu_stop()). Injected
 * (inject.pause_overflow): an overflow interrupt that arrives right then, once.
 * @event: event
 * @reset: set the count to 0 (KVM always passes true)
 *
 * Return: the count before the reset, in events.
 */
uint64_t simperf_pause(struct simperf_event *event, bool reset)
{
	uint64_t count = event->count;

	if (event->active)
		simperf_stop(event);
	if (reset)
		event->count = 0;
#ifdef VPMC_TESTING
	if (event->inject.pause_overflow) {
		event->inject.pause_overflow = false;
		if (event->overflow_handler)
			event->overflow_handler(event);
	}
#endif
	return count;
}

/**
 * simperf_read() - Mirrors perf_event_read_value(): the count, without stopping or resetting.
 * @event: event
 *
 * Return: events counted since creation or the last reset.
 */
uint64_t simperf_read(const struct simperf_event *event)
{
	return event->count;
}

/**
 * simperf_period() - Mirrors perf_event_period() / __perf_event_period(): set a new sample
 * period and re-arm the event for the whole new period *from now*. The count is not reset,
 * so a period computed from a base that excludes the live count overflows late (semantics
 * §2.9, "write-period drift").
 * @event: event
 * @value: new period, events
 *
 * Return: 0, or -EINVAL for a counting event, a zero period or one with bit 63 set
 * (_perf_event_period()), or when injected (inject.refuse_period).
 */
int simperf_period(struct simperf_event *event, uint64_t value)
{
	bool active = event->active;

#ifdef VPMC_TESTING
	if (event->inject.refuse_period)
		return -EINVAL;
#endif
	if (!simperf_is_sampling(event) || !value || (value >> 63))
		return -EINVAL;
	event->attr.sample_period = value;
	if (active)
		simperf_stop(event);
	event->period_left = 0;
	if (active) {
		event->active = true;
		simperf_arm(event);
	}
	return 0;
}

/**
 * simperf_enable() - Mirrors perf_event_enable(): an inactive event starts counting again and
 * is armed with what is left of its period (x86_pmu_start(PERF_EF_RELOAD)).
 * @event: event
 */
void simperf_enable(struct simperf_event *event)
{
	if (event->active)
		return;
	event->active = true;
	simperf_arm(event);
}

/**
 * simperf_release() - Mirrors perf_event_release_kernel(): the event stops counting for good.
 * @event: event; the caller forgets it
 */
void simperf_release(struct simperf_event *event)
{
	event->active = false;
	event->overflow_handler = NULL;
}

/**
 * simperf_is_sampling() - Mirrors is_sampling_event(): the event has a sample period.
 * @event: event
 *
 * Return: true if attr.sample_period != 0.
 */
bool simperf_is_sampling(const struct simperf_event *event)
{
	return event->attr.sample_period != 0;
}

/**
 * simperf_counts_at() - Whether the event counts guest events at a CPL: it must be active and
 * not exclude that mode (exclude_kernel at CPL 0, exclude_user at CPL 1..3).
 * @event: event
 * @cpl: guest CPL, 0..3
 *
 * Return: true if a guest event at @cpl reaches the count.
 */
bool simperf_counts_at(const struct simperf_event *event, unsigned int cpl)
{
	if (!event->active)
		return false;
	return cpl == 0 ? !event->attr.exclude_kernel : !event->attr.exclude_user;
}

/**
 * simperf_events_to_overflow() - Events until the hardware counter overflows.
 * @event: event
 *
 * Return: armed - counted since armed (>= 1), or UINT64_MAX for an inactive or counting event.
 */
uint64_t simperf_events_to_overflow(const struct simperf_event *event)
{
	if (!event->active || !event->armed)
		return UINT64_MAX;
	return event->armed - event->hw_done;
}

/**
 * simperf_count() - The hardware counts @n guest events. If the armed count runs out, this is
 * x86_pmu_handle_irq(): update the count, re-arm (x86_perf_event_set_period()) and call the
 * overflow handler (perf_event_overflow()). Injected (inject.skid): the interrupt is held back
 * until simperf_deliver_skid(), as a PMI that skids past the VM-exit.
 * @event: an active event
 * @n: events, at most simperf_events_to_overflow()
 *
 * Return: true if the overflow interrupt fired (and the handler, if any, ran): it interrupted
 * guest mode, a VM-exit.
 */
bool simperf_count(struct simperf_event *event, uint64_t n)
{
	event->count += n;
	if (!event->armed)
		return false;
	event->hw_done += n;
	if (event->hw_done < event->armed)
		return false;
	event->period_left -= (int64_t)event->armed;
	simperf_arm(event);
#ifdef VPMC_TESTING
	if (event->inject.skid) {
		event->inject.skid_pending = true;
		return false;
	}
#endif
	if (event->overflow_handler)
		event->overflow_handler(event);
	return true;
}

#ifdef VPMC_TESTING
/**
 * simperf_deliver_skid() - The overflow interrupt that inject.skid held back arrives now.
 * @event: event
 *
 * Return: true if one was pending (the handler ran if the event still has one).
 */
bool simperf_deliver_skid(struct simperf_event *event)
{
	if (!event->inject.skid_pending)
		return false;
	event->inject.skid_pending = false;
	if (event->overflow_handler)
		event->overflow_handler(event);
	return true;
}
#endif
