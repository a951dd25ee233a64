// SPDX-License-Identifier: GPL-2.0-only
/* cmd_merge.c - vpmcsim merge: the report of the union of several JSON summaries (issue 15). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "latency_cli.h"
#include "outfile.h"
#include "progress.h"
#include "vpmcsim.h"

static const char usage_line[] = "vpmcsim merge [OPTIONS] A.json B.json...";

/* Refuse a file given twice (overlapping globs): its counts would be added twice. Return: 0, or
 * the exit code (printed). A file that cannot be stat'ed is left to the reading's message. */
static int merge_distinct(int first, int argc, char **argv)
{
	struct stat a, b;
	int i, j;

	for (i = first; i < argc; i++) {
		if (stat(argv[i], &a))
			continue;
		for (j = first; j < i; j++) {
			if (!stat(argv[j], &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
				return vpmcsim_fail(EXIT_USAGE, "merge: %s and %s are the same file: "
						    "its counts would be added twice", argv[j],
						    argv[i]);
		}
	}
	return 0;
}

/* The size of @path in bytes, 0 if it cannot be stat'ed (for the progress line only). */
static uint64_t merge_file_bytes(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

/* Read the summaries argv[@first..@argc) into @s, with a progress line on a terminal: files read
 * of all, the share of their bytes, the rate and the time left. Return: 0, or the exit code. */
static int merge_read(struct vpmc_summary *s, int first, int argc, char **argv)
{
	uint64_t done = 0, total = 0;
	bool show = progress_begin();
	char name[64];
	int i, err;

	for (i = first; show && i < argc; i++)
		total += merge_file_bytes(argv[i]);
	for (i = first; i < argc; i++) {
		err = vpmc_summary_add_file(s, argv[i]);
		if (err)
			return vpmcsim_fail(err == VPMC_ERR_IO ? EXIT_USAGE : EXIT_INPUT,
					    "merge: %s", vpmc_summary_error(s));
		if (show) {
			done += merge_file_bytes(argv[i]);
			snprintf(name, sizeof(name), "merge, %d of %d files", i - first + 1,
				 argc - first);
			progress_show(name, done, total, done, "bytes");
		}
	}
	progress_done();
	return 0;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s\n\n"
		"Print the report of the union of the traces behind JSON reports of compare,\n"
		"sweep, latency, nested or stat (--format json), as that command prints it:\n"
		"exact, in any order.\n"
		"Reports made with different commands, policies, overlay, PMU, cost model,\n"
		"assumptions or options are refused.\n\n"
		"  --format F          text, csv or json (default: the command's: sweep csv, the\n"
		"                      others text); json carries the union's merge_state\n"
		"  -o, --output FILE   write the report to FILE, whole or not at all ('-': standard\n"
		"                      output, the default)\n"
		"  -h, --help          this text; see vpmcsim(1), MERGE\n",
		usage_line);
}

/* Return: -1 to go on, else the exit code. */
static int merge_args(int argc, char **argv, const char **fmt, enum vpmc_output *f,
		      const char **out)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case OPT_FORMAT:
			if (vpmcsim_once("merge", "--format", fmt, optarg))
				return EXIT_USAGE;
			if (vpmc_output_parse(f, optarg))
				return vpmcsim_fail(EXIT_USAGE, "merge: --format '%s': expected text, "
						    "csv or json", optarg);
			break;
		case 'o':
			if (vpmcsim_once("merge", "-o", out, optarg))
				return EXIT_USAGE;
			break;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind == argc)
		return vpmcsim_fail(EXIT_USAGE, "merge: no summary to merge (usage: %s)",
				    usage_line);
	return -1;
}

/* The sum of stat's summaries in @s, as stat prints it: its warning, then its report. */
static int merge_stat(struct vpmc_summary *s, enum vpmc_output f, const char **text,
		      struct vpmc_stat **st)
{
	const char *w;

	if (vpmc_summary_stat(s, st))
		return vpmcsim_fail(EXIT_INPUT, "merge: %s", vpmc_summary_error(s));
	w = vpmc_stat_warning(*st);
	if (w && w[0])
		fprintf(stderr, "vpmcsim: warning: %s\n", w);
	if (vpmc_stat_report(*st, f, text))
		return vpmcsim_fail(EXIT_INPUT, "merge: out of memory");
	return 0;
}

/* The union of latency's summaries in @s, loaded into c->r, as latency prints it. */
static int merge_latency(struct vpmc_summary *s, struct cli *c, char **text)
{
	struct vpmc_latency_labels lab;
	struct latency_cli lc = { 0 };
	struct vpmc_latency *l;
	int rc = 0;

	if (vpmc_summary_latency(s, c->r, &l, &lab))
		return vpmcsim_fail(EXIT_INPUT, "merge: %s", vpmc_summary_error(s));
	lab.trace = c->name;
	lc.o = *vpmc_latency_options(l);
	latency_cli_no_handler(c, &lc, l, "warning: merge");
	latency_cli_flagged(c, l);
	if (vpmc_latency_report(l, c->r, &lab, c->fmt, text))
		rc = vpmcsim_fail(EXIT_INPUT, "merge: out of memory");
	vpmc_latency_free(l);
	return rc;
}

/* The union of nested's summaries in @s, as nested prints it. */
static int merge_nested(struct vpmc_summary *s, enum vpmc_output f, const char **text,
			struct vpmc_nested **n)
{
	if (vpmc_summary_nested(s, n))
		return vpmcsim_fail(EXIT_INPUT, "merge: %s", vpmc_summary_error(s));
	if (vpmc_nested_report(*n, f, text))
		return vpmcsim_fail(EXIT_INPUT, "merge: %s", vpmc_nested_error(*n));
	return 0;
}

/* Write @text to @path through an outfile: whole or absent. */
static int merge_write(const char *path, const char *text)
{
	struct outfile o;
	int err;

	if (!path || !strcmp(path, "-"))
		return cli_print(text);
	if (!outfile_open(&o, path))
		return vpmcsim_fail(EXIT_USAGE, "merge: %s: %s", path, strerror(errno));
	fputs(text, o.f);
	err = outfile_close(&o, true);
	return err ? vpmcsim_write_error(path, err > 0 ? err : 0) : 0;
}

static int merge_run(int argc, char **argv)
{
	const char *fmt = NULL, *out = NULL, *text = NULL, *cmd, *source;
	char *lat_text = NULL;
	enum vpmc_output f = VPMC_OUTPUT_TEXT;
	struct vpmc_stat *st = NULL;
	struct vpmc_nested *n = NULL;
	struct vpmc_summary *s;
	struct cli c;
	int rc = merge_args(argc, argv, &fmt, &f, &out);

	if (rc >= 0)
		return rc;
	rc = merge_distinct(optind, argc, argv);
	if (rc)
		return rc;
	if (vpmc_summary_new(&s))
		return vpmcsim_fail(EXIT_INPUT, "merge: out of memory");
	rc = merge_read(s, optind, argc, argv);
	if (rc) {
		vpmc_summary_free(s);
		return rc;
	}
	cmd = vpmc_summary_command(s);
	if (!strcmp(cmd, "stat")) {
		rc = merge_stat(s, fmt ? f : VPMC_OUTPUT_TEXT, &text, &st);
		if (!rc)
			rc = merge_write(out, text);
		vpmc_stat_free(st);
		vpmc_summary_free(s);
		return rc;
	}
	if (!strcmp(cmd, "nested")) {
		rc = merge_nested(s, fmt ? f : VPMC_OUTPUT_TEXT, &text, &n);
		if (!rc)
			rc = merge_write(out, text);
		vpmc_nested_free(n);
		vpmc_summary_free(s);
		return rc;
	}
	cli_init(&c, "merge", fmt ? f : strcmp(cmd, "sweep") ? VPMC_OUTPUT_TEXT : VPMC_OUTPUT_CSV);
	if (vpmc_summary_replay(s, &c.r))
		rc = vpmcsim_fail(EXIT_INPUT, "merge: %s", vpmc_summary_error(s));
	if (!rc) {
		vpmc_replay_source(c.r, &source, NULL);
		c.trace = source;
		c.name = cli_trace_name(source);
		cli_replay_warnings(&c);
		if (!strcmp(cmd, "latency")) {
			rc = merge_latency(s, &c, &lat_text);
			text = lat_text;
		} else {
			rc = cli_report_text(&c, strcmp(cmd, "sweep") ? VPMC_VIEW_COMPARE :
					     VPMC_VIEW_SWEEP, &text);
		}
	}
	if (!rc)
		rc = merge_write(out, text);
	free(lat_text);
	vpmc_summary_free(s);
	cli_close(&c);
	return rc;
}

const struct vpmcsim_cmd cmd_merge = {
	.name = "merge",
	.summary = "the report of the union of JSON summaries (--format json)",
	.run = merge_run,
};
