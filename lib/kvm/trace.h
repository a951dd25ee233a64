/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace.h - Our tracepoints, in the place arch/x86/kvm/trace.h has KVM's: one trace_vpmc_*()
 * call per observation or statistic, skippable as a tracepoint is. Each bumps its
 * struct vpmc_vcpu_stats counter and, if the vCPU's observer takes the kind, reports a
 * struct vpmc_obs stamped with the trace time, the vCPU and the position in a guest segment.
 * Statistics are read only between calls (vpmc_vcpu_stats(), the engine's trigger counter), so
 * a bump may sit anywhere in its twin. trace_vpmc_trigger() is in pmu.c: it needs pmu.c's statics.
 */
#ifndef VPMC_KVM_TRACE_H
#define VPMC_KVM_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "asm/kvm_host.h"

/* Return: true if the vCPU's observer takes observations of @kind (trace_*_enabled()). */
static inline bool trace_vpmc_enabled(const struct vpmc_pmu *pmu, enum vpmc_obs_kind kind)
{
	return pmu->obs.fn && !(pmu->obs.ignore & (1u << kind));
}

/* An observation of @kind about counter @idx (-1: none), stamped; the caller adds the rest. */
static inline struct vpmc_obs __trace_vpmc_obs(const struct vpmc_pmu *pmu,
					       enum vpmc_obs_kind kind, int idx)
{
	struct vpmc_obs o;

	memset(&o, 0, sizeof(o));
	o.kind = kind;
	o.counter = idx;
	o.time_ns = pmu->now_ns;
	o.vcpu = pmu->vcpu_id;
	o.seg_insn = pmu->seg_insn;
	o.seg_br = pmu->seg_br;
	return o;
}

static inline void __trace_vpmc(const struct vpmc_pmu *pmu, const struct vpmc_obs *o)
{
	pmu->obs.fn(pmu->obs.data, o);
}

/*
 * Whether @pmc (or NULL) is a GP counter whose event select has qualifiers the reference does not
 * model: CMASK, INV, EDGE, and Intel's IN_TX / IN_TXCP (on AMD bits 35:32 are event bits). The
 * SDM counts cycles or edges of "events >= CMASK" then, or transactional regions only.
 */
static inline bool trace_vpmc_not_modeled(const struct vpmc_pmc *pmc)
{
	uint64_t q = ARCH_PERFMON_EVENTSEL_CMASK | ARCH_PERFMON_EVENTSEL_INV |
		     ARCH_PERFMON_EVENTSEL_EDGE;

	if (!pmc || pmc->type != KVM_PMC_GP)
		return false;
	if (pmc->pmu->vendor == VPMC_VENDOR_INTEL)
		q |= HSW_IN_TX | HSW_IN_TX_CHECKPOINTED;
	return pmc->eventsel & q;
}

/* OVERFLOW: @status is the GLOBAL_STATUS bit set; @emulated: found by KVM, not by perf's PMI. */
static inline void trace_vpmc_overflow(struct vpmc_pmc *pmc, uint64_t status, bool emulated)
{
	struct vpmc_pmu *pmu = pmc->pmu;
	struct vpmc_obs o;

	pmu->stats.overflows++;
	if (!trace_vpmc_enabled(pmu, VPMC_OBS_OVERFLOW))
		return;
	o = __trace_vpmc_obs(pmu, VPMC_OBS_OVERFLOW, pmc->idx);
	o.value = status;
	o.emulated = emulated;
	o.not_modeled = trace_vpmc_not_modeled(pmc);
	__trace_vpmc(pmu, &o);
}

/* REPROGRAM: how one reprogram_counter() call ended. */
static inline void trace_vpmc_reprogram(struct vpmc_pmc *pmc,
					enum vpmc_reprogram_outcome outcome)
{
	struct vpmc_pmu *pmu = pmc->pmu;
	struct vpmc_obs o;

	pmu->stats.reprograms++;
	if (!trace_vpmc_enabled(pmu, VPMC_OBS_REPROGRAM))
		return;
	o = __trace_vpmc_obs(pmu, VPMC_OBS_REPROGRAM, pmc->idx);
	o.value = outcome;
	o.created = outcome == VPMC_REPROGRAM_CREATED;
	__trace_vpmc(pmu, &o);
}

/* kvm_pmu_handle_event() starts: the DRAIN it reports counts from here. */
static inline void trace_vpmc_drain_begin(struct vpmc_pmu *pmu)
{
	pmu->stats.drains++;
	pmu->drain_base.reprograms = pmu->stats.reprograms;
	pmu->drain_base.perf_resumes = pmu->stats.perf_resumes;
	pmu->drain_base.perf_creates = pmu->stats.perf_creates;
}

/*
 * DRAIN: reprogram_counter() calls, perf events resumed and created since
 * trace_vpmc_drain_begin(); pmc_resume_counter() and pmc_reprogram_counter() have no caller but
 * reprogram_counter().
 */
static inline void trace_vpmc_drain(struct vpmc_pmu *pmu)
{
	struct vpmc_obs o;

	if (!trace_vpmc_enabled(pmu, VPMC_OBS_DRAIN))
		return;
	o = __trace_vpmc_obs(pmu, VPMC_OBS_DRAIN, -1);
	o.nr_reprogrammed = (unsigned int)(pmu->stats.reprograms - pmu->drain_base.reprograms);
	o.nr_resumed = (unsigned int)(pmu->stats.perf_resumes - pmu->drain_base.perf_resumes);
	o.nr_created = (unsigned int)(pmu->stats.perf_creates - pmu->drain_base.perf_creates);
	__trace_vpmc(pmu, &o);
}

/* PMI: kvm_pmu_deliver_pmi() ran; @delivered unless LVTPC was masked. */
static inline void trace_vpmc_pmi(struct vpmc_pmu *pmu, bool delivered)
{
	struct vpmc_obs o;

	if (delivered)
		pmu->stats.pmis_delivered++;
	else
		pmu->stats.pmis_dropped++;
	if (!trace_vpmc_enabled(pmu, VPMC_OBS_PMI))
		return;
	o = __trace_vpmc_obs(pmu, VPMC_OBS_PMI, -1);
	o.delivered = delivered;
	o.global_status = pmu->global_status;
	__trace_vpmc(pmu, &o);
}

/* kvm_pmu_incr_counter() ran. */
static inline void trace_vpmc_increment(struct vpmc_pmc *pmc)
{
	pmc->pmu->stats.increments++;
}

/* A VM-entry (vcpu_enter_guest()). */
static inline void trace_vpmc_entry(struct vpmc_pmu *pmu)
{
	pmu->stats.entries++;
}

/* The host perf event of a counter was created, paused live, resumed, released. */
static inline void trace_vpmc_perf_create(struct vpmc_pmc *pmc)
{
	pmc->pmu->stats.perf_creates++;
}

static inline void trace_vpmc_perf_pause(struct vpmc_pmc *pmc)
{
	pmc->pmu->stats.perf_pauses++;
}

static inline void trace_vpmc_perf_resume(struct vpmc_pmc *pmc)
{
	pmc->pmu->stats.perf_resumes++;
}

static inline void trace_vpmc_perf_release(struct vpmc_pmc *pmc)
{
	pmc->pmu->stats.perf_releases++;
}

/*
 * READ: a guest RDMSR (@rdpmc false, @index the MSR) or RDPMC (@index ECX) of counter @pmc (NULL:
 * not a counter's value) that read @value, or raised #GP (@gp: counter -1, value 0).
 */
static inline void trace_vpmc_read(struct vpmc_pmu *pmu, const struct vpmc_pmc *pmc, bool rdpmc,
				   uint32_t index, uint64_t value, bool gp)
{
	struct vpmc_obs o;

	if (!trace_vpmc_enabled(pmu, VPMC_OBS_READ))
		return;
	o = __trace_vpmc_obs(pmu, VPMC_OBS_READ, gp || !pmc ? -1 : pmc->idx);
	o.rdpmc = rdpmc;
	o.index = index;
	o.gp = gp;
	o.value = gp ? 0 : value;
	o.not_modeled = !gp && trace_vpmc_not_modeled(pmc);
	__trace_vpmc(pmu, &o);
}

/* WRITE: a guest WRMSR of @value to MSR @index (@counter as for READ); @gp: it raised #GP. */
static inline void trace_vpmc_write(struct vpmc_pmu *pmu, int counter, uint32_t index,
				    uint64_t value, bool gp)
{
	struct vpmc_obs o;

	if (!trace_vpmc_enabled(pmu, VPMC_OBS_WRITE))
		return;
	o = __trace_vpmc_obs(pmu, VPMC_OBS_WRITE, gp ? -1 : counter);
	o.index = index;
	o.gp = gp;
	o.value = value; /* what the guest tried to write, also after #GP */
	__trace_vpmc(pmu, &o);
}

#endif /* VPMC_KVM_TRACE_H */
