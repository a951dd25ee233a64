/* SPDX-License-Identifier: GPL-2.0-only */
/* outfile.h - Files vpmcsim writes, whole or absent: written to a temporary file beside the
 * target and renamed over it when complete (issue 16). */
#ifndef VPMCSIM_OUTFILE_H
#define VPMCSIM_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

/*
 * An output being written. SIGINT, SIGTERM and SIGHUP remove the temporary files of the outputs
 * still open, then end the program as the signal would have; SIGXFSZ is ignored, so that a
 * file size limit is a write error (EFBIG) like a full disk. A target that exists and is not a
 * regular file (/dev/null, a FIFO) is written in place; "-" is standard output.
 */
struct outfile {
	FILE *f;
	const char *path; /* the target as given */
	char *tmp;        /* the temporary file, or NULL (written in place) */
	char *dest;       /* what it replaces: @path, or the file a symbolic link @path names */
};

/* Open @path for writing. Return: the stream (also in @o->f), or NULL with errno set. */
FILE *outfile_open(struct outfile *o, const char *path);

/* The file to write to by name (for another program, e.g. gnuplot's "set output"). */
const char *outfile_name(const struct outfile *o);

/*
 * outfile_close() - Flush and close @o (standard output is only flushed) and, if @keep and
 * nothing failed, rename the temporary file over the target; else remove it, and an existing
 * target stays as it was.
 * Return: 0, or the errno of the first failure (-1: none set); 0 when !@keep.
 */
int outfile_close(struct outfile *o, bool keep);

#endif /* VPMCSIM_OUTFILE_H */
