// SPDX-License-Identifier: GPL-2.0-only
/* trace_dat_layout.c - A trace.dat's layout (trace-cmd.dat.v6(5), .v7(5)), walked and checked
 * before libtracecmd reads the file.
 *
 * libtracecmd 1.3.1 mallocs the block sizes a file gives and trusts its offsets. On a block or
 * CPU data past the end of the file, or a ring-buffer page whose commit exceeds the page, it
 * fails in tracecmd_open() and then crashes in its own cleanup, or (past the first page) ends
 * that CPU's records early without a word. This walk finds those first and says what is wrong
 * and where. It reads sizes, offsets and page headers only: the text inside (event formats,
 * kallsyms) and compressed metadata sections are libtracecmd's to parse and inflate (a
 * compressed options section it inflates itself: the options say which reader may read the
 * file), and trace_dat.c opens each file in a child process first for what this walk cannot see.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat_inflate.h"
#include "dat_layout.h"
#include "dat_page.h"
#include "dat_sections.h"
#include "dat_window.h"

#define SEC_FL_COMPRESS 1           /* section flags: TRACECMD_SEC_FL_COMPRESS */
#define OPTIONS_SECTIONS_MAX 1024   /* more is a loop of "next options" offsets */
#define CHUNK_MAX (1ULL << 30)      /* trace-cmd writes chunks of 10 pages */
#define CPU_ID_MAX 8191             /* the kernel's NR_CPUS is at most 8192 */
#define OPTIONS_MAX (64U << 20)     /* an options section's block, inflated (trace-cmd: < 1 KiB) */

/* Option and section ids (trace-cmd.dat.v7(5)). */
enum {
	OPT_DONE = 0,
	OPT_BUFFER = 3,
	OPT_CPUCOUNT = 8,
	OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS,
	OPT_EVENT_FORMATS,
	OPT_KALLSYMS,
	OPT_PRINTK,
	OPT_CMDLINES,
};

struct cursor {
	struct dat_window *w; /* the file */
	uint64_t pos;
	uint64_t end;       /* the end of the file, or of the v7 section being walked */
	uint64_t file_size;
	bool big_endian, bad;
	uint64_t over_size; /* a block that runs past @end: its size, ... */
	uint64_t over_at;   /* ... and where it starts */
	uint64_t inflated;  /* not 0: the cursor walks this options section's block, inflated */
};

/* Step over @size bytes; a block past the end stops the walk. */
static void advance(struct cursor *c, uint64_t size)
{
	if (c->bad)
		return;
	if (size > c->end - c->pos) {
		c->over_size = size;
		c->over_at = c->pos;
		c->bad = true;
		return;
	}
	c->pos += size;
}

uint64_t dat_layout_get_num(const uint8_t *b, int bytes, bool big_endian)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)b[big_endian ? bytes - 1 - i : i] << (8 * i);
	return v;
}

static uint64_t num(struct cursor *c, int bytes)
{
	uint8_t b[8];

	if (c->bad || (uint64_t)bytes > c->end - c->pos ||
	    dat_window_pread(c->w, b, bytes, c->pos) != bytes) {
		c->bad = true;
		return 0;
	}
	c->pos += bytes;
	return dat_layout_get_num(b, bytes, c->big_endian);
}

/* Option @id is in the file (ids over 62 share bit 63). */
static void note_option(struct dat_layout *l, unsigned int id)
{
	l->options |= 1ULL << (id < 63 ? id : 63);
}

/* A tag of @len bytes whose first @cmp are @tag's; the cursor after it. */
static bool tag_at(struct cursor *c, const char *tag, size_t cmp, size_t len)
{
	char buf[16];

	if (c->bad || len > sizeof(buf) || len > c->end - c->pos ||
	    dat_window_pread(c->w, buf, len, c->pos) != (ssize_t)len || memcmp(buf, tag, cmp)) {
		c->bad = true;
		return false;
	}
	c->pos += len;
	return true;
}

static bool expect(struct cursor *c, const char *tag, size_t len)
{
	return tag_at(c, tag, len, len);
}

/* A tag of @len bytes that begins with @prefix, as libtracecmd's read_options_type() compares
 * "options" (strncmp(), 7 of the 10 bytes it reads). */
static bool expect_prefix(struct cursor *c, const char *prefix, size_t len)
{
	return tag_at(c, prefix, strlen(prefix), len);
}


/* Step over a NUL-terminated string; its first byte in @first (if not NULL). */
static void skip_string(struct cursor *c, char *first)
{
	char buf[64];
	ssize_t n, i;

	if (first)
		*first = 0;
	while (!c->bad) {
		n = c->end - c->pos < sizeof(buf) ? (ssize_t)(c->end - c->pos) : (ssize_t)sizeof(buf);
		n = n ? dat_window_pread(c->w, buf, n, c->pos) : 0;
		if (n <= 0) {
			c->bad = true;
			return;
		}
		if (first) {
			*first = buf[0];
			first = NULL;
		}
		for (i = 0; i < n && buf[i]; i++)
			;
		c->pos += i < n ? i + 1 : n;
		if (i < n)
			return;
	}
}

/* A string into @buf (its first @len - 1 bytes, NUL-terminated); the cursor after it. */
static void read_name(struct cursor *c, char *buf, size_t len)
{
	uint64_t left = c->end - c->pos;
	ssize_t n = c->bad ? 0 : dat_window_pread(c->w, buf, left < len - 1 ? left : len - 1, c->pos);

	buf[n > 0 ? n : 0] = '\0';
	skip_string(c, NULL);
}

/* Skip @count blocks of "size (@size_bytes) + data". */
static void skip_blocks(struct cursor *c, uint64_t count, int size_bytes)
{
	while (count-- && !c->bad)
		advance(c, num(c, size_bytes));
}

static int past_end(const struct cursor *c, const char *path, struct vpmc__errbuf *err)
{
	if (c->end == c->file_size)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: truncated or corrupt trace.dat: a block of %llu bytes at "
				       "byte %llu runs past the end of the file (%llu bytes)", path,
				       (unsigned long long)c->over_size,
				       (unsigned long long)c->over_at,
				       (unsigned long long)c->file_size);
	return vpmc__set_error(err, VPMC_ERR_PARSE,
			       "%s: corrupt trace.dat: a block of %llu bytes at byte %llu runs past "
			       "the end of its section (byte %llu)", path,
			       (unsigned long long)c->over_size, (unsigned long long)c->over_at,
			       (unsigned long long)c->end);
}

/* The metadata both versions share, v6 in a row, v7 one per section. */
static void walk_header_info(struct cursor *c)
{
	if (expect(c, "header_page", 12))
		skip_blocks(c, 1, 8);
	if (expect(c, "header_event", 13))
		skip_blocks(c, 1, 8);
}

static void walk_event_formats(struct cursor *c)
{
	uint64_t systems;

	for (systems = num(c, 4); systems-- && !c->bad;) {
		skip_string(c, NULL);
		skip_blocks(c, num(c, 4), 8);
	}
}

/* The bytes of page @p (@buf) that libtracecmd's map of the file can read: the file's, then
 * zeros to the end of the host page the file ends in (a read past that is a SIGBUS). */
static uint64_t read_page(const struct dat_layout *l, uint64_t p, uint8_t *buf)
{
	uint64_t host = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t mapped = (l->file_size + host - 1) / host * host;
	uint64_t avail = mapped - p < l->page_size ? mapped - p : l->page_size;
	uint64_t n = l->file_size - p < avail ? l->file_size - p : avail;

	if (pread(l->fd, buf, n, (off_t)p) != (ssize_t)n)
		n = 0;
	memset(buf + n, 0, avail - n);
	return avail;
}

/*
 * Every ring-buffer page's commit (data size) fits the page: libtracecmd rejects a bigger one
 * ("bad page read") in init_cpu() and crashes in the cleanup, or, past the first page, ends
 * that CPU's records early without an error. And kbuffer reads only inside each page
 * (dat_page_check()): libtracecmd hands it the page where it maps the file.
 */
static int check_pages(const struct dat_layout *l, const struct dat_page_format *f, int cpu,
		       uint8_t *buf, const char *path, struct vpmc__errbuf *err)
{
	const struct dat_cpu_data *d = &l->cpu[cpu];
	uint64_t p, commit, avail, at;
	const char *what;

	if (d->file_off % l->page_size)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: corrupt trace.dat: CPU %d's data at byte %llu does not "
				       "start on a page (%llu bytes)", path, cpu,
				       (unsigned long long)d->file_off,
				       (unsigned long long)l->page_size);
	for (p = d->file_off; p < d->file_off + d->file_size; p += l->page_size) {
		avail = read_page(l, p, buf);
		if (avail < 8 + (uint64_t)f->long_size)
			break; /* a last page cut short: libtracecmd reads what is there */
		commit = dat_layout_get_num(buf + 8, f->long_size, l->big_endian) & DAT_COMMIT_MASK;
		if (commit > l->page_size)
			return vpmc__set_error(err, VPMC_ERR_PARSE,
					       "%s: corrupt trace.dat: the ring-buffer page at byte "
					       "%llu holds %llu bytes, more than a page (%llu)", path,
					       (unsigned long long)p, (unsigned long long)commit,
					       (unsigned long long)l->page_size);
		what = dat_page_check(buf, avail, f, buf + l->page_size, &at);
		if (what == DAT_PAGE_ENDLESS)
			return vpmc__set_error(err, VPMC_ERR_PARSE,
					       "%s: corrupt trace.dat: the ring-buffer page at byte "
					       "%llu: its events loop with no record in them from byte "
					       "%llu of it (libtraceevent would walk them forever)",
					       path, (unsigned long long)p, (unsigned long long)at);
		if (what)
			return vpmc__set_error(err, VPMC_ERR_PARSE,
					       "%s: corrupt trace.dat: the ring-buffer page at byte "
					       "%llu: %s would be read past the page (byte %llu of it)",
					       path, (unsigned long long)p, what,
					       (unsigned long long)at);
	}
	return 0;
}

/* Compressed CPU data: a chunk count, then chunks of (compressed size, size, data). The CPU's
 * size in the BUFFER option leaves the 4-byte count out (trace-cmd 3.1.6 writes it so). Return
 * the uncompressed size in @size. */
static int walk_chunks(struct cursor *c, struct dat_layout *l, int cpu, uint64_t *size,
		       const char *path, struct vpmc__errbuf *err)
{
	const struct dat_cpu_data *d = &l->cpu[cpu];
	uint64_t count, i, at, cs, us;

	c->pos = d->file_off;
	c->end = d->file_off + d->file_size + 4 < c->file_size ? d->file_off + d->file_size + 4 :
								c->file_size;
	*size = 0;
	count = num(c, 4);
	for (i = 1; i <= count && !c->bad; i++) {
		at = c->pos;
		cs = num(c, 4);
		us = num(c, 4);
		advance(c, cs);
		if (c->bad)
			break;
		if (us > CHUNK_MAX)
			return vpmc__set_error(err, VPMC_ERR_PARSE,
					       "%s: corrupt trace.dat: CPU %d's compressed chunk at "
					       "byte %llu holds %llu bytes, more than %llu", path, cpu,
					       (unsigned long long)at, (unsigned long long)us,
					       CHUNK_MAX);
		*size += us;
		if (us > l->max_chunk)
			l->max_chunk = us;
	}
	if (c->bad)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: truncated or corrupt trace.dat: CPU %d's compressed data "
				       "(%llu bytes at byte %llu) ends inside chunk %llu of %llu",
				       path, cpu, (unsigned long long)(c->end - d->file_off),
				       (unsigned long long)d->file_off, (unsigned long long)i,
				       (unsigned long long)count);
	return 0;
}

/*
 * Where each CPU's data is and that it is whole. libtracecmd numbers compressed pages as if
 * the CPUs' uncompressed data followed each other from one page on, each CPU's starting on a
 * page (init_cpu_zpage(): handle->next_offset).
 */
static int check_cpu_data(struct cursor *c, struct dat_layout *l, const char *path,
			  struct vpmc__errbuf *err)
{
	uint64_t next = l->page_size, size;
	struct dat_cpu_data *d;
	int cpu, ret;

	for (cpu = 0; cpu < l->nr_cpus; cpu++) {
		d = &l->cpu[cpu];
		if (!d->file_size)
			continue;
		if (d->file_off > l->file_size || d->file_size > l->file_size - d->file_off)
			return vpmc__set_error(err, VPMC_ERR_PARSE,
					       "%s: truncated trace.dat: CPU data ends at byte %llu, "
					       "the file has %llu", path,
					       (unsigned long long)(d->file_off + d->file_size),
					       (unsigned long long)l->file_size);
		if (!l->compressed) { /* pages: dat_layout_check_pages() */
			d->base = d->file_off;
			d->size = d->file_size;
			ret = 0;
		} else {
			ret = walk_chunks(c, l, cpu, &size, path, err);
			d->base = next;
			d->size = size;
			next += (size + l->page_size - 1) / l->page_size * l->page_size;
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int alloc_cpus(struct dat_layout *l, uint64_t n)
{
	l->cpu = calloc(n ? n : 1, sizeof(*l->cpu));
	if (!l->cpu)
		return VPMC_ERR_NOMEM;
	l->nr_cpus = (int)n;
	return 0;
}

/*
 * What libtracecmd's read_options_type() takes where "flyrecord" is expected: a tag that begins
 * "flyrecord" (9 bytes) or "latency" (7: a latency trace). Anything else (a second "options"
 * too), the end of the file, or options cut by it (not @walked), libtracecmd refuses too, but
 * only after reading a CPU count from the file, which tracecmd_close() then walks (seconds of
 * CPU for a count read from text).
 * Return: 0 (libtracecmd's to read), or VPMC_ERR_PARSE.
 */
static int v6_data_tag(struct cursor *c, bool walked, const char *path, struct vpmc__errbuf *err)
{
	char tag[10];

	if (walked && c->end - c->pos >= sizeof(tag) &&
	    dat_window_pread(c->w, tag, sizeof(tag), c->pos) == (ssize_t)sizeof(tag) &&
	    (!strncmp(tag, "flyrecord", 9) || !strncmp(tag, "latency", 7)))
		return 0;
	return vpmc__set_error(err, VPMC_ERR_PARSE, "%s: corrupt trace.dat: expected \"flyrecord\" "
			       "or \"latency\" at byte %llu", path, (unsigned long long)c->pos);
}

/* The v6 header, all in a row: metadata, options, "flyrecord", per CPU (offset, size). */
static int v6_walk(struct cursor *c, struct dat_layout *l, const char *path,
		   struct vpmc__errbuf *err)
{
	uint64_t cpus, id, size;
	bool walked;
	int cpu;

	l->header_info.off = c->pos;
	walk_header_info(c);
	if (c->bad && !c->over_size && c->pos + 13 > c->file_size) /* cut in a tag */
		return vpmc__set_error(err, VPMC_ERR_PARSE, "%s: truncated trace.dat: the file ends "
				       "in its header (%llu bytes)", path,
				       (unsigned long long)c->file_size);
	if (c->bad && !c->over_size) /* a tag that is not there */
		return vpmc__set_error(err, VPMC_ERR_PARSE, "%s: corrupt trace.dat: no header_page "
				       "or header_event block at byte %llu", path,
				       (unsigned long long)c->pos);
	l->ftrace_formats.off = c->pos;
	skip_blocks(c, num(c, 4), 8);         /* ftrace event formats */
	l->event_formats.off = c->pos;
	walk_event_formats(c);
	l->header_info.size = l->ftrace_formats.off - l->header_info.off;
	l->ftrace_formats.size = l->event_formats.off - l->ftrace_formats.off;
	l->event_formats.size = c->pos - l->event_formats.off;
	l->header_info.found = l->ftrace_formats.found = l->event_formats.found = !c->bad;
	skip_blocks(c, 1, 4);                 /* kallsyms */
	skip_blocks(c, 1, 4);                 /* printk formats */
	skip_blocks(c, 1, 8);                 /* saved cmdlines */
	cpus = num(c, 4);
	if (!c->bad && expect_prefix(c, "options", 10)) {
		while (!c->bad && (id = num(c, 2))) {
			note_option(l, (unsigned int)id);
			size = num(c, 4);
			if (id == OPT_CPUCOUNT && size == 4)
				cpus = num(c, 4);
			else
				advance(c, size);
		}
	} else if (!c->over_size) {
		c->bad = false; /* no options: "flyrecord" comes right away */
	}
	if (c->over_size)
		return past_end(c, path, err);
	walked = !c->bad;
	if (!expect(c, "flyrecord", 10)) /* a latency trace, or not ours to read */
		return v6_data_tag(c, walked, path, err);
	if (cpus > (c->end - c->pos) / 16)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: truncated or corrupt trace.dat: the data offsets of %llu "
				       "CPUs at byte %llu run past the end of the file (%llu bytes)",
				       path, (unsigned long long)cpus, (unsigned long long)c->pos,
				       (unsigned long long)c->file_size);
	if (alloc_cpus(l, cpus))
		return VPMC_ERR_NOMEM;
	for (cpu = 0; cpu < l->nr_cpus; cpu++) {
		l->cpu[cpu].id = cpu;
		l->cpu[cpu].file_off = num(c, 8);
		l->cpu[cpu].file_size = num(c, 8);
	}
	return check_cpu_data(c, l, path, err);
}

/* A section header: id, flags, description string id, size; the section must fit the file. */
static bool section(struct cursor *c, uint64_t at, unsigned int *id, unsigned int *flags)
{
	uint64_t size;

	c->end = c->file_size;
	c->pos = at;
	if (at > c->file_size) {
		c->over_size = 16;
		c->over_at = at;
		c->bad = true;
		return false;
	}
	*id = (unsigned int)num(c, 2);
	*flags = (unsigned int)num(c, 2);
	num(c, 4);
	size = num(c, 8);
	if (c->bad && !c->over_size) {
		c->over_size = 16;
		c->over_at = at;
	}
	advance(c, size);
	if (c->bad)
		return false;
	c->end = c->pos;
	c->pos = at + 16;
	return true;
}

/*
 * A compressed section's block: compressed size, the size inflated, the data, inside the section.
 * libtracecmd mallocs the compressed size before it reads (tracecmd_uncompress_block()).
 */
static void skip_compressed(struct cursor *c)
{
	uint64_t at = c->pos, size;

	advance(c, 8); /* the two sizes (a block past the end, not a read that fails) */
	c->pos = at;
	size = num(c, 4);
	num(c, 4);
	advance(c, size);
}

/* Where the metadata a reader parses is: the section of option @id. */
static void keep_meta(struct dat_layout *l, unsigned int id, const struct cursor *c,
		      unsigned int flags)
{
	struct dat_meta *m = id == OPT_HEADER_INFO ? &l->header_info :
			     id == OPT_FTRACE_EVENTS ? &l->ftrace_formats :
			     id == OPT_EVENT_FORMATS ? &l->event_formats : NULL;

	if (!m)
		return;
	m->found = true;
	m->compressed = flags & SEC_FL_COMPRESS;
	m->off = c->pos;
	m->size = c->end - c->pos;
}

/* One metadata section an option points to: whole, and (uncompressed) its blocks inside it. */
static int v7_metadata(struct cursor *c, struct dat_layout *l, unsigned int want, uint64_t at,
		       const char *path, struct vpmc__errbuf *err)
{
	unsigned int id, flags;

	if (!section(c, at, &id, &flags))
		return past_end(c, path, err);
	if (id != want)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: corrupt trace.dat: the section at byte %llu has id %u, "
				       "its option says %u", path, (unsigned long long)at, id, want);
	keep_meta(l, id, c, flags);
	if (flags & SEC_FL_COMPRESS) {
		skip_compressed(c);
	} else {
		switch (want) {
		case OPT_HEADER_INFO:
			walk_header_info(c);
			break;
		case OPT_FTRACE_EVENTS:
			skip_blocks(c, num(c, 4), 8);
			break;
		case OPT_EVENT_FORMATS:
			walk_event_formats(c);
			break;
		case OPT_CMDLINES:
			skip_blocks(c, 1, 8);
			break;
		default: /* kallsyms, printk formats */
			skip_blocks(c, 1, 4);
			break;
		}
	}
	return c->over_size ? past_end(c, path, err) : 0;
}

/* Where byte @pos of @c's walk is, for a message: in the file, or in an inflated section. */
static const char *where(const struct cursor *c, uint64_t pos, char *buf, size_t len)
{
	if (c->inflated)
		snprintf(buf, len, "byte %llu of the inflated options section at byte %llu",
			 (unsigned long long)pos, (unsigned long long)c->inflated);
	else
		snprintf(buf, len, "byte %llu", (unsigned long long)pos);
	return buf;
}

/* The top instance's BUFFER option (@o after its header): section offset, name "", clock, page
 * size, CPUs; the sections it points to read through @c. */
static int v7_buffer(struct cursor *o, struct cursor *c, struct dat_layout *l, const char *path,
		     struct vpmc__errbuf *err)
{
	uint64_t opt_at = o->pos - 6, at = num(o, 8), cpus, cpu_id;
	unsigned int id, flags;
	char name, here[96];
	int cpu;

	skip_string(o, &name);
	if (o->bad || name || l->cpu)
		return 0; /* another instance (or a second top one: libtracecmd's to judge) */
	skip_string(o, NULL);
	num(o, 4);
	cpus = num(o, 4);
	if (o->bad || cpus > (o->end - o->pos) / 20)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: corrupt trace.dat: the BUFFER option at %s lists "
				       "%llu CPUs, more than it holds", path,
				       where(o, opt_at, here, sizeof(here)),
				       (unsigned long long)cpus);
	if (alloc_cpus(l, cpus))
		return VPMC_ERR_NOMEM;
	for (cpu = 0; cpu < l->nr_cpus; cpu++) {
		cpu_id = num(o, 4);
		l->cpu[cpu].id = (int)cpu_id;
		l->cpu[cpu].file_off = num(o, 8);
		l->cpu[cpu].file_size = num(o, 8);
		if (cpu_id > CPU_ID_MAX)
			return vpmc__set_error(err, VPMC_ERR_PARSE,
					       "%s: corrupt trace.dat: the BUFFER option at %s "
					       "names CPU %llu (more than %d)", path,
					       where(o, opt_at, here, sizeof(here)),
					       (unsigned long long)cpu_id, CPU_ID_MAX);
	}
	if (!section(c, at, &id, &flags))
		return past_end(c, path, err);
	l->compressed = flags & SEC_FL_COMPRESS;
	return 0;
}

/* The end of an options section: a DONE option with the next section's offset, as
 * libtracecmd's handle_option_done() reads it (@o after the DONE's header, @size its size). */
static int option_done(struct cursor *o, uint64_t size, uint64_t *next, const char *path,
		       struct vpmc__errbuf *err)
{
	char here[96];

	if (size < 8)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: corrupt trace.dat: the DONE option at %s has %llu bytes, "
				       "not the 8 of the next options section's offset", path,
				       where(o, o->pos - 6, here, sizeof(here)),
				       (unsigned long long)size);
	*next = num(o, 8);
	return 0;
}

/*
 * The options @o walks (those of the options section at @at), up to the DONE that ends them,
 * which gives the next section's offset in @next; the sections they point to read through @c
 * (@o itself, or a cursor of the file). libtracecmd's handle_options() reads options until a
 * DONE whatever the section's size: past a section that ends without one it would read on
 * (past an inflated block: an error).
 */
static int walk_options(struct cursor *o, struct cursor *c, struct dat_layout *l, uint64_t at,
			uint64_t *next, const char *path, struct vpmc__errbuf *err)
{
	uint64_t opt_at, size, end = o->end, target;
	char here[96], there[96];
	unsigned int id;
	int ret;

	for (;;) {
		if (o->pos >= end)
			return vpmc__set_error(err, VPMC_ERR_PARSE,
					       "%s: corrupt trace.dat: the options section at byte "
					       "%llu ends without a DONE option (%llu bytes%s)", path,
					       (unsigned long long)at,
					       (unsigned long long)(o->inflated ? end : end - at - 16),
					       o->inflated ? ", inflated" : "");
		opt_at = o->pos;
		id = (unsigned int)num(o, 2);
		size = num(o, 4);
		advance(o, size);
		if (o->bad)
			return vpmc__set_error(err, VPMC_ERR_PARSE,
					       "%s: corrupt trace.dat: the option at %s runs past "
					       "the end of its section (%s)", path,
					       where(o, opt_at, here, sizeof(here)),
					       where(o, end, there, sizeof(there)));
		o->pos = opt_at + 6;
		o->end = opt_at + 6 + size;
		note_option(l, id);
		if (id == OPT_DONE)
			return option_done(o, size, next, path, err);
		ret = 0;
		if (id == OPT_BUFFER) {
			ret = v7_buffer(o, c, l, path, err);
		} else if (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES && size >= 8) {
			target = num(o, 8);
			ret = v7_metadata(c, l, id, target, path, err);
		}
		if (ret)
			return ret;
		c->bad = o->bad = false;
		c->over_size = o->over_size = 0;
		o->pos = opt_at + 6 + size;
		o->end = end;
	}
}

/*
 * A compressed options section's block (@c at it, in section @at): inflated as libtracecmd's
 * handle_options() inflates it (tracecmd_uncompress_block()), then walked in memory. A block
 * that does not inflate to the size it gives is left to libtracecmd (options_unknown), which
 * reads what does inflate.
 */
static int v7_options_inflated(struct cursor *c, struct dat_layout *l, uint64_t at,
			       uint64_t *next, const char *path, struct vpmc__errbuf *err)
{
	uint64_t from = c->pos, n = c->end - c->pos;
	struct dat_window mem = { .fd = -1 };
	struct cursor o = { .w = &mem, .big_endian = c->big_endian, .inflated = at };
	uint8_t *raw = NULL, *opts = NULL;
	int ret;

	skip_compressed(c);
	if (c->over_size)
		return past_end(c, path, err);
	if (n <= OPTIONS_MAX)
		raw = malloc(n);
	if (raw && pread(l->fd, raw, n, (off_t)from) == (ssize_t)n)
		opts = dat_inflate_section(dat_algo_of(l->compression), raw, n, l->big_endian,
					   OPTIONS_MAX, &mem.mem_size);
	free(raw);
	if (!opts) {
		l->options_unknown = true;
		return 0;
	}
	mem.mem = opts;
	o.end = o.file_size = mem.mem_size;
	ret = walk_options(&o, c, l, at, next, path, err);
	free(opts);
	return ret;
}

/* One options section at @at: its options, and the offset of the next section in @next. */
static int v7_options(struct cursor *c, struct dat_layout *l, uint64_t at, uint64_t *next,
		      const char *path, struct vpmc__errbuf *err)
{
	unsigned int id, flags;

	*next = 0;
	if (!section(c, at, &id, &flags))
		return past_end(c, path, err);
	if (id != OPT_DONE)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: corrupt trace.dat: the section at byte %llu has id %u, "
				       "not options (0)", path, (unsigned long long)at, id);
	if (flags & SEC_FL_COMPRESS)
		return v7_options_inflated(c, l, at, next, path, err);
	return walk_options(c, c, l, at, next, path, err);
}

/* The sections from @c's place on, as libtracecmd walks them before any other: not in a loop. */
static int v7_sections(const struct cursor *c, const struct dat_layout *l, const char *path,
		       struct vpmc__errbuf *err)
{
	struct dat_sections s = { c->w->fd, c->file_size, c->big_endian,
				  strcmp(l->compression, "none") != 0 };
	uint64_t at, to;

	if (!dat_sections_loop(&s, c->pos, &at, &to))
		return 0;
	return vpmc__set_error(err, VPMC_ERR_PARSE,
			       "%s: corrupt trace.dat: the section at byte %llu has size %lld, back to "
			       "byte %llu: its sections, read one after another from byte %llu as "
			       "libtracecmd's read_metadata_strings() reads them, repeat for ever",
			       path, (unsigned long long)at, (long long)(to - at - 16),
			       (unsigned long long)to, (unsigned long long)c->pos);
}

/* The v7 header: compression name and version, first options section; then the sections. */
static int v7_walk(struct cursor *c, struct dat_layout *l, const char *path,
		   struct vpmc__errbuf *err)
{
	uint64_t at;
	int n, ret;

	read_name(c, l->compression, sizeof(l->compression));
	skip_string(c, NULL);                 /* the compression's version */
	at = num(c, 8);
	if (c->bad)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: truncated trace.dat: the file ends in its header", path);
	ret = v7_sections(c, l, path, err);
	if (ret)
		return ret;
	for (n = 0; at; n++) {
		if (n == OPTIONS_SECTIONS_MAX)
			return vpmc__set_error(err, VPMC_ERR_PARSE,
					       "%s: corrupt trace.dat: more than %d options sections "
					       "(their next-section offsets form a loop?)", path,
					       OPTIONS_SECTIONS_MAX);
		ret = v7_options(c, l, at, &at, path, err);
		if (ret)
			return ret;
	}
	return l->cpu ? check_cpu_data(c, l, path, err) : 0;
}

/*
 * The file version as libtracecmd's tracecmd_alloc_fd() takes it: a NUL-terminated string after
 * the magic, strtol()'d (text that is no number is 0), kept as an unsigned long. 0 to 6 it reads
 * as version 6 (read_headers_v6()), 7 as 7, more it refuses. Return: the version (6 or 7), 0 for
 * one libtracecmd refuses; -1 if the string does not end in 64 bytes (@c->pos: after it).
 */
static int file_version(struct cursor *c)
{
	char buf[64];
	unsigned long v;
	ssize_t n = dat_window_pread(c->w, buf, sizeof(buf), c->pos);
	const char *nul = n > 0 ? memchr(buf, 0, (size_t)n) : NULL;

	if (!nul)
		return -1;
	v = (unsigned long)strtol(buf, NULL, 10);
	c->pos += (uint64_t)(nul - buf) + 1;
	return v > 7 ? 0 : v == 7 ? 7 : 6;
}

/* Both versions start the same: magic, "tracing", the version, endianness, long size, page. */
static int walk(struct cursor *c, struct dat_layout *l, const char *path,
		struct vpmc__errbuf *err)
{
	char magic[10];
	int version;

	if (dat_window_pread(c->w, magic, sizeof(magic), 0) != sizeof(magic) ||
	    memcmp(magic, "\x17\x08\x44tracing", 10))
		return 0; /* libtracecmd's to refuse */
	c->pos = sizeof(magic);
	version = file_version(c);
	if (version < 0)
		return vpmc__set_error(err, VPMC_ERR_PARSE, "%s: corrupt trace.dat: no version "
				       "(a string of at most 63 bytes) at byte 10", path);
	if (!version)
		return 0; /* libtracecmd refuses it: "Unsupported file version" */
	l->version = version;
	l->big_endian = c->big_endian = num(c, 1);
	l->long_size = (int)num(c, 1);
	l->page_size = num(c, 4);
	if (c->bad)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: truncated trace.dat: the file ends in its header", path);
	if (l->long_size != 4 && l->long_size != 8)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: corrupt trace.dat: long size %d (4 or 8)", path,
				       l->long_size);
	if (l->page_size < 1024 || l->page_size > (1U << 24) ||
	    (l->page_size & (l->page_size - 1)))
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: corrupt trace.dat: page size %llu (a power of 2, 1 KiB "
				       "to 16 MiB)", path, (unsigned long long)l->page_size);
	return l->version == 6 ? v6_walk(c, l, path, err) : v7_walk(c, l, path, err);
}

int dat_layout_read(struct dat_layout *l, const char *path, struct vpmc__errbuf *err)
{
	struct dat_window w = { .fd = -1 }; /* (its buffer zeroed too: 4 KiB) */
	struct cursor c = { .w = &w };
	struct stat st;
	int ret;

	memset(l, 0, sizeof(*l));
	/* O_NONBLOCK: a FIFO without a writer is refused below, not waited for */
	l->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (l->fd < 0 || fstat(l->fd, &st))
		return vpmc__set_error(err, VPMC_ERR_IO, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return vpmc__set_error(err, VPMC_ERR_PARSE, "%s: a trace.dat must be a regular file "
				       "(it is read at offsets), not a pipe, FIFO or directory",
				       path);
	w.fd = l->fd;
	c.file_size = c.end = l->file_size = (uint64_t)st.st_size;
	ret = walk(&c, l, path, err);
	if (!ret && l->version == 0)
		l->nr_cpus = 0;
	return ret;
}

uint64_t dat_layout_unread_pages(const struct dat_layout *l, int cpu, uint64_t from)
{
	const struct dat_cpu_data *d = &l->cpu[cpu];
	struct dat_window w = { .fd = l->fd };
	struct cursor c = { .w = &w, .end = l->file_size, .big_endian = l->big_endian };
	uint64_t end = d->base + d->size, p, n = 0;

	if (from >= end)
		return 0;
	if (l->compressed)
		return (end - from + l->page_size - 1) / l->page_size;
	for (p = from; p < end && !c.bad; p += l->page_size) {
		c.pos = d->file_off + (p - d->base) + 8;
		if (num(&c, l->long_size) & DAT_COMMIT_MASK)
			n++;
	}
	return n;
}

int dat_layout_check_pages(const struct dat_layout *l, const struct dat_page_format *f,
			   const char *path, struct vpmc__errbuf *err)
{
	/* a page, then dat_page_check()'s scratch */
	uint8_t *buf = l->compressed ? NULL : malloc(l->page_size + l->page_size / 8 + 1);
	int cpu, ret = 0;

	if (!l->compressed && !buf)
		return VPMC_ERR_NOMEM;
	for (cpu = 0; cpu < l->nr_cpus && !l->compressed && !ret; cpu++) {
		if (l->cpu[cpu].file_size)
			ret = check_pages(l, f, cpu, buf, path, err);
	}
	free(buf);
	return ret;
}

bool dat_layout_pread(const struct dat_layout *l, uint64_t pos, void *buf, size_t n)
{
	return pos <= l->file_size && n <= l->file_size - pos &&
	       pread(l->fd, buf, n, (off_t)pos) == (ssize_t)n;
}

void dat_layout_free(struct dat_layout *l)
{
	if (l->fd >= 0)
		close(l->fd);
	free(l->cpu);
	memset(l, 0, sizeof(*l));
	l->fd = -1;
}
