// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_msr_intel.c - The Intel MSR map and RDPMC decoding (lib/pmu_intel.c, the PMU cases of
 * x86.c in lib/pmu.c). Expected outcomes follow intel_pmu_set_msr() / intel_pmu_get_msr() /
 * intel_is_valid_msr() / intel_rdpmc_ecx_to_pmc() and kvm_pmu_set_msr(): #GP exactly where KVM
 * returns 1, and the x86.c rule that drops writes to missing 0xc1-0xc2 / 0x186-0x187.
 */
#include "config.h"

#include "harness-internal.h"

#define GP VPMC_GP

struct setup {
	unsigned int version, nr_gp, nr_fixed, gp_width;
	bool no_fw, tsx, pebs;
	unsigned int host;
};

static struct vpmc_vcpu *make(const struct setup *s, struct rec *r)
{
	struct vpmc_pmu_config cfg;
	struct vpmc_policy pol = { VPMC_POLICY_EXACT, 0 };
	struct vpmc_observer obs = { .fn = rec_fn, .data = r };
	struct vpmc_vcpu *v = NULL;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.version = s->version ? s->version : 2;
	cfg.nr_gp = s->nr_gp ? s->nr_gp : 4;
	cfg.nr_fixed = s->nr_fixed ? s->nr_fixed : 3;
	cfg.gp_width = s->gp_width ? s->gp_width : 48;
	cfg.fw_writes = !s->no_fw;
	cfg.host_kernel = s->host ? s->host : VPMC_KERNEL_LATEST;
	cfg.pebs = s->pebs;
	cfg.tsx = s->tsx;
	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, &obs), 0);
	return v;
}

/* One access and, if it succeeded, what a read-back returns. */
static const struct {
	const char *name;
	struct setup s;
	bool host;
	uint32_t msr;
	uint64_t val;
	int want;
	uint32_t rb;     /* MSR read back afterwards (0: none) */
	uint64_t rb_val;
} wr_cases[] = {
	{ "pmc0 sign-extends", {0}, false, 0xc1, 0x80000000, 0, 0x4c1, 0xffff80000000ULL },
	{ "pmc0 host: as given", {0}, true, 0xc1, 0x80000000, 0, 0xc1, 0x80000000 },
	{ "a_pmc0 above width", {0}, false, 0x4c1, 1ULL << 48, GP, 0, 0 },
	{ "a_pmc0 above width, host", {0}, true, 0x4c1, 1ULL << 48, GP, 0, 0 },
	{ "a_pmc0 without FW_WRITE", { .no_fw = true }, false, 0x4c1, 1, GP, 0, 0 },
	{ "a_pmc3 full width", {0}, false, 0x4c4, M48, 0, 0xc4, M48 },
	{ "pmc1 missing: dropped", { .nr_gp = 1 }, false, 0xc2, 5, 0, 0xc2, 0 },
	{ "pmc4 missing: #GP", {0}, false, 0xc5, 5, GP, 0, 0 },
	{ "evntsel1 missing: dropped", { .nr_gp = 1 }, false, 0x187, 5, 0, 0x187, 0 },
	{ "evntsel4 missing: #GP", {0}, false, 0x18a, 5, GP, 0, 0 },
	{ "evntsel AnyThread", {0}, false, 0x186, 1ULL << 21, GP, 0, 0 },
	{ "evntsel bit 32", {0}, false, 0x186, 1ULL << 32, GP, 0, 0 },
	{ "evntsel IN_TX with TSX", { .tsx = true }, false, 0x186, 1ULL << 32, 0, 0x186, 1ULL << 32 },
	{ "evntsel0 IN_TXCP with TSX", { .tsx = true }, false, 0x186, 1ULL << 33, GP, 0, 0 },
	{ "evntsel2 IN_TXCP with TSX", { .tsx = true }, false, 0x188, 1ULL << 33, 0, 0x188, 1ULL << 33 },
	{ "evntsel2 IN_TXCP without TSX", {0}, false, 0x188, 1ULL << 33, GP, 0, 0 },
	{ "evntsel all legal bits", {0}, false, 0x187, 0xffdfffffULL, 0, 0x187, 0xffdfffffULL },
	{ "fixed ctr truncated", {0}, false, 0x309, ~0ULL, 0, 0x309, M48 },
	{ "fixed ctr1 missing", { .nr_fixed = 1 }, false, 0x30a, 1, GP, 0, 0 },
	{ "fixed ctrl OS/USR/PMI x3", {0}, false, 0x38d, 0xbbb, 0, 0x38d, 0xbbb },
	{ "fixed ctrl AnyThread", {0}, false, 0x38d, 0x4, GP, 0, 0 },
	{ "fixed ctrl missing nibble", { .nr_fixed = 2 }, false, 0x38d, 0x100, GP, 0, 0 },
	{ "global ctrl reserved", {0}, false, 0x38f, 1ULL << 4, GP, 0, 0 },
	{ "global ctrl gp + fixed", {0}, false, 0x38f, 0x70000000fULL, 0, 0x38f, 0x70000000fULL },
	{ "global status read-only", {0}, false, 0x38e, 1, GP, 0, 0 },
	{ "global status host", {0}, true, 0x38e, 5, 0, 0x38e, 5 },
	{ "global status host reserved", {0}, true, 0x38e, 1ULL << 4, GP, 0, 0 },
	{ "global status host COND_CHG", {0}, true, 0x38e, 1ULL << 63, 0, 0x38e, 1ULL << 63 },
	/* intel_pmu_refresh() (linux-next 960ed5831ad4): global_status_rsvd = global_ctrl_rsvd &
	 * ~(OVF_BUF | COND_CHGD), whatever the guest's DS/PEBS: bit 62 is writable without DS. */
	{ "global status host BUFFER_OVF no DS", {0}, true, 0x38e, 1ULL << 62, 0, 0x38e, 1ULL << 62 },
	{ "global status host BUFFER_OVF DS", { .pebs = true }, true, 0x38e, 1ULL << 62, 0, 0x38e,
	  1ULL << 62 },
	{ "ovf ctrl BUFFER_OVF no DS", {0}, false, 0x390, 1ULL << 62, 0, 0x390, 0 },
	{ "ovf ctrl COND_CHG", {0}, false, 0x390, 1ULL << 63, 0, 0x390, 0 },
	{ "ovf ctrl bit 61", {0}, false, 0x390, 1ULL << 61, GP, 0, 0 },
	{ "ovf ctrl reserved", {0}, false, 0x390, 1ULL << 4, GP, 0, 0 },
	{ "ovf ctrl reads 0", {0}, false, 0x390, 1, 0, 0x390, 0 },
	{ "pebs enable without PEBS", {0}, false, 0x3f1, 0, GP, 0, 0 },
	{ "pebs enable", { .pebs = true }, false, 0x3f1, 0xf, 0, 0x3f1, 0xf },
	{ "pebs enable reserved", { .pebs = true }, false, 0x3f1, 0x10, GP, 0, 0 },
	{ "ds area canonical", { .pebs = true }, false, 0x600, 0x7ffffffff000ULL, 0, 0x600,
	  0x7ffffffff000ULL },
	{ "ds area upper half", { .pebs = true }, false, 0x600, 0xffff800000000000ULL, 0, 0x600,
	  0xffff800000000000ULL },
	{ "ds area non-canonical", { .pebs = true }, false, 0x600, 0x800000000000ULL, GP, 0, 0 },
	{ "ds area without DS", {0}, false, 0x600, 0, GP, 0, 0 },
	{ "pebs data cfg", { .pebs = true }, false, 0x3f2, 0, GP, 0, 0 },
	{ "global status set (v4+, not modeled)", {0}, false, 0x391, 1, GP, 0, 0 },
	{ "global inuse", {0}, false, 0x392, 0, GP, 0, 0 },
	{ "amd k7 on intel: dropped", {0}, false, 0xc0010000, 5, 0, 0xc0010000, 0 },
	{ "amd f15h on intel", {0}, false, 0xc0010200, 5, GP, 0, 0 },
	{ "amd global on intel", {0}, false, 0xc0000301, 1, GP, 0, 0 },
	{ "v1: fixed ctr", { .version = 1 }, false, 0x309, 1, GP, 0, 0 },
	{ "v1: global ovf", { .version = 1 }, false, 0x390, 0, GP, 0, 0 },
};

START_TEST(test_msr_writes)
{
	struct rec r;
	struct vpmc_vcpu *v = make(&wr_cases[_i].s, &r);

	msr_write_check(v, wr_cases[_i].name, wr_cases[_i].host, wr_cases[_i].msr,
			wr_cases[_i].val, wr_cases[_i].want, wr_cases[_i].rb, wr_cases[_i].rb_val);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * RDPMC: GP0 = 0x123456789abc, fixed 1 = 0xfedcba987654. B-7.0: ECX[31:16] type (0 GP, 0x4000
 * fixed), anything else #GP. Before 6.9: intel_rdpmc_ecx_to_pmc() takes bit 30 as fixed and drops
 * bits 31:30, and kvm_pmu_rdpmc() (6.8) starts with "mask = fast_mode ? ~0u : ~0ull": with bit
 * 31 the guest reads the low 32 bits, 0x56789abc and 0xba987654 (removed by d652981db08f).
 */
static const struct {
	unsigned int host;
	uint32_t ecx;
	int want;
	uint64_t val;
} rdpmc_cases[] = {
	{ 0, 0, 0, 0x123456789abcULL },
	{ 0, 0x40000001, 0, 0xfedcba987654ULL },
	{ 0, 0x80000000, GP, 0 },
	{ 0, 0xc0000001, GP, 0 },
	{ 0, 4, GP, 0 },
	{ 0, 0x40000003, GP, 0 },
	{ 0, 0x10000, GP, 0 },
	{ 0, 0x40010001, GP, 0 },
	{ VPMC_KERNEL(6, 8), 0, 0, 0x123456789abcULL },
	{ VPMC_KERNEL(6, 8), 0x40000001, 0, 0xfedcba987654ULL },
	{ VPMC_KERNEL(6, 8), 0x80000000, 0, 0x56789abcULL },
	{ VPMC_KERNEL(6, 8), 0xc0000001, 0, 0xba987654ULL },
	{ VPMC_KERNEL(6, 8), 0x10000, GP, 0 },
	{ VPMC_KERNEL(6, 8), 0x40000003, GP, 0 },
};

START_TEST(test_rdpmc_decoding)
{
	struct rec r;
	struct setup s = { .host = rdpmc_cases[_i].host };
	struct vpmc_vcpu *v = make(&s, &r);
	uint64_t val = 0xdead;

	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x4c1, 0x123456789abcULL), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x30a, 0xfedcba987654ULL), 0);
	ck_assert_int_eq(vpmc_vcpu_rdpmc(v, 0, rdpmc_cases[_i].ecx, &val), rdpmc_cases[_i].want);
	ck_assert_uint_eq(val, rdpmc_cases[_i].val);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Only changes request a reprogram: an identical EVNTSEL, FIXED_CTR_CTRL, GLOBAL_CTRL or
 * PEBS_ENABLE write does nothing; FIXED_CTR_CTRL requests only the counters whose nibble
 * changed and marks them in use; GLOBAL_CTRL requests every changed bit (no recalc).
 */
START_TEST(test_only_changes_reprogram)
{
	struct rec r;
	struct setup s = { .pebs = true };
	struct vpmc_vcpu *v = make(&s, &r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x186, EN | OS | INSN), 0);
	ck_assert_uint_eq(pmu->reprogram_pmi, 1);
	ck_assert_uint_eq(pmu->pmc_counting_instructions, 1);
	vpmc_vcpu_entry(v, 1);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 2, 0x186, EN | OS | INSN), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 2, 0x38f, 0xf), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 2, 0x38d, 0), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 2, 0x3f1, 0), 0);
	ck_assert_uint_eq(pmu->reprogram_pmi, 0);
	ck_assert_uint_eq(pmu->requests, 0);

	pmu->pmc_in_use = 0;
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 3, 0x38d, 0x030), 0);
	ck_assert_uint_eq(pmu->reprogram_pmi, 1ULL << 33);
	ck_assert_uint_eq(pmu->pmc_in_use, 1ULL << 33);
	ck_assert_uint_eq(pmu->requests, KVM_REQ_PMU);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 3, 0x38d, 0x033), 0);
	ck_assert_uint_eq(pmu->reprogram_pmi, 3ULL << 32);
	ck_assert_uint_eq(pmu->pmc_counting_instructions, (1ULL << 32) | 1);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 3, 0x38f, 0x300000005ULL), 0);
	ck_assert_uint_eq(pmu->reprogram_pmi, (3ULL << 32) | 0xa | (3ULL << 32));
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 3, 0x3f1, 0x4), 0);
	ck_assert_uint_eq(pmu->reprogram_pmi & 0x4, 0x4);
	vpmc_vcpu_free(v);
}
END_TEST

/* In-use marking goes through intel_msr_idx_to_pmc(): EVNTSEL, PERFCTR and FIXED_CTR mark
 * their counter; the full-width alias 0x4c1+ does not (it is not in that lookup). */
START_TEST(test_in_use_marking)
{
	struct rec r;
	struct setup s = { 0 };
	struct vpmc_vcpu *v = make(&s, &r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x4c2, 1), 0);
	ck_assert_uint_eq(pmu->pmc_in_use, 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc2, 1), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x189, 0), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x30b, 0), 0);
	ck_assert_uint_eq(pmu->pmc_in_use, (1ULL << 34) | 0xa);
	vpmc_vcpu_free(v);
}
END_TEST

/* Host-initiated OVF_CTRL writes change nothing (kvm_pmu_set_msr()); a host counter write
 * drops pending emulated events and the overflow they would have caused (Appendix A). */
START_TEST(test_host_writes)
{
	struct rec r;
	struct setup s = { 0 };
	struct vpmc_vcpu *v = make(&s, &r);

	ck_assert_int_eq(vpmc__vcpu_host_wrmsr(v, 0, 0x38e, 3), 0);
	ck_assert_int_eq(vpmc__vcpu_host_wrmsr(v, 0, 0x390, 1), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 3);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x390, 1), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 2);
	/* No DS: bits 62 and 63 are still not reserved (intel_pmu_refresh()), and a guest
	 * OVF_CTRL write clears them (kvm_pmu_set_msr(): global_status &= ~data). */
	ck_assert_int_eq(vpmc__vcpu_host_wrmsr(v, 0, 0x38e, 3ULL << 62 | 2), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x390, 1ULL << 62), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1ULL << 63 | 2);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x390, 1ULL << 63), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 2);

	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 1, 0x4c1, M48), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 1, 0x186, EN | INT | OS | INSN), 0);
	vpmc_vcpu_entry(v, 2);
	vpmc_vcpu_retire(v, 3, false, VPMC_CPL_KEEP); /* would wrap at the next drain */
	ck_assert_int_eq(vpmc__vcpu_host_wrmsr(v, 4, 0x4c1, M48), 0);
	vpmc_vcpu_entry(v, 5);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 2);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), M48);
	vpmc_vcpu_free(v);
}
END_TEST

/* Reads of every kind of Intel PMU MSR. */
START_TEST(test_msr_reads)
{
	struct rec r;
	struct setup s = { .pebs = true };
	struct vpmc_vcpu *v = make(&s, &r);
	uint64_t val;

	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x3f1, 2), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x600, 0x1000), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x38d, 0x2), 0);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0x3f1), 2);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0x600), 0x1000);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0x38d), 0x2);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0x38f), 0xf);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0x38e), 0);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0x30b), 0);
	ck_assert_int_eq(vpmc_vcpu_rdmsr(v, 0, 0x3f2, &val), VPMC_GP);
	ck_assert_uint_eq(val, 0);
	ck_assert_int_eq(vpmc_vcpu_rdmsr(v, 0, 0x4c5, &val), VPMC_GP);
	ck_assert_int_eq(vpmc_vcpu_rdmsr(v, 0, 0xc0000300, &val), VPMC_GP);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0xc0010007), 0);
	vpmc_vcpu_free(v);
}
END_TEST

/* IN_TXCP (counter 2, TSX): the perf event is created with period 0 and never overflows. */
START_TEST(test_in_txcp_counting_event)
{
	struct rec r;
	struct setup s = { .tsx = true };
	struct vpmc_vcpu *v = make(&s, &r);
	struct vpmc_pmc *pmc = &vpmc__vcpu_pmu(v)->gp_counters[2];

	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x4c3, M48), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x188, EN | INT | OS | INSN | (1ULL << 33)), 0);
	vpmc_vcpu_entry(v, 1);
	ck_assert_uint_eq(pmc->perf_event->attr.sample_period, 0);
	vpmc_vcpu_guest(v, 10, 5, 0, 0); /* counts as instructions? no: IN_TXCP is in the match */
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 2), M48);
	/* a period update on a counting event is refused and ignored */
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 11, 0x4c3, 5), 0);
	vpmc_vcpu_retire(v, 11, false, VPMC_CPL_KEEP);
	vpmc_vcpu_entry(v, 12);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 2), 5);
	vpmc_vcpu_free(v);
}
END_TEST

static Suite *msr_intel_suite(void)
{
	Suite *s = suite_create("msr_intel");
	TCase *tc = tcase_create("map");

	tcase_add_loop_test(tc, test_msr_writes, 0, ARRAY_SIZE(wr_cases));
	tcase_add_loop_test(tc, test_rdpmc_decoding, 0, ARRAY_SIZE(rdpmc_cases));
	tcase_add_test(tc, test_only_changes_reprogram);
	tcase_add_test(tc, test_in_use_marking);
	tcase_add_test(tc, test_host_writes);
	tcase_add_test(tc, test_msr_reads);
	tcase_add_test(tc, test_in_txcp_counting_event);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(msr_intel_suite)
