// SPDX-License-Identifier: GPL-2.0-only
/* cost.c - Host cost model: named parameters, their defaults, and the modeled cost of an exit. */
#include "config.h"

#include <errno.h>
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
};

void vpmc_cost_default(struct vpmc_cost *c)
{
	*c = cost_defaults;
}

/*
 * Each parameter and its allowed range (also in vpmcsim(1), COST MODEL). The bounds are far above
 * anything measured (a perf event operation of a second, 1e8 cycles per trigger, a clock of
 * 10 MHz to 100 GHz) and keep the cost of any exit a finite number of microseconds that a report
 * can print: at most 1e6 us per perf event. A trigger's cost depends on two of them: see
 * COST_TRIGGER_NS_MAX.
 */
static const struct cost_param {
	const char *name;
	size_t off;
	double min, max;
	const char *why, *twice;
} cost_params[] = {
	{ "resume_us", offsetof(struct vpmc_cost, resume_us), 0, 1e6,
	  "resume_us: expected microseconds per perf event resumed, from 0 to 1e6",
	  "resume_us given twice" },
	{ "create_us", offsetof(struct vpmc_cost, create_us), 0, 1e6,
	  "create_us: expected microseconds per perf event created, from 0 to 1e6",
	  "create_us given twice" },
	{ "trigger_cycles", offsetof(struct vpmc_cost, trigger_cycles), 0, 1e8,
	  "trigger_cycles: expected host cycles per kvm_pmu_trigger_event(), from 0 to 1e8",
	  "trigger_cycles given twice" },
	{ "cpu_ghz", offsetof(struct vpmc_cost, cpu_ghz), 0.01, 100,
	  "cpu_ghz: expected the host clock in GHz, from 0.01 to 100", "cpu_ghz given twice" },
};

/*
 * What one kvm_pmu_trigger_event() may cost, trigger_cycles / cpu_ghz, in ns: 1 ms, 12500 times
 * the default (200 cycles at 2.5 GHz, 80 ns). Each parameter in its range still gives up to 1e10
 * ns (1e8 cycles at 10 MHz): their ratio is bounded as well. 1e8 cycles at 100 GHz is the bound.
 */
#define COST_TRIGGER_NS_MAX 1e6

static const struct cost_param *cost_param(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cost_params); i++) {
		if (strlen(cost_params[i].name) == len && !strncmp(name, cost_params[i].name, len))
			return &cost_params[i];
	}
	return NULL;
}

int vpmc_cost_parse(struct vpmc_cost *c, const char *spec, const char **why)
{
	struct vpmc_cost tmp = *c;
	const char *p = spec;
	unsigned int given = 0; /* bit i: cost_params[i] set by @spec */

	if (!spec || !*spec)
		goto bad_name;
	for (;;) {
		const char *eq = strchr(p, '='), *end;
		const struct cost_param *cp;
		double v;
		char *vend;

		if (!eq)
			goto bad_name;
		cp = cost_param(p, (size_t)(eq - p));
		if (!cp)
			goto bad_name;
		if (given & (1u << (cp - cost_params))) {
			if (why) /* one value, and not the last of two silently */
				*why = cp->twice;
			return VPMC_ERR_INVAL;
		}
		given |= 1u << (cp - cost_params);
		end = strchr(eq + 1, ',');
		errno = 0;
		v = strtod(eq + 1, &vend);
		/* !(v >= min) also refuses NaN */
		if (errno || vend == eq + 1 || vend != (end ? end : eq + 1 + strlen(eq + 1)) ||
		    !(v >= cp->min) || v > cp->max) {
			if (why)
				*why = cp->why;
			return VPMC_ERR_INVAL;
		}
		*(double *)((char *)&tmp + cp->off) = v;
		if (!end)
			break;
		p = end + 1;
	}
	if (tmp.trigger_cycles / tmp.cpu_ghz > COST_TRIGGER_NS_MAX) {
		if (why)
			*why = "trigger_cycles / cpu_ghz: expected at most 1e6 ns (1 ms) per "
			       "kvm_pmu_trigger_event(): lower trigger_cycles or raise cpu_ghz";
		return VPMC_ERR_INVAL;
	}
	*c = tmp;
	return 0;
bad_name:
	if (why)
		*why = "expected NAME=VALUE[,NAME=VALUE...] with NAME one of resume_us, create_us, "
		       "trigger_cycles, cpu_ghz";
	return VPMC_ERR_INVAL;
}

double vpmc_cost_us(const struct vpmc_cost *c, uint64_t resumes, uint64_t creates,
		    uint64_t triggers)
{
	return (double)resumes * c->resume_us + (double)creates * c->create_us +
	       (double)triggers * c->trigger_cycles / (c->cpu_ghz * 1000.0);
}
