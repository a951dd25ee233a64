// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_vcpu.c - The vCPU driver (lib/model/vcpu.c, guest.c): worked timelines of semantics
 * §2.14, guest segments (exact overflow instruction and time, implicit exit/entry), requests,
 * LVTPC, CPL, observations and statistics. Expected values are derived from KVM's code in the
 * comments.
 */
#include "config.h"

#include <stdio.h>

#include "harness-internal.h"

#define SEL_INSN_PMI (EN | INT | OS | USR | INSN) /* 0x5300c0 */
#define SEL_INSN (EN | OS | INSN)

/*
 * §2.14 A: GP0 preset to 2^48-2 and enabled (setup WRMSRs not retired here); the drain creates
 * the perf event with get_sample_period(2^48-2) = 2. One native instruction (perf count 1, no
 * overflow: armed 2), then CPUID retires: emulated_counter = 1, KVM_REQ_PMU. The entry's drain:
 * pmc_pause_counter(): c = 2^48-2 + 1 = 2^48-1 = prev; + 1 emulated -> 0 < prev: emulated
 * overflow, __kvm_perf_overflow(in_pmi=false): status bit 0, intr (INT at creation) -> PMI.
 * Same config -> resumed with period get_sample_period(0) = 2^48. PMI delivered, LVTPC masked.
 */
START_TEST(test_timeline_a_emulated_overflow)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);
	struct vpmc_vcpu_stats st;
	const struct vpmc_obs *o;

	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x4c1, M48 - 1), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x186, SEL_INSN_PMI), 0);
	vpmc_vcpu_entry(v, 10);
	ck_assert_ptr_nonnull(pmu->gp_counters[0].perf_event);
	ck_assert_uint_eq(pmu->gp_counters[0].perf_event->attr.sample_period, 2);

	vpmc_vcpu_guest(v, 20, 1, 0, VPMC_CPL_KEEP);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0);
	vpmc_vcpu_retire(v, 30, false, VPMC_CPL_KEEP);
	ck_assert_uint_eq(pmu->gp_counters[0].emulated_counter, 1);
	/* the read is exact before the drain: (2^48-2 + 1 + 1) & mask = 0 */
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0);

	vpmc_vcpu_entry(v, 40);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	ck_assert_uint_eq(pmu->gp_counters[0].perf_event->attr.sample_period, 1ULL << 48);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	o = rec_nth(&r, VPMC_OBS_PMI, 0);
	ck_assert(o->delivered);
	ck_assert_uint_eq(o->time_ns, 40);
	ck_assert_uint_eq(o->global_status, 1);
	o = rec_nth(&r, VPMC_OBS_OVERFLOW, 0);
	ck_assert(o->emulated);
	ck_assert_int_eq(o->counter, 0);
	ck_assert_uint_eq(o->time_ns, 40);
	ck_assert_uint_eq(rdmsr_ok(v, 50, 0x834) & APIC_LVT_MASKED, APIC_LVT_MASKED);

	vpmc_vcpu_stats(v, &st);
	ck_assert_uint_eq(st.perf_creates, 1);
	ck_assert_uint_eq(st.perf_resumes, 1);
	ck_assert_uint_eq(st.overflows, 1);
	ck_assert_uint_eq(st.pmis_delivered, 1);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * §2.14 B: the guest runs 2 instructions natively: the armed 2 events run out at instruction 2,
 * kvm_perf_overflow() finds bit 0 clear: status bit 0, KVM_REQ_PMI, KVM_REQ_PMU. The host PMI
 * exits the guest there (implicit exit/entry at t = 0 + 2 * 20 / 2 = 20): drain c = 2^48-2 + 2
 * = 0 = prev, nothing emulated; PMI delivered. Then CPUID: emulated 1; next drain: prev 0,
 * counter 1, no overflow. Exactly one status bit and one PMI; counter 1.
 */
START_TEST(test_timeline_b_hardware_first)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);
	const struct vpmc_obs *o;

	vpmc_vcpu_wrmsr(v, 0, 0x4c1, M48 - 1);
	vpmc_vcpu_wrmsr(v, 0, 0x186, SEL_INSN_PMI);
	vpmc_vcpu_entry(v, 0);
	vpmc_vcpu_guest(v, 20, 2, 0, VPMC_CPL_KEEP);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_OVERFLOW, 0), 1);
	o = rec_nth(&r, VPMC_OBS_OVERFLOW, 0);
	ck_assert(!o->emulated);
	ck_assert_uint_eq(o->time_ns, 20);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	vpmc_vcpu_retire(v, 30, false, VPMC_CPL_KEEP);
	vpmc_vcpu_entry(v, 40);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 1);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_OVERFLOW, -2), 1);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * §2.14 C: after an emulated increment in the exit, a WRMSR to the counter zeroes
 * emulated_counter (pmc_write_counter()), then the WRMSR retires and counts itself: V + 1.
 */
START_TEST(test_timeline_c_write_drops_pending)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);

	vpmc_vcpu_wrmsr(v, 0, 0x186, EN | OS | INSN);
	vpmc_vcpu_entry(v, 0);
	vpmc_vcpu_retire(v, 10, false, VPMC_CPL_KEEP);
	vpmc_vcpu_retire(v, 11, false, VPMC_CPL_KEEP);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 2);
	vpmc_vcpu_wrmsr(v, 12, 0x4c1, 1000);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 1000);
	vpmc_vcpu_retire(v, 12, false, VPMC_CPL_KEEP);
	vpmc_vcpu_entry(v, 20);
	ck_assert_uint_eq(rdmsr_ok(v, 30, 0x4c1), 1001);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * A hardware overflow inside a segment: GP0 = M-4 (period 5), 10 instructions over (100, 200]:
 * the 5th instruction wraps it, at 100 + 5 * 100 / 10 = 150; the implicit exit/entry drains and
 * delivers the PMI there; the rest of the segment follows: counter M-4 + 10 = 5.
 */
START_TEST(test_segment_overflow_at_instruction)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);
	struct vpmc_vcpu_stats st;
	const struct vpmc_obs *o;

	vpmc_vcpu_wrmsr(v, 100, 0x4c1, M48 - 4);
	vpmc_vcpu_wrmsr(v, 100, 0x186, SEL_INSN_PMI);
	vpmc_vcpu_entry(v, 100);
	vpmc_vcpu_guest(v, 200, 10, 0, 0);
	o = rec_nth(&r, VPMC_OBS_OVERFLOW, 0);
	ck_assert_uint_eq(o->time_ns, 150);
	ck_assert_uint_eq(o->seg_insn, 5);
	ck_assert_uint_eq(o->seg_br, 0);
	o = rec_nth(&r, VPMC_OBS_DRAIN, 1);
	ck_assert_uint_eq(o->time_ns, 150);
	ck_assert_uint_eq(o->seg_insn, 5);
	o = rec_nth(&r, VPMC_OBS_PMI, 0);
	ck_assert_uint_eq(o->time_ns, 150);
	ck_assert_uint_eq(o->seg_insn, 5);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 5);
	vpmc_vcpu_stats(v, &st);
	ck_assert_uint_eq(st.entries, 2);
	/* observations after the segment are outside it again */
	vpmc_vcpu_retire(v, 300, false, VPMC_CPL_KEEP);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_TRIGGER, 0)->seg_insn, 0);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Branch events: 4 branches spread over 10 instructions, branch b at ceil(10b/4): 3, 5, 8, 10.
 * GP0 = EN|OS|BR, M-2 (period 3): the 3rd branch, instruction 8, time 0 + 8 * 1000 / 10 = 800.
 */
START_TEST(test_segment_branch_overflow)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);
	const struct vpmc_obs *o;

	vpmc_vcpu_wrmsr(v, 0, 0x4c1, M48 - 2);
	vpmc_vcpu_wrmsr(v, 0, 0x186, EN | INT | OS | BR_INTEL);
	vpmc_vcpu_entry(v, 0);
	vpmc_vcpu_guest(v, 1000, 10, 4, 0);
	o = rec_nth(&r, VPMC_OBS_OVERFLOW, 0);
	ck_assert_uint_eq(o->time_ns, 800);
	ck_assert_uint_eq(o->seg_insn, 8);
	ck_assert_uint_eq(o->seg_br, 3);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 1);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Mixed units: GP0 counts instructions (M-2, period 3), GP1 branches; 6 instructions with no
 * branch: GP0 overflows at instruction 3, GP1 counts nothing in either step.
 */
START_TEST(test_segment_mixed_units)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);

	vpmc_vcpu_wrmsr(v, 0, 0x4c1, M48 - 2);
	vpmc_vcpu_wrmsr(v, 0, 0x186, SEL_INSN_PMI);
	vpmc_vcpu_wrmsr(v, 0, 0x187, EN | OS | BR_INTEL);
	vpmc_vcpu_entry(v, 0);
	vpmc_vcpu_guest(v, 60, 6, 0, 0);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_OVERFLOW, 0)->seg_insn, 3);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_OVERFLOW, 0)->time_ns, 30);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 3);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 1), 0);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * The arming clamp: counter M (period 1) is armed with 2 events: the perf overflow comes at
 * instruction 2, one late; the reference wraps at instruction 1.
 */
START_TEST(test_segment_arming_clamp_vs_reference)
{
	static const struct {
		enum vpmc_policy_kind kind;
		uint64_t at;
	} cases[] = { { VPMC_POLICY_EXACT, 2 }, { VPMC_POLICY_REFERENCE, 1 } };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rec r;
		struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, cases[i].kind, 0,
						VPMC_KERNEL_LATEST, &r);
		const struct vpmc_obs *o;

		vpmc_vcpu_wrmsr(v, 0, 0x4c1, M48);
		vpmc_vcpu_wrmsr(v, 0, 0x186, SEL_INSN_PMI);
		vpmc_vcpu_entry(v, 0);
		vpmc_vcpu_guest(v, 50, 5, 0, 0);
		o = rec_nth(&r, VPMC_OBS_OVERFLOW, 0);
		ck_assert_uint_eq(o->seg_insn, cases[i].at);
		ck_assert_uint_eq(o->time_ns, cases[i].at * 10);
		ck_assert(!o->emulated);
		o = rec_nth(&r, VPMC_OBS_PMI, 0);
		ck_assert_uint_eq(o->time_ns, cases[i].at * 10);
		ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 4);
		vpmc_vcpu_free(v);
	}
}
END_TEST

/*
 * Reference: the PMI is delivered at the wrapping instruction without an exit; two wraps in
 * one segment (2 + 2^48 instructions): the second PMI is dropped by Intel's auto-mask.
 */
START_TEST(test_reference_pmi_at_event)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_REFERENCE, 0,
					VPMC_KERNEL_LATEST, &r);
	struct vpmc_vcpu_stats st;

	vpmc_vcpu_wrmsr(v, 0, 0x4c1, M48 - 1);
	vpmc_vcpu_wrmsr(v, 0, 0x186, SEL_INSN_PMI);
	vpmc_vcpu_entry(v, 0);
	vpmc_vcpu_guest(v, 1000, 2 + (1ULL << 48), 0, 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_OVERFLOW, 0), 2);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 2);
	ck_assert(rec_nth(&r, VPMC_OBS_PMI, 0)->delivered);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_PMI, 0)->seg_insn, 2);
	ck_assert(!rec_nth(&r, VPMC_OBS_PMI, 1)->delivered);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_PMI, 1)->seg_insn, 2 + (1ULL << 48));
	vpmc_vcpu_stats(v, &st);
	ck_assert_uint_eq(st.entries, 1);
	/* a retired instruction wrapping the counter: PMI at the retire's time */
	vpmc_vcpu_wrmsr(v, 1100, 0x834, APIC_DM_NMI);
	vpmc_vcpu_wrmsr(v, 1100, 0x4c1, M48);
	vpmc_vcpu_retire(v, 1200, false, VPMC_CPL_KEEP);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_PMI, 2)->time_ns, 1200);
	ck_assert(rec_nth(&r, VPMC_OBS_PMI, 2)->delivered);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Mediated hardware counting: the selectors loaded at the last drain count directly; a wrap
 * sets the status bit; with INT the host PMI exits the guest to deliver the PMI (an entry),
 * without INT nothing else happens. Fixed counter 0 counts through fixed_ctr_ctrl_hw.
 */
START_TEST(test_mediated_hardware_wrap)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_MEDIATED, 0, VPMC_KERNEL_LATEST,
					&r);
	struct vpmc_vcpu_stats st;

	vpmc_vcpu_wrmsr(v, 0, 0x4c1, M48 - 1);
	vpmc_vcpu_wrmsr(v, 0, 0x186, SEL_INSN_PMI);
	vpmc_vcpu_wrmsr(v, 0, 0x4c2, M48 - 1);
	vpmc_vcpu_wrmsr(v, 0, 0x187, EN | OS | INSN);
	vpmc_vcpu_wrmsr(v, 0, 0x309, M48 - 2);
	vpmc_vcpu_wrmsr(v, 0, 0x38d, 0x1);
	vpmc_vcpu_wrmsr(v, 0, 0x38f, 0x100000003ULL);
	vpmc_vcpu_entry(v, 10);
	vpmc_vcpu_guest(v, 60, 5, 0, 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0x100000003ULL);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_PMI, 0)->time_ns, 30);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 3);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 32), 2);
	vpmc_vcpu_stats(v, &st);
	ck_assert_uint_eq(st.entries, 2);
	/* CPL 3: OS-only selectors (GP1, fixed 0) count nothing; GP0 has USR too */
	vpmc_vcpu_guest(v, 70, 5, 0, 3);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 8);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 1), 3);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 32), 2);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Tolerance: with 3 emulated events pending (T = 100, no request) the perf period still comes
 * from counter alone: M-9 wraps architecturally at the 7th native instruction, in hardware at
 * the 10th: late by the pending amount.
 */
START_TEST(test_tolerance_hardware_overflow_late)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_TOLERANCE, 100,
					VPMC_KERNEL_LATEST, &r);

	vpmc_vcpu_wrmsr(v, 0, 0x4c1, M48 - 9);
	vpmc_vcpu_wrmsr(v, 0, 0x186, SEL_INSN_PMI);
	vpmc_vcpu_entry(v, 0);
	vpmc_vcpu_retire(v, 1, false, VPMC_CPL_KEEP);
	vpmc_vcpu_retire(v, 2, false, VPMC_CPL_KEEP);
	vpmc_vcpu_retire(v, 3, false, VPMC_CPL_KEEP);
	vpmc_vcpu_entry(v, 4);
	vpmc_vcpu_guest(v, 14, 10, 0, 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_OVERFLOW, -2), 1);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_OVERFLOW, 0)->seg_insn, 10);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 3); /* 2^48-10 + 3 + 10 */
	vpmc_vcpu_free(v);
}
END_TEST

/* CPL: the segment's cpl becomes the vCPU's; perf excludes by it; a later retire keeps it. */
START_TEST(test_cpl_follows_segments)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);

	vpmc_vcpu_wrmsr(v, 0, 0x186, EN | OS | INSN);
	vpmc_vcpu_entry(v, 0);
	vpmc_vcpu_guest(v, 10, 7, 0, 3);
	vpmc_vcpu_retire(v, 11, false, VPMC_CPL_KEEP);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	vpmc_vcpu_set_cpl(v, 12, 0);
	vpmc_vcpu_retire(v, 13, false, VPMC_CPL_KEEP);
	vpmc_vcpu_guest(v, 20, 7, 0, VPMC_CPL_KEEP);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 8);
	vpmc_vcpu_set_cpl(v, 21, 9); /* out of range: ignored */
	vpmc_vcpu_retire(v, 22, false, VPMC_CPL_KEEP);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 9);
	vpmc_vcpu_free(v);
}
END_TEST

/* The counters whose perf overflow interrupt inject.skid holds back, by global index. */
static uint64_t skid_pending(struct vpmc_pmu *pmu)
{
	uint64_t pending = 0;
	int i;

	for (i = 0; i < 64; i++) {
		struct vpmc_pmc *pmc = kvm_pmc_idx_to_pmc(pmu, i);

		if (pmc && pmc->perf.inject.skid_pending)
			pending |= 1ULL << i;
	}
	return pending;
}

/* Skid: the overflow handler is held back: no implicit exit inside the segment. */
START_TEST(test_skid_no_implicit_exit)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);
	struct vpmc_vcpu_stats st;

	vpmc__vcpu_pmu(v)->gp_counters[0].perf.inject.skid = true;
	vpmc_vcpu_wrmsr(v, 0, 0x4c1, M48 - 1);
	vpmc_vcpu_wrmsr(v, 0, 0x186, SEL_INSN_PMI);
	vpmc_vcpu_entry(v, 0);
	vpmc_vcpu_guest(v, 10, 2 + 4, 0, 0); /* re-armed with the same period 2: two overflows */
	vpmc_vcpu_stats(v, &st);
	ck_assert_uint_eq(st.entries, 1);
	ck_assert_uint_eq(skid_pending(vpmc__vcpu_pmu(v)), 1);
	vpmc__vcpu_deliver_skid(v, 11);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_OVERFLOW, 0), 1);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_OVERFLOW, 0)->time_ns, 11);
	vpmc_vcpu_free(v);
}
END_TEST

/* Segment edge cases: time going back (everything at t), branches clamped to instructions,
 * no vPMU (version 0): nothing counts, RDPMC and PMU MSRs #GP except the legacy ones. */
START_TEST(test_segment_edges_and_no_vpmu)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);
	struct vpmc_pmu_config cfg;
	struct vpmc_policy pol = { VPMC_POLICY_EXACT, 0 };
	uint64_t val;

	vpmc_vcpu_wrmsr(v, 100, 0x4c1, M48);
	vpmc_vcpu_wrmsr(v, 100, 0x186, EN | INT | OS | BR_INTEL);
	vpmc_vcpu_entry(v, 100);
	vpmc_vcpu_guest(v, 50, 3, 9, 0);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_OVERFLOW, 0)->time_ns, 50);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 2);
	vpmc_vcpu_free(v);

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.version = 0;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), 0);
	ck_assert_uint_eq(vpmc_vcpu_config(v)->nr_gp, 0);
	ck_assert_int_eq(vpmc_vcpu_rdpmc(v, 0, 0, &val), VPMC_GP);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc1, 5), 0);
	ck_assert_int_eq(vpmc_vcpu_rdmsr(v, 0, 0xc1, &val), 0);
	ck_assert_uint_eq(val, 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc3, 5), VPMC_GP);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x38f, 0), VPMC_GP);
	vpmc_vcpu_guest(v, 10, 100, 10, 0);
	vpmc_vcpu_retire(v, 10, true, 0);
	vpmc_vcpu_sched_in(v, 11);
	vpmc_vcpu_entry(v, 12);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	vpmc_vcpu_free(v);
	vpmc_vcpu_free(NULL);
}
END_TEST

/*
 * vpmc__vcpu_guest_until_pmi() with a PMI handler between the parts, exact policy. GP0 = M-4
 * (-5, period 5); 10 instructions over (100, 200]: instruction i at 100 + 10 i.
 * - part 1: perf runs out at instruction 5 (t = 150): kvm_perf_overflow() sets status bit 0 and
 *   KVM_REQ_PMI; the host PMI's implicit entry drains (counter -5 + 5 = 0) and delivers the PMI
 *   (Intel masks LVTPC): the call stops there, 5 instructions left.
 * - the handler at 150 (what intel_pmu_handle_irq() boils down to here): WRMSR PMC0 = M-2 (-3),
 *   WRMSR LVTPC = NMI (unmask), one retired instruction (emulated_counter 1), entry: the drain
 *   folds it: -3 + 1 = -2, perf resumed with period 2.
 * - part 2: instructions 6, 7 (t = 160, 170): the perf event runs out at 7, PMI at 170, stop.
 * - part 3 (no handler: LVTPC stays masked, status stays 1): 8..10, counter 0 + 3 = 3; the
 *   segment ends at 200.
 * Entries: 100, implicit at 150, the handler's at 150, implicit at 170.
 */
START_TEST(test_until_pmi_handler_between_parts)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);
	struct vpmc__guest_progress p = VPMC__GUEST_PROGRESS_INIT;
	struct vpmc_vcpu_stats st;
	const struct vpmc_obs *o;

	vpmc_vcpu_wrmsr(v, 100, 0x4c1, M48 - 4);
	vpmc_vcpu_wrmsr(v, 100, 0x186, SEL_INSN_PMI);
	vpmc_vcpu_entry(v, 100);

	ck_assert(vpmc__vcpu_guest_until_pmi(v, 200, 10, 0, 0, 10, &p));
	ck_assert(p.started);
	ck_assert(p.pmi);
	ck_assert_uint_eq(p.t_start, 100);
	ck_assert_uint_eq(p.insn, 5);
	ck_assert_uint_eq(p.br, 0);
	ck_assert_uint_eq(p.time_ns, 150);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	o = rec_nth(&r, VPMC_OBS_PMI, 0);
	ck_assert(o->delivered);
	ck_assert_uint_eq(o->time_ns, 150);
	ck_assert_uint_eq(o->seg_insn, 5);

	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 150, 0x4c1, M48 - 2), 0);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_WRITE, 2)->seg_insn, 0); /* outside the parts */
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 150, 0x834, APIC_DM_NMI), 0);
	vpmc_vcpu_retire(v, 150, false, 0);
	vpmc_vcpu_entry(v, 150);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), M48 - 1);

	ck_assert(vpmc__vcpu_guest_until_pmi(v, 200, 10, 0, 0, 10, &p));
	ck_assert(p.pmi);
	ck_assert_uint_eq(p.t_start, 100);
	ck_assert_uint_eq(p.insn, 7);
	ck_assert_uint_eq(p.time_ns, 170);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	o = rec_nth(&r, VPMC_OBS_PMI, 1);
	ck_assert(o->delivered);
	ck_assert_uint_eq(o->time_ns, 170);
	ck_assert_uint_eq(o->seg_insn, 7);

	ck_assert(!vpmc__vcpu_guest_until_pmi(v, 200, 10, 0, 0, 10, &p));
	ck_assert(!p.pmi);
	ck_assert_uint_eq(p.insn, 10);
	ck_assert_uint_eq(p.time_ns, 200);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 3);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 2);
	vpmc_vcpu_stats(v, &st);
	ck_assert_uint_eq(st.entries, 4);
	ck_assert_uint_eq(st.pmis_delivered, 2);
	/* after the last part the vCPU is at the segment's end: a retire there is outside it */
	vpmc_vcpu_retire(v, 200, false, VPMC_CPL_KEEP);
	o = rec_nth(&r, VPMC_OBS_TRIGGER, rec_count(&r, VPMC_OBS_TRIGGER, -2) - 1);
	ck_assert_uint_eq(o->time_ns, 200);
	ck_assert_uint_eq(o->seg_insn, 0);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Run in parts without anything between them, a segment does exactly what one
 * vpmc_vcpu_guest() does. GP0 counts instructions from -5, GP1 branches from -3, both INT;
 * 10 instructions, 4 branches over (100, 200]: branch b at instruction ceil(10 b / 4) = 3, 5, 8,
 * 10. GP0 wraps at instruction 5 (t = 150, 2 branches so far): a PMI reaches the guest, LVTPC
 * gets masked; GP1 wraps at its 3rd branch, instruction 8 (t = 180): that PMI is dropped, so it
 * does not stop the run. Parts: up to 3 (no PMI: 1 branch, t = 130), then the stop after the
 * PMI at 5, then the rest. The same for the perf-backed exact policy (host PMI, implicit entry),
 * mediated (direct counting) and the reference (PMI at the wrapping instruction).
 */
static const enum vpmc_policy_kind parts_policies[] = {
	VPMC_POLICY_EXACT,
	VPMC_POLICY_MEDIATED,
	VPMC_POLICY_REFERENCE,
};

static struct vpmc_vcpu *parts_setup(enum vpmc_policy_kind kind, struct rec *r)
{
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, kind, 0, VPMC_KERNEL_LATEST, r);

	vpmc_vcpu_wrmsr(v, 100, 0x4c1, M48 - 4);
	vpmc_vcpu_wrmsr(v, 100, 0x4c2, M48 - 2);
	vpmc_vcpu_wrmsr(v, 100, 0x186, SEL_INSN_PMI);
	vpmc_vcpu_wrmsr(v, 100, 0x187, EN | INT | OS | USR | BR_INTEL);
	vpmc_vcpu_entry(v, 100);
	return v;
}

START_TEST(test_until_pmi_parts_equal_whole)
{
	struct rec whole, parts;
	struct vpmc_vcpu *w = parts_setup(parts_policies[_i], &whole);
	struct vpmc_vcpu *v = parts_setup(parts_policies[_i], &parts);
	struct vpmc__guest_progress p = VPMC__GUEST_PROGRESS_INIT;
	const struct vpmc_obs *o;
	unsigned int i;

	vpmc_vcpu_guest(w, 200, 10, 4, 0);

	ck_assert(vpmc__vcpu_guest_until_pmi(v, 200, 10, 4, 0, 3, &p));
	ck_assert(!p.pmi);
	ck_assert_uint_eq(p.insn, 3);
	ck_assert_uint_eq(p.br, 1);
	ck_assert_uint_eq(p.time_ns, 130);
	ck_assert(vpmc__vcpu_guest_until_pmi(v, 200, 10, 4, 0, UINT64_MAX, &p));
	ck_assert(p.pmi);
	ck_assert_uint_eq(p.insn, 5);
	ck_assert_uint_eq(p.br, 2);
	ck_assert_uint_eq(p.time_ns, 150);
	ck_assert(!vpmc__vcpu_guest_until_pmi(v, 200, 10, 4, 0, UINT64_MAX, &p));
	ck_assert(!p.pmi);
	ck_assert_uint_eq(p.insn, 10);
	ck_assert_uint_eq(p.br, 4);
	ck_assert_uint_eq(p.time_ns, 200);

	ck_assert_uint_eq(rec_count(&parts, VPMC_OBS_PMI, -2), 2);
	o = rec_nth(&parts, VPMC_OBS_PMI, 0);
	ck_assert(o->delivered);
	ck_assert_uint_eq(o->time_ns, 150);
	ck_assert_uint_eq(o->seg_br, 2);
	o = rec_nth(&parts, VPMC_OBS_PMI, 1);
	ck_assert(!o->delivered);
	ck_assert_uint_eq(o->time_ns, 180);
	ck_assert_uint_eq(o->seg_insn, 8);
	ck_assert_uint_eq(o->seg_br, 3);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 3);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 5);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 1), 1);

	ck_assert_uint_eq(parts.n, whole.n);
	for (i = 0; i < whole.n; i++) {
		const struct vpmc_obs *a = &whole.o[i], *b = &parts.o[i];

		ck_assert_msg(a->kind == b->kind && a->time_ns == b->time_ns &&
				      a->counter == b->counter && a->seg_insn == b->seg_insn &&
				      a->seg_br == b->seg_br && a->delivered == b->delivered &&
				      a->global_status == b->global_status &&
				      a->emulated == b->emulated && a->value == b->value,
			      "observation %u differs", i);
	}
	vpmc_vcpu_free(w);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Edges: a segment of 0 instructions is done at the first call (time and CPL applied); @upto 0
 * runs nothing and leaves the vCPU at the segment's start; a call after the end changes nothing.
 */
START_TEST(test_until_pmi_edges)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);
	struct vpmc__guest_progress p = VPMC__GUEST_PROGRESS_INIT, q = VPMC__GUEST_PROGRESS_INIT;

	vpmc_vcpu_wrmsr(v, 10, 0x186, EN | OS | INSN);
	vpmc_vcpu_entry(v, 10);
	ck_assert(!vpmc__vcpu_guest_until_pmi(v, 40, 0, 0, 3, 0, &p));
	ck_assert_uint_eq(p.t_start, 10);
	ck_assert_uint_eq(p.insn, 0);
	ck_assert_uint_eq(p.time_ns, 40);
	vpmc_vcpu_retire(v, 41, false, VPMC_CPL_KEEP); /* CPL 3 now: OS-only counts nothing */
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);

	ck_assert(vpmc__vcpu_guest_until_pmi(v, 100, 6, 0, 0, 0, &q));
	ck_assert_uint_eq(q.t_start, 41);
	ck_assert_uint_eq(q.insn, 0);
	ck_assert_uint_eq(q.time_ns, 41);
	ck_assert(!vpmc__vcpu_guest_until_pmi(v, 100, 6, 0, 0, 6, &q));
	ck_assert_uint_eq(q.time_ns, 100);
	ck_assert(!vpmc__vcpu_guest_until_pmi(v, 100, 6, 0, 0, 6, &q));
	ck_assert_uint_eq(q.insn, 6);
	vpmc_vcpu_retire(v, 101, false, VPMC_CPL_KEEP);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 7);
	vpmc_vcpu_free(v);
}
END_TEST

/* READ/WRITE carry the counter whose value MSR (or RDPMC) was accessed, else -1. */
static const struct {
	enum vpmc_vendor vendor;
	bool rdpmc;
	uint32_t index;
	int counter;
	bool gp;  /* the read #GPs */
	bool wgp; /* a guest write of 0 #GPs */
} access_cases[] = {
	{ VPMC_VENDOR_INTEL, false, 0xc1, 0, false, false },
	{ VPMC_VENDOR_INTEL, false, 0x4c4, 3, false, false },
	{ VPMC_VENDOR_INTEL, false, 0x186, -1, false, false },
	{ VPMC_VENDOR_INTEL, false, 0x309, 32, false, false },
	{ VPMC_VENDOR_INTEL, false, 0x38e, -1, false, true }, /* read-only */
	{ VPMC_VENDOR_INTEL, false, 0xc5, -1, true, true },
	{ VPMC_VENDOR_INTEL, true, 0x40000001, 33, false, false },
	{ VPMC_VENDOR_INTEL, true, 2, 2, false, false },
	{ VPMC_VENDOR_INTEL, true, 0x80000000, -1, true, false },
	{ VPMC_VENDOR_AMD, false, 0xc0010201, 0, false, false },
	{ VPMC_VENDOR_AMD, false, 0xc0010200, -1, false, false },
	{ VPMC_VENDOR_AMD, false, 0xc0010005, 1, false, false },
	{ VPMC_VENDOR_AMD, false, 0xc0010001, -1, false, false },
	{ VPMC_VENDOR_AMD, false, 0xc1, -1, false, false }, /* x86.c drops it */
	{ VPMC_VENDOR_AMD, true, 5, 5, false, false },
	{ VPMC_VENDOR_AMD, true, 6, -1, true, false },
};

START_TEST(test_access_observations)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(access_cases[_i].vendor, VPMC_POLICY_EXACT, 0,
					VPMC_KERNEL_LATEST, &r);
	const struct vpmc_obs *o;
	uint64_t val;
	int ret;

	if (access_cases[_i].rdpmc) {
		ret = vpmc_vcpu_rdpmc(v, 7, access_cases[_i].index, &val);
	} else {
		ret = vpmc_vcpu_rdmsr(v, 7, access_cases[_i].index, &val);
		ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 8, access_cases[_i].index, 0),
				 access_cases[_i].wgp ? VPMC_GP : 0);
		o = rec_nth(&r, VPMC_OBS_WRITE, 0);
		ck_assert_int_eq(o->counter, access_cases[_i].wgp ? -1 : access_cases[_i].counter);
		ck_assert_uint_eq(o->index, access_cases[_i].index);
		ck_assert(o->gp == access_cases[_i].wgp);
	}
	ck_assert_int_eq(ret, access_cases[_i].gp ? VPMC_GP : 0);
	o = rec_nth(&r, VPMC_OBS_READ, 0);
	ck_assert_int_eq(o->counter, access_cases[_i].counter);
	ck_assert(o->rdpmc == access_cases[_i].rdpmc);
	ck_assert(o->gp == access_cases[_i].gp);
	ck_assert_uint_eq(o->time_ns, 7);
	vpmc_vcpu_free(v);
}
END_TEST

/* WRITE reports the value written, 0 after #GP; non-PMU MSRs are not observed and read 0. */
START_TEST(test_write_observation_values)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);
	uint64_t val = 1;

	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x186, 0x1234), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x186, 1ULL << 21), VPMC_GP);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_WRITE, 0)->value, 0x1234);
	/* the #GP'd write is observed with the value the guest tried (bit 21 is reserved) */
	ck_assert(rec_nth(&r, VPMC_OBS_WRITE, 1)->gp);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_WRITE, 1)->value, 1ULL << 21);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x10, 99), 0);
	ck_assert_int_eq(vpmc_vcpu_rdmsr(v, 0, 0x10, &val), 0);
	ck_assert_uint_eq(val, 0);
	ck_assert_uint_eq(r.n, 2);
	vpmc_vcpu_free(v);
}
END_TEST

/* vpmc_vcpu_event() dispatches every type; EXIT/IRQ/EOI only advance time (the next segment
 * starts there); bad type or CPL -> VPMC_ERR_INVAL. */
START_TEST(test_event_dispatch)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);
	struct vpmc_event ev;
	struct vpmc_vcpu_stats st;
	static const struct {
		enum vpmc_event_type type;
		uint64_t t;
		uint32_t index;
		uint64_t value;
		uint64_t insn;
		uint8_t cpl;
	} evs[] = {
		{ VPMC_EV_WRMSR, 0, 0x4c1, M48 - 1, 0, VPMC_CPL_KEEP },
		{ VPMC_EV_WRMSR, 0, 0x186, EN | INT | OS | USR | INSN, 0, VPMC_CPL_KEEP },
		{ VPMC_EV_ENTRY, 10, 0, 0, 0, VPMC_CPL_KEEP },
		{ VPMC_EV_IRQ, 20, 0xec, 0, 0, VPMC_CPL_KEEP },
		{ VPMC_EV_GUEST, 40, 0, 0, 4, 3 }, /* overflow at insn 2: 20 + 2 * 20 / 4 = 30 */
		{ VPMC_EV_EXIT, 50, 0, 0, 0, VPMC_CPL_KEEP },
		{ VPMC_EV_RETIRE, 50, 0, 0, 0, VPMC_CPL_KEEP },
		{ VPMC_EV_RDMSR, 51, 0x4c1, 0, 0, VPMC_CPL_KEEP },
		{ VPMC_EV_RDPMC, 52, 0, 0, 0, VPMC_CPL_KEEP },
		{ VPMC_EV_CPL, 53, 0, 0, 0, 0 },
		{ VPMC_EV_LVTPC, 54, 0, APIC_DM_NMI, 0, VPMC_CPL_KEEP },
		{ VPMC_EV_EOI, 55, 0xec, 0, 0, VPMC_CPL_KEEP },
		{ VPMC_EV_SCHED_OUT, 56, 0, 0, 0, VPMC_CPL_KEEP },
		{ VPMC_EV_SCHED_IN, 57, 0, 0, 0, VPMC_CPL_KEEP },
		{ VPMC_EV_ENTRY, 58, 0, 0, 0, VPMC_CPL_KEEP },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(evs); i++) {
		memset(&ev, 0, sizeof(ev));
		ev.type = evs[i].type;
		ev.time_ns = evs[i].t;
		ev.index = evs[i].index;
		ev.value = evs[i].value;
		ev.insn = evs[i].insn;
		ev.cpl = evs[i].cpl;
		ck_assert_int_eq(vpmc_vcpu_event(v, &ev), 0);
	}
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_OVERFLOW, 0)->time_ns, 30);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_READ, 0)->value, 3);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_READ, 1)->value, 3);
	ck_assert_uint_eq(vpmc__vcpu_pmu(v)->lvtpc, APIC_DM_NMI);
	ck_assert_uint_eq(vpmc__vcpu_pmu(v)->cpl, 0);
	vpmc_vcpu_stats(v, &st);
	ck_assert_uint_eq(st.entries, 3);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 3);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 64), 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 7), 0);

	ev.type = VPMC_EV_NR;
	ck_assert_int_eq(vpmc_vcpu_event(v, &ev), VPMC_ERR_INVAL);
	ev.type = VPMC_EV_RETIRE;
	ev.cpl = 4;
	ck_assert_int_eq(vpmc_vcpu_event(v, &ev), VPMC_ERR_INVAL);
	vpmc_vcpu_free(v);
}
END_TEST

/* vpmc_vcpu_new(): argument checks and KVM's caps. */
START_TEST(test_new_checks_and_caps)
{
	struct vpmc_pmu_config cfg;
	struct vpmc_policy pol = { VPMC_POLICY_EXACT, 0 };
	struct vpmc_vcpu *v = NULL;
	const struct vpmc_pmu_config *got;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	ck_assert_int_eq(vpmc_vcpu_new(NULL, &cfg, &pol, 0, NULL), VPMC_ERR_INVAL);
	ck_assert_int_eq(vpmc_vcpu_new(&v, NULL, &pol, 0, NULL), VPMC_ERR_INVAL);
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, NULL, 0, NULL), VPMC_ERR_INVAL);
	pol.kind = VPMC_POLICY_NR;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), VPMC_ERR_INVAL);
	pol.kind = VPMC_POLICY_EXACT;
	cfg.vendor = (enum vpmc_vendor)7;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), VPMC_ERR_INVAL);
	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.gp_width = 0;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), VPMC_ERR_INVAL);
	cfg.gp_width = 65;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), VPMC_ERR_INVAL);
	cfg.gp_width = 48;
	cfg.fixed_width = 0;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), VPMC_ERR_INVAL);
	ck_assert_ptr_null(v);

	/* Intel: 12 GP -> 8, 5 fixed -> 3, widths 64 -> 48; CPUID version kept as is */
	cfg.nr_gp = 12;
	cfg.nr_fixed = 5;
	cfg.gp_width = 64;
	cfg.fixed_width = 64;
	cfg.version = 5;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), 0);
	got = vpmc_vcpu_config(v);
	ck_assert_uint_eq(got->nr_gp, 8);
	ck_assert_uint_eq(got->nr_fixed, 3);
	ck_assert_uint_eq(got->gp_width, 48);
	ck_assert_uint_eq(got->fixed_width, 48);
	ck_assert_uint_eq(got->version, 5);
	ck_assert(!got->pebs && !got->tsx);
	vpmc_vcpu_free(v);

	/* PEBS and TSX capabilities: Intel only */
	cfg.pebs = cfg.tsx = true;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), 0);
	ck_assert(vpmc_vcpu_config(v)->pebs && vpmc_vcpu_config(v)->tsx);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x3f1, 1), 0);
	vpmc_vcpu_free(v);
	cfg.vendor = VPMC_VENDOR_AMD;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), 0);
	ck_assert(!vpmc_vcpu_config(v)->pebs && !vpmc_vcpu_config(v)->tsx);
	vpmc_vcpu_free(v);

	/* Intel 32-bit counters: RDPMC and RDMSR mask to 32 bits */
	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.gp_width = 32;
	cfg.fw_writes = false;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc1, 0xffffffff), 0);
	ck_assert_uint_eq(rdpmc_ok(v, 0, 0), 0xffffffff);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x4c1, 1), VPMC_GP);
	vpmc_vcpu_free(v);

	/* AMD: v3 -> 2 (PerfMonV2), 8 -> 6 counters; v1: 5 -> 6 (PerfCtrExtCore), 3 -> 4 */
	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_AMD);
	cfg.version = 3;
	cfg.nr_gp = 8;
	cfg.gp_width = 0; /* ignored: AMD counters are 48 bits */
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), 0);
	got = vpmc_vcpu_config(v);
	ck_assert_uint_eq(got->version, 2);
	ck_assert_uint_eq(got->nr_gp, 6);
	ck_assert_uint_eq(got->gp_width, 48);
	ck_assert_uint_eq(got->nr_fixed, 0);
	vpmc_vcpu_free(v);
	cfg.version = 1;
	cfg.nr_gp = 5;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), 0);
	ck_assert_uint_eq(vpmc_vcpu_config(v)->nr_gp, 6);
	vpmc_vcpu_free(v);
	cfg.nr_gp = 3;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), 0);
	ck_assert_uint_eq(vpmc_vcpu_config(v)->nr_gp, 4);
	vpmc_vcpu_free(v);
}
END_TEST

/* Host-initiated MSR accesses (migration) are applied but not observed. */
START_TEST(test_host_accesses_not_observed)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);
	uint64_t val;

	ck_assert_int_eq(vpmc__vcpu_host_wrmsr(v, 0, 0x38e, 3), 0);
	ck_assert_int_eq(vpmc__vcpu_host_rdmsr(v, 0, 0x38e, &val), 0);
	ck_assert_uint_eq(val, 3);
	ck_assert_int_eq(vpmc__vcpu_host_wrmsr(v, 0, 0x834, APIC_DM_NMI), 0);
	ck_assert_int_eq(vpmc__vcpu_host_wrmsr(v, 0, 0x10, 5), 0);
	ck_assert_uint_eq(r.n, 0);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * The example of trace-format.md: PMC0 <- 0xfffffffe (sign-extended: 2^48-2), its retirement not
 * counted (not enabled); EVNTSEL0 = 0x5300c0 counts its own retirement (2^48-1); the entry
 * creates the event (no wrap yet); the CPUID retire wraps to 0; the next entry sets status bit
 * 0 and delivers one PMI.
 */
START_TEST(test_trace_format_example)
{
	static const char *const lines[] = {
		"0 wrmsr 0xc1 0xfffffffe", "0 retire", "10 wrmsr 0x186 0x5300c0", "10 retire",
		"20 entry", "30 guest 0", "40 exit", "40 retire", "50 entry",
	};
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &r);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		struct vpmc_event ev;
		char kind[16];
		unsigned long long t, a = 0, b = 0;

		memset(&ev, 0, sizeof(ev));
		ck_assert_int_ge(sscanf(lines[i], "%llu %15s %llx %llx", &t, kind, &a, &b), 2);
		ev.time_ns = t;
		ev.cpl = VPMC_CPL_KEEP;
		if (!strcmp(kind, "wrmsr")) {
			ev.type = VPMC_EV_WRMSR;
			ev.index = (uint32_t)a;
			ev.value = b;
		} else if (!strcmp(kind, "retire")) {
			ev.type = VPMC_EV_RETIRE;
		} else if (!strcmp(kind, "entry")) {
			ev.type = VPMC_EV_ENTRY;
		} else if (!strcmp(kind, "guest")) {
			ev.type = VPMC_EV_GUEST;
			ev.insn = a;
		} else {
			ev.type = VPMC_EV_EXIT;
		}
		ck_assert_int_eq(vpmc_vcpu_event(v, &ev), 0);
		if (i == 4)
			ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), M48);
	}
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_PMI, 0)->time_ns, 50);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * An observer's ignore mask: the same events with and without TRIGGER and OVERFLOW reported.
 * Counter 0 at 2^48 - 2 counts instructions (exact): 3 retires are 3 kvm_pmu_trigger_event()
 * calls, and the drain at the next entry folds emulated_counter 3 in: 2^48 + 1 wraps to 1, one
 * overflow with its PMI. Ignored kinds are not reported; the model counts and does the same.
 */
static void ignore_run(struct vpmc_vcpu *v)
{
	int i;

	vpmc_vcpu_wrmsr(v, 0, 0x4c1, M48 - 1);
	vpmc_vcpu_wrmsr(v, 0, 0x186, SEL_INSN_PMI);
	vpmc_vcpu_entry(v, 10);
	for (i = 0; i < 3; i++)
		vpmc_vcpu_retire(v, 20 + i, false, VPMC_CPL_KEEP);
	vpmc_vcpu_entry(v, 30);
}

START_TEST(test_observer_ignore)
{
	struct rec all, some;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL_LATEST, &all);
	struct vpmc_observer obs = { rec_fn, &some, 1u << VPMC_OBS_TRIGGER | 1u << VPMC_OBS_OVERFLOW };
	struct vpmc_pmu_config cfg = *vpmc_vcpu_config(v);
	struct vpmc_policy pol = { VPMC_POLICY_EXACT, 0 };
	struct vpmc_vcpu *w = NULL;
	struct vpmc_vcpu_stats st;

	memset(&some, 0, sizeof(some));
	ck_assert_int_eq(vpmc_vcpu_new(&w, &cfg, &pol, 0, &obs), 0);
	ignore_run(v);
	ignore_run(w);
	ck_assert_uint_eq(rec_count(&all, VPMC_OBS_TRIGGER, -2), 3);
	ck_assert_uint_eq(rec_count(&all, VPMC_OBS_OVERFLOW, 0), 1);
	ck_assert_uint_eq(rec_count(&some, VPMC_OBS_TRIGGER, -2), 0);
	ck_assert_uint_eq(rec_count(&some, VPMC_OBS_OVERFLOW, -2), 0);
	/* what is not ignored is reported as before: both writes, the PMI, two drains */
	ck_assert_uint_eq(rec_count(&some, VPMC_OBS_WRITE, -2), 2);
	ck_assert_uint_eq(rec_count(&some, VPMC_OBS_PMI, -2), 1);
	ck_assert_uint_eq(rec_count(&some, VPMC_OBS_DRAIN, -2), rec_count(&all, VPMC_OBS_DRAIN, -2));
	ck_assert_uint_eq(rec_count(&some, VPMC_OBS_DRAIN, -2), 2);
	vpmc_vcpu_stats(w, &st);
	ck_assert_uint_eq(st.triggers, 3);
	ck_assert_uint_eq(st.overflows, 1);
	ck_assert_uint_eq(vpmc_vcpu_counter(w, 0), 1);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 1);
	vpmc_vcpu_free(v);
	vpmc_vcpu_free(w);
}
END_TEST

static Suite *vcpu_suite(void)
{
	Suite *s = suite_create("vcpu");
	TCase *tc = tcase_create("timelines");

	tcase_add_test(tc, test_timeline_a_emulated_overflow);
	tcase_add_test(tc, test_timeline_b_hardware_first);
	tcase_add_test(tc, test_timeline_c_write_drops_pending);
	tcase_add_test(tc, test_trace_format_example);
	tcase_add_test(tc, test_observer_ignore);
	suite_add_tcase(s, tc);

	tc = tcase_create("segments");
	tcase_add_test(tc, test_segment_overflow_at_instruction);
	tcase_add_test(tc, test_segment_branch_overflow);
	tcase_add_test(tc, test_segment_mixed_units);
	tcase_add_test(tc, test_segment_arming_clamp_vs_reference);
	tcase_add_test(tc, test_reference_pmi_at_event);
	tcase_add_test(tc, test_mediated_hardware_wrap);
	tcase_add_test(tc, test_tolerance_hardware_overflow_late);
	tcase_add_test(tc, test_cpl_follows_segments);
	tcase_add_test(tc, test_skid_no_implicit_exit);
	tcase_add_test(tc, test_segment_edges_and_no_vpmu);
	tcase_add_test(tc, test_until_pmi_handler_between_parts);
	tcase_add_loop_test(tc, test_until_pmi_parts_equal_whole, 0, ARRAY_SIZE(parts_policies));
	tcase_add_test(tc, test_until_pmi_edges);
	suite_add_tcase(s, tc);

	tc = tcase_create("api");
	tcase_add_loop_test(tc, test_access_observations, 0, ARRAY_SIZE(access_cases));
	tcase_add_test(tc, test_write_observation_values);
	tcase_add_test(tc, test_event_dispatch);
	tcase_add_test(tc, test_new_checks_and_caps);
	tcase_add_test(tc, test_host_accesses_not_observed);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(vcpu_suite)
