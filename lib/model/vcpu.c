/*
 * vcpu.c - One modeled vCPU driven by native trace events (the public vpmc_vcpu_* API).
 *
 * Drives lib/kvm's x86.c and lapic.c excerpts (entries, MSR exits, the LVTPC register,
 * sched-in) and plays the rest of x86.c around the PMU: kvm_skip_emulated_instruction() /
 * x86_emulate_instruction() retirement, RDPMC exits; and the host hardware: guest segments
 * counted by the perf events (perf-backed policies) or directly by the counters (mediated,
 * reference), with the VM-exit a host PMI forces at the exact overflowing instruction.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "trace.h"
#include "vpmcsim.h"

struct vpmc_vcpu {
	uint64_t t_prev;            /* time of this vCPU's previous event, ns */
	bool has_prev;
	struct vpmc_pmu pmu;        /* next to t_prev: its hot fields come first */
	struct vpmc_pmu_config cfg; /* after KVM's caps */
};
_Static_assert(offsetof(struct vpmc_vcpu, pmu) == 16,
	       "struct vpmc_vcpu: the pmu's per-event fields follow t_prev (HACKING.md, Performance)");

/* Which architectural event a guest hardware counter counts in a segment (trace-format.md):
 * instructions (0xc0) or branches (Intel 0xc4, AMD 0xc2), unit mask 0; anything else (cycles,
 * reference cycles, umask variants) counts nothing in the model. */
enum hw_class {
	HW_NONE,
	HW_INSN,
	HW_BRANCH,
};

static enum hw_class hw_event_class(const struct vpmc_pmu *pmu, uint64_t eventsel)
{
	if (!((eventsel ^ pmu->ops->INSTRUCTIONS_RETIRED) & AMD64_RAW_EVENT_MASK_NB))
		return HW_INSN;
	if (!((eventsel ^ pmu->ops->BRANCH_INSTRUCTIONS_RETIRED) & AMD64_RAW_EVENT_MASK_NB))
		return HW_BRANCH;
	return HW_NONE;
}

static bool vcpu_cpl_valid(uint8_t cpl)
{
	return cpl <= 3 || cpl == VPMC_CPL_KEEP;
}

static void vcpu_set_cpl(struct vpmc_vcpu *v, uint8_t cpl)
{
	if (cpl <= 3)
		v->pmu.cpl = cpl;
}

/* Start applying an event at @time_ns. */
static void vcpu_begin(struct vpmc_vcpu *v, uint64_t time_ns)
{
	if (!v->has_prev) {
		v->t_prev = time_ns;
		v->has_prev = true;
	}
	v->pmu.now_ns = time_ns;
}

static void vcpu_end(struct vpmc_vcpu *v, uint64_t time_ns)
{
	v->t_prev = time_ns;
}

/* The reference counter's PMI reaches the guest at the event that caused it. */
static void vcpu_reference_pmi(struct vpmc_vcpu *v)
{
	if (v->pmu.reference && (v->pmu.requests & KVM_REQ_PMI)) {
		v->pmu.requests &= ~KVM_REQ_PMI;
		kvm_pmu_deliver_pmi(&v->pmu);
	}
}

/* ---- guest segments ---- */

/* A counter as the hardware sees it during a segment. */
struct hw_unit {
	struct vpmc_pmc *pmc;
	enum hw_class cls;
	uint64_t left; /* events until it overflows */
};

/* Mediated: what the loaded hardware selector counts (eventsel_hw / fixed_ctr_ctrl_hw, the
 * guest's GLOBAL_CTRL); reference: the architectural state, filter included. */
static bool direct_counts(const struct vpmc_pmc *pmc)
{
	const struct vpmc_pmu *pmu = pmc->pmu;
	bool en, os, usr;

	if (pmu->reference)
		return pmc_is_locally_enabled(pmc) && pmc_is_globally_enabled(pmc) &&
		       vpmc__pmc_is_event_allowed(pmc) && vpmc__cpl_is_matched(pmc);
	if (pmc_is_gp(pmc)) {
		en = pmc->eventsel_hw & ARCH_PERFMON_EVENTSEL_ENABLE;
		os = pmc->eventsel_hw & ARCH_PERFMON_EVENTSEL_OS;
		usr = pmc->eventsel_hw & ARCH_PERFMON_EVENTSEL_USR;
	} else {
		uint64_t f = fixed_ctrl_field(pmu->fixed_ctr_ctrl_hw, pmc->idx - KVM_FIXED_PMC_BASE_IDX);

		os = f & INTEL_FIXED_0_KERNEL;
		usr = f & INTEL_FIXED_0_USER;
		en = os || usr;
	}
	return en && pmc_is_globally_enabled(pmc) && (pmu->cpl == 0 ? os : usr);
}

/* Mediated: the hardware raises a PMI if the loaded selector has INT / the fixed PMI bit. */
static bool direct_pmi_enabled(const struct vpmc_pmc *pmc)
{
	if (pmc->pmu->reference)
		return vpmc__pmc_is_pmi_enabled(pmc);
	if (pmc_is_gp(pmc))
		return pmc->eventsel_hw & ARCH_PERFMON_EVENTSEL_INT;
	return fixed_ctrl_field(pmc->pmu->fixed_ctr_ctrl_hw, pmc->idx - KVM_FIXED_PMC_BASE_IDX) &
	       INTEL_FIXED_0_ENABLE_PMI;
}

/* Collect the counters that count in this segment; returns how many. */
static unsigned int hw_units(struct vpmc_pmu *pmu, struct hw_unit *u)
{
	struct vpmc_pmc *pmc;
	unsigned int n = 0;
	enum hw_class cls;
	int i;

	kvm_for_each_pmc(pmu, pmc, i, pmu->all_valid_pmc_idx) {
		if (kvm_vcpu_has_mediated_pmu(pmu)) {
			cls = hw_event_class(pmu, pmc->eventsel);
			if (cls == HW_NONE || !direct_counts(pmc))
				continue;
			u[n].left = vpmc__get_sample_period(pmc, pmc->counter);
		} else {
			if (!pmc->perf_event || !simperf_counts_at(pmc->perf_event, pmu->cpl))
				continue;
			cls = hw_event_class(pmu, pmc->perf_event->attr.config);
			if (cls == HW_NONE)
				continue;
			u[n].left = simperf_events_to_overflow(pmc->perf_event);
		}
		u[n].pmc = pmc;
		u[n].cls = cls;
		n++;
	}
	return n;
}

/* Branches among the first @i of @insn instructions: floor(i * br / insn). */
static uint64_t seg_branches(uint64_t i, uint64_t insn, uint64_t br)
{
	return (uint64_t)(((unsigned __int128)i * br) / insn);
}

/* Instruction at which the @b-th branch retires: the least i with seg_branches(i) >= b. */
static uint64_t seg_insn_of_branch(uint64_t b, uint64_t insn, uint64_t br)
{
	unsigned __int128 x = (unsigned __int128)b * insn;

	return (uint64_t)((x + br - 1) / br);
}

/* Time of instruction @i of the segment (t_prev, t]: t_prev + i * (t - t_prev) / insn. */
static uint64_t seg_time(uint64_t t_prev, uint64_t t, uint64_t i, uint64_t insn)
{
	if (t <= t_prev)
		return t;
	return t_prev + (uint64_t)(((unsigned __int128)i * (t - t_prev)) / insn);
}

/* Instruction index (> @pos) at which unit @u overflows, or UINT64_MAX past the segment. */
static uint64_t hw_unit_overflow_at(const struct hw_unit *u, uint64_t pos, uint64_t insn,
				    uint64_t br)
{
	uint64_t target;

	if (u->cls == HW_INSN)
		return u->left <= insn - pos ? pos + u->left : UINT64_MAX;
	target = seg_branches(pos, insn, br);
	if (u->left > br - target)
		return UINT64_MAX;
	return seg_insn_of_branch(target + u->left, insn, br);
}

/* A directly counting counter wrapped in hardware: status bit, and a PMI by its selector. */
static void direct_overflow(struct vpmc_pmc *pmc, bool *exit)
{
	struct vpmc_pmu *pmu = pmc->pmu;

	pmu->global_status |= BIT_ULL(pmc->idx);
	trace_vpmc_overflow(pmc, BIT_ULL(pmc->idx), false);
	if (!direct_pmi_enabled(pmc))
		return;
	pmu->requests |= KVM_REQ_PMI;
	if (!pmu->reference)
		*exit = true; /* kvm_handle_guest_mediated_pmi(): the host PMI exits the guest */
}

/* Count @ni instructions and @nb branches on every unit; true if guest mode must exit. */
static bool hw_units_count(struct vpmc_pmu *pmu, struct hw_unit *u, unsigned int n, uint64_t ni,
			   uint64_t nb)
{
	bool exit = false;
	unsigned int k;

	for (k = 0; k < n; k++) {
		uint64_t events = u[k].cls == HW_INSN ? ni : nb;
		struct vpmc_pmc *pmc = u[k].pmc;

		if (!events)
			continue;
		if (!kvm_vcpu_has_mediated_pmu(pmu)) {
			/* the host PMI of a hardware overflow interrupts guest mode */
			if (simperf_count(pmc->perf_event, events))
				exit = true;
			continue;
		}
		pmc->counter = (pmc->counter + events) & pmc_bitmask(pmc);
		if (events == u[k].left)
			direct_overflow(pmc, &exit);
	}
	return exit;
}

/*
 * Run instructions p->insn + 1 .. min(@upto, @insn) of a segment; with @stop_at_pmi, stop after
 * the first step in which a PMI reached the guest. Each step runs to the next instruction at
 * which some counter overflows in hardware, handles it there (implicit VM-exit and entry for a
 * host PMI; the reference's PMI at once) and continues with the counters as the drain left
 * them. Return: true while instructions remain.
 */
static bool guest_run(struct vpmc_vcpu *v, uint64_t time_ns, uint64_t insn, uint64_t br,
		      uint8_t cpl, uint64_t upto, bool stop_at_pmi, struct vpmc_guest_progress *p)
{
	struct vpmc_pmu *pmu = &v->pmu;
	struct hw_unit u[KVM_MAX_NR_GP_COUNTERS + KVM_MAX_NR_FIXED_COUNTERS];
	uint64_t pos = p->insn, end = upto < insn ? upto : insn;

	vcpu_begin(v, time_ns);
	if (!p->started) {
		p->t_start = p->time_ns = v->t_prev;
		p->started = true;
	}
	vcpu_set_cpl(v, cpl);
	if (br > insn)
		br = insn;
	p->pmi = false;
	while (pos < end && !p->pmi) {
		unsigned int n = hw_units(pmu, u), k;
		uint64_t next = end, pmis = pmu->stats.pmis_delivered;

		for (k = 0; k < n; k++) {
			uint64_t at = hw_unit_overflow_at(&u[k], pos, insn, br);

			if (at < next)
				next = at;
		}
		pmu->now_ns = seg_time(p->t_start, time_ns, next, insn);
		pmu->seg_insn = next;
		pmu->seg_br = seg_branches(next, insn, br);
		if (hw_units_count(pmu, u, n, next - pos, pmu->seg_br - seg_branches(pos, insn, br)))
			vpmc__x86_enter_guest(&v->pmu);
		vcpu_reference_pmi(v);
		pos = next;
		p->pmi = stop_at_pmi && pmu->stats.pmis_delivered != pmis;
	}
	p->insn = pos;
	p->br = insn ? seg_branches(pos, insn, br) : 0;
	p->time_ns = pos < insn ? seg_time(p->t_start, time_ns, pos, insn) : time_ns;
	pmu->seg_insn = pmu->seg_br = 0;
	pmu->now_ns = p->time_ns;
	vcpu_end(v, p->time_ns);
	return pos < insn;
}

/**
 * vpmc_vcpu_guest() - The guest ran natively: see vpmc.h. The whole segment in one part.
 */
void vpmc_vcpu_guest(struct vpmc_vcpu *v, uint64_t time_ns, uint64_t insn, uint64_t br,
		     uint8_t cpl)
{
	struct vpmc_guest_progress p = VPMC_GUEST_PROGRESS_INIT;

	guest_run(v, time_ns, insn, br, cpl, insn, false, &p);
}

/**
 * vpmc_vcpu_guest_until_pmi() - A segment in parts, each ending after a delivered PMI: see
 * vpmc.h.
 */
bool vpmc_vcpu_guest_until_pmi(struct vpmc_vcpu *v, uint64_t time_ns, uint64_t insn, uint64_t br,
			       uint8_t cpl, uint64_t upto, struct vpmc_guest_progress *p)
{
	return guest_run(v, time_ns, insn, br, cpl, upto, true, p);
}

/* ---- the rest of the public API ---- */

static bool config_valid(const struct vpmc_pmu_config *cfg)
{
	if (cfg->vendor != VPMC_VENDOR_INTEL && cfg->vendor != VPMC_VENDOR_AMD)
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
	vcpu_reference_pmi(v);
	vcpu_end(v, time_ns);
}

void vpmc_vcpu_retire(struct vpmc_vcpu *v, uint64_t time_ns, bool branch, uint8_t cpl)
{
	vcpu_retire(v, time_ns, branch, cpl);
}

/* The counter whose value MSR @msr is (not its event select), or -1. */
static int msr_counter(struct vpmc_pmu *pmu, uint32_t msr)
{
	struct vpmc_pmc *pmc;

	if ((msr >= MSR_P6_EVNTSEL0 && msr < MSR_P6_EVNTSEL0 + KVM_MAX_NR_GP_COUNTERS) ||
	    (msr >= MSR_K7_EVNTSEL0 && msr <= MSR_K7_EVNTSEL3) ||
	    (msr >= MSR_F15H_PERF_CTL0 && msr <= MSR_F15H_PERF_CTR5 && !(msr & 1)))
		return -1;
	pmc = pmu->ops->msr_idx_to_pmc(pmu, msr);
	if (!pmc && pmu->vendor == VPMC_VENDOR_INTEL && pmu->fw_writes)
		pmc = get_gp_pmc(pmu, msr, MSR_IA32_PMC0);
	return pmc ? pmc->idx : -1;
}

static int vcpu_wrmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t value,
		      bool host)
{
	struct msr_data mi = { .host_initiated = host, .index = msr, .data = value };
	int r;

	vcpu_begin(v, time_ns);
	if (msr == X2APIC_MSR_LVTPC) {
		vpmc__lapic_write_lvtpc(&v->pmu, (uint32_t)value);
		vcpu_end(v, time_ns);
		return 0;
	}
	r = vpmc__x86_set_msr(&v->pmu, &mi);
	if (r != KVM_MSR_NOT_PMU && !host)
		trace_vpmc_write(&v->pmu, msr_counter(&v->pmu, msr), msr, value, r == KVM_MSR_GP);
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
	trace_vpmc_read(&v->pmu, pmc ? pmc->idx : -1, true, ecx, *value, gp);
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

int vpmc_vcpu_event(struct vpmc_vcpu *v, const struct vpmc_event *ev)
{
	uint64_t value;

	if ((unsigned int)ev->type >= VPMC_EV_NR || !vcpu_cpl_valid(ev->cpl))
		return VPMC_ERR_INVAL;
	switch (ev->type) {
	case VPMC_EV_ENTRY:
		vpmc_vcpu_entry(v, ev->time_ns);
		break;
	case VPMC_EV_GUEST:
		vpmc_vcpu_guest(v, ev->time_ns, ev->insn, ev->br, ev->cpl);
		break;
	case VPMC_EV_RETIRE:
		vcpu_retire(v, ev->time_ns, ev->branch, ev->cpl);
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

/* ---- internal hooks (vcpu.h) ---- */

/**
 * vpmc__vcpu_trigger_count() - Where the vCPU counts its kvm_pmu_trigger_event() calls past the
 * GLOBAL_CTRL gate (vpmc_vcpu_stats().triggers), for a caller that reads it per event.
 * @v: vCPU
 *
 * Return: the counter, owned by @v, valid until vpmc_vcpu_free().
 */
const uint64_t *vpmc__vcpu_trigger_count(const struct vpmc_vcpu *v)
{
	return &v->pmu.stats.triggers;
}

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

#ifdef VPMC_TESTING
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
