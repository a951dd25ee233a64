// SPDX-License-Identifier: GPL-2.0-only
/* dat_sections.c - A v7 trace.dat's sections walked as libtracecmd's read_metadata_strings()
 * walks them (dat_sections.h), and the loop it can fall into, found with Brent's algorithm:
 * no memory of the headers seen, and at most a few times as many reads as the walk's length.
 */
#include "config.h"

#include <unistd.h>

#include "dat_layout.h"
#include "dat_sections.h"
#include "dat_window.h"

#define SEC_STRINGS 15        /* TRACECMD_OPTION_STRINGS */
#define SEC_FL_COMPRESS 1     /* TRACECMD_SEC_FL_COMPRESS */
#define HEADER 16             /* id (2), flags (2), description (4), size (8) */
/* init_metadata_strings() reallocs the strings by a size first: over the address space that
 * fails, and the walk goes on after the header (it never reads the section) */
#define ALLOC_FAILS (1ULL << 47)

static bool read_num(const struct dat_sections *s, struct dat_window *w, uint64_t pos, int bytes,
		     uint64_t *v)
{
	uint8_t b[8];

	if (dat_window_pread(w, b, (size_t)bytes, pos) != bytes)
		return false;
	*v = dat_layout_get_num(b, bytes, s->big_endian);
	return true;
}

/* The metadata strings of the header at @pos, read: where the walk reads its next header.
 * Compressed ones are taken to inflate (else the walk ends there): a loop through strings
 * that do not is refused too, as the corrupt file it is. */
static bool after_strings(const struct dat_sections *s, struct dat_window *w, uint64_t pos,
			  uint64_t flags, uint64_t size, uint64_t *next)
{
	uint64_t left = s->file_size - pos - HEADER, csize, rsize;

	if (flags & SEC_FL_COMPRESS) {
		/* tracecmd_uncompress_block(): compressed and raw sizes (4 bytes each), then
		 * the compressed bytes; without a compression, the raw size read as is */
		if (left < 8 || !read_num(s, w, pos + HEADER, 4, &csize) ||
		    !read_num(s, w, pos + HEADER + 4, 4, &rsize))
			return false;
		if (s->inflates) {
			*next = pos + HEADER + 8 + csize;
			return csize <= left - 8;
		}
		size = rsize;
	}
	if (size >= ALLOC_FAILS) {
		*next = pos + HEADER;
		return true;
	}
	*next = pos + HEADER + size;
	return size <= left;
}

/* The header the walk reads after the one at @pos; Return: false where the walk ends. */
static bool next_header(const struct dat_sections *s, struct dat_window *w, uint64_t pos,
			uint64_t *next)
{
	uint64_t id, flags, size;

	if (pos > s->file_size || s->file_size - pos < HEADER || !read_num(s, w, pos, 2, &id) ||
	    !read_num(s, w, pos + 2, 2, &flags) || !read_num(s, w, pos + 8, 8, &size))
		return false;
	if (id == SEC_STRINGS)
		return after_strings(s, w, pos, flags, size, next);
	/* lseek(size, SEEK_CUR): an off_t, so a size of 2^63 or more goes back (modulo 2^64
	 * here: a result before the file's start is past its end, and the walk ends there too) */
	*next = pos + HEADER + size;
	return *next <= s->file_size && s->file_size - *next >= HEADER;
}

/* On the loop that contains @pos: the header whose size goes back, and where to. */
static void loop_back(const struct dat_sections *s, struct dat_window *w, uint64_t pos,
		      uint64_t *at, uint64_t *to)
{
	uint64_t p = pos, next;

	do {
		next_header(s, w, p, &next);
		if (next <= p) {
			*at = p;
			*to = next;
			return;
		}
		p = next;
	} while (p != pos);
}

bool dat_sections_loop(const struct dat_sections *s, uint64_t start, uint64_t *at, uint64_t *to)
{
	struct dat_window w = { .fd = s->fd }; /* the headers are a few bytes each */
	uint64_t tortoise = start, hare, power = 1, len = 1;

	if (!next_header(s, &w, start, &hare))
		return false;
	while (tortoise != hare) {
		if (power == len) {
			tortoise = hare;
			power *= 2;
			len = 0;
		}
		if (!next_header(s, &w, hare, &hare))
			return false;
		len++;
	}
	loop_back(s, &w, hare, at, to);
	return true;
}
