// SPDX-License-Identifier: GPL-2.0-only
/* trace_vtr.c - The native .vtr trace format (docs/trace-format.md): strict parser and the
 * canonical writer. Every rule of the format page is enforced here, since hand-written scenario
 * files are read with it and a typo must not pass silently. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "vtr.h"
#include "expect.h"
#include "internal.h"
#include "nested_import.h"
#include "numparse.h"

struct vcur {
	const char *line, *p, *end;
	struct vpmc__lineerr *err;
};

struct tok {
	const char *p;
	size_t n;
};

/* Fail at @at with "MESSAGE, found 'TOKEN'". Return: VPMC_ERR_PARSE. */
#define vfail(c, at, ...) vpmc__lineerr_set((c)->err, (c)->line, (at), (c)->end, __VA_ARGS__)

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* The next white-space separated token; n = 0 at the end of the line. */
static struct tok next_tok(struct vcur *c)
{
	struct tok t;

	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	t.p = c->p;
	while (c->p < c->end && !is_blank(*c->p))
		c->p++;
	t.n = (size_t)(c->p - t.p);
	return t;
}

static bool tok_is(struct tok t, const char *s)
{
	return t.n == strlen(s) && !memcmp(t.p, s, t.n);
}

/* Bytes at the start of [@s, @s + @n) that are digits of a number in @flags' spellings. */
static size_t digits_run(const char *s, size_t n, unsigned int flags)
{
	bool hex = (flags & VPMC__NUM_HEX) && n > 2 && s[0] == '0' && s[1] == 'x';
	size_t i;

	for (i = hex ? 2 : 0; i < n; i++) {
		char ch = s[i];

		if (!((ch >= '0' && ch <= '9') ||
		      (hex && ((ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F')))))
			break;
	}
	return i;
}

/* A number: decimal, or hex with a lower-case "0x" (unless @dec_only), at most @max. */
static int tok_num(struct vcur *c, struct tok t, bool dec_only, uint64_t max, uint64_t *out,
		   const char *what)
{
	unsigned int flags = dec_only ? 0 : VPMC__NUM_HEX;
	uint64_t v;
	int ret;

	if (!t.n)
		return vfail(c, t.p, "expected %s", what);
	ret = vpmc__parse_u64(t.p, t.n, flags, 0, UINT64_MAX, &v);
	/* digits too many for 64 bits before the first stray byte: that is what is reported */
	if (ret == -1 && vpmc__parse_u64(t.p, digits_run(t.p, t.n, flags), flags, 0, UINT64_MAX,
					 &v) == -2)
		ret = -2;
	if (ret == -1)
		return vfail(c, t.p, dec_only ? "expected %s (a decimal number)" :
				 "expected %s (decimal, or hex with 0x)", what);
	if (ret)
		return vfail(c, t.p, "%s: number larger than 64 bits", what);
	if (v > max)
		return vfail(c, t.p, "%s out of range (0..%llu)", what, (unsigned long long)max);
	*out = v;
	return 0;
}

/* An MSR index (and RDPMC's ECX): always hex with "0x" for MSRs, as the format says. */
static int tok_msr(struct vcur *c, struct tok t, uint32_t *out)
{
	uint64_t v;

	if (t.n < 3 || t.p[0] != '0' || t.p[1] != 'x')
		return vfail(c, t.p, "expected the MSR index in hex with 0x (e.g. 0x186)");
	if (tok_num(c, t, false, 0xffffffffull, &v, "MSR index"))
		return VPMC_ERR_PARSE;
	*out = (uint32_t)v;
	return 0;
}

static int no_more(struct vcur *c, const char *what)
{
	struct tok t = next_tok(c);

	if (t.n)
		return vfail(c, t.p, "unexpected argument after %s", what);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Directives.
 */

/* Split "key=value"; the key is looked up in @keys (NULL-terminated). Return: its index. */
static int key_value(struct vcur *c, struct tok t, const char *dir, const char *const *keys,
		     const char *expected, struct tok *val)
{
	const char *eq = memchr(t.p, '=', t.n);
	size_t kn;
	int i;

	if (!eq)
		return vfail(c, t.p, "%s: expected key=value", dir);
	kn = (size_t)(eq - t.p);
	for (i = 0; keys[i]; i++) {
		if (strlen(keys[i]) == kn && !memcmp(keys[i], t.p, kn))
			break;
	}
	if (!keys[i])
		return vfail(c, t.p, "%s: unknown key (expected %s)", dir, expected);
	val->p = eq + 1;
	val->n = t.n - kn - 1;
	if (!val->n)
		return vfail(c, t.p, "%s: empty value", dir);
	return i;
}

enum { PMU_VENDOR, PMU_VERSION, PMU_GP, PMU_FIXED, PMU_GP_WIDTH, PMU_FIXED_WIDTH, PMU_FW_WRITES,
       PMU_PEBS, PMU_TSX, PMU_NR };

/* pebs= and tsx= (Intel guest capabilities, struct vpmc_pmu_config) extend the format page. */
static const char *const pmu_keys[] = {
	"vendor", "version", "gp", "fixed", "gp_width", "fixed_width", "fw_writes", "pebs", "tsx",
	NULL,
};

/* Bounds that keep hostile input harmless; the model caps counts further, as KVM does. */
static const uint64_t pmu_max[PMU_NR] = {
	[PMU_VERSION] = 255, [PMU_GP] = 32, [PMU_FIXED] = 16, [PMU_GP_WIDTH] = 64,
	[PMU_FIXED_WIDTH] = 64, [PMU_FW_WRITES] = 1, [PMU_PEBS] = 1, [PMU_TSX] = 1,
};

/* !pmu vendor=intel|amd and the counts; the vendor's defaults for the keys not given. */
static int parse_pmu(struct vtr_parser *p, struct vcur *c)
{
	const char *dir = "!pmu";
	struct tok at[PMU_NR] = { { NULL, 0 } };
	uint64_t v[PMU_NR] = { 0 };
	enum vpmc_vendor vendor = VPMC_VENDOR_INTEL;
	struct vpmc_pmu_config cfg;
	struct tok t, val;
	int k;

	for (t = next_tok(c); t.n; t = next_tok(c)) {
		k = key_value(c, t, dir, pmu_keys, "vendor, version, gp, fixed, gp_width, "
				  "fixed_width, fw_writes, pebs, tsx", &val);
		if (k < 0)
			return k;
		if (at[k].p)
			return vfail(c, t.p, "%s: duplicate key '%s'", dir, pmu_keys[k]);
		at[k] = t;
		if (k == PMU_VENDOR) {
			if (val.n == 3 && !memcmp(val.p, "amd", 3))
				vendor = VPMC_VENDOR_AMD;
			else if (!(val.n == 5 && !memcmp(val.p, "intel", 5)))
				return vfail(c, val.p, "%s: expected vendor=intel or vendor=amd", dir);
		} else if (tok_num(c, val, false, pmu_max[k], &v[k], pmu_keys[k])) {
			return VPMC_ERR_PARSE;
		}
	}
	vpmc_pmu_config_default(&cfg, vendor);
	cfg.host_kernel = p->pmu.host_kernel;
	if (vendor == VPMC_VENDOR_AMD) {
		for (k = PMU_FIXED; k < PMU_NR; k++) {
			if (at[k].p && k != PMU_GP_WIDTH)
				return vfail(c, at[k].p, "%s: key '%s' is Intel-only (vendor=amd)", dir,
					     pmu_keys[k]);
		}
		/* AMD version 1: the legacy four counters (K7 PERFCTR0-3), no global MSRs */
		if (at[PMU_VERSION].p && v[PMU_VERSION] == 1)
			cfg.nr_gp = 4;
	}
	if (at[PMU_VERSION].p)
		cfg.version = (unsigned int)v[PMU_VERSION];
	if (at[PMU_GP].p)
		cfg.nr_gp = (unsigned int)v[PMU_GP];
	if (at[PMU_FIXED].p)
		cfg.nr_fixed = (unsigned int)v[PMU_FIXED];
	if (at[PMU_GP_WIDTH].p)
		cfg.gp_width = (unsigned int)v[PMU_GP_WIDTH];
	if (at[PMU_FIXED_WIDTH].p)
		cfg.fixed_width = (unsigned int)v[PMU_FIXED_WIDTH];
	if (at[PMU_FW_WRITES].p)
		cfg.fw_writes = v[PMU_FW_WRITES];
	if (at[PMU_PEBS].p)
		cfg.pebs = v[PMU_PEBS];
	if (at[PMU_TSX].p)
		cfg.tsx = v[PMU_TSX];
	for (k = PMU_GP_WIDTH; k <= PMU_FIXED_WIDTH; k++) {
		if (at[k].p && !v[k])
			return vfail(c, at[k].p + strlen(pmu_keys[k]) + 1, "%s: %s out of range "
				     "(1..64)", dir, pmu_keys[k]);
	}
	p->pmu = cfg;
	return 0;
}

/* !host kernel=MAJOR.MINOR */
static int parse_host(struct vtr_parser *p, struct vcur *c)
{
	static const char *const keys[] = { "kernel", NULL };
	const char *dot;
	struct tok t, val, maj, min;
	uint64_t vmaj, vmin;
	bool seen = false;

	for (t = next_tok(c); t.n; t = next_tok(c)) {
		if (key_value(c, t, "!host", keys, "kernel", &val) < 0)
			return VPMC_ERR_PARSE;
		if (seen)
			return vfail(c, t.p, "!host: duplicate key 'kernel'");
		seen = true;
		dot = memchr(val.p, '.', val.n);
		if (!dot)
			return vfail(c, val.p, "!host: expected kernel=MAJOR.MINOR (e.g. 6.18)");
		maj.p = val.p;
		maj.n = (size_t)(dot - val.p);
		min.p = dot + 1;
		min.n = val.n - maj.n - 1;
		if (tok_num(c, maj, true, 0xffff, &vmaj, "!host: kernel major version") ||
		    tok_num(c, min, true, 0xffff, &vmin, "!host: kernel minor version"))
			return VPMC_ERR_PARSE;
		p->pmu.host_kernel = VPMC_KERNEL(vmaj, vmin);
		if (p->pmu.host_kernel < VPMC_KERNEL_OLDEST)
			return vfail(c, val.p, "!host: kernel %u.%u is older than %u.%u, the oldest "
				     "host the model represents", (unsigned int)vmaj,
				     (unsigned int)vmin, VPMC_KERNEL_OLDEST >> 16,
				     VPMC_KERNEL_OLDEST & 0xffff);
	}
	if (!seen)
		return vfail(c, c->p, "!host: expected kernel=MAJOR.MINOR");
	return 0;
}

/* !source kind=K file=F (informational) */
static int parse_source(struct vtr_parser *p, struct vcur *c)
{
	static const char *const keys[] = { "kind", "file", NULL };
	char *const dst[] = { p->source_kind, p->source_file };
	bool seen[2] = { false, false };
	struct tok t, val;
	int k;

	for (t = next_tok(c); t.n; t = next_tok(c)) {
		k = key_value(c, t, "!source", keys, "kind, file", &val);
		if (k < 0)
			return k;
		if (seen[k])
			return vfail(c, t.p, "!source: duplicate key '%s'", keys[k]);
		if (val.n >= VTR_SOURCE_MAX)
			return vfail(c, val.p, "!source: value longer than %d bytes",
				     VTR_SOURCE_MAX - 1);
		seen[k] = true;
		memcpy(dst[k], val.p, val.n);
		dst[k][val.n] = '\0';
	}
	return 0;
}

/* !gen workload=NAME [KEY=VALUE ...]: kept as written, for reports and convert */
static int parse_gen(struct vtr_parser *p, struct vcur *c)
{
	const char *start;
	struct tok t = next_tok(c);
	size_t n;

	if (t.n < 10 || memcmp(t.p, "workload=", 9))
		return vfail(c, t.p, "!gen: expected workload=NAME first");
	start = t.p;
	for (; t.n; t = next_tok(c)) {
		const char *eq = memchr(t.p, '=', t.n), *k;

		if (!eq || eq == t.p || eq + 1 == t.p + t.n)
			return vfail(c, t.p, "!gen: expected KEY=VALUE");
		for (k = t.p; k < eq; k++) {
			if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') || *k == '_'))
				return vfail(c, k, "!gen: a key is [a-z0-9_]+");
		}
		if (memchr(t.p, '#', t.n))
			return vfail(c, t.p, "!gen: a value has no '#'");
	}
	while (c->p > start && is_blank(c->p[-1]))
		c->p--;
	n = (size_t)(c->p - start);
	if (p->gen_len + n + 2 > VTR_GEN_MAX)
		return vfail(c, start, "!gen: more than %d bytes of !gen lines", VTR_GEN_MAX - 1);
	memcpy(p->gen + p->gen_len, start, n);
	p->gen_len += n;
	p->gen[p->gen_len++] = '\n';
	p->gen[p->gen_len] = '\0';
	return 0;
}

/* !gaps base|recorded */
static int parse_gaps(struct vtr_parser *p, struct vcur *c)
{
	struct tok t = next_tok(c);

	if (tok_is(t, "base"))
		p->gaps = VPMC_GAPS_BASE;
	else if (tok_is(t, "recorded"))
		p->gaps = VPMC_GAPS_RECORDED;
	else
		return vfail(c, t.p, "!gaps: expected base or recorded");
	return no_more(c, "!gaps");
}

/* !nested KEY=VALUE...: nested_vtr.c */
static int parse_nested(struct vtr_parser *p, struct vcur *c)
{
	char msg[VTR_NESTED_MSG_MAX];
	const char *at = c->p;

	if (vtr_nested_directive(&p->nested, c->p, c->end, &at, msg))
		return vfail(c, at, "%s", msg);
	return 0;
}

/* !end events=N: the last line, N the event lines before it (required from version 2 on) */
static int parse_end(struct vtr_parser *p, struct vcur *c)
{
	static const char *const keys[] = { "events", NULL };
	struct tok t = next_tok(c), val;
	uint64_t n;

	if (key_value(c, t, "!end", keys, "events", &val) < 0 ||
	    tok_num(c, val, true, UINT64_MAX, &n, "!end: the number of events"))
		return VPMC_ERR_PARSE;
	if (n != p->events)
		return vfail(c, val.p, "!end: events=%llu, but %llu event lines come before it "
			     "(lines lost or added)", (unsigned long long)n,
			     (unsigned long long)p->events);
	return no_more(c, "!end");
}

/* parse_end() as a directive: nothing but comments may follow it (vtr_parse_line()) */
static int parse_end_line(struct vtr_parser *p, struct vcur *c)
{
	p->end_seen = true;
	return parse_end(p, c);
}

/*
 * Every directive after the header, in trace-format.md's order: the lookup and the "unknown
 * directive" message both read this table, so neither can leave one out. @seen: the offset of
 * its flag in struct vtr_parser (each at most once), or 0 (repeatable); @anywhere: also after
 * the first event. !expect is read whole by vtr_parse_line() before the comment is cut (its
 * message may hold a '#'): it has no @fn and is listed for the message.
 */
static const struct vtr_directive {
	const char *name;
	int (*fn)(struct vtr_parser *, struct vcur *);
	size_t seen;
	bool anywhere;
} directives[] = {
	{ "!pmu", parse_pmu, offsetof(struct vtr_parser, pmu_seen), false },
	{ "!host", parse_host, offsetof(struct vtr_parser, host_seen), false },
	{ "!source", parse_source, offsetof(struct vtr_parser, source_seen), false },
	{ "!nested", parse_nested, offsetof(struct vtr_parser, nested_seen), false },
	{ "!gaps", parse_gaps, offsetof(struct vtr_parser, gaps_seen), false },
	{ "!gen", parse_gen, 0, false },
	{ "!expect", NULL, 0, true },
	{ "!end", parse_end_line, 0, true },
};

#define NR_DIRECTIVES (sizeof(directives) / sizeof(directives[0]))

/* @n words as "a, b, c or d" into @buf (cut at @len). */
static void join_words(char *buf, size_t len, const char *const *words, size_t n)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%s", !i ? "" : i + 1 < n ? ", " : " or ",
				 words[i]);

		at += w > 0 ? (size_t)w : 0;
	}
}

static int unknown_directive(struct vcur *c, struct tok t)
{
	const char *names[NR_DIRECTIVES];
	char list[128];
	size_t i;

	for (i = 0; i < NR_DIRECTIVES; i++)
		names[i] = directives[i].name;
	join_words(list, sizeof(list), names, NR_DIRECTIVES);
	return vfail(c, t.p, "unknown directive (expected %s)", list);
}

static int parse_directive(struct vtr_parser *p, struct vcur *c, struct tok t)
{
	const struct vtr_directive *d = NULL;
	size_t i;

	if (tok_is(t, VTR_MAGIC)) {
		uint64_t version;

		if (p->header_seen)
			return vfail(c, t.p, "duplicate '" VTR_MAGIC "' header");
		t = next_tok(c);
		if (tok_num(c, t, true, UINT64_MAX, &version, "the format version after '"
			    VTR_MAGIC "'"))
			return VPMC_ERR_PARSE;
		if (!version || version > VTR_VERSION)
			return vfail(c, t.p, "unsupported format version %llu (this reader reads "
				     "versions 1 and %d)", (unsigned long long)version, VTR_VERSION);
		p->version = (unsigned int)version;
		p->header_seen = true;
		return no_more(c, "the header");
	}
	if (!p->header_seen)
		return vfail(c, t.p, "expected '" VTR_MAGIC " 1' as the first line that is not "
			     "a comment");
	for (i = 0; i < NR_DIRECTIVES && !d; i++) {
		if (directives[i].fn && tok_is(t, directives[i].name))
			d = &directives[i];
	}
	if (!d)
		return unknown_directive(c, t);
	if (p->event_seen && !d->anywhere)
		return vfail(c, t.p, "directive after the first event (directives come first)");
	if (d->seen) {
		bool *seen = (bool *)((char *)p + d->seen);

		if (*seen)
			return vfail(c, t.p, "duplicate directive");
		*seen = true;
	}
	return d->fn(p, c);
}

/* ---------------------------------------------------------------------------------------------
 * Events.
 */

/* "key=N" of guest/retire; @at is the token. Return: 0 or VPMC_ERR_PARSE. */
static int event_key(struct vcur *c, struct tok t, const char *key, uint64_t max, bool *seen,
		     uint64_t *out)
{
	size_t kn = strlen(key);
	struct tok val = { t.p + kn + 1, t.n - kn - 1 };

	if (*seen)
		return vfail(c, t.p, "duplicate '%s='", key);
	*seen = true;
	return tok_num(c, val, false, max, out, key);
}

static bool tok_key(struct tok t, const char *key)
{
	size_t kn = strlen(key);

	return t.n > kn && t.p[kn] == '=' && !memcmp(t.p, key, kn);
}

/* guest insn=N [br=N] [cpl=0..3] */
static int parse_guest(struct vcur *c, struct vpmc_event *ev)
{
	bool seen_insn = false, seen_br = false, seen_cpl = false;
	const char *br_at = NULL;
	uint64_t cpl = 0;
	struct tok t;

	for (t = next_tok(c); t.n; t = next_tok(c)) {
		int ret;

		if (tok_key(t, "insn")) {
			ret = event_key(c, t, "insn", UINT64_MAX, &seen_insn, &ev->insn);
		} else if (tok_key(t, "br")) {
			br_at = t.p;
			ret = event_key(c, t, "br", UINT64_MAX, &seen_br, &ev->br);
		} else if (tok_key(t, "cpl")) {
			ret = event_key(c, t, "cpl", 3, &seen_cpl, &cpl);
			ev->cpl = (uint8_t)cpl;
		} else {
			ret = vfail(c, t.p, "guest: unknown argument (expected insn=N, br=N or "
				    "cpl=N)");
		}
		if (ret)
			return ret;
	}
	if (!seen_insn)
		return vfail(c, c->p, "guest: expected insn=N");
	if (ev->br > ev->insn)
		return vfail(c, br_at, "guest: more branches than instructions (br=%llu > "
			     "insn=%llu)", (unsigned long long)ev->br,
			     (unsigned long long)ev->insn);
	return 0;
}

/* retire [branch] [cpl=0..3] */
static int parse_retire(struct vcur *c, struct vpmc_event *ev)
{
	bool seen_cpl = false;
	uint64_t cpl = 0;
	struct tok t;

	for (t = next_tok(c); t.n; t = next_tok(c)) {
		if (tok_is(t, "branch")) {
			if (ev->branch)
				return vfail(c, t.p, "retire: duplicate 'branch'");
			ev->branch = true;
		} else if (tok_key(t, "cpl")) {
			if (event_key(c, t, "cpl", 3, &seen_cpl, &cpl))
				return VPMC_ERR_PARSE;
			ev->cpl = (uint8_t)cpl;
		} else {
			return vfail(c, t.p, "retire: unknown argument (expected 'branch' or "
				     "cpl=N)");
		}
	}
	return 0;
}

/* exit REASON: the rest of the line, words joined by one space ("INVALID_STATE FAILED_VMENTRY") */
static int parse_exit_reason(struct vcur *c, struct vpmc_event *ev)
{
	size_t n = 0;
	struct tok t;

	for (t = next_tok(c); t.n; t = next_tok(c)) {
		size_t i;

		if (n + !!n + t.n >= sizeof(ev->reason))
			return vfail(c, t.p, "exit: reason longer than %zu characters",
				     sizeof(ev->reason) - 1);
		for (i = 0; i < t.n; i++) {
			if ((unsigned char)t.p[i] < 0x21 || (unsigned char)t.p[i] > 0x7e)
				return vfail(c, t.p + i, "exit: the reason must be printable ASCII");
		}
		if (n)
			ev->reason[n++] = ' ';
		memcpy(ev->reason + n, t.p, t.n);
		n += t.n;
	}
	if (!n)
		return vfail(c, c->p, "exit: expected the exit reason (e.g. MSR_WRITE)");
	ev->reason[n] = '\0';
	return 0;
}

/* The optional VALUE of rdmsr/rdpmc: what the guest read on the real host. */
static int opt_value(struct vcur *c, struct vpmc_event *ev, const char *what)
{
	struct tok t = next_tok(c);

	if (!t.n)
		return 0;
	if (tok_num(c, t, false, UINT64_MAX, &ev->value, "the value read"))
		return VPMC_ERR_PARSE;
	ev->has_value = true;
	return no_more(c, what);
}

static int one_num(struct vcur *c, uint64_t max, uint64_t *out, const char *what,
		   const char *event)
{
	if (tok_num(c, next_tok(c), false, max, out, what))
		return VPMC_ERR_PARSE;
	return no_more(c, event);
}

static int parse_event_args(struct vcur *c, struct vpmc_event *ev)
{
	uint64_t v = 0;
	int ret;

	switch (ev->type) {
	case VPMC_EV_ENTRY:
	case VPMC_EV_SCHED_OUT:
	case VPMC_EV_SCHED_IN:
		return no_more(c, vpmc_event_type_name(ev->type));
	case VPMC_EV_EXIT:
		return parse_exit_reason(c, ev);
	case VPMC_EV_GUEST:
		return parse_guest(c, ev);
	case VPMC_EV_RETIRE:
		return parse_retire(c, ev);
	case VPMC_EV_WRMSR:
		ret = tok_msr(c, next_tok(c), &ev->index);
		if (!ret)
			ret = one_num(c, UINT64_MAX, &ev->value, "the value written", "wrmsr");
		return ret;
	case VPMC_EV_RDMSR:
		ret = tok_msr(c, next_tok(c), &ev->index);
		return ret ? ret : opt_value(c, ev, "rdmsr");
	case VPMC_EV_RDPMC:
		ret = tok_num(c, next_tok(c), false, 0xffffffffull, &v, "ECX");
		ev->index = (uint32_t)v;
		return ret ? ret : opt_value(c, ev, "rdpmc");
	case VPMC_EV_CPL:
		ret = one_num(c, 3, &v, "the CPL (0..3)", "cpl");
		ev->cpl = (uint8_t)v;
		return ret;
	case VPMC_EV_LVTPC:
		return one_num(c, 0xffffffffull, &ev->value, "the LVTPC value (32 bits)", "lvtpc");
	case VPMC_EV_IRQ:
	case VPMC_EV_EOI:
		ret = one_num(c, 0xff, &v, "the vector (0..255)", vpmc_event_type_name(ev->type));
		ev->index = (uint32_t)v;
		return ret;
	default: {
		char msg[VTR_NESTED_MSG_MAX];
		const char *at = c->p;

		if (vtr_nested_args(ev, c->p, c->end, &at, msg))
			return vfail(c, at, "%s", msg);
		return 0;
	}
	}
}

/* "unknown event (expected ...)": the words parse_event() and vtr_nested_type() look up. */
static int unknown_event(struct vcur *c, struct tok te)
{
	const char *words[VPMC_EV_NR + VPMC_EV_NESTED_END - VPMC_EV_NEXIT];
	char list[320];
	size_t n = 0;
	int type;

	for (type = 0; type < VPMC_EV_NR; type++)
		words[n++] = vpmc_event_type_name((enum vpmc_event_type)type);
	for (type = VPMC_EV_NEXIT; type < VPMC_EV_NESTED_END; type++)
		words[n++] = vpmc_event_type_name((enum vpmc_event_type)type);
	join_words(list, sizeof(list), words, n);
	return vfail(c, te.p, "unknown event (expected %s)", list);
}

static int parse_event(struct vtr_parser *p, struct vcur *c, struct tok t, struct vpmc_event *ev)
{
	struct tok tv, te;
	uint64_t time, vcpu;
	int type;

	if (!p->header_seen)
		return vfail(c, t.p, "expected '" VTR_MAGIC " 1' before the first event");
	if (tok_num(c, t, true, UINT64_MAX, &time, "the time in ns"))
		return VPMC_ERR_PARSE;
	tv = next_tok(c);
	if (tok_num(c, tv, true, VPMC_MAX_VCPUS - 1, &vcpu, "the vcpu"))
		return VPMC_ERR_PARSE;
	te = next_tok(c);
	for (type = 0; type < VPMC_EV_NR; type++) {
		if (tok_is(te, vpmc_event_type_name((enum vpmc_event_type)type)))
			break;
	}
	if (type == VPMC_EV_NR)
		type = vtr_nested_type(te.p, te.n);
	if (type == VPMC_EV_NR)
		return unknown_event(c, te);
	if (time < p->last_time[vcpu])
		return vfail(c, t.p, "time goes backwards for vcpu %llu (previous event at %llu)",
			     (unsigned long long)vcpu, (unsigned long long)p->last_time[vcpu]);
	memset(ev, 0, sizeof(*ev));
	ev->time_ns = time;
	ev->vcpu = (uint32_t)vcpu;
	ev->type = (enum vpmc_event_type)type;
	ev->cpl = VPMC_CPL_KEEP;
	if (parse_event_args(c, ev))
		return VPMC_ERR_PARSE;
	p->last_time[vcpu] = time;
	p->event_seen = true;
	p->events++;
	return 1;
}

void vtr_parser_init(struct vtr_parser *p)
{
	memset(p, 0, sizeof(*p));
	vpmc_pmu_config_default(&p->pmu, VPMC_VENDOR_INTEL);
}

int vtr_parse_line(struct vtr_parser *p, const char *line, size_t len, struct vpmc_event *ev,
		   struct vpmc__lineerr *err)
{
	struct vcur c = { .line = line, .p = line, .end = line + len, .err = err };
	const char *hash = memchr(line, '#', len), *cr = memchr(line, '\r', len);
	struct tok t;

	if (cr && (!hash || cr < hash))
		return vfail(&c, cr, "carriage return in the line (a CRLF file? .vtr lines end "
			     "with \\n)");
	if (vtr_expect_is(line, len)) /* anywhere after the header; '#' may be in its message */
		return p->header_seen ? vtr_expect_line(line, len, ev, err)
				      : vfail(&c, line, "expected '" VTR_MAGIC " %d' before !expect",
					      VTR_VERSION);
	if (hash)
		c.end = hash; /* a comment to the end of the line */
	t = next_tok(&c);
	if (!t.n)
		return 0;
	if (p->end_seen)
		return vfail(&c, t.p, "a line after '!end' (the last line that is not a comment)");
	if (*t.p == '!')
		return parse_directive(p, &c, t);
	return parse_event(p, &c, t, ev);
}

int vtr_finish(const struct vtr_parser *p, struct vpmc__lineerr *err)
{
	err->col = 0;
	if (!p->header_seen) {
		snprintf(err->msg, sizeof(err->msg), "expected '" VTR_MAGIC " 1', found end of "
			 "file");
		return VPMC_ERR_PARSE;
	}
	if (p->end_seen || p->version < VTR_VERSION_END)
		return 0;
	snprintf(err->msg, sizeof(err->msg), "truncated: the file ends after %llu events without "
		 "the '!end events=N' line that format version %u promises",
		 (unsigned long long)p->events, p->version);
	return 1;
}

/* ---------------------------------------------------------------------------------------------
 * The canonical writer: one line per event, the shortest form, hex for MSRs, values and vectors.
 */

/* A .vtr token: printable, no white space, no '#'; anything else becomes '_'. */
static void put_token(FILE *out, const char *s)
{
	for (; *s; s++)
		putc((unsigned char)*s > 0x20 && (unsigned char)*s < 0x7f && *s != '#' ? *s : '_',
		     out);
}

int vpmc_vtr_write_header(FILE *out, const struct vpmc_pmu_config *pmu, const char *source_kind,
			  const char *source_file)
{
	if (!out || !pmu)
		return VPMC_ERR_INVAL;
	fprintf(out, VTR_MAGIC " %d\n", VTR_VERSION);
	if (pmu->vendor == VPMC_VENDOR_AMD)
		fprintf(out, "!pmu vendor=amd version=%u gp=%u gp_width=%u\n", pmu->version,
			pmu->nr_gp, pmu->gp_width);
	else
		/* pebs= and tsx= only when set: files without them stay canonical */
		fprintf(out, "!pmu vendor=intel version=%u gp=%u fixed=%u gp_width=%u "
			"fixed_width=%u fw_writes=%d%s%s\n", pmu->version, pmu->nr_gp, pmu->nr_fixed,
			pmu->gp_width, pmu->fixed_width, pmu->fw_writes, pmu->pebs ? " pebs=1" : "",
			pmu->tsx ? " tsx=1" : "");
	fprintf(out, "!host kernel=%u.%u\n", pmu->host_kernel >> 16, pmu->host_kernel & 0xffff);
	if (source_kind)
		return vpmc_vtr_write_source(out, source_kind, source_file);
	return ferror(out) ? VPMC_ERR_IO : 0;
}

int vpmc_vtr_write_source(FILE *out, const char *kind, const char *file)
{
	if (!out || !kind)
		return VPMC_ERR_INVAL;
	fputs("!source kind=", out);
	put_token(out, kind);
	if (file) {
		fputs(" file=", out);
		put_token(out, file);
	}
	putc('\n', out);
	return ferror(out) ? VPMC_ERR_IO : 0;
}

int vpmc_vtr_write_end(FILE *out, uint64_t events)
{
	if (!out)
		return VPMC_ERR_INVAL;
	fprintf(out, "!end events=%llu\n", (unsigned long long)events);
	return ferror(out) ? VPMC_ERR_IO : 0;
}

static bool reason_ok(const char *r)
{
	size_t n = strnlen(r, VPMC_REASON_MAX);

	if (!n || n == VPMC_REASON_MAX || r[0] == ' ' || r[n - 1] == ' ')
		return false;
	for (; *r; r++) {
		if ((unsigned char)*r < 0x20 || (unsigned char)*r > 0x7e || *r == '#' ||
		    (r[0] == ' ' && r[1] == ' '))
			return false;
	}
	return true;
}

/* Number formatting for the writer, which convert calls once per event: no printf, and two
 * decimal digits per division. */
static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324252627282930"
				  "31323334353637383940414243444546474849505152535455565758596061"
				  "6263646566676869707172737475767778798081828384858687888990919293"
				  "949596979899";

/* The digits of @v (below 10^8; exactly 8 with leading zeros if @pad) before @t. */
static char *put_dec32(char *t, uint32_t v, bool pad)
{
	char *stop = t - 8;

	while (v >= 100 || (pad && t - 2 > stop)) {
		t -= 2;
		memcpy(t, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (pad || v >= 10) {
		t -= 2;
		memcpy(t, digit_pairs + 2 * v, 2);
	} else {
		*--t = (char)('0' + v);
	}
	return t;
}

static char *put_dec(char *p, uint64_t v)
{
	char tmp[24], *t = tmp + sizeof(tmp);
	size_t n;

	/* 32-bit arithmetic for each group of 8 digits */
	while (v >= 100000000) {
		t = put_dec32(t, (uint32_t)(v % 100000000), true);
		v /= 100000000;
	}
	t = put_dec32(t, (uint32_t)v, false);
	n = (size_t)(tmp + sizeof(tmp) - t);
	memcpy(p, t, n);
	return p + n;
}

static char *put_hex(char *p, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	*p++ = '0';
	*p++ = 'x';
	do
		tmp[n++] = digits[v & 15];
	while ((v >>= 4));
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

int vpmc_vtr_write_gen(FILE *out, const char *gen, bool gaps_given, enum vpmc_gaps gaps)
{
	while (gen && *gen) {
		size_t n = strcspn(gen, "\n");

		fprintf(out, "!gen %.*s\n", (int)n, gen);
		gen += n + (gen[n] == '\n');
	}
	if (gaps_given)
		fprintf(out, "!gaps %s\n", gaps == VPMC_GAPS_BASE ? "base" : "recorded");
	return ferror(out) ? VPMC_ERR_IO : 0;
}

int vpmc_vtr_write_event(FILE *out, const struct vpmc_event *ev)
{
	char line[64 + VPMC_REASON_MAX], *p = line;
	const char *name;

	if (!out || !ev)
		return VPMC_ERR_INVAL;
	name = vpmc_event_type_name(ev->type);
	if (vpmc__is_nested_event(ev->type)) {
		if (ev->vcpu >= VPMC_MAX_VCPUS)
			return VPMC_ERR_INVAL;
		fprintf(out, "%llu %u %s", (unsigned long long)ev->time_ns, ev->vcpu, name);
		return vtr_nested_write_args(out, ev);
	}
	if (!name || ev->vcpu >= VPMC_MAX_VCPUS || (ev->cpl > 3 && ev->cpl != VPMC_CPL_KEEP) ||
	    (ev->type == VPMC_EV_CPL && ev->cpl > 3) ||
	    (ev->type == VPMC_EV_EXIT && !reason_ok(ev->reason)) ||
	    (ev->type == VPMC_EV_GUEST && ev->br > ev->insn) ||
	    ((ev->type == VPMC_EV_IRQ || ev->type == VPMC_EV_EOI) && ev->index > 0xff) ||
	    (ev->type == VPMC_EV_LVTPC && ev->value > 0xffffffffull))
		return VPMC_ERR_INVAL;
	p = put_dec(p, ev->time_ns);
	*p++ = ' ';
	p = put_dec(p, ev->vcpu);
	*p++ = ' ';
	p = put_str(p, name);
	switch (ev->type) {
	case VPMC_EV_EXIT:
		*p++ = ' ';
		p = put_str(p, ev->reason);
		break;
	case VPMC_EV_GUEST:
		p = put_dec(put_str(p, " insn="), ev->insn);
		if (ev->br)
			p = put_dec(put_str(p, " br="), ev->br);
		if (ev->cpl != VPMC_CPL_KEEP)
			p = put_dec(put_str(p, " cpl="), ev->cpl);
		break;
	case VPMC_EV_RETIRE:
		if (ev->branch)
			p = put_str(p, " branch");
		if (ev->cpl != VPMC_CPL_KEEP)
			p = put_dec(put_str(p, " cpl="), ev->cpl);
		break;
	case VPMC_EV_WRMSR:
		*p++ = ' ';
		p = put_hex(p, ev->index);
		*p++ = ' ';
		p = put_hex(p, ev->value);
		break;
	case VPMC_EV_RDMSR:
	case VPMC_EV_RDPMC:
		*p++ = ' ';
		p = put_hex(p, ev->index);
		if (ev->has_value) {
			*p++ = ' ';
			p = put_hex(p, ev->value);
		}
		break;
	case VPMC_EV_CPL:
		*p++ = ' ';
		p = put_dec(p, ev->cpl);
		break;
	case VPMC_EV_LVTPC:
		*p++ = ' ';
		p = put_hex(p, ev->value);
		break;
	case VPMC_EV_IRQ:
	case VPMC_EV_EOI:
		*p++ = ' ';
		p = put_hex(p, ev->index);
		break;
	default:
		break;
	}
	*p++ = '\n';
	if (fwrite(line, 1, (size_t)(p - line), out) != (size_t)(p - line))
		return VPMC_ERR_IO;
	return 0;
}
