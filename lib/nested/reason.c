// SPDX-License-Identifier: GPL-2.0-only
/* reason.c - Exit reasons as the nested model reads them: SVM's two alphabets (the kernel's
 * SVM_EXIT_REASONS in lower case, libtraceevent's kvm plugin EXIT_*) mapped onto exit codes,
 * VMX names compared on their first word (nested-gpc.md §6.4). */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "exit-reasons.h"
#include "nested-local.h"

/* The role of VMX basic exit reason @code. */
static enum nested_rclass vmx_class(uint32_t code)
{
	switch (code) {
	case EXIT_REASON_CPUID:
		return NR_CPUID;
	case EXIT_REASON_MSR_READ:
	case EXIT_REASON_MSR_WRITE:
	case EXIT_REASON_MSR_READ_IMM:
	case EXIT_REASON_MSR_WRITE_IMM:
		return NR_MSR;
	case EXIT_REASON_IO_INSTRUCTION:
		return NR_IO;
	case EXIT_REASON_VMLAUNCH:
	case EXIT_REASON_VMRESUME:
		return NR_ENTRY;
	/* nested_vmx_l0_wants_exit(): L0 keeps these; an inject after one is synthesized */
	case EXIT_REASON_EXTERNAL_INTERRUPT:
	case EXIT_REASON_EPT_VIOLATION:
	case EXIT_REASON_EPT_MISCONFIG:
	case EXIT_REASON_PREEMPTION_TIMER:
	case EXIT_REASON_PML_FULL:
	case EXIT_REASON_BUS_LOCK:
		return NR_L0_OWNED;
	default:
		return NR_OTHER;
	}
}

/* The length of @s's first word. */
static size_t first_word(const char *s)
{
	return strcspn(s, " ");
}

/* A VMX name: upper case, digits and '_' (the ancient lower-case names are not told apart). */
static bool vmx_spelling(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	}
	return n > 0;
}

void nested_reason(const char *reason, struct nested_reason *r)
{
	size_t n = first_word(reason);
	uint32_t code;

	memset(r, 0, sizeof(*r));
	if (x86_svm_exit_code(reason, &code)) {
		r->isa = VPMC_NESTED_ISA_SVM;
		r->code = code;
		switch (r->code) {
		case SVM_EXIT_CPUID:
			r->cls = NR_CPUID;
			break;
		case SVM_EXIT_MSR:
			r->cls = NR_MSR;
			break;
		case SVM_EXIT_IOIO:
			r->cls = NR_IO;
			break;
		case SVM_EXIT_VMRUN:
			r->cls = NR_ENTRY;
			break;
		case SVM_EXIT_RSM:
			r->cls = NR_RSM;
			break;
		case SVM_EXIT_VMLOAD:
		case SVM_EXIT_VMSAVE:
			r->cls = NR_VMLOAD_SAVE;
			break;
		/* nested_svm_exit_special(): INTR, NMI and NPF stay in L0 */
		case SVM_EXIT_INTR:
		case SVM_EXIT_NMI:
		case SVM_EXIT_NPF:
			r->cls = NR_L0_OWNED;
			break;
		}
		return;
	}
	if (!vmx_spelling(reason, n))
		return;
	r->isa = VPMC_NESTED_ISA_VMX;
	if (!x86_vmx_exit_code(reason, n, &code))
		return;
	r->cls = vmx_class(code);
}

bool nested_reason_same(const char *a, const char *b)
{
	struct nested_reason ra, rb;
	size_t na = first_word(a), nb = first_word(b);

	nested_reason(a, &ra);
	nested_reason(b, &rb);
	if (ra.isa == VPMC_NESTED_ISA_SVM && rb.isa == VPMC_NESTED_ISA_SVM)
		return ra.code == rb.code;
	return na == nb && !strncasecmp(a, b, na);
}
