// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_scenarios.c - The upstream-fix scenarios (upstream-fix-scenarios.md), "after" values on
 * the default (newest) model, driven through the public vpmc_vcpu_* API only. The "before"
 * values of the host_kernel switches are in check_legacy.c, the worked timelines and Appendix
 * B's traps in check_timelines.c.
 *
 * Every expected value is derived from KVM (arch/x86/kvm/pmu.c, vmx/pmu_intel.c, svm/pmu.c) in
 * the comment next to it; "§n" refers to kvm-vpmu-semantics.md, "fix n" to the scenarios file.
 */
#include "config.h"

#include <stdint.h>

#include "check_common.h"
#include "harness.h"

static const struct vpmc_policy exact = { VPMC_POLICY_EXACT, 0 };
static const struct vpmc_policy mediated = { VPMC_POLICY_MEDIATED, 0 };

#define EN_OS_INSN (EVTSEL_EN | EVTSEL_OS | EV_INSN)
#define EN_INT_OS_INSN (EVTSEL_EN | EVTSEL_INT | EVTSEL_OS | EV_INSN)

static const struct mh_vendor *const vendors[] = { &mh_intel, &mh_amd };

/* ---- fix 2 (a6da0d77e98e, b35e5548b411): perf events reused, the per-exit cost ----------- */

/*
 * GP0 = EN | OS | instructions, 1000 CPUID exits. Exact: each CPUID's increment requests the
 * reprogram, each entry drains: pause, same config -> pmc_resume_counter() (new period,
 * enable), no release or create. Tolerance=99 requests once emulated_counter reaches 100
 * (> 99), i.e. at every 100th CPUID; tolerance=1000 never within 1000; disabled=0x2 does not
 * even increment; mediated increments counter directly and requests no reprogram at all.
 */
static const struct {
	const char *name;
	const struct mh_vendor *vd;
	struct vpmc_policy p;
	uint64_t drains, increments;
} reuse[] = {
	{ "intel-exact", &mh_intel, { VPMC_POLICY_EXACT, 0 }, 1000, 1000 },
	{ "amd-exact", &mh_amd, { VPMC_POLICY_EXACT, 0 }, 1000, 1000 },
	{ "intel-tolerance=99", &mh_intel, { VPMC_POLICY_TOLERANCE, 99 }, 10, 1000 },
	{ "amd-tolerance=99", &mh_amd, { VPMC_POLICY_TOLERANCE, 99 }, 10, 1000 },
	{ "intel-tolerance=1000", &mh_intel, { VPMC_POLICY_TOLERANCE, 1000 }, 0, 1000 },
	{ "intel-disabled=0x2", &mh_intel, { VPMC_POLICY_DISABLED, 0x2 }, 0, 0 },
	{ "intel-mediated", &mh_intel, { VPMC_POLICY_MEDIATED, 0 }, 0, 1000 },
};

START_TEST(test_fix2_perf_event_reused)
{
	const char *name = reuse[_i].name;
	bool perf_backed = reuse[_i].p.kind != VPMC_POLICY_MEDIATED;
	struct vpmc_vcpu_stats a, b;
	struct mh h;
	int k;

	mh_new_vendor(&h, reuse[_i].vd->vendor, &reuse[_i].p);
	mh_arm(&h, reuse[_i].vd, 0, EN_OS_INSN, 0);
	vpmc_vcpu_stats(h.v, &a);
	for (k = 0; k < 1000; k++)
		mh_emulated(&h, false);
	vpmc_vcpu_stats(h.v, &b);
	ck_assert_msg(b.entries - a.entries == 1000, "%s: entries", name);
	ck_assert_msg(b.drains - a.drains == reuse[_i].drains, "%s: %llu drains want %llu", name,
		      (unsigned long long)(b.drains - a.drains),
		      (unsigned long long)reuse[_i].drains);
	ck_assert_msg(b.increments - a.increments == reuse[_i].increments, "%s: increments", name);
	/* One reprogram per drain, each a resume of the live event (pause + period + enable). */
	ck_assert_msg(b.reprograms - a.reprograms == reuse[_i].drains &&
		      b.perf_resumes - a.perf_resumes == reuse[_i].drains &&
		      b.perf_pauses - a.perf_pauses == reuse[_i].drains,
		      "%s: reprograms %llu resumes %llu pauses %llu", name,
		      (unsigned long long)(b.reprograms - a.reprograms),
		      (unsigned long long)(b.perf_resumes - a.perf_resumes),
		      (unsigned long long)(b.perf_pauses - a.perf_pauses));
	ck_assert_msg(b.perf_creates == a.perf_creates && b.perf_releases == a.perf_releases,
		      "%s: perf events created or released", name);
	/* The one perf event (none in the mediated vPMU) was created by the arming drain. */
	ck_assert_msg(b.perf_creates == (perf_backed ? 1 : 0), "%s: %llu perf events created",
		      name, (unsigned long long)b.perf_creates);
	mh_free(&h);
}
END_TEST

/* ---- fix 3 (9cd803d496e7): KVM-retired instructions count ------------------------------- */

START_TEST(test_fix3_retired_instructions_count)
{
	const struct mh_vendor *vd = vendors[_i];
	struct mh h;

	mh_new_vendor(&h, vd->vendor, &exact);
	/* RESET left GP counters globally enabled (§1.5) but every eventsel is 0: nothing counts. */
	mh_wrmsr_ok(&h, vd->global_ctrl, 0, vd->name);
	mh_wrmsr_ok(&h, mh_ctr(vd, 0), 0, vd->name);
	/* Locally enabled, globally disabled: kvm_pmu_trigger_event() ANDs the candidates with
	 * global_ctrl (§2.3 step 2), so this WRMSR is not counted: 0. */
	mh_wrmsr_ok(&h, mh_evtsel(vd, 0), EVTSEL_EN | EVTSEL_OS | EVTSEL_USR | EV_INSN, vd->name);
	/* The enabling WRMSR counts itself (§3.6): 1. */
	mh_wrmsr_ok(&h, vd->global_ctrl, 1, vd->name);
	/* CPUID x3, each kvm_skip_emulated_instruction(): 4. */
	mh_emulated(&h, false);
	mh_emulated(&h, false);
	mh_emulated(&h, false);
	/* RDPMC reads before its own retirement (§1.7 step 5): 4. */
	ck_assert_uint_eq(mh_rdpmc_ok(&h, 0, vd->name), 4);
	/* ... and then retires: the next read sees 5. */
	ck_assert_uint_eq(mh_rdpmc_ok(&h, 0, vd->name), 5);
	mh_free(&h);
}
END_TEST

/* ---- fix 4 (018d70ffcfec) and fix 26 (e8f85d7884e0): emulated branches ------------------- */

/* GP0 = branches, GP1 = instructions, both OS, both zeroed; returns with GP1 = 1, GP0 = 0. */
static void arm_branch_and_insn(struct mh *h, const struct mh_vendor *vd)
{
	mh_wrmsr_ok(h, vd->global_ctrl, 0, vd->name);
	mh_wrmsr_ok(h, mh_ctr(vd, 0), 0, vd->name);
	mh_wrmsr_ok(h, mh_ctr(vd, 1), 0, vd->name);
	mh_wrmsr_ok(h, mh_evtsel(vd, 0), EVTSEL_EN | EVTSEL_OS | vd->ev_br, vd->name);
	mh_wrmsr_ok(h, mh_evtsel(vd, 1), EN_OS_INSN, vd->name);
	/* Enabling WRMSR: an instruction (GP1 = 1), not a branch (GP0 = 0). */
	mh_wrmsr_ok(h, vd->global_ctrl, 3, vd->name);
}

START_TEST(test_fix4_emulated_branches_count)
{
	const struct mh_vendor *vd = vendors[_i];
	struct mh h;
	int i;

	mh_new_vendor(&h, vd->vendor, &exact);
	arm_branch_and_insn(&h, vd);
	/* FEP JNE (not taken) x5: the emulator retires an instruction and, the opcode being
	 * IsBranch, a branch (§3.1 path 2); taken or not does not matter (§3.3). Intel 0xC4 and
	 * AMD 0xC2 are the branch selectors (§2.3). GP0 = 5, GP1 = 1 + 5 = 6. */
	for (i = 0; i < 5; i++)
		mh_emulated(&h, true);
	ck_assert_uint_eq(mh_rdpmc_ok(&h, 0, vd->name), 5);
	/* The RDPMC(0) just retired: GP1 = 6 + 1. */
	ck_assert_uint_eq(mh_rdpmc_ok(&h, 1, vd->name), 7);
	mh_free(&h);
}
END_TEST

static const struct {
	const char *name;
	const struct mh_vendor *vd;
	bool branch;     /* what the importer classified ENTER/LEAVE as */
	uint64_t br, insn;
} enter_leave[] = {
	/* 6.18+: ENTER/LEAVE are not IsBranch (e8f85d7884e0): branches +0, instructions +2. */
	{ "intel-6.18", &mh_intel, false, 0, 2 },
	{ "amd-6.18", &mh_amd, false, 0, 2 },
	/* Before 6.18 the importer passes branch=true; the model just obeys: +2 and +2. */
	{ "intel-pre-6.18", &mh_intel, true, 2, 2 },
	{ "amd-pre-6.18", &mh_amd, true, 2, 2 },
};

START_TEST(test_fix26_enter_leave)
{
	const struct mh_vendor *vd = enter_leave[_i].vd;
	const char *name = enter_leave[_i].name;
	uint64_t br, insn;
	struct mh h;

	mh_new_vendor(&h, vd->vendor, &exact);
	arm_branch_and_insn(&h, vd); /* GP0 = 0, GP1 = 1 */
	mh_emulated(&h, enter_leave[_i].branch); /* FEP ENTER 0,0 */
	mh_emulated(&h, enter_leave[_i].branch); /* FEP LEAVE */
	br = mh_rdpmc_ok(&h, 0, name);
	insn = mh_rdpmc_ok(&h, 1, name);
	ck_assert_msg(br == enter_leave[_i].br, "%s: branches %llu want %llu", name,
		      (unsigned long long)br, (unsigned long long)enter_leave[_i].br);
	/* GP1 = 1 (enabling WRMSR) + ENTER/LEAVE + the RDPMC(0) that retired before it. */
	ck_assert_msg(insn == 1 + enter_leave[_i].insn + 1, "%s: instructions %llu want %llu", name,
		      (unsigned long long)insn, (unsigned long long)(enter_leave[_i].insn + 2));
	mh_free(&h);
}
END_TEST

/* ---- fix 5 (b8bfee85f130, 710c47651431): AMD event bits 35:32 ----------------------------- */

static const struct {
	const char *name;
	uint64_t evtsel, readback, want;
} amd_evtsel[] = {
	/* Event 0x1C0: pmc_is_event_match() compares bits 35:32 too (mask 0xF_0000_FFFF, §2.3),
	 * so it is not "instructions retired": neither the enabling WRMSR nor 3 CPUIDs count. Bits
	 * 35:32 are not in AMD's reserved mask 0xFFFFFFF000280000: the value reads back whole.
	 * Nor does the RDMSR of the eventsel. */
	{ "event-0x1c0", EN_OS_INSN | (1ULL << 32), EN_OS_INSN | (1ULL << 32), 0 },
	/* Event 0xC0: enabling WRMSR 1 + RDMSR 1 + CPUID x3 = 5. */
	{ "event-0xc0", EN_OS_INSN, EN_OS_INSN, 5 },
	/* Guest-Only (40) and Host-Only (41) are reserved in the emulated vPMU and silently
	 * dropped by amd_pmu_set_msr(), not #GP (§1.6): reads back 0xC0 | EN | OS, counts 5. */
	{ "host-guest-only-dropped", EN_OS_INSN | (3ULL << 40), EN_OS_INSN, 5 },
};

START_TEST(test_fix5_amd_event_select_high_bits)
{
	const char *name = amd_evtsel[_i].name;
	uint64_t v;
	struct mh h;

	mh_new_vendor(&h, VPMC_VENDOR_AMD, &exact);
	/* AMD PerfMonV2 RESET: GLOBAL_CTL = 0x3F (de120e1d692d), so the eventsel write enables. */
	mh_wrmsr_ok(&h, MSR_F15H_PERF_CTL0, amd_evtsel[_i].evtsel, name);
	v = mh_rdmsr_ok(&h, MSR_F15H_PERF_CTL0, name); /* counted too, if 0xC0 */
	ck_assert_msg(v == amd_evtsel[_i].readback, "%s: eventsel reads %#llx want %#llx", name,
		      (unsigned long long)v, (unsigned long long)amd_evtsel[_i].readback);
	mh_emulated(&h, false);
	mh_emulated(&h, false);
	mh_emulated(&h, false);
	v = mh_rdpmc_ok(&h, 0, name);
	ck_assert_msg(v == amd_evtsel[_i].want, "%s: counter %llu want %llu", name,
		      (unsigned long long)v, (unsigned long long)amd_evtsel[_i].want);
	mh_free(&h);
}
END_TEST

/* Intel without TSX: eventsel bits 63:32 are reserved (pmu->eventsel_rsvd), so bit 32 #GPs. */
START_TEST(test_fix5_intel_high_event_bits_gp)
{
	struct mh h;

	mh_new_vendor(&h, VPMC_VENDOR_INTEL, &exact);
	ck_assert_int_eq(mh_wrmsr_insn(&h, MSR_P6_EVNTSEL0, EN_OS_INSN | (1ULL << 32)), VPMC_GP);
	/* The eventsel keeps its RESET value 0. */
	ck_assert_uint_eq(mh_rdmsr_ok(&h, MSR_P6_EVNTSEL0, "intel"), 0);
	mh_free(&h);
}
END_TEST

/*
 * With TSX (cfg.tsx): intel_pmu_refresh() frees IN_TX (bit 32) in eventsel_rsvd, and
 * intel_pmu_set_msr() frees IN_TXCP (bit 33) on GP counter 2 only. IN_TX/IN_TXCP overlap the
 * nibble pmc_is_event_match() compares (§2.3), so such a counter never counts KVM's
 * instructions: neither its enabling WRMSR nor a CPUID.
 */
static const struct {
	const char *name;
	unsigned int ctr;
	uint64_t bits;
	int want;
} tsx[] = {
	{ "in-tx-gp0", 0, 1ULL << 32, 0 },
	{ "in-txcp-gp0", 0, 1ULL << 33, VPMC_GP },
	{ "in-txcp-gp2", 2, 1ULL << 33, 0 },
};

START_TEST(test_fix5_intel_tsx_bits)
{
	const char *name = tsx[_i].name;
	struct vpmc_pmu_config cfg;
	uint64_t v;
	struct mh h;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.tsx = true;
	mh_new(&h, &cfg, &exact);
	ck_assert_msg(mh_wrmsr_insn(&h, MSR_P6_EVNTSEL0 + tsx[_i].ctr, EN_OS_INSN | tsx[_i].bits) ==
		      tsx[_i].want, "%s: WRMSR", name);
	if (!tsx[_i].want) {
		v = mh_rdmsr_ok(&h, MSR_P6_EVNTSEL0 + tsx[_i].ctr, name);
		ck_assert_uint_eq(v, EN_OS_INSN | tsx[_i].bits);
		mh_emulated(&h, false);
		ck_assert_uint_eq(mh_rdpmc_ok(&h, tsx[_i].ctr, name), 0);
	}
	mh_free(&h);
}
END_TEST

/* ---- fix 7 (98defd2e1780) and fix 27 (c49aa9837686): PMU version 1 ----------------------- */

static const struct {
	const char *name;
	enum vpmc_vendor vendor;
	unsigned int nr_gp; /* asked for */
	uint32_t evtsel0, ctr0;
	unsigned int want_gp, want_fixed;
} v1[] = {
	/* Intel CPUID.0AH version 1: intel_pmu_refresh() sets nr_arch_fixed_counters = 0. */
	{ "intel-v1", VPMC_VENDOR_INTEL, 8, MSR_P6_EVNTSEL0, MSR_IA32_PERFCTR0, 8, 0 },
	/* AMD without PerfMonV2 nor PerfCtrExtCore: amd_pmu_refresh() uses AMD64_NUM_COUNTERS = 4
	 * and the K7 MSRs. */
	{ "amd-v1-legacy", VPMC_VENDOR_AMD, 4, MSR_K7_EVNTSEL0, MSR_K7_PERFCTR0, 4, 0 },
	/* With PerfCtrExtCore (vpmc.h: "6 ... when more than 4 are asked"): the F15H MSRs. */
	{ "amd-v1-extcore", VPMC_VENDOR_AMD, 6, MSR_F15H_PERF_CTL0, MSR_F15H_PERF_CTR0, 6, 0 },
};

static void mh_new_v1(struct mh *h, enum vpmc_vendor vendor, unsigned int nr_gp)
{
	struct vpmc_pmu_config cfg;

	vpmc_pmu_config_default(&cfg, vendor);
	cfg.version = 1;
	cfg.nr_gp = nr_gp;
	mh_new(h, &cfg, &exact);
}

START_TEST(test_fix7_v1_counters_always_globally_enabled)
{
	const struct vpmc_pmu_config *got;
	struct mh h;

	mh_new_v1(&h, v1[_i].vendor, v1[_i].nr_gp);
	got = vpmc_vcpu_config(h.v);
	ck_assert_msg(got->nr_gp == v1[_i].want_gp && got->nr_fixed == v1[_i].want_fixed,
		      "%s: %u GP %u fixed after KVM's caps, want %u %u", v1[_i].name, got->nr_gp,
		      got->nr_fixed, v1[_i].want_gp, v1[_i].want_fixed);
	/* Counter 0 zeroed: not counted (eventsel 0). */
	mh_wrmsr_ok(&h, v1[_i].ctr0, 0, v1[_i].name);
	/* No GLOBAL_CTRL: pmc_is_globally_enabled() is true for version <= 1, so the enabling
	 * WRMSR counts itself: 1. */
	mh_wrmsr_ok(&h, v1[_i].evtsel0, EN_OS_INSN, v1[_i].name);
	/* CPUID x5: 6. */
	for (int i = 0; i < 5; i++)
		mh_emulated(&h, false);
	/* NATIVE(10): the perf event created at the drain counts them: 16. */
	mh_guest(&h, 10, 0);
	/* The RDPMC is not included (it reads before retiring): 16. */
	ck_assert_msg(mh_rdpmc_ok(&h, 0, v1[_i].name) == 16, "%s: want 16", v1[_i].name);
	mh_free(&h);
}
END_TEST

static const struct {
	const char *name;
	enum vpmc_vendor vendor;
	unsigned int version;
	bool write;
	uint32_t msr;
	uint64_t val;
	int want;           /* 0 or VPMC_GP */
	unsigned int nr_gp; /* 0: the default */
} v1_msrs[] = {
	/* kvm_pmu_is_valid_msr(): GLOBAL_{STATUS,CTRL,OVF_CTRL} exist iff version > 1;
	 * intel_is_valid_msr(): FIXED_CTR_CTRL likewise, fixed counters need nr_fixed > 0. An
	 * unknown MSR is #GP (kvm_set_msr_common() -> KVM_MSR_RET_UNSUPPORTED). */
	{ "v1-wr-global-ctrl", VPMC_VENDOR_INTEL, 1, true, MSR_CORE_PERF_GLOBAL_CTRL, 1, VPMC_GP, 0 },
	{ "v1-wr-fixed-ctr-ctrl", VPMC_VENDOR_INTEL, 1, true, MSR_CORE_PERF_FIXED_CTR_CTRL, 1,
	  VPMC_GP, 0 },
	{ "v1-rd-global-status", VPMC_VENDOR_INTEL, 1, false, MSR_CORE_PERF_GLOBAL_STATUS, 0,
	  VPMC_GP, 0 },
	{ "v1-wr-ovf-ctrl", VPMC_VENDOR_INTEL, 1, true, MSR_CORE_PERF_GLOBAL_OVF_CTRL, 1, VPMC_GP, 0 },
	{ "v1-wr-fixed-ctr0", VPMC_VENDOR_INTEL, 1, true, MSR_CORE_PERF_FIXED_CTR0, 5, VPMC_GP, 0 },
	{ "v1-rd-fixed-ctr0", VPMC_VENDOR_INTEL, 1, false, MSR_CORE_PERF_FIXED_CTR0, 0, VPMC_GP, 0 },
	/* AMD: amd_is_valid_msr() accepts the GLOBAL MSRs only for version > 1. */
	{ "amd-v1-wr-global-ctl", VPMC_VENDOR_AMD, 1, true, MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 1,
	  VPMC_GP, 0 },
	{ "amd-v1-rd-global-status", VPMC_VENDOR_AMD, 1, false, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS,
	  0, VPMC_GP, 0 },
	/* Without PerfCtrExtCore (4 counters) the F15H MSRs do not exist: get_gp_pmc_amd(). */
	{ "amd-v1-legacy-wr-f15h-ctl0", VPMC_VENDOR_AMD, 1, true, MSR_F15H_PERF_CTL0, 0, VPMC_GP,
	  4 },
	{ "amd-v1-legacy-wr-k7-evntsel3", VPMC_VENDOR_AMD, 1, true, MSR_K7_EVNTSEL0 + 3, 0, 0, 4 },
	/* The same accesses on the default v2 PMUs are fine (contrast rows). */
	{ "v2-wr-global-ctrl", VPMC_VENDOR_INTEL, 2, true, MSR_CORE_PERF_GLOBAL_CTRL, 1, 0, 0 },
	{ "v2-wr-fixed-ctr-ctrl", VPMC_VENDOR_INTEL, 2, true, MSR_CORE_PERF_FIXED_CTR_CTRL, 1, 0, 0 },
	{ "v2-rd-global-status", VPMC_VENDOR_INTEL, 2, false, MSR_CORE_PERF_GLOBAL_STATUS, 0, 0, 0 },
	{ "v2-wr-fixed-ctr0", VPMC_VENDOR_INTEL, 2, true, MSR_CORE_PERF_FIXED_CTR0, 5, 0, 0 },
	{ "amd-v2-wr-global-ctl", VPMC_VENDOR_AMD, 2, true, MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 1, 0, 0 },
	/* Reserved bits (intel_pmu_refresh(), B-7.0): GLOBAL_CTRL has one bit per existing counter
	 * (8 GP, 3 fixed); OVF_CTRL shares global_status_rsvd, which also frees bit 63
	 * (COND_CHG) and bit 62 (BUFFER_OVF), with or without DS (linux-next 960ed5831ad4).
	 * AMD drops reserved GLOBAL_CTL bits instead. */
	{ "v2-wr-global-ctrl-bit8", VPMC_VENDOR_INTEL, 2, true, MSR_CORE_PERF_GLOBAL_CTRL,
	  1ULL << 8, VPMC_GP, 0 },
	{ "v2-wr-global-ctrl-bit35", VPMC_VENDOR_INTEL, 2, true, MSR_CORE_PERF_GLOBAL_CTRL,
	  1ULL << 35, VPMC_GP, 0 },
	{ "v2-wr-ovf-ctrl-bit63", VPMC_VENDOR_INTEL, 2, true, MSR_CORE_PERF_GLOBAL_OVF_CTRL,
	  1ULL << 63, 0, 0 },
	{ "v2-wr-ovf-ctrl-bit62-no-ds", VPMC_VENDOR_INTEL, 2, true, MSR_CORE_PERF_GLOBAL_OVF_CTRL,
	  1ULL << 62, 0, 0 },
	{ "v2-wr-ovf-ctrl-bit61", VPMC_VENDOR_INTEL, 2, true, MSR_CORE_PERF_GLOBAL_OVF_CTRL,
	  1ULL << 61, VPMC_GP, 0 },
	{ "amd-v2-wr-global-ctl-bit6", VPMC_VENDOR_AMD, 2, true, MSR_AMD64_PERF_CNTR_GLOBAL_CTL,
	  1ULL << 6, 0, 0 },
	/* Intel GLOBAL_STATUS is read-only for the guest: #GP on v2 too (kvm_pmu_set_msr()). */
	{ "v2-wr-global-status", VPMC_VENDOR_INTEL, 2, true, MSR_CORE_PERF_GLOBAL_STATUS, 1,
	  VPMC_GP, 0 },
};

START_TEST(test_fix27_v1_has_no_global_msrs)
{
	struct vpmc_pmu_config cfg;
	uint64_t val = 0xdeadbeef;
	struct mh h;
	int rc;

	vpmc_pmu_config_default(&cfg, v1_msrs[_i].vendor);
	cfg.version = v1_msrs[_i].version;
	if (v1_msrs[_i].nr_gp)
		cfg.nr_gp = v1_msrs[_i].nr_gp;
	mh_new(&h, &cfg, &exact);
	if (v1_msrs[_i].write)
		rc = mh_wrmsr(&h, v1_msrs[_i].msr, v1_msrs[_i].val);
	else
		rc = mh_rdmsr(&h, v1_msrs[_i].msr, &val);
	ck_assert_msg(rc == v1_msrs[_i].want, "%s: returned %d want %d", v1_msrs[_i].name, rc,
		      v1_msrs[_i].want);
	if (!v1_msrs[_i].write && rc == VPMC_GP)
		ck_assert_msg(val == 0, "%s: value after #GP %#llx want 0", v1_msrs[_i].name,
			      (unsigned long long)val);
	mh_free(&h);
}
END_TEST

/* RDPMC of a fixed counter (ECX bit 30) on v1: no fixed counters, #GP (intel_rdpmc_ecx_to_pmc). */
START_TEST(test_fix27_v1_rdpmc_fixed_gp)
{
	uint64_t val = 1;
	struct mh h;

	mh_new_v1(&h, VPMC_VENDOR_INTEL, 8);
	ck_assert_int_eq(mh_rdpmc(&h, RDPMC_FIXED | 0, &val), VPMC_GP);
	ck_assert_uint_eq(val, 0);
	mh_free(&h);
}
END_TEST

/* ---- fix 8 (f331601c65ad) and fix 28's PEBS contrast ----------------------------------- */

/*
 * Without pebs in struct vpmc_pmu_config (PERF_CAPABILITIES.PEBS_FORMAT), intel_is_valid_msr()
 * does not know PEBS_ENABLE: #GP.
 */
START_TEST(test_fix8_pebs_enable_gp_without_pebs)
{
	struct mh h;

	mh_new_vendor(&h, VPMC_VENDOR_INTEL, &exact);
	ck_assert_int_eq(mh_wrmsr_insn(&h, MSR_IA32_PEBS_ENABLE, 1), VPMC_GP);
	ck_assert_int_eq(mh_rdmsr_insn(&h, MSR_IA32_PEBS_ENABLE, &(uint64_t){ 0 }), VPMC_GP);
	mh_free(&h);
}
END_TEST

static const struct {
	const char *name;
	const struct vpmc_policy *policy;
	uint64_t want_status;
	size_t want_pmis;
} pebs[] = {
	/* Perf-backed: the drain's emulated overflow calls __kvm_perf_overflow(in_pmi = false) on a
	 * precise perf event: skip_pmi, and neither bit 0 nor BUFFER_OVF (62) is set. */
	{ "exact", &exact, 0, 0 },
	/* Mediated (283a5aa57b22): kvm_pmu_incr_counter() sets the counter's bit at the wrap and
	 * raises KVM_REQ_PMI because INT is set now; PEBS is not special-cased (§4.3). */
	{ "mediated", &mediated, 1, 1 },
};

START_TEST(test_fix8_pebs_emulated_overflow)
{
	const char *name = pebs[_i].name;
	struct vpmc_pmu_config cfg;
	struct mh h;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.pebs = true; /* PEBS_FORMAT without baseline: pebs_enable_rsvd = ~GP counters */
	mh_new(&h, &cfg, pebs[_i].policy);
	mh_wrmsr_ok(&h, MSR_CORE_PERF_GLOBAL_CTRL, 0, name);
	mh_wrmsr_ok(&h, MSR_IA32_PEBS_ENABLE, 1, name);
	mh_wrmsr_ok(&h, MSR_P6_EVNTSEL0, EN_INT_OS_INSN, name);
	/* IA32_PMC0 <- M - 1: GP0 globally disabled, not counted. */
	mh_wrmsr_ok(&h, MSR_IA32_PMC0, MH_W48 - 1, name);
	/* Enabling WRMSR counts itself: M (no wrap yet); the drain creates a precise event. */
	mh_wrmsr_ok(&h, MSR_CORE_PERF_GLOBAL_CTRL, 1, name);
	ck_assert_msg(vpmc_vcpu_counter(h.v, 0) == MH_W48, "%s: counter before CPUID", name);
	/* CPUID: M + 1 wraps to 0; the next entry drains (perf-backed) or nothing waits
	 * (mediated). */
	mh_emulated(&h, false);
	ck_assert_msg(vpmc_vcpu_counter(h.v, 0) == 0, "%s: counter %llu want 0", name,
		      (unsigned long long)vpmc_vcpu_counter(h.v, 0));
	ck_assert_msg(vpmc_vcpu_global_status(h.v) == pebs[_i].want_status,
		      "%s: GLOBAL_STATUS %#llx want %#llx", name,
		      (unsigned long long)vpmc_vcpu_global_status(h.v),
		      (unsigned long long)pebs[_i].want_status);
	ck_assert_msg(mh_count(&h, VPMC_OBS_PMI, 0) == pebs[_i].want_pmis, "%s: %zu PMIs want %zu",
		      name, mh_count(&h, VPMC_OBS_PMI, 0), pebs[_i].want_pmis);
	ck_assert_msg(mh_count(&h, VPMC_OBS_OVERFLOW, 0) == pebs[_i].want_status, "%s: overflows",
		      name);
	/* The guest sees the same through RDMSR. */
	ck_assert_uint_eq(mh_rdmsr_ok(&h, MSR_CORE_PERF_GLOBAL_STATUS, name), pebs[_i].want_status);
	mh_free(&h);
}
END_TEST

/*
 * The hardware side of the same rule (__kvm_perf_overflow(in_pmi = true) on a precise event):
 * BUFFER_OVF (bit 62) instead of the counter's bit, a PMI even without INT (pmc->intr = INT ||
 * PEBS at creation), and none while BUFFER_OVF is still set (__test_and_set_bit). With DS,
 * bit 62 is not reserved in OVF_CTRL.
 */
START_TEST(test_fix8_pebs_hardware_overflow)
{
	const struct vpmc_obs *o, *pmi;
	struct vpmc_pmu_config cfg;
	uint64_t t0;
	size_t mark;
	struct mh h;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.pebs = true;
	mh_new(&h, &cfg, &exact);
	mh_wrmsr_ok(&h, MSR_CORE_PERF_GLOBAL_CTRL, 0, "pebs");
	mh_wrmsr_ok(&h, MSR_IA32_PEBS_ENABLE, 1, "pebs");
	/* GP0 = EN | OS | instructions, no INT; 2^48 - 6, +1 by the enabling WRMSR: period 5. */
	mh_arm(&h, &mh_intel, 0, EN_OS_INSN, MH_W48 - 5);
	t0 = h.t;
	mh_guest(&h, 5, 0);
	o = mh_expect_overflow(&h, 0, 0, t0 + 5, 0, "pebs");
	ck_assert_msg(o->value == GLOBAL_STATUS_BUFFER_OVF, "pebs: not reported as BUFFER_OVF");
	pmi = mh_find(&h, VPMC_OBS_PMI, -2, 0);
	ck_assert_msg(pmi && pmi->delivered && pmi->global_status == GLOBAL_STATUS_BUFFER_OVF,
		      "pebs: no PMI without INT");
	ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), GLOBAL_STATUS_BUFFER_OVF);
	/* Second overflow with BUFFER_OVF still set (LVTPC unmasked by the handler): no PMI. */
	mh_lvtpc(&h, LVT_NMI);
	mh_wrmsr_ok(&h, MSR_IA32_PMC0, MH_W48 - 4, "pebs"); /* + itself: period 4 */
	mark = h.nr_obs;
	mh_guest(&h, 10, 0);
	ck_assert_uint_eq(mh_count(&h, VPMC_OBS_PMI, mark), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), GLOBAL_STATUS_BUFFER_OVF);
	/* OVF_CTRL clears it (bit 62 allowed: the guest has DS). */
	mh_wrmsr_ok(&h, MSR_CORE_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_BUFFER_OVF, "pebs");
	ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), 0);
	mh_free(&h);
}
END_TEST

/* ---- fix 9 (68fb4757e867, de0f619564f4) and fix 28 (283a5aa57b22): when the status bit is set */

/*
 * Counter = M with INT; one intercepted instruction wraps it: a fastpath WRMSR(TSC_DEADLINE)
 * (fix 9: a non-PMU MSR, handled, retired) or a HLT (fix 28: skipped, then the vCPU halts; a
 * halted vCPU does not drain, so the entry below is the wake-up).
 */
static const struct {
	const char *name;
	const struct mh_vendor *vd;
	const struct vpmc_policy *policy;
	uint64_t status_at_exit; /* GLOBAL_STATUS between the retirement and the entry */
} deferred[] = {
	/* Perf-backed: kvm_pmu_incr_counter() only bumps emulated_counter; the status bit waits
	 * for kvm_pmu_handle_event() at the next entry. */
	{ "intel-exact", &mh_intel, &exact, 0 },
	{ "amd-exact", &mh_amd, &exact, 0 },
	/* Mediated: the increment sets the status bit and requests the PMI at once (§4.3), which
	 * would also wake a halted vCPU. */
	{ "intel-mediated", &mh_intel, &mediated, 1 },
	{ "amd-mediated", &mh_amd, &mediated, 1 },
};

START_TEST(test_fix9_fix28_overflow_status_at_exit)
{
	unsigned int row = _i / 2;
	bool hlt = _i % 2;
	const char *name = deferred[row].name;
	const struct vpmc_obs *pmi;
	uint64_t t_exit, t_entry;
	size_t mark;
	struct mh h;

	mh_new_vendor(&h, deferred[row].vd->vendor, deferred[row].policy);
	/* Preset M - 1; the enabling WRMSR counts itself: M. */
	mh_arm(&h, deferred[row].vd, 0, EN_INT_OS_INSN, MH_W48 - 1);
	mark = h.nr_obs;
	if (!hlt)
		ck_assert_int_eq(mh_wrmsr(&h, MSR_IA32_TSC_DEADLINE, 123456), 0);
	t_exit = mh_retire(&h, false);
	/* At the exit the read is exact: pmc_read_counter() = counter + emulated_counter = 0. */
	ck_assert_msg(vpmc_vcpu_counter(h.v, 0) == 0, "%s: read at exit", name);
	ck_assert_msg(vpmc_vcpu_global_status(h.v) == deferred[row].status_at_exit,
		      "%s%s: status at exit %#llx want %#llx", name, hlt ? "/hlt" : "",
		      (unsigned long long)vpmc_vcpu_global_status(h.v),
		      (unsigned long long)deferred[row].status_at_exit);
	if (deferred[row].status_at_exit)
		mh_expect_overflow(&h, mark, 0, t_exit, 1, name);
	ck_assert_msg(mh_count(&h, VPMC_OBS_PMI, mark) == 0, "%s: PMI before the entry", name);
	t_entry = mh_entry(&h);
	/* After the entry: status bit 0 and one PMI, delivered at this entry in both models. */
	ck_assert_msg(vpmc_vcpu_global_status(h.v) == 1, "%s: status after entry", name);
	mh_expect_overflow(&h, mark, 0, deferred[row].status_at_exit ? t_exit : t_entry, 1, name);
	ck_assert_msg(mh_count(&h, VPMC_OBS_OVERFLOW, mark) == 1, "%s: overflows", name);
	pmi = mh_expect_pmi(&h, mark, t_entry, true, name);
	ck_assert_uint_eq(pmi->global_status, 1);
	ck_assert_msg(mh_count(&h, VPMC_OBS_PMI, mark) == 1, "%s: PMIs", name);
	mh_free(&h);
}
END_TEST

/* ---- counter widths (b29a2acd36dd: truncate to the width on write) ---------------------- */

/*
 * Intel with 40-bit GP and 36-bit fixed counters: full-width writes #GP above the width
 * (intel_pmu_set_msr()), legacy 0xC1 writes are sign-extended from 32 bits then masked,
 * fixed counter writes are silently truncated, and the wrap - hence the emulated overflow -
 * is at the counter's width. AMD counters are always 48 bits (amd_pmu_refresh()).
 */
START_TEST(test_counter_widths_intel)
{
	const uint64_t m40 = (1ULL << 40) - 1, m36 = (1ULL << 36) - 1;
	const struct vpmc_pmu_config *got;
	struct vpmc_pmu_config cfg;
	struct mh h;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.gp_width = 40;
	cfg.fixed_width = 36;
	mh_new(&h, &cfg, &exact);
	got = vpmc_vcpu_config(h.v);
	ck_assert_uint_eq(got->gp_width, 40);
	ck_assert_uint_eq(got->fixed_width, 36);
	ck_assert_int_eq(mh_wrmsr_insn(&h, MSR_IA32_PMC0, 1ULL << 40), VPMC_GP);
	mh_wrmsr_ok(&h, MSR_IA32_PERFCTR0, 0x80000000ULL, "width");
	ck_assert_uint_eq(mh_rdmsr_ok(&h, MSR_IA32_PMC0, "width"), 0xFFFFFFFF80000000ULL & m40);
	mh_wrmsr_ok(&h, MSR_CORE_PERF_FIXED_CTR0, (1ULL << 40) + 5, "width");
	ck_assert_uint_eq(mh_rdpmc_ok(&h, RDPMC_FIXED | 0, "width"), ((1ULL << 40) + 5) & m36);
	/* 2^40 - 2, +1 by the enabling WRMSR; a CPUID wraps it at 40 bits. */
	mh_arm(&h, &mh_intel, 0, EN_INT_OS_INSN, m40 - 1);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), m40);
	mh_emulated(&h, false);
	ck_assert_uint_eq(vpmc_vcpu_counter(h.v, 0), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), 1);
	mh_free(&h);
}
END_TEST

START_TEST(test_counter_widths_amd_always_48)
{
	struct vpmc_pmu_config cfg;
	struct mh h;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_AMD);
	cfg.gp_width = 40;
	mh_new(&h, &cfg, &exact);
	ck_assert_uint_eq(vpmc_vcpu_config(h.v)->gp_width, 48);
	/* pmc_write_counter() masks to 48 bits; AMD never #GPs on a counter write. */
	mh_wrmsr_ok(&h, MSR_F15H_PERF_CTR0, (1ULL << 63) | (1ULL << 40), "amd");
	ck_assert_uint_eq(mh_rdpmc_ok(&h, 0, "amd"), 1ULL << 40);
	mh_free(&h);
}
END_TEST

/* ---- fix 15 (fd89499a5151): emulated_counter instead of prev_counter ------------------- */

static const struct {
	const char *name;
	const struct mh_vendor *vd;
	unsigned int host_kernel;
	uint64_t want_status;
	size_t want_pmis;
} fix15b[] = {
	/* After: pmc_pause_counter() snapshots prev after the (zero) hardware count, adds the
	 * three pending events, M + 3 = 2 < M: overflow, status bit 0, one PMI. */
	{ "intel-latest", &mh_intel, VPMC_KERNEL_LATEST, 1, 1 },
	{ "amd-latest", &mh_amd, VPMC_KERNEL_LATEST, 1, 1 },
	{ "intel-6.8", &mh_intel, VPMC_KERNEL(6, 8), 1, 1 },
	/* Before (6.2 .. 6.7): each kvm_pmu_incr_counter() overwrote prev_counter = counter and
	 * counter += 1: (M -> 0), (0 -> 1), (1 -> 2); the drain compares 2 < 1: false. */
	{ "intel-6.7", &mh_intel, VPMC_KERNEL(6, 7), 0, 0 },
	{ "amd-6.7", &mh_amd, VPMC_KERNEL(6, 7), 0, 0 },
};

START_TEST(test_fix15b_wrap_inside_one_exit)
{
	const char *name = fix15b[_i].name;
	struct vpmc_pmu_config cfg;
	size_t mark;
	struct mh h;

	vpmc_pmu_config_default(&cfg, fix15b[_i].vd->vendor);
	cfg.host_kernel = fix15b[_i].host_kernel;
	mh_new(&h, &cfg, &exact);
	/* Counter = M (preset M - 1, the enabling WRMSR counts itself). */
	mh_arm(&h, fix15b[_i].vd, 0, EN_INT_OS_INSN, MH_W48 - 1);
	ck_assert_msg(vpmc_vcpu_counter(h.v, 0) == MH_W48, "%s: counter = M", name);
	mark = h.nr_obs;
	/* Invalid-guest-state emulation: three instructions retired in one exit, no drain. */
	mh_retire(&h, false);
	mh_retire(&h, false);
	mh_retire(&h, false);
	mh_entry(&h);
	ck_assert_msg(vpmc_vcpu_counter(h.v, 0) == 2, "%s: counter %llu want 2", name,
		      (unsigned long long)vpmc_vcpu_counter(h.v, 0));
	ck_assert_msg(vpmc_vcpu_global_status(h.v) == fix15b[_i].want_status,
		      "%s: status %#llx want %#llx", name,
		      (unsigned long long)vpmc_vcpu_global_status(h.v),
		      (unsigned long long)fix15b[_i].want_status);
	ck_assert_msg(mh_count(&h, VPMC_OBS_PMI, mark) == fix15b[_i].want_pmis, "%s: %zu PMIs",
		      name, mh_count(&h, VPMC_OBS_PMI, mark));
	mh_free(&h);
}
END_TEST

/* ---- fix 16 (05519c86d699): FIXED_CTR_CTRL compared as a 64-bit value ------------------- */

START_TEST(test_fix16_fixed2_disable_is_seen)
{
	const struct vpmc_obs *d;
	uint64_t a, b, t_entry;
	struct mh h;
	size_t mark;

	mh_new_vendor(&h, VPMC_VENDOR_INTEL, &exact);
	/* Fixed counter 2: OS | USR | PMI = 0xB in nibble 2. */
	mh_wrmsr_ok(&h, MSR_CORE_PERF_FIXED_CTR_CTRL, 0xB00, "fixed2");
	mh_wrmsr_ok(&h, MSR_CORE_PERF_GLOBAL_CTRL, 0xFFULL | (1ULL << 34), "fixed2");
	mh_guest(&h, 100, 0);
	/* Disable: the old nibble 0xB differs from 0 only if the old value is compared at full
	 * width (with the u8 bug it read as 0). reprogram_fixed_counters() then requests the
	 * reprogram of counter 34, and the WRMSR itself counts nowhere (fixed 2 does not match
	 * instructions), so the entry's drain processes exactly that one counter, which stays
	 * paused: reprogrammed 1, resumed 0, created 0. */
	mark = h.nr_obs;
	ck_assert_int_eq(mh_wrmsr(&h, MSR_CORE_PERF_FIXED_CTR_CTRL, 0), 0);
	mh_retire(&h, false);
	t_entry = mh_entry(&h);
	d = mh_find(&h, VPMC_OBS_DRAIN, -2, mark);
	ck_assert_msg(d && d->time_ns == t_entry, "fixed2: no drain at the entry after disabling");
	ck_assert_uint_eq(d->nr_reprogrammed, 1);
	ck_assert_uint_eq(d->nr_resumed, 0);
	ck_assert_uint_eq(d->nr_created, 0);
	mh_guest(&h, 100, 0);
	a = mh_rdmsr_ok(&h, MSR_CORE_PERF_FIXED_CTR0 + 2, "fixed2");
	mh_guest(&h, 100, 0);
	b = mh_rdmsr_ok(&h, MSR_CORE_PERF_FIXED_CTR0 + 2, "fixed2");
	/* Frozen by the disabling write: both reads equal. */
	ck_assert_uint_eq(a, b);
	mh_free(&h);
}
END_TEST

START_TEST(test_fix16_fixed0_freeze_counts)
{
	struct mh h;

	mh_new_vendor(&h, VPMC_VENDOR_INTEL, &exact);
	mh_wrmsr_ok(&h, MSR_CORE_PERF_FIXED_CTR_CTRL, 0x00B, "fixed0");
	/* Fixed 0 matches instructions (synthetic eventsel 0xC0, §2.3); the GLOBAL_CTRL write
	 * enables it and counts itself: 1. */
	mh_wrmsr_ok(&h, MSR_CORE_PERF_GLOBAL_CTRL, 0xFFULL | (1ULL << 32), "fixed0");
	mh_guest(&h, 100, 0); /* 101 */
	/* Disabling write: not counted (the nibble is clear when the WRMSR retires). */
	mh_wrmsr_ok(&h, MSR_CORE_PERF_FIXED_CTR_CTRL, 0, "fixed0");
	mh_guest(&h, 100, 0);
	ck_assert_uint_eq(mh_rdmsr_ok(&h, MSR_CORE_PERF_FIXED_CTR0, "fixed0"), 101);
	mh_guest(&h, 100, 0);
	ck_assert_uint_eq(mh_rdpmc_ok(&h, RDPMC_FIXED | 0, "fixed0"), 101);
	mh_free(&h);
}
END_TEST

/* ---- fix 24 (68e61f6fd656): AMD PERF_CNTR_GLOBAL_STATUS_SET ------------------------------ */

START_TEST(test_fix24_amd_global_status_set)
{
	struct mh h;

	mh_new_vendor(&h, VPMC_VENDOR_AMD, &exact);
	/* Guest write ORs the non-reserved bits into GLOBAL_STATUS: 1. */
	mh_wrmsr_ok(&h, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET, 1, "amd");
	ck_assert_uint_eq(mh_rdmsr_ok(&h, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS, "amd"), 1);
	/* The SET MSR itself reads 0 (kvm_pmu_get_msr()). */
	ck_assert_uint_eq(mh_rdmsr_ok(&h, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET, "amd"), 0);
	/* global_status_rsvd = ~0x3F for 6 counters: bit 40 is dropped, bit 1 is set: 3. */
	mh_wrmsr_ok(&h, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET, (1ULL << 40) | 2, "amd");
	ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), 3);
	/* A guest write to GLOBAL_STATUS itself is silently ignored on AMD (no #GP): still 3. */
	mh_wrmsr_ok(&h, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS, 0, "amd");
	ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), 3);
	/* STATUS_CLR clears: 2. */
	mh_wrmsr_ok(&h, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, 1, "amd");
	ck_assert_uint_eq(vpmc_vcpu_global_status(h.v), 2);
	/* Setting a status bit raises no PMI: nothing requests KVM_REQ_PMI. */
	ck_assert_uint_eq(mh_count(&h, VPMC_OBS_PMI, 0), 0);
	mh_free(&h);
}
END_TEST

static Suite *scenarios_suite(void)
{
	Suite *s = suite_create("scenarios");
	TCase *tc = tcase_create("fixes");

	tcase_add_loop_test(tc, test_fix2_perf_event_reused, 0, ARRAY_SIZE(reuse));
	tcase_add_loop_test(tc, test_fix3_retired_instructions_count, 0, ARRAY_SIZE(vendors));
	tcase_add_loop_test(tc, test_fix4_emulated_branches_count, 0, ARRAY_SIZE(vendors));
	tcase_add_loop_test(tc, test_fix5_amd_event_select_high_bits, 0, ARRAY_SIZE(amd_evtsel));
	tcase_add_test(tc, test_fix5_intel_high_event_bits_gp);
	tcase_add_loop_test(tc, test_fix5_intel_tsx_bits, 0, ARRAY_SIZE(tsx));
	tcase_add_loop_test(tc, test_fix7_v1_counters_always_globally_enabled, 0, ARRAY_SIZE(v1));
	tcase_add_test(tc, test_fix8_pebs_enable_gp_without_pebs);
	tcase_add_loop_test(tc, test_fix8_pebs_emulated_overflow, 0, ARRAY_SIZE(pebs));
	tcase_add_test(tc, test_fix8_pebs_hardware_overflow);
	tcase_add_loop_test(tc, test_fix9_fix28_overflow_status_at_exit, 0, 2 * ARRAY_SIZE(deferred));
	tcase_add_test(tc, test_counter_widths_intel);
	tcase_add_test(tc, test_counter_widths_amd_always_48);
	tcase_add_loop_test(tc, test_fix15b_wrap_inside_one_exit, 0, ARRAY_SIZE(fix15b));
	tcase_add_test(tc, test_fix16_fixed2_disable_is_seen);
	tcase_add_test(tc, test_fix16_fixed0_freeze_counts);
	tcase_add_test(tc, test_fix24_amd_global_status_set);
	tcase_add_loop_test(tc, test_fix26_enter_leave, 0, ARRAY_SIZE(enter_leave));
	tcase_add_loop_test(tc, test_fix27_v1_has_no_global_msrs, 0, ARRAY_SIZE(v1_msrs));
	tcase_add_test(tc, test_fix27_v1_rdpmc_fixed_gp);
	suite_add_tcase(s, tc);


	return s;
}

CHECK_MAIN(scenarios_suite)
