/* cost.c - Host cost model: named parameters, their defaults, and the modeled cost of an exit. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vpmc-internal.h"

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

static double *cost_field(struct vpmc_cost *c, const char *name, size_t len)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
		{ "resume_us", offsetof(struct vpmc_cost, resume_us) },
		{ "create_us", offsetof(struct vpmc_cost, create_us) },
		{ "trigger_cycles", offsetof(struct vpmc_cost, trigger_cycles) },
		{ "cpu_ghz", offsetof(struct vpmc_cost, cpu_ghz) },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		if (strlen(fields[i].name) == len && !strncmp(name, fields[i].name, len))
			return (double *)((char *)c + fields[i].off);
	}
	return NULL;
}

int vpmc_cost_parse(struct vpmc_cost *c, const char *spec, const char **why)
{
	struct vpmc_cost tmp = *c;
	const char *p = spec;

	if (!spec || !*spec)
		goto bad_name;
	for (;;) {
		const char *eq = strchr(p, '='), *end;
		double *field, v;
		char *vend;

		if (!eq)
			goto bad_name;
		field = cost_field(&tmp, p, (size_t)(eq - p));
		if (!field)
			goto bad_name;
		end = strchr(eq + 1, ',');
		errno = 0;
		v = strtod(eq + 1, &vend);
		if (errno || vend == eq + 1 || vend != (end ? end : eq + 1 + strlen(eq + 1)) ||
		    !isfinite(v) || v < 0 || (field == &tmp.cpu_ghz && v <= 0)) {
			if (why)
				*why = "VALUE must be a number >= 0 (cpu_ghz > 0)";
			return VPMC_ERR_INVAL;
		}
		*field = v;
		if (!end)
			break;
		p = end + 1;
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
