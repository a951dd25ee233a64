// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_pmu.c - KVM's common vPMU code (lib/kvm/pmu.c): the 16 traps of
 * kvm-vpmu-semantics.md Appendix B, the legacy switches ("before" values of
 * upstream-fix-scenarios.md), race and failure injection, the event filter, the policy seam,
 * reset/refresh and lazy cleanup. Each expected value is derived from KVM's code in a comment.
 */
#include "config.h"

#include <errno.h>

#include "harness-internal.h"
#include "vpmcsim.h"

#define LATEST VPMC_KERNEL_LATEST
#define SEL_INSN (EN | OS | INSN)
#define SEL_INSN_PMI (EN | INT | OS | INSN)

static struct vpmc_vcpu *intel(struct rec *r)
{
	return vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, LATEST, r);
}

static void wr(struct vpmc_vcpu *v, uint64_t t, uint32_t msr, uint64_t val)
{
	ck_assert_msg(vpmc_vcpu_wrmsr(v, t, msr, val) == 0, "wrmsr %#x <- %#llx #GP", msr,
		      (unsigned long long)val);
}

/* An intercepted instruction (CPUID, a WRMSR's own retirement...) */
static void retire(struct vpmc_vcpu *v, uint64_t t)
{
	vpmc_vcpu_retire(v, t, false, VPMC_CPL_KEEP);
}

/* GP0 counting instructions at CPL 0 with @sel, preset to @val, perf event created. */
static void gp0_running(struct vpmc_vcpu *v, uint64_t sel, uint64_t val)
{
	wr(v, 0, 0x4c1, val);
	wr(v, 0, 0x186, sel);
	wr(v, 0, 0x38f, 0xf); /* the RESET value since 6.9; older hosts start at 0 */
	vpmc_vcpu_entry(v, 0);
}

/* ---- Appendix B traps ---- */

/* Trap 1: pmc->counter is the base, not the guest value, while perf counts; kept masked. */
START_TEST(test_trap01_counter_is_not_guest_value)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	gp0_running(v, SEL_INSN, 100);
	vpmc_vcpu_guest(v, 10, 50, 0, 0);
	ck_assert_uint_eq(pmu->gp_counters[0].counter, 100);
	ck_assert_uint_eq(rdpmc_ok(v, 11, 0), 150);
	ck_assert_uint_eq(rdmsr_ok(v, 12, 0xc1), 150);

	/* base M, 3 native events: (M + 3) & M = 2; the base stays M, masked */
	wr(v, 20, 0x4c1, M48);
	ck_assert_uint_le(pmu->gp_counters[0].counter, M48);
	vpmc_vcpu_entry(v, 21);
	vpmc_vcpu_guest(v, 30, 3, 0, 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 2);
	ck_assert_uint_le(pmu->gp_counters[0].counter, M48);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 2 / fix 15 scenario A: base M-1, period 2, NATIVE(2) wraps in hardware; the perf handler
 * runs during the next exit (skid), before the CPUID retires. 6.8+: handler sets status + PMI;
 * drain: c = M-1 + 2 = 0 = prev, + 1 emulated = 1 > prev: no second overflow. Counter 1, one
 * PMI. 6.7 (prev_counter): the increment saved prev = M-1 and made counter M; drain: M + 2 = 1
 * < M-1: a second overflow signal; both raise the same KVM_REQ_PMI: still one PMI.
 */
static void fix15a(unsigned int host, unsigned int want_overflows)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, host, &r);

	vpmc__vcpu_pmu(v)->gp_counters[0].perf.inject.skid = true;
	gp0_running(v, SEL_INSN_PMI, M48 - 1);
	vpmc_vcpu_guest(v, 10, 2, 0, 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_OVERFLOW, -2), 0);
	vpmc__vcpu_deliver_skid(v, 20);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	retire(v, 21);
	vpmc_vcpu_entry(v, 30);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 1);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_OVERFLOW, 0), want_overflows);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	vpmc_vcpu_free(v);
}

START_TEST(test_trap02_prev_after_hardware_fold)
{
	fix15a(LATEST, 1);
}
END_TEST

START_TEST(test_fix15a_before_double_overflow)
{
	fix15a(VPMC_KERNEL(6, 7), 2);
}
END_TEST

/*
 * 73554b29bd70 ("KVM: x86: Synthesize at most one PMI per VM-exit", 6.6), with fix 15A's
 * counts: base M-1, period 2, NATIVE(2) wraps in hardware and the host PMI skids past the exit
 * (t=20), then the exit's CPUID retires (t=21) and the vCPU enters (t=30).
 * Before 6.6, __kvm_perf_overflow(in_pmi) outside the NMI of a guest exit
 * (!kvm_handling_nmi_from_guest()) queues the irq_work: kvm_pmi_trigger_fn() delivers PMI 1 at
 * t=20, during the exit. The increment (prev_counter, < 6.8) saved prev = M-1 and made counter
 * M; the drain folds the 2 hardware events: M + 2 = 1 < M-1, a second overflow, which raises
 * KVM_REQ_PMI: PMI 2 at the entry (t=30). LVTPC was not masked by the first (a16eb25b09c0 is
 * 6.6 too): both reach the guest, two PMIs for one exit.
 * 6.6 (same counts, still prev_counter): the skidded PMI raises KVM_REQ_PMI too, one request
 * bit: one PMI, at the entry.
 */
static void one_pmi_per_exit(unsigned int host, unsigned int want_at_skid, unsigned int want)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, host, &r);

	vpmc__vcpu_pmu(v)->gp_counters[0].perf.inject.skid = true;
	gp0_running(v, SEL_INSN_PMI, M48 - 1);
	vpmc_vcpu_guest(v, 10, 2, 0, 0);
	vpmc__vcpu_deliver_skid(v, 20);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), want_at_skid);
	retire(v, 21);
	vpmc_vcpu_entry(v, 30);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 1);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_OVERFLOW, 0), 2);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), want);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_PMI, want - 1)->time_ns, 30);
	if (want_at_skid)
		ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_PMI, 0)->time_ns, 20);
	vpmc_vcpu_free(v);
}

START_TEST(test_one_pmi_per_exit)
{
	one_pmi_per_exit(VPMC_KERNEL(6, 6), 0, 1);
}
END_TEST

START_TEST(test_one_pmi_per_exit_before_6_6)
{
	one_pmi_per_exit(VPMC_KERNEL(6, 5), 1, 2);
}
END_TEST

/*
 * Before 6.6 too, a host PMI that exits guest mode is the NMI of that exit
 * (kvm_handling_nmi_from_guest()): KVM_REQ_PMI as since 6.6, one PMI at the entry. Base M-1,
 * NATIVE(2): the hardware wraps in guest mode (an implicit exit and entry at t=10).
 */
START_TEST(test_pmi_from_guest_before_6_6)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0,
					VPMC_KERNEL(6, 5), &r);

	gp0_running(v, SEL_INSN_PMI, M48 - 1);
	vpmc_vcpu_guest(v, 10, 2, 0, 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	ck_assert(!vpmc__vcpu_pmu(v)->irq_work);
	vpmc_vcpu_free(v);
}
END_TEST

/* Trap 3: emulated overflow waits for the drain; no entry (a halted vCPU) -> not detected. */
START_TEST(test_trap03_emulated_overflow_waits_for_drain)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);

	gp0_running(v, SEL_INSN_PMI, M48);
	retire(v, 10); /* HLT */
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0);
	vpmc_vcpu_sched_out(v, 20);
	vpmc_vcpu_guest(v, 30, 0, 0, 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 0);
	vpmc_vcpu_entry(v, 40);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 4a: a counter disabled (GLOBAL_CTRL = 0) in the same exit as its wrapping increment is
 * paused and folded (reads 0) but reprogram_counter() returns before __kvm_perf_overflow().
 */
START_TEST(test_trap04_disabled_counter_drops_overflow)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);

	gp0_running(v, SEL_INSN_PMI, M48);
	retire(v, 10);
	wr(v, 11, 0x38f, 0);
	vpmc_vcpu_entry(v, 20);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 0);
	ck_assert(vpmc__vcpu_pmu(v)->gp_counters[0].is_paused);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 4b: the enabling WRMSR's own overflow on a fresh vCPU. PMC0 = M, EVNTSEL0 = EN|INT|OS|
 * INSN (recalc: GP0 counts instructions; GLOBAL_CTRL bit 0 set at RESET), the WRMSR retires:
 * emulated 1. Drain: prev M, counter 0: overflow signalled with pmc->intr = false (no perf event
 * was ever created): status bit 0, no PMI. Then the event is created with intr = true.
 */
START_TEST(test_trap04_enabling_overflow_uses_previous_intr)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	wr(v, 0, 0x4c1, M48);
	wr(v, 1, 0x186, SEL_INSN_PMI);
	retire(v, 1);
	vpmc_vcpu_entry(v, 10);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 0);
	ck_assert(pmu->gp_counters[0].intr);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 4c: stale intr the other way: created with INT (intr = true), then EVNTSEL0 rewritten
 * without INT, counter set to M, and the WRMSR's retirement... the eventsel WRMSR retires and
 * counts (still enabled): emulated 1 -> wrap. Drain: the overflow is signalled *before* the
 * re-create, with the old intr = true: a PMI although INT is now clear.
 */
START_TEST(test_trap04_stale_intr_raises_pmi)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);

	gp0_running(v, SEL_INSN_PMI, 0);
	wr(v, 10, 0x4c1, M48);
	wr(v, 11, 0x186, SEL_INSN);
	retire(v, 11);
	vpmc_vcpu_entry(v, 20);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	ck_assert(!vpmc__vcpu_pmu(v)->gp_counters[0].intr);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 5 / fix 8: PEBS counter overflowing by emulation. GLOBAL_CTRL = 0, PEBS_ENABLE = 1,
 * EVNTSEL0 = EN|INT|OS|INSN, PMC0 = M-1 (none counted), GLOBAL_CTRL = 1 (counts itself: M);
 * drain: M-1 + 1 = M, no wrap, precise perf event created. CPUID: emulated 1; drain: prev M,
 * counter 0: __kvm_perf_overflow(in_pmi=false) on a precise event does nothing.
 */
START_TEST(test_trap05_pebs_emulated_overflow_invisible)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make_pebs(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, LATEST, true, &r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	wr(v, 0, 0x38f, 0);
	wr(v, 1, 0x3f1, 1);
	wr(v, 2, 0x186, SEL_INSN_PMI);
	wr(v, 3, 0xc1, (uint32_t)(M48 - 1)); /* sign-extended by the 32-bit alias */
	wr(v, 4, 0x38f, 1);
	retire(v, 4);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), M48);
	vpmc_vcpu_entry(v, 10);
	ck_assert(pmu->gp_counters[0].perf_event->attr.precise);
	ck_assert(pmu->gp_counters[0].intr);
	retire(v, 20);
	vpmc_vcpu_entry(v, 30);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_OVERFLOW, -2), 0);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * PEBS, hardware path: __kvm_perf_overflow(in_pmi=true) sets BUFFER_OVF (bit 62), not bit 0;
 * PMI (intr = INT || PEBS); a second hardware overflow with BUFFER_OVF still set: no PMI.
 */
START_TEST(test_pebs_hardware_overflow_sets_buffer_ovf)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make_pebs(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, LATEST, true, &r);
	const struct vpmc_obs *o;

	wr(v, 0, 0x3f1, 1);
	gp0_running(v, SEL_INSN, M48 - 9);
	vpmc_vcpu_guest(v, 100, 10, 0, 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1ULL << 62);
	o = rec_nth(&r, VPMC_OBS_OVERFLOW, 0);
	ck_assert_uint_eq(o->value, 1ULL << 62);
	ck_assert_uint_eq(o->time_ns, 100);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	wr(v, 110, 0x834, APIC_DM_NMI); /* unmask */
	wr(v, 111, 0x4c1, M48 - 9);
	vpmc_vcpu_entry(v, 112);
	vpmc_vcpu_guest(v, 200, 10, 0, 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_OVERFLOW, -2), 2);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	/* PEBS_ENABLE change with the same eventsel: precise no longer matches -> re-created */
	wr(v, 210, 0x3f1, 0);
	vpmc_vcpu_entry(v, 211);
	ck_assert(rec_nth(&r, VPMC_OBS_REPROGRAM, 3)->created);
	ck_assert(!vpmc__vcpu_pmu(v)->gp_counters[0].perf_event->attr.precise);
	vpmc_vcpu_free(v);
}
END_TEST

/* Trap 6: CPL check: neither OS nor USR -> never; both -> always; else by CPL. */
static const struct {
	uint64_t sel;
	uint8_t cpl;
	uint64_t want;
} cpl_cases[] = {
	{ EN | INSN, 0, 0 },	     { EN | INSN, 3, 0 },	  { EN | OS | USR | INSN, 0, 1 },
	{ EN | OS | USR | INSN, 3, 1 }, { EN | OS | INSN, 0, 1 },     { EN | OS | INSN, 3, 0 },
	{ EN | USR | INSN, 0, 0 },   { EN | USR | INSN, 1, 1 },
};

START_TEST(test_trap06_cpl_check)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);

	wr(v, 0, 0x186, cpl_cases[_i].sel);
	vpmc_vcpu_entry(v, 1);
	vpmc_vcpu_retire(v, 2, false, cpl_cases[_i].cpl);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), cpl_cases[_i].want);
	/* the native part obeys the same bits through exclude_user / exclude_kernel */
	vpmc_vcpu_entry(v, 3);
	vpmc_vcpu_guest(v, 4, 10, 0, cpl_cases[_i].cpl);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), cpl_cases[_i].want * 11);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 7: event match compares event select, unit mask (and AMD bits 35:32): Intel 0x01c0 does
 * not count emulated instructions; fixed counter 0 (synthetic 0xc0) does; fixed 1 does not.
 */
START_TEST(test_trap07_event_match)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);

	wr(v, 0, 0x186, EN | OS | 0x01c0);
	wr(v, 0, 0x187, EN | OS | INSN | ARCH_PERFMON_EVENTSEL_EDGE | (1ULL << 24));
	wr(v, 0, 0x38d, 0x11); /* fixed 0 and 1: OS */
	wr(v, 0, 0x38f, 0x300000003ULL);
	vpmc_vcpu_entry(v, 1);
	retire(v, 2);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 1), 1); /* edge / cmask are ignored */
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 32), 1);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 33), 0);
	/* natively, 0x01c0 and cycles count nothing in the model either */
	vpmc_vcpu_guest(v, 3, 5, 0, 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 32), 6);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 33), 0);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 7 on AMD / fix 5: PerfEvtSel0 = EN|OS|event 0x1c0 (bits 35:32 = 1) does not match
 * 0xc0; the perf config keeps the high event bits (AMD64_RAW_EVENT_MASK).
 */
START_TEST(test_trap07_amd_high_event_bits)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_AMD, VPMC_POLICY_EXACT, 0, LATEST, &r);

	wr(v, 0, 0xc0010000, EN | OS | (1ULL << 32) | INSN);
	vpmc_vcpu_entry(v, 1);
	retire(v, 2);
	retire(v, 3);
	retire(v, 4);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	ck_assert_uint_eq(vpmc__vcpu_pmu(v)->gp_counters[0].perf_event->attr.config,
			  (1ULL << 32) | INSN);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 8 / fix 7: Intel v1: no GLOBAL_CTRL, every counter globally enabled; GLOBAL_* #GP.
 * PMC0 = 0, EVNTSEL0 = EN|OS|INSN (counts itself: 1), CPUID x5, NATIVE(10), RDPMC(0) = 16.
 */
START_TEST(test_trap08_v1_globally_enabled)
{
	struct rec r;
	struct vpmc_pmu_config cfg;
	struct vpmc_policy pol = { VPMC_POLICY_EXACT, 0 };
	struct vpmc_observer obs = { .fn = rec_fn, .data = &r };
	struct vpmc_vcpu *v;
	uint64_t val;
	int i;

	memset(&r, 0, sizeof(r));
	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.version = 1;
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, &obs), 0);
	ck_assert_uint_eq(vpmc_vcpu_config(v)->nr_fixed, 0);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x38f, 1), VPMC_GP);
	ck_assert_int_eq(vpmc_vcpu_rdmsr(v, 0, 0x38e, &val), VPMC_GP);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x38d, 1), VPMC_GP);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x390, 1), VPMC_GP);
	wr(v, 1, 0xc1, 0);
	wr(v, 2, 0x186, SEL_INSN);
	retire(v, 2);
	for (i = 0; i < 5; i++) {
		vpmc_vcpu_entry(v, 10 + i);
		retire(v, 10 + i);
	}
	vpmc_vcpu_entry(v, 20);
	vpmc_vcpu_guest(v, 30, 10, 0, 0);
	ck_assert_uint_eq(rdpmc_ok(v, 31, 0), 16);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 9: the enabling WRMSR counts itself, the disabling one does not; RDMSR/RDPMC read before
 * their own retirement; a counter WRMSR drops pending events then counts itself.
 */
START_TEST(test_trap09_wrmsr_rdmsr_retirement_order)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);

	wr(v, 0, 0x38f, 0);
	retire(v, 0);
	wr(v, 1, 0x186, SEL_INSN);
	retire(v, 1);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0); /* globally disabled: not counted */
	wr(v, 2, 0x38f, 1);
	retire(v, 2); /* enabling: 1 */
	vpmc_vcpu_entry(v, 3);
	ck_assert_uint_eq(rdmsr_ok(v, 4, 0xc1), 1);
	retire(v, 4); /* 2 */
	ck_assert_uint_eq(rdpmc_ok(v, 5, 0), 2);
	retire(v, 5); /* 3 */
	retire(v, 6); /* 4 */
	wr(v, 7, 0xc1, 10); /* drops the pending 1s, then counts itself */
	retire(v, 7);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 11);
	wr(v, 8, 0x38f, 0);
	retire(v, 8); /* disabling: not counted */
	vpmc_vcpu_entry(v, 9);
	ck_assert_uint_eq(rdpmc_ok(v, 10, 0), 11);
	vpmc_vcpu_free(v);
}
END_TEST

/* Trap 10: 0xc1 sign-extends a guest's 32-bit write; 0x4c1 #GPs above the width; AMD drops. */
START_TEST(test_trap10_counter_write_widths)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	uint64_t val;

	wr(v, 0, 0xc1, 0xfffffffe);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), M48 - 1);
	wr(v, 0, 0xc1, 0x7fffffff);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0x7fffffff);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0x4c1, 1ULL << 48), VPMC_GP);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0x7fffffff);
	wr(v, 0, 0x4c1, M48);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0xc1), M48);
	vpmc_vcpu_free(v);

	v = vcpu_make(VPMC_VENDOR_AMD, VPMC_POLICY_EXACT, 0, LATEST, &r);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc0010004, ~0ULL), 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), M48);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 0, 0xc0010000, ~0ULL), 0);
	ck_assert_int_eq(vpmc_vcpu_rdmsr(v, 0, 0xc0010000, &val), 0);
	ck_assert_uint_eq(val, ~0xfffffff000280000ULL);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 11: GLOBAL_STATUS is cleared only by OVF_CTRL (or reset); two overflows before one entry
 * give one PMI with both bits; a later entry delivers nothing new.
 */
START_TEST(test_trap11_status_sticky_one_pmi)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);

	wr(v, 0, 0x4c1, M48);
	wr(v, 0, 0x4c2, M48);
	wr(v, 0, 0x186, SEL_INSN_PMI);
	wr(v, 0, 0x187, SEL_INSN_PMI);
	vpmc_vcpu_entry(v, 1); /* creates with intr = true */
	retire(v, 2);
	vpmc_vcpu_entry(v, 3);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 3);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_PMI, 0)->global_status, 3);
	vpmc_vcpu_entry(v, 4);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 3);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	wr(v, 5, 0x390, 1);
	ck_assert_uint_eq(rdmsr_ok(v, 6, 0x38e), 2);
	ck_assert_uint_eq(rdmsr_ok(v, 6, 0x390), 0);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 12: Intel masks LVTPC at each delivered PMI (the next one is dropped until the guest
 * unmasks); AMD does not. Two emulated overflows, each at its own entry.
 */
static void two_pmis(enum vpmc_vendor vendor, unsigned int host, bool second_delivered)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(vendor, VPMC_POLICY_EXACT, 0, host, &r);
	uint32_t ctr = vendor == VPMC_VENDOR_AMD ? 0xc0010004 : 0x4c1;
	uint32_t sel = vendor == VPMC_VENDOR_AMD ? 0xc0010000 : 0x186;
	int i;

	wr(v, 0, sel, SEL_INSN_PMI);
	wr(v, 0, vendor == VPMC_VENDOR_AMD ? 0xc0000301 : 0x38f, 1);
	vpmc_vcpu_entry(v, 0);
	for (i = 0; i < 2; i++) {
		wr(v, 10 + i, ctr, M48);
		retire(v, 10 + i);
		vpmc_vcpu_entry(v, 10 + i);
	}
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 2);
	ck_assert(rec_nth(&r, VPMC_OBS_PMI, 0)->delivered);
	ck_assert(rec_nth(&r, VPMC_OBS_PMI, 1)->delivered == second_delivered);
	vpmc_vcpu_free(v);
}

START_TEST(test_trap12_lvtpc_auto_mask)
{
	two_pmis(VPMC_VENDOR_INTEL, LATEST, false);
	two_pmis(VPMC_VENDOR_AMD, LATEST, true);
	/* before a16eb25b09c0 (~6.6) nobody masked; 6.6..6.8 masked AMD guests too */
	two_pmis(VPMC_VENDOR_INTEL, VPMC_KERNEL(6, 5), true);
	two_pmis(VPMC_VENDOR_AMD, VPMC_KERNEL(6, 8), false);
}
END_TEST

/*
 * LVTPC delivery modes. kvm_apic_local_deliver() (lapic.c) hands LVTPC's vector, mode and
 * trigger bit to __apic_accept_irq(apic, mode, vector, 1, trig_mode), and masks LVTPC only if
 * that returned 1. LVTPC keeps no trigger bit (apic_lvt_mask[] = LVT_MASK | APIC_MODE_MASK), so
 * trig_mode = 0: Fixed (000) and LowPrio (001) pass "trig_mode && !level" and accept, SMI (010)
 * accepts (kvm_inject_smi() returns 0 with CONFIG_KVM_SMM), RemRd (011, reserved for an LVT)
 * accepts (pv_unhalted), NMI (100) accepts, INIT (101) accepts (!trig_mode), StartUp (110,
 * reserved) accepts, ExtINT (111) leaves result 0: no PMI, LVTPC stays unmasked. The mask after
 * an accepted PMI: Intel-compatible guests since 49ff3b4aec51 (6.9), every guest from
 * a16eb25b09c0 (6.6) to 6.9, none before 6.6.
 */
static const struct {
	const char *name;
	enum vpmc_vendor vendor;
	unsigned int host;
	uint32_t lvtpc;
	bool accepted, masked;
} lvtpc_modes[] = {
	{ "intel fixed", VPMC_VENDOR_INTEL, LATEST, APIC_DM_FIXED | 0xfe, true, true },
	{ "intel lowprio", VPMC_VENDOR_INTEL, LATEST, APIC_DM_LOWEST | 0xfe, true, true },
	{ "intel smi", VPMC_VENDOR_INTEL, LATEST, APIC_DM_SMI, true, true },
	{ "intel remrd (reserved)", VPMC_VENDOR_INTEL, LATEST, APIC_DM_REMRD, true, true },
	{ "intel nmi", VPMC_VENDOR_INTEL, LATEST, APIC_DM_NMI, true, true },
	{ "intel init", VPMC_VENDOR_INTEL, LATEST, APIC_DM_INIT, true, true },
	{ "intel startup (reserved)", VPMC_VENDOR_INTEL, LATEST, APIC_DM_STARTUP | 0x10, true, true },
	{ "intel extint", VPMC_VENDOR_INTEL, LATEST, APIC_DM_EXTINT, false, false },
	{ "amd fixed", VPMC_VENDOR_AMD, LATEST, APIC_DM_FIXED | 0xfe, true, false },
	{ "amd extint", VPMC_VENDOR_AMD, LATEST, APIC_DM_EXTINT, false, false },
	{ "amd 6.8 nmi", VPMC_VENDOR_AMD, VPMC_KERNEL(6, 8), APIC_DM_NMI, true, true },
	{ "amd 6.8 extint", VPMC_VENDOR_AMD, VPMC_KERNEL(6, 8), APIC_DM_EXTINT, false, false },
	{ "intel 6.5 fixed", VPMC_VENDOR_INTEL, VPMC_KERNEL(6, 5), APIC_DM_FIXED | 0xfe, true, false },
	{ "intel 6.5 extint", VPMC_VENDOR_INTEL, VPMC_KERNEL(6, 5), APIC_DM_EXTINT, false, false },
};

START_TEST(test_lvtpc_delivery_modes)
{
	bool amd = lvtpc_modes[_i].vendor == VPMC_VENDOR_AMD;
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(lvtpc_modes[_i].vendor, VPMC_POLICY_EXACT, 0,
					lvtpc_modes[_i].host, &r);
	uint32_t want = lvtpc_modes[_i].lvtpc | (lvtpc_modes[_i].masked ? APIC_LVT_MASKED : 0);
	const struct vpmc_obs *pmi;

	vpmc_vcpu_write_lvtpc(v, 0, lvtpc_modes[_i].lvtpc);
	wr(v, 0, amd ? 0xc0010000 : 0x186, SEL_INSN_PMI);
	wr(v, 0, amd ? 0xc0000301 : 0x38f, 1);
	wr(v, 0, amd ? 0xc0010004 : 0x4c1, M48);
	vpmc_vcpu_entry(v, 0);
	retire(v, 1); /* wraps GP0 */
	vpmc_vcpu_entry(v, 2);
	pmi = rec_nth(&r, VPMC_OBS_PMI, 0);
	ck_assert_msg(pmi, "%s: no PMI", lvtpc_modes[_i].name);
	ck_assert_msg(pmi->delivered == lvtpc_modes[_i].accepted, "%s: delivered %d",
		      lvtpc_modes[_i].name, pmi->delivered);
	ck_assert_msg(rdmsr_ok(v, 3, 0x834) == want, "%s: LVTPC %#llx", lvtpc_modes[_i].name,
		      (unsigned long long)rdmsr_ok(v, 3, 0x834));
	vpmc_vcpu_free(v);
}
END_TEST

/* A masked LVTPC drops the PMI; after the guest unmasks, the next one is delivered. */
START_TEST(test_trap12_masked_lvtpc_drops)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	struct vpmc_vcpu_stats st;

	vpmc_vcpu_write_lvtpc(v, 0, APIC_DM_NMI | APIC_LVT_MASKED);
	gp0_running(v, SEL_INSN_PMI, M48);
	retire(v, 1);
	vpmc_vcpu_entry(v, 2);
	ck_assert(!rec_nth(&r, VPMC_OBS_PMI, 0)->delivered);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	vpmc_vcpu_write_lvtpc(v, 3, APIC_DM_NMI | 0xfe0000); /* bits 23:17 are not kept */
	ck_assert_uint_eq(rdmsr_ok(v, 3, 0x834), APIC_DM_NMI);
	wr(v, 4, 0x4c1, M48);
	retire(v, 4);
	vpmc_vcpu_entry(v, 5);
	ck_assert(rec_nth(&r, VPMC_OBS_PMI, 1)->delivered);
	vpmc_vcpu_stats(v, &st);
	ck_assert_uint_eq(st.pmis_dropped, 1);
	ck_assert_uint_eq(st.pmis_delivered, 1);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 13: a hardware overflow whose handler finds the reprogram bit set (by an emulated
 * increment in the same window) is dropped; the drain folds the wrapped hardware count (prev
 * already past the wrap): no status, no PMI, ever. The value is still right.
 */
START_TEST(test_trap13_hardware_overflow_dropped_while_bit_set)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);

	vpmc__vcpu_pmu(v)->gp_counters[0].perf.inject.skid = true;
	gp0_running(v, SEL_INSN_PMI, M48 - 1);
	vpmc_vcpu_guest(v, 10, 2, 0, 0);
	retire(v, 11);
	vpmc__vcpu_deliver_skid(v, 12);
	vpmc_vcpu_entry(v, 20);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 1);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 0);
	vpmc_vcpu_free(v);
}
END_TEST

/* ... and with tolerance batching the bit is not set: the same overflow is kept (Appendix A). */
START_TEST(test_trap13_tolerance_keeps_hardware_overflow)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_TOLERANCE, 10, LATEST, &r);

	vpmc__vcpu_pmu(v)->gp_counters[0].perf.inject.skid = true;
	gp0_running(v, SEL_INSN_PMI, M48 - 1);
	vpmc_vcpu_guest(v, 10, 2, 0, 0);
	retire(v, 11);
	vpmc__vcpu_deliver_skid(v, 12);
	vpmc_vcpu_entry(v, 20);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 1);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 14: a failed perf-event creation re-sets the reprogram bit without KVM_REQ_PMU: entries
 * do not drain; the counter is retried only when something else raises KVM_REQ_PMU.
 */
START_TEST(test_trap14_failed_create_requeued_silently)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	pmu->gp_counters[0].perf.inject.fail_create = true;
	gp0_running(v, SEL_INSN, 0);
	ck_assert_ptr_null(pmu->gp_counters[0].perf_event);
	ck_assert_uint_eq(pmu->reprogram_pmi, 1);
	ck_assert_uint_eq(pmu->requests & KVM_REQ_PMU, 0);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_REPROGRAM, 0)->value, VPMC_REPROGRAM_FAILED);
	pmu->gp_counters[0].perf.inject.fail_create = false;
	vpmc_vcpu_entry(v, 10);
	vpmc_vcpu_guest(v, 20, 5, 0, 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_DRAIN, -2), 1);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	wr(v, 30, 0x187, SEL_INSN); /* another counter's reprogram raises KVM_REQ_PMU */
	vpmc_vcpu_entry(v, 31);
	ck_assert_ptr_nonnull(pmu->gp_counters[0].perf_event);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_DRAIN, 1)->nr_created, 2);
	vpmc_vcpu_guest(v, 40, 5, 0, 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 5);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 15: KVM_REQ_PMU and KVM_REQ_PMI are independent. Mediated: an emulated overflow raises
 * only KVM_REQ_PMI: the entry delivers it without a drain. Perf-backed: in one entry the drain
 * comes first and its emulated overflow's PMI is delivered by the same entry.
 */
START_TEST(test_trap15_pmu_then_pmi)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_MEDIATED, 0, LATEST, &r);
	unsigned int i, drain = 0, pmi = 0;

	gp0_running(v, SEL_INSN_PMI, M48);
	r.n = 0;
	retire(v, 10);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	vpmc_vcpu_entry(v, 20);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_DRAIN, -2), 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	vpmc_vcpu_free(v);

	v = intel(&r);
	gp0_running(v, SEL_INSN_PMI, M48);
	retire(v, 10);
	vpmc_vcpu_entry(v, 20);
	for (i = 0; i < r.n; i++) {
		if (r.o[i].kind == VPMC_OBS_DRAIN && r.o[i].time_ns == 20)
			drain = i;
		if (r.o[i].kind == VPMC_OBS_PMI)
			pmi = i;
	}
	ck_assert_uint_gt(drain, 0);
	ck_assert_uint_gt(pmi, drain);
	ck_assert_uint_eq(r.o[pmi].time_ns, 20);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Trap 16 / fix 26: ENTER and LEAVE are branches only before 6.18; the importer classifies and
 * the model counts what it is told. GP0 = EN|OS|BR, GP1 = EN|OS|INSN: FEP(ENTER), FEP(LEAVE).
 */
START_TEST(test_trap16_enter_leave_as_told)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	int old;

	for (old = 0; old < 2; old++) {
		wr(v, 0, 0x4c1, 0);
		wr(v, 0, 0x4c2, 0);
		wr(v, 0, 0x186, EN | OS | BR_INTEL);
		wr(v, 0, 0x187, SEL_INSN);
		vpmc_vcpu_entry(v, 1);
		vpmc_vcpu_retire(v, 2, old, VPMC_CPL_KEEP);
		vpmc_vcpu_retire(v, 3, old, VPMC_CPL_KEEP);
		ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), old ? 2 : 0);
		ck_assert_uint_eq(vpmc_vcpu_counter(v, 1), 2);
	}
	vpmc_vcpu_free(v);
}
END_TEST

/* ---- legacy switches and other fixes ---- */

/*
 * Fix 15 scenario B: counter M, three emulated instructions in one exit, entry.
 * 6.8+: fold: prev M, + 3 -> 2 < M: overflow, PMI, counter 2.
 * 6.7: prev_counter overwritten per increment (M, 0, 1); last check 2 < 1 false: nothing.
 */
static void fix15b(unsigned int host, uint64_t want_status)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, host, &r);

	gp0_running(v, SEL_INSN_PMI, M48);
	retire(v, 1);
	retire(v, 2);
	retire(v, 3);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 2);
	vpmc_vcpu_entry(v, 10);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 2);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), want_status);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), want_status);
	vpmc_vcpu_free(v);
}

START_TEST(test_fix15b_lost_overflow)
{
	fix15b(LATEST, 1);
	fix15b(VPMC_KERNEL(6, 7), 0);
}
END_TEST

/* Legacy 6.2..6.7: a single wrapping increment is detected (counter 0 < prev M). */
START_TEST(test_legacy_prev_counter_single_wrap)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_TOLERANCE, 5,
					VPMC_KERNEL(6, 2), &r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	gp0_running(v, SEL_INSN_PMI, M48);
	retire(v, 1);
	ck_assert_uint_eq(pmu->gp_counters[0].counter, 0);	  /* counted in place */
	ck_assert_uint_eq(pmu->gp_counters[0].prev_counter, M48); /* tolerance acts as exact */
	ck_assert(pmu->requests & KVM_REQ_PMU);
	vpmc_vcpu_entry(v, 2);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	ck_assert_uint_eq(pmu->gp_counters[0].prev_counter, 0);
	/* a disabled counter also clears prev_counter at reprogram_complete */
	retire(v, 3);
	wr(v, 3, 0x38f, 0);
	vpmc_vcpu_entry(v, 4);
	ck_assert_uint_eq(pmu->gp_counters[0].prev_counter, 0);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Fix 21: a perf overflow handler for GP0 runs during the drain, right as GP0 is paused (perf
 * raises it in perf_event_pause()).
 * 6.9+: the snapshot already cleared the bit: the handler sets it again, status bit and PMI,
 * KVM_REQ_PMU pending: GP0 is reprogrammed again at the next drain.
 * 6.8: the bit is still set until reprogram_complete: the handler is dropped, then the bit is
 * cleared: no status, no PMI, nothing pending.
 */
static void fix21(unsigned int host, bool after)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, host, &r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	gp0_running(v, SEL_INSN_PMI, 0);
	pmu->gp_counters[0].perf.inject.pause_overflow = true;
	retire(v, 1);
	vpmc_vcpu_entry(v, 2);
	ck_assert(!pmu->gp_counters[0].perf.inject.pause_overflow); /* raised, once */
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), after ? 1 : 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), after ? 1 : 0);
	ck_assert_uint_eq(pmu->reprogram_pmi, after ? 1 : 0);
	ck_assert_uint_eq(pmu->requests & KVM_REQ_PMU, after ? KVM_REQ_PMU : 0);
	vpmc_vcpu_entry(v, 3);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_REPROGRAM, 0), after ? 3 : 2);
	vpmc_vcpu_free(v);
}

START_TEST(test_fix21_snapshot_race)
{
	fix21(LATEST, true);
	fix21(VPMC_KERNEL(6, 8), false);
}
END_TEST

/* Legacy drain: a non-existent counter's bit is cleared; a failure leaves its bit set. */
START_TEST(test_legacy_drain_bits)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL(6, 8), &r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	pmu->gp_counters[1].perf.inject.fail_create = true;
	wr(v, 0, 0x186, SEL_INSN);
	wr(v, 0, 0x187, SEL_INSN);
	wr(v, 0, 0x38f, 3);
	pmu->reprogram_pmi |= 1ULL << 20; /* no such counter */
	vpmc_vcpu_entry(v, 1);
	ck_assert_uint_eq(pmu->reprogram_pmi, 2);
	vpmc_vcpu_free(v);
}
END_TEST

/* de120e1d692d (6.9): GLOBAL_CTRL = all GP counters at RESET; before: 0. */
START_TEST(test_global_ctrl_at_reset)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);

	ck_assert_uint_eq(rdmsr_ok(v, 0, 0x38f), 0xf);
	vpmc_vcpu_free(v);
	v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, VPMC_KERNEL(6, 8), &r);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0x38f), 0);
	vpmc_vcpu_free(v);
	v = vcpu_make(VPMC_VENDOR_AMD, VPMC_POLICY_EXACT, 0, LATEST, &r);
	ck_assert_uint_eq(rdmsr_ok(v, 0, 0xc0000301), 0x3f);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Fix 16: FIXED_CTR_CTRL 0xb00 -> 0. 6.8+: counter 2's nibble changed: reprogram, paused.
 * Before: the old value was read through a u8, so nibble 2 "was" 0 = new: no reprogram; the
 * perf event keeps counting.
 */
static void fix16(unsigned int host, bool paused)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_EXACT, 0, host, &r);
	struct vpmc_pmc *pmc = &vpmc__vcpu_pmu(v)->fixed_counters[2];

	wr(v, 0, 0x38d, 0xb00);
	wr(v, 0, 0x38f, 1ULL << 34);
	vpmc_vcpu_entry(v, 1);
	ck_assert(pmc->perf_event && pmc->perf_event->active);
	ck_assert(pmc->intr);
	wr(v, 2, 0x38d, 0);
	vpmc_vcpu_entry(v, 3);
	ck_assert(pmc->perf_event->active == !paused);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_REPROGRAM, 34), paused ? 2 : 1);
	vpmc_vcpu_free(v);
}

START_TEST(test_fix16_fixed_ctrl_full_width_compare)
{
	fix16(LATEST, true);
	fix16(VPMC_KERNEL(6, 7), false);
}
END_TEST

/*
 * Fix 9: emulated overflow appears in GLOBAL_STATUS only at the drain: a host read during the
 * exit (fastpath WRMSR(TSC_DEADLINE) retired) sees 0, the counter reads 0 already.
 */
START_TEST(test_fix09_status_at_drain)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	uint64_t val;

	gp0_running(v, SEL_INSN_PMI, M48);
	ck_assert_int_eq(vpmc_vcpu_wrmsr(v, 1, 0x6e0, 12345), 0); /* not a PMU MSR */
	retire(v, 1);
	ck_assert_int_eq(vpmc__vcpu_host_rdmsr(v, 2, 0x38e, &val), 0);
	ck_assert_uint_eq(val, 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	vpmc_vcpu_entry(v, 3);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Fix 2 (a6da0d77e98e / b35e5548b411, the mechanism whose cost is measured): GP0 enabled, 1000
 * CPUID exits under exact accounting: every drain pauses, re-arms and re-enables the same perf
 * event; one creation in total.
 */
START_TEST(test_fix02_resume_instead_of_recreate)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	struct vpmc_vcpu_stats st;
	int i;

	gp0_running(v, SEL_INSN, 0);
	for (i = 0; i < 1000; i++) {
		retire(v, 10 + i);
		vpmc_vcpu_entry(v, 10 + i);
	}
	vpmc_vcpu_stats(v, &st);
	ck_assert_uint_eq(st.drains, 1001);
	ck_assert_uint_eq(st.perf_creates, 1);
	ck_assert_uint_eq(st.perf_resumes, 1000);
	ck_assert_uint_eq(st.perf_pauses, 1000);
	ck_assert_uint_eq(st.perf_releases, 0);
	ck_assert_uint_eq(st.increments, 1000);
	ck_assert_uint_eq(st.triggers, 1000);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 1000);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Fix 28, second scenario: a PEBS counter overflowing by emulation. Mediated: the increment
 * sets the counter's status bit (no PEBS special case) and, with INT, requests a PMI.
 * Perf-backed: nothing (trap 5).
 */
START_TEST(test_fix28_mediated_pebs_emulated_overflow)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make_pebs(VPMC_VENDOR_INTEL, VPMC_POLICY_MEDIATED, 0, LATEST, true,
					     &r);

	wr(v, 0, 0x3f1, 1);
	gp0_running(v, SEL_INSN_PMI, M48);
	retire(v, 1);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	vpmc_vcpu_entry(v, 2);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	vpmc_vcpu_free(v);
}
END_TEST

/* ---- the event filter (fixes 10, 11, 25) ---- */

static int set_filter(struct vpmc_vcpu *v, uint32_t action, const uint64_t *ev, uint32_t n)
{
	return kvm_vm_ioctl_set_pmu_event_filter(vpmc__vcpu_pmu(v), action, 0, 0, ev, n);
}

/*
 * Fix 10: GP0 running; the VMM installs a deny filter {INSN}: every counter marked for
 * reprogram, KVM_REQ_PMU. CPUID x3 (each refused at trigger time), NATIVE(10) after the drain
 * paused GP0: the value stays frozen.
 */
START_TEST(test_fix10_filter_change_reprograms_all)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	static const uint64_t deny[] = { INSN };
	int i;

	gp0_running(v, SEL_INSN, 0);
	vpmc_vcpu_guest(v, 10, 7, 0, 0);
	ck_assert_int_eq(set_filter(v, KVM_PMU_EVENT_DENY, deny, 1), 0);
	ck_assert_uint_eq(vpmc__vcpu_pmu(v)->reprogram_pmi, ~0ULL);
	for (i = 0; i < 3; i++) {
		retire(v, 20 + i);
		vpmc_vcpu_entry(v, 20 + i);
	}
	vpmc_vcpu_guest(v, 30, 10, 0, 0);
	ck_assert_uint_eq(rdpmc_ok(v, 31, 0), 7);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_REPROGRAM, 1)->value, VPMC_REPROGRAM_PAUSED);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Fix 11 (pmu_event_filter_test deny list): GP0 = EN|OS|BR, GP1 = EN|OS|INSN, GLOBAL_CTRL = 3,
 * deny {INSN, BR}: RDMSR both, NATIVE(42 x LOOP), RDMSR both: both deltas exactly 0 (the
 * intercepted RDMSRs are refused by pmc_is_event_allowed() at trigger time).
 */
START_TEST(test_fix11_filter_applies_to_emulated)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	static const uint64_t deny[] = { BR_INTEL, INSN };
	uint64_t b0, i0;

	ck_assert_int_eq(set_filter(v, KVM_PMU_EVENT_DENY, deny, 2), 0);
	wr(v, 0, 0x186, EN | OS | BR_INTEL);
	wr(v, 0, 0x187, SEL_INSN);
	wr(v, 0, 0x38f, 3);
	retire(v, 0);
	vpmc_vcpu_entry(v, 1);
	b0 = rdmsr_ok(v, 2, 0xc1);
	retire(v, 2);
	i0 = rdmsr_ok(v, 3, 0xc2);
	retire(v, 3);
	vpmc_vcpu_entry(v, 4);
	vpmc_vcpu_guest(v, 10, 42, 42, 0);
	ck_assert_uint_eq(rdmsr_ok(v, 11, 0xc1) - b0, 0);
	retire(v, 11);
	ck_assert_uint_eq(rdmsr_ok(v, 12, 0xc2) - i0, 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_TRIGGER, -2), 4);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_TRIGGER, 3)->value, 0);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Fix 25: the candidate bitmaps ignore the filter, so a filter that newly allows INSN counts
 * the very next CPUID (before any drain), and one that newly denies it stops it at once.
 */
START_TEST(test_fix25_filter_checked_at_trigger)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	static const uint64_t insn[] = { INSN };
	static const uint64_t other[] = { 0x3c };

	ck_assert_int_eq(set_filter(v, KVM_PMU_EVENT_DENY, insn, 1), 0);
	gp0_running(v, SEL_INSN, 0);
	retire(v, 1);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	ck_assert_int_eq(set_filter(v, KVM_PMU_EVENT_DENY, other, 1), 0);
	retire(v, 2);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 1);
	ck_assert_int_eq(set_filter(v, KVM_PMU_EVENT_ALLOW, other, 1), 0);
	retire(v, 3);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 1);
	ck_assert_int_eq(set_filter(v, KVM_PMU_EVENT_ALLOW, insn, 1), 0);
	retire(v, 4);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 2);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Masked entries (KVM_PMU_EVENT_FLAG_MASKED_EVENTS): include event 0xc0 with any umask
 * (mask 0, match 0), exclude umask bit 0 set (mask 1, match 1): 0x00c0 allowed, 0x01c0 denied,
 * 0x02c0 allowed; a non-listed event: action ALLOW -> denied.
 */
START_TEST(test_filter_masked_entries)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);
	const uint64_t ev[] = {
		KVM_PMU_ENCODE_MASKED_ENTRY(0xc0, 0x01, 0x01, 1),
		KVM_PMU_ENCODE_MASKED_ENTRY(0xc0, 0x00, 0x00, 0),
		KVM_PMU_ENCODE_MASKED_ENTRY(0xc4, 0xff, 0x00, 0),
		KVM_PMU_ENCODE_MASKED_ENTRY(0xc0, 0xff, 0x05, 0),
	};
	static const struct {
		uint64_t eventsel;
		bool allowed;
	} cases[] = { { 0x00c0, true }, { 0x01c0, false }, { 0x02c0, true },
		      { 0x00c4, true }, { 0x01c4, false }, { 0x003c, false } };
	size_t i;

	ck_assert_int_eq(kvm_vm_ioctl_set_pmu_event_filter(pmu, KVM_PMU_EVENT_ALLOW,
							    KVM_PMU_EVENT_FLAG_MASKED_EVENTS, 0,
							    ev, ARRAY_SIZE(ev)),
			 0);
	ck_assert_uint_eq(pmu->filter->nr_includes, 3);
	ck_assert_uint_eq(pmu->filter->nr_excludes, 1);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		pmu->gp_counters[0].eventsel = cases[i].eventsel;
		ck_assert_msg(pmc_is_event_allowed(&pmu->gp_counters[0]) == cases[i].allowed,
			      "eventsel %#llx", (unsigned long long)cases[i].eventsel);
	}
	vpmc_vcpu_free(v);
}
END_TEST

/* Fixed counters by the bitmap: ALLOW lists, DENY excludes. Unmasked impossible entries drop. */
START_TEST(test_filter_fixed_bitmap_and_validation)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);
	const uint64_t junk[] = { 1ULL << 40, INSN };
	uint64_t many[KVM_PMU_EVENT_FILTER_MAX_EVENTS + 1] = { 0 };

	ck_assert_int_eq(kvm_vm_ioctl_set_pmu_event_filter(pmu, KVM_PMU_EVENT_ALLOW, 0, 2, NULL, 0), 0);
	ck_assert(!pmc_is_event_allowed(&pmu->fixed_counters[0]));
	ck_assert(pmc_is_event_allowed(&pmu->fixed_counters[1]));
	ck_assert_int_eq(kvm_vm_ioctl_set_pmu_event_filter(pmu, KVM_PMU_EVENT_DENY, 0, 2, NULL, 0), 0);
	ck_assert(pmc_is_event_allowed(&pmu->fixed_counters[0]));
	ck_assert(!pmc_is_event_allowed(&pmu->fixed_counters[1]));

	ck_assert_int_eq(kvm_vm_ioctl_set_pmu_event_filter(pmu, 2, 0, 0, NULL, 0), -EINVAL);
	ck_assert_int_eq(kvm_vm_ioctl_set_pmu_event_filter(pmu, 0, 2, 0, NULL, 0), -EINVAL);
	ck_assert_int_eq(kvm_vm_ioctl_set_pmu_event_filter(pmu, 0, 0, 0, many, ARRAY_SIZE(many)),
			 -E2BIG);
	ck_assert_int_eq(kvm_vm_ioctl_set_pmu_event_filter(pmu, 0, KVM_PMU_EVENT_FLAG_MASKED_EVENTS,
							    0, junk, 2),
			 -EINVAL);
	ck_assert_int_eq(kvm_vm_ioctl_set_pmu_event_filter(pmu, 0, 0, 0, junk, 2), 0);
	ck_assert_uint_eq(pmu->filter->nevents, 1);
	vpmc_vcpu_free(v);
}
END_TEST

/* ---- the policy seam ---- */

/* tolerance=2: requests at the third pending event; reads exact throughout. */
START_TEST(test_tolerance_requests_past_threshold)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_TOLERANCE, 2, LATEST, &r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	gp0_running(v, SEL_INSN, 0);
	retire(v, 1);
	retire(v, 2);
	ck_assert_uint_eq(pmu->requests & KVM_REQ_PMU, 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 2);
	retire(v, 3);
	ck_assert(pmu->requests & KVM_REQ_PMU);
	vpmc_vcpu_entry(v, 4);
	ck_assert_uint_eq(pmu->gp_counters[0].emulated_counter, 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 3);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * tolerance-wrap=100: counter M-1: the first increment (M) is batched; the second wraps the
 * guest-visible value to 0 and requests: the entry finds the overflow.
 */
START_TEST(test_tolerance_wrap_requests_at_wrap)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_TOLERANCE_WRAP, 100, LATEST,
					&r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	gp0_running(v, SEL_INSN_PMI, M48 - 1);
	retire(v, 1);
	ck_assert_uint_eq(pmu->requests & KVM_REQ_PMU, 0);
	retire(v, 2);
	ck_assert(pmu->requests & KVM_REQ_PMU);
	vpmc_vcpu_entry(v, 3);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	vpmc_vcpu_free(v);
}
END_TEST

/* disabled=0x12: both hooks return before kvm_pmu_trigger_event(): no TRIGGER at all. */
START_TEST(test_disabled_skips_hooks)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_DISABLED, 0x12, LATEST, &r);
	struct vpmc_vcpu_stats st;

	wr(v, 0, 0x186, EN | OS | BR_INTEL);
	wr(v, 0, 0x187, SEL_INSN);
	vpmc_vcpu_entry(v, 1);
	vpmc_vcpu_retire(v, 2, true, VPMC_CPL_KEEP);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 1), 0);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_TRIGGER, -2), 0);
	vpmc_vcpu_stats(v, &st);
	ck_assert_uint_eq(st.triggers, 0);
	vpmc_vcpu_free(v);

	/* disabled=0x2: only instructions are skipped */
	v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_DISABLED, 0x2, LATEST, &r);
	wr(v, 0, 0x186, EN | OS | BR_INTEL);
	wr(v, 0, 0x187, SEL_INSN);
	vpmc_vcpu_retire(v, 2, true, VPMC_CPL_KEEP);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 1);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 1), 0);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Mediated: counter += 1, wrap -> status bit now, KVM_REQ_PMI by the *current* INT bit; reads
 * and writes are the counter itself; reprogram only refreshes eventsel_hw (filter applied).
 */
START_TEST(test_mediated_increment_and_reprogram)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_MEDIATED, 0, LATEST, &r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);
	static const uint64_t deny[] = { INSN };

	gp0_running(v, SEL_INSN, M48);
	ck_assert_ptr_null(pmu->gp_counters[0].perf_event);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_REPROGRAM, 0)->value, VPMC_REPROGRAM_MEDIATED);
	ck_assert_uint_eq(pmu->gp_counters[0].eventsel_hw & EN, EN);
	retire(v, 1);
	ck_assert_uint_eq(pmu->gp_counters[0].counter, 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	ck_assert(rec_nth(&r, VPMC_OBS_OVERFLOW, 0)->emulated);
	ck_assert_uint_eq(pmu->requests, 0); /* INT clear: no PMI, no KVM_REQ_PMU */
	ck_assert_int_eq(set_filter(v, KVM_PMU_EVENT_DENY, deny, 1), 0);
	vpmc_vcpu_entry(v, 2);
	ck_assert_uint_eq(pmu->gp_counters[0].eventsel_hw & EN, 0);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Mediated, fixed counter 0 and GP1 counting retired instructions: +1 each without a wrap;
 * fixed 0 at M with its PMI bit wraps at the retire: status bit 32 and KVM_REQ_PMI from the
 * current FIXED_CTR_CTRL (pmc_is_pmi_enabled()); the entry delivers it.
 */
START_TEST(test_mediated_fixed_counter_pmi)
{
	struct rec r;
	struct vpmc_vcpu *v = vcpu_make(VPMC_VENDOR_INTEL, VPMC_POLICY_MEDIATED, 0, LATEST, &r);

	wr(v, 0, 0x309, M48 - 1);
	wr(v, 0, 0x38d, 0x9); /* OS | PMI */
	wr(v, 0, 0x187, SEL_INSN);
	wr(v, 0, 0x38f, 0x100000002ULL);
	vpmc_vcpu_entry(v, 1);
	retire(v, 2);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 32), M48);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 1), 1);
	ck_assert_uint_eq(vpmc__vcpu_pmu(v)->requests, 0);
	retire(v, 3);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1ULL << 32);
	ck_assert_uint_eq(vpmc__vcpu_pmu(v)->requests, KVM_REQ_PMI);
	vpmc_vcpu_entry(v, 4);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_PMI, -2), 1);
	vpmc_vcpu_free(v);
}
END_TEST

/* Candidates that are all globally disabled: kvm_pmu_trigger_event() returns at the gate. */
START_TEST(test_trigger_gate_returns_early)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	struct vpmc_vcpu_stats st;

	wr(v, 0, 0x186, SEL_INSN);
	wr(v, 0, 0x38f, 0x2);
	retire(v, 1);
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_TRIGGER, -2), 0);
	vpmc_vcpu_stats(v, &st);
	ck_assert_uint_eq(st.triggers, 0);
	ck_assert_uint_eq(st.increments, 0);
	vpmc_vcpu_free(v);
}
END_TEST

/* ---- reprogram: resume vs re-create, period drift, cleanup ---- */

/* Unchanged config resumes (pause, period, enable); a new eventsel re-creates; a refused
 * period re-creates. */
START_TEST(test_reprogram_resume_or_create)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);
	struct vpmc_vcpu_stats st;

	gp0_running(v, SEL_INSN, 0);
	retire(v, 1);
	vpmc_vcpu_entry(v, 2);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_REPROGRAM, 1)->value, VPMC_REPROGRAM_RESUMED);
	wr(v, 3, 0x186, SEL_INSN | USR);
	vpmc_vcpu_entry(v, 4);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_REPROGRAM, 2)->value, VPMC_REPROGRAM_CREATED);
	pmu->gp_counters[0].perf.inject.refuse_period = true;
	retire(v, 5);
	vpmc_vcpu_entry(v, 6);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_REPROGRAM, 3)->value, VPMC_REPROGRAM_CREATED);
	ck_assert_uint_eq(rec_nth(&r, VPMC_OBS_DRAIN, 3)->nr_created, 1);
	vpmc_vcpu_stats(v, &st);
	ck_assert_uint_eq(st.perf_creates, 3);
	ck_assert_uint_eq(st.perf_releases, 2);
	ck_assert_uint_eq(st.perf_resumes, 1);
	ck_assert_uint_eq(st.reprograms, 4);
	ck_assert_uint_eq(st.drains, 4);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 2);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * §2.9 drift: GP0 created at 0 (period 2^48), 10 native events, then WRMSR PMC0 = M-4 without
 * a reprogram: counter = (2^48-5) - 10 = 2^48-15, period re-armed to 15 *from now*.
 * Architecturally the wrap is 5 events away; the perf overflow comes after 15: 14 events later
 * the counter reads 2^48-5+14 = 9 with no status bit; the 15th sets it.
 */
START_TEST(test_write_period_drift)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);

	gp0_running(v, SEL_INSN_PMI, 0);
	vpmc_vcpu_guest(v, 10, 10, 0, 0);
	wr(v, 11, 0x4c1, M48 - 4);
	ck_assert_uint_eq(vpmc__vcpu_pmu(v)->gp_counters[0].perf_event->armed, 15);
	vpmc_vcpu_entry(v, 12);
	vpmc_vcpu_guest(v, 25, 14, 0, 0);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 0), 9);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 0);
	vpmc_vcpu_guest(v, 26, 1, 0, 0);
	ck_assert_uint_eq(vpmc_vcpu_global_status(v), 1);
	vpmc_vcpu_free(v);
}
END_TEST

/*
 * Lazy release: sched_in with perf events sets need_cleanup + KVM_REQ_PMU; the drain stops the
 * event of a counter neither in use nor locally enabled (folding its count), keeps the others.
 */
START_TEST(test_cleanup_releases_unused)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	wr(v, 0, 0x186, SEL_INSN);
	wr(v, 0, 0x187, SEL_INSN);
	vpmc_vcpu_entry(v, 1);
	vpmc_vcpu_guest(v, 2, 5, 0, 0);
	wr(v, 3, 0x187, 0); /* GP1 disabled (and in use this slice) */
	vpmc_vcpu_entry(v, 4);
	vpmc_vcpu_sched_out(v, 5);
	vpmc_vcpu_sched_in(v, 6);
	ck_assert(pmu->need_cleanup);
	vpmc_vcpu_entry(v, 7); /* GP1 was in use: kept; in-use cleared */
	ck_assert_ptr_nonnull(pmu->gp_counters[1].perf_event);
	ck_assert_uint_eq(pmu->pmc_in_use, 0);
	vpmc_vcpu_sched_in(v, 8);
	vpmc_vcpu_entry(v, 9);
	ck_assert_ptr_null(pmu->gp_counters[1].perf_event);
	ck_assert_ptr_nonnull(pmu->gp_counters[0].perf_event);
	ck_assert_uint_eq(vpmc_vcpu_counter(v, 1), 5);
	ck_assert_uint_eq(pmu->event_count, 1);
	vpmc_vcpu_free(v);

	/* no perf events: sched_in requests nothing */
	v = intel(&r);
	vpmc_vcpu_sched_in(v, 1);
	ck_assert_uint_eq(vpmc__vcpu_pmu(v)->requests, 0);
	vpmc_vcpu_free(v);
}
END_TEST

/* kvm_pmu_reset(): counters, eventsels, controls and status back to 0, perf events released;
 * fixed counters keep their synthetic eventsel. */
START_TEST(test_reset_values)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);

	gp0_running(v, SEL_INSN_PMI, 5);
	wr(v, 1, 0x38d, 0x3);
	retire(v, 1);
	kvm_pmu_reset(pmu);
	ck_assert_uint_eq(pmu->gp_counters[0].eventsel, 0);
	ck_assert_uint_eq(pmu->gp_counters[0].counter, 0);
	ck_assert_uint_eq(pmu->gp_counters[0].emulated_counter, 0);
	ck_assert_ptr_null(pmu->gp_counters[0].perf_event);
	ck_assert_uint_eq(pmu->fixed_counters[0].eventsel, 0xc0);
	ck_assert_uint_eq(pmu->global_ctrl | pmu->global_status | pmu->fixed_ctr_ctrl, 0);
	ck_assert_uint_eq(pmu->reprogram_pmi, 0);
	ck_assert_uint_eq(pmu->event_count, 0);
	vpmc_vcpu_free(v);
}
END_TEST

/* Helpers of pmu.c that the driver does not reach on every path. */
START_TEST(test_small_helpers)
{
	struct rec r;
	struct vpmc_vcpu *v = intel(&r);
	struct vpmc_pmu *pmu = vpmc__vcpu_pmu(v);
	struct vpmc_pmc *pmc = &pmu->gp_counters[0];

	ck_assert_uint_eq(get_sample_period(pmc, 0), 1ULL << 48);
	ck_assert_uint_eq(get_sample_period(pmc, M48), 1);
	ck_assert_uint_eq(get_sample_period(pmc, 100), (1ULL << 48) - 100);
	ck_assert_ptr_null(kvm_pmc_idx_to_pmc(pmu, -1));
	ck_assert_ptr_null(kvm_pmc_idx_to_pmc(pmu, 64));
	ck_assert_ptr_null(kvm_pmc_idx_to_pmc(pmu, 4));
	ck_assert_ptr_null(kvm_pmc_idx_to_pmc(pmu, 35));
	ck_assert_ptr_eq(kvm_pmc_idx_to_pmc(pmu, 34), &pmu->fixed_counters[2]);
	pmu->all_valid_pmc_idx |= 1ULL << 40; /* an index KVM never creates: still no counter */
	ck_assert_ptr_null(kvm_pmc_idx_to_pmc(pmu, 40));
	pmu->all_valid_pmc_idx &= ~(1ULL << 40);
	ck_assert_ptr_null(get_fixed_pmc(pmu, 0x30c));
	ck_assert_int_eq(reprogram_counter(pmc), 0); /* disabled: paused */
	kvm_pmu_request_counters_reprogram(pmu, 0);
	ck_assert_uint_eq(pmu->requests, 0);
	kvm_pmu_trigger_event(pmu, &(uint64_t){ 0 });
	ck_assert_uint_eq(rec_count(&r, VPMC_OBS_TRIGGER, -2), 0);
	pmu->gp_counters[7].perf.inject.skid_pending = true; /* no counter 7: nothing to deliver */
	vpmc__pmu_deliver_skid(pmu);
	ck_assert(!pmu->gp_counters[7].perf.inject.skid_pending);
	vpmc_vcpu_free(v);
}
END_TEST

static Suite *pmu_suite(void)
{
	Suite *s = suite_create("pmu");
	TCase *tc = tcase_create("traps");

	tcase_add_test(tc, test_trap01_counter_is_not_guest_value);
	tcase_add_test(tc, test_trap02_prev_after_hardware_fold);
	tcase_add_test(tc, test_trap03_emulated_overflow_waits_for_drain);
	tcase_add_test(tc, test_trap04_disabled_counter_drops_overflow);
	tcase_add_test(tc, test_trap04_enabling_overflow_uses_previous_intr);
	tcase_add_test(tc, test_trap04_stale_intr_raises_pmi);
	tcase_add_test(tc, test_trap05_pebs_emulated_overflow_invisible);
	tcase_add_test(tc, test_pebs_hardware_overflow_sets_buffer_ovf);
	tcase_add_loop_test(tc, test_trap06_cpl_check, 0, ARRAY_SIZE(cpl_cases));
	tcase_add_test(tc, test_trap07_event_match);
	tcase_add_test(tc, test_trap07_amd_high_event_bits);
	tcase_add_test(tc, test_trap08_v1_globally_enabled);
	tcase_add_test(tc, test_trap09_wrmsr_rdmsr_retirement_order);
	tcase_add_test(tc, test_trap10_counter_write_widths);
	tcase_add_test(tc, test_trap11_status_sticky_one_pmi);
	tcase_add_test(tc, test_trap12_lvtpc_auto_mask);
	tcase_add_test(tc, test_trap12_masked_lvtpc_drops);
	tcase_add_loop_test(tc, test_lvtpc_delivery_modes, 0, ARRAY_SIZE(lvtpc_modes));
	tcase_add_test(tc, test_trap13_hardware_overflow_dropped_while_bit_set);
	tcase_add_test(tc, test_trap13_tolerance_keeps_hardware_overflow);
	tcase_add_test(tc, test_trap14_failed_create_requeued_silently);
	tcase_add_test(tc, test_trap15_pmu_then_pmi);
	tcase_add_test(tc, test_trap16_enter_leave_as_told);
	suite_add_tcase(s, tc);

	tc = tcase_create("legacy");
	tcase_add_test(tc, test_fix15a_before_double_overflow);
	tcase_add_test(tc, test_one_pmi_per_exit);
	tcase_add_test(tc, test_one_pmi_per_exit_before_6_6);
	tcase_add_test(tc, test_pmi_from_guest_before_6_6);
	tcase_add_test(tc, test_fix15b_lost_overflow);
	tcase_add_test(tc, test_legacy_prev_counter_single_wrap);
	tcase_add_test(tc, test_fix21_snapshot_race);
	tcase_add_test(tc, test_legacy_drain_bits);
	tcase_add_test(tc, test_global_ctrl_at_reset);
	tcase_add_test(tc, test_fix16_fixed_ctrl_full_width_compare);
	tcase_add_test(tc, test_fix09_status_at_drain);
	tcase_add_test(tc, test_fix02_resume_instead_of_recreate);
	tcase_add_test(tc, test_fix28_mediated_pebs_emulated_overflow);
	suite_add_tcase(s, tc);

	tc = tcase_create("filter");
	tcase_add_test(tc, test_fix10_filter_change_reprograms_all);
	tcase_add_test(tc, test_fix11_filter_applies_to_emulated);
	tcase_add_test(tc, test_fix25_filter_checked_at_trigger);
	tcase_add_test(tc, test_filter_masked_entries);
	tcase_add_test(tc, test_filter_fixed_bitmap_and_validation);
	suite_add_tcase(s, tc);

	tc = tcase_create("policies");
	tcase_add_test(tc, test_tolerance_requests_past_threshold);
	tcase_add_test(tc, test_tolerance_wrap_requests_at_wrap);
	tcase_add_test(tc, test_disabled_skips_hooks);
	tcase_add_test(tc, test_mediated_increment_and_reprogram);
	tcase_add_test(tc, test_mediated_fixed_counter_pmi);
	tcase_add_test(tc, test_trigger_gate_returns_early);
	suite_add_tcase(s, tc);

	tc = tcase_create("reprogram");
	tcase_add_test(tc, test_reprogram_resume_or_create);
	tcase_add_test(tc, test_write_period_drift);
	tcase_add_test(tc, test_cleanup_releases_unused);
	tcase_add_test(tc, test_reset_values);
	tcase_add_test(tc, test_small_helpers);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(pmu_suite)
