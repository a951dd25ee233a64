/* SPDX-License-Identifier: GPL-2.0-only */
/* trace_dat_direct.h - A trace.dat read with libtraceevent alone: its event formats parsed into
 * a tep handle, its ring-buffer pages read as kbuffer reads them (dat_page.c's cursor: calls
 * into Debian's libtraceevent, built without optimization, were ~30% of stat's CPU time),
 * v7's compressed chunks inflated with libzstd or zlib, as libtracecmd does.
 *
 * What libtracecmd's tracecmd_open() and tracecmd_read_data() do for such a file, without
 * what reading records does not need (kallsyms, printk formats, cmdlines: most of opening a
 * file), without inflating all CPU data before the first record (libtracecmd 1.3.1 does, into
 * memory or a temporary file: memory grew with the trace) and without its allocation and page
 * bookkeeping per record (most of reading one): bench/readers.sh, bench/replay.sh.
 * lib/trace_dat.c uses it only where the two read the same records (dat_direct_usable()),
 * libtracecmd otherwise; check_trace_dat holds the two to one stream.
 */
#ifndef VPMC_TRACE_DAT_DIRECT_H
#define VPMC_TRACE_DAT_DIRECT_H

#include <stdbool.h>

#include <event-parse.h>

#include "dat_layout.h"

struct dat_direct;

/**
 * dat_direct_usable() - Whether this module reads @l's records as libtracecmd 1.3.1 would.
 * @l: a walked layout (dat_layout_read() returned 0)
 *
 * True for v6 and v7 flyrecord files whose options do not move time stamps (libtracecmd's
 * timestamp_calc() applies OFFSET, DATE, TSC2NSEC and a guest's TIME_SHIFT, which this reader
 * leaves out), whose sections and chunks are uncompressed or zstd/zlib, whose options were all
 * walked (none in a compressed section) and whose CPUs are numbered in increasing order (records
 * then merge as libtracecmd, which indexes CPUs by number, merges them). Other files go to
 * libtracecmd.
 */
bool dat_direct_usable(const struct dat_layout *l);

/**
 * dat_direct_page_format() - The ring-buffer pages' format as libtracecmd's init_cpu_data()
 * gives it to kbuffer: the commit word's size and the old format, from header_page's text
 * (parsed by libtraceevent, as dat_direct_tep() does), the byte order from the file's.
 * @l: from dat_layout_read()
 * @f: filled
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int dat_direct_page_format(const struct dat_layout *l, struct dat_page_format *f);

/**
 * dat_direct_tep() - The file's event formats, parsed as libtracecmd's read_header_files(),
 * read_ftrace_files() and read_event_files() parse them.
 * @l: a layout for which dat_direct_usable()
 * @path: the file, for messages
 * @out: set on success: tep_free() it
 * @err: on failure, "PATH: what is wrong"
 *
 * The file's byte order, long size, page size and CPU count are set as tracecmd_open() sets
 * them. A header_page without an 8-byte time stamp is refused, as libtracecmd's
 * update_page_info() refuses it. libtraceevent may crash on a mangled format: lib/trace_dat.c
 * calls this in a child process first.
 *
 * Return: 0, VPMC_ERR_PARSE (the formats cannot be read: a format over 16 MiB or a system
 * name over 255 bytes), or VPMC_ERR_NOMEM.
 */
int dat_direct_tep(const struct dat_layout *l, const char *path, struct tep_handle **out,
		   struct vpmc__errbuf *err);

/**
 * dat_direct_open() - Start reading every CPU of @l from its first page.
 * @out: set on success
 * @l: a layout for which dat_direct_usable(); it must outlive the reader (its fd is read)
 * @tep: from dat_direct_tep(): the ring buffer's long size (header_page's commit),
 *       byte order and old format, as libtracecmd's init_cpu_data() takes them
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int dat_direct_open(struct dat_direct **out, const struct dat_layout *l, struct tep_handle *tep);

/* dat_direct_read(): a compressed chunk or a page is corrupt (see dat_direct_loss()). */
#define DAT_DIRECT_CORRUPT (-100)

/**
 * dat_direct_read() - CPU @cpu's next record, as tracecmd_peek_data() makes it.
 * @p: from dat_direct_open()
 * @cpu: index into the layout's CPUs
 * @r: filled: ts (ns, the page's clock), size, data (valid until the next call for @cpu),
 *     offset (file offset; compressed data: offset in the CPU's data inflated), cpu (its
 *     number),
 *     missed_events (kbuffer_missed_events(): -1 unknown count)
 *
 * Return: 1 (@r filled), 0 (the CPU's data ends), VPMC_ERR_IO (the file cannot be read),
 * VPMC_ERR_NOMEM, or DAT_DIRECT_CORRUPT (a chunk does not inflate, or a page holds more than a
 * page, as libtracecmd's update_page_info() refuses it: the CPU's records end there). After an
 * error the CPU reads as ended.
 */
int dat_direct_read(struct dat_direct *p, int cpu, struct tep_record *r);

/* What a read last failed on with DAT_DIRECT_CORRUPT: a chunk that does not inflate, a page
 * whose data size runs past it, or a page whose events run in a loop. */
struct dat_direct_loss {
	int cpu;
	uint32_t chunk, chunks;  /* the chunk's number (from 1) of the CPU's chunks (compressed) */
	uint64_t at;             /* the chunk's file offset (compressed) */
	uint64_t data_off;       /* where its pages, or the page, start in the CPU's data (file
				  * offsets, or offsets in the data inflated) */
	int page_bytes;          /* a bad page: the data size it claims; 0: a bad chunk */
	bool loop;               /* a bad page: an event's length does not move past it, so
				  * kbuffer would read the page's events again and again */
	bool endless;            /* a bad page: its events loop with no record in them, which
				  * kbuffer would walk forever (dat_page_check()) */
};

const struct dat_direct_loss *dat_direct_loss(const struct dat_direct *p);

/* Free; NULL is a no-op. */
void dat_direct_close(struct dat_direct *p);

#endif /* VPMC_TRACE_DAT_DIRECT_H */
