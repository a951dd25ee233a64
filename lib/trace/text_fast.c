// SPDX-License-Identifier: GPL-2.0-only
/* text_fast.c - The fast path of the kvm tracepoint text parser: a line whose prefix and event
 * name are cached and whose payload is one of the frequent plain layouts, read with the cursor
 * in a register. Anything else (and anything unexpected) returns false and the general parser
 * (text.c) reads the line; both give the same record (tests/trace/check_text.c compares them on
 * every trace and on mutated lines). */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "text_scan.h"
#include "text_layouts.h"
#include "internal.h"

/* Hex digits at @p, after an optional "0x" (as parse_hex() takes it), at most 16. Return: where
 * they end, or NULL if there are none or more. */
static inline const char *fast_hex(const char *p, const char *end, uint64_t *out)
{
	const char *d;
	uint64_t v = 0;
	int x;

	if (end - p > 1 && p[0] == '0' && p[1] != 'x' && hex_val(p[1]) < 0) { /* a lone 0 */
		*out = 0;
		return p + 1;
	}
	if (end - p > 2 && p[0] == '0' && p[1] == 'x' && hex_val(p[2]) >= 0)
		p += 2;
	for (d = p; p < end && (x = hex_val(*p)) >= 0; p++)
		v = v << 4 | (uint64_t)x;
	if (p == d || p - d > 16)
		return NULL;
	*out = v;
	return p;
}

/* Decimal digits at @p, at most 19 (no overflow). Return: where they end, or NULL. */
static inline const char *fast_dec(const char *p, const char *end, uint64_t *out)
{
	const char *d = p;
	uint64_t v = 0;

	for (; p < end && is_digit(*p); p++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (p == d || p - d > 19)
		return NULL;
	*out = v;
	return p;
}

/* The word @w (@n bytes) at @p, followed by a space or the end. */
static inline bool fast_word(const char *p, const char *end, const char *w, size_t n)
{
	return (size_t)(end - p) >= n && !memcmp(p, w, n) && (p + n == end || p[n] == ' ');
}

static inline const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p;
}

/* Instruction bytes as parse_insn_bytes() reads them, one space apart (after the plugin's ": "
 * too): where the bytes end, or NULL for more than KVM_INSN_MAX. */
static inline const char *fast_insn(const char *p, const char *end, struct kvm_record *rec)
{
	unsigned int n = 0;
	int hi, lo;

	if (p < end && *p == ' ')
		p++;
	while (end - p >= 2) {
		if ((hi = hex_val(p[0])) < 0 || (lo = hex_val(p[1])) < 0 ||
		    (end - p > 2 && p[2] != ' '))
			break;
		if (n == KVM_INSN_MAX)
			return NULL;
		rec->insn[n++] = (uint8_t)(hi << 4 | lo);
		p += 2;
		if (p < end)
			p++;
	}
	rec->insn_len = (uint8_t)n;
	return p;
}

/* "(real)" ... "(prot64)" at @p, if there is a '('; NULL for a mode without a name. */
static inline const char *fast_mode(const char *p, const char *end, struct kvm_record *rec)
{
	size_t i;

	if (p == end || *p != '(')
		return p;
	for (i = KVM_MODE_REAL; i < ARRAY_SIZE(text_insn_modes); i++) {
		size_t m = strlen(text_insn_modes[i]);

		if (fast_word(p, end, text_insn_modes[i], m)) {
			rec->mode = (enum kvm_insn_mode)i;
			return skip_spaces(p + m, end);
		}
	}
	return NULL;
}

/*
 * @lay (text_scan.h) at @p, as the tools space it: steps apart by spaces, numbers whole, the
 * line ending after the last step. Return: true with the fields stored as parse_layout() stores
 * them, or false (the general parser decides).
 */
static inline __attribute__((always_inline)) bool fast_layout(const char *p, const char *end,
								struct kvm_record *rec,
								const struct tp_layout *lay)
{
	bool errno_name = false;
	unsigned int i;
	uint64_t v = 0;

	/* with @lay a constant, each layout's steps become straight-line code */
#pragma GCC unroll 16
	for (i = 0; i < lay->n; i++) {
		const struct tp_step *st = &lay->step[i];
		const struct tp_step *next = i + 1 < lay->n ? st + 1 : NULL;
		char also = next && next->glue && (next->op == TP_CHAR || next->op == TP_OPT_CHAR) ?
			    next->lit[0][0] : 0;
		const char *q;

		if (i && !st->glue) {
			if (p == end) /* what is left is optional, or missing */
				return st->op == TP_OPT || st->op == TP_FLAG;
			if (*p != ' ')
				return false;
			p = skip_spaces(p, end);
		}
		switch (st->op) {
		case TP_WORD:
		case TP_OPT:
			if (!fast_word(p, end, st->lit[0], st->len[0]))
				return false;
			p += st->len[0];
			break;
		case TP_CHOICE:
			if (fast_word(p, end, st->lit[0], st->len[0]))
				v = st->max;
			else if (fast_word(p, end, st->lit[1], st->len[1]))
				v = !st->max;
			else
				return false;
			p += st->len[v != st->max];
			field_store(rec, st->off, st->type, v);
			break;
		case TP_HEX:
		case TP_DEC:
			q = st->op == TP_HEX ? fast_hex(p, end, &v) : fast_dec(p, end, &v);
			if (!q || (q < end && *q != ' ' && *q != also) || v > st->max)
				return false;
			p = q;
			field_store(rec, st->off, st->type, errno_name ? 0 : v);
			break;
		case TP_HEXP:
			p = fast_hex(p, end, &v);
			if (!p)
				return false;
			field_store(rec, st->off, st->type, v);
			break;
		case TP_CHAR:
			if (p == end || *p != st->lit[0][0])
				return false;
			p++;
			break;
		case TP_OPT_CHAR:
			if (p < end && *p == st->lit[0][0])
				p++;
			break;
		case TP_FLAG:
			if (p == end)
				break;
			if (fast_word(p, end, st->lit[0], st->len[0]))
				p += st->len[0];
			else if (st->lit[1] && fast_word(p, end, st->lit[1], st->len[1]))
				p += st->len[1];
			else
				return false;
			field_store(rec, st->off, st->type, 1);
			break;
		case TP_EXIT_NAME:
			for (q = p; q < end && !is_sp(*q); q++)
				;
			if (q == p)
				return false;
			errno_name = is_errno_name(p, (size_t)(q - p));
			p = q;
			break;
		case TP_INSN:
			p = fast_insn(p, end, rec);
			if (!p)
				return false;
			break;
		case TP_MODE:
			p = fast_mode(p, end, rec);
			if (!p)
				return false;
			break;
		}
	}
	return p == end;
}

/*
 * The "name=value" form of a kind with a field table (text_raw_kinds[]), as raw_split() and
 * parse_raw() read it: fields apart by spaces, no ARRAY[...] values, each table field at most
 * once: the first one counts, as raw_get() finds it. Return: true with the fields stored, or
 * false (the general parser decides).
 */
static bool fast_raw(const char *p, const char *end, struct kvm_record *rec)
{
	const struct raw_kind *rk = &text_raw_kinds[rec->kind];
	uint64_t val[RAW_FIELDS_MAX];
	unsigned int seen = 0, nf = 0;
	size_t i;

	/* inj_virq needs one of two optional fields: the general parser says which is missing */
	if (!rk->n || rk->n > RAW_FIELDS_MAX || rec->kind == KVM_REC_INJ_VIRQ)
		return false;
	while (p < end) {
		const char *k = p, *v, *q;
		size_t klen;

		while (p < end && is_ident_char(*p))
			p++;
		if (p == k || p == end || *p != '=' || ++nf > RAW_FIELDS_MAX)
			return false;
		klen = (size_t)(p - k);
		v = ++p;
		if (end - p >= 6 && !memcmp(p, "ARRAY[", 6))
			return false;
		while (p < end && !is_sp(*p))
			p++;
		for (i = 0; i < rk->n; i++) {
			if (rk->spec[i].klen == klen && !memcmp(rk->spec[i].key, k, klen))
				break;
		}
		if (i < rk->n && !(seen & 1u << i)) {
			const struct raw_spec *sp = &rk->spec[i];
			bool hex = sp->base == HEX || (p - v > 2 && v[0] == '0' && v[1] == 'x');

			q = hex ? fast_hex(v, p, &val[i]) : fast_dec(v, p, &val[i]);
			if (q != p || val[i] > sp->max)
				return false;
			seen |= 1u << i;
		}
		if (p < end) {
			if (*p != ' ')
				return false;
			p = skip_spaces(p, end);
		}
	}
	for (i = 0; i < rk->n; i++) {
		const struct raw_spec *sp = &rk->spec[i];

		if (seen & 1u << i)
			field_store(rec, sp->off, sp->type, val[i]);
		else if (!sp->optional)
			return false;
	}
	raw_finish(rec);
	return true;
}

/*
 * The payload of a cached line, after its white space: read as parse_payload() would. A plain
 * layout is tried first: its first step takes no "name=" and no '[', so whatever it reads is not
 * the -R form parse_payload() looks for first.
 */
static inline __attribute__((always_inline)) bool fast_payload(const char *p, const char *end,
								 struct kvm_record *rec)
{
	switch (rec->kind) {
	case KVM_REC_OTHER:
	case KVM_REC_CPUID:
	case KVM_REC_HYPERCALL:
	case KVM_REC_NESTED_OTHER:
		return true; /* nothing the importer reads */
#define FAST(kind) \
	case kind: \
		if (fast_layout(p, end, rec, &text_layouts[kind])) \
			return true; \
		break
	FAST(KVM_REC_EMULATE_INSN);
	FAST(KVM_REC_MSR);
	FAST(KVM_REC_FPU);
	FAST(KVM_REC_ENTRY);
	FAST(KVM_REC_PIO);
	FAST(KVM_REC_USERSPACE_EXIT);
#undef FAST
	default:
		break;
	}
	if (p < end && *p == '[') {
		if ((size_t)(end - p) < sizeof(FAILED_TO_PARSE) - 1 ||
		    memcmp(p, FAILED_TO_PARSE, sizeof(FAILED_TO_PARSE) - 1))
			return false;
		p += sizeof(FAILED_TO_PARSE) - 1;
		while (p < end && is_sp(*p))
			p++;
	}
	return is_raw_form(p, end) && fast_raw(p, end, rec);
}

/* The MRU head and a cached name, "SSS.FFFFFF: " between them, a plain payload after. */
bool text_fast_line(struct text_parser *tp, const char *line, const char *end,
		    struct kvm_record *rec)
{
	const struct text_head *h = NULL;
	const char *t = NULL, *p;
	uint64_t sec, frac;
	unsigned int nd, nf, k, hi = 0;

	for (k = 0; k < TEXT_CACHE_WAYS; k++) {
		hi = (tp->last_head + k) % TEXT_CACHE_WAYS;
		h = &tp->head[hi];
		t = line + h->len;
		if (h->len && end - t >= 17 &&
		    (h->len < 8 || load64(t - 8) == load64(h->bytes + h->len - 8)) &&
		    mem_eq(line, h->bytes, h->len))
			break;
	}
	if (k == TEXT_CACHE_WAYS)
		return false;
	nd = digits8(t, &sec);
	if (!nd || nd == 8 || t[nd] != '.')
		return false;
	nf = digits8(t + nd + 1, &frac);
	p = t + nd + 1 + nf;
	if (!nf || nf == 8 || p[0] != ':' || p[1] != ' ')
		return false;
	for (p += 2; p < end && *p == ' ';)
		p++;
	for (k = 0; k < TEXT_NAME_WAYS; k++) {
		const struct text_name *e = &tp->name[(tp->last_name + k) % TEXT_NAME_WAYS];
		size_t n = e->len;

		if (n && (size_t)(end - p) >= n && (n < 8 || load64(p) == load64(e->tok)) &&
		    mem_eq(p, e->tok, n) && ((size_t)(end - p) == n || is_sp(p[n]))) {
			memset(rec, 0, sizeof(*rec));
			memcpy(rec->name, e->name, sizeof(rec->name));
			rec->kind = e->kind;
			p += n;
			break;
		}
	}
	if (k == TEXT_NAME_WAYS)
		return false;
	rec->vcpu = -1;
	while (end - p >= 8 && load64(p) == ALL_BYTES(' '))
		p += 8;
	while (p < end && *p == ' ')
		p++;
	if (!fast_payload(p, end, rec))
		return false;
	rec->time_ns = sec * 1000000000ull + frac * pow10_frac[nf];
	rec->has_time = true;
	rec->tid = h->tid;
	rec->cpu = h->cpu;
	tp->last_name = (tp->last_name + k) % TEXT_NAME_WAYS;
	tp->last_head = hi;
	return true;
}

