// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86.c - Excerpts of arch/x86/kvm/x86.c (B-7.0) around the PMU: the PMU cases of
 * kvm_set_msr_common() and kvm_get_msr_common(), the PMU part of kvm_arch_vcpu_load(), and the
 * request part of vcpu_enter_guest(). Each excerpt keeps a vpmc__ name and names its source.
 */
#include "config.h"

#include "pmu.h"
#include "trace.h"
#include "vpmcsim.h"

/* x86.c keeps the K7 counters, PERFCTR0/1 and EVNTSEL0/1 harmless when the vPMU lacks them:
 * writes are dropped and reads return 0 (the selftest relies on 0xc1/0xc2). */
static bool x86_msr_is_legacy_perf(uint32_t msr)
{
	return (msr >= MSR_K7_EVNTSEL0 && msr <= MSR_K7_PERFCTR3) ||
	       (msr >= MSR_IA32_PERFCTR0 && msr <= MSR_P6_PERFCTR1) ||
	       (msr >= MSR_P6_EVNTSEL0 && msr <= MSR_P6_EVNTSEL1);
}

/* ---- vpmcsim ---- */

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

/**
 * vpmc__x86_set_msr() - Mirrors the PMU cases of kvm_set_msr_common(): a valid PMU MSR goes to
 * kvm_pmu_set_msr(); an invalid legacy one is dropped; any other invalid one #GPs.
 * @vcpu: vCPU
 * @msr_info: index, data, host_initiated
 *
 * Return: KVM_MSR_OK, KVM_MSR_GP, or KVM_MSR_NOT_PMU (@msr is no PMU MSR: nothing done).
 */
int vpmc__x86_set_msr(struct vpmc_pmu *vcpu, struct msr_data *msr_info)
{
	if (!vpmc__msr_is_pmu(msr_info->index))
		return KVM_MSR_NOT_PMU;
	if (kvm_pmu_is_valid_msr(vcpu, msr_info->index))
		return kvm_pmu_set_msr(vcpu, msr_info) ? KVM_MSR_GP : KVM_MSR_OK;
	return x86_msr_is_legacy_perf(msr_info->index) ? KVM_MSR_OK : KVM_MSR_GP;
}

/**
 * vpmc__x86_get_msr() - Mirrors the PMU cases of kvm_get_msr_common(); see vpmc__x86_set_msr().
 * @vcpu: vCPU
 * @msr_info: index and host_initiated in, data out (0 after #GP)
 *
 * Return: KVM_MSR_OK, KVM_MSR_GP, or KVM_MSR_NOT_PMU.
 */
int vpmc__x86_get_msr(struct vpmc_pmu *vcpu, struct msr_data *msr_info)
{
	msr_info->data = 0;
	if (!vpmc__msr_is_pmu(msr_info->index))
		return KVM_MSR_NOT_PMU;
	if (kvm_pmu_is_valid_msr(vcpu, msr_info->index)) {
		if (!kvm_pmu_get_msr(vcpu, msr_info))
			return KVM_MSR_OK;
		msr_info->data = 0;
		return KVM_MSR_GP;
	}
	return x86_msr_is_legacy_perf(msr_info->index) ? KVM_MSR_OK : KVM_MSR_GP;
}

/**
 * vpmc__x86_vcpu_load() - Mirrors the PMU part of kvm_arch_vcpu_load() (kvm_arch_sched_in()
 * before 6.10), for a vCPU scheduled back in: one that owns perf events schedules a lazy
 * cleanup at the next drain.
 * @vcpu: vCPU
 */
void vpmc__x86_vcpu_load(struct vpmc_pmu *vcpu)
{
	struct vpmc_pmu *pmu = vcpu_to_pmu(vcpu);

	if (pmu->version && pmu->event_count) {
		pmu->need_cleanup = true;
		kvm_make_request(KVM_REQ_PMU, vcpu);
	}
}

/**
 * vpmc__x86_enter_guest() - Mirrors the request part of vcpu_enter_guest(): KVM_REQ_PMU
 * (kvm_pmu_handle_event()), then KVM_REQ_PMI (kvm_pmu_deliver_pmi()).
 * @vcpu: vCPU
 */
void vpmc__x86_enter_guest(struct vpmc_pmu *vcpu)
{
	trace_vpmc_entry(vcpu);
	if (kvm_check_request(KVM_REQ_PMU, vcpu))
		kvm_pmu_handle_event(vcpu);
	if (kvm_check_request(KVM_REQ_PMI, vcpu))
		kvm_pmu_deliver_pmi(vcpu);
}
