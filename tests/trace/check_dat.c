// SPDX-License-Identifier: GPL-2.0-only
/* check_trace_dat.c - trace.dat through libtracecmd (lib/trace_dat.c) and the importer on it.
 *
 * The recordings are traces/local-kvm (README.md there). Record counts come from each
 * recording's NAME.counts.txt; event counts are worked out from NAME.raw.txt by grep, as each
 * table row's comment says.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd.h>
#include <zlib.h>
#include <zstd.h>

#include "check_common.h"
#include "events.h"
#include "import.h"
#include "dat.h"
#include "dat_direct.h"
#include "text.h"

static char *trace_path(const char *name)
{
	const char *dir = getenv("VPMC_TRACES");
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s/local-kvm/%s", dir ? dir : "traces", name);
	return buf;
}

/* traces/bad/@name, in one of two buffers (two paths may be in use at once). */
static char *bad_path(const char *name)
{
	const char *dir = getenv("VPMC_TRACES");
	static char buf[2][512];
	static int n;

	n = !n;
	snprintf(buf[n], sizeof(buf[n]), "%s/bad/%s", dir ? dir : "traces", name);
	return buf[n];
}

/*
 * Per recording (grep on NAME.raw.txt, which has the same records as NAME.dat):
 *   E = grep -c kvm_emulate_insn:, F = grep -c 'failed=1', G = grep -c 'reinjected=0'
 *   (every kvm_inj_exception is #GP 13 here), U = grep -c kvm_userspace_exit:.
 *   retire = E - 2F - G: a failed instruction has a start and a failed record, neither retires
 *   (handle_emulation_failure()); each #GP cancels its faulting instruction (WRMSR/RDMSR/RDPMC).
 *   branch = non-failed starts of 0f 85 / 73 / 74 / cf (real), ff e0 (pm32); lm64's 48 cf
 *   IRETQs all fail: grep the insn=ARRAY prefixes.
 *   wrmsr / rdmsr = kvm_msr with write=1 / write=0 and exception=0.
 *   entry = U: one before each vCPU's first instruction and one after each userspace exit but
 *   the vCPU's last (the run ends with it).
 * multi-vcpu-real.raw.txt is not committed (7.9 MB); its numbers were taken the same way from
 * shared/traces/local-kvm.
 */
static const struct dat_case {
	const char *name;
	unsigned long records;
	unsigned long entry, retire, branch, wrmsr, rdmsr;
} cases[] = {
	/* E=1661 F=0 G=100 U=81; branches 40 0f 85 + 20 73 + 20 74 + 80 cf (IRET of #GP) */
	{ "small-mixed-real", 2313, 81, 1561, 160, 60, 80 },
	{ "small-mixed-real.v6", 2313, 81, 1561, 160, 60, 80 },
	/* E=1762 F=0 G=100 U=82; 20 0f 85 + 20 73 + 20 74 + 100 ff e0 (jmp eax after #GP) */
	{ "small-mixed-pm32", 2425, 82, 1662, 160, 60, 80 },
	/* E=1562 F=100 G=100 U=82; 20 0f 85 + 20 73 + 20 74 (the 100 48 cf failed) */
	{ "small-mixed-lm64", 2225, 82, 1262, 60, 60, 80 },
	/* E=36524 F=0 G=2200 U=1764 */
	{ "multi-vcpu-real", 50647, 1764, 34324, 3520, 1320, 1760 },
	/* E=3051 F=0 G=250 U=1 */
	{ "pmu-gp-real", 3763, 1, 2801, 300, 100, 100 },
	/* E=2301 F=0 G=100 U=151; rejected WRMSRs go to userspace: no kvm_msr, no #GP */
	{ "pmu-usermsr-real", 3163, 151, 2201, 150, 100, 100 },
};

struct name_count {
	char name[KVM_REC_NAME_MAX];
	unsigned long n;
};

static void count_name(struct name_count *nc, size_t max, const char *name)
{
	size_t i;

	for (i = 0; i < max && nc[i].name[0]; i++) {
		if (!strcmp(nc[i].name, name)) {
			nc[i].n++;
			return;
		}
	}
	ck_assert_uint_lt(i, max);
	snprintf(nc[i].name, sizeof(nc[i].name), "%s", name);
	nc[i].n = 1;
}

/* NAME.counts.txt: "   COUNT event" lines (uniq -c of the recording's event names). */
static void check_counts_file(const char *name, const struct name_count *nc, size_t max)
{
	char file[256], ev[KVM_REC_NAME_MAX];
	unsigned long want, got;
	size_t i, lines = 0, seen = 0;
	FILE *f;

	snprintf(file, sizeof(file), "%s.counts.txt", name);
	if (strstr(name, ".v6"))
		snprintf(file, sizeof(file), "small-mixed-real.counts.txt");
	f = fopen(trace_path(file), "r");
	ck_assert_msg(f, "%s: %s", file, strerror(errno));
	while (fscanf(f, "%lu %63s", &want, ev) == 2) {
		lines++;
		got = 0;
		for (i = 0; i < max && nc[i].name[0]; i++)
			if (!strcmp(nc[i].name, ev))
				got = nc[i].n;
		ck_assert_msg(got == want, "%s: %s: got %lu want %lu", name, ev, got, want);
	}
	fclose(f);
	for (i = 0; i < max && nc[i].name[0]; i++)
		seen++;
	ck_assert_msg(seen == lines, "%s: %zu event names, counts file has %zu", name, seen, lines);
}

START_TEST(test_recording_counts)
{
	const struct dat_case *c = &cases[_i];
	const struct trace_import_opts o = {
		.guest_ips = TRACE_IMPORT_DEFAULT_GUEST_IPS,
		.guest_branch_permille = TRACE_IMPORT_DEFAULT_BRANCH_PERMILLE,
		.host_kernel = VPMC_KERNEL(6, 18),
	};
	unsigned long records = 0, n[VPMC_EV_NR] = { 0 }, branch = 0;
	struct name_count names[32] = { 0 };
	struct trace_import_stats st;
	struct vpmc__errbuf err;
	struct trace_import *im;
	struct trace_dat *d;
	struct kvm_record r;
	struct vpmc_event ev;
	char file[256];
	int ret;

	snprintf(file, sizeof(file), "%s.dat", c->name);
	ret = trace_dat_open(&d, trace_path(file), false, &err);
	ck_assert_msg(ret == 0, "%s: %s", c->name, err.msg);
	ck_assert_int_eq(trace_import_new(&im, &o), 0);
	for (;;) {
		ret = trace_dat_next(d, &r, &err);
		ck_assert_msg(ret >= 0, "%s: %s", c->name, err.msg);
		if (ret == 0)
			trace_import_finish(im);
		else {
			records++;
			count_name(names, ARRAY_SIZE(names), r.name);
			ck_assert_int_eq(trace_import_push(im, &r), 0);
		}
		while (trace_import_pop(im, &ev) == 1) {
			n[ev.type]++;
			branch += ev.type == VPMC_EV_RETIRE && ev.branch;
		}
		if (ret == 0)
			break;
	}
	trace_import_get_stats(im, &st);
	ck_assert_msg(records == c->records, "%s: records %lu want %lu", c->name, records,
		      c->records);
	check_counts_file(c->name, names, ARRAY_SIZE(names));
	ck_assert_msg(n[VPMC_EV_ENTRY] == c->entry, "%s: entry %lu", c->name, n[VPMC_EV_ENTRY]);
	ck_assert_uint_eq(st.synthesized_entries, c->entry);
	ck_assert_msg(n[VPMC_EV_RETIRE] == c->retire, "%s: retire %lu", c->name, n[VPMC_EV_RETIRE]);
	ck_assert_msg(branch == c->branch, "%s: branch %lu", c->name, branch);
	ck_assert_msg(n[VPMC_EV_WRMSR] == c->wrmsr, "%s: wrmsr %lu", c->name, n[VPMC_EV_WRMSR]);
	ck_assert_msg(n[VPMC_EV_RDMSR] == c->rdmsr, "%s: rdmsr %lu", c->name, n[VPMC_EV_RDMSR]);
	/* PVM: no kvm_exit, so no exit events and no guest-mode time despite --guest-ips */
	ck_assert_uint_eq(n[VPMC_EV_EXIT], 0);
	ck_assert_uint_eq(n[VPMC_EV_GUEST], 0);
	trace_import_free(im);
	trace_dat_close(d);
}
END_TEST

/* One record, as the -R text shows it (small-mixed-lm64.raw.txt line 138):
 * kvm-guest-harne-17419 [000] 878.152161: kvm_emulate_insn: rip=2009 csbase=0 len=2
 * insn=ARRAY[48, cf, ...] flags=9 failed=1; in ns (trace-cmd report -t -N):
 * kvm-guest-harne-17419 [000] 878.152160948: kvm_emulate_insn: 0:2009:48 cf (prot64) failed */
START_TEST(test_record_fields)
{
	struct vpmc__errbuf err;
	struct trace_dat *d;
	struct kvm_record r;
	int ret, seen = 0;

	ck_assert_int_eq(trace_dat_open(&d, trace_path("small-mixed-lm64.dat"), false, &err), 0);
	while ((ret = trace_dat_next(d, &r, &err)) == 1) {
		if (r.kind == KVM_REC_EMULATE_INSN && r.failed) {
			ck_assert_str_eq(r.name, "kvm_emulate_insn");
			ck_assert_uint_eq(r.time_ns, 878152160948ULL);
			ck_assert(r.has_time);
			ck_assert_int_eq(r.tid, 17419);
			ck_assert_int_eq(r.cpu, 0);
			ck_assert_int_eq(r.vcpu, -1);
			ck_assert_uint_eq(r.rip, 0x2009);
			ck_assert_uint_eq(r.insn_len, 2);
			ck_assert_uint_eq(r.insn[0], 0x48);
			ck_assert_uint_eq(r.insn[1], 0xcf);
			ck_assert_int_eq(r.mode, KVM_MODE_PROT64);
			seen = 1;
			break;
		}
	}
	ck_assert_int_eq(seen, 1);
	/* line 143, the next faulting access: kvm_msr write=1 ecx=38f data=0x100000001 exception=1 */
	while ((ret = trace_dat_next(d, &r, &err)) == 1) {
		if (r.kind == KVM_REC_MSR && r.gp) {
			ck_assert_int_eq(r.tid, 17419);
			ck_assert(r.write);
			ck_assert_uint_eq(r.msr, 0x38f);
			ck_assert_uint_eq(r.data, 0x100000001ULL);
			break;
		}
	}
	trace_dat_close(d);
}
END_TEST

/* Read @a_path and @b_path side by side: the same records, every byte, each of @b_path's @shift
 * ns later. Return: how many records. */
static unsigned long same_records(const char *a_path, const char *b_path, uint64_t shift)
{
	struct trace_dat *a, *b;
	struct kvm_record ra, rb;
	struct vpmc__errbuf err;
	unsigned long n = 0;
	int x, y;

	memset(&ra, 0, sizeof(ra)); /* their padding: compared too */
	memset(&rb, 0, sizeof(rb));
	ck_assert_msg(trace_dat_open(&a, a_path, true, &err) == 0, "%s", err.msg);
	ck_assert_msg(trace_dat_open(&b, b_path, true, &err) == 0, "%s", err.msg);
	do {
		x = trace_dat_next(a, &ra, &err);
		y = trace_dat_next(b, &rb, &err);
		ck_assert_msg(x == y, "record %lu: %d, %d: %s", n, x, y, err.msg);
		if (x == 1) {
			ck_assert_uint_eq(rb.time_ns, ra.time_ns + shift);
			rb.time_ns = ra.time_ns;
			ck_assert_msg(!memcmp(&ra, &rb, sizeof(ra)), "record %lu differs", n);
			n++;
		}
	} while (x == 1);
	trace_dat_close(a);
	trace_dat_close(b);
	return n;
}

/* The v6 uncompressed copy holds the same records as the v7 zstd file (pages read as they are,
 * and chunks inflated; test_v7_direct_equals_libtracecmd holds the latter to libtracecmd). */
START_TEST(test_v6_equals_v7)
{
	char v7[512];

	snprintf(v7, sizeof(v7), "%s", trace_path("small-mixed-real.dat"));
	ck_assert_uint_eq(same_records(v7, trace_path("small-mixed-real.v6.dat"), 0), 2313);
}
END_TEST

/*
 * An OFFSET option (bench/mkdat.py --option 7=1000000000) moves every time stamp: libtracecmd's
 * handle_options() adds strtoll(text) to ts_offset and timestamp_calc() adds that to each
 * record, 1 s here. trace_dat_direct.c does not apply options, so the file must go to
 * libtracecmd (dat_direct_usable()) while its plain twin is read directly: the same 211
 * records (`trace-cmd report | grep -c ': kvm_'`), each exactly 1,000,000,000 ns later.
 */
START_TEST(test_offset_option_read_by_libtracecmd)
{
	char plain[512];

	snprintf(plain, sizeof(plain), "%s", trace_path("small-mixed-real.p2.v6.dat"));
	ck_assert_uint_eq(same_records(plain, trace_path("small-mixed-real.p2-offset.v6.dat"),
				       1000000000ULL), 211);
}
END_TEST

/* dat_direct_usable(): v6 or v7, CPU data and metadata plain or zstd/zlib, every option walked
 * and one libtracecmd's handle_options() reads without moving a time stamp, CPUs 0..n-1. */
static const struct {
	int version;
	const char *compression;
	bool compressed, meta_compressed, options_unknown, cpus_swapped;
	uint64_t options;
	bool usable;
} direct_gate[] = {
	{ 6, "", false, false, false, false, 0, true },
	/* DONE, CPUSTAT, BUFFER, TRACECLOCK, UNAME, HOOK, CPUCOUNT, VERSION, PROCMAPS, TRACEID,
	 * v7's HEADER_INFO .. CMDLINES section offsets */
	{ 6, "", false, false, false, false, 1 << 0 | 1 << 2 | 1 << 3 | 1 << 4 | 1 << 5 | 1 << 6 |
		 1 << 8 | 1 << 9 | 1 << 10 | 1 << 11 | 0x3f << 16, true },
	{ 6, "", false, false, false, false, 1 << 1, false },   /* DATE: ts_offset += µs * 1000 */
	{ 6, "", false, false, false, false, 1 << 7, false },   /* OFFSET: ts_offset += N */
	{ 6, "", false, false, false, false, 1 << 12, false },  /* TIME_SHIFT: a guest's shifts */
	{ 6, "", false, false, false, false, 1 << 13, false },  /* GUEST */
	{ 6, "", false, false, false, false, 1 << 14, false },  /* TSC2NSEC: mult, shift, offset */
	{ 6, "", false, false, false, false, 1 << 22, false },  /* BUFFER_TEXT: a latency trace */
	{ 6, "", false, false, false, false, 1ULL << 63, false }, /* an id over 62: unknown */
	{ 7, "zstd", true, true, false, false, 1 << 3 | 0x3f << 16, true },
	{ 7, "zlib", true, true, false, false, 0, true },
	{ 7, "none", false, false, false, false, 0, true },
	{ 7, "lz4", true, false, false, false, 0, false },     /* not inflated here */
	{ 7, "lz4", false, true, false, false, 0, false },
	{ 7, "zstd", true, true, true, false, 0, false },      /* a compressed options section */
	{ 7, "zstd", true, true, false, true, 0, false },      /* CPUs 1, 0: renumbered */
	{ 5, "", false, false, false, false, 0, false },
};

START_TEST(test_direct_gate)
{
	struct dat_cpu_data cpu[2] = { { .id = 0 }, { .id = 1 } };
	struct dat_layout l;

	memset(&l, 0, sizeof(l));
	l.version = direct_gate[_i].version;
	snprintf(l.compression, sizeof(l.compression), "%s", direct_gate[_i].compression);
	l.compressed = direct_gate[_i].compressed;
	l.max_chunk = 40960;
	l.header_info.found = l.ftrace_formats.found = l.event_formats.found = true;
	l.header_info.compressed = l.ftrace_formats.compressed = l.event_formats.compressed =
		direct_gate[_i].meta_compressed;
	l.options_unknown = direct_gate[_i].options_unknown;
	if (direct_gate[_i].cpus_swapped) {
		cpu[0].id = 1;
		cpu[1].id = 0;
	}
	l.cpu = cpu;
	l.nr_cpus = 2;
	l.options = direct_gate[_i].options;
	l.page_size = 4096;
	ck_assert_int_eq(dat_direct_usable(&l), direct_gate[_i].usable);
	l.nr_cpus = 0; /* a latency trace: no flyrecord CPUs */
	ck_assert(!dat_direct_usable(&l));
}
END_TEST

/* One CPU's records' time stamps, in order. */
struct cpu_records {
	uint64_t *ts;
	size_t n, cap;
};

static void cpu_records_add(struct cpu_records *c, uint64_t ts)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4096;
		c->ts = realloc(c->ts, c->cap * sizeof(*c->ts));
		ck_assert_ptr_nonnull(c->ts);
	}
	c->ts[c->n++] = ts;
}

/* @got has @want's records on each of @cpus CPUs, in order; both freed. */
static void assert_same_records(struct cpu_records *want, struct cpu_records *got, int cpus)
{
	int cpu;
	size_t i;

	for (cpu = 0; cpu < cpus; cpu++) {
		ck_assert_uint_eq(got[cpu].n, want[cpu].n);
		for (i = 0; i < want[cpu].n; i++)
			ck_assert_uint_eq(got[cpu].ts[i], want[cpu].ts[i]);
		free(got[cpu].ts);
		free(want[cpu].ts);
	}
}

/*
 * Every v7 (zstd) recording, read by trace_dat_direct.c, has exactly the records libtracecmd
 * reads from it (tracecmd_read_data() CPU by CPU): the same count and time stamps per CPU.
 */
static const char *const v7_recordings[] = {
	"small-mixed-real.dat", "small-mixed-pm32.dat", "small-mixed-lm64.dat",
	"multi-vcpu-real.dat", "pmu-gp-real.dat", "pmu-usermsr-real.dat",
};

/* The records libtracecmd reads from @path (tracecmd_read_data() CPU by CPU) into @want.
 * Return: its CPU count (at most 8). */
static int libtracecmd_records(const char *path, struct cpu_records want[8])
{
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	struct tep_record *tr;
	int cpu, cpus;

	ck_assert_ptr_nonnull(h);
	cpus = tep_get_cpus(tracecmd_get_tep(h));
	ck_assert_int_le(cpus, 8);
	for (cpu = 0; cpu < cpus; cpu++) {
		while ((tr = tracecmd_read_data(h, cpu))) {
			cpu_records_add(&want[cpu], tr->ts);
			tracecmd_free_record(tr);
		}
	}
	tracecmd_close(h);
	return cpus;
}

START_TEST(test_v7_direct_equals_libtracecmd)
{
	struct cpu_records want[8] = { { 0 } }, got[8] = { { 0 } };
	int cpus = libtracecmd_records(trace_path(v7_recordings[_i]), want);
	struct vpmc__errbuf err;
	struct trace_dat *d;
	struct kvm_record r;
	int ret;

	ck_assert_int_eq(trace_dat_open(&d, trace_path(v7_recordings[_i]), false, &err), 0);
	while ((ret = trace_dat_next(d, &r, &err)) == 1) {
		ck_assert(r.cpu >= 0 && r.cpu < cpus);
		if (r.kind != KVM_REC_LOST)
			cpu_records_add(&got[r.cpu], r.time_ns);
	}
	ck_assert_msg(ret == 0, "%s", err.msg);
	trace_dat_close(d);
	assert_same_records(want, got, cpus);
}
END_TEST

/* ---- the same recording read as trace.dat and as text ---------------------------------- */

struct stream {
	char *buf;
	size_t len, cap;
};

static void stream_add(struct stream *s, const struct vpmc_event *ev)
{
	char line[160];
	size_t n;

	/* The default report prints µs (rounded); so compare at µs. */
	format_event(ev, 1000, line, sizeof(line));
	n = strlen(line);
	if (s->len + n + 2 > s->cap) {
		s->cap = 2 * s->cap + n + 4096;
		s->buf = realloc(s->buf, s->cap);
		ck_assert_ptr_nonnull(s->buf);
	}
	memcpy(s->buf + s->len, line, n);
	s->len += n;
	s->buf[s->len++] = '\n';
	s->buf[s->len] = '\0';
}

static void import_one(struct trace_import *im, const struct kvm_record *r, struct stream *s)
{
	struct vpmc_event ev;

	if (r)
		ck_assert_msg(trace_import_push(im, r) == 0, "%s", trace_import_error(im));
	else
		trace_import_finish(im);
	while (trace_import_pop(im, &ev) == 1)
		stream_add(s, &ev);
}

static const struct trace_import_opts stream_opts = {
	.guest_ips = TRACE_IMPORT_DEFAULT_GUEST_IPS,
	.guest_branch_permille = TRACE_IMPORT_DEFAULT_BRANCH_PERMILLE,
	.host_kernel = VPMC_KERNEL(6, 18),
};

static void dat_stream(const char *file, struct stream *s)
{
	struct vpmc__errbuf err;
	struct trace_import *im;
	struct trace_dat *d;
	struct kvm_record r;
	int ret;

	ck_assert_msg(trace_dat_open(&d, trace_path(file), false, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(trace_import_new(&im, &stream_opts), 0);
	while ((ret = trace_dat_next(d, &r, &err)) == 1)
		import_one(im, &r, s);
	ck_assert_msg(ret == 0, "%s", err.msg);
	import_one(im, NULL, s);
	trace_import_free(im);
	trace_dat_close(d);
}

static void text_stream(const char *file, struct stream *s)
{
	struct text_parser tp;
	struct vpmc__lineerr terr;
	struct trace_import *im;
	struct kvm_record r;
	enum text_skip skip;
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f = fopen(trace_path(file), "r");
	int ret;

	ck_assert_msg(f, "%s: %s", file, strerror(errno));
	trace_text_init(&tp);
	ck_assert_int_eq(trace_import_new(&im, &stream_opts), 0);
	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (n && line[n - 1] == '\n')
			n--;
		ret = trace_text_parse_line(&tp, line, n, &r, &skip, &terr);
		ck_assert_msg(ret >= 0, "%s:%lu:%u: %s", file, lineno, terr.col, terr.msg);
		if (ret == 1)
			import_one(im, &r, s);
	}
	import_one(im, NULL, s);
	free(line);
	fclose(f);
	trace_import_free(im);
}

static const char *const same_recording[][2] = {
	{ "small-mixed-real.dat", "small-mixed-real.txt" },
	{ "small-mixed-real.dat", "small-mixed-real.raw.txt" },
	{ "small-mixed-real.dat", "small-mixed-real.noplugin.txt" },
	{ "small-mixed-real.v6.dat", "small-mixed-real.txt" },
	{ "small-mixed-pm32.dat", "small-mixed-pm32.txt" },
	{ "small-mixed-pm32.dat", "small-mixed-pm32.raw.txt" },
	{ "small-mixed-lm64.dat", "small-mixed-lm64.txt" },
	{ "small-mixed-lm64.dat", "small-mixed-lm64.raw.txt" },
	{ "multi-vcpu-real.dat", "multi-vcpu-real.txt" },
	{ "pmu-gp-real.dat", "pmu-gp-real.txt" },
	{ "pmu-gp-real.dat", "pmu-gp-real.raw.txt" },
	{ "pmu-usermsr-real.dat", "pmu-usermsr-real.txt" },
	{ "pmu-usermsr-real.dat", "pmu-usermsr-real.raw.txt" },
};

/* NAME.dat and NAME.txt (trace-cmd report of it: plugin layouts, µs) or NAME.raw.txt (-R:
 * field=value) give the same native events, times compared at µs. */
START_TEST(test_dat_and_text_same_events)
{
	const char *dat = same_recording[_i][0], *txt = same_recording[_i][1];
	struct stream a = { 0 }, b = { 0 };
	size_t i, line = 1;

	dat_stream(dat, &a);
	text_stream(txt, &b);
	ck_assert_ptr_nonnull(a.buf);
	for (i = 0; i < a.len && i < b.len && a.buf[i] == b.buf[i]; i++)
		line += a.buf[i] == '\n';
	ck_assert_msg(a.len == b.len && i == a.len, "%s vs %s: event line %zu: '%.60s' vs '%.60s'",
		      dat, txt, line, a.buf + i, b.buf ? b.buf + i : "");
	free(a.buf);
	free(b.buf);
}
END_TEST

/* ---- malformed and missing files ---------------------------------------------------------- */

static char tmp_path[64];

/* @n bytes at @buf in a temp file (its path in tmp_path). */
static const char *temp_file(const uint8_t *buf, size_t n)
{
	int fd;

	snprintf(tmp_path, sizeof(tmp_path), "%s/vpmc-dat-XXXXXX", P_tmpdir);
	fd = mkstemp(tmp_path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, n), (ssize_t)n);
	close(fd);
	return tmp_path;
}

/* @path's bytes (8 MiB at most) in a buffer of 8 MiB; their number in @n. */
static uint8_t *load_trace(const char *path, size_t *n)
{
	FILE *in = fopen(path, "rb");
	uint8_t *buf = malloc(8 << 20);

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(buf);
	*n = fread(buf, 1, 8 << 20, in);
	fclose(in);
	return buf;
}

/* @len bytes of the file @path (all if 0), with @patch applied, in a temp file. */
static const char *temp_copy_path(const char *path, size_t len,
				  void (*patch)(uint8_t *, size_t))
{
	size_t n;
	uint8_t *buf = load_trace(path, &n);

	if (len && len < n)
		n = len;
	if (patch)
		patch(buf, n);
	temp_file(buf, n);
	free(buf);
	return tmp_path;
}

/* The same of local-kvm/@name. */
static const char *temp_copy(const char *name, size_t len, void (*patch)(uint8_t *, size_t))
{
	return temp_copy_path(trace_path(name), len, patch);
}

static uint64_t get_le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put_le64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The first page of CPU @cpu in the v6 copy: flyrecord\0 then per CPU (offset, size). */
static uint8_t *v6_page(uint8_t *buf, size_t n, int cpu)
{
	uint8_t *fly = memmem(buf, n, "flyrecord", 10);

	ck_assert_ptr_nonnull(fly);
	return buf + get_le64(fly + 10 + 16 * cpu);
}

/* Page header: u64 timestamp, u64 commit; commit bit 31 = events were lost before this page
 * (kbuffer MISSING_EVENTS), bit 30 = their count is stored after the data (MISSING_STORED). */
static void patch_lost_unknown(uint8_t *buf, size_t n)
{
	uint8_t *page = v6_page(buf, n, 0);

	put_le64(page + 8, get_le64(page + 8) | 1ULL << 31);
}

static void patch_lost_42(uint8_t *buf, size_t n)
{
	uint8_t *page = v6_page(buf, n, 1);
	uint64_t commit = get_le64(page + 8);

	put_le64(page + 8, commit | 1ULL << 31 | 1ULL << 30);
	put_le64(page + 16 + commit, 42);
}

/* First LOST record and the record after it. */
static void first_lost(const char *path, struct kvm_record *lost, struct kvm_record *next,
		       unsigned long *records)
{
	struct vpmc__errbuf err;
	struct trace_dat *d;
	struct kvm_record r;
	int found = 0;

	*records = 0;
	ck_assert_int_eq(trace_dat_open(&d, path, true, &err), 0);
	while (trace_dat_next(d, &r, &err) == 1) {
		(*records)++;
		if (found == 1) {
			*next = r;
			found = 2;
		}
		if (r.kind == KVM_REC_LOST && !found) {
			*lost = r;
			found = 1;
		}
	}
	trace_dat_close(d);
	ck_assert_int_eq(found, 2);
}

START_TEST(test_lost_events_unknown_count)
{
	struct kvm_record lost, next;
	unsigned long n;

	first_lost(temp_copy("small-mixed-real.v6.dat", 0, patch_lost_unknown), &lost, &next, &n);
	unlink(tmp_path);
	ck_assert_str_eq(lost.name, "LOST EVENTS");
	ck_assert_uint_eq(lost.lost, 0);
	ck_assert_int_eq(lost.cpu, 0);
	ck_assert_int_eq(next.cpu, 0);
	ck_assert_uint_eq(lost.time_ns, next.time_ns);
	ck_assert_uint_eq(n, 2313 + 1);
}
END_TEST

START_TEST(test_lost_events_count)
{
	struct kvm_record lost, next;
	unsigned long n;

	first_lost(temp_copy("small-mixed-real.v6.dat", 0, patch_lost_42), &lost, &next, &n);
	unlink(tmp_path);
	ck_assert_uint_eq(lost.lost, 42);
	ck_assert_int_eq(lost.cpu, 1);
	ck_assert_str_eq(next.name, "kvm_update_master_clock");
	ck_assert_uint_eq(n, 2313 + 1);
}
END_TEST

START_TEST(test_missing_file)
{
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;

	ck_assert_int_eq(trace_dat_open(&d, "/nonexistent/x.dat", true, &err), VPMC_ERR_IO);
	ck_assert_str_eq(err.msg, "/nonexistent/x.dat: No such file or directory");
	ck_assert_ptr_null(d);
}
END_TEST

START_TEST(test_not_a_dat)
{
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	char want[640];

	ck_assert_int_eq(trace_dat_open(&d, trace_path("README.md"), false, &err), VPMC_ERR_PARSE);
	snprintf(want, sizeof(want), "%s: not a trace.dat file (no \\x17\\x08D magic)",
		 trace_path("README.md"));
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* v7 (trace-cmd.dat.v7(5)): the offset of the first options section follows the header's
 * compression name and version strings. */
static size_t v7_first_options_field(const uint8_t *buf)
{
	const char *p = (const char *)buf + 18; /* magic, "tracing", "7", endian, long, page */

	p += strlen(p) + 1;
	p += strlen(p) + 1;
	return (size_t)(p - (const char *)buf);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The data of option @id (the first one) in the options sections, following each DONE. */
static uint8_t *v7_option(uint8_t *buf, size_t n, unsigned int id)
{
	uint64_t sec = get_le64(buf + v7_first_options_field(buf)), next;
	uint8_t *p, *end;

	while (sec && sec + 16 <= n) {
		p = buf + sec + 16;
		end = p + get_le64(buf + sec + 8);
		for (next = 0; p + 6 <= end; p += 6 + get_le32(p + 2)) {
			if ((unsigned int)(p[0] | p[1] << 8) == id)
				return p + 6;
			if (p[0] == 0 && p[1] == 0)
				next = get_le64(p + 6);
		}
		sec = next;
	}
	return NULL;
}

/* CPU @cpu's data (offset, size) from the top instance's BUFFER option. */
static uint8_t *v7_cpu_data(uint8_t *buf, size_t n, int cpu, uint64_t *size)
{
	uint8_t *p = v7_option(buf, n, 3);

	ck_assert_ptr_nonnull(p);
	p += 8;                                      /* the BUFFER section's offset */
	p += strlen((char *)p) + 1;                  /* name */
	p += strlen((char *)p) + 1;                  /* clock */
	p += 8 + 20 * cpu;                           /* page size, CPU count, earlier CPUs */
	*size = get_le64(p + 12);
	return buf + get_le64(p + 4);
}

/* A v7 header or layout with one field changed; the message each is refused with. */
static void patch_page_size(uint8_t *buf, size_t n)
{
	(void)n;
	put_le32(buf + 14, 4095);
}

static void patch_chunk_count(uint8_t *buf, size_t n)
{
	uint64_t size;
	uint8_t *data = v7_cpu_data(buf, n, 0, &size);

	put_le32(data, get_le32(data) + 1);
}

static void patch_chunk_size(uint8_t *buf, size_t n)
{
	uint64_t size;
	uint8_t *data = v7_cpu_data(buf, n, 0, &size);

	put_le32(data + 8, 0x7fffffff); /* the first chunk's size uncompressed */
}

static void patch_chunk_claim(uint8_t *buf, size_t n)
{
	uint64_t size;
	uint8_t *data = v7_cpu_data(buf, n, 0, &size);

	put_le32(data + 8, 60U << 20); /* the first chunk's size uncompressed: 60 MiB */
}

/* The DONE option (its header) that ends the options section at byte @sec. */
static uint8_t *v7_done(uint8_t *buf, uint64_t sec)
{
	uint8_t *p = buf + sec + 16, *end = p + get_le64(buf + sec + 8);

	for (; p + 6 <= end; p += 6 + get_le32(p + 2)) {
		if (p[0] == 0 && p[1] == 0)
			return p;
	}
	ck_abort_msg("no DONE option in the section at byte %llu", (unsigned long long)sec);
	return NULL;
}

static void patch_options_loop(uint8_t *buf, size_t n)
{
	uint64_t first = get_le64(buf + v7_first_options_field(buf)), sec = first;
	uint8_t *done = NULL;

	while (sec) { /* the last DONE (next 0) points back at the first section */
		done = v7_done(buf, sec) + 6;
		sec = get_le64(done);
	}
	(void)n;
	put_le64(done, first);
}

static void patch_section_id(uint8_t *buf, size_t n)
{
	/* EVENT_FORMATS (18) points at the HEADER_INFO section (16) */
	put_le64(v7_option(buf, n, 18), get_le64(v7_option(buf, n, 16)));
}

START_TEST(test_v7_layout)
{
	static const struct {
		void (*patch)(uint8_t *, size_t);
		const char *why; /* after "PATH: corrupt trace.dat: " */
	} layout[] = {
		{ patch_page_size, "page size 4095 (a power of 2, 1 KiB to 16 MiB)" },
		{ patch_chunk_size, "CPU 0's compressed chunk at byte %llu holds 2147483647 bytes, "
				    "more than 1073741824" },
		{ patch_options_loop, "more than 1024 options sections (their next-section offsets "
				      "form a loop?)" },
		{ patch_section_id, "the section at byte %llu has id 16, its option says 18" },
	};
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	char want[640], why[256];
	uint8_t buf[64];
	uint64_t size, at;
	const char *p;
	FILE *f;

	p = temp_copy("small-mixed-real.dat", 0, layout[_i].patch);
	f = fopen(p, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fread(buf, 1, sizeof(buf), f), sizeof(buf));
	fclose(f);
	ck_assert_int_eq(trace_dat_open(&d, p, true, &err), VPMC_ERR_PARSE);
	unlink(p);
	/* the byte a message names: CPU 0's first chunk (after the 4-byte chunk count), or the
	 * HEADER_INFO section, read from the intact file */
	at = 0;
	if (layout[_i].patch == patch_chunk_size || layout[_i].patch == patch_section_id) {
		uint8_t *all = malloc(8 << 20);
		size_t n;

		f = fopen(trace_path("small-mixed-real.dat"), "rb");
		ck_assert_ptr_nonnull(f);
		n = fread(all, 1, 8 << 20, f);
		fclose(f);
		at = layout[_i].patch == patch_section_id ? get_le64(v7_option(all, n, 16)) :
			(uint64_t)(v7_cpu_data(all, n, 0, &size) - all) + 4;
		free(all);
	}
	snprintf(why, sizeof(why), layout[_i].why, (unsigned long long)at);
	snprintf(want, sizeof(want), "%s: corrupt trace.dat: %s", p, why);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* One more chunk counted than CPU 0's data holds: the walk ends inside the extra one. The
 * BUFFER option's CPU size leaves the 4-byte chunk count out. */
START_TEST(test_v7_chunk_count)
{
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	uint8_t *buf = malloc(8 << 20), *data;
	uint64_t size, count;
	char want[640];
	const char *p;
	size_t n;
	FILE *f;

	f = fopen(trace_path("small-mixed-real.dat"), "rb");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, 8 << 20, f);
	fclose(f);
	data = v7_cpu_data(buf, n, 0, &size);
	count = get_le32(data);
	p = temp_copy("small-mixed-real.dat", 0, patch_chunk_count);
	ck_assert_int_eq(trace_dat_open(&d, p, true, &err), VPMC_ERR_PARSE);
	unlink(p);
	snprintf(want, sizeof(want), "%s: truncated or corrupt trace.dat: CPU 0's compressed data "
		 "(%llu bytes at byte %llu) ends inside chunk %llu of %llu", p,
		 (unsigned long long)size + 4, (unsigned long long)(data - buf),
		 (unsigned long long)count + 1, (unsigned long long)count + 1);
	free(buf);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* Cut in the v7 metadata: the first options section (its offset in the header) is gone. */
START_TEST(test_truncated_headers)
{
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	const char *p = temp_copy("small-mixed-real.dat", 300000, NULL);
	uint8_t head[64];
	char want[640];
	FILE *f = fopen(p, "rb");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fread(head, 1, sizeof(head), f), sizeof(head));
	fclose(f);
	ck_assert_int_eq(trace_dat_open(&d, p, true, &err), VPMC_ERR_PARSE);
	unlink(p);
	snprintf(want, sizeof(want), "%s: truncated or corrupt trace.dat: a block of 16 bytes at "
		 "byte %llu runs past the end of the file (300000 bytes)", p,
		 (unsigned long long)get_le64(head + v7_first_options_field(head)));
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* Cut in the CPU data of a v6 file: refused before libtracecmd (which crashes on it). The
 * copy is 5607424 bytes, CPU 0's data ends at 5603328: flyrecord offsets, see trace_dat.c. */
START_TEST(test_truncated_v6_data)
{
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	const char *p = temp_copy("small-mixed-real.v6.dat", 5560000, NULL);
	char want[320];

	ck_assert_int_eq(trace_dat_open(&d, p, true, &err), VPMC_ERR_PARSE);
	snprintf(want, sizeof(want), "%s: truncated trace.dat: CPU data ends at byte 5603328, "
		 "the file has 5560000", p);
	unlink(p);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/*
 * A v6 file whose "flyrecord" tag is changed (what fuzz_dat's mutants spent most of their time
 * on, issue 16): libtracecmd's read_options_type() refuses a tag that begins neither
 * "flyrecord" nor "latency", but after reading the CPU count before it, which
 * tracecmd_close() then walks (2 s of CPU for a mutant whose count was text). Refused at the
 * tag, at the byte where it starts in the file.
 */
static size_t tag_at;

static void patch_data_tag(uint8_t *b, size_t n)
{
	uint8_t *t = memmem(b, n, "flyrecord", 10);

	ck_assert_ptr_nonnull(t);
	tag_at = (size_t)(t - b);
	t[4] = 'R'; /* "flyRecord" */
}

START_TEST(test_v6_bad_data_tag)
{
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	const char *p = temp_copy("small-mixed-real.v6.dat", 0, patch_data_tag);
	char want[320];

	ck_assert_int_eq(trace_dat_open(&d, p, true, &err), VPMC_ERR_PARSE);
	snprintf(want, sizeof(want), "%s: corrupt trace.dat: expected \"flyrecord\" or \"latency\" "
		 "at byte %zu", p, tag_at);
	unlink(p);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* Inputs fuzz/fuzz_dat crashed libtracecmd 1.3.1 with (mutated v6 seeds): a header block size
 * libtracecmd would malloc(), refused by the layout walk (trace_dat_layout.c); for the other,
 * fuzz-dat-bad-page.dat, see test_fuzz_bad_page. */
static const struct {
	const char *file, *why;
} fuzz_finds[] = {
	{ "fuzz-dat-huge-block.dat", "truncated or corrupt trace.dat: a block of 53128745468889 "
				     "bytes at byte 67067 runs past the end of the file (73687 "
				     "bytes)" },
};

/*
 * fuzz/crashes/dat/event-loop*.dat (fuzz_dat, issue 16): a v6 file (the formats of the kvm
 * events the importer reads, one page per CPU) whose CPU 0 page has, at byte 36444, an event
 * of type_len 0 (its length in the next word) of length -10 (0xfffffff6): kbuffer's next event
 * is 4 bytes back, at byte 36440, and the one after that is the one at 36444 again, forever.
 * The reader hung (--lenient: the events' ids are unknown, each a skipped record). Now the
 * CPU's records stop at the event that does not move kbuffer forward, and its page is lost;
 * read directly ([0]) and, with an OFFSET option, by libtracecmd ([1]), which returns the same
 * two records in a loop.
 */
START_TEST(test_fuzz_event_loop)
{
	static const char *const file[2] = { "event-loop.dat", "event-loop-offset.dat" };
	static const char *const why[2] = {
		", on page 1 of 1 of the CPU's data; its page 1 has an event whose length does not "
		"move past it (its events would be read in a loop): 1 page from page 1 on lost",
		": libtracecmd reads the events of that page in a loop (an event whose length does "
		"not move past it); 1 page with data lost",
	};
	const char *top = getenv("top_srcdir");
	unsigned int unread = 0, records = 0;
	struct vpmc__errbuf err;
	struct trace_dat *d;
	struct kvm_record r;
	char path[512], want[768];
	size_t n;
	int ret;

	snprintf(path, sizeof(path), "%s/fuzz/crashes/dat/%s", top ? top : ".", file[_i]);
	ck_assert_int_eq(trace_dat_open(&d, path, true, &err), 0);
	while ((ret = trace_dat_next(d, &r, &err)) != 0) {
		ck_assert_uint_lt(records++, 100000); /* it ends */
		if (ret != TRACE_DAT_UNREAD)
			continue;
		unread++;
		snprintf(want, sizeof(want), "%s: cpu 0: records stop at ts ", path);
		ck_assert_msg(!strncmp(err.msg, want, strlen(want)), "%s", err.msg);
		n = strlen(err.msg);
		ck_assert_uint_gt(n, strlen(why[_i]));
		ck_assert_str_eq(err.msg + n - strlen(why[_i]), why[_i]);
	}
	ck_assert_uint_eq(unread, 1);
	ck_assert_uint_eq(trace_dat_unread_pages(d), 1);
	trace_dat_close(d);
}
END_TEST

/*
 * fuzz-dat-bad-page.dat: each CPU's one page (flyrecord: CPU 0 at byte 77824, CPU 1 at 81920,
 * 4096 bytes each) claims more than a page of data: 1044480 and 37888 bytes. libtracecmd's
 * init_cpu() fails on that and tracecmd_close() then crashes; trace_dat_direct.c refuses each
 * page as update_page_info() does, CPU by CPU: no records (trace-cmd report shows none either),
 * both CPUs' page reported lost, in CPU order.
 */
START_TEST(test_fuzz_bad_page)
{
	const char *dir = getenv("VPMC_TRACES");
	static const unsigned int claims[2] = { 1044480, 37888 };
	struct vpmc__errbuf err;
	struct trace_dat *d;
	struct kvm_record r;
	char path[512], want[768];
	int cpu = 0, ret;

	snprintf(path, sizeof(path), "%s/bad/fuzz-dat-bad-page.dat", dir ? dir : "traces");
	ck_assert_int_eq(trace_dat_open(&d, path, true, &err), 0);
	while ((ret = trace_dat_next(d, &r, &err)) != 0) {
		ck_assert_int_eq(ret, TRACE_DAT_UNREAD);
		ck_assert_int_lt(cpu, 2);
		snprintf(want, sizeof(want), "%s: cpu %d: no records: its page 1 holds %u bytes, more "
			 "than a page (4096); its data is lost (1 page)", path, cpu, claims[cpu]);
		ck_assert_str_eq(err.msg, want);
		cpu++;
	}
	ck_assert_int_eq(cpu, 2);
	ck_assert_uint_eq(trace_dat_unread_pages(d), 2);
	trace_dat_close(d);
}
END_TEST

/* trace_dat_open() of @path (@isolate as trace_dat_open()'s) refuses it as corrupt, with the
 * message "@path: @why", and returns no reader. */
static void assert_refused(const char *path, bool isolate, const char *why)
{
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	char want[768];

	ck_assert_int_eq(trace_dat_open(&d, path, isolate, &err), VPMC_ERR_PARSE);
	snprintf(want, sizeof(want), "%s: %s", path, why);
	ck_assert_str_eq(err.msg, want);
	ck_assert_ptr_null(d);
}

START_TEST(test_fuzz_finds)
{
	const char *dir = getenv("VPMC_TRACES");
	char path[512];

	snprintf(path, sizeof(path), "%s/bad/%s", dir ? dir : "traces", fuzz_finds[_i].file);
	assert_refused(path, true, fuzz_finds[_i].why);
}
END_TEST

/*
 * Inputs libtracecmd 1.3.1 / libtraceevent 1.7.1 crash on inside tracecmd_open() (fresh-user
 * F10; `trace-cmd report` dies of SIGSEGV on each): one changed byte of a recording, cut small
 * (bench/mkdat.py --strip --pages 1 for the v6 ones; the v7 ones are small-mixed-real.dat with
 * its kallsyms section replaced by an empty uncompressed one, every later offset moved by
 * 1011712 bytes). Each passes the layout walk:
 * - crash-v6-header-page: byte 49, in header_page's text ("u64 timestamp" loses its field
 *   name): libtracecmd's update_page_info() then wants an 8-byte time stamp, init_cpu() fails
 *   for CPU 0 and tracecmd_close() in tracecmd_open_fd()'s cleanup follows CPU 1's unset
 *   lists (SIGSEGV). trace_dat_direct.c refuses it as update_page_info() does, no crash;
 * - crash-v6-header-page-offset: the same with an OFFSET option (mkdat.py --option 7=0), so it
 *   goes to libtracecmd, which crashes on it in the child that opens it first;
 * - crash-v6-event-format: byte 26756, a ' ' made ')' inside kvm_nested_vmexit's print fmt
 *   ("{ 0x040 + 8, "DF excp" }"), and crash-v7-event-format: byte 4549, inside the zstd event
 *   formats section: tep_parse_event() crashes on the text (strcmp on NULL), in the child that
 *   parses the formats first.
 * crash-v7-first-chunk is read: see test_first_chunk_lost.
 */
static const struct {
	const char *file, *why;
} crash_finds[] = {
	{ "crash-v6-header-page.dat", "corrupt trace.dat: header_page has no 8-byte time stamp "
				      "(libtracecmd's update_page_info() refuses it)" },
	{ "crash-v6-header-page-offset.dat", "libtracecmd could not open this trace.dat (crashed "
					     "on it: corrupt?)" },
	{ "crash-v6-event-format.dat", "libtraceevent could not parse this trace.dat's event "
				       "formats (crashed on them: corrupt?)" },
	{ "crash-v7-event-format.dat", "libtraceevent could not parse this trace.dat's event "
				       "formats (crashed on them: corrupt?)" },
};

START_TEST(test_crash_finds)
{
	const char *dir = getenv("VPMC_TRACES");
	char path[512];

	snprintf(path, sizeof(path), "%s/bad/%s", dir ? dir : "traces", crash_finds[_i].file);
	assert_refused(path, true, crash_finds[_i].why);
}
END_TEST

/* CPU 0's records of recording @name on its first @pages pages (libtracecmd's own numbering of
 * the intact recording): how many, the time of the last and its page (from 1). CPU 1's records
 * in @cpu1. */
static void intact_records_at(const char *path, uint64_t pages, unsigned long *n0,
			      uint64_t *last_ts, uint64_t *last_page, unsigned long *cpu1)
{
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	FILE *f = fopen(path, "rb");
	struct tep_record *r;
	uint64_t base = 0;
	uint8_t head[18];
	uint32_t ps;

	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fread(head, 1, sizeof(head), f), sizeof(head));
	fclose(f);
	ps = get_le32(head + 14); /* the header's page size */
	*n0 = 0;
	while ((r = tracecmd_read_data(h, 0))) {
		if (!*n0)
			base = r->offset & ~(uint64_t)(ps - 1); /* page 1 holds records */
		if ((r->offset - base) / ps < pages) {
			(*n0)++;
			*last_ts = r->ts;
			*last_page = (r->offset - base) / ps + 1;
		}
		tracecmd_free_record(r);
	}
	for (*cpu1 = 0; (r = tracecmd_read_data(h, 1)); (*cpu1)++)
		tracecmd_free_record(r);
	tracecmd_close(h);
}

static void intact_records(const char *name, uint64_t pages, unsigned long *n0,
			   uint64_t *last_ts, uint64_t *last_page, unsigned long *cpu1)
{
	intact_records_at(trace_path(name), pages, n0, last_ts, last_page, cpu1);
}

/* CPU 0's compressed chunks in @path, and the one holding byte @byte: its number (from 1) and
 * file offset, the pages (inflated size / 4096) before it, and in all. */
struct chunk_info {
	uint64_t number, count, at, before, total;
	uint64_t last_at; /* the last chunk's file offset */
};

static void chunk_info(const char *path, uint64_t byte, struct chunk_info *ci)
{
	uint8_t *buf = malloc(8 << 20), *p;
	uint64_t size, i;
	FILE *f = fopen(path, "rb");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, 8 << 20, f);
	fclose(f);
	p = v7_cpu_data(buf, n, 0, &size);
	memset(ci, 0, sizeof(*ci));
	ci->count = get_le32(p);
	for (i = 1, p += 4; i <= ci->count; i++, p += 8 + get_le32(p)) {
		ci->last_at = (uint64_t)(p - buf);
		if ((uint64_t)(p - buf) + 8 + get_le32(p) <= byte) {
			ci->before += get_le32(p + 4) / 4096;
		} else if (!ci->number) {
			ci->number = i;
			ci->at = (uint64_t)(p - buf);
		}
		ci->total += get_le32(p + 4) / 4096;
	}
	free(buf);
}

/* Read @path to the end: the records, and the TRACE_DAT_UNREAD errors (each @want). */
static void read_with_unread(const char *path, const char *want, unsigned long *records,
			     unsigned long *unread, uint64_t *unread_pages)
{
	struct vpmc__errbuf err;
	struct trace_dat *d;
	struct kvm_record r;
	int ret;

	*records = *unread = 0;
	ck_assert_int_eq(trace_dat_open(&d, path, true, &err), 0);
	while ((ret = trace_dat_next(d, &r, &err)) != 0) {
		if (ret == TRACE_DAT_UNREAD) {
			ck_assert_str_eq(err.msg, want);
			(*unread)++;
			continue;
		}
		ck_assert_msg(ret == 1, "%s", err.msg);
		(*records)++;
	}
	*unread_pages = trace_dat_unread_pages(d);
	trace_dat_close(d);
}

/* Read @path: exactly one TRACE_DAT_UNREAD (@want), @lost pages lost, @records records. */
static void check_one_unread(const char *path, const char *want, uint64_t lost,
			     unsigned long records)
{
	unsigned long got, unread;
	uint64_t got_lost;

	read_with_unread(path, want, &got, &unread, &got_lost);
	ck_assert_uint_eq(unread, 1);
	ck_assert_uint_eq(got_lost, lost);
	ck_assert_uint_eq(got, records);
}

/*
 * bad/cut-v7-chunk.dat (fresh-user F11): pmu-gp-real.dat cut like the v7 crash finds, byte
 * 34259 changed: inside CPU 0's last compressed chunk (pages 31-40 of 40), which then does not
 * inflate. The pages before it are read (libtracecmd, reading the intact recording, says which
 * records and times they hold); trace_dat_next() says once where CPU 0's records stop and what
 * is lost, then goes on with CPU 1.
 */
START_TEST(test_cut_chunk)
{
	const char *dir = getenv("VPMC_TRACES");
	unsigned long n0, cpu1;
	uint64_t ts = 0, page = 0;
	struct chunk_info ci;
	char path[512], want[768];

	snprintf(path, sizeof(path), "%s/bad/cut-v7-chunk.dat", dir ? dir : "traces");
	chunk_info(path, 34259, &ci);
	ck_assert_uint_eq(ci.before, 30);
	ck_assert_uint_eq(ci.total, 40);
	intact_records("pmu-gp-real.dat", ci.before, &n0, &ts, &page, &cpu1);
	snprintf(want, sizeof(want), "%s: cpu 0: records stop at ts %llu.%09llu, on page %llu of "
		 "%llu of the CPU's data; its compressed chunk %llu of %llu (byte %llu) does not "
		 "inflate (zstd): %llu pages from page %llu on lost", path,
		 (unsigned long long)(ts / 1000000000), (unsigned long long)(ts % 1000000000),
		 (unsigned long long)page, (unsigned long long)ci.total,
		 (unsigned long long)ci.number, (unsigned long long)ci.count,
		 (unsigned long long)ci.at, (unsigned long long)(ci.total - ci.before),
		 (unsigned long long)ci.before + 1);
	check_one_unread(path, want, 10, n0 + cpu1);
}
END_TEST

/*
 * bad/crash-v7-first-chunk.dat: byte 19433 changed, inside CPU 0's first compressed chunk
 * (libtracecmd 1.3.1 crashes in tracecmd_open() on it: init_cpu() fails, its cleanup follows
 * unset lists). Read here: CPU 0 has no records and all of its pages are lost, said once;
 * CPU 1's records are all there (as libtracecmd reads them from the intact recording).
 */
START_TEST(test_first_chunk_lost)
{
	const char *dir = getenv("VPMC_TRACES");
	struct tracecmd_input *h = tracecmd_open(trace_path("small-mixed-real.dat"),
						 TRACECMD_FL_LOAD_NO_PLUGINS);
	unsigned long cpu1 = 0;
	struct tep_record *r;
	struct chunk_info ci;
	char path[512], want[768];

	ck_assert_ptr_nonnull(h);
	while ((r = tracecmd_read_data(h, 1))) {
		cpu1++;
		tracecmd_free_record(r);
	}
	tracecmd_close(h);
	snprintf(path, sizeof(path), "%s/bad/crash-v7-first-chunk.dat", dir ? dir : "traces");
	chunk_info(path, 19433, &ci);
	ck_assert_uint_eq(ci.number, 1);
	snprintf(want, sizeof(want), "%s: cpu 0: no records: its compressed chunk 1 of %llu (byte "
		 "%llu) does not inflate (zstd); its data is lost (%llu pages)", path,
		 (unsigned long long)ci.count, (unsigned long long)ci.at,
		 (unsigned long long)ci.total);
	check_one_unread(path, want, ci.total, cpu1);
}
END_TEST

/* small-mixed-real.dat with CPU 0's second page, inside its first compressed chunk, claiming
 * 4097 bytes of data (commit): the chunk inflated, patched, deflated again (zstd level 19) and
 * padded to its old size with a zstd skippable frame, so nothing else in the file moves. */
static void patch_page_commit(uint8_t *buf, size_t n)
{
	uint64_t size;
	uint8_t *chunk = v7_cpu_data(buf, n, 0, &size) + 4;
	uint32_t csize = get_le32(chunk), usize = get_le32(chunk + 4);
	uint8_t *raw = malloc(usize), *z = malloc(csize);
	size_t zn;

	ck_assert_uint_eq(ZSTD_decompress(raw, usize, chunk + 8, csize), usize);
	ck_assert_uint_ge(usize, 2 * 4096);
	put_le64(raw + 4096 + 8, (get_le64(raw + 4096 + 8) & ~((1ULL << 27) - 1)) | 4097);
	zn = ZSTD_compress(z, csize, raw, usize, 19);
	ck_assert(!ZSTD_isError(zn) && zn + 8 <= csize);
	memcpy(chunk + 8, z, zn);
	put_le32(chunk + 8 + zn, 0x184D2A50); /* skippable frame: magic, size, bytes */
	put_le32(chunk + 8 + zn + 4, (uint32_t)(csize - zn - 8));
	memset(chunk + 8 + zn + 8, 0, csize - zn - 8);
	free(raw);
	free(z);
}

/*
 * A page claiming more data than a page (inside compressed data, where the layout walk cannot
 * see it): libtracecmd's update_page_info() refuses it ("bad page read") and ends the CPU's
 * records there. So here: CPU 0's records on page 1 (libtracecmd reading the intact
 * recording says which), then its pages 2 on are reported lost, once; CPU 1's all read.
 */
START_TEST(test_bad_page_in_chunk)
{
	unsigned long n0, cpu1;
	uint64_t ts = 0, page = 0;
	struct chunk_info ci;
	char want[768];
	const char *p = temp_copy("small-mixed-real.dat", 0, patch_page_commit);

	chunk_info(trace_path("small-mixed-real.dat"), 0, &ci);
	intact_records("small-mixed-real.dat", 1, &n0, &ts, &page, &cpu1);
	ck_assert_uint_eq(page, 1);
	snprintf(want, sizeof(want), "%s: cpu 0: records stop at ts %llu.%09llu, on page 1 of "
		 "%llu of the CPU's data; its page 2 holds 4097 bytes, more than a page (4096): "
		 "%llu pages from page 2 on lost", p, (unsigned long long)(ts / 1000000000),
		 (unsigned long long)(ts % 1000000000), (unsigned long long)ci.total,
		 (unsigned long long)ci.total - 1);
	check_one_unread(p, want, ci.total - 1, n0 + cpu1);
	unlink(p);
}
END_TEST

/*
 * v7 CPU data is one stream in chunks (trace-cmd.dat.v7(5)): how it is cut into chunks does not
 * change it. bad/v7-30pages.dat is a recording's first 30 pages per CPU (bench/mkdat.py --strip
 * --pages 30, then trace-cmd convert to v7 zstd: 6156 records, `trace-cmd report | grep -c
 * ': kvm_'`); each variant below (fresh-user finds, written by a v7 rewriter that recompresses)
 * holds the same stream and must read as exactly the same records:
 * - v7-empty-chunk: a chunk inflating to 0 bytes after each CPU's first (it once re-read the
 *   chunk before it);
 * - v7-split-chunk: every chunk split in two at byte 6000, inside a page (pages then span two
 *   chunks; trace-cmd report misreads this one: 279 records);
 * - v7-chunk-size-plus1: CPU 0's first chunk header says 40961 bytes inflated for 40960
 *   (libtracecmd's tracecmd_uncompress_chunk() takes what the chunk inflates to).
 * And v7-4pages.dat (417 records) as trace-cmd writes it without compression (convert
 * --compression none: sections and pages plain) and recompressed with zlib (trace-cmd's other
 * algorithm; its zlib sections and chunks are zlib compress2() streams).
 */
static const struct {
	const char *intact, *variant;
	unsigned long records;
} same_stream[] = {
	{ "v7-30pages.dat", "v7-empty-chunk.dat", 6156 },
	{ "v7-30pages.dat", "v7-split-chunk.dat", 6156 },
	{ "v7-30pages.dat", "v7-chunk-size-plus1.dat", 6156 },
	{ "v7-4pages.dat", "v7-4pages-none.dat", 417 },
	{ "v7-4pages.dat", "v7-4pages-zlib.dat", 417 },
};

START_TEST(test_v7_same_stream)
{
	ck_assert_uint_eq(same_records(bad_path(same_stream[_i].intact),
				       bad_path(same_stream[_i].variant), 0),
			  same_stream[_i].records);
}
END_TEST

/*
 * bad/v7-chunk-size-0.dat: v7-30pages.dat with CPU 0's last chunk header (of 3; pages 21-30)
 * saying it inflates to 0 bytes. The CPU's size (the sum of the headers) then ends at page 20,
 * and libtracecmd stops there without a word; here the chunk does not fit its 0 bytes: reported,
 * with CPU 0's records on pages 1-20 and all of CPU 1's read (libtracecmd on the intact file
 * says which).
 */
/* The records of @path (read directly, no probe) CPU by CPU; the most the heap's mmap(2)ed
 * blocks grew by from before the open to any record (bytes, mallinfo2(): the plain build's). */
static size_t read_records(const char *path, struct cpu_records got[8])
{
	size_t before = mallinfo2().hblkhd, most = 0, now;
	struct vpmc__errbuf err;
	struct trace_dat *d;
	struct kvm_record r;
	int ret;

	ck_assert_int_eq(trace_dat_open(&d, path, false, &err), 0);
	while ((ret = trace_dat_next(d, &r, &err)) == 1) {
		ck_assert(r.cpu >= 0 && r.cpu < 8);
		if (r.kind != KVM_REC_LOST)
			cpu_records_add(&got[r.cpu], r.time_ns);
		now = mallinfo2().hblkhd;
		if (now > before && now - before > most)
			most = now - before;
	}
	ck_assert_msg(ret == 0, "%s", err.msg);
	trace_dat_close(d);
	return most;
}

/*
 * small-mixed-real.dat (zstd) with its CPU 0's first chunk claiming 60 MiB inflated (what a
 * corrupt header may say; the chunk's zstd frame says what it holds, ten pages): the same
 * records, and no buffer of the claimed size (the reader's was allocated from the largest
 * claim at the open: 60 MiB, by mmap(2)).
 */
START_TEST(test_v7_chunk_claim)
{
	struct cpu_records want[8] = { { 0 } }, got[8] = { { 0 } };
	const char *p;
	size_t grown;

	read_records(trace_path("small-mixed-real.dat"), want);
	p = temp_copy("small-mixed-real.dat", 0, patch_chunk_claim);
	grown = read_records(p, got);
	unlink(p);
	ck_assert_uint_lt(grown, 1U << 20);
	assert_same_records(want, got, 8);
}
END_TEST

/* ---- v7 options sections: compressed ones walked inflated, each ended by a DONE ---------- */

enum { OPTS_WHOLE, OPTS_NO_DONE, OPTS_CLAIM_MORE };

static uint64_t last_inflated; /* compress_options(): the last section's options, inflated */

/* @n bytes of options (@data) appended to @buf (@len bytes) as a compressed options section, as
 * trace-cmd writes a compressed section: id 0, flags 1 (compressed), string id @name, size;
 * then the compressed size (4), the size inflated (4: @n + @claim), the bytes compressed with
 * zlib's compress2() (@zlib) or zstd. Return: its offset. */
static uint64_t append_compressed(uint8_t *buf, size_t *len, const uint8_t *data, size_t n,
				  uint32_t name, bool zlib, uint32_t claim)
{
	uint64_t at = *len;
	uint8_t *z = buf + at + 24;
	uLongf zn = compressBound(n);

	if (zlib) {
		ck_assert_int_eq(compress2(z, &zn, data, n, 9), Z_OK);
	} else {
		zn = ZSTD_compress(z, ZSTD_compressBound(n), data, n, 19);
		ck_assert(!ZSTD_isError(zn));
	}
	put_le32(buf + at, 1U << 16); /* id 0, flags 1 */
	put_le32(buf + at + 4, name);
	put_le64(buf + at + 8, 8 + zn);
	put_le32(buf + at + 16, (uint32_t)zn);
	put_le32(buf + at + 20, (uint32_t)n + claim);
	*len = at + 24 + zn;
	return at;
}

/*
 * The v7 file @path with every options section compressed (@zlib, else zstd) and appended, the
 * last first (each DONE then points at the next one's copy), the header pointing at the first
 * copy; the sections as recorded stay where they were, unread. @how: OPTS_NO_DONE leaves the
 * last section's DONE out, OPTS_CLAIM_MORE has its block claim one byte more than it inflates
 * to. Return: the temp file; the copies' offsets in @at (first to last), their number in @nr.
 */
static const char *compress_options(const char *path, bool zlib, int how, uint64_t at[8],
				    int *nr)
{
	size_t n, len;
	uint8_t *buf = load_trace(path, &n), *data;
	uint64_t sec[8], next = 0, size, done;
	int k, i;

	sec[0] = get_le64(buf + v7_first_options_field(buf));
	for (k = 0; sec[k] && k < 7; k++)
		sec[k + 1] = get_le64(v7_done(buf, sec[k]) + 6);
	len = n;
	for (i = k - 1; i >= 0; i--) {
		size = get_le64(buf + sec[i] + 8);
		data = malloc(size);
		ck_assert_ptr_nonnull(data);
		memcpy(data, buf + sec[i] + 16, size);
		done = (uint64_t)(v7_done(buf, sec[i]) - (buf + sec[i] + 16));
		put_le64(data + done + 6, next);
		if (i == k - 1 && how == OPTS_NO_DONE)
			size = done;
		if (i == k - 1)
			last_inflated = size;
		next = at[i] = append_compressed(buf, &len, data, size, get_le32(buf + sec[i] + 4),
						 zlib, i == k - 1 && how == OPTS_CLAIM_MORE);
		free(data);
	}
	put_le64(buf + v7_first_options_field(buf), next);
	*nr = k;
	temp_file(buf, len);
	free(buf);
	return tmp_path;
}

/* @path's layout: walked, its options all known (@known: else left to libtracecmd), and
 * whether the direct reader reads it. */
static bool direct_reads(const char *path, bool known)
{
	struct vpmc__errbuf err;
	struct dat_layout l;
	bool usable;

	ck_assert_msg(dat_layout_read(&l, path, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(l.options_unknown, !known);
	usable = dat_direct_usable(&l);
	dat_layout_free(&l);
	return usable;
}

static const char *const compressions[] = { "v7-4pages.dat", "v7-4pages-zlib.dat" };

/*
 * v7-4pages.dat (zstd) and its zlib twin with each of their 3 options sections compressed
 * (trace-cmd writes them plain; libtracecmd's handle_options() inflates a compressed one): the
 * walk inflates them too and finds every option (the BUFFER option, with the CPUs, is in the
 * last), so the direct reader reads the file: the records of the file as recorded, and (zstd:
 * Debian's libtracecmd is built without zlib) those libtracecmd reads from it.
 */
START_TEST(test_v7_options_compressed)
{
	struct cpu_records want[8] = { { 0 } }, got[8] = { { 0 } };
	struct cpu_records recorded[8] = { { 0 } }, again[8] = { { 0 } };
	const char *p;
	uint64_t at[8];
	int nr, cpus = 2; /* (BUFFER: 2 CPUs) */

	p = compress_options(bad_path(compressions[_i]), _i == 1, OPTS_WHOLE, at, &nr);
	ck_assert_int_eq(nr, 3);
	ck_assert(direct_reads(p, true));
	if (_i == 0) {
		cpus = libtracecmd_records(p, want);
		read_records(p, got);
	}
	read_records(p, again);
	unlink(p);
	read_records(bad_path(compressions[_i]), recorded);
	ck_assert_uint_gt(recorded[0].n + recorded[1].n, 0);
	assert_same_records(recorded, again, cpus);
	if (_i == 0)
		assert_same_records(want, got, cpus);
}
END_TEST

/*
 * v7-4pages.dat (zstd) so, the last section's block claiming one byte more than it inflates
 * to: libtracecmd reads what inflates (tracecmd_uncompress_block()), the walk takes only a
 * block that inflates to its size, as for metadata. Left to libtracecmd, which reads the
 * records as recorded.
 */
START_TEST(test_v7_options_claim_more)
{
	struct cpu_records want[8] = { { 0 } }, got[8] = { { 0 } };
	const char *p;
	uint64_t at[8];
	int nr, cpus;

	p = compress_options(bad_path("v7-4pages.dat"), false, OPTS_CLAIM_MORE, at, &nr);
	ck_assert(!direct_reads(p, false));
	cpus = libtracecmd_records(bad_path("v7-4pages.dat"), want);
	read_records(p, got);
	unlink(p);
	assert_same_records(want, got, cpus);
}
END_TEST

/* v7-4pages.dat's second options section (of 3): its DONE option's size, 8, made 4. */
static uint64_t done_at;

static void patch_done_size(uint8_t *buf, size_t n)
{
	uint64_t second = get_le64(v7_done(buf, get_le64(buf + v7_first_options_field(buf))) + 6);
	uint8_t *done = v7_done(buf, second);

	(void)n;
	done_at = (uint64_t)(done - buf);
	put_le32(done + 2, 4);
}

/* Its last options section's size made 0 (its options then lie past it). */
static void patch_last_section_empty(uint8_t *buf, size_t n)
{
	uint64_t sec = get_le64(buf + v7_first_options_field(buf)), next;

	(void)n;
	while ((next = get_le64(v7_done(buf, sec) + 6)))
		sec = next;
	done_at = sec;
	put_le64(buf + sec + 8, 0);
}

/*
 * Options sections that libtracecmd's handle_options() reads past or refuses, refused at the
 * walk on both paths: a DONE option shorter than the 8 bytes of the next section's offset
 * (handle_option_done() returns -1: before, the walk took it as the last section and left the
 * file, with no CPUs, to libtracecmd, which then refused it) and a section that ends without
 * a DONE (libtracecmd reads the bytes after it as options: here the BUFFER option the section
 * held, so it read the file; the walk saw no CPUs and left the file to libtracecmd); the same
 * in a compressed section, whose inflated block ends (libtracecmd fails there).
 */
START_TEST(test_v7_options_done)
{
	const char *p;
	char why[256];
	uint64_t at[8];
	int nr;

	p = temp_copy_path(bad_path("v7-4pages.dat"), 0, patch_done_size);
	snprintf(why, sizeof(why), "corrupt trace.dat: the DONE option at byte %llu has 4 bytes, "
		 "not the 8 of the next options section's offset", (unsigned long long)done_at);
	assert_refused(p, false, why);
	unlink(p);
	p = temp_copy_path(bad_path("v7-4pages.dat"), 0, patch_last_section_empty);
	snprintf(why, sizeof(why), "corrupt trace.dat: the options section at byte %llu ends "
		 "without a DONE option (0 bytes)", (unsigned long long)done_at);
	assert_refused(p, false, why);
	unlink(p);
	p = compress_options(bad_path("v7-4pages.dat"), false, OPTS_NO_DONE, at, &nr);
	snprintf(why, sizeof(why), "corrupt trace.dat: the options section at byte %llu ends "
		 "without a DONE option (%llu bytes, inflated)", (unsigned long long)at[2],
		 (unsigned long long)last_inflated);
	ck_assert_int_eq(nr, 3);
	assert_refused(p, false, why);
	unlink(p);
}
END_TEST

START_TEST(test_v7_chunk_size_0)
{
	unsigned long n0, cpu1;
	uint64_t ts = 0, page = 0;
	const char *p = bad_path("v7-chunk-size-0.dat");
	struct chunk_info ci;
	char want[768];

	chunk_info(p, UINT64_MAX, &ci);
	ck_assert_uint_eq(ci.count, 3);
	intact_records_at(bad_path("v7-30pages.dat"), 20, &n0, &ts, &page, &cpu1);
	p = bad_path("v7-chunk-size-0.dat");
	snprintf(want, sizeof(want), "%s: cpu 0: records stop at ts %llu.%09llu, on page %llu of "
		 "20 of the CPU's data; its compressed chunk 3 of 3 (byte %llu) does not inflate "
		 "(zstd): 1 page from page 21 on lost", p, (unsigned long long)(ts / 1000000000),
		 (unsigned long long)(ts % 1000000000), (unsigned long long)page,
		 (unsigned long long)ci.last_at);
	check_one_unread(p, want, 1, n0 + cpu1);
}
END_TEST

/*
 * bad/v7-garbled-chunk.dat: v7-30pages.dat with a byte of CPU 0's second chunk flipped: it
 * still inflates, to garbage. Records whose event id the file does not describe are
 * TRACE_DAT_BAD_RECORD, skipped (the reader counts them with --lenient; trace-cmd report prints
 * them as unknown and goes on); every other record is read: all of CPU 1's, and all of CPU 0's
 * on the pages of its other chunks (1-10, 21-30), in order.
 */
START_TEST(test_v7_garbled_chunk)
{
	struct tracecmd_input *h = tracecmd_open(bad_path("v7-30pages.dat"),
						 TRACECMD_FL_LOAD_NO_PLUGINS);
	struct cpu_records want0 = { 0 }, got0 = { 0 };
	unsigned long cpu1 = 0, got1 = 0, bad = 0;
	struct vpmc__errbuf err;
	struct trace_dat *d;
	struct kvm_record r;
	struct tep_record *tr;
	uint64_t base = 0, pg;
	size_t i, j;
	int ret;

	ck_assert_ptr_nonnull(h);
	while ((tr = tracecmd_read_data(h, 0))) {
		if (!want0.n && !base)
			base = tr->offset & ~4095ULL;
		pg = (tr->offset - base) / 4096 + 1;
		if (pg <= 10 || pg > 20)
			cpu_records_add(&want0, tr->ts);
		tracecmd_free_record(tr);
	}
	for (; (tr = tracecmd_read_data(h, 1)); cpu1++)
		tracecmd_free_record(tr);
	tracecmd_close(h);
	ck_assert_int_eq(trace_dat_open(&d, bad_path("v7-garbled-chunk.dat"), true, &err), 0);
	while ((ret = trace_dat_next(d, &r, &err)) != 0) {
		if (ret == TRACE_DAT_BAD_RECORD) {
			/* an event id the file does not describe, or a record shorter than its
			 * event's format */
			ck_assert_msg(strstr(err.msg, ": cpu 0 ts ") && strstr(err.msg, ": record "),
				      "%s", err.msg);
			bad++;
			continue;
		}
		ck_assert_msg(ret == 1, "%s", err.msg);
		if (r.cpu == 0)
			cpu_records_add(&got0, r.time_ns);
		else
			got1++;
	}
	trace_dat_close(d);
	ck_assert_uint_gt(bad, 0);
	ck_assert_uint_eq(got1, cpu1);
	for (i = j = 0; i < want0.n && j < got0.n; j++) {
		if (got0.ts[j] == want0.ts[i])
			i++;
	}
	ck_assert_uint_eq(i, want0.n);
	free(want0.ts);
	free(got0.ts);
}
END_TEST

/*
 * CPU numbers of a v7 BUFFER option (bad/v7-4pages.dat: 412 records on CPU 0, 5 on CPU 1), as
 * trace-cmd report shows them:
 * - v7-cpu-gap: CPU 1 numbered 5 (as `trace-cmd record -M` can leave a gap): in order, read
 *   directly; its 5 records carry cpu 5;
 * - v7-cpu5: CPU 0 numbered 5 (listed 5, 1): libtracecmd indexes CPUs by number, so it reads
 *   this one: 412 records on CPU 5, 5 on CPU 1;
 * - v7-cpus-swapped: the two listed as 1, 0 (libtracecmd's): 412 records on CPU 1, 5 on 0;
 * - v7-cpu-huge: CPU 8388608 (a flipped byte; libtracecmd would allocate for 8 M CPUs).
 */
START_TEST(test_v7_cpu_numbers)
{
	static const struct {
		const char *file;
		int cpu_a, cpu_b;
		unsigned long n_a, n_b;
	} numbered[] = {
		{ "v7-4pages.dat", 0, 1, 412, 5 },
		{ "v7-cpu-gap.dat", 0, 5, 412, 5 },
		{ "v7-cpu5.dat", 5, 1, 412, 5 },
		{ "v7-cpus-swapped.dat", 1, 0, 412, 5 },
	};
	struct vpmc__errbuf err;
	struct trace_dat *d;
	struct kvm_record r;
	unsigned long n_a, n_b;
	char want[768];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(numbered); i++) {
		n_a = n_b = 0;
		ck_assert_int_eq(trace_dat_open(&d, bad_path(numbered[i].file), true, &err), 0);
		while ((ret = trace_dat_next(d, &r, &err)) == 1) {
			ck_assert_msg(r.cpu == numbered[i].cpu_a || r.cpu == numbered[i].cpu_b, "%s: cpu %d",
				      numbered[i].file, r.cpu);
			if (r.cpu == numbered[i].cpu_a)
				n_a++;
			else
				n_b++;
		}
		ck_assert_msg(ret == 0, "%s", err.msg);
		trace_dat_close(d);
		ck_assert_uint_eq(n_a, numbered[i].n_a);
		ck_assert_uint_eq(n_b, numbered[i].n_b);
	}
	ck_assert_int_eq(trace_dat_open(&d, bad_path("v7-cpu-huge.dat"), true, &err),
			 VPMC_ERR_PARSE);
	snprintf(want, sizeof(want), "%s: corrupt trace.dat: the BUFFER option at byte ",
		 bad_path("v7-cpu-huge.dat"));
	ck_assert_msg(!strncmp(err.msg, want, strlen(want)) &&
		      strstr(err.msg, " names CPU 8388608 (more than 8191)"), "%s", err.msg);
}
END_TEST

static void patch_header_page_tag(uint8_t *buf, size_t n)
{
	(void)n;
	buf[20] = 'A'; /* "header_page" starts at byte 18, after the v6 file header */
}

/* A v6 file cut or changed inside its "header_page" tag (fresh-user: it was "libtracecmd cannot
 * read this trace.dat"): the layout walk says which. */
START_TEST(test_v6_header_tag)
{
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	char want[640];
	const char *p = temp_copy("small-mixed-real.p2.v6.dat", 30, NULL);

	ck_assert_int_eq(trace_dat_open(&d, p, true, &err), VPMC_ERR_PARSE);
	unlink(p);
	snprintf(want, sizeof(want), "%s: truncated trace.dat: the file ends in its header (30 "
		 "bytes)", p);
	ck_assert_str_eq(err.msg, want);
	p = temp_copy("small-mixed-real.p2.v6.dat", 0, patch_header_page_tag);
	ck_assert_int_eq(trace_dat_open(&d, p, true, &err), VPMC_ERR_PARSE);
	unlink(p);
	snprintf(want, sizeof(want), "%s: corrupt trace.dat: no header_page or header_event block "
		 "at byte 18", p);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* kvm_exit records written over CPU 0's first page of small-mixed-real.p2.v6.dat (the local
 * recordings have no kvm_exit: the emulating host enters the guest without VM-exits). The
 * layout is the file's own kvm_exit format (ID 103; exit_reason @8, guest_rip @16, isa @24,
 * vcpu_id @56; 72 bytes); each event: a header word, type_len 18 (72 / 4) with time delta 0. */
static const struct {
	uint32_t reason, isa, vcpu;
	uint64_t rip;
	const char *name; /* as the format's print fmt prints it (`trace-cmd report -N`) */
} exits[] = {
	{ 32, 1, 3, 0xffffffff81000000ULL, "MSR_WRITE" },
	{ 0x80000021, 1, 0, 0x1000, "INVALID_STATE FAILED_VMENTRY" },
	{ 0x7c, 2, 1, 0x2000, "msr" },
	{ 0x7777, 2, 1, 0x3000, "0x7777" },
	{ 32, 1, 3, 0x4000, "MSR_WRITE" },
};

static void patch_exits(uint8_t *buf, size_t n)
{
	uint8_t *page = v6_page(buf, n, 0), *e = page + 16;
	size_t i;

	put_le64(page + 8, ARRAY_SIZE(exits) * (4 + 72)); /* commit */
	for (i = 0; i < ARRAY_SIZE(exits); i++, e += 4 + 72) {
		memset(e, 0, 4 + 72);
		put_le32(e, 18);                   /* type_len 18, time delta 0 */
		e[4] = 103;                        /* common_type */
		put_le32(e + 4 + 4, 4242);         /* common_pid */
		put_le32(e + 4 + 8, exits[i].reason);
		put_le64(e + 4 + 16, exits[i].rip);
		put_le32(e + 4 + 24, exits[i].isa);
		put_le32(e + 4 + 56, exits[i].vcpu);
	}
}

START_TEST(test_exit_fields)
{
	const char *p = temp_copy("small-mixed-real.p2.v6.dat", 0, patch_exits);
	struct vpmc__errbuf err;
	struct trace_dat *d;
	struct kvm_record r;
	size_t i = 0;
	int ret;

	ck_assert_int_eq(trace_dat_open(&d, p, true, &err), 0);
	while ((ret = trace_dat_next(d, &r, &err)) == 1) {
		if (r.kind != KVM_REC_EXIT)
			continue;
		ck_assert_uint_lt(i, ARRAY_SIZE(exits));
		ck_assert_str_eq(r.name, "kvm_exit");
		ck_assert_str_eq(r.reason, exits[i].name);
		ck_assert_int_eq(r.vcpu, (int32_t)exits[i].vcpu);
		ck_assert_uint_eq(r.rip, exits[i].rip);
		ck_assert_int_eq(r.tid, 4242);
		ck_assert_int_eq(r.cpu, 0);
		i++;
	}
	ck_assert_msg(ret == 0, "%s", err.msg);
	trace_dat_close(d);
	unlink(p);
	ck_assert_uint_eq(i, ARRAY_SIZE(exits));
}
END_TEST

/* CPU 0's first page of small-mixed-real.p2.v6.dat (2 pages a CPU) with commit byte 3 made 0xc2
 * (fresh-user: a SIGSEGV): missed events (bit 31), their count stored (bit 30) and a data size
 * 32 MiB larger (bit 25). kbuffer_load_subbuffer() reads that count past the data, wherever the
 * size says: the page is refused before it, as update_page_info() refuses a size over a page. */
static void patch_commit_flags(uint8_t *buf, size_t n)
{
	uint8_t *page = v6_page(buf, n, 0);

	page[8 + 3] = 0xc2;
}

START_TEST(test_commit_flags)
{
	const char *p = temp_copy("small-mixed-real.p2.v6.dat", 0, patch_commit_flags);
	uint8_t *buf = malloc(8 << 20), *page;
	uint64_t size;
	size_t n;
	char want[768];
	FILE *f = fopen(trace_path("small-mixed-real.p2.v6.dat"), "rb");

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, 8 << 20, f);
	fclose(f);
	page = v6_page(buf, n, 0);
	size = (get_le64(page + 8) & ((1ULL << 27) - 1)) | 1ULL << 25;
	free(buf);
	snprintf(want, sizeof(want), "%s: cpu 0: no records: its page 1 holds %llu bytes, more than "
		 "a page (4096); its data is lost (2 pages)", p, (unsigned long long)size);
	check_one_unread(p, want, 2, 5); /* CPU 1's 5 records (trace-cmd report) */
	unlink(p);
}
END_TEST

/* CPU 0's first page with its first event made a padding of length -4 (0xfffffffc): kbuffer's
 * next event is the same one, no record between (__next_event() never returned: the reader
 * hung, on both paths). */
static void patch_endless_padding(uint8_t *buf, size_t n)
{
	uint8_t *page = v6_page(buf, n, 0);

	put_le32(page + 16, 29); /* type_len 29: padding, delta 0 */
	put_le32(page + 20, 0xfffffffc);
}

/* Read directly: CPU 0's records end at its first page, both its pages lost (2 pages a CPU),
 * CPU 1's 5 records read (trace-cmd report). */
START_TEST(test_endless_padding_direct)
{
	const char *p = temp_copy("small-mixed-real.p2.v6.dat", 0, patch_endless_padding);
	char want[768];

	snprintf(want, sizeof(want), "%s: cpu 0: no records: its page 1 has events that loop with "
		 "no record in them (libtraceevent would walk them forever); its data is lost (2 "
		 "pages)", p);
	check_one_unread(p, want, 2, 5);
	unlink(p);
}
END_TEST

/* With an OFFSET option, for libtracecmd: the file is refused before it opens it, at CPU 0's
 * first page, the loop at data byte 0 (page byte 16). */
START_TEST(test_endless_padding_libtracecmd)
{
	const char *p = temp_copy("small-mixed-real.p2-offset.v6.dat", 0, patch_endless_padding);
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	uint8_t *buf = malloc(8 << 20);
	FILE *f = fopen(p, "rb");
	char want[768];
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, 8 << 20, f);
	fclose(f);
	ck_assert_int_eq(trace_dat_open(&d, p, false, &err), VPMC_ERR_PARSE);
	snprintf(want, sizeof(want), "%s: corrupt trace.dat: the ring-buffer page at byte %llu: "
		 "its events loop with no record in them from byte 16 of it (libtraceevent would "
		 "walk them forever)", p, (unsigned long long)(v6_page(buf, n, 0) - buf));
	ck_assert_str_eq(err.msg, want);
	free(buf);
	unlink(p);
}
END_TEST

/*
 * The file version is a string libtracecmd's tracecmd_alloc_fd() strtol()s: 0 to 6 (text that
 * is no number: 0) it reads as version 6, 8 and more it refuses ("Unsupported file version").
 * small-mixed-real.p2.v6.dat with its "6" made "\x01", "0" and "5": the same 211 records (trace-cmd
 * report | grep -c ': kvm_'); made "8": refused.
 */
static char version_char;

static void patch_version(uint8_t *buf, size_t n)
{
	ck_assert_uint_gt(n, 10);
	buf[10] = (uint8_t)version_char;
}

START_TEST(test_version_string)
{
	static const char read_as_6[] = { '\x01', '0', '5' };
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	char plain[512], want[768];
	const char *p;
	size_t i;

	snprintf(plain, sizeof(plain), "%s", trace_path("small-mixed-real.p2.v6.dat"));
	for (i = 0; i < sizeof(read_as_6); i++) {
		version_char = read_as_6[i];
		p = temp_copy("small-mixed-real.p2.v6.dat", 0, patch_version);
		ck_assert_uint_eq(same_records(plain, p, 0), 211);
		unlink(p);
	}
	version_char = '8';
	p = temp_copy("small-mixed-real.p2.v6.dat", 0, patch_version);
	ck_assert_int_eq(trace_dat_open(&d, p, true, &err), VPMC_ERR_PARSE);
	snprintf(want, sizeof(want), "%s: libtracecmd cannot read this trace.dat (truncated or "
		 "corrupt)", p);
	ck_assert_str_eq(err.msg, want);
	unlink(p);
}
END_TEST

/* Inputs of fuzz/crashes/dat/ that fuzz_dat crashed on, refused at open now (read without the
 * probe: the refusal, not the isolating child, must stop them). */
static const struct {
	const char *file, *why;
} refused_finds[] = {
	/*
	 * fuzz/crashes/dat/kbuffer-past-page.dat (fuzz_dat, CI of 0a0730b: a SIGBUS in
	 * kbuffer_next_event() under tracecmd_read_data()): a v6 file with an OFFSET option (read
	 * by libtracecmd), CPU 0's data at byte 12288 (0x3000). That page's commit is 4080 (a full
	 * page of 4096), and its events from data byte 4012 on are records of type_len 0 whose
	 * length word is 0: length 0 - 4, rounded to -4, each 8 + (-4) = 4 bytes after the one
	 * before. The one at 4072 has its data at 4080, page byte 16 + 4080 = 4096: its common
	 * fields (8 bytes) lie past the page, and the next one's length word (at 4076 + 4, page
	 * byte 4096) too. libtracecmd maps the page where it maps the file: kbuffer read past the
	 * map (a page of the file past its end in the fuzzer's memfd: SIGBUS). The layout walk
	 * refuses the page first.
	 */
	{ "kbuffer-past-page.dat", "corrupt trace.dat: the ring-buffer page at byte 12288: a "
				   "record's common fields would be read past the page (byte 4096 of "
				   "it)" },
	/*
	 * fuzz/crashes/dat/version-unknown-long-6.dat (fuzz_dat: a SIGSEGV in
	 * kbuffer_load_subbuffer() under tracecmd_read_data()): version "\x01" (read as 6 by
	 * libtracecmd, see test_version_string), then byte order 0, long size 6, page size 4096.
	 * The layout walk took only "6" and "7" and left the file to libtracecmd unwalked: a page
	 * whose commit (0x2316600) is far over a page had kbuffer read the missed-events count 36
	 * MB past it. Walked as v6, it is refused at its long size.
	 */
	{ "version-unknown-long-6.dat", "corrupt trace.dat: long size 6 (4 or 8)" },
	/*
	 * fuzz/crashes/dat/sections-loop-v7.dat (fuzz_dat, found by helper-34 with the probe off:
	 * `vpmcsim stat` hung in the probe's child, inside tracecmd_open()): a v7 file, header
	 * "\x17\x08Dtracing", "7\0", endianness, long size, page size (18 bytes), "zstd\0",
	 * "1.5.4\0", the first options offset (8): the sections start at byte 37. From there
	 * libtracecmd's read_metadata_strings() reads section headers one after another; they lead
	 * to zero bytes (id 0, size 0: the next header 16 bytes on) from 10639 (0x298f) to the
	 * header at 10879 (0x2a7f), whose size (bytes ff..ff 00, little-endian) is
	 * 0xffffffffffffff00: -256 as lseek()'s off_t, 10879 + 16 - 256 = 10639, for ever.
	 */
	{ "sections-loop-v7.dat", "corrupt trace.dat: the section at byte 10879 has size -256, "
				  "back to byte 10639: its sections, read one after another from "
				  "byte 37 as libtracecmd's read_metadata_strings() reads them, "
				  "repeat for ever" },
	/*
	 * fuzz/crashes/dat/options-block-past-section-v7.dat (fuzz_dat campaign: 19-58 s per run
	 * in the fuzzer, 0.03 s in `vpmcsim stat`): a v7 zstd file whose first options section
	 * (the header's offset, bytes 29-36: 0x2b5b = 11099) has id 0, flags 0x43d9 (bit 0:
	 * compressed) and size 0: it ends at 11099 + 16 = 11115, where libtracecmd reads the
	 * block's compressed size anyway (0x55010000, 1.36 GB) and mallocs it twice:
	 * under ASan, 170 MB of shadow written per malloc and free. The sizes lie past the section.
	 */
	{ "options-block-past-section-v7.dat", "corrupt trace.dat: a block of 8 bytes at byte "
					       "11115 runs past the end of its section (byte "
					       "11115)" },
	/*
	 * fuzz/crashes/dat/options-tag-prefix-v6.dat (fuzz_dat campaign: 2-3 s per run in the
	 * fuzzer, a 4 GB malloc in the probe's child): a v6 file whose CPU count (byte 9532) is
	 * followed by the tag "options \xe1\xff" (bytes 9536-9545), not "options  \0".
	 * libtracecmd's read_options_type() compares only its first 7 bytes, so it reads option
	 * 0xfffb (bytes 9546-9547) of size 0xffffffbc (bytes 9548-9551) and mallocs that. The walk
	 * takes the tag as libtracecmd does, and the block runs past the file.
	 */
	{ "options-tag-prefix-v6.dat", "truncated or corrupt trace.dat: a block of 4294967228 "
				       "bytes at byte 9552 runs past the end of the file (11501 "
				       "bytes)" },
	/*
	 * fuzz/crashes/dat/options-done-short-v7.dat (fuzz_dat campaign: about 0.5 s per run, 1 s
	 * in `vpmcsim stat`): a v7 zstd file whose second options section (byte 11595: id 0,
	 * flags 0, size 108) holds option 0x8010 (unknown: the file went to libtracecmd), the five
	 * section offsets 17-21, CPUCOUNT (bytes 11695-11704) of 0x62000002 CPUs, then at byte
	 * 11705 a DONE option of size 0. libtracecmd's handle_option_done() refuses a DONE of less
	 * than 8 bytes, and tracecmd_close() then looped over the 1.6 G CPUs the CPUCOUNT gave.
	 * The walk took the short DONE as the last section's.
	 */
	{ "options-done-short-v7.dat", "corrupt trace.dat: the DONE option at byte 11705 has 0 "
				       "bytes, not the 8 of the next options section's offset" },
	/*
	 * fuzz/crashes/dat/options-section-no-done-v7.dat (fuzz_dat campaign: about 0.5 s per
	 * run): a v7 zstd file whose third options section (byte 16514, the second's DONE next
	 * offset 0x4082) has size 0 (bytes 16522-16529). libtracecmd's handle_options() reads
	 * options until a DONE, past the section: the BUFFER option at byte 16530 (the section's
	 * as recorded), and read the file through libtracecmd. The walk saw no options there, so
	 * no CPUs, and left the file to libtracecmd.
	 */
	{ "options-section-no-done-v7.dat", "corrupt trace.dat: the options section at byte 16514 "
					    "ends without a DONE option (0 bytes)" },
};

START_TEST(test_refused_finds)
{
	const char *top = getenv("top_srcdir");
	char path[512];

	snprintf(path, sizeof(path), "%s/fuzz/crashes/dat/%s", top ? top : ".",
		 refused_finds[_i].file);
	assert_refused(path, false, refused_finds[_i].why);
}
END_TEST

static Suite *trace_dat_suite(void)
{
	Suite *s = suite_create("trace_dat");
	TCase *rec = tcase_create("recordings");
	TCase *bad = tcase_create("malformed");

	tcase_add_loop_test(rec, test_recording_counts, 0, ARRAY_SIZE(cases));
	tcase_add_test(rec, test_record_fields);
	tcase_add_test(rec, test_v6_equals_v7);
	tcase_add_test(rec, test_exit_fields);
	tcase_add_test(rec, test_offset_option_read_by_libtracecmd);
	tcase_add_loop_test(rec, test_direct_gate, 0, ARRAY_SIZE(direct_gate));
	tcase_add_loop_test(rec, test_v7_direct_equals_libtracecmd, 0, ARRAY_SIZE(v7_recordings));
	tcase_add_loop_test(rec, test_dat_and_text_same_events, 0, ARRAY_SIZE(same_recording));
	tcase_add_test(bad, test_lost_events_unknown_count);
	tcase_add_test(bad, test_lost_events_count);
	tcase_add_test(bad, test_missing_file);
	tcase_add_test(bad, test_not_a_dat);
	tcase_add_test(bad, test_truncated_headers);
	tcase_add_test(bad, test_truncated_v6_data);
	tcase_add_test(bad, test_v6_bad_data_tag);
	tcase_add_loop_test(bad, test_fuzz_finds, 0, ARRAY_SIZE(fuzz_finds));
	tcase_add_test(bad, test_fuzz_bad_page);
	tcase_add_loop_test(bad, test_fuzz_event_loop, 0, 2);
	tcase_add_loop_test(bad, test_v7_layout, 0, 4); /* layout[] */
	tcase_add_test(bad, test_v7_chunk_count);
	tcase_add_loop_test(bad, test_crash_finds, 0, ARRAY_SIZE(crash_finds));
	tcase_add_test(bad, test_cut_chunk);
	tcase_add_test(bad, test_first_chunk_lost);
	tcase_add_test(bad, test_bad_page_in_chunk);
	tcase_add_loop_test(bad, test_v7_same_stream, 0, ARRAY_SIZE(same_stream));
	tcase_add_test(bad, test_v7_chunk_size_0);
	tcase_add_test(bad, test_v7_chunk_claim);
	tcase_add_loop_test(bad, test_v7_options_compressed, 0, ARRAY_SIZE(compressions));
	tcase_add_test(bad, test_v7_options_claim_more);
	tcase_add_test(bad, test_v7_options_done);
	tcase_add_test(bad, test_v7_garbled_chunk);
	tcase_add_test(bad, test_v7_cpu_numbers);
	tcase_add_test(bad, test_v6_header_tag);
	tcase_add_test(bad, test_commit_flags);
	tcase_add_test(bad, test_endless_padding_direct);
	tcase_add_test(bad, test_endless_padding_libtracecmd);
	tcase_add_test(bad, test_version_string);
	tcase_add_loop_test(bad, test_refused_finds, 0, ARRAY_SIZE(refused_finds));
	suite_add_tcase(s, rec);
	suite_add_tcase(s, bad);
	return s;
}

CHECK_MAIN(trace_dat_suite)
