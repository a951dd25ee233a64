/* SPDX-License-Identifier: GPL-2.0-only */
/* trace_dat_layout.h - What a trace.dat says about its own layout, walked before libtracecmd.
 *
 * libtracecmd 1.3.1 trusts the sizes and offsets a trace.dat gives; lib/trace_dat.c checks them
 * here first (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)) and keeps where each CPU's data lies,
 * to tell the end of a CPU's records from libtracecmd giving up on a corrupt page.
 */
#ifndef VPMC_TRACE_DAT_LAYOUT_H
#define VPMC_TRACE_DAT_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "internal.h"
#include "dat_page.h"

/* kbuffer: the data size in a ring-buffer page header's commit word (the bits above are flags:
 * 31 events were missed, 30 their count is stored after the data). */
#define DAT_COMMIT_MASK ((1ULL << 27) - 1)

/* The @bytes-byte number (1 to 8) at @b, in the file's byte order. */
uint64_t dat_layout_get_num(const uint8_t *b, int bytes, bool big_endian);

/* One CPU's ring-buffer data. */
struct dat_cpu_data {
	int id;                       /* the CPU number records carry (v7: the BUFFER option's) */
	uint64_t file_off, file_size; /* where the data is in the file (compressed or not) */
	uint64_t base, size;          /* the same pages as libtracecmd numbers them in a record's
				       * tep_record.offset: the file offsets, or for compressed
				       * data the offsets in the uncompressed data */
};

/* Where a run of metadata is: header_page and header_event; the ftrace formats (a count (4
 * bytes), then per event size (8) and text); the event formats (a count of systems (4), then
 * per system its name, a count (4), per event size (8) and text). v6: in a row in the file; v7:
 * one section each, compressed as one block (compressed size (4), size (4), data) or not. */
struct dat_meta {
	bool found;
	bool compressed;
	uint64_t off, size;
};

struct dat_layout {
	int fd;
	uint64_t file_size;
	int version;                  /* 6 or 7; 0: another version, not walked */
	bool big_endian;
	int long_size;                /* 4 or 8 */
	uint64_t page_size;
	char compression[16];         /* v7: the header's compression name ("zstd", "none") */
	bool compressed;              /* the CPU data is in compressed chunks */
	uint64_t max_chunk;           /* compressed: the largest chunk, bytes inflated */
	int nr_cpus;                  /* entries of cpu[]; 0 if unknown (a latency trace, or v7
				       * options we cannot read: compressed) */
	struct dat_cpu_data *cpu;     /* indexed as libtracecmd's CPUs */
	uint64_t options;             /* bit N set if option id N is in the file (bit 63 also
				       * for ids over 62) */
	bool options_unknown;         /* v7: a compressed options section that does not inflate
				       * to the size it gives (not walked: libtracecmd's) */
	struct dat_meta header_info, ftrace_formats, event_formats;
};

/**
 * dat_layout_read() - Walk a trace.dat's headers, sections and CPU data before libtracecmd.
 * @l: filled on success; dat_layout_free() it in every case
 * @path: the file
 * @err: on failure, "PATH: what is wrong"
 *
 * Checks what libtracecmd trusts: every block and section inside the file, each CPU's data
 * inside the file, every compressed chunk inside its CPU's data. Pages: dat_layout_check_pages().
 *
 * Return: 0; VPMC_ERR_IO (cannot open or read @path), VPMC_ERR_PARSE (truncated or corrupt),
 * or VPMC_ERR_NOMEM.
 */
int dat_layout_read(struct dat_layout *l, const char *path, struct vpmc__errbuf *err);

/**
 * dat_layout_unread_pages() - Pages of a CPU's data from @from on that hold data.
 * @l: from dat_layout_read()
 * @cpu: index into @l->cpu
 * @from: an offset as libtracecmd numbers them (struct dat_cpu_data.base), page-aligned
 *
 * Return: the number of pages in [@from, end of the CPU's data) whose commit is not 0; for
 * compressed data (the pages cannot be seen without inflating them) every page there.
 */
uint64_t dat_layout_unread_pages(const struct dat_layout *l, int cpu, uint64_t from);

/**
 * dat_layout_check_pages() - Every ring-buffer page's commit (data size) within a page, for
 * uncompressed data that libtracecmd reads: it rejects a bigger one in init_cpu() and crashes in
 * its cleanup, or past the first page ends that CPU's records early without a word. And no
 * read of kbuffer's past a page, or a loop of its without end (dat_page_check()): libtracecmd
 * hands it pages where it maps the file.
 * (trace_dat_direct.c checks each page as it reads it: a bad one ends only its CPU.)
 * @l: from dat_layout_read()
 * @f: the pages' format as libtracecmd takes it (dat_direct_page_format())
 * @path: the file, for messages
 * @err: "PATH: corrupt trace.dat: ..." naming the page
 *
 * Return: 0 (also for compressed data, whose pages cannot be seen), or VPMC_ERR_PARSE.
 */
int dat_layout_check_pages(const struct dat_layout *l, const struct dat_page_format *f,
			   const char *path, struct vpmc__errbuf *err);

/**
 * dat_layout_pread() - Read @n bytes of the walked file at @pos.
 * @l: from dat_layout_read()
 *
 * Return: true if all @n bytes were read (a read past the end of the file is false).
 */
bool dat_layout_pread(const struct dat_layout *l, uint64_t pos, void *buf, size_t n);

/* Close and free what dat_layout_read() kept, in every case it returned; @l->fd -1 if it was
 * never called. */
void dat_layout_free(struct dat_layout *l);

#endif /* VPMC_TRACE_DAT_LAYOUT_H */
