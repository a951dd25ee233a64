/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmcsim.h - What the vpmcsim subcommands share: dispatch table and exit codes. */
#ifndef VPMCSIM_H
#define VPMCSIM_H

#include <stdbool.h>
#include <stdio.h>

/* Exit codes (vpmcsim(1)). */
enum {
	EXIT_OK = 0,
	EXIT_INPUT = 1,     /* bad input trace or model error */
	EXIT_USAGE = 2,     /* bad command line */
	EXIT_NOSUPPORT = 3, /* feature not built in */
};

struct vpmcsim_cmd {
	const char *name;
	const char *summary; /* one line for --help */
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
};

/* The subcommands (sim/cmd_<name>.c). */
extern const struct vpmcsim_cmd cmd_compare, cmd_replay, cmd_sweep, cmd_stat;
extern const struct vpmcsim_cmd cmd_latency, cmd_calibrate;
extern const struct vpmcsim_cmd cmd_convert;
extern const struct vpmcsim_cmd cmd_conformance;
extern const struct vpmcsim_cmd cmd_merge;

/* Print "vpmcsim: write error on WHAT: <strerror(err)>" (without it if @err is 0); return
 * EXIT_INPUT. */
int vpmcsim_write_error(const char *what, int err);

/* An option that takes one value, given again: refused instead of keeping the last. @seen is
 * the value given before (NULL if none; then set to @arg). Return: 0, or EXIT_USAGE with
 * "vpmcsim: CMD: OPT given twice ('FIRST', 'SECOND')" printed. */
int vpmcsim_once(const char *cmd, const char *opt, const char **seen, const char *arg);

/* Print "vpmcsim: <msg>" on stderr; return @code. */
int vpmcsim_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* VPMCSIM_H */
