// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_property.c - Properties over long random traces (fixed seed, xorshift64*), Intel and AMD:
 *
 *  1. tolerance=0 is exact (kvm-vpmu-semantics.md Appendix A.3: "T = 0 is exactly exact"): the
 *     two produce the same observation stream, every field, in order.
 *     So do tolerance-wrap=0 and disabled=0 (a mask that disables nothing).
 *  2. reference and exact agree on every counter value the guest reads (RDPMC, RDMSR of a
 *     counter or of any control MSR), and on every #GP, because pmc_read_counter() is exact at
 *     any time (§2.9) and the perf events are reprogrammed at the entry before the guest runs.
 *     They may differ only in when overflows are detected and PMIs delivered, so reads of
 *     GLOBAL_STATUS are not compared. The same holds for tolerance(-wrap)=1000 (reads stay
 *     exact, Appendix A.3) and mediated (counter is the guest value, §4.2).
 *
 * The generator follows the shape of a real trace: guest segments run only after a VM-entry;
 * an exit does one thing (an intercepted MSR access or RDPMC, a CPUID-like or emulated
 * instruction, several emulated instructions, an LVTPC write, nothing) and a #GP'd access does
 * not retire.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "check_common.h"
#include "harness.h"

#define NR_EVENTS 100000

/* Check's ck_assert_*() records its location on every call (a write per assertion), far too
 * slow for millions of checks: test first, fail through ck_abort_msg(). */
#define REQUIRE(cond, ...)                          \
	do {                                        \
		if (!(cond))                        \
			ck_abort_msg(__VA_ARGS__);  \
	} while (0)
#define SEED 0x5EED0F4B1D5C0DEULL

/*
 * The models run side by side. The first group must reproduce exact's observations exactly:
 * T = 0 requests at every increment, and a disabled mask of 0 disables nothing. The second
 * group batches, drops nothing, or counts directly, so only the guest's reads must agree with
 * the reference counter.
 */
enum {
	V_EXACT, V_TOL0, V_TWRAP0, V_DIS0, /* identical streams */
	V_REF, V_TOL1000, V_TWRAP1000, V_MED, /* identical reads */
	NR_V
};
#define FIRST_SAME_READS V_REF

static const struct vpmc_policy policies[NR_V] = {
	[V_EXACT] = { VPMC_POLICY_EXACT, 0 },
	[V_TOL0] = { VPMC_POLICY_TOLERANCE, 0 },
	[V_TWRAP0] = { VPMC_POLICY_TOLERANCE_WRAP, 0 },
	[V_DIS0] = { VPMC_POLICY_DISABLED, 0 },
	[V_REF] = { VPMC_POLICY_REFERENCE, 0 },
	[V_TOL1000] = { VPMC_POLICY_TOLERANCE, 1000 },
	[V_TWRAP1000] = { VPMC_POLICY_TOLERANCE_WRAP, 1000 },
	[V_MED] = { VPMC_POLICY_MEDIATED, 0 },
};

static const char *const policy_names[NR_V] = {
	"exact", "tolerance=0", "tolerance-wrap=0", "disabled=0",
	"reference", "tolerance=1000", "tolerance-wrap=1000", "mediated",
};

struct run {
	const struct mh_vendor *vd;
	struct mh m[NR_V];
	uint64_t s;       /* PRNG state */
	uint64_t t;       /* trace time, ns */
	unsigned long nr; /* events sent */
	unsigned int nr_gp, nr_fixed;
	unsigned long reads, overflows[NR_V], pmis[NR_V];
};

static uint64_t rnd(struct run *r, uint64_t n)
{
	return n ? mh_rand(&r->s) % n : 0;
}

static bool chance(struct run *r, unsigned int percent)
{
	return rnd(r, 100) < percent;
}

static bool is_global_status(const struct run *r, uint32_t msr)
{
	return msr == r->vd->global_status;
}

/* Feed @ev to every model, then check the properties on what it produced. */
static int send(struct run *r, struct vpmc_event *ev)
{
	const struct vpmc_obs *rd[NR_V] = { NULL };
	char a[256], b[256];
	size_t i, j;
	int k;

	r->t += rnd(r, 4) ? rnd(r, 200) : 0;
	ev->time_ns = r->t;
	for (k = 0; k < NR_V; k++)
		REQUIRE(vpmc_vcpu_event(r->m[k].v, ev) == 0, "%s event %lu: rejected", r->vd->name,
			r->nr);
	r->nr++;

	/* 1: the same observations, in the same order. */
	for (k = V_EXACT + 1; k < FIRST_SAME_READS; k++) {
		for (i = 0; i < r->m[V_EXACT].nr_obs && i < r->m[k].nr_obs; i++) {
			if (mh_obs_equal(&r->m[V_EXACT].obs[i], &r->m[k].obs[i]))
				continue;
			mh_obs_format(&r->m[V_EXACT].obs[i], a, sizeof(a));
			mh_obs_format(&r->m[k].obs[i], b, sizeof(b));
			ck_abort_msg("%s event %lu (type %s): observation %zu differs: exact %s %s %s",
				     r->vd->name, r->nr, vpmc_event_type_name(ev->type), i, a,
				     policy_names[k], b);
		}
		REQUIRE(r->m[V_EXACT].nr_obs == r->m[k].nr_obs,
			"%s event %lu: exact made %zu observations, %s %zu", r->vd->name, r->nr,
			r->m[V_EXACT].nr_obs, policy_names[k], r->m[k].nr_obs);
	}

	/* 2: reads and #GPs agree with the reference counter. */
	for (k = 0; k < NR_V; k++) {
		for (j = 0; j < r->m[k].nr_obs; j++) {
			const struct vpmc_obs *o = &r->m[k].obs[j];

			r->overflows[k] += o->kind == VPMC_OBS_OVERFLOW;
			r->pmis[k] += o->kind == VPMC_OBS_PMI && o->delivered;
			if (o->kind == VPMC_OBS_READ || o->kind == VPMC_OBS_WRITE) {
				REQUIRE(!rd[k], "%s event %lu: two accesses observed",
					r->vd->name, r->nr);
				rd[k] = o;
			}
		}
	}
	for (k = 0; k < NR_V; k++) {
		if (k == V_REF || (k > V_EXACT && k < FIRST_SAME_READS))
			continue;
		if (!rd[k] && !rd[V_REF])
			continue;
		REQUIRE(rd[k] && rd[V_REF], "%s event %lu: access observed by %s or reference only",
			r->vd->name, r->nr, policy_names[k]);
		mh_obs_format(rd[k], a, sizeof(a));
		mh_obs_format(rd[V_REF], b, sizeof(b));
		REQUIRE(rd[k]->gp == rd[V_REF]->gp, "%s event %lu: #GP differs: %s %s reference %s",
			r->vd->name, r->nr, policy_names[k], a, b);
		if (rd[k]->kind == VPMC_OBS_READ && !is_global_status(r, ev->index)) {
			REQUIRE(rd[k]->value == rd[V_REF]->value, "%s event %lu: read differs: %s %s "
				"reference %s", r->vd->name, r->nr, policy_names[k], a, b);
			r->reads += k == V_EXACT;
		}
	}
	for (k = 0; k < NR_V; k++)
		r->m[k].nr_obs = 0;
	return rd[V_EXACT] && rd[V_EXACT]->gp ? VPMC_GP : 0;
}

/* The host-side view of every counter agrees too (pmc_read_counter() is exact). */
static void check_counters(struct run *r)
{
	unsigned int i;

	for (i = 0; i < 64; i++) {
		uint64_t e = vpmc_vcpu_counter(r->m[V_EXACT].v, i);
		uint64_t f = vpmc_vcpu_counter(r->m[V_REF].v, i);

		REQUIRE(e == f, "%s event %lu: counter %u exact %#llx reference %#llx",
			      r->vd->name, r->nr, i, (unsigned long long)e, (unsigned long long)f);
	}
}

static void send_simple(struct run *r, enum vpmc_event_type type)
{
	struct vpmc_event ev = { .type = type, .cpl = VPMC_CPL_KEEP };

	send(r, &ev);
}

static void retire(struct run *r, bool branch)
{
	struct vpmc_event ev = { .type = VPMC_EV_RETIRE, .cpl = VPMC_CPL_KEEP, .branch = branch };

	send(r, &ev);
}

static uint8_t random_cpl(struct run *r)
{
	return chance(r, 50) ? VPMC_CPL_KEEP : (chance(r, 50) ? 0 : 3);
}

static void guest(struct run *r)
{
	struct vpmc_event ev = { .type = VPMC_EV_GUEST, .cpl = random_cpl(r) };
	unsigned int size = rnd(r, 10);

	ev.insn = size < 6 ? rnd(r, 21) : size < 9 ? rnd(r, 501) : rnd(r, 100001);
	ev.br = rnd(r, ev.insn + 1) / (1 + rnd(r, 4));
	send(r, &ev);
}

/* Counter values worth writing: near the wrap most of the time, so overflows are frequent. */
static uint64_t counter_value(struct run *r)
{
	switch (rnd(r, 8)) {
	case 0:
	case 1:
	case 2:
	case 6:
	case 7:
		return MH_W48 - rnd(r, 40);
	case 3:
		return rnd(r, 100);
	case 4:
		return mh_rand(&r->s) & MH_W48;
	default:
		return mh_rand(&r->s); /* #GP on full-width Intel MSRs, truncated elsewhere */
	}
}

static uint64_t eventsel_value(struct run *r)
{
	static const uint64_t intel_ev[] = { 0xC0, 0xC4, 0x01C0, 0x20C4, 0x3C, 0xC5 };
	static const uint64_t amd_ev[] = { 0xC0, 0xC2, 0x1000000C0ULL, 0x76, 0xC3, 0xC4 };
	bool amd = r->vd->vendor == VPMC_VENDOR_AMD;
	uint64_t v;

	if (chance(r, 3))
		return mh_rand(&r->s); /* reserved bits: #GP on Intel, dropped on AMD */
	if (chance(r, 10))
		return 0;
	/* Mostly the two events KVM emulates, so that emulated counts and overflows abound. */
	v = (amd ? amd_ev : intel_ev)[chance(r, 70) ? rnd(r, 2) : rnd(r, 6)];
	v |= chance(r, 90) ? EVTSEL_EN : 0;
	v |= chance(r, 70) ? EVTSEL_OS : 0;
	v |= chance(r, 50) ? EVTSEL_USR : 0;
	v |= chance(r, 60) ? EVTSEL_INT : 0;
	return v;
}

static uint64_t nibbles(struct run *r)
{
	static const uint64_t n[] = { 0, 1, 2, 3, 9, 0xA, 0xB, 0x8 };
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < 3; i++)
		v |= n[rnd(r, ARRAY_SIZE(n))] << (4 * i);
	if (chance(r, 3))
		v |= 1ULL << rnd(r, 64); /* AnyThread or beyond: #GP */
	return v;
}

static uint64_t counter_mask(struct run *r)
{
	uint64_t v = chance(r, 50) ? (1ULL << r->nr_gp) - 1 : rnd(r, 1ULL << r->nr_gp);

	if (r->nr_fixed)
		v |= (chance(r, 50) ? (1ULL << r->nr_fixed) - 1 : rnd(r, 1ULL << r->nr_fixed))
		     << FIXED_IDX;
	if (chance(r, 3))
		v |= 1ULL << rnd(r, 64);
	return v;
}

/* An MSR of the PMU (or just outside it) and a value to write to it. */
static uint32_t pick_msr(struct run *r, uint64_t *val)
{
	unsigned int i = rnd(r, r->nr_gp + 1); /* sometimes one past the last counter */

	if (r->vd->vendor == VPMC_VENDOR_AMD) {
		switch (rnd(r, 9)) {
		case 0:
			*val = eventsel_value(r);
			return MSR_F15H_PERF_CTL0 + 2 * i;
		case 1:
			*val = counter_value(r);
			return MSR_F15H_PERF_CTR0 + 2 * i;
		case 2:
			*val = eventsel_value(r);
			return MSR_K7_EVNTSEL0 + i % 4;
		case 3:
			*val = counter_value(r);
			return MSR_K7_PERFCTR0 + i % 4;
		case 4:
			*val = counter_mask(r);
			return MSR_AMD64_PERF_CNTR_GLOBAL_CTL;
		case 5:
			*val = counter_mask(r);
			return MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR;
		case 6:
			*val = counter_mask(r);
			return MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET;
		case 7:
			*val = counter_mask(r);
			return MSR_AMD64_PERF_CNTR_GLOBAL_STATUS;
		default:
			*val = eventsel_value(r);
			return MSR_F15H_PERF_CTL0 + 2 * i;
		}
	}
	switch (rnd(r, 11)) {
	case 0:
	case 1:
		*val = eventsel_value(r);
		return MSR_P6_EVNTSEL0 + i;
	case 2:
		*val = counter_value(r);
		return MSR_IA32_PMC0 + i;
	case 3:
		*val = counter_value(r);
		return MSR_IA32_PERFCTR0 + i;
	case 4:
		*val = counter_value(r);
		return MSR_CORE_PERF_FIXED_CTR0 + rnd(r, r->nr_fixed + 1);
	case 5:
		*val = nibbles(r);
		return MSR_CORE_PERF_FIXED_CTR_CTRL;
	case 6:
	case 7:
		*val = counter_mask(r);
		return MSR_CORE_PERF_GLOBAL_CTRL;
	case 8:
		*val = counter_mask(r);
		return MSR_CORE_PERF_GLOBAL_OVF_CTRL;
	case 9:
		*val = rnd(r, 1ULL << r->nr_gp);
		return MSR_IA32_PEBS_ENABLE;
	default:
		*val = counter_mask(r);
		return MSR_CORE_PERF_GLOBAL_STATUS; /* read-only: #GP */
	}
}

static void exit_wrmsr(struct run *r)
{
	struct vpmc_event ev = { .type = VPMC_EV_WRMSR, .cpl = VPMC_CPL_KEEP };

	ev.index = pick_msr(r, &ev.value);
	if (send(r, &ev) == 0)
		retire(r, false);
}

static void exit_rdmsr(struct run *r)
{
	struct vpmc_event ev = { .type = VPMC_EV_RDMSR, .cpl = VPMC_CPL_KEEP };
	uint64_t unused;

	ev.index = chance(r, 15) ? r->vd->global_status : pick_msr(r, &unused);
	if (send(r, &ev) == 0)
		retire(r, false);
}

static void exit_rdpmc(struct run *r)
{
	struct vpmc_event ev = { .type = VPMC_EV_RDPMC, .cpl = VPMC_CPL_KEEP };

	ev.index = rnd(r, r->nr_gp + 1);
	if (r->vd->vendor == VPMC_VENDOR_INTEL && chance(r, 30))
		ev.index = RDPMC_FIXED | rnd(r, r->nr_fixed + 1);
	if (chance(r, 2))
		ev.index |= 1U << 31; /* "fast" read: #GP since 6.9 */
	if (send(r, &ev) == 0)
		retire(r, false);
}

static void exit_lvtpc(struct run *r)
{
	static const uint32_t vals[] = { LVT_NMI, LVT_NMI | LVT_MASKED, 0x20, 0x20 | LVT_MASKED };
	struct vpmc_event ev = { .cpl = VPMC_CPL_KEEP };

	ev.value = vals[rnd(r, ARRAY_SIZE(vals))];
	if (chance(r, 50)) {
		ev.type = VPMC_EV_LVTPC; /* xAPIC MMIO: the emulator retires the MOV */
		send(r, &ev);
		retire(r, false);
	} else {
		ev.type = VPMC_EV_WRMSR;
		ev.index = MSR_X2APIC_LVTPC;
		if (send(r, &ev) == 0)
			retire(r, false);
	}
}

static void one_exit(struct run *r)
{
	struct vpmc_event ev = { .cpl = VPMC_CPL_KEEP };
	unsigned int what = rnd(r, 100), n;

	if (chance(r, 30)) {
		ev.type = VPMC_EV_EXIT;
		strcpy(ev.reason, "CPUID");
		send(r, &ev);
	}
	if (what < 22) {
		retire(r, false); /* CPUID, HLT, VMCALL, ... */
	} else if (what < 32) {
		retire(r, chance(r, 50)); /* FEP */
	} else if (what < 35) {
		for (n = 2 + rnd(r, 4); n; n--) /* invalid guest state: several in one exit */
			retire(r, chance(r, 30));
	} else if (what < 57) {
		exit_wrmsr(r);
	} else if (what < 69) {
		exit_rdmsr(r);
	} else if (what < 80) {
		exit_rdpmc(r);
	} else if (what < 85) {
		exit_lvtpc(r);
	} else if (what < 89) {
		ev.type = VPMC_EV_CPL;
		ev.cpl = chance(r, 50) ? 0 : 3;
		send(r, &ev);
	} else if (what < 92) {
		send_simple(r, VPMC_EV_SCHED_OUT);
		send_simple(r, VPMC_EV_SCHED_IN);
	} else if (what < 94) {
		ev.type = chance(r, 50) ? VPMC_EV_IRQ : VPMC_EV_EOI;
		ev.index = 0xEC;
		send(r, &ev);
	}
	/* else: an exit that retires nothing (external interrupt, EPT fix-up) */
}

static void run_init(struct run *r, const struct mh_vendor *vd)
{
	struct vpmc_pmu_config cfg;
	int k;

	memset(r, 0, sizeof(*r));
	r->vd = vd;
	r->s = SEED;
	vpmc_pmu_config_default(&cfg, vd->vendor);
	for (k = 0; k < NR_V; k++)
		mh_new(&r->m[k], &cfg, &policies[k]);
	r->nr_gp = vpmc_vcpu_config(r->m[V_EXACT].v)->nr_gp;
	r->nr_fixed = vpmc_vcpu_config(r->m[V_EXACT].v)->nr_fixed;
}

static void run_fini(struct run *r)
{
	int k;

	for (k = 0; k < NR_V; k++)
		mh_free(&r->m[k]);
}

static const struct mh_vendor *const vendors[] = { &mh_intel, &mh_amd };

START_TEST(test_random_trace_properties)
{
	struct run r;

	run_init(&r, vendors[_i]);
	send_simple(&r, VPMC_EV_ENTRY);
	while (r.nr < NR_EVENTS) {
		guest(&r);
		one_exit(&r);
		send_simple(&r, VPMC_EV_ENTRY);
		if (chance(&r, 3))
			send_simple(&r, VPMC_EV_ENTRY); /* an exit to userspace and back */
		check_counters(&r);
	}
	/* The trace must have exercised what the properties are about. */
	/* With SEED: Intel 5148 reads, 460 overflows, 95 PMIs; AMD 5165, 411, 130. */
	ck_assert_msg(r.reads > 4000, "%s: only %lu reads compared", r.vd->name, r.reads);
	ck_assert_msg(r.overflows[V_EXACT] > 300 && r.pmis[V_EXACT] > 50,
		      "%s: only %lu overflows, %lu PMIs", r.vd->name, r.overflows[V_EXACT],
		      r.pmis[V_EXACT]);
	ck_assert_msg(r.overflows[V_REF] > 300, "%s: only %lu reference overflows", r.vd->name,
		      r.overflows[V_REF]);
	run_fini(&r);
}
END_TEST

static Suite *property_suite(void)
{
	Suite *s = suite_create("property");
	TCase *tc = tcase_create("random");

	tcase_add_loop_test(tc, test_random_trace_properties, 0, ARRAY_SIZE(vendors));
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(property_suite)
