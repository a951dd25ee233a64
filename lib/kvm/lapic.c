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

/*
 * Mirrors __apic_accept_irq(): whether the local APIC accepts an interrupt of @delivery_mode.
 * Fixed and LowPrio need a level-asserted or edge interrupt; SMI is accepted when
 * kvm_inject_smi() succeeds (CONFIG_KVM_SMM=y: it only makes a request); RemRd (pv_unhalted),
 * NMI, INIT (asserted or edge) and StartUp are accepted; ExtINT is not ("already handled by
 * kvm_apic_accept_pic_intr()"). Left out: what each mode then does to the vCPU (IRR/TMR, NMI,
 * SMI, INIT/SIPI injection, apic_arb_prio, kicks), rtc_status, the printk of the default case
 * (unreachable: the mode is 3 bits); the APIC is always software-enabled here.
 */
static int __apic_accept_irq(struct vpmc_pmu *apic, int delivery_mode, int vector, int level,
			     int trig_mode)
{
	int result = 0;

	(void)apic;
	(void)vector;
	switch (delivery_mode) {
	case APIC_DM_LOWEST:
		/* fallthrough */
	case APIC_DM_FIXED:
		if (trig_mode && !level)
			break;
		result = 1;
		break;
	case APIC_DM_REMRD:
		result = 1;
		break;
	case APIC_DM_SMI:
		result = 1; /* !kvm_inject_smi(vcpu) */
		break;
	case APIC_DM_NMI:
		result = 1;
		break;
	case APIC_DM_INIT:
		if (!trig_mode || level)
			result = 1;
		break;
	case APIC_DM_STARTUP:
		result = 1;
		break;
	case APIC_DM_EXTINT:
		/*
		 * Should only be called by kvm_apic_local_deliver() with LVT0, before NMI watchdog
		 * was enabled. Already handled by kvm_apic_accept_pic_intr().
		 */
		break;
	default:
		break;
	}
	return result;
}

/**
 * kvm_apic_local_deliver() - Mirrors kvm_apic_local_deliver() for APIC_LVTPC: unless the LVT is
 * masked, hand its vector, delivery mode and trigger mode to __apic_accept_irq(); if that
 * accepted it, mask LVTPC for Intel-compatible guests (49ff3b4aec51, 6.9).
 * @apic: vCPU
 * @lvt_type: APIC_LVTPC
 *
 * Return: 1 if __apic_accept_irq() accepted the interrupt, 0 if the LVT is masked or the delivery
 * mode is ExtINT.
 */
int kvm_apic_local_deliver(struct vpmc_pmu *apic, int lvt_type)
{
	uint32_t reg = kvm_lapic_get_reg(apic, lvt_type);
	int vector, mode, trig_mode;
	int r;

	if (pmu_host_before(apic, 6, 9))
		return kvm_apic_local_deliver_pre_6_9(apic, lvt_type);

	if (!(reg & APIC_LVT_MASKED)) {
		vector = reg & APIC_VECTOR_MASK;
		mode = reg & APIC_MODE_MASK;
		trig_mode = reg & APIC_LVT_LEVEL_TRIGGER;

		r = __apic_accept_irq(apic, mode, vector, 1, trig_mode);
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
	int vector, mode, trig_mode;
	int r;

	if (pmu_host_before(apic, 6, 6))
		return kvm_apic_local_deliver_pre_6_6(apic, lvt_type);

	if (!(reg & APIC_LVT_MASKED)) {
		vector = reg & APIC_VECTOR_MASK;
		mode = reg & APIC_MODE_MASK;
		trig_mode = reg & APIC_LVT_LEVEL_TRIGGER;

		r = __apic_accept_irq(apic, mode, vector, 1, trig_mode);
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
	int vector, mode, trig_mode;

	if (!(reg & APIC_LVT_MASKED)) {
		vector = reg & APIC_VECTOR_MASK;
		mode = reg & APIC_MODE_MASK;
		trig_mode = reg & APIC_LVT_LEVEL_TRIGGER;
		return __apic_accept_irq(apic, mode, vector, 1, trig_mode);
	}
	return 0;
}
