// SPDX-License-Identifier: GPL-2.0-only
/* cmd_nested.c - vpmcsim nested: round trips between L1 and L2, and what mapping L1 pages costs
 * them with kvm_vcpu_map() and with gfn_to_pfn_cache (vpmcsim(1), NESTED). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "nested_cli.h"
#include "outfile.h"
#include "vpmcsim.h"

static const char usage_line[] = "vpmcsim nested [OPTIONS] TRACE";

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s\n\n"
		"Classify the trace's nested events into L1<->L2 round trips and L0-handled L2\n"
		"exits; count, per kind, the L1-page maps, guest reads and gfn_to_pfn_cache hits of\n"
		"the upstream design (baseline) and of the gpc design, and price both.\n\n"
		"  --profile debug|prod    kernel config of L0 (debug: KASAN+lockdep, as measured)\n"
		"  --l1-memory sp|io       L1 memory with struct pages, or PFNMAP (memremap)\n"
		"  --isa svm|vmx           when the trace does not tell\n"
		"  --recorded baseline|gpc design the trace was recorded on\n"
		"  --vmcs12 K=V[,K=V...]   apic=x2apic|xapic|none, pi, msr_bitmap, io_bitmap, evmcs\n"
		"  --svm-intercepts W3,W4,W5  VMCB intercept words where the trace has none (hex)\n"
		"  --svm-merge-chunks N    MSRPM reads per VMRUN (kernel version), default 10\n"
		"  --msr-in-range yes|no   the MSR of an MSR exit is in a bitmap range\n"
		"  --gpc-svm-merge yes|no  nsvm-gpc converts the MSRPM merge (yes: variant M)\n"
		"  --gpc-context yes|no    a cache set per L2 (default: svm no, vmx yes)\n"
		"  --gpc-cold              caches empty at the trace's start (default warm)\n"
		"  --gpc-invalidate-every K  invalidate a vCPU's caches every K-th round trip\n"
		"  --ghz X                 CPU clock for ns <-> cycles, default 2.45\n"
		"  --anchor auto|measured|model  cycles from the trace's times or from the model\n"
		"  --cost NAME=VALUE[,...] a cost parameter, cycles (repeatable)\n"
		"  --log FILE              JSON Lines, one object per round trip ('-': stdout)\n"
		"  --format F              text (default), csv or json\n"
		"  -j N                    N >= 2: read on one thread, classify on another (two at\n"
		"                          most; default: the online CPUs)\n"
		"  --input-format F, --lenient   as for compare\n"
		"  -h, --help              this text; see vpmcsim(1)\n",
		usage_line);
}

/* --log FILE, written as the run goes, whole or absent (outfile.h); '-' is standard output. */
struct nested_log {
	const char *path;
	FILE *f;
	struct outfile out;
};

struct nested_cmd {
	struct nested_cli nc;
	struct nested_log log;
};

static int nested_own(struct cli *c, int opt, const char *arg)
{
	struct nested_cmd *s = c->data;

	if (opt == OPT_LOG) {
		s->log.path = arg; /* given once: cli_parse() */
		return 0;
	}
	return nested_cli_option(&s->nc, "nested", opt, arg);
}

static int log_open(struct nested_log *l)
{
	l->f = outfile_open(&l->out, l->path);
	if (!l->f)
		return vpmcsim_fail(EXIT_USAGE, "nested: --log '%s': %s", l->path, strerror(errno));
	return 0;
}

/* Close the log: rename it into place, or (run failed, write error) leave FILE as it was. */
static int log_close(struct nested_log *l, int rc)
{
	int err = outfile_close(&l->out, !rc);

	if (!err)
		return rc;
	return rc ? rc : vpmcsim_write_error(l->f == stdout ? "standard output" : l->path,
					     err > 0 ? err : 0);
}

static int nested_run(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		NESTED_CLI_MODEL_OPTIONS,
		{ "recorded", required_argument, NULL, OPT_NESTED_RECORDED },
		{ "anchor", required_argument, NULL, OPT_NESTED_ANCHOR },
		{ "msr-in-range", required_argument, NULL, OPT_NESTED_MSR_IN_RANGE },
		{ "log", required_argument, NULL, OPT_LOG },
		{ NULL, 0, NULL, 0 },
	};
	struct nested_cmd s;
	struct cli c;
	struct vpmc_nested *n = NULL;
	const char *text;
	size_t i;
	int rc, err;

	memset(&s, 0, sizeof(s));
	nested_cli_init(&s.nc);
	cli_init(&c, "nested", VPMC_OUTPUT_TEXT);
	c.ropts.nested = true;
	c.short_opts = "hj:";
	c.data = &s;
	rc = cli_parse(&c, argc, argv, opts, nested_own, usage, usage_line);
	if (!rc)
		rc = cli_open(&c);
	if (!rc && vpmc_nested_new(&n, &s.nc.opts))
		rc = vpmcsim_fail(EXIT_INPUT, "nested: out of memory");
	if (!rc)
		vpmc_nested_set_threads(n, cli_jobs(&c));
	if (!rc && s.log.path) {
		rc = log_open(&s.log);
		vpmc_nested_set_log(n, s.log.f);
	}
	if (!rc) {
		err = vpmc_nested_run(n, c.reader, c.name);
		rc = cli_read_end(&c, err, vpmc_nested_error(n), NULL);
		for (i = 0; i < vpmc_nested_nr_warnings(n); i++)
			fprintf(stderr, "vpmcsim: warning: %s\n", vpmc_nested_warning(n, i));
	}
	if (s.log.f)
		rc = log_close(&s.log, rc);
	if (!rc) {
		if (vpmc_nested_report(n, c.fmt, &text))
			rc = vpmcsim_fail(EXIT_INPUT, "nested: %s", vpmc_nested_error(n));
		else
			rc = cli_print(text);
	}
	vpmc_nested_free(n);
	cli_close(&c);
	return rc == CLI_HELP ? EXIT_OK : rc;
}

const struct vpmcsim_cmd cmd_nested = {
	.name = "nested",
	.summary = "nested round trips: kvm_vcpu_map() vs gfn_to_pfn_cache, nSVM and nVMX",
	.run = nested_run,
};
