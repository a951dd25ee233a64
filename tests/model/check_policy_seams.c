// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_policies.c - What each accounting policy changes (kvm-vpmu-semantics.md Appendix A) and
 * PMI delivery, through the public API only.
 *
 * tolerance=T: kvm_pmu_incr_counter() always does emulated_counter++, and requests the reprogram
 * only once emulated_counter > T; tolerance-wrap=T also when the increment wraps the counter.
 * disabled=MASK: the retire hook returns early for PERF_COUNT_HW id n when bit n is set.
 * mediated: counter += 1 with an immediate overflow check using the current INT bit (§4.3).
 */
#include "config.h"

#include <stdint.h>

#include "check_common.h"
#include "harness.h"

#define EN_OS_INSN (EVTSEL_EN | EVTSEL_OS | EV_INSN)
#define EN_INT_OS_INSN (EVTSEL_EN | EVTSEL_INT | EVTSEL_OS | EV_INSN)

static const struct vpmc_policy exact = { VPMC_POLICY_EXACT, 0 };
static const struct vpmc_policy mediated = { VPMC_POLICY_MEDIATED, 0 };
static const struct vpmc_policy reference = { VPMC_POLICY_REFERENCE, 0 };

static const struct mh_vendor *const vendors[] = { &mh_intel, &mh_amd };

#define VD (vendors[_i % ARRAY_SIZE(vendors)])

/* ---- tolerance ------------------------------------------------------------------------- */

static const uint64_t tolerances[] = { 5, 1000 };

/* Reads include emulated_counter (pmc_read_counter()), whatever is pending. */
START_TEST(test_tolerance_reads_stay_exact)
{
	const struct vpmc_policy p = { VPMC_POLICY_TOLERANCE, tolerances[_i / 2] };
	uint64_t want = 1;
	struct mh h;
	int k;

	mh_new_vendor(&h, VD->vendor, &p);
	mh_arm(&h, VD, 0, EN_OS_INSN, 0); /* the enabling WRMSR counts itself: 1 */
	for (k = 1; k <= 20; k++) {
		mh_guest(&h, 7, 0);
		mh_retire(&h, false); /* CPUID */
		want += 8;
		ck_assert_msg(vpmc_vcpu_counter(h.v, 0) == want, "%s T=%llu: read %llu want %llu "
			      "before entry %d", VD->name, (unsigned long long)p.arg,
			      (unsigned long long)vpmc_vcpu_counter(h.v, 0),
			      (unsigned long long)want, k);
		mh_entry(&h);
	}
	/* The guest's own RDPMC and RDMSR agree: 161, then the RDPMC retired: 162. */
	ck_assert_uint_eq(mh_rdpmc_ok(&h, 0, VD->name), 161);
	ck_assert_uint_eq(mh_rdmsr_ok(&h, mh_ctr(VD, 0), VD->name), 162);
	mh_free(&h);
}
END_TEST

/*
 * T = 3, counter = M: the first increment wraps it (reads 0) but requests nothing; the 4th
 * makes emulated_counter = 4 > 3 and requests the reprogram, whose pause folds M + 4 = 3 < M.
 */
START_TEST(test_tolerance_overflow_at_threshold_drain)
{
	const struct vpmc_policy p = { VPMC_POLICY_TOLERANCE, 3 };
	uint64_t t_entry = 0;
	size_t mark;
	struct mh h;
	int k;

	mh_new_vendor(&h, VD->vendor, &p);
	/* Preset M - 1; the enabling WRMSR's event is folded by the drain that GLOBAL_CTRL's
	 * reprogram_counters() requested anyway: M, nothing pending. */
	mh_arm(&h, VD, 0, EN_INT_OS_INSN, MH_W48 - 1);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), MH_W48);
	mark = h.nr_obs;
	for (k = 1; k <= 4; k++) {
		mh_retire(&h, false);
		t_entry = mh_entry(&h);
		if (k < 4) {
			ck_assert_msg(mh_count(&h, VPMC_OBS_OVERFLOW, mark) == 0 &&
				      mh_count(&h, VPMC_OBS_DRAIN, mark) == 0,
				      "%s: drained or overflowed below the threshold (k=%d)",
				      VD->name, k);
			ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), 0);
		}
	}
	mh_expect_overflow(&h, mark, 0, t_entry, 1, VD->name); /* at the 4th entry */
	mh_expect_pmi(&h, mark, t_entry, true, VD->name);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 3);
	mh_free(&h);
}
END_TEST

/*
 * T = 1000: one wrapping increment stays undetected until something else reprograms the counter.
 * An eventsel write does (kvm_pmu_request_counter_reprogram()); a GLOBAL_CTRL write reprograms
 * only the counters whose bits changed (reprogram_counters(diff)).
 */
static const struct {
	const char *name;
	bool eventsel; /* else: GLOBAL_CTRL write that only sets bit 1 */
	uint64_t want_status, want_counter;
} other_reprogram[] = {
	/* Eventsel gains USR: changed -> reprogram; pending 2 (the CPUID and the WRMSR itself):
	 * M + 2 = 1 < M: overflow, INT cached at creation -> PMI. */
	{ "eventsel-write", true, 1, 1 },
	/* GLOBAL_CTRL 1 -> 3: diff = bit 1, GP0 not reprogrammed: still undetected. */
	{ "global-ctrl-other-bit", false, 0, 1 },
};

START_TEST(test_tolerance_overflow_at_other_reprogram)
{
	const struct vpmc_policy p = { VPMC_POLICY_TOLERANCE, 1000 };
	const char *name = other_reprogram[_i / 2].name;
	size_t mark;
	struct mh h;

	mh_new_vendor(&h, VD->vendor, &p);
	mh_arm(&h, VD, 0, EN_INT_OS_INSN, MH_W48 - 1); /* M */
	mark = h.nr_obs;
	mh_emulated(&h, false); /* CPUID: wraps (reads 0), requests nothing */
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 0);
	ck_assert_msg(mh_count(&h, VPMC_OBS_OVERFLOW, mark) == 0, "%s/%s: early", VD->name, name);
	if (other_reprogram[_i / 2].eventsel)
		mh_wrmsr_ok(&h, mh_evtsel(VD, 0), EN_INT_OS_INSN | EVTSEL_USR, name);
	else
		mh_wrmsr_ok(&h, VD->global_ctrl, 3, name);
	ck_assert_msg(vpmc_vcpu_global_status(h.v) == other_reprogram[_i / 2].want_status,
		      "%s/%s: status %#llx", VD->name, name,
		      (unsigned long long)vpmc_vcpu_global_status(h.v));
	ck_assert_msg(mh_count(&h, VPMC_OBS_PMI, mark) == other_reprogram[_i / 2].want_status,
		      "%s/%s: PMIs", VD->name, name);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), other_reprogram[_i / 2].want_counter);
	mh_free(&h);
}
END_TEST

/* GLOBAL_STATUS is @want and there were exactly @want (0 or 1) overflows of GP0. */
static void assert_gp0_status(struct mh *h, const char *vd, const char *name, uint64_t want)
{
	ck_assert_msg(vpmc_vcpu_global_status(h->v) == want, "%s/%s: status %#llx want %#llx",
		      vd, name, (unsigned long long)vpmc_vcpu_global_status(h->v),
		      (unsigned long long)want);
	ck_assert_uint_eq(mh_count(h, VPMC_OBS_OVERFLOW, 0), want);
}

/*
 * pmc_write_counter() zeroes emulated_counter: events pending since the last drain are dropped,
 * and so is an overflow they caused that no drain has seen yet. Exact detects it at the entry
 * right after the wrap; tolerance never does.
 */
static const struct {
	const char *name;
	struct vpmc_policy p;
	uint64_t want_status;
} write_drops[] = {
	{ "exact", { VPMC_POLICY_EXACT, 0 }, 1 },
	{ "tolerance=1000", { VPMC_POLICY_TOLERANCE, 1000 }, 0 },
	{ "tolerance-wrap=1000", { VPMC_POLICY_TOLERANCE_WRAP, 1000 }, 1 }, /* requested at wrap */
	/* The write first folds the 3 pending events (M + 3 = 2 < M: an overflow, GP0 counting):
	 * vpmc__policy_fold() before kvm_pmu_set_msr() applies the write. */
	{ "tolerance-fold=1000", { VPMC_POLICY_TOLERANCE_FOLD, 1000 }, 1 },
};

START_TEST(test_counter_write_drops_pending)
{
	const char *name = write_drops[_i / 2].name;
	struct mh h;
	int k;

	mh_new_vendor(&h, VD->vendor, &write_drops[_i / 2].p);
	mh_arm(&h, VD, 0, EN_OS_INSN, MH_W48 - 1); /* M */
	for (k = 0; k < 3; k++)
		mh_emulated(&h, false); /* M + 3 = 2 */
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 2);
	/* WRMSR counter <- 1, then it counts itself: 2. Under tolerance=1000 the 3 CPUIDs are
	 * still pending (2 under tolerance-wrap, whose first one wrapped and was drained, none
	 * under exact): the write drops them rather than subtracting them from 1. */
	mh_wrmsr_ok(&h, mh_ctr(VD, 0), 1, name);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 2);
	for (k = 0; k < 10; k++)
		mh_emulated(&h, false);
	ck_assert_uint_eq(mh_rdpmc_ok(&h, 0, name), 12);
	assert_gp0_status(&h, VD->name, name, write_drops[_i / 2].want_status);
	mh_free(&h);
}
END_TEST

/*
 * tolerance-fold (issue 18): a pending emulated wrap survives a write that stops the counter.
 * GP0 armed at M (counts instructions), one CPUID wraps it to 0 (pending under tolerance), then
 * the guest disables the counter. reprogram_counter() pauses the disabled counter and returns
 * before __kvm_perf_overflow(): tolerance loses the overflow; exact drained it at the CPUID's
 * entry; tolerance-fold folds it before the write, while GP0 still counts.
 */
static const struct {
	const char *name;
	struct vpmc_policy p;
	int write; /* 0: GLOBAL_CTRL <- 0, 1: EVTSEL0 <- EN cleared, 2: PMC0 <- 5 */
	uint64_t want_status;
} fold[] = {
	{ "exact/global", { VPMC_POLICY_EXACT, 0 }, 0, 1 },
	{ "tolerance/global", { VPMC_POLICY_TOLERANCE, 1000 }, 0, 0 },
	{ "tolerance/evtsel", { VPMC_POLICY_TOLERANCE, 1000 }, 1, 0 },
	{ "tolerance/counter", { VPMC_POLICY_TOLERANCE, 1000 }, 2, 0 },
	{ "fold/global", { VPMC_POLICY_TOLERANCE_FOLD, 1000 }, 0, 1 },
	{ "fold/evtsel", { VPMC_POLICY_TOLERANCE_FOLD, 1000 }, 1, 1 },
	{ "fold/counter", { VPMC_POLICY_TOLERANCE_FOLD, 1000 }, 2, 1 },
};

START_TEST(test_fold_before_control_write)
{
	const char *name = fold[_i / 2].name;
	struct mh h;

	mh_new_vendor(&h, VD->vendor, &fold[_i / 2].p);
	mh_arm(&h, VD, 0, EN_OS_INSN, MH_W48 - 1); /* M */
	mh_emulated(&h, false); /* CPUID: M + 1 = 0 */
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 0);
	if (fold[_i / 2].write == 0)
		mh_wrmsr_ok(&h, VD->global_ctrl, 0, name);
	else if (fold[_i / 2].write == 1)
		mh_wrmsr_ok(&h, mh_evtsel(VD, 0), EVTSEL_OS | EV_INSN, name);
	else
		mh_wrmsr_ok(&h, mh_ctr(VD, 0), 5, name);
	assert_gp0_status(&h, VD->name, name, fold[_i / 2].want_status);
	mh_free(&h);
}
END_TEST

/*
 * The perf period is get_sample_period(counter): with events pending it ignores them, so the
 * hardware overflow comes late by the pending amount. Counter 2^48 - 10 (perf period 10), three
 * pending CPUIDs, then 20 native instructions from t0: the architecture wraps at the 7th.
 */
static const struct {
	const char *name;
	struct vpmc_policy p;
	uint64_t at;       /* instruction of the segment at which the overflow is reported */
	bool emulated;
} late[] = {
	/* Exact drains each CPUID: period 7 when the guest runs. */
	{ "exact", { VPMC_POLICY_EXACT, 0 }, 7, false },
	/* Nothing drained (3 <= 10): perf fires after 10 hardware events. At the implicit exit's
	 * drain c = 2^48 - 10 + 10 = 0 = prev, + 3 = 3: no emulated overflow on top. */
	{ "tolerance=10", { VPMC_POLICY_TOLERANCE, 10 }, 10, false },
	/* No increment wrapped: same as tolerance. */
	{ "tolerance-wrap=10", { VPMC_POLICY_TOLERANCE_WRAP, 10 }, 10, false },
	/* Mediated: the guest's hardware counter already holds the CPUIDs. */
	{ "mediated", { VPMC_POLICY_MEDIATED, 0 }, 7, false },
};

START_TEST(test_hardware_overflow_late_by_pending)
{
	const char *name = late[_i / 2].name;
	uint64_t t0;
	struct mh h;
	int k;

	mh_new_vendor(&h, VD->vendor, &late[_i / 2].p);
	mh_arm(&h, VD, 0, EN_INT_OS_INSN, MH_W48 - 10); /* 2^48 - 11 + 1 */
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), MH_W48 - 9);
	for (k = 0; k < 3; k++)
		mh_emulated(&h, false);
	t0 = h.t;
	mh_guest(&h, 20, 0);
	mh_expect_overflow(&h, 0, 0, t0 + late[_i / 2].at, late[_i / 2].emulated, name);
	mh_expect_pmi(&h, 0, t0 + late[_i / 2].at, true, name);
	ck_assert_uint_eq(mh_count(&h, VPMC_OBS_OVERFLOW, 0), 1);
	/* 2^48 - 10 + 3 + 20 = 13, exact in every policy. */
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 13);
	mh_free(&h);
}
END_TEST

/* The reference counter overflows at the wrapping event itself (trace-format.md). */
START_TEST(test_reference_overflow_at_wrap)
{
	uint64_t t0;
	struct mh h;
	int k;

	mh_new_vendor(&h, VD->vendor, &reference);
	mh_arm(&h, VD, 0, EN_INT_OS_INSN, MH_W48 - 10);
	for (k = 0; k < 3; k++)
		mh_emulated(&h, false);
	t0 = h.t;
	mh_guest(&h, 20, 0);
	mh_expect_overflow(&h, 0, 0, t0 + 7, -1, VD->name);
	mh_expect_pmi(&h, 0, t0 + 7, true, VD->name);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 13);
	mh_free(&h);
}
END_TEST

/* T = UINT64_MAX: emulated_counter > T is never true; only another reprogram folds. */
START_TEST(test_tolerance_max_never_requests)
{
	const struct vpmc_policy p = { VPMC_POLICY_TOLERANCE, UINT64_MAX };
	struct vpmc_vcpu_stats before, after;
	size_t mark;
	struct mh h;
	int k;

	mh_new_vendor(&h, VD->vendor, &p);
	mh_arm(&h, VD, 0, EN_INT_OS_INSN, MH_W48 - 1); /* M */
	mark = h.nr_obs;
	vpmc_vcpu_stats(h.v, &before);
	for (k = 0; k < 1000; k++)
		mh_emulated(&h, false);
	vpmc_vcpu_stats(h.v, &after);
	ck_assert_msg(mh_count(&h, VPMC_OBS_DRAIN, mark) == 0 && after.drains == before.drains,
		      "%s: a retirement requested KVM_REQ_PMU", VD->name);
	ck_assert_uint_eq(mh_count(&h, VPMC_OBS_OVERFLOW, mark), 0);
	ck_assert_uint_eq(after.entries - before.entries, 1000);
	/* Reads stay exact: M + 1000 = 999. */
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 999);
	/* An eventsel write folds them (and counts itself): M + 1001 = 1000 < M: overflow. */
	mh_wrmsr_ok(&h, mh_evtsel(VD, 0), EN_INT_OS_INSN | EVTSEL_USR, VD->name);
	ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), 1);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 1000);
	mh_free(&h);
}
END_TEST

/* tolerance-wrap requests the reprogram at the wrapping increment, not before. */
static const struct {
	const char *name;
	struct vpmc_policy p;
	bool detected_at_wrap;
} wrap[] = {
	{ "tolerance-wrap=1000", { VPMC_POLICY_TOLERANCE_WRAP, 1000 }, true },
	{ "tolerance=1000", { VPMC_POLICY_TOLERANCE, 1000 }, false },
	{ "exact", { VPMC_POLICY_EXACT, 0 }, true },
};

START_TEST(test_tolerance_wrap_requests_at_wrap)
{
	const char *name = wrap[_i / 2].name;
	uint64_t t_entry;
	size_t mark;
	struct mh h;

	mh_new_vendor(&h, VD->vendor, &wrap[_i / 2].p);
	mh_arm(&h, VD, 0, EN_INT_OS_INSN, MH_W48 - 2); /* M - 1 */
	mark = h.nr_obs;
	/* First increment: reads M, no wrap. Tolerance and tolerance-wrap request nothing. */
	mh_emulated(&h, false);
	if (wrap[_i / 2].p.kind != VPMC_POLICY_EXACT)
		ck_assert_msg(mh_count(&h, VPMC_OBS_DRAIN, mark) == 0, "%s/%s: drained before the "
			      "wrap", VD->name, name);
	/* Second: pmc_read_counter() == 0 after the increment: the wrap. */
	mh_retire(&h, false);
	t_entry = mh_entry(&h);
	if (wrap[_i / 2].detected_at_wrap) {
		mh_expect_overflow(&h, mark, 0, t_entry, 1, name);
		mh_expect_pmi(&h, mark, t_entry, true, name);
	} else {
		ck_assert_msg(!mh_find(&h, VPMC_OBS_OVERFLOW, 0, mark),
			      "%s/%s: detected without a reprogram", VD->name, name);
	}
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 0);
	mh_free(&h);
}
END_TEST

/*
 * T = 0 is exact (Appendix A.3): a mixed scripted run produces the same observations, field by
 * field, in the same order. (check_property does this on random traces.)
 */
static void mixed_script(struct mh *h, const struct mh_vendor *vd)
{
	int k;

	mh_wrmsr_ok(h, vd->global_ctrl, 0, "script");
	mh_wrmsr_ok(h, mh_ctr(vd, 0), MH_W48 - 3, "script");
	mh_wrmsr_ok(h, mh_ctr(vd, 1), MH_W48 - 1, "script");
	mh_wrmsr_ok(h, mh_evtsel(vd, 0), EN_INT_OS_INSN, "script");
	mh_wrmsr_ok(h, mh_evtsel(vd, 1), EVTSEL_EN | EVTSEL_INT | EVTSEL_USR | vd->ev_br, "script");
	mh_wrmsr_ok(h, vd->global_ctrl, 3, "script");
	mh_guest_cpl(h, 5, 2, 3);
	mh_emulated(h, true);
	mh_guest_cpl(h, 100, 50, 0);
	for (k = 0; k < 3; k++)
		mh_emulated(h, true);
	mh_guest_cpl(h, 40, 10, 3);
	mh_retire(h, false);
	mh_retire(h, true);
	mh_wrmsr(h, mh_ctr(vd, 0), MH_W48);
	mh_retire(h, false);
	mh_entry(h);
	mh_lvtpc(h, LVT_NMI);
	mh_entry(h);
	mh_guest_cpl(h, 3, 1, 0);
	mh_rdpmc_ok(h, 1, "script");
	mh_wrmsr_ok(h, mh_evtsel(vd, 0), EN_OS_INSN | EVTSEL_USR, "script");
	mh_rdmsr_ok(h, vd->global_status, "script");
	mh_wrmsr_ok(h, vd->status_clr, 3, "script");
	vpmc_vcpu_sched_out(h->v, h->t += MH_STEP);
	vpmc_vcpu_sched_in(h->v, h->t += MH_STEP);
	mh_entry(h);
	mh_guest(h, 1000, 100);
	mh_wrmsr_ok(h, vd->global_ctrl, 0, "script");
	mh_rdpmc_ok(h, 0, "script");
}

START_TEST(test_tolerance_zero_is_exact)
{
	const struct vpmc_policy t0 = { VPMC_POLICY_TOLERANCE, 0 };
	char a[256], b[256];
	struct mh he, ht;
	size_t i;

	mh_new_vendor(&he, VD->vendor, &exact);
	mh_new_vendor(&ht, VD->vendor, &t0);
	mixed_script(&he, VD);
	mixed_script(&ht, VD);
	ck_assert_msg(he.nr_obs > 50, "%s: script too quiet (%zu observations)", VD->name,
		      he.nr_obs);
	for (i = 0; i < he.nr_obs && i < ht.nr_obs; i++) {
		mh_obs_format(&he.obs[i], a, sizeof(a));
		mh_obs_format(&ht.obs[i], b, sizeof(b));
		ck_assert_msg(mh_obs_equal(&he.obs[i], &ht.obs[i]), "%s: observation %zu: exact %s "
			      "tolerance=0 %s", VD->name, i, a, b);
	}
	ck_assert_uint_eq(he.nr_obs, ht.nr_obs);
	mh_free(&he);
	mh_free(&ht);
}
END_TEST

/* ---- disabled -------------------------------------------------------------------------- */

static const struct {
	const char *name;
	uint64_t mask;
	uint64_t br, insn; /* GP0 (branches) and GP1 (instructions) after the script */
} masks[] = {
	/* Script: GLOBAL_CTRL <- 3 (enabling, 1 instruction), one emulated branch instruction
	 * (1 instruction, 1 branch), then 10 native instructions of which 3 branches. */
	{ "0", 0, 1 + 3, 2 + 10 },
	{ "0x2", 0x2, 1 + 3, 0 + 10 },  /* PERF_COUNT_HW_INSTRUCTIONS = 1 */
	{ "0x10", 0x10, 0 + 3, 2 + 10 }, /* PERF_COUNT_HW_BRANCH_INSTRUCTIONS = 4 */
	{ "0x12", 0x12, 0 + 3, 0 + 10 },
	/* Ids 2 (cache references) and 5 (branch misses) are never retired by KVM. */
	{ "0x24", 0x24, 1 + 3, 2 + 10 },
};

START_TEST(test_disabled_masks)
{
	const struct vpmc_policy p = { VPMC_POLICY_DISABLED, masks[_i / 2].mask };
	const char *name = masks[_i / 2].name;
	struct mh h;

	mh_new_vendor(&h, VD->vendor, &p);
	mh_wrmsr_ok(&h, VD->global_ctrl, 0, name);
	mh_wrmsr_ok(&h, mh_ctr(VD, 0), 0, name);
	mh_wrmsr_ok(&h, mh_ctr(VD, 1), 0, name);
	mh_wrmsr_ok(&h, mh_evtsel(VD, 0), EVTSEL_EN | EVTSEL_OS | VD->ev_br, name);
	mh_wrmsr_ok(&h, mh_evtsel(VD, 1), EN_OS_INSN, name);
	mh_wrmsr_ok(&h, VD->global_ctrl, 3, name);
	mh_emulated(&h, true);
	mh_guest(&h, 10, 3);
	ck_assert_msg(vpmc_vcpu_counter(h.v, 0) == masks[_i / 2].br &&
		      vpmc_vcpu_counter(h.v, 1) == masks[_i / 2].insn,
		      "%s/disabled=%s: GP0 %llu GP1 %llu want %llu %llu", VD->name, name,
		      (unsigned long long)vpmc_vcpu_counter(h.v, 0),
		      (unsigned long long)vpmc_vcpu_counter(h.v, 1),
		      (unsigned long long)masks[_i / 2].br, (unsigned long long)masks[_i / 2].insn);
	mh_free(&h);
}
END_TEST

/* Disabled removes only software counts: hardware overflow and its PMI are unchanged. */
START_TEST(test_disabled_hardware_overflow_unchanged)
{
	const struct vpmc_policy p = { VPMC_POLICY_DISABLED, 0x12 };
	uint64_t t0;
	struct mh h;
	int k;

	mh_new_vendor(&h, VD->vendor, &p);
	/* The enabling WRMSR does not count itself under disabled: 2^48 - 5. */
	mh_arm(&h, VD, 0, EN_INT_OS_INSN, MH_W48 - 4);
	for (k = 0; k < 5; k++)
		mh_emulated(&h, false); /* not counted */
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), MH_W48 - 4);
	t0 = h.t;
	mh_guest(&h, 10, 0); /* wraps in hardware at the 5th */
	mh_expect_overflow(&h, 0, 0, t0 + 5, 0, VD->name);
	mh_expect_pmi(&h, 0, t0 + 5, true, VD->name);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 5);
	mh_free(&h);
}
END_TEST

/* ---- mediated: immediate status bit, current INT bit ---------------------------------- */

/*
 * Perf-backed reprogram_counter() signals the drain's emulated overflow before recreating the
 * perf event, with the cached pmc->intr of the previous creation (Appendix B.4); mediated
 * kvm_pmu_incr_counter() reads the INT bit now (pmc_is_pmi_enabled()).
 */
static const struct {
	const char *name;
	const struct vpmc_policy *p;
	bool int_then; /* INT in the eventsel before the overflowing WRMSR */
	bool int_now;  /* INT in the value the overflowing WRMSR writes */
	size_t want_pmis;
} intr[] = {
	/* Fresh vCPU, the WRMSR that enables the counter (preset M) also wraps it: no perf event
	 * was ever created, intr = false: status bit, no PMI. */
	{ "exact-enable-wraps", &exact, false, true, 0 },
	{ "mediated-enable-wraps", &mediated, false, true, 1 },
	/* The WRMSR that clears INT wraps the counter: the cached intr (true) still raises it. */
	{ "exact-int-cleared", &exact, true, false, 1 },
	{ "mediated-int-cleared", &mediated, true, false, 0 },
};

START_TEST(test_intr_cached_vs_current)
{
	const char *name = intr[_i / 2].name;
	struct mh h;

	mh_new_vendor(&h, VD->vendor, intr[_i / 2].p);
	if (intr[_i / 2].int_then) {
		mh_arm(&h, VD, 0, EN_INT_OS_INSN, MH_W48 - 1); /* M, perf event with intr */
	} else {
		/* RESET: GP counters globally enabled, eventsels 0: the counter write is not
		 * counted. */
		mh_wrmsr_ok(&h, mh_ctr(VD, 0), MH_W48, name);
	}
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), MH_W48);
	/* The WRMSR's own retirement wraps the counter to 0. */
	mh_wrmsr_ok(&h, mh_evtsel(VD, 0), intr[_i / 2].int_now ? EN_INT_OS_INSN : EN_OS_INSN, name);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 0);
	ck_assert_msg(vpmc_vcpu_global_status(h.v) == 1, "%s/%s: status", VD->name, name);
	ck_assert_msg(mh_count(&h, VPMC_OBS_PMI, 0) == intr[_i / 2].want_pmis, "%s/%s: %zu PMIs "
		      "want %zu", VD->name, name, mh_count(&h, VPMC_OBS_PMI, 0),
		      intr[_i / 2].want_pmis);
	mh_free(&h);
}
END_TEST

/* Mediated: the status bit is set by the retirement itself, before any entry. */
START_TEST(test_mediated_status_immediate)
{
	uint64_t t;
	struct mh h;

	mh_new_vendor(&h, VD->vendor, &mediated);
	mh_arm(&h, VD, 0, EN_INT_OS_INSN, MH_W48 - 1); /* M */
	t = mh_retire(&h, false);
	ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), 1);
	mh_expect_overflow(&h, 0, 0, t, 1, VD->name); /* at the increment */
	/* Nothing is deferred: no KVM_REQ_PMU, so the entry has no drain to run. */
	mh_entry(&h);
	ck_assert_uint_eq(mh_count(&h, VPMC_OBS_PMI, 0), 1);
	mh_free(&h);
}
END_TEST

/*
 * Fixed counter 0 overflowing in hardware: reprogram_counter() translates the nibble's PMI bit
 * (3) into INT for the perf event (intr), mediated reads it at the wrap (pmc_is_pmi_enabled());
 * the status bit is 32 either way. Preset M - 1, +1 by the enabling GLOBAL_CTRL WRMSR: M. Perf
 * arms at least 2 events (overflow at the 2nd native instruction), the guest-owned counter of
 * the mediated vPMU wraps at the 1st.
 */
static const struct {
	const char *name;
	const struct vpmc_policy *p;
	uint64_t nibble;
	size_t pmis;
	uint64_t at;
} fixed0[] = {
	{ "exact-pmi", &exact, 0x9, 1, 2 },
	{ "exact-no-pmi", &exact, 0x1, 0, 2 },
	{ "mediated-pmi", &mediated, 0x9, 1, 1 },
	{ "mediated-no-pmi", &mediated, 0x1, 0, 1 },
};

START_TEST(test_fixed0_pmi_bit)
{
	const char *name = fixed0[_i].name;
	uint64_t t0;
	struct mh h;

	mh_new_vendor(&h, VPMC_VENDOR_INTEL, fixed0[_i].p);
	mh_wrmsr_ok(&h, MSR_CORE_PERF_GLOBAL_CTRL, 0, name);
	mh_wrmsr_ok(&h, MSR_CORE_PERF_FIXED_CTR_CTRL, fixed0[_i].nibble, name);
	mh_wrmsr_ok(&h, MSR_CORE_PERF_FIXED_CTR0, MH_W48 - 1, name);
	mh_wrmsr_ok(&h, MSR_CORE_PERF_GLOBAL_CTRL, 1ULL << FIXED_IDX, name);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, FIXED_IDX), MH_W48);
	t0 = h.t;
	mh_guest(&h, 3, 0);
	mh_expect_overflow(&h, 0, FIXED_IDX, t0 + fixed0[_i].at, 0, name);
	ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), 1ULL << FIXED_IDX);
	ck_assert_msg(mh_count(&h, VPMC_OBS_PMI, 0) == fixed0[_i].pmis, "%s: PMIs", name);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, FIXED_IDX), 2); /* M + 3 */
	mh_free(&h);
}
END_TEST

/* GLOBAL_CTRL gates the guest-owned counters too: nothing counts while the bit is clear. */
START_TEST(test_mediated_global_ctrl_gates_counting)
{
	struct mh h;

	mh_new_vendor(&h, VD->vendor, &mediated);
	mh_wrmsr_ok(&h, VD->global_ctrl, 0, VD->name);
	mh_wrmsr_ok(&h, mh_ctr(VD, 0), 0, VD->name);
	mh_wrmsr_ok(&h, mh_evtsel(VD, 0), EN_OS_INSN, VD->name);
	mh_guest(&h, 10, 0);
	mh_emulated(&h, false);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 0);
	/* Enabled: the WRMSR counts itself, then 10 native and a CPUID: 12. */
	mh_wrmsr_ok(&h, VD->global_ctrl, 1, VD->name);
	mh_guest(&h, 10, 0);
	mh_emulated(&h, false);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 12);
	mh_free(&h);
}
END_TEST

/* ---- PMI delivery ---------------------------------------------------------------------- */

/*
 * kvm_apic_local_deliver(LVTPC): an accepted PMI masks LVTPC for Intel-compatible guests only
 * (a16eb25b09c0, 49ff3b4aec51); with LVTPC masked the PMI is dropped. Three overflows of GP0,
 * the guest handler unmasking only before the third.
 */
START_TEST(test_lvtpc_mask_after_pmi)
{
	bool intel = VD->vendor == VPMC_VENDOR_INTEL;
	const struct vpmc_obs *pmi;
	size_t mark;
	struct mh h;
	int k;

	mh_new_vendor(&h, VD->vendor, &exact);
	for (k = 0; k < 3; k++) {
		if (k == 2)
			mh_lvtpc(&h, LVT_NMI); /* the PMI handler unmasks */
		mark = h.nr_obs;
		/* Counter = M with the enabling WRMSR, then one CPUID wraps it. */
		mh_arm(&h, VD, 0, EN_INT_OS_INSN, MH_W48 - 1);
		mh_emulated(&h, false);
		pmi = mh_find(&h, VPMC_OBS_PMI, -2, mark);
		ck_assert_msg(pmi, "%s: overflow %d raised no PMI", VD->name, k);
		/* Dropped only for the second overflow on Intel. */
		ck_assert_msg(pmi->delivered == (k != 1 || !intel), "%s: overflow %d delivered %d",
			      VD->name, k, pmi->delivered);
		/* GLOBAL_STATUS still shows the overflow; clear it for the next round. */
		ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), 1);
		mh_wrmsr_ok(&h, VD->status_clr, 1, VD->name);
	}
	mh_free(&h);
}
END_TEST

/* Requests are level flags: two counters wrapping in one exit make one PMI with two bits. */
START_TEST(test_one_pmi_for_two_overflows)
{
	const struct vpmc_obs *pmi;
	size_t mark;
	struct mh h;

	mh_new_vendor(&h, VD->vendor, &exact);
	mh_wrmsr_ok(&h, VD->global_ctrl, 0, VD->name);
	mh_wrmsr_ok(&h, mh_ctr(VD, 0), MH_W48 - 1, VD->name);
	mh_wrmsr_ok(&h, mh_ctr(VD, 1), MH_W48 - 1, VD->name);
	mh_wrmsr_ok(&h, mh_evtsel(VD, 0), EN_INT_OS_INSN, VD->name);
	mh_wrmsr_ok(&h, mh_evtsel(VD, 1), EN_INT_OS_INSN, VD->name);
	mh_wrmsr_ok(&h, VD->global_ctrl, 3, VD->name); /* both: M */
	mark = h.nr_obs;
	mh_emulated(&h, false); /* both wrap; one drain, one KVM_REQ_PMI */
	ck_assert_uint_eq(mh_count(&h, VPMC_OBS_OVERFLOW, mark), 2);
	ck_assert_uint_eq(mh_count(&h, VPMC_OBS_PMI, mark), 1);
	pmi = mh_find(&h, VPMC_OBS_PMI, -2, mark);
	ck_assert_msg(pmi->delivered && pmi->global_status == 3, "%s: PMI status %#llx", VD->name,
		      (unsigned long long)pmi->global_status);
	mh_free(&h);
}
END_TEST

/* ---- bad input: refused, never a crash, outputs untouched -------------------------------- */

START_TEST(test_api_rejects_bad_input)
{
	struct vpmc_policy bad_policy = { VPMC_POLICY_NR, 0 };
	struct vpmc_event ev = { .type = VPMC_EV_NR, .cpl = VPMC_CPL_KEEP };
	struct vpmc_vcpu *sentinel = (struct vpmc_vcpu *)&bad_policy, *v = sentinel;
	struct vpmc_pmu_config cfg;
	struct mh h;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &bad_policy, 0, NULL), VPMC_ERR_INVAL);
	ck_assert_ptr_eq(v, sentinel);
	cfg.vendor = (enum vpmc_vendor)7;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &exact, 0, NULL), VPMC_ERR_INVAL);
	ck_assert_ptr_eq(v, sentinel);
	vpmc_vcpu_free(NULL);

	mh_new_vendor(&h, VPMC_VENDOR_INTEL, &exact);
	ck_assert_int_eq(vpmc_vcpu_event(h.v, &ev), VPMC_ERR_INVAL);
	ev.type = VPMC_EV_RETIRE;
	ev.cpl = 4;
	ck_assert_int_eq(vpmc_vcpu_event(h.v, &ev), VPMC_ERR_INVAL);
	/* Nothing happened: no observation, the counters untouched. */
	ck_assert_uint_eq(h.nr_obs, 0);
	ev.cpl = 3;
	ck_assert_int_eq(vpmc_vcpu_event(h.v, &ev), 0);
	mh_free(&h);
}
END_TEST

#define NV ARRAY_SIZE(vendors)

static Suite *policies_suite(void)
{
	Suite *s = suite_create("policies");
	TCase *tc = tcase_create("tolerance");

	tcase_add_loop_test(tc, test_tolerance_reads_stay_exact, 0, NV * ARRAY_SIZE(tolerances));
	tcase_add_loop_test(tc, test_tolerance_overflow_at_threshold_drain, 0, NV);
	tcase_add_loop_test(tc, test_tolerance_overflow_at_other_reprogram, 0,
			    NV * ARRAY_SIZE(other_reprogram));
	tcase_add_loop_test(tc, test_counter_write_drops_pending, 0, NV * ARRAY_SIZE(write_drops));
	tcase_add_loop_test(tc, test_fold_before_control_write, 0, NV * ARRAY_SIZE(fold));
	tcase_add_loop_test(tc, test_hardware_overflow_late_by_pending, 0, NV * ARRAY_SIZE(late));
	tcase_add_loop_test(tc, test_reference_overflow_at_wrap, 0, NV);
	tcase_add_loop_test(tc, test_tolerance_max_never_requests, 0, NV);
	tcase_add_loop_test(tc, test_tolerance_wrap_requests_at_wrap, 0, NV * ARRAY_SIZE(wrap));
	tcase_add_loop_test(tc, test_tolerance_zero_is_exact, 0, NV);
	suite_add_tcase(s, tc);

	tc = tcase_create("disabled");
	tcase_add_loop_test(tc, test_disabled_masks, 0, NV * ARRAY_SIZE(masks));
	tcase_add_loop_test(tc, test_disabled_hardware_overflow_unchanged, 0, NV);
	suite_add_tcase(s, tc);

	tc = tcase_create("mediated");
	tcase_add_loop_test(tc, test_intr_cached_vs_current, 0, NV * ARRAY_SIZE(intr));
	tcase_add_loop_test(tc, test_mediated_status_immediate, 0, NV);
	tcase_add_loop_test(tc, test_fixed0_pmi_bit, 0, ARRAY_SIZE(fixed0));
	tcase_add_loop_test(tc, test_mediated_global_ctrl_gates_counting, 0, NV);
	suite_add_tcase(s, tc);

	tc = tcase_create("api");
	tcase_add_test(tc, test_api_rejects_bad_input);
	suite_add_tcase(s, tc);

	tc = tcase_create("pmi");
	tcase_add_loop_test(tc, test_lvtpc_mask_after_pmi, 0, NV);
	tcase_add_loop_test(tc, test_one_pmi_for_two_overflows, 0, NV);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(policies_suite)
