// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_intel.c - Twin of arch/x86/kvm/vmx/pmu_intel.c (B-7.0), the Intel half of KVM's vPMU: MSR
 * map (PERFCTR 0xc1+ with 32-bit sign extension, full-width PMC 0x4c1+, EVNTSEL 0x186+,
 * FIXED_CTR 0x309+, FIXED_CTR_CTRL, PEBS), RDPMC decoding and the refresh from CPUID.0AH.
 * No guest LBRs and no PEBS baseline are modeled. Legacy forks in the vpmcsim block at the end.
 */
#include "config.h"

#include "pmu.h"
#include "vpmcsim.h"

#define MSR_PMC_FULL_WIDTH_BIT (MSR_IA32_PMC0 - MSR_IA32_PERFCTR0)

/* The legacy forks (vpmcsim block) */
static struct vpmc_pmc *intel_rdpmc_ecx_to_pmc_pre_6_9(struct vpmc_pmu *pmu, unsigned int idx,
						       uint64_t *mask);
static void reprogram_fixed_counters_pre_6_8(struct vpmc_pmu *pmu, uint64_t data);

/*
 * Mirrors reprogram_fixed_counters(): store FIXED_CTR_CTRL and request the reprogram of every
 * fixed counter whose nibble changed, comparing full 64-bit values (05519c86d699, 6.8).
 */
static void reprogram_fixed_counters(struct vpmc_pmu *pmu, uint64_t data)
{
	uint64_t old_fixed_ctr_ctrl = pmu->fixed_ctr_ctrl_hw;
	int i;

	if (pmu_host_before(pmu, 6, 8)) {
		reprogram_fixed_counters_pre_6_8(pmu, data);
		return;
	}

	pmu->fixed_ctr_ctrl = data;
	pmu->fixed_ctr_ctrl_hw = data;
	for (i = 0; i < KVM_MAX_NR_FIXED_COUNTERS; i++) {
		struct vpmc_pmc *pmc = get_fixed_pmc(pmu, MSR_CORE_PERF_FIXED_CTR0 + i);

		if (!pmc || fixed_ctrl_field(data, i) == fixed_ctrl_field(old_fixed_ctr_ctrl, i))
			continue;

		__set_bit(KVM_FIXED_PMC_BASE_IDX + i, &pmu->pmc_in_use);
		kvm_pmu_request_counter_reprogram(pmc);
	}
}

/*
 * Mirrors intel_rdpmc_ecx_to_pmc() (5728a4a0ea79, 7a0fc734c20d, a634c76b2c1a; 6.9): type 0 = GP,
 * type 0x4000 = fixed, any other type (including bit 31, "fast") #GPs; result masked to the
 * type's width.
 */
static struct vpmc_pmc *intel_rdpmc_ecx_to_pmc(struct vpmc_pmu *pmu, unsigned int idx,
					       uint64_t *mask)
{
	unsigned int type = idx & INTEL_RDPMC_TYPE_MASK;
	struct vpmc_pmc *pmc;

	if (pmu_host_before(pmu, 6, 9))
		return intel_rdpmc_ecx_to_pmc_pre_6_9(pmu, idx, mask);

	idx &= INTEL_RDPMC_INDEX_MASK;

	switch (type) {
	case INTEL_RDPMC_FIXED:
		if (idx >= KVM_MAX_NR_FIXED_COUNTERS)
			return NULL;
		pmc = kvm_pmc_idx_to_pmc(pmu, (int)idx + KVM_FIXED_PMC_BASE_IDX);
		*mask &= pmu->counter_bitmask[KVM_PMC_FIXED];
		return pmc;
	case INTEL_RDPMC_GP:
		if (idx >= KVM_MAX_NR_GP_COUNTERS)
			return NULL;
		pmc = kvm_pmc_idx_to_pmc(pmu, (int)idx);
		*mask &= pmu->counter_bitmask[KVM_PMC_GP];
		return pmc;
	default:
		return NULL;
	}
}

/* Mirrors get_fw_gp_pmc(): the full-width alias exists only with PERF_CAPABILITIES.FW_WRITE. */
static struct vpmc_pmc *get_fw_gp_pmc(struct vpmc_pmu *pmu, uint32_t msr)
{
	if (!pmu->fw_writes)
		return NULL;
	return get_gp_pmc(pmu, msr, MSR_IA32_PMC0);
}

/* Mirrors intel_is_valid_msr(). */
static bool intel_is_valid_msr(struct vpmc_pmu *pmu, uint32_t msr)
{
	switch (msr) {
	case MSR_CORE_PERF_FIXED_CTR_CTRL:
		return kvm_pmu_has_perf_global_ctrl(pmu);
	case MSR_IA32_PEBS_ENABLE:
	case MSR_IA32_DS_AREA:
		return pmu->pebs;
	case MSR_PEBS_DATA_CFG:
		return false; /* needs PEBS baseline, not modeled */
	default:
		return get_gp_pmc(pmu, msr, MSR_IA32_PERFCTR0) ||
		       get_gp_pmc(pmu, msr, MSR_P6_EVNTSEL0) || get_fixed_pmc(pmu, msr) ||
		       get_fw_gp_pmc(pmu, msr);
	}
}

/* Mirrors intel_msr_idx_to_pmc(): FIXED_CTRi, EVNTSELi, PERFCTRi (not the full-width alias). */
static struct vpmc_pmc *intel_msr_idx_to_pmc(struct vpmc_pmu *pmu, uint32_t msr)
{
	struct vpmc_pmc *pmc;

	pmc = get_fixed_pmc(pmu, msr);
	pmc = pmc ? pmc : get_gp_pmc(pmu, msr, MSR_P6_EVNTSEL0);
	pmc = pmc ? pmc : get_gp_pmc(pmu, msr, MSR_IA32_PERFCTR0);
	return pmc;
}

/* Mirrors intel_pmu_get_msr(). */
static int intel_pmu_get_msr(struct vpmc_pmu *pmu, struct msr_data *msr_info)
{
	struct vpmc_pmc *pmc;
	uint32_t msr = msr_info->index;

	switch (msr) {
	case MSR_CORE_PERF_FIXED_CTR_CTRL:
		msr_info->data = pmu->fixed_ctr_ctrl;
		break;
	case MSR_IA32_PEBS_ENABLE:
		msr_info->data = pmu->pebs_enable;
		break;
	case MSR_IA32_DS_AREA:
		msr_info->data = pmu->ds_area;
		break;
	default:
		if ((pmc = get_gp_pmc(pmu, msr, MSR_IA32_PERFCTR0)) ||
		    (pmc = get_fw_gp_pmc(pmu, msr))) {
			uint64_t val = pmc_read_counter(pmc);

			msr_info->data = val & pmu->counter_bitmask[KVM_PMC_GP];
			break;
		} else if ((pmc = get_fixed_pmc(pmu, msr))) {
			uint64_t val = pmc_read_counter(pmc);

			msr_info->data = val & pmu->counter_bitmask[KVM_PMC_FIXED];
			break;
		} else if ((pmc = get_gp_pmc(pmu, msr, MSR_P6_EVNTSEL0))) {
			msr_info->data = pmc->eventsel;
			break;
		}
		return 1;
	}

	return 0;
}

/* is_noncanonical_msr_address() for 48-bit virtual addresses (no LA57). */
static bool is_noncanonical_address(uint64_t la)
{
	return (uint64_t)((int64_t)(la << 16) >> 16) != la;
}

/*
 * Mirrors intel_pmu_set_msr(): counter writes #GP above the width on 0x4c1+, and a guest's
 * 0xc1+ write is sign-extended; EVNTSEL writes #GP on reserved bits (IN_TXCP allowed on counter
 * 2 only, with TSX).
 */
static int intel_pmu_set_msr(struct vpmc_pmu *pmu, struct msr_data *msr_info)
{
	struct vpmc_pmc *pmc;
	uint32_t msr = msr_info->index;
	uint64_t data = msr_info->data;
	uint64_t reserved_bits, diff;

	switch (msr) {
	case MSR_CORE_PERF_FIXED_CTR_CTRL:
		if (data & pmu->fixed_ctr_ctrl_rsvd)
			return 1;

		if (pmu->fixed_ctr_ctrl != data)
			reprogram_fixed_counters(pmu, data);
		break;
	case MSR_IA32_PEBS_ENABLE:
		if (data & pmu->pebs_enable_rsvd)
			return 1;

		if (pmu->pebs_enable != data) {
			diff = pmu->pebs_enable ^ data;
			pmu->pebs_enable = data;
			kvm_pmu_request_counters_reprogram(pmu, diff);
		}
		break;
	case MSR_IA32_DS_AREA:
		if (is_noncanonical_address(data))
			return 1;

		pmu->ds_area = data;
		break;
	default:
		if ((pmc = get_gp_pmc(pmu, msr, MSR_IA32_PERFCTR0)) ||
		    (pmc = get_fw_gp_pmc(pmu, msr))) {
			if ((msr & MSR_PMC_FULL_WIDTH_BIT) &&
			    (data & ~pmu->counter_bitmask[KVM_PMC_GP]))
				return 1;

			if (!msr_info->host_initiated && !(msr & MSR_PMC_FULL_WIDTH_BIT))
				data = (uint64_t)(int64_t)(int32_t)data;
			pmc_write_counter(pmc, data);
			break;
		} else if ((pmc = get_fixed_pmc(pmu, msr))) {
			pmc_write_counter(pmc, data);
			break;
		} else if ((pmc = get_gp_pmc(pmu, msr, MSR_P6_EVNTSEL0))) {
			reserved_bits = pmu->eventsel_rsvd;
			if ((pmc->idx == 2) && (pmu->raw_event_mask & HSW_IN_TX_CHECKPOINTED))
				reserved_bits ^= HSW_IN_TX_CHECKPOINTED;
			if (data & reserved_bits)
				return 1;

			if (data != pmc->eventsel) {
				pmc->eventsel = data;
				pmc->eventsel_hw = data;
				kvm_pmu_request_counter_reprogram(pmc);
			}
			break;
		}
		/* Not a known PMU MSR. */
		return 1;
	}

	return 0;
}

/*
 * Mirrors intel_get_fixed_pmc_eventsel(): perf's encoding of fixed counter @index's
 * architectural event (instructions, cycles, and the REF_CPU_CYCLES pseudo-encoding).
 */
static uint64_t intel_get_fixed_pmc_eventsel(unsigned int index)
{
	static const uint64_t fixed_pmc_eventsel[KVM_MAX_NR_FIXED_COUNTERS] = { 0x00c0, 0x003c,
										 0x0300 };

	return fixed_pmc_eventsel[index];
}

static unsigned int min_uint(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

/*
 * Mirrors intel_pmu_refresh() (vmx/pmu_intel.c): version, GP counters and width from
 * CPUID.0AH (capped at 8 counters and 48 bits, the host's kvm_pmu_cap); for v2+ the fixed
 * counters (at most 3), FIXED_CTR_CTRL's writable bits (OS, USR, PMI per counter), and the
 * GLOBAL_CTRL/STATUS reserved masks: GLOBAL_STATUS and OVF_CTRL share them, and BUFFER_OVF
 * (62) and COND_CHG (63) are never reserved, with or without DS/PEBS. Left out: TRACE_TOPA_PMI
 * (55), freed only with vmx_pt_mode_is_host_guest() (Intel PT in the guest is not modeled).
 */
static void intel_pmu_refresh(struct vpmc_pmu *pmu, const struct vpmc_pmu_config *cfg)
{
	unsigned int width, i;
	uint64_t counter_rsvd;

	pmu->version = cfg->version;
	pmu->fw_writes = cfg->fw_writes;
	width = min_uint(cfg->gp_width, KVM_MAX_COUNTER_WIDTH);
	pmu->counter_bitmask[KVM_PMC_GP] = BIT_ULL(width) - 1;
	pmu->nr_arch_gp_counters = min_uint(cfg->nr_gp, KVM_MAX_NR_INTEL_GP_COUNTERS);
	pmu->all_valid_pmc_idx = BIT_ULL(pmu->nr_arch_gp_counters) - 1;

	pmu->pebs = cfg->pebs;
	if (cfg->tsx) {
		pmu->eventsel_rsvd ^= HSW_IN_TX;
		pmu->raw_event_mask |= HSW_IN_TX | HSW_IN_TX_CHECKPOINTED;
	}
	if (pmu->version == 1)
		return;

	pmu->nr_arch_fixed_counters = min_uint(cfg->nr_fixed, KVM_MAX_NR_FIXED_COUNTERS);
	pmu->all_valid_pmc_idx |= (BIT_ULL(pmu->nr_arch_fixed_counters) - 1) << KVM_FIXED_PMC_BASE_IDX;
	width = min_uint(cfg->fixed_width, KVM_MAX_COUNTER_WIDTH);
	pmu->counter_bitmask[KVM_PMC_FIXED] = BIT_ULL(width) - 1;

	for (i = 0; i < pmu->nr_arch_fixed_counters; i++)
		pmu->fixed_ctr_ctrl_rsvd &= ~((INTEL_FIXED_0_KERNEL | INTEL_FIXED_0_USER |
					       INTEL_FIXED_0_ENABLE_PMI)
					      << (i * INTEL_FIXED_BITS_STRIDE));

	counter_rsvd = ~((BIT_ULL(pmu->nr_arch_gp_counters) - 1) |
			 ((BIT_ULL(pmu->nr_arch_fixed_counters) - 1) << KVM_FIXED_PMC_BASE_IDX));
	pmu->global_ctrl_rsvd = counter_rsvd;
	/*
	 * GLOBAL_STATUS and GLOBAL_OVF_CONTROL (a.k.a. GLOBAL_STATUS_RESET) share reserved bit
	 * definitions.  The kernel just happens to use OVF_CTRL for the names.
	 */
	pmu->global_status_rsvd = pmu->global_ctrl_rsvd &
				  ~(GLOBAL_STATUS_BUFFER_OVF | GLOBAL_STATUS_COND_CHG);

	if (pmu->pebs)
		pmu->pebs_enable_rsvd = ~(BIT_ULL(pmu->nr_arch_gp_counters) - 1);
}

/* Mirrors intel_pmu_init(): counter types and indices; fixed counters get perf's encoding. */
static void intel_pmu_init(struct vpmc_pmu *pmu)
{
	int i;

	for (i = 0; i < KVM_MAX_NR_INTEL_GP_COUNTERS; i++) {
		pmu->gp_counters[i].type = KVM_PMC_GP;
		pmu->gp_counters[i].idx = i;
		pmu->gp_counters[i].pmu = pmu;
	}
	for (i = 0; i < KVM_MAX_NR_FIXED_COUNTERS; i++) {
		pmu->fixed_counters[i].type = KVM_PMC_FIXED;
		pmu->fixed_counters[i].idx = i + KVM_FIXED_PMC_BASE_IDX;
		pmu->fixed_counters[i].pmu = pmu;
		pmu->fixed_counters[i].eventsel = intel_get_fixed_pmc_eventsel(i);
	}
}

/* struct kvm_pmu_ops intel_pmu_ops */
const struct vpmc_pmu_ops intel_pmu_ops = {
	.rdpmc_ecx_to_pmc = intel_rdpmc_ecx_to_pmc,
	.msr_idx_to_pmc = intel_msr_idx_to_pmc,
	.check_rdpmc_early = NULL,
	.is_valid_msr = intel_is_valid_msr,
	.get_msr = intel_pmu_get_msr,
	.set_msr = intel_pmu_set_msr,
	.refresh = intel_pmu_refresh,
	.init = intel_pmu_init,
	.EVENTSEL_EVENT = ARCH_PERFMON_EVENTSEL_EVENT,
	.INSTRUCTIONS_RETIRED = 0x00c0,
	.BRANCH_INSTRUCTIONS_RETIRED = 0x00c4,
};

/* ---- vpmcsim ---- */

/*
 * intel_rdpmc_ecx_to_pmc() before the 6.9 RDPMC series (5728a4a0ea79 "Disallow "fast" RDPMC for
 * architectural Intel PMUs", 7a0fc734c20d "Treat "fixed" PMU type ... as a value"): bit 30
 * selects fixed, bits 31:30 are dropped from the index, so no type #GPs.
 */
static struct vpmc_pmc *intel_rdpmc_ecx_to_pmc_pre_6_9(struct vpmc_pmu *pmu, unsigned int idx,
						       uint64_t *mask)
{
	bool fixed = idx & INTEL_RDPMC_FIXED;
	struct vpmc_pmc *pmc;

	idx &= ~(3U << 30);
	if (fixed) {
		if (idx >= KVM_MAX_NR_FIXED_COUNTERS)
			return NULL;
		pmc = kvm_pmc_idx_to_pmc(pmu, (int)idx + KVM_FIXED_PMC_BASE_IDX);
		*mask &= pmu->counter_bitmask[KVM_PMC_FIXED];
		return pmc;
	}
	if (idx >= KVM_MAX_NR_GP_COUNTERS)
		return NULL;
	pmc = kvm_pmc_idx_to_pmc(pmu, (int)idx);
	*mask &= pmu->counter_bitmask[KVM_PMC_GP];
	return pmc;
}

/*
 * reprogram_fixed_counters() before 05519c86d699 (6.8): the old value was kept in a u8, so
 * counter 2's old nibble always read 0.
 */
static void reprogram_fixed_counters_pre_6_8(struct vpmc_pmu *pmu, uint64_t data)
{
	uint8_t old_fixed_ctr_ctrl = pmu->fixed_ctr_ctrl;
	int i;

	pmu->fixed_ctr_ctrl = data;
	pmu->fixed_ctr_ctrl_hw = data;
	for (i = 0; i < KVM_MAX_NR_FIXED_COUNTERS; i++) {
		struct vpmc_pmc *pmc = get_fixed_pmc(pmu, MSR_CORE_PERF_FIXED_CTR0 + i);

		if (!pmc || fixed_ctrl_field(data, i) == fixed_ctrl_field(old_fixed_ctr_ctrl, i))
			continue;

		__set_bit(KVM_FIXED_PMC_BASE_IDX + i, &pmu->pmc_in_use);
		kvm_pmu_request_counter_reprogram(pmc);
	}
}
