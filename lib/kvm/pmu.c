/*
 * pmu.c - KVM's x86 vPMU, function for function: arch/x86/kvm/pmu.c and pmu.h (B-7.0,
 * kvm-vpmu-semantics.md §0.1), the PMU cases of x86.c, and LVTPC delivery from lapic.c.
 *
 * Names, argument order and quirks are the kernel's; each function says which one it mirrors.
 * "pmu" stands for the vCPU: struct vpmc_pmu also carries the requests, CPL and LVTPC that
 * KVM keeps in struct kvm_vcpu. Policies plug in at kvm_pmu_incr_counter() and the retirement
 * hooks (Appendix A). Legacy behaviour of older hosts is selected by pmu->host_kernel; each
 * switch names the commit that changed it.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"
#include "trace.h"

/* Mediated-era KVM (kvm_vcpu_has_mediated_pmu()) and our reference counter count in
 * pmc->counter directly; perf-backed KVM keeps a base plus live and pending counts. */
static bool pmu_prev_counter_scheme(const struct vpmc_pmu *pmu)
{
	/* de0f619564f4 (6.2) .. fd89499a5151 (6.8): overflow via pmc->prev_counter */
	return pmu_host_before(pmu, 6, 8);
}

/**
 * pmc_bitmask() - Mirrors pmc_bitmask() (pmu.h): the counter's width mask.
 * @pmc: counter
 *
 * Return: (1 << width) - 1 for the counter's type (GP or fixed).
 */
uint64_t pmc_bitmask(const struct vpmc_pmc *pmc)
{
	return pmc->pmu->counter_bitmask[pmc->type];
}

/**
 * get_sample_period() - Mirrors get_sample_period() (pmu.c): events until a counter holding
 * @counter_value wraps past zero; a full wrap (mask + 1) for 0.
 * @pmc: counter
 * @counter_value: value, masked
 *
 * Return: the perf sample period, events.
 */
uint64_t get_sample_period(const struct vpmc_pmc *pmc, uint64_t counter_value)
{
	uint64_t sample_period = (-counter_value) & pmc_bitmask(pmc);

	if (!sample_period)
		sample_period = pmc_bitmask(pmc) + 1;
	return sample_period;
}

/**
 * pmc_read_counter() - Mirrors pmc_read_counter() (pmu.h): the guest-visible value, base +
 * pending emulated events + what the live perf event counted, masked. Never detects overflow.
 * @pmc: counter
 *
 * Return: the counter value the guest reads, events.
 */
uint64_t pmc_read_counter(const struct vpmc_pmc *pmc)
{
	uint64_t counter;

	if (kvm_vcpu_has_mediated_pmu(pmc->pmu))
		return pmc->counter & pmc_bitmask(pmc);

	counter = pmc->counter + pmc->emulated_counter;
	if (pmc->perf_event && !pmc->is_paused)
		counter += simperf_read(pmc->perf_event);
	return counter & pmc_bitmask(pmc);
}

/* Mirrors pmc_update_sample_period() (pmu.c): re-arm a running sampling event. */
static void pmc_update_sample_period(struct vpmc_pmc *pmc)
{
	if (!pmc->perf_event || pmc->is_paused || !simperf_is_sampling(pmc->perf_event))
		return;
	simperf_period(pmc->perf_event, get_sample_period(pmc, pmc->counter));
}

/**
 * pmc_write_counter() - Mirrors pmc_write_counter() (pmu.c): drop pending emulated events, make
 * the guest-visible value @val (masked) relative to the live perf count, and re-arm the perf
 * period from the new base (which excludes the live count: the §2.9 drift). Never reports an
 * overflow and requests no reprogram. Mediated: counter = val & mask.
 * @pmc: counter
 * @val: value written, events (already sign-extended by the caller where the MSR does it)
 */
void pmc_write_counter(struct vpmc_pmc *pmc, uint64_t val)
{
	if (kvm_vcpu_has_mediated_pmu(pmc->pmu)) {
		pmc->counter = val & pmc_bitmask(pmc);
		return;
	}

	pmc->emulated_counter = 0;
	pmc->counter += val - pmc_read_counter(pmc);
	pmc->counter &= pmc_bitmask(pmc);
	pmc_update_sample_period(pmc);
}

/**
 * pmc_is_locally_enabled() - Mirrors pmc_is_locally_enabled() (pmu.h; pmc_speculative_in_use()
 * before 6.18): GP: EVNTSEL.EN; fixed: OS or USR set in its FIXED_CTR_CTRL nibble.
 * @pmc: counter
 *
 * Return: true if the counter is enabled by its own control.
 */
bool pmc_is_locally_enabled(const struct vpmc_pmc *pmc)
{
	if (pmc_is_fixed(pmc))
		return fixed_ctrl_field(pmc->pmu->fixed_ctr_ctrl,
					pmc->idx - KVM_FIXED_PMC_BASE_IDX) &
		       (INTEL_FIXED_0_KERNEL | INTEL_FIXED_0_USER);
	return pmc->eventsel & ARCH_PERFMON_EVENTSEL_ENABLE;
}

/**
 * pmc_is_globally_enabled() - Mirrors pmc_is_globally_enabled() (pmu.h): the counter's
 * GLOBAL_CTRL bit; always true on a PMU without GLOBAL_CTRL (v1, 98defd2e1780).
 * @pmc: counter
 *
 * Return: true if globally enabled.
 */
bool pmc_is_globally_enabled(const struct vpmc_pmc *pmc)
{
	if (!kvm_pmu_has_perf_global_ctrl(pmc->pmu))
		return true;
	return pmc->pmu->global_ctrl & BIT_ULL(pmc->idx);
}

/**
 * pmc_is_event_allowed() - Mirrors pmc_is_event_allowed() (pmu.c; check_pmu_event_filter()
 * before 6.18): the VM's event filter lets the counter count.
 * @pmc: counter
 *
 * Return: true if there is no filter or it allows the counter's event.
 */
bool pmc_is_event_allowed(const struct vpmc_pmc *pmc)
{
	if (!pmc->pmu->filter)
		return true;
	return pmu_event_filter_allows(pmc->pmu, pmc);
}

/**
 * pmc_is_pmi_enabled() - Mirrors pmc_is_pmi_enabled() (pmu.c, mediated): the *current* INT bit
 * (GP) or PMI bit of the fixed nibble, unlike the cached pmc->intr of the perf-backed path.
 * @pmc: counter
 *
 * Return: true if an overflow of the counter raises a PMI now.
 */
bool pmc_is_pmi_enabled(const struct vpmc_pmc *pmc)
{
	if (pmc_is_gp(pmc))
		return pmc->eventsel & ARCH_PERFMON_EVENTSEL_INT;
	return fixed_ctrl_field(pmc->pmu->fixed_ctr_ctrl, pmc->idx - KVM_FIXED_PMC_BASE_IDX) &
	       INTEL_FIXED_0_ENABLE_PMI;
}

/**
 * pmc_is_event_match() - Mirrors pmc_is_event_match() (pmu.c): event select (with AMD's bits
 * 35:32) and unit mask equal; edge, pin, invert, cmask, OS/USR/INT/EN ignored.
 * @pmc: counter
 * @eventsel: selector (kvm_pmu_eventsel)
 *
 * Return: true on a match.
 */
bool pmc_is_event_match(const struct vpmc_pmc *pmc, uint64_t eventsel)
{
	return !((pmc->eventsel ^ eventsel) & AMD64_RAW_EVENT_MASK_NB);
}

/**
 * kvm_pmc_idx_to_pmc() - Mirrors kvm_pmc_idx_to_pmc() (pmu.h): the counter at a global index.
 * @pmu: vCPU
 * @idx: GP 0.., fixed 32..
 *
 * Return: the counter, or NULL if it does not exist.
 */
struct vpmc_pmc *kvm_pmc_idx_to_pmc(struct vpmc_pmu *pmu, int idx)
{
	if (idx < 0 || idx >= 64 || !(pmu->all_valid_pmc_idx & BIT_ULL(idx)))
		return NULL;
	if (idx < KVM_MAX_NR_GP_COUNTERS)
		return &pmu->gp_counters[idx];
	if (idx >= KVM_FIXED_PMC_BASE_IDX && idx < KVM_FIXED_PMC_BASE_IDX + KVM_MAX_NR_FIXED_COUNTERS)
		return &pmu->fixed_counters[idx - KVM_FIXED_PMC_BASE_IDX];
	return NULL;
}

/**
 * get_gp_pmc() - Mirrors get_gp_pmc() (pmu.h): the GP counter of @msr in the block at @base.
 * @pmu: vCPU
 * @msr: MSR index
 * @base: first MSR of the block (PERFCTR0, EVNTSEL0, PMC0)
 *
 * Return: the counter, or NULL if @msr is outside the block or the counter does not exist.
 */
struct vpmc_pmc *get_gp_pmc(struct vpmc_pmu *pmu, uint32_t msr, uint32_t base)
{
	if (msr >= base && msr < base + KVM_MAX_NR_GP_COUNTERS)
		return kvm_pmc_idx_to_pmc(pmu, (int)(msr - base));
	return NULL;
}

/**
 * get_fixed_pmc() - Mirrors get_fixed_pmc() (pmu.h): the fixed counter of FIXED_CTRi.
 * @pmu: vCPU
 * @msr: MSR index
 *
 * Return: the counter, or NULL.
 */
struct vpmc_pmc *get_fixed_pmc(struct vpmc_pmu *pmu, uint32_t msr)
{
	if (msr >= MSR_CORE_PERF_FIXED_CTR0 && msr < MSR_CORE_PERF_FIXED_CTR0 + KVM_MAX_NR_FIXED_COUNTERS)
		return kvm_pmc_idx_to_pmc(pmu, (int)(msr - MSR_CORE_PERF_FIXED_CTR0) +
						       KVM_FIXED_PMC_BASE_IDX);
	return NULL;
}

/**
 * __kvm_perf_overflow() - Mirrors __kvm_perf_overflow() (pmu.c): set the counter's
 * GLOBAL_STATUS bit and, if the *cached* pmc->intr says so, raise KVM_REQ_PMI. A PEBS counter
 * instead sets BUFFER_OVF from a hardware PMI (no second PMI while it is set) and nothing at all
 * from the emulated path (f331601c65ad).
 * @pmc: counter
 * @in_pmi: true from the perf overflow handler, false from the drain (emulated overflow)
 */
void __kvm_perf_overflow(struct vpmc_pmc *pmc, bool in_pmi)
{
	struct vpmc_pmu *pmu = pmc->pmu;
	bool skip_pmi = false;

	if (pmc->perf_event && pmc->perf_event->attr.precise) {
		if (!in_pmi) {
			skip_pmi = true;
		} else {
			skip_pmi = pmu->global_status & GLOBAL_STATUS_BUFFER_OVF;
			pmu->global_status |= GLOBAL_STATUS_BUFFER_OVF;
			trace_vpmc_overflow(pmc, GLOBAL_STATUS_BUFFER_OVF, false);
		}
	} else {
		pmu->global_status |= BIT_ULL(pmc->idx);
		trace_vpmc_overflow(pmc, BIT_ULL(pmc->idx), !in_pmi);
	}

	if (pmc->intr && !skip_pmi)
		pmu->requests |= KVM_REQ_PMI;
}

/**
 * kvm_perf_overflow() - Mirrors kvm_perf_overflow() (pmu.c), perf's overflow handler: ignored if
 * the counter's reprogram bit is already set (test_and_set_bit: trap 13), else signal the
 * overflow and raise KVM_REQ_PMU so the drain re-arms the counter.
 * @perf_event: the counter's perf event; its context is the counter
 */
static void kvm_perf_overflow(struct simperf_event *perf_event)
{
	struct vpmc_pmc *pmc = perf_event->overflow_handler_context;
	struct vpmc_pmu *pmu = pmc->pmu;

	if (pmu->reprogram_pmi & BIT_ULL(pmc->idx))
		return;
	pmu->reprogram_pmi |= BIT_ULL(pmc->idx);

	__kvm_perf_overflow(pmc, true);
	pmu->requests |= KVM_REQ_PMU;
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
}
#endif

/**
 * pmc_reprogram_counter() - Mirrors pmc_reprogram_counter() (pmu.c): create the perf event with
 * period get_sample_period(counter) (0 for IN_TXCP events), user/kernel exclusion, and precise
 * if the counter's PEBS_ENABLE bit is set; on success cache intr = INT || PEBS.
 * @pmc: counter, without a perf event
 * @config: eventsel & raw_event_mask
 * @exclude_user: !USR
 * @exclude_kernel: !OS
 * @intr: INT
 *
 * Return: 0, or perf's error (-EBUSY) when creation fails.
 */
int pmc_reprogram_counter(struct vpmc_pmc *pmc, uint64_t config, bool exclude_user,
			  bool exclude_kernel, bool intr)
{
	struct vpmc_pmu *pmu = pmc->pmu;
	bool pebs = pmu->pebs_enable & BIT_ULL(pmc->idx);
	int r;
	struct simperf_attr attr = {
		.config = config,
		.sample_period = get_sample_period(pmc, pmc->counter),
		.exclude_user = exclude_user,
		.exclude_kernel = exclude_kernel,
		.precise = pebs,
	};

	/* HSW_IN_TX_CHECKPOINTED is not supported with a non-zero period */
	if (attr.config & HSW_IN_TX_CHECKPOINTED)
		attr.sample_period = 0;

	r = simperf_create(&pmc->perf, &attr, kvm_perf_overflow, pmc);
	if (r)
		return r;
	pmc->perf_event = &pmc->perf;
	pmu->event_count++;
	trace_vpmc_perf_create(pmc);
	pmc->is_paused = false;
	pmc->intr = intr || pebs;
	return 0;
}

/**
 * pmc_pause_counter() - Mirrors pmc_pause_counter() (pmu.c, fd89499a5151): fold the live perf
 * count into counter, snapshot, then fold the pending emulated events; the counter is paused.
 * Hosts < 6.8 (de0f619564f4): fold the perf count only; overflow is counter < prev_counter.
 * @pmc: counter
 *
 * Return: true if the emulated events wrapped the counter (an emulated overflow).
 */
bool pmc_pause_counter(struct vpmc_pmc *pmc)
{
	uint64_t counter = pmc->counter;
	uint64_t prev_counter;

	if (pmc->perf_event && !pmc->is_paused) {
		counter += simperf_pause(pmc->perf_event, true);
		trace_vpmc_perf_pause(pmc);
		if (pmu_prev_counter_scheme(pmc->pmu))
			pmc->is_paused = true;
	}
	if (pmu_prev_counter_scheme(pmc->pmu)) {
		pmc->counter = counter & pmc_bitmask(pmc);
		return pmc->counter < pmc->prev_counter;
	}

	/* if hardware already wrapped the counter, that overflow is perf's business */
	prev_counter = counter & pmc_bitmask(pmc);

	counter += pmc->emulated_counter;
	pmc->counter = counter & pmc_bitmask(pmc);

	pmc->emulated_counter = 0;
	pmc->is_paused = true;

	return pmc->counter < prev_counter;
}

/**
 * pmc_resume_counter() - Mirrors pmc_resume_counter() (pmu.c): reuse the perf event if perf
 * accepts the new period and its precise level still matches PEBS_ENABLE.
 * @pmc: counter
 *
 * Return: true if the event was re-armed and enabled; false if it must be re-created.
 */
bool pmc_resume_counter(struct vpmc_pmc *pmc)
{
	if (!pmc->perf_event)
		return false;

	if (simperf_is_sampling(pmc->perf_event) &&
	    simperf_period(pmc->perf_event, get_sample_period(pmc, pmc->counter)))
		return false;

	if (!!(pmc->pmu->pebs_enable & BIT_ULL(pmc->idx)) != pmc->perf_event->attr.precise)
		return false;

	simperf_enable(pmc->perf_event);
	pmc->is_paused = false;
	trace_vpmc_perf_resume(pmc);
	return true;
}

/**
 * pmc_release_perf_event() - Mirrors pmc_release_perf_event() (pmu.c): destroy the perf event;
 * current_config = 0. pmc->intr is left as it was (stale).
 * @pmc: counter
 */
void pmc_release_perf_event(struct vpmc_pmc *pmc)
{
	if (!pmc->perf_event)
		return;
	simperf_release(pmc->perf_event);
	pmc->perf_event = NULL;
	pmc->current_config = 0;
	pmc->pmu->event_count--;
	trace_vpmc_perf_release(pmc);
}

/**
 * pmc_stop_counter() - Mirrors pmc_stop_counter() (pmu.c): counter = pmc_read_counter(), then
 * release the perf event (reset and lazy cleanup).
 * @pmc: counter
 */
void pmc_stop_counter(struct vpmc_pmc *pmc)
{
	if (!pmc->perf_event)
		return;
	pmc->counter = pmc_read_counter(pmc);
	pmc_release_perf_event(pmc);
}

/**
 * reprogram_counter() - Mirrors reprogram_counter() (pmu.c): pause and fold; leave a disabled
 * or filtered counter paused (its emulated overflow dropped); signal an emulated overflow with
 * the *old* intr; then resume the perf event if the config is unchanged, else re-create it.
 * Mediated: only refresh the hardware selector (kvm_mediated_pmu_refresh_event_filter()).
 * @pmc: counter
 *
 * Return: 0, or the perf creation error (the drain re-queues the counter).
 */
int reprogram_counter(struct vpmc_pmc *pmc)
{
	struct vpmc_pmu *pmu = pmc->pmu;
	uint64_t eventsel = pmc->eventsel;
	uint64_t new_config = eventsel;
	bool emulate_overflow;
	int r;

	if (kvm_vcpu_has_mediated_pmu(pmu)) {
		kvm_mediated_pmu_refresh_event_filter(pmc);
		trace_vpmc_reprogram(pmc, VPMC_REPROGRAM_MEDIATED);
		return 0;
	}

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
		uint64_t fixed_ctr_ctrl = fixed_ctrl_field(pmu->fixed_ctr_ctrl,
							   pmc->idx - KVM_FIXED_PMC_BASE_IDX);

		if (fixed_ctr_ctrl & INTEL_FIXED_0_KERNEL)
			eventsel |= ARCH_PERFMON_EVENTSEL_OS;
		if (fixed_ctr_ctrl & INTEL_FIXED_0_USER)
			eventsel |= ARCH_PERFMON_EVENTSEL_USR;
		if (fixed_ctr_ctrl & INTEL_FIXED_0_ENABLE_PMI)
			eventsel |= ARCH_PERFMON_EVENTSEL_INT;
		new_config = fixed_ctr_ctrl;
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

/* Hosts < 6.9: bits are cleared per counter after its reprogram (before 004a0aa56ede), so an
 * overflow handler running in between finds its bit set and is dropped. */
static uint64_t kvm_pmu_handle_event_legacy(struct vpmc_pmu *pmu)
{
	uint64_t done = 0;
	int bit;

	for (bit = 0; bit < 64; bit++) {
		struct vpmc_pmc *pmc;

		if (!(pmu->reprogram_pmi & BIT_ULL(bit)))
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
	return done;
}

/**
 * kvm_pmu_handle_event() - Mirrors kvm_pmu_handle_event() (pmu.c), the KVM_REQ_PMU drain:
 * snapshot reprogram_pmi and clear exactly those bits, reprogram each existing counter in
 * index order (a failure re-sets its bit without a new KVM_REQ_PMU), run the lazy cleanup if
 * due, and recompute the emulation bitmaps of the processed counters. Reports DRAIN.
 * @pmu: vCPU
 */
void kvm_pmu_handle_event(struct vpmc_pmu *pmu)
{
	struct vpmc_pmc *pmc;
	uint64_t bitmap;
	int bit;

	trace_vpmc_drain_begin(pmu);
	if (pmu_host_before(pmu, 6, 9)) {
		bitmap = kvm_pmu_handle_event_legacy(pmu);
	} else {
		bitmap = pmu->reprogram_pmi;
		pmu->reprogram_pmi &= ~bitmap;
		kvm_for_each_pmc(pmu, pmc, bit, bitmap) {
			if (reprogram_counter(pmc))
				pmu->reprogram_pmi |= BIT_ULL(bit);
		}
	}

	if (pmu->need_cleanup)
		kvm_pmu_cleanup(pmu);

	kvm_for_each_pmc(pmu, pmc, bit, bitmap)
		kvm_pmu_recalc_pmc_emulation(pmu, pmc);
	trace_vpmc_drain(pmu);
}

/*
 * Mirrors kvm_apic_local_deliver(apic, APIC_LVTPC) (lapic.c): deliver unless LVTPC is masked,
 * then mask LVTPC for Intel-compatible guests (a16eb25b09c0, ~6.6; AMD excluded since
 * 49ff3b4aec51, ~6.9). The in-kernel APIC is always hardware-enabled here.
 */
static bool kvm_apic_local_deliver_lvtpc(struct vpmc_pmu *pmu)
{
	bool mask_after;

	if (pmu->lvtpc & APIC_LVT_MASKED)
		return false;
	mask_after = !pmu_host_before(pmu, 6, 6) &&
		     (pmu->vendor == VPMC_VENDOR_INTEL || pmu_host_before(pmu, 6, 9));
	if (mask_after)
		pmu->lvtpc |= APIC_LVT_MASKED;
	return true;
}

/**
 * kvm_pmu_deliver_pmi() - Mirrors kvm_pmu_deliver_pmi() (pmu.c), run for KVM_REQ_PMI: raise
 * LVTPC (the vendor LBR-freeze hook has nothing to do: no guest LBRs). Reports PMI with the
 * GLOBAL_STATUS the guest's handler will find.
 * @pmu: vCPU
 */
void kvm_pmu_deliver_pmi(struct vpmc_pmu *pmu)
{
	bool delivered;

	delivered = kvm_apic_local_deliver_lvtpc(pmu);
	trace_vpmc_pmi(pmu, delivered);
}

/**
 * kvm_pmu_recalc_pmc_emulation() - Mirrors kvm_pmu_recalc_pmc_emulation() (pmu.c, 5dfd498bad5f):
 * a locally enabled counter is a candidate for emulated instructions / branches if its event
 * matches; the filter and global enable are checked at trigger time instead.
 * @pmu: vCPU
 * @pmc: counter
 */
void kvm_pmu_recalc_pmc_emulation(struct vpmc_pmu *pmu, struct vpmc_pmc *pmc)
{
	pmu->pmc_counting_instructions &= ~BIT_ULL(pmc->idx);
	pmu->pmc_counting_branches &= ~BIT_ULL(pmc->idx);

	if (!pmc_is_locally_enabled(pmc))
		return;
	if (pmc_is_event_match(pmc, pmu->ops->INSTRUCTIONS_RETIRED))
		pmu->pmc_counting_instructions |= BIT_ULL(pmc->idx);
	if (pmc_is_event_match(pmc, pmu->ops->BRANCH_INSTRUCTIONS_RETIRED))
		pmu->pmc_counting_branches |= BIT_ULL(pmc->idx);
}

/**
 * kvm_pmu_request_counter_reprogram() - Mirrors kvm_pmu_request_counter_reprogram() (pmu.h):
 * recompute the emulation bitmaps, set the counter's reprogram bit, raise KVM_REQ_PMU.
 * @pmc: counter
 */
void kvm_pmu_request_counter_reprogram(struct vpmc_pmc *pmc)
{
	kvm_pmu_recalc_pmc_emulation(pmc->pmu, pmc);
	pmc->pmu->reprogram_pmi |= BIT_ULL(pmc->idx);
	pmc->pmu->requests |= KVM_REQ_PMU;
}

/**
 * reprogram_counters() - Mirrors reprogram_counters() (pmu.h; kvm_pmu_request_counters_reprogram()
 * in the mediated-era tree): mark @counters for reprogram, one KVM_REQ_PMU; no recalc.
 * @pmu: vCPU
 * @counters: global-index bitmap; 0 does nothing
 */
void reprogram_counters(struct vpmc_pmu *pmu, uint64_t counters)
{
	if (!counters)
		return;
	pmu->reprogram_pmi |= counters;
	pmu->requests |= KVM_REQ_PMU;
}

/* Mediated increment (283a5aa57b22): count now, overflow now, PMI by the current INT bit. */
static void kvm_pmu_incr_counter_mediated(struct vpmc_pmc *pmc)
{
	struct vpmc_pmu *pmu = pmc->pmu;

	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
	if (pmc->counter)
		return;
	pmu->global_status |= BIT_ULL(pmc->idx);
	trace_vpmc_overflow(pmc, BIT_ULL(pmc->idx), true);
	if (pmc_is_pmi_enabled(pmc))
		pmu->requests |= KVM_REQ_PMI;
}

/**
 * kvm_pmu_incr_counter() - Mirrors kvm_pmu_incr_counter() (pmu.c), the policy seam
 * (Appendix A): exact: emulated_counter++ and request the reprogram; tolerance=T: request it
 * only once emulated_counter > T; tolerance-wrap=T: also when the guest-visible value wrapped
 * to 0; mediated and reference: the mediated increment. Hosts < 6.8 use the prev_counter
 * increment of de0f619564f4 (counter += 1 directly) under every perf-backed policy.
 * @pmc: counter that counts the retired event
 */
void kvm_pmu_incr_counter(struct vpmc_pmc *pmc)
{
	struct vpmc_pmu *pmu = pmc->pmu;
	bool request = true;

	trace_vpmc_increment(pmc);
	if (kvm_vcpu_has_mediated_pmu(pmu)) {
		kvm_pmu_incr_counter_mediated(pmc);
		return;
	}
	if (pmu_prev_counter_scheme(pmu)) {
		pmc->prev_counter = pmc->counter;
		pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
		kvm_pmu_request_counter_reprogram(pmc);
		return;
	}

	pmc->emulated_counter++;
	if (pmu->policy.kind == VPMC_POLICY_TOLERANCE)
		request = pmc->emulated_counter > pmu->policy.arg;
	else if (pmu->policy.kind == VPMC_POLICY_TOLERANCE_WRAP)
		request = pmc->emulated_counter > pmu->policy.arg || !pmc_read_counter(pmc);
	if (request)
		kvm_pmu_request_counter_reprogram(pmc);
}

/*
 * The TRIGGER observation: the counters kvm_pmu_trigger_event() increments among the
 * @bitmap that passed its GLOBAL_CTRL gate, recomputed from the predicates the increments do
 * not change, and whether @event_pmcs are the instruction or the branch counters. Out of
 * line: the caller runs per emulated instruction and policy, and its frame stays small.
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

/* TRIGGER: kvm_pmu_trigger_event() got past its GLOBAL_CTRL gate with @bitmap. */
static inline void trace_vpmc_trigger(struct vpmc_pmu *pmu, const uint64_t *event_pmcs,
				      uint64_t bitmap)
{
	pmu->stats.triggers++;
	if (trace_vpmc_enabled(pmu, VPMC_OBS_TRIGGER))
		trace_vpmc_trigger_obs(pmu, event_pmcs, bitmap);
}

/**
 * kvm_pmu_trigger_event() - Mirrors kvm_pmu_trigger_event() (pmu.c, B-7.0): candidates from the
 * precomputed bitmap, gated by GLOBAL_CTRL (v2+), then per counter in index order the filter
 * and cpl_is_matched(), then kvm_pmu_incr_counter(). Reports TRIGGER once past the gate,
 * before the increments' own observations (an overflow).
 * @pmu: vCPU
 * @event_pmcs: &pmc_counting_instructions or &pmc_counting_branches
 */
void kvm_pmu_trigger_event(struct vpmc_pmu *pmu, const uint64_t *event_pmcs)
{
	uint64_t bitmap;
	struct vpmc_pmc *pmc;
	int i;

	if (!*event_pmcs)
		return;
	if (!kvm_pmu_has_perf_global_ctrl(pmu))
		bitmap = *event_pmcs;
	else if (!(bitmap = *event_pmcs & pmu->global_ctrl))
		return;

	trace_vpmc_trigger(pmu, event_pmcs, bitmap);
	kvm_for_each_pmc(pmu, pmc, i, bitmap) {
		if (!pmc_is_event_allowed(pmc) || !cpl_is_matched(pmc))
			continue;

		kvm_pmu_incr_counter(pmc);
	}
}

/* The "disabled=MASK" policy: the hook returns before touching any counter. */
static bool pmu_event_disabled(const struct vpmc_pmu *pmu, unsigned int perf_hw_id)
{
	return pmu->policy.kind == VPMC_POLICY_DISABLED && (pmu->policy.arg & BIT_ULL(perf_hw_id));
}

/**
 * kvm_pmu_instruction_retired() - Mirrors kvm_pmu_instruction_retired() (pmu.c, 43f5bea2639c):
 * KVM retired one instruction for the guest. Policy disabled with bit 1: nothing.
 * @pmu: vCPU
 */
void kvm_pmu_instruction_retired(struct vpmc_pmu *pmu)
{
	if (pmu_event_disabled(pmu, PERF_COUNT_HW_INSTRUCTIONS))
		return;
	kvm_pmu_trigger_event(pmu, &pmu->pmc_counting_instructions);
}

/**
 * kvm_pmu_branch_retired() - Mirrors kvm_pmu_branch_retired() (pmu.c): KVM retired one branch
 * for the guest. Policy disabled with bit 4: nothing.
 * @pmu: vCPU
 */
void kvm_pmu_branch_retired(struct vpmc_pmu *pmu)
{
	if (pmu_event_disabled(pmu, PERF_COUNT_HW_BRANCH_INSTRUCTIONS))
		return;
	kvm_pmu_trigger_event(pmu, &pmu->pmc_counting_branches);
}

/**
 * kvm_mediated_pmu_refresh_event_filter() - Mirrors kvm_mediated_pmu_refresh_event_filter()
 * (pmu.c): hardware counts only a locally enabled, filter-allowed counter.
 * @pmc: counter
 */
void kvm_mediated_pmu_refresh_event_filter(struct vpmc_pmc *pmc)
{
	bool allowed = pmc_is_locally_enabled(pmc) && pmc_is_event_allowed(pmc);
	struct vpmc_pmu *pmu = pmc->pmu;

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
 * kvm_pmu_is_valid_msr() - Mirrors kvm_pmu_is_valid_msr() (pmu.c): GLOBAL_STATUS/CTRL/OVF_CTRL
 * exist for PMU v2+ (on AMD guests too); anything else is the vendor's.
 * @pmu: vCPU
 * @msr: MSR index
 *
 * Return: true if KVM's PMU handles @msr for this guest.
 */
bool kvm_pmu_is_valid_msr(struct vpmc_pmu *pmu, uint32_t msr)
{
	switch (msr) {
	case MSR_CORE_PERF_GLOBAL_STATUS:
	case MSR_CORE_PERF_GLOBAL_CTRL:
	case MSR_CORE_PERF_GLOBAL_OVF_CTRL:
		return kvm_pmu_has_perf_global_ctrl(pmu);
	default:
		break;
	}
	return pmu->ops->msr_idx_to_pmc(pmu, msr) || pmu->ops->is_valid_msr(pmu, msr);
}

/**
 * kvm_pmu_get_msr() - Mirrors kvm_pmu_get_msr() (pmu.c): the global MSRs (the clear/set and
 * OVF_CTRL MSRs read 0), else the vendor handler.
 * @pmu: vCPU
 * @msr_info: index in, data out
 *
 * Return: 0, or 1 (#GP).
 */
int kvm_pmu_get_msr(struct vpmc_pmu *pmu, struct msr_data *msr_info)
{
	switch (msr_info->index) {
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
		return pmu->ops->get_msr(pmu, msr_info);
	}
	return 0;
}

/* The GLOBAL_CTRL write (both vendors; AMD dropped its reserved bits first). */
static int kvm_pmu_set_global_ctrl(struct vpmc_pmu *pmu, uint64_t data)
{
	uint64_t diff;

	if (pmu->global_ctrl_rsvd & data) /* kvm_valid_perf_global_ctrl() */
		return 1;
	if (pmu->global_ctrl != data) {
		diff = pmu->global_ctrl ^ data;
		pmu->global_ctrl = data;
		reprogram_counters(pmu, diff);
	}
	return 0;
}

/* Mirrors kvm_pmu_mark_pmc_in_use() (pmu.c). */
static void kvm_pmu_mark_pmc_in_use(struct vpmc_pmu *pmu, uint32_t msr)
{
	struct vpmc_pmc *pmc = pmu->ops->msr_idx_to_pmc(pmu, msr);

	if (pmc)
		pmu->pmc_in_use |= BIT_ULL(pmc->idx);
}

/**
 * kvm_pmu_set_msr() - Mirrors kvm_pmu_set_msr() (pmu.c): Intel #GPs on guest writes of the
 * read-only GLOBAL_STATUS and on reserved bits, AMD ignores them; GLOBAL_CTRL changes request
 * a reprogram of every changed bit; OVF_CTRL / STATUS_CLR clear status bits (guest writes
 * only); AMD STATUS_SET (6.18+) sets them; other MSRs mark the counter in use and go to the
 * vendor. Host-initiated writes (migration) may set GLOBAL_STATUS.
 * @pmu: vCPU
 * @msr_info: index, data, host_initiated
 *
 * Return: 0, or 1 (#GP for a guest; failure for the host).
 */
int kvm_pmu_set_msr(struct vpmc_pmu *pmu, struct msr_data *msr_info)
{
	uint64_t data = msr_info->data;

	switch (msr_info->index) {
	case MSR_CORE_PERF_GLOBAL_STATUS:
		if (!msr_info->host_initiated)
			return 1; /* RO MSR */
		/* fallthrough */
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS:
		/* Per PPR, read-only; guest writes are ignored. */
		if (!msr_info->host_initiated)
			break;
		if (data & pmu->global_status_rsvd)
			return 1;
		pmu->global_status = data;
		break;
	case MSR_AMD64_PERF_CNTR_GLOBAL_CTL:
		data &= ~pmu->global_ctrl_rsvd;
		return kvm_pmu_set_global_ctrl(pmu, data);
	case MSR_CORE_PERF_GLOBAL_CTRL:
		return kvm_pmu_set_global_ctrl(pmu, data);
	case MSR_CORE_PERF_GLOBAL_OVF_CTRL:
		/* GLOBAL_STATUS_RESET: same reserved bits as GLOBAL_STATUS */
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
		kvm_pmu_mark_pmc_in_use(pmu, msr_info->index);
		return pmu->ops->set_msr(pmu, msr_info);
	}
	return 0;
}

/**
 * vpmc__msr_is_pmu() - Whether @msr belongs to either vendor's PMU MSR ranges (the MSRs whose
 * guest accesses are observed as READ/WRITE, valid or not for this guest).
 * @msr: MSR index
 *
 * Return: true for Intel PERFCTR/EVNTSEL/PMC (8 each), FIXED_CTR0-2, 0x38d-0x392, PEBS and
 * DS_AREA; AMD K7 and F15H counters, PerfMonV2 global MSRs.
 */
bool vpmc__msr_is_pmu(uint32_t msr)
{
	static const struct {
		uint32_t first, last;
	} ranges[] = {
		{ MSR_IA32_PERFCTR0, MSR_IA32_PERFCTR0 + KVM_MAX_NR_GP_COUNTERS - 1 },
		{ MSR_P6_EVNTSEL0, MSR_P6_EVNTSEL0 + KVM_MAX_NR_GP_COUNTERS - 1 },
		{ MSR_IA32_PMC0, MSR_IA32_PMC0 + KVM_MAX_NR_GP_COUNTERS - 1 },
		{ MSR_CORE_PERF_FIXED_CTR0, MSR_CORE_PERF_FIXED_CTR0 + KVM_MAX_NR_FIXED_COUNTERS - 1 },
		{ MSR_CORE_PERF_FIXED_CTR_CTRL, MSR_CORE_PERF_GLOBAL_INUSE },
		{ MSR_IA32_PEBS_ENABLE, MSR_PEBS_DATA_CFG },
		{ MSR_IA32_DS_AREA, MSR_IA32_DS_AREA },
		{ MSR_K7_EVNTSEL0, MSR_K7_PERFCTR3 },
		{ MSR_F15H_PERF_CTL0, MSR_F15H_PERF_CTR5 },
		{ MSR_AMD64_PERF_CNTR_GLOBAL_STATUS, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ranges); i++) {
		if (msr >= ranges[i].first && msr <= ranges[i].last)
			return true;
	}
	return false;
}

/* x86.c keeps the K7 counters, PERFCTR0/1 and EVNTSEL0/1 harmless when the vPMU lacks them:
 * writes are dropped and reads return 0 (the selftest relies on 0xc1/0xc2). */
static bool x86_msr_is_legacy_perf(uint32_t msr)
{
	return (msr >= MSR_K7_EVNTSEL0 && msr <= MSR_K7_PERFCTR3) ||
	       (msr >= MSR_IA32_PERFCTR0 && msr <= MSR_P6_PERFCTR1) ||
	       (msr >= MSR_P6_EVNTSEL0 && msr <= MSR_P6_EVNTSEL1);
}

/**
 * vpmc__x86_set_msr() - Mirrors the PMU cases of kvm_set_msr_common() (x86.c): a valid PMU MSR
 * goes to kvm_pmu_set_msr(); an invalid legacy one is dropped; any other invalid one #GPs.
 * @pmu: vCPU
 * @msr_info: index, data, host_initiated
 *
 * Return: KVM_MSR_OK, KVM_MSR_GP, or KVM_MSR_NOT_PMU (@msr is no PMU MSR: nothing done).
 */
int vpmc__x86_set_msr(struct vpmc_pmu *pmu, struct msr_data *msr_info)
{
	if (!vpmc__msr_is_pmu(msr_info->index))
		return KVM_MSR_NOT_PMU;
	if (kvm_pmu_is_valid_msr(pmu, msr_info->index))
		return kvm_pmu_set_msr(pmu, msr_info) ? KVM_MSR_GP : KVM_MSR_OK;
	return x86_msr_is_legacy_perf(msr_info->index) ? KVM_MSR_OK : KVM_MSR_GP;
}

/**
 * vpmc__x86_get_msr() - Mirrors the PMU cases of kvm_get_msr_common() (x86.c); see
 * vpmc__x86_set_msr().
 * @pmu: vCPU
 * @msr_info: index and host_initiated in, data out (0 after #GP)
 *
 * Return: KVM_MSR_OK, KVM_MSR_GP, or KVM_MSR_NOT_PMU.
 */
int vpmc__x86_get_msr(struct vpmc_pmu *pmu, struct msr_data *msr_info)
{
	msr_info->data = 0;
	if (!vpmc__msr_is_pmu(msr_info->index))
		return KVM_MSR_NOT_PMU;
	if (kvm_pmu_is_valid_msr(pmu, msr_info->index)) {
		if (!kvm_pmu_get_msr(pmu, msr_info))
			return KVM_MSR_OK;
		msr_info->data = 0;
		return KVM_MSR_GP;
	}
	return x86_msr_is_legacy_perf(msr_info->index) ? KVM_MSR_OK : KVM_MSR_GP;
}

/**
 * kvm_pmu_check_rdpmc_early() - Mirrors kvm_pmu_check_rdpmc_early() (pmu.c): on AMD an invalid
 * index #GPs before the intercept; Intel has no early check.
 * @pmu: vCPU
 * @idx: ECX
 *
 * Return: 0, or non-zero for #GP.
 */
int kvm_pmu_check_rdpmc_early(struct vpmc_pmu *pmu, unsigned int idx)
{
	if (!pmu->ops->check_rdpmc_early)
		return 0;
	return pmu->ops->check_rdpmc_early(pmu, idx);
}

/**
 * kvm_pmu_rdpmc() - Mirrors kvm_pmu_rdpmc() (pmu.c): #GP without a vPMU or for an index the
 * vendor does not decode; else pmc_read_counter() masked to the counter type. CR4.PCE is set
 * in our guests and the VMware backdoor is off, so neither adds a #GP or a pseudo-counter.
 * @pmu: vCPU
 * @idx: ECX
 * @data: value read
 *
 * Return: 0, or 1 (#GP).
 */
int kvm_pmu_rdpmc(struct vpmc_pmu *pmu, unsigned int idx, uint64_t *data)
{
	struct vpmc_pmc *pmc;
	uint64_t mask = ~0ULL;

	if (!pmu->version)
		return 1;
	pmc = pmu->ops->rdpmc_ecx_to_pmc(pmu, idx, &mask);
	if (!pmc)
		return 1;
	*data = pmc_read_counter(pmc) & mask;
	return 0;
}

/**
 * kvm_pmu_reset() - Mirrors kvm_pmu_reset() (pmu.c): stop and zero every counter (GP eventsel
 * too), clear FIXED_CTR_CTRL, GLOBAL_CTRL, GLOBAL_STATUS and the reprogram bitmap.
 * @pmu: vCPU
 */
void kvm_pmu_reset(struct vpmc_pmu *pmu)
{
	struct vpmc_pmc *pmc;
	int i;

	pmu->need_cleanup = false;
	pmu->reprogram_pmi = 0;

	kvm_for_each_pmc(pmu, pmc, i, pmu->all_valid_pmc_idx) {
		pmc_stop_counter(pmc);
		pmc->counter = 0;
		pmc->emulated_counter = 0;
		pmc->prev_counter = 0;
		if (pmc_is_gp(pmc)) {
			pmc->eventsel = 0;
			pmc->eventsel_hw = 0;
		}
	}

	pmu->fixed_ctr_ctrl = pmu->fixed_ctr_ctrl_hw = 0;
	pmu->global_ctrl = pmu->global_status = 0;
}

/**
 * kvm_pmu_refresh() - Mirrors kvm_pmu_refresh() (pmu.c): reset, restore every mask to
 * "nothing valid", let the vendor derive the PMU from CPUID (@cfg), then enable all GP counters
 * in GLOBAL_CTRL as hardware does at RESET (de120e1d692d, 6.9; also v1 when mediated).
 * @pmu: vCPU
 * @cfg: guest CPUID / PERF_CAPABILITIES; version 0 = vPMU disabled
 */
void kvm_pmu_refresh(struct vpmc_pmu *pmu, const struct vpmc_pmu_config *cfg)
{
	kvm_pmu_reset(pmu);

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
	pmu->all_valid_pmc_idx = 0;
	pmu->pebs = false;

	if (!cfg->version) /* kvm->arch.enable_pmu */
		return;

	pmu->ops->refresh(pmu, cfg);

	if (pmu_host_before(pmu, 6, 9))
		return;
	if (kvm_gp_pmc_mask(pmu) &&
	    (kvm_pmu_has_perf_global_ctrl(pmu) || kvm_vcpu_has_mediated_pmu(pmu)))
		pmu->global_ctrl = kvm_gp_pmc_mask(pmu);
}

/**
 * kvm_pmu_cleanup() - Mirrors kvm_pmu_cleanup() (pmu.c): release the perf events of counters
 * that are neither in use this time slice nor locally enabled (folding their count), then start
 * a new time slice.
 * @pmu: vCPU
 */
void kvm_pmu_cleanup(struct vpmc_pmu *pmu)
{
	uint64_t bitmask = pmu->all_valid_pmc_idx & ~pmu->pmc_in_use;
	struct vpmc_pmc *pmc;
	int i;

	pmu->need_cleanup = false;
	kvm_for_each_pmc(pmu, pmc, i, bitmask) {
		if (pmc->perf_event && !pmc_is_locally_enabled(pmc))
			pmc_stop_counter(pmc);
	}
	pmu->pmc_in_use = 0;
}

/**
 * kvm_pmu_sched_in() - Mirrors the PMU part of kvm_arch_sched_in() / kvm_arch_vcpu_load()
 * (x86.c): a vCPU that owns perf events schedules a lazy cleanup at the next drain.
 * @pmu: vCPU
 */
void kvm_pmu_sched_in(struct vpmc_pmu *pmu)
{
	if (pmu->version && pmu->event_count) {
		pmu->need_cleanup = true;
		pmu->requests |= KVM_REQ_PMU;
	}
}

/**
 * vpmc__pmu_init() - Mirrors kvm_pmu_init() + kvm_pmu_refresh(): a vCPU at RESET for @cfg.
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
	pmu->ops->init(pmu);
	kvm_pmu_refresh(pmu, cfg);
}

/**
 * vpmc__pmu_destroy() - Mirrors kvm_pmu_destroy(): reset (releases perf events), free the filter.
 * @pmu: vCPU
 */
void vpmc__pmu_destroy(struct vpmc_pmu *pmu)
{
	kvm_pmu_reset(pmu);
	free(pmu->filter);
	pmu->filter = NULL;
}
