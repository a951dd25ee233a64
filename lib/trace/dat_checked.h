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
