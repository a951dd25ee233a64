// SPDX-License-Identifier: GPL-2.0-only
/*
 * reference.c - The reference counter: an ideal architectural counter, the yardstick of every
 * policy. It shares lib/kvm's mediated paths (pmu->mediated, the twin of enable_mediated_pmu,
 * is set for it too) and leaves them only here, where guest.c and vcpu.c test pmu->reference
 * (architecture.md §4.3); lib/kvm never reads pmu->reference.
 */
#include "config.h"

#include "model-local.h"

/*
 * PMI at the event: the reference's PMI reaches the guest at the instruction that raised it,
 * not at the next VM-entry. Called after each retired instruction and each guest step.
 */
void vpmc__reference_deliver_pmi(struct vpmc_pmu *pmu)
{
	if (pmu->requests & KVM_REQ_PMI) {
		pmu->requests &= ~KVM_REQ_PMI;
		kvm_pmu_deliver_pmi(pmu);
	}
}

/*
 * Whether the counter counts in a guest segment: its architectural enables (EN or the fixed
 * nibble, GLOBAL_CTRL, the CPL bits) and the event filter, not a loaded hardware selector.
 */
bool vpmc__reference_counts(const struct vpmc_pmc *pmc)
{
	return pmc_is_locally_enabled(pmc) && pmc_is_globally_enabled(pmc) &&
	       vpmc__pmc_is_event_allowed(pmc) && vpmc__cpl_is_matched(pmc);
}

/*
 * A counter wrapped in a guest segment: the PMI is requested by the counter's current INT bit
 * (fixed: its PMI bit), and guest mode is not left, since no host PMI interrupts an ideal
 * counter; vpmc__reference_deliver_pmi() delivers it at this instruction.
 */
void vpmc__reference_overflow_pmi(struct vpmc_pmc *pmc)
{
	if (vpmc__pmc_is_pmi_enabled(pmc))
		pmc->pmu->requests |= KVM_REQ_PMI;
}
