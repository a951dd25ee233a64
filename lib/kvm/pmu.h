/*
 * pmu.h - KVM's x86 vPMU: struct kvm_pmc / struct kvm_pmu twins and the functions of
 * arch/x86/kvm/pmu.c, pmu.h, vmx/pmu_intel.c and svm/pmu.c (internal; tests link them).
 */
#ifndef VPMC_PMU_H
#define VPMC_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/kvm_host.h"
#include "linux/bitops.h"
#include "linux/kvm_host.h"

/* KVM_FIXED_PMC_BASE_IDX and fixed_ctrl_field() (pmu.h) */
#define KVM_FIXED_PMC_BASE_IDX INTEL_PMC_IDX_FIXED
#define fixed_ctrl_field(ctrl_reg, idx) \
	(((ctrl_reg) >> ((idx) * INTEL_FIXED_BITS_STRIDE)) & INTEL_FIXED_BITS_MASK)

#define KVM_MAX_COUNTER_WIDTH 48    /* kvm_pmu_cap.bit_width_{gp,fixed} of current hosts */

/* Return values of the MSR handlers: KVM's 0 / 1 ("inject #GP"), plus "not a PMU MSR". */
#define KVM_MSR_OK 0
#define KVM_MSR_GP 1
#define KVM_MSR_NOT_PMU 2

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

extern const struct vpmc_pmu_ops intel_pmu_ops;
extern const struct vpmc_pmu_ops amd_pmu_ops;

/* ---- pmu.h inlines ---- */

static inline bool pmc_is_gp(const struct vpmc_pmc *pmc)
{
	return pmc->type == KVM_PMC_GP;
}

static inline bool pmc_is_fixed(const struct vpmc_pmc *pmc)
{
	return pmc->type == KVM_PMC_FIXED;
}

/* Mirrors kvm_pmu_has_perf_global_ctrl(): GLOBAL_CTRL exists from PMU version 2. */
static inline bool kvm_pmu_has_perf_global_ctrl(const struct vpmc_pmu *pmu)
{
	return pmu->version > 1;
}

/* Mirrors kvm_vcpu_has_mediated_pmu(); the reference counter shares the mediated paths. */
static inline bool kvm_vcpu_has_mediated_pmu(const struct vpmc_pmu *pmu)
{
	return pmu->mediated && pmu->version;
}

/* Mirrors kvm_gp_pmc_mask(). */
static inline uint64_t kvm_gp_pmc_mask(const struct vpmc_pmu *pmu)
{
	return pmu->all_valid_pmc_idx & ((1ULL << KVM_MAX_NR_GP_COUNTERS) - 1);
}

/* Mirrors kvm_fixed_pmc_mask(). */
static inline uint64_t kvm_fixed_pmc_mask(const struct vpmc_pmu *pmu)
{
	return (pmu->all_valid_pmc_idx >> KVM_FIXED_PMC_BASE_IDX) &
	       ((1ULL << KVM_MAX_NR_FIXED_COUNTERS) - 1);
}

/**
 * cpl_is_matched() - Mirrors cpl_is_matched() (pmu.c, static inline there too; it runs per
 * candidate counter of every emulated instruction): (OS, USR) from EVNTSEL bits 17/16 or
 * the fixed nibble's bits 0/1; if equal, the answer without reading the CPL; else CPL 0 -> OS,
 * CPL 1..3 -> USR.
 * @pmc: counter
 *
 * Return: true if an event at the vCPU's current CPL counts.
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
		config = fixed_ctrl_field(pmc->pmu->fixed_ctr_ctrl,
					  pmc->idx - KVM_FIXED_PMC_BASE_IDX);
		select_os = config & INTEL_FIXED_0_KERNEL;
		select_user = config & INTEL_FIXED_0_USER;
	}

	if (select_os == select_user)
		return select_os;
	return pmc->pmu->cpl == 0 ? select_os : select_user;
}

/* True if the host kernel the model stands for is older than maj.min (legacy switches). */
static inline bool pmu_host_before(const struct vpmc_pmu *pmu, unsigned int maj, unsigned int min)
{
	return pmu->host_kernel < VPMC_KERNEL(maj, min);
}

/* ---- pmu.c ---- */
void vpmc__pmu_init(struct vpmc_pmu *pmu, const struct vpmc_pmu_config *cfg,
		    const struct vpmc_policy *policy, uint32_t vcpu_id,
		    const struct vpmc_observer *obs);
void vpmc__pmu_destroy(struct vpmc_pmu *pmu);

uint64_t pmc_bitmask(const struct vpmc_pmc *pmc);
uint64_t get_sample_period(const struct vpmc_pmc *pmc, uint64_t counter_value);
uint64_t pmc_read_counter(const struct vpmc_pmc *pmc);
void pmc_write_counter(struct vpmc_pmc *pmc, uint64_t val);
bool pmc_is_locally_enabled(const struct vpmc_pmc *pmc);
bool pmc_is_globally_enabled(const struct vpmc_pmc *pmc);
bool pmc_is_event_allowed(const struct vpmc_pmc *pmc);
bool pmc_is_pmi_enabled(const struct vpmc_pmc *pmc);
bool pmc_is_event_match(const struct vpmc_pmc *pmc, uint64_t eventsel);
struct vpmc_pmc *kvm_pmc_idx_to_pmc(struct vpmc_pmu *pmu, int idx);

/*
 * Mirrors kvm_for_each_pmc() (pmu.h): every counter whose global index is set in @bitmap, in index
 * order (for_each_set_bit), skipping indices that name no counter.
 */
#define kvm_for_each_pmc(pmu, pmc, i, bitmap)                                                 \
	for (uint64_t __bits = (bitmap); __bits && ((i) = __builtin_ctzll(__bits), 1);        \
	     __bits &= __bits - 1)                                                            \
		if (!((pmc) = kvm_pmc_idx_to_pmc((pmu), (i))))                                \
			continue;                                                             \
		else
struct vpmc_pmc *get_gp_pmc(struct vpmc_pmu *pmu, uint32_t msr, uint32_t base);
struct vpmc_pmc *get_fixed_pmc(struct vpmc_pmu *pmu, uint32_t msr);

bool pmc_pause_counter(struct vpmc_pmc *pmc);
bool pmc_resume_counter(struct vpmc_pmc *pmc);
void pmc_release_perf_event(struct vpmc_pmc *pmc);
void pmc_stop_counter(struct vpmc_pmc *pmc);
int pmc_reprogram_counter(struct vpmc_pmc *pmc, uint64_t config, bool exclude_user,
			  bool exclude_kernel, bool intr);
int reprogram_counter(struct vpmc_pmc *pmc);
void kvm_pmu_handle_event(struct vpmc_pmu *pmu);
void __kvm_perf_overflow(struct vpmc_pmc *pmc, bool in_pmi);
void kvm_pmu_deliver_pmi(struct vpmc_pmu *pmu);
void kvm_pmu_recalc_pmc_emulation(struct vpmc_pmu *pmu, struct vpmc_pmc *pmc);
void kvm_pmu_request_counter_reprogram(struct vpmc_pmc *pmc);
void reprogram_counters(struct vpmc_pmu *pmu, uint64_t counters);
void kvm_pmu_incr_counter(struct vpmc_pmc *pmc);
void kvm_pmu_trigger_event(struct vpmc_pmu *pmu, const uint64_t *event_pmcs);
void kvm_pmu_instruction_retired(struct vpmc_pmu *pmu);
void kvm_pmu_branch_retired(struct vpmc_pmu *pmu);
bool kvm_pmu_is_valid_msr(struct vpmc_pmu *pmu, uint32_t msr);
int kvm_pmu_get_msr(struct vpmc_pmu *pmu, struct msr_data *msr_info);
int kvm_pmu_set_msr(struct vpmc_pmu *pmu, struct msr_data *msr_info);
int kvm_pmu_check_rdpmc_early(struct vpmc_pmu *pmu, unsigned int idx);
int kvm_pmu_rdpmc(struct vpmc_pmu *pmu, unsigned int idx, uint64_t *data);
void kvm_pmu_reset(struct vpmc_pmu *pmu);
void kvm_pmu_refresh(struct vpmc_pmu *pmu, const struct vpmc_pmu_config *cfg);
void kvm_pmu_cleanup(struct vpmc_pmu *pmu);
void kvm_pmu_sched_in(struct vpmc_pmu *pmu);
void kvm_mediated_pmu_refresh_event_filter(struct vpmc_pmc *pmc);
int vpmc__x86_set_msr(struct vpmc_pmu *pmu, struct msr_data *msr_info);
int vpmc__x86_get_msr(struct vpmc_pmu *pmu, struct msr_data *msr_info);
bool vpmc__msr_is_pmu(uint32_t msr);
#ifdef VPMC_TESTING
void vpmc__pmu_deliver_skid(struct vpmc_pmu *pmu);
#endif

/* ---- pmu_filter.c ---- */
int kvm_vm_ioctl_set_pmu_event_filter(struct vpmc_pmu *pmu, uint32_t action, uint32_t flags,
				      uint32_t fixed_counter_bitmap, const uint64_t *events,
				      uint32_t nevents);
bool pmu_event_filter_allows(const struct vpmc_pmu *pmu, const struct vpmc_pmc *pmc);

#endif /* VPMC_PMU_H */
