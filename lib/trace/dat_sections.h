/* SPDX-License-Identifier: GPL-2.0-only */
/* dat_sections.h - A v7 trace.dat's sections walked one after another, as libtracecmd's
 * read_metadata_strings() walks them when it opens the file.
 *
 * tracecmd_alloc_fd() looks for the metadata strings from the byte after the header's first
 * options offset: it reads a 16-byte section header and moves on by the size it gives,
 * lseek(size, SEEK_CUR), until a read or a seek fails. A size that takes it back to a header
 * it read before makes it read the same sections for ever (a hang in tracecmd_open(), inside
 * the probe's child too). A trace-cmd file's sections follow each other to its end.
 */
#ifndef VPMC_TRACE_DAT_SECTIONS_H
#define VPMC_TRACE_DAT_SECTIONS_H

#include <stdbool.h>
#include <stdint.h>

/* The file as read_metadata_strings() sees it. */
struct dat_sections {
	int fd;
	uint64_t file_size;
	bool big_endian;
	bool inflates;   /* a compression is named ("none": compressed sections are read raw) */
};

/**
 * dat_sections_loop() - Whether read_metadata_strings() walks a v7 file's sections for ever.
 * @s: the file
 * @start: where the walk starts (bytes from the file's start: after the first-options offset)
 * @at: on a loop, the section header whose size takes the walk back (byte offset)
 * @to: on a loop, where that size takes it (byte offset)
 *
 * Return: true if the walk comes back to a header it read before.
 */
bool dat_sections_loop(const struct dat_sections *s, uint64_t start, uint64_t *at, uint64_t *to);

#endif
