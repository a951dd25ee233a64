// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_amd.c - Twin of arch/x86/kvm/svm/pmu.c (B-7.0), the AMD half of KVM's vPMU: legacy K7
 * MSRs (0xc0010000-7), PerfCtrExtCore CTL/CTR pairs (0xc0010200+), PerfMonV2, RDPMC decoding.
 * AMD never #GPs on counter or event-select writes: reserved bits are dropped. Legacy forks in
 * the vpmcsim block at the end.
 *
 * Guest CPUID is derived from struct vpmc_pmu_config: version 2 = PerfMonV2 (which implies
 * PerfCtrExtCore), version 1 with more than 4 GP counters = PerfCtrExtCore (6 counters), else
 * the 4 legacy counters. Widths are always 48 bits.
 */
#include "config.h"

#include <errno.h>

#include "pmu.h"
#include "vpmcsim.h"

enum pmu_type {
	PMU_TYPE_COUNTER = 0,
	PMU_TYPE_EVNTSEL,
};

#define AMD64_EVENTSEL_RSVD 0xfffffff000280000ULL

/* The legacy forks (vpmcsim block) */
static bool amd_is_valid_msr_pre_6_18(struct vpmc_pmu *pmu, uint32_t msr);
static int amd_check_rdpmc_early_pre_6_9(struct vpmc_pmu *pmu, unsigned int idx);
static struct vpmc_pmc *amd_rdpmc_ecx_to_pmc_pre_6_9(struct vpmc_pmu *pmu, unsigned int idx,
						     uint64_t *mask);

/* Mirrors amd_pmu_get_pmc(). */
static struct vpmc_pmc *amd_pmu_get_pmc(struct vpmc_pmu *pmu, unsigned int pmc_idx)
{
	if (pmc_idx >= KVM_MAX_NR_AMD_GP_COUNTERS)
		return NULL;
	return kvm_pmc_idx_to_pmc(pmu, (int)pmc_idx);
}

/* Mirrors get_gp_pmc_amd(): CTLn are even and CTRn odd in the F15H block. */
static struct vpmc_pmc *get_gp_pmc_amd(struct vpmc_pmu *pmu, uint32_t msr, enum pmu_type type)
{
	unsigned int idx;

	if (!pmu->version)
		return NULL;

	if (msr >= MSR_F15H_PERF_CTL0 && msr <= MSR_F15H_PERF_CTR5) {
		if (!pmu->perfctr_core)
			return NULL;
		idx = (msr - MSR_F15H_PERF_CTL0) / 2;
		if (!(msr & 0x1) != (type == PMU_TYPE_EVNTSEL))
			return NULL;
	} else if (msr >= MSR_K7_EVNTSEL0 && msr <= MSR_K7_EVNTSEL3) {
		if (type != PMU_TYPE_EVNTSEL)
			return NULL;
		idx = msr - MSR_K7_EVNTSEL0;
	} else if (msr >= MSR_K7_PERFCTR0 && msr <= MSR_K7_PERFCTR3) {
		if (type != PMU_TYPE_COUNTER)
			return NULL;
		idx = msr - MSR_K7_PERFCTR0;
	} else {
		return NULL;
	}
	return amd_pmu_get_pmc(pmu, idx);
}

/* Mirrors amd_check_rdpmc_early(): an invalid index #GPs before the RDPMC intercept. */
static int amd_check_rdpmc_early(struct vpmc_pmu *pmu, unsigned int idx)
{
	if (pmu_host_before(pmu, 6, 9))
		return amd_check_rdpmc_early_pre_6_9(pmu, idx);

	if (idx >= KVM_MAX_NR_AMD_GP_COUNTERS || !(pmu->all_valid_pmc_idx & BIT_ULL(idx)))
		return -EINVAL;
	return 0;
}

/* Mirrors amd_rdpmc_ecx_to_pmc(): ECX is the index, all 32 bits (ecb490770ad4). */
static struct vpmc_pmc *amd_rdpmc_ecx_to_pmc(struct vpmc_pmu *pmu, unsigned int idx,
					     uint64_t *mask)
{
	if (pmu_host_before(pmu, 6, 9))
		return amd_rdpmc_ecx_to_pmc_pre_6_9(pmu, idx, mask);

	(void)mask;
	return amd_pmu_get_pmc(pmu, idx);
}

/* Mirrors amd_msr_idx_to_pmc(). */
static struct vpmc_pmc *amd_msr_idx_to_pmc(struct vpmc_pmu *pmu, uint32_t msr)
{
	struct vpmc_pmc *pmc;

	pmc = get_gp_pmc_amd(pmu, msr, PMU_TYPE_COUNTER);
	pmc = pmc ? pmc : get_gp_pmc_amd(pmu, msr, PMU_TYPE_EVNTSEL);
	return pmc;
}

/* Mirrors amd_is_valid_msr(); GLOBAL_STATUS_SET exists from 6.18 (68e61f6fd656). */
static bool amd_is_valid_msr(struct vpmc_pmu *pmu, uint32_t msr)
{
	if (pmu_host_before(pmu, 6, 18))
		return amd_is_valid_msr_pre_6_18(pmu, msr);

	switch (msr) {
	case MSR_K7_EVNTSEL0 ... MSR_K7_PERFCTR3:
		return pmu->version > 0;
	case MSR_F15H_PERF_CTL0 ... MSR_F15H_PERF_CTR5:
		return pmu->perfctr_core;
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET:
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS:
	case MSR_AMD64_PERF_CNTR_GLOBAL_CTL:
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR:
		return pmu->version > 1;
	default:
		break;
	}
	return amd_msr_idx_to_pmc(pmu, msr);
}

/* Mirrors amd_pmu_get_msr(). */
static int amd_pmu_get_msr(struct vpmc_pmu *pmu, struct msr_data *msr_info)
{
	struct vpmc_pmc *pmc;

	pmc = get_gp_pmc_amd(pmu, msr_info->index, PMU_TYPE_COUNTER);
	if (pmc) {
		msr_info->data = pmc_read_counter(pmc);
		return 0;
	}
	pmc = get_gp_pmc_amd(pmu, msr_info->index, PMU_TYPE_EVNTSEL);
	if (pmc) {
		msr_info->data = pmc->eventsel;
		return 0;
	}
	return 1;
}

/* Mirrors amd_pmu_set_msr(): counters via pmc_write_counter(); EVNTSEL reserved bits dropped
 * (so Host-Only/Guest-Only too), reprogram only if the value changed. */
static int amd_pmu_set_msr(struct vpmc_pmu *pmu, struct msr_data *msr_info)
{
	uint64_t data = msr_info->data;
	struct vpmc_pmc *pmc;

	pmc = get_gp_pmc_amd(pmu, msr_info->index, PMU_TYPE_COUNTER);
	if (pmc) {
		pmc_write_counter(pmc, data);
		return 0;
	}
	pmc = get_gp_pmc_amd(pmu, msr_info->index, PMU_TYPE_EVNTSEL);
	if (pmc) {
		data &= ~pmu->eventsel_rsvd;
		if (data != pmc->eventsel) {
			pmc->eventsel = data;
			pmc->eventsel_hw = data;
			kvm_pmu_request_counter_reprogram(pmc);
		}
		return 0;
	}
	return 1;
}

/* Mirrors amd_pmu_refresh(). */
static void amd_pmu_refresh(struct vpmc_pmu *pmu, const struct vpmc_pmu_config *cfg)
{
	unsigned int nr_gp_counters = AMD64_NUM_COUNTERS;

	pmu->version = 1;
	if (cfg->version >= 2) {
		pmu->version = 2;
		pmu->perfctr_core = true;
		nr_gp_counters = cfg->nr_gp; /* CPUID 0x80000022 EBX num_core_pmc */
	} else if (cfg->nr_gp > AMD64_NUM_COUNTERS) {
		pmu->perfctr_core = true;
		nr_gp_counters = AMD64_NUM_COUNTERS_CORE;
	}
	if (nr_gp_counters > KVM_MAX_NR_AMD_GP_COUNTERS) /* kvm_pmu_cap.cntr_mask64 */
		nr_gp_counters = KVM_MAX_NR_AMD_GP_COUNTERS;
	pmu->nr_arch_gp_counters = nr_gp_counters;
	pmu->all_valid_pmc_idx = BIT_ULL(nr_gp_counters) - 1;

	if (pmu->version > 1) {
		pmu->global_ctrl_rsvd = ~pmu->all_valid_pmc_idx;
		pmu->global_status_rsvd = pmu->global_ctrl_rsvd;
	}

	pmu->counter_bitmask[KVM_PMC_GP] = BIT_ULL(48) - 1;
	pmu->eventsel_rsvd = AMD64_EVENTSEL_RSVD;
	pmu->raw_event_mask = AMD64_RAW_EVENT_MASK;
	pmu->counter_bitmask[KVM_PMC_FIXED] = 0;
}

/* Mirrors amd_pmu_init(). */
static void amd_pmu_init(struct vpmc_pmu *pmu)
{
	int i;

	for (i = 0; i < KVM_MAX_NR_AMD_GP_COUNTERS; i++) {
		pmu->gp_counters[i].type = KVM_PMC_GP;
		pmu->gp_counters[i].idx = i;
		pmu->gp_counters[i].pmu = pmu;
	}
}

/* struct kvm_pmu_ops amd_pmu_ops */
const struct vpmc_pmu_ops amd_pmu_ops = {
	.rdpmc_ecx_to_pmc = amd_rdpmc_ecx_to_pmc,
	.msr_idx_to_pmc = amd_msr_idx_to_pmc,
	.check_rdpmc_early = amd_check_rdpmc_early,
	.is_valid_msr = amd_is_valid_msr,
	.get_msr = amd_pmu_get_msr,
	.set_msr = amd_pmu_set_msr,
	.refresh = amd_pmu_refresh,
	.init = amd_pmu_init,
	.EVENTSEL_EVENT = AMD64_EVENTSEL_EVENT,
	.INSTRUCTIONS_RETIRED = 0x00c0,
	.BRANCH_INSTRUCTIONS_RETIRED = 0x00c2,
};

/* ---- vpmcsim ---- */

/* amd_is_valid_msr() before 68e61f6fd656 (6.18): no GLOBAL_STATUS_SET. */
static bool amd_is_valid_msr_pre_6_18(struct vpmc_pmu *pmu, uint32_t msr)
{
	switch (msr) {
	case MSR_K7_EVNTSEL0 ... MSR_K7_PERFCTR3:
		return pmu->version > 0;
	case MSR_F15H_PERF_CTL0 ... MSR_F15H_PERF_CTR5:
		return pmu->perfctr_core;
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS:
	case MSR_AMD64_PERF_CNTR_GLOBAL_CTL:
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR:
		return pmu->version > 1;
	default:
		break;
	}
	return amd_msr_idx_to_pmc(pmu, msr);
}

/*
 * The RDPMC index check before ecb490770ad4 ("KVM: x86/pmu: Don't ignore bits 31:30 for RDPMC
 * index on AMD", 6.9), then amd_is_valid_rdpmc_ecx(): bits 31:30 dropped, so ECX 0x40000000
 * is counter 0, not #GP.
 */
static int amd_check_rdpmc_early_pre_6_9(struct vpmc_pmu *pmu, unsigned int idx)
{
	idx &= ~(3U << 30);

	return idx < pmu->nr_arch_gp_counters ? 0 : -EINVAL;
}

/* amd_rdpmc_ecx_to_pmc() before ecb490770ad4 (6.9): the index with bits 31:30 dropped. */
static struct vpmc_pmc *amd_rdpmc_ecx_to_pmc_pre_6_9(struct vpmc_pmu *pmu, unsigned int idx,
						     uint64_t *mask)
{
	(void)mask;
	return amd_pmu_get_pmc(pmu, idx & ~(3U << 30));
}
