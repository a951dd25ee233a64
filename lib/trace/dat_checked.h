/* SPDX-License-Identifier: GPL-2.0-only */
/* dat_checked.h - The trace.dat files this process already opened in the crash probe's child
 * (dat.c, probe_open()) without a crash.
 *
 * A command opens its trace twice: a first reader finds the vendor (vpmcsim's probe), the
 * second replays. The second child, a fork and a parse of every event format (5-10 ms of a
 * startup of 35 ms), would only repeat the first's verdict: an unchanged file is opened the
 * same way. A file is the same one while its device, inode, size, modification and
 * status-change times are (a rewrite or truncation changes the times).
 */
#ifndef VPMC_TRACE_DAT_CHECKED_H
#define VPMC_TRACE_DAT_CHECKED_H

#include <stdbool.h>
#include <sys/stat.h>

/* Which file an open trace.dat is, while it is unchanged. */
struct dat_file_id {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
};

/**
 * dat_file_id() - Which file is open on @fd, as it is now.
 * @fd: an open file
 * @id: set to its device, inode, size, modification and status-change times
 * Return: true, or false if fstat(2) fails.
 */
bool dat_file_id(int fd, struct dat_file_id *id);

/**
 * dat_same_file() - Whether @a and @b (dat_file_id()) are one file, unchanged.
 * @a: a file's id
 * @b: another
 * Return: true if so.
 */
bool dat_same_file(const struct dat_file_id *a, const struct dat_file_id *b);

/**
 * dat_checked() - Whether the file open on @fd was checked by this process as it is now.
 * @fd: an open trace.dat
 * Return: true if so; false if not, or if fstat(2) fails.
 */
bool dat_checked(int fd);

/**
 * dat_checked_add() - Remember the file open on @fd as checked (the probe child did not crash).
 * @fd: an open trace.dat
 */
void dat_checked_add(int fd);

#endif /* VPMC_TRACE_DAT_CHECKED_H */
