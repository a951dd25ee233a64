// SPDX-License-Identifier: GPL-2.0-only
/* nested_import.c - kvm_nested_* tracepoint records as nested events (nested-gpc.md §6.1, §6.9),
 * for a reader opened with vpmc_reader_opts.nested. The text parser gives the kind and reason of
 * each record; the fields only the nested model needs (info1, the VMCB12 / vmcs12 GPA and its
 * label, the intercept words) are read here from the same line, so nothing changes for the
 * other commands. Layouts: arch/x86/kvm/trace.h (K4) and libtraceevent's kvm plugin. */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "exit-reasons.h"
#include "nested_import.h"
#include "numparse.h"

struct scan {
	const char *p, *end;
};

static bool sp(char ch)
{
	return ch == ' ' || ch == '\t';
}

static bool next_word(struct scan *s, const char **w, size_t *n)
{
	while (s->p < s->end && sp(*s->p))
		s->p++;
	*w = s->p;
	while (s->p < s->end && !sp(*s->p))
		s->p++;
	*n = (size_t)(s->p - *w);
	return *n > 0;
}

static bool word_is(const char *w, size_t n, const char *s)
{
	return n == strlen(s) && !memcmp(w, s, n);
}

/* A hex number, with or without 0x (the plugin prints %llx, the kernel 0x%016llx). */
static bool hex_word(const char *w, size_t n, uint64_t max, uint64_t *v)
{
	char buf[2 + 16];

	if (n > 2 && w[0] == '0' && w[1] == 'x')
		return !vpmc__parse_u64(w, n, VPMC__NUM_HEX, 0, max, v);
	if (!n || n > 16)
		return false;
	memcpy(buf, "0x", 2);
	memcpy(buf + 2, w, n);
	return !vpmc__parse_u64(buf, n + 2, VPMC__NUM_HEX, 0, max, v);
}

/* The payload: what follows "NAME:" (perf script prints "kvm:NAME:"). */
static bool payload(const struct kvm_record *rec, const char *line, size_t len, struct scan *s)
{
	size_t nl = strlen(rec->name);
	const char *p = line, *end = line + len;

	while (nl && (p = memchr(p, rec->name[0], (size_t)(end - p)))) {
		if ((size_t)(end - p) > nl && !memcmp(p, rec->name, nl) && p[nl] == ':' &&
		    (p == line || sp(p[-1]) || p[-1] == ':')) {
			s->p = p + nl + 1;
			s->end = end;
			return true;
		}
		p++;
	}
	return false;
}

/*
 * kvm_nested_vmexit: "info1 0x%016llx" (TRACE_EVENT_KVM_EXIT, 5.9+), "info1 %llx" (plugin),
 * "ext_inf1: 0x%016llx" (before 5.9). kvm_nested_vmenter: "vmcb: 0x.." or "vmcs: 0x.." (its
 * isa field), kvm_nested_vmrun "vmcb: 0x..". kvm_nested_intercepts: "intercepts: %08x %08x
 * %08x"; older kernels one u64 or two u32 ("intercept:" / "intercepts:").
 */
void nested_text_fields(struct kvm_record *rec, const char *line, size_t len)
{
	struct kvm_nested_fields *f = &rec->nested;
	const char *w, *v;
	size_t n, vn;
	struct scan s;
	uint64_t x;
	int i;

	memset(f, 0, sizeof(*f));
	if (rec->kind == KVM_REC_NESTED_VMENTER && !strcmp(rec->name, "kvm_nested_vmrun"))
		f->isa = VPMC_NESTED_ISA_SVM; /* SVM's name before the rename */
	if (!payload(rec, line, len, &s))
		return;
	while (next_word(&s, &w, &n)) {
		switch (rec->kind) {
		case KVM_REC_NESTED_VMEXIT:
			if (!word_is(w, n, "info1") && !word_is(w, n, "ext_inf1:"))
				break;
			if (next_word(&s, &v, &vn) && hex_word(v, vn, UINT64_MAX, &x)) {
				f->info1 = x;
				f->has_info1 = true;
			}
			return;
		case KVM_REC_NESTED_VMENTER:
			if (!word_is(w, n, "vmcb:") && !word_is(w, n, "vmcs:"))
				break;
			f->isa = w[3] == 'b' ? VPMC_NESTED_ISA_SVM : VPMC_NESTED_ISA_VMX;
			if (next_word(&s, &v, &vn) && hex_word(v, vn, UINT64_MAX, &x)) {
				f->gpa = x;
				f->has_gpa = true;
			}
			return;
		default: /* kvm_nested_intercepts */
			if (!word_is(w, n, "intercepts:") && !word_is(w, n, "intercept:"))
				break;
			for (i = 0; i < 3 && next_word(&s, &v, &vn); i++) {
				if (!hex_word(v, vn, UINT64_MAX, &x))
					break;
				f->words[i] = (uint32_t)x; /* a u64 first word: its low half */
			}
			return;
		}
	}
}

/* One exit name per exit (issue 17 item 8): the kernel's, as for kvm_exit (import.c). */
static void kernel_reason(struct vpmc_event *ev, const struct kvm_record *rec)
{
	if (!x86_exit_kernel_name(rec->reason, ev->reason, sizeof(ev->reason)))
		memcpy(ev->reason, rec->reason, sizeof(ev->reason));
}

bool nested_record_event(const struct kvm_record *rec, struct vpmc_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->cpl = VPMC_CPL_KEEP;
	ev->insn = rec->nested.line; /* a held record comes out after later lines were read */
	switch (rec->kind) {
	case KVM_REC_NESTED_VMEXIT:
		ev->type = VPMC_EV_NEXIT;
		kernel_reason(ev, rec);
		ev->value = rec->nested.info1;
		ev->has_value = rec->nested.has_info1;
		return true;
	case KVM_REC_NESTED_VMEXIT_INJECT:
		ev->type = VPMC_EV_NINJECT;
		kernel_reason(ev, rec);
		return true;
	case KVM_REC_NESTED_VMENTER:
		ev->type = VPMC_EV_NENTER;
		ev->value = rec->nested.gpa;
		ev->has_value = rec->nested.has_gpa;
		ev->index = rec->nested.isa;
		return true;
	case KVM_REC_NESTED_OTHER:
		if (!strcmp(rec->name, "kvm_nested_intercepts")) {
			ev->type = VPMC_EV_NINTERCEPTS;
			ev->index = rec->nested.words[0];
			ev->value = (uint64_t)rec->nested.words[1] << 32 | rec->nested.words[2];
			return true;
		}
		if (!strcmp(rec->name, "kvm_nested_vmenter_failed")) {
			ev->type = VPMC_EV_NFAIL;
			return true;
		}
		return false; /* kvm_nested_intr_vmexit: informational (§6.1) */
	default:
		return false;
	}
}
