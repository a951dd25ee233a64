/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc/reader.h - Trace readers over .vtr, kvm tracepoint text and trace.dat; the .vtr writer. */
#ifndef VPMC_PUBLIC_READER_H
#define VPMC_PUBLIC_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <vpmc/event.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Trace readers: one pull interface over .vtr, kvm tracepoint text and trace.dat.
 */
/* What an exit's span contains (.vtr "!gaps"; trace-format.md). */
enum vpmc_gaps {
	VPMC_GAPS_RECORDED, /* whatever the recording host paid (also: no directive) */
	VPMC_GAPS_BASE,     /* only the cost of a host that pays nothing for accounting */
};

enum vpmc_format {
	VPMC_FORMAT_AUTO, /* by content: trace.dat magic, "!vpmcsim-trace", else text */
	VPMC_FORMAT_VTR,  /* native .vtr */
	VPMC_FORMAT_TEXT, /* kvm tracepoint text: trace-cmd report, raw ftrace, perf script */
	VPMC_FORMAT_DAT,  /* trace.dat through libtracecmd */
};

/**
 * vpmc_format_parse() - "auto", "vtr", "text" or "dat".
 * @out: set on success only
 * @s: the name
 *
 * Return: 0, or VPMC_ERR_INVAL.
 */
int vpmc_format_parse(enum vpmc_format *out, const char *s);

struct vpmc_reader_opts {
	enum vpmc_format format;
	bool lenient;          /* malformed lines (and trace.dat pages libtracecmd cannot read)
				* become counted skips with a warning instead of errors */
	bool isolate_dat;      /* open trace.dat in a forked probe first, so that a crash in
				* libtracecmd on a corrupt file becomes VPMC_ERR_PARSE (once per
				* file and process while the file is unchanged) */
	bool accesses;         /* also return VPMC_EV_MMIO and VPMC_EV_PIO (vpmcsim stat --event) */
	uint64_t guest_ips;    /* guest instructions per second of guest-mode time; 0 = none */
	unsigned int guest_branch_permille; /* branches per 1000 synthesized guest instructions */
	bool has_pmu;          /* pmu overrides what the trace says (or the defaults) */
	struct vpmc_pmu_config pmu;
	uint32_t host_kernel;  /* VPMC_KERNEL(); nonzero (and no has_pmu): replaces a .vtr's !host
				* only, its !pmu stays */
	bool nested;           /* also return the nested events (VPMC_EV_NEXIT...; vpmc/nested.h),
				* imported for "vpmcsim nested" (vpmcsim(1), NESTED) */
	bool nested_events;    /* return the nested events, imported as for the vPMU commands
				* (vpmcsim convert writes them; vpmcsim(1), IMPORTING) */
	bool expect;           /* also return a .vtr's "!expect" lines as VPMC_EV_EXPECT events
				* (otherwise they are read, checked and skipped) */
};

/* Defaults: AUTO, strict, no fork (isolate_dat false), guest_ips and permille as documented
 * in vpmcsim(1), no override. */
void vpmc_reader_opts_default(struct vpmc_reader_opts *o);

struct vpmc_reader;

/* A reader with @opts (copied); NULL = defaults. Return: 0 or VPMC_ERR_NOMEM. */
int vpmc_reader_new(struct vpmc_reader **out, const struct vpmc_reader_opts *opts);

/* Open @path ("-" = standard input, text formats only). A .vtr is read up to its first event,
 * so that vpmc_reader_pmu() and vpmc_reader_source() give its directives (!pmu, !host,
 * !source) right after open; an error in those lines is returned by the first
 * vpmc_reader_next(). Return: 0, VPMC_ERR_IO, VPMC_ERR_PARSE (header; a corrupt trace.dat; a
 * trace.dat on standard input), VPMC_ERR_NOSUPPORT (trace.dat without libtracecmd);
 * vpmc_reader_error() says why. */
int vpmc_reader_open(struct vpmc_reader *r, const char *path);

/* Open an in-memory buffer (copied) named @name in messages; not for trace.dat. */
int vpmc_reader_open_mem(struct vpmc_reader *r, const char *name, const void *data, size_t len);

/* Next event. Return: 1 (event in *ev), 0 (end of trace), or a negative error with
 * vpmc_reader_error() set to "FILE:LINE[:COL]: what was expected". An input that ends without
 * a single record is VPMC_ERR_PARSE ("FILE: no trace records ..."). A line longer than 4096
 * bytes is an error as soon as that is known; in lenient mode it is skipped, up to 1 MiB. */
int vpmc_reader_next(struct vpmc_reader *r, struct vpmc_event *ev);

/* The last error's message, "" if none. */
const char *vpmc_reader_error(const struct vpmc_reader *r);

/* Where the last event came from, into @buf: "FILE:LINE" (text, .vtr: the line of the record
 * that completed it), "FILE: record N" (trace.dat). */
void vpmc_reader_where(const struct vpmc_reader *r, char *buf, size_t len);

/**
 * vpmc_reader_mark() - Where the reader stands, as a number vpmc_reader_where_at() can name
 * later (parallel replay: an event's place, kept while the reader reads on).
 * @r: reader
 *
 * Return: the line number of the last line read (text formats), or the records read (trace.dat).
 */
uint64_t vpmc_reader_mark(const struct vpmc_reader *r);

/**
 * vpmc_reader_where_at() - vpmc_reader_where() as it was at @mark.
 * @r: reader
 * @mark: a vpmc_reader_mark() of @r
 * @buf: set to "FILE:LINE" or "FILE: record N"
 * @len: its size
 */
void vpmc_reader_where_at(const struct vpmc_reader *r, uint64_t mark, char *buf, size_t len);

/**
 * vpmc_reader_progress() - How much of the input has been read, for a progress line.
 * @r: reader
 * @done: set to the units read so far
 * @total: set to the units of the whole input; 0 if not known (standard input, a pipe; a
 *         trace.dat whose records libtracecmd numbers another way)
 *
 * Units: bytes of the file (text, .vtr); for a trace.dat, bytes of the CPUs' ring-buffer data
 * (inflated for compressed data), each CPU counted up to its last record read. Only
 * @done / @total, the share read, means something across formats.
 */
void vpmc_reader_progress(const struct vpmc_reader *r, uint64_t *done, uint64_t *total);

/* vpmc_reader_set_progress()'s callback comes every this many events. */
#define VPMC_READER_PROGRESS_EVERY (1u << 14)

/**
 * vpmc_reader_set_progress() - Have @fn called while reading (a progress line).
 * @r: reader
 * @fn: called by vpmc_reader_next() every VPMC_READER_PROGRESS_EVERY events returned, on the
 *      thread that reads, with @data and @r (vpmc_reader_progress(), vpmc_reader_stats());
 *      NULL: never
 * @data: passed to @fn
 */
void vpmc_reader_set_progress(struct vpmc_reader *r,
			      void (*fn)(void *data, const struct vpmc_reader *r), void *data);

/* Format actually read (after auto-detection); PMU configuration in effect (after open). */
enum vpmc_format vpmc_reader_format(const struct vpmc_reader *r);
const struct vpmc_pmu_config *vpmc_reader_pmu(const struct vpmc_reader *r);

struct vpmc_reader_stats {
	uint64_t lines;             /* input lines (text formats) */
	uint64_t records;           /* tracepoint records or .vtr event lines read */
	uint64_t events;            /* native events returned */
	uint64_t skipped_lines;     /* malformed lines (trace.dat: records) skipped (lenient) */
	uint64_t unknown_records;   /* records of events the importer does not use */
	uint64_t lost_events;       /* events the tracer reported lost (LOST EVENTS markers) */
	uint64_t lost_markers;      /* number of such markers */
	uint64_t synthesized_entries; /* entries added because the trace has no kvm_entry */
	bool truncated_tail;        /* the last line was cut (warning, not error) */
	uint64_t comment_lines;     /* lines that are no events: comments, headers ("cpus=2"),
				     * directives, blank and "..." elision lines */
	uint64_t unread_pages;      /* trace.dat: ring-buffer pages with data that libtracecmd
				     * could not read (corrupt; lenient: skipped with a warning) */
	uint64_t time_backwards;    /* kvm records whose time stamp was before their vCPU's
				     * previous one (taken as that one; more than 1 s back is an
				     * error unless lenient) */
	uint64_t partial_lines;     /* text: records libtraceevent printed with "CAN'T FIND
				     * FIELD" in place of some fields; read from the others */
	uint64_t unnamed_reasons;   /* exits whose reason is no VMX or SVM exit-reason name */
	char first_unnamed_reason[VPMC_REASON_MAX]; /* the first of them, "" if none */
};
void vpmc_reader_stats(const struct vpmc_reader *r, struct vpmc_reader_stats *st);

/* Unknown (unused) event names with their counts, in first-seen order. */
size_t vpmc_reader_nr_unknown(const struct vpmc_reader *r);
int vpmc_reader_unknown(const struct vpmc_reader *r, size_t i, const char **name,
			uint64_t *count);

/* The first few warnings ("FILE:LINE: ..."), in the order they happened: the first 10 lines
 * skipped in lenient mode, the first 5 time stamps that went back, a cut last line. */
size_t vpmc_reader_nr_warnings(const struct vpmc_reader *r);
const char *vpmc_reader_warning(const struct vpmc_reader *r, size_t i);

/**
 * vpmc_reader_source() - Where the events come from, for a converter's "!source" line.
 * @r: an open reader
 * @kind: set to a .vtr's "!source kind=" (NULL if it has none), or the input's layout:
 *        "trace.dat", "ftrace" (irq-flags column), "trace-cmd" (report), "perf" (perf script),
 *        "text" (any other text)
 * @file: set to a .vtr's "!source file=" (NULL if none), else the path given to open ("-")
 *
 * Return: 0, or VPMC_ERR_INVAL if @r is not open.
 */
int vpmc_reader_source(const struct vpmc_reader *r, const char **kind, const char **file);

/**
 * vpmc_reader_vendor_from() - What in the trace, as far as read, says the guest PMU's vendor:
 * a .vtr's !pmu; else the first kvm_exit (or kvm_nested_vmexit, L0's record of an L2 exit) with
 * an isa field (trace.dat, trace-cmd report -R) or with an exit reason only VMX or only SVM
 * prints, in any text layout.
 * @r: reader
 * @vendor: if not NULL and something did, set to the vendor it says
 *
 * Return: a description ("kvm_exit isa=2 (SVM) at record 12", "SVM exit reason 'EXIT_MSR' at
 * line 9"), "" if nothing has yet; owned by @r.
 */
const char *vpmc_reader_vendor_from(const struct vpmc_reader *r, enum vpmc_vendor *vendor);

/**
 * vpmc_reader_host_from() - Whether the trace says the host kernel: a .vtr's !host.
 * @r: reader
 *
 * Return: "!host in the .vtr", or "" if it does not; static.
 */
const char *vpmc_reader_host_from(const struct vpmc_reader *r);

/**
 * vpmc_reader_gen() - A .vtr's "!gen" lines (provenance of a generated trace).
 * @r: an open reader
 *
 * Return: the lines without "!gen ", each ending in '\n', in file order; NULL if none.
 */
const char *vpmc_reader_gen(const struct vpmc_reader *r);

/**
 * vpmc_reader_gaps() - A .vtr's "!gaps" directive.
 * @r: an open reader
 * @given: if not NULL, set to whether the directive was there
 *
 * Return: VPMC_GAPS_BASE or VPMC_GAPS_RECORDED (the meaning without the directive).
 */
enum vpmc_gaps vpmc_reader_gaps(const struct vpmc_reader *r, bool *given);

/* Close and free. */
void vpmc_reader_free(struct vpmc_reader *r);

/* The KVM function named by an "!expect ... by=FUNCTION" (VPMC_EV_EXPECT's vcpu field), or NULL
 * for an index the reader never returns. */
const char *vpmc_expect_decider(unsigned int i);

/* ---------------------------------------------------------------------------------------------
 * Writing .vtr (trace-format.md): the canonical form, one line per event, which the reader
 * reads back to the same events (and a canonical file is written back byte for byte).
 */

/**
 * vpmc_vtr_write_header() - Write "!vpmcsim-trace 2", "!pmu" with every key of the vendor,
 * "!host kernel=MAJOR.MINOR" and, if @source_kind is not NULL, "!source kind=K [file=F]".
 * @out: output stream
 * @pmu: the configuration (host_kernel gives !host)
 * @source_kind: or NULL; white space, '#' and control bytes are written as '_'
 * @source_file: or NULL; the same
 *
 * Version 2 promises an "!end" line: finish the file with vpmc_vtr_write_end().
 *
 * Return: 0, VPMC_ERR_INVAL (NULL @out or @pmu), or VPMC_ERR_IO (the stream has an error).
 */
int vpmc_vtr_write_header(FILE *out, const struct vpmc_pmu_config *pmu, const char *source_kind,
			  const char *source_file);

/* "!source kind=K [file=F]" alone, as vpmc_vtr_write_header() writes it (for a "!nested" to go
 * before it: vpmc/nested.h). Return: 0, VPMC_ERR_INVAL (NULL @out or @kind), or VPMC_ERR_IO. */
int vpmc_vtr_write_source(FILE *out, const char *kind, const char *file);

/**
 * vpmc_vtr_write_gen() - Write "!gen LINE" for each line of @gen and, if @gaps_given,
 * "!gaps base|recorded", after vpmc_vtr_write_header().
 * @out: output stream
 * @gen: lines as vpmc_reader_gen() gives them, or NULL
 * @gaps_given: write !gaps
 * @gaps: its value
 *
 * Return: 0, or VPMC_ERR_IO.
 */
int vpmc_vtr_write_gen(FILE *out, const char *gen, bool gaps_given, enum vpmc_gaps gaps);

/**
 * vpmc_vtr_write_event() - Write one event line: "TIME VCPU EVENT ARGS" with MSR indices,
 * values, ECX and vectors in 0x-hex, counts in decimal, optional arguments only when set
 * ("br=" when non-zero, "cpl=" unless VPMC_CPL_KEEP, rdmsr/rdpmc VALUE when has_value).
 * @out: output stream
 * @ev: the event
 *
 * Return: 0, VPMC_ERR_INVAL (an event the format cannot hold: type, vcpu >= 4096, CPL, an exit
 * reason that is empty, too long or not printable, br > insn, vector > 255, LVTPC > 32 bits),
 * or VPMC_ERR_IO.
 */
int vpmc_vtr_write_event(FILE *out, const struct vpmc_event *ev);

/**
 * vpmc_vtr_write_end() - Write the last line, "!end events=N", which tells a whole file from one
 * cut at a line boundary (the reader refuses a version 2 file without it).
 * @out: output stream
 * @events: the event lines written (vpmc_vtr_write_event() calls that returned 0)
 *
 * Return: 0, VPMC_ERR_INVAL (NULL @out), or VPMC_ERR_IO (the stream has an error).
 */
int vpmc_vtr_write_end(FILE *out, uint64_t events);

#ifdef __cplusplus
}
#endif

#endif /* VPMC_PUBLIC_READER_H */
