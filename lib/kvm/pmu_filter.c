/*
 * pmu_filter.c - The PMU event filter (KVM_SET_PMU_EVENT_FILTER), as in arch/x86/kvm/pmu.c:
 * allow/deny lists of event select + unit mask, "masked" entries with excludes, and a bitmap
 * of fixed counters. Installing a filter marks every counter for reprogram (f1c5651fda43).
 *
 * KVM keeps one filter per VM; the model keeps it per vCPU (a replay applies it to each).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"

/* Mirrors filter_cmp(). */
static int filter_cmp(const uint64_t *pa, const uint64_t *pb, uint64_t mask)
{
	uint64_t a = *pa & mask;
	uint64_t b = *pb & mask;

	return (a > b) - (a < b);
}

/* Mirrors filter_sort_cmp(): by event select, excludes after includes. */
static int filter_sort_cmp(const void *pa, const void *pb)
{
	return filter_cmp(pa, pb, KVM_PMU_MASKED_ENTRY_EVENT_SELECT | KVM_PMU_MASKED_ENTRY_EXCLUDE);
}

/* Mirrors filter_event_cmp(): by event select only. */
static int filter_event_cmp(const void *pa, const void *pb)
{
	return filter_cmp(pa, pb, KVM_PMU_MASKED_ENTRY_EVENT_SELECT);
}

/* Mirrors find_filter_index(). */
static int find_filter_index(const uint64_t *events, uint32_t nevents, uint64_t key)
{
	const uint64_t *fe = bsearch(&key, events, nevents, sizeof(events[0]), filter_event_cmp);

	return fe ? (int)(fe - events) : -1;
}

/* Mirrors is_filter_entry_match(): (umask & entry's mask) == entry's match. */
static bool is_filter_entry_match(uint64_t filter_event, uint64_t umask)
{
	uint64_t mask = filter_event >> (KVM_PMU_MASKED_ENTRY_UMASK_MASK_SHIFT - 8);
	uint64_t match = filter_event & KVM_PMU_MASKED_ENTRY_UMASK_MATCH;

	return (umask & mask) == match;
}

/* Mirrors filter_contains_match(): any entry with the event select whose umask matches. */
static bool filter_contains_match(const uint64_t *events, uint32_t nevents, uint64_t eventsel,
				  uint64_t eventsel_event)
{
	uint64_t event_select = eventsel & eventsel_event;
	uint64_t umask = eventsel & ARCH_PERFMON_EVENTSEL_UMASK;
	int i, index;

	index = find_filter_index(events, nevents, event_select);
	if (index < 0)
		return false;

	/* entries are sorted by event select: walk both ways from the hit */
	for (i = index; i < (int)nevents; i++) {
		if (filter_event_cmp(&events[i], &event_select))
			break;
		if (is_filter_entry_match(events[i], umask))
			return true;
	}
	for (i = index - 1; i >= 0; i--) {
		if (filter_event_cmp(&events[i], &event_select))
			break;
		if (is_filter_entry_match(events[i], umask))
			return true;
	}
	return false;
}

/* Mirrors is_gp_event_allowed(). */
static bool is_gp_event_allowed(const struct vpmc_pmu_event_filter *f, uint64_t eventsel,
				uint64_t eventsel_event)
{
	const uint64_t *excludes = f->events + f->nr_includes;

	if (filter_contains_match(f->events, f->nr_includes, eventsel, eventsel_event) &&
	    !filter_contains_match(excludes, f->nr_excludes, eventsel, eventsel_event))
		return f->action == KVM_PMU_EVENT_ALLOW;
	return f->action == KVM_PMU_EVENT_DENY;
}

/* Mirrors is_fixed_event_allowed(). */
static bool is_fixed_event_allowed(const struct vpmc_pmu_event_filter *filter, int idx)
{
	int fixed_idx = idx - KVM_FIXED_PMC_BASE_IDX;
	bool listed = filter->fixed_counter_bitmap & (1U << fixed_idx);

	if (filter->action == KVM_PMU_EVENT_DENY && listed)
		return false;
	if (filter->action == KVM_PMU_EVENT_ALLOW && !listed)
		return false;
	return true;
}

/**
 * pmu_event_filter_allows() - Mirrors the second half of pmc_is_event_allowed() (pmu.c), once
 * it found a filter: GP counters by eventsel, fixed counters by the fixed bitmap.
 * @pmu: vCPU with a filter (pmc_is_event_allowed() answers without one)
 * @pmc: counter
 *
 * Return: true if the filter allows the counter.
 */
bool pmu_event_filter_allows(const struct vpmc_pmu *pmu, const struct vpmc_pmc *pmc)
{
	if (pmc_is_gp(pmc))
		return is_gp_event_allowed(pmu->filter, pmc->eventsel, pmu->ops->EVENTSEL_EVENT);
	return is_fixed_event_allowed(pmu->filter, pmc->idx);
}

/* Mirrors is_masked_filter_valid(). */
static bool is_masked_filter_valid(const struct vpmc_pmu_event_filter *filter,
				   uint64_t eventsel_event)
{
	uint64_t mask = eventsel_event | KVM_PMU_MASKED_ENTRY_UMASK_MASK |
			KVM_PMU_MASKED_ENTRY_UMASK_MATCH | KVM_PMU_MASKED_ENTRY_EXCLUDE;
	uint32_t i;

	for (i = 0; i < filter->nevents; i++) {
		if (filter->events[i] & ~mask)
			return false;
	}
	return true;
}

/* Mirrors convert_to_masked_filter(): drop impossible entries, add an all-ones umask mask. */
static void convert_to_masked_filter(struct vpmc_pmu_event_filter *filter, uint64_t eventsel_event)
{
	uint32_t i, j;

	for (i = 0, j = 0; i < filter->nevents; i++) {
		if (filter->events[i] & ~(eventsel_event | ARCH_PERFMON_EVENTSEL_UMASK))
			continue;
		filter->events[j++] = filter->events[i] |
				      (0xffULL << KVM_PMU_MASKED_ENTRY_UMASK_MASK_SHIFT);
	}
	filter->nevents = j;
}

/* Mirrors prepare_filter_lists(): convert or validate, sort, split includes / excludes. */
static int prepare_filter_lists(struct vpmc_pmu_event_filter *filter, uint64_t eventsel_event)
{
	uint32_t i;

	if (!(filter->flags & KVM_PMU_EVENT_FLAG_MASKED_EVENTS))
		convert_to_masked_filter(filter, eventsel_event);
	else if (!is_masked_filter_valid(filter, eventsel_event))
		return -EINVAL;

	qsort(filter->events, filter->nevents, sizeof(filter->events[0]), filter_sort_cmp);

	i = filter->nevents;
	if (filter->flags & KVM_PMU_EVENT_FLAG_MASKED_EVENTS) {
		for (i = 0; i < filter->nevents; i++) {
			if (filter->events[i] & KVM_PMU_MASKED_ENTRY_EXCLUDE)
				break;
		}
	}
	filter->nr_includes = i;
	filter->nr_excludes = filter->nevents - filter->nr_includes;
	return 0;
}

/**
 * kvm_vm_ioctl_set_pmu_event_filter() - Mirrors kvm_vm_ioctl_set_pmu_event_filter() (pmu.c):
 * validate and install a filter (replacing any), then mark every counter for reprogram and
 * raise KVM_REQ_PMU, so the filter takes effect at the next drain (emulated events: at once).
 * @pmu: vCPU
 * @action: KVM_PMU_EVENT_ALLOW or KVM_PMU_EVENT_DENY
 * @flags: 0 or KVM_PMU_EVENT_FLAG_MASKED_EVENTS
 * @fixed_counter_bitmap: fixed counters listed
 * @events: raw eventsel entries, or KVM_PMU_ENCODE_MASKED_ENTRY() values; copied
 * @nevents: at most KVM_PMU_EVENT_FILTER_MAX_EVENTS
 *
 * Return: 0, -EINVAL (bad action, flags or masked entry), -E2BIG, or -ENOMEM.
 */
int kvm_vm_ioctl_set_pmu_event_filter(struct vpmc_pmu *pmu, uint32_t action, uint32_t flags,
				      uint32_t fixed_counter_bitmap, const uint64_t *events,
				      uint32_t nevents)
{
	struct vpmc_pmu_event_filter *filter;
	int r;

	if (action != KVM_PMU_EVENT_ALLOW && action != KVM_PMU_EVENT_DENY)
		return -EINVAL;
	if (flags & ~KVM_PMU_EVENT_FLAG_MASKED_EVENTS)
		return -EINVAL;
	if (nevents > KVM_PMU_EVENT_FILTER_MAX_EVENTS)
		return -E2BIG;

	filter = calloc(1, sizeof(*filter));
	if (!filter)
		return -ENOMEM;
	filter->action = action;
	filter->flags = flags;
	filter->fixed_counter_bitmap = fixed_counter_bitmap;
	filter->nevents = nevents;
	if (nevents)
		memcpy(filter->events, events, nevents * sizeof(events[0]));

	r = prepare_filter_lists(filter, pmu->ops->EVENTSEL_EVENT);
	if (r) {
		free(filter);
		return r;
	}

	free(pmu->filter);
	pmu->filter = filter;
	pmu->reprogram_pmi = ~0ULL;
	pmu->requests |= KVM_REQ_PMU;
	return 0;
}
