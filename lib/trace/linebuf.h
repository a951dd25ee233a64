/* SPDX-License-Identifier: GPL-2.0-only */
/* linebuf.h - Lines of a text input (a file descriptor or a copy of a buffer) in a fixed buffer:
 * memory does not grow with the input, and a line longer than LINEBUF_LINE_MAX is an error. */
#ifndef VPMC_TRACE_LINEBUF_H
#define VPMC_TRACE_LINEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "internal.h"

#define LINEBUF_SIZE (64 * 1024)
#define LINEBUF_LINE_MAX 4096          /* bytes in a line, without its '\n' */
#define LINEBUF_SKIP_MAX (1024 * 1024) /* bytes of one over-long line --lenient skips at most */

struct linebuf {
	const char *name; /* for messages ("<stdin>"), owned by the caller */
	/* input: a file descriptor, or a private copy of an in-memory buffer (mem != NULL) */
	int fd;
	char *mem;
	size_t mem_len, mem_pos;
	char *buf;        /* LINEBUF_SIZE bytes, from linebuf_peek() on */
	size_t start, end; /* unparsed bytes are buf[start, end) */
	size_t clean;     /* buf[start, clean) has no NUL byte; buf[clean] is one */
	bool eof;
	uint64_t line;    /* number of the last line returned */
	uint64_t got;     /* bytes read from the input so far (into buf) */
};

/* One line, without its '\n'. */
struct linebuf_line {
	const char *p;
	size_t len;
	bool cut;         /* the last line, without a '\n' (a trace cut by ^C or a full disk) */
	const char *bad;  /* why the line cannot be parsed at all, or NULL */
	unsigned int col; /* where (1-based), 0 for the whole line */
};

/* @lb with no input yet (fd -1): set name, then fd or mem, before linebuf_peek(). */
void linebuf_init(struct linebuf *lb);

/**
 * linebuf_peek() - Read the first bytes of the input, for format detection.
 * @lb: from linebuf_init(), nothing read yet
 * @min: bytes wanted (fewer at the end of a short input); at most LINEBUF_SIZE
 * @err: "NAME: why" on failure
 *
 * Return: how many bytes are at lb->buf (0: the input is empty), or VPMC_ERR_NOMEM, VPMC_ERR_IO.
 */
int linebuf_peek(struct linebuf *lb, size_t min, struct vpmc__errbuf *err);

/**
 * linebuf_next() - The next line.
 * @lb: after linebuf_peek()
 * @lenient: drop the rest of an over-long line (at most LINEBUF_SKIP_MAX bytes) instead of
 *           stopping there
 * @l: the line; l->bad set if it has a NUL byte or is too long
 * @err: "NAME: why" (I/O) or "NAME:LINE[:COL]: why" on failure
 *
 * Return: 1, 0 at the end of the input, or VPMC_ERR_IO, VPMC_ERR_PARSE (an endless line).
 */
int linebuf_next(struct linebuf *lb, bool lenient, struct linebuf_line *l,
		 struct vpmc__errbuf *err);

/**
 * linebuf_rest_blank() - Is the rest of the input, after the last line returned, white space?
 * @lb: after linebuf_next()
 * @err: "NAME: why" on failure
 *
 * Reads ahead as needed, without moving past a line not yet returned; a buffer full of white
 * space is not looked past (no).
 *
 * Return: 1 (yes, or nothing is left), 0 (no), or VPMC_ERR_IO.
 */
int linebuf_rest_blank(struct linebuf *lb, struct vpmc__errbuf *err);

/* "NAME:LINE[:COL]" of the last line returned (no COL if @col is 0), in @buf; return @buf. */
const char *linebuf_where(const struct linebuf *lb, unsigned int col, char *buf, size_t len);

/* Bytes of the input before the first one not yet returned in a line (progress). */
static inline uint64_t linebuf_offset(const struct linebuf *lb)
{
	return lb->got - (lb->end - lb->start);
}

/* Free the buffers and close the file descriptor if it is not standard input. */
void linebuf_free(struct linebuf *lb);

#endif /* VPMC_TRACE_LINEBUF_H */
