// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcpu.c - One modeled vCPU driven by native trace events (the public vpmc_vcpu_* API).
 *
 * Drives lib/kvm's x86.c and lapic.c excerpts (entries, MSR exits, the LVTPC register,
 * sched-in) and plays the rest of x86.c around the PMU: kvm_skip_emulated_instruction() /
 * x86_emulate_instruction() retirement, RDPMC exits. Guest segments, the host hardware, are
 * guest.c's.
 */
#include "config.h"

#include <stdlib.h>

#include "model-local.h"

static bool vcpu_cpl_valid(uint8_t cpl)
{
	return cpl <= 3 || cpl == VPMC_CPL_KEEP;
}

static bool config_valid(const struct vpmc_pmu_config *cfg)
{
	if (cfg->vendor != VPMC_VENDOR_INTEL && cfg->vendor != VPMC_VENDOR_AMD)
		return false;
	if (cfg->host_kernel < VPMC_KERNEL_OLDEST)
		return false;
	if (cfg->vendor == VPMC_VENDOR_AMD || !cfg->version)
		return true;
	if (cfg->nr_gp && (!cfg->gp_width || cfg->gp_width > 64))
		return false;
	return cfg->version < 2 || !cfg->nr_fixed || (cfg->fixed_width && cfg->fixed_width <= 64);
}

static unsigned int mask_width(uint64_t mask)
{
	return (unsigned int)__builtin_popcountll(mask);
}

/* The configuration as KVM's refresh capped it. */
static void vcpu_fill_config(struct vpmc_vcpu *v, const struct vpmc_pmu_config *in)
{
	const struct vpmc_pmu *pmu = &v->pmu;

	v->cfg = *in;
	v->cfg.version = pmu->version;
	v->cfg.nr_gp = pmu->nr_arch_gp_counters;
	v->cfg.nr_fixed = pmu->nr_arch_fixed_counters;
	v->cfg.gp_width = mask_width(pmu->counter_bitmask[KVM_PMC_GP]);
	v->cfg.fixed_width = mask_width(pmu->counter_bitmask[KVM_PMC_FIXED]);
	v->cfg.fw_writes = pmu->fw_writes;
	v->cfg.pebs = pmu->pebs;
	v->cfg.tsx = in->tsx && in->vendor == VPMC_VENDOR_INTEL && pmu->version;
}

int vpmc_vcpu_new(struct vpmc_vcpu **out, const struct vpmc_pmu_config *cfg,
		  const struct vpmc_policy *policy, uint32_t id, const struct vpmc_observer *obs)
{
	struct vpmc_vcpu *v;

	if (!out || !cfg || !policy || !config_valid(cfg) ||
	    (unsigned int)policy->kind >= VPMC_POLICY_NR)
		return VPMC_ERR_INVAL;
	v = calloc(1, sizeof(*v));
	if (!v)
		return VPMC_ERR_NOMEM;
	vpmc__pmu_init(&v->pmu, cfg, policy, id, obs);
	vcpu_fill_config(v, cfg);
	*out = v;
	return 0;
}

void vpmc_vcpu_free(struct vpmc_vcpu *v)
{
	if (!v)
		return;
	vpmc__pmu_destroy(&v->pmu);
	free(v);
}

void vpmc_vcpu_entry(struct vpmc_vcpu *v, uint64_t time_ns)
{
	vcpu_begin(v, time_ns);
	vpmc__x86_enter_guest(&v->pmu);
	vcpu_end(v, time_ns);
}

/* Inline in vpmc_vcpu_event(): most events of a trace are instructions KVM retired. */
static inline void vcpu_retire(struct vpmc_vcpu *v, uint64_t time_ns, bool branch, uint8_t cpl)
{
	vcpu_begin(v, time_ns);
	vcpu_set_cpl(v, cpl);
	kvm_pmu_instruction_retired(&v->pmu);
	if (branch)
		kvm_pmu_branch_retired(&v->pmu);
	if (v->pmu.reference)
		vpmc__reference_deliver_pmi(&v->pmu);
	vcpu_end(v, time_ns);
}

void vpmc_vcpu_retire(struct vpmc_vcpu *v, uint64_t time_ns, bool branch, uint8_t cpl)
{
	vcpu_retire(v, time_ns, branch, cpl);
}

/* The counter whose value MSR @msr is (not its event select), or NULL. */
static struct vpmc_pmc *msr_counter(struct vpmc_pmu *pmu, uint32_t msr)
{
	struct vpmc_pmc *pmc;

	if ((msr >= MSR_P6_EVNTSEL0 && msr < MSR_P6_EVNTSEL0 + KVM_MAX_NR_GP_COUNTERS) ||
	    (msr >= MSR_K7_EVNTSEL0 && msr <= MSR_K7_EVNTSEL3) ||
	    (msr >= MSR_F15H_PERF_CTL0 && msr <= MSR_F15H_PERF_CTR5 && !(msr & 1)))
		return NULL;
	pmc = pmu->ops->msr_idx_to_pmc(pmu, msr);
	if (!pmc && pmu->vendor == VPMC_VENDOR_INTEL && pmu->fw_writes)
		pmc = get_gp_pmc(pmu, msr, MSR_IA32_PMC0);
	return pmc;
}

static int vcpu_wrmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t value,
		      bool host)
{
	struct msr_data mi = { .host_initiated = host, .index = msr, .data = value };
	struct vpmc_pmc *pmc;
	int r;

	vcpu_begin(v, time_ns);
	if (msr == X2APIC_MSR_LVTPC) {
		vpmc__lapic_write_lvtpc(&v->pmu, (uint32_t)value);
		vcpu_end(v, time_ns);
		return 0;
	}
	r = vpmc__x86_set_msr(&v->pmu, &mi);
	if (r != KVM_MSR_NOT_PMU && !host) {
		pmc = msr_counter(&v->pmu, msr);
		trace_vpmc_write(&v->pmu, pmc ? pmc->idx : -1, msr, value, r == KVM_MSR_GP);
	}
	vcpu_end(v, time_ns);
	return r == KVM_MSR_GP ? VPMC_GP : 0;
}

static int vcpu_rdmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t *value,
		      bool host)
{
	struct msr_data mi = { .host_initiated = host, .index = msr, .data = 0 };
	int r;

	vcpu_begin(v, time_ns);
	if (msr == X2APIC_MSR_LVTPC) {
		*value = v->pmu.lvtpc;
		vcpu_end(v, time_ns);
		return 0;
	}
	r = vpmc__x86_get_msr(&v->pmu, &mi);
	*value = mi.data;
	if (r != KVM_MSR_NOT_PMU && !host)
		trace_vpmc_read(&v->pmu, msr_counter(&v->pmu, msr), false, msr, mi.data,
				r == KVM_MSR_GP);
	vcpu_end(v, time_ns);
	return r == KVM_MSR_GP ? VPMC_GP : 0;
}

int vpmc_vcpu_wrmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t value)
{
	return vcpu_wrmsr(v, time_ns, msr, value, false);
}

int vpmc_vcpu_rdmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t *value)
{
	return vcpu_rdmsr(v, time_ns, msr, value, false);
}

int vpmc_vcpu_rdpmc(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t ecx, uint64_t *value)
{
	struct vpmc_pmc *pmc;
	uint64_t mask = ~0ULL;
	int gp;

	vcpu_begin(v, time_ns);
	*value = 0;
	gp = kvm_pmu_check_rdpmc_early(&v->pmu, ecx) || kvm_pmu_rdpmc(&v->pmu, ecx, value);
	if (gp)
		*value = 0;
	pmc = gp ? NULL : v->pmu.ops->rdpmc_ecx_to_pmc(&v->pmu, ecx, &mask);
	trace_vpmc_read(&v->pmu, pmc, true, ecx, *value, gp);
	vcpu_end(v, time_ns);
	return gp ? VPMC_GP : 0;
}

void vpmc_vcpu_set_cpl(struct vpmc_vcpu *v, uint64_t time_ns, uint8_t cpl)
{
	vcpu_begin(v, time_ns);
	vcpu_set_cpl(v, cpl);
	vcpu_end(v, time_ns);
}

void vpmc_vcpu_write_lvtpc(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t value)
{
	vcpu_begin(v, time_ns);
	vpmc__lapic_write_lvtpc(&v->pmu, value);
	vcpu_end(v, time_ns);
}

void vpmc_vcpu_sched_out(struct vpmc_vcpu *v, uint64_t time_ns)
{
	vcpu_begin(v, time_ns);
	vcpu_end(v, time_ns);
}

void vpmc_vcpu_sched_in(struct vpmc_vcpu *v, uint64_t time_ns)
{
	vcpu_begin(v, time_ns);
	vpmc__x86_vcpu_load(&v->pmu);
	vcpu_end(v, time_ns);
}

/* Every type but RETIRE; out of line, so that RETIRE, most of a trace's events and run once
 * per event and model, needs no stack frame for the MSR exits' locals. */
static __attribute__((noinline)) void vcpu_event_other(struct vpmc_vcpu *v,
						       const struct vpmc_event *ev)
{
	uint64_t value;

	switch (ev->type) {
	case VPMC_EV_ENTRY:
		vpmc_vcpu_entry(v, ev->time_ns);
		break;
	case VPMC_EV_GUEST:
		vpmc_vcpu_guest(v, ev->time_ns, ev->insn, ev->br, ev->cpl);
		break;
	case VPMC_EV_WRMSR:
		vpmc_vcpu_wrmsr(v, ev->time_ns, ev->index, ev->value);
		break;
	case VPMC_EV_RDMSR:
		vpmc_vcpu_rdmsr(v, ev->time_ns, ev->index, &value);
		break;
	case VPMC_EV_RDPMC:
		vpmc_vcpu_rdpmc(v, ev->time_ns, ev->index, &value);
		break;
	case VPMC_EV_CPL:
		vpmc_vcpu_set_cpl(v, ev->time_ns, ev->cpl);
		break;
	case VPMC_EV_LVTPC:
		vpmc_vcpu_write_lvtpc(v, ev->time_ns, (uint32_t)ev->value);
		break;
	case VPMC_EV_SCHED_OUT:
		vpmc_vcpu_sched_out(v, ev->time_ns);
		break;
	case VPMC_EV_SCHED_IN:
		vpmc_vcpu_sched_in(v, ev->time_ns);
		break;
	default: /* EXIT, IRQ, EOI: no PMU effect; the time still advances */
		vcpu_begin(v, ev->time_ns);
		vcpu_end(v, ev->time_ns);
		break;
	}
}

int vpmc_vcpu_event(struct vpmc_vcpu *v, const struct vpmc_event *ev)
{
	if ((unsigned int)ev->type >= VPMC_EV_NR || !vcpu_cpl_valid(ev->cpl))
		return VPMC_ERR_INVAL;
	if (ev->type == VPMC_EV_RETIRE)
		vcpu_retire(v, ev->time_ns, ev->branch, ev->cpl);
	else
		vcpu_event_other(v, ev);
	return 0;
}

uint64_t vpmc_vcpu_counter(const struct vpmc_vcpu *v, unsigned int idx)
{
	struct vpmc_pmc *pmc;

	if (idx >= 64)
		return 0;
	pmc = kvm_pmc_idx_to_pmc((struct vpmc_pmu *)&v->pmu, (int)idx);
	return pmc ? pmc_read_counter(pmc) : 0;
}

uint64_t vpmc_vcpu_global_status(const struct vpmc_vcpu *v)
{
	return v->pmu.global_status;
}

const struct vpmc_pmu_config *vpmc_vcpu_config(const struct vpmc_vcpu *v)
{
	return &v->cfg;
}

void vpmc_vcpu_stats(const struct vpmc_vcpu *v, struct vpmc_vcpu_stats *st)
{
	*st = v->pmu.stats;
}

/* ---- the replay engine's interface (model.h) ---- */

/**
 * vpmc__vcpu_trigger_count() - The vCPU's count of kvm_pmu_trigger_event() calls: see model.h.
 */
const uint64_t *vpmc__vcpu_trigger_count(const struct vpmc_vcpu *v)
{
	return &v->pmu.stats.triggers;
}

/**
 * vpmc__vcpu_tolerance_seen() - The tolerance comparisons since the last call: see model.h.
 */
void vpmc__vcpu_tolerance_seen(struct vpmc_vcpu *v, uint64_t *le, uint64_t *gt)
{
	if (v->pmu.tol_seen.le > *le)
		*le = v->pmu.tol_seen.le;
	if (v->pmu.tol_seen.gt && (!*gt || v->pmu.tol_seen.gt < *gt))
		*gt = v->pmu.tol_seen.gt;
	v->pmu.tol_seen.le = v->pmu.tol_seen.gt = 0;
}

/* @pmc, copied into another vCPU's PMU @pmu: its pointers into its own vCPU moved there. */
static void counter_rehome(struct vpmc_pmc *pmc, struct vpmc_pmu *pmu)
{
	pmc->pmu = pmu;
	if (pmc->perf_event)
		pmc->perf_event = &pmc->perf;
	if (pmc->perf.overflow_handler_context)
		pmc->perf.overflow_handler_context = pmc;
}

/**
 * vpmc__vcpu_copy() - Make @dst's state @src's: see model.h.
 */
int vpmc__vcpu_copy(struct vpmc_vcpu *dst, const struct vpmc_vcpu *src)
{
	struct vpmc_policy policy = dst->pmu.policy;
	struct vpmc_observer obs = dst->pmu.obs;
	struct vpmc_pmu_event_filter *filter = dst->pmu.filter;
	unsigned int i;

	if (src->pmu.filter && !filter) {
		filter = malloc(sizeof(*filter));
		if (!filter)
			return VPMC_ERR_NOMEM;
	} else if (!src->pmu.filter) {
		free(filter);
		filter = NULL;
	}
	*dst = *src;
	dst->pmu.policy = policy;
	dst->pmu.obs = obs;
	dst->pmu.filter = filter;
	if (filter)
		*filter = *src->pmu.filter;
	for (i = 0; i < KVM_MAX_NR_GP_COUNTERS; i++)
		counter_rehome(&dst->pmu.gp_counters[i], &dst->pmu);
	for (i = 0; i < KVM_MAX_NR_FIXED_COUNTERS; i++)
		counter_rehome(&dst->pmu.fixed_counters[i], &dst->pmu);
	return 0;
}

#ifdef VPMC_TESTING
/**
 * vpmc__vcpu_pmu() - The vCPU's struct vpmc_pmu, for tests that drive kernel functions directly.
 * @v: vCPU
 *
 * Return: the PMU, owned by @v.
 */
struct vpmc_pmu *vpmc__vcpu_pmu(struct vpmc_vcpu *v)
{
	return &v->pmu;
}

/**
 * vpmc__vcpu_host_wrmsr() - A host-initiated KVM_SET_MSRS (e.g. migration restore): as a guest
 * WRMSR but with host_initiated set; not observed.
 * @v: vCPU
 * @time_ns: trace time
 * @msr: MSR index
 * @value: data
 *
 * Return: 0, or VPMC_GP if KVM would fail the write.
 */
int vpmc__vcpu_host_wrmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t value)
{
	return vcpu_wrmsr(v, time_ns, msr, value, true);
}

/**
 * vpmc__vcpu_host_rdmsr() - A host-initiated KVM_GET_MSRS; not observed.
 * @v: vCPU
 * @time_ns: trace time
 * @msr: MSR index
 * @value: data read
 *
 * Return: 0, or VPMC_GP if KVM would fail the read.
 */
int vpmc__vcpu_host_rdmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t *value)
{
	return vcpu_rdmsr(v, time_ns, msr, value, true);
}

/**
 * vpmc__vcpu_deliver_skid() - Deliver the perf overflow interrupts that simperf's inject.skid
 * held back, at @time_ns (a host PMI arriving during a later exit).
 * @v: vCPU
 * @time_ns: trace time
 */
void vpmc__vcpu_deliver_skid(struct vpmc_vcpu *v, uint64_t time_ns)
{
	vcpu_begin(v, time_ns);
	vpmc__pmu_deliver_skid(&v->pmu);
	vcpu_end(v, time_ns);
}
#endif
