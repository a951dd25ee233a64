/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * asm/kvm_host.h - Twins of arch/x86/include/asm/kvm_host.h: struct kvm_pmc and struct kvm_pmu
 * (as struct vpmc_pmc and struct vpmc_pmu), the KVM_REQ_* requests, struct msr_data, and the
 * event filter KVM keeps per VM (with its uapi constants from arch/x86/include/uapi/asm/kvm.h).
 *
 * "pmu stands for the vCPU": struct vpmc_pmu also carries the requests, CPL and LVTPC that KVM
 * keeps in struct kvm_vcpu. Fields with no kernel counterpart are marked "vpmcsim".
 */
#ifndef VPMC_ASM_KVM_HOST_H
#define VPMC_ASM_KVM_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vpmc/model.h>

#include "internal.h"
#include "msr-index.h"
#include "perf.h"

#define KVM_MAX_NR_INTEL_GP_COUNTERS 8
#define KVM_MAX_NR_AMD_GP_COUNTERS 6
#define KVM_MAX_NR_GP_COUNTERS KVM_MAX_NR_INTEL_GP_COUNTERS
#define KVM_MAX_NR_FIXED_COUNTERS 3 /* the perf-backed vPMU exposes at most 3 */
_Static_assert(KVM_MAX_NR_GP_COUNTERS == VPMC_MAX_GP &&
		       KVM_MAX_NR_FIXED_COUNTERS == VPMC_MAX_FIXED,
	       "the public counter limits (vpmc/event.h) are KVM's");

/* Requests (KVM_REQ_*), per vCPU, level flags. */
#define KVM_REQ_PMU (1U << 0)
#define KVM_REQ_PMI (1U << 1)

/* KVM_SET_PMU_EVENT_FILTER (arch/x86/include/uapi/asm/kvm.h; the limit is pmu.c's) */
#define KVM_PMU_EVENT_ALLOW 0
#define KVM_PMU_EVENT_DENY 1
#define KVM_PMU_EVENT_FLAG_MASKED_EVENTS (1U << 0)
#define KVM_PMU_EVENT_FILTER_MAX_EVENTS 300
#define KVM_PMU_MASKED_ENTRY_EVENT_SELECT (0xffULL | (0x0fULL << 32))
#define KVM_PMU_MASKED_ENTRY_UMASK_MASK (0xffULL << 56)
#define KVM_PMU_MASKED_ENTRY_UMASK_MATCH (0xffULL << 8)
#define KVM_PMU_MASKED_ENTRY_EXCLUDE (1ULL << 55)
#define KVM_PMU_MASKED_ENTRY_UMASK_MASK_SHIFT 56
#define KVM_PMU_ENCODE_MASKED_ENTRY(event_select, mask, match, exclude)                   \
	(((event_select) & 0xffULL) | (((event_select) & 0xf00ULL) << 24) |                \
	 (((mask) & 0xffULL) << 56) | (((match) & 0xffULL) << 8) | ((uint64_t)(!!(exclude)) << 55))

enum pmc_type {
	KVM_PMC_GP = 0,
	KVM_PMC_FIXED,
};

struct vpmc_pmu;

/* struct kvm_pmc */
struct vpmc_pmc {
	struct vpmc_pmu *pmu;     /* pmc_to_pmu(); first: read with every counter */
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
	struct simperf_event perf; /* vpmcsim: the storage perf would allocate */
};

/* struct kvm_x86_pmu_event_filter: one accepted KVM_SET_PMU_EVENT_FILTER. */
struct vpmc_pmu_event_filter {
	uint32_t action;
	uint32_t flags;
	uint32_t fixed_counter_bitmap;
	uint32_t nevents;
	uint32_t nr_includes;
	uint32_t nr_excludes;
	uint64_t events[KVM_PMU_EVENT_FILTER_MAX_EVENTS]; /* includes, then excludes */
};

struct vpmc_pmu_ops;

/* struct kvm_pmu, plus the bits of struct kvm_vcpu that KVM's PMU code reads. */
struct vpmc_pmu {
	/* first what every emulated instruction reads or writes (kvm_pmu_trigger_event() and
	 * kvm_pmu_incr_counter() run once per instruction and policy): a few cache lines */
	const struct vpmc_pmu_ops *ops; /* vpmcsim: KVM's are global (kvm_pmu_ops) */
	unsigned int version;
	unsigned int requests;    /* struct kvm_vcpu: KVM_REQ_PMU | KVM_REQ_PMI */
	uint64_t global_ctrl;
	uint64_t all_valid_pmc_idx; /* GP 0..nr_gp-1, fixed 32.. */
	uint64_t pmc_counting_instructions;
	uint64_t pmc_counting_branches;
	union {
		uint64_t reprogram_pmi;   /* DECLARE_BITMAP(reprogram_pmi, X86_PMC_IDX_MAX) */
		uint64_t __reprogram_pmi; /* atomic64_t: the perf overflow handler writes it */
	};
	uint64_t fixed_ctr_ctrl;
	struct vpmc_pmu_event_filter *filter; /* kvm->arch.pmu_event_filter; owned */
	uint8_t cpl;              /* struct kvm_vcpu: kvm_x86_call(get_cpl) */
	bool mediated;            /* enable_mediated_pmu: mediated or reference policy */
	bool reference;           /* vpmcsim: ideal counter, mediated paths + PMI at the event */
	unsigned int host_kernel; /* vpmcsim: VPMC_KERNEL() of the host modeled */
	struct vpmc_policy policy; /* vpmcsim: accounting policy (the seams in vpmcsim.h) */
	uint64_t now_ns;          /* vpmcsim: trace time of the event being applied */
	uint64_t seg_insn, seg_br; /* vpmcsim: position inside a guest segment (vpmc_obs), else 0 */
	struct vpmc_observer obs; /* vpmcsim: where trace_vpmc_*() report */
	struct vpmc_vcpu_stats stats; /* vpmcsim: bumped by trace_vpmc_*() */

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
	uint8_t handling_intr_from_guest; /* vcpu->arch's: KVM_HANDLING_NMI while the host NMI
					   * that exited guest mode is handled (x86.h) */
	bool irq_work;            /* struct kvm_pmu's irq_work before 73554b29bd70 (6.6): queued
				   * by a host PMI outside guest mode, runs kvm_pmi_trigger_fn() */

	uint32_t vcpu_id;         /* vpmcsim: for observations */
	struct {
		uint64_t reprograms, perf_resumes, perf_creates;
	} drain_base;             /* vpmcsim: stats at trace_vpmc_drain_begin() */
	/* vpmcsim: the tolerance policies' comparisons with their T since the last look: the
	 * largest count found <= T, the smallest found > T (0: none); lanes that differ only
	 * in T give the same answers for any T in [le, gt) (lib/replay/alike.c) */
	struct {
		uint64_t le, gt;
	} tol_seen;
};

/* struct msr_data */
struct msr_data {
	bool host_initiated;
	uint32_t index;
	uint64_t data;
};

/* The per-event fields come first (HACKING.md, Performance): a sweep's lanes keep them in L1. */
_Static_assert(offsetof(struct vpmc_pmc, pmu) == 0, "pmc->pmu is read with every counter");
_Static_assert(sizeof(struct vpmc_pmc) == 152, "struct vpmc_pmc grew, and the counter arrays");
_Static_assert(offsetof(struct vpmc_pmu, vendor) <= 4 * 64,
	       "the per-event fields of struct vpmc_pmu span at most 4 cache lines");

#endif /* VPMC_ASM_KVM_HOST_H */
