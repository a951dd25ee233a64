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
extern const struct vpmcsim_cmd cmd_convert;

struct vpmc_reader;

/* After reading @path (to its end or to an error): records and events read, unused event
 * names with counts, synthesized VM-entries, lost events, skipped lines, time stamps that went
 * back, and the reader's warnings; "vpmcsim: PATH: ..." lines on stderr. Every command that
 * reads a trace prints it, before its error if any. */
void vpmcsim_reader_report(const char *path, const struct vpmc_reader *r);

/* The exit code for a reader's error @err (open or read): 2 for a trace that cannot be opened
 * as given, 3 for a format not built in, else 1 (bad input). */
int vpmcsim_reader_exit(int err);

/* Print "vpmcsim: write error on WHAT: <strerror(err)>" (without it if @err is 0); return
 * EXIT_INPUT. */
int vpmcsim_write_error(const char *what, int err);

/* Whether @f is a regular file: only such an output is removed after a failure (as root,
 * removing /dev/null would remove the device). */
bool vpmcsim_is_regular(FILE *f);

/* An option that takes one value, given again: refused instead of keeping the last. @seen is
 * the value given before (NULL if none; then set to @arg). Return: 0, or EXIT_USAGE with
 * "vpmcsim: CMD: OPT given twice ('FIRST', 'SECOND')" printed. */
int vpmcsim_once(const char *cmd, const char *opt, const char **seen, const char *arg);

/* Print "vpmcsim: <msg>" on stderr; return @code. */
int vpmcsim_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* VPMCSIM_H */
