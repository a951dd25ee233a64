/* SPDX-License-Identifier: GPL-2.0-only */
/* trace_dat.h - trace.dat (trace-cmd's binary format) as a stream of kvm records, via
 * libtraceevent (trace_dat_direct.c) or libtracecmd.
 *
 * Built from trace_dat.c when libtracecmd is available, from trace_dat_none.c otherwise (every
 * call then fails with VPMC_ERR_NOSUPPORT), chosen by the automake conditional.
 */
#ifndef VPMC_TRACE_DAT_H
#define VPMC_TRACE_DAT_H

#include "record.h"
#include "internal.h"

struct trace_dat;

/**
 * trace_dat_open() - Open a trace.dat file, without host plugins (TRACECMD_FL_LOAD_NO_PLUGINS).
 * @out: set on success only
 * @path: the file
 * @isolate: open it in a forked child first (vpmc_reader_opts.isolate_dat)
 * @err: on failure, "PATH: why"
 *
 * The file's layout is checked first (lib/trace/dat_layout.c). Plain and zstd/zlib v6/v7
 * files whose options leave time stamps alone are read by dat_direct.c, the others by
 * libtracecmd (tracecmd_open()). With @isolate the file is opened once in a child process
 * first: a trace.dat that crashes libtracecmd or libtraceevent is an error, not a crash.
 * Without it the library never forks.
 *
 * Return: 0; VPMC_ERR_IO (cannot open or read @path, or no child process), VPMC_ERR_PARSE
 * (truncated or corrupt, or libtracecmd refuses it, or it crashes in the child), VPMC_ERR_NOMEM,
 * or VPMC_ERR_NOSUPPORT (built without libtracecmd).
 */
int trace_dat_open(struct trace_dat **out, const char *path, bool isolate,
		   struct vpmc__errbuf *err);

/* trace_dat_next(): a CPU's records stopped before its data did. */
#define TRACE_DAT_UNREAD 2
/* trace_dat_next(): a record cannot be read (an event id the file does not describe, a record
 * shorter than its format, a format without a field the kind needs); it is skipped. */
#define TRACE_DAT_BAD_RECORD 3

/**
 * trace_dat_next() - The next record of all CPUs, in timestamp order (ties: lower CPU first).
 * @d: from trace_dat_open()
 * @rec: filled from the tracepoint's fields, as trace_text.c fills it from the text; a
 *       KVM_REC_LOST record (lost = the count, 0 if unknown) comes before a record after
 *       which the ring buffer reported dropped events
 * @err: on failure, "PATH: cpu N ts T: what"; on TRACE_DAT_UNREAD, "PATH: cpu N: records
 *       stop at ts T, on page P of M of the CPU's data; " then what was lost: "its compressed
 *       chunk C of N (byte B) does not inflate (zstd): K pages from page P on lost" (or "its
 *       page P holds N bytes, more than a page (S): ..."), or with libtracecmd "libtracecmd
 *       could not read the K pages with data after it (...)"; "cpu N: no records: ..." when
 *       none came before; on TRACE_DAT_BAD_RECORD "PATH: cpu N ts T: what"
 *
 * Return: 1 (@rec filled), 0 (end of the trace), TRACE_DAT_UNREAD (the rest of one CPU's data
 * cannot be read: a compressed chunk that does not inflate, or a page libtracecmd gives up on;
 * @rec not filled; that CPU is done, the next call goes on with the others),
 * TRACE_DAT_BAD_RECORD (that record skipped, @rec not filled; the next call goes on),
 * VPMC_ERR_IO or VPMC_ERR_NOMEM.
 */
int trace_dat_next(struct trace_dat *d, struct kvm_record *rec, struct vpmc__errbuf *err);

/* The ring-buffer pages lost so far (TRACE_DAT_UNREAD): with data, or in chunks not inflated. */
uint64_t trace_dat_unread_pages(const struct trace_dat *d);

/**
 * trace_dat_progress() - How much of the CPUs' ring-buffer data has been read, for a progress
 * line: each CPU counts up to its last record read.
 * @d: from trace_dat_open()
 * @done: bytes of data before each CPU's last record read, summed
 * @total: bytes of data of all CPUs (inflated for compressed data); 0 if unknown (the layout
 *         does not number the records: libtracecmd reads the file another way)
 */
void trace_dat_progress(const struct trace_dat *d, uint64_t *done, uint64_t *total);

/* Close; NULL is a no-op. */
void trace_dat_close(struct trace_dat *d);

#endif /* VPMC_TRACE_DAT_H */
