// SPDX-License-Identifier: GPL-2.0-only
/* cost.c - Host cost model: named parameters, their defaults, and the modeled cost of an exit. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <vpmc/replay.h>

#include "internal.h"

/*
 * Defaults and where they come from (also in vpmcsim(1), COST MODEL):
 * - resume_us, create_us: a6da0d77e98e ("KVM: x86/vPMU: Reuse perf_event to avoid unnecessary
 *   pmc_reprogram_counter") measured a guest NMI handler at 104923 ns mean when every
 *   reprogram re-created the perf event and 48393 ns once events were reused (resumed). That
 *   handler makes about 20 reprograms (an estimate: ~8 intercepted PMU MSR accesses, each
 *   GLOBAL_CTRL write reprogramming every counter); 48393 / 20 and 104923 / 20 give the values.
 * - trigger_cycles: kvm_pmu_trigger_event() with candidates (bitmap test, SRCU read side,
 *   filter and CPL checks, emulated_counter++, request bit): an estimate, not a measurement.
 * - cpu_ghz: a typical server base clock; only converts trigger_cycles.
 */
static const struct vpmc_cost cost_defaults = {
	.resume_us = 2.4,
	.create_us = 5.2,
	.trigger_cycles = 200.0,
	.cpu_ghz = 2.5,
	/* v2: the profile "default" (profiles/default.cost) prices nothing more */
	.host_counters = 1,
	.guest_counters = 2,
	.exit_rt_msr_fast_ns = 650,
	.exit_rt_msr_slow_ns = 1050,
	.exit_rt_intr_ns = 1200,
	.exit_rt_vintr_ns = 700,
	.exit_rt_nmi_ns = 1500,
	.exit_rt_other_ns = 700,
	.drain_extra_p0 = 1,
	.draw_seed = 1,
	.mult_n = 1,
	.mult_k = { 1 },
	.mult_p = { 1 },
};

void vpmc_cost_default(struct vpmc_cost *c)
{
	*c = cost_defaults;
}

/*
 * Each parameter, its unit and allowed range (vpmcsim(1), COST MODEL; timer-storm.md §6.1): the
 * v1 bounds are far above anything measured and keep the cost of any exit a finite number of
 * microseconds that a report can print; v2 times 0 to 1e6 us (1e9 ns), cycles 0 to 1e8,
 * probabilities 0 to 1, counts 0 to 64. low/high: the plausible range of an estimate, with its
 * source (what a sensitivity analysis varies). drain_extra_mult has no offset (off == 0 is
 * resume_us, so it is told apart by its name). A trigger's cost depends on two of them: see
 * COST_TRIGGER_NS_MAX.
 */
struct cost_param {
	struct vpmc_cost_param_info i;
	const char *why, *twice;
};

#define COST_P(n, u, lo, hi, los, his, rlo, rhi, rsrc)                                          \
	{ { #n, u, lo, hi, rlo, rhi, rsrc, offsetof(struct vpmc_cost, n), false },              \
	  #n ": expected " u ", from " los " to " his, #n " given twice" }
/* A parameter that prices only latency's windows (round trips, the handler). */
#define COST_L(n, u, lo, hi, los, his, rlo, rhi, rsrc)                                          \
	{ { #n, u, lo, hi, rlo, rhi, rsrc, offsetof(struct vpmc_cost, n), true },               \
	  #n ": expected " u ", from " los " to " his, #n " given twice" }

static const struct cost_param cost_params[] = {
	COST_P(resume_us, "microseconds per perf event resumed", 0, 1e6, "0", "1e6", 1.0, 8.0,
	       "a6da0d77e98e (48393 ns / ~20) to the reuse path priced from its code on Zen 3"),
	COST_P(create_us, "microseconds per perf event created", 0, 1e6, "0", "1e6", 5.2, 21000,
	       "a6da0d77e98e (104923 ns / 20) to Xu, kvm@ 2019-10-27 (up to 21 ms)"),
	COST_P(trigger_cycles, "host cycles per kvm_pmu_trigger_event()", 0, 1e8, "0", "1e8", 100,
	       300, "Khorenko, kvm@ 2023-11-09: ~250 cycles per exit on EPYC 7443P"),
	COST_P(cpu_ghz, "the host clock in GHz", 0.01, 100, "0.01", "100", 2.0, 4.0,
	       "Zen 3 server clocks"),
	COST_P(pause_us, "microseconds per counter left paused", 0, 1e6, "0", "1e6", 0.3, 1.5,
	       "one ctx->mutex cycle and one cross-call (estimate)"),
	COST_P(msr_access_cycles, "host cycles per PMU RDMSR, WRMSR or RDPMC", 0, 1e8, "0", "1e8",
	       150, 400, "b0b6a8d3be16, kvm@ 2025-12-05: >= 150 cycles per WRMSR on Turin"),
	COST_P(host_counters, "host-owned active counters", 0, 64, "0", "64", 0, 2,
	       "host NMI watchdog off or on, one more host counter"),
	COST_P(host_flexible, "host flexible events", 0, 64, "0", "64", 0, 4,
	       "no host profiling to a host perf record"),
	COST_P(guest_counters, "the vCPU's active KVM perf events", 0, 64, "0", "64", 1, 6,
	       "resident counter alone to all six AMD v1 counters"),
	COST_P(create_sigma, "a log-normal sigma", 0, 1e6, "0", "1e6", 0, 2.5,
	       "Wang, kvm@ 2018-11-01 (~2.5 ms creations)"),
	COST_P(drain_fixed_ns, "nanoseconds per drain", 0, 1e9, "0", "1e9", 100, 500,
	       "kvm_pmu_handle_event() loop and recalc (estimate)"),
	COST_P(slowpath_tax_ns, "nanoseconds per fastpath exit leaving the loop", 0, 1e9, "0",
	       "1e9", 300, 600, "timer-storm.md §6.2"),
	COST_L(exit_rt_msr_fast_ns, "nanoseconds", 0, 1e9, "0", "1e9", 0, 0, NULL),
	COST_L(exit_rt_msr_slow_ns, "nanoseconds", 0, 1e9, "0", "1e9", 900, 1300,
	       "fastpath round trip + slowpath_tax_ns range"),
	COST_L(exit_rt_intr_ns, "nanoseconds", 0, 1e9, "0", "1e9", 800, 3000,
	       "SVM world switch ~1.35k cycles (Roth, LKML 2020-12) plus a host handler"),
	COST_L(exit_rt_vintr_ns, "nanoseconds", 0, 1e9, "0", "1e9", 500, 1200,
	       "SVM world switch ~1.35k cycles (Roth, LKML 2020-12)"),
	COST_L(exit_rt_nmi_ns, "nanoseconds", 0, 1e9, "0", "1e9", 1000, 3000,
	       "SVM world switch plus the host PMI handler (estimate)"),
	COST_L(exit_rt_other_ns, "nanoseconds", 0, 1e9, "0", "1e9", 0, 0, NULL),
	COST_L(handler_overhead_ns, "nanoseconds per latency sample", 0, 1e9, "0", "1e9", 0, 0,
	       NULL),
	COST_P(drain_extra_p0, "a probability", 0, 1, "0", "1", 0, 0, NULL),
	COST_P(drain_extra_quantum_us, "microseconds", 0, 1e6, "0", "1e6", 0, 0, NULL),
	{ { "drain_extra_mult", "quanta:probability pairs", 0, 0, 0, 0,
	    "RFC p99 and p99.9 read as ~2 and ~3.5 slow units", 0, false },
	  "drain_extra_mult: expected up to 8 K:P pairs (K 0 to 64, P summing to 1)",
	  "drain_extra_mult given twice" },
	COST_P(drain_extra_jitter, "a relative +-", 0, 1, "0", "1", 0, 0.2,
	       "narrow slow mode of the RFC's ON row"),
	COST_P(mediated_switch_cycles, "host cycles per slow-path exit", 0, 1e8, "0", "1e8", 2000,
	       5000, "b0b6a8d3be16: 5.3k-cycle CPUID exit with the mediated PMU on Turin"),
	COST_P(draw_seed, "a seed", 0, 9007199254740992.0, "0", "2^53", 0, 0, NULL),
};

#define COST_MULT_INDEX 21 /* drain_extra_mult in cost_params[] */

/*
 * What one kvm_pmu_trigger_event() may cost, trigger_cycles / cpu_ghz, in ns: 1 ms, 12500 times
 * the default (200 cycles at 2.5 GHz, 80 ns). Each parameter in its range still gives up to 1e10
 * ns (1e8 cycles at 10 MHz): their ratio is bounded as well. 1e8 cycles at 100 GHz is the bound.
 */
#define COST_TRIGGER_NS_MAX 1e6

const struct vpmc_cost_param_info *vpmc_cost_params(size_t *n)
{
	static struct vpmc_cost_param_info info[ARRAY_SIZE(cost_params)];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cost_params); i++)
		info[i] = cost_params[i].i;
	*n = ARRAY_SIZE(cost_params);
	return info;
}

bool vpmc_cost_linear(const struct vpmc_cost *c, size_t i)
{
	bool v2 = vpmc_cost_v2(c);

	if (i >= ARRAY_SIZE(cost_params))
		return false;
	if (cost_params[i].i.off == offsetof(struct vpmc_cost, resume_us) && i != COST_MULT_INDEX)
		return true;
	if (cost_params[i].i.off == offsetof(struct vpmc_cost, trigger_cycles))
		return true;
	if (cost_params[i].i.off == offsetof(struct vpmc_cost, create_us))
		return !v2 || !c->create_sigma;
	if (cost_params[i].i.off == offsetof(struct vpmc_cost, cpu_ghz))
		return !v2 || !c->msr_access_cycles;
	return false;
}

static const struct cost_param *cost_param(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cost_params); i++) {
		if (strlen(cost_params[i].i.name) == len && !strncmp(name, cost_params[i].i.name, len))
			return &cost_params[i];
	}
	return NULL;
}

/* "K:P K:P ..." up to @end into @c's table; probabilities sum to 1 within 1e-9. Return 0 or
 * -1. */
static int mult_parse(struct vpmc_cost *c, const char *s, const char *end)
{
	double sum = 0.0;
	unsigned int n = 0;

	while (s < end) {
		char *e;
		double k, pr;

		if (*s == ' ') {
			s++;
			continue;
		}
		if (n == VPMC_COST_MULT_MAX)
			return -1;
		errno = 0;
		k = strtod(s, &e);
		if (errno || e == s || *e != ':' || !(k >= 0) || k > 64)
			return -1;
		s = e + 1;
		pr = strtod(s, &e);
		if (errno || e == s || e > end || (e < end && *e != ' ') || !(pr >= 0) || pr > 1)
			return -1;
		c->mult_k[n] = k;
		c->mult_p[n++] = pr;
		sum += pr;
		s = e;
	}
	if (!n || sum < 1 - 1e-9 || sum > 1 + 1e-9)
		return -1;
	c->mult_n = n;
	return 0;
}

/* Set parameter @cp of @c from the text [@v, @end); return 0 or -1 (out of range). */
static int param_set(struct vpmc_cost *c, const struct cost_param *cp, const char *v,
		     const char *end)
{
	double x;
	char *vend;

	if (cp == &cost_params[COST_MULT_INDEX])
		return mult_parse(c, v, end);
	errno = 0;
	x = strtod(v, &vend);
	/* !(x >= min) also refuses NaN */
	if (errno || vend == v || vend != end || !(x >= cp->i.min) || x > cp->i.max)
		return -1;
	*(double *)((char *)c + cp->i.off) = x;
	return 0;
}

/* Parse @spec into @tmp, marking each parameter set in *@given (bit per cost_params index). */
static int cost_parse_into(struct vpmc_cost *tmp, const char *spec, const char **why,
			   uint64_t *given)
{
	const char *p = spec;

	if (!spec || !*spec)
		goto bad_name;
	for (;;) {
		const char *eq = strchr(p, '='), *end;
		const struct cost_param *cp;

		if (!eq)
			goto bad_name;
		cp = cost_param(p, (size_t)(eq - p));
		if (!cp)
			goto bad_name;
		if (*given & (1ULL << (cp - cost_params))) {
			if (why) /* one value, and not the last of two silently */
				*why = cp->twice;
			return VPMC_ERR_INVAL;
		}
		*given |= 1ULL << (cp - cost_params);
		end = strchr(eq + 1, ',');
		if (param_set(tmp, cp, eq + 1, end ? end : eq + 1 + strlen(eq + 1))) {
			if (why)
				*why = cp->why;
			return VPMC_ERR_INVAL;
		}
		if (!end)
			break;
		p = end + 1;
	}
	if (tmp->trigger_cycles / tmp->cpu_ghz > COST_TRIGGER_NS_MAX) {
		if (why)
			*why = "trigger_cycles / cpu_ghz: expected at most 1e6 ns (1 ms) per "
			       "kvm_pmu_trigger_event(): lower trigger_cycles or raise cpu_ghz";
		return VPMC_ERR_INVAL;
	}
	return 0;
bad_name:
	if (why)
		*why = "expected NAME=VALUE[,NAME=VALUE...] with NAME one of resume_us, create_us, "
		       "trigger_cycles, cpu_ghz or a v2 parameter (vpmcsim(1), COST MODEL)";
	return VPMC_ERR_INVAL;
}

int vpmc_cost_parse(struct vpmc_cost *c, const char *spec, const char **why)
{
	struct vpmc_cost tmp = *c;
	uint64_t given = 0;
	int err = cost_parse_into(&tmp, spec, why, &given);

	if (!err)
		*c = tmp;
	return err;
}

double vpmc_cost_us(const struct vpmc_cost *c, uint64_t resumes, uint64_t creates,
		    uint64_t triggers)
{
	return (double)resumes * c->resume_us + (double)creates * c->create_us +
	       (double)triggers * c->trigger_cycles / (c->cpu_ghz * 1000.0);
}

bool vpmc_cost_v2(const struct vpmc_cost *c)
{
	return c->pause_us || c->msr_access_cycles || c->create_sigma || c->drain_fixed_ns ||
	       c->slowpath_tax_ns || c->mediated_switch_cycles ||
	       (c->drain_extra_p0 < 1 && c->drain_extra_quantum_us);
}

/* splitmix64's finalizer (Steele, Lea, Flood 2014). */
static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

double vpmc_cost_draw(const struct vpmc_cost *c, uint32_t vcpu, uint64_t ordinal, unsigned int i)
{
	uint64_t h = mix((uint64_t)c->draw_seed ^ mix(vcpu ^ mix(ordinal)));

	return (double)(mix(h + i) >> 11) * 0x1.0p-53;
}

double vpmc_cost_drain_extra_us(const struct vpmc_cost *c, double u1, double u2, double u3)
{
	double acc = 0.0, k = 0.0;
	unsigned int j;

	if (u1 < c->drain_extra_p0 || !c->drain_extra_quantum_us)
		return 0.0;
	for (j = 0; j < c->mult_n; j++) {
		k = c->mult_k[j];
		acc += c->mult_p[j];
		if (u2 < acc)
			break;
	}
	return k * c->drain_extra_quantum_us * (1.0 + c->drain_extra_jitter * (2.0 * u3 - 1.0));
}

/* A log-normal creation: create_us * exp(sigma * z), z by Box-Muller from two draws. */
static double create_draw_us(const struct vpmc_cost *c, const struct vpmc_exit_work *w,
			     unsigned int ctr)
{
	double u1, u2;

	if (!c->create_sigma)
		return c->create_us;
	u1 = vpmc_cost_draw(c, w->vcpu, w->ordinal, 4 + 2 * ctr);
	u2 = vpmc_cost_draw(c, w->vcpu, w->ordinal, 5 + 2 * ctr);
	return c->create_us * exp(c->create_sigma * sqrt(-2.0 * log(1.0 - u1)) *
				  cos(2.0 * M_PI * u2));
}

double vpmc_cost_extra_us(const struct vpmc_cost *c, const struct vpmc_exit_work *w,
			  double *x_us)
{
	/* host PMU accesses of one reprogram (timer-storm.md §6.3), G before = G after */
	double a_us = c->msr_access_cycles / c->cpu_ghz / 1000.0;
	double n = c->host_counters + c->guest_counters + c->host_flexible;
	double acc_p = 4 * n + 2;
	double acc_e = 4 * c->host_counters + 8 * c->guest_counters + 8 * c->host_flexible - 5;
	double us = 0.0, x = 0.0;
	unsigned int i, paused;

	if (x_us)
		*x_us = 0.0;
	if (!w->drained)
		return 0.0;
	paused = w->reprogrammed - w->resumed - w->created;
	us += c->drain_fixed_ns / 1000.0;
	us += w->resumed * a_us * (acc_p + (acc_e > 0 ? acc_e : 0));
	us += paused * (c->pause_us + a_us * acc_p);
	for (i = 0; i < w->created; i++)
		us += create_draw_us(c, w, i) - c->create_us + a_us * acc_p;
	x = vpmc_cost_drain_extra_us(c, vpmc_cost_draw(c, w->vcpu, w->ordinal, 1),
				     vpmc_cost_draw(c, w->vcpu, w->ordinal, 2),
				     vpmc_cost_draw(c, w->vcpu, w->ordinal, 3));
	if (x_us)
		*x_us = x;
	return us + x;
}
