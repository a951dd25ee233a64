// SPDX-License-Identifier: GPL-2.0-only
/* share.c - Which lanes each engine of a parallel replay runs (see share.h). */
#include "config.h"

#include "share.h"

unsigned int share_engines(unsigned int nr_units, unsigned int threads)
{
	unsigned int n = (nr_units + SHARE_LANES_MAX - 1) / SHARE_LANES_MAX;

	if (n < threads)
		n = threads < nr_units ? threads : nr_units;
	return n;
}

void share_units(unsigned int nr_units, unsigned int nr_engines, unsigned int i,
		 unsigned int *from, unsigned int *to)
{
	*from = i * nr_units / nr_engines;
	*to = (i + 1) * nr_units / nr_engines;
}

uint64_t share_help(uint64_t read_ns, uint64_t engines_ns, unsigned int threads)
{
	uint64_t each = (read_ns + engines_ns) / (threads ? threads : 1);

	return each > read_ns ? each - read_ns : 0;
}
