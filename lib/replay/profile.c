// SPDX-License-Identifier: GPL-2.0-only
/* profile.c - Cost-profile files: NAME = VALUE  # TAG; SOURCE (timer-storm.md §7). */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vpmc/replay.h>

#include "internal.h"
#include "replay-local.h"

/* The shipped profiles, compiled in from profiles/NAME.cost (Makefile.am). */
static const char profile_default[] =
#include "profile_default.h"
	;
static const char profile_rfc_milan[] =
#include "profile_rfc_milan.h"
	;

static const struct {
	const char *name, *text;
} shipped[] = {
	{ "default", profile_default },
	{ "rfc-milan", profile_rfc_milan },
};

static const char *const tag_names[] = {
	[VPMC_COST_TAG_NONE] = "none",		 [VPMC_COST_TAG_MEASURED] = "measured",
	[VPMC_COST_TAG_DERIVED] = "derived",	 [VPMC_COST_TAG_ESTIMATE] = "estimate",
	[VPMC_COST_TAG_CALIBRATED] = "calibrated", [VPMC_COST_TAG_OVERRIDE] = "override",
};

const char *vpmc_cost_tag_name(enum vpmc_cost_tag t)
{
	return (unsigned int)t < ARRAY_SIZE(tag_names) ? tag_names[t] : "none";
}

const char *vpmc_cost_profile_shipped(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(shipped); i++) {
		if (!strcmp(name, shipped[i].name))
			return shipped[i].text;
	}
	return NULL;
}

void vpmc_cost_profile_release(struct vpmc_cost_profile *p)
{
	size_t i;

	for (i = 0; i < VPMC_COST_MAX_PARAMS; i++) {
		free(p->source[i]);
		p->source[i] = NULL;
	}
	free(p->fitted);
	free(p->targets);
	free(p->measured);
	free(p->fitted_on);
	p->fitted = p->targets = p->measured = p->fitted_on = NULL;
}

static int __attribute__((format(printf, 4, 5))) perr(char *err, size_t errlen, int code,
						     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return code;
}

static int param_index(const char *name, size_t len)
{
	const struct vpmc_cost_param_info *t;
	size_t n, i;

	t = vpmc_cost_params(&n);
	for (i = 0; i < n; i++) {
		if (strlen(t[i].name) == len && !strncmp(t[i].name, name, len))
			return (int)i;
	}
	return -1;
}

static char *dup_range(const char *s, const char *e)
{
	char *d = malloc((size_t)(e - s) + 1);

	if (d) {
		memcpy(d, s, (size_t)(e - s));
		d[e - s] = '\0';
	}
	return d;
}

static const char *skip_ws(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

static const char *trim_end(const char *s, const char *e)
{
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return e;
}

static enum vpmc_cost_tag tag_parse(const char *s, size_t len)
{
	unsigned int t;

	for (t = VPMC_COST_TAG_MEASURED; t <= VPMC_COST_TAG_CALIBRATED; t++) {
		if (strlen(tag_names[t]) == len && !strncmp(tag_names[t], s, len))
			return (enum vpmc_cost_tag)t;
	}
	return VPMC_COST_TAG_NONE;
}

int vpmc_cost_profile_set(struct vpmc_cost_profile *p, const char *name, double value,
			  enum vpmc_cost_tag tag, const char *source)
{
	char spec[128], *src = NULL;
	const char *why;
	int i = param_index(name, strlen(name));

	if (i < 0)
		return VPMC_ERR_INVAL;
	snprintf(spec, sizeof(spec), "%s=%.17g", name, value);
	if (vpmc_cost_parse(&p->cost, spec, &why))
		return VPMC_ERR_INVAL;
	if (source && !(src = strdup(source)))
		return VPMC_ERR_NOMEM;
	free(p->source[i]);
	p->source[i] = src;
	p->tag[i] = tag;
	return 0;
}

/* A metadata line "KEY = TEXT"; return 1 if @key is not metadata, else 0 or an error. */
static int meta_line(struct vpmc_cost_profile *p, const char *key, size_t klen, const char *v,
		     const char *ve, unsigned int *seen, const char *file, unsigned int line,
		     char *err, size_t errlen)
{
	static const char *const keys[] = { "profile", "base", "fitted", "targets", "measured",
					    "fitted_on" };
	char **slot[] = { NULL, NULL, &p->fitted, &p->targets, &p->measured, &p->fitted_on };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(keys); k++) {
		if (strlen(keys[k]) == klen && !strncmp(keys[k], key, klen))
			break;
	}
	if (k == ARRAY_SIZE(keys))
		return 1;
	if (*seen & (1u << k))
		return perr(err, errlen, VPMC_ERR_INVAL, "%s:%u: %s given twice", file, line,
			    keys[k]);
	*seen |= 1u << k;
	if (k == 1) {
		if (line != 1)
			return perr(err, errlen, VPMC_ERR_INVAL,
				    "%s:%u: base must be the first line", file, line);
		return 0; /* applied by vpmc_cost_profile_load() */
	}
	if (k == 0) {
		if ((size_t)(ve - v) >= sizeof(p->name) || ve == v)
			return perr(err, errlen, VPMC_ERR_INVAL,
				    "%s:%u: profile: expected a name of 1 to 63 bytes", file, line);
		memcpy(p->name, v, (size_t)(ve - v));
		p->name[ve - v] = '\0';
		return 0;
	}
	free(*slot[k]);
	*slot[k] = dup_range(v, ve);
	return *slot[k] ? 0 : VPMC_ERR_NOMEM;
}

/* One "NAME = VALUE  # TAG; SOURCE" line [@s, @e). */
static int profile_line(struct vpmc_cost_profile *p, const char *s, const char *e,
			uint64_t *given, unsigned int *seen, const char *file, unsigned int line,
			char *err, size_t errlen)
{
	const char *eq, *hash, *v, *ve, *tag, *te, *src;
	size_t klen;
	int i, rc;
	char *spec, *src_copy;
	const char *why;

	s = skip_ws(s, e);
	if (s == e || *s == '#')
		return 0;
	eq = memchr(s, '=', (size_t)(e - s));
	if (!eq)
		return perr(err, errlen, VPMC_ERR_INVAL, "%s:%u: expected NAME = VALUE  # TAG; SOURCE",
			    file, line);
	klen = (size_t)(trim_end(s, eq) - s);
	v = skip_ws(eq + 1, e);
	hash = v < e ? memchr(v, '#', (size_t)(e - v)) : NULL;
	ve = trim_end(v, hash ? hash : e);
	rc = meta_line(p, s, klen, v, ve, seen, file, line, err, errlen);
	if (rc != 1)
		return rc;
	i = param_index(s, klen);
	if (i < 0)
		return perr(err, errlen, VPMC_ERR_INVAL, "%s:%u: unknown parameter '%.*s'", file,
			    line, (int)klen, s);
	if (*given & (1ULL << i))
		return perr(err, errlen, VPMC_ERR_INVAL, "%s:%u: %.*s given twice", file, line,
			    (int)klen, s);
	*given |= 1ULL << i;
	if (!hash)
		return perr(err, errlen, VPMC_ERR_INVAL,
			    "%s:%u: %.*s: expected '# TAG; SOURCE' (TAG measured, derived, "
			    "estimate or calibrated)", file, line, (int)klen, s);
	tag = skip_ws(hash + 1, e);
	te = tag;
	while (te < e && *te >= 'a' && *te <= 'z')
		te++;
	if (tag_parse(tag, (size_t)(te - tag)) == VPMC_COST_TAG_NONE)
		return perr(err, errlen, VPMC_ERR_INVAL,
			    "%s:%u: %.*s: expected a tag measured, derived, estimate or calibrated "
			    "after '#'", file, line, (int)klen, s);
	src = te;
	if (src < e && (*src == ';' || *src == ','))
		src++;
	src = skip_ws(src, e);
	spec = malloc(klen + (size_t)(ve - v) + 2);
	if (!spec)
		return VPMC_ERR_NOMEM;
	sprintf(spec, "%.*s=%.*s", (int)klen, s, (int)(ve - v), v);
	rc = vpmc_cost_parse(&p->cost, spec, &why);
	free(spec);
	if (rc)
		return perr(err, errlen, VPMC_ERR_INVAL, "%s:%u: %s", file, line, why);
	src_copy = dup_range(src, trim_end(src, e));
	if (!src_copy)
		return VPMC_ERR_NOMEM;
	free(p->source[i]);
	p->source[i] = src_copy;
	p->tag[i] = tag_parse(tag, (size_t)(te - tag));
	return 0;
}

int vpmc_cost_profile_parse(struct vpmc_cost_profile *p, const char *text, const char *file,
			    char *err, size_t errlen)
{
	const char *s = text;
	uint64_t given = 0;
	unsigned int line = 0, seen = 0;
	int rc;

	while (*s) {
		const char *e = strchr(s, '\n');

		if (!e)
			e = s + strlen(s);
		line++;
		if (e - s > 4096)
			return perr(err, errlen, VPMC_ERR_INVAL, "%s:%u: line longer than 4096 bytes",
				    file, line);
		if (memchr(s, '\r', (size_t)(e - s)))
			return perr(err, errlen, VPMC_ERR_INVAL, "%s:%u: carriage return", file, line);
		rc = profile_line(p, s, e, &given, &seen, file, line, err, errlen);
		if (rc)
			return rc;
		s = *e ? e + 1 : e;
	}
	return 0;
}

/* "base = NAME" on the first line of @text: the name, or NULL. */
static const char *base_name(const char *text, char *buf, size_t len)
{
	const char *s = text, *e;

	if (strncmp(s, "base", 4))
		return NULL;
	s = skip_ws(s + 4, s + strlen(s));
	if (*s != '=')
		return NULL;
	s = skip_ws(s + 1, s + strlen(s));
	e = s + strcspn(s, " \t#\n");
	if ((size_t)(e - s) >= len)
		return NULL;
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	return buf;
}

/* Read the whole file @path; NULL with @err set on failure. */
static char *slurp(const char *path, char *err, size_t errlen, int *code)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		*code = perr(err, errlen, VPMC_ERR_INVAL, "%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (len + 4097 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (!nb) {
				free(buf);
				fclose(f);
				*code = VPMC_ERR_NOMEM;
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n && len < (1u << 24));
	if (ferror(f) || memchr(buf, '\0', len)) {
		*code = perr(err, errlen, VPMC_ERR_INVAL, "%s: %s", path,
			     ferror(f) ? strerror(errno) : "not a text file");
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static void profile_init(struct vpmc_cost_profile *p)
{
	memset(p, 0, sizeof(*p));
	vpmc_cost_default(&p->cost);
}

/* Load @spec with @depth bases above it at most. */
static int profile_load(struct vpmc_cost_profile *p, const char *spec, char *err, size_t errlen,
			int depth)
{
	bool is_file = strchr(spec, '/') ||
		       (strlen(spec) > 5 && !strcmp(spec + strlen(spec) - 5, ".cost"));
	const char *text = is_file ? NULL : vpmc_cost_profile_shipped(spec);
	char *owned = NULL, bbuf[64];
	const char *base;
	int rc = 0;

	if (!is_file && !text)
		return perr(err, errlen, VPMC_ERR_INVAL,
			    "unknown cost profile '%s' (shipped: default, rfc-milan; a file has a "
			    "'/' or ends in .cost)", spec);
	if (is_file) {
		owned = slurp(spec, err, errlen, &rc);
		if (!owned)
			return rc;
		text = owned;
	}
	base = base_name(text, bbuf, sizeof(bbuf));
	if (base && depth > 0) {
		rc = profile_load(p, base, err, errlen, depth - 1);
		/* metadata is not inherited from a base */
		free(p->fitted);
		free(p->targets);
		free(p->measured);
		free(p->fitted_on);
		p->fitted = p->targets = p->measured = p->fitted_on = NULL;
	} else if (base) {
		rc = perr(err, errlen, VPMC_ERR_INVAL, "%s:1: base: bases nest too deep", spec);
	} else {
		vpmc_cost_profile_release(p);
		profile_init(p);
		rc = vpmc_cost_profile_parse(p, profile_default, "default", err, errlen);
	}
	if (!rc) {
		snprintf(p->name, sizeof(p->name), "%s", spec);
		rc = vpmc_cost_profile_parse(p, text, spec, err, errlen);
	}
	free(owned);
	return rc;
}

int vpmc_cost_profile_load(struct vpmc_cost_profile *p, const char *spec, char *err,
			   size_t errlen)
{
	profile_init(p);
	return profile_load(p, spec, err, errlen, 4);
}

/* Whether parameter @name is listed in the profile's "fitted" line. */
static bool is_fitted(const struct vpmc_cost_profile *p, const char *name, size_t len)
{
	const char *s = p->fitted;

	while (s && *s) {
		size_t l;

		s += strspn(s, " ");
		l = strcspn(s, " ");
		if (l == len && !strncmp(s, name, len))
			return true;
		s += l;
	}
	return false;
}

int vpmc_cost_profile_override(struct vpmc_cost_profile *p, const char *spec, const char **why)
{
	const char *s;
	int rc = vpmc_cost_parse(&p->cost, spec, why);

	if (rc)
		return rc;
	for (s = spec; s; s = strchr(s, ','), s = s ? s + 1 : NULL) {
		size_t len = strcspn(s, "=,");
		int i = param_index(s, len);

		if (i >= 0)
			p->tag[i] = VPMC_COST_TAG_OVERRIDE;
		if (is_fitted(p, s, len))
			p->fitted_touched = true;
	}
	return 0;
}

int vpmc_cost_profile_write(const struct vpmc_cost_profile *p, FILE *out)
{
	const struct vpmc_cost_param_info *t;
	size_t n, i;
	unsigned int j;

	t = vpmc_cost_params(&n);
	fprintf(out, "profile = %s\n", p->name);
	if (p->fitted)
		fprintf(out, "fitted = %s\n", p->fitted);
	if (p->targets)
		fprintf(out, "targets = %s\n", p->targets);
	if (p->measured)
		fprintf(out, "measured = %s\n", p->measured);
	if (p->fitted_on)
		fprintf(out, "fitted_on = %s\n", p->fitted_on);
	for (i = 0; i < n; i++) {
		fprintf(out, "%s = ", t[i].name);
		if (!strcmp(t[i].name, "drain_extra_mult")) {
			for (j = 0; j < p->cost.mult_n; j++)
				fprintf(out, "%s%.6g:%.6g", j ? " " : "", p->cost.mult_k[j],
					p->cost.mult_p[j]);
		} else {
			fprintf(out, "%.10g", *(const double *)((const char *)&p->cost + t[i].off));
		}
		fprintf(out, "  # %s; %s\n",
			vpmc_cost_tag_name(p->tag[i] == VPMC_COST_TAG_NONE ? VPMC_COST_TAG_ESTIMATE
									     : p->tag[i]),
			p->source[i] ? p->source[i] : "-");
	}
	return ferror(out) ? VPMC_ERR_IO : 0;
}

void vpmc_replay_set_cost_profile(struct vpmc_replay *r, const struct vpmc_cost_profile *p)
{
	vpmc_replay_set_cost(r, &p->cost);
	memcpy(r->cost_tag, p->tag, sizeof(r->cost_tag));
	r->cost_tagged = true;
}

/* Whether parameter @t of @a and @b has the same value (drain_extra_mult: the whole table). */
static bool cost_param_equal(const struct vpmc_cost_param_info *t, const struct vpmc_cost *a,
			     const struct vpmc_cost *b)
{
	unsigned int j;

	if (strcmp(t->name, "drain_extra_mult"))
		return *(const double *)((const char *)a + t->off) ==
		       *(const double *)((const char *)b + t->off);
	if (a->mult_n != b->mult_n)
		return false;
	for (j = 0; j < a->mult_n; j++) {
		if (a->mult_k[j] != b->mult_k[j] || a->mult_p[j] != b->mult_p[j])
			return false;
	}
	return true;
}

/* The shipped default profile's costs and tags, parsed once per process: its text is built
 * in, and a replay's report asks for its tags (a parse per replay: 2% of fuzz_engine's CPU). */
static struct vpmc_cost shipped_cost;
static enum vpmc_cost_tag shipped_tag[VPMC_COST_MAX_PARAMS];
static int shipped_state; /* 1: parsed, -1: it failed */
static pthread_once_t shipped_once = PTHREAD_ONCE_INIT;

static void parse_shipped_default(void)
{
	struct vpmc_cost_profile d;

	shipped_state = vpmc_cost_profile_load(&d, "default", NULL, 0) ? -1 : 1;
	if (shipped_state > 0) {
		shipped_cost = d.cost;
		memcpy(shipped_tag, d.tag, sizeof(shipped_tag));
	}
	vpmc_cost_profile_release(&d);
}

/* The default profile into @r's cache, once. */
static void load_default(struct vpmc_replay *r)
{
	if (r->default_state)
		return;
	pthread_once(&shipped_once, parse_shipped_default);
	r->default_state = shipped_state;
	if (r->default_state > 0) {
		r->default_cost = shipped_cost;
		memcpy(r->default_tag, shipped_tag, sizeof(r->default_tag));
	}
}

enum vpmc_cost_tag vpmc_replay_cost_tag(const struct vpmc_replay *r, size_t i)
{
	const struct vpmc_cost_param_info *t;
	size_t n;

	t = vpmc_cost_params(&n);
	if (i >= n)
		return VPMC_COST_TAG_NONE;
	if (r->cost_tagged)
		return r->cost_tag[i];
	load_default((struct vpmc_replay *)r); /* a cache: every replay is allocated writable */
	if (r->default_state < 0)
		return VPMC_COST_TAG_NONE;
	return cost_param_equal(&t[i], &r->cost, &r->default_cost) ? r->default_tag[i]
								     : VPMC_COST_TAG_OVERRIDE;
}
