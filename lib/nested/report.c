// SPDX-License-Identifier: GPL-2.0-only
/* report.c - The nested report (nested-gpc.md §8.2): one row per round-trip kind with counts
 * and baseline vs gpc cycles, in text, CSV or JSON, with every assumption and parameter and
 * where each came from; the p50 distributions. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "nested-local.h"

/* ---------------------------------------------------------------------------------------------
 * Distributions: exact while few values are distinct (a ping-pong has one or two per row),
 * then the project's fixed-memory histogram (lib/core/hist.h, within 1 %).
 */
void nested_dist_init(struct nested_dist *d)
{
	memset(d, 0, sizeof(*d));
	hist_init(&d->h);
}

void nested_dist_release(struct nested_dist *d)
{
	hist_release(&d->h);
}

int nested_dist_add(struct nested_dist *d, uint64_t v)
{
	unsigned int i;
	uint64_t c;

	d->n++;
	if (d->hist_on)
		return hist_add(&d->h, v);
	for (i = 0; i < d->nr_vals; i++) {
		if (d->val[i] == v) {
			d->cnt[i]++;
			return 0;
		}
	}
	if (d->nr_vals < NESTED_DIST_EXACT) {
		d->val[d->nr_vals] = v;
		d->cnt[d->nr_vals++] = 1;
		return 0;
	}
	d->hist_on = true;
	for (i = 0; i < d->nr_vals; i++) {
		for (c = 0; c < d->cnt[i]; c++) {
			if (hist_add(&d->h, d->val[i]))
				return VPMC_ERR_NOMEM;
		}
	}
	return hist_add(&d->h, v);
}

uint64_t nested_dist_p50(const struct nested_dist *d)
{
	uint64_t rank = (d->n + 1) / 2, seen = 0, best;
	bool done[NESTED_DIST_EXACT] = { false };
	unsigned int i, k, lo;

	if (!d->n)
		return 0;
	if (d->hist_on)
		return hist_percentile(&d->h, 5000);
	for (k = 0; k < d->nr_vals; k++) {
		lo = d->nr_vals;
		best = UINT64_MAX;
		for (i = 0; i < d->nr_vals; i++) {
			if (!done[i] && d->val[i] <= best) {
				best = d->val[i];
				lo = i;
			}
		}
		done[lo] = true;
		seen += d->cnt[lo];
		if (seen >= rank)
			return best;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Output helpers.
 */
struct out {
	FILE *f;
	char *buf;
	size_t len;
};

static const char *const from_names[] = {
	[NF_DEFAULT] = "default", [NF_OPTION] = "option", [NF_DIRECTIVE] = "directive",
	[NF_TRACE] = "trace",
};

static const char *isa_name(enum vpmc_nested_isa isa)
{
	return isa == VPMC_NESTED_ISA_VMX ? "vmx" : "svm";
}

/* One assumption's value as text (its !nested spelling); the trace's intercept words when it
 * has them. */
static void key_value(const struct vpmc_nested *n, enum vpmc_nested_key k, char *buf, size_t len)
{
	struct vpmc_nested_assume a = n->cfg.a;
	char kv[128], *eq;

	if (n->intercepts_seen)
		memcpy(a.svm_intercepts, n->trace_w, sizeof(a.svm_intercepts));
	vpmc_nested_assume_format(&a, 1u << k, kv, sizeof(kv));
	eq = strchr(kv, '=');
	snprintf(buf, len, "%s", eq ? eq + 1 : kv);
}

static double per(uint64_t a, uint64_t n)
{
	return n ? (double)a / (double)n : 0.0;
}

struct rowval {
	uint64_t n, b, g, measured;
	int64_t saved;
	double pct, maps_b, maps_g, reads_b, hits_g, reads_g, loads_g;
	bool has_measured;
};

static void row_values(const struct vpmc_nested *n, enum nested_kind k, struct rowval *v)
{
	const struct nested_row *r = &n->rows[k];

	memset(v, 0, sizeof(*v));
	v->n = r->n;
	v->b = nested_dist_p50(n->use_measured ? &r->meas_b : &r->model_b);
	v->g = nested_dist_p50(n->use_measured ? &r->meas_g : &r->model_g);
	v->saved = (int64_t)v->b - (int64_t)v->g;
	v->pct = v->b ? 100.0 * (double)v->saved / (double)v->b : 0.0;
	v->maps_b = per(r->ops.maps_b, r->n);
	v->maps_g = per(r->ops.maps_g + r->ops.refreshes_g, r->n);
	v->reads_b = per(r->ops.reads_b, r->n);
	v->hits_g = per(r->ops.hits_g, r->n);
	v->reads_g = per(r->ops.reads_g, r->n);
	v->loads_g = per(r->ops.loads_g, r->n);
	v->has_measured = r->measured.n > 0;
	v->measured = nested_dist_p50(&r->measured);
}

/* Whether a row's numbers reproduce M1 by construction (§7.3) or predict. */
static const char *row_status(const struct vpmc_nested *n, enum nested_kind k)
{
	const struct nested_cfg *c = &n->cfg;

	if (c->a.isa == VPMC_NESTED_ISA_SVM && c->a.profile == VPMC_NESTED_DEBUG &&
	    c->a.l1mem == VPMC_NESTED_MEM_SP && (k == NK_CPUID || k == NK_MSR) && c->fitted)
		return "fitted";
	return "prediction";
}

/* ---- JSON --------------------------------------------------------------------------------- */

static void json_model(const struct vpmc_nested *n, FILE *f)
{
	const struct nested_cfg *c = &n->cfg;
	char val[128];
	const struct {
		const char *name;
		bool v;
		uint32_t bit;
	} flags[] = {
		{ "msr_in_range", c->msr_in_range, VPMC_NESTED_OPT_MSR_IN_RANGE },
		{ "gpc_svm_merge", c->gpc_svm_merge, VPMC_NESTED_OPT_GPC_SVM_MERGE },
		{ "gpc_context", c->gpc_context, VPMC_NESTED_OPT_GPC_CONTEXT },
		{ "gpc_cold", c->gpc_cold, VPMC_NESTED_OPT_GPC_COLD },
	};
	static const char *const anchors[] = { "auto", "measured", "model" };
	size_t i;
	int k, p, nf = 0;

	fputs("  \"model\": {\n", f);
	for (k = 0; k < VPMC_NESTED_KEY_NR; k++) {
		key_value(n, (enum vpmc_nested_key)k, val, sizeof(val));
		fprintf(f, "    \"%s\": ", vpmc_nested_key_name((enum vpmc_nested_key)k));
		if (k == VPMC_NESTED_KEY_GHZ || k == VPMC_NESTED_KEY_SVM_MERGE_CHUNKS)
			fputs(val, f);
		else if (k >= VPMC_NESTED_KEY_PI && k <= VPMC_NESTED_KEY_EVMCS)
			fputs(val[0] == '1' ? "true" : "false", f);
		else
			vpmc_json_string(f, val);
		fprintf(f, ",\n    \"%s_from\": \"%s\",\n",
			vpmc_nested_key_name((enum vpmc_nested_key)k),
			k == VPMC_NESTED_KEY_SVM_INTERCEPTS && n->intercepts_seen ? "trace" :
			from_names[c->from[k]]);
	}
	for (i = 0; i < ARRAY_SIZE(flags); i++)
		fprintf(f, "    \"%s\": %s,\n    \"%s_from\": \"%s\",\n", flags[i].name,
			flags[i].v ? "true" : "false", flags[i].name,
			n->opts.given & flags[i].bit ? "option" : "default");
	fprintf(f, "    \"gpc_invalidate_every\": %" PRIu64 ",\n    \"gpc_invalidate_every_from\": "
		"\"%s\",\n", c->inval_every,
		n->opts.given & VPMC_NESTED_OPT_GPC_INVALIDATE_EVERY ? "option" : "default");
	fprintf(f, "    \"anchor\": \"%s\",\n    \"anchor_from\": \"%s\",\n    \"anchor_used\": "
		"\"%s\",\n", anchors[c->anchor],
		n->opts.given & VPMC_NESTED_OPT_ANCHOR ? "option" : "default",
		n->use_measured ? "measured" : "model");
	fputs("    \"params\": {\n", f);
	for (p = 0; p < VPMC_NP_NR; p++)
		fprintf(f, "      \"%s\": %" PRIu64 ",\n", vpmc_nested_param_name(p), c->p[p]);
	fputs("      \"fitted\": [", f);
	for (p = 0; p < VPMC_NP_NR; p++) {
		if (c->fitted & (1u << p))
			fprintf(f, "%s\"%s\"", nf++ ? ", " : "", vpmc_nested_param_name(p));
	}
	fputs("]\n    },\n    \"param_tags\": {\n", f);
	for (p = 0; p < VPMC_NP_NR; p++) {
		fprintf(f, "      \"%s\": ", vpmc_nested_param_name(p));
		vpmc_json_string(f, nested_param_tag(c, p));
		fputs(p + 1 < VPMC_NP_NR ? ",\n" : "\n", f);
	}
	fputs("    }\n  },\n", f);
}

static void json_ops(FILE *f, const char *ind, const struct nested_ops *o, bool last)
{
	fprintf(f, "%s\"maps_baseline\": %" PRIu64 ",\n%s\"reads_baseline\": %" PRIu64 ",\n"
		"%s\"maps_gpc\": %" PRIu64 ",\n%s\"refreshes_gpc\": %" PRIu64 ",\n"
		"%s\"hits_gpc\": %" PRIu64 ",\n%s\"loads_gpc\": %" PRIu64 ",\n"
		"%s\"reads_gpc\": %" PRIu64 "%s\n", ind, o->maps_b, ind, o->reads_b, ind,
		o->maps_g + o->refreshes_g, ind, o->refreshes_g, ind, o->hits_g, ind, o->loads_g,
		ind, o->reads_g, last ? "" : ",");
}

/* Return: 0, or VPMC_ERR_NOMEM (nothing written). */
static int json_report(const struct vpmc_nested *n, FILE *f)
{
	const struct nested_totals *t = &n->tot;
	char *state = nested_summary_state(n);
	struct rowval v;
	int k, nr = 0;

	if (!state)
		return VPMC_ERR_NOMEM;

	fputs("{\n  \"trace\": {\n    \"path\": ", f);
	vpmc_json_string(f, n->name);
	fprintf(f, ",\n    \"events\": %" PRIu64 ",\n    \"vcpus\": %u,\n    \"first_ns\": %" PRIu64
		",\n    \"last_ns\": %" PRIu64 ",\n    \"usable_times\": %s,\n    \"partial_lines\": %"
		PRIu64 "\n  },\n", n->nr_events, n->nr_vcpus, n->first_ns, n->last_ns,
		n->usable ? "true" : "false", n->partial);
	json_model(n, f);
	fputs("  \"kinds\": [", f);
	for (k = 0; k < NK_NR; k++) {
		row_values(n, (enum nested_kind)k, &v);
		if (!v.n)
			continue;
		fprintf(f, "%s\n    {\n      \"kind\": \"%s\",\n      \"roundtrips\": %" PRIu64 ",\n"
			"      \"maps_per_rt_baseline\": %.4f,\n      \"maps_per_rt_gpc\": %.4f,\n"
			"      \"guest_reads_per_rt_baseline\": %.4f,\n      \"gpc_hits_per_rt\": %.4f,\n"
			"      \"cycles_p50_baseline\": %" PRIu64 ",\n      \"cycles_p50_gpc\": %" PRIu64
			",\n      \"saved_cycles_p50\": %" PRId64 ",\n      \"saved_pct_p50\": %.2f",
			nr++ ? "," : "", nested_kind_name((enum nested_kind)k), v.n, v.maps_b, v.maps_g,
			v.reads_b, v.hits_g, v.b, v.g, v.saved, v.pct);
		if (n->usable && v.has_measured)
			fprintf(f, ",\n      \"measured_rt_cycles_p50\": %" PRIu64, v.measured);
		else if (n->usable)
			fputs(",\n      \"measured_rt_cycles_p50\": null", f);
		fputs("\n    }", f);
	}
	fputs(nr ? "\n  ],\n  \"detail\": {" : "],\n  \"detail\": {", f);
	nr = 0;
	for (k = 0; k < NK_NR; k++) {
		row_values(n, (enum nested_kind)k, &v);
		if (!v.n)
			continue;
		fprintf(f, "%s\n    \"%s\": {\n      \"guest_reads_per_rt_gpc\": %.4f,\n"
			"      \"loads_per_rt_gpc\": %.4f,\n      \"refreshes_gpc\": %" PRIu64 ",\n"
			"      \"assumed_entries\": %" PRIu64 ",\n      \"status\": \"%s\"\n    }",
			nr++ ? "," : "", nested_kind_name((enum nested_kind)k), v.reads_g, v.loads_g,
			n->rows[k].ops.refreshes_g, n->rows[k].assumed,
			row_status(n, (enum nested_kind)k));
	}
	fprintf(f, "%s},\n  \"totals\": {\n    \"l2_exits\": %" PRIu64 ",\n    \"roundtrips\": %"
		PRIu64 ",\n    \"l0_handled\": %" PRIu64 ",\n    \"incomplete_exits\": %" PRIu64
		",\n    \"incomplete_runs\": %" PRIu64 ",\n    \"assumed_entries\": %" PRIu64
		",\n    \"l1_exits\": %" PRIu64 ",\n    \"gpa_changes\": %" PRIu64 ",\n",
		nr ? "\n  " : "", t->l2_exits, t->roundtrips, t->l0_handled, t->incomplete_exits,
		t->incomplete_runs, t->assumed_entries, t->l1_exits, t->gpa_changes);
	json_ops(f, "    ", &t->ops, false);
	fprintf(f, "    \"svm_vmload_vmsave_exits\": %" PRIu64 ",\n    \"invalidations\": %" PRIu64
		",\n    \"inval_walk_cycles\": %" PRIu64 ",\n    \"unplaced_events\": %" PRIu64
		",\n    \"early_vmfails\": %" PRIu64 "\n  },\n  \"merge_state\": %s\n}\n",
		t->vmload_vmsave, t->invalidations, t->inval_walk_cycles, t->unplaced,
		t->early_vmfails, state);
	free(state);
	return 0;
}

/* ---- CSV ---------------------------------------------------------------------------------- */

static void csv_report(const struct vpmc_nested *n, FILE *f)
{
	struct rowval v;
	int k;

	fputs("kind,roundtrips,maps_per_rt_baseline,maps_per_rt_gpc,guest_reads_per_rt_baseline,"
	      "gpc_hits_per_rt,cycles_p50_baseline,cycles_p50_gpc,saved_cycles_p50,saved_pct_p50,"
	      "measured_rt_cycles_p50\n", f);
	for (k = 0; k < NK_NR; k++) {
		row_values(n, (enum nested_kind)k, &v);
		if (!v.n)
			continue;
		fprintf(f, "%s,%" PRIu64 ",%.4f,%.4f,%.4f,%.4f,%" PRIu64 ",%" PRIu64 ",%" PRId64
			",%.2f,", nested_kind_name((enum nested_kind)k), v.n, v.maps_b, v.maps_g,
			v.reads_b, v.hits_g, v.b, v.g, v.saved, v.pct);
		if (n->usable && v.has_measured)
			fprintf(f, "%" PRIu64, v.measured);
		putc('\n', f);
	}
}

/* ---- text --------------------------------------------------------------------------------- */

#define TEXT_WIDTH 96

/* Lines of "LABEL: item, item; item ..." wrapped at TEXT_WIDTH, continued 7 spaces in. */
struct wrap {
	FILE *f;
	size_t col;
};

static void wrap_word(struct wrap *w, const char *word)
{
	size_t n = strlen(word);

	if (w->col > 7 && w->col + 1 + n > TEXT_WIDTH) {
		fputs("\n       ", w->f);
		w->col = 7;
	} else if (w->col) {
		putc(' ', w->f);
		w->col++;
	}
	for (; *word; word++)
		putc(*word == '\x01' ? ' ' : *word, w->f); /* a space the wrap keeps */
	w->col += n;
}

/* Words of a printf-formatted text, wrapped. */
static void __attribute__((format(printf, 2, 3))) wrapf(struct wrap *w, const char *fmt, ...)
{
	char buf[1024], *p, *save = NULL;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (p = strtok_r(buf, " ", &save); p; p = strtok_r(NULL, " ", &save))
		wrap_word(w, p);
}

/* The same, kept on one line (a phrase to find as it is). */
static void __attribute__((format(printf, 2, 3))) wrapc(struct wrap *w, const char *fmt, ...)
{
	char buf[1024], *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (p = buf; *p; p++)
		*p = *p == ' ' ? '\x01' : *p;
	wrap_word(w, buf);
}

static void wrap_end(struct wrap *w)
{
	putc('\n', w->f);
	w->col = 0;
}

static void text_header(const struct vpmc_nested *n, FILE *f)
{
	const struct nested_cfg *c = &n->cfg;
	const bool vmx = c->a.isa == VPMC_NESTED_ISA_VMX;
	const char *isa_from;
	struct wrap w = { f, 0 };
	char buf[256];
	int k, p;

	fprintf(f, "trace: %s\n", n->name);
	fprintf(f, "events: %" PRIu64 " on %u vCPU(s); time stamps %s\n", n->nr_events, n->nr_vcpus,
		n->usable ? "usable (ns)" :
			    "not usable (none, or microsecond resolution): model anchor");
	switch (c->from[VPMC_NESTED_KEY_ISA]) {
	case NF_TRACE:
		isa_from = n->isa_by_label ? (vmx ? "trace: vmcs" : "trace: vmcb") :
					     "trace: exit reasons";
		break;
	case NF_OPTION:
		isa_from = "--isa";
		break;
	case NF_DIRECTIVE:
		isa_from = "!nested";
		break;
	default:
		isa_from = "default: the trace does not tell";
		break;
	}
	wrapc(&w, "nested: isa %s (%s),", isa_name(c->a.isa), isa_from);
	if (vmx) {
		vpmc_nested_assume_format(&c->a, (1u << VPMC_NESTED_KEY_APIC) |
					  (1u << VPMC_NESTED_KEY_PI) | (1u << VPMC_NESTED_KEY_MSR_BITMAP) |
					  (1u << VPMC_NESTED_KEY_IO_BITMAP) |
					  (1u << VPMC_NESTED_KEY_EVMCS), buf, sizeof(buf));
		wrapc(&w, "vmcs12 %s", buf);
		wrapc(&w, "(n_apic %u)", nested_vmx_n_apic(&c->a));
	} else {
		uint32_t w3 = n->intercepts_seen ? n->trace_w[0] : c->a.svm_intercepts[0];

		wrapf(&w, "intercepts %s (%s%s)", n->intercepts_seen ? "from the trace" :
		      c->from[VPMC_NESTED_KEY_SVM_INTERCEPTS] == NF_DEFAULT ?
		      "assumed: KVM as L1's" : "given", w3 & (1u << 28) ? "MSR_PROT" : "no MSR_PROT",
		      w3 & (1u << 27) ? " IOIO_PROT" : " no IOIO_PROT");
	}
	wrap_end(&w);
	wrapf(&w, "model: profile\x01%s, L1 memory %s, recorded %s, anchor %s, ",
	      c->a.profile ? "prod" : "debug", c->a.l1mem ? "io (PFNMAP)" : "sp",
	      c->a.recorded ? "gpc" : "baseline", n->use_measured ? "measured" : "model");
	key_value(n, VPMC_NESTED_KEY_GHZ, buf, sizeof(buf));
	wrapf(&w, "%s GHz;", buf);
	if (!vmx)
		wrapf(&w, "nsvm-gpc merge %s,", c->gpc_svm_merge ? "converted" :
		      "on kvm_vcpu_read_guest() (variant V)");
	wrapc(&w, "%s,", c->gpc_context ? "nested context yes" : "no nested context");
	wrapc(&w, "caches %s,", c->gpc_cold ? "cold" : "warm");
	if (!vmx)
		wrapf(&w, "%u merge chunks,", c->a.svm_merge_chunks);
	wrapf(&w, "MSRs %s bitmap ranges", c->msr_in_range ? "in" : "outside");
	if (c->inval_every)
		wrapf(&w, ", invalidation every %" PRIu64 " RTs", c->inval_every);
	wrap_end(&w);
	/* where each assumption came from */
	wrapf(&w, "assumed from:");
	for (p = NF_OPTION; p <= NF_DIRECTIVE; p++) {
		buf[0] = '\0';
		for (k = 0; k < VPMC_NESTED_KEY_NR; k++) {
			if ((int)c->from[k] == p)
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
					 buf[0] ? "," : "", vpmc_nested_key_name(k));
		}
		if (buf[0])
			wrapf(&w, "%s %s;", p == NF_OPTION ? "options" : "!nested", buf);
	}
	wrapf(&w, "the rest defaults (vpmcsim(1), NESTED)");
	wrap_end(&w);
	wrapf(&w, "params (cycles):");
	for (p = 0; p < VPMC_NP_NR; p++) {
		bool io = c->a.l1mem == VPMC_NESTED_MEM_IO;

		if ((p == VPMC_NP_MAP_PAIR_IO || p == VPMC_NP_IO_TAIL || p == VPMC_NP_IO_TAIL_EVERY) &&
		    !io)
			continue;
		if (p == VPMC_NP_MAP_PAIR_SP && io)
			continue;
		if ((p == VPMC_NP_GPC_KICK || p == VPMC_NP_VMX_GPC_EXTRA_HITS ||
		     p == VPMC_NP_EVMCS_GPC_HITS) && !vmx)
			continue;
		if (p == VPMC_NP_EVMCS_GPC_HITS && !c->a.evmcs)
			continue;
		if (p == VPMC_NP_GPC_INVAL_WALK && !n->tot.invalidations)
			continue;
		wrapf(&w, "%s=%" PRIu64 "%s", vpmc_nested_param_name(p), c->p[p],
		      c->fitted & (1u << p) ? "*" : c->given & (1u << p) ? "!" : "");
	}
	wrapc(&w, "(* fitted to the Milan measurement M1, §7.3;");
	wrapf(&w, "! given; the others estimates (E) or derived (D), tags in --format json)");
	wrap_end(&w);
}

static void text_status(const struct vpmc_nested *n, FILE *f)
{
	const struct nested_cfg *c = &n->cfg;
	struct wrap w = { f, 0 };
	bool fitted_rows = false;
	int k;

	for (k = 0; k < NK_NR; k++)
		fitted_rows |= n->rows[k].n && !strcmp(row_status(n, (enum nested_kind)k), "fitted");
	wrapf(&w, "status:");
	if (fitted_rows)
		wrapf(&w, "the reflected-cpuid and msr-intercept savings (and in a plain ping-pong "
		      "their levels) reproduce M1 (47.6k -> 38.6k, 49.1k -> 39.9k, ~9k saved) by "
		      "construction: four costs are fitted to those four p50s, so matching them "
		      "checks the classification and arithmetic, not the model;");
	if (c->a.isa == VPMC_NESTED_ISA_VMX)
		wrapf(&w, "nVMX rows are predictions: no nVMX measurement went into any parameter "
		      "(per-operation costs fitted on nSVM, debug kernel, Milan);");
	if (c->a.profile == VPMC_NESTED_PROD)
		wrapf(&w, "prod costs are estimates (E: debug / 6.4, G3, G4);");
	if (c->a.l1mem == VPMC_NESTED_MEM_IO)
		wrapf(&w, "PFNMAP costs are estimates (E: G5, G1);");
	wrapf(&w, "%s", fitted_rows ? "every other number is a prediction" :
	      "every number is a prediction");
	wrap_end(&w);
}

static void text_report(const struct vpmc_nested *n, FILE *f)
{
	const struct nested_totals *t = &n->tot;
	struct wrap w = { f, 0 };
	struct rowval v;
	char meas[24], buf[512];
	size_t n0;
	int k, nr = 0;

	text_header(n, f);
	fputs("\n", f);
	fprintf(f, "%-16s %-6s %-13s %-9s %-8s %-16s %s%s\n", "kind", "RTs", "maps/RT",
		"reads/RT", "hits/RT", "p50 cycles", "saved", n->usable ? "         measured" : "");
	fprintf(f, "%-16s %-6s %-5s %-7s %-9s %-8s %-7s %-8s %-7s %%%s\n", "", "", "base", "gpc",
		"base", "gpc", "base", "gpc", "cycles", n->usable ? "     p50" : "");
	for (k = 0; k < NK_NR; k++) {
		row_values(n, (enum nested_kind)k, &v);
		if (!v.n)
			continue;
		nr++;
		meas[0] = '\0';
		if (n->usable && v.has_measured)
			snprintf(meas, sizeof(meas), " %" PRIu64, v.measured);
		else if (n->usable)
			snprintf(meas, sizeof(meas), " -");
		fprintf(f, "%-16s %-6" PRIu64 " %-5.2f %-7.2f %-9.2f %-8.2f %-7" PRIu64 " %-8" PRIu64
			" %-7" PRId64 " %.2f%s\n", nested_kind_name((enum nested_kind)k), v.n,
			v.maps_b, v.maps_g, v.reads_b, v.hits_g, v.b, v.g, v.saved, v.pct, meas);
	}
	if (!nr)
		fputs("(no round trip)\n", f);
	fputs("\n", f);
	if (nr)
		text_status(n, f);
	n0 = (size_t)snprintf(buf, sizeof(buf), "totals: L2 exits %" PRIu64 " (L0-handled %" PRIu64
			      ", incomplete %" PRIu64 "); round trips %" PRIu64 " (assumed entries %"
			      PRIu64 ", incomplete runs %" PRIu64 "); L1 exits %" PRIu64
			      "; GPA changes %" PRIu64, t->l2_exits, t->l0_handled,
			      t->incomplete_exits, t->roundtrips, t->assumed_entries,
			      t->incomplete_runs, t->l1_exits, t->gpa_changes);
	if (t->vmload_vmsave)
		n0 += (size_t)snprintf(buf + n0, sizeof(buf) - n0, "; vmload/vmsave exits %" PRIu64,
				       t->vmload_vmsave);
	if (t->invalidations)
		n0 += (size_t)snprintf(buf + n0, sizeof(buf) - n0, "; invalidations %" PRIu64
				       " (walks %" PRIu64 " cycles)", t->invalidations,
				       t->inval_walk_cycles);
	if (t->unplaced)
		n0 += (size_t)snprintf(buf + n0, sizeof(buf) - n0, "; unplaced events %" PRIu64,
				       t->unplaced);
	if (t->early_vmfails)
		n0 += (size_t)snprintf(buf + n0, sizeof(buf) - n0, "; early VM-Fails %" PRIu64,
				       t->early_vmfails);
	if (n->partial)
		snprintf(buf + n0, sizeof(buf) - n0, "; partial lines %" PRIu64, n->partial);
	wrapf(&w, "%s", buf);
	wrap_end(&w);
	fprintf(f, "ops: baseline maps %" PRIu64 ", reads %" PRIu64 "; gpc maps %" PRIu64
		", hits %" PRIu64 ", loads %" PRIu64 ", reads %" PRIu64 ", refreshes %" PRIu64 "\n",
		t->ops.maps_b, t->ops.reads_b, t->ops.maps_g + t->ops.refreshes_g, t->ops.hits_g,
		t->ops.loads_g, t->ops.reads_g, t->ops.refreshes_g);
}

int vpmc_nested_report(struct vpmc_nested *n, enum vpmc_output fmt, const char **text)
{
	size_t len = 0;
	int err = 0;
	FILE *f;

	free(n->report);
	n->report = NULL;
	f = open_memstream(&n->report, &len);
	if (!f)
		return vpmc__set_error(&n->err, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	if (fmt == VPMC_OUTPUT_JSON)
		err = json_report(n, f);
	else if (fmt == VPMC_OUTPUT_CSV)
		csv_report(n, f);
	else
		text_report(n, f);
	if (fclose(f) || !n->report || err)
		return vpmc__set_error(&n->err, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	*text = n->report;
	return 0;
}
