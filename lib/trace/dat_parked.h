/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dat_parked.h - The event formats of the trace.dat this process closed last, kept parsed for
 * the next open of the same file (dat.c, open_direct()).
 *
 * A command opens its trace twice: a first reader finds the vendor (vpmcsim's probe), the
 * second replays; each parsed every event format with libtraceevent (tep_parse_event(), 27 M
 * instructions on the bench's 4-vCPU trace, a seventh of what runs before a replay's threads
 * start, which -j cannot share). The second open of the file, unchanged (dat_same_file(), as
 * for dat_checked.h), takes the first's handle instead: reading only looks formats up in it,
 * so it is what a new parse would give. One handle at most is kept; a later close replaces it.
 */
#ifndef VPMC_TRACE_DAT_PARKED_H
#define VPMC_TRACE_DAT_PARKED_H

struct tep_handle;

/**
 * dat_parked_take() - The parked handle, if it was parsed from the file open on @fd as it is.
 * @fd: an open trace.dat
 * Return: the handle, now the caller's (none is parked after); NULL if there is none.
 */
struct tep_handle *dat_parked_take(int fd);

/**
 * dat_parked_put() - Park @tep, parsed from the file open on @fd, in place of any other.
 * @fd: the trace.dat @tep was parsed from, still open
 * @tep: the handle, the park's from now (freed at once if @fd's file cannot be told)
 */
void dat_parked_put(int fd, struct tep_handle *tep);

#endif /* VPMC_TRACE_DAT_PARKED_H */
