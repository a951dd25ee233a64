// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - The replay's results as aligned text, CSV or JSON (jansson), and the sweep's
 * gnuplot script. One table of fields drives all formats, so names and units stay the same:
 * JSON keys and CSV columns are the `key`s below (unit in the name), text columns their `head`.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <vpmc/replay.h>

#include "outbuf.h"
#include "replay.h"
#include "sensitivity.h"
#include "summary.h"

/* A row: the public figures and what is derived from them (against the ideal guest, against
 * exact, against the trace's own exit handling). */
struct row {
	struct vpmc_metrics m;
	double exits_with_drain_pct;
	double samples_lost_pct;     /* of the ideal guest's samples; defined when it had some */
	double host_us_saved_pct;    /* of exact's host_us_total; defined when has_exact */
	double pmu_share_of_exit_pct; /* PMU us per exit over the trace's exit handling per exit */
	bool has_exact, has_exit_time;
};

enum fkind {
	F_U64,  /* integer */
	F_EV,   /* events, 2 decimals */
	F_US,   /* microseconds, 3 decimals */
	F_PCT,  /* percent, 2 decimals */
	F_LAT,  /* integer, meaningful only when overflows were matched */
	F_EXIT, /* microseconds, meaningful only when there were exits */
	F_ILAT, /* integer, meaningful only when samples were matched with the ideal guest's */
	F_LOST, /* percent, meaningful only when the ideal guest had samples */
	F_SAVED, /* percent, meaningful only when exact is a row and cost something */
	F_SHARE, /* percent, meaningful only with exits and the trace's exit times */
	F_FRAC, /* fraction, 4 decimals, meaningful only when counters were read */
};

enum fsect { S_VERDICT, S_READS, S_PMIS, S_COST, S_NR };

struct field {
	const char *key;  /* JSON and CSV */
	const char *head; /* text column */
	enum fkind kind;
	enum fsect sect;
	bool per_counter; /* meaningful for one counter */
	size_t off;
};

#define M(f) offsetof(struct row, m.f)
#define R(f) offsetof(struct row, f)
static const struct field fields[] = {
	{ "samples", "samples", F_U64, S_VERDICT, false, M(samples) },
	{ "samples_ideal", "ideal", F_U64, S_VERDICT, false, M(samples_ideal) },
	{ "samples_lost_pct", "lost %", F_LOST, S_VERDICT, false, R(samples_lost_pct) },
	{ "samples_unmatched", "ahead", F_U64, S_VERDICT, false, M(samples_unmatched) },
	{ "ideal_lateness_insn_p50", "late insn p50", F_ILAT, S_VERDICT, false,
	  M(ideal_lateness_insn_p50) },
	{ "ideal_lateness_insn_p99", "p99", F_ILAT, S_VERDICT, false, M(ideal_lateness_insn_p99) },
	{ "ideal_lateness_insn_max", "max", F_ILAT, S_VERDICT, false, M(ideal_lateness_insn_max) },
	{ "ideal_lateness_ns_p99", "late ns p99", F_ILAT, S_VERDICT, false,
	  M(ideal_lateness_ns_p99) },
	{ "host_us_total", "host us", F_US, S_VERDICT, false, M(host_us_total) },
	{ "host_us_saved_pct", "saved %", F_SAVED, S_VERDICT, false, R(host_us_saved_pct) },
	{ "count_error_rel_mean", "count err", F_FRAC, S_VERDICT, false, M(count_error_rel_mean) },
	{ "reads", "reads", F_U64, S_READS, true, M(reads) },
	{ "reads_with_error", "with error", F_U64, S_READS, true, M(reads_with_error) },
	{ "error_events_mean_abs", "mean |err|", F_EV, S_READS, true, M(error_events_mean_abs) },
	{ "error_events_max_abs", "max |err|", F_U64, S_READS, true, M(error_events_max_abs) },
	{ "error_events_mean", "mean err", F_EV, S_READS, true, M(error_events_mean) },
	{ "reads_not_modeled", "not modeled", F_U64, S_READS, true, M(reads_not_modeled) },
	{ "status_reads", "status reads", F_U64, S_READS, false, M(status_reads) },
	{ "status_reads_differ", "differ", F_U64, S_READS, false, M(status_reads_differ) },
	{ "host_reads", "host reads", F_U64, S_READS, false, M(host_reads) },
	{ "host_differ", "differ", F_U64, S_READS, false, M(host_differ) },
	{ "samples_matched", "samples matched", F_U64, S_PMIS, false, M(samples_matched) },
	{ "ideal_lateness_ns_p50", "late ns p50", F_ILAT, S_PMIS, false,
	  M(ideal_lateness_ns_p50) },
	{ "ideal_lateness_ns_max", "late ns max", F_ILAT, S_PMIS, false,
	  M(ideal_lateness_ns_max) },
	{ "lane_ref_overflows", "lane-ref ovf", F_U64, S_PMIS, true, M(ref_overflows) },
	{ "lane_ref_matched", "matched", F_U64, S_PMIS, true, M(overflows_matched) },
	{ "lane_ref_missed", "missed", F_U64, S_PMIS, true, M(overflows_missed) },
	{ "dropped_by_guest", "by guest", F_U64, S_PMIS, true, M(dropped_by_guest) },
	{ "pmis_delivered", "PMIs", F_U64, S_PMIS, false, M(pmis_delivered) },
	{ "pmis_dropped", "dropped", F_U64, S_PMIS, false, M(pmis_dropped) },
	{ "pmis_spurious", "spurious", F_U64, S_PMIS, false, M(pmis_spurious) },
	{ "lane_ref_lateness_events_p50", "late ev p50", F_LAT, S_PMIS, true,
	  M(lateness_events_p50) },
	{ "lane_ref_lateness_events_p99", "p99", F_LAT, S_PMIS, true, M(lateness_events_p99) },
	{ "lane_ref_lateness_events_max", "max", F_LAT, S_PMIS, true, M(lateness_events_max) },
	{ "lane_ref_lateness_ns_p50", "late ns p50", F_LAT, S_PMIS, true, M(lateness_ns_p50) },
	{ "lane_ref_lateness_ns_p99", "p99", F_LAT, S_PMIS, true, M(lateness_ns_p99) },
	{ "lane_ref_lateness_ns_max", "max", F_LAT, S_PMIS, true, M(lateness_ns_max) },
	{ "exits", "exits", F_U64, S_COST, false, M(exits) },
	{ "exits_implicit", "implicit", F_U64, S_COST, false, M(exits_implicit) },
	{ "exits_with_drain_pct", "drain %", F_PCT, S_COST, false,
	  offsetof(struct row, exits_with_drain_pct) },
	{ "drains", "drains", F_U64, S_COST, false, M(drains) },
	{ "reprograms", "reprograms", F_U64, S_COST, false, M(reprograms) },
	{ "perf_resumes", "resumes", F_U64, S_COST, false, M(perf_resumes) },
	{ "perf_creates", "creates", F_U64, S_COST, false, M(perf_creates) },
	{ "triggers", "triggers", F_U64, S_COST, false, M(triggers) },
	{ "pmu_us_per_exit_mean", "PMU us/exit", F_EXIT, S_COST, false,
	  M(host_us_per_exit_mean) },
	{ "pmu_us_per_exit_p50", "p50", F_EXIT, S_COST, false, M(host_us_per_exit_p50) },
	{ "pmu_us_per_exit_p99", "p99", F_EXIT, S_COST, false, M(host_us_per_exit_p99) },
	{ "pmu_us_per_exit_max", "max", F_EXIT, S_COST, false, M(host_us_per_exit_max) },
	{ "pmu_share_of_exit_pct", "of exit %", F_SHARE, S_COST, false,
	  R(pmu_share_of_exit_pct) },
};
#undef R
#undef M

static const char *const sect_titles[S_NR] = {
	[S_VERDICT] = "Verdict: samples (PMIs the guest's profiler got) against the ideal guest's "
		      "(exact counting, its own PMIs run its own handler), lost and late (trace "
		      "instructions, ns); modeled host us in all and saved against exact; count "
		      "error relative to what the lane's reference counted",
	[S_READS] = "Guest-visible counts: each guest read of a counter, policy minus the lane's "
		    "reference (events); reads the trace recorded on the real host, and how many "
		    "differ",
	[S_PMIS] = "PMIs: samples against the ideal guest; then against the lane's reference "
		   "(exact counting under the policy's own guest actions): its overflows that "
		   "raised a PMI, matched, missed and late",
	[S_COST] = ("Host cost: each VM-entry ends one exit; modeled PMU work per exit (not exit "
		    "latency), and its share of the trace's measured exit handling"),
};

/* Sweep columns, in this order after "policy,tolerance". */
static const char *const sweep_keys[] = {
	"samples", "samples_ideal", "samples_lost_pct", "ideal_lateness_insn_p99",
	"host_us_total", "host_us_saved_pct", "count_error_rel_mean", "exits", "drains",
	"perf_resumes", "perf_creates", "pmu_us_per_exit_mean", "pmu_us_per_exit_p99",
	"reads_with_error", "error_events_max_abs", "lane_ref_matched", "lane_ref_missed",
	"pmis_spurious", "lane_ref_lateness_events_p99", "lane_ref_lateness_ns_p99",
};

static uint64_t row_u64(const struct row *r, const struct field *f)
{
	return *(const uint64_t *)((const char *)r + f->off);
}

static double row_double(const struct row *r, const struct field *f)
{
	return *(const double *)((const char *)r + f->off);
}

/* Undefined cell: a percentile without samples. */
static bool cell_undefined(const struct row *r, const struct field *f)
{
	switch (f->kind) {
	case F_LAT:
		return !r->m.overflows_matched;
	case F_EXIT:
		return !r->m.exits;
	case F_ILAT:
		return !r->m.samples_matched;
	case F_LOST:
		return !r->m.samples_ideal;
	case F_SAVED:
		return !r->has_exact;
	case F_SHARE:
		return !r->m.exits || !r->has_exit_time;
	case F_FRAC:
		return !r->m.reads;
	default:
		return false;
	}
}

/* Text of a cell; "" when undefined (CSV empty, text "-", JSON null). */
static void cell_text(const struct row *r, const struct field *f, char *buf, size_t len)
{
	if (cell_undefined(r, f)) {
		buf[0] = '\0';
		return;
	}
	switch (f->kind) {
	case F_U64:
	case F_LAT:
	case F_ILAT:
		snprintf(buf, len, "%" PRIu64, row_u64(r, f));
		break;
	case F_US:
	case F_EXIT:
		snprintf(buf, len, "%.3f", row_double(r, f));
		break;
	case F_FRAC:
		snprintf(buf, len, "%.4f", row_double(r, f));
		break;
	default:
		snprintf(buf, len, "%.2f", row_double(r, f));
		break;
	}
}

/* Set @o's field @f to the cell's value. */
static void cell_json(json_t *o, const struct row *r, const struct field *f, int *err,
		      struct vpmc__errbuf *eb)
{
	char buf[512];

	if (cell_undefined(r, f)) {
		out_json_set(o, f->key, json_null(), err);
	} else if (f->kind == F_U64 || f->kind == F_LAT || f->kind == F_ILAT) {
		out_json_set(o, f->key, out_json_u64(row_u64(r, f)), err);
	} else {
		cell_text(r, f, buf, sizeof(buf));
		/* the same rounding as text and CSV */
		out_json_set_real(o, f->key, strtod(buf, NULL), err, eb);
	}
}

static const struct field *field_by_key(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		if (!strcmp(fields[i].key, key))
			return &fields[i];
	}
	return NULL;
}

/* The index of policy exact in @rp, or -1. */
static int exact_index(const struct vpmc_replay *rp)
{
	size_t i, n = vpmc_replay_nr_policies(rp);

	for (i = 0; i < n; i++) {
		if (vpmc_replay_policy(rp, i)->kind == VPMC_POLICY_EXACT)
			return (int)i;
	}
	return -1;
}

/* The derived figures of @r: @exact is exact's row of the same vCPUs (NULL if none). */
static void row_finish(const struct vpmc_replay *rp, struct row *r, const struct row *exact)
{
	uint64_t exit_ns, nr_exits = vpmc_replay_trace_exits(rp, &exit_ns);

	r->exits_with_drain_pct =
		r->m.exits ? 100.0 * (double)r->m.exits_with_drain / (double)r->m.exits : 0.0;
	r->samples_lost_pct = r->m.samples_ideal ? 100.0 * ((double)r->m.samples_ideal -
							     (double)r->m.samples) /
							   (double)r->m.samples_ideal
						 : 0.0;
	r->has_exact = exact && exact->m.host_us_total > 0;
	r->host_us_saved_pct = r->has_exact ? 100.0 * (exact->m.host_us_total -
						       r->m.host_us_total) / exact->m.host_us_total
					    : 0.0;
	r->has_exit_time = nr_exits && exit_ns;
	r->pmu_share_of_exit_pct = r->has_exit_time ? 100.0 * r->m.host_us_per_exit_mean /
							      ((double)exit_ns / 1000.0 /
							       (double)nr_exits)
						    : 0.0;
}

/* Row of policy @i for vCPU @vcpu (-1 all) and counter @idx (KVM global index, -1 all), with
 * its deltas against exact's row of the same vCPUs. */
static int lane_row(const struct vpmc_replay *rp, size_t i, int vcpu, int idx, struct row *r)
{
	int ex = exact_index(rp), err = vpmc_replay_metrics(rp, i, vcpu, idx, &r->m);
	struct row exact;

	memset(&exact, 0, sizeof(exact));
	if (!err && ex >= 0 && idx < 0)
		err = vpmc_replay_metrics(rp, (size_t)ex, vcpu, idx, &exact.m);
	row_finish(rp, r, !err && ex >= 0 && idx < 0 ? &exact : NULL);
	return err;
}

/* Per-counter rows: GP counters, then fixed ones, as KVM numbers them. */
#define NR_COUNTERS (VPMC_MAX_GP + VPMC_MAX_FIXED)

/* KVM global index of the @n-th counter of the per-counter rows. */
static int counter_idx(int n)
{
	return n < VPMC_MAX_GP ? n : VPMC_FIXED_BASE + n - VPMC_MAX_GP;
}

static const char *counter_name(int idx, char *buf, size_t len)
{
	if (idx >= VPMC_FIXED_BASE)
		snprintf(buf, len, "fixed%d", idx - VPMC_FIXED_BASE);
	else
		snprintf(buf, len, "gp%d", idx);
	return buf;
}

/* A counter gets a row of its own when it was read or overflowed in the reference. */
static bool counter_active(const struct vpmc_metrics *m)
{
	return m->reads || m->ref_overflows || m->overflows_matched || m->overflows_missed ||
	       m->dropped_by_guest || m->reads_not_modeled;
}

/* The name of policy @i, as vpmc_policy_format() spells it. */
static const char *lane_name(const struct vpmc_replay *rp, size_t i, char *buf, size_t len)
{
	vpmc_policy_format(vpmc_replay_policy(rp, i), buf, len);
	return buf;
}

/* ---- aligned text ---- */

/* A table of text cells printed with right-aligned columns (the first left-aligned). */
struct table {
	unsigned int cols, rows, cap;
	char (*cell)[40];
};

/* Append row @cells (t->cols strings). */
static int table_row(struct table *t, char (*cells)[40])
{
	if (t->rows == t->cap) {
		unsigned int cap = t->cap ? 2 * t->cap : 8;
		void *p = realloc(t->cell, (size_t)cap * t->cols * sizeof(*t->cell));

		if (!p)
			return VPMC_ERR_NOMEM;
		t->cell = p;
		t->cap = cap;
	}
	memcpy(t->cell[t->rows * t->cols], cells, t->cols * sizeof(*cells));
	t->rows++;
	return 0;
}

static void table_print(const struct table *t, FILE *f)
{
	unsigned int w[64] = { 0 }, r, c;

	for (r = 0; r < t->rows; r++) {
		for (c = 0; c < t->cols && c < 64; c++) {
			size_t n = strlen(t->cell[r * t->cols + c]);

			if (n > w[c])
				w[c] = (unsigned int)n;
		}
	}
	for (r = 0; r < t->rows; r++) {
		for (c = 0; c < t->cols; c++) {
			const char *s = t->cell[r * t->cols + c];

			if (!c)
				fprintf(f, "%-*s", (int)w[c], s);
			else
				fprintf(f, "  %*s", (int)w[c], s[0] ? s : "-");
		}
		fputc('\n', f);
	}
}

/* Fields of section @sect that apply (per-counter rows: only per_counter fields). */
static unsigned int sect_fields(enum fsect sect, bool per_counter, const struct field **out)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		if (fields[i].sect == sect && (!per_counter || fields[i].per_counter))
			out[n++] = &fields[i];
	}
	return n;
}

/* One section's table over @nrows rows named @names. */
static int text_section(FILE *f, enum fsect sect, bool per_counter, const char *first,
			const struct row *rows, const char *const *names, unsigned int nrows)
{
	const struct field *fs[ARRAY_SIZE(fields)];
	unsigned int n = sect_fields(sect, per_counter, fs), i, k;
	char cells[64][40];
	struct table t = { n + 1, 0, 0, NULL };
	int err;

	snprintf(cells[0], sizeof(cells[0]), "%s", first);
	for (k = 0; k < n; k++)
		snprintf(cells[k + 1], sizeof(cells[0]), "%s", fs[k]->head);
	err = table_row(&t, cells);
	for (i = 0; !err && i < nrows; i++) {
		snprintf(cells[0], sizeof(cells[0]), "%s", names[i]);
		for (k = 0; k < n; k++)
			cell_text(&rows[i], fs[k], cells[k + 1], sizeof(cells[0]));
		err = table_row(&t, cells);
	}
	if (!err)
		table_print(&t, f);
	free(t.cell);
	return err;
}

static void text_header(const struct vpmc_replay *rp, FILE *f)
{
	const struct vpmc_pmu_config *cfg = vpmc_replay_config(rp);
	const struct vpmc_replay_assumptions *a = vpmc_replay_assumptions(rp);
	const struct vpmc_cost *cost = vpmc_replay_cost(rp);
	const struct vpmc_cost_param_info *params;
	uint64_t exit_ns, nr_exits = vpmc_replay_trace_exits(rp, &exit_ns);
	struct vpmc_reader_stats st;
	const char *source;
	uint64_t events, t_first, t_last;
	uint32_t nr_vcpus;
	size_t i, nr_params, nr_assumed = vpmc_replay_nr_assumed(rp);
	bool has_stats = vpmc_replay_source(rp, &source, &st);

	events = vpmc_replay_span(rp, &nr_vcpus, &t_first, &t_last);
	fprintf(f, "trace: %s\n", source ? source : "(events)");
	fprintf(f, "events: %" PRIu64 " on %" PRIu32 " vCPU index(es), %.6f s of trace time\n",
		events, nr_vcpus, events ? (double)(t_last - t_first) / 1e9 : 0.0);
	if (has_stats)
		fprintf(f, "reader: %" PRIu64 " records, %" PRIu64 " unknown, %" PRIu64
			   " lost, %" PRIu64 " skipped lines, %" PRIu64 " entries synthesized\n",
			st.records, st.unknown_records, st.lost_events, st.skipped_lines,
			st.synthesized_entries);
	fprintf(f, "pmu: %s v%u, %u GP x %u bits, %u fixed x %u bits (vendor: %s)\n",
		cfg->vendor == VPMC_VENDOR_AMD ? "amd" : "intel", cfg->version, cfg->nr_gp,
		cfg->gp_width, cfg->nr_fixed, cfg->fixed_width,
		a->vendor_how[0] ? a->vendor_how : "not said");
	fprintf(f, "host kernel: %u.%u (%s)\n", cfg->host_kernel >> 16, cfg->host_kernel & 0xffff,
		a->host_how[0] ? a->host_how : "not said");
	if (a->guest_synthesized)
		fprintf(f, "guest: %" PRIu64 " instructions/s, %u branches per 1000: assumed, the "
			"guest segments are synthesized from guest-mode time (--guest-ips, "
			"--guest-branch-permille)\n", a->guest_ips, a->guest_branch_permille);
	else
		fputs("guest: the trace's own guest segments (not synthesized)\n", f);
	fputs("overlay:", f);
	for (i = 0; i < nr_assumed; i++)
		fprintf(f, " %s", vpmc_replay_assumed(rp, i));
	fputs(nr_assumed ? "\n" : " none\n", f);
	fputs("ideal guest: exact counting; ", f);
	fputs(nr_assumed ? "its own PMIs run its own --assume handler\n" :
			   "the trace's guest (no overlay: the same guest as every lane's "
			   "reference)\n", f);
	fputs("cost model (vpmcsim(1), COST MODEL):", f);
	params = vpmc_cost_params(&nr_params);
	for (i = 0; i < nr_params; i++) {
		char v[256];

		if (sens_priced(cost, i))
			fprintf(f, " %s=%s [%s]", params[i].name,
				out_cost_value(&params[i], cost, v, sizeof(v)),
				vpmc_cost_tag_name(vpmc_replay_cost_tag(rp, i)));
	}
	fputc('\n', f);
	if (vpmc_replay_cost_label(rp))
		fprintf(f, "cost profile: %s\n", vpmc_replay_cost_label(rp));
	if (nr_exits)
		fprintf(f, "trace exit handling: %" PRIu64 " exits, %.3f us mean from VM-exit to the "
			"next VM-entry (measured)\n", nr_exits, (double)exit_ns / 1000.0 /
			(double)nr_exits);
	else
		fputs("trace exit handling: no VM-exit followed by a VM-entry\n", f);
}

/*
 * Host us in all of each lane at the two ends of each estimated parameter's range (one column
 * each), the parameters whose range reorders the lanes, and those priced per exit that a
 * replay would have to vary.
 */
static int text_sensitivity(const struct vpmc_replay *rp, const char *const *names, FILE *f)
{
	const struct vpmc_cost_param_info *t;
	struct sens *s = malloc(sizeof(*s));
	struct table tb = { 0, 0, 0, NULL };
	char (*cells)[40] = NULL;
	size_t j, k, n;
	int err = s ? sens_compute(rp, s) : VPMC_ERR_NOMEM;

	t = vpmc_cost_params(&n);
	fputs("\nSensitivity: host us in all with one estimated cost parameter at the low or the "
	      "high end of its documented range (vpmcsim(1), COST MODEL), the others as above\n", f);
	if (!err && !s->n)
		fputs("no estimated parameter with a documented range prices this replay\n", f);
	tb.cols = s && s->n ? (unsigned int)(1 + 2 * s->n) : 0;
	if (!err && tb.cols) {
		cells = calloc(tb.cols, sizeof(*cells));
		if (!cells)
			err = VPMC_ERR_NOMEM;
	}
	for (k = 0; !err && tb.cols && k <= s->nr_lanes; k++) {
		snprintf(cells[0], sizeof(cells[0]), "%s", k ? names[k - 1] : "policy");
		for (j = 0; j < s->n; j++) {
			const struct sens_param *p = &s->p[j];

			if (!k) {
				snprintf(cells[1 + 2 * j], sizeof(cells[0]), "%s=%g%s",
					 t[p->idx].name, p->low, p->flips ? " *" : "");
				snprintf(cells[2 + 2 * j], sizeof(cells[0]), "%s=%g%s",
					 t[p->idx].name, p->high, p->flips ? " *" : "");
				continue;
			}
			snprintf(cells[1 + 2 * j], sizeof(cells[0]), "%.3f", p->us_low[k - 1]);
			snprintf(cells[2 + 2 * j], sizeof(cells[0]), "%.3f", p->us_high[k - 1]);
		}
		err = table_row(&tb, cells);
	}
	if (!err && tb.cols)
		table_print(&tb, f);
	if (!err && s->n)
		fprintf(f, "%s\n", s->nr_flips ? "* the ranking of the policies by host us changes "
			"inside this range" : "the ranking of the policies by host us holds over "
			"every range");
	for (j = 0; !err && j < s->nr_fixed; j++)
		fprintf(f, "%s%s%s", j ? ", " : "not varied (priced per exit; a replay at each end "
			"would tell): ", t[s->fixed[j]].name, j + 1 == s->nr_fixed ? "\n" : "");
	free(tb.cell);
	free(cells);
	free(s);
	return err;
}

static int text_compare(struct vpmc_replay *rp, const struct row *rows, FILE *f)
{
	char bufs[VPMC_REPLAY_MAX_POLICIES][VPMC_POLICY_NAME_MAX];
	const char *names[VPMC_REPLAY_MAX_POLICIES];
	size_t i, n = vpmc_replay_nr_policies(rp);
	int s, err = 0;

	text_header(rp, f);
	for (i = 0; i < n; i++)
		names[i] = lane_name(rp, i, bufs[i], sizeof(bufs[i]));
	for (s = 0; !err && s < S_NR; s++) {
		fprintf(f, "\n%s\n", sect_titles[s]);
		err = text_section(f, (enum fsect)s, false, "policy", rows, names, (unsigned int)n);
		if (!err && s == S_VERDICT)
			err = text_sensitivity(rp, names, f);
	}
	return err;
}

static int text_detail(struct vpmc_replay *rp, FILE *f)
{
	size_t i, nr_lanes = vpmc_replay_nr_policies(rp);
	unsigned int n;
	uint32_t v, nr_vcpus;
	int s, k, err = 0;

	text_header(rp, f);
	vpmc_replay_span(rp, &nr_vcpus, NULL, NULL);
	for (i = 0; !err && i < nr_lanes; i++) {
		char lane[VPMC_POLICY_NAME_MAX];
		struct row r;
		const char *name = "all vCPUs";

		fprintf(f, "\n== policy %s ==\n", lane_name(rp, i, lane, sizeof(lane)));
		err = lane_row(rp, i, -1, -1, &r);
		for (s = 0; !err && s < S_NR; s++) {
			fprintf(f, "\n%s\n", sect_titles[s]);
			err = text_section(f, (enum fsect)s, false, "", &r, &name, 1);
		}
		for (v = 0; !err && v < nr_vcpus; v++) {
			struct row rows[NR_COUNTERS];
			char bufs[NR_COUNTERS][16];
			const char *names[NR_COUNTERS];

			if (!vpmc_replay_has_vcpu(rp, v))
				continue;
			fprintf(f, "\n-- vCPU %" PRIu32 " --\n", v);
			err = lane_row(rp, i, (int)v, -1, &r);
			name = "vCPU";
			if (!err)
				err = text_section(f, S_COST, false, "", &r, &name, 1);
			if (!err)
				err = text_section(f, S_PMIS, false, "", &r, &name, 1);
			for (k = 0, n = 0; !err && k < NR_COUNTERS; k++) {
				err = lane_row(rp, i, (int)v, counter_idx(k), &rows[n]);
				if (err || !counter_active(&rows[n].m))
					continue;
				names[n] = counter_name(counter_idx(k), bufs[n], sizeof(bufs[n]));
				n++;
			}
			if (!err && n) {
				fputs("per counter:\n", f);
				err = text_section(f, S_READS, true, "counter", rows, names, n);
				if (!err)
					err = text_section(f, S_PMIS, true, "counter", rows, names, n);
			}
		}
	}
	return err;
}

/* ---- CSV ---- */

static void csv_row(FILE *f, const struct row *r, bool per_counter)
{
	char buf[512]; /* %.3f of any double */
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		buf[0] = '\0';
		if (!per_counter || fields[i].per_counter)
			cell_text(r, &fields[i], buf, sizeof(buf));
		fprintf(f, ",%s", buf);
	}
	fputc('\n', f);
}

static void csv_head(FILE *f, const char *first)
{
	size_t i;

	fputs(first, f);
	for (i = 0; i < ARRAY_SIZE(fields); i++)
		fprintf(f, ",%s", fields[i].key);
	fputc('\n', f);
}

static int csv_detail(struct vpmc_replay *rp, FILE *f)
{
	size_t i, nr_lanes = vpmc_replay_nr_policies(rp);
	uint32_t v, nr_vcpus;
	int k, err = 0;

	csv_head(f, "policy,vcpu,counter");
	vpmc_replay_span(rp, &nr_vcpus, NULL, NULL);
	for (i = 0; !err && i < nr_lanes; i++) {
		char lane[VPMC_POLICY_NAME_MAX];
		struct row r;
		char name[16];

		lane_name(rp, i, lane, sizeof(lane));
		err = lane_row(rp, i, -1, -1, &r);
		if (err)
			break;
		fprintf(f, "%s,all,all", lane);
		csv_row(f, &r, false);
		for (v = 0; !err && v < nr_vcpus; v++) {
			if (!vpmc_replay_has_vcpu(rp, v))
				continue;
			err = lane_row(rp, i, (int)v, -1, &r);
			if (err)
				break;
			fprintf(f, "%s,%" PRIu32 ",all", lane, v);
			csv_row(f, &r, false);
			for (k = 0; !err && k < NR_COUNTERS; k++) {
				err = lane_row(rp, i, (int)v, counter_idx(k), &r);
				if (err || !counter_active(&r.m))
					continue;
				fprintf(f, "%s,%" PRIu32 ",%s", lane, v,
					counter_name(counter_idx(k), name, sizeof(name)));
				csv_row(f, &r, true);
			}
		}
	}
	return err;
}

/* tolerance of a sweep row: T of tolerance / tolerance-wrap, empty otherwise */
static bool lane_tolerance(const struct vpmc_replay *rp, size_t i, uint64_t *t)
{
	const struct vpmc_policy *p = vpmc_replay_policy(rp, i);

	*t = p->arg;
	return p->kind == VPMC_POLICY_TOLERANCE || p->kind == VPMC_POLICY_TOLERANCE_WRAP;
}

static void csv_sweep(struct vpmc_replay *rp, const struct row *rows, FILE *f)
{
	size_t i, k, n = vpmc_replay_nr_policies(rp);
	char buf[64], lane[VPMC_POLICY_NAME_MAX];

	fputs("policy,tolerance", f);
	for (k = 0; k < ARRAY_SIZE(sweep_keys); k++)
		fprintf(f, ",%s", sweep_keys[k]);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		uint64_t t;

		fprintf(f, "%s,", lane_name(rp, i, lane, sizeof(lane)));
		if (lane_tolerance(rp, i, &t))
			fprintf(f, "%" PRIu64, t);
		for (k = 0; k < ARRAY_SIZE(sweep_keys); k++) {
			cell_text(&rows[i], field_by_key(sweep_keys[k]), buf, sizeof(buf));
			fprintf(f, ",%s", buf);
		}
		fputc('\n', f);
	}
}

/* ---- JSON ---- */

/* A JSON object with @key = @val first, then the row's fields. */
static json_t *json_row(const char *key, json_t *val, const struct row *r, bool per_counter,
			int *err, struct vpmc__errbuf *eb)
{
	json_t *o = json_object();
	size_t i;

	if (!o) {
		json_decref(val);
		*err = VPMC_ERR_NOMEM;
		return NULL;
	}
	out_json_set(o, key, val, err);
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		if (!per_counter || fields[i].per_counter)
			cell_json(o, r, &fields[i], err, eb);
	}
	return o;
}

/* What was assumed (vpmcsim(1), ASSUMPTIONS); a "sensitivity" object may join it. */
static void json_assumptions(const struct vpmc_replay *rp, json_t *root, int *err)
{
	const struct vpmc_replay_assumptions *a = vpmc_replay_assumptions(rp);
	const struct vpmc_pmu_config *cfg = vpmc_replay_config(rp);
	json_t *o = json_object(), *g = json_object(), *x = json_object();
	uint64_t exit_ns, nr_exits = vpmc_replay_trace_exits(rp, &exit_ns);
	char kernel[32];

	if (!o || !g || !x) {
		*err = VPMC_ERR_NOMEM;
		json_decref(o);
		json_decref(g);
		json_decref(x);
		return;
	}
	out_json_set(g, "instructions_per_s", out_json_u64(a->guest_ips), err);
	out_json_set(g, "branches_per_1000", json_integer(a->guest_branch_permille), err);
	out_json_set(g, "synthesized", json_boolean(a->guest_synthesized), err);
	out_json_set(o, "guest", g, err);
	out_json_set(o, "vendor", json_string(cfg->vendor == VPMC_VENDOR_AMD ? "amd" : "intel"),
		     err);
	out_json_set(o, "vendor_from", json_string(a->vendor_how), err);
	snprintf(kernel, sizeof(kernel), "%u.%u", cfg->host_kernel >> 16, cfg->host_kernel & 0xffff);
	out_json_set(o, "host_kernel", json_string(kernel), err);
	out_json_set(o, "host_kernel_from", json_string(a->host_how), err);
	out_json_set(o, "ideal_guest", json_string(vpmc_replay_nr_assumed(rp) ?
						   "own_overlay" : "trace_guest"), err);
	out_json_set(x, "exits", out_json_u64(nr_exits), err);
	out_json_set(x, "ns_total", out_json_u64(exit_ns), err);
	out_json_set(o, "trace_exit_handling", x, err);
	out_json_set(root, "assumptions", o, err);
}

/* The top-level "warnings": what keeps a reader from a wrong conclusion (empty if none). */
static void json_warnings(const struct vpmc_replay *rp, json_t *root, int *err)
{
	char msg[VPMC_ERRMSG_MAX];
	json_t *w = json_array();
	size_t i;

	for (i = 0; w && vpmc_replay_verdict_warning(rp, i, msg, sizeof(msg)); i++) {
		if (json_array_append_new(w, json_string(msg)))
			*err = VPMC_ERR_NOMEM;
	}
	for (i = 0; w && vpmc_replay_added_warning(rp, i); i++) {
		if (json_array_append_new(w, json_string(vpmc_replay_added_warning(rp, i))))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(root, "warnings", w, err);
}

static json_t *json_header(struct vpmc_replay *rp, int *err)
{
	json_t *root = json_object(), *t = json_object(), *pmu = json_object(), *ov = json_array();
	json_t *cost = json_object();
	const struct vpmc_pmu_config *cfg = vpmc_replay_config(rp);
	const struct vpmc_cost *c = vpmc_replay_cost(rp);
	const struct vpmc_cost_param_info *params;
	enum vpmc_cost_tag tags[VPMC_COST_MAX_PARAMS] = { VPMC_COST_TAG_NONE };
	struct vpmc__errbuf *eb = replay_errbuf(rp);
	struct vpmc_reader_stats st;
	const char *source;
	uint64_t events, t_first, t_last;
	uint32_t nr_vcpus;
	size_t i, nr_params, nr_assumed = vpmc_replay_nr_assumed(rp);
	bool has_stats = vpmc_replay_source(rp, &source, &st);

	if (!root || !t || !pmu || !ov || !cost) {
		*err = VPMC_ERR_NOMEM;
		json_decref(t);
		json_decref(pmu);
		json_decref(ov);
		json_decref(cost);
		return root;
	}
	events = vpmc_replay_span(rp, &nr_vcpus, &t_first, &t_last);
	out_json_set(t, "path", source ? json_string(source) : json_null(), err);
	out_json_set(t, "events", out_json_u64(events), err);
	out_json_set(t, "vcpus", json_integer(nr_vcpus), err);
	out_json_set(t, "time_ns_first", out_json_u64(t_first), err);
	out_json_set(t, "time_ns_last", out_json_u64(t_last), err);
	if (has_stats) {
		out_json_set(t, "records", out_json_u64(st.records), err);
		out_json_set(t, "unknown_records", out_json_u64(st.unknown_records), err);
		out_json_set(t, "lost_events", out_json_u64(st.lost_events), err);
		out_json_set(t, "skipped_lines", out_json_u64(st.skipped_lines), err);
		out_json_set(t, "synthesized_entries", out_json_u64(st.synthesized_entries), err);
	}
	out_json_set(root, "trace", t, err);
	out_json_set(pmu, "vendor", json_string(cfg->vendor == VPMC_VENDOR_AMD ? "amd" : "intel"),
		     err);
	out_json_set(pmu, "version", json_integer(cfg->version), err);
	out_json_set(pmu, "gp", json_integer(cfg->nr_gp), err);
	out_json_set(pmu, "gp_width_bits", json_integer(cfg->gp_width), err);
	out_json_set(pmu, "fixed", json_integer(cfg->nr_fixed), err);
	out_json_set(pmu, "fixed_width_bits", json_integer(cfg->fixed_width), err);
	out_json_set(root, "pmu", pmu, err);
	for (i = 0; i < nr_assumed; i++) {
		if (json_array_append_new(ov, json_string(vpmc_replay_assumed(rp, i))))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(root, "overlay", ov, err);
	params = vpmc_cost_params(&nr_params);
	for (i = 0; i < nr_params && i < VPMC_COST_MAX_PARAMS; i++) {
		json_t *p;
		char v[256];

		tags[i] = vpmc_replay_cost_tag(rp, i);
		if (!sens_priced(c, i))
			continue;
		p = json_object();
		if (strcmp(params[i].name, "drain_extra_mult"))
			out_json_set_real(p, "value", *(const double *)((const char *)c +
									params[i].off), err, eb);
		else
			out_json_set(p, "value", json_string(out_cost_value(&params[i], c, v,
									      sizeof(v))), err);
		out_json_set(p, "tag", json_string(vpmc_cost_tag_name(tags[i])), err);
		out_json_set(cost, params[i].name, p, err);
	}
	out_json_set(root, "cost_model", cost, err);
	out_json_set(root, "cost", out_json_cost(c, tags, err), err);
	json_assumptions(rp, root, err);
	json_warnings(rp, root, err);
	if (vpmc_replay_cost_label(rp))
		out_json_set(root, "cost_profile", json_string(vpmc_replay_cost_label(rp)), err);
	return root;
}

/* The top-level "sensitivity": each varied parameter's range and every lane's host us in all
 * at its ends, the parameters whose range reorders the lanes, and those not varied. */
static void json_sensitivity(struct vpmc_replay *rp, json_t *root, int *err)
{
	struct vpmc__errbuf *eb = replay_errbuf(rp);
	json_t *o = json_object(), *ps = json_array(), *flips = json_array(), *fixed = json_array();
	struct sens *s = malloc(sizeof(*s));
	const struct vpmc_cost_param_info *t;
	size_t j, k, n;

	t = vpmc_cost_params(&n);
	if (!s || !o || !ps || !flips || !fixed || sens_compute(rp, s)) {
		*err = *err ? *err : VPMC_ERR_NOMEM;
		json_decref(o);
		json_decref(ps);
		json_decref(flips);
		json_decref(fixed);
		free(s);
		return;
	}
	for (j = 0; j < s->n; j++) {
		const struct sens_param *p = &s->p[j];
		json_t *e = json_object(), *pols = json_array();

		out_json_set(e, "name", json_string(t[p->idx].name), err);
		out_json_set(e, "tag", json_string(vpmc_cost_tag_name(vpmc_replay_cost_tag(rp,
											p->idx))),
			     err);
		out_json_set_real(e, "low", p->low, err, eb);
		out_json_set_real(e, "high", p->high, err, eb);
		out_json_set(e, "source", json_string(t[p->idx].range_source ?
						      t[p->idx].range_source : ""), err);
		for (k = 0; pols && k < s->nr_lanes; k++) {
			char lane[VPMC_POLICY_NAME_MAX];
			json_t *l = json_object();

			out_json_set(l, "policy", json_string(lane_name(rp, k, lane, sizeof(lane))),
				     err);
			out_json_set_real(l, "host_us_total_low", p->us_low[k], err, eb);
			out_json_set_real(l, "host_us_total_high", p->us_high[k], err, eb);
			if (!l || json_array_append_new(pols, l))
				*err = VPMC_ERR_NOMEM;
		}
		out_json_set(e, "policies", pols, err);
		out_json_set(e, "ranking_flips", json_boolean(p->flips), err);
		if (!e || json_array_append_new(ps, e))
			*err = VPMC_ERR_NOMEM;
		if (p->flips && json_array_append_new(flips, json_string(t[p->idx].name)))
			*err = VPMC_ERR_NOMEM;
	}
	for (j = 0; j < s->nr_fixed; j++) {
		if (json_array_append_new(fixed, json_string(t[s->fixed[j]].name)))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(o, "parameters", ps, err);
	out_json_set(o, "ranking_flips", flips, err);
	out_json_set(o, "not_varied", fixed, err);
	out_json_set(root, "sensitivity", o, err);
	free(s);
}

static int json_report(struct vpmc_replay *rp, const struct row *rows, enum vpmc_replay_view view)
{
	bool detail = view == VPMC_VIEW_DETAIL;
	int err = 0;
	json_t *root = json_header(rp, &err), *pols = json_array();
	struct vpmc__errbuf *eb = replay_errbuf(rp);
	size_t i, nr_lanes = vpmc_replay_nr_policies(rp);
	uint32_t v, nr_vcpus;
	int k;

	vpmc_replay_span(rp, &nr_vcpus, NULL, NULL);
	for (i = 0; !err && pols && i < nr_lanes; i++) {
		char lane[VPMC_POLICY_NAME_MAX];
		json_t *p = json_row("policy", json_string(lane_name(rp, i, lane, sizeof(lane))),
				     &rows[i], false, &err, eb), *vcpus;
		uint64_t t;

		if (!p || json_array_append_new(pols, p)) {
			err = VPMC_ERR_NOMEM;
			break;
		}
		if (lane_tolerance(rp, i, &t))
			out_json_set(p, "tolerance", out_json_u64(t), &err);
		if (!detail)
			continue;
		vcpus = json_array();
		out_json_set(p, "vcpus", vcpus, &err);
		for (v = 0; !err && v < nr_vcpus; v++) {
			struct row r;
			json_t *jv, *ctrs;

			if (!vpmc_replay_has_vcpu(rp, v))
				continue;
			err = lane_row(rp, i, (int)v, -1, &r);
			jv = err ? NULL : json_row("vcpu", json_integer(v), &r, false, &err, eb);
			if (!jv || json_array_append_new(vcpus, jv)) {
				err = VPMC_ERR_NOMEM;
				break;
			}
			ctrs = json_array();
			out_json_set(jv, "counters", ctrs, &err);
			for (k = 0; !err && k < NR_COUNTERS; k++) {
				int idx = counter_idx(k);
				char name[16];
				json_t *jc;

				err = lane_row(rp, i, (int)v, idx, &r);
				if (!err && !counter_active(&r.m))
					continue;
				jc = err ? NULL : json_row("name", json_string(counter_name(idx, name,
									       sizeof(name))),
							   &r, true, &err, eb);
				if (!jc || json_array_append_new(ctrs, jc)) {
					err = VPMC_ERR_NOMEM;
					break;
				}
				out_json_set(jc, "counter", json_integer(idx), &err);
			}
		}
	}
	if (root)
		out_json_set(root, "policies", pols, &err);
	else
		json_decref(pols);
	if (root && !detail)
		json_sensitivity(rp, root, &err);
	if (root && !detail)
		out_json_set(root, "merge_state", summary_replay_state(rp, view == VPMC_VIEW_SWEEP ?
								       "sweep" : "compare", &err),
			     &err);
	return out_json_finish(root, err, replay_text(rp));
}

int vpmc_replay_report(struct vpmc_replay *rp, enum vpmc_replay_view view, enum vpmc_output fmt,
		       const char **out)
{
	struct row rows[VPMC_REPLAY_MAX_POLICIES];
	struct vpmc__errbuf *eb = replay_errbuf(rp);
	char **text = replay_text(rp), lane[VPMC_POLICY_NAME_MAX];
	size_t i, n = vpmc_replay_nr_policies(rp);
	struct outbuf b;
	int err = 0;

	vpmc__clear_error(eb);
	for (i = 0; !err && i < n; i++)
		err = lane_row(rp, i, -1, -1, &rows[i]);
	if (err)
		return vpmc__set_error(eb, err, "%s", vpmc_strerror(err));
	if (fmt == VPMC_OUTPUT_JSON) {
		err = json_report(rp, rows, view);
	} else {
		err = outbuf_open(&b);
		if (err)
			return err;
		if (fmt == VPMC_OUTPUT_CSV && view == VPMC_VIEW_SWEEP) {
			csv_sweep(rp, rows, b.f);
		} else if (fmt == VPMC_OUTPUT_CSV && view == VPMC_VIEW_DETAIL) {
			err = csv_detail(rp, b.f);
		} else if (fmt == VPMC_OUTPUT_CSV) {
			csv_head(b.f, "policy");
			for (i = 0; i < n; i++) {
				fputs(lane_name(rp, i, lane, sizeof(lane)), b.f);
				csv_row(b.f, &rows[i], false);
			}
		} else if (view == VPMC_VIEW_DETAIL) {
			err = text_detail(rp, b.f);
		} else {
			err = text_compare(rp, rows, b.f);
		}
		if (err)
			outbuf_discard(&b);
		else
			err = outbuf_close(&b, text);
	}
	if (!err)
		*out = *text;
	else if (!eb->msg[0])
		vpmc__set_error(eb, err, "%s", vpmc_strerror(err));
	return err;
}

/* @s as a gnuplot double-quoted string: a newline is a line break, other control bytes '?'. */
static void plot_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
	}
	fputc('"', f);
}

/* PNG for a .png name (cairo if this gnuplot has it, else libgd), SVG for any other. */
static void plot_terminal(FILE *f, const char *path)
{
	size_t n = strlen(path);

	if (n >= 4 && !strcasecmp(path + n - 4, ".png"))
		fputs("if (strstrt(' '.GPVAL_TERMINALS.' ', ' pngcairo ') > 0) {\n"
		      "    set terminal pngcairo size 900,540 font 'sans,10'\n"
		      "} else {\n    set terminal png size 900,540\n}\n", f);
	else
		fputs("set terminal svg size 900,540 dynamic font 'sans,11'\n", f);
	fputs("set output ", f);
	plot_string(f, path);
	fputc('\n', f);
}

/* The sweep's title: what was replayed (tolerance or tolerance-wrap), with which overlay, and
 * what the plot cannot show. */
static void plot_title(const struct vpmc_replay *rp, FILE *f, bool lateness, bool zero,
		       bool wrap)
{
	char t[4096];
	const char *source;
	size_t n, i, nr_assumed = vpmc_replay_nr_assumed(rp);

	vpmc_replay_source(rp, &source, NULL);
	n = (size_t)snprintf(t, sizeof(t), "vpmcsim sweep of %s=T (%s) on %s\n--assume",
			     wrap ? "tolerance-wrap" : "tolerance", wrap ? "--wrap" : "no --wrap",
			     source ? source : "(events)");
	for (i = 0; i < nr_assumed && n < sizeof(t); i++)
		n += (size_t)snprintf(t + n, sizeof(t) - n, " %s", vpmc_replay_assumed(rp, i));
	if (!nr_assumed && n < sizeof(t))
		n += (size_t)snprintf(t + n, sizeof(t) - n, ": none");
	if (!lateness && n < sizeof(t))
		n += (size_t)snprintf(t + n, sizeof(t) - n, "; no sample matched an ideal sample "
				      "at any T: no lateness curve%s", nr_assumed ? "" :
				      " (program a counter with --assume)");
	if (zero && n < sizeof(t))
		snprintf(t + n, sizeof(t) - n, "; T = 0 left out (no place on a log axis)");
	fputs("set title ", f);
	plot_string(f, t);
	fputs(" noenhanced\n", f);
}

/* Samples lost against the ideal guest at each T, where the point is (all T with samples). */
static void plot_lost_labels(const struct vpmc_replay *rp, FILE *f, const struct row *rows,
			     const bool *on_axis)
{
	size_t i, n = vpmc_replay_nr_policies(rp);

	for (i = 0; i < n; i++) {
		if (!on_axis[i] || !rows[i].m.samples_ideal)
			continue;
		fprintf(f, "set label 'lost %" PRIu64 "/%" PRIu64 "' at first %" PRIu64 ", graph "
			"0.03 rotate by 90 left font ',8'\n", rows[i].m.samples > rows[i].m.samples_ideal ?
			0 : rows[i].m.samples_ideal - rows[i].m.samples, rows[i].m.samples_ideal,
			vpmc_replay_policy(rp, i)->arg);
	}
}

int vpmc_replay_plot(struct vpmc_replay *rp, const char *path, const char **out)
{
	struct row rows[VPMC_REPLAY_MAX_POLICIES], exact;
	bool on_axis[VPMC_REPLAY_MAX_POLICIES], lateness = false, cost = false, zero = false;
	bool cost_pos = false, late_pos = false, wrap = false; /* no value above 0: axis [0:1] */
	uint64_t t, t_min = UINT64_MAX, t_max = 0;
	struct vpmc__errbuf *eb = replay_errbuf(rp);
	char **text = replay_text(rp);
	struct outbuf b;
	size_t i, nr_lanes = vpmc_replay_nr_policies(rp);
	int ex = exact_index(rp), err = 0;
	unsigned int n = 0;

	for (i = 0; !err && i < nr_lanes; i++) {
		/* a log scale has no place for T = 0: left out, and said in the title */
		on_axis[i] = lane_tolerance(rp, i, &t) && t;
		zero |= lane_tolerance(rp, i, &t) && !t;
		wrap |= vpmc_replay_policy(rp, i)->kind == VPMC_POLICY_TOLERANCE_WRAP;
		if (!on_axis[i])
			continue;
		t_min = t < t_min ? t : t_min;
		t_max = t > t_max ? t : t_max;
		err = lane_row(rp, i, -1, -1, &rows[i]);
		n++;
		lateness |= rows[i].m.samples_matched != 0;
		cost |= rows[i].m.exits != 0;
		if (rows[i].m.host_us_total > 0)
			cost_pos = true;
		if (rows[i].m.samples_matched && rows[i].m.ideal_lateness_insn_p99)
			late_pos = true;
	}
	if (!err && ex >= 0)
		err = lane_row(rp, (size_t)ex, -1, -1, &exact);
	if (err)
		return vpmc__set_error(eb, err, "%s", vpmc_strerror(err));
	if (!n)
		return vpmc__set_error(eb, VPMC_ERR_INVAL, "no tolerance T > 0 to plot "
				       "(T = 0 has no place on the plot's log axis)");
	if (!lateness && !cost)
		return vpmc__set_error(eb, VPMC_ERR_INVAL, "nothing to plot: no exit "
				       "and no matched sample at any T");
	cost_pos |= ex >= 0 && exact.m.host_us_total > 0;
	err = outbuf_open(&b);
	if (err)
		return vpmc__set_error(eb, err, "%s", vpmc_strerror(err));
	plot_terminal(b.f, path);
	plot_title(rp, b.f, lateness, zero, wrap);
	fputs("set logscale x\nset xlabel 'tolerance T (events, log scale)'\n"
	      "set ylabel 'modeled host us in all (PMU work)'\n", b.f);
	/* the data's x range; one T: a decade either side of it (gnuplot warns of an empty one) */
	if (t_min == t_max)
		fprintf(b.f, "set xrange [%.15g:%.15g]\n", (double)t_min / 10, (double)t_min * 10);
	else
		fprintf(b.f, "set xrange [%" PRIu64 ":%" PRIu64 "]\n", t_min, t_max);
	fprintf(b.f, "set yrange [0:%s]\n", cost_pos ? "*" : "1");
	if (lateness)
		fprintf(b.f, "set y2label 'p99 sample lateness against the ideal guest (trace "
			"instructions)'\nset y2range [0:%s]\nset ytics nomirror\nset y2tics\n",
			late_pos ? "*" : "1");
	fputs("set key below\nset grid\n", b.f);
	plot_lost_labels(rp, b.f, rows, on_axis);
	fputs("$sweep << EOD\n# tolerance host_us_total ideal_lateness_insn_p99\n", b.f);
	for (i = 0; i < nr_lanes; i++) {
		if (!on_axis[i])
			continue;
		fprintf(b.f, "%" PRIu64 " %.3f ", vpmc_replay_policy(rp, i)->arg,
			rows[i].m.host_us_total);
		if (rows[i].m.samples_matched)
			fprintf(b.f, "%" PRIu64 "\n", rows[i].m.ideal_lateness_insn_p99);
		else
			fputs("NaN\n", b.f);
	}
	fputs("EOD\nplot $sweep using 1:2 axes x1y1 with linespoints title 'host us in all'", b.f);
	if (ex >= 0)
		fprintf(b.f, ", \\\n     %.3f axes x1y1 with lines dashtype 2 title 'exact "
			"(baseline)'", exact.m.host_us_total);
	if (lateness)
		fputs(", \\\n     $sweep using 1:3 axes x1y2 with linespoints title "
		      "'p99 lateness (trace instructions)'", b.f);
	fputc('\n', b.f);
	err = outbuf_close(&b, text);
	if (err)
		return vpmc__set_error(eb, err, "%s", vpmc_strerror(err));
	*out = *text;
	return 0;
}
