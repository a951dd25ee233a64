// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu.c - Twin of arch/x86/kvm/pmu.c (B-7.0, kvm-vpmu-semantics.md §0.1), function for function
 * and in the kernel's order; the PMU event filter (KVM_SET_PMU_EVENT_FILTER) included.
 *
 * Names, argument order and quirks are the kernel's; each function says which one it mirrors
 * and which kernel statements have no meaning here. "pmu" stands for the vCPU: struct vpmc_pmu
 * also carries the requests, CPL and LVTPC that KVM keeps in struct kvm_vcpu. Policies plug in
 * at kvm_pmu_incr_counter() and the *_retired() hooks (policy_*(), vpmcsim.h). Older hosts get
 * the older kernel's whole function: the legacy forks, in the vpmcsim block at the end.
 *
 * KVM keeps one event filter per VM; the model keeps it per vCPU (a replay applies it to each).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"
#include "trace.h"
#include "vpmcsim.h"
#include "x86.h"

/* The legacy forks (vpmcsim block) */
static bool pmc_pause_counter_pre_6_8(struct vpmc_pmc *pmc);
static int reprogram_counter_pre_6_8(struct vpmc_pmc *pmc);
static void kvm_pmu_handle_event_pre_6_9(struct vpmc_pmu *vcpu);
static int kvm_pmu_rdpmc_pre_6_9(struct vpmc_pmu *vcpu, unsigned int idx, uint64_t *data);
static void kvm_pmu_refresh_pre_6_9(struct vpmc_pmu *vcpu, const struct vpmc_pmu_config *cfg);
static void kvm_pmu_incr_counter_pre_6_8(struct vpmc_pmc *pmc);
static void pmc_write_counter_pre_6_6(struct vpmc_pmc *pmc, uint64_t val);
static void __kvm_perf_overflow_pre_6_6(struct vpmc_pmc *pmc, bool in_pmi);

/*
 * Mirrors __kvm_perf_overflow(): set the counter's GLOBAL_STATUS bit and, if the *cached*
 * pmc->intr says so, raise KVM_REQ_PMI. A PEBS counter instead sets BUFFER_OVF from a hardware
 * PMI (no second PMI while it is set) and nothing at all from the emulated path (f331601c65ad).
 * @in_pmi: true from the perf overflow handler, false from the drain (emulated overflow).
 */
static inline void __kvm_perf_overflow(struct vpmc_pmc *pmc, bool in_pmi)
{
	struct vpmc_pmu *pmu = pmc_to_pmu(pmc);
	bool skip_pmi = false;

	if (pmu_host_before(pmu, 6, 6) && !kvm_vcpu_has_mediated_pmu(pmu_to_vcpu(pmu))) {
		__kvm_perf_overflow_pre_6_6(pmc, in_pmi);
		return;
	}
	if (pmc->perf_event && pmc->perf_event->attr.precise) {
		if (!in_pmi) {
			/* KVM chooses not to generate PEBS records for emulated instructions */
			skip_pmi = true;
		} else {
			/* Indicate PEBS overflow PMI to guest. */
			skip_pmi = __test_and_set_bit(GLOBAL_STATUS_BUFFER_OVF_BIT,
						      &pmu->global_status);
			trace_vpmc_overflow(pmc, GLOBAL_STATUS_BUFFER_OVF, false);
		}
	} else {
		__set_bit(pmc->idx, &pmu->global_status);
		trace_vpmc_overflow(pmc, BIT_ULL(pmc->idx), !in_pmi);
	}

	if (pmc->intr && !skip_pmi)
		kvm_make_request(KVM_REQ_PMI, pmu_to_vcpu(pmu));
}

/*
 * Mirrors kvm_perf_overflow(), perf's overflow handler: ignored if the counter's reprogram bit
 * is already set (trap 13), else signal the overflow and raise KVM_REQ_PMU so the drain re-arms
 * the counter. The host-perf double calls it (simperf_count()).
 */
static void kvm_perf_overflow(struct simperf_event *perf_event)
{
	struct vpmc_pmc *pmc = perf_event->overflow_handler_context;

	/*
	 * Ignore asynchronous overflow events for counters that are scheduled to be reprogrammed,
	 * e.g. if a PMI for the previous event races with KVM's handling of a related guest WRMSR.
	 */
	if (test_and_set_bit(pmc->idx, &pmc_to_pmu(pmc)->reprogram_pmi))
		return;

	__kvm_perf_overflow(pmc, true);

	kvm_make_request(KVM_REQ_PMU, pmu_to_vcpu(pmc_to_pmu(pmc)));
}

/**
 * get_sample_period() - Mirrors get_sample_period(): events until a counter holding
 * @counter_value wraps past zero; a full wrap (mask + 1) for 0.
 * @pmc: counter
 * @counter_value: value, masked
 *
 * Return: the perf sample period, events.
 */
VISIBLE_FOR_TESTING uint64_t get_sample_period(const struct vpmc_pmc *pmc, uint64_t counter_value)
{
	uint64_t sample_period = (-counter_value) & pmc_bitmask(pmc);

	if (!sample_period)
		sample_period = pmc_bitmask(pmc) + 1;
	return sample_period;
}

/*
 * Mirrors pmc_reprogram_counter(): create the perf event with period get_sample_period(counter)
 * (0 for IN_TXCP events), user/kernel exclusion, and precise if the counter's PEBS_ENABLE bit
 * is set; on success cache intr = INT || PEBS. Return: 0, or perf's error (the drain re-queues
 * the counter). Left out: the PDIR/PDIST precise levels (any non-zero level is one here).
 */
static int pmc_reprogram_counter(struct vpmc_pmc *pmc, uint64_t config, bool exclude_user,
				 bool exclude_kernel, bool intr)
{
	struct vpmc_pmu *pmu = pmc_to_pmu(pmc);
	struct simperf_attr attr = {
		.exclude_user = exclude_user,
		.exclude_kernel = exclude_kernel,
		.config = config,
	};
	bool pebs = test_bit(pmc->idx, &pmu->pebs_enable);
	int r;

	attr.sample_period = get_sample_period(pmc, pmc->counter);

	if (attr.config & HSW_IN_TX_CHECKPOINTED) {
		/* HSW_IN_TX_CHECKPOINTED is not supported with nonzero period. */
		attr.sample_period = 0;
	}
	if (pebs)
		attr.precise = true;

	r = simperf_create(&pmc->perf, &attr, kvm_perf_overflow, pmc);
	if (r)
		return r;

	pmc->perf_event = &pmc->perf;
	pmc_to_pmu(pmc)->event_count++;
	trace_vpmc_perf_create(pmc);
	pmc->is_paused = false;
	pmc->intr = intr || pebs;
	return 0;
}

/*
 * Mirrors pmc_pause_counter() (fd89499a5151): fold the live perf count into counter, snapshot,
 * then fold the pending emulated events; the counter is paused. Return: true if the emulated
 * events wrapped the counter (an emulated overflow).
 */
static bool pmc_pause_counter(struct vpmc_pmc *pmc)
{
	uint64_t counter = pmc->counter;
	uint64_t prev_counter;

	if (pmu_host_before(pmc_to_pmu(pmc), 6, 8))
		return pmc_pause_counter_pre_6_8(pmc);

	/* update counter, reset event value to avoid redundant accumulation */
	if (pmc->perf_event && !pmc->is_paused) {
		counter += simperf_pause(pmc->perf_event, true);
		trace_vpmc_perf_pause(pmc);
	}

	/*
	 * Snapshot the previous counter *after* accumulating state from perf. If overflow already
	 * happened, hardware (via perf) is responsible for generating a PMI. KVM just needs to
	 * detect overflow on emulated counter events that haven't yet been processed.
	 */
	prev_counter = counter & pmc_bitmask(pmc);

	counter += pmc->emulated_counter;
	pmc->counter = counter & pmc_bitmask(pmc);

	pmc->emulated_counter = 0;
	pmc->is_paused = true;

	return pmc->counter < prev_counter;
}

/*
 * Mirrors pmc_resume_counter(): reuse the perf event if perf accepts the new period and its
 * precise level still matches PEBS_ENABLE. Return: false if it must be re-created.
 */
static bool pmc_resume_counter(struct vpmc_pmc *pmc)
{
	if (!pmc->perf_event)
		return false;

	/* recalibrate sample period and check if it's accepted by perf core */
	if (simperf_is_sampling(pmc->perf_event) &&
	    simperf_period(pmc->perf_event, get_sample_period(pmc, pmc->counter)))
		return false;

	if (test_bit(pmc->idx, &pmc_to_pmu(pmc)->pebs_enable) != pmc->perf_event->attr.precise)
		return false;

	/* reuse perf_event to serve as pmc_reprogram_counter() does */
	simperf_enable(pmc->perf_event);
	pmc->is_paused = false;
	trace_vpmc_perf_resume(pmc);

	return true;
}

/* Mirrors pmc_release_perf_event(): current_config = 0; pmc->intr is left as it was (stale). */
static void pmc_release_perf_event(struct vpmc_pmc *pmc)
{
	if (pmc->perf_event) {
		simperf_release(pmc->perf_event);
		pmc->perf_event = NULL;
		pmc->current_config = 0;
		pmc_to_pmu(pmc)->event_count--;
		trace_vpmc_perf_release(pmc);
	}
}

/* Mirrors pmc_stop_counter(): counter = pmc_read_counter(), then release the perf event. */
static void pmc_stop_counter(struct vpmc_pmc *pmc)
{
	if (pmc->perf_event) {
		pmc->counter = pmc_read_counter(pmc);
		pmc_release_perf_event(pmc);
	}
}

/* Mirrors pmc_update_sample_period(): re-arm a running sampling event. */
static void pmc_update_sample_period(struct vpmc_pmc *pmc)
{
	if (!pmc->perf_event || pmc->is_paused || !simperf_is_sampling(pmc->perf_event))
		return;

	simperf_period(pmc->perf_event, get_sample_period(pmc, pmc->counter));
}

/**
 * pmc_write_counter() - Mirrors pmc_write_counter(): drop pending emulated events, make the
 * guest-visible value @val (masked) relative to the live perf count, and re-arm the perf period
 * from the new base, which excludes the live count: the write-period drift (semantics §2.9).
 * Never reports an overflow and requests no reprogram. Mediated: counter = val & mask.
 * @pmc: counter
 * @val: value written, events (already sign-extended by the caller where the MSR does it)
 */
void pmc_write_counter(struct vpmc_pmc *pmc, uint64_t val)
{
	if (pmu_host_before(pmc_to_pmu(pmc), 6, 6) &&
	    !kvm_vcpu_has_mediated_pmu(pmu_to_vcpu(pmc_to_pmu(pmc))))
		return pmc_write_counter_pre_6_6(pmc, val);
	if (kvm_vcpu_has_mediated_pmu(pmu_to_vcpu(pmc_to_pmu(pmc)))) {
		pmc->counter = val & pmc_bitmask(pmc);
		return;
	}

	/*
	 * Drop any unconsumed accumulated counts, the WRMSR is a write, not a read-modify-write.
	 * Adjust the counter value so that its value is relative to the current count. Note, this
	 * very sneakily offsets the accumulated emulated count too, by using pmc_read_counter()!
	 */
	pmc->emulated_counter = 0;
	pmc->counter += val - pmc_read_counter(pmc);
	pmc->counter &= pmc_bitmask(pmc);
	pmc_update_sample_period(pmc);
}

/* Mirrors filter_cmp(). */
static int filter_cmp(const void *pa, const void *pb, uint64_t mask)
{
	uint64_t a = *(const uint64_t *)pa & mask;
	uint64_t b = *(const uint64_t *)pb & mask;

	return (a > b) - (a < b);
}

/* Mirrors filter_sort_cmp(): by event select, excludes after includes. */
static int filter_sort_cmp(const void *pa, const void *pb)
{
	return filter_cmp(pa, pb, KVM_PMU_MASKED_ENTRY_EVENT_SELECT | KVM_PMU_MASKED_ENTRY_EXCLUDE);
}

/*
 * Mirrors filter_event_cmp(). Searching is done on the includes and the excludes separately,
 * so the exclude bit can be ignored.
 */
static int filter_event_cmp(const void *pa, const void *pb)
{
	return filter_cmp(pa, pb, KVM_PMU_MASKED_ENTRY_EVENT_SELECT);
}

/* Mirrors find_filter_index(). */
static int find_filter_index(const uint64_t *events, uint32_t nevents, uint64_t key)
{
	const uint64_t *fe = bsearch(&key, events, nevents, sizeof(events[0]), filter_event_cmp);

	if (!fe)
		return -1;

	return (int)(fe - events);
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

	/*
	 * Entries are sorted by the event select. Walk the list in both directions to process all
	 * entries with the targeted event select.
	 */
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

/* Mirrors is_gp_event_allowed(); @eventsel_event is kvm_pmu_ops.EVENTSEL_EVENT. */
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
	uint64_t bitmap = filter->fixed_counter_bitmap;

	if (filter->action == KVM_PMU_EVENT_DENY && test_bit(fixed_idx, &bitmap))
		return false;
	if (filter->action == KVM_PMU_EVENT_ALLOW && !test_bit(fixed_idx, &bitmap))
		return false;

	return true;
}

/**
 * pmc_is_event_allowed() - Mirrors pmc_is_event_allowed() (check_pmu_event_filter() before
 * 6.18): the VM's event filter lets the counter count; GP counters by eventsel, fixed ones by
 * the fixed bitmap. Left out: SRCU.
 * @pmc: counter
 *
 * Return: true if there is no filter or it allows the counter's event.
 *
 * inline: kvm_pmu_trigger_event() asks it per emulated instruction and candidate counter, and
 * as a call it saved four registers before finding no filter (the common case).
 */
VISIBLE_FOR_TESTING inline bool pmc_is_event_allowed(const struct vpmc_pmc *pmc)
{
	const struct vpmc_pmu_event_filter *filter = pmc_to_pmu(pmc)->filter;

	if (!filter)
		return true;

	if (pmc_is_gp(pmc))
		return is_gp_event_allowed(filter, pmc->eventsel,
					   pmc_to_pmu(pmc)->ops->EVENTSEL_EVENT);

	return is_fixed_event_allowed(filter, pmc->idx);
}

/* Mirrors kvm_mediated_pmu_refresh_event_filter(): hardware counts only a locally enabled,
 * filter-allowed counter. */
static void kvm_mediated_pmu_refresh_event_filter(struct vpmc_pmc *pmc)
{
	bool allowed = pmc_is_locally_enabled(pmc) && pmc_is_event_allowed(pmc);
	struct vpmc_pmu *pmu = pmc_to_pmu(pmc);

	if (pmc_is_gp(pmc)) {
		pmc->eventsel_hw &= ~ARCH_PERFMON_EVENTSEL_ENABLE;
		if (allowed)
			pmc->eventsel_hw |= pmc->eventsel & ARCH_PERFMON_EVENTSEL_ENABLE;
	} else {
		uint64_t mask = INTEL_FIXED_BITS_MASK
				<< ((pmc->idx - KVM_FIXED_PMC_BASE_IDX) * INTEL_FIXED_BITS_STRIDE);

		pmu->fixed_ctr_ctrl_hw &= ~mask;
		if (allowed)
			pmu->fixed_ctr_ctrl_hw |= pmu->fixed_ctr_ctrl & mask;
	}
}

/**
 * reprogram_counter() - Mirrors reprogram_counter(): pause and fold; leave a disabled or
 * filtered counter paused (its emulated overflow dropped); signal an emulated overflow with the
 * *old* intr; then resume the perf event if the config is unchanged, else re-create it.
 * Mediated: only refresh the hardware selector. Left out: the pin-control printk_once().
 * @pmc: counter
 *
 * Return: 0, or the perf creation error (the drain re-queues the counter).
 */
VISIBLE_FOR_TESTING int reprogram_counter(struct vpmc_pmc *pmc)
{
	struct vpmc_pmu *pmu = pmc_to_pmu(pmc);
	uint64_t eventsel = pmc->eventsel;
	uint64_t new_config = eventsel;
	bool emulate_overflow;
	uint8_t fixed_ctr_ctrl;
	int r;

	if (pmu_host_before(pmu, 6, 8) && !kvm_vcpu_has_mediated_pmu(pmu_to_vcpu(pmu)))
		return reprogram_counter_pre_6_8(pmc);
	if (kvm_vcpu_has_mediated_pmu(pmu_to_vcpu(pmu))) {
		kvm_mediated_pmu_refresh_event_filter(pmc);
		trace_vpmc_reprogram(pmc, VPMC_REPROGRAM_MEDIATED);
		return 0;
	}

	emulate_overflow = pmc_pause_counter(pmc);

	if (!pmc_is_globally_enabled(pmc) || !pmc_is_locally_enabled(pmc) ||
	    !pmc_is_event_allowed(pmc)) {
		trace_vpmc_reprogram(pmc, VPMC_REPROGRAM_PAUSED);
		return 0;
	}

	if (emulate_overflow)
		__kvm_perf_overflow(pmc, false);

	if (pmc_is_fixed(pmc)) {
		fixed_ctr_ctrl = fixed_ctrl_field(pmu->fixed_ctr_ctrl,
						  pmc->idx - KVM_FIXED_PMC_BASE_IDX);
		if (fixed_ctr_ctrl & INTEL_FIXED_0_KERNEL)
			eventsel |= ARCH_PERFMON_EVENTSEL_OS;
		if (fixed_ctr_ctrl & INTEL_FIXED_0_USER)
			eventsel |= ARCH_PERFMON_EVENTSEL_USR;
		if (fixed_ctr_ctrl & INTEL_FIXED_0_ENABLE_PMI)
			eventsel |= ARCH_PERFMON_EVENTSEL_INT;
		new_config = (uint64_t)fixed_ctr_ctrl;
	}

	if (pmc->current_config == new_config && pmc_resume_counter(pmc)) {
		trace_vpmc_reprogram(pmc, VPMC_REPROGRAM_RESUMED);
		return 0;
	}

	pmc_release_perf_event(pmc);

	pmc->current_config = new_config;

	r = pmc_reprogram_counter(pmc, eventsel & pmu->raw_event_mask,
				  !(eventsel & ARCH_PERFMON_EVENTSEL_USR),
				  !(eventsel & ARCH_PERFMON_EVENTSEL_OS),
				  eventsel & ARCH_PERFMON_EVENTSEL_INT);
	trace_vpmc_reprogram(pmc, r ? VPMC_REPROGRAM_FAILED : VPMC_REPROGRAM_CREATED);
	return r;
}

/*
 * Mirrors pmc_is_event_match(): event select (with AMD's bits 35:32) and unit mask equal.
 * Ignored: edge (all events KVM emulates are rising edges), pin control, counter mask and its
 * invert flag (KVM does not emulate multiple events in one cycle), OS/USR/INT/EN.
 */
static inline bool pmc_is_event_match(const struct vpmc_pmc *pmc, uint64_t eventsel)
{
	return !((pmc->eventsel ^ eventsel) & AMD64_RAW_EVENT_MASK_NB);
}

/**
 * kvm_pmu_recalc_pmc_emulation() - Mirrors kvm_pmu_recalc_pmc_emulation() (5dfd498bad5f): a
 * locally enabled counter is a candidate for emulated instructions / branches if its event
 * matches.
 * @pmu: vCPU
 * @pmc: counter
 */
void kvm_pmu_recalc_pmc_emulation(struct vpmc_pmu *pmu, struct vpmc_pmc *pmc)
{
	pmu->pmc_counting_instructions &= ~BIT_ULL(pmc->idx);
	pmu->pmc_counting_branches &= ~BIT_ULL(pmc->idx);

	/*
	 * Do NOT consult the PMU event filters, as the filters must be checked at the time of
	 * emulation to ensure KVM uses fresh information.
	 */
	if (!pmc_is_locally_enabled(pmc))
		return;

	if (pmc_is_event_match(pmc, pmu->ops->INSTRUCTIONS_RETIRED))
		__set_bit(pmc->idx, &pmu->pmc_counting_instructions);
	if (pmc_is_event_match(pmc, pmu->ops->BRANCH_INSTRUCTIONS_RETIRED))
		__set_bit(pmc->idx, &pmu->pmc_counting_branches);
}

/**
 * kvm_pmu_handle_event() - Mirrors kvm_pmu_handle_event(), the KVM_REQ_PMU drain (004a0aa56ede,
 * 6.9): snapshot reprogram_pmi and clear exactly those bits, reprogram each existing counter in
 * index order, run the lazy cleanup if due, and recompute the emulation bitmaps of the
 * processed counters. Reports DRAIN.
 * @vcpu: vCPU
 */
void kvm_pmu_handle_event(struct vpmc_pmu *vcpu)
{
	uint64_t bitmap;
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);
	struct vpmc_pmc *pmc;
	int bit;

	if (pmu_host_before(pmu, 6, 9)) {
		kvm_pmu_handle_event_pre_6_9(vcpu);
		return;
	}
	trace_vpmc_drain_begin(pmu);

	bitmap_copy(&bitmap, &pmu->reprogram_pmi, X86_PMC_IDX_MAX);

	/*
	 * The reprogramming bitmap can be written asynchronously by something other than the task
	 * that holds vcpu->mutex, take care to clear only the bits that will actually processed.
	 */
	atomic64_andnot(bitmap, &pmu->__reprogram_pmi);

	kvm_for_each_pmc(pmu, pmc, bit, bitmap) {
		/*
		 * If reprogramming fails, e.g. due to contention, re-set the reprogram bit, i.e.
		 * opportunistically try again on the next PMU refresh. Don't make a new request as
		 * doing so can stall the guest if reprogramming repeatedly fails.
		 */
		if (reprogram_counter(pmc))
			set_bit(pmc->idx, &pmu->reprogram_pmi);
	}

	/*
	 * Release unused perf_events if the corresponding guest MSRs weren't accessed during the
	 * last vCPU time slice (need_cleanup is set when the vCPU is scheduled back in).
	 */
	if (pmu->need_cleanup)
		kvm_pmu_cleanup(vcpu);

	kvm_for_each_pmc(pmu, pmc, bit, bitmap)
		kvm_pmu_recalc_pmc_emulation(pmu, pmc);
	trace_vpmc_drain(pmu);
}

/**
 * kvm_pmu_check_rdpmc_early() - Mirrors kvm_pmu_check_rdpmc_early(): on AMD an invalid index
 * #GPs before the intercept; Intel has no early check.
 * @vcpu: vCPU
 * @idx: ECX
 *
 * Return: 0, or non-zero for #GP.
 */
int kvm_pmu_check_rdpmc_early(struct vpmc_pmu *vcpu, unsigned int idx)
{
	if (!vcpu->ops->check_rdpmc_early)
		return 0;

	return vcpu->ops->check_rdpmc_early(vcpu, idx);
}

/**
 * kvm_pmu_rdpmc() - Mirrors kvm_pmu_rdpmc(): #GP without a vPMU or for an index the vendor
 * does not decode; else pmc_read_counter() masked to the counter type. Left out: the VMware
 * backdoor (off) and the CR4.PCE check (set in our guests).
 * @vcpu: vCPU
 * @idx: ECX
 * @data: value read
 *
 * Return: 0, or 1 (#GP).
 */
int kvm_pmu_rdpmc(struct vpmc_pmu *vcpu, unsigned int idx, uint64_t *data)
{
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);
	struct vpmc_pmc *pmc;
	uint64_t mask = ~0ULL;

	if (pmu_host_before(pmu, 6, 9))
		return kvm_pmu_rdpmc_pre_6_9(vcpu, idx, data);

	if (!pmu->version)
		return 1;

	pmc = vcpu->ops->rdpmc_ecx_to_pmc(vcpu, idx, &mask);
	if (!pmc)
		return 1;

	*data = pmc_read_counter(pmc) & mask;
	return 0;
}

/**
 * kvm_pmu_deliver_pmi() - Mirrors kvm_pmu_deliver_pmi(), run for KVM_REQ_PMI: raise LVTPC.
 * Reports PMI with the GLOBAL_STATUS the guest's handler will find. Left out: the vendor
 * LBR-freeze hook (no guest LBRs); the in-kernel APIC is always there.
 * @vcpu: vCPU
 */
void kvm_pmu_deliver_pmi(struct vpmc_pmu *vcpu)
{
	int r;

	r = kvm_apic_local_deliver(vcpu, APIC_LVTPC);
	trace_vpmc_pmi(vcpu, r);
}

/**
 * kvm_pmu_is_valid_msr() - Mirrors kvm_pmu_is_valid_msr(): GLOBAL_STATUS/CTRL/OVF_CTRL exist
 * for PMU v2+ (on AMD guests too); anything else is the vendor's.
 * @vcpu: vCPU
 * @msr: MSR index
 *
 * Return: true if KVM's PMU handles @msr for this guest.
 */
bool kvm_pmu_is_valid_msr(struct vpmc_pmu *vcpu, uint32_t msr)
{
	switch (msr) {
	case MSR_CORE_PERF_GLOBAL_STATUS:
	case MSR_CORE_PERF_GLOBAL_CTRL:
	case MSR_CORE_PERF_GLOBAL_OVF_CTRL:
		return kvm_pmu_has_perf_global_ctrl(vcpu_to_pmu(vcpu));
	default:
		break;
	}
	return vcpu->ops->msr_idx_to_pmc(vcpu, msr) || vcpu->ops->is_valid_msr(vcpu, msr);
}

/* Mirrors kvm_pmu_mark_pmc_in_use(). */
static void kvm_pmu_mark_pmc_in_use(struct vpmc_pmu *vcpu, uint32_t msr)
{
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);
	struct vpmc_pmc *pmc = vcpu->ops->msr_idx_to_pmc(vcpu, msr);

	if (pmc)
		__set_bit(pmc->idx, &pmu->pmc_in_use);
}

/**
 * kvm_pmu_get_msr() - Mirrors kvm_pmu_get_msr(): the global MSRs (the clear/set and OVF_CTRL
 * MSRs read 0), else the vendor handler.
 * @vcpu: vCPU
 * @msr_info: index in, data out
 *
 * Return: 0, or 1 (#GP).
 */
int kvm_pmu_get_msr(struct vpmc_pmu *vcpu, struct msr_data *msr_info)
{
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);
	uint32_t msr = msr_info->index;

	switch (msr) {
	case MSR_CORE_PERF_GLOBAL_STATUS:
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS:
		msr_info->data = pmu->global_status;
		break;
	case MSR_AMD64_PERF_CNTR_GLOBAL_CTL:
	case MSR_CORE_PERF_GLOBAL_CTRL:
		msr_info->data = pmu->global_ctrl;
		break;
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR:
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET:
	case MSR_CORE_PERF_GLOBAL_OVF_CTRL:
		msr_info->data = 0;
		break;
	default:
		return vcpu->ops->get_msr(vcpu, msr_info);
	}

	return 0;
}

/**
 * kvm_pmu_set_msr() - Mirrors kvm_pmu_set_msr(): Intel #GPs on guest writes of the read-only
 * GLOBAL_STATUS and on reserved bits, AMD ignores them; GLOBAL_CTRL changes request a reprogram
 * of every changed bit; OVF_CTRL / STATUS_CLR clear status bits (guest writes only); AMD
 * STATUS_SET (6.18+) sets them; other MSRs mark the counter in use and go to the vendor.
 * Host-initiated writes (migration) may set GLOBAL_STATUS.
 * @vcpu: vCPU
 * @msr_info: index, data, host_initiated
 *
 * Return: 0, or 1 (#GP for a guest; failure for the host).
 */
int kvm_pmu_set_msr(struct vpmc_pmu *vcpu, struct msr_data *msr_info)
{
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);
	uint32_t msr = msr_info->index;
	uint64_t data = msr_info->data;
	uint64_t diff;

	policy_fold_before_write(pmu, msr_info);
	/*
	 * Note, AMD ignores writes to reserved bits and read-only PMU MSRs, whereas Intel generates
	 * #GP on attempts to write reserved/RO MSRs.
	 */
	switch (msr) {
	case MSR_CORE_PERF_GLOBAL_STATUS:
		if (!msr_info->host_initiated)
			return 1; /* RO MSR */
		/* fallthrough */
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS:
		/* Per PPR, Read-only MSR. Writes are ignored. */
		if (!msr_info->host_initiated)
			break;

		if (data & pmu->global_status_rsvd)
			return 1;

		pmu->global_status = data;
		break;
	case MSR_AMD64_PERF_CNTR_GLOBAL_CTL:
		data &= ~pmu->global_ctrl_rsvd;
		/* fallthrough */
	case MSR_CORE_PERF_GLOBAL_CTRL:
		if (!kvm_valid_perf_global_ctrl(pmu, data))
			return 1;

		if (pmu->global_ctrl != data) {
			diff = pmu->global_ctrl ^ data;
			pmu->global_ctrl = data;
			kvm_pmu_request_counters_reprogram(pmu, diff);
		}
		break;
	case MSR_CORE_PERF_GLOBAL_OVF_CTRL:
		/*
		 * GLOBAL_OVF_CTRL, a.k.a. GLOBAL STATUS_RESET, clears bits in GLOBAL_STATUS, and
		 * so the set of reserved bits is the same.
		 */
		if (data & pmu->global_status_rsvd)
			return 1;
		/* fallthrough */
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR:
		if (!msr_info->host_initiated)
			pmu->global_status &= ~data;
		break;
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET:
		if (!msr_info->host_initiated)
			pmu->global_status |= data & ~pmu->global_status_rsvd;
		break;
	default:
		kvm_pmu_mark_pmc_in_use(vcpu, msr_info->index);
		return vcpu->ops->set_msr(vcpu, msr_info);
	}

	return 0;
}

/**
 * kvm_pmu_reset() - Mirrors kvm_pmu_reset(): stop and zero every counter (GP eventsel too),
 * clear FIXED_CTR_CTRL, GLOBAL_CTRL, GLOBAL_STATUS and the reprogram bitmap. Left out: the
 * vendor reset hook (no guest LBRs).
 * @vcpu: vCPU
 */
VISIBLE_FOR_TESTING void kvm_pmu_reset(struct vpmc_pmu *vcpu)
{
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);
	struct vpmc_pmc *pmc;
	int i;

	pmu->need_cleanup = false;

	bitmap_zero(&pmu->reprogram_pmi, X86_PMC_IDX_MAX);

	kvm_for_each_pmc(pmu, pmc, i, pmu->all_valid_pmc_idx) {
		pmc_stop_counter(pmc);
		pmc->counter = 0;
		pmc->emulated_counter = 0;
		pmc->prev_counter = 0; /* hosts < 6.8: intel/amd_pmu_reset() cleared it */

		if (pmc_is_gp(pmc)) {
			pmc->eventsel = 0;
			pmc->eventsel_hw = 0;
		}
	}

	pmu->fixed_ctr_ctrl = pmu->fixed_ctr_ctrl_hw = 0;
	pmu->global_ctrl = pmu->global_status = 0;
}

/**
 * kvm_pmu_refresh() - Mirrors kvm_pmu_refresh(): reset, restore every mask to "nothing valid",
 * let the vendor derive the PMU from CPUID (@cfg), then enable all GP counters in GLOBAL_CTRL
 * as hardware does at RESET (de120e1d692d, 6.9; also v1 when mediated).
 * @vcpu: vCPU
 * @cfg: guest CPUID / PERF_CAPABILITIES; version 0 = vPMU disabled
 */
void kvm_pmu_refresh(struct vpmc_pmu *vcpu, const struct vpmc_pmu_config *cfg)
{
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);

	if (pmu_host_before(pmu, 6, 9)) {
		kvm_pmu_refresh_pre_6_9(vcpu, cfg);
		return;
	}

	/* Stop/release all existing counters/events before realizing the new vPMU model. */
	kvm_pmu_reset(vcpu);

	pmu->version = 0;
	pmu->nr_arch_gp_counters = 0;
	pmu->nr_arch_fixed_counters = 0;
	pmu->counter_bitmask[KVM_PMC_GP] = 0;
	pmu->counter_bitmask[KVM_PMC_FIXED] = 0;
	/* KVM cannot emulate AnyThread (cross-VM leak on SMT) */
	pmu->eventsel_rsvd = 0xffffffff00000000ULL | ARCH_PERFMON_EVENTSEL_ANY;
	pmu->raw_event_mask = X86_RAW_EVENT_MASK;
	pmu->global_ctrl_rsvd = ~0ULL;
	pmu->global_status_rsvd = ~0ULL;
	pmu->fixed_ctr_ctrl_rsvd = ~0ULL;
	pmu->pebs_enable_rsvd = ~0ULL;
	bitmap_zero(&pmu->all_valid_pmc_idx, X86_PMC_IDX_MAX);
	pmu->pebs = false;

	if (!cfg->version) /* kvm->arch.enable_pmu */
		return;

	vcpu->ops->refresh(vcpu, cfg);

	/*
	 * At RESET, both Intel and AMD CPUs set all enable bits for general purpose counters in
	 * IA32_PERF_GLOBAL_CTRL (so that software that was written for v1 PMUs don't unknowingly
	 * leave GP counters disabled in the global controls).
	 */
	if (pmu->nr_arch_gp_counters &&
	    (kvm_pmu_has_perf_global_ctrl(pmu) || kvm_vcpu_has_mediated_pmu(vcpu)))
		pmu->global_ctrl = BIT_ULL(pmu->nr_arch_gp_counters) - 1;
}

/**
 * kvm_pmu_init() - Mirrors kvm_pmu_init(): the vendor's init. Left out: the memset
 * (vpmc__pmu_init() clears the vCPU, ops and the vpmcsim fields included, before it calls this).
 * @vcpu: vCPU
 */
void kvm_pmu_init(struct vpmc_pmu *vcpu)
{
	vcpu->ops->init(vcpu);
}

/**
 * kvm_pmu_cleanup() - Mirrors kvm_pmu_cleanup(): release the perf events of counters that are
 * neither in use this time slice nor locally enabled (folding their count), then start a new
 * time slice.
 * @vcpu: vCPU
 */
void kvm_pmu_cleanup(struct vpmc_pmu *vcpu)
{
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);
	struct vpmc_pmc *pmc;
	uint64_t bitmask;
	int i;

	pmu->need_cleanup = false;

	bitmap_andnot(&bitmask, &pmu->all_valid_pmc_idx, &pmu->pmc_in_use, X86_PMC_IDX_MAX);

	kvm_for_each_pmc(pmu, pmc, i, bitmask) {
		if (pmc->perf_event && !pmc_is_locally_enabled(pmc))
			pmc_stop_counter(pmc);
	}

	bitmap_zero(&pmu->pmc_in_use, X86_PMC_IDX_MAX);
}

/**
 * kvm_pmu_destroy() - Mirrors kvm_pmu_destroy(): reset, which releases the perf events.
 * @vcpu: vCPU
 */
void kvm_pmu_destroy(struct vpmc_pmu *vcpu)
{
	kvm_pmu_reset(vcpu);
}

/* Mirrors pmc_is_pmi_enabled() (mediated): the *current* INT bit (GP) or PMI bit of the fixed
 * nibble, unlike the cached pmc->intr of the perf-backed path. */
static bool pmc_is_pmi_enabled(const struct vpmc_pmc *pmc)
{
	uint8_t fixed_ctr_ctrl;

	if (pmc_is_gp(pmc))
		return pmc->eventsel & ARCH_PERFMON_EVENTSEL_INT;

	fixed_ctr_ctrl = fixed_ctrl_field(pmc_to_pmu(pmc)->fixed_ctr_ctrl,
					  pmc->idx - KVM_FIXED_PMC_BASE_IDX);
	return fixed_ctr_ctrl & INTEL_FIXED_0_ENABLE_PMI;
}

/*
 * Mirrors kvm_pmu_incr_counter(). Perf-backed: accumulate the event in emulated_counter and
 * request the reprogram that detects overflow (the policy may defer it). Mediated and the
 * reference counter: count in pmc->counter and signal an overflow at once (283a5aa57b22).
 */
static void kvm_pmu_incr_counter(struct vpmc_pmc *pmc)
{
	struct vpmc_pmu *pmu = pmc_to_pmu(pmc);

	if (pmu_host_before(pmu, 6, 8) && !kvm_vcpu_has_mediated_pmu(pmu_to_vcpu(pmu))) {
		kvm_pmu_incr_counter_pre_6_8(pmc);
		return;
	}
	trace_vpmc_increment(pmc);

	/*
	 * For perf-based PMUs, accumulate software-emulated events separately from pmc->counter,
	 * as pmc->counter is offset by the count of the associated perf event. Request
	 * reprogramming, which will consult both emulated and hardware-generated events to detect
	 * overflow.
	 */
	if (!kvm_vcpu_has_mediated_pmu(pmu_to_vcpu(pmu))) {
		pmc->emulated_counter++;
		if (!policy_defer_reprogram(pmc))
			kvm_pmu_request_counter_reprogram(pmc);
		return;
	}

	/*
	 * For mediated PMUs, pmc->counter is updated when the vCPU's PMU is put, and will be
	 * loaded into hardware when the PMU is loaded. Simply increment the counter and signal
	 * overflow if it wraps to zero.
	 */
	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
	if (!pmc->counter) {
		pmu->global_status |= BIT_ULL(pmc->idx);
		trace_vpmc_overflow(pmc, BIT_ULL(pmc->idx), true);
		if (pmc_is_pmi_enabled(pmc))
			kvm_make_request(KVM_REQ_PMI, pmu_to_vcpu(pmu));
	}
}

/*
 * Mirrors cpl_is_matched() (static inline there too; it runs per candidate counter of every
 * emulated instruction): (OS, USR) from EVNTSEL bits 17/16 or the fixed nibble's bits 0/1; if
 * equal, the answer without reading the CPL; else CPL 0 -> OS, CPL 1..3 -> USR.
 */
static inline bool cpl_is_matched(const struct vpmc_pmc *pmc)
{
	bool select_os, select_user;
	uint64_t config;

	if (pmc_is_gp(pmc)) {
		config = pmc->eventsel;
		select_os = config & ARCH_PERFMON_EVENTSEL_OS;
		select_user = config & ARCH_PERFMON_EVENTSEL_USR;
	} else {
		config = fixed_ctrl_field(pmc_to_pmu(pmc)->fixed_ctr_ctrl,
					  pmc->idx - KVM_FIXED_PMC_BASE_IDX);
		select_os = config & INTEL_FIXED_0_KERNEL;
		select_user = config & INTEL_FIXED_0_USER;
	}

	/*
	 * Skip the CPL lookup, which isn't free on Intel, if the result will be the same
	 * regardless of the CPL.
	 */
	if (select_os == select_user)
		return select_os;

	return pmu_to_vcpu(pmc_to_pmu(pmc))->cpl == 0 ? select_os : select_user;
}

/*
 * The TRIGGER observation: the counters kvm_pmu_trigger_event() increments among the @bitmap
 * that passed its GLOBAL_CTRL gate, recomputed from the predicates the increments do not
 * change, and whether @event_pmcs are the instruction or the branch counters. Out of line: the
 * caller runs per emulated instruction and policy, and its frame stays small.
 */
static __attribute__((noinline)) void trace_vpmc_trigger_obs(struct vpmc_pmu *pmu,
							     const uint64_t *event_pmcs,
							     uint64_t bitmap)
{
	struct vpmc_obs o = __trace_vpmc_obs(pmu, VPMC_OBS_TRIGGER, -1);
	struct vpmc_pmc *pmc;
	int i;

	o.index = event_pmcs == &pmu->pmc_counting_branches ? PERF_COUNT_HW_BRANCH_INSTRUCTIONS
							     : PERF_COUNT_HW_INSTRUCTIONS;
	kvm_for_each_pmc(pmu, pmc, i, bitmap) {
		if (pmc_is_event_allowed(pmc) && cpl_is_matched(pmc))
			o.value |= BIT_ULL(i);
	}
	__trace_vpmc(pmu, &o);
}

/* TRIGGER (trace.h; here for pmu.c's statics): kvm_pmu_trigger_event() got past its gate. */
static inline void trace_vpmc_trigger(struct vpmc_pmu *pmu, const uint64_t *event_pmcs,
				      uint64_t bitmap)
{
	pmu->stats.triggers++;
	if (trace_vpmc_enabled(pmu, VPMC_OBS_TRIGGER))
		trace_vpmc_trigger_obs(pmu, event_pmcs, bitmap);
}

/**
 * kvm_pmu_trigger_event() - Mirrors kvm_pmu_trigger_event(): candidates from the precomputed
 * bitmap, gated by GLOBAL_CTRL (v2+), then per counter in index order the filter and
 * cpl_is_matched(), then kvm_pmu_incr_counter(). Reports TRIGGER once past the gate, before
 * the increments' own observations (an overflow). Left out: SRCU.
 * @vcpu: vCPU
 * @event_pmcs: &pmc_counting_instructions or &pmc_counting_branches
 */
VISIBLE_FOR_TESTING void kvm_pmu_trigger_event(struct vpmc_pmu *vcpu, const uint64_t *event_pmcs)
{
	uint64_t bitmap;
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);
	struct vpmc_pmc *pmc;
	int i;

	if (bitmap_empty(event_pmcs, X86_PMC_IDX_MAX))
		return;

	if (!kvm_pmu_has_perf_global_ctrl(pmu))
		bitmap_copy(&bitmap, event_pmcs, X86_PMC_IDX_MAX);
	else if (!bitmap_and(&bitmap, event_pmcs, &pmu->global_ctrl, X86_PMC_IDX_MAX))
		return;

	trace_vpmc_trigger(pmu, event_pmcs, bitmap);
	kvm_for_each_pmc(pmu, pmc, i, bitmap) {
		if (!pmc_is_event_allowed(pmc) || !cpl_is_matched(pmc))
			continue;

		kvm_pmu_incr_counter(pmc);
	}
}

/**
 * kvm_pmu_instruction_retired() - Mirrors kvm_pmu_instruction_retired() (43f5bea2639c): KVM
 * retired one instruction for the guest. The disabled=MASK policy may drop it.
 * @vcpu: vCPU
 */
void kvm_pmu_instruction_retired(struct vpmc_pmu *vcpu)
{
	if (policy_event_disabled(vcpu, PERF_COUNT_HW_INSTRUCTIONS))
		return;
	kvm_pmu_trigger_event(vcpu, &vcpu_to_pmu(vcpu)->pmc_counting_instructions);
}

/**
 * kvm_pmu_branch_retired() - Mirrors kvm_pmu_branch_retired(): KVM retired one branch for the
 * guest. The disabled=MASK policy may drop it.
 * @vcpu: vCPU
 */
void kvm_pmu_branch_retired(struct vpmc_pmu *vcpu)
{
	if (policy_event_disabled(vcpu, PERF_COUNT_HW_BRANCH_INSTRUCTIONS))
		return;
	kvm_pmu_trigger_event(vcpu, &vcpu_to_pmu(vcpu)->pmc_counting_branches);
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
		/* Skip events that are impossible to match against a guest event. */
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

	/*
	 * Sort entries by event select and includes vs. excludes so that all entries for a given
	 * event select can be processed efficiently during filtering.
	 */
	qsort(filter->events, filter->nevents, sizeof(filter->events[0]), filter_sort_cmp);

	i = filter->nevents;
	/* Find the first EXCLUDE event (only supported for masked events). */
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
 * kvm_vm_ioctl_set_pmu_event_filter() - Mirrors kvm_vm_ioctl_set_pmu_event_filter(): validate
 * and install a filter (replacing any), then mark every counter for reprogram and raise
 * KVM_REQ_PMU (f1c5651fda43), so the filter takes effect at the next drain (emulated events:
 * at once). Left out: the copies from userspace, the lock and SRCU.
 * @vcpu: vCPU (KVM: the VM, every vCPU of it)
 * @action: KVM_PMU_EVENT_ALLOW or KVM_PMU_EVENT_DENY
 * @flags: 0 or KVM_PMU_EVENT_FLAG_MASKED_EVENTS
 * @fixed_counter_bitmap: fixed counters listed
 * @events: raw eventsel entries, or KVM_PMU_ENCODE_MASKED_ENTRY() values; copied
 * @nevents: at most KVM_PMU_EVENT_FILTER_MAX_EVENTS
 *
 * Return: 0, -EINVAL (bad action, flags or masked entry), -E2BIG, or -ENOMEM.
 */
int kvm_vm_ioctl_set_pmu_event_filter(struct vpmc_pmu *vcpu, uint32_t action, uint32_t flags,
				      uint32_t fixed_counter_bitmap, const uint64_t *events,
				      uint32_t nevents)
{
	struct vpmc_pmu_event_filter *filter, *old;
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
	filter->nevents = nevents;
	filter->fixed_counter_bitmap = fixed_counter_bitmap;
	filter->flags = flags;

	if (nevents)
		memcpy(filter->events, events, nevents * sizeof(events[0]));

	r = prepare_filter_lists(filter, vcpu->ops->EVENTSEL_EVENT);
	if (r)
		goto cleanup;

	old = vcpu->filter; /* rcu_replace_pointer(): the old filter is freed below */
	vcpu->filter = filter;
	filter = old;

	atomic64_set(&vcpu_to_pmu(vcpu)->__reprogram_pmi, -1ULL);

	kvm_make_request(KVM_REQ_PMU, vcpu);

	r = 0;
cleanup:
	free(filter);
	return r;
}

/* ---- vpmcsim ---- */

/**
 * vpmc__pmu_init() - A vCPU at RESET for @cfg: kvm_pmu_init() and kvm_pmu_refresh(), after
 * the vpmcsim fields are set.
 * @pmu: storage
 * @cfg: PMU enumeration (validated by the caller)
 * @policy: accounting policy (validated by the caller)
 * @vcpu_id: for observations
 * @obs: observer or NULL; copied
 */
void vpmc__pmu_init(struct vpmc_pmu *pmu, const struct vpmc_pmu_config *cfg,
		    const struct vpmc_policy *policy, uint32_t vcpu_id,
		    const struct vpmc_observer *obs)
{
	memset(pmu, 0, sizeof(*pmu));
	pmu->ops = cfg->vendor == VPMC_VENDOR_AMD ? &amd_pmu_ops : &intel_pmu_ops;
	pmu->vendor = cfg->vendor;
	pmu->policy = *policy;
	pmu->host_kernel = cfg->host_kernel;
	pmu->mediated = policy->kind == VPMC_POLICY_MEDIATED || policy->kind == VPMC_POLICY_REFERENCE;
	pmu->reference = policy->kind == VPMC_POLICY_REFERENCE;
	pmu->vcpu_id = vcpu_id;
	if (obs)
		pmu->obs = *obs;
	pmu->lvtpc = APIC_DM_NMI;
	kvm_pmu_init(pmu);
	kvm_pmu_refresh(pmu, cfg);
}

/**
 * vpmc__pmu_destroy() - kvm_pmu_destroy(), then free the event filter as
 * kvm_arch_destroy_vm() does.
 * @pmu: vCPU
 */
void vpmc__pmu_destroy(struct vpmc_pmu *pmu)
{
	kvm_pmu_destroy(pmu);
	free(pmu->filter);
	pmu->filter = NULL;
}

/**
 * vpmc__get_sample_period() - get_sample_period(), for the guest simulation.
 * @pmc: counter
 * @counter_value: value, masked
 *
 * Return: events until a counter holding @counter_value wraps past zero.
 */
uint64_t vpmc__get_sample_period(const struct vpmc_pmc *pmc, uint64_t counter_value)
{
	return get_sample_period(pmc, counter_value);
}

/**
 * vpmc__pmc_is_event_allowed() - pmc_is_event_allowed(), for the guest simulation.
 * @pmc: counter
 *
 * Return: true if there is no filter or it allows the counter's event.
 */
bool vpmc__pmc_is_event_allowed(const struct vpmc_pmc *pmc)
{
	return pmc_is_event_allowed(pmc);
}

/**
 * vpmc__pmc_is_pmi_enabled() - pmc_is_pmi_enabled(), for the guest simulation.
 * @pmc: counter
 *
 * Return: true if an overflow of the counter raises a PMI now.
 */
bool vpmc__pmc_is_pmi_enabled(const struct vpmc_pmc *pmc)
{
	return pmc_is_pmi_enabled(pmc);
}

/**
 * vpmc__cpl_is_matched() - cpl_is_matched(), for the guest simulation.
 * @pmc: counter
 *
 * Return: true if an event at the vCPU's current CPL counts.
 */
bool vpmc__cpl_is_matched(const struct vpmc_pmc *pmc)
{
	return cpl_is_matched(pmc);
}

/* tolerance-fold: the counters a write of @data to @msr changes the counting of, as a bitmap */
static uint64_t fold_targets(struct vpmc_pmu *pmu, uint32_t msr, uint64_t data)
{
	struct vpmc_pmc *pmc;
	uint64_t diff, set = 0;
	int i;

	if (msr == MSR_CORE_PERF_GLOBAL_CTRL || msr == MSR_AMD64_PERF_CNTR_GLOBAL_CTL)
		return pmu->global_ctrl ^ data;
	if (msr == MSR_CORE_PERF_FIXED_CTR_CTRL) {
		diff = pmu->fixed_ctr_ctrl ^ data;
		for (i = 0; i < KVM_MAX_NR_FIXED_COUNTERS; i++)
			if (fixed_ctrl_field(diff, i))
				set |= BIT_ULL(KVM_FIXED_PMC_BASE_IDX + i);
		return set;
	}
	pmc = pmu->ops->msr_idx_to_pmc(pmu, msr);
	if (!pmc && pmu->vendor == VPMC_VENDOR_INTEL)
		pmc = get_gp_pmc(pmu, msr, MSR_IA32_PMC0); /* the full-width alias */
	return pmc ? BIT_ULL(pmc->idx) : 0;
}

/**
 * vpmc__policy_fold() - tolerance-fold=T, before kvm_pmu_set_msr() applies a guest or host write:
 * for every counter the write changes the counting of whose pending emulated events wrap it
 * (pmc_read_counter() below its value without them), fold them as the drain would
 * (pmc_pause_counter()), signal the overflow if the counter counts under the configuration
 * still in force (the one that counted them: kvm_pmu_trigger_event() gates every increment on
 * it), and request the reprogram that resumes the paused counter. Pending events that do not
 * wrap are left alone: the drain folds them under the new configuration, a counter write
 * replaces them, and no overflow is at stake. exact never has pending events at a WRMSR (each
 * exit drains at its entry), so the fold is the drain exact would have run; without it,
 * reprogram_counter() after a disabling write drops the overflow.
 * @pmu: vCPU
 * @msr_info: the write, not yet applied
 */
void vpmc__policy_fold(struct vpmc_pmu *pmu, const struct msr_data *msr_info)
{
	uint64_t targets = fold_targets(pmu, msr_info->index, msr_info->data), now;
	struct vpmc_pmc *pmc;
	int idx;

	for (idx = 0; idx < X86_PMC_IDX_MAX; idx++) {
		pmc = (targets & BIT_ULL(idx)) ? kvm_pmc_idx_to_pmc(pmu, idx) : NULL;
		if (!pmc || !pmc->emulated_counter)
			continue;
		/* only a wrap is at stake: the drain folds the count, a counter write replaces it */
		now = pmc_read_counter(pmc);
		if (now >= ((now - pmc->emulated_counter) & pmc_bitmask(pmc)))
			continue;
		if (pmc_pause_counter(pmc) && pmc_is_globally_enabled(pmc) &&
		    pmc_is_locally_enabled(pmc) && pmc_is_event_allowed(pmc))
			__kvm_perf_overflow(pmc, false);
		kvm_pmu_request_counter_reprogram(pmc);
	}
}

#ifdef VPMC_TESTING
/**
 * vpmc__pmu_deliver_skid() - Raise the perf overflow interrupts that simperf's inject.skid held
 * back, in counter order, at the current time (a PMI that skidded past a VM-exit).
 * @pmu: vCPU
 */
void vpmc__pmu_deliver_skid(struct vpmc_pmu *pmu)
{
	int i;

	for (i = 0; i < KVM_MAX_NR_GP_COUNTERS; i++)
		simperf_deliver_skid(&pmu->gp_counters[i].perf);
	for (i = 0; i < KVM_MAX_NR_FIXED_COUNTERS; i++)
		simperf_deliver_skid(&pmu->fixed_counters[i].perf);
	/*
	 * One NMI handled them all; then the irq_work it queued (before 6.6) runs once:
	 * kvm_pmi_trigger_fn() delivers the PMI now, during the exit, not at the next entry.
	 */
	if (pmu->irq_work) {
		pmu->irq_work = false;
		kvm_pmu_deliver_pmi(pmu_to_vcpu(pmu));
	}
}
#endif

/*
 * kvm_pmu_handle_event() before 004a0aa56ede (6.9): each bit is cleared after its counter's
 * reprogram, so an overflow handler running in between finds its bit set and is dropped (fix
 * 21); a counter that fails keeps its bit.
 */
static void kvm_pmu_handle_event_pre_6_9(struct vpmc_pmu *vcpu)
{
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);
	uint64_t done = 0;
	struct vpmc_pmc *pmc;
	int bit;

	trace_vpmc_drain_begin(pmu);

	for (bit = 0; bit < X86_PMC_IDX_MAX; bit++) {
		if (!test_bit(bit, &pmu->reprogram_pmi))
			continue;
		pmc = kvm_pmc_idx_to_pmc(pmu, bit);
		if (!pmc) {
			pmu->reprogram_pmi &= ~BIT_ULL(bit);
			continue;
		}
		done |= BIT_ULL(bit);
		if (!reprogram_counter(pmc))
			pmu->reprogram_pmi &= ~BIT_ULL(bit);
	}

	if (pmu->need_cleanup)
		kvm_pmu_cleanup(vcpu);

	kvm_for_each_pmc(pmu, pmc, bit, done)
		kvm_pmu_recalc_pmc_emulation(pmu, pmc);
	trace_vpmc_drain(pmu);
}

/*
 * kvm_pmu_rdpmc() before d652981db08f ("KVM: x86/pmu: Apply "fast" RDPMC only to Intel PMUs",
 * 6.9): ECX bit 31 ("fast") made the guest read the low 32 bits of the counter, on Intel and
 * AMD alike; the vendor decoded the index with bits 31:30 dropped. Left out as in the twin.
 */
static int kvm_pmu_rdpmc_pre_6_9(struct vpmc_pmu *vcpu, unsigned int idx, uint64_t *data)
{
	bool fast_mode = idx & (1U << 31);
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);
	struct vpmc_pmc *pmc;
	uint64_t mask = fast_mode ? ~0U : ~0ULL;

	if (!pmu->version)
		return 1;

	pmc = vcpu->ops->rdpmc_ecx_to_pmc(vcpu, idx, &mask);
	if (!pmc)
		return 1;

	*data = pmc_read_counter(pmc) & mask;
	return 0;
}

/* kvm_pmu_refresh() before de120e1d692d (6.9): GLOBAL_CTRL stays 0 at RESET. */
static void kvm_pmu_refresh_pre_6_9(struct vpmc_pmu *vcpu, const struct vpmc_pmu_config *cfg)
{
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);

	kvm_pmu_reset(vcpu);

	pmu->version = 0;
	pmu->nr_arch_gp_counters = 0;
	pmu->nr_arch_fixed_counters = 0;
	pmu->counter_bitmask[KVM_PMC_GP] = 0;
	pmu->counter_bitmask[KVM_PMC_FIXED] = 0;
	pmu->eventsel_rsvd = 0xffffffff00000000ULL | ARCH_PERFMON_EVENTSEL_ANY;
	pmu->raw_event_mask = X86_RAW_EVENT_MASK;
	pmu->global_ctrl_rsvd = ~0ULL;
	pmu->global_status_rsvd = ~0ULL;
	pmu->fixed_ctr_ctrl_rsvd = ~0ULL;
	pmu->pebs_enable_rsvd = ~0ULL;
	bitmap_zero(&pmu->all_valid_pmc_idx, X86_PMC_IDX_MAX);
	pmu->pebs = false;

	if (!cfg->version)
		return;

	vcpu->ops->refresh(vcpu, cfg);
}

/*
 * pmc_pause_counter() and reprogram_counter() from de0f619564f4 (6.2) to fd89499a5151 (6.8):
 * overflow is "counter < prev_counter", prev_counter being the counter before the last emulated
 * increment (which counted in pmc->counter directly); reprogram_complete clears prev_counter.
 */
static bool pmc_pause_counter_pre_6_8(struct vpmc_pmc *pmc)
{
	uint64_t counter = pmc->counter;

	/* update counter, reset event value to avoid redundant accumulation */
	if (pmc->perf_event && !pmc->is_paused) {
		counter += simperf_pause(pmc->perf_event, true);
		trace_vpmc_perf_pause(pmc);
		pmc->is_paused = true;
	}
	pmc->counter = counter & pmc_bitmask(pmc);
	return pmc->counter < pmc->prev_counter;
}

static int reprogram_counter_pre_6_8(struct vpmc_pmc *pmc)
{
	struct vpmc_pmu *pmu = pmc_to_pmu(pmc);
	uint64_t eventsel = pmc->eventsel;
	uint64_t new_config = eventsel;
	bool emulate_overflow;
	uint8_t fixed_ctr_ctrl;
	int r;

	emulate_overflow = pmc_pause_counter(pmc);

	if (!pmc_is_globally_enabled(pmc) || !pmc_is_locally_enabled(pmc) ||
	    !pmc_is_event_allowed(pmc)) {
		pmc->prev_counter = 0;
		trace_vpmc_reprogram(pmc, VPMC_REPROGRAM_PAUSED);
		return 0;
	}

	if (emulate_overflow)
		__kvm_perf_overflow(pmc, false);
	pmc->prev_counter = 0;

	if (pmc_is_fixed(pmc)) {
		fixed_ctr_ctrl = fixed_ctrl_field(pmu->fixed_ctr_ctrl,
						  pmc->idx - KVM_FIXED_PMC_BASE_IDX);
		if (fixed_ctr_ctrl & INTEL_FIXED_0_KERNEL)
			eventsel |= ARCH_PERFMON_EVENTSEL_OS;
		if (fixed_ctr_ctrl & INTEL_FIXED_0_USER)
			eventsel |= ARCH_PERFMON_EVENTSEL_USR;
		if (fixed_ctr_ctrl & INTEL_FIXED_0_ENABLE_PMI)
			eventsel |= ARCH_PERFMON_EVENTSEL_INT;
		new_config = (uint64_t)fixed_ctr_ctrl;
	}

	if (pmc->current_config == new_config && pmc_resume_counter(pmc)) {
		trace_vpmc_reprogram(pmc, VPMC_REPROGRAM_RESUMED);
		return 0;
	}

	pmc_release_perf_event(pmc);

	pmc->current_config = new_config;

	r = pmc_reprogram_counter(pmc, eventsel & pmu->raw_event_mask,
				  !(eventsel & ARCH_PERFMON_EVENTSEL_USR),
				  !(eventsel & ARCH_PERFMON_EVENTSEL_OS),
				  eventsel & ARCH_PERFMON_EVENTSEL_INT);
	trace_vpmc_reprogram(pmc, r ? VPMC_REPROGRAM_FAILED : VPMC_REPROGRAM_CREATED);
	return r;
}

/*
 * kvm_pmu_incr_counter() from de0f619564f4 (6.2) to fd89499a5151 (6.8): count in pmc->counter
 * directly, remembering the value before, and always request the reprogram (no policy defers it).
 */
static void kvm_pmu_incr_counter_pre_6_8(struct vpmc_pmc *pmc)
{
	trace_vpmc_increment(pmc);

	pmc->prev_counter = pmc->counter;
	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
	kvm_pmu_request_counter_reprogram(pmc);
}

/*
 * pmc_write_counter() before b29a2acd36dd ("KVM: x86/pmu: Truncate counter value to allowed
 * width on write", 6.6): the vendors' set_msr did "pmc->counter += data - pmc_read_counter(pmc)"
 * and kept the bits above the counter's width (a sign-extended 0xc1 write, any AMD write). The
 * next emulated increment masks the counter, so its "counter < prev_counter" (6.2-6.7) reports
 * an overflow: GLOBAL_STATUS and, with INT, a PMI.
 */
static void pmc_write_counter_pre_6_6(struct vpmc_pmc *pmc, uint64_t val)
{
	pmc->counter += val - pmc_read_counter(pmc);
	pmc_update_sample_period(pmc);
}

/*
 * __kvm_perf_overflow() before 73554b29bd70 ("KVM: x86: Synthesize at most one PMI per
 * VM-exit", 6.6): a host PMI that is not the NMI of a VM-exit from the guest (one that skidded
 * past the exit) queues the irq_work, which delivers its own PMI during the exit; an emulated
 * overflow in the same exit then raises KVM_REQ_PMI, a second PMI at the entry. In a replay
 * every host PMI interrupts guest mode (guest.c): only an injected skid takes the irq_work.
 */
static void __kvm_perf_overflow_pre_6_6(struct vpmc_pmc *pmc, bool in_pmi)
{
	struct vpmc_pmu *pmu = pmc_to_pmu(pmc);
	bool skip_pmi = false;

	if (pmc->perf_event && pmc->perf_event->attr.precise) {
		if (!in_pmi) {
			/* KVM chooses not to generate PEBS records for emulated instructions */
			skip_pmi = true;
		} else {
			/* Indicate PEBS overflow PMI to guest. */
			skip_pmi = __test_and_set_bit(GLOBAL_STATUS_BUFFER_OVF_BIT,
						      &pmu->global_status);
			trace_vpmc_overflow(pmc, GLOBAL_STATUS_BUFFER_OVF, false);
		}
	} else {
		__set_bit(pmc->idx, &pmu->global_status);
		trace_vpmc_overflow(pmc, BIT_ULL(pmc->idx), !in_pmi);
	}

	if (!pmc->intr || skip_pmi)
		return;

	/*
	 * Inject PMI. If vcpu was in a guest mode during NMI PMI can be ejected on a guest mode
	 * re-entry. Otherwise the irq_work wakes it (irq_work_queue(): at most once until it runs).
	 */
	if (in_pmi && !kvm_handling_nmi_from_guest(pmu_to_vcpu(pmu)))
		pmu->irq_work = true;
	else
		kvm_make_request(KVM_REQ_PMI, pmu_to_vcpu(pmu));
}
