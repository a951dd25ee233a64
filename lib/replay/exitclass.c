// SPDX-License-Identifier: GPL-2.0-only
/* exitclass.c - The class of a trace VM-exit and the cost terms it decides (exitclass.h). */
#include "config.h"

#include <string.h>

#include "exitclass.h"
#include "internal.h"
#include "msr-index.h"

#define MSR_X2APIC_ICR 0x830 /* a fastpath write (handle_fastpath_set_msr_irqoff) */

void replay_exit_init(struct replay_exit_state *s, const struct vpmc_pmu_config *cfg)
{
	memset(s, 0, sizeof(*s));
	s->cls = EXIT_OTHER;
	s->amd = cfg->vendor == VPMC_VENDOR_AMD;
	/* 0x6e0 is a fastpath write on Intel, and on AMD from 6.18 (0a94b2042419) */
	s->fast_6e0 = cfg->vendor == VPMC_VENDOR_INTEL || cfg->host_kernel >= VPMC_KERNEL(6, 18);
}

/* By the name kvm_exit prints: SVM_EXIT_REASONS ("interrupt", "vintr", "nmi", "hlt"),
 * VMX_EXIT_REASONS, or the kvm plugin's EXIT_* for SVM (trace-cmd report). */
static enum replay_exit_class class_of_reason(const char *r)
{
	if (!strcmp(r, "interrupt") || !strcmp(r, "EXTERNAL_INTERRUPT") || !strcmp(r, "EXIT_INTR"))
		return EXIT_INTR;
	if (!strcmp(r, "vintr") || !strcmp(r, "INTERRUPT_WINDOW") ||
	    !strcmp(r, "PENDING_INTERRUPT") || !strcmp(r, "EXIT_VINTR"))
		return EXIT_VINTR;
	if (!strcmp(r, "nmi") || !strcmp(r, "EXCEPTION_NMI") || !strcmp(r, "EXIT_NMI"))
		return EXIT_NMI;
	if (!strcmp(r, "hlt") || !strcmp(r, "HLT") || !strcmp(r, "EXIT_HLT"))
		return EXIT_HLT;
	return EXIT_OTHER;
}

/* A GP event select written: track counters that count instructions (event 0xc0), enabled. */
static void eventsel(struct replay_exit_state *s, uint32_t msr, uint64_t value)
{
	int n = -1;

	if (s->amd && msr >= MSR_F15H_PERF_CTL0 && msr <= MSR_F15H_PERF_CTR5 && !(msr & 1))
		n = (int)(msr - MSR_F15H_PERF_CTL0) / 2;
	else if (s->amd && msr >= MSR_K7_EVNTSEL0 && msr < MSR_K7_EVNTSEL0 + 4)
		n = (int)(msr - MSR_K7_EVNTSEL0);
	else if (!s->amd && msr >= MSR_P6_EVNTSEL0 && msr < MSR_P6_EVNTSEL0 + 8)
		n = (int)(msr - MSR_P6_EVNTSEL0);
	if (n < 0)
		return;
	if ((value & 0xff) == 0xc0 && (value & ARCH_PERFMON_EVENTSEL_ENABLE))
		s->insn_mask |= 1u << n;
	else
		s->insn_mask &= ~(1u << n);
}

void replay_exit_event(struct replay_exit_state *s, const struct vpmc_event *ev)
{
	switch (ev->type) {
	case VPMC_EV_EXIT:
		s->cls = class_of_reason(ev->reason);
		s->has_access = s->fast = false;
		break;
	case VPMC_EV_WRMSR:
		eventsel(s, ev->index, ev->value);
		s->has_access = true;
		if (ev->index == MSR_X2APIC_ICR ||
		    (ev->index == MSR_IA32_TSC_DEADLINE && s->fast_6e0))
			s->fast = true;
		break;
	case VPMC_EV_RDMSR:
	case VPMC_EV_RDPMC:
		s->has_access = true;
		break;
	case VPMC_EV_ENTRY:
		if (s->has_access)
			s->cls = s->fast ? EXIT_MSR_FAST : EXIT_MSR_SLOW;
		break;
	default:
		break;
	}
}

double replay_exit_class_us(const struct vpmc_cost *c, enum vpmc_policy_kind kind,
			    const struct replay_exit_state *s, bool drained)
{
	double sw = c->mediated_switch_cycles / c->cpu_ghz / 1000.0;

	if (kind == VPMC_POLICY_REFERENCE)
		return 0.0;
	if (kind == VPMC_POLICY_MEDIATED) {
		if (s->cls == EXIT_MSR_FAST)
			return s->insn_mask ? c->slowpath_tax_ns / 1000.0 + sw : 0.0;
		return sw;
	}
	return s->cls == EXIT_MSR_FAST && drained ? c->slowpath_tax_ns / 1000.0 : 0.0;
}
