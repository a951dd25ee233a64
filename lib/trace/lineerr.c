// SPDX-License-Identifier: GPL-2.0-only
/* lineerr.c - The one setter of struct vpmc__lineerr, for the text and .vtr line parsers. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lineerr.h"
#include "internal.h"

/* Quote the token at @at for a message: at most 32 bytes, non-printable bytes as '?'. */
static void quote_token(char *buf, size_t size, const char *at, const char *end)
{
	const char *te = at;
	size_t n = 0;

	if (at >= end) {
		snprintf(buf, size, "end of line");
		return;
	}
	while (te < end && *te != ' ' && *te != '\t')
		te++;
	buf[n++] = '\'';
	while (at < te && n < 33 && n + 5 < size) {
		unsigned char ch = (unsigned char)*at++;

		buf[n++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
	}
	if (at < te) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n++] = '\'';
	buf[n] = '\0';
}

int vpmc__lineerr_set(struct vpmc__lineerr *err, const char *line, const char *at,
		      const char *end, const char *fmt, ...)
{
	char found[48];
	va_list ap;
	int n;

	err->col = (unsigned int)(at - line) + 1;
	va_start(ap, fmt);
	n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(err->msg))
		return VPMC_ERR_PARSE;
	quote_token(found, sizeof(found), at, end);
	snprintf(err->msg + n, sizeof(err->msg) - n, ", found %s", found);
	return VPMC_ERR_PARSE;
}
