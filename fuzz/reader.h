/* SPDX-License-Identifier: GPL-2.0-only */
/* reader.h - Shared body of the reader fuzz targets: read every event of a buffer. */
#ifndef FUZZ_READER_H
#define FUZZ_READER_H

#include <stddef.h>
#include <stdint.h>

#include "vpmc.h"

/* The first byte chooses strict or lenient reading; the rest is the trace. */
static inline void fuzz_read_mem(enum vpmc_format format, const uint8_t *data, size_t size)
{
	struct vpmc_reader_opts o;
	struct vpmc_reader *r;
	struct vpmc_event ev;
	struct vpmc_reader_stats st;

	if (!size)
		return;
	vpmc_reader_opts_default(&o);
	o.format = format;
	o.lenient = data[0] & 1;
	if (vpmc_reader_new(&r, &o))
		return;
	if (!vpmc_reader_open_mem(r, "fuzz", data + 1, size - 1)) {
		while (vpmc_reader_next(r, &ev) == 1)
			;
		vpmc_reader_stats(r, &st);
	}
	vpmc_reader_free(r);
}

#endif /* FUZZ_READER_H */
