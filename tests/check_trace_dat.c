/* check_trace_dat.c - trace.dat through libtracecmd (lib/trace_dat.c) and the importer on it.
 *
 * The recordings are traces/local-kvm (README.md there). Record counts come from each
 * recording's NAME.counts.txt; event counts are worked out from NAME.raw.txt by grep, as each
 * table row's comment says.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_common.h"
#include "check_events.h"
#include "import.h"
#include "trace_dat.h"
#include "trace_text.h"

static char *trace_path(const char *name)
{
	const char *dir = getenv("VPMC_TRACES");
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s/local-kvm/%s", dir ? dir : "traces", name);
	return buf;
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
	const struct kvm_import_opts o = { KVM_IMPORT_DEFAULT_GUEST_IPS,
					   KVM_IMPORT_DEFAULT_BRANCH_PERMILLE, VPMC_KERNEL(6, 18) };
	unsigned long records = 0, n[VPMC_EV_NR] = { 0 }, branch = 0;
	struct name_count names[32] = { 0 };
	struct kvm_import_stats st;
	struct vpmc__errbuf err;
	struct kvm_import *im;
	struct trace_dat *d;
	struct kvm_record r;
	struct vpmc_event ev;
	char file[256];
	int ret;

	snprintf(file, sizeof(file), "%s.dat", c->name);
	ret = trace_dat_open(&d, trace_path(file), &err);
	ck_assert_msg(ret == 0, "%s: %s", c->name, err.msg);
	ck_assert_int_eq(kvm_import_new(&im, &o), 0);
	for (;;) {
		ret = trace_dat_next(d, &r, &err);
		ck_assert_msg(ret >= 0, "%s: %s", c->name, err.msg);
		if (ret == 0)
			kvm_import_finish(im);
		else {
			records++;
			count_name(names, ARRAY_SIZE(names), r.name);
			ck_assert_int_eq(kvm_import_push(im, &r), 0);
		}
		while (kvm_import_pop(im, &ev) == 1) {
			n[ev.type]++;
			branch += ev.type == VPMC_EV_RETIRE && ev.branch;
		}
		if (ret == 0)
			break;
	}
	kvm_import_get_stats(im, &st);
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
	kvm_import_free(im);
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

	ck_assert_int_eq(trace_dat_open(&d, trace_path("small-mixed-lm64.dat"), &err), 0);
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

/* The v6 uncompressed copy holds the same records as the v7 zstd file. */
START_TEST(test_v6_equals_v7)
{
	struct trace_dat *a, *b;
	struct kvm_record ra, rb;
	struct vpmc__errbuf err;
	int x, y;
	unsigned long n = 0;

	ck_assert_int_eq(trace_dat_open(&a, trace_path("small-mixed-real.dat"), &err), 0);
	ck_assert_int_eq(trace_dat_open(&b, trace_path("small-mixed-real.v6.dat"), &err), 0);
	do {
		x = trace_dat_next(a, &ra, &err);
		y = trace_dat_next(b, &rb, &err);
		ck_assert_int_eq(x, y);
		if (x == 1)
			ck_assert_msg(!memcmp(&ra, &rb, sizeof(ra)), "record %lu differs", n);
		n++;
	} while (x == 1);
	ck_assert_uint_eq(n, 2314);
	trace_dat_close(a);
	trace_dat_close(b);
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

static void import_one(struct kvm_import *im, const struct kvm_record *r, struct stream *s)
{
	struct vpmc_event ev;

	if (r)
		ck_assert_msg(kvm_import_push(im, r) == 0, "%s", kvm_import_error(im));
	else
		kvm_import_finish(im);
	while (kvm_import_pop(im, &ev) == 1)
		stream_add(s, &ev);
}

static const struct kvm_import_opts stream_opts = {
	KVM_IMPORT_DEFAULT_GUEST_IPS, KVM_IMPORT_DEFAULT_BRANCH_PERMILLE, VPMC_KERNEL(6, 18)
};

static void dat_stream(const char *file, struct stream *s)
{
	struct vpmc__errbuf err;
	struct kvm_import *im;
	struct trace_dat *d;
	struct kvm_record r;
	int ret;

	ck_assert_msg(trace_dat_open(&d, trace_path(file), &err) == 0, "%s", err.msg);
	ck_assert_int_eq(kvm_import_new(&im, &stream_opts), 0);
	while ((ret = trace_dat_next(d, &r, &err)) == 1)
		import_one(im, &r, s);
	ck_assert_msg(ret == 0, "%s", err.msg);
	import_one(im, NULL, s);
	kvm_import_free(im);
	trace_dat_close(d);
}

static void text_stream(const char *file, struct stream *s)
{
	struct text_parser tp;
	struct text_error terr;
	struct kvm_import *im;
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
	ck_assert_int_eq(kvm_import_new(&im, &stream_opts), 0);
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
	kvm_import_free(im);
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

/* @len bytes of @name (all if 0), with @patch applied, in a temp file. */
static const char *temp_copy(const char *name, size_t len, void (*patch)(uint8_t *, size_t))
{
	FILE *in = fopen(trace_path(name), "rb");
	uint8_t *buf;
	size_t n;
	int fd;

	ck_assert_ptr_nonnull(in);
	buf = malloc(8 << 20);
	ck_assert_ptr_nonnull(buf);
	n = fread(buf, 1, 8 << 20, in);
	fclose(in);
	if (len && len < n)
		n = len;
	if (patch)
		patch(buf, n);
	snprintf(tmp_path, sizeof(tmp_path), "%s/vpmc-dat-XXXXXX", P_tmpdir);
	fd = mkstemp(tmp_path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, n), (ssize_t)n);
	close(fd);
	free(buf);
	return tmp_path;
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
	ck_assert_int_eq(trace_dat_open(&d, path, &err), 0);
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

	ck_assert_int_eq(trace_dat_open(&d, "/nonexistent/x.dat", &err), VPMC_ERR_IO);
	ck_assert_str_eq(err.msg, "/nonexistent/x.dat: No such file or directory");
	ck_assert_ptr_null(d);
}
END_TEST

START_TEST(test_not_a_dat)
{
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	char want[640];

	ck_assert_int_eq(trace_dat_open(&d, trace_path("README.md"), &err), VPMC_ERR_PARSE);
	snprintf(want, sizeof(want), "%s: not a trace.dat file (no \\x17\\x08D magic)",
		 trace_path("README.md"));
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* Cut in the headers: libtracecmd refuses the file. */
START_TEST(test_truncated_headers)
{
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	const char *p = temp_copy("small-mixed-real.dat", 300000, NULL);

	ck_assert_int_eq(trace_dat_open(&d, p, &err), VPMC_ERR_PARSE);
	unlink(p);
	ck_assert_msg(strstr(err.msg, "libtracecmd cannot read this trace.dat"), "%s", err.msg);
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

	ck_assert_int_eq(trace_dat_open(&d, p, &err), VPMC_ERR_PARSE);
	snprintf(want, sizeof(want), "%s: truncated trace.dat: CPU data ends at byte 5603328, "
		 "the file has 5560000", p);
	unlink(p);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* Inputs fuzz/fuzz_dat crashed libtracecmd 1.3.1 with (mutated v6 seeds), refused by the v6
 * walk in trace_dat.c instead: a header block size libtracecmd would malloc(), and a page
 * whose commit exceeds the page (init_cpu() fails, tracecmd_close() then dereferences NULL). */
static const struct {
	const char *file, *why;
} fuzz_finds[] = {
	{ "fuzz-dat-huge-block.dat", "truncated or corrupt trace.dat: a block of 53128745468889 "
				     "bytes at byte 67067 runs past the end of the file (73687 "
				     "bytes)" },
	{ "fuzz-dat-bad-page.dat", "corrupt trace.dat: the ring-buffer page at byte 77824 holds "
				   "1044480 bytes, more than a page (4096)" },
};

START_TEST(test_fuzz_finds)
{
	const char *dir = getenv("VPMC_TRACES");
	struct vpmc__errbuf err;
	struct trace_dat *d = NULL;
	char path[512], want[768];

	snprintf(path, sizeof(path), "%s/bad/%s", dir ? dir : "traces", fuzz_finds[_i].file);
	ck_assert_int_eq(trace_dat_open(&d, path, &err), VPMC_ERR_PARSE);
	snprintf(want, sizeof(want), "%s: %s", path, fuzz_finds[_i].why);
	ck_assert_str_eq(err.msg, want);
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
	tcase_add_loop_test(rec, test_dat_and_text_same_events, 0, ARRAY_SIZE(same_recording));
	tcase_add_test(bad, test_lost_events_unknown_count);
	tcase_add_test(bad, test_lost_events_count);
	tcase_add_test(bad, test_missing_file);
	tcase_add_test(bad, test_not_a_dat);
	tcase_add_test(bad, test_truncated_headers);
	tcase_add_test(bad, test_truncated_v6_data);
	tcase_add_loop_test(bad, test_fuzz_finds, 0, ARRAY_SIZE(fuzz_finds));
	suite_add_tcase(s, rec);
	suite_add_tcase(s, bad);
	return s;
}

CHECK_MAIN(trace_dat_suite)
