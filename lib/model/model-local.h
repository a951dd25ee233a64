/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model-local.h - What the model's files share: struct vpmc_vcpu, the time and CPL bookkeeping
 * of every call, guest segments (guest.c) and the reference counter's departures from the
 * shared mediated path (reference.c, architecture.md §4.3).
 */
#ifndef VPMC_MODEL_LOCAL_H
#define VPMC_MODEL_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "pmu.h"
#include "trace.h"
#include "vpmcsim.h"

struct vpmc_vcpu {
	uint64_t t_prev;            /* time of this vCPU's previous event, ns */
	bool has_prev;
	struct vpmc_pmu pmu;        /* next to t_prev: its hot fields come first */
	struct vpmc_pmu_config cfg; /* after KVM's caps */
};
_Static_assert(offsetof(struct vpmc_vcpu, pmu) == 16,
	       "struct vpmc_vcpu: the pmu's per-event fields follow t_prev (HACKING.md, Performance)");

static inline void vcpu_set_cpl(struct vpmc_vcpu *v, uint8_t cpl)
{
	if (cpl <= 3)
		v->pmu.cpl = cpl;
}

/* Start applying an event at @time_ns. */
static inline void vcpu_begin(struct vpmc_vcpu *v, uint64_t time_ns)
{
	if (!v->has_prev) {
		v->t_prev = time_ns;
		v->has_prev = true;
	}
	v->pmu.now_ns = time_ns;
}

static inline void vcpu_end(struct vpmc_vcpu *v, uint64_t time_ns)
{
	v->t_prev = time_ns;
}

/* reference.c */
void vpmc__reference_deliver_pmi(struct vpmc_pmu *pmu);
bool vpmc__reference_counts(const struct vpmc_pmc *pmc);
void vpmc__reference_overflow_pmi(struct vpmc_pmc *pmc);

#endif /* VPMC_MODEL_LOCAL_H */
