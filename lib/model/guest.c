// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest.c - Guest segments: the host hardware while the guest runs natively. Instructions and
 * branches are counted by the perf events (perf-backed policies) or directly by the counters
 * (mediated, reference); a host PMI forces the VM-exit, and the entry after it, at the exact
 * overflowing instruction.
 */
#include "config.h"

#include "model-local.h"
#include "x86.h"

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

/* A counter as the hardware sees it during a segment. */
struct hw_unit {
	struct vpmc_pmc *pmc;
	enum hw_class cls;
	uint64_t left; /* events until it overflows */
};

/* Mediated: what the loaded hardware selector counts (eventsel_hw / fixed_ctr_ctrl_hw, the
 * guest's GLOBAL_CTRL); the reference: reference.c. */
static bool direct_counts(const struct vpmc_pmc *pmc)
{
	const struct vpmc_pmu *pmu = pmc->pmu;
	bool en, os, usr;

	if (pmu->reference)
		return vpmc__reference_counts(pmc);
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

/* A directly counting counter wrapped in hardware: status bit, and a PMI by its selector that
 * exits guest mode (the reference: reference.c). */
static void direct_overflow(struct vpmc_pmc *pmc, bool *exit)
{
	struct vpmc_pmu *pmu = pmc->pmu;

	pmu->global_status |= BIT_ULL(pmc->idx);
	trace_vpmc_overflow(pmc, BIT_ULL(pmc->idx), false);
	if (pmu->reference) {
		vpmc__reference_overflow_pmi(pmc);
		return;
	}
	if (!direct_pmi_enabled(pmc))
		return;
	pmu->requests |= KVM_REQ_PMI;
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
			/* the host PMI of a hardware overflow interrupts guest mode: KVM handles
			 * the NMI of that VM-exit as from the guest (handle_exception_irqoff()) */
			kvm_before_interrupt(pmu, KVM_HANDLING_NMI);
			if (simperf_count(pmc->perf_event, events))
				exit = true;
			kvm_after_interrupt(pmu);
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
		      uint8_t cpl, uint64_t upto, bool stop_at_pmi, struct vpmc__guest_progress *p)
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
		if (pmu->reference)
			vpmc__reference_deliver_pmi(pmu);
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
 * vpmc_vcpu_guest() - The guest ran natively: see vpmc/model.h. The whole segment in one part.
 */
void vpmc_vcpu_guest(struct vpmc_vcpu *v, uint64_t time_ns, uint64_t insn, uint64_t br,
		     uint8_t cpl)
{
	struct vpmc__guest_progress p = VPMC__GUEST_PROGRESS_INIT;

	guest_run(v, time_ns, insn, br, cpl, insn, false, &p);
}

/**
 * vpmc__vcpu_guest_until_pmi() - A segment in parts, each ending after a delivered PMI: see
 * model.h.
 */
bool vpmc__vcpu_guest_until_pmi(struct vpmc_vcpu *v, uint64_t time_ns, uint64_t insn,
				uint64_t br, uint8_t cpl, uint64_t upto,
				struct vpmc__guest_progress *p)
{
	return guest_run(v, time_ns, insn, br, cpl, upto, true, p);
}
