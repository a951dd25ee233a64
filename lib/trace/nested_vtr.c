// SPDX-License-Identifier: GPL-2.0-only
/* nested_vtr.c - The .vtr's nested additions (trace-format.md, "Nested events"; nested-gpc.md
 * §6.9): the assumption keys of "!nested", the nested events, and their canonical writer. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "nested_import.h"
#include "numparse.h"
#include "vtr_token.h"

/* ---------------------------------------------------------------------------------------------
 * Assumption keys: one parser for "!nested" and for the options of nested and gen.
 */
static const char *const key_names[VPMC_NESTED_KEY_NR] = {
	[VPMC_NESTED_KEY_ISA] = "isa",
	[VPMC_NESTED_KEY_PROFILE] = "profile",
	[VPMC_NESTED_KEY_L1MEM] = "l1mem",
	[VPMC_NESTED_KEY_RECORDED] = "recorded",
	[VPMC_NESTED_KEY_GHZ] = "ghz",
	[VPMC_NESTED_KEY_APIC] = "apic",
	[VPMC_NESTED_KEY_PI] = "pi",
	[VPMC_NESTED_KEY_MSR_BITMAP] = "msr_bitmap",
	[VPMC_NESTED_KEY_IO_BITMAP] = "io_bitmap",
	[VPMC_NESTED_KEY_EVMCS] = "evmcs",
	[VPMC_NESTED_KEY_SVM_MERGE_CHUNKS] = "svm_merge_chunks",
	[VPMC_NESTED_KEY_SVM_INTERCEPTS] = "svm_intercepts",
};

void vpmc_nested_assume_default(struct vpmc_nested_assume *a)
{
	memset(a, 0, sizeof(*a));
	a->ghz_milli = 2450; /* M1's EPYC Milan; nested-gpc.md §6.8 */
	a->apic = VPMC_NESTED_X2APIC;
	a->pi = true;
	a->msr_bitmap = true;
	a->svm_merge_chunks = 10; /* nested_svm_init_msrpm_merge_offsets(), 2026 tree */
	/* VMCB intercept words of traces/public/23: KVM as L1 */
	a->svm_intercepts[0] = 0xfd44bfeb;
	a->svm_intercepts[1] = 0x0000217f;
}

const char *vpmc_nested_key_name(enum vpmc_nested_key k)
{
	return (unsigned int)k < VPMC_NESTED_KEY_NR ? key_names[k] : NULL;
}

static bool text_is(const char *p, size_t n, const char *s)
{
	return n == strlen(s) && !memcmp(p, s, n);
}

/* One of @words (NULL-terminated), as its index; -1 if none. */
static int word_index(const char *p, size_t n, const char *const *words)
{
	int i;

	for (i = 0; words[i]; i++) {
		if (text_is(p, n, words[i]))
			return i;
	}
	return -1;
}

/* "D[.DDD]": GHz with up to 3 decimals, as thousandths. */
static int parse_ghz(const char *p, size_t n, uint32_t *milli)
{
	const char *dot = memchr(p, '.', n);
	size_t in = dot ? (size_t)(dot - p) : n, fn = dot ? n - in - 1 : 0;
	uint64_t whole, frac = 0;
	size_t i;

	if (vpmc__parse_u64(p, in, 0, 0, 100, &whole) || (dot && (!fn || fn > 3)) ||
	    (fn && vpmc__parse_u64(dot + 1, fn, 0, 0, 999, &frac)))
		return -1;
	for (i = fn; i < 3; i++)
		frac *= 10;
	if (whole * 1000 + frac < 10 || whole * 1000 + frac > 100000)
		return -1;
	*milli = (uint32_t)(whole * 1000 + frac);
	return 0;
}

/* "W3,W4,W5": hex words without 0x. */
static int parse_words(const char *p, size_t n, uint32_t w[3])
{
	const char *end = p + n;
	char hex[2 + 8];
	uint32_t v[3];
	uint64_t x;
	int i;

	for (i = 0; i < 3; i++) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t len = (size_t)((c ? c : end) - p);

		if ((i < 2) != !!c || !len || len > 8)
			return -1;
		memcpy(hex, "0x", 2);
		memcpy(hex + 2, p, len);
		if (vpmc__parse_u64(hex, len + 2, VPMC__NUM_HEX, 0, 0xffffffffu, &x))
			return -1;
		v[i] = (uint32_t)x;
		p = c ? c + 1 : end;
	}
	memcpy(w, v, sizeof(v));
	return 0;
}

int vpmc_nested_assume_set(struct vpmc_nested_assume *a, const char *key, size_t klen,
			   const char *val, size_t vlen, const char **why)
{
	static const char *const isas[] = { "vmx", "svm", NULL };
	static const char *const profiles[] = { "debug", "prod", NULL };
	static const char *const mems[] = { "sp", "io", NULL };
	static const char *const designs[] = { "baseline", "gpc", NULL };
	static const char *const apics[] = { "x2apic", "xapic", "none", NULL };
	static const char *const bits[] = { "0", "1", NULL };
	struct vpmc_nested_assume t = *a;
	uint64_t v;
	int k, i = 0;

	for (k = 0; k < VPMC_NESTED_KEY_NR; k++) {
		if (text_is(key, klen, key_names[k]))
			break;
	}
	if (k == VPMC_NESTED_KEY_NR) {
		*why = "unknown key (expected isa, profile, l1mem, recorded, ghz, apic, pi, "
		       "msr_bitmap, io_bitmap, evmcs, svm_merge_chunks or svm_intercepts)";
		return VPMC_ERR_INVAL;
	}
	if (a->given & (1u << k)) {
		*why = "given twice";
		return VPMC_ERR_INVAL;
	}
	switch (k) {
	case VPMC_NESTED_KEY_ISA:
		i = word_index(val, vlen, isas);
		t.isa = i == 0 ? VPMC_NESTED_ISA_VMX : VPMC_NESTED_ISA_SVM;
		*why = "expected svm or vmx";
		break;
	case VPMC_NESTED_KEY_PROFILE:
		i = word_index(val, vlen, profiles);
		t.profile = (enum vpmc_nested_profile)i;
		*why = "expected debug or prod";
		break;
	case VPMC_NESTED_KEY_L1MEM:
		i = word_index(val, vlen, mems);
		t.l1mem = (enum vpmc_nested_mem)i;
		*why = "expected sp (struct page) or io (PFNMAP)";
		break;
	case VPMC_NESTED_KEY_RECORDED:
		i = word_index(val, vlen, designs);
		t.recorded = (enum vpmc_nested_design)i;
		*why = "expected baseline or gpc";
		break;
	case VPMC_NESTED_KEY_GHZ:
		i = parse_ghz(val, vlen, &t.ghz_milli);
		*why = "expected GHz, 0.01 to 100 with up to 3 decimals";
		break;
	case VPMC_NESTED_KEY_APIC:
		i = word_index(val, vlen, apics);
		t.apic = (enum vpmc_nested_apic)i;
		*why = "expected x2apic, xapic or none";
		break;
	case VPMC_NESTED_KEY_SVM_MERGE_CHUNKS:
		i = vpmc__parse_u64(val, vlen, 0, 1, 64, &v);
		t.svm_merge_chunks = (unsigned int)v;
		*why = "expected a number of merge reads, 1 to 64";
		break;
	case VPMC_NESTED_KEY_SVM_INTERCEPTS:
		i = parse_words(val, vlen, t.svm_intercepts);
		*why = "expected W3,W4,W5: three hex words without 0x";
		break;
	default: /* pi, msr_bitmap, io_bitmap, evmcs */
		i = word_index(val, vlen, bits);
		if (k == VPMC_NESTED_KEY_PI)
			t.pi = i == 1;
		else if (k == VPMC_NESTED_KEY_MSR_BITMAP)
			t.msr_bitmap = i == 1;
		else if (k == VPMC_NESTED_KEY_IO_BITMAP)
			t.io_bitmap = i == 1;
		else
			t.evmcs = i == 1;
		*why = "expected 0 or 1";
		break;
	}
	if (i < 0)
		return VPMC_ERR_INVAL;
	t.given |= 1u << k;
	*a = t;
	*why = NULL;
	return 0;
}

int vpmc_nested_assume_format(const struct vpmc_nested_assume *a, uint32_t keys, char *buf,
			      size_t len)
{
	static const char *const apics[] = { "x2apic", "xapic", "none" };
	size_t n = 0;
	int k, w;

	if (len)
		buf[0] = '\0';
	for (k = 0; k < VPMC_NESTED_KEY_NR; k++) {
		char val[40];

		if (!(keys & (1u << k)))
			continue;
		switch (k) {
		case VPMC_NESTED_KEY_ISA:
			snprintf(val, sizeof(val), "%s", a->isa == VPMC_NESTED_ISA_VMX ? "vmx" :
				 a->isa == VPMC_NESTED_ISA_SVM ? "svm" : "none");
			break;
		case VPMC_NESTED_KEY_PROFILE:
			snprintf(val, sizeof(val), "%s", a->profile ? "prod" : "debug");
			break;
		case VPMC_NESTED_KEY_L1MEM:
			snprintf(val, sizeof(val), "%s", a->l1mem ? "io" : "sp");
			break;
		case VPMC_NESTED_KEY_RECORDED:
			snprintf(val, sizeof(val), "%s", a->recorded ? "gpc" : "baseline");
			break;
		case VPMC_NESTED_KEY_GHZ: {
			unsigned int frac = a->ghz_milli % 1000, digits = 3;

			while (frac && !(frac % 10)) {
				frac /= 10;
				digits--;
			}
			if (frac)
				snprintf(val, sizeof(val), "%u.%0*u", a->ghz_milli / 1000, (int)digits,
					 frac);
			else
				snprintf(val, sizeof(val), "%u", a->ghz_milli / 1000);
			break;
		}
		case VPMC_NESTED_KEY_APIC:
			snprintf(val, sizeof(val), "%s", apics[a->apic % 3]);
			break;
		case VPMC_NESTED_KEY_PI:
			snprintf(val, sizeof(val), "%d", a->pi);
			break;
		case VPMC_NESTED_KEY_MSR_BITMAP:
			snprintf(val, sizeof(val), "%d", a->msr_bitmap);
			break;
		case VPMC_NESTED_KEY_IO_BITMAP:
			snprintf(val, sizeof(val), "%d", a->io_bitmap);
			break;
		case VPMC_NESTED_KEY_EVMCS:
			snprintf(val, sizeof(val), "%d", a->evmcs);
			break;
		case VPMC_NESTED_KEY_SVM_MERGE_CHUNKS:
			snprintf(val, sizeof(val), "%u", a->svm_merge_chunks);
			break;
		default:
			snprintf(val, sizeof(val), "%08x,%08x,%08x", a->svm_intercepts[0],
				 a->svm_intercepts[1], a->svm_intercepts[2]);
			break;
		}
		w = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s%s=%s",
			     n ? " " : "", key_names[k], val);
		n += (size_t)w;
	}
	return (int)n;
}

/* ---------------------------------------------------------------------------------------------
 * .vtr: "!nested" and the nested events.
 */
struct ncur {
	const char *p, *end;
	const char **at;
	char *msg;
};

static int __attribute__((format(printf, 3, 4))) nfail(struct ncur *c, const char *at,
							const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->msg, VTR_NESTED_MSG_MAX, fmt, ap);
	va_end(ap);
	*c->at = at;
	return VPMC_ERR_PARSE;
}

/* The next white-space separated token (@n = 0 at the end). */
static const char *tok(struct ncur *c, size_t *n)
{
	return vtr_token(&c->p, c->end, n);
}

int vtr_nested_directive(struct vpmc_nested_assume *a, const char *p, const char *end,
			 const char **at, char *msg)
{
	struct ncur c = { p, end, at, msg };
	struct vpmc_nested_assume t;
	const char *why, *s, *eq;
	size_t n;

	vpmc_nested_assume_default(&t);
	for (s = tok(&c, &n); n; s = tok(&c, &n)) {
		eq = memchr(s, '=', n);
		if (!eq)
			return nfail(&c, s, "!nested: expected key=value");
		if (vpmc_nested_assume_set(&t, s, (size_t)(eq - s), eq + 1, n - (size_t)(eq - s) - 1,
					   &why))
			return nfail(&c, strstr(why, "key") || strstr(why, "twice") ? s : eq + 1,
				     "!nested: %.*s: %s", (int)(eq - s), s, why);
	}
	*a = t;
	return 0;
}

enum vpmc_event_type vtr_nested_type(const char *p, size_t n)
{
	int t;

	for (t = VPMC_EV_NEXIT; t < VPMC_EV_NESTED_END; t++) {
		if (text_is(p, n, vpmc_event_type_name((enum vpmc_event_type)t)))
			return (enum vpmc_event_type)t;
	}
	return VPMC_EV_NR;
}

/* A number, decimal or 0x-hex, at most @max. */
static int num(struct ncur *c, const char *s, size_t n, uint64_t max, uint64_t *v,
	       const char *what)
{
	int ret = n ? vpmc__parse_u64(s, n, VPMC__NUM_HEX, 0, max, v) : -1;

	if (ret == -2)
		return nfail(c, s, "%s out of range (0..%#llx)", what, (unsigned long long)max);
	if (ret)
		return nfail(c, s, "expected %s (decimal, or hex with 0x)", what);
	return 0;
}

/* REASON: the tokens up to the first key=value one (or the end), joined by one space. */
static int reason(struct ncur *c, struct vpmc_event *ev, const char *name)
{
	size_t n, len = 0, i;
	const char *s, *before;

	for (;;) {
		before = c->p;
		s = tok(c, &n);
		if (!n || memchr(s, '=', n)) {
			c->p = before;
			break;
		}
		if (len + !!len + n >= sizeof(ev->reason))
			return nfail(c, s, "%s: reason longer than %zu characters", name,
				     sizeof(ev->reason) - 1);
		for (i = 0; i < n; i++) {
			if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e)
				return nfail(c, s + i, "%s: the reason must be printable ASCII", name);
		}
		if (len)
			ev->reason[len++] = ' ';
		memcpy(ev->reason + len, s, n);
		len += n;
	}
	if (!len)
		return nfail(c, c->p, "%s: expected the exit reason (e.g. cpuid, CPUID)", name);
	ev->reason[len] = '\0';
	return 0;
}

static int end_of_args(struct ncur *c, const char *name)
{
	size_t n;
	const char *s = tok(c, &n);

	return n ? nfail(c, s, "unexpected argument after %s", name) : 0;
}

int vtr_nested_args(struct vpmc_event *ev, const char *p, const char *end, const char **at,
		    char *msg)
{
	struct ncur c = { p, end, at, msg };
	const char *name = vpmc_event_type_name(ev->type), *s;
	uint64_t v[3];
	size_t n;
	int i;

	switch (ev->type) {
	case VPMC_EV_NEXIT:
		if (reason(&c, ev, name))
			return VPMC_ERR_PARSE;
		s = tok(&c, &n);
		if (n) {
			if (n < 7 || memcmp(s, "info1=", 6))
				return nfail(&c, s, "nexit: unknown argument (expected info1=N)");
			if (num(&c, s + 6, n - 6, UINT64_MAX, &ev->value, "info1"))
				return VPMC_ERR_PARSE;
			ev->has_value = true;
		}
		return end_of_args(&c, name);
	case VPMC_EV_NINJECT:
		return reason(&c, ev, name) ? VPMC_ERR_PARSE : end_of_args(&c, name);
	case VPMC_EV_NENTER:
		s = tok(&c, &n);
		if (num(&c, s, n, UINT64_MAX, &ev->value, "the VMCB12 / vmcs12 GPA"))
			return VPMC_ERR_PARSE;
		ev->has_value = true;
		return end_of_args(&c, name);
	case VPMC_EV_NINTERCEPTS:
		for (i = 0; i < 3; i++) {
			s = tok(&c, &n);
			if (n < 3 || s[0] != '0' || s[1] != 'x')
				return nfail(&c, s, "nintercepts: expected intercept word %d in hex "
					     "with 0x", 3 + i);
			if (num(&c, s, n, 0xffffffffu, &v[i], "an intercept word"))
				return VPMC_ERR_PARSE;
		}
		ev->index = (uint32_t)v[0];
		ev->value = v[1] << 32 | v[2];
		return end_of_args(&c, name);
	default: /* nfail, ninval */
		return end_of_args(&c, name);
	}
}

/* The same rule as the writer's for exit reasons: printable, single spaces, no '#'. */
static bool reason_ok(const char *r)
{
	size_t n = strnlen(r, VPMC_REASON_MAX);

	if (!n || n == VPMC_REASON_MAX || r[0] == ' ' || r[n - 1] == ' ')
		return false;
	for (; *r; r++) {
		if ((unsigned char)*r < 0x20 || (unsigned char)*r > 0x7e || *r == '#' ||
		    (r[0] == ' ' && r[1] == ' ') || *r == '=')
			return false;
	}
	return true;
}

int vtr_nested_write_args(FILE *out, const struct vpmc_event *ev)
{
	switch (ev->type) {
	case VPMC_EV_NEXIT:
		if (!reason_ok(ev->reason))
			return VPMC_ERR_INVAL;
		fprintf(out, " %s", ev->reason);
		if (ev->has_value)
			fprintf(out, " info1=0x%llx", (unsigned long long)ev->value);
		break;
	case VPMC_EV_NINJECT:
		if (!reason_ok(ev->reason))
			return VPMC_ERR_INVAL;
		fprintf(out, " %s", ev->reason);
		break;
	case VPMC_EV_NENTER:
		fprintf(out, " 0x%llx", (unsigned long long)ev->value);
		break;
	case VPMC_EV_NINTERCEPTS:
		fprintf(out, " 0x%x 0x%x 0x%x", ev->index, (unsigned int)(ev->value >> 32),
			(unsigned int)ev->value);
		break;
	default:
		break;
	}
	putc('\n', out);
	return ferror(out) ? VPMC_ERR_IO : 0;
}

int vpmc_vtr_write_nested(FILE *out, const struct vpmc_nested_assume *a)
{
	char buf[512];

	if (!out || !a)
		return VPMC_ERR_INVAL;
	vpmc_nested_assume_format(a, a->given, buf, sizeof(buf));
	fprintf(out, "!nested%s%s\n", buf[0] ? " " : "", buf);
	return ferror(out) ? VPMC_ERR_IO : 0;
}
