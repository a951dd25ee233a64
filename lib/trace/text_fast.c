/* text_fast.c - The fast path of the kvm tracepoint text parser: a line whose prefix and event
 * name are cached and whose payload is one of the frequent plain layouts, read with the cursor
 * in a register. Anything else (and anything unexpected) returns false and the general parser
 * (text.c) reads the line; both give the same record (tests/trace/check_text.c compares them on
 * every trace and on mutated lines). */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "text_scan.h"
#include "internal.h"

/* Hex digits up to @stop (a byte that must follow), at most 16. NULL if not that shape. */
static inline const char *fast_hex(const char *p, const char *end, char stop, uint64_t *out)
{
	const char *d = p;
	uint64_t v = 0;
	int x;

	while (p < end && (x = hex_val(*p)) >= 0) {
		v = v << 4 | (uint64_t)x;
		p++;
	}
	if (p == d || p - d > 16 || (stop && (p == end || *p != stop)))
		return NULL;
	*out = v;
	return p;
}

static inline bool fast_is(const char *p, const char *end, const char *lit, size_t n)
{
	return (size_t)(end - p) >= n && !memcmp(p, lit, n);
}

#define FAST_IS(p, end, lit) fast_is((p), (end), (lit), sizeof(lit) - 1)

/* "0:3000: 66 01 d8", "0:3000:66 01 d8 (real)", with "FAIL" / " failed". */
static bool fast_emulate_insn(const char *p, const char *end, struct kvm_record *rec)
{
	uint64_t csbase;
	unsigned int n = 0;
	size_t i;

	if (end - p > 2 && p[0] == '0' && p[1] == ':') /* CS base 0, the usual */
		p++;
	else if (!(p = fast_hex(p, end, ':', &csbase)))
		return false;
	p = fast_hex(p + 1, end, ':', &rec->rip);
	if (!p)
		return false;
	p++;
	if (p < end && *p == ' ') /* the plugin's ": " */
		p++;
	/* bytes "XX" separated by one space; anything else goes to the general parser */
	while (end - p >= 2) {
		int hi = hex_val(p[0]), lo = hex_val(p[1]);

		if ((hi | lo) < 0 || (end - p > 2 && p[2] != ' '))
			break;
		if (n == KVM_INSN_MAX)
			return false;
		rec->insn[n++] = (uint8_t)(hi << 4 | lo);
		p += 2;
		if (p < end)
			p++;
	}
	rec->insn_len = (uint8_t)n;
	if (p == end)
		return true;
	if (*p == '(') {
		for (i = KVM_MODE_REAL; i < ARRAY_SIZE(text_insn_modes); i++) {
			size_t m = strlen(text_insn_modes[i]);

			if ((size_t)(end - p) >= m && !memcmp(p, text_insn_modes[i], m) &&
			    (p + m == end || p[m] == ' ')) {
				rec->mode = (enum kvm_insn_mode)i;
				p += m;
				break;
			}
		}
		if (rec->mode == KVM_MODE_UNKNOWN)
			return false;
		if (p == end)
			return true;
		if (*p++ != ' ')
			return false;
	}
	if ((end - p == 4 && !memcmp(p, "FAIL", 4)) || (end - p == 6 && !memcmp(p, "failed", 6))) {
		rec->failed = true;
		return true;
	}
	return false;
}

/* Decimal digits up to @stop (or the end if 0), at most 9 (no overflow). NULL if not that. */
static inline const char *fast_dec(const char *p, const char *end, char stop, uint64_t *out)
{
	const char *d = p;
	uint64_t v = 0;

	while (p < end && is_digit(*p))
		v = v * 10 + (uint64_t)(*p++ - '0');
	if (p == d || p - d > 9 || (stop && (p == end || *p != stop)) || (!stop && p != end))
		return NULL;
	*out = v;
	return p;
}

/* "pio_write at 0x3f8 size 1 count 1 val 0x34" (the trailing space trimmed) */
static bool fast_pio(const char *p, const char *end, struct kvm_record *rec)
{
	uint64_t v;

	if (FAST_IS(p, end, "pio_write at 0x")) {
		rec->write = true;
		p += 15;
	} else if (FAST_IS(p, end, "pio_read at 0x")) {
		p += 14;
	} else {
		return false;
	}
	p = fast_hex(p, end, ' ', &v);
	if (!p || v > 0xffff || !FAST_IS(p, end, " size "))
		return false;
	rec->port = (uint32_t)v;
	p = fast_dec(p + 6, end, ' ', &v);
	if (!p || !FAST_IS(p, end, " count "))
		return false;
	rec->size = (uint32_t)v;
	p = fast_dec(p + 7, end, ' ', &v);
	if (!p || !FAST_IS(p, end, " val 0x"))
		return false;
	rec->count = (uint32_t)v;
	p = fast_hex(p + 7, end, 0, &rec->data);
	return p == end && rec->data <= 0xffffffffull;
}

/* "reason KVM_EXIT_IO (2)"; "restart"/"error" carry an errno, not the reason. */
static bool fast_userspace_exit(const char *p, const char *end, struct kvm_record *rec)
{
	const char *name, *q;
	uint64_t v;

	if (!FAST_IS(p, end, "reason "))
		return false;
	name = p += 7;
	while (p < end && !is_sp(*p))
		p++;
	if (p == name || !FAST_IS(p, end, " ("))
		return false;
	q = fast_dec(p + 2, end, ')', &v);
	if (!q || q + 1 != end)
		return false;
	if ((p - name == 7 && !memcmp(name, "restart", 7)) ||
	    (p - name == 5 && !memcmp(name, "error", 5)))
		v = 0;
	rec->exit_reason = (uint32_t)v;
	return true;
}

/* "[FAILED TO PARSE] exception=13 has_error=0 error_code=0 reinjected=0" (trace-cmd report on
 * 6.x kernels) and the same fields from report -R. */
static bool fast_inj_exception(const char *p, const char *end, struct kvm_record *rec)
{
	uint64_t v;

	if (FAST_IS(p, end, "[FAILED TO PARSE] "))
		p += 18;
	if (!FAST_IS(p, end, "exception="))
		return false;
	p = fast_dec(p + 10, end, ' ', &v);
	if (!p || v > 0xff || !FAST_IS(p, end, " has_error="))
		return false;
	rec->vector = (uint32_t)v;
	p = fast_dec(p + 11, end, ' ', &v);
	if (!p || !FAST_IS(p, end, " error_code="))
		return false;
	p = fast_dec(p + 12, end, ' ', &v);
	if (!p || end - p != 13 || memcmp(p, " reinjected=", 12) || (p[12] != '0' && p[12] != '1'))
		return false;
	rec->reinjected = p[12] == '1';
	return true;
}

/* "msr_write 174 = 0x14", "msr_read 1a6 = 0x0 (#GP)" */
static bool fast_msr(const char *p, const char *end, struct kvm_record *rec)
{
	uint64_t v;

	if (FAST_IS(p, end, "msr_write ")) {
		rec->write = true;
		p += 10;
	} else if (FAST_IS(p, end, "msr_read ")) {
		p += 9;
	} else {
		return false;
	}
	p = fast_hex(p, end, ' ', &v);
	if (!p || v > 0xffffffffull || !FAST_IS(p, end, " = 0x"))
		return false;
	rec->msr = (uint32_t)v;
	p = fast_hex(p + 5, end, 0, &rec->data);
	if (!p)
		return false;
	if (p == end)
		return true;
	if (end - p == 6 && !memcmp(p, " (#GP)", 6)) {
		rec->gp = true;
		return true;
	}
	return false;
}

/* "vcpu 1" or "vcpu 1, rip 0x22da" */
static bool fast_entry(const char *p, const char *end, struct kvm_record *rec)
{
	uint64_t v = 0;
	const char *d;

	if (!FAST_IS(p, end, "vcpu "))
		return false;
	for (d = p += 5; p < end && is_digit(*p); p++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (p == d || p - d > 9)
		return false;
	rec->vcpu = (int32_t)v;
	if (p == end)
		return true;
	if (!FAST_IS(p, end, ", rip 0x"))
		return false;
	p = fast_hex(p + 8, end, 0, &rec->rip);
	return p == end;
}

static bool fast_payload(const char *p, const char *end, struct kvm_record *rec)
{
	switch (rec->kind) {
	case KVM_REC_EMULATE_INSN:
		return fast_emulate_insn(p, end, rec);
	case KVM_REC_MSR:
		return fast_msr(p, end, rec);
	case KVM_REC_FPU:
		if (end - p == 4 && !memcmp(p, "load", 4)) {
			rec->write = true;
			return true;
		}
		return end - p == 6 && !memcmp(p, "unload", 6);
	case KVM_REC_ENTRY:
		return fast_entry(p, end, rec);
	case KVM_REC_PIO:
		return fast_pio(p, end, rec);
	case KVM_REC_USERSPACE_EXIT:
		return fast_userspace_exit(p, end, rec);
	case KVM_REC_INJ_EXCEPTION:
		return fast_inj_exception(p, end, rec);
	case KVM_REC_OTHER:
	case KVM_REC_CPUID:
	case KVM_REC_HYPERCALL:
	case KVM_REC_NESTED_OTHER:
		return true;
	default:
		return false;
	}
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
	for (k = 0; k < TEXT_CACHE_WAYS; k++) {
		const struct text_name *e = &tp->name[(tp->last_name + k) % TEXT_CACHE_WAYS];
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
	if (k == TEXT_CACHE_WAYS)
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
	tp->last_name = (tp->last_name + k) % TEXT_CACHE_WAYS;
	tp->last_head = hi;
	return true;
}

