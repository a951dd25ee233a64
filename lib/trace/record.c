// SPDX-License-Identifier: GPL-2.0-only
/* kvm_record.c - Names and codes shared by the kvm tracepoint readers (text and trace.dat). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <ctype.h>

#include "exit-reasons.h"
#include "record.h"
#include "internal.h"

static const struct {
	const char *name;
	enum kvm_rec_kind kind;
} kvm_kinds[] = {
	{ "kvm_entry", KVM_REC_ENTRY },
	{ "kvm_exit", KVM_REC_EXIT },
	{ "kvm_msr", KVM_REC_MSR },
	{ "kvm_emulate_insn", KVM_REC_EMULATE_INSN },
	{ "kvm_inj_exception", KVM_REC_INJ_EXCEPTION },
	{ "kvm_inj_virq", KVM_REC_INJ_VIRQ },
	{ "kvm_apic_accept_irq", KVM_REC_APIC_ACCEPT_IRQ },
	{ "kvm_eoi", KVM_REC_EOI },
	{ "kvm_apic", KVM_REC_APIC },
	{ "kvm_pio", KVM_REC_PIO },
	{ "kvm_mmio", KVM_REC_MMIO },
	{ "kvm_userspace_exit", KVM_REC_USERSPACE_EXIT },
	{ "kvm_cpuid", KVM_REC_CPUID },
	{ "kvm_fpu", KVM_REC_FPU },
	{ "kvm_hypercall", KVM_REC_HYPERCALL },
	{ "kvm_nested_vmexit", KVM_REC_NESTED_VMEXIT },
	{ "kvm_nested_vmexit_inject", KVM_REC_NESTED_VMEXIT_INJECT },
	{ "kvm_nested_vmenter", KVM_REC_NESTED_VMENTER },
	{ "kvm_nested_vmrun", KVM_REC_NESTED_VMENTER }, /* SVM's name before 5.19 */
};

enum kvm_rec_kind trace_record_kind_n(const char *name, size_t len)
{
	size_t i;

	/* Every kind we use is a "kvm_" event; most lines of a trace are, so test that first. */
	if (len < 7 || memcmp(name, "kvm_", 4))
		return KVM_REC_OTHER;
	for (i = 0; i < ARRAY_SIZE(kvm_kinds); i++) {
		if (strlen(kvm_kinds[i].name) == len && !memcmp(kvm_kinds[i].name, name, len))
			return kvm_kinds[i].kind;
	}
	if (len > 11 && !memcmp(name, "kvm_nested_", 11))
		return KVM_REC_NESTED_OTHER;
	return KVM_REC_OTHER;
}

enum kvm_rec_kind trace_record_kind(const char *name)
{
	return trace_record_kind_n(name, strlen(name));
}

/* arch/x86/kvm/trace.h: KVM_EMUL_INSN_F_CR0_PE (1 << 0), _EFL_VM (1 << 1), _CS_D (1 << 2),
 * _CS_L (1 << 3), combined as in kvm_trace_symbol_emul_flags. */
enum kvm_insn_mode trace_insn_mode_from_flags(unsigned int flags)
{
	switch (flags) {
	case 0:
		return KVM_MODE_REAL;
	case 0x1 | 0x2:
		return KVM_MODE_VM86;
	case 0x1:
		return KVM_MODE_PROT16;
	case 0x1 | 0x4:
		return KVM_MODE_PROT32;
	case 0x1 | 0x8:
		return KVM_MODE_PROT64;
	}
	return KVM_MODE_UNKNOWN;
}

#define KVM_ISA_VMX 1
#define KVM_ISA_SVM 2

unsigned int trace_exit_reason_isa(const char *reason)
{
	char word[40];
	size_t n = strcspn(reason, " "), i;
	uint32_t code;

	if (!strncmp(reason, "EXIT_", 5)) /* libtraceevent plugin_kvm.c's svm_exit_reasons */
		return KVM_ISA_SVM;
	if (x86_vmx_exit_code(reason, n, &code))
		return KVM_ISA_VMX;
	if (n >= sizeof(word))
		return 0;
	for (i = 0; i < n; i++)
		word[i] = (char)toupper((unsigned char)reason[i]);
	if (x86_vmx_exit_code(word, n, &code))
		return 0; /* lower case: an ancient VMX name, or an SVM one */
	/* "GP excp" has a space: compared whole, the others by their first word */
	memcpy(word, reason, n);
	word[n] = '\0';
	return x86_svm_exit_code(reason, &code) || x86_svm_exit_code(word, &code) ? KVM_ISA_SVM : 0;
}

bool trace_exit_reason_known(const char *reason)
{
	char word[40];
	size_t n = strcspn(reason, " "), i;
	uint32_t code;

	if (trace_exit_reason_isa(reason))
		return true;
	if (n >= sizeof(word))
		return false;
	for (i = 0; i < n; i++)
		word[i] = (char)toupper((unsigned char)reason[i]);
	return x86_vmx_exit_code(word, n, &code); /* lower case: VMX or SVM, not which */
}

void trace_exit_reason_name(unsigned int isa, uint64_t exit_reason, char *buf, size_t len)
{
	const char *name = NULL;
	uint32_t basic;

	if (isa == KVM_ISA_VMX) {
		/* kvm_print_exit_reason(): __print_symbolic(reason & 0xffff, VMX_EXIT_REASONS),
		 * then " " and __print_flags(reason & ~0xffff, " ", VMX_EXIT_REASON_FLAGS). */
		uint64_t flags = exit_reason & ~0xffffull;
		int n;

		basic = exit_reason & 0xffff;
		name = x86_vmx_exit_name(basic);
		n = name ? snprintf(buf, len, "%s", name) :
			   snprintf(buf, len, "0x%x", (unsigned int)basic);
		if (!flags || n < 0 || (size_t)n >= len)
			return;
		if (flags & VMX_EXIT_REASONS_FAILED_VMENTRY) {
			flags &= ~(uint64_t)VMX_EXIT_REASONS_FAILED_VMENTRY;
			n += snprintf(buf + n, len - n, " FAILED_VMENTRY%s", flags ? " " : "");
			if ((size_t)n >= len)
				return;
		} else {
			n += snprintf(buf + n, len - n, " ");
		}
		if (flags && (size_t)n < len)
			snprintf(buf + n, len - n, "0x%llx", (unsigned long long)flags);
		return;
	}
	if (exit_reason <= UINT32_MAX)
		name = x86_svm_exit_name((uint32_t)exit_reason);
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)exit_reason);
}

void trace_exit_kernel_name(struct trace_exit_names *c, char *reason)
{
	if (strcmp(c->raw, reason)) {
		snprintf(c->raw, sizeof(c->raw), "%s", reason);
		if (!x86_exit_kernel_name(reason, c->name, sizeof(c->name)))
			memcpy(c->name, c->raw, sizeof(c->name));
	}
	memcpy(reason, c->name, VPMC_REASON_MAX);
}
