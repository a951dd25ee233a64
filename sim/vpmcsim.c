// SPDX-License-Identifier: GPL-2.0-only
/* vpmcsim.c - The vpmcsim command: options common to all subcommands, and dispatch. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nested_cli.h"
#include "progress.h"
#include "vpmc.h"
#include "vpmcsim.h"

/* Subcommands, in the order --help lists them. */
static const struct vpmcsim_cmd *const commands[] = {
	&cmd_compare,
	&cmd_replay,
	&cmd_sweep,
	&cmd_stat,
	&cmd_convert,
	&cmd_nested, &cmd_gen,
	&cmd_latency, &cmd_calibrate,
	&cmd_conformance,
	&cmd_merge,
	NULL,
};

int vpmcsim_fail(int code, const char *fmt, ...)
{
	va_list ap;

	progress_done(); /* the message starts its own line */
	fputs("vpmcsim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

int vpmcsim_once(const char *cmd, const char *opt, const char **seen, const char *arg)
{
	if (*seen)
		return vpmcsim_fail(EXIT_USAGE, "%s: %s given twice ('%s', '%s')", cmd, opt, *seen,
				    arg);
	*seen = arg;
	return 0;
}

int vpmcsim_write_error(const char *what, int err)
{
	if (err)
		return vpmcsim_fail(EXIT_INPUT, "write error on %s: %s", what, strerror(err));
	return vpmcsim_fail(EXIT_INPUT, "write error on %s", what);
}

/* The end of every command: what is still buffered for standard output must reach it. */
static int close_stdout(int rc)
{
	int err = 0;

	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		err = errno ? errno : -1; /* -1: an earlier write failed, its errno is gone */
	errno = 0;
	if (fclose(stdout) && !err)
		err = errno ? errno : -1;
	if (err && rc == EXIT_OK)
		return vpmcsim_write_error("standard output", err > 0 ? err : 0);
	return rc;
}

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: vpmcsim [--help] [--version] COMMAND [ARGS...]\n\n"
		     "Replay KVM VM-exit traces through a model of KVM's emulated x86 vPMU.\n\n"
		     "Commands:\n");
	for (i = 0; commands[i]; i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\nRun 'vpmcsim COMMAND --help' for a command's options; see vpmcsim(1).\n");
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static char prog[] = "vpmcsim";
	char name[64]; /* "vpmcsim COMMAND": getopt's messages start with argv[0] */
	size_t i;
	int c;

	argv[0] = prog; /* not the path it was run by (libtool's .libs/vpmcsim in the tree) */
	/* '+': stop at the subcommand; its options are its own. */
	while ((c = getopt_long(argc, argv, "+hV", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("vpmcsim %s (libvpmc %s)\n", PACKAGE_VERSION, vpmc_version());
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	for (i = 0; commands[i]; i++) {
		if (!strcmp(argv[optind], commands[i]->name)) {
			int sub = optind;

			optind = 0; /* glibc: full getopt reset for the subcommand's own options */
			snprintf(name, sizeof(name), "vpmcsim %s", commands[i]->name);
			argv[sub] = name;
			return commands[i]->run(argc - sub, argv + sub);
		}
	}
	return vpmcsim_fail(EXIT_USAGE, "unknown command '%s' (try 'vpmcsim --help')", argv[optind]);
}

int main(int argc, char **argv)
{
	return close_stdout(run(argc, argv));
}
