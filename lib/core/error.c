// SPDX-License-Identifier: GPL-2.0-only
/* error.c - Error codes, their messages, per-object error buffers, and what messages print. */
#include "config.h"

#include <stdio.h>

#include "internal.h"

const char *vpmc_strerror(int err)
{
	switch (err) {
	case VPMC_OK:
		return "success";
#define VPMC_STRERROR_CASE_(name, code, msg) \
	case (code):                        \
		return (msg);
		VPMC_ERRORS(VPMC_STRERROR_CASE_)
#undef VPMC_STRERROR_CASE_
	}
	return "unknown error";
}

const char *vpmc_version(void)
{
	return PACKAGE_VERSION;
}

int vpmc__set_error(struct vpmc__errbuf *eb, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(eb->msg, sizeof(eb->msg), fmt, ap);
	va_end(ap);
	return err;
}

void vpmc__clear_error(struct vpmc__errbuf *eb)
{
	eb->msg[0] = '\0';
}

const char *vpmc__secs(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%09llu", (unsigned long long)(ns / 1000000000u),
		 (unsigned long long)(ns % 1000000000u));
	return buf;
}
