/*
 * check_vcpu.c - The vCPU driver (lib/vcpu.c): worked timelines of semantics §2.14, guest
 * segments (exact overflow instruction and time, implicit exit/entry), requests, LVTPC, CPL,
 * observations and statistics. Expected values are derived from KVM's code in the comments.
 */
#include "config.h"

#include "check_model.h"

#define SEL_INSN_PMI (EN | INT | OS | USR | INSN) /* 0x5300c0 */

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

static Suite *vcpu_suite(void)
{
	Suite *s = suite_create("vcpu");
	TCase *tc = tcase_create("timelines");

	tcase_add_test(tc, test_timeline_a_emulated_overflow);
	tcase_add_test(tc, test_timeline_b_hardware_first);
	tcase_add_test(tc, test_timeline_c_write_drops_pending);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(vcpu_suite)
