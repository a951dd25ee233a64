/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86.h - Excerpt of arch/x86/kvm/x86.h: whether the host interrupt being handled came from
 * guest mode (kvm_before_interrupt() ... kvm_after_interrupt() around the NMI of a VM-exit).
 */
#ifndef VPMC_KVM_X86_H
#define VPMC_KVM_X86_H

#include <stdbool.h>

#include "asm/kvm_host.h"

/* enum kvm_intr_type */
enum kvm_intr_type {
	/* Values are arbitrary, but must be non-zero. */
	KVM_HANDLING_IRQ = 1,
	KVM_HANDLING_NMI,
};

/* Mirrors kvm_before_interrupt(): the host is handling an interrupt that exited guest mode. */
static inline void kvm_before_interrupt(struct vpmc_pmu *vcpu, enum kvm_intr_type intr)
{
	vcpu->handling_intr_from_guest = (uint8_t)intr;
}

/* Mirrors kvm_after_interrupt(). */
static inline void kvm_after_interrupt(struct vpmc_pmu *vcpu)
{
	vcpu->handling_intr_from_guest = 0;
}

/* Mirrors kvm_handling_nmi_from_guest(). */
static inline bool kvm_handling_nmi_from_guest(const struct vpmc_pmu *vcpu)
{
	return vcpu->handling_intr_from_guest == KVM_HANDLING_NMI;
}

#endif /* VPMC_KVM_X86_H */
