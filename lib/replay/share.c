// SPDX-License-Identifier: GPL-2.0-only
/* share.c - Which lanes each engine of a parallel replay runs (see share.h). */
#include "config.h"

#include "share.h"

unsigned int share_engines(unsigned int nr_policies, unsigned int threads)
{
	unsigned int lanes = nr_policies + 1;
	unsigned int n = (lanes + SHARE_LANES_MAX - 1) / SHARE_LANES_MAX;

	if (n < threads)
		n = threads < lanes ? threads : lanes;
	return n;
}

void share_policies(unsigned int nr_policies, unsigned int nr_engines, unsigned int i,
		    unsigned int *from, unsigned int *to)
{
	unsigned int lanes = nr_policies + 1;
	unsigned int lo = i * lanes / nr_engines, hi = (i + 1) * lanes / nr_engines;

	/* lanes [lo, hi): lane l > 0 is policy l - 1 */
	*from = lo ? lo - 1 : 0;
	*to = hi - 1;
}

uint64_t share_help(uint64_t read_ns, uint64_t engines_ns, unsigned int threads)
{
	uint64_t each = (read_ns + engines_ns) / (threads ? threads : 1);

	return each > read_ns ? each - read_ns : 0;
}
