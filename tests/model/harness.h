/* SPDX-License-Identifier: GPL-2.0-only */
/* model_harness.h - Drive one modeled vCPU through the public API and record what it observes. */
#ifndef MODEL_HARNESS_H
#define MODEL_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vpmc.h"

/*
 * Architectural constants the tests write (SDM vol. 3 ch. 20, AMD APM vol. 2 ch. 13), spelled
 * out here rather than taken from lib/ so that the tests stay independent of the model.
 */
#define MH_W48 ((1ULL << 48) - 1) /* M of upstream-fix-scenarios.md: the 48-bit counter mask */

#define EVTSEL_USR (1ULL << 16)
#define EVTSEL_OS (1ULL << 17)
#define EVTSEL_INT (1ULL << 20)
#define EVTSEL_EN (1ULL << 22)
#define EV_INSN 0xC0ULL      /* instructions retired, umask 0, both vendors */
#define EV_BR_INTEL 0xC4ULL  /* BR_INST_RETIRED.ALL_BRANCHES */
#define EV_BR_AMD 0xC2ULL    /* retired branch instructions */

#define MSR_IA32_PERFCTR0 0xC1
#define MSR_P6_EVNTSEL0 0x186
#define MSR_IA32_PMC0 0x4C1
#define MSR_CORE_PERF_FIXED_CTR0 0x309
#define MSR_CORE_PERF_FIXED_CTR_CTRL 0x38D
#define MSR_CORE_PERF_GLOBAL_STATUS 0x38E
#define MSR_CORE_PERF_GLOBAL_CTRL 0x38F
#define MSR_CORE_PERF_GLOBAL_OVF_CTRL 0x390
#define MSR_IA32_PEBS_ENABLE 0x3F1
#define MSR_IA32_TSC_DEADLINE 0x6E0
#define MSR_X2APIC_LVTPC 0x834
#define MSR_K7_EVNTSEL0 0xC0010000
#define MSR_K7_PERFCTR0 0xC0010004
#define MSR_F15H_PERF_CTL0 0xC0010200
#define MSR_F15H_PERF_CTR0 0xC0010201
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS 0xC0000300
#define MSR_AMD64_PERF_CNTR_GLOBAL_CTL 0xC0000301
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR 0xC0000302
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET 0xC0000303

#define RDPMC_FIXED (1U << 30)  /* Intel RDPMC ECX type 0x4000: fixed counters */
#define FIXED_IDX 32            /* KVM global index of fixed counter 0 */
#define GLOBAL_STATUS_BUFFER_OVF (1ULL << 62)

#define LVT_MASKED (1U << 16)
#define LVT_NMI 0x400U          /* delivery mode 100b: what the LAPIC starts with (trace-format.md) */

/* The MSRs one vendor uses for the same guest code (kvm-unit-tests' pmu_caps idea). */
struct mh_vendor {
	const char *name;
	enum vpmc_vendor vendor;
	uint32_t evtsel0, ctr0, stride; /* GP counter i: evtsel0 + i * stride, ctr0 + i * stride */
	uint32_t global_status, global_ctrl, status_clr;
	uint64_t ev_br;                 /* the vendor's "branch instructions retired" selector */
};

extern const struct mh_vendor mh_intel; /* 0x186 / 0x4C1 (FW_WRITE), OVF_CTRL clears */
extern const struct mh_vendor mh_amd;   /* F15H PERF_CTL/CTR pairs, GLOBAL_STATUS_CLR clears */

static inline uint32_t mh_evtsel(const struct mh_vendor *vd, unsigned int i)
{
	return vd->evtsel0 + i * vd->stride;
}

static inline uint32_t mh_ctr(const struct mh_vendor *vd, unsigned int i)
{
	return vd->ctr0 + i * vd->stride;
}

/*
 * One vCPU under test with every observation recorded in order. Time starts at 1000 ns; each
 * helper event takes the next MH_STEP ns, and a guest segment of N instructions takes N ns, so
 * that instruction i of a segment that starts at T retires at T + i (trace-format.md, "guest
 * segments spread evenly").
 */
#define MH_STEP 10

struct mh {
	struct vpmc_vcpu *v;
	struct vpmc_obs *obs;
	size_t nr_obs, cap_obs;
	uint64_t t; /* time of the last event sent, ns */
};

void mh_new(struct mh *h, const struct vpmc_pmu_config *cfg, const struct vpmc_policy *p);
void mh_new_vendor(struct mh *h, enum vpmc_vendor vendor, const struct vpmc_policy *p);
void mh_free(struct mh *h);

/* The time the next helper event will carry. */
static inline uint64_t mh_next_t(const struct mh *h)
{
	return h->t + MH_STEP;
}

/* Single events, as the trace has them. Each returns the time it was sent at. */
uint64_t mh_entry(struct mh *h);
uint64_t mh_retire(struct mh *h, bool branch);
uint64_t mh_guest(struct mh *h, uint64_t insn, uint64_t br);
uint64_t mh_guest_cpl(struct mh *h, uint64_t insn, uint64_t br, uint8_t cpl);
int mh_wrmsr(struct mh *h, uint32_t msr, uint64_t val);
int mh_rdmsr(struct mh *h, uint32_t msr, uint64_t *val);
int mh_rdpmc(struct mh *h, uint32_t ecx, uint64_t *val);
void mh_lvtpc(struct mh *h, uint32_t val);

/*
 * Whole intercepted instructions, i.e. exit, KVM's action, retirement (skipped when the guest
 * took #GP, semantics §3.2), and the next VM-entry. Counter effects follow §3.6: the MSR effect
 * first, then the retirement.
 */
int mh_wrmsr_insn(struct mh *h, uint32_t msr, uint64_t val);
int mh_rdmsr_insn(struct mh *h, uint32_t msr, uint64_t *val);
int mh_rdpmc_insn(struct mh *h, uint32_t ecx, uint64_t *val);
/* CPUID-like exit, or a forced-emulation (FEP) instruction: retire (branch) + entry. */
void mh_emulated(struct mh *h, bool branch);
/* An intercepted WRMSR that must succeed; fails the test (with @what) otherwise. */
void mh_wrmsr_ok(struct mh *h, uint32_t msr, uint64_t val, const char *what);
/* RDPMC that must succeed; returns the value. */
uint64_t mh_rdpmc_ok(struct mh *h, uint32_t ecx, const char *what);
uint64_t mh_rdmsr_ok(struct mh *h, uint32_t msr, const char *what);

/*
 * Program GP counter @i of a v2+ PMU from a quiet state: GLOBAL_CTRL <- 0, PMCi <- @preset,
 * EVTSELi <- @evtsel, GLOBAL_CTRL <- BIT(@i). Only the last WRMSR can count itself: it is the one
 * that enables the counter, and its retirement comes after its effect (semantics §3.6). So an
 * instructions counter at CPL 0 reads @preset + 1 afterwards, anything else @preset.
 */
void mh_arm(struct mh *h, const struct mh_vendor *vd, unsigned int i, uint64_t evtsel,
	    uint64_t preset);

/* Observations. */
size_t mh_count(const struct mh *h, enum vpmc_obs_kind kind, size_t from);
/* The first observation of @kind at or after index @from (and for @counter unless it is -2). */
const struct vpmc_obs *mh_find(const struct mh *h, enum vpmc_obs_kind kind, int counter,
			       size_t from);

/*
 * The first OVERFLOW of @counter at or after observation @from must be at @t and come from the
 * drain or an increment (@emulated 1), from perf (0), or either (-1); fails naming @what.
 */
const struct vpmc_obs *mh_expect_overflow(const struct mh *h, size_t from, int counter,
					  uint64_t t, int emulated, const char *what);
/* The first PMI at or after @from must be at @t, delivered (or dropped, @delivered false). */
const struct vpmc_obs *mh_expect_pmi(const struct mh *h, size_t from, uint64_t t, bool delivered,
				     const char *what);

/* Every field of two observations equal (field by field: the struct has padding). */
bool mh_obs_equal(const struct vpmc_obs *a, const struct vpmc_obs *b);
/* One line describing @o, for failure messages. */
void mh_obs_format(const struct vpmc_obs *o, char *buf, size_t len);

/* xorshift64* (Vigna), for the property test and anything else that wants fixed random data. */
static inline uint64_t mh_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

#endif /* MODEL_HARNESS_H */
