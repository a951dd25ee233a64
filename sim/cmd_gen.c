// SPDX-License-Identifier: GPL-2.0-only
/* cmd_gen.c - vpmcsim gen: synthetic traces, one generator per workload (vpmcsim(1), GEN). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "nested_cli.h"
#include "outfile.h"
#include "progress.h"
#include "vpmcsim.h"

/* A generator: its name, one line for --help, and its own options and run. */
struct gen_workload {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv); /* argv[0] is "vpmcsim gen NAME" */
};

/* ---- nested-pingpong (nested-gpc.md §8.1) ------------------------------------------------- */

static const char pp_usage_line[] = "vpmcsim gen nested-pingpong [OPTIONS] -o FILE";

static void pp_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s\n\n"
		"A deterministic L1<->L2 ping-pong whose time stamps come from the nested cost\n"
		"model; vpmcsim nested reads it back.\n\n"
		"  --isa svm|vmx           default svm\n"
		"  --iterations N          round trips per vCPU, 1 to 10^8 (default 10000)\n"
		"  --vcpus N               L1 vCPUs, interleaved by time (default 1)\n"
		"  --l2-exit SPEC          KIND[@ARG][*WEIGHT], repeatable: cpuid (default),\n"
		"                          msr-read[@0xIDX], msr-write[@0xIDX], io-in[@PORT[/SIZE]],\n"
		"                          io-out[@PORT[/SIZE]], vmcall, ext-intr\n"
		"  --l0-handled-every K    one L0-handled L2 exit every K-th round trip\n"
		"  --l0-handled-exit SPEC  intr (default), io-in[@PORT[/SIZE]], msr-read[@0xIDX]\n"
		"  --l2-per-l1 M           VMCB12 / vmcs12 GPAs per vCPU, round robin (default 1)\n"
		"  --design baseline|gpc   whose operations make the time stamps\n"
		"  --l1-handler CYCLES     L1 time between its entry and the next VMRUN (2000)\n"
		"  --split E,G,X           %% of rt_fixed in entry, L2, exit (45,10,45)\n"
		"  --jitter P              each fixed segment x (1 + P/100 u), u in [-1, 1)\n"
		"  --seed N                the jitter's seed (default 1)\n"
		"  --trace-format vtr|ftrace|legacy   default vtr\n"
		"  --profile, --l1-memory, --ghz, --vmcs12, --svm-intercepts, --svm-merge-chunks,\n"
		"  --gpc-svm-merge, --gpc-context, --gpc-cold, --gpc-invalidate-every, --cost\n"
		"                          as for vpmcsim nested (give the replay the same)\n"
		"  -o FILE                 output ('-': standard output); removed if not whole\n"
		"  -h, --help              this text; see vpmcsim(1)\n",
		pp_usage_line);
}

enum {
	OPT_PP_ITERATIONS = 768,
	OPT_PP_VCPUS,
	OPT_PP_L2_EXIT,
	OPT_PP_L0_EVERY,
	OPT_PP_L0_EXIT,
	OPT_PP_L2_PER_L1,
	OPT_PP_DESIGN,
	OPT_PP_L1_HANDLER,
	OPT_PP_SPLIT,
	OPT_PP_JITTER,
	OPT_PP_SEED,
	OPT_PP_FORMAT,
	OPT_PP_END_
};

struct pp {
	struct nested_cli nc;
	struct vpmc_nested_gen_opts o;
	bool l2_exit_given;
	const char *out;
	const char *seen[OPT_PP_END_ - OPT_PP_ITERATIONS];
};

static int pp_number(const char *opt, const char *arg, uint64_t lo, uint64_t hi, uint64_t *v)
{
	if (cli_parse_u64(arg, hi, v) || *v < lo)
		return vpmcsim_fail(EXIT_USAGE, "gen nested-pingpong: %s '%s': expected a decimal "
				    "number, %llu to %llu", opt, arg, (unsigned long long)lo,
				    (unsigned long long)hi);
	return 0;
}

static int pp_option(struct pp *p, int opt, const char *name, const char *arg)
{
	struct vpmc_nested_gen_opts *o = &p->o;
	struct vpmc_nested_l2_exit e;
	const char *why;
	uint64_t v = 0, w[3];
	int rc = 0;

	if (opt != OPT_PP_L2_EXIT) {
		rc = vpmcsim_once("gen nested-pingpong", name, &p->seen[opt - OPT_PP_ITERATIONS],
				  arg);
		if (rc)
			return rc;
	}
	switch (opt) {
	case OPT_PP_ITERATIONS:
		rc = pp_number(name, arg, 1, 100000000, &o->iterations);
		break;
	case OPT_PP_VCPUS:
		rc = pp_number(name, arg, 1, VPMC_MAX_VCPUS, &v);
		o->vcpus = (unsigned int)v;
		break;
	case OPT_PP_L0_EVERY:
		rc = pp_number(name, arg, 0, 100000000, &o->l0_every);
		break;
	case OPT_PP_L2_PER_L1:
		rc = pp_number(name, arg, 1, 4096, &v);
		o->l2_per_l1 = (unsigned int)v;
		break;
	case OPT_PP_L1_HANDLER:
		rc = pp_number(name, arg, 0, VPMC_NESTED_COST_MAX, &o->l1_handler);
		break;
	case OPT_PP_JITTER:
		rc = pp_number(name, arg, 0, 100, &v);
		o->jitter_pct = (unsigned int)v;
		break;
	case OPT_PP_SEED:
		rc = pp_number(name, arg, 0, UINT64_MAX, &o->seed);
		break;
	case OPT_PP_L2_EXIT:
	case OPT_PP_L0_EXIT:
		if (vpmc_nested_l2_exit_parse(&e, arg, opt == OPT_PP_L0_EXIT, &why))
			return vpmcsim_fail(EXIT_USAGE, "gen nested-pingpong: %s '%s': %s", name,
					    arg, why);
		if (opt == OPT_PP_L0_EXIT) {
			o->l0_exit = e;
			break;
		}
		if (!p->l2_exit_given)
			o->nr_l2_exits = 0;
		p->l2_exit_given = true;
		if (o->nr_l2_exits == VPMC_NESTED_GEN_MAX_EXITS)
			return vpmcsim_fail(EXIT_USAGE, "gen nested-pingpong: more than %d --l2-exit",
					    VPMC_NESTED_GEN_MAX_EXITS);
		o->l2_exits[o->nr_l2_exits++] = e;
		break;
	case OPT_PP_DESIGN:
		if (strcmp(arg, "baseline") && strcmp(arg, "gpc"))
			return vpmcsim_fail(EXIT_USAGE, "gen nested-pingpong: --design '%s': expected "
					    "baseline or gpc", arg);
		o->design = arg[0] == 'g' ? VPMC_NESTED_GPC : VPMC_NESTED_BASELINE;
		break;
	case OPT_PP_SPLIT:
		if (sscanf(arg, "%llu,%llu,%llu%n", (unsigned long long *)&w[0],
			   (unsigned long long *)&w[1], (unsigned long long *)&w[2], &rc) != 3 ||
		    (size_t)rc != strlen(arg) || w[0] + w[1] + w[2] != 100 || w[0] > 100 ||
		    w[1] > 100 || w[2] > 100)
			return vpmcsim_fail(EXIT_USAGE, "gen nested-pingpong: --split '%s': expected "
					    "E,G,X percents that add up to 100", arg);
		o->split[0] = (unsigned int)w[0];
		o->split[1] = (unsigned int)w[1];
		o->split[2] = (unsigned int)w[2];
		rc = 0;
		break;
	default: /* --trace-format */
		if (!strcmp(arg, "vtr"))
			o->format = VPMC_NESTED_GEN_VTR;
		else if (!strcmp(arg, "ftrace"))
			o->format = VPMC_NESTED_GEN_FTRACE;
		else if (!strcmp(arg, "legacy"))
			o->format = VPMC_NESTED_GEN_LEGACY;
		else
			return vpmcsim_fail(EXIT_USAGE, "gen nested-pingpong: --trace-format '%s': "
					    "expected vtr, ftrace or legacy", arg);
		break;
	}
	return rc;
}

/* What every generator shares: open -o FILE ('-': stdout), let @fn write the trace, remove a
 * file that is not whole, and turn errors into exit codes with "gen WORKLOAD: ..." messages. */
static int gen_write(const char *workload, const char *path,
		     int (*fn)(void *arg, FILE *f, char *err, size_t errlen), void *arg)
{
	char err[256];
	struct outfile out;
	int ret, e;

	if (!outfile_open(&out, path))
		return vpmcsim_fail(EXIT_USAGE, "gen %s: -o '%s': %s", workload, path,
				    strerror(errno));
	ret = fn(arg, out.f, err, sizeof(err));
	progress_done();
	e = outfile_close(&out, !ret); /* a half-written trace is no trace */
	if (ret == VPMC_ERR_INVAL)
		return vpmcsim_fail(EXIT_USAGE, "gen %s: %s", workload, err);
	if (ret == VPMC_ERR_IO || e)
		return vpmcsim_write_error(strcmp(path, "-") ? path : "standard output",
					   e > 0 ? e : 0);
	if (ret)
		return vpmcsim_fail(EXIT_INPUT, "gen %s: %s", workload, err);
	return 0;
}

static void pp_progress(void *data, uint64_t done, uint64_t total)
{
	(void)data;
	progress_show("gen nested-pingpong", done, total, done, "round trips");
}

static int pp_gen(void *arg, FILE *f, char *err, size_t errlen)
{
	struct vpmc_nested_gen_opts *o = arg;

	if (progress_begin())
		o->progress = pp_progress;
	return vpmc_nested_gen(o, f, err, errlen);
}

static int pp_write(struct pp *p)
{
	return gen_write("nested-pingpong", p->out, pp_gen, &p->o);
}

static int nested_pingpong(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		NESTED_CLI_MODEL_OPTIONS,
		{ "iterations", required_argument, NULL, OPT_PP_ITERATIONS },
		{ "vcpus", required_argument, NULL, OPT_PP_VCPUS },
		{ "l2-exit", required_argument, NULL, OPT_PP_L2_EXIT },
		{ "l0-handled-every", required_argument, NULL, OPT_PP_L0_EVERY },
		{ "l0-handled-exit", required_argument, NULL, OPT_PP_L0_EXIT },
		{ "l2-per-l1", required_argument, NULL, OPT_PP_L2_PER_L1 },
		{ "design", required_argument, NULL, OPT_PP_DESIGN },
		{ "l1-handler", required_argument, NULL, OPT_PP_L1_HANDLER },
		{ "split", required_argument, NULL, OPT_PP_SPLIT },
		{ "jitter", required_argument, NULL, OPT_PP_JITTER },
		{ "seed", required_argument, NULL, OPT_PP_SEED },
		{ "trace-format", required_argument, NULL, OPT_PP_FORMAT },
		{ NULL, 0, NULL, 0 },
	};
	struct pp p;
	const char *out_seen = NULL;
	int o, li, rc;

	memset(&p, 0, sizeof(p));
	nested_cli_init(&p.nc);
	vpmc_nested_gen_opts_default(&p.o);
	while ((li = -1, o = getopt_long(argc, argv, "ho:", opts, &li)) != -1) {
		if (o == 'h') {
			pp_usage(stdout);
			return EXIT_OK;
		}
		if (o == 'o') {
			rc = vpmcsim_once("gen nested-pingpong", "-o", &out_seen, optarg);
			p.out = optarg;
		} else if (o >= OPT_PP_ITERATIONS && o < OPT_PP_END_) {
			char name[64];

			snprintf(name, sizeof(name), "--%s", li >= 0 ? opts[li].name : "?");
			rc = pp_option(&p, o, name, optarg);
		} else {
			rc = nested_cli_option(&p.nc, "gen nested-pingpong", o, optarg);
			if (rc == 1) {
				pp_usage(stderr);
				return EXIT_USAGE;
			}
		}
		if (rc)
			return rc;
	}
	if (optind != argc)
		return vpmcsim_fail(EXIT_USAGE, "gen nested-pingpong: unexpected argument '%s' "
				    "(usage: %s)", argv[optind], pp_usage_line);
	if (!p.out)
		return vpmcsim_fail(EXIT_USAGE, "gen nested-pingpong: expected -o FILE (usage: %s)",
				    pp_usage_line);
	if (p.nc.opts.assume.given & (1u << VPMC_NESTED_KEY_RECORDED))
		return vpmcsim_fail(EXIT_USAGE, "gen nested-pingpong: --design names the recorded "
				    "design");
	p.o.model = p.nc.opts;
	return pp_write(&p);
}

/* ---- timer-storm (timer-storm.md §4) ----------------------------------------------------- */

static const char ts_usage_line[] =
	"vpmcsim gen timer-storm [--vcpus N] [--seconds S] [--seed N] [--set NAME=VALUE]... -o FILE";

static void ts_usage(FILE *out)
{
	const struct vpmc_gen_param *t;
	size_t n, i;

	t = vpmc_timerstorm_params(&n);
	fprintf(out,
		"Usage: %s\n\n"
		"The RFC's timer-storm workload as a canonical .vtr (!gaps base): a Linux guest on\n"
		"an AMD v1 PMU, a 1 kHz tick, a resident instructions counter and a counting profiler;\n"
		"deterministic for a seed. vpmcsim latency reads it.\n\n"
		"  --vcpus N, --seconds S, --seed N   the parameters of the same name\n"
		"  --set NAME=VALUE        any parameter below (each name at most once)\n"
		"  -o FILE                 output ('-': standard output); removed if not whole\n"
		"  -h, --help              this text; see vpmcsim(1) and timer-storm.md\n\n"
		"Parameters (name, default, unit, tag: source):\n", ts_usage_line);
	for (i = 0; i < n; i++)
		fprintf(out, "  %-18s %-12s %-16s %s: %s\n", t[i].name, t[i].def, t[i].unit, t[i].tag,
			t[i].source);
}

/* The share of the trace's duration written, and the seconds of trace per second. */
static void ts_progress(void *data, uint64_t done_ns, uint64_t total_ns)
{
	(void)data;
	progress_show("gen timer-storm", done_ns, total_ns, done_ns / 1000000000, "s of trace");
}

static int ts_gen(void *arg, FILE *f, char *err, size_t errlen)
{
	struct vpmc_timerstorm_opts *o = arg;

	if (progress_begin())
		o->progress = ts_progress;
	return vpmc_timerstorm_gen(o, f, err, errlen);
}

static int timer_storm(int argc, char **argv)
{
	enum { OPT_TS_VCPUS = 768, OPT_TS_SECONDS, OPT_TS_SEED, OPT_TS_SET };
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "vcpus", required_argument, NULL, OPT_TS_VCPUS },
		{ "seconds", required_argument, NULL, OPT_TS_SECONDS },
		{ "seed", required_argument, NULL, OPT_TS_SEED },
		{ "set", required_argument, NULL, OPT_TS_SET },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const names[] = { "vcpus", "seconds", "seed" };
	struct vpmc_timerstorm_opts o;
	const char *out = NULL, *out_seen = NULL;
	char err[256], name[64];
	int opt, rc;

	vpmc_timerstorm_opts_default(&o);
	while ((opt = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		const char *value = optarg;

		switch (opt) {
		case 'h':
			ts_usage(stdout);
			return EXIT_OK;
		case 'o':
			rc = vpmcsim_once("gen timer-storm", "-o", &out_seen, optarg);
			if (rc)
				return rc;
			out = optarg;
			continue;
		case OPT_TS_SET:
			value = strchr(optarg, '=');
			if (!value || value == optarg || (size_t)(value - optarg) >= sizeof(name))
				return vpmcsim_fail(EXIT_USAGE, "gen timer-storm: --set '%s': expected "
						    "NAME=VALUE", optarg);
			snprintf(name, sizeof(name), "%.*s", (int)(value - optarg), optarg);
			value++;
			break;
		case OPT_TS_VCPUS:
		case OPT_TS_SECONDS:
		case OPT_TS_SEED:
			snprintf(name, sizeof(name), "%s", names[opt - OPT_TS_VCPUS]);
			break;
		default:
			ts_usage(stderr);
			return EXIT_USAGE;
		}
		if (vpmc_timerstorm_set(&o, name, value, err, sizeof(err)))
			return vpmcsim_fail(EXIT_USAGE, "gen timer-storm: %s", err);
	}
	if (optind != argc)
		return vpmcsim_fail(EXIT_USAGE, "gen timer-storm: unexpected argument '%s' "
				    "(usage: %s)", argv[optind], ts_usage_line);
	if (!out)
		return vpmcsim_fail(EXIT_USAGE, "gen timer-storm: expected -o FILE (usage: %s)",
				    ts_usage_line);
	return gen_write("timer-storm", out, ts_gen, &o);
}

/* ---- the table ---------------------------------------------------------------------------- */

static const struct gen_workload workloads[] = {
	{ "nested-pingpong", "L1<->L2 round trips priced by the nested cost model (vpmcsim nested)",
	  nested_pingpong },
	{ "timer-storm", "the RFC's timer-interrupt workload on an AMD v1 PMU (vpmcsim latency)",
	  timer_storm },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: vpmcsim gen WORKLOAD [OPTIONS] -o FILE\n\nWorkloads:\n");
	for (i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		fprintf(out, "  %-16s %s\n", workloads[i].name, workloads[i].summary);
	fprintf(out, "\nRun 'vpmcsim gen WORKLOAD --help' for its options; see vpmcsim(1).\n");
}

static int gen_run(int argc, char **argv)
{
	char name[64];
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	for (i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++) {
		if (!strcmp(argv[1], workloads[i].name)) {
			optind = 0; /* glibc: full getopt reset for the workload's options */
			snprintf(name, sizeof(name), "vpmcsim gen %s", workloads[i].name);
			argv[1] = name; /* getopt's prefix */
			return workloads[i].run(argc - 1, argv + 1);
		}
	}
	return vpmcsim_fail(EXIT_USAGE, "gen: unknown workload '%s' (try 'vpmcsim gen --help')",
			    argv[1]);
}

const struct vpmcsim_cmd cmd_gen = {
	.name = "gen",
	.summary = "synthetic traces: gen nested-pingpong, gen timer-storm",
	.run = gen_run,
};
