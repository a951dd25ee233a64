// SPDX-License-Identifier: GPL-2.0-only
/* cmd_convert.c - vpmcsim convert: any trace the readers accept -> the native .vtr. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
#include "progress.h"
#include "vpmcsim.h"

/* --vcpu LIST: ranges of vCPU numbers whose events are kept (none given: all). */
#define CONVERT_MAX_RANGES 64

struct convert_args {
	const char *in, *out;
	struct vpmc_reader_opts opts;
	struct cli_pmu pmu;                  /* --vendor, --host-kernel */
	struct vpmc_replay_assumptions how;  /* how the vendor and kernel were decided */
	const char *vcpu_list;               /* --vcpu, as given */
	unsigned int nr_ranges;
	uint32_t lo[CONVERT_MAX_RANGES], hi[CONVERT_MAX_RANGES];
};

static void convert_usage(FILE *f)
{
	struct vpmc_reader_opts d;

	vpmc_reader_opts_default(&d);
	fprintf(f, "Usage: vpmcsim convert [OPTIONS] IN -o OUT.vtr\n\n"
		   "Write the native events of a trace (trace.dat, kvm tracepoint text, .vtr) as .vtr.\n\n"
		   "  -o, --output FILE   the .vtr to write ('-': standard output)\n"
		   "  --input-format F    auto (default: by content), vtr, text or dat\n"
		   "  --lenient           skip malformed trace lines (counted) instead of failing\n"
		   "  --guest-ips N       guest instructions per second of guest-mode time\n"
		   "                      (default %llu; 0: no guest events)\n"
		   "  --guest-branch-permille N\n"
		   "                      branches per 1000 of them (default %u)\n"
		   "  --host-kernel X.Y   host kernel of the recording (!host)\n"
		   "  --vendor V          intel or amd: the guest PMU's vendor (!pmu; default:\n"
		   "                      what the trace says, decided as compare decides it)\n"
		   "  --vcpu LIST         keep only these vCPUs' events, e.g. 0,2-3\n"
		   "  -h, --help          this text; see vpmcsim(1), CONVERT\n",
		(unsigned long long)d.guest_ips, d.guest_branch_permille);
}

/* One number of a --vcpu LIST at *@s, moved past it. Return: 0, or -1 if none or too big. */
static int vcpu_number(const char **s, uint32_t *v)
{
	uint64_t n = 0;

	if (**s < '0' || **s > '9')
		return -1;
	for (; **s >= '0' && **s <= '9'; (*s)++) {
		n = n * 10 + (uint64_t)(**s - '0');
		if (n > UINT32_MAX)
			return -1;
	}
	*v = (uint32_t)n;
	return 0;
}

/* --vcpu LIST: N or N-M (N <= M), comma-separated. Return: 0, or the exit code (printed). */
static int parse_vcpus(struct convert_args *a, const char *list)
{
	const char *s = list;

	do {
		if (a->nr_ranges == CONVERT_MAX_RANGES)
			return vpmcsim_fail(EXIT_USAGE, "convert: --vcpu '%s': more than %d ranges",
					    list, CONVERT_MAX_RANGES);
		if (vcpu_number(&s, &a->lo[a->nr_ranges]))
			break;
		a->hi[a->nr_ranges] = a->lo[a->nr_ranges];
		if (*s == '-' && (s++, vcpu_number(&s, &a->hi[a->nr_ranges]) ||
				  a->hi[a->nr_ranges] < a->lo[a->nr_ranges]))
			break;
		a->nr_ranges++;
		if (!*s)
			return 0;
	} while (*s++ == ',');
	return vpmcsim_fail(EXIT_USAGE, "convert: --vcpu '%s': expected vCPU numbers N or ranges "
			    "N-M (N <= M, below 2^32), comma-separated, e.g. 0,2-3", list);
}

/* Whether --vcpu keeps the events of vCPU @v. */
static bool vcpu_kept(const struct convert_args *a, uint32_t v)
{
	unsigned int i;

	for (i = 0; i < a->nr_ranges; i++) {
		if (v >= a->lo[i] && v <= a->hi[i])
			return true;
	}
	return !a->nr_ranges;
}

/* Return: -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, struct convert_args *a)
{
	enum { CONV_FORMAT = 256, CONV_LENIENT, CONV_IPS, CONV_PERMILLE, CONV_KERNEL, CONV_VENDOR,
	       CONV_OUT_FORMAT, CONV_VCPU };
	/* the PMU-shape options are cli.c's: their values there */
	static const int pmu_opt[] = { [CONV_PERMILLE - CONV_PERMILLE] = OPT_BRANCH_PERMILLE,
				       [CONV_KERNEL - CONV_PERMILLE] = OPT_HOST_KERNEL,
				       [CONV_VENDOR - CONV_PERMILLE] = OPT_VENDOR };
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "input-format", required_argument, NULL, CONV_FORMAT },
		/* --format is the output format elsewhere; here it once meant the input's (issue 17) */
		{ "format", required_argument, NULL, CONV_OUT_FORMAT },
		{ "lenient", no_argument, NULL, CONV_LENIENT },
		{ "guest-ips", required_argument, NULL, CONV_IPS },
		{ "guest-branch-permille", required_argument, NULL, CONV_PERMILLE },
		{ "host-kernel", required_argument, NULL, CONV_KERNEL },
		{ "vendor", required_argument, NULL, CONV_VENDOR },
		{ "vcpu", required_argument, NULL, CONV_VCPU },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *given[CONV_VENDOR - CONV_FORMAT + 2] = { NULL }; /* -o, then CONV_FORMAT.. */
	const char *vcpu_given = NULL;
	char name[64];
	int c, li, rc;

	vpmc_reader_opts_default(&a->opts);
	a->opts.isolate_dat = true; /* a libtracecmd crash on a corrupt file is an error */
	a->opts.nested_events = true; /* kvm_nested_* as nexit, nenter ... (nested-gpc.md §6.9) */
	while ((li = -1, c = getopt_long(argc, argv, "o:h", opts, &li)) != -1) {
		/* every option that takes a value is given once */
		if (optarg && (c == 'o' || (c >= CONV_FORMAT && c < CONV_OUT_FORMAT))) {
			snprintf(name, sizeof(name), "--%s", li >= 0 ? opts[li].name : "output");
			if (vpmcsim_once("convert", li >= 0 ? name : "-o",
					 &given[c == 'o' ? 0 : c - CONV_FORMAT + 1], optarg))
				return EXIT_USAGE;
		}
		switch (c) {
		case 'o':
			a->out = optarg;
			break;
		case CONV_FORMAT:
			if (vpmc_format_parse(&a->opts.format, optarg))
				return vpmcsim_fail(EXIT_USAGE, "convert: --input-format: '%s' is not "
						    "auto, vtr, text or dat", optarg);
			break;
		case CONV_VCPU:
			if (vpmcsim_once("convert", "--vcpu", &vcpu_given, optarg))
				return EXIT_USAGE;
			a->vcpu_list = optarg;
			rc = parse_vcpus(a, optarg);
			if (rc)
				return rc;
			break;
		case CONV_OUT_FORMAT:
			return vpmcsim_fail(EXIT_USAGE, "convert: --format '%s': convert always writes "
					    ".vtr; the input's format is --input-format", optarg);
		case CONV_LENIENT:
			a->opts.lenient = true;
			break;
		case CONV_IPS:
			if (cli_parse_u64(optarg, UINT64_MAX, &a->opts.guest_ips))
				return vpmcsim_fail(EXIT_USAGE, "convert: --guest-ips: '%s' is not a "
						    "decimal number", optarg);
			break;
		case CONV_PERMILLE:
		case CONV_KERNEL:
		case CONV_VENDOR:
			rc = cli_pmu_option("convert", &a->pmu, &a->opts,
					    pmu_opt[c - CONV_PERMILLE], optarg);
			if (rc)
				return rc;
			break;
		case 'h':
			convert_usage(stdout);
			return EXIT_OK;
		default:
			convert_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc)
		return vpmcsim_fail(EXIT_USAGE, "convert: %s (try 'vpmcsim convert --help')",
				    optind == argc ? "no input trace" : "one input trace only");
	if (!a->out)
		return vpmcsim_fail(EXIT_USAGE, "convert: no output: -o OUT.vtr");
	a->in = argv[optind];
	return -1;
}

/* On stderr: the !pmu vendor and !host kernel written, and what decided each. */
static void convert_say_pmu(const char *in, const struct vpmc_pmu_config *pmu,
			    const struct vpmc_replay_assumptions *how)
{
	fprintf(stderr, "vpmcsim: %s: !pmu vendor=%s (%s), !host kernel=%u.%u (%s)\n", in,
		pmu->vendor == VPMC_VENDOR_AMD ? "amd" : "intel", how->vendor_how,
		pmu->host_kernel >> 16, pmu->host_kernel & 0xffff, how->host_how);
}

/* Header and events; 0 or the exit code, with the message printed. The header follows the first
 * event: a .vtr's directives and a text's layout are known once reading has begun. When reading
 * ends, the reader's report comes before its error. */
static int convert_events(struct vpmc_reader *r, const struct convert_args *a, const char *what,
			  FILE *f)
{
	const char *in = cli_trace_name(a->in);
	const struct vpmc_nested_assume *nested;
	const char *kind = NULL, *file = NULL;
	struct vpmc_event ev;
	uint64_t n = 0;
	int ret = vpmc_reader_next(r, &ev);

	if (ret >= 0) {
		vpmc_reader_source(r, &kind, &file);
		bool gaps_given;
		enum vpmc_gaps gaps = vpmc_reader_gaps(r, &gaps_given);

		nested = vpmc_reader_nested(r); /* a .vtr's "!nested": before "!source" */
		convert_say_pmu(in, vpmc_reader_pmu(r), &a->how);
		if (vpmc_vtr_write_header(f, vpmc_reader_pmu(r), nested ? NULL : kind, file) ||
		    (nested && vpmc_vtr_write_nested(f, nested)) ||
		    (nested && kind && vpmc_vtr_write_source(f, kind, file)) ||
		    vpmc_vtr_write_gen(f, vpmc_reader_gen(r), gaps_given, gaps))
			return vpmcsim_write_error(what, errno);
	}
	for (; ret == 1; ret = vpmc_reader_next(r, &ev)) {
		if (!vcpu_kept(a, ev.vcpu))
			continue;
		ret = vpmc_vtr_write_event(f, &ev);
		if (ret == VPMC_ERR_IO)
			return vpmcsim_write_error(what, errno);
		if (ret)
			return vpmcsim_fail(EXIT_INPUT, "convert: %s: event at %" PRIu64
					    " ns of vCPU %u cannot be written as .vtr", a->in,
					    ev.time_ns, ev.vcpu);
		n++;
	}
	progress_done();
	cli_reader_report(a->in, r);
	if (ret < 0)
		return vpmcsim_fail(cli_reader_exit(ret), "%s", vpmc_reader_error(r));
	/* a trace of no event is no part of a split: refused here, not at its replay */
	if (a->nr_ranges && !n)
		return vpmcsim_fail(EXIT_INPUT, "convert: %s: no event of vCPU %s (--vcpu) in the "
				    "trace", in, a->vcpu_list);
	return vpmc_vtr_write_end(f, n) ? vpmcsim_write_error(what, errno) : 0;
}

static int convert_run(int argc, char **argv)
{
	struct convert_args a = { .pmu.vendor = VPMC_VENDOR_INTEL };
	struct vpmc_reader *r;
	struct outfile out;
	const char *what;
	int ret, err;

	ret = parse_args(argc, argv, &a);
	if (ret >= 0)
		return ret;
	/* as compare decides: --vendor/--host-kernel, the trace, the defaults (issue 12) */
	cli_decide_pmu(a.in, &a.pmu, &a.opts, &a.how);
	if (vpmc_reader_new(&r, &a.opts))
		return vpmcsim_fail(EXIT_INPUT, "convert: out of memory");
	if (progress_begin())
		vpmc_reader_set_progress(r, progress_reader, (void *)a.in);
	ret = vpmc_reader_open(r, a.in);
	if (ret) {
		ret = vpmcsim_fail(cli_reader_exit(ret), "%s", vpmc_reader_error(r));
		vpmc_reader_free(r);
		return ret;
	}
	what = strcmp(a.out, "-") ? a.out : "standard output";
	if (!outfile_open(&out, a.out)) {
		ret = vpmcsim_fail(EXIT_USAGE, "convert: %s: %s", a.out, strerror(errno));
		vpmc_reader_free(r);
		return ret;
	}
	ret = convert_events(r, &a, what, out.f);
	err = outfile_close(&out, !ret); /* no half-written trace */
	if (!ret && err)
		ret = vpmcsim_write_error(what, err > 0 ? err : 0);
	vpmc_reader_free(r);
	return ret;
}

const struct vpmcsim_cmd cmd_convert = {
	.name = "convert",
	.summary = "write a trace (trace.dat, kvm text, .vtr) as native .vtr",
	.run = convert_run,
};
