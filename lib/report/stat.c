// SPDX-License-Identifier: GPL-2.0-only
/*
 * stat.c - Exit statistics in the columns of perf kvm stat report: per exit reason, the
 * time from a VM-exit to the next VM-entry of the same vCPU (tools/perf/builtin-kvm.c,
 * print_result(); the "+-" column is rel_stddev_stats(stddev_stats()) of tools/perf/util/stat.c,
 * the standard deviation of the mean in percent of the mean), plus p50 and p99.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numparse.h"
#include "outbuf.h"
#include "stat-local.h"

/* An empty row named @name. */
void stat_row_init(struct stat_reason *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	hist_init(&r->h);
}

static void stat_row_release(struct stat_reason *r)
{
	hist_release(&r->h);
	free(r->exact);
	r->exact = NULL;
}

int vpmc_stat_new(struct vpmc_stat **out)
{
	struct vpmc_stat *s = calloc(1, sizeof(*s));

	if (!s)
		return VPMC_ERR_NOMEM;
	s->open = calloc(VPMC_MAX_VCPUS, sizeof(*s->open));
	if (!s->open) {
		free(s);
		return VPMC_ERR_NOMEM;
	}
	s->t_stop = UINT64_MAX;
	stat_row_init(&s->total, "Total");
	*out = s;
	return 0;
}

void vpmc_stat_free(struct vpmc_stat *s)
{
	unsigned int i;

	if (!s)
		return;
	for (i = 0; i < s->nr_reasons; i++)
		stat_row_release(&s->reasons[i]);
	stat_row_release(&s->total);
	free(s->reasons);
	free(s->open);
	free(s->text);
	for (i = 0; i < s->nr_inputs; i++)
		free(s->inputs[i]);
	free(s->inputs);
	free(s);
}

int vpmc_stat_set_source(struct vpmc_stat *s, const char *path)
{
	char **p = realloc(s->inputs, (s->nr_inputs + 1) * sizeof(*p));

	if (!p)
		return VPMC_ERR_NOMEM;
	s->inputs = p;
	p[s->nr_inputs] = strdup(path ? path : "");
	if (!p[s->nr_inputs])
		return VPMC_ERR_NOMEM;
	s->nr_inputs++;
	return 0;
}

const char *vpmc_stat_error(const struct vpmc_stat *s)
{
	return s->err.msg;
}

/* A vCPU index: the digits at *@p (vpmc__parse_u64() over them), then *@p moves past them. */
static int stat_parse_vcpu(const char **p, unsigned long *v)
{
	size_t len = strspn(*p, "0123456789");
	uint64_t n;

	if (vpmc__parse_u64(*p, len, 0, 0, VPMC_MAX_VCPUS - 1, &n))
		return -1;
	*v = (unsigned long)n;
	*p += len;
	return 0;
}

int vpmc_stat_set_vcpus(struct vpmc_stat *s, const char *list)
{
	uint8_t set[VPMC_MAX_VCPUS / 8] = { 0 };
	const char *p = list;
	unsigned long a, b;

	for (;;) {
		if (stat_parse_vcpu(&p, &a))
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (stat_parse_vcpu(&p, &b) || b < a)
				goto bad;
		}
		for (; a <= b; a++)
			set[a / 8] |= (uint8_t)(1u << (a % 8));
		if (!*p)
			break;
		if (*p++ != ',')
			goto bad;
	}
	/* a second list adds to the first */
	for (a = 0; s->vcpu_filter && a < sizeof(set); a++)
		set[a] |= s->vcpus[a];
	memcpy(s->vcpus, set, sizeof(set));
	s->vcpu_filter = true;
	return 0;
bad:
	return vpmc__set_error(&s->err, VPMC_ERR_INVAL,
			       "--vcpu '%s': expected vCPU indices and ranges such as 0,2-3 "
			       "(each below %d)", list, VPMC_MAX_VCPUS);
}

/* Seconds with up to 9 decimals -> ns; "" -> @dflt. */
static int stat_parse_seconds(const char *s, size_t len, uint64_t dflt, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ULL;
	size_t i = 0;

	if (!len) {
		*ns = dflt;
		return 0;
	}
	for (; i < len && isdigit((unsigned char)s[i]); i++) {
		if (sec > (UINT64_MAX / 1000000000ULL - 9) / 10)
			return -1;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (!i)
		return -1;
	if (i < len && s[i] == '.') {
		for (i++; i < len && isdigit((unsigned char)s[i]); i++) {
			if (scale == 1)
				return -1;
			scale /= 10;
			frac += (uint64_t)(s[i] - '0') * scale;
		}
	}
	if (i != len)
		return -1;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

int vpmc_stat_set_time(struct vpmc_stat *s, const char *range)
{
	const char *comma = strchr(range, ',');
	uint64_t a, b;

	if (!comma || stat_parse_seconds(range, (size_t)(comma - range), 0, &a) ||
	    stat_parse_seconds(comma + 1, strlen(comma + 1), UINT64_MAX, &b) || b < a)
		return vpmc__set_error(&s->err, VPMC_ERR_INVAL,
				       "--time '%s': expected START,STOP in seconds (either may be "
				       "empty, START <= STOP)", range);
	s->t_start = a;
	s->t_stop = b;
	snprintf(s->time_arg, sizeof(s->time_arg), "%s", range);
	return 0;
}

int stat_reason_index(struct vpmc_stat *s, const char *name, unsigned int *idx)
{
	struct stat_reason *r;
	unsigned int i;

	if (s->last < s->nr_reasons && !strcmp(s->reasons[s->last].name, name)) {
		*idx = s->last;
		return 0;
	}
	for (i = 0; i < s->nr_reasons; i++) {
		if (!strcmp(s->reasons[i].name, name)) {
			*idx = s->last = i;
			return 0;
		}
	}
	if (s->nr_reasons == s->cap_reasons) {
		unsigned int cap = s->cap_reasons ? 2 * s->cap_reasons : 16;

		r = realloc(s->reasons, cap * sizeof(*r));
		if (!r)
			return VPMC_ERR_NOMEM;
		s->reasons = r;
		s->cap_reasons = cap;
	}
	r = &s->reasons[s->nr_reasons];
	stat_row_init(r, name[0] ? name : "(none)");
	*idx = s->last = s->nr_reasons++;
	return 0;
}

/*
 * One sample of @d ns in row @r: its sum and the sum of its squares, and for the percentiles the
 * sample itself while there are at most STAT_EXACT_MAX (exact order statistics), the
 * histogram always (within 1 % above). Return: 0, or VPMC_ERR_NOMEM.
 */
static int stat_row_add(struct stat_reason *r, uint64_t d)
{
	unsigned __int128 sq = (unsigned __int128)d * d;
	int err = hist_add(&r->h, d);

	if (err)
		return err;
	if (r->n < STAT_EXACT_MAX) {
		if (!r->exact) {
			r->exact = malloc(STAT_EXACT_MAX * sizeof(*r->exact));
			if (!r->exact)
				return VPMC_ERR_NOMEM;
		}
		r->exact[r->n] = d;
		r->sorted = false;
	} else {
		free(r->exact);
		r->exact = NULL;
	}
	if (!r->n || d < r->min_ns)
		r->min_ns = d;
	if (d > r->max_ns)
		r->max_ns = d;
	r->n++;
	r->total_ns += d;
	r->sum_sq = r->sum_sq + sq < r->sum_sq ? ~(unsigned __int128)0 : r->sum_sq + sq;
	return 0;
}

static int stat_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile @per10k (hundredths of a percent) of row @r: the sample of rank
 * ceil(per10k * n / 10000) (at least 1) in order, exactly up to STAT_EXACT_MAX samples, else
 * hist_percentile(). */
static uint64_t stat_percentile(struct stat_reason *r, unsigned int per10k)
{
	uint64_t rank;

	if (!r->exact)
		return hist_percentile(&r->h, per10k);
	if (!r->sorted) {
		qsort(r->exact, r->n, sizeof(*r->exact), stat_u64_cmp);
		r->sorted = true;
	}
	rank = (per10k * r->n + 9999) / 10000;
	return r->exact[rank ? rank - 1 : 0];
}

static bool vcpu_in(const uint8_t *set, uint32_t vcpu)
{
	return set[vcpu / 8] & (1u << (vcpu % 8));
}

static bool stat_counts_vcpu(const struct vpmc_stat *s, uint32_t vcpu)
{
	return !s->vcpu_filter || vcpu_in(s->vcpus, vcpu);
}

/* Every exit, whether selected or not: which vCPUs and what time range the trace's exits have. */
static void stat_seen_exit(struct vpmc_stat *s, const struct vpmc_event *ev)
{
	s->exit_vcpus[ev->vcpu / 8] |= (uint8_t)(1u << (ev->vcpu % 8));
	if (!s->exits++ || ev->time_ns < s->exit_first_ns)
		s->exit_first_ns = ev->time_ns;
	if (ev->time_ns > s->exit_last_ns)
		s->exit_last_ns = ev->time_ns;
}

/* A sample from @o's begin to @t, in row @row (or the one its begin gave). */
static int stat_close(struct vpmc_stat *s, struct stat_open *o, uint32_t row, uint64_t t)
{
	int err;

	if (o->reason != STAT_NO_KEY)
		row = o->reason;
	o->open = false;
	err = stat_row_add(&s->reasons[row], t - o->t);
	return err ? err : stat_row_add(&s->total, t - o->t);
}

/* Open a sample at @ev's time with row @name ("": STAT_NO_KEY), if in --time. */
static int stat_begin(struct vpmc_stat *s, struct stat_open *o, const struct vpmc_event *ev,
		      const char *name)
{
	unsigned int idx = STAT_NO_KEY;
	int err;

	o->open = false;
	if (ev->time_ns < s->t_start || ev->time_ns > s->t_stop)
		return 0;
	if (name[0]) {
		err = stat_reason_index(s, name, &idx);
		if (err)
			return err;
	}
	s->exits_selected += ev->type == VPMC_EV_EXIT || s->event == STAT_EVENT_VMEXIT;
	o->open = true;
	o->reason = idx;
	o->t = ev->time_ns;
	return 0;
}

/* KVM_TRACE_MMIO_* of include/trace/events/kvm.h */
#define STAT_MMIO_READ 1
#define STAT_MMIO_WRITE 2

/* The row of an MMIO access or an I/O port access, as perf's decode_key prints it. */
static void stat_access_name(const struct vpmc_event *ev, char *buf, size_t len)
{
	if (ev->type == VPMC_EV_MMIO) /* mmio_event_decode_key(): "%#lx:%s" */
		snprintf(buf, len, "%#llx:%s", (unsigned long long)ev->value,
			 ev->index == STAT_MMIO_WRITE ? "W" : "R");
	else /* ioport_event_decode_key(): "%#llx:%s" */
		snprintf(buf, len, "%#llx:%s", (unsigned long long)ev->index,
			 ev->value ? "POUT" : "PIN");
}

/*
 * perf kvm stat's begin and end events (builtin-kvm.c, handle_kvm_event(); x86 kvm-stat.c):
 * vmexit: kvm_exit begins (its reason is the row), kvm_entry ends. mmio: kvm_exit begins
 * without a row, an MMIO write begins with its row (GPA:W); an MMIO read ends with its row
 * (GPA:R), kvm_entry ends with the begin's row (none: no sample, the begin stays). ioport:
 * kvm_pio begins (PORT:POUT / PORT:PIN), kvm_entry ends. A begin replaces an open one.
 */
static int stat_perf_event(struct vpmc_stat *s, struct stat_open *o, const struct vpmc_event *ev)
{
	char name[VPMC_REASON_MAX] = "";
	uint32_t row;
	int err;

	switch (s->event) {
	case STAT_EVENT_VMEXIT:
		if (ev->type == VPMC_EV_EXIT) {
			s->unpaired += o->open;
			return stat_begin(s, o, ev, ev->reason[0] ? ev->reason : "(none)");
		}
		break;
	case STAT_EVENT_MMIO:
		if (ev->type == VPMC_EV_EXIT)
			return stat_begin(s, o, ev, "");
		if (ev->type != VPMC_EV_MMIO || (ev->index != STAT_MMIO_READ &&
						 ev->index != STAT_MMIO_WRITE))
			break;
		stat_access_name(ev, name, sizeof(name));
		if (ev->index == STAT_MMIO_WRITE)
			return stat_begin(s, o, ev, name);
		if (!o->open)
			return 0;
		err = stat_reason_index(s, name, &row);
		return err ? err : stat_close(s, o, row, ev->time_ns);
	case STAT_EVENT_IOPORT:
		if (ev->type == VPMC_EV_PIO) {
			stat_access_name(ev, name, sizeof(name));
			return stat_begin(s, o, ev, name);
		}
		break;
	}
	if (ev->type != VPMC_EV_ENTRY || !o->open || o->reason == STAT_NO_KEY)
		return 0;
	return stat_close(s, o, o->reason, ev->time_ns);
}

int vpmc_stat_event(struct vpmc_stat *s, const struct vpmc_event *ev)
{
	if (ev->vcpu >= VPMC_MAX_VCPUS)
		return 0;
	if (ev->type == VPMC_EV_EXIT)
		stat_seen_exit(s, ev);
	s->accesses += ev->type == VPMC_EV_MMIO || ev->type == VPMC_EV_PIO;
	if (!stat_counts_vcpu(s, ev->vcpu))
		return 0;
	return stat_perf_event(s, &s->open[ev->vcpu], ev);
}

int vpmc_stat_run(struct vpmc_stat *s, struct vpmc_reader *r)
{
	struct vpmc_event ev;
	int rc, err;

	char file[VPMC_ERRMSG_MAX / 2];

	/* a .vtr has exits and entries only: an access it cannot show is no zero */
	if (s->event != STAT_EVENT_VMEXIT && vpmc_reader_format(r) == VPMC_FORMAT_VTR) {
		vpmc_reader_where(r, file, sizeof(file));
		file[strcspn(file, ":")] = '\0'; /* "FILE:LINE" -> "FILE" */
		return vpmc__set_error(&s->err, VPMC_ERR_NOSUPPORT, "%s: --event %s: a .vtr has no "
				       "kvm_mmio or kvm_pio records (read the kvm trace it came "
				       "from)", file, s->event == STAT_EVENT_MMIO ? "mmio" : "ioport");
	}
	while ((rc = vpmc_reader_next(r, &ev)) > 0) {
		err = vpmc_stat_event(s, &ev);
		if (err)
			return vpmc__set_error(&s->err, err, "%s", vpmc_strerror(err));
	}
	if (rc < 0)
		return vpmc__set_error(&s->err, rc, "%s", vpmc_reader_error(r));
	return 0;
}

void stat_format_vcpus(const uint8_t *set, char *buf, size_t len)
{
	unsigned int a, b;
	size_t n = 0;

	buf[0] = '\0';
	for (a = 0; a < VPMC_MAX_VCPUS && n < len; a = b + 1) {
		b = a;
		if (!vcpu_in(set, a))
			continue;
		while (b + 1 < VPMC_MAX_VCPUS && vcpu_in(set, b + 1))
			b++;
		n += (size_t)snprintf(buf + n, len - n, "%s%u", n ? "," : "", a);
		if (b > a && n < len)
			n += (size_t)snprintf(buf + n, len - n, "-%u", b);
	}
	if (n >= len && len > 3)
		memcpy(buf + len - 4, "...", 4);
}

const char *vpmc_stat_warning(struct vpmc_stat *s)
{
	char sel[128], have[128], first[32], last[32];

	vpmc__clear_error(&s->warning);
	if (s->event != STAT_EVENT_VMEXIT) {
		if (!s->accesses)
			vpmc__set_error(&s->warning, 0, "--event %s: no %s in the trace: nothing to "
					"count", s->event == STAT_EVENT_MMIO ? "mmio" : "ioport",
					s->event == STAT_EVENT_MMIO ? "kvm_mmio" : "kvm_pio");
		return s->warning.msg;
	}
	if (!s->exits)
		vpmc__set_error(&s->warning, 0, "no VM-exit in the trace (no kvm_exit): nothing to "
				"count (compare and replay count one exit per VM-entry)");
	if (!s->exits || s->exits_selected)
		return s->warning.msg;
	stat_format_vcpus(s->vcpus, sel, sizeof(sel));
	stat_format_vcpus(s->exit_vcpus, have, sizeof(have));
	vpmc__set_error(&s->warning, 0, "no exit matched%s%s%s%s (the trace's exits are on vCPU%s "
			"%s, from %s s to %s s)", s->vcpu_filter ? " --vcpu " : "",
			s->vcpu_filter ? sel : "", s->time_arg[0] ? " --time " : "", s->time_arg,
			strpbrk(have, ",-") ? "s" : "", have,
			vpmc__secs(s->exit_first_ns, first, sizeof(first)),
			vpmc__secs(s->exit_last_ns, last, sizeof(last)));
	return s->warning.msg;
}

/*
 * perf's stddev_stats() over rel_stddev_stats(): the mean's standard error, % of the mean.
 * perf sums the squared deviations with Welford's update (update_stats()), whose rounding
 * depends on the order of the samples; here they are (n * sum_sq - total^2) / n from the exact
 * sums (integers while n * sum_sq fits 128 bits, else long double): the same for a trace and
 * for the merge of its parts.
 */
static double stat_rel_stddev(const struct stat_reason *r)
{
	const unsigned __int128 max = ~(unsigned __int128)0;
	unsigned __int128 t = r->total_ns;
	long double n = (long double)r->n, mean = (long double)r->total_ns / n, var;

	if (r->n < 2 || !r->total_ns)
		return 0.0;
	if (r->sum_sq != max && r->sum_sq <= max / r->n) /* n * sum_sq >= total^2 */
		var = (long double)(r->n * r->sum_sq - t * t) / n;
	else
		var = (long double)r->sum_sq - (long double)r->total_ns * mean;
	if (var < 0)
		var = 0;
	return (double)(100.0L * sqrtl(var / (n - 1) / n) / mean);
}

/* Exits not followed by an entry of their vCPU: replaced by another exit, or still open
 * (--event vmexit; with mmio and ioport most exits are no sample by definition). */
uint64_t stat_unpaired(const struct vpmc_stat *s)
{
	uint64_t n = s->unpaired;
	unsigned int v;

	if (s->event != STAT_EVENT_VMEXIT)
		return 0;
	for (v = 0; v < VPMC_MAX_VCPUS; v++)
		n += s->open[v].open;
	return n;
}

/* The sort key of row @r (perf kvm stat report --key): larger first. */
static double stat_key_of(const struct vpmc_stat *s, const struct stat_reason *r)
{
	switch (s->key) {
	case STAT_KEY_TIME:
		return (double)r->total_ns / (double)r->n;
	case STAT_KEY_MAX:
		return (double)r->max_ns;
	case STAT_KEY_MIN:
		return (double)r->min_ns;
	case STAT_KEY_TOTAL:
		return (double)r->total_ns;
	case STAT_KEY_SAMPLE:
		break;
	}
	return (double)r->n;
}

/* Rows by the key, larger first (insert_to_result() in builtin-kvm.c), then by name. */
static void stat_sort(const struct vpmc_stat *s, struct stat_reason **rows, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++) {
		struct stat_reason *r = rows[i];
		double k = stat_key_of(s, r);

		for (j = i; j > 0; j--) {
			double kj = stat_key_of(s, rows[j - 1]);

			if (kj > k || (kj == k && strcmp(rows[j - 1]->name, r->name) < 0))
				break;
			rows[j] = rows[j - 1];
		}
		rows[j] = r;
	}
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The events_ops name perf prints over the first column (kvm-stat.c). */
static const char *const stat_event_names[] = {
	[STAT_EVENT_VMEXIT] = "VM-EXIT", [STAT_EVENT_MMIO] = "MMIO Access",
	[STAT_EVENT_IOPORT] = "IO Port Access",
};

/* print_vcpu_info(): "VCPU %d" for one vCPU (perf's --vcpu takes one); for a list, ours. */
static void stat_vcpu_info(const struct vpmc_stat *s, FILE *f)
{
	unsigned int v, one = 0, nr = 0;

	for (v = 0; s->vcpu_filter && v < VPMC_MAX_VCPUS && nr < 2; v++) {
		if (vcpu_in(s->vcpus, v)) {
			one = v;
			nr++;
		}
	}
	if (!s->vcpu_filter)
		fputs("Analyze events for all VMs, all VCPUs:\n\n", f);
	else if (nr == 1)
		fprintf(f, "Analyze events for all VMs, VCPU %u:\n\n", one);
	else
		fputs("Analyze events for all VMs, selected VCPUs:\n\n", f);
}

static void stat_text(struct vpmc_stat *s, struct stat_reason **rows, unsigned int n, FILE *f)
{
	unsigned int i;

	stat_vcpu_info(s, f);
	fprintf(f, "%20s %10s %9s %9s %11s %11s %16s %16s %11s %11s\n\n",
		stat_event_names[s->event], "Samples", "Samples%", "Time%", "Min Time", "Max Time",
		"Avg time", "", "p50 Time", "p99 Time");
	for (i = 0; i < n; i++) {
		struct stat_reason *r = rows[i];

		fprintf(f, "%20s %10" PRIu64 " %8.2f%% %8.2f%% %9.2fus %9.2fus %9.2fus ( +-%7.2f%% )"
			   " %9.2fus %9.2fus\n",
			r->name, r->n, pct(r->n, s->total.n), pct(r->total_ns, s->total.total_ns),
			(double)r->min_ns / 1e3, (double)r->max_ns / 1e3,
			(double)r->total_ns / (double)r->n / 1e3, stat_rel_stddev(r),
			(double)stat_percentile(r, 5000) / 1e3,
			(double)stat_percentile(r, 9900) / 1e3);
	}
	fprintf(f, "\nTotal Samples:%" PRIu64 ", Total events handled time:%.2fus.\n",
		s->total.n, (double)s->total.total_ns / 1e3);
	if (stat_unpaired(s))
		fprintf(f, "Exits without a following entry (not counted): %" PRIu64 "\n",
			stat_unpaired(s));
}

/* One CSV row; a row without samples (the total of an empty table) has empty figures. */
static void stat_csv_row(struct vpmc_stat *s, struct stat_reason *r, FILE *f)
{
	out_csv_field(f, r->name);
	if (!r->n) {
		fputs(",0,,,,,,,,\n", f);
		return;
	}
	fprintf(f, ",%" PRIu64 ",%.2f,%.2f,%" PRIu64 ",%" PRIu64 ",%.1f,%.2f,%" PRIu64 ",%" PRIu64
		"\n", r->n, pct(r->n, s->total.n), pct(r->total_ns, s->total.total_ns), r->min_ns,
		r->max_ns, (double)r->total_ns / (double)r->n, stat_rel_stddev(r),
		stat_percentile(r, 5000), stat_percentile(r, 9900));
}

static void stat_csv(struct vpmc_stat *s, struct stat_reason **rows, unsigned int n, FILE *f)
{
	unsigned int i;

	/* the JSON keys, in the same units; the last row is every sample's ("Total") */
	fputs("reason,samples,samples_pct,time_pct,time_ns_min,time_ns_max,time_ns_mean,"
	      "time_mean_stddev_pct,time_ns_p50,time_ns_p99\n", f);
	for (i = 0; i < n; i++)
		stat_csv_row(s, rows[i], f);
	stat_csv_row(s, &s->total, f);
}

/* Round to @dec decimals so that JSON numbers print the same as the text and CSV. */
static json_t *json_fixed(double v, int dec)
{
	double k = pow(10, dec);

	return json_real(round(v * k) / k);
}

static int stat_json(struct vpmc_stat *s, struct stat_reason **rows, unsigned int n)
{
	json_t *root = json_object(), *arr = json_array();
	int err = root && arr ? 0 : VPMC_ERR_NOMEM;
	unsigned int i;

	for (i = 0; !err && i < n; i++) {
		struct stat_reason *r = rows[i];
		json_t *o = json_object();

		if (!o || json_array_append_new(arr, o)) {
			err = VPMC_ERR_NOMEM;
			break;
		}
		out_json_set(o, "reason", json_string(r->name), &err);
		out_json_set(o, "samples", out_json_u64(r->n), &err);
		out_json_set(o, "samples_pct", json_fixed(pct(r->n, s->total.n), 2), &err);
		out_json_set(o, "time_pct", json_fixed(pct(r->total_ns, s->total.total_ns), 2),
			     &err);
		out_json_set(o, "time_ns_min", out_json_u64(r->min_ns), &err);
		out_json_set(o, "time_ns_max", out_json_u64(r->max_ns), &err);
		out_json_set(o, "time_ns_mean", json_fixed((double)r->total_ns / (double)r->n, 1),
			     &err);
		out_json_set(o, "time_mean_stddev_pct", json_fixed(stat_rel_stddev(r), 2), &err);
		out_json_set(o, "time_ns_p50", out_json_u64(stat_percentile(r, 5000)), &err);
		out_json_set(o, "time_ns_p99", out_json_u64(stat_percentile(r, 9900)), &err);
	}
	if (root) {
		out_json_set(root, "exits", arr, &err);
		arr = NULL;
		out_json_set(root, "total_samples", out_json_u64(s->total.n), &err);
		out_json_set(root, "total_time_ns", out_json_u64(s->total.total_ns), &err);
		out_json_set(root, "exits_without_entry", out_json_u64(stat_unpaired(s)), &err);
		out_json_set(root, "merge_state", stat_summary_state(s, &err), &err);
	}
	json_decref(arr);
	return out_json_finish(root, err, &s->text);
}

int vpmc_stat_report(struct vpmc_stat *s, enum vpmc_output fmt, const char **out)
{
	struct stat_reason **rows;
	struct outbuf b;
	unsigned int i, n = 0;
	int err;

	rows = malloc((s->nr_reasons + 1) * sizeof(*rows));
	if (!rows)
		return VPMC_ERR_NOMEM;
	for (i = 0; i < s->nr_reasons; i++) {
		if (s->reasons[i].n)
			rows[n++] = &s->reasons[i];
	}
	stat_sort(s, rows, n);
	if (fmt == VPMC_OUTPUT_JSON) {
		err = stat_json(s, rows, n);
	} else {
		err = outbuf_open(&b);
		if (!err) {
			if (fmt == VPMC_OUTPUT_CSV)
				stat_csv(s, rows, n, b.f);
			else
				stat_text(s, rows, n, b.f);
			err = outbuf_close(&b, &s->text);
		}
	}
	free(rows);
	if (!err)
		*out = s->text;
	return err;
}

int vpmc_stat_set_key(struct vpmc_stat *s, const char *key)
{
	/* perf's names (builtin-kvm.c keys[]; the newer percent_* and *_t), and max/min/mean */
	static const struct {
		const char *name;
		enum stat_key key;
	} keys[] = {
		{ "sample", STAT_KEY_SAMPLE }, { "percent_sample", STAT_KEY_SAMPLE },
		{ "time", STAT_KEY_TIME },     { "mean", STAT_KEY_TIME },
		{ "mean_t", STAT_KEY_TIME },   { "max", STAT_KEY_MAX },
		{ "max_t", STAT_KEY_MAX },     { "min", STAT_KEY_MIN },
		{ "min_t", STAT_KEY_MIN },     { "percent_time", STAT_KEY_TOTAL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (!strcmp(key, keys[i].name)) {
			s->key = keys[i].key;
			return 0;
		}
	}
	return vpmc__set_error(&s->err, VPMC_ERR_INVAL, "--key '%s': expected sample, time, max, "
			       "min or mean (perf's percent_sample, percent_time, mean_t, max_t, "
			       "min_t too)",
			       key);
}

static const char *const stat_event_options[] = {
	[STAT_EVENT_VMEXIT] = "vmexit", [STAT_EVENT_MMIO] = "mmio", [STAT_EVENT_IOPORT] = "ioport",
};

const char *stat_event_option(const struct vpmc_stat *s)
{
	return stat_event_options[s->event];
}

const char *stat_key_option(const struct vpmc_stat *s)
{
	static const char *const names[] = {
		[STAT_KEY_SAMPLE] = "sample", [STAT_KEY_TIME] = "time", [STAT_KEY_MAX] = "max",
		[STAT_KEY_MIN] = "min", [STAT_KEY_TOTAL] = "percent_time",
	};

	return names[s->key];
}

int vpmc_stat_set_event(struct vpmc_stat *s, const char *event)
{
	const char *const *names = stat_event_options;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(stat_event_options); i++) {
		if (!strcmp(event, names[i])) {
			s->event = (enum stat_event)i;
			return 0;
		}
	}
	return vpmc__set_error(&s->err, VPMC_ERR_INVAL, "--event '%s': expected vmexit, mmio or "
			       "ioport", event);
}

bool vpmc_stat_wants_accesses(const struct vpmc_stat *s)
{
	return s->event != STAT_EVENT_VMEXIT;
}
