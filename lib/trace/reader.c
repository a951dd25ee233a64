// SPDX-License-Identifier: GPL-2.0-only
/* reader.c - The pull interface over every trace format: .vtr, kvm tracepoint text, trace.dat.
 *
 * Streaming: text inputs are read through a fixed line buffer (linebuf.h), and nothing grows with
 * the trace except counters, so memory is the same for a 1 kB and a 100 GB trace. Each input
 * kind is a source (sources[]: open, next event, where, close); text and trace.dat records go
 * through the importer (import.h), which turns kvm tracepoints into native events.
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
#include "linebuf.h"
#include "nested_import.h"
#include "text.h"
#include "vtr.h"
#include "internal.h"

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
	WARN_TAIL,    /* the last line cut short; a .vtr's !end line missing (--lenient) */
	WARN_UNREAD,  /* trace.dat: a CPU's ring-buffer pages libtracecmd could not read */
	WARN_VCPU,    /* threads whose vCPU index was given by order of appearance */
	WARN_NR
};

static const unsigned int warn_max[WARN_NR] = {
	[WARN_SKIPPED] = 10,
	[WARN_BACK] = 5,
	[WARN_TAIL] = 2,
	[WARN_UNREAD] = 4, /* each says which CPU and where: one per CPU is plenty */
	[WARN_VCPU] = 1,
};

struct unknown_name {
	char name[KVM_REC_NAME_MAX];
	uint64_t count;
};

struct vpmc_reader;

/* One kind of input, chosen at open (detected or given). */
struct source {
	bool by_name; /* opened by its name and read at offsets (trace.dat), not line by line */
	int (*open)(struct vpmc_reader *r);  /* after the format is known; 0 or the error */
	int (*next)(struct vpmc_reader *r, struct vpmc_event *ev); /* 1, 0 (end) or the error */
	void (*where)(const struct vpmc_reader *r, char *buf, size_t len); /* vpmc_reader_where() */
	void (*close)(struct vpmc_reader *r); /* also after a failed open */
};

struct vpmc_reader {
	struct vpmc_reader_opts opts;
	enum vpmc_format format;
	const struct source *src;     /* NULL before the format is known */
	struct vpmc_pmu_config pmu;
	char *name;                   /* for messages ("-" is shown as "<stdin>") */
	char *path;                   /* as given, for vpmc_reader_source() */
	bool open, done;
	int failed;                   /* sticky error code, 0 if none */

	struct linebuf lb;            /* text inputs; also where detection looks */

	struct text_parser *tp;
	struct vtr_parser *vtr;
	char vendor_from[160];        /* vpmc_reader_vendor_from(), "" until decided */
	bool dat_magic;               /* the input starts as a trace.dat does (format given) */
	char last_reason[VPMC_REASON_MAX]; /* the previous exit's reason (they repeat) */
	bool last_named;              /* and whether it is a VMX or SVM exit-reason name */
	enum vpmc_vendor vendor_seen;
	struct vpmc_event held;       /* .vtr: the first event, read at open with the header */
	struct trace_exit_names exit_names; /* .vtr: exit reasons in the kernel's spelling */
	bool has_held, held_end;      /* it is held; the input ended before any event */
	struct trace_dat *dat;
	struct trace_import *im;
	bool finished;                /* trace_import_finish() done */

	struct unknown_name *unknown; /* READER_UNKNOWN_MAX + 1 ("(other)") entries */
	size_t nr_unknown;
	uint16_t *unknown_index;      /* hash -> 1 + index into unknown[], 0 empty */
	size_t last_unknown;          /* the previous hit: names repeat */

	char warnings[READER_WARNINGS_MAX][VPMC_ERRMSG_MAX];
	size_t nr_warnings;
	unsigned int nr_warn_kind[WARN_NR];
	struct vpmc_reader_stats st;
	struct vpmc__errbuf err;
	uint64_t size;                /* bytes of a regular file or buffer read as text, else 0 */
	void (*progress)(void *data, const struct vpmc_reader *r);
	void *progress_data;
};

void vpmc_reader_opts_default(struct vpmc_reader_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->format = VPMC_FORMAT_AUTO;
	o->guest_ips = TRACE_IMPORT_DEFAULT_GUEST_IPS;
	o->guest_branch_permille = TRACE_IMPORT_DEFAULT_BRANCH_PERMILLE;
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
	linebuf_init(&r->lb);
	r->format = r->opts.format;
	if ((unsigned int)r->format > VPMC_FORMAT_DAT) /* read as text, as it always was */
		r->format = VPMC_FORMAT_TEXT;
	r->pmu = r->opts.pmu;
	if (!r->opts.has_pmu)
		vpmc_pmu_config_default(&r->pmu, VPMC_VENDOR_INTEL);
	*out = r;
	return 0;
}

/* Fail with the message in r->err; the code is sticky (r->failed). Return: @code. */
#define fail(r, code, ...) ((r)->failed = vpmc__set_error(&(r)->err, (code), __VA_ARGS__))

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

/* The next line, without its '\n'. Return: 1, 0 at the end, or an error (I/O). */
static int next_line(struct vpmc_reader *r, struct linebuf_line *l)
{
	int ret = linebuf_next(&r->lb, r->opts.lenient, l, &r->err);

	if (ret < 0)
		r->failed = ret;
	return ret;
}

/* What a bad line of a trace.dat read as text (a format given) adds to its message. */
static const char *dat_hint(const struct vpmc_reader *r)
{
	return r->dat_magic ? " (is it a trace.dat? try --input-format dat or leave --input-format "
			      "out)" : "";
}

/* How a malformed line may be the end of an interrupted recording (bad_line()). */
enum cut_kind {
	CUT_NO,
	CUT_NO_NEWLINE, /* the last line, without its '\n' */
	CUT_CTRL_C,     /* the last line, with "^C" in it (trace-cmd's "qemu-system-x86^Ctrace-cmd:
			 * Received SIGINT" after a terminal's echo of the interrupt) */
};

/* Text: whether malformed line @l is a cut last line. Return: enum cut_kind, or an error. */
static int text_cut(struct vpmc_reader *r, const struct linebuf_line *l)
{
	int last;

	if (l->cut)
		return CUT_NO_NEWLINE;
	if (!memmem(l->p, l->len, "^C", 2))
		return CUT_NO;
	last = linebuf_rest_blank(&r->lb, &r->err);
	if (last < 0)
		return r->failed = last;
	return last ? CUT_CTRL_C : CUT_NO;
}

/*
 * A malformed line: an error, or (lenient) a counted skip with a warning; a cut last line
 * (@cut, enum cut_kind) is what an interrupted recording leaves: a warning. Return: 0 to go on.
 */
static int bad_line(struct vpmc_reader *r, unsigned int col, const char *msg, int cut)
{
	char at[VPMC_ERRMSG_MAX / 2];

	linebuf_where(&r->lb, col, at, sizeof(at));
	if (cut) {
		r->st.truncated_tail = true;
		warn(r, WARN_TAIL, "%s: last line cut short (%s), ignored: %s", at,
		     cut == CUT_NO_NEWLINE ? "no newline at the end" : "^C", msg);
		return 0;
	}
	if (!r->opts.lenient)
		return fail(r, VPMC_ERR_PARSE, "%s: %s%s (--lenient skips such lines)", at, msg,
			    dat_hint(r));
	r->st.skipped_lines++;
	warn(r, WARN_SKIPPED, "%s: %s%s", at, msg, dat_hint(r));
	return 0;
}

/* A .vtr that promised an !end line and ended without it: cut (an error; --lenient: a warning,
 * as a cut last line). "FILE:LINE:" names its last line. Return: 0 or the error. */
static int vtr_truncated(struct vpmc_reader *r, const char *msg)
{
	char at[VPMC_ERRMSG_MAX / 2];

	linebuf_where(&r->lb, 0, at, sizeof(at));
	if (!r->opts.lenient)
		return fail(r, VPMC_ERR_PARSE, "%s: %s", at, msg);
	r->st.truncated_tail = true;
	warn(r, WARN_TAIL, "%s: %s", at, msg);
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
	struct trace_import_opts io = {
		.guest_ips = r->opts.guest_ips,
		.guest_branch_permille = r->opts.guest_branch_permille,
		.host_kernel = r->opts.has_pmu ? r->opts.pmu.host_kernel : VPMC_KERNEL_LATEST,
		.nested = r->opts.nested,
		.nested_events = r->opts.nested || r->opts.nested_events,
		.accesses = r->opts.accesses,
	};

	if (trace_import_new(&r->im, &io))
		return fail(r, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	return 0;
}

/* "FILE:LINE" of the last line read. */
static void line_where(const struct vpmc_reader *r, char *buf, size_t len)
{
	linebuf_where(&r->lb, 0, buf, len);
}

/* ---------------------------------------------------------------------------------------------
 * Text and trace.dat: records through the importer.
 */

/*
 * The record just pushed had a time stamp before its vCPU's latest (CPUs' clocks that differ a
 * little, or a corrupt trace): counted and shown, its events took the latest time; more than
 * READER_BACK_MAX_NS back is no clock skew and an error unless --lenient.
 */
static int time_went_back(struct vpmc_reader *r, const struct trace_import_back *b)
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

/* The first kvm_exit or kvm_nested_vmexit (L0's record of an L2 exit: the same isa) whose isa
 * field or reason name says VMX or SVM decides the vendor (vpmc_reader_vendor_from()). */
static void note_vendor(struct vpmc_reader *r, const struct kvm_record *rec)
{
	unsigned int isa = rec->isa ? rec->isa : trace_exit_reason_isa(rec->reason);
	char where[64];

	if (isa != 1 && isa != 2)
		return;
	r->vendor_seen = isa == 2 ? VPMC_VENDOR_AMD : VPMC_VENDOR_INTEL;
	if (r->src->by_name)
		snprintf(where, sizeof(where), "record %llu", (unsigned long long)r->st.records);
	else
		snprintf(where, sizeof(where), "line %llu", (unsigned long long)r->lb.line);
	if (rec->isa)
		snprintf(r->vendor_from, sizeof(r->vendor_from), "%s isa=%u (%s) at %s",
			 rec->kind == KVM_REC_EXIT ? "kvm_exit" : "kvm_nested_vmexit", isa,
			 isa == 2 ? "SVM" : "VMX", where);
	else
		snprintf(r->vendor_from, sizeof(r->vendor_from), "%s exit reason '%.40s'%s at %s",
			 isa == 2 ? "SVM" : "VMX", rec->reason,
			 rec->kind == KVM_REC_EXIT ? "" : " of kvm_nested_vmexit", where);
}

/* Account for one record and feed it to the importer. Return: 0 or an error. */
static inline int push_record(struct vpmc_reader *r, const struct kvm_record *rec)
{
	r->st.records++;
	if (__builtin_expect((rec->kind == KVM_REC_EXIT || rec->kind == KVM_REC_NESTED_VMEXIT) &&
			     !r->vendor_from[0], 0))
		note_vendor(r, rec);
	/* kvm_mmio is read for stat --event mmio only: for the rest, an event not used */
	if (rec->kind == KVM_REC_OTHER || (rec->kind == KVM_REC_MMIO && !r->opts.accesses)) {
		r->st.unknown_records++;
		if (count_unknown(r, rec->name))
			return r->failed;
	} else if (rec->kind == KVM_REC_LOST) {
		r->st.lost_markers++;
		r->st.lost_events += rec->lost;
	}
	if (trace_import_push(r->im, rec)) {
		if (r->src->by_name)
			return fail(r, VPMC_ERR_LIMIT, "%s: %s", r->name, trace_import_error(r->im));
		return fail(r, VPMC_ERR_LIMIT, "%s:%llu: %s", r->name,
			    (unsigned long long)r->lb.line, trace_import_error(r->im));
	}
	return 0;
}

/* At the end (held records processed too): the importer's counts; the threads whose records
 * never showed a vCPU number were given one by order of appearance (trace_import_push()): say
 * so once when other records had vcpu fields (a layout without any has only that rule). */
static void imported_end(struct vpmc_reader *r)
{
	char who[48] = "the records without a thread id";
	struct trace_import_stats is;

	trace_import_get_stats(r->im, &is);
	r->st.synthesized_entries = is.synthesized_entries;
	if (!is.guessed_threads || !is.vcpu_fields)
		return;
	if (is.guessed_tid >= 0)
		snprintf(who, sizeof(who), "thread %lld", (long long)is.guessed_tid);
	warn(r, WARN_VCPU, "%s: %s showed no vCPU number (no vcpu field, or not within %d held "
	     "records): taken as vCPU %u by order of appearance; %llu thread%s so", r->name, who,
	     TRACE_IMPORT_HOLD_MAX, is.guessed_vcpu, (unsigned long long)is.guessed_threads,
	     is.guessed_threads == 1 ? "" : "s");
}

/* The next event from the importer, fed from @next_record's records as needed. Inlined into
 * each source's next op, so that the record function is a direct call, inlined too. */
static inline __attribute__((always_inline)) int
next_imported(struct vpmc_reader *r, struct vpmc_event *ev,
	      int (*next_record)(struct vpmc_reader *r, struct kvm_record *rec))
{
	struct trace_import_back back;
	struct kvm_record rec;
	int ret;

	for (;;) {
		ret = trace_import_pop(r->im, ev);
		if (ret < 0) /* a held record */
			return fail(r, ret, "%s: %s", r->name, trace_import_error(r->im));
		if (trace_import_went_back(r->im, &back)) {
			if (time_went_back(r, &back))
				return r->failed;
			if (!ret)
				continue; /* the held records after it */
		}
		if (ret)
			return 1;
		if (r->finished) {
			imported_end(r);
			return 0;
		}
		ret = next_record(r, &rec);
		if (ret < 0)
			return ret;
		if (ret == 0) {
			trace_import_finish(r->im);
			r->finished = true;
			continue;
		}
		if (push_record(r, &rec))
			return r->failed;
	}
}

/* ---------------------------------------------------------------------------------------------
 * The .vtr source.
 */

/* The next .vtr event. Return: 1, 0 (end), or an error. */
static int next_vtr(struct vpmc_reader *r, struct vpmc_event *ev)
{
	struct vpmc__lineerr le;
	struct linebuf_line l;
	int ret;

	for (;;) {
		ret = next_line(r, &l);
		if (ret < 0)
			return ret;
		if (!ret) {
			ret = vtr_finish(r->vtr, &le);
			if (ret < 0)
				return fail(r, VPMC_ERR_PARSE, "%s: %s", r->name, le.msg);
			return ret ? vtr_truncated(r, le.msg) : 0;
		}
		r->st.lines++;
		if (l.bad) {
			if (bad_line(r, l.col, l.bad, CUT_NO))
				return r->failed;
			continue;
		}
		ret = vtr_parse_line(r->vtr, l.p, l.len, ev, &le);
		if (ret == 1 && ev->type == VPMC_EV_EXPECT) {
			if (r->opts.expect)
				return 1;
			r->st.comment_lines++; /* a directive: checked, then skipped */
			continue;
		}
		if (ret == 1) {
			r->st.records++;
			if (r->opts.host_kernel) /* the directives come before the first event */
				r->vtr->pmu.host_kernel = r->opts.host_kernel;
			if (ev->type == VPMC_EV_EXIT || ev->type == VPMC_EV_NEXIT ||
			    ev->type == VPMC_EV_NINJECT)
				trace_exit_kernel_name(&r->exit_names, ev->reason);
			if (vpmc__is_nested_event(ev->type) && !r->opts.nested &&
			    !r->opts.nested_events)
				continue; /* only "vpmcsim nested" and convert use them */
			return 1;
		}
		if (!ret)
			r->st.comment_lines++;
		else if (bad_line(r, le.col, le.msg, l.cut ? CUT_NO_NEWLINE : CUT_NO))
			return r->failed;
	}
}

/*
 * A .vtr's directives (!pmu, !host, !source) come before its first event: read up to that event
 * and hold it for the first vpmc_reader_next(), so that vpmc_reader_pmu() and
 * vpmc_reader_source() describe the trace as soon as it is open. A malformed line here is kept
 * (r->failed) for vpmc_reader_next() to return, as it would have been without this.
 */
static int vtr_open(struct vpmc_reader *r)
{
	int ret;

	r->vtr = malloc(sizeof(*r->vtr));
	if (!r->vtr)
		return fail(r, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	vtr_parser_init(r->vtr);
	ret = next_vtr(r, &r->held);
	r->has_held = ret == 1;
	r->held_end = ret == 0;
	return 0;
}

static int vtr_next(struct vpmc_reader *r, struct vpmc_event *ev)
{
	if (r->has_held) {
		*ev = r->held;
		r->has_held = false;
		return 1;
	}
	if (r->held_end)
		return 0;
	return next_vtr(r, ev);
}

static void vtr_close(struct vpmc_reader *r)
{
	free(r->vtr);
}

/* ---------------------------------------------------------------------------------------------
 * The text source.
 */
static int text_open(struct vpmc_reader *r)
{
	r->tp = malloc(sizeof(*r->tp));
	if (!r->tp)
		return fail(r, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	trace_text_init(r->tp);
	return open_importer(r);
}

/* The next text record into *@rec. Return: 1, 0 (end), or an error. */
static int next_text_record(struct vpmc_reader *r, struct kvm_record *rec)
{
	struct vpmc__lineerr le;
	struct linebuf_line l;
	int ret;

	for (;;) {
		ret = next_line(r, &l);
		if (ret <= 0)
			return ret;
		r->st.lines++;
		if (l.bad) {
			if (bad_line(r, l.col, l.bad, CUT_NO))
				return r->failed;
			continue;
		}
		ret = trace_text_parse_line(r->tp, l.p, l.len, rec, NULL, &le);
		if (ret == 1) {
			if (r->opts.nested || r->opts.nested_events) {
				nested_text_fields(rec, l.p, l.len);
				rec->nested.line = r->lb.line;
			}
			rec->pos = r->lb.line; /* a held record's position (text_where()) */
			r->st.partial_lines += rec->partial;
			return 1;
		}
		if (!ret) {
			r->st.comment_lines++;
			continue;
		}
		ret = text_cut(r, &l);
		if (ret < 0 || bad_line(r, le.col, le.msg, ret))
			return r->failed;
	}
}

/* "FILE:LINE" of the record whose events are being returned: a record that waited for its
 * thread's vCPU (trace_import_push()) comes out after later lines were read. */
static void text_where(const struct vpmc_reader *r, char *buf, size_t len)
{
	uint64_t line = r->im ? trace_import_line(r->im) : 0;

	if (line)
		snprintf(buf, len, "%s:%llu", r->name, (unsigned long long)line);
	else
		line_where(r, buf, len);
}

static int text_next(struct vpmc_reader *r, struct vpmc_event *ev)
{
	return next_imported(r, ev, next_text_record);
}

static void text_close(struct vpmc_reader *r)
{
	free(r->tp);
	trace_import_free(r->im);
}

/* ---------------------------------------------------------------------------------------------
 * The trace.dat source.
 */

/* trace.dat is read by name, at offsets: not from standard input, memory, a pipe or a FIFO. */
static int dat_refuse(struct vpmc_reader *r)
{
	struct stat st;

	if (r->lb.fd == STDIN_FILENO && !strcmp(r->path, "-"))
		return fail(r, VPMC_ERR_PARSE, "%s: trace.dat cannot be read from standard input "
			    "(give its file name)", r->name);
	if (r->lb.mem)
		return fail(r, VPMC_ERR_PARSE, "%s: trace.dat cannot be read from memory", r->name);
	/* opened again by name below: a pipe or FIFO would be read from its start no more */
	if (r->lb.fd >= 0 && (fstat(r->lb.fd, &st) || !S_ISREG(st.st_mode)))
		return fail(r, VPMC_ERR_PARSE, "%s: a trace.dat must be a regular file (it is read "
			    "at offsets), not a pipe or FIFO", r->name);
	return 0;
}

static int dat_open(struct vpmc_reader *r)
{
	int ret;

	if (dat_refuse(r))
		return r->failed;
	if (r->lb.fd > STDIN_FILENO) { /* dat.c opens the file itself */
		close(r->lb.fd);
		r->lb.fd = -1;
	}
	ret = trace_dat_open(&r->dat, r->path, r->opts.isolate_dat, &r->err);
	if (ret)
		return r->failed = ret;
	return open_importer(r);
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
			size_t n = strlen(r->err.msg); /* it says where */

			snprintf(r->err.msg + n, sizeof(r->err.msg) - n, " (--lenient skips such %s)",
				 ret == TRACE_DAT_UNREAD ? "pages" : "records");
			r->failed = VPMC_ERR_PARSE;
			return r->failed;
		}
		if (ret == TRACE_DAT_BAD_RECORD)
			r->st.skipped_lines++;
		warn(r, ret == TRACE_DAT_UNREAD ? WARN_UNREAD : WARN_SKIPPED, "%s", r->err.msg);
		vpmc__clear_error(&r->err);
	}
	if (ret < 0)
		r->failed = ret;
	else if (ret == 1)
		rec->pos = r->st.records + 1; /* its number, for dat_where() */
	return ret;
}

static int dat_next(struct vpmc_reader *r, struct vpmc_event *ev)
{
	return next_imported(r, ev, next_dat_record);
}

/* "FILE: record N": records have no line. The number is that of the record whose events are
 * being returned (text_where()). */
static void dat_where(const struct vpmc_reader *r, char *buf, size_t len)
{
	vpmc_reader_where_at(r, vpmc_reader_mark(r), buf, len);
}

static void dat_close(struct vpmc_reader *r)
{
	trace_dat_close(r->dat);
	trace_import_free(r->im);
}

/* One handle over every input (as trace-cmd's tracecmd_input); AUTO only names positions. */
static const struct source sources[] = {
	[VPMC_FORMAT_AUTO] = { .where = line_where },
	[VPMC_FORMAT_VTR] = { false, vtr_open, vtr_next, line_where, vtr_close },
	[VPMC_FORMAT_TEXT] = { false, text_open, text_next, text_where, text_close },
	[VPMC_FORMAT_DAT] = { true, dat_open, dat_next, dat_where, dat_close },
};

/* ---------------------------------------------------------------------------------------------
 * Opening.
 */

/* Set up the source of r->format. Return: 0 or the error. */
static int open_source(struct vpmc_reader *r)
{
	r->open = true;
	r->src = &sources[r->format];
	return r->src->open(r);
}

/* Common to open() and open_mem(): detect the format from the first bytes and open it. */
static int start(struct vpmc_reader *r)
{
	int n = linebuf_peek(&r->lb, sizeof(dat_magic), &r->err);

	if (n < 0)
		return r->failed = n;
	if (!n)
		return fail(r, VPMC_ERR_PARSE, "%s: empty input (no trace)", r->name);
	if (r->format == VPMC_FORMAT_AUTO)
		r->format = detect(r->lb.buf, (size_t)n);
	else
		r->dat_magic = detect(r->lb.buf, (size_t)n) == VPMC_FORMAT_DAT;
	return open_source(r);
}

static int set_names(struct vpmc_reader *r, const char *path)
{
	r->path = strdup(path);
	r->name = strdup(strcmp(path, "-") ? path : "<stdin>");
	r->lb.name = r->name;
	if (!r->path || !r->name)
		return fail(r, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	return 0;
}

/* The size of @fd if it is a regular file (progress), else 0. */
static uint64_t file_size(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

int vpmc_reader_open(struct vpmc_reader *r, const char *path)
{
	if (!r || !path || r->name)
		return VPMC_ERR_INVAL;
	if (set_names(r, path))
		return r->failed;
	if (!strcmp(path, "-")) {
		r->lb.fd = STDIN_FILENO;
		if (sources[r->format].by_name)
			return dat_refuse(r);
	} else {
		if (sources[r->format].by_name) /* no need to read it here */
			return open_source(r);
		r->lb.fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->lb.fd < 0)
			return fail(r, VPMC_ERR_IO, "%s: %s", r->name, strerror(errno));
		r->size = file_size(r->lb.fd);
	}
	return start(r);
}

int vpmc_reader_open_mem(struct vpmc_reader *r, const char *name, const void *data, size_t len)
{
	if (!r || !name || (!data && len) || r->name)
		return VPMC_ERR_INVAL;
	if (set_names(r, name))
		return r->failed;
	r->lb.mem = malloc(len ? len : 1);
	if (!r->lb.mem)
		return fail(r, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	if (len)
		memcpy(r->lb.mem, data, len);
	r->lb.mem_len = len;
	r->size = len;
	if (sources[r->format].by_name)
		return dat_refuse(r);
	return start(r);
}

/* ---------------------------------------------------------------------------------------------
 * Reading.
 */

/* The input ended without a single record: not a trace, however it started (an empty file
 * fails at open). */
static int no_records(struct vpmc_reader *r)
{
	char why[128] = "";
	size_t n = 0;

	if (r->src->by_name)
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
		    (unsigned long long)r->lb.line, r->lb.line == 1 ? "" : "s", why);
}

/* Count an exit whose reason no VMX or SVM name table has (legal: trace-format.md, "exit"). */
static void note_reason(struct vpmc_reader *r, const char *reason)
{
	if (strcmp(reason, r->last_reason)) {
		snprintf(r->last_reason, sizeof(r->last_reason), "%s", reason);
		r->last_named = trace_exit_reason_known(reason);
	}
	if (r->last_named)
		return;
	if (!r->st.unnamed_reasons++)
		snprintf(r->st.first_unnamed_reason, sizeof(r->st.first_unnamed_reason), "%s",
			 reason);
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
	ret = r->src->next(r, ev);
	if (ret == 1) {
		if (ev->type == VPMC_EV_EXIT)
			note_reason(r, ev->reason);
		if (!(++r->st.events % VPMC_READER_PROGRESS_EVERY) && r->progress)
			r->progress(r->progress_data, r);
	} else if (ret == 0 && !r->st.records)
		return no_records(r);
	else if (ret == 0)
		r->done = true;
	return ret;
}

void vpmc_reader_where(const struct vpmc_reader *r, char *buf, size_t len)
{
	sources[r->format].where(r, buf, len);
}

void vpmc_reader_progress(const struct vpmc_reader *r, uint64_t *done, uint64_t *total)
{
	if (r->dat) {
		trace_dat_progress(r->dat, done, total);
		return;
	}
	*done = linebuf_offset(&r->lb);
	*total = r->size;
}

void vpmc_reader_set_progress(struct vpmc_reader *r,
			      void (*fn)(void *data, const struct vpmc_reader *r), void *data)
{
	r->progress = fn;
	r->progress_data = data;
}

uint64_t vpmc_reader_mark(const struct vpmc_reader *r)
{
	/* a record that waited for its thread's vCPU (trace_import_push()) keeps its own place */
	uint64_t n = r->im ? trace_import_line(r->im) : 0;

	if (n)
		return n;
	return r->format == VPMC_FORMAT_DAT ? r->st.records : r->lb.line;
}

void vpmc_reader_where_at(const struct vpmc_reader *r, uint64_t mark, char *buf, size_t len)
{
	if (r->format == VPMC_FORMAT_DAT)
		snprintf(buf, len, "%s: record %llu", r->name, (unsigned long long)mark);
	else
		snprintf(buf, len, "%s:%llu", r->lb.name, (unsigned long long)mark);
}

const char *vpmc_reader_error(const struct vpmc_reader *r)
{
	return r ? r->err.msg : "";
}

enum vpmc_format vpmc_reader_format(const struct vpmc_reader *r)
{
	return r->format;
}

const struct vpmc_nested_assume *vpmc_reader_nested(const struct vpmc_reader *r)
{
	return r->vtr && r->vtr->nested_seen ? &r->vtr->nested : NULL;
}

uint64_t vpmc_reader_nested_partial(const struct vpmc_reader *r)
{
	return r->st.partial_lines;
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

const char *vpmc_reader_vendor_from(const struct vpmc_reader *r, enum vpmc_vendor *vendor)
{
	if (r->vtr && r->vtr->pmu_seen) {
		if (vendor)
			*vendor = r->vtr->pmu.vendor;
		return "!pmu in the .vtr";
	}
	if (r->vendor_from[0] && vendor)
		*vendor = r->vendor_seen;
	return r->vendor_from;
}

const char *vpmc_reader_host_from(const struct vpmc_reader *r)
{
	return r->vtr && r->vtr->host_seen ? "!host in the .vtr" : "";
}

const char *vpmc_reader_gen(const struct vpmc_reader *r)
{
	return r && r->vtr && r->vtr->gen_len ? r->vtr->gen : NULL;
}

enum vpmc_gaps vpmc_reader_gaps(const struct vpmc_reader *r, bool *given)
{
	bool g = r && r->vtr && r->vtr->gaps_seen;

	if (given)
		*given = g;
	return g ? r->vtr->gaps : VPMC_GAPS_RECORDED;
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
	if (r->src)
		r->src->close(r);
	linebuf_free(&r->lb);
	free(r->unknown);
	free(r->unknown_index);
	free(r->name);
	free(r->path);
	free(r);
}

int vpmc_format_parse(enum vpmc_format *out, const char *s)
{
	static const char *const names[] = {
		[VPMC_FORMAT_AUTO] = "auto",
		[VPMC_FORMAT_VTR] = "vtr",
		[VPMC_FORMAT_TEXT] = "text",
		[VPMC_FORMAT_DAT] = "dat",
	};
	size_t i;

	for (i = 0; s && i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum vpmc_format)i;
			return 0;
		}
	}
	return VPMC_ERR_INVAL;
}
