/*
 * pmu.h - KVM's x86 vPMU: struct kvm_pmc / struct kvm_pmu twins and the functions of
 * arch/x86/kvm/pmu.c, pmu.h, vmx/pmu_intel.c and svm/pmu.c (internal; tests link them).
 */
#ifndef VPMC_PMU_H
#define VPMC_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "perf.h"
#include "internal.h"

/* ---- architectural constants (arch/x86/include/asm/perf_event.h, msr-index.h) ---- */
#define ARCH_PERFMON_EVENTSEL_EVENT 0x000000ffULL
#define ARCH_PERFMON_EVENTSEL_UMASK 0x0000ff00ULL
#define ARCH_PERFMON_EVENTSEL_USR BIT_ULL(16)
#define ARCH_PERFMON_EVENTSEL_OS BIT_ULL(17)
#define ARCH_PERFMON_EVENTSEL_EDGE BIT_ULL(18)
#define ARCH_PERFMON_EVENTSEL_PIN_CONTROL BIT_ULL(19)
#define ARCH_PERFMON_EVENTSEL_INT BIT_ULL(20)
#define ARCH_PERFMON_EVENTSEL_ANY BIT_ULL(21)
#define ARCH_PERFMON_EVENTSEL_ENABLE BIT_ULL(22)
#define ARCH_PERFMON_EVENTSEL_INV BIT_ULL(23)
#define ARCH_PERFMON_EVENTSEL_CMASK 0xff000000ULL
#define HSW_IN_TX BIT_ULL(32)
#define HSW_IN_TX_CHECKPOINTED BIT_ULL(33)
#define X86_RAW_EVENT_MASK                                                                    \
	(ARCH_PERFMON_EVENTSEL_EVENT | ARCH_PERFMON_EVENTSEL_UMASK | ARCH_PERFMON_EVENTSEL_EDGE | \
	 ARCH_PERFMON_EVENTSEL_INV | ARCH_PERFMON_EVENTSEL_CMASK)
#define AMD64_EVENTSEL_EVENT (ARCH_PERFMON_EVENTSEL_EVENT | (0x0fULL << 32))
#define AMD64_RAW_EVENT_MASK (X86_RAW_EVENT_MASK | AMD64_EVENTSEL_EVENT)
#define AMD64_RAW_EVENT_MASK_NB (AMD64_EVENTSEL_EVENT | ARCH_PERFMON_EVENTSEL_UMASK)

#define INTEL_FIXED_0_KERNEL 0x1ULL
#define INTEL_FIXED_0_USER 0x2ULL
#define INTEL_FIXED_0_ANYTHREAD 0x4ULL
#define INTEL_FIXED_0_ENABLE_PMI 0x8ULL
#define INTEL_FIXED_BITS_MASK 0xfULL
#define INTEL_FIXED_BITS_STRIDE 4
#define fixed_ctrl_field(ctrl_reg, idx) \
	(((ctrl_reg) >> ((idx) * INTEL_FIXED_BITS_STRIDE)) & INTEL_FIXED_BITS_MASK)

#define GLOBAL_STATUS_BUFFER_OVF_BIT 62
#define GLOBAL_STATUS_BUFFER_OVF BIT_ULL(GLOBAL_STATUS_BUFFER_OVF_BIT)
#define GLOBAL_STATUS_COND_CHG BIT_ULL(63)

#define KVM_FIXED_PMC_BASE_IDX 32
#define KVM_MAX_NR_INTEL_GP_COUNTERS 8
#define KVM_MAX_NR_AMD_GP_COUNTERS 6
#define KVM_MAX_NR_GP_COUNTERS KVM_MAX_NR_INTEL_GP_COUNTERS
#define KVM_MAX_NR_FIXED_COUNTERS 3 /* the perf-backed vPMU exposes at most 3 */
#define KVM_MAX_COUNTER_WIDTH 48    /* kvm_pmu_cap.bit_width_{gp,fixed} of current hosts */

/* PERF_COUNT_HW_* ids (include/uapi/linux/perf_event.h); bit n of a "disabled" mask is id n. */
#define PERF_COUNT_HW_INSTRUCTIONS 1
#define PERF_COUNT_HW_BRANCH_INSTRUCTIONS 4

/* MSRs (arch/x86/include/asm/msr-index.h) */
#define MSR_IA32_PERFCTR0 0x000000c1
#define MSR_P6_PERFCTR1 0x000000c2
#define MSR_P6_EVNTSEL0 0x00000186
#define MSR_P6_EVNTSEL1 0x00000187
#define MSR_CORE_PERF_FIXED_CTR0 0x00000309
#define MSR_IA32_PERF_CAPABILITIES 0x00000345
#define MSR_CORE_PERF_FIXED_CTR_CTRL 0x0000038d
#define MSR_CORE_PERF_GLOBAL_STATUS 0x0000038e
#define MSR_CORE_PERF_GLOBAL_CTRL 0x0000038f
#define MSR_CORE_PERF_GLOBAL_OVF_CTRL 0x00000390
#define MSR_CORE_PERF_GLOBAL_STATUS_SET 0x00000391
#define MSR_CORE_PERF_GLOBAL_INUSE 0x00000392
#define MSR_IA32_PEBS_ENABLE 0x000003f1
#define MSR_PEBS_DATA_CFG 0x000003f2
#define MSR_IA32_DS_AREA 0x00000600
#define MSR_IA32_PMC0 0x000004c1
#define MSR_PMC_FULL_WIDTH_BIT (MSR_IA32_PMC0 - MSR_IA32_PERFCTR0)
#define MSR_K7_EVNTSEL0 0xc0010000
#define MSR_K7_EVNTSEL3 0xc0010003
#define MSR_K7_PERFCTR0 0xc0010004
#define MSR_K7_PERFCTR3 0xc0010007
#define MSR_F15H_PERF_CTL0 0xc0010200
#define MSR_F15H_PERF_CTR5 0xc001020b
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS 0xc0000300
#define MSR_AMD64_PERF_CNTR_GLOBAL_CTL 0xc0000301
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR 0xc0000302
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET 0xc0000303
#define X2APIC_MSR_LVTPC 0x00000834 /* APIC_BASE_MSR + (APIC_LVTPC >> 4) */

/* Local APIC LVT bits (arch/x86/include/asm/apicdef.h) */
#define APIC_LVT_MASKED BIT_ULL(16)
#define APIC_DM_NMI 0x00400
#define APIC_LVT_WRITABLE 0x107ffU /* mask | delivery mode | vector (apic_lvt_mask[]) */

/* Requests (KVM_REQ_*), per vCPU, level flags. */
#define KVM_REQ_PMU (1U << 0)
#define KVM_REQ_PMI (1U << 1)

/* KVM_SET_PMU_EVENT_FILTER (include/uapi/asm/kvm.h) */
#define KVM_PMU_EVENT_ALLOW 0
#define KVM_PMU_EVENT_DENY 1
#define KVM_PMU_EVENT_FLAG_MASKED_EVENTS (1U << 0)
#define KVM_PMU_EVENT_FILTER_MAX_EVENTS 300
#define KVM_PMU_MASKED_ENTRY_EVENT_SELECT (0xffULL | (0x0fULL << 32))
#define KVM_PMU_MASKED_ENTRY_UMASK_MASK (0xffULL << 56)
#define KVM_PMU_MASKED_ENTRY_UMASK_MATCH (0xffULL << 8)
#define KVM_PMU_MASKED_ENTRY_EXCLUDE BIT_ULL(55)
#define KVM_PMU_MASKED_ENTRY_UMASK_MASK_SHIFT 56
#define KVM_PMU_ENCODE_MASKED_ENTRY(event_select, mask, match, exclude)                   \
	(((event_select) & 0xffULL) | (((event_select) & 0xf00ULL) << 24) |                \
	 (((mask) & 0xffULL) << 56) | (((match) & 0xffULL) << 8) | ((uint64_t)(!!(exclude)) << 55))

/* Return values of the MSR handlers: KVM's 0 / 1 ("inject #GP"), plus "not a PMU MSR". */
#define KVM_MSR_OK 0
#define KVM_MSR_GP 1
#define KVM_MSR_NOT_PMU 2

enum pmc_type {
	KVM_PMC_GP = 0,
	KVM_PMC_FIXED,
};

struct vpmc_pmu;

/* struct kvm_pmc (arch/x86/include/asm/kvm_host.h). */
struct vpmc_pmc {
	struct vpmc_pmu *pmu;     /* pmc_to_pmu() */
	enum pmc_type type;
	uint8_t idx;              /* global index: GP 0..31, fixed 32.. */
	bool is_paused;           /* the perf event's count has been folded into counter */
	bool intr;                /* PMI on overflow; cached at perf event creation (stale!) */
	uint64_t counter;         /* base value, kept & pmc_bitmask(); not guest-visible */
	uint64_t emulated_counter; /* KVM-generated events not yet folded (6.8+) */
	uint64_t prev_counter;    /* hosts < 6.8: counter before the last emulated increment */
	uint64_t eventsel;        /* GP: guest EVNTSEL; fixed: synthetic architectural event */
	uint64_t eventsel_hw;     /* mediated: what hardware counts with (filter applied) */
	uint64_t current_config;  /* config of the live perf event; 0 when none */
	struct simperf_event *perf_event; /* NULL, or &perf */
	struct simperf_event perf;
};

/* One accepted KVM_SET_PMU_EVENT_FILTER (struct kvm_x86_pmu_event_filter). */
struct vpmc_pmu_event_filter {
	uint32_t action;
	uint32_t flags;
	uint32_t fixed_counter_bitmap;
	uint32_t nevents;
	uint32_t nr_includes;
	uint32_t nr_excludes;
	uint64_t events[KVM_PMU_EVENT_FILTER_MAX_EVENTS]; /* includes, then excludes */
};

/* Race and failure injection (tests only; all off by default). */
struct vpmc_pmu_hooks {
	uint64_t fail_create;    /* counters whose perf event creation fails (-EBUSY) */
	uint64_t refuse_period;  /* counters whose perf_event_period() is refused */
	bool skid;               /* host PMIs are queued until vpmc__pmu_deliver_skid() */
	/* called in reprogram_counter() right after pmc_pause_counter() */
	void (*after_pause)(struct vpmc_pmc *pmc, void *data);
	void *data;
};

struct vpmc_pmu_ops;

/* struct kvm_pmu, plus the bits of struct kvm_vcpu that KVM's PMU code reads. */
struct vpmc_pmu {
	/* first what every emulated instruction reads or writes (kvm_pmu_trigger_event() and
	 * kvm_pmu_incr_counter() run once per instruction and policy): a few cache lines */
	const struct vpmc_pmu_ops *ops;
	unsigned int version;
	unsigned int requests;    /* struct kvm_vcpu: KVM_REQ_PMU | KVM_REQ_PMI */
	uint64_t global_ctrl;
	uint64_t all_valid_pmc_idx; /* GP 0..nr_gp-1, fixed 32.. */
	uint64_t pmc_counting_instructions;
	uint64_t pmc_counting_branches;
	uint64_t reprogram_pmi;   /* an atomic64 in KVM: written by the perf overflow handler */
	uint64_t fixed_ctr_ctrl;
	struct vpmc_pmu_event_filter *filter; /* kvm->arch.pmu_event_filter; owned */
	uint8_t cpl;              /* struct kvm_vcpu: kvm_x86_call(get_cpl) */
	bool mediated;            /* kvm_vcpu_has_mediated_pmu(): mediated or reference policy */
	bool reference;           /* ideal counter: mediated paths + PMI at the event */
	unsigned int host_kernel;
	struct vpmc_policy policy;
	uint64_t now_ns;          /* trace time of the event being applied */
	uint64_t seg_insn, seg_br; /* position inside a guest segment (vpmc_obs), else 0 */
	struct vpmc_observer obs;
	struct vpmc_vcpu_stats stats;

	enum vpmc_vendor vendor;
	unsigned int nr_arch_gp_counters;
	unsigned int nr_arch_fixed_counters;
	bool perfctr_core;        /* AMD: CPUID PerfCtrExtCore (F15H MSRs) */
	bool fw_writes;           /* Intel: PERF_CAPABILITIES.FW_WRITE */
	bool pebs;                /* Intel: PEBS_FORMAT and DS (struct vpmc_pmu_config) */
	uint64_t counter_bitmask[2];
	uint64_t global_status;
	uint64_t fixed_ctr_ctrl_hw;
	uint64_t pebs_enable;
	uint64_t ds_area;
	uint64_t global_ctrl_rsvd;
	uint64_t global_status_rsvd;
	uint64_t fixed_ctr_ctrl_rsvd;
	uint64_t pebs_enable_rsvd;
	uint64_t eventsel_rsvd;
	uint64_t raw_event_mask;
	uint64_t pmc_in_use;
	int event_count;
	bool need_cleanup;
	struct vpmc_pmc gp_counters[KVM_MAX_NR_GP_COUNTERS];
	struct vpmc_pmc fixed_counters[KVM_MAX_NR_FIXED_COUNTERS];

	/* struct kvm_vcpu state the PMU code uses (also requests and cpl above) */
	uint32_t lvtpc;           /* local APIC LVTPC (kvm_lapic_get_reg(APIC_LVTPC)) */

	/* simulation: vCPU id, host PMIs, hooks (policy, host version, observation, time and
	 * stats above) */
	uint32_t vcpu_id;
	bool host_pmi;            /* a hardware overflow interrupted guest mode (forces VM-exit) */
	uint64_t skid_pending;    /* hooks.skid: counters whose overflow handler is pending */
	struct vpmc_pmu_hooks hooks;
};

/* struct msr_data */
struct msr_data {
	bool host_initiated;
	uint32_t index;
	uint64_t data;
};

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

/* The vCPU's observer wants observations of @kind (vpmc__pmu_observe()); callers that build an
 * observation on a hot path ask first. */
static inline bool pmu_observes(const struct vpmc_pmu *pmu, enum vpmc_obs_kind kind)
{
	return pmu->obs.fn && !(pmu->obs.ignore & (1u << kind));
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
void vpmc__pmu_observe(struct vpmc_pmu *pmu, struct vpmc_obs *o);

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
void kvm_perf_overflow(struct vpmc_pmc *pmc);
void __kvm_perf_overflow(struct vpmc_pmc *pmc, bool in_pmi);
void kvm_pmu_deliver_pmi(struct vpmc_pmu *pmu);
void kvm_pmu_recalc_pmc_emulation(struct vpmc_pmu *pmu, struct vpmc_pmc *pmc);
void kvm_pmu_request_counter_reprogram(struct vpmc_pmc *pmc);
void reprogram_counters(struct vpmc_pmu *pmu, uint64_t counters);
void kvm_pmu_incr_counter(struct vpmc_pmc *pmc);
void kvm_pmu_trigger_event(struct vpmc_pmu *pmu, uint64_t event_pmcs, unsigned int perf_hw_id);
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
void vpmc__pmu_deliver_skid(struct vpmc_pmu *pmu);

/* ---- pmu_filter.c ---- */
int kvm_vm_ioctl_set_pmu_event_filter(struct vpmc_pmu *pmu, uint32_t action, uint32_t flags,
				      uint32_t fixed_counter_bitmap, const uint64_t *events,
				      uint32_t nevents);
bool pmu_event_filter_allows(const struct vpmc_pmu *pmu, const struct vpmc_pmc *pmc);

#endif /* VPMC_PMU_H */
