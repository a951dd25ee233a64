// SPDX-License-Identifier: GPL-2.0-only
/* linebuf.c - Lines of a text input in a fixed buffer of LINEBUF_SIZE bytes: nothing grows with
 * the input, so memory is the same for a 1 kB and a 100 GB trace. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linebuf.h"

void linebuf_init(struct linebuf *lb)
{
	memset(lb, 0, sizeof(*lb));
	lb->fd = -1;
}

/* NUL bytes are looked for once per block read, not once per line. */
static void find_nul(struct linebuf *lb, size_t from, size_t to)
{
	const char *nul = memchr(lb->buf + from, '\0', to - from);

	lb->clean = nul ? (size_t)(nul - lb->buf) : to;
}

/* More bytes into buf[end, LINEBUF_SIZE). Return: how many (0 at the end), or -errno. */
static ssize_t fill(struct linebuf *lb)
{
	size_t room = LINEBUF_SIZE - lb->end;
	ssize_t n;

	if (lb->mem) {
		n = (ssize_t)(lb->mem_len - lb->mem_pos < room ? lb->mem_len - lb->mem_pos : room);
		memcpy(lb->buf + lb->end, lb->mem + lb->mem_pos, (size_t)n);
		lb->mem_pos += (size_t)n;
	} else {
		do
			n = read(lb->fd, lb->buf + lb->end, room);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
	}
	if (lb->clean == lb->end)
		find_nul(lb, lb->end, lb->end + (size_t)n);
	lb->end += (size_t)n;
	lb->got += (uint64_t)n;
	return n;
}

int linebuf_peek(struct linebuf *lb, size_t min, struct vpmc__errbuf *err)
{
	ssize_t n;

	lb->buf = malloc(LINEBUF_SIZE);
	if (!lb->buf)
		return vpmc__set_error(err, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	do {
		n = fill(lb);
		if (n < 0)
			return vpmc__set_error(err, VPMC_ERR_IO, "%s: %s", lb->name,
					       strerror((int)-n));
	} while (n > 0 && lb->end < min);
	return (int)lb->end;
}

/* Move the unparsed bytes to the front and read more after them. Return: 0, or an error. */
static int refill(struct linebuf *lb, struct vpmc__errbuf *err)
{
	ssize_t n;

	if (lb->start) {
		memmove(lb->buf, lb->buf + lb->start, lb->end - lb->start);
		lb->end -= lb->start;
		lb->clean -= lb->start;
		lb->start = 0;
	}
	n = fill(lb);
	if (n < 0)
		return vpmc__set_error(err, VPMC_ERR_IO, "%s: %s", lb->name, strerror((int)-n));
	if (!n)
		lb->eof = true;
	return 0;
}

/* The '\n' ending the line at start, reading more as needed; NULL at the end of the input or
 * when LINEBUF_LINE_MAX bytes have no '\n' (*@ret: 0, or the error). */
static const char *find_newline(struct linebuf *lb, int *ret, struct vpmc__errbuf *err)
{
	for (;;) {
		const char *nl = memchr(lb->buf + lb->start, '\n', lb->end - lb->start);

		if (nl || lb->eof || lb->end - lb->start > LINEBUF_LINE_MAX)
			return nl;
		*ret = refill(lb, err);
		if (*ret)
			return NULL;
	}
}

#define STR_(x) #x
#define STR(x) STR_(x)

const char *linebuf_where(const struct linebuf *lb, unsigned int col, char *buf, size_t len)
{
	if (col)
		snprintf(buf, len, "%s:%llu:%u", lb->name, (unsigned long long)lb->line, col);
	else
		snprintf(buf, len, "%s:%llu", lb->name, (unsigned long long)lb->line);
	return buf;
}

/*
 * Drop the rest of an over-long line @l (--lenient): bytes up to and including the next '\n',
 * but at most LINEBUF_SKIP_MAX of them, so that an endless line (/dev/zero) ends in an error.
 */
static int skip_rest_of_line(struct linebuf *lb, const struct linebuf_line *l,
			     struct vpmc__errbuf *err)
{
	uint64_t skipped = 0;
	char at[VPMC_ERRMSG_MAX / 2];
	int ret;

	for (;;) {
		const char *nl = memchr(lb->buf + lb->start, '\n', lb->end - lb->start);

		if (nl) {
			lb->start = (size_t)(nl - lb->buf) + 1;
			if (lb->clean < lb->start)
				find_nul(lb, lb->start, lb->end);
			return 0;
		}
		skipped += lb->end - lb->start;
		if (skipped > LINEBUF_SKIP_MAX)
			return vpmc__set_error(err, VPMC_ERR_PARSE, "%s: %s, and no newline in its "
					       "first %d MiB: too much to skip, even with --lenient "
					       "(not a text trace?)",
					       linebuf_where(lb, l->col, at, sizeof(at)), l->bad,
					       LINEBUF_SKIP_MAX >> 20);
		lb->start = lb->end = lb->clean = 0;
		if (lb->eof)
			return 0;
		ret = refill(lb, err);
		if (ret)
			return ret;
	}
}

int linebuf_next(struct linebuf *lb, bool lenient, struct linebuf_line *l,
		 struct vpmc__errbuf *err)
{
	const char *nl;
	size_t avail;
	int ret = 0;

	nl = find_newline(lb, &ret, err);
	if (ret)
		return ret;
	avail = lb->end - lb->start;
	if (!avail)
		return 0;
	lb->line++;
	l->p = lb->buf + lb->start;
	l->bad = NULL;
	l->col = 0;
	l->len = nl ? (size_t)(nl - l->p) : avail;
	l->cut = !nl;
	/* a NUL byte in the first LINEBUF_LINE_MAX bytes is the line's first problem */
	if (lb->clean < lb->start + (l->len < LINEBUF_LINE_MAX ? l->len : LINEBUF_LINE_MAX)) {
		l->bad = "NUL byte in the line (binary data?)";
		l->col = (unsigned int)(lb->clean - lb->start) + 1;
	}
	if (l->len > LINEBUF_LINE_MAX) {
		if (!l->bad)
			l->bad = "line longer than " STR(LINEBUF_LINE_MAX) " bytes";
		l->cut = false;
		/* strict: the error is now, not after reading to the end of an endless line */
		if (!lenient)
			return 1;
		ret = skip_rest_of_line(lb, l, err);
		return ret ? ret : 1;
	}
	lb->start += l->len + !!nl;
	if (lb->clean < lb->start)
		find_nul(lb, lb->start, lb->end);
	return 1;
}

int linebuf_rest_blank(struct linebuf *lb, struct vpmc__errbuf *err)
{
	size_t seen = 0; /* bytes after start known to be white space */
	int ret;

	for (;;) {
		const char *p = lb->buf + lb->start + seen, *end = lb->buf + lb->end;

		for (; p < end; p++) {
			if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
				return 0;
		}
		seen = lb->end - lb->start;
		if (lb->eof || (lb->start == 0 && lb->end == LINEBUF_SIZE))
			return lb->eof;
		ret = refill(lb, err);
		if (ret)
			return ret;
	}
}

void linebuf_free(struct linebuf *lb)
{
	if (lb->fd > STDIN_FILENO)
		close(lb->fd);
	free(lb->buf);
	free(lb->mem);
}
