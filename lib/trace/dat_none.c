// SPDX-License-Identifier: GPL-2.0-only
/* trace_dat_none.c - trace.dat reader stub for builds without libtracecmd. */
#include "config.h"

#include "dat.h"

int trace_dat_open(struct trace_dat **out, const char *path, bool isolate,
		   struct vpmc__errbuf *err)
{
	(void)out;
	(void)isolate;
	return vpmc__set_error(err, VPMC_ERR_NOSUPPORT,
			       "%s: trace.dat support not built in (configure --with-libtracecmd)",
			       path);
}

int trace_dat_next(struct trace_dat *d, struct kvm_record *rec, struct vpmc__errbuf *err)
{
	(void)d;
	(void)rec;
	return vpmc__set_error(err, VPMC_ERR_NOSUPPORT, "trace.dat support not built in");
}

uint64_t trace_dat_unread_pages(const struct trace_dat *d)
{
	(void)d;
	return 0;
}

void trace_dat_progress(const struct trace_dat *d, uint64_t *done, uint64_t *total)
{
	(void)d;
	*done = *total = 0;
}

void trace_dat_close(struct trace_dat *d)
{
	(void)d;
}
