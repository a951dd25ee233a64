/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vpmcsim.h - What lib/kvm has that KVM has not: the host-version predicate of the legacy
 * forks, the accounting-policy seams, the entry points the model calls, and the declarations
 * white-box tests use (architecture.md §3).
 */
#ifndef VPMC_KVM_VPMCSIM_H
#define VPMC_KVM_VPMCSIM_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu.h"

/* kvm_pmu_cap.bit_width_{gp,fixed} of current hosts */
#define KVM_MAX_COUNTER_WIDTH 48

/* ---- host version ---- */

/*
 * True if the host kernel the model stands for is older than @maj.@min. Only ever the first
 * statement of a twin, choosing the older kernel's whole function (a legacy fork).
 */
static inline bool pmu_host_before(const struct vpmc_pmu *pmu, unsigned int maj, unsigned int min)
{
	return pmu->host_kernel < VPMC_KERNEL(maj, min);
}

/* ---- policy seams: kvm_pmu_incr_counter(), the *_retired() hooks, kvm_pmu_set_msr() ---- */

/*
 * @n <= the tolerance policy's T, the one place T is read; noted in pmu->tol_seen, so that a lane
 * whose T gives the same answers can follow this one's work (lib/replay/alike.c).
 */
static inline bool policy_within_tolerance(struct vpmc_pmu *pmu, uint64_t n)
{
	if (n <= pmu->policy.arg) {
		if (n > pmu->tol_seen.le)
			pmu->tol_seen.le = n;
		return true;
	}
	if (!pmu->tol_seen.gt || n < pmu->tol_seen.gt)
		pmu->tol_seen.gt = n;
	return false;
}

/*
 * Whether kvm_pmu_incr_counter() leaves the reprogram unrequested after emulated_counter++.
 * exact never defers; tolerance=T defers while at most T events are pending; tolerance-wrap=T
 * also stops deferring once the guest-visible value wrapped to 0 (read only when it matters);
 * tolerance-fold=T defers as tolerance=T.
 */
static inline bool policy_defer_reprogram(const struct vpmc_pmc *pmc)
{
	struct vpmc_pmu *pmu = pmc_to_pmu(pmc);
	enum vpmc_policy_kind kind = pmu->policy.kind;

	if (kind == VPMC_POLICY_TOLERANCE || kind == VPMC_POLICY_TOLERANCE_FOLD)
		return policy_within_tolerance(pmu, pmc->emulated_counter);
	if (kind == VPMC_POLICY_TOLERANCE_WRAP)
		return policy_within_tolerance(pmu, pmc->emulated_counter) && pmc_read_counter(pmc);
	return false;
}

/* Whether the "disabled=MASK" policy drops retired events of PERF_COUNT_HW_* @perf_hw_id
 * before kvm_pmu_trigger_event() (bit n of MASK is id n). */
static inline bool policy_event_disabled(const struct vpmc_pmu *pmu, unsigned int perf_hw_id)
{
	return pmu->policy.kind == VPMC_POLICY_DISABLED && (pmu->policy.arg & BIT_ULL(perf_hw_id));
}

void vpmc__policy_fold(struct vpmc_pmu *pmu, const struct msr_data *msr_info);

/*
 * tolerance-fold=T, at the top of kvm_pmu_set_msr(): before a write to a counter's control
 * (event select, FIXED_CTR_CTRL field, GLOBAL_CTRL bit, the counter) takes effect, fold the
 * counter's pending emulated events and signal their overflow under the configuration that
 * counted them (vpmc__policy_fold(), pmu.c).
 */
static inline void policy_fold_before_write(struct vpmc_pmu *pmu, const struct msr_data *msr_info)
{
	if (pmu->policy.kind == VPMC_POLICY_TOLERANCE_FOLD)
		vpmc__policy_fold(pmu, msr_info);
}

/* ---- entry points ---- */

/* pmu.c */
void vpmc__pmu_init(struct vpmc_pmu *pmu, const struct vpmc_pmu_config *cfg,
		    const struct vpmc_policy *policy, uint32_t vcpu_id,
		    const struct vpmc_observer *obs);
void vpmc__pmu_destroy(struct vpmc_pmu *pmu);
uint64_t vpmc__get_sample_period(const struct vpmc_pmc *pmc, uint64_t counter_value);
bool vpmc__pmc_is_event_allowed(const struct vpmc_pmc *pmc);
bool vpmc__pmc_is_pmi_enabled(const struct vpmc_pmc *pmc);
bool vpmc__cpl_is_matched(const struct vpmc_pmc *pmc);

/* x86.c. The MSR excerpts return KVM's 0 / 1 ("inject #GP"), or "not a PMU MSR". */
#define KVM_MSR_OK 0
#define KVM_MSR_GP 1
#define KVM_MSR_NOT_PMU 2

bool vpmc__msr_is_pmu(uint32_t msr);
int vpmc__x86_set_msr(struct vpmc_pmu *vcpu, struct msr_data *msr_info);
int vpmc__x86_get_msr(struct vpmc_pmu *vcpu, struct msr_data *msr_info);
void vpmc__x86_enter_guest(struct vpmc_pmu *vcpu);
void vpmc__x86_vcpu_load(struct vpmc_pmu *vcpu);

/* lapic.c */
void vpmc__lapic_write_lvtpc(struct vpmc_pmu *vcpu, uint32_t val);

/* ---- white-box tests ---- */

#ifdef VPMC_TESTING
uint64_t get_sample_period(const struct vpmc_pmc *pmc, uint64_t counter_value);
bool pmc_is_event_allowed(const struct vpmc_pmc *pmc);
int reprogram_counter(struct vpmc_pmc *pmc);
void kvm_pmu_reset(struct vpmc_pmu *vcpu);
void kvm_pmu_trigger_event(struct vpmc_pmu *vcpu, const uint64_t *event_pmcs);
void vpmc__pmu_deliver_skid(struct vpmc_pmu *pmu);
#endif

#endif /* VPMC_KVM_VPMCSIM_H */
