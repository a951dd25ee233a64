// SPDX-License-Identifier: GPL-2.0-only
/*
 * lapic.c - Excerpts of arch/x86/kvm/lapic.c (B-7.0) for the one LVT the vPMU uses, LVTPC: its
 * delivery (kvm_apic_local_deliver()) and its write (kvm_lapic_reg_write()). "apic" stands for
 * the vCPU, as "pmu" does, and the in-kernel APIC is always hardware- and software-enabled.
 * Legacy forks in the vpmcsim block at the end.
 */
#include "config.h"

#include "pmu.h"
#include "vpmcsim.h"

/* The legacy forks (vpmcsim block) */
static int kvm_apic_local_deliver_pre_6_9(struct vpmc_pmu *apic, int lvt_type);
static int kvm_apic_local_deliver_pre_6_6(struct vpmc_pmu *apic, int lvt_type);

/* Mirrors kvm_lapic_get_reg() (lapic.h) for the one register modeled, APIC_LVTPC. */
static inline uint32_t kvm_lapic_get_reg(const struct vpmc_pmu *apic, int reg_off)
{
	(void)reg_off;
	return apic->lvtpc;
}

/* Mirrors kvm_lapic_set_reg() (lapic.h) for the one register modeled, APIC_LVTPC. */
static inline void kvm_lapic_set_reg(struct vpmc_pmu *apic, int reg_off, uint32_t val)
{
	(void)reg_off;
	apic->lvtpc = val;
}

/* Mirrors guest_cpuid_is_intel_compatible() (cpuid.h): the guest's vendor is Intel. */
static inline bool guest_cpuid_is_intel_compatible(const struct vpmc_pmu *vcpu)
{
	return vcpu->vendor == VPMC_VENDOR_INTEL;
}

/**
 * kvm_apic_local_deliver() - Mirrors kvm_apic_local_deliver() for APIC_LVTPC: deliver unless
 * the LVT is masked; then mask LVTPC for Intel-compatible guests (49ff3b4aec51, 6.9). Left
 * out: vector, delivery and trigger mode (__apic_accept_irq() always accepts the PMI here).
 * @apic: vCPU
 * @lvt_type: APIC_LVTPC
 *
 * Return: 1 if the interrupt was delivered, 0 if the LVT is masked.
 */
int kvm_apic_local_deliver(struct vpmc_pmu *apic, int lvt_type)
{
	uint32_t reg = kvm_lapic_get_reg(apic, lvt_type);
	int r;

	if (pmu_host_before(apic, 6, 9))
		return kvm_apic_local_deliver_pre_6_9(apic, lvt_type);

	if (!(reg & APIC_LVT_MASKED)) {
		r = 1; /* __apic_accept_irq() */
		if (r && lvt_type == APIC_LVTPC && guest_cpuid_is_intel_compatible(apic))
			kvm_lapic_set_reg(apic, APIC_LVTPC, reg | APIC_LVT_MASKED);
		return r;
	}
	return 0;
}

/* ---- vpmcsim ---- */

/**
 * vpmc__lapic_write_lvtpc() - Mirrors the APIC_LVTPC case of kvm_lapic_reg_write(): only the
 * LVT's writable bits are kept (apic_lvt_mask[]).
 * @vcpu: vCPU
 * @val: value written
 */
void vpmc__lapic_write_lvtpc(struct vpmc_pmu *vcpu, uint32_t val)
{
	kvm_lapic_set_reg(vcpu, APIC_LVTPC, val & APIC_LVT_WRITABLE);
}

/*
 * kvm_apic_local_deliver() from a16eb25b09c0 (6.6) to 49ff3b4aec51 (6.9): LVTPC is masked
 * after every delivery, for AMD guests too.
 */
static int kvm_apic_local_deliver_pre_6_9(struct vpmc_pmu *apic, int lvt_type)
{
	uint32_t reg = kvm_lapic_get_reg(apic, lvt_type);
	int r;

	if (pmu_host_before(apic, 6, 6))
		return kvm_apic_local_deliver_pre_6_6(apic, lvt_type);

	if (!(reg & APIC_LVT_MASKED)) {
		r = 1; /* __apic_accept_irq() */
		if (r && lvt_type == APIC_LVTPC)
			kvm_lapic_set_reg(apic, APIC_LVTPC, reg | APIC_LVT_MASKED);
		return r;
	}
	return 0;
}

/* kvm_apic_local_deliver() before a16eb25b09c0 (6.6): LVTPC stays unmasked. */
static int kvm_apic_local_deliver_pre_6_6(struct vpmc_pmu *apic, int lvt_type)
{
	uint32_t reg = kvm_lapic_get_reg(apic, lvt_type);

	if (!(reg & APIC_LVT_MASKED))
		return 1; /* __apic_accept_irq() */
	return 0;
}
