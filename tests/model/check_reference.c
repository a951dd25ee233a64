// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_reference.c - Pin test of the reference counter (VPMC_POLICY_REFERENCE), the yardstick
 * every policy is scored against (architecture.md §4.3).
 *
 * The reference shares the KVM twin's mediated path, so a change there could move it silently.
 * This test builds its own architectural counter from the manuals, with nothing from lib/:
 *   Intel SDM vol. 3 ch. 20 "Performance Monitoring": §20.2.1 (version 1: IA32_PERFEVTSELx with
 *   EN, OS, USR, INT; IA32_PMCx of CPUID.0AH width; legacy writes sign-extended from bit 31),
 *   §20.2.2 (version 2: fixed counters and IA32_FIXED_CTR_CTRL; IA32_PERF_GLOBAL_CTRL, _STATUS,
 *   _OVF_CTRL), §20.2.6 (full-width writes to IA32_A_PMCx);
 *   AMD APM vol. 2 ch. 13 §13.2 (PerfEvtSeln/PerfCtrn, 48 bits; the four legacy C001_000xh
 *   pairs; PerfMonV2: PerfCntrGlobalCtl, _Status, _StatusClr, _StatusSet);
 *   the SDM's LVT (APIC chapter): a PMI goes through LVTPC; a masked entry drops it.
 * A counter that wraps from all-ones to 0 sets its GLOBAL_STATUS bit, and raises a PMI at that
 * very instruction if its INT bit (fixed: the nibble's PMI bit) is set and LVTPC is unmasked.
 *
 * The oracle and a reference vCPU get the same seeded streams (Intel v1, v2 with fixed
 * counters, a narrow v2; AMD legacy and PerfMonV2). After each event the test compares the
 * outcome of every MSR access and RDPMC (#GP or not, the value read), every counter and
 * GLOBAL_STATUS, each overflow (counter, instruction) and each PMI (instruction, branch, time,
 * delivered, GLOBAL_STATUS). The first difference fails the test with the case, seed and event.
 *
 * What the streams assume, from vpmc.h rather than the manuals:
 *  - Two events exist: instructions retired (event 0xC0, unit mask 0; fixed counter 0) and
 *    branch instructions retired (Intel 0xC4, AMD 0xC2, unit mask 0), SDM table 20-1 and the
 *    APM's core events. A stream carries nothing else, so any other selector counts nothing
 *    (vpmc_vcpu_guest()).
 *  - A guest segment of insn instructions and br branches: instruction i completes at
 *    t_prev + i * (t - t_prev) / insn, and is a branch when floor(i * br / insn) grows there.
 *  - KVM-retired instructions (RETIRE) count one instruction (and one branch) at their time; an
 *    MSR access takes effect before its own retirement; RDPMC and RDMSR read before theirs.
 *  - LVTPC starts as NMI, unmasked (vpmc_vcpu_write_lvtpc(): a trace starts with a configured
 *    guest; the SDM's value at RESET is masked).
 * The streams make only architecturally valid accesses (WRMSR and RDMSR at CPL 0, no reserved
 * bits): what KVM does with invalid ones is KVM's business and the same for every policy.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_common.h"
#include "harness.h"

/* Check's ck_assert_*() writes its location per call: test first, fail through ck_abort_msg(). */
#define REQUIRE(cond, ...)                         \
	do {                                       \
		if (!(cond))                       \
			ck_abort_msg(__VA_ARGS__); \
	} while (0)

/* ---- architectural constants harness.h does not have ------------------------------------- */

/* The event of a GP counter: event select 7:0 and unit mask 15:8 (SDM §20.2.1.1); AMD adds
 * EventSelect[11:8] in bits 35:32 (APM §13.2.1). */
#define EVTSEL_EVENT_UMASK 0xFFFFULL
#define EVTSEL_EVENT_HI_AMD 0xF00000000ULL
/* IA32_FIXED_CTR_CTRL (SDM §20.2.2): one 4-bit field per fixed counter. */
#define FIXED_CTRL_OS 0x1ULL  /* count at CPL 0 */
#define FIXED_CTRL_USR 0x2ULL /* count at CPL > 0 */
#define FIXED_CTRL_PMI 0x8ULL /* PMI on overflow */
#define FIXED_CTRL_BITS 4
#define FIXED_CTRL_FIELD 0xFULL
/* LVT entries: vector 7:0, delivery mode 10:8, mask 16 are writable (delivery status is not). */
#define LVT_WRITABLE 0x107FFU
#define LVT_FIXED_VECTOR 0x20U /* delivery mode 000b (fixed), vector 0x20 */
/* AMD: PerfEvtSel0-3 at C001_0000h, PerfCtr0-3 at C001_0004h (APM §13.2.1). */
#define AMD_LEGACY_COUNTERS 4
#define AMD_WIDTH_MASK MH_W48

#define MAX_GP 8
#define MAX_FIXED 3
#define MAX_REC 512 /* overflows or PMIs of one event */

/* ---- what the test runs ------------------------------------------------------------------ */

/*
 * Host kernels. The latest row is the architecture; an older row lists where the reference,
 * riding on KVM's mediated path, still follows that host's KVM. The oracle models each such
 * difference explicitly (arch_reset(), arch_pmi(), arch_wrmsr()).
 */
static const struct host_row {
	const char *name;
	unsigned int host_kernel;
	/* GLOBAL_CTRL at RESET: the SDM and APM set the GP counters' bits; KVM left it 0 before
	 * de120e1d692d (6.9). */
	bool ctrl_zero_at_reset;
	/* LVTPC masked by each delivered PMI: the SDM's local APIC does it ("it automatically
	 * sets the mask flag in the LVT performance counter register"), AMD's does not. KVM: no
	 * guest before a16eb25b09c0 (6.6), every guest until 49ff3b4aec51 (6.9), then Intel. */
	bool automask_intel, automask_amd;
	/* AMD PerfCntrGlobalStatusSet (C000_0303h), part of PerfMonV2: KVM #GPs it before
	 * 68e61f6fd656 (6.18). */
	bool amd_status_set;
} hosts[] = {
	/* the architecture */
	{ "7.0", VPMC_KERNEL_LATEST, false, true, false, true },
	/* GLOBAL_CTRL 0 at RESET; AMD's LVTPC masked by a PMI too; STATUS_SET #GPs */
	{ "6.8", VPMC_KERNEL(6, 8), true, true, true, false },
	/* GLOBAL_CTRL 0 at RESET; no LVTPC masked by a PMI; STATUS_SET #GPs */
	{ "6.5", VPMC_KERNEL(6, 5), true, false, false, false },
};

/* Guest PMUs, as CPUID enumerates them (nothing here is capped by KVM: checked at setup). */
static const struct pmu_row {
	const char *name;
	enum vpmc_vendor vendor;
	unsigned int version, nr_gp, nr_fixed, gp_width, fixed_width;
	bool fw_writes;
} pmus[] = {
	{ "intel-v2", VPMC_VENDOR_INTEL, 2, 8, 3, 48, 48, true },
	/* narrow counters wrap several times inside one guest segment */
	{ "intel-v2-narrow", VPMC_VENDOR_INTEL, 2, 4, 3, 16, 12, false },
	{ "intel-v1", VPMC_VENDOR_INTEL, 1, 2, 0, 40, 0, false },
	{ "amd-v2", VPMC_VENDOR_AMD, 2, 6, 0, 48, 0, false },
	{ "amd-legacy", VPMC_VENDOR_AMD, 1, 4, 0, 48, 0, false },
};

/* Seeds per PMU: the latest host is the pin, the older rows check the differences. */
#define SEEDS_LATEST 64
#define SEEDS_OLD 16
#define ROUNDS 300 /* guest segment, one exit, entry */
#define SEED0 0x7EFE7E9CE0000001ULL

/* ---- the oracle: an architectural PMU ----------------------------------------------------- */

enum arch_event {
	AE_NONE,
	AE_INSTRUCTIONS,
	AE_BRANCHES,
};

struct arch {
	const struct host_row *host;
	bool amd;
	bool global;   /* GLOBAL_CTRL/STATUS exist: Intel v2+, AMD PerfMonV2 */
	bool ext_core; /* AMD PerfCtrExtCore: the C001_02xxh pairs */
	bool fw_writes;
	unsigned int nr_gp, nr_fixed;
	uint64_t gp_mask, fixed_mask;
	uint64_t evtsel[MAX_GP], gp[MAX_GP], fixed[MAX_FIXED];
	uint64_t fixed_ctrl, global_ctrl, global_status;
	uint32_t lvtpc;
	uint8_t cpl;
};

struct pmi_rec {
	uint64_t seg_insn, seg_br, time_ns, status;
	bool delivered;
};

struct ovf_rec {
	int counter;
	uint64_t seg_insn;
};

/* What one event did: the oracle's expectation or the reference's outcome. */
struct outcome {
	int rc;         /* MSR access or RDPMC: 0 or VPMC_GP */
	uint64_t value; /* what the guest read */
	unsigned int nr_pmi, nr_ovf;
	struct pmi_rec pmi[MAX_REC];
	struct ovf_rec ovf[MAX_REC];
};

static bool arch_exists(const struct arch *a, unsigned int idx)
{
	if (idx >= FIXED_IDX)
		return idx - FIXED_IDX < a->nr_fixed;
	return idx < a->nr_gp;
}

static uint64_t *arch_ctr(struct arch *a, unsigned int idx)
{
	return idx >= FIXED_IDX ? &a->fixed[idx - FIXED_IDX] : &a->gp[idx];
}

static uint64_t arch_mask(const struct arch *a, unsigned int idx)
{
	return idx >= FIXED_IDX ? a->fixed_mask : a->gp_mask;
}

static uint64_t arch_fixed_field(const struct arch *a, unsigned int idx)
{
	return (a->fixed_ctrl >> ((idx - FIXED_IDX) * FIXED_CTRL_BITS)) & FIXED_CTRL_FIELD;
}

/* Every counter's GLOBAL_CTRL / GLOBAL_STATUS bit (SDM §20.2.2; APM PerfMonV2). */
static uint64_t arch_all_counters(const struct arch *a)
{
	uint64_t fixed = ((1ULL << a->nr_fixed) - 1) << FIXED_IDX;

	return ((1ULL << a->nr_gp) - 1) | fixed;
}

/* RESET. The SDM's state after RESET: "IA32_PERF_GLOBAL_CTRL: Sets bits n-1:0 and clears the
 * upper bits" (n GP counters); AMD documents the same for PerfMonV2. */
static void arch_reset(struct arch *a, const struct host_row *host, const struct pmu_row *p)
{
	memset(a, 0, sizeof(*a));
	a->host = host;
	a->amd = p->vendor == VPMC_VENDOR_AMD;
	a->global = p->version >= 2;
	a->nr_gp = p->nr_gp;
	a->ext_core = a->amd && (p->version >= 2 || p->nr_gp > AMD_LEGACY_COUNTERS);
	a->fw_writes = p->fw_writes;
	a->nr_fixed = a->global ? p->nr_fixed : 0;
	a->gp_mask = a->amd ? AMD_WIDTH_MASK : (1ULL << p->gp_width) - 1;
	a->fixed_mask = a->nr_fixed ? (1ULL << p->fixed_width) - 1 : 0;
	if (a->global)
		a->global_ctrl = (1ULL << a->nr_gp) - 1;
	/* Old KVM: the host row's difference. */
	if (host->ctrl_zero_at_reset)
		a->global_ctrl = 0;
	a->lvtpc = LVT_NMI;
}

/* The event counter @idx counts now, at the current CPL (SDM §20.2.1.1, §20.2.2). */
static enum arch_event arch_counts(const struct arch *a, unsigned int idx)
{
	uint64_t ev, sel;
	bool os, usr;

	if (a->global && !(a->global_ctrl & (1ULL << idx)))
		return AE_NONE;
	if (idx >= FIXED_IDX) {
		uint64_t f = arch_fixed_field(a, idx);

		os = f & FIXED_CTRL_OS;
		usr = f & FIXED_CTRL_USR;
		if (!(a->cpl == 0 ? os : usr))
			return AE_NONE;
		/* fixed 0: INST_RETIRED.ANY; 1 and 2 count cycles, which no stream has */
		return idx == FIXED_IDX ? AE_INSTRUCTIONS : AE_NONE;
	}
	sel = a->evtsel[idx];
	if (!(sel & EVTSEL_EN))
		return AE_NONE;
	os = sel & EVTSEL_OS;
	usr = sel & EVTSEL_USR;
	if (!(a->cpl == 0 ? os : usr))
		return AE_NONE;
	ev = sel & (EVTSEL_EVENT_UMASK | (a->amd ? EVTSEL_EVENT_HI_AMD : 0));
	if (ev == EV_INSN)
		return AE_INSTRUCTIONS;
	if (ev == (a->amd ? EV_BR_AMD : EV_BR_INTEL))
		return AE_BRANCHES;
	return AE_NONE;
}

/* INT (GP) or the fixed field's PMI bit, as it is at the overflow. */
static bool arch_int(const struct arch *a, unsigned int idx)
{
	if (idx >= FIXED_IDX)
		return arch_fixed_field(a, idx) & FIXED_CTRL_PMI;
	return a->evtsel[idx] & EVTSEL_INT;
}

/* Events until counter @idx wraps from all-ones to 0: a full 2^width from 0. */
static uint64_t arch_left(struct arch *a, unsigned int idx)
{
	return arch_mask(a, idx) - *arch_ctr(a, idx) + 1;
}

/* Count @n (<= arch_left()) events on @idx; a wrap sets the status bit and is recorded.
 * Return: true if the wrap asks for a PMI. */
static bool arch_add(struct arch *a, struct outcome *o, unsigned int idx, uint64_t n,
		     uint64_t seg_insn)
{
	bool wrap = n == arch_left(a, idx);

	*arch_ctr(a, idx) = (*arch_ctr(a, idx) + n) & arch_mask(a, idx);
	if (!wrap)
		return false;
	a->global_status |= 1ULL << idx;
	REQUIRE(o->nr_ovf < MAX_REC, "oracle: more than %d overflows in one event", MAX_REC);
	o->ovf[o->nr_ovf++] = (struct ovf_rec){ (int)idx, seg_insn };
	return arch_int(a, idx);
}

/* The PMI of one instruction (however many counters wrapped there) goes through LVTPC. */
static void arch_pmi(struct arch *a, struct outcome *o, uint64_t seg_insn, uint64_t seg_br,
		     uint64_t time_ns)
{
	bool delivered = !(a->lvtpc & LVT_MASKED);
	bool automask = a->amd ? a->host->automask_amd : a->host->automask_intel;

	/* Old KVM: the host row's masking rule; the latest row's is the SDM's and the APM's. */
	if (delivered && automask)
		a->lvtpc |= LVT_MASKED;
	REQUIRE(o->nr_pmi < MAX_REC, "oracle: more than %d PMIs in one event", MAX_REC);
	o->pmi[o->nr_pmi++] = (struct pmi_rec){ seg_insn, seg_br, time_ns, a->global_status,
						delivered };
}

static void arch_set_cpl(struct arch *a, uint8_t cpl)
{
	if (cpl <= 3)
		a->cpl = cpl;
}

/* One instruction retired at @time_ns, and a branch if @branch (outside a segment). */
static void arch_retire(struct arch *a, struct outcome *o, uint64_t time_ns, bool branch,
			uint8_t cpl)
{
	unsigned int idx;
	bool pmi = false;

	arch_set_cpl(a, cpl);
	for (idx = 0; idx < 64; idx++) {
		enum arch_event ev;

		if (!arch_exists(a, idx))
			continue;
		ev = arch_counts(a, idx);
		if (ev == AE_INSTRUCTIONS || (branch && ev == AE_BRANCHES))
			pmi |= arch_add(a, o, idx, 1, 0);
	}
	if (pmi)
		arch_pmi(a, o, 0, 0, time_ns);
}

/* Branches among the first @i instructions of a segment: floor(i * br / insn). The streams
 * keep insn, br and segment durations below 2^20, so the products fit in 64 bits. */
static uint64_t seg_br_upto(uint64_t i, uint64_t insn, uint64_t br)
{
	return i * br / insn;
}

/* The instruction that is the @b-th branch: the first i where seg_br_upto() reaches @b. */
static uint64_t seg_insn_of_br(uint64_t b, uint64_t insn, uint64_t br)
{
	uint64_t lo = 1, hi = insn;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (seg_br_upto(mid, insn, br) >= b)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* When instruction @i of the segment (t_prev, t] completes; no time passes if t <= t_prev. */
static uint64_t seg_time(uint64_t t_prev, uint64_t t, uint64_t i, uint64_t insn)
{
	if (t <= t_prev)
		return t;
	return t_prev + i * (t - t_prev) / insn;
}

/*
 * A guest segment. Nothing in it changes what a counter counts (no MSR writes, one CPL), so
 * the counting set is fixed; the segment runs from wrap to wrap, and each instruction at which
 * some counter wraps gets its status bits and at most one PMI.
 */
static void arch_guest(struct arch *a, struct outcome *o, uint64_t t_prev, uint64_t t,
		       uint64_t insn, uint64_t br, uint8_t cpl)
{
	unsigned int unit[64], nr = 0, k, idx;
	enum arch_event what[64];
	uint64_t pos = 0;

	arch_set_cpl(a, cpl);
	if (br > insn)
		br = insn;
	for (idx = 0; idx < 64; idx++) {
		if (arch_exists(a, idx) && (what[nr] = arch_counts(a, idx)) != AE_NONE)
			unit[nr++] = idx;
	}
	while (pos < insn && nr) {
		uint64_t next = insn, b_pos = seg_br_upto(pos, insn, br), b_next;
		bool pmi = false;

		for (k = 0; k < nr; k++) {
			uint64_t left = arch_left(a, unit[k]);

			if (what[k] == AE_INSTRUCTIONS && left <= insn - pos && pos + left < next)
				next = pos + left;
			if (what[k] == AE_BRANCHES && left <= br - b_pos &&
			    seg_insn_of_br(b_pos + left, insn, br) < next)
				next = seg_insn_of_br(b_pos + left, insn, br);
		}
		b_next = seg_br_upto(next, insn, br);
		for (k = 0; k < nr; k++) {
			uint64_t n = what[k] == AE_INSTRUCTIONS ? next - pos : b_next - b_pos;

			if (n)
				pmi |= arch_add(a, o, unit[k], n, next);
		}
		if (pmi)
			arch_pmi(a, o, next, b_next, seg_time(t_prev, t, next, insn));
		pos = next;
	}
}

/* The MSRs the streams use, decoded (SDM ch. 20; APM §13.2; x2APIC LVTPC at 0x834). */
enum arch_reg {
	AR_NONE,
	AR_CTR,        /* full-width counter (Intel IA32_A_PMCx, FIXED_CTRx; AMD PerfCtrn) */
	AR_CTR_LEGACY, /* Intel IA32_PMCx at 0xC1: bits 31:0, sign-extended */
	AR_EVTSEL,
	AR_FIXED_CTRL,
	AR_GLOBAL_STATUS,
	AR_GLOBAL_CTRL,
	AR_STATUS_CLR, /* Intel IA32_PERF_GLOBAL_OVF_CTRL, AMD PerfCntrGlobalStatusClr */
	AR_STATUS_SET, /* AMD PerfCntrGlobalStatusSet */
	AR_LVTPC,
};

static enum arch_reg arch_decode(const struct arch *a, uint32_t msr, unsigned int *idx)
{
	if (msr == MSR_X2APIC_LVTPC)
		return AR_LVTPC;
	if (a->amd) {
		if (msr >= MSR_K7_EVNTSEL0 && msr < MSR_K7_EVNTSEL0 + AMD_LEGACY_COUNTERS) {
			*idx = msr - MSR_K7_EVNTSEL0;
			return AR_EVTSEL;
		}
		if (msr >= MSR_K7_PERFCTR0 && msr < MSR_K7_PERFCTR0 + AMD_LEGACY_COUNTERS) {
			*idx = msr - MSR_K7_PERFCTR0;
			return AR_CTR;
		}
		if (a->ext_core && msr >= MSR_F15H_PERF_CTL0 &&
		    msr < MSR_F15H_PERF_CTL0 + 2 * a->nr_gp) {
			*idx = (msr - MSR_F15H_PERF_CTL0) / 2;
			return msr & 1 ? AR_CTR : AR_EVTSEL;
		}
		if (!a->global)
			return AR_NONE;
		switch (msr) {
		case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS:
			return AR_GLOBAL_STATUS;
		case MSR_AMD64_PERF_CNTR_GLOBAL_CTL:
			return AR_GLOBAL_CTRL;
		case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR:
			return AR_STATUS_CLR;
		case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET:
			return AR_STATUS_SET;
		default:
			return AR_NONE;
		}
	}
	if (msr >= MSR_IA32_PERFCTR0 && msr < MSR_IA32_PERFCTR0 + a->nr_gp) {
		*idx = msr - MSR_IA32_PERFCTR0;
		return AR_CTR_LEGACY;
	}
	if (a->fw_writes && msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + a->nr_gp) {
		*idx = msr - MSR_IA32_PMC0;
		return AR_CTR;
	}
	if (msr >= MSR_P6_EVNTSEL0 && msr < MSR_P6_EVNTSEL0 + a->nr_gp) {
		*idx = msr - MSR_P6_EVNTSEL0;
		return AR_EVTSEL;
	}
	if (msr >= MSR_CORE_PERF_FIXED_CTR0 && msr < MSR_CORE_PERF_FIXED_CTR0 + a->nr_fixed) {
		*idx = FIXED_IDX + msr - MSR_CORE_PERF_FIXED_CTR0;
		return AR_CTR;
	}
	if (!a->global)
		return AR_NONE;
	switch (msr) {
	case MSR_CORE_PERF_FIXED_CTR_CTRL:
		return AR_FIXED_CTRL;
	case MSR_CORE_PERF_GLOBAL_STATUS:
		return AR_GLOBAL_STATUS;
	case MSR_CORE_PERF_GLOBAL_CTRL:
		return AR_GLOBAL_CTRL;
	case MSR_CORE_PERF_GLOBAL_OVF_CTRL:
		return AR_STATUS_CLR;
	default:
		return AR_NONE;
	}
}

static int arch_wrmsr(struct arch *a, uint32_t msr, uint64_t val)
{
	unsigned int idx = 0;

	switch (arch_decode(a, msr, &idx)) {
	case AR_CTR:
		*arch_ctr(a, idx) = val & arch_mask(a, idx);
		return 0;
	case AR_CTR_LEGACY:
		*arch_ctr(a, idx) = (uint64_t)(int64_t)(int32_t)(uint32_t)val & a->gp_mask;
		return 0;
	case AR_EVTSEL:
		a->evtsel[idx] = val;
		return 0;
	case AR_FIXED_CTRL:
		a->fixed_ctrl = val;
		return 0;
	case AR_GLOBAL_CTRL:
		a->global_ctrl = val;
		return 0;
	case AR_STATUS_CLR:
		a->global_status &= ~val;
		return 0;
	case AR_STATUS_SET:
		/* Old KVM: the host row's difference (no such MSR before 6.18). */
		if (!a->host->amd_status_set)
			return VPMC_GP;
		a->global_status |= val;
		return 0;
	case AR_LVTPC:
		a->lvtpc = (uint32_t)val & LVT_WRITABLE;
		return 0;
	default:
		ck_abort_msg("generator: WRMSR %#x is not in the oracle's PMU", msr);
		return VPMC_GP;
	}
}

static int arch_rdmsr(struct arch *a, uint32_t msr, uint64_t *val)
{
	unsigned int idx = 0;

	switch (arch_decode(a, msr, &idx)) {
	case AR_CTR:
	case AR_CTR_LEGACY:
		*val = *arch_ctr(a, idx);
		return 0;
	case AR_EVTSEL:
		*val = a->evtsel[idx];
		return 0;
	case AR_FIXED_CTRL:
		*val = a->fixed_ctrl;
		return 0;
	case AR_GLOBAL_CTRL:
		*val = a->global_ctrl;
		return 0;
	case AR_GLOBAL_STATUS:
		*val = a->global_status;
		return 0;
	case AR_LVTPC:
		*val = a->lvtpc;
		return 0;
	default:
		ck_abort_msg("generator: RDMSR %#x is not in the oracle's PMU", msr);
		return VPMC_GP;
	}
}

/* RDPMC (SDM vol. 2 RDPMC: ECX[30] selects the fixed counters; APM: ECX is the index). */
static int arch_rdpmc(struct arch *a, uint32_t ecx, uint64_t *val)
{
	unsigned int idx = ecx;

	if (!a->amd && (ecx & RDPMC_FIXED))
		idx = FIXED_IDX + (ecx & ~RDPMC_FIXED);
	REQUIRE(arch_exists(a, idx), "generator: RDPMC %#x is not in the oracle's PMU", ecx);
	*val = *arch_ctr(a, idx);
	return 0;
}

/* Apply @ev (at @t_prev after the previous event) to the oracle; @o gets what it expects. */
static void arch_event(struct arch *a, const struct vpmc_event *ev, uint64_t t_prev,
		       struct outcome *o)
{
	switch (ev->type) {
	case VPMC_EV_GUEST:
		arch_guest(a, o, t_prev, ev->time_ns, ev->insn, ev->br, ev->cpl);
		break;
	case VPMC_EV_RETIRE:
		arch_retire(a, o, ev->time_ns, ev->branch, ev->cpl);
		break;
	case VPMC_EV_WRMSR:
		o->rc = arch_wrmsr(a, ev->index, ev->value);
		break;
	case VPMC_EV_RDMSR:
		o->rc = arch_rdmsr(a, ev->index, &o->value);
		break;
	case VPMC_EV_RDPMC:
		o->rc = arch_rdpmc(a, ev->index, &o->value);
		break;
	case VPMC_EV_CPL:
		arch_set_cpl(a, ev->cpl);
		break;
	case VPMC_EV_LVTPC:
		a->lvtpc = (uint32_t)ev->value & LVT_WRITABLE;
		break;
	default: /* entries, exits, scheduling, interrupts: nothing architectural */
		break;
	}
}

/* ---- one seeded case: the stream, the reference vCPU, the comparison ------------------------ */

struct ccase {
	const struct host_row *host;
	const struct pmu_row *pmu;
	uint64_t seed, s;
	struct mh h; /* the reference vCPU, observations recorded */
	struct arch a;
	uint64_t t, t_prev;
	unsigned long nr; /* events sent */
	struct outcome want, got;
	char what[160];   /* the event being compared, for messages */
	bool unhandled;   /* a PMI was delivered and no handler has run since */
	/* coverage */
	unsigned long reads, status_reads, overflows, pmis, dropped;
};

static uint64_t rnd(struct ccase *c, uint64_t n)
{
	return n ? mh_rand(&c->s) % n : 0;
}

static bool chance(struct ccase *c, unsigned int percent)
{
	return rnd(c, 100) < percent;
}

static void describe(struct ccase *c, const struct vpmc_event *ev)
{
	char e[96];

	switch (ev->type) {
	case VPMC_EV_GUEST:
		snprintf(e, sizeof(e), "guest insn %llu br %llu cpl %d",
			 (unsigned long long)ev->insn, (unsigned long long)ev->br,
			 ev->cpl == VPMC_CPL_KEEP ? -1 : ev->cpl);
		break;
	case VPMC_EV_RETIRE:
		snprintf(e, sizeof(e), "retire%s", ev->branch ? " branch" : "");
		break;
	case VPMC_EV_WRMSR:
		snprintf(e, sizeof(e), "wrmsr %#x <- %#llx", ev->index,
			 (unsigned long long)ev->value);
		break;
	case VPMC_EV_RDMSR:
		snprintf(e, sizeof(e), "rdmsr %#x", ev->index);
		break;
	case VPMC_EV_RDPMC:
		snprintf(e, sizeof(e), "rdpmc %#x", ev->index);
		break;
	case VPMC_EV_LVTPC:
		snprintf(e, sizeof(e), "lvtpc <- %#llx", (unsigned long long)ev->value);
		break;
	case VPMC_EV_CPL:
		snprintf(e, sizeof(e), "cpl %u", ev->cpl);
		break;
	default:
		snprintf(e, sizeof(e), "%s", vpmc_event_type_name(ev->type));
		break;
	}
	snprintf(c->what, sizeof(c->what), "%s host %s seed %#llx event %lu (%s at %llu ns)",
		 c->pmu->name, c->host->name, (unsigned long long)c->seed, c->nr, e,
		 (unsigned long long)ev->time_ns);
}

/* Apply @ev to the reference vCPU; its observations become @o. */
static void ref_event(struct ccase *c, const struct vpmc_event *ev, struct outcome *o)
{
	struct vpmc_vcpu *v = c->h.v;
	size_t i;

	c->h.nr_obs = 0;
	switch (ev->type) {
	case VPMC_EV_WRMSR:
		o->rc = vpmc_vcpu_wrmsr(v, ev->time_ns, ev->index, ev->value);
		break;
	case VPMC_EV_RDMSR:
		o->rc = vpmc_vcpu_rdmsr(v, ev->time_ns, ev->index, &o->value);
		break;
	case VPMC_EV_RDPMC:
		o->rc = vpmc_vcpu_rdpmc(v, ev->time_ns, ev->index, &o->value);
		break;
	default:
		REQUIRE(vpmc_vcpu_event(v, ev) == 0, "%s: event rejected", c->what);
		break;
	}
	for (i = 0; i < c->h.nr_obs; i++) {
		const struct vpmc_obs *ob = &c->h.obs[i];

		if (ob->kind == VPMC_OBS_OVERFLOW) {
			REQUIRE(o->nr_ovf < MAX_REC, "%s: too many overflows", c->what);
			o->ovf[o->nr_ovf++] = (struct ovf_rec){ ob->counter, ob->seg_insn };
		} else if (ob->kind == VPMC_OBS_PMI) {
			REQUIRE(o->nr_pmi < MAX_REC, "%s: too many PMIs", c->what);
			o->pmi[o->nr_pmi++] = (struct pmi_rec){ ob->seg_insn, ob->seg_br,
								ob->time_ns, ob->global_status,
								ob->delivered };
		}
	}
}

/* Overflows at one instruction come in no particular order: sort by (instruction, counter). */
static void ovf_sort(struct outcome *o)
{
	unsigned int i, j;

	for (i = 1; i < o->nr_ovf; i++) {
		struct ovf_rec r = o->ovf[i];

		for (j = i; j > 0 && (o->ovf[j - 1].seg_insn > r.seg_insn ||
				      (o->ovf[j - 1].seg_insn == r.seg_insn &&
				       o->ovf[j - 1].counter > r.counter)); j--)
			o->ovf[j] = o->ovf[j - 1];
		o->ovf[j] = r;
	}
}

static bool pmi_equal(const struct pmi_rec *x, const struct pmi_rec *y)
{
	return x->seg_insn == y->seg_insn && x->seg_br == y->seg_br && x->time_ns == y->time_ns &&
	       x->status == y->status && x->delivered == y->delivered;
}

static void pmi_format(const struct pmi_rec *p, char *buf, size_t len)
{
	if (!p) {
		snprintf(buf, len, "none");
		return;
	}
	snprintf(buf, len, "{insn %llu br %llu t %llu %s status %#llx}",
		 (unsigned long long)p->seg_insn, (unsigned long long)p->seg_br,
		 (unsigned long long)p->time_ns, p->delivered ? "delivered" : "dropped",
		 (unsigned long long)p->status);
}

/* The reference must have done exactly what the oracle did. */
static void compare(struct ccase *c, const struct vpmc_event *ev)
{
	const struct outcome *w = &c->want, *g = &c->got;
	char a[96], b[96];
	unsigned int i, n;

	if (ev->type == VPMC_EV_WRMSR || ev->type == VPMC_EV_RDMSR || ev->type == VPMC_EV_RDPMC) {
		REQUIRE(g->rc == w->rc, "%s: reference %s, architecture %s", c->what,
			g->rc ? "#GP" : "no #GP", w->rc ? "#GP" : "no #GP");
		REQUIRE(ev->type == VPMC_EV_WRMSR || w->rc || g->value == w->value,
			"%s: reference read %#llx, architecture %#llx", c->what,
			(unsigned long long)g->value, (unsigned long long)w->value);
	}

	n = w->nr_pmi > g->nr_pmi ? w->nr_pmi : g->nr_pmi;
	for (i = 0; i < n; i++) {
		const struct pmi_rec *x = i < g->nr_pmi ? &g->pmi[i] : NULL;
		const struct pmi_rec *y = i < w->nr_pmi ? &w->pmi[i] : NULL;

		if (x && y && pmi_equal(x, y))
			continue;
		pmi_format(x, a, sizeof(a));
		pmi_format(y, b, sizeof(b));
		ck_abort_msg("%s: PMI %u: reference %s, architecture %s (%u vs %u PMIs)", c->what,
			     i + 1, a, b, g->nr_pmi, w->nr_pmi);
	}

	ovf_sort(&c->got);
	ovf_sort(&c->want);
	n = w->nr_ovf > g->nr_ovf ? w->nr_ovf : g->nr_ovf;
	for (i = 0; i < n; i++) {
		if (i < w->nr_ovf && i < g->nr_ovf && w->ovf[i].counter == g->ovf[i].counter &&
		    w->ovf[i].seg_insn == g->ovf[i].seg_insn)
			continue;
		if (i < g->nr_ovf)
			snprintf(a, sizeof(a), "counter %d at insn %llu", g->ovf[i].counter,
				 (unsigned long long)g->ovf[i].seg_insn);
		else
			snprintf(a, sizeof(a), "none");
		if (i < w->nr_ovf)
			snprintf(b, sizeof(b), "counter %d at insn %llu", w->ovf[i].counter,
				 (unsigned long long)w->ovf[i].seg_insn);
		else
			snprintf(b, sizeof(b), "none");
		ck_abort_msg("%s: overflow %u: reference %s, architecture %s (%u vs %u overflows)",
			     c->what, i + 1, a, b, g->nr_ovf, w->nr_ovf);
	}

	for (i = 0; i < 64; i++) {
		uint64_t x, y;

		if (!arch_exists(&c->a, i))
			continue;
		x = vpmc_vcpu_counter(c->h.v, i);
		y = *arch_ctr(&c->a, i);
		REQUIRE(x == y, "%s: afterwards counter %u is %#llx, architecture %#llx", c->what, i,
			(unsigned long long)x, (unsigned long long)y);
	}
	REQUIRE(vpmc_vcpu_global_status(c->h.v) == c->a.global_status,
		"%s: afterwards GLOBAL_STATUS is %#llx, architecture %#llx", c->what,
		(unsigned long long)vpmc_vcpu_global_status(c->h.v),
		(unsigned long long)c->a.global_status);
}

/* Send @ev to both at the next time; Return: the oracle's rc (VPMC_GP: no retirement). */
static int send(struct ccase *c, struct vpmc_event *ev)
{
	unsigned int i;

	c->t += rnd(c, 4) ? rnd(c, 200) : 0;
	ev->time_ns = c->t;
	describe(c, ev);
	c->want.rc = c->got.rc = 0;
	c->want.value = c->got.value = 0;
	c->want.nr_pmi = c->got.nr_pmi = 0;
	c->want.nr_ovf = c->got.nr_ovf = 0;

	arch_event(&c->a, ev, c->t_prev, &c->want);
	ref_event(c, ev, &c->got);
	compare(c, ev);

	c->t_prev = c->t;
	c->nr++;
	c->reads += (ev->type == VPMC_EV_RDMSR || ev->type == VPMC_EV_RDPMC) && !c->want.rc;
	c->overflows += c->want.nr_ovf;
	for (i = 0; i < c->want.nr_pmi; i++) {
		c->pmis += c->want.pmi[i].delivered;
		c->dropped += !c->want.pmi[i].delivered;
		c->unhandled |= c->want.pmi[i].delivered;
	}
	return c->want.rc;
}

/* ---- the stream: a guest segment, one exit, the entry; shaped as check_property.c's ------- */

static void send_type(struct ccase *c, enum vpmc_event_type type)
{
	struct vpmc_event ev = { .type = type, .cpl = VPMC_CPL_KEEP };

	send(c, &ev);
}

static void retire(struct ccase *c, bool branch)
{
	struct vpmc_event ev = { .type = VPMC_EV_RETIRE, .cpl = VPMC_CPL_KEEP, .branch = branch };

	send(c, &ev);
}

/* An intercepted access: the exit's effect, then its retirement unless it took #GP. */
static void exit_access(struct ccase *c, enum vpmc_event_type type, uint32_t index,
			uint64_t value)
{
	struct vpmc_event ev = { .type = type, .cpl = VPMC_CPL_KEEP, .index = index,
				 .value = value };

	if (type == VPMC_EV_RDMSR && (index == MSR_CORE_PERF_GLOBAL_STATUS ||
				      index == MSR_AMD64_PERF_CNTR_GLOBAL_STATUS))
		c->status_reads++;
	if (send(c, &ev) == 0)
		retire(c, false);
}

/* Segments: mostly short, some long enough to wrap narrow counters several times. */
static void guest(struct ccase *c, uint8_t cpl)
{
	struct vpmc_event ev = { .type = VPMC_EV_GUEST, .cpl = cpl };
	unsigned int size = rnd(c, 10);

	ev.insn = size < 5 ? rnd(c, 21) : size < 8 ? rnd(c, 501) : size < 9 ? rnd(c, 5001) :
								   rnd(c, 100001);
	ev.br = rnd(c, ev.insn + 1) / (1 + rnd(c, 4));
	send(c, &ev);
}

/* A counter value: near the wrap most of the time, so that overflows abound. */
static uint64_t counter_value(struct ccase *c, uint64_t mask)
{
	switch (rnd(c, 7)) {
	case 0:
	case 1:
	case 2:
	case 6:
		return mask - rnd(c, 40);
	case 3:
		return rnd(c, 100) & mask;
	case 4:
		return mh_rand(&c->s) & mask;
	default:
		return mask - rnd(c, 3000) % (mask + 1);
	}
}

/* What the guest writes to the legacy 32-bit alias (sign-extended: -16 is all-ones - 15). */
static uint64_t counter_value32(struct ccase *c)
{
	switch (rnd(c, 4)) {
	case 0:
	case 1:
		return (uint32_t)-(int32_t)(1 + rnd(c, 40));
	case 2:
		return rnd(c, 100);
	default:
		return (uint32_t)mh_rand(&c->s);
	}
}

static uint64_t evtsel_value(struct ccase *c)
{
	/* the two events, a unit-mask variant, and events no stream carries */
	static const uint64_t intel_ev[] = { EV_INSN, EV_BR_INTEL, 0x01C0, 0x20C4, 0x3C, 0xC5 };
	static const uint64_t amd_ev[] = { EV_INSN, EV_BR_AMD, 0x1000000C0ULL, 0x01C2, 0x76, 0xC3 };
	uint64_t v;

	if (chance(c, 8))
		return 0;
	v = (c->a.amd ? amd_ev : intel_ev)[chance(c, 75) ? rnd(c, 2) : rnd(c, 6)];
	v |= chance(c, 85) ? EVTSEL_EN : 0;
	v |= chance(c, 70) ? EVTSEL_OS : 0;
	v |= chance(c, 50) ? EVTSEL_USR : 0;
	v |= chance(c, 60) ? EVTSEL_INT : 0;
	return v;
}

static uint64_t fixed_ctrl_value(struct ccase *c)
{
	static const uint64_t f[] = { 0, 1, 2, 3, 8, 9, 0xA, 0xB, 0xB, 0x9 };
	uint64_t v = 0;
	unsigned int j;

	for (j = 0; j < c->a.nr_fixed; j++)
		v |= f[rnd(c, ARRAY_SIZE(f))] << (j * FIXED_CTRL_BITS);
	return v;
}

/* A GP counter: mostly one of the first three, so that the state of a few builds up. */
static unsigned int gp_index(struct ccase *c)
{
	unsigned int n = c->a.nr_gp;

	return (unsigned int)rnd(c, chance(c, 85) && n > 3 ? 3 : n);
}

static uint64_t counter_bits(struct ccase *c)
{
	uint64_t all = arch_all_counters(&c->a);

	return chance(c, 75) ? all : mh_rand(&c->s) & all;
}

/* A valid WRMSR to the PMU of this case: counters (mostly near the wrap) most of the time. */
static void exit_wrmsr(struct ccase *c)
{
	struct arch *a = &c->a;
	unsigned int i = gp_index(c), what = rnd(c, a->global ? 12 : 7);
	bool fixed = a->nr_fixed && chance(c, 35);
	uint32_t msr;
	uint64_t val;

	if (what < 3 && fixed) {
		msr = MSR_CORE_PERF_FIXED_CTR_CTRL;
		val = fixed_ctrl_value(c);
	} else if (what < 3) {
		msr = a->amd ? (a->ext_core ? mh_evtsel(&mh_amd, i) : MSR_K7_EVNTSEL0 + i) :
			       MSR_P6_EVNTSEL0 + i;
		if (a->amd && a->ext_core && i < AMD_LEGACY_COUNTERS && chance(c, 30))
			msr = MSR_K7_EVNTSEL0 + i; /* the legacy alias */
		val = evtsel_value(c);
	} else if (what < 7 && fixed) {
		msr = MSR_CORE_PERF_FIXED_CTR0 + rnd(c, a->nr_fixed);
		val = counter_value(c, a->fixed_mask);
	} else if (what < 7 && a->amd) {
		msr = a->ext_core ? mh_ctr(&mh_amd, i) : MSR_K7_PERFCTR0 + i;
		if (a->ext_core && i < AMD_LEGACY_COUNTERS && chance(c, 30))
			msr = MSR_K7_PERFCTR0 + i;
		val = counter_value(c, a->gp_mask);
	} else if (what < 7 && a->fw_writes && chance(c, 50)) {
		msr = MSR_IA32_PMC0 + i;
		val = counter_value(c, a->gp_mask);
	} else if (what < 7) {
		msr = MSR_IA32_PERFCTR0 + i;
		val = counter_value32(c);
	} else if (what < 10) {
		msr = a->amd ? MSR_AMD64_PERF_CNTR_GLOBAL_CTL : MSR_CORE_PERF_GLOBAL_CTRL;
		val = counter_bits(c);
	} else if (what < 11 || !a->amd) {
		msr = a->amd ? MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR : MSR_CORE_PERF_GLOBAL_OVF_CTRL;
		val = counter_bits(c);
	} else {
		msr = MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET;
		val = counter_bits(c) & mh_rand(&c->s);
	}
	exit_access(c, VPMC_EV_WRMSR, msr, val);
}

static uint32_t global_status_msr(const struct ccase *c)
{
	return c->a.amd ? MSR_AMD64_PERF_CNTR_GLOBAL_STATUS : MSR_CORE_PERF_GLOBAL_STATUS;
}

/* A valid RDMSR of this case's PMU (or of LVTPC). */
static void exit_rdmsr(struct ccase *c)
{
	struct arch *a = &c->a;
	unsigned int i = gp_index(c), what = rnd(c, 10);
	uint32_t msr;

	if (what < 3 && a->global)
		msr = global_status_msr(c);
	else if (what < 4)
		msr = MSR_X2APIC_LVTPC;
	else if (what < 5 && a->global)
		msr = a->amd ? MSR_AMD64_PERF_CNTR_GLOBAL_CTL : MSR_CORE_PERF_GLOBAL_CTRL;
	else if (what < 6)
		msr = a->amd ? (a->ext_core ? mh_evtsel(&mh_amd, i) : MSR_K7_EVNTSEL0 + i) :
			       MSR_P6_EVNTSEL0 + i;
	else if (what < 7 && !a->amd && a->global)
		msr = MSR_CORE_PERF_FIXED_CTR_CTRL;
	else if (what < 8 && a->nr_fixed)
		msr = MSR_CORE_PERF_FIXED_CTR0 + rnd(c, a->nr_fixed);
	else if (a->amd)
		msr = a->ext_core && !chance(c, 30) ? mh_ctr(&mh_amd, i) :
						      MSR_K7_PERFCTR0 + i % AMD_LEGACY_COUNTERS;
	else
		msr = a->fw_writes && chance(c, 50) ? MSR_IA32_PMC0 + i : MSR_IA32_PERFCTR0 + i;
	exit_access(c, VPMC_EV_RDMSR, msr, 0);
}

static void exit_rdpmc(struct ccase *c)
{
	uint32_t ecx = gp_index(c);

	if (c->a.nr_fixed && chance(c, 40))
		ecx = RDPMC_FIXED | rnd(c, c->a.nr_fixed);
	exit_access(c, VPMC_EV_RDPMC, ecx, 0);
}

static void exit_lvtpc(struct ccase *c, uint32_t val)
{
	struct vpmc_event ev = { .type = VPMC_EV_LVTPC, .cpl = VPMC_CPL_KEEP, .value = val };

	if (chance(c, 50)) {
		exit_access(c, VPMC_EV_WRMSR, MSR_X2APIC_LVTPC, val); /* x2APIC */
	} else {
		send(c, &ev); /* xAPIC MMIO: the emulator retires the MOV */
		retire(c, false);
	}
}

/* The exits a guest at CPL > 0 cannot cause (WRMSR, RDMSR, APIC writes), picked first so that
 * the segment before them runs at CPL 0. */
enum exit_kind {
	X_RETIRE,
	X_FEP,
	X_EMULATE_SEVERAL,
	X_RDPMC,
	X_CPL,
	X_SCHED,
	X_IRQ,
	X_NOTHING,
	X_PRIVILEGED, /* the ones below run at CPL 0 */
	X_WRMSR = X_PRIVILEGED,
	X_RDMSR,
	X_LVTPC,
	X_HANDLER,
};

static enum exit_kind pick_exit(struct ccase *c)
{
	unsigned int what = rnd(c, 100);

	/* After a delivered PMI the guest's handler runs, mostly. */
	if (c->unhandled && chance(c, 60))
		return X_HANDLER;
	return what < 16 ? X_RETIRE : what < 24 ? X_FEP : what < 27 ? X_EMULATE_SEVERAL :
	       what < 50 ? X_WRMSR : what < 64 ? X_RDMSR : what < 76 ? X_RDPMC :
	       what < 84 ? X_LVTPC : what < 88 ? X_CPL : what < 91 ? X_SCHED :
	       what < 94 ? X_IRQ : X_NOTHING;
}

/* Write counter @idx through the MSR this PMU has for it. */
static void write_counter(struct ccase *c, unsigned int idx, uint64_t val)
{
	const struct arch *a = &c->a;
	uint32_t msr;

	if (idx >= FIXED_IDX) {
		msr = MSR_CORE_PERF_FIXED_CTR0 + idx - FIXED_IDX;
	} else if (a->amd) {
		msr = a->ext_core ? mh_ctr(&mh_amd, idx) : MSR_K7_PERFCTR0 + idx;
	} else if (a->fw_writes) {
		msr = MSR_IA32_PMC0 + idx;
	} else {
		msr = MSR_IA32_PERFCTR0 + idx;
		val = (uint32_t)val; /* -period: sign extension restores the upper bits */
	}
	exit_access(c, VPMC_EV_WRMSR, msr, val);
}

/*
 * A PMI handler as x86 perf's: read GLOBAL_STATUS, re-arm each overflowed counter with -period
 * (v1 has no status: every counter with INT), acknowledge the status, unmask LVTPC.
 */
static void pmi_handler(struct ccase *c)
{
	uint64_t status = c->a.global_status;
	unsigned int idx;

	c->unhandled = false;
	if (c->a.global)
		exit_access(c, VPMC_EV_RDMSR, global_status_msr(c), 0);
	for (idx = 0; idx < 64; idx++) {
		uint64_t period = 1 + rnd(c, chance(c, 50) ? 50 : 3000);

		if (!arch_exists(&c->a, idx) ||
		    !(c->a.global ? status & (1ULL << idx) : arch_int(&c->a, idx)))
			continue;
		if (chance(c, 80))
			write_counter(c, idx, (arch_mask(&c->a, idx) - period + 1) &
					      arch_mask(&c->a, idx));
	}
	if (c->a.global)
		exit_access(c, VPMC_EV_WRMSR,
			    c->a.amd ? MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR :
				       MSR_CORE_PERF_GLOBAL_OVF_CTRL,
			    status);
	exit_lvtpc(c, LVT_NMI);
}

static void one_exit(struct ccase *c, enum exit_kind kind)
{
	static const uint32_t lvt[] = { LVT_NMI, LVT_NMI, LVT_NMI | LVT_MASKED, LVT_FIXED_VECTOR,
					LVT_FIXED_VECTOR | LVT_MASKED };
	struct vpmc_event ev = { .cpl = VPMC_CPL_KEEP };
	unsigned int n;

	if (chance(c, 20)) {
		ev.type = VPMC_EV_EXIT;
		strcpy(ev.reason, "MSR_WRITE");
		send(c, &ev);
	}
	switch (kind) {
	case X_RETIRE: /* CPUID, HLT, VMCALL, ... */
		retire(c, false);
		break;
	case X_FEP:
		retire(c, chance(c, 60));
		break;
	case X_EMULATE_SEVERAL: /* invalid guest state: several in one exit */
		for (n = 2 + rnd(c, 4); n; n--)
			retire(c, chance(c, 40));
		break;
	case X_WRMSR:
		exit_wrmsr(c);
		break;
	case X_RDMSR:
		exit_rdmsr(c);
		break;
	case X_RDPMC:
		exit_rdpmc(c);
		break;
	case X_LVTPC:
		exit_lvtpc(c, lvt[rnd(c, ARRAY_SIZE(lvt))]);
		break;
	case X_HANDLER:
		pmi_handler(c);
		break;
	case X_CPL:
		ev.type = VPMC_EV_CPL;
		ev.cpl = chance(c, 50) ? 0 : 3;
		send(c, &ev);
		break;
	case X_SCHED:
		send_type(c, VPMC_EV_SCHED_OUT);
		send_type(c, VPMC_EV_SCHED_IN);
		break;
	case X_IRQ:
		ev.type = chance(c, 50) ? VPMC_EV_IRQ : VPMC_EV_EOI;
		ev.index = 0xEC;
		send(c, &ev);
		break;
	default: /* an exit that retires nothing (external interrupt, EPT fix-up) */
		break;
	}
}

static uint8_t segment_cpl(struct ccase *c, enum exit_kind kind)
{
	if (kind >= X_PRIVILEGED)
		return 0;
	return chance(c, 40) ? VPMC_CPL_KEEP : chance(c, 50) ? 0 : 3;
}

static void case_run(struct ccase *c, const struct host_row *host, const struct pmu_row *p,
		     uint64_t seed)
{
	struct vpmc_policy ref = { VPMC_POLICY_REFERENCE, 0 };
	const struct vpmc_pmu_config *got;
	struct vpmc_pmu_config cfg;
	unsigned int r;

	c->host = host;
	c->pmu = p;
	c->seed = c->s = seed;
	c->t = c->t_prev = 1000;
	c->nr = 0;
	vpmc_pmu_config_default(&cfg, p->vendor);
	cfg.version = p->version;
	cfg.nr_gp = p->nr_gp;
	cfg.nr_fixed = p->nr_fixed;
	cfg.gp_width = p->gp_width;
	cfg.fixed_width = p->fixed_width;
	cfg.fw_writes = p->fw_writes;
	cfg.host_kernel = host->host_kernel;
	mh_new(&c->h, &cfg, &ref);
	arch_reset(&c->a, host, p);

	got = vpmc_vcpu_config(c->h.v);
	REQUIRE(got->version == (p->vendor == VPMC_VENDOR_AMD && p->version > 2 ? 2 : p->version) &&
		got->nr_gp == c->a.nr_gp && got->nr_fixed == c->a.nr_fixed &&
		(got->nr_gp == 0 || (1ULL << got->gp_width) - 1 == c->a.gp_mask) &&
		(got->nr_fixed == 0 || (1ULL << got->fixed_width) - 1 == c->a.fixed_mask),
		"%s: the vCPU's PMU is not the one asked for (v%u, %u GP, %u fixed)", p->name,
		got->version, got->nr_gp, got->nr_fixed);

	send_type(c, VPMC_EV_ENTRY);
	for (r = 0; r < ROUNDS; r++) {
		enum exit_kind kind = pick_exit(c);

		guest(c, segment_cpl(c, kind));
		one_exit(c, kind);
		send_type(c, VPMC_EV_ENTRY);
		if (chance(c, 3))
			send_type(c, VPMC_EV_ENTRY); /* an exit to userspace and back */
	}
	mh_free(&c->h);
}

/* One test per host row and PMU: its seeds in turn, then whether they exercised enough. */
START_TEST(test_reference_is_architectural)
{
	const struct host_row *host = &hosts[_i / ARRAY_SIZE(pmus)];
	const struct pmu_row *p = &pmus[_i % ARRAY_SIZE(pmus)];
	unsigned int seeds = host == &hosts[0] ? SEEDS_LATEST : SEEDS_OLD, k;
	unsigned long reads = 0, status_reads = 0, overflows = 0, pmis = 0, dropped = 0;
	static struct ccase c; /* large: outcomes of MAX_REC records */

	for (k = 0; k < seeds; k++) {
		memset(&c, 0, sizeof(c));
		case_run(&c, host, p, SEED0 + k * 0x9E3779B97F4A7C15ULL);
		reads += c.reads;
		status_reads += c.status_reads;
		overflows += c.overflows;
		pmis += c.pmis;
		dropped += c.dropped;
	}
	/* The streams must have exercised what the pin is about. */
	/* With SEED0, per seed: 73-90 reads, 10-210 overflows, 4-20 PMIs delivered, 1.5-140
	 * dropped, 18-29 GLOBAL_STATUS reads where it exists. */
	ck_assert_msg(reads > 60UL * seeds && overflows > 5UL * seeds && pmis > 3UL * seeds &&
		      dropped > seeds && (!c.a.global || status_reads > 10UL * seeds),
		      "%s host %s: only %lu reads (%lu of GLOBAL_STATUS), %lu overflows, %lu PMIs "
		      "delivered, %lu dropped over %u seeds", p->name, host->name, reads,
		      status_reads, overflows, pmis, dropped, seeds);
}
END_TEST

static Suite *reference_suite(void)
{
	Suite *s = suite_create("reference");
	TCase *tc = tcase_create("pin");

	tcase_add_loop_test(tc, test_reference_is_architectural, 0,
			    ARRAY_SIZE(hosts) * ARRAY_SIZE(pmus));
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(reference_suite)
