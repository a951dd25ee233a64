// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_msr_amd.c - The AMD MSR map and RDPMC (lib/pmu_amd.c and the common part in
 * lib/pmu.c). Expected outcomes follow amd_pmu_set_msr() / amd_pmu_get_msr() /
 * amd_is_valid_msr() / get_gp_pmc_amd() / amd_check_rdpmc_early() and kvm_pmu_set_msr(): AMD
 * drops reserved bits instead of #GP, K7 and F15H MSRs alias the same counters, and the Intel
 * GLOBAL_* MSRs are valid for a PerfMonV2 guest too (kvm_pmu_is_valid_msr()).
 */
#include "config.h"

#include "harness-internal.h"

#define GP VPMC_GP

struct setup {
	unsigned int version, nr_gp, host;
};

static struct vpmc_vcpu *make(const struct setup *s, struct rec *r)
{
	struct vpmc_pmu_config cfg;
	struct vpmc_policy pol = { VPMC_POLICY_EXACT, 0 };
	struct vpmc_observer obs = { .fn = rec_fn, .data = r };
	struct vpmc_vcpu *v = NULL;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_AMD);
	cfg.version = s->version ? s->version : 2;
	cfg.nr_gp = s->nr_gp ? s->nr_gp : 6;
	cfg.host_kernel = s->host ? s->host : VPMC_KERNEL_LATEST;
	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, &obs), 0);
	return v;
}

static const struct {
	const char *name;
	struct setup s;
	bool host;
	uint32_t msr;
	uint64_t val;
	int want;
	uint32_t rb;
	uint64_t rb_val;
} wr_cases[] = {
	{ "k7 evntsel aliases ctl0", {0}, false, 0xc0010000, EN | OS | INSN, 0, 0xc0010200,
	  EN | OS | INSN },
	{ "ctr2 aliases k7 perfctr2", {0}, false, 0xc0010205, 77, 0, 0xc0010006, 77 },
	{ "ctl5 exists", {0}, false, 0xc001020a, 0x42, 0, 0xc001020a, 0x42 },
	{ "evntsel reserved dropped", {0}, false, 0xc0010200,
	  (1ULL << 40) | (1ULL << 41) | (1ULL << 21) | (1ULL << 19) | (0xfULL << 32) | 0xc0, 0,
	  0xc0010200, (0xfULL << 32) | 0xc0 },
	{ "counter truncated to 48 bits", {0}, false, 0xc0010201, ~0ULL, 0, 0xc0010004, M48 },
	{ "global ctl reserved dropped", {0}, false, 0xc0000301, ~0ULL, 0, 0xc0000301, 0x3f },
	{ "global status: guest write ignored", {0}, false, 0xc0000300, 1, 0, 0xc0000300, 0 },
	{ "global status: host", {0}, true, 0xc0000300, 0x21, 0, 0xc0000300, 0x21 },
	{ "global status: host reserved", {0}, true, 0xc0000300, 1ULL << 6, GP, 0, 0 },
	{ "status set: reserved dropped", {0}, false, 0xc0000303, 0x41, 0, 0xc0000300, 1 },
	{ "status set: host no effect", {0}, true, 0xc0000303, 1, 0, 0xc0000300, 0 },
	{ "status set before 6.18", { .host = VPMC_KERNEL(6, 17) }, false, 0xc0000303, 1, GP, 0, 0 },
	{ "status set reads 0", {0}, false, 0xc0000303, 0, 0, 0xc0000303, 0 },
	{ "intel global ctrl on v2", {0}, false, 0x38f, 0x5, 0, 0xc0000301, 0x5 },
	{ "intel global ctrl reserved", {0}, false, 0x38f, 0x40, GP, 0, 0 },
	{ "intel global status read-only", {0}, false, 0x38e, 1, GP, 0, 0 },
	{ "intel ovf ctrl reserved", {0}, false, 0x390, 0x40, GP, 0, 0 },
	{ "v1: no global ctl", { .version = 1 }, false, 0xc0000301, 1, GP, 0, 0 },
	{ "v1: no intel global ctrl", { .version = 1 }, false, 0x38f, 1, GP, 0, 0 },
	{ "v1 legacy: no f15h", { .version = 1, .nr_gp = 4 }, false, 0xc0010200, 1, GP, 0, 0 },
	{ "v1 legacy: k7 ok", { .version = 1, .nr_gp = 4 }, false, 0xc0010007, 9, 0, 0xc0010007, 9 },
	{ "v1 perfctr core: f15h", { .version = 1, .nr_gp = 6 }, false, 0xc001020b, 9, 0, 0xc001020b,
	  9 },
	{ "v2 with 2 counters: k7 #3 #GP", { .nr_gp = 2 }, false, 0xc0010007, 1, GP, 0, 0 },
	{ "v2 with 2 counters: ctl2 #GP", { .nr_gp = 2 }, false, 0xc0010204, 1, GP, 0, 0 },
	{ "intel pmc0 on amd: dropped", {0}, false, 0xc1, 5, 0, 0xc1, 0 },
	{ "intel evntsel0 on amd: dropped", {0}, false, 0x186, 5, 0, 0x186, 0 },
	{ "intel evntsel2 on amd", {0}, false, 0x188, 5, GP, 0, 0 },
	{ "intel fixed ctr on amd", {0}, false, 0x309, 5, GP, 0, 0 },
	{ "intel fixed ctrl on amd", {0}, false, 0x38d, 5, GP, 0, 0 },
	{ "intel a_pmc0 on amd", {0}, false, 0x4c1, 5, GP, 0, 0 },
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
 * RDPMC, counter 0 = 0x123456789abc, counter 5 = 5: ECX is the whole index (no Intel type bits);
 * an invalid one #GPs early. Before 6.9 (6.8's amd_is_valid_rdpmc_ecx() and
 * amd_rdpmc_ecx_to_pmc(): "idx &= ~(3u << 30)", until ecb490770ad4) bits 31:30 are dropped, and
 * kvm_pmu_rdpmc()'s "mask = fast_mode ? ~0u : ~0ull" (until d652981db08f) makes bit 31 read the
 * low 32 bits: 0x56789abc.
 */
static const struct {
	unsigned int host;
	uint32_t ecx;
	int want;
	uint64_t val;
} rdpmc_cases[] = {
	{ 0, 0, 0, 0x123456789abcULL }, { 0, 5, 0, 5 }, { 0, 6, GP, 0 }, { 0, 0x40000000, GP, 0 },
	{ 0, 0x80000000, GP, 0 }, { 0, 0x10000, GP, 0 },
	{ VPMC_KERNEL(6, 8), 0x40000000, 0, 0x123456789abcULL },
	{ VPMC_KERNEL(6, 8), 0x40000005, 0, 5 },
	{ VPMC_KERNEL(6, 8), 0x80000000, 0, 0x56789abcULL },
	{ VPMC_KERNEL(6, 8), 0xc0000005, 0, 5 },
	{ VPMC_KERNEL(6, 8), 6, GP, 0 },
	{ VPMC_KERNEL(6, 8), 0x10000, GP, 0 },
};

START_TEST(test_rdpmc)
{
	struct rec r;
	struct setup s = { .host = rdpmc_cases[_i].host };
	struct vpmc_vcpu *v = make(&s, &r);
	uint64_t val = 0xdead;

	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc0010201, 0x123456789abcULL), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc001020b, 0x5), 0);
	ck_assert_int_eq(vpmc_vcpu_rdpmc(v, 0, rdpmc_cases[_i].ecx, &val), rdpmc_cases[_i].want);
	ck_assert_uint_eq(val, rdpmc_cases[_i].val);
	vpmc_vcpu_free(v);
}
END_TEST

/* STATUS_CLR clears (guest only) and reads 0; Intel OVF_CTRL works on a v2 AMD guest too. */
START_TEST(test_status_clear)
{
	struct rec r;
	struct setup s = { 0 };
	struct vpmc_vcpu *v = make(&s, &r);

	ck_assert_int_eq(vpmc__vcpu_host_wrmsr(v, 0, 0xc0000300, 0x7), 0);
	ck_assert_int_eq(vpmc__vcpu_host_wrmsr(v, 0, 0xc0000302, 0x1), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0x7);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc0000302, 0x1), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0x6);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0xc0000302), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x390, 0x2), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0x4);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0x38e), 0x4);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Counting on AMD: branches are event 0xc2 (emulated and native), instructions 0xc0; an
 * unchanged event select does not reprogram; the reprogram request goes through the F15H MSR
 * and the K7 alias alike.
 */
START_TEST(test_counting)
{
	struct rec r;
	struct setup s = { 0 };
	struct vpmc_vcpu *v = make(&s, &r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc0010200, EN | OS | BR_AMD), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc0010001, EN | OS | INSN), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc0010204, EN | OS | BR_INTEL), 0);
	ck_assert_uint_eq(pmu->pmc_counting_branches, 1);
	ck_assert_uint_eq(pmu->pmc_counting_instructions, 2);
	vpmc_vcpu_entry(v, 1);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 2, 0xc0010000, EN | OS | BR_AMD), 0);
	ck_assert_uint_eq(pmu->requests, 0);
	vpmc_vcpu_retire(v, 3, true, VPMC_CPL_KEEP);
	vpmc_vcpu_entry(v, 4);
	vpmc_vcpu_guest(v, 14, 10, 4, 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 5);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 1), 11);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 2), 0);
	vpmc_vcpu_free(v);
}
END_TEST

/* No vPMU on AMD (version 0): the K7 MSRs read 0 and drop writes; the rest #GP. */
START_TEST(test_no_vpmu)
{
	struct vpmc_pmu_config cfg;
	struct vpmc_policy pol = { VPMC_POLICY_EXACT, 0 };
	struct vpmc_vcpu *v;
	uint64_t val;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_AMD);
	cfg.version = 0;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, NULL), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc0010000, 5), 0);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0xc0010000), 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc0010200, 5), GP);
	ck_assert_int_eq(vpmc_vcpu_rdmsr(v, 0, 0xc0000300, &val), GP);
	ck_assert_int_eq(vpmc_vcpu_rdpmc(v, 0, 0, &val), GP);
	vpmc_vcpu_free(v);
}
END_TEST

/* A valid MSR without a counter behind it (K7 PERFCTR3 on a 2-counter PerfMonV2 guest):
 * amd_is_valid_msr() says yes, amd_pmu_get_msr() fails: #GP, value 0. */
START_TEST(test_valid_msr_without_counter_reads_gp)
{
	struct rec r;
	struct setup s = { .nr_gp = 2 };
	struct vpmc_vcpu *v = make(&s, &r);
	uint64_t val = 1;

	ck_assert_int_eq(vpmc_vcpu_rdmsr(v, 0, 0xc0010007, &val), GP);
	ck_assert_uint_eq(val, 0);
	ck_assert(rec_nth(&r, VPMC_OBS_READ, 0)->gp);
	vpmc_vcpu_free(v);
}
END_TEST

static Suite *msr_amd_suite(void)
{
	Suite *s = suite_create("msr_amd");
	TCase *tc = tcase_create("map");

	tcase_add_loop_test(tc, test_msr_writes, 0, ARRAY_SIZE(wr_cases));
	tcase_add_loop_test(tc, test_rdpmc, 0, ARRAY_SIZE(rdpmc_cases));
	tcase_add_test(tc, test_status_clear);
	tcase_add_test(tc, test_counting);
	tcase_add_test(tc, test_no_vpmu);
	tcase_add_test(tc, test_valid_msr_without_counter_reads_gp);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(msr_amd_suite)
