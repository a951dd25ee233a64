/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu.h - Twin of arch/x86/kvm/pmu.h (B-7.0): its inlines, and the prototypes of the functions
 * the kernel exports from pmu.c, vmx/pmu_intel.c, svm/pmu.c and lapic.c. What is ours
 * (entry points, policy seams, test declarations) is in vpmcsim.h.
 */
#ifndef VPMC_PMU_H
#define VPMC_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/kvm_host.h"
#include "linux/bitops.h"
#include "linux/kvm_host.h"

/* retrieve a fixed counter bits out of IA32_FIXED_CTR_CTRL */
#define fixed_ctrl_field(ctrl_reg, idx) \
	(((ctrl_reg) >> ((idx) * INTEL_FIXED_BITS_STRIDE)) & INTEL_FIXED_BITS_MASK)

#define KVM_FIXED_PMC_BASE_IDX INTEL_PMC_IDX_FIXED

/* struct kvm_pmu_ops: the vendor half (vmx/pmu_intel.c, svm/pmu.c). */
struct vpmc_pmu_ops {
	struct vpmc_pmc *(*rdpmc_ecx_to_pmc)(struct vpmc_pmu *pmu, unsigned int idx,
					     uint64_t *mask);
	struct vpmc_pmc *(*msr_idx_to_pmc)(struct vpmc_pmu *pmu, uint32_t msr);
	int (*check_rdpmc_early)(struct vpmc_pmu *pmu, unsigned int idx);
	bool (*is_valid_msr)(struct vpmc_pmu *pmu, uint32_t msr);
	int (*get_msr)(struct vpmc_pmu *pmu, struct msr_data *msr_info);
	int (*set_msr)(struct vpmc_pmu *pmu, struct msr_data *msr_info);
	void (*refresh)(struct vpmc_pmu *pmu, const struct vpmc_pmu_config *cfg);
	void (*init)(struct vpmc_pmu *pmu);
	uint64_t EVENTSEL_EVENT;
	/* kvm_pmu_eventsel: perf's encodings of the events KVM emulates */
	uint64_t INSTRUCTIONS_RETIRED;
	uint64_t BRANCH_INSTRUCTIONS_RETIRED;
};

/* Mirrors kvm_pmu_has_perf_global_ctrl(): GLOBAL_CTRL exists from PMU version 2. */
static inline bool kvm_pmu_has_perf_global_ctrl(const struct vpmc_pmu *pmu)
{
	return pmu->version > 1;
}

/*
 * Mirrors kvm_vcpu_has_mediated_pmu(): pmu->mediated is the twin of enable_mediated_pmu. The
 * reference counter sets it too: it shares the mediated paths (lib/model/reference.c holds
 * where it leaves them).
 */
static inline bool kvm_vcpu_has_mediated_pmu(const struct vpmc_pmu *vcpu)
{
	return vcpu->mediated && vcpu_to_pmu(vcpu)->version;
}

/* Mirrors kvm_pmc_idx_to_pmc(): the counter at a global index (GP 0.., fixed 32..), or NULL. */
static inline struct vpmc_pmc *kvm_pmc_idx_to_pmc(struct vpmc_pmu *pmu, int idx)
{
	if (idx < 0 || idx >= X86_PMC_IDX_MAX || !test_bit(idx, &pmu->all_valid_pmc_idx))
		return NULL;
	if (idx < KVM_MAX_NR_GP_COUNTERS)
		return &pmu->gp_counters[idx];
	if (idx >= KVM_FIXED_PMC_BASE_IDX && idx < KVM_FIXED_PMC_BASE_IDX + KVM_MAX_NR_FIXED_COUNTERS)
		return &pmu->fixed_counters[idx - KVM_FIXED_PMC_BASE_IDX];
	return NULL;
}

/*
 * Mirrors kvm_for_each_pmc(): every counter whose global index is set in @bitmap (a value,
 * read once), in index order (for_each_set_bit), skipping indices that name no counter.
 */
#define kvm_for_each_pmc(pmu, pmc, i, bitmap)                                                 \
	for (uint64_t __bits = (bitmap); __bits && ((i) = __builtin_ctzll(__bits), 1);        \
	     __bits &= __bits - 1)                                                            \
		if (!((pmc) = kvm_pmc_idx_to_pmc((pmu), (i))))                                \
			continue;                                                             \
		else

/* Mirrors pmc_bitmask(): (1 << width) - 1 for the counter's type. */
static inline uint64_t pmc_bitmask(const struct vpmc_pmc *pmc)
{
	const struct vpmc_pmu *pmu = pmc_to_pmu(pmc);

	return pmu->counter_bitmask[pmc->type];
}

/*
 * Mirrors pmc_read_counter(): the guest-visible value, base + pending emulated events + what
 * the live perf event counted, masked; never detects overflow. Mediated: the counter itself.
 */
static inline uint64_t pmc_read_counter(const struct vpmc_pmc *pmc)
{
	uint64_t counter;

	if (kvm_vcpu_has_mediated_pmu(pmu_to_vcpu(pmc_to_pmu(pmc))))
		return pmc->counter & pmc_bitmask(pmc);

	counter = pmc->counter + pmc->emulated_counter;
	if (pmc->perf_event && !pmc->is_paused)
		counter += simperf_read(pmc->perf_event);
	return counter & pmc_bitmask(pmc);
}

void pmc_write_counter(struct vpmc_pmc *pmc, uint64_t val);

static inline bool pmc_is_gp(const struct vpmc_pmc *pmc)
{
	return pmc->type == KVM_PMC_GP;
}

static inline bool pmc_is_fixed(const struct vpmc_pmc *pmc)
{
	return pmc->type == KVM_PMC_FIXED;
}

static inline bool kvm_valid_perf_global_ctrl(const struct vpmc_pmu *pmu, uint64_t data)
{
	return !(pmu->global_ctrl_rsvd & data);
}

/* Mirrors get_gp_pmc(): the GP counter of @msr in the block at @base (PERFCTR0, EVNTSEL0, PMC0). */
static inline struct vpmc_pmc *get_gp_pmc(struct vpmc_pmu *pmu, uint32_t msr, uint32_t base)
{
	if (msr >= base && msr < base + KVM_MAX_NR_GP_COUNTERS)
		return kvm_pmc_idx_to_pmc(pmu, (int)(msr - base));
	return NULL;
}

/* Mirrors get_fixed_pmc(): the fixed counter of FIXED_CTRi. */
static inline struct vpmc_pmc *get_fixed_pmc(struct vpmc_pmu *pmu, uint32_t msr)
{
	uint32_t base = MSR_CORE_PERF_FIXED_CTR0;

	if (msr >= base && msr < base + KVM_MAX_NR_FIXED_COUNTERS)
		return kvm_pmc_idx_to_pmc(pmu, (int)(msr - base) + KVM_FIXED_PMC_BASE_IDX);
	return NULL;
}

/*
 * Mirrors pmc_is_locally_enabled() (pmc_speculative_in_use() before 6.18): GP: EVNTSEL.EN;
 * fixed: OS or USR set in its FIXED_CTR_CTRL nibble.
 */
static inline bool pmc_is_locally_enabled(const struct vpmc_pmc *pmc)
{
	const struct vpmc_pmu *pmu = pmc_to_pmu(pmc);

	if (pmc_is_fixed(pmc))
		return fixed_ctrl_field(pmu->fixed_ctr_ctrl, pmc->idx - KVM_FIXED_PMC_BASE_IDX) &
		       (INTEL_FIXED_0_KERNEL | INTEL_FIXED_0_USER);

	return pmc->eventsel & ARCH_PERFMON_EVENTSEL_ENABLE;
}

void kvm_pmu_recalc_pmc_emulation(struct vpmc_pmu *pmu, struct vpmc_pmc *pmc);

/* Mirrors kvm_pmu_request_counter_reprogram(): recompute the emulation bitmaps, set the
 * counter's reprogram bit, raise KVM_REQ_PMU. */
static inline void kvm_pmu_request_counter_reprogram(struct vpmc_pmc *pmc)
{
	kvm_pmu_recalc_pmc_emulation(pmc_to_pmu(pmc), pmc);

	set_bit(pmc->idx, &pmc_to_pmu(pmc)->reprogram_pmi);
	kvm_make_request(KVM_REQ_PMU, pmu_to_vcpu(pmc_to_pmu(pmc)));
}

/* Mirrors kvm_pmu_request_counters_reprogram() (reprogram_counters() before B-7.0): mark
 * @counters for reprogram, one KVM_REQ_PMU; no recalc; nothing for 0. */
static inline void kvm_pmu_request_counters_reprogram(struct vpmc_pmu *pmu, uint64_t counters)
{
	if (!counters)
		return;

	atomic64_or(counters, &pmu->__reprogram_pmi);
	kvm_make_request(KVM_REQ_PMU, pmu_to_vcpu(pmu));
}

/*
 * Mirrors pmc_is_globally_enabled(): the counter's GLOBAL_CTRL bit; always true on a PMU
 * without GLOBAL_CTRL (v1, 98defd2e1780).
 */
static inline bool pmc_is_globally_enabled(const struct vpmc_pmc *pmc)
{
	const struct vpmc_pmu *pmu = pmc_to_pmu(pmc);

	if (!kvm_pmu_has_perf_global_ctrl(pmu))
		return true;

	return test_bit(pmc->idx, &pmu->global_ctrl);
}

void kvm_pmu_deliver_pmi(struct vpmc_pmu *vcpu);
void kvm_pmu_handle_event(struct vpmc_pmu *vcpu);
int kvm_pmu_rdpmc(struct vpmc_pmu *vcpu, unsigned int idx, uint64_t *data);
int kvm_pmu_check_rdpmc_early(struct vpmc_pmu *vcpu, unsigned int idx);
bool kvm_pmu_is_valid_msr(struct vpmc_pmu *vcpu, uint32_t msr);
int kvm_pmu_get_msr(struct vpmc_pmu *vcpu, struct msr_data *msr_info);
int kvm_pmu_set_msr(struct vpmc_pmu *vcpu, struct msr_data *msr_info);
void kvm_pmu_refresh(struct vpmc_pmu *vcpu, const struct vpmc_pmu_config *cfg);
void kvm_pmu_init(struct vpmc_pmu *vcpu);
void kvm_pmu_cleanup(struct vpmc_pmu *vcpu);
void kvm_pmu_destroy(struct vpmc_pmu *vcpu);
int kvm_vm_ioctl_set_pmu_event_filter(struct vpmc_pmu *vcpu, uint32_t action, uint32_t flags,
				      uint32_t fixed_counter_bitmap, const uint64_t *events,
				      uint32_t nevents);
void kvm_pmu_instruction_retired(struct vpmc_pmu *vcpu);
void kvm_pmu_branch_retired(struct vpmc_pmu *vcpu);

extern const struct vpmc_pmu_ops intel_pmu_ops;
extern const struct vpmc_pmu_ops amd_pmu_ops;

/* arch/x86/kvm/lapic.h (lapic.c), which has no twin header of its own */
int kvm_apic_local_deliver(struct vpmc_pmu *apic, int lvt_type);

#endif /* VPMC_PMU_H */
