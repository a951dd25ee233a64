/* SPDX-License-Identifier: GPL-2.0-only */
/* text_scan.h - The scanners of the kvm tracepoint text parser (text.c) and its fast path
 * (text_fast.c): byte classes, SWAR digit conversion, the cursor and its token readers. All
 * static inline: they are the hot loops of reading multi-GB reports. */
#ifndef VPMC_TRACE_TEXT_SCAN_H
#define VPMC_TRACE_TEXT_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lineerr.h"
#include "text.h"

/* Byte classes, one table load per byte in the hot loops. */
enum { C_SP = 1, C_DIGIT = 2, C_IDENT = 4, C_NAME = 8, C_NSTART = 16 };

static const uint8_t cls[256] = {
	[' '] = C_SP,
	['\t'] = C_SP,
	['0' ... '9'] = C_DIGIT | C_IDENT | C_NAME,
	['a' ... 'z'] = C_IDENT | C_NAME | C_NSTART,
	['A' ... 'Z'] = C_IDENT | C_NAME | C_NSTART,
	['_'] = C_IDENT | C_NAME | C_NSTART,
	/* debug event names such as "<hack>" */
	['<'] = C_NAME | C_NSTART,
	['>'] = C_NAME,
};

/* Hex digit values + 1 (0 = not a hex digit). */
static const uint8_t hex1[256] = {
	['0'] = 1,  ['1'] = 2,	['2'] = 3,  ['3'] = 4,	['4'] = 5,  ['5'] = 6,	['6'] = 7,
	['7'] = 8,  ['8'] = 9,	['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14,
	['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15,
	['F'] = 16,
};

static inline bool is_sp(char ch)
{
	return cls[(unsigned char)ch] & C_SP;
}

static inline bool is_digit(char ch)
{
	return cls[(unsigned char)ch] & C_DIGIT;
}

/* [A-Za-z0-9_] */
static inline bool is_ident_char(char ch)
{
	return cls[(unsigned char)ch] & C_IDENT;
}

static inline bool is_name_char(char ch)
{
	return cls[(unsigned char)ch] & C_NAME;
}

static inline bool is_name_start(char ch)
{
	return cls[(unsigned char)ch] & C_NSTART;
}

static inline int hex_val(char ch)
{
	return hex1[(unsigned char)ch] - 1;
}

static inline uint64_t load64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* memcmp(a, b, n) == 0 for the short strings of line prefixes, without a libc call. */
static inline bool mem_eq(const char *a, const char *b, size_t n)
{
	size_t i;

	if (n < 8) {
		for (i = 0; i < n; i++) {
			if (a[i] != b[i])
				return false;
		}
		return true;
	}
	for (i = 0; i + 8 <= n; i += 8) {
		if (load64(a + i) != load64(b + i))
			return false;
	}
	return load64(a + n - 8) == load64(b + n - 8);
}

#define ALL_BYTES(b) (0x0101010101010101ull * (b))

/* How many of the 8 bytes at @p are decimal digits before the first other byte, and the value
 * of those digits (SWAR: no loop over the bytes). */
static inline unsigned int digits8(const char *p, uint64_t *val)
{
	uint64_t v = load64(p) - ALL_BYTES('0');
	/* A byte is no digit if it was below '0' (its high bit is set after the subtraction) or
	 * above '9' (adding 0x76 sets it). Borrows and carries only come from bytes below the
	 * lowest bad one, which are digits and produce none. */
	uint64_t bad = (v | (v + ALL_BYTES(0x76))) & ALL_BYTES(0x80);
	unsigned int n = bad ? (unsigned int)__builtin_ctzll(bad) >> 3 : 8;

	if (!n) {
		*val = 0;
		return 0;
	}
	if (n < 8)
		v <<= 8 * (8 - n); /* the digits to the top bytes, zeros in front */
	/* pairs, quads, then the whole (digits in memory order on a little-endian load) */
	v = ((v & ALL_BYTES(0x0f)) * 2561) >> 8;
	v = ((v & 0x00ff00ff00ff00ffull) * 6553601) >> 16;
	*val = ((v & 0x0000ffff0000ffffull) * 42949672960001ull) >> 32;
	return n;
}

/* Decimal digits at @p: their value, and where they end. At most 19 digits are converted
 * (*ndigits tells how many there were). */
static inline const char *scan_dec(const char *p, const char *end, uint64_t *out,
				   unsigned int *ndigits)
{
	uint64_t v = 0, part;
	unsigned int n = 0, k;

	while (end - p >= 8) {
		k = digits8(p, &part);
		if (n + k <= 19) {
			static const uint64_t pow10[9] = { 1, 10, 100, 1000, 10000, 100000,
							   1000000, 10000000, 100000000 };

			v = v * pow10[k] + part;
		}
		n += k;
		p += k;
		if (k < 8)
			goto out;
	}
	for (; p < end && (unsigned char)(*p - '0') < 10; p++, n++)
		v = v * 10 + (uint64_t)(*p - '0');
out:
	*out = v;
	*ndigits = n;
	return p;
}

struct cur {
	const char *line; /* start of the line, for columns */
	const char *p;
	const char *end;
	struct vpmc__lineerr *err;
	struct text_parser *tp; /* or NULL */
};

static inline void skip_sp_run(struct cur *c)
{
	/* trace-cmd pads event names with up to 20 spaces: count them 8 at a time */
	while (c->end - c->p >= 8) {
		uint64_t x = load64(c->p) ^ ALL_BYTES(' ');

		if (x) {
			c->p += __builtin_ctzll(x) >> 3;
			break;
		}
		c->p += 8;
	}
	while (c->p < c->end && is_sp(*c->p))
		c->p++;
}

/* Most separators are none or one space: decided without a loop. */
static inline void skip_sp(struct cur *c)
{
	const char *p = c->p;

	if (p == c->end || !is_sp(*p))
		return;
	if (c->end - p >= 2 && !is_sp(p[1])) {
		c->p = p + 1;
		return;
	}
	skip_sp_run(c);
}

static inline const char *tok_end(const char *p, const char *end)
{
	while (p < end && !is_sp(*p))
		p++;
	return p;
}

static inline const char *rtrim(const char *p, const char *end)
{
	while (end > p && is_sp(end[-1]))
		end--;
	return end;
}

/* Fail at @at with "MESSAGE, found 'TOKEN'". Return: VPMC_ERR_PARSE. */
#define fail_at(c, at, ...) vpmc__lineerr_set((c)->err, (c)->line, (at), (c)->end, __VA_ARGS__)

/* The token at the cursor is @word (followed by white space or the end). */
static inline bool at_word_n(const struct cur *c, const char *word, size_t n)
{
	return (size_t)(c->end - c->p) >= n && !memcmp(c->p, word, n) &&
	       (c->p + n == c->end || is_sp(c->p[n]));
}

#define at_word(c, word) at_word_n((c), (word), sizeof(word) - 1)

static inline int expect_word_n(struct cur *c, const char *word, size_t n, const char *what)
{
	skip_sp(c);
	if (!at_word_n(c, word, n))
		return fail_at(c, c->p, "%s: expected '%s'", what, word);
	c->p += n;
	return 0;
}

#define expect_word(c, word, what) expect_word_n((c), (word), sizeof(word) - 1, (what))

/* Hex digits with an optional "0x", up to 64 bits; stops at the first non-hex byte. */
static inline int parse_hex(struct cur *c, uint64_t *out, const char *what)
{
	const char *p = c->p, *end = c->end, *digits;
	uint64_t v = 0;
	int d;

	if (end - p > 2 && p[0] == '0' && p[1] == 'x' && hex_val(p[2]) >= 0)
		p += 2;
	digits = p;
	while (p < end && (d = hex_val(*p)) >= 0) {
		v = v << 4 | (uint64_t)d;
		p++;
	}
	if (p == digits)
		return fail_at(c, c->p, "%s: expected a hex number", what);
	if (p - digits > 16) {
		while (digits < p - 16 && *digits == '0')
			digits++;
		if (p - digits > 16)
			return fail_at(c, c->p, "%s: hex number larger than 64 bits", what);
	}
	c->p = p;
	*out = v;
	return 0;
}

static inline int parse_dec(struct cur *c, uint64_t *out, const char *what)
{
	const char *p = c->p;
	uint64_t v = 0;

	if (p >= c->end || !is_digit(*p))
		return fail_at(c, c->p, "%s: expected a decimal number", what);
	for (; p < c->end && is_digit(*p); p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return fail_at(c, c->p, "%s: decimal number larger than 64 bits", what);
		v = v * 10 + d;
	}
	c->p = p;
	*out = v;
	return 0;
}

/* A whole hex (@hex) or decimal field of at most @max, ending at white space, the end of the
 * line or @also (if not 0); the cursor is left at its start on failure. */
static inline int field_num(struct cur *c, bool hex, uint64_t *out, uint64_t max, char also,
		     const char *what)
{
	const char *start;
	int ret;

	skip_sp(c);
	start = c->p;
	ret = hex ? parse_hex(c, out, what) : parse_dec(c, out, what);
	if (!ret && c->p < c->end && !is_sp(*c->p) && *c->p != also)
		ret = fail_at(c, start, "%s: malformed number", what);
	if (!ret && *out > max)
		ret = fail_at(c, start, hex ? "%s: value out of range (max 0x%llx)" :
					      "%s: value out of range (max %llu)",
			      what, (unsigned long long)max);
	if (ret)
		c->p = start;
	return ret;
}

static inline int field_hex(struct cur *c, uint64_t *out, uint64_t max, const char *what)
{
	return field_num(c, true, out, max, 0, what);
}

static inline int field_dec(struct cur *c, uint64_t *out, uint64_t max, const char *what)
{
	return field_num(c, false, out, max, 0, what);
}

/* ---------------------------------------------------------------------------------------------
 * What both parsers need of a payload's grammar: record fields, the -R field tables
 * (text_raw_kinds[]); the plain layouts are in text_layouts.h.
 */
#define U32_MAX_ 0xffffffffull
#define VCPU_MAX_ 0x7fffffffull /* vcpu ids fit int32; the importer bounds them further */

/* How a record field is stored. */
enum raw_type { RT_BOOL, RT_U32, RT_I32, RT_U64 };

#define TP_NO_FIELD 0xffff /* a value read and dropped */

static inline void field_store(struct kvm_record *rec, uint16_t off, uint8_t type, uint64_t v)
{
	char *f = (char *)rec + off;
	uint32_t u32 = (uint32_t)v;
	int32_t i32 = (int32_t)v;
	bool b = v;

	if (off == TP_NO_FIELD)
		return;
	switch (type) {
	case RT_BOOL:
		memcpy(f, &b, sizeof(b));
		break;
	case RT_U32:
		memcpy(f, &u32, sizeof(u32));
		break;
	case RT_I32:
		memcpy(f, &i32, sizeof(i32));
		break;
	default:
		memcpy(f, &v, sizeof(v));
	}
}

/* A KVM_EXIT_* name whose number is an errno (kvm_userspace_exit's "restart", "error"). */
static inline bool is_errno_name(const char *p, size_t n)
{
	return (n == 7 && !memcmp(p, "restart", 7)) || (n == 5 && !memcmp(p, "error", 5));
}

/* The "name=value" field form (trace-cmd report -R, "[FAILED TO PARSE] ..."): the fields of
 * each kind, read how, into which record field. */
enum { DEC, HEX };

struct raw_spec {
	const char *key;
	uint8_t klen;  /* strlen(key) */
	uint8_t base;  /* DEC or HEX: how a number without "0x" is read (raw_num()) */
	uint8_t type;  /* enum raw_type of the record field */
	bool optional; /* older kernels do not have it */
	uint16_t off;  /* offsetof(struct kvm_record, field) */
	uint64_t max;
};

#define RS(key, base, type, opt, field, max) \
	{ key, sizeof(key) - 1, base, type, opt, offsetof(struct kvm_record, field), max }

struct raw_kind {
	const struct raw_spec *spec;
	size_t n; /* 0: none, or a hand-written -R parser in text.c */
};

extern const struct raw_kind text_raw_kinds[KVM_REC_NR];

/* The payload starts with "name=". */
static inline bool is_raw_form(const char *p, const char *end)
{
	const char *q = p;

	if (p == end || !is_ident_char(*p) || is_digit(*p))
		return false;
	while (q < end && is_ident_char(*q))
		q++;
	return q < end && *q == '=';
}

/* What a -R record needs after its fields are stored. */
static inline void raw_finish(struct kvm_record *rec)
{
	if (rec->kind == KVM_REC_APIC_ACCEPT_IRQ)
		rec->dm = (rec->dm >> 8) & 7; /* as kvm_apic_accept_irq prints it */
}

#define RAW_FIELDS_MAX 16 /* fields of a -R line at most */

/* libtraceevent prints the raw fields after this when it cannot use the print format. */
#define FAILED_TO_PARSE "[FAILED TO PARSE]"

/* 10^(9 - n): n decimals of a second in ns. */
static const uint64_t pow10_frac[10] = {
	1000000000, 100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1,
};

/* kvm_emulate_insn's modes as kvm_trace_symbol_emul_flags prints them (text.c). */
extern const char *const text_insn_modes[KVM_MODE_PROT64 + 1];

/* The fast path (text_fast.c): a line whose prefix and event name @tp has cached and whose
 * payload has one of the frequent plain layouts, into *@rec exactly as
 * trace_text_parse_line() would. Return: true, or false (not such a line: parse it in full). */
bool text_fast_line(struct text_parser *tp, const char *line, const char *end,
		    struct kvm_record *rec);

#endif /* VPMC_TRACE_TEXT_SCAN_H */
