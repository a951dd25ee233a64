/* SPDX-License-Identifier: GPL-2.0-only */
/* lineerr.h - Why a line of a text trace or a .vtr was rejected: its column and a message. */
#ifndef VPMC_TRACE_LINEERR_H
#define VPMC_TRACE_LINEERR_H

/* Bytes of a message: a longer one is cut here, so messages stay as long as they were. */
#define VPMC_LINEERR_MAX 256

/* The column (1-based byte offset, 0 = the whole line) and what was expected there, without the
 * "FILE:LINE:" the reader adds. */
struct vpmc__lineerr {
	unsigned int col;
	char msg[VPMC_LINEERR_MAX];
};

/**
 * vpmc__lineerr_set() - Reject a line at a byte.
 * @err: set to the column of @at in @line and "MESSAGE, found 'TOKEN'" (the token at @at,
 *       quoted, or "end of line" when @at is @end)
 * @line: start of the line
 * @at: where the problem is, in [@line, @end]
 * @end: end of the line
 * @fmt: printf format of MESSAGE
 *
 * Return: VPMC_ERR_PARSE.
 */
int vpmc__lineerr_set(struct vpmc__lineerr *err, const char *line, const char *at,
		      const char *end, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif /* VPMC_TRACE_LINEERR_H */
