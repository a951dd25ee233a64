/* SPDX-License-Identifier: GPL-2.0-only */
/* check_model.h - What the model's unit tests share: an observation recorder and vCPU setup. */
#ifndef CHECK_MODEL_H
#define CHECK_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check_common.h"
#include "model.h"
#include "pmu.h"

#define M48 ((1ULL << 48) - 1) /* 48-bit counter mask */

/* Event-select bits and the two events KVM emulates (semantics §1.3, §2.3). */
#define EN ARCH_PERFMON_EVENTSEL_ENABLE
#define INT ARCH_PERFMON_EVENTSEL_INT
#define OS ARCH_PERFMON_EVENTSEL_OS
#define USR ARCH_PERFMON_EVENTSEL_USR
#define INSN 0xc0ULL
#define BR_INTEL 0xc4ULL
#define BR_AMD 0xc2ULL

#define REC_MAX 4096

/* Every observation of one vCPU, in order. */
struct rec {
	struct vpmc_obs o[REC_MAX];
	unsigned int n;
	unsigned int lost;
};

static inline void rec_fn(void *data, const struct vpmc_obs *obs)
{
	struct rec *r = data;

	if (r->n < REC_MAX)
		r->o[r->n++] = *obs;
	else
		r->lost++;
}

/* How many observations of @kind (and counter @counter, unless -2). */
static inline unsigned int rec_count(const struct rec *r, enum vpmc_obs_kind kind, int counter)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->o[i].kind == kind && (counter == -2 || r->o[i].counter == counter);
	return n;
}

/* The @nth (0-based) observation of @kind, or NULL. */
static inline const struct vpmc_obs *rec_nth(const struct rec *r, enum vpmc_obs_kind kind,
					     unsigned int nth)
{
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		if (r->o[i].kind == kind && nth-- == 0)
			return &r->o[i];
	}
	return NULL;
}

/* A vCPU with @vendor defaults, 4 GP counters on Intel (the scenarios' machine), the given
 * policy, host kernel and PEBS capability, observed into @r (which is cleared). */
static inline struct vpmc_vcpu *vcpu_make_pebs(enum vpmc_vendor vendor, enum vpmc_policy_kind kind,
					       uint64_t arg, unsigned int host_kernel, bool pebs,
					       struct rec *r)
{
	struct vpmc_pmu_config cfg;
	struct vpmc_policy pol = { kind, arg };
	struct vpmc_observer obs = { .fn = rec_fn, .data = r };
	struct vpmc_vcpu *v = NULL;

	vpmc_pmu_config_default(&cfg, vendor);
	if (vendor == VPMC_VENDOR_INTEL)
		cfg.nr_gp = 4;
	cfg.host_kernel = host_kernel;
	cfg.pebs = pebs;
	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &pol, 0, &obs), 0);
	return v;
}

static inline struct vpmc_vcpu *vcpu_make(enum vpmc_vendor vendor, enum vpmc_policy_kind kind,
					  uint64_t arg, unsigned int host_kernel, struct rec *r)
{
	return vcpu_make_pebs(vendor, kind, arg, host_kernel, false, r);
}

/* A guest (or, with @host, host-initiated) WRMSR expected to return @want; if @rb, a host read of
 * MSR @rb must then give @rb_val. @name labels failures. */
static inline void msr_write_check(struct vpmc_vcpu *v, const char *name, bool host, uint32_t msr,
				   uint64_t val, int want, uint32_t rb, uint64_t rb_val)
{
	uint64_t got_val = 0xdead;
	int got;

	if (host)
		got = vpmc__vcpu_host_wrmsr(v, 0, msr, val);
	else
		got = vpmc_vcpu_wrmsr(v, 0, msr, val);
	ck_assert_msg(got == want, "%s: wrmsr returned %d", name, got);
	if (!rb)
		return;
	ck_assert_int_eq(vpmc__vcpu_host_rdmsr(v, 0, rb, &got_val), 0);
	ck_assert_msg(got_val == rb_val, "%s: read back %#llx", name, (unsigned long long)got_val);
}

static inline uint64_t rdmsr_ok(struct vpmc_vcpu *v, uint64_t t, uint32_t msr)
{
	uint64_t val = 0xdeadbeef;

	ck_assert_int_eq(vpmc_vcpu_rdmsr(v, t, msr, &val), 0);
	return val;
}

static inline uint64_t rdpmc_ok(struct vpmc_vcpu *v, uint64_t t, uint32_t ecx)
{
	uint64_t val = 0xdeadbeef;

	ck_assert_int_eq(vpmc_vcpu_rdpmc(v, t, ecx, &val), 0);
	return val;
}

#endif /* CHECK_MODEL_H */
