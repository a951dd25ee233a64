// SPDX-License-Identifier: GPL-2.0-only
/* cli.c - What the commands share: the replay commands' options and trace opening, the reader's
 * report and exit codes, the number parser. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"
#include "vpmcsim.h"

void cli_init(struct cli *c, const char *cmd, enum vpmc_output fmt)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	c->fmt = fmt;
	vpmc_reader_opts_default(&c->ropts);
	c->ropts.isolate_dat = true; /* a libtracecmd crash on a corrupt file is an error */
	vpmc_cost_default(&c->cost);
	vpmc_cost_profile_load(&c->prof, "default", NULL, 0);
}

int cli_cost_profile(struct cli *c, const char *arg)
{
	char err[512];
	const char *why;
	unsigned int i;

	vpmc_cost_profile_release(&c->prof);
	if (vpmc_cost_profile_load(&c->prof, arg, err, sizeof(err)))
		return vpmcsim_fail(EXIT_USAGE, "%s: --cost-profile: %s", c->cmd, err);
	for (i = 0; i < c->nr_costs; i++) {
		if (vpmc_cost_profile_override(&c->prof, c->costs[i], &why))
			return vpmcsim_fail(EXIT_USAGE, "%s: --cost '%s': %s", c->cmd, c->costs[i],
					    why);
	}
	c->cost = c->prof.cost;
	if (c->r) {
		char buf[160];

		vpmc_replay_set_cost_profile(c->r, &c->prof);
		vpmc_replay_set_cost_label(c->r, cli_cost_label(c, buf, sizeof(buf)));
	}
	return 0;
}

const char *cli_cost_label(const struct cli *c, char *buf, size_t len)
{
	if (!strcmp(c->prof.name, "default") && !vpmc_cost_v2(&c->cost))
		return NULL;
	snprintf(buf, len, "%s%s%s%s", c->prof.name, c->prof.fitted ? " (calibrated: " : "",
		 c->prof.fitted ? c->prof.fitted : "", c->prof.fitted ? ")" : "");
	return buf;
}

int cli_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* MAJOR.MINOR into VPMC_KERNEL(); return 0 or -1. */
static int parse_kernel(const char *s, unsigned int *k)
{
	unsigned int major, minor;
	char extra;

	if (sscanf(s, "%u.%u%c", &major, &minor, &extra) != 2 || major > 0xffff || minor > 0xffff)
		return -1;
	*k = VPMC_KERNEL(major, minor);
	return 0;
}

int cli_pmu_option(const char *cmd, struct cli_pmu *p, struct vpmc_reader_opts *o, int opt,
		   const char *arg)
{
	uint64_t v;

	switch (opt) {
	case OPT_BRANCH_PERMILLE:
		if (cli_parse_u64(arg, 1000, &v))
			return vpmcsim_fail(EXIT_USAGE, "%s: --guest-branch-permille: '%s' is not "
					    "0..1000", cmd, arg);
		o->guest_branch_permille = (unsigned int)v;
		return 0;
	case OPT_HOST_KERNEL:
		if (parse_kernel(arg, &p->kernel))
			return vpmcsim_fail(EXIT_USAGE, "%s: --host-kernel: '%s' is not MAJOR.MINOR",
					    cmd, arg);
		if (p->kernel < VPMC_KERNEL_OLDEST)
			return vpmcsim_fail(EXIT_USAGE, "%s: --host-kernel: %s is older than %u.%u, "
					    "the oldest host the model represents", cmd, arg,
					    VPMC_KERNEL_OLDEST >> 16, VPMC_KERNEL_OLDEST & 0xffff);
		p->kernel_set = true;
		return 0;
	case OPT_VENDOR:
		if (!strcmp(arg, "intel"))
			p->vendor = VPMC_VENDOR_INTEL;
		else if (!strcmp(arg, "amd"))
			p->vendor = VPMC_VENDOR_AMD;
		else
			return vpmcsim_fail(EXIT_USAGE, "%s: --vendor: '%s' is not intel or amd", cmd,
					    arg);
		p->vendor_set = true;
		return 0;
	default:
		return 1;
	}
}

void cli_pmu_apply(const struct cli_pmu *p, enum vpmc_vendor vendor, struct vpmc_reader_opts *o)
{
	if (!p->vendor_set && !p->kernel_set)
		return;
	o->has_pmu = true;
	vpmc_pmu_config_default(&o->pmu, vendor);
	o->pmu.host_kernel = p->kernel_set ? p->kernel : VPMC_KERNEL_LATEST;
}

int cli_option(struct cli *c, int opt, const char *arg)
{
	uint64_t v;

	switch (opt) {
	case OPT_BRANCH_PERMILLE:
	case OPT_HOST_KERNEL:
	case OPT_VENDOR:
		return cli_pmu_option(c->cmd, &c->pmu, &c->ropts, opt, arg);
	case OPT_FORMAT:
		if (vpmc_output_parse(&c->fmt, arg))
			return vpmcsim_fail(EXIT_USAGE, "%s: --format '%s': expected text, csv or json",
					    c->cmd, arg);
		return 0;
	case OPT_INPUT_FORMAT:
		if (vpmc_format_parse(&c->ropts.format, arg))
			return vpmcsim_fail(EXIT_USAGE,
					    "%s: --input-format '%s': expected auto, vtr, text or dat",
					    c->cmd, arg);
		return 0;
	case OPT_LENIENT:
		c->ropts.lenient = true;
		return 0;
	case OPT_GUEST_IPS:
		if (cli_parse_u64(arg, UINT64_MAX, &c->ropts.guest_ips))
			return vpmcsim_fail(EXIT_USAGE,
					    "%s: --guest-ips '%s': expected instructions per second "
					    "(a decimal u64; 0 = no guest segments)", c->cmd, arg);
		return 0;
	case 'j':
		if (cli_parse_u64(arg, 1024, &v) || !v)
			return vpmcsim_fail(EXIT_USAGE, "%s: -j '%s': expected a number of threads "
					    "from 1 to 1024", c->cmd, arg);
		c->jobs = (unsigned int)v;
		return 0;
	default:
		return 1;
	}
}

int cli_find_policy(const struct vpmc_replay *r, const struct vpmc_policy *p)
{
	size_t i, n = vpmc_replay_nr_policies(r);

	for (i = 0; i < n; i++) {
		const struct vpmc_policy *q = vpmc_replay_policy(r, i);

		if (q->kind == p->kind && q->arg == p->arg)
			return (int)i;
	}
	return -1;
}

int cli_add_policy(struct cli *c, const char *text)
{
	char name[VPMC_POLICY_NAME_MAX];
	struct vpmc_policy p;
	const char *why = NULL;
	int err, i;

	if (vpmc_policy_parse(&p, text, &why))
		return vpmcsim_fail(EXIT_USAGE, "%s: --policy '%s': %s", c->cmd, text, why);
	i = cli_find_policy(c->r, &p);
	if (i >= 0) {
		vpmc_policy_format(&p, name, sizeof(name));
		return vpmcsim_fail(EXIT_USAGE, "%s: policy %s given twice ('%s', '%s')", c->cmd,
				    name, c->policies[i], text);
	}
	err = vpmc_replay_add_policy(c->r, &p);
	if (err)
		return vpmcsim_fail(EXIT_USAGE, "%s: --policy '%s': %s", c->cmd, text,
				    err == VPMC_ERR_LIMIT ? vpmc_replay_error(c->r) : vpmc_strerror(err));
	c->policies[vpmc_replay_nr_policies(c->r) - 1] = text;
	return 0;
}

/* The value of cost parameter @name (@len bytes) in @spec ("NAME=VALUE,..."), looking at the
 * items that start before @stop; NULL if none. */
static const char *cost_value(const char *spec, const char *stop, const char *name, size_t len)
{
	const char *p;

	for (p = spec; p && p < stop; p = strchr(p, ','), p = p ? p + 1 : NULL) {
		if (!strncmp(p, name, len) && p[len] == '=')
			return p + len + 1;
	}
	return NULL;
}

/* --cost @arg sets no parameter twice: in itself, or that an earlier --cost set. A later
 * --cost may set others. Return 0 or EXIT_USAGE. */
static int cost_given_once(const struct cli *c, const char *arg)
{
	const char *item, *first, *value;
	unsigned int i;
	size_t len;

	for (item = arg; item; item = strchr(item, ','), item = item ? item + 1 : NULL) {
		len = strcspn(item, "=,");
		if (item[len] != '=')
			continue; /* not NAME=VALUE: vpmc_cost_parse() says what is expected */
		first = cost_value(arg, item, item, len);
		for (i = 0; !first && i < c->nr_costs; i++)
			first = cost_value(c->costs[i], strchr(c->costs[i], '\0'), item, len);
		if (!first)
			continue;
		value = item + len + 1;
		return vpmcsim_fail(EXIT_USAGE, "%s: --cost '%s': %.*s given twice ('%.*s', "
				    "'%.*s')", c->cmd, arg, (int)len, item,
				    (int)strcspn(first, ","), first, (int)strcspn(value, ","), value);
	}
	return 0;
}

int cli_engine_option(struct cli *c, int opt, const char *arg)
{
	const char *why = NULL;

	switch (opt) {
	case OPT_POLICY:
		return cli_add_policy(c, arg);
	case OPT_ASSUME:
		if (vpmc_replay_assume(c->r, arg))
			return vpmcsim_fail(EXIT_USAGE, "%s: %s", c->cmd, vpmc_replay_error(c->r));
		return 0;
	case OPT_COST:
		if (cost_given_once(c, arg))
			return EXIT_USAGE;
		if (vpmc_cost_profile_override(&c->prof, arg, &why))
			return vpmcsim_fail(EXIT_USAGE, "%s: --cost '%s': %s", c->cmd, arg, why);
		if (c->nr_costs < sizeof(c->costs) / sizeof(c->costs[0]))
			c->costs[c->nr_costs++] = arg;
		c->cost = c->prof.cost;
		vpmc_replay_set_cost_profile(c->r, &c->prof);
		{
			char buf[160];

			vpmc_replay_set_cost_label(c->r, cli_cost_label(c, buf, sizeof(buf)));
		}
		return 0;
	case OPT_COST_PROFILE:
		return cli_cost_profile(c, arg);
	default:
		return 1;
	}
}

/* Options whose values add up; every other option that takes a value is given once. */
static bool repeatable(const struct cli *c, int opt)
{
	return (opt == OPT_POLICY && !c->one_policy) || opt == OPT_ASSUME || opt == OPT_COST ||
	       opt == OPT_TOLERANCE || opt == OPT_VCPU;
}

/* Option @o (long option @name) with value @arg, given once; return 0 or EXIT_USAGE. */
static int given_once(struct cli *c, int o, const char *name, const char *arg)
{
	char opt[64];

	if (!arg || o < OPT_FORMAT || o >= OPT_END_ || repeatable(c, o))
		return 0;
	snprintf(opt, sizeof(opt), "--%s", name);
	return vpmcsim_once(c->cmd, opt, &c->given[o - OPT_FORMAT], arg);
}

int cli_parse(struct cli *c, int argc, char **argv, const struct option *opts, cli_own_fn own,
	      void (*usage)(FILE *out), const char *usage_line)
{
	int o, rc, li;

	const char *short_opts = c->short_opts ? c->short_opts : c->r ? "hj:" : "h";

	while ((li = -1, o = getopt_long(argc, argv, short_opts, opts, &li)) != -1) {
		if (o == 'h') {
			usage(stdout);
			return CLI_HELP;
		}
		rc = li >= 0 ? given_once(c, o, opts[li].name, optarg) : 0;
		if (rc)
			return rc;
		rc = cli_option(c, o, optarg);
		if (rc == 1 && c->r)
			rc = cli_engine_option(c, o, optarg);
		if (rc == 1 && own)
			rc = own(c, o, optarg);
		if (rc == 1) {
			usage(stderr);
			return EXIT_USAGE;
		}
		if (rc)
			return rc;
	}
	if (optind != argc - 1)
		return vpmcsim_fail(EXIT_USAGE, "%s: expected one TRACE (usage: %s)", c->cmd,
				    usage_line);
	c->trace = argv[optind];
	c->name = cli_trace_name(c->trace);
	return 0;
}

int cli_report_text(struct cli *c, enum vpmc_replay_view view, const char **text)
{
	char msg[1024];
	size_t i;

	/* the same warnings as the JSON's "warnings" */
	for (i = 0; vpmc_replay_verdict_warning(c->r, i, msg, sizeof(msg)); i++)
		fprintf(stderr, "vpmcsim: warning: %s: %s\n", c->name, msg);
	if (vpmc_replay_report(c->r, view, c->fmt, text))
		return vpmcsim_fail(EXIT_INPUT, "%s: %s", c->cmd, vpmc_replay_error(c->r));
	return 0;
}

int cli_report(struct cli *c, enum vpmc_replay_view view)
{
	const char *text;
	int rc = cli_report_text(c, view, &text);

	return rc ? rc : cli_print(text);
}

const char *cli_trace_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

void cli_reader_report(const char *path, const struct vpmc_reader *r)
{
	struct vpmc_reader_stats st;
	const char *name;
	uint64_t count;
	size_t i, n;

	path = cli_trace_name(path);
	vpmc_reader_stats(r, &st);
	fprintf(stderr, "vpmcsim: %s: %" PRIu64 " records, %" PRIu64 " events\n", path, st.records,
		st.events);
	n = vpmc_reader_nr_unknown(r);
	if (n) {
		fprintf(stderr, "vpmcsim: %s: events not used:", path);
		for (i = 0; i < n; i++) {
			if (!vpmc_reader_unknown(r, i, &name, &count))
				fprintf(stderr, "%s %s %" PRIu64, i ? "," : "", name, count);
		}
		fputc('\n', stderr);
	}
	if (st.unnamed_reasons)
		fprintf(stderr, "vpmcsim: %s: %" PRIu64 " exit%s with a reason in neither the VMX "
			"nor the SVM exit-reason table (the first: '%s'), kept as written\n", path,
			st.unnamed_reasons, st.unnamed_reasons == 1 ? "" : "s",
			st.first_unnamed_reason);
	if (st.synthesized_entries)
		fprintf(stderr,
			"vpmcsim: %s: %" PRIu64 " VM-entries synthesized (the trace has no kvm_entry)\n",
			path, st.synthesized_entries);
	if (st.lost_markers)
		fprintf(stderr, "vpmcsim: %s: events lost: %" PRIu64 " (%" PRIu64 " markers%s)\n",
			path, st.lost_events, st.lost_markers,
			st.lost_events ? "" : ", counts unknown");
	if (st.skipped_lines)
		fprintf(stderr, "vpmcsim: %s: %" PRIu64 " malformed %s%s skipped (--lenient)%s\n",
			path, st.skipped_lines,
			vpmc_reader_format(r) == VPMC_FORMAT_DAT ? "record" : "line",
			st.skipped_lines == 1 ? "" : "s",
			st.skipped_lines > 10 ? "; the first 10 follow" : "");
	if (st.partial_lines)
		fprintf(stderr, "vpmcsim: %s: %" PRIu64 " partial line%s (libtraceevent's \"CAN'T FIND "
			"FIELD\"), read from the fields they have\n", path, st.partial_lines,
			st.partial_lines == 1 ? "" : "s");
	if (st.unread_pages)
		fprintf(stderr, "vpmcsim: %s: %" PRIu64 " ring-buffer page%s unread (corrupt)\n",
			path, st.unread_pages, st.unread_pages == 1 ? "" : "s");
	if (st.time_backwards)
		fprintf(stderr, "vpmcsim: %s: %" PRIu64 " time stamp%s went back on %s vCPU, taken "
			"as the vCPU's previous time%s\n", path, st.time_backwards,
			st.time_backwards == 1 ? "" : "s", st.time_backwards == 1 ? "its" : "their",
			st.time_backwards > 5 ? "; the first 5 follow" : "");
	/* the details: the first skipped lines and time stamps, a cut last line, unread pages */
	for (i = 0; i < vpmc_reader_nr_warnings(r); i++)
		fprintf(stderr, "vpmcsim: warning: %s\n", vpmc_reader_warning(r, i));
}

int cli_reader_exit(int err)
{
	switch (err) {
	case VPMC_ERR_NOSUPPORT:
		return EXIT_NOSUPPORT;
	case VPMC_ERR_IO: /* missing, unreadable, a directory */
		return EXIT_USAGE;
	default:          /* empty, no records, a bad line or header, a corrupt trace.dat, a
			   * trace.dat on standard input */
		return EXIT_INPUT;
	}
}

/* Events a first reader reads at most to find what says the vendor. */
#define PROBE_EVENTS_MAX 100000

/* What the trace says of the vendor (@how, "" if nothing in the first PROBE_EVENTS_MAX
 * events) and of the host kernel (@host), read by a reader of its own; errors are the main
 * reader's to report. */
static void cli_probe(const char *trace, const struct vpmc_reader_opts *ropts,
		      enum vpmc_vendor *vendor, char *how, size_t len, char *host, size_t hlen,
		      bool *vtr, uint32_t *kernel)
{
	struct vpmc_reader_opts o = *ropts;
	struct vpmc_reader *rd;
	struct vpmc_event ev;
	unsigned int n = 0;

	how[0] = host[0] = '\0';
	o.lenient = true;
	o.has_pmu = false;
	o.guest_ips = 0;
	if (vpmc_reader_new(&rd, &o))
		return;
	if (!vpmc_reader_open(rd, trace)) {
		while (!vpmc_reader_vendor_from(rd, NULL)[0] && n++ < PROBE_EVENTS_MAX &&
		       vpmc_reader_next(rd, &ev) > 0)
			;
		snprintf(how, len, "%s", vpmc_reader_vendor_from(rd, vendor));
		snprintf(host, hlen, "%s", vpmc_reader_host_from(rd));
		*kernel = vpmc_reader_pmu(rd)->host_kernel;
		*vtr = vpmc_reader_format(rd) == VPMC_FORMAT_VTR;
	}
	vpmc_reader_free(rd);
}

void cli_decide_pmu(const char *trace, const struct cli_pmu *given, struct vpmc_reader_opts *ropts,
		    struct vpmc_replay_assumptions *a)
{
	enum vpmc_vendor vendor = VPMC_VENDOR_INTEL;
	bool stdin_trace = !strcmp(trace, "-");
	char how[sizeof(a->vendor_how)] = "", host[sizeof(a->host_how)] = "";
	struct cli_pmu p = *given;
	bool vtr = false, regular;
	uint32_t kernel = 0;
	struct stat st;

	/* a pipe or FIFO is read once: by the reader that replays it */
	regular = !stdin_trace && !stat(trace, &st) && S_ISREG(st.st_mode);
	if (regular)
		cli_probe(trace, ropts, &vendor, how, sizeof(how), host, sizeof(host), &vtr,
			  &kernel);
	if (p.vendor_set) {
		vendor = p.vendor;
		snprintf(a->vendor_how, sizeof(a->vendor_how), "--vendor");
	} else if (how[0]) {
		snprintf(a->vendor_how, sizeof(a->vendor_how), "%.*s", (int)sizeof(how) - 1, how);
		/* the trace's exits say it: the vendor's defaults, as --vendor would (a .vtr's
		 * !pmu is the reader's already) */
		p.vendor_set = !vtr;
		p.vendor = vendor;
	} else {
		snprintf(a->vendor_how, sizeof(a->vendor_how), "%s: intel by default (--vendor)",
			 !regular ? "a pipe is not probed" :
			 "nothing in the trace says");
	}
	if (given->kernel_set) {
		snprintf(a->host_how, sizeof(a->host_how), "--host-kernel");
	} else if (host[0]) {
		snprintf(a->host_how, sizeof(a->host_how), "%.*s", (int)sizeof(host) - 1, host);
		/* kept when the vendor's defaults replace the trace's PMU */
		p.kernel = kernel;
		p.kernel_set = p.vendor_set;
	} else {
		snprintf(a->host_how, sizeof(a->host_how), "not in the trace: the newest modeled "
			 "(--host-kernel)");
	}
	if (vtr && p.kernel_set && !p.vendor_set)
		ropts->host_kernel = p.kernel; /* the .vtr's !pmu stays, its !host is replaced */
	else
		cli_pmu_apply(&p, vendor, ropts);
	a->guest_ips = ropts->guest_ips;
	a->guest_branch_permille = ropts->guest_branch_permille;
}

int cli_open(struct cli *c)
{
	int err;

	cli_decide_pmu(c->trace, &c->pmu, &c->ropts, &c->assumed);
	err = vpmc_reader_new(&c->reader, &c->ropts);

	if (err)
		return vpmcsim_fail(EXIT_INPUT, "%s: %s", c->cmd, vpmc_strerror(err));
	if (progress_begin())
		vpmc_reader_set_progress(c->reader, progress_reader, (void *)c->trace);
	err = vpmc_reader_open(c->reader, c->trace);
	/* a .vtr's guest segments are its own; imported traces' are made at guest_ips */
	c->assumed.guest_synthesized = vpmc_reader_format(c->reader) != VPMC_FORMAT_VTR &&
				       c->ropts.guest_ips;
	if (!err)
		return 0;
	return vpmcsim_fail(cli_reader_exit(err), "%s: %s", c->cmd,
			    vpmc_reader_error(c->reader));
}

/* Print a warning about the replay of @c, and keep it for the JSON report's "warnings". */
static void cli_warn(struct cli *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "vpmcsim: warning: %s\n", msg);
	if (c->r)
		vpmc_replay_add_warning(c->r, msg);
}

int cli_read_end(struct cli *c, int err, const char *msg, const char *warning)
{
	size_t i;

	progress_done();
	cli_reader_report(c->trace, c->reader);
	for (i = 0; c->r && i < vpmc_reader_nr_warnings(c->reader); i++)
		vpmc_replay_add_input_warning(c->r, vpmc_reader_warning(c->reader, i));
	if (warning && warning[0]) {
		fprintf(stderr, "vpmcsim: warning: %s\n", warning);
		if (c->r)
			vpmc_replay_add_input_warning(c->r, warning);
	}
	return err ? cli_fail(err, msg) : 0;
}

int cli_fail(int err, const char *msg)
{
	switch (err) {
	case VPMC_ERR_NOSUPPORT:
		return vpmcsim_fail(EXIT_NOSUPPORT, "%s", msg);
	case VPMC_ERR_INVAL:
		return vpmcsim_fail(EXIT_USAGE, "%s", msg);
	default:
		return vpmcsim_fail(EXIT_INPUT, "%s", msg);
	}
}

/*
 * Reads the trace recorded on the real host that the model's guest read differently: once, for
 * the first policy in order with any, with its first such read. Under exact (upstream KVM, as on
 * the recording host) they say that the modeled PMU is not the recording host's.
 */
static void host_read_warning(struct cli *c)
{
	struct vpmc_metrics m;
	const struct vpmc_host_read *h = &m.host_first_differ;
	char name[VPMC_POLICY_NAME_MAX], model[32];
	size_t i, n = vpmc_replay_nr_policies(c->r);

	for (i = 0; i < n; i++) {
		if (vpmc_replay_metrics(c->r, i, -1, -1, &m) || !m.host_differ)
			continue;
		vpmc_policy_format(vpmc_replay_policy(c->r, i), name, sizeof(name));
		if (h->gp)
			snprintf(model, sizeof(model), "#GP");
		else
			snprintf(model, sizeof(model), "%#" PRIx64, h->value);
		cli_warn(c, "%s: %" PRIu64 " of the %" PRIu64 " reads whose "
			"value the trace recorded on the real host differ from the model under %s "
			"(is the modeled PMU the recording host's?); the first at %" PRIu64 " ns on "
			"vCPU %" PRIu32 ": %s %#" PRIx32 ": model %s, host %#" PRIx64, c->name,
			m.host_differ, m.host_reads, name, h->time_ns, h->vcpu,
			h->rdpmc ? "rdpmc" : "rdmsr", h->index, model, h->host);
		return;
	}
}

/*
 * GP counters read while their event select had CMASK, INV, EDGE or IN_TX/IN_TXCP: the reference
 * does not model what the architecture counts then, so those reads are not scored. Every policy
 * sees the same guest writes and reads; the first policy's figures name the counters.
 */
static void not_modeled_warning(struct cli *c)
{
	struct vpmc_metrics m;
	int i;

	for (i = 0; i < VPMC_MAX_GP; i++) {
		if (vpmc_replay_metrics(c->r, 0, -1, i, &m) || !m.reads_not_modeled)
			continue;
		cli_warn(c, "%s: GP counter %d not modeled: %" PRIu64 " read%s "
			"while its event select had CMASK, INV, EDGE or IN_TX/IN_TXCP, which the "
			"reference does not count; not scored (column \"not modeled\")", c->name,
			i, m.reads_not_modeled, m.reads_not_modeled == 1 ? "" : "s");
	}
}

/* Policies whose guest PMI handler was cut off (vpmc_replay_handler_capped()): their guest
 * got no PMI after that, and their figures say more about the overlay than the policy. */
static void handler_capped_warning(struct cli *c)
{
	char name[VPMC_POLICY_NAME_MAX];
	size_t i, n = vpmc_replay_nr_policies(c->r);
	uint64_t capped, t = 0;
	uint32_t vcpu = 0;

	for (i = 0; i < n; i++) {
		capped = vpmc_replay_handler_capped(c->r, i, &t, &vcpu);
		if (!capped)
			continue;
		vpmc_policy_format(vpmc_replay_policy(c->r, i), name, sizeof(name));
		cli_warn(c, "%s: under %s the guest's PMI handler was cut off "
			"%" PRIu64 " time%s, first at %" PRIu64 " ns on vCPU %" PRIu32 ": PMIs kept "
			"coming while it ran (8 runs in a row) and the last got none (an Intel guest's "
			"LVTPC stays masked then: no more PMIs on that vCPU); the --assume period is "
			"too short for the events the handler's own exits count", c->name, name,
			capped, capped == 1 ? "" : "s", t, vcpu);
	}
}

/* The default of -j: the online CPUs (1 if unknown). */
static unsigned int cli_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 1 ? (unsigned int)(n < 1024 ? n : 1024) : 1;
}

unsigned int cli_jobs(const struct cli *c)
{
	return c->jobs ? c->jobs : cli_online_cpus();
}

int cli_run(struct cli *c)
{
	struct vpmc_replay *r = c->r;
	int err = c->reader ? 0 : cli_open(c); /* latency opened it to read its !gaps */

	if (err)
		return err;
	vpmc_replay_set_source(r, c->name, NULL);
	vpmc_replay_set_assumptions(r, &c->assumed);
	vpmc_replay_set_threads(r, cli_jobs(c));
	err = vpmc_replay_begin(r, vpmc_reader_pmu(c->reader));
	if (err)
		return vpmcsim_fail(EXIT_USAGE, "%s: %s", c->cmd, vpmc_replay_error(r));
	err = vpmc_replay_run(r, c->reader);
	err = cli_read_end(c, err == VPMC_ERR_INVAL ? VPMC_ERR_PARSE : err, vpmc_replay_error(r),
			   vpmc_replay_warning(r));
	if (!err)
		cli_replay_warnings(c);
	return err;
}

void cli_replay_warnings(struct cli *c)
{
	host_read_warning(c);
	not_modeled_warning(c);
	handler_capped_warning(c);
}

int cli_print(const char *text)
{
	if (fputs(text, stdout) == EOF || fflush(stdout))
		return vpmcsim_write_error("standard output", errno);
	return 0;
}

void cli_close(struct cli *c)
{
	vpmc_reader_free(c->reader);
	vpmc_replay_free(c->r);
	vpmc_cost_profile_release(&c->prof);
	c->reader = NULL;
	c->r = NULL;
}
