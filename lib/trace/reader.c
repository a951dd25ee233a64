/* reader.c - The pull interface over every trace format: .vtr, kvm tracepoint text, trace.dat.
 *
 * Streaming: a fixed buffer of READER_BUF_SIZE bytes holds the lines being parsed, a line longer
 * than READER_LINE_MAX is an error, and nothing grows with the trace except counters, so memory
 * is the same for a 1 kB and a 100 GB trace. Text and trace.dat records go through the importer
 * (import.h), which turns kvm tracepoints into native events.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import.h"
#include "dat.h"
#include "text.h"
#include "vtr.h"
#include "internal.h"

#define READER_BUF_SIZE (64 * 1024)
#define READER_LINE_MAX 4096     /* bytes in a line, without its '\n' */
#define READER_SKIP_MAX (1024 * 1024) /* bytes of one over-long line --lenient skips at most */
#define READER_BACK_MAX_NS 1000000000ULL /* a time stamp may go back this far on its vCPU */
#define READER_WARNINGS_MAX 16   /* warnings kept: the first few of each kind (warn_max[]) */
#define READER_UNKNOWN_MAX 256   /* distinct unknown event names; later ones go to "(other)" */
#define READER_UNKNOWN_HASH 1024 /* slots of the name index, a power of two > 2 * MAX */

/* trace.dat files start with this (trace-cmd's trace-output.c: "\027\010\104tracing"). */
static const char dat_magic[10] = "\x17\x08\x44tracing";

/* Kinds of warnings; each keeps its first warn_max[kind]. */
enum warn_kind {
	WARN_SKIPPED, /* a malformed line skipped (--lenient) */
	WARN_BACK,    /* a time stamp that went back on its vCPU */
	WARN_TAIL,    /* the last line cut short */
	WARN_UNREAD,  /* trace.dat: a CPU's ring-buffer pages libtracecmd could not read */
	WARN_NR
};

static const unsigned int warn_max[WARN_NR] = {
	[WARN_SKIPPED] = 10,
	[WARN_BACK] = 5,
	[WARN_TAIL] = 1,
	[WARN_UNREAD] = 4, /* each says which CPU and where: one per CPU is plenty */
};

struct unknown_name {
	char name[KVM_REC_NAME_MAX];
	uint64_t count;
};

struct vpmc_reader {
	struct vpmc_reader_opts opts;
	enum vpmc_format format;
	struct vpmc_pmu_config pmu;
	char *name;                   /* for messages ("-" is shown as "<stdin>") */
	char *path;                   /* as given, for vpmc_reader_source() */
	bool open, done;
	int failed;                   /* sticky error code, 0 if none */

	/* input: a file descriptor, or a private copy of an in-memory buffer */
	int fd;
	char *mem;
	size_t mem_len, mem_pos;
	char *buf;
	size_t start, end;            /* unparsed bytes are buf[start, end) */
	size_t clean;                 /* buf[start, clean) has no NUL byte; buf[clean] is one */
	bool eof;
	uint64_t line;                /* number of the last line returned */

	struct text_parser *tp;
	struct vtr_parser *vtr;
	struct vpmc_event held;       /* .vtr: the first event, read at open with the header */
	bool has_held, held_end;      /* it is held; the input ended before any event */
	struct trace_dat *dat;
	struct kvm_import *im;
	bool finished;                /* kvm_import_finish() done */

	struct unknown_name *unknown; /* READER_UNKNOWN_MAX + 1 ("(other)") entries */
	size_t nr_unknown;
	uint16_t *unknown_index;      /* hash -> 1 + index into unknown[], 0 empty */
	size_t last_unknown;          /* the previous hit: names repeat */

	char warnings[READER_WARNINGS_MAX][VPMC_ERRMSG_MAX];
	size_t nr_warnings;
	unsigned int nr_warn_kind[WARN_NR];
	struct vpmc_reader_stats st;
	struct vpmc__errbuf err;
};

void vpmc_reader_opts_default(struct vpmc_reader_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->format = VPMC_FORMAT_AUTO;
	o->guest_ips = KVM_IMPORT_DEFAULT_GUEST_IPS;
	o->guest_branch_permille = KVM_IMPORT_DEFAULT_BRANCH_PERMILLE;
	vpmc_pmu_config_default(&o->pmu, VPMC_VENDOR_INTEL);
}

int vpmc_reader_new(struct vpmc_reader **out, const struct vpmc_reader_opts *opts)
{
	struct vpmc_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return VPMC_ERR_NOMEM;
	if (opts)
		r->opts = *opts;
	else
		vpmc_reader_opts_default(&r->opts);
	r->fd = -1;
	r->format = r->opts.format;
	r->pmu = r->opts.pmu;
	if (!r->opts.has_pmu)
		vpmc_pmu_config_default(&r->pmu, VPMC_VENDOR_INTEL);
	*out = r;
	return 0;
}

static int __attribute__((format(printf, 3, 4))) fail(struct vpmc_reader *r, int err,
						       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err.msg, sizeof(r->err.msg), fmt, ap);
	va_end(ap);
	r->failed = err;
	return err;
}

static void __attribute__((format(printf, 3, 4))) warn(struct vpmc_reader *r,
						       enum warn_kind kind, const char *fmt, ...)
{
	va_list ap;

	if (r->nr_warn_kind[kind] == warn_max[kind] || r->nr_warnings == READER_WARNINGS_MAX)
		return;
	r->nr_warn_kind[kind]++;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->nr_warnings++], VPMC_ERRMSG_MAX, fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------------------------------------------
 * Lines.
 */

/* NUL bytes are looked for once per block read, not once per line. */
static void find_nul(struct vpmc_reader *r, size_t from, size_t to)
{
	const char *nul = memchr(r->buf + from, '\0', to - from);

	r->clean = nul ? (size_t)(nul - r->buf) : to;
}

/* More bytes into buf[end, READER_BUF_SIZE). Return: how many (0 at the end), or -errno. */
static ssize_t fill(struct vpmc_reader *r)
{
	size_t room = READER_BUF_SIZE - r->end;
	ssize_t n;

	if (r->mem) {
		n = (ssize_t)(r->mem_len - r->mem_pos < room ? r->mem_len - r->mem_pos : room);
		memcpy(r->buf + r->end, r->mem + r->mem_pos, (size_t)n);
		r->mem_pos += (size_t)n;
	} else {
		do
			n = read(r->fd, r->buf + r->end, room);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
	}
	if (r->clean == r->end)
		find_nul(r, r->end, r->end + (size_t)n);
	r->end += (size_t)n;
	return n;
}

/* Move the unparsed bytes to the front and read more after them. Return: 0, or an error. */
static int refill(struct vpmc_reader *r)
{
	ssize_t n;

	if (r->start) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->clean -= r->start;
		r->start = 0;
	}
	n = fill(r);
	if (n < 0)
		return fail(r, VPMC_ERR_IO, "%s: %s", r->name, strerror((int)-n));
	if (!n)
		r->eof = true;
	return 0;
}

/* The '\n' ending the line at start, reading more as needed; NULL at the end of the input or
 * when READER_LINE_MAX bytes have no '\n' (check r->failed). */
static const char *find_newline(struct vpmc_reader *r)
{
	for (;;) {
		const char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);

		if (nl || r->eof || r->end - r->start > READER_LINE_MAX)
			return nl;
		if (refill(r))
			return NULL;
	}
}

#define STR_(x) #x
#define STR(x) STR_(x)

struct line {
	const char *p;
	size_t len;
	bool cut;          /* the last line, without a '\n' (a trace cut by ^C or a full disk) */
	const char *bad;   /* why the line cannot be parsed at all, or NULL */
	unsigned int col;  /* where (1-based), 0 for the whole line */
};

/* "FILE:LINE[:COL]" of the current line. */
static const char *where(const struct vpmc_reader *r, unsigned int col, char *buf, size_t len)
{
	if (col)
		snprintf(buf, len, "%s:%llu:%u", r->name, (unsigned long long)r->line, col);
	else
		snprintf(buf, len, "%s:%llu", r->name, (unsigned long long)r->line);
	return buf;
}

/*
 * Drop the rest of an over-long line @l (--lenient): bytes up to and including the next '\n',
 * but at most READER_SKIP_MAX of them, so that an endless line (/dev/zero) ends in an error.
 */
static int skip_rest_of_line(struct vpmc_reader *r, const struct line *l)
{
	uint64_t skipped = 0;
	char at[VPMC_ERRMSG_MAX / 2];

	for (;;) {
		const char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);

		if (nl) {
			r->start = (size_t)(nl - r->buf) + 1;
			if (r->clean < r->start)
				find_nul(r, r->start, r->end);
			return 0;
		}
		skipped += r->end - r->start;
		if (skipped > READER_SKIP_MAX)
			return fail(r, VPMC_ERR_PARSE, "%s: %s, and no newline in its first "
				    "%d MiB: too much to skip, even with --lenient (not a text trace?)",
				    where(r, l->col, at, sizeof(at)), l->bad, READER_SKIP_MAX >> 20);
		r->start = r->end = r->clean = 0;
		if (r->eof)
			return 0;
		if (refill(r))
			return r->failed;
	}
}

/* The next line, without its '\n'. Return: 1, 0 at the end, or an error (I/O). */
static int next_line(struct vpmc_reader *r, struct line *l)
{
	const char *nl;
	size_t avail;

	nl = find_newline(r);
	if (r->failed)
		return r->failed;
	avail = r->end - r->start;
	if (!avail)
		return 0;
	r->line++;
	l->p = r->buf + r->start;
	l->bad = NULL;
	l->col = 0;
	l->len = nl ? (size_t)(nl - l->p) : avail;
	l->cut = !nl;
	/* a NUL byte in the first READER_LINE_MAX bytes is the line's first problem */
	if (r->clean < r->start + (l->len < READER_LINE_MAX ? l->len : READER_LINE_MAX)) {
		l->bad = "NUL byte in the line (binary data?)";
		l->col = (unsigned int)(r->clean - r->start) + 1;
	}
	if (l->len > READER_LINE_MAX) {
		if (!l->bad)
			l->bad = "line longer than " STR(READER_LINE_MAX) " bytes";
		l->cut = false;
		/* strict: the error is now, not after reading to the end of an endless line */
		if (!r->opts.lenient)
			return 1;
		return skip_rest_of_line(r, l) ? r->failed : 1;
	}
	r->start += l->len + !!nl;
	if (r->clean < r->start)
		find_nul(r, r->start, r->end);
	return 1;
}

/* A malformed line: an error, or (lenient) a counted skip with a warning. Return: 0 to go on. */
static int bad_line(struct vpmc_reader *r, unsigned int col, const char *msg, bool cut)
{
	char at[VPMC_ERRMSG_MAX / 2];

	where(r, col, at, sizeof(at));
	if (cut) {
		/* A cut last line is what an interrupted recording leaves: not a failure. */
		r->st.truncated_tail = true;
		warn(r, WARN_TAIL, "%s: last line cut short (no newline at the end), ignored: %s",
		     at, msg);
		return 0;
	}
	if (!r->opts.lenient)
		return fail(r, VPMC_ERR_PARSE, "%s: %s", at, msg);
	r->st.skipped_lines++;
	warn(r, WARN_SKIPPED, "%s: %s", at, msg);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Unknown event names: counted per name, at most READER_UNKNOWN_MAX names.
 */
static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static int count_unknown(struct vpmc_reader *r, const char *name)
{
	uint32_t h;
	size_t i;

	if (r->nr_unknown && !strcmp(r->unknown[r->last_unknown].name, name)) {
		r->unknown[r->last_unknown].count++;
		return 0;
	}
	if (!r->unknown) {
		r->unknown = calloc(READER_UNKNOWN_MAX + 1, sizeof(*r->unknown));
		r->unknown_index = calloc(READER_UNKNOWN_HASH, sizeof(*r->unknown_index));
		if (!r->unknown || !r->unknown_index)
			return fail(r, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	}
	for (h = name_hash(name);; h++) {
		uint16_t *slot = &r->unknown_index[h & (READER_UNKNOWN_HASH - 1)];

		if (!*slot) {
			if (r->nr_unknown == READER_UNKNOWN_MAX) {
				i = READER_UNKNOWN_MAX; /* the "(other)" bucket */
				if (!r->unknown[i].count)
					strcpy(r->unknown[i].name, "(other)");
				break;
			}
			i = r->nr_unknown++;
			strcpy(r->unknown[i].name, name);
			*slot = (uint16_t)(i + 1);
			break;
		}
		i = *slot - 1u;
		if (!strcmp(r->unknown[i].name, name))
			break;
	}
	r->unknown[i].count++;
	if (i < READER_UNKNOWN_MAX)
		r->last_unknown = i;
	return 0;
}

size_t vpmc_reader_nr_unknown(const struct vpmc_reader *r)
{
	return r->nr_unknown + (r->unknown && r->unknown[READER_UNKNOWN_MAX].count ? 1 : 0);
}

int vpmc_reader_unknown(const struct vpmc_reader *r, size_t i, const char **name,
			uint64_t *count)
{
	if (i >= vpmc_reader_nr_unknown(r))
		return VPMC_ERR_INVAL;
	if (i == r->nr_unknown)
		i = READER_UNKNOWN_MAX;
	*name = r->unknown[i].name;
	*count = r->unknown[i].count;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Opening and format detection.
 */

/* The first line of @p that is not blank or a '#' comment, and its length (0 if none whole). */
static const char *first_content_line(const char *p, size_t n, size_t *len)
{
	const char *end = p + n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *q = p;

		*len = (size_t)((nl ? nl : end) - p);
		while (q < p + *len && (*q == ' ' || *q == '\t'))
			q++;
		if (q < p + *len && *q != '#')
			return p;
		if (!nl)
			break;
		p = nl + 1;
	}
	return NULL;
}

/* "TIME VCPU EVENT ..." with no ':' anywhere: a .vtr event line (a headerless .vtr). */
static bool looks_like_vtr_event(const char *p, size_t n)
{
	const char *end = p + n;
	int field;

	if (memchr(p, ':', n))
		return false;
	for (field = 0; field < 2; field++) {
		const char *d = p;

		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == d || p == end || (*p != ' ' && *p != '\t'))
			return false;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
	}
	return p < end && *p >= 'a' && *p <= 'z';
}

/* By content: the trace.dat magic, a .vtr's "!" directive (or event line), else text. */
static enum vpmc_format detect(const char *buf, size_t n)
{
	const char *line;
	size_t len;

	if (n >= sizeof(dat_magic) && !memcmp(buf, dat_magic, sizeof(dat_magic)))
		return VPMC_FORMAT_DAT;
	line = first_content_line(buf, n, &len);
	while (line && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	if (line && (*line == '!' || looks_like_vtr_event(line, len)))
		return VPMC_FORMAT_VTR;
	return VPMC_FORMAT_TEXT;
}

static int open_importer(struct vpmc_reader *r)
{
	struct kvm_import_opts io = {
		.guest_ips = r->opts.guest_ips,
		.guest_branch_permille = r->opts.guest_branch_permille,
		.host_kernel = r->opts.has_pmu ? r->opts.pmu.host_kernel : VPMC_KERNEL_LATEST,
	};

	if (kvm_import_new(&r->im, &io))
		return fail(r, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	return 0;
}

static int open_dat(struct vpmc_reader *r)
{
	struct stat st;
	int ret;

	if (r->fd == STDIN_FILENO && !strcmp(r->path, "-"))
		return fail(r, VPMC_ERR_PARSE, "%s: trace.dat cannot be read from standard input "
			    "(give its file name)", r->name);
	if (r->mem)
		return fail(r, VPMC_ERR_PARSE, "%s: trace.dat cannot be read from memory", r->name);
	/* opened again by name below: a pipe or FIFO would be read from its start no more */
	if (r->fd >= 0 && (fstat(r->fd, &st) || !S_ISREG(st.st_mode)))
		return fail(r, VPMC_ERR_PARSE, "%s: a trace.dat must be a regular file (it is read "
			    "at offsets), not a pipe or FIFO", r->name);
	if (r->fd > STDIN_FILENO) { /* trace_dat.c opens the file itself */
		close(r->fd);
		r->fd = -1;
	}
	ret = trace_dat_open(&r->dat, r->path, r->opts.isolate_dat, &r->err);
	if (ret)
		r->failed = ret;
	return ret;
}

static int next_vtr(struct vpmc_reader *r, struct vpmc_event *ev);

/*
 * A .vtr's directives (!pmu, !host, !source) come before its first event: read up to that event
 * and hold it for the first vpmc_reader_next(), so that vpmc_reader_pmu() and
 * vpmc_reader_source() describe the trace as soon as it is open. A malformed line here is kept
 * (r->failed) for vpmc_reader_next() to return, as it would have been without this.
 */
static void vtr_read_header(struct vpmc_reader *r)
{
	int ret = next_vtr(r, &r->held);

	r->has_held = ret == 1;
	r->held_end = ret == 0;
}

/* Common to open() and open_mem(): detect the format and set up its parser. */
static int start(struct vpmc_reader *r)
{
	ssize_t n;

	r->buf = malloc(READER_BUF_SIZE);
	if (!r->buf)
		return fail(r, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	do {
		n = fill(r);
		if (n < 0)
			return fail(r, VPMC_ERR_IO, "%s: %s", r->name, strerror((int)-n));
	} while (n > 0 && r->end < sizeof(dat_magic));
	if (!r->end)
		return fail(r, VPMC_ERR_PARSE, "%s: empty input (no trace)", r->name);
	if (r->format == VPMC_FORMAT_AUTO)
		r->format = detect(r->buf, r->end);
	r->open = true;
	switch (r->format) {
	case VPMC_FORMAT_DAT:
		return open_dat(r) ? r->failed : open_importer(r);
	case VPMC_FORMAT_VTR:
		r->vtr = malloc(sizeof(*r->vtr));
		if (!r->vtr)
			return fail(r, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
		vtr_parser_init(r->vtr);
		vtr_read_header(r);
		return 0;
	default:
		r->format = VPMC_FORMAT_TEXT;
		r->tp = malloc(sizeof(*r->tp));
		if (!r->tp)
			return fail(r, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
		trace_text_init(r->tp);
		return open_importer(r);
	}
}

static int set_names(struct vpmc_reader *r, const char *path)
{
	r->path = strdup(path);
	r->name = strdup(strcmp(path, "-") ? path : "<stdin>");
	if (!r->path || !r->name)
		return fail(r, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	return 0;
}

int vpmc_reader_open(struct vpmc_reader *r, const char *path)
{
	if (!r || !path || r->name)
		return VPMC_ERR_INVAL;
	if (set_names(r, path))
		return r->failed;
	if (!strcmp(path, "-")) {
		if (r->format == VPMC_FORMAT_DAT)
			return fail(r, VPMC_ERR_PARSE, "%s: trace.dat cannot be read from standard "
				    "input (give its file name)", r->name);
		r->fd = STDIN_FILENO;
	} else {
		if (r->format == VPMC_FORMAT_DAT) { /* no need to read it here */
			r->open = true;
			return open_dat(r) ? r->failed : open_importer(r);
		}
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0)
			return fail(r, VPMC_ERR_IO, "%s: %s", r->name, strerror(errno));
	}
	return start(r);
}

int vpmc_reader_open_mem(struct vpmc_reader *r, const char *name, const void *data, size_t len)
{
	if (!r || !name || (!data && len) || r->name)
		return VPMC_ERR_INVAL;
	if (set_names(r, name))
		return r->failed;
	r->mem = malloc(len ? len : 1);
	if (!r->mem)
		return fail(r, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	if (len)
		memcpy(r->mem, data, len);
	r->mem_len = len;
	if (r->format == VPMC_FORMAT_DAT)
		return fail(r, VPMC_ERR_PARSE, "%s: trace.dat cannot be read from memory", r->name);
	return start(r);
}

/* ---------------------------------------------------------------------------------------------
 * Reading.
 */

/* The next .vtr event. Return: 1, 0 (end), or an error. */
static int next_vtr(struct vpmc_reader *r, struct vpmc_event *ev)
{
	struct vpmc__lineerr te;
	struct line l;
	int ret;

	for (;;) {
		ret = next_line(r, &l);
		if (ret < 0)
			return ret;
		if (!ret) {
			if (vtr_finish(r->vtr, &te))
				return fail(r, VPMC_ERR_PARSE, "%s: %s", r->name, te.msg);
			return 0;
		}
		r->st.lines++;
		if (l.bad) {
			if (bad_line(r, l.col, l.bad, false))
				return r->failed;
			continue;
		}
		ret = vtr_parse_line(r->vtr, l.p, l.len, ev, &te);
		if (ret == 1) {
			r->st.records++;
			return 1;
		}
		if (!ret)
			r->st.comment_lines++;
		else if (bad_line(r, te.col, te.msg, l.cut))
			return r->failed;
	}
}

/*
 * The record just pushed had a time stamp before its vCPU's latest (CPUs' clocks that differ a
 * little, or a corrupt trace): counted and shown, its events took the latest time; more than
 * READER_BACK_MAX_NS back is no clock skew and an error unless --lenient.
 */
static int time_went_back(struct vpmc_reader *r, const struct kvm_import_back *b)
{
	char at[VPMC_ERRMSG_MAX / 2], t[32], latest[32], by[32];
	uint64_t back = b->latest_ns - b->time_ns;

	vpmc_reader_where(r, at, sizeof(at));
	vpmc__secs(b->time_ns, t, sizeof(t));
	vpmc__secs(b->latest_ns, latest, sizeof(latest));
	vpmc__secs(back, by, sizeof(by));
	if (back > READER_BACK_MAX_NS && !r->opts.lenient)
		return fail(r, VPMC_ERR_PARSE, "%s: time stamp %s s is %s s before vCPU %u's "
			    "previous record (%s s): more than %llu s back is no clock skew "
			    "(a spliced or corrupt trace?; --lenient takes it as %s s)", at, t, by,
			    b->vcpu, latest, READER_BACK_MAX_NS / 1000000000u, latest);
	r->st.time_backwards++;
	warn(r, WARN_BACK, "%s: time stamp %s s is %s s before vCPU %u's previous record; taken "
	     "as %s s", at, t, by, b->vcpu, latest);
	return 0;
}

/* Account for one record and feed it to the importer. Return: 0 or an error. */
static int push_record(struct vpmc_reader *r, const struct kvm_record *rec)
{
	struct kvm_import_back back;

	r->st.records++;
	if (rec->kind == KVM_REC_OTHER) {
		r->st.unknown_records++;
		if (count_unknown(r, rec->name))
			return r->failed;
	} else if (rec->kind == KVM_REC_LOST) {
		r->st.lost_markers++;
		r->st.lost_events += rec->lost;
	}
	if (kvm_import_push(r->im, rec)) {
		if (r->format == VPMC_FORMAT_DAT)
			return fail(r, VPMC_ERR_LIMIT, "%s: %s", r->name, kvm_import_error(r->im));
		return fail(r, VPMC_ERR_LIMIT, "%s:%llu: %s", r->name, (unsigned long long)r->line,
			    kvm_import_error(r->im));
	}
	if (kvm_import_went_back(r->im, &back))
		return time_went_back(r, &back);
	return 0;
}

/* The next text record into *@rec. Return: 1, 0 (end), or an error. */
static int next_text_record(struct vpmc_reader *r, struct kvm_record *rec)
{
	struct vpmc__lineerr te;
	struct line l;
	int ret;

	for (;;) {
		ret = next_line(r, &l);
		if (ret <= 0)
			return ret;
		r->st.lines++;
		if (l.bad) {
			if (bad_line(r, l.col, l.bad, false))
				return r->failed;
			continue;
		}
		ret = trace_text_parse_line(r->tp, l.p, l.len, rec, NULL, &te);
		if (ret == 1)
			return 1;
		if (!ret)
			r->st.comment_lines++;
		else if (bad_line(r, te.col, te.msg, l.cut))
			return r->failed;
	}
}

/* The next trace.dat record. Pages that cannot be read and records that cannot be read are an
 * error, or (lenient) a counted warning. Return: 1, 0 (end), or an error. */
static int next_dat_record(struct vpmc_reader *r, struct kvm_record *rec)
{
	int ret;

	for (;;) {
		ret = trace_dat_next(r->dat, rec, &r->err);
		if (ret != TRACE_DAT_UNREAD && ret != TRACE_DAT_BAD_RECORD)
			break;
		if (ret == TRACE_DAT_UNREAD)
			r->st.unread_pages = trace_dat_unread_pages(r->dat);
		if (!r->opts.lenient) {
			r->failed = VPMC_ERR_PARSE; /* r->err says where */
			return r->failed;
		}
		if (ret == TRACE_DAT_BAD_RECORD)
			r->st.skipped_lines++;
		warn(r, ret == TRACE_DAT_UNREAD ? WARN_UNREAD : WARN_SKIPPED, "%s", r->err.msg);
		vpmc__clear_error(&r->err);
	}
	if (ret < 0)
		r->failed = ret;
	return ret;
}

/* The next event from the importer, fed from text or trace.dat records as needed. */
static int next_imported(struct vpmc_reader *r, struct vpmc_event *ev)
{
	struct kvm_record rec;
	int ret;

	for (;;) {
		if (kvm_import_pop(r->im, ev))
			return 1;
		if (r->finished)
			return 0;
		if (r->format == VPMC_FORMAT_DAT) {
			ret = next_dat_record(r, &rec);
			if (ret < 0)
				return ret;
		} else {
			ret = next_text_record(r, &rec);
			if (ret < 0)
				return ret;
		}
		if (ret == 0) {
			struct kvm_import_stats is;

			kvm_import_finish(r->im);
			kvm_import_get_stats(r->im, &is);
			r->st.synthesized_entries = is.synthesized_entries;
			r->finished = true;
			continue;
		}
		if (push_record(r, &rec))
			return r->failed;
	}
}

/* The input ended without a single record: not a trace, however it started (an empty file
 * fails at open). */
static int no_records(struct vpmc_reader *r)
{
	char why[128] = "";
	size_t n = 0;

	if (r->format == VPMC_FORMAT_DAT)
		return fail(r, VPMC_ERR_PARSE, "%s: no trace records", r->name);
	if (r->st.comment_lines)
		n += (size_t)snprintf(why + n, sizeof(why) - n, ", %llu comment or header line%s",
				      (unsigned long long)r->st.comment_lines,
				      r->st.comment_lines == 1 ? "" : "s");
	if (r->st.skipped_lines)
		n += (size_t)snprintf(why + n, sizeof(why) - n, ", %llu malformed (skipped)",
				      (unsigned long long)r->st.skipped_lines);
	if (r->st.truncated_tail)
		snprintf(why + n, sizeof(why) - n, ", the last one cut short");
	return fail(r, VPMC_ERR_PARSE, "%s: no trace records (%llu line%s%s)", r->name,
		    (unsigned long long)r->line, r->line == 1 ? "" : "s", why);
}

int vpmc_reader_next(struct vpmc_reader *r, struct vpmc_event *ev)
{
	int ret;

	if (!r || !ev || !r->open)
		return VPMC_ERR_INVAL;
	if (r->failed)
		return r->failed;
	if (r->done)
		return 0;
	if (r->has_held) {
		*ev = r->held;
		r->has_held = false;
		ret = 1;
	} else if (r->held_end) {
		ret = 0;
	} else {
		ret = r->format == VPMC_FORMAT_VTR ? next_vtr(r, ev) : next_imported(r, ev);
	}
	if (ret == 1)
		r->st.events++;
	else if (ret == 0 && !r->st.records)
		return no_records(r);
	else if (ret == 0)
		r->done = true;
	return ret;
}

void vpmc_reader_where(const struct vpmc_reader *r, char *buf, size_t len)
{
	if (r->format == VPMC_FORMAT_DAT)
		snprintf(buf, len, "%s: record %llu", r->name, (unsigned long long)r->st.records);
	else
		snprintf(buf, len, "%s:%llu", r->name, (unsigned long long)r->line);
}

const char *vpmc_reader_error(const struct vpmc_reader *r)
{
	return r ? r->err.msg : "";
}

enum vpmc_format vpmc_reader_format(const struct vpmc_reader *r)
{
	return r->format;
}

const struct vpmc_pmu_config *vpmc_reader_pmu(const struct vpmc_reader *r)
{
	if (r->vtr && !r->opts.has_pmu)
		return &r->vtr->pmu;
	return &r->pmu;
}

void vpmc_reader_stats(const struct vpmc_reader *r, struct vpmc_reader_stats *st)
{
	*st = r->st;
}

size_t vpmc_reader_nr_warnings(const struct vpmc_reader *r)
{
	return r->nr_warnings;
}

const char *vpmc_reader_warning(const struct vpmc_reader *r, size_t i)
{
	return i < r->nr_warnings ? r->warnings[i] : NULL;
}

int vpmc_reader_source(const struct vpmc_reader *r, const char **kind, const char **file)
{
	if (!r || !r->open)
		return VPMC_ERR_INVAL;
	switch (r->format) {
	case VPMC_FORMAT_VTR:
		*kind = r->vtr->source_kind[0] ? r->vtr->source_kind : NULL;
		*file = r->vtr->source_file[0] ? r->vtr->source_file : NULL;
		return 0;
	case VPMC_FORMAT_DAT:
		*kind = "trace.dat";
		break;
	default:
		*kind = r->tp->layout ? r->tp->layout : "text";
		break;
	}
	*file = r->path;
	return 0;
}

void vpmc_reader_free(struct vpmc_reader *r)
{
	if (!r)
		return;
	if (r->fd > STDIN_FILENO)
		close(r->fd);
	trace_dat_close(r->dat);
	kvm_import_free(r->im);
	free(r->tp);
	free(r->vtr);
	free(r->unknown);
	free(r->unknown_index);
	free(r->buf);
	free(r->mem);
	free(r->name);
	free(r->path);
	free(r);
}
