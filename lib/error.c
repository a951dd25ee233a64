/* error.c - Error codes, their messages, and per-object error buffers. */
#include "config.h"

#include <stdio.h>

#include "vpmc-internal.h"

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
