/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linux/kvm_host.h - The kernel's vCPU request helpers, and the pmu/vCPU accessors of
 * arch/x86/kvm/pmu.h, for the KVM twins. struct vpmc_pmu stands for the vCPU, so
 * pmu_to_vcpu() and vcpu_to_pmu() are the identity.
 */
#ifndef VPMC_LINUX_KVM_HOST_H
#define VPMC_LINUX_KVM_HOST_H

#include <stdbool.h>

#include "asm/kvm_host.h"

#define pmc_to_pmu(pmc) ((pmc)->pmu)
#define pmu_to_vcpu(pmu) (pmu)
#define vcpu_to_pmu(vcpu) (vcpu)

static inline void kvm_make_request(unsigned int req, struct vpmc_pmu *vcpu)
{
	vcpu->requests |= req;
}

/* Return: true if @req was pending; it is cleared. */
static inline bool kvm_check_request(unsigned int req, struct vpmc_pmu *vcpu)
{
	if (!(vcpu->requests & req))
		return false;
	vcpu->requests &= ~req;
	return true;
}

#endif /* VPMC_LINUX_KVM_HOST_H */
