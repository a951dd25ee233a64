// SPDX-License-Identifier: GPL-2.0-only
/* dat_window.c - Buffered reads of a trace.dat's headers (dat_window.h). */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "dat_window.h"

/* Whether @w can answer a read of @n bytes at @pos as pread(2) would: it holds them all, or
 * the file ends inside it (a short read). */
static bool holds(const struct dat_window *w, size_t n, uint64_t pos)
{
	if (!w->filled || pos < w->off)
		return false;
	if (w->len < sizeof(w->buf))
		return true;
	return pos - w->off <= w->len && n <= w->len - (pos - w->off);
}

/* A read of @w's memory, as pread(2) of a file of mem_size bytes. */
static ssize_t mem_pread(const struct dat_window *w, void *dst, size_t n, uint64_t pos)
{
	size_t have = pos < w->mem_size ? w->mem_size - pos : 0;

	if (have > n)
		have = n;
	if (have)
		memcpy(dst, w->mem + pos, have);
	return (ssize_t)have;
}

ssize_t dat_window_pread(struct dat_window *w, void *dst, size_t n, uint64_t pos)
{
	ssize_t got;
	size_t have;

	if (w->mem)
		return mem_pread(w, dst, n, pos);
	if (n > sizeof(w->buf))
		return pread(w->fd, dst, n, (off_t)pos);
	if (!holds(w, n, pos)) {
		got = pread(w->fd, w->buf, sizeof(w->buf), (off_t)pos);
		if (got < 0)
			return -1;
		w->filled = true;
		w->off = pos;
		w->len = (size_t)got;
	}
	have = pos - w->off < w->len ? w->len - (pos - w->off) : 0;
	if (have > n)
		have = n;
	if (have) /* (no pointer past the buffer) */
		memcpy(dst, w->buf + (pos - w->off), have);
	return (ssize_t)have;
}
