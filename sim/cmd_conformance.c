// SPDX-License-Identifier: GPL-2.0-only
/* cmd_conformance.c - vpmcsim conformance: which upstream PMU tests each policy passes. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "vpmcsim.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char usage_line[] =
	"vpmcsim conformance [--policy P]... [--host-kernel X.Y] [--vendor intel|amd] "
	"[--format F] [SCENARIO|DIR]...";

/* The scenarios built in: traces/conformance/SUITE/TEST.VARIANT.vtr (Makefile.am). */
static const struct {
	const char *name, *text;
} bundled[] = {
#include "sim/conformance_data.h"
};

/* compare's defaults and the variant of issue 18 */
static const char *const default_policies[] = {
	"exact", "disabled=0x12", "tolerance=100", "tolerance=10000", "tolerance-wrap=10000",
	"mediated", "tolerance-fold=100",
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s\n\n"
		"Run kvm-unit-tests x86/pmu.c and the KVM PMU selftests, translated into .vtr\n"
		"scenarios whose !expect lines are the tests' assertions, under each policy; one\n"
		"row per test, variant and policy: pass, or the first failing assertion.\n\n"
		"  --policy P          a policy (repeatable; default: exact disabled=0x12\n"
		"                      tolerance=100 tolerance=10000 tolerance-wrap=10000 mediated\n"
		"                      tolerance-fold=100)\n"
		"  --host-kernel X.Y   model this host kernel for every scenario (default: each\n"
		"                      scenario's !host)\n"
		"  --vendor V          intel or amd: only that vendor's scenarios\n"
		"  --format F          text (default), csv or json\n"
		"  SCENARIO|DIR        .vtr files, or folders of SUITE/TEST.VARIANT.vtr (default:\n"
		"                      the built-in scenarios)\n"
		"  -h, --help          this text; see vpmcsim(1), CONFORMANCE\n"
		"Exit status: 0 whether or not tests fail; 1 for a bad scenario, 2 for usage.\n",
		usage_line);
}

struct conf_cli {
	struct vpmc_conformance *c;
	enum vpmc_output fmt;
	unsigned int nr_policies;
	struct cli_pmu pmu;         /* --host-kernel, --vendor (cli_pmu_option()) */
	const char *seen_format, *seen_host, *seen_vendor;
};

static int add_policy(struct conf_cli *cc, const char *text)
{
	struct vpmc_policy p;
	const char *why = NULL;

	if (vpmc_policy_parse(&p, text, &why))
		return vpmcsim_fail(EXIT_USAGE, "conformance: --policy '%s': %s", text, why);
	if (vpmc_conformance_add_policy(cc->c, &p))
		return vpmcsim_fail(EXIT_USAGE, "conformance: --policy '%s': given twice, or more "
				    "than %d policies", text, VPMC_CONFORMANCE_MAX_POLICIES);
	cc->nr_policies++;
	return 0;
}

static int option(struct conf_cli *cc, int opt, const char *arg)
{
	switch (opt) {
	case OPT_POLICY:
		return add_policy(cc, arg);
	case OPT_FORMAT:
		if (vpmcsim_once("conformance", "--format", &cc->seen_format, arg))
			return EXIT_USAGE;
		if (vpmc_output_parse(&cc->fmt, arg))
			return vpmcsim_fail(EXIT_USAGE, "conformance: --format '%s': expected text, "
					    "csv or json", arg);
		return 0;
	case OPT_HOST_KERNEL:
	case OPT_VENDOR: {
		struct vpmc_reader_opts unused;

		if (vpmcsim_once("conformance", opt == OPT_VENDOR ? "--vendor" : "--host-kernel",
				 opt == OPT_VENDOR ? &cc->seen_vendor : &cc->seen_host, arg))
			return EXIT_USAGE;
		return cli_pmu_option("conformance", &cc->pmu, &unused, opt, arg);
	}
	default:
		fprintf(stderr, "usage: %s\n", usage_line);
		return EXIT_USAGE;
	}
}

static int run_one(struct conf_cli *cc, const char *path)
{
	if (vpmc_conformance_run(cc->c, path, NULL, 0))
		return vpmcsim_fail(EXIT_INPUT, "conformance: %s",
				    vpmc_conformance_error(cc->c));
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every SUITE/NAME.vtr under @dir (one level of suite folders, or the suite itself), sorted. */
static int run_dir(struct conf_cli *cc, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, **tmp;
	size_t n = 0, i;
	int rc = 0;

	if (!d)
		return vpmcsim_fail(EXIT_INPUT, "conformance: %s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		tmp = realloc(names, (n + 1) * sizeof(*names));
		if (!tmp || !(tmp[n] = malloc(strlen(dir) + strlen(e->d_name) + 2))) {
			names = tmp ? tmp : names;
			rc = vpmcsim_fail(EXIT_INPUT, "conformance: out of memory");
			break;
		}
		names = tmp;
		sprintf(names[n++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (!rc)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; !rc && i < n; i++) {
		struct stat st;
		size_t len = strlen(names[i]);

		if (stat(names[i], &st))
			rc = vpmcsim_fail(EXIT_INPUT, "conformance: %s: %s", names[i],
					  strerror(errno));
		else if (S_ISDIR(st.st_mode) && depth == 0)
			rc = run_dir(cc, names[i], 1);
		else if (S_ISREG(st.st_mode) && len > 4 && !strcmp(names[i] + len - 4, ".vtr"))
			rc = run_one(cc, names[i]);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

static int run_arg(struct conf_cli *cc, const char *arg)
{
	struct stat st;

	if (stat(arg, &st))
		return vpmcsim_fail(EXIT_INPUT, "conformance: %s: %s", arg, strerror(errno));
	return S_ISDIR(st.st_mode) ? run_dir(cc, arg, 0) : run_one(cc, arg);
}

static int run_bundled(struct conf_cli *cc)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bundled); i++)
		if (vpmc_conformance_run(cc->c, bundled[i].name, bundled[i].text,
					 strlen(bundled[i].text)))
			return vpmcsim_fail(EXIT_INPUT, "conformance: %s",
					    vpmc_conformance_error(cc->c));
	return 0;
}

static int conformance_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "host-kernel", required_argument, NULL, OPT_HOST_KERNEL },
		{ "vendor", required_argument, NULL, OPT_VENDOR },
		{ NULL, 0, NULL, 0 },
	};
	struct conf_cli cc = { .fmt = VPMC_OUTPUT_TEXT };
	const char *text;
	size_t i;
	int opt, rc = 0;

	if (vpmc_conformance_new(&cc.c))
		return vpmcsim_fail(EXIT_INPUT, "conformance: out of memory");
	while (!rc && (opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			vpmc_conformance_free(cc.c);
			return EXIT_OK;
		}
		rc = option(&cc, opt, optarg);
	}
	if (cc.pmu.kernel_set)
		vpmc_conformance_set_host(cc.c, cc.pmu.kernel);
	if (cc.pmu.vendor_set)
		vpmc_conformance_set_vendor(cc.c, (int)cc.pmu.vendor);
	if (!rc && !cc.nr_policies)
		for (i = 0; !rc && i < ARRAY_SIZE(default_policies); i++)
			rc = add_policy(&cc, default_policies[i]);
	if (!rc && optind == argc)
		rc = run_bundled(&cc);
	for (i = (size_t)optind; !rc && i < (size_t)argc; i++)
		rc = run_arg(&cc, argv[i]);
	if (!rc) {
		if (vpmc_conformance_report(cc.c, cc.fmt, &text))
			rc = vpmcsim_fail(EXIT_INPUT, "conformance: out of memory");
		else
			rc = cli_print(text);
	}
	vpmc_conformance_free(cc.c);
	return rc;
}

const struct vpmcsim_cmd cmd_conformance = {
	.name = "conformance",
	.summary = "which upstream PMU tests (kvm-unit-tests, selftests) each policy passes",
	.run = conformance_run,
};
