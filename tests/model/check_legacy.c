// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_legacy.c - The "before" values of upstream-fix-scenarios.md that the model reproduces
 * for traces from older hosts (struct vpmc_pmu_config.host_kernel; the list is in vpmc.h),
 * driven through the public vpmc_vcpu_* API only. Fix 15's prev_counter scheme is in
 * check_scenarios.c (test_fix15b_wrap_inside_one_exit) and check_timelines.c (timeline B).
 *
 * Every expected value is derived from KVM (arch/x86/kvm/pmu.c, vmx/pmu_intel.c, svm/pmu.c) in
 * the comment next to it; "§n" refers to kvm-vpmu-semantics.md, "fix n" to the scenarios file.
 */
#include "config.h"

#include <stdint.h>

#include "check_common.h"
#include "harness.h"

static const struct vpmc_policy exact = { VPMC_POLICY_EXACT, 0 };

#define EN_INT_OS_INSN (EVTSEL_EN | EVTSEL_INT | EVTSEL_OS | EV_INSN)

static struct mh *mh_new_host(struct mh *h, const struct mh_vendor *vd, unsigned int host)
{
	struct vpmc_pmu_config cfg;

	vpmc_pmu_config_default(&cfg, vd->vendor);
	cfg.host_kernel = host;
	mh_new(h, &cfg, &exact);
	return h;
}

/* de120e1d692d (6.9): GLOBAL_CTRL = (1 << nr_gp) - 1 at RESET; 0 before. */
static const struct {
	const char *name;
	const struct mh_vendor *vd;
	unsigned int host;
	uint64_t want;
} reset_ctrl[] = {
	{ "intel-latest", &mh_intel, VPMC_KERNEL_LATEST, 0xFF },
	{ "amd-latest", &mh_amd, VPMC_KERNEL_LATEST, 0x3F },
	{ "intel-6.9", &mh_intel, VPMC_KERNEL(6, 9), 0xFF },
	{ "intel-6.8", &mh_intel, VPMC_KERNEL(6, 8), 0 },
	{ "amd-6.8", &mh_amd, VPMC_KERNEL(6, 8), 0 },
};

START_TEST(test_legacy_global_ctrl_at_reset)
{
	struct mh h;
	uint64_t v;

	mh_new_host(&h, reset_ctrl[_i].vd, reset_ctrl[_i].host);
	v = mh_rdmsr_ok(&h, reset_ctrl[_i].vd->global_ctrl, reset_ctrl[_i].name);
	ck_assert_msg(v == reset_ctrl[_i].want, "%s: GLOBAL_CTRL %#llx want %#llx",
		      reset_ctrl[_i].name, (unsigned long long)v,
		      (unsigned long long)reset_ctrl[_i].want);
	mh_free(&h);
}
END_TEST

/*
 * LVTPC auto-mask after a delivered PMI: since a16eb25b09c0 (6.6) for every guest, restricted to
 * Intel-compatible guests by 49ff3b4aec51 (6.9). Two overflows, no unmasking in between: the
 * second PMI is dropped exactly where the mask was set.
 */
static const struct {
	const char *name;
	const struct mh_vendor *vd;
	unsigned int host;
	bool second_delivered;
} automask[] = {
	{ "intel-latest", &mh_intel, VPMC_KERNEL_LATEST, false },
	{ "amd-latest", &mh_amd, VPMC_KERNEL_LATEST, true },
	{ "amd-6.8", &mh_amd, VPMC_KERNEL(6, 8), false },
	{ "intel-6.6", &mh_intel, VPMC_KERNEL(6, 6), false },
	{ "intel-6.5", &mh_intel, VPMC_KERNEL(6, 5), true },
	{ "amd-6.5", &mh_amd, VPMC_KERNEL(6, 5), true },
};

START_TEST(test_legacy_lvtpc_automask)
{
	const char *name = automask[_i].name;
	const struct vpmc_obs *pmi;
	size_t mark;
	struct mh h;
	int k;

	mh_new_host(&h, automask[_i].vd, automask[_i].host);
	for (k = 0; k < 2; k++) {
		mark = h.nr_obs;
		mh_arm(&h, automask[_i].vd, 0, EN_INT_OS_INSN, MH_W48 - 1); /* M */
		mh_emulated(&h, false);                                       /* wraps */
		pmi = mh_find(&h, VPMC_OBS_PMI, -2, mark);
		ck_assert_msg(pmi, "%s: overflow %d raised no PMI", name, k);
		ck_assert_msg(pmi->delivered == (k == 0 || automask[_i].second_delivered),
			      "%s: PMI %d delivered %d", name, k, pmi->delivered);
	}
	mh_free(&h);
}
END_TEST

/* 05519c86d699 (6.8): before it, FIXED_CTR_CTRL's old value was a u8, so the nibble of fixed
 * counter 2 always read as 0 and its disabling was not seen: no reprogram, no drain. */
START_TEST(test_legacy_fixed2_disable_missed)
{
	size_t mark;
	struct mh h;

	mh_new_host(&h, &mh_intel, VPMC_KERNEL(6, 7));
	mh_wrmsr_ok(&h, MSR_CORE_PERF_GLOBAL_CTRL, 1ULL << 34, "6.7");
	/* Enabling is seen (old nibble 0 vs 0xB). */
	mark = h.nr_obs;
	mh_wrmsr_ok(&h, MSR_CORE_PERF_FIXED_CTR_CTRL, 0xB00, "6.7");
	ck_assert_msg(mh_find(&h, VPMC_OBS_REPROGRAM, FIXED_IDX + 2, mark), "6.7: enable not seen");
	mh_guest(&h, 100, 0);
	mark = h.nr_obs;
	mh_wrmsr_ok(&h, MSR_CORE_PERF_FIXED_CTR_CTRL, 0, "6.7");
	ck_assert_msg(mh_count(&h, VPMC_OBS_DRAIN, mark) == 0, "6.7: the disable was seen");
	mh_free(&h);
}
END_TEST

/*
 * RDPMC with the "fast" bit 31, GP counter 0 at 0xff0123456789 (kvm-unit-tests' check_rdpmc
 * "fast-%d"). 6.9 (d652981db08f, 5728a4a0ea79, ecb490770ad4): Intel ECX bits 31:16 are the
 * type, unknown types #GP; AMD ECX is the index, 0x80000000 #GPs. 6.8's kvm_pmu_rdpmc() starts
 * with "mask = fast_mode ? ~0u : ~0ull" and both vendors drop bits 31:30 from the index: the
 * guest reads counter 0's low 32 bits, 0x23456789, on Intel and AMD.
 */
static const struct {
	const char *name;
	const struct mh_vendor *vd;
	unsigned int host;
	int want;
	uint64_t val;
} rdpmc_fast[] = {
	{ "intel-latest", &mh_intel, VPMC_KERNEL_LATEST, VPMC_GP, 0 },
	{ "intel-6.9", &mh_intel, VPMC_KERNEL(6, 9), VPMC_GP, 0 },
	{ "intel-6.8", &mh_intel, VPMC_KERNEL(6, 8), 0, 0x23456789 },
	{ "amd-latest", &mh_amd, VPMC_KERNEL_LATEST, VPMC_GP, 0 },
	{ "amd-6.8", &mh_amd, VPMC_KERNEL(6, 8), 0, 0x23456789 },
};

START_TEST(test_legacy_rdpmc_fast_bit)
{
	uint64_t v = 1;
	struct mh h;
	int rc;

	mh_new_host(&h, rdpmc_fast[_i].vd, rdpmc_fast[_i].host);
	mh_wrmsr_ok(&h, rdpmc_fast[_i].vd->ctr0, 0xff0123456789ULL, rdpmc_fast[_i].name);
	rc = mh_rdpmc(&h, 1U << 31, &v);
	ck_assert_msg(rc == rdpmc_fast[_i].want, "%s: RDPMC(1 << 31) returned %d",
		      rdpmc_fast[_i].name, rc);
	ck_assert_msg(v == rdpmc_fast[_i].val, "%s: RDPMC(1 << 31) read %#llx",
		      rdpmc_fast[_i].name, (unsigned long long)v);
	mh_free(&h);
}
END_TEST

/*
 * b29a2acd36dd (6.6) truncates counter writes to the counter's width. Before, the vendors' set_msr
 * did "pmc->counter += data - pmc_read_counter(pmc)" and kept the high bits: Intel's guest write
 * of 0x80000000 to 0xc1 is sign-extended to 0xffffffff80000000, an AMD write of 2^48 + 5 stays
 * whole. GP0 counts instructions at CPL 0 (mh_arm: it reads 1), so the WRMSR's own retirement
 * is 6.2-6.7's kvm_pmu_incr_counter(): prev_counter = the unmasked value, counter = (value + 1)
 * & mask = 0xffff80000001 (AMD: 6); the drain at the entry (pmc_pause_counter()) finds counter <
 * prev_counter: an overflow, GLOBAL_STATUS bit 0, and a PMI (INT). From 6.6 the write stores
 * 0xffff80000000 (AMD: 5) and +1 is no overflow. The guest reads the masked value either way.
 */
static const struct {
	const char *name;
	const struct mh_vendor *vd;
	unsigned int host;
	uint32_t msr;
	uint64_t val, read;
	uint64_t status;
} untruncated[] = {
	{ "intel-6.5", &mh_intel, VPMC_KERNEL(6, 5), MSR_IA32_PERFCTR0, 0x80000000, 0xffff80000001ULL,
	  1 },
	{ "intel-6.6", &mh_intel, VPMC_KERNEL(6, 6), MSR_IA32_PERFCTR0, 0x80000000, 0xffff80000001ULL,
	  0 },
	{ "amd-6.5", &mh_amd, VPMC_KERNEL(6, 5), 0, (1ULL << 48) + 5, 6, 1 },
	{ "amd-6.6", &mh_amd, VPMC_KERNEL(6, 6), 0, (1ULL << 48) + 5, 6, 0 },
};

START_TEST(test_legacy_counter_write_not_truncated)
{
	const char *name = untruncated[_i].name;
	const struct mh_vendor *vd = untruncated[_i].vd;
	uint32_t msr = untruncated[_i].msr ? untruncated[_i].msr : vd->ctr0;
	const struct vpmc_obs *pmi;
	size_t mark;
	struct mh h;

	mh_new_host(&h, vd, untruncated[_i].host);
	mh_arm(&h, vd, 0, EN_INT_OS_INSN, 0);
	mark = h.nr_obs;
	mh_wrmsr_ok(&h, msr, untruncated[_i].val, name);
	ck_assert_msg(vpmc_vcpu_global_status(h.v) == untruncated[_i].status, "%s: status %#llx",
		      name, (unsigned long long)vpmc_vcpu_global_status(h.v));
	pmi = mh_find(&h, VPMC_OBS_PMI, -2, mark);
	ck_assert_msg(!pmi == !untruncated[_i].status, "%s: PMI %p", name, (const void *)pmi);
	ck_assert_uint_eq(mh_rdpmc_ok(&h, 0, name), untruncated[_i].read);
	mh_free(&h);
}
END_TEST

/* 68e61f6fd656 (6.18): PERF_CNTR_GLOBAL_STATUS_SET; before, an unknown MSR: #GP. */
START_TEST(test_legacy_amd_status_set_gp)
{
	struct mh h;

	mh_new_host(&h, &mh_amd, VPMC_KERNEL(6, 17));
	ck_assert_int_eq(mh_wrmsr_insn(&h, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET, 1), VPMC_GP);
	ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), 0);
	mh_free(&h);
}
END_TEST

/*
 * Before fd89499a5151 (6.8) there was no emulated_counter to batch: kvm_pmu_incr_counter()
 * added to counter and requested the reprogram every time, so a tolerance policy cannot defer
 * anything and behaves as exact (vpmc.h). One CPUID wrapping a counter at M: detected at the
 * next entry on 6.7 (prev_counter M, counter 0), not on the latest host with T = 1000.
 */
static const struct {
	const char *name;
	const struct mh_vendor *vd;
	unsigned int host;
	uint64_t want_status;
} tol_legacy[] = {
	{ "intel-latest", &mh_intel, VPMC_KERNEL_LATEST, 0 },
	{ "amd-latest", &mh_amd, VPMC_KERNEL_LATEST, 0 },
	{ "intel-6.7", &mh_intel, VPMC_KERNEL(6, 7), 1 },
	{ "amd-6.7", &mh_amd, VPMC_KERNEL(6, 7), 1 },
};

START_TEST(test_legacy_tolerance_is_exact_before_6_8)
{
	const struct vpmc_policy tol = { VPMC_POLICY_TOLERANCE, 1000 };
	struct vpmc_pmu_config cfg;
	struct mh h;

	vpmc_pmu_config_default(&cfg, tol_legacy[_i].vd->vendor);
	cfg.host_kernel = tol_legacy[_i].host;
	mh_new(&h, &cfg, &tol);
	mh_arm(&h, tol_legacy[_i].vd, 0, EN_INT_OS_INSN, MH_W48 - 1); /* M */
	mh_emulated(&h, false);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 0);
	ck_assert_msg(vpmc_vcpu_global_status(h.v) == tol_legacy[_i].want_status,
		      "%s: status %#llx", tol_legacy[_i].name,
		      (unsigned long long)vpmc_vcpu_global_status(h.v));
	mh_free(&h);
}
END_TEST

static Suite *legacy_suite(void)
{
	Suite *s = suite_create("legacy");
	TCase *tc = tcase_create("legacy");

	tcase_add_loop_test(tc, test_legacy_global_ctrl_at_reset, 0, ARRAY_SIZE(reset_ctrl));
	tcase_add_loop_test(tc, test_legacy_lvtpc_automask, 0, ARRAY_SIZE(automask));
	tcase_add_test(tc, test_legacy_fixed2_disable_missed);
	tcase_add_loop_test(tc, test_legacy_rdpmc_fast_bit, 0, ARRAY_SIZE(rdpmc_fast));
	tcase_add_loop_test(tc, test_legacy_counter_write_not_truncated, 0,
			    ARRAY_SIZE(untruncated));
	tcase_add_test(tc, test_legacy_amd_status_set_gp);
	tcase_add_loop_test(tc, test_legacy_tolerance_is_exact_before_6_8, 0,
			    ARRAY_SIZE(tol_legacy));
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(legacy_suite)
