/* SPDX-License-Identifier: GPL-2.0-only */
/* dat_window.h - Reads of a trace.dat's headers through one buffered window of the file.
 *
 * The layout walk (dat_layout.c, dat_sections.c) reads numbers of 1 to 8 bytes, tags and
 * strings one after another: a pread(2) each was most of a walk's time (a third of the fuzzer's
 * CPU once its probes stopped forking, issue 16). A window of the file read once serves them.
 * A window over memory serves the same reads from a block inflated (a compressed options
 * section).
 */
#ifndef VPMC_TRACE_DAT_WINDOW_H
#define VPMC_TRACE_DAT_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define DAT_WINDOW_SIZE 4096

struct dat_window {
	int fd;
	const uint8_t *mem; /* not NULL: the reads are of these mem_size bytes, not of fd */
	size_t mem_size;
	bool filled;  /* buf holds a read of the file */
	uint64_t off; /* where it begins in the file */
	size_t len;   /* bytes read there: fewer than DAT_WINDOW_SIZE if the file ends there */
	uint8_t buf[DAT_WINDOW_SIZE];
};

/**
 * dat_window_pread() - pread(2) of @w's file, from the window where it holds the bytes.
 * @w: its fd set, filled false at first; or its mem and mem_size set
 * @dst: where the bytes go
 * @n: bytes wanted
 * @pos: byte offset in the file
 *
 * The file must not change while @w is used (a trace.dat being walked).
 * Return: what pread(2) returns: the bytes read (fewer than @n at the end of the file or of
 * mem), or -1.
 */
ssize_t dat_window_pread(struct dat_window *w, void *dst, size_t n, uint64_t pos);

#endif
