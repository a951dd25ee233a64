// SPDX-License-Identifier: GPL-2.0-only
/* check_reader.c - The pull reader over every format (lib/reader.c): detection, streaming
 * lines, errors as "FILE:LINE:COL: what was expected", lenient mode, warnings, counters.
 * Columns are counted by hand on the input (1 = the first byte of the line). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_common.h"
#include "vpmc.h"

static const char *traces_dir(void)
{
	const char *t = getenv("VPMC_TRACES");

	return t ? t : "../../traces";
}

/* "@" in @tmpl becomes @path. */
static void expand(char *out, size_t size, const char *tmpl, const char *path)
{
	const char *at = strchr(tmpl, '@');

	if (!at) {
		snprintf(out, size, "%s", tmpl);
		return;
	}
	snprintf(out, size, "%.*s%s%s", (int)(at - tmpl), tmpl, path, at + 1);
}

/* A reader; @isolate for corrupt trace.dat files (traces/bad/), which may crash libtracecmd. */
static struct vpmc_reader *new_reader_isolate(enum vpmc_format format, bool lenient,
					      bool isolate)
{
	struct vpmc_reader_opts o;
	struct vpmc_reader *r;

	vpmc_reader_opts_default(&o);
	o.format = format;
	o.lenient = lenient;
	o.isolate_dat = isolate;
	ck_assert_int_eq(vpmc_reader_new(&r, &o), 0);
	return r;
}

static struct vpmc_reader *new_reader(enum vpmc_format format, bool lenient)
{
	return new_reader_isolate(format, lenient, false);
}

/* Read to the end; the last return value (0, or the error). */
static int drain(struct vpmc_reader *r, unsigned long *nr_events)
{
	struct vpmc_event ev;
	unsigned long n = 0;
	int ret;

	while ((ret = vpmc_reader_next(r, &ev)) == 1)
		n++;
	if (nr_events)
		*nr_events = n;
	return ret;
}

/* ---------------------------------------------------------------------------------------------
 * Malformed input: one row per case, the exact message.
 */
struct bad_case {
	const char *name;
	enum vpmc_format format;
	const char *data; /* in memory, named "t.txt" (text) or "v.vtr" (.vtr) ... */
	size_t len;       /* ... of this many bytes (0: strlen) */
	const char *file; /* ... or this file under traces/, "@" in want */
	bool at_open;     /* the error comes from open, not next */
	int want_ret;
	const char *want;
};

#define TXT(s) .data = (s), .len = sizeof(s) - 1
#define PARSE VPMC_ERR_PARSE
/* The end of every parse error --lenient would skip (issue 17, item 7). */
#define LENIENT_HINT " (--lenient skips such lines)"


static char overlong_text[5200];
static char overlong_vtr[5200];

static const struct bad_case bad[] = {
	/* ---- kvm tracepoint text ---- */
	{ "P17 record cut after the event name", VPMC_FORMAT_AUTO,
	  TXT("qemu-system-x86-5665  [000] ....  83184.290416: kvm_exit\nkvm_fpu: load\n"), NULL,
	  false, PARSE, "t.txt:1:49: expected an event name followed by ':', found 'kvm_exit'" LENIENT_HINT },
	{ "^C in the middle of a recording", VPMC_FORMAT_AUTO, NULL, 0, "bad/ctrl-c.txt", false,
	  PARSE, "@:4:1: expected 'TIMESTAMP:' or 'COMM-PID:' before the event name, found "
	  "'qemu-system-x86^Ctrace-cmd:'" LENIENT_HINT },
	{ "bad hex in an MSR index", VPMC_FORMAT_AUTO, TXT("kvm_msr: msr_write 1g4 = 0x1\n"), NULL,
	  false, PARSE,
	  "t.txt:1:20: kvm_msr: expected the MSR index in hex after 'msr_write', found '1g4'" LENIENT_HINT },
	{ "bad hex in an MSR value", VPMC_FORMAT_AUTO, TXT("kvm_msr: msr_write 1a4 = 0xzz\n"),
	  NULL, false, PARSE, "t.txt:1:26: kvm_msr: malformed number, found '0xzz'" LENIENT_HINT },
	{ "M4 symbolic MSR (hand-edited file 47)", VPMC_FORMAT_AUTO, NULL, 0,
	  "public/47-vmx-pmu-pmi-loop-hand-edited-symbolic-msr-NOT-PARSEABLE.txt", false, PARSE,
	  "@:1:22: kvm_msr: expected the MSR index in hex after 'msr_write', found 'CTR1'" LENIENT_HINT },
	{ "payload without event name (file 54)", VPMC_FORMAT_AUTO, NULL, 0,
	  "public/54-svm-smm-test-cpuid-msr-gp-bare-elided-missing-event-name.txt", false, PARSE,
	  "@:2:3: expected an event ('NAME: ...') on this line, found 'func'" LENIENT_HINT },
	{ "over-long text line", VPMC_FORMAT_AUTO, NULL, 0, "bad/overlong.txt", false, PARSE,
	  "@:2: line longer than 4096 bytes" LENIENT_HINT },
	{ "over-long line in memory", VPMC_FORMAT_TEXT, overlong_text, 0, NULL, false, PARSE,
	  "t.txt:2: line longer than 4096 bytes" LENIENT_HINT },
	{ "NUL byte", VPMC_FORMAT_AUTO, TXT("kvm_fpu: load\nkvm_f\0pu: load\n"), NULL, false,
	  PARSE, "t.txt:2:6: NUL byte in the line (binary data?)" LENIENT_HINT },
	{ "binary garbage", VPMC_FORMAT_AUTO, NULL, 0, "bad/garbage.bin", false, PARSE,
	  "@:1:8: NUL byte in the line (binary data?)" LENIENT_HINT },
	{ "binary garbage without NUL", VPMC_FORMAT_AUTO, TXT("\x7f\x45LF\x02\x01\x01\xff\n"),
	  NULL, false, PARSE,
	  "t.txt:1:1: expected an event ('NAME: ...') on this line, found '\077ELF\077\077\077\077'" LENIENT_HINT },
	{ "empty input", VPMC_FORMAT_AUTO, TXT(""), NULL, true, PARSE, "t.txt: empty input (no trace)" },
	{ "vcpu id larger than an int", VPMC_FORMAT_AUTO, TXT("kvm_entry: vcpu 99999999999\n"), NULL,
	  false, PARSE,
	  "t.txt:1:17: kvm_entry: value out of range (max 2147483647), found '99999999999'" LENIENT_HINT },
	{ "vcpu id beyond VPMC_MAX_VCPUS (importer)", VPMC_FORMAT_AUTO,
	  TXT("kvm_entry: vcpu 5000\n"), NULL, false, VPMC_ERR_LIMIT,
	  "t.txt:1: vcpu 5000 out of range 0..4095" },
	{ "time stamp finer than ns", VPMC_FORMAT_AUTO, TXT(" 1.0000000001: kvm_fpu: load\n"), NULL,
	  false, PARSE, "t.txt:1:2: time stamp: more than 9 decimals (finer than 1 ns), found "
	  "'1.0000000001:'" LENIENT_HINT },
	{ "time stamp beyond 64 bits", VPMC_FORMAT_AUTO,
	  TXT("99999999999999999999.5: kvm_fpu: load\n"), NULL, false, PARSE,
	  "t.txt:1:1: time stamp larger than 64 bits, found '99999999999999999999.5:'" LENIENT_HINT },
	{ "-R form missing a field", VPMC_FORMAT_AUTO, TXT("kvm_pio: rw=1 port=0xe9 size=1\n"), NULL,
	  false, PARSE, "t.txt:1:31: kvm_pio: expected field 'count=', found end of line" LENIENT_HINT },
	{ "-R form with too many fields", VPMC_FORMAT_AUTO,
	  TXT("kvm_msr: a=1 b=1 c=1 d=1 e=1 f=1 g=1 h=1 i=1 j=1 k=1 l=1 m=1 n=1 o=1 p=1 q=1\n"),
	  NULL, false, PARSE, "t.txt:1:74: kvm_msr: more than 16 fields, found 'q=1'" LENIENT_HINT },
	{ "[FAILED TO PARSE] without fields", VPMC_FORMAT_AUTO,
	  TXT("kvm_inj_exception: [FAILED TO PARSE] oops\n"), NULL, false, PARSE,
	  "t.txt:1:38: kvm_inj_exception: expected 'name=value' fields after [FAILED TO PARSE], "
	  "found 'oops'" LENIENT_HINT },
	{ "unknown exception name", VPMC_FORMAT_AUTO, TXT("kvm_inj_exception: #XX\n"), NULL, false,
	  PARSE, "t.txt:1:20: kvm_inj_exception: expected an exception name (#GP, #PF, ...), found "
	  "'#XX'" LENIENT_HINT },
	{ "instruction mnemonics instead of bytes", VPMC_FORMAT_AUTO,
	  TXT("kvm_emulate_insn: 0:4015c2: rdmsr\n"), NULL, false, PARSE,
	  "t.txt:1:29: kvm_emulate_insn: expected instruction bytes (two hex digits each; a "
	  "trace-cmd built with a disassembler prints mnemonics: use trace-cmd report -N or -R), "
	  "found 'rdmsr'" LENIENT_HINT },
	{ "kvm_pio size not a number", VPMC_FORMAT_AUTO,
	  TXT("kvm_pio: pio_read at 0x60 size x count 1\n"), NULL, false, PARSE,
	  "t.txt:1:32: kvm_pio: expected a decimal number, found 'x'" LENIENT_HINT },
	{ "kvm_userspace_exit without its number", VPMC_FORMAT_AUTO,
	  TXT("kvm_userspace_exit: reason KVM_EXIT_IO\n"), NULL, false, PARSE,
	  "t.txt:1:39: kvm_userspace_exit: expected '(' and the reason number, found end of line" LENIENT_HINT },
	{ "kvm_exit without reason", VPMC_FORMAT_AUTO, TXT("kvm_exit: vcpu 0\n"), NULL, false,
	  PARSE, "t.txt:1:17: kvm_exit: expected 'reason', found end of line" LENIENT_HINT },
	{ "a .vtr file read as text", VPMC_FORMAT_TEXT, TXT("!vpmcsim-trace 1\n0 0 entry\n"), NULL,
	  false, PARSE,
	  "t.txt:1:1: expected an event ('NAME: ...') on this line, found '!vpmcsim-trace'" LENIENT_HINT },

	/* ---- .vtr ---- */
	{ "event before the header", VPMC_FORMAT_AUTO, TXT("0 0 entry\n"), NULL, false, PARSE,
	  "v.vtr:1:1: expected '!vpmcsim-trace 1' before the first event, found '0'" LENIENT_HINT },
	{ "header forgotten (file)", VPMC_FORMAT_AUTO, NULL, 0, "bad/no-header.vtr", false, PARSE,
	  "@:2:1: expected '!vpmcsim-trace 1' before the first event, found '0'" LENIENT_HINT },
	{ "duplicate header", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n!vpmcsim-trace 1\n"), NULL,
	  false, PARSE, "v.vtr:2:1: duplicate '!vpmcsim-trace' header, found '!vpmcsim-trace'" LENIENT_HINT },
	{ "header with junk", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1 beta\n"), NULL, false, PARSE,
	  "v.vtr:1:18: unexpected argument after the header, found 'beta'" LENIENT_HINT },
	{ "format version 3", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 3\n"), NULL, false, PARSE,
	  "v.vtr:1:16: unsupported format version 3 (this reader reads versions 1 and 2), found "
	  "'3'" LENIENT_HINT },
	/* version 2 promises the !end line: a file cut at a line boundary (here after its second
	 * line, the first event) is an error naming its last line */
	{ "version 2 cut", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 2\n0 0 entry\n"), NULL, false,
	  PARSE, "v.vtr:2: truncated: the file ends after 1 events without the '!end events=N' "
	  "line that format version 2 promises" },
	{ "version 2 cut in the header", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 2\n# x\n"), NULL,
	  false, PARSE, "v.vtr:2: truncated: the file ends after 0 events without the "
	  "'!end events=N' line that format version 2 promises" },
	{ "unknown directive", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n!guest ips=1\n"), NULL,
	  false, PARSE,
	  /* every directive of docs/trace-format.md, from the table the parser looks them up in */
	  "v.vtr:2:1: unknown directive (expected !pmu, !host, !source, !nested, !gaps, !gen, "
	  "!expect or !end), found '!guest'" LENIENT_HINT },
	{ "unknown key", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n!pmu vendor=intel counters=4\n"),
	  NULL, false, PARSE, "v.vtr:2:19: !pmu: unknown key (expected vendor, version, gp, fixed, "
	  "gp_width, fixed_width, fw_writes, pebs, tsx), found 'counters=4'" LENIENT_HINT },
	{ "Intel key with vendor=amd", VPMC_FORMAT_AUTO,
	  TXT("!vpmcsim-trace 1\n!pmu vendor=amd fw_writes=1\n"), NULL, false, PARSE,
	  "v.vtr:2:17: !pmu: key 'fw_writes' is Intel-only (vendor=amd), found 'fw_writes=1'" LENIENT_HINT },
	{ "!host without MINOR", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n!host kernel=6\n"), NULL,
	  false, PARSE, "v.vtr:2:14: !host: expected kernel=MAJOR.MINOR (e.g. 6.18), found '6'" LENIENT_HINT },
	/* VPMC_KERNEL_OLDEST: before 6.2 (68fb4757e867, de0f619564f4) KVM counted emulated
	 * instructions otherwise, before 9cd803d496e7 not at all: not modeled, refused */
	{ "!host older than 6.2", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n!host kernel=6.1\n"),
	  NULL, false, PARSE, "v.vtr:2:14: !host: kernel 6.1 is older than 6.2, the oldest host the "
	  "model represents, found '6.1'" LENIENT_HINT },
	{ "directive after the first event", VPMC_FORMAT_AUTO,
	  TXT("!vpmcsim-trace 1\n0 0 entry\n!host kernel=6.1\n"), NULL, false, PARSE,
	  "v.vtr:3:1: directive after the first event (directives come first), found '!host'" LENIENT_HINT },
	{ "time goes backwards", VPMC_FORMAT_AUTO,
	  TXT("!vpmcsim-trace 1\n10 0 entry\n5 1 entry\n9 0 exit HLT\n"), NULL, false, PARSE,
	  "v.vtr:4:1: time goes backwards for vcpu 0 (previous event at 10), found '9'" LENIENT_HINT },
	{ "time in hex", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n0x10 0 entry\n"), NULL, false, PARSE,
	  "v.vtr:2:1: expected the time in ns (a decimal number), found '0x10'" LENIENT_HINT },
	{ "huge vcpu id", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n0 4294967296 entry\n"), NULL,
	  false, PARSE, "v.vtr:2:3: the vcpu out of range (0..4095), found '4294967296'" LENIENT_HINT },
	{ "unknown event", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n0 0 pmi\n"), NULL, false, PARSE,
	  "v.vtr:2:5: unknown event (expected entry, exit, guest, retire, wrmsr, rdmsr, rdpmc, cpl, "
	  "lvtpc, irq, eoi, sched_out, sched_in, nexit, ninject, nenter, nintercepts, "
	  "nfail or ninval), found 'pmi'" LENIENT_HINT },
	{ "MSR index in decimal", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n0 0 rdmsr 390\n"), NULL,
	  false, PARSE,
	  "v.vtr:2:11: expected the MSR index in hex with 0x (e.g. 0x186), found '390'" LENIENT_HINT },
	{ "bad hex value", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n0 0 wrmsr 0x186 0x53g0c0\n"),
	  NULL, false, PARSE,
	  "v.vtr:2:17: expected the value written (decimal, or hex with 0x), found '0x53g0c0'" LENIENT_HINT },
	{ "more branches than instructions", VPMC_FORMAT_AUTO,
	  TXT("!vpmcsim-trace 1\n0 0 guest insn=10 br=11\n"), NULL, false, PARSE,
	  "v.vtr:2:19: guest: more branches than instructions (br=11 > insn=10), found 'br=11'" LENIENT_HINT },
	{ "cpl 7", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n0 0 guest insn=1 cpl=7\n"), NULL, false,
	  PARSE, "v.vtr:2:22: cpl out of range (0..3), found '7'" LENIENT_HINT },
	{ "vector 300", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n0 0 irq 300\n"), NULL, false, PARSE,
	  "v.vtr:2:9: the vector (0..255) out of range (0..255), found '300'" LENIENT_HINT },
	{ "exit reason not ASCII", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n0 0 exit H\xc3\xa4LT\n"),
	  NULL, false, PARSE, "v.vtr:2:11: exit: the reason must be printable ASCII, found '?" "?LT'" LENIENT_HINT },
	{ "CRLF line ends", VPMC_FORMAT_AUTO, NULL, 0, "bad/crlf.vtr", false, PARSE,
	  "@:1:17: carriage return in the line (a CRLF file? .vtr lines end with \\n), found '?'" LENIENT_HINT },
	{ "NUL byte in .vtr", VPMC_FORMAT_AUTO, TXT("!vpmcsim-trace 1\n0 0 en\0try\n"), NULL, false,
	  PARSE, "v.vtr:2:7: NUL byte in the line (binary data?)" LENIENT_HINT },
	{ "over-long .vtr line", VPMC_FORMAT_VTR, overlong_vtr, 0, NULL, false, PARSE,
	  "v.vtr:2: line longer than 4096 bytes" LENIENT_HINT },
	{ "comments only", VPMC_FORMAT_VTR, TXT("# nothing here\n\n"), NULL, false, PARSE,
	  "v.vtr: expected '!vpmcsim-trace 1', found end of file" },
	{ "empty .vtr", VPMC_FORMAT_VTR, TXT(""), NULL, true, PARSE, "v.vtr: empty input (no trace)" },

	/* ---- trace.dat ---- */
	{ "trace.dat from memory", VPMC_FORMAT_AUTO, TXT("\x17\x08\x44tracing6"), NULL, true,
	  PARSE, "t.txt: trace.dat cannot be read from memory" },
#ifdef HAVE_LIBTRACECMD
	/* version "6", endianness 0, long size 0, page size 0xffffff00 */
	{ "trace.dat magic, then garbage", VPMC_FORMAT_AUTO, NULL, 0, "bad/bad-magic.dat", true,
	  PARSE, "@: corrupt trace.dat: long size 0 (4 or 8)" },
	/* libtraceevent 1.7.1 crashes in tep_parse_event() on it (check_trace_dat.c) */
	{ "trace.dat libtraceevent crashes on", VPMC_FORMAT_AUTO, NULL, 0,
	  "bad/crash-v7-event-format.dat", true, PARSE,
	  "@: libtraceevent could not parse this trace.dat's event formats (crashed on them: "
	  "corrupt?)" },
	/* libtracecmd 1.3.1 crashes in tracecmd_open() on it (check_trace_dat.c) */
	{ "trace.dat libtracecmd crashes on", VPMC_FORMAT_AUTO, NULL, 0,
	  "bad/crash-v6-header-page-offset.dat", true, PARSE,
	  "@: libtracecmd could not open this trace.dat (crashed on it: corrupt?)" },
#else
	{ "trace.dat without libtracecmd", VPMC_FORMAT_AUTO, NULL, 0, "bad/bad-magic.dat", true,
	  VPMC_ERR_NOSUPPORT, "@: trace.dat support not built in (configure --with-libtracecmd)" },
#endif
	{ "no such file", VPMC_FORMAT_AUTO, NULL, 0, "bad/no-such-file.txt", true, VPMC_ERR_IO,
	  "@: No such file or directory" },
};

static void make_overlong(void)
{
	static const char text_head[] = "kvm_fpu: load\nkvm_fpu: ";
	static const char vtr_head[] = "!vpmcsim-trace 1\n0 0 exit ";

	memset(overlong_text, 'x', sizeof(overlong_text) - 2);
	memcpy(overlong_text, text_head, sizeof(text_head) - 1);
	overlong_text[sizeof(overlong_text) - 2] = '\n';
	memset(overlong_vtr, 'X', sizeof(overlong_vtr) - 2);
	memcpy(overlong_vtr, vtr_head, sizeof(vtr_head) - 1);
	overlong_vtr[sizeof(overlong_vtr) - 2] = '\n';
}

START_TEST(test_malformed)
{
	const struct bad_case *c = &bad[_i];
	struct vpmc_reader *r = new_reader_isolate(c->format, false, true);
	char path[1024], want[2048];
	int ret;

	make_overlong();
	if (c->file) {
		snprintf(path, sizeof(path), "%s/%s", traces_dir(), c->file);
		ret = vpmc_reader_open(r, path);
	} else {
		const char *name = c->want[0] == 'v' ? "v.vtr" : "t.txt";

		ret = vpmc_reader_open_mem(r, name, c->data, c->len ? c->len : strlen(c->data));
	}
	if (c->at_open) {
		ck_assert_msg(ret == c->want_ret, "%s: open returned %d (%s)", c->name, ret,
			      vpmc_reader_error(r));
	} else {
		ck_assert_msg(ret == 0, "%s: open failed: %s", c->name, vpmc_reader_error(r));
		ret = drain(r, NULL);
		ck_assert_msg(ret == c->want_ret, "%s: next returned %d (%s)", c->name, ret,
			      vpmc_reader_error(r));
		/* errors are sticky */
		ck_assert_int_eq(drain(r, NULL), c->want_ret);
	}
	expand(want, sizeof(want), c->want, c->file ? path : "");
	ck_assert_msg(!strcmp(vpmc_reader_error(r), want), "%s:\n got  '%s'\n want '%s'", c->name,
		      vpmc_reader_error(r), want);
	vpmc_reader_free(r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Warnings: lenient skips and a cut last line.
 */
START_TEST(test_truncated_tail_is_a_warning)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_reader_stats st;
	char path[1024], want[1200];

	snprintf(path, sizeof(path), "%s/bad/truncated-tail.txt", traces_dir());
	ck_assert_int_eq(vpmc_reader_open(r, path), 0);
	ck_assert_int_eq(drain(r, NULL), 0);
	vpmc_reader_stats(r, &st);
	ck_assert(st.truncated_tail);
	ck_assert_uint_eq(st.lines, 5);
	ck_assert_uint_eq(st.records, 4);
	ck_assert_uint_eq(st.skipped_lines, 0);
	ck_assert_uint_eq(vpmc_reader_nr_warnings(r), 1);
	snprintf(want, sizeof(want), "%s:5:42: last line cut short (no newline at the end), "
		 "ignored: expected an event name followed by ':', found 'kvm_entry'", path);
	ck_assert_str_eq(vpmc_reader_warning(r, 0), want);
	ck_assert_ptr_null(vpmc_reader_warning(r, 1));
	vpmc_reader_free(r);
}
END_TEST

/* trace-format.md: an exit's REASON is as KVM's tracepoint prints it, informational: any word
 * is legal; those in neither vendor's table are counted, the first kept. MSR_WRITE (VMX),
 * vintr (SVM), EXIT_NPF (trace-cmd's SVM plugin) and hlt (lower case: an ancient VMX name or
 * an SVM one) are names; NOT_A_REASON twice and 0x7b (kvm_print_exit_reason()'s "0x%x" for a
 * code VMX_EXIT_REASONS lacks) are not: 3. */
START_TEST(test_unnamed_exit_reasons)
{
	static const char data[] = "!vpmcsim-trace 1\n0 0 exit MSR_WRITE\n1 0 exit vintr\n"
				   "2 0 exit EXIT_NPF\n3 0 exit hlt\n4 0 exit NOT_A_REASON\n"
				   "5 0 exit NOT_A_REASON\n6 0 exit 0x7b\n";
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_reader_stats st;
	unsigned long n;

	ck_assert_int_eq(vpmc_reader_open_mem(r, "v.vtr", data, sizeof(data) - 1), 0);
	ck_assert_int_eq(drain(r, &n), 0);
	ck_assert_uint_eq(n, 7);
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.unnamed_reasons, 3);
	ck_assert_str_eq(st.first_unnamed_reason, "NOT_A_REASON");
	vpmc_reader_free(r);
}
END_TEST

START_TEST(test_truncated_vtr_tail)
{
	static const char data[] = "!vpmcsim-trace 1\n0 0 entry\n10 0 wrms";
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_reader_stats st;
	unsigned long n;

	ck_assert_int_eq(vpmc_reader_open_mem(r, "v.vtr", data, sizeof(data) - 1), 0);
	ck_assert_int_eq(drain(r, &n), 0);
	ck_assert_uint_eq(n, 1);
	vpmc_reader_stats(r, &st);
	ck_assert(st.truncated_tail);
	ck_assert_str_eq(vpmc_reader_warning(r, 0),
			 "v.vtr:3:6: last line cut short (no newline at the end), ignored: unknown "
			 "event (expected entry, exit, guest, retire, wrmsr, rdmsr, rdpmc, cpl, "
			 "lvtpc, irq, eoi, sched_out, sched_in, nexit, ninject, nenter, nintercepts, "
			 "nfail or ninval), found 'wrms'");
	vpmc_reader_free(r);
}
END_TEST

/*
 * The same cut in a version 2 file (what convert writes, trace-format.md): the cut last line is
 * the warning above, and the missing "!end" line is an error that names the file's last line
 * (3); with --lenient ([1]) a second warning, and the one event before the cut is read.
 */
START_TEST(test_truncated_vtr_v2)
{
	static const char data[] = "!vpmcsim-trace 2\n0 0 entry\n10 0 wrms";
	static const char why[] = "v.vtr:3: truncated: the file ends after 1 events without the "
				  "'!end events=N' line that format version 2 promises";
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, _i);
	struct vpmc_reader_stats st;
	unsigned long n;

	ck_assert_int_eq(vpmc_reader_open_mem(r, "v.vtr", data, sizeof(data) - 1), 0);
	ck_assert_int_eq(drain(r, &n), _i ? 0 : VPMC_ERR_PARSE);
	ck_assert_uint_eq(n, 1);
	vpmc_reader_stats(r, &st);
	ck_assert(st.truncated_tail);
	ck_assert_str_eq(_i ? vpmc_reader_warning(r, 1) : vpmc_reader_error(r), why);
	vpmc_reader_free(r);
}
END_TEST

/* A last line without '\n' that parses is a record like any other. */
START_TEST(test_last_line_without_newline)
{
	static const char data[] = "kvm_fpu: load\nkvm_fpu: unload";
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_reader_stats st;

	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", data, sizeof(data) - 1), 0);
	ck_assert_int_eq(drain(r, NULL), 0);
	vpmc_reader_stats(r, &st);
	ck_assert(!st.truncated_tail);
	ck_assert_uint_eq(st.records, 2);
	ck_assert_uint_eq(vpmc_reader_nr_warnings(r), 0);
	vpmc_reader_free(r);
}
END_TEST

START_TEST(test_lenient_hand_edited_file)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, true);
	struct vpmc_reader_stats st;
	char path[1024], want[1200];

	snprintf(path, sizeof(path), "%s/public/47-vmx-pmu-pmi-loop-hand-edited-symbolic-msr-"
		 "NOT-PARSEABLE.txt", traces_dir());
	ck_assert_int_eq(vpmc_reader_open(r, path), 0);
	ck_assert_int_eq(drain(r, NULL), 0);
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.lines, 4);
	ck_assert_uint_eq(st.skipped_lines, 3);
	ck_assert_uint_eq(st.records, 1); /* the trimmed kvm_exit */
	ck_assert_uint_eq(vpmc_reader_nr_warnings(r), 3);
	snprintf(want, sizeof(want), "%s:1:22: kvm_msr: expected the MSR index in hex after "
		 "'msr_write', found 'CTR1'", path);
	ck_assert_str_eq(vpmc_reader_warning(r, 0), want);
	snprintf(want, sizeof(want), "%s:2:12: expected 'TIMESTAMP:' or 'COMM-PID:' before the "
		 "event name, found 'host:'", path);
	ck_assert_str_eq(vpmc_reader_warning(r, 1), want);
	snprintf(want, sizeof(want), "%s:4:21: kvm_msr: expected the MSR index in hex after "
		 "'msr_read', found 'CTR1'", path);
	ck_assert_str_eq(vpmc_reader_warning(r, 2), want);
	vpmc_reader_free(r);
}
END_TEST

START_TEST(test_lenient_ctrl_c_and_overlong)
{
	static const char *const files[] = { "bad/ctrl-c.txt", "bad/overlong.txt" };
	static const unsigned int records[] = { 5, 2 };
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, true);
	struct vpmc_reader_stats st;
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", traces_dir(), files[_i]);
	ck_assert_int_eq(vpmc_reader_open(r, path), 0);
	ck_assert_int_eq(drain(r, NULL), 0);
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.skipped_lines, 1);
	ck_assert_uint_eq(st.records, records[_i]);
	ck_assert_uint_eq(vpmc_reader_nr_warnings(r), 1);
	vpmc_reader_free(r);
}
END_TEST

/*
 * Issue 17 item 7: trace-cmd's ^C artifact, a broken last line that still has its newline,
 * is a warning like a last line without one; the same line before another is an error. Lines:
 * 1 kvm_fpu (a record), 2 the artifact, 3 blank: 1 record, a cut tail, no error.
 */
START_TEST(test_ctrl_c_last_line_is_a_warning)
{
	static const char tail[] = " qemu-system-x86-6660  [007]   398.691440: kvm_fpu:  load\n"
				   "qemu-system-x86^Ctrace-cmd: Received SIGINT\n\n";
	static const char middle[] = "qemu-system-x86^Ctrace-cmd: Received SIGINT\n"
				     " qemu-system-x86-6660  [007]   398.691440: kvm_fpu:  load\n";
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_TEXT, false);
	struct vpmc_reader_stats st;

	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", tail, sizeof(tail) - 1), 0);
	ck_assert_int_eq(drain(r, NULL), 0);
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.records, 1);
	ck_assert(st.truncated_tail);
	ck_assert_uint_eq(vpmc_reader_nr_warnings(r), 1);
	ck_assert_str_eq(vpmc_reader_warning(r, 0), "t.txt:2:1: last line cut short (^C), ignored: "
			 "expected 'TIMESTAMP:' or 'COMM-PID:' before the event name, found "
			 "'qemu-system-x86^Ctrace-cmd:'");
	vpmc_reader_free(r);
	r = new_reader(VPMC_FORMAT_TEXT, false);
	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", middle, sizeof(middle) - 1), 0);
	ck_assert_int_eq(drain(r, NULL), VPMC_ERR_PARSE);
	ck_assert_str_eq(vpmc_reader_error(r), "t.txt:1:1: expected 'TIMESTAMP:' or 'COMM-PID:' "
			 "before the event name, found 'qemu-system-x86^Ctrace-cmd:'" LENIENT_HINT);
	vpmc_reader_free(r);
}
END_TEST

/*
 * traces/public/20: both kvm_nested_vmexit lines start with libtraceevent's 'CAN'T FIND FIELD
 * "rip"<CANT FIND FIELD exit_code>' and then have "vcpu 0 reason npf rip 0x400433 ...": two
 * records, both partial.
 */
START_TEST(test_partial_lines_counted)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_reader_stats st;
	char path[1024];

	snprintf(path, sizeof(path), "%s/public/20-svm-nested-vmexit-cant-find-field-"
		 "libtraceevent.txt", traces_dir());
	ck_assert_int_eq(vpmc_reader_open(r, path), 0);
	ck_assert_int_eq(drain(r, NULL), 0);
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.records, 2);
	ck_assert_uint_eq(st.partial_lines, 2);
	ck_assert_uint_eq(st.skipped_lines, 0);
	vpmc_reader_free(r);
}
END_TEST

/* Only the first 10 warnings are kept; every skip is counted. */
START_TEST(test_lenient_keeps_first_warnings)
{
	char data[1024] = "", want[128];
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_TEXT, true);
	struct vpmc_reader_stats st;
	int i;

	for (i = 0; i < 15; i++)
		strcat(data, "kvm_fpu: reload\nkvm_fpu: load\n");
	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", data, strlen(data)), 0);
	ck_assert_int_eq(drain(r, NULL), 0);
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.skipped_lines, 15);
	ck_assert_uint_eq(st.records, 15);
	ck_assert_uint_eq(vpmc_reader_nr_warnings(r), 10);
	for (i = 0; i < 10; i++) {
		snprintf(want, sizeof(want), "t.txt:%d:10: kvm_fpu: expected 'load' or 'unload', "
			 "found 'reload'", 2 * i + 1);
		ck_assert_str_eq(vpmc_reader_warning(r, (size_t)i), want);
	}
	vpmc_reader_free(r);
}
END_TEST

/* A time stamp that goes back on its vCPU (not on another one) is taken as the vCPU's latest:
 * counted, and the first 5 shown with file, line and vCPU. */
START_TEST(test_time_backwards_warned)
{
	char data[2048] = "kvm_entry: vcpu 1\n";
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_TEXT, false);
	struct vpmc_reader_stats st;
	struct vpmc_event ev;
	int i;

	/* lines 2..15: vCPU 0 at 100.000010, then 7 times 100.000005 after 100.000010 */
	strcat(data, " 100.000005: kvm_entry: vcpu 0\n");
	for (i = 0; i < 7; i++)
		strcat(data, " 100.000010: kvm_exit: vcpu 0 reason HLT rip 0x1 info 0 0\n"
			     " 100.000005: kvm_entry: vcpu 0\n");
	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", data, strlen(data)), 0);
	ck_assert_int_eq(vpmc_reader_next(r, &ev), 1); /* vCPU 1, no time stamp */
	ck_assert_int_eq(vpmc_reader_next(r, &ev), 1);
	ck_assert_uint_eq(ev.time_ns, 100000005000);
	/* the later entries are taken as the exit's time */
	while (vpmc_reader_next(r, &ev) == 1)
		ck_assert_uint_eq(ev.time_ns, 100000010000);
	ck_assert_str_eq(vpmc_reader_error(r), "");
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.time_backwards, 7);
	ck_assert_uint_eq(vpmc_reader_nr_warnings(r), 5);
	for (i = 0; i < 5; i++) {
		char want[200];

		snprintf(want, sizeof(want), "t.txt:%d: time stamp 100.000005000 s is 0.000005000 s "
			 "before vCPU 0's previous record; taken as 100.000010000 s", 4 + 2 * i);
		ck_assert_str_eq(vpmc_reader_warning(r, (size_t)i), want);
	}
	vpmc_reader_free(r);
}
END_TEST

/* More than a second back is no clock skew: an error, unless lenient (then clamped). */
START_TEST(test_time_backwards_far)
{
	static const char data[] = " 100.0: kvm_entry: vcpu 0\n"
				   " 100.5: kvm_exit: vcpu 0 reason HLT rip 0x1 info 0 0\n"
				   " 99.4: kvm_entry: vcpu 0\n";
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_TEXT, _i);
	struct vpmc_reader_stats st;

	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", data, sizeof(data) - 1), 0);
	vpmc_reader_stats(r, &st);
	if (!_i) {
		ck_assert_int_eq(drain(r, NULL), VPMC_ERR_PARSE);
		ck_assert_str_eq(vpmc_reader_error(r),
				 "t.txt:3: time stamp 99.400000000 s is 1.100000000 s before vCPU "
				 "0's previous record (100.500000000 s): more than 1 s back is no "
				 "clock skew (a spliced or corrupt trace?; --lenient takes it as "
				 "100.500000000 s)");
	} else {
		ck_assert_int_eq(drain(r, NULL), 0);
		vpmc_reader_stats(r, &st);
		ck_assert_uint_eq(st.time_backwards, 1);
		ck_assert_str_eq(vpmc_reader_warning(r, 0),
				 "t.txt:3: time stamp 99.400000000 s is 1.100000000 s before vCPU "
				 "0's previous record; taken as 100.500000000 s");
	}
	vpmc_reader_free(r);
}
END_TEST

/* An endless line: strict fails as soon as it passes the maximum; lenient skips it up to 1 MiB,
 * then it is an error. /dev/zero does not hang either. */
static const struct {
	bool lenient;
	const char *msg;
} endless[] = {
	{ false, "/dev/zero:1:1: NUL byte in the line (binary data?)" LENIENT_HINT },
	{ true, "/dev/zero:1:1: NUL byte in the line (binary data?), and no newline in its first "
		"1 MiB: too much to skip, even with --lenient (not a text trace?)" },
};

START_TEST(test_endless_line)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, endless[_i].lenient);

	ck_assert_int_eq(vpmc_reader_open(r, "/dev/zero"), 0);
	ck_assert_int_eq(drain(r, NULL), VPMC_ERR_PARSE);
	ck_assert_str_eq(vpmc_reader_error(r), endless[_i].msg);
	vpmc_reader_free(r);
}
END_TEST

/* Lenient: a line of 1 MiB is skipped (the limit is inclusive of its first bytes), one of
 * 1 MiB + 64 KiB is not. */
START_TEST(test_overlong_skip_limit)
{
	static const size_t lens[] = { 1024 * 1024 - 100, 1024 * 1024 + 65536 };
	size_t len = lens[_i] + 64;
	char *data = malloc(len);
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_TEXT, true);
	struct vpmc_reader_stats st;

	ck_assert_ptr_nonnull(data);
	memset(data, 'x', lens[_i]);
	strcpy(data + lens[_i], "\nkvm_fpu: load\n");
	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", data, strlen(data)), 0);
	if (!_i) {
		ck_assert_int_eq(drain(r, NULL), 0);
		vpmc_reader_stats(r, &st);
		ck_assert_uint_eq(st.skipped_lines, 1);
		ck_assert_uint_eq(st.records, 1);
		ck_assert_str_eq(vpmc_reader_warning(r, 0), "t.txt:1: line longer than 4096 bytes");
	} else {
		ck_assert_int_eq(drain(r, NULL), VPMC_ERR_PARSE);
		ck_assert_str_eq(vpmc_reader_error(r), "t.txt:1: line longer than 4096 bytes, and no "
				 "newline in its first 1 MiB: too much to skip, even with --lenient "
				 "(not a text trace?)");
	}
	free(data);
	vpmc_reader_free(r);
}
END_TEST

/* NUL bytes: the same message for a short and a long all-NUL input. */
START_TEST(test_all_nul_same_message)
{
	static const size_t lens[] = { 100, 10000 };
	char *data = calloc(1, lens[_i] + 1);
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);

	ck_assert_ptr_nonnull(data);
	data[lens[_i]] = '\n';
	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", data, lens[_i] + 1), 0);
	ck_assert_int_eq(drain(r, NULL), VPMC_ERR_PARSE);
	ck_assert_str_eq(vpmc_reader_error(r),
			 "t.txt:1:1: NUL byte in the line (binary data?)" LENIENT_HINT);
	free(data);
	vpmc_reader_free(r);
}
END_TEST

/* Input without a single record is an error, like an empty one: a cut first line (7 bytes of a
 * trace.dat), comments only, a .vtr header without events. */
START_TEST(test_no_records)
{
	static const struct {
		const char *name, *data, *want;
	} c[] = {
		{ "t.txt", "\x17\x08\x44tra", "t.txt: no trace records (1 line, the last one cut short)" },
		{ "t.txt", "# tracer: nop\n#\n", "t.txt: no trace records (2 lines, 2 comment or header "
		  "lines)" },
		{ "v.vtr", "!vpmcsim-trace 1\n", "v.vtr: no trace records (1 line, 1 comment or "
		  "header line)" },
	};
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_event ev;

	ck_assert_int_eq(vpmc_reader_open_mem(r, c[_i].name, c[_i].data, strlen(c[_i].data)), 0);
	ck_assert_int_eq(vpmc_reader_next(r, &ev), VPMC_ERR_PARSE);
	ck_assert_str_eq(vpmc_reader_error(r), c[_i].want);
	ck_assert_int_eq(vpmc_reader_next(r, &ev), VPMC_ERR_PARSE);
	vpmc_reader_free(r);
}
END_TEST

/* NUL bytes are found once per block read: lines after one, and one past the first 64 kB
 * block (line 3001, byte 7), are still found at their line and column. */
START_TEST(test_nul_bytes_in_many_lines)
{
	size_t size = 3100 * 40, len = 0; /* lines of 23 bytes */
	char *data = malloc(size);
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_TEXT, true);
	struct vpmc_reader_stats st;
	int i;

	ck_assert(data);
	for (i = 1; i <= 3100; i++) {
		int n = snprintf(data + len, size - len, "kvm_fpu: load %08d\n", i);

		if (i == 2 || i == 5 || i == 3001)
			data[len + 6] = '\0'; /* "kvm_fp\0: load" */
		len += (size_t)n;
	}
	ck_assert_int_gt(len, 65536);
	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", data, len), 0);
	ck_assert_int_eq(drain(r, NULL), 0);
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.skipped_lines, 3);
	ck_assert_uint_eq(st.records, 3097);
	ck_assert_str_eq(vpmc_reader_warning(r, 0), "t.txt:2:7: NUL byte in the line (binary data?)");
	ck_assert_str_eq(vpmc_reader_warning(r, 1), "t.txt:5:7: NUL byte in the line (binary data?)");
	ck_assert_str_eq(vpmc_reader_warning(r, 2),
			 "t.txt:3001:7: NUL byte in the line (binary data?)");
	free(data);
	vpmc_reader_free(r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Counters: lost events, unknown names, lines.
 */
START_TEST(test_lost_markers_counted)
{
	static const char data[] = "cpus=2\n"
				   "CPU:2 [LOST 140 EVENTS]\n"
				   " kvm-1 [002]   1.000001: kvm_fpu: load\n"
				   "CPU:0 [LOST EVENTS]\n"
				   "CPU:1 [7 EVENTS DROPPED]\n";
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_reader_stats st;

	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", data, sizeof(data) - 1), 0);
	ck_assert_int_eq(drain(r, NULL), 0);
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.lost_markers, 3);
	ck_assert_uint_eq(st.lost_events, 147);
	ck_assert_uint_eq(st.records, 4);
	ck_assert_uint_eq(st.comment_lines, 1);
	ck_assert_uint_eq(st.unknown_records, 0);
	vpmc_reader_free(r);
}
END_TEST

/* File 12: the names the importer does not use, in the order they first appear. */
START_TEST(test_unknown_names_first_seen)
{
	static const struct {
		const char *name;
		uint64_t count;
	} want[] = {
		{ "kvm_cr", 3 },		    { "kvm_tdp_mmu_spte_changed", 14 },
		{ "kvm_mmu_prepare_zap_page", 4 }, { "kvm_mmu_pagetable_walk", 5 },
		{ "kvm_mmu_paging_element", 19 },  { "kvm_mmu_walker_error", 2 },
	};
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_reader_stats st;
	char path[1024];
	const char *name;
	uint64_t count;
	size_t i;

	snprintf(path, sizeof(path), "%s/public/12-vmx-nested-l1-cr0wp-triple-fault-newfmt-"
		 "multivcpu.txt", traces_dir());
	ck_assert_int_eq(vpmc_reader_open(r, path), 0);
	ck_assert_int_eq(drain(r, NULL), 0);
	ck_assert_uint_eq(vpmc_reader_nr_unknown(r), ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		ck_assert_int_eq(vpmc_reader_unknown(r, i, &name, &count), 0);
		ck_assert_str_eq(name, want[i].name);
		ck_assert_uint_eq(count, want[i].count);
	}
	ck_assert_int_eq(vpmc_reader_unknown(r, i, &name, &count), VPMC_ERR_INVAL);
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.unknown_records, 47);
	vpmc_reader_free(r);
}
END_TEST

/* 300 distinct names: 256 are kept, the other 44 share "(other)". Memory stays bounded. */
START_TEST(test_unknown_names_bounded)
{
	size_t size = 300 * 32 + 64, len = 0, i;
	char *data = malloc(size);
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_TEXT, false);
	const char *name;
	uint64_t count;

	ck_assert(data);
	for (i = 0; i < 300; i++)
		len += (size_t)snprintf(data + len, size - len, "ev_%03zu: x\nev_%03zu: y\n", i, i);
	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", data, len), 0);
	ck_assert_int_eq(drain(r, NULL), 0);
	ck_assert_uint_eq(vpmc_reader_nr_unknown(r), 257);
	ck_assert_int_eq(vpmc_reader_unknown(r, 0, &name, &count), 0);
	ck_assert_str_eq(name, "ev_000");
	ck_assert_uint_eq(count, 2);
	ck_assert_int_eq(vpmc_reader_unknown(r, 255, &name, &count), 0);
	ck_assert_str_eq(name, "ev_255");
	ck_assert_int_eq(vpmc_reader_unknown(r, 256, &name, &count), 0);
	ck_assert_str_eq(name, "(other)");
	ck_assert_uint_eq(count, 88);
	free(data);
	vpmc_reader_free(r);
}
END_TEST

/* Every public file through the reader (lenient where it is garbled or hand-edited). The
 * records are the lines with an event (grep counts, as in check_trace_text.c); unknown are
 * those of events the importer does not use (not kvm_entry, kvm_exit, kvm_msr ... see
 * kvm_record.h). */
static const struct {
	const char *file;
	bool lenient;
	unsigned int lines, records, unknown, comments, skipped;
	const char *layout;
} public_files[] = {
	{ "01-vmx-dirty-ring-ept-violation-trace-cmd.txt", 0, 31, 30, 12, 1, 0, "trace-cmd" },
	{ "02-vmx-pckbd-io-extint-raw-irqflags.txt", 0, 31, 31, 12, 0, 0, "ftrace" },
	{ "03-vmx-realmode-hello-exception-nmi-emulate-pio.txt", 0, 29, 29, 8, 0, 0, "ftrace" },
	{ "05-vmx-ctf-kvm-hlt-userspace-exit.txt", 0, 10, 10, 0, 0, 0, "ftrace" },
	{ "06-vmx-microkvm-pmu-msr-gp-raw.txt", 0, 11, 11, 0, 0, 0, "ftrace" },
	{ "07-vmx-perf-script-kvm-msr-tscdeadline-x2apic-multivcpu.txt", 0, 8, 8, 0, 0, 0, "perf" },
	{ "08-vmx-perf-script-kvm-msr-apicbase-read-4vcpu.txt", 0, 4, 4, 0, 0, 0, "perf" },
	{ "10-hyperv-synic-msr-default-bios.txt", 0, 10, 10, 6, 0, 0, "ftrace" },
	{ "11-hyperv-synic-msr-seabios.txt", 0, 19, 19, 9, 0, 0, "ftrace" },
	{ "12-vmx-nested-l1-cr0wp-triple-fault-newfmt-multivcpu.txt", 0, 78, 78, 47, 0, 0, "ftrace" },
	{ "13-svm-smm-test-rsm-emulate-fail-trace-cmd.txt", 0, 6, 6, 1, 0, 0, "trace-cmd" },
	{ "14-svm-smm-test-rsm-triple-fault-bputs-trace-cmd.txt", 0, 6, 6, 2, 0, 0, "trace-cmd" },
	{ "16-svm-platform-info-gp-df-shutdown-trace-cmd-unknown-comm.txt", 0, 11, 11, 0, 0, 0,
	  "trace-cmd" },
	{ "17-vmx-nested-hyperv-l2-ept-violation-emulate-fail-trace-cmd.txt", 0, 6, 6, 1, 0, 0,
	  "trace-cmd" },
	{ "18-vmx-nested-bare-event-lines-commit-msg.txt", 0, 5, 5, 1, 0, 0, "text" },
	/* both lines partial (libtraceevent's CAN'T FIND FIELD): read from the fields they have */
	{ "20-svm-nested-vmexit-cant-find-field-libtraceevent.txt", 0, 2, 2, 0, 0, 0,
	  "trace-cmd" },
	{ "21-svm-nested-vmexit-oldfmt-exit-npf-trace-cmd.txt", 0, 2, 2, 0, 0, 0, "trace-cmd" },
	{ "23-svm-nested-smm-rsm-vmrun-intercepts-bare-lines-rejoined.txt", 0, 14, 14, 2, 0, 0,
	  "text" },
	{ "25-svm-no-idle-hlt-hlt-vintr-msr-timestamp-only.txt", 0, 13, 13, 1, 0, 0, "text" },
	{ "26-perf-script-irq-injection-pic-ioapic-inj-virq-oldfmt.txt", 0, 20, 19, 12, 1, 0,
	  "perf" },
	{ "27-vmx-ept-violation-loop-reinjected-virq-trace-cmd-rejoined.txt", 0, 23, 23, 6, 0, 0,
	  "trace-cmd" },
	{ "28-svm-npf-loop-trace-cmd-plugin-exit-npf-rejoined.txt", 0, 17, 17, 6, 0, 0,
	  "trace-cmd" },
	{ "32-vmx-nested-vmenter-vmexit-inject-raw-fmt-smm-bare-rejoined.txt", 0, 7, 7, 2, 0, 0,
	  "text" },
	{ "34-vmx-nested-dr6-l0-view-trimmed-fields-vmread-vmresume.txt", 0, 15, 15, 2, 0, 0,
	  "ftrace" },
	{ "36-svm-nested-vmexit-raw-newfmt-hypercall-single.txt", 0, 1, 1, 0, 0, 0, "ftrace" },
	{ "37-vmx-nested-vmexit-failed-vmentry-flag-suffix-rejoined.txt", 0, 2, 2, 0, 0, 0,
	  "ftrace" },
	{ "39-vmx-nested-windows-cg-perf-script-split-irqchip-msr-ioapic-eoi-rejoined.txt", 0, 13,
	  13, 3, 0, 0, "perf" },
	{ "41-kvm-hypercall-comm-pid-only-no-cpu-no-ts.txt", 0, 6, 6, 0, 0, 0, "text" },
	{ "43-pio-write-uart-set-irq-storm-raw-5flag.txt", 0, 10, 10, 8, 0, 0, "ftrace" },
	{ "44-pio-write-uart-ier-cleared-set-irq-raw-5flag.txt", 0, 9, 8, 6, 1, 0, "ftrace" },
	{ "45-windows-hang-irq-injection-pic-ioapic-trace-pipe-rejoined.txt", 0, 12, 12, 10, 0, 0,
	  "ftrace" },
	{ "47-vmx-pmu-pmi-loop-hand-edited-symbolic-msr-NOT-PARSEABLE.txt", 1, 4, 1, 0, 0, 3,
	  "text" },
	/* raw ftrace without the flags column prints like trace-cmd report */
	{ "48-vmx-ancient-2.6.3x-lowercase-reasons-no-info-trace-pipe.txt", 0, 9, 9, 2, 0, 0,
	  "trace-cmd" },
	{ "50-vmx-nested-jailhouse-l1-l2-io-loop-vmport-trace-cmd.txt", 0, 17, 17, 2, 0, 0,
	  "trace-cmd" },
	{ "51-vmx-ept-misconfig-emulate-fail-internal-error-hv-stimer-trace-cmd.txt", 0, 9, 9, 4,
	  0, 0, "trace-cmd" },
	{ "54-svm-smm-test-cpuid-msr-gp-bare-elided-missing-event-name.txt", 1, 6, 3, 0, 2, 1,
	  "text" },
};

START_TEST(test_public_file)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, public_files[_i].lenient);
	struct vpmc_reader_stats st;
	const char *kind, *file;
	char path[1024];

	snprintf(path, sizeof(path), "%s/public/%s", traces_dir(), public_files[_i].file);
	ck_assert_int_eq(vpmc_reader_open(r, path), 0);
	if (!public_files[_i].records) {
		/* every line skipped (20): a file without records is no trace, lenient or not */
		char want[1200];

		snprintf(want, sizeof(want), "%s: no trace records (%u lines, %u malformed "
			 "(skipped))", path, public_files[_i].lines, public_files[_i].skipped);
		ck_assert_int_eq(drain(r, NULL), VPMC_ERR_PARSE);
		ck_assert_str_eq(vpmc_reader_error(r), want);
	} else {
		ck_assert_msg(drain(r, NULL) == 0, "%s: %s", public_files[_i].file,
			      vpmc_reader_error(r));
	}
	ck_assert_int_eq(vpmc_reader_format(r), VPMC_FORMAT_TEXT);
	vpmc_reader_stats(r, &st);
	ck_assert_msg(st.lines == public_files[_i].lines && st.records == public_files[_i].records &&
		      st.unknown_records == public_files[_i].unknown &&
		      st.comment_lines == public_files[_i].comments &&
		      st.skipped_lines == public_files[_i].skipped,
		      "%s: lines %llu records %llu unknown %llu comments %llu skipped %llu",
		      public_files[_i].file, (unsigned long long)st.lines,
		      (unsigned long long)st.records, (unsigned long long)st.unknown_records,
		      (unsigned long long)st.comment_lines, (unsigned long long)st.skipped_lines);
	ck_assert(!st.truncated_tail);
	ck_assert_uint_eq(st.lost_markers, 0);
	ck_assert_int_eq(vpmc_reader_source(r, &kind, &file), 0);
	ck_assert_str_eq(kind, public_files[_i].layout);
	ck_assert_str_eq(file, path);
	vpmc_reader_free(r);
}
END_TEST

/* The local recordings: records = the recorder's counts.txt total; tracefs has a 12-line
 * header. */
static const struct {
	const char *file;
	unsigned int records, comments;
	const char *layout;
} local_files[] = {
	{ "small-mixed-real.txt", 2313, 1, "trace-cmd" },
	{ "small-mixed-real.raw.txt", 2313, 1, "trace-cmd" },
	{ "small-mixed-real.noplugin.txt", 2313, 1, "trace-cmd" },
	{ "small-mixed-real.tracefs.txt", 2313, 12, "ftrace" },
	{ "small-mixed-pm32.txt", 2425, 1, "trace-cmd" },
	{ "small-mixed-lm64.txt", 2225, 1, "trace-cmd" },
	{ "small-mixed-lm64.tracefs.txt", 2225, 12, "ftrace" },
	{ "multi-vcpu-real.txt", 50647, 1, "trace-cmd" },
	{ "pmu-gp-real.txt", 3763, 1, "trace-cmd" },
	{ "pmu-usermsr-real.txt", 3163, 1, "trace-cmd" },
};

START_TEST(test_local_file)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_reader_stats st;
	const char *kind, *file;
	unsigned long n;
	char path[1024];

	snprintf(path, sizeof(path), "%s/local-kvm/%s", traces_dir(), local_files[_i].file);
	ck_assert_int_eq(vpmc_reader_open(r, path), 0);
	ck_assert_msg(drain(r, &n) == 0, "%s: %s", local_files[_i].file, vpmc_reader_error(r));
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.records, local_files[_i].records);
	ck_assert_uint_eq(st.lines, local_files[_i].records + local_files[_i].comments);
	ck_assert_uint_eq(st.comment_lines, local_files[_i].comments);
	ck_assert_uint_eq(st.events, n);
	ck_assert_int_eq(vpmc_reader_source(r, &kind, &file), 0);
	ck_assert_str_eq(kind, local_files[_i].layout);
	vpmc_reader_free(r);
}
END_TEST

#ifdef HAVE_LIBTRACECMD
/* The trace.dat of small-mixed-real has the records of its report (counts.txt: 2313, of which
 * 8 the importer does not use: unmap_hva_range 3, update_master_clock 2, write_tsc_offset,
 * track_tsc, apicv_inhibit_changed). */
START_TEST(test_trace_dat_detected)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_reader_stats st;
	const char *kind, *file;
	char path[1024];

	snprintf(path, sizeof(path), "%s/local-kvm/small-mixed-real.dat", traces_dir());
	ck_assert_int_eq(vpmc_reader_open(r, path), 0);
	ck_assert_int_eq(vpmc_reader_format(r), VPMC_FORMAT_DAT);
	ck_assert_msg(drain(r, NULL) == 0, "%s", vpmc_reader_error(r));
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.records, 2313);
	ck_assert_uint_eq(st.unknown_records, 8);
	ck_assert_uint_eq(st.lines, 0);
	ck_assert_int_eq(vpmc_reader_source(r, &kind, &file), 0);
	ck_assert_str_eq(kind, "trace.dat");
	ck_assert_str_eq(file, path);
	vpmc_reader_free(r);
}
END_TEST

/* bad/cut-v7-chunk.dat: CPU 0's last compressed chunk (10 pages of 4096 bytes, its header
 * says 40960 uncompressed) does not inflate; check_trace_dat.c works out where the records
 * stop. Strict: an error. Lenient: the same words as a warning, the pages counted, the other
 * CPU read to its end. */
START_TEST(test_trace_dat_unread_pages)
{
	struct vpmc_reader *strict = new_reader_isolate(VPMC_FORMAT_AUTO, false, true);
	struct vpmc_reader *lenient = new_reader_isolate(VPMC_FORMAT_AUTO, true, true);
	struct vpmc_reader_stats st, lst;
	char path[1024], want[1200], msg[1400];

	snprintf(path, sizeof(path), "%s/bad/cut-v7-chunk.dat", traces_dir());
	ck_assert_int_eq(vpmc_reader_open(strict, path), 0);
	ck_assert_int_eq(drain(strict, NULL), VPMC_ERR_PARSE);
	snprintf(want, sizeof(want), "%s: cpu 0: records stop at ts ", path);
	ck_assert_msg(!strncmp(vpmc_reader_error(strict), want, strlen(want)), "%s",
		      vpmc_reader_error(strict));
	vpmc_reader_stats(strict, &st);
	ck_assert_uint_eq(st.unread_pages, 10);

	ck_assert_int_eq(vpmc_reader_open(lenient, path), 0);
	ck_assert_msg(drain(lenient, NULL) == 0, "%s", vpmc_reader_error(lenient));
	ck_assert_str_eq(vpmc_reader_error(lenient), "");
	ck_assert_uint_eq(vpmc_reader_nr_warnings(lenient), 1);
	/* the strict error is the warning and what --lenient does about it */
	snprintf(msg, sizeof(msg), "%s (--lenient skips such pages)",
		 vpmc_reader_warning(lenient, 0));
	ck_assert_str_eq(msg, vpmc_reader_error(strict));
	vpmc_reader_stats(lenient, &lst);
	ck_assert_uint_eq(lst.unread_pages, 10);
	ck_assert_uint_ge(lst.records, st.records);
	vpmc_reader_free(strict);
	vpmc_reader_free(lenient);
}
END_TEST
#endif

/* ---------------------------------------------------------------------------------------------
 * Detection, stdin, .vtr through the reader.
 */
static const struct {
	const char *name, *data;
	enum vpmc_format want;
} detect[] = {
	{ "vtr header", "!vpmcsim-trace 1\n", VPMC_FORMAT_VTR },
	{ "vtr header after comments", "# scenario\n\n   # more\n!vpmcsim-trace 1\n", VPMC_FORMAT_VTR },
	{ "vtr directive first", "!pmu vendor=intel\n", VPMC_FORMAT_VTR },
	{ "vtr event line first", "  0 0 entry\n", VPMC_FORMAT_VTR },
	{ "trace-cmd report", "cpus=2\n kvm-1 [000]  1.000001: kvm_fpu: load\n", VPMC_FORMAT_TEXT },
	{ "ftrace with header", "# tracer: nop\n#\n qemu-1 [000] .... 1.0: kvm_fpu: load\n",
	  VPMC_FORMAT_TEXT },
	{ "time stamp only", " 6204.951631: kvm_eoi: apicid 0 vector 176\n", VPMC_FORMAT_TEXT },
	{ "bare event", "kvm_fpu: load\n", VPMC_FORMAT_TEXT },
	{ "only comments", "# nothing\n", VPMC_FORMAT_TEXT },
};

START_TEST(test_detection)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);

	ck_assert_int_eq(vpmc_reader_open_mem(r, "x", detect[_i].data, strlen(detect[_i].data)),
			 0);
	ck_assert_msg(vpmc_reader_format(r) == detect[_i].want, "%s: format %d want %d",
		      detect[_i].name, vpmc_reader_format(r), detect[_i].want);
	vpmc_reader_free(r);
}
END_TEST

/* Replace standard input by a pipe holding @data for the duration of @fn. */
static void with_stdin(const char *data, void (*fn)(void))
{
	int fds[2], saved = dup(STDIN_FILENO);

	ck_assert(saved >= 0 && pipe(fds) == 0);
	ck_assert_int_eq(write(fds[1], data, strlen(data)), (ssize_t)strlen(data));
	close(fds[1]);
	ck_assert_int_eq(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
	close(fds[0]);
	fn();
	ck_assert_int_eq(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
}

static void read_stdin_text(void)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_reader_stats st;
	const char *kind, *file;

	ck_assert_int_eq(vpmc_reader_open(r, "-"), 0);
	ck_assert_int_eq(vpmc_reader_format(r), VPMC_FORMAT_TEXT);
	ck_assert_int_eq(drain(r, NULL), 0);
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.records, 2);
	ck_assert_int_eq(vpmc_reader_source(r, &kind, &file), 0);
	ck_assert_str_eq(file, "-");
	vpmc_reader_free(r);
}

static void read_stdin_error(void)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);

	ck_assert_int_eq(vpmc_reader_open(r, "-"), 0);
	ck_assert_int_eq(drain(r, NULL), VPMC_ERR_PARSE);
	ck_assert_str_eq(vpmc_reader_error(r), "<stdin>:2:1: expected an event ('NAME: ...') on "
			 "this line, found 'oops'" LENIENT_HINT);
	vpmc_reader_free(r);
}

static void read_stdin_dat(void)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);

	ck_assert_int_eq(vpmc_reader_open(r, "-"), VPMC_ERR_PARSE);
	ck_assert_str_eq(vpmc_reader_error(r), "<stdin>: trace.dat cannot be read from standard "
			 "input (give its file name)");
	vpmc_reader_free(r);
}

START_TEST(test_stdin)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_DAT, false);

	with_stdin(" kvm-7 [000] 1.5: kvm_fpu: load\n kvm-7 [000] 1.6: kvm_fpu: unload\n",
		   read_stdin_text);
	with_stdin("kvm_fpu: load\noops\n", read_stdin_error);
	with_stdin("\x17\x08\x44tracing6", read_stdin_dat);
	/* --format dat with "-" */
	ck_assert_int_eq(vpmc_reader_open(r, "-"), VPMC_ERR_PARSE);
	ck_assert_str_eq(vpmc_reader_error(r), "<stdin>: trace.dat cannot be read from standard "
			 "input (give its file name)");
	vpmc_reader_free(r);
}
END_TEST

/* @r's .vtr directives: !pmu vendor, !host kernel, !source kind and file. */
static void assert_header(struct vpmc_reader *r, enum vpmc_vendor vendor, unsigned int kernel,
			  const char *want_kind, const char *want_file)
{
	const char *kind, *file;

	ck_assert_int_eq(vpmc_reader_pmu(r)->vendor, vendor);
	ck_assert_uint_eq(vpmc_reader_pmu(r)->host_kernel, kernel);
	ck_assert_int_eq(vpmc_reader_source(r, &kind, &file), 0);
	ck_assert_str_eq(kind, want_kind);
	ck_assert_str_eq(file, want_file);
}

START_TEST(test_vtr_file)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_reader_stats st;
	struct vpmc_event ev;
	char path[1024];

	snprintf(path, sizeof(path), "%s/vtr/every-event.vtr", traces_dir());
	ck_assert_int_eq(vpmc_reader_open(r, path), 0);
	ck_assert_int_eq(vpmc_reader_format(r), VPMC_FORMAT_VTR);
	ck_assert_int_eq(vpmc_reader_next(r, &ev), 1);
	ck_assert_int_eq(ev.type, VPMC_EV_ENTRY);
	ck_assert_uint_eq(ev.time_ns, 100);
	assert_header(r, VPMC_VENDOR_AMD, VPMC_KERNEL(6, 9), "trace-cmd", "guest.dat");
	ck_assert_uint_eq(vpmc_reader_pmu(r)->nr_gp, 6);
	ck_assert_int_eq(drain(r, NULL), 0);
	vpmc_reader_stats(r, &st);
	ck_assert_uint_eq(st.events, 20);
	ck_assert_uint_eq(st.records, 20);
	ck_assert_uint_eq(st.lines, 27);
	ck_assert_uint_eq(st.comment_lines, 7); /* 2 comments, 4 directives, 1 blank line */
	vpmc_reader_free(r);
}
END_TEST

/* --pmu given: it wins over the trace's !pmu; a .vtr without !source has no source kind. */
START_TEST(test_pmu_override)
{
	static const char data[] = "!vpmcsim-trace 1\n!pmu vendor=amd\n0 0 entry\n";
	struct vpmc_reader_opts o;
	struct vpmc_reader *r;
	const char *kind, *file;
	struct vpmc_event ev;

	vpmc_reader_opts_default(&o);
	o.has_pmu = true;
	vpmc_pmu_config_default(&o.pmu, VPMC_VENDOR_INTEL);
	o.pmu.nr_gp = 4;
	ck_assert_int_eq(vpmc_reader_new(&r, &o), 0);
	ck_assert_int_eq(vpmc_reader_open_mem(r, "v.vtr", data, sizeof(data) - 1), 0);
	ck_assert_int_eq(vpmc_reader_next(r, &ev), 1);
	ck_assert_int_eq(vpmc_reader_pmu(r)->vendor, VPMC_VENDOR_INTEL);
	ck_assert_uint_eq(vpmc_reader_pmu(r)->nr_gp, 4);
	ck_assert_int_eq(vpmc_reader_source(r, &kind, &file), 0);
	ck_assert_ptr_null(kind);
	ck_assert_ptr_null(file);
	vpmc_reader_free(r);
}
END_TEST

/* A .vtr's directives are known right after open, before any vpmc_reader_next() (F16: the
 * replay sets up its PMU then); the first event is not lost; a bad directive is returned by the
 * first vpmc_reader_next(), open still succeeds. */
START_TEST(test_vtr_header_at_open)
{
	static const char data[] = "# an AMD guest\n!vpmcsim-trace 1\n!pmu vendor=amd version=1\n"
				   "!host kernel=6.2\n!source kind=perf file=x.txt\n5 0 entry\n"
				   "6 0 exit HLT\n";
	static const char bad_pmu[] = "!vpmcsim-trace 1\n!pmu vendor=via\n0 0 entry\n";
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_event ev;

	ck_assert_int_eq(vpmc_reader_open_mem(r, "v.vtr", data, sizeof(data) - 1), 0);
	assert_header(r, VPMC_VENDOR_AMD, VPMC_KERNEL(6, 2), "perf", "x.txt");
	ck_assert_uint_eq(vpmc_reader_pmu(r)->version, 1);
	ck_assert_int_eq(vpmc_reader_next(r, &ev), 1);
	ck_assert_int_eq(ev.type, VPMC_EV_ENTRY);
	ck_assert_uint_eq(ev.time_ns, 5);
	ck_assert_int_eq(vpmc_reader_next(r, &ev), 1);
	ck_assert_int_eq(ev.type, VPMC_EV_EXIT);
	ck_assert_int_eq(vpmc_reader_next(r, &ev), 0);
	vpmc_reader_free(r);

	r = new_reader(VPMC_FORMAT_AUTO, false);
	ck_assert_int_eq(vpmc_reader_open_mem(r, "v.vtr", bad_pmu, sizeof(bad_pmu) - 1), 0);
	ck_assert_int_eq(vpmc_reader_next(r, &ev), VPMC_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(vpmc_reader_error(r), "v.vtr:2:"));
	vpmc_reader_free(r);
}
END_TEST

START_TEST(test_api_misuse)
{
	struct vpmc_reader *r = new_reader(VPMC_FORMAT_AUTO, false);
	struct vpmc_event ev;
	const char *kind, *file;
	struct vpmc_reader_opts o;

	vpmc_reader_free(NULL);
	ck_assert_int_eq(vpmc_reader_next(r, &ev), VPMC_ERR_INVAL); /* not open */
	ck_assert_int_eq(vpmc_reader_source(r, &kind, &file), VPMC_ERR_INVAL);
	ck_assert_str_eq(vpmc_reader_error(r), "");
	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", "kvm_fpu: load\n", 14), 0);
	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", "kvm_fpu: load\n", 14), VPMC_ERR_INVAL);
	ck_assert_int_eq(vpmc_reader_open(r, "x"), VPMC_ERR_INVAL);
	ck_assert_int_eq(vpmc_reader_next(r, NULL), VPMC_ERR_INVAL);
	vpmc_reader_free(r);
	/* the documented defaults */
	vpmc_reader_opts_default(&o);
	ck_assert_int_eq(o.format, VPMC_FORMAT_AUTO);
	ck_assert(!o.lenient && !o.has_pmu);
	ck_assert_uint_eq(o.guest_ips, 1000000000ull);
	ck_assert_uint_eq(o.guest_branch_permille, 200);
}
END_TEST

static Suite *reader_suite(void)
{
	Suite *s = suite_create("reader");
	TCase *tm = tcase_create("malformed");
	TCase *tw = tcase_create("warnings");
	TCase *tf = tcase_create("files");
	TCase *td = tcase_create("detect");

	tcase_add_loop_test(tm, test_malformed, 0, ARRAY_SIZE(bad));
	suite_add_tcase(s, tm);
	tcase_add_test(tw, test_truncated_tail_is_a_warning);
	tcase_add_test(tw, test_truncated_vtr_tail);
	tcase_add_loop_test(tw, test_truncated_vtr_v2, 0, 2);
	tcase_add_test(tw, test_last_line_without_newline);
	tcase_add_test(tw, test_lenient_hand_edited_file);
	tcase_add_loop_test(tw, test_lenient_ctrl_c_and_overlong, 0, 2);
	tcase_add_test(tw, test_lenient_keeps_first_warnings);
	tcase_add_test(tw, test_ctrl_c_last_line_is_a_warning);
	tcase_add_test(tw, test_partial_lines_counted);
	tcase_add_test(tw, test_nul_bytes_in_many_lines);
	tcase_add_test(tw, test_time_backwards_warned);
	tcase_add_loop_test(tw, test_time_backwards_far, 0, 2);
	tcase_add_loop_test(tw, test_endless_line, 0, ARRAY_SIZE(endless));
	tcase_add_loop_test(tw, test_overlong_skip_limit, 0, 2);
	tcase_add_loop_test(tw, test_all_nul_same_message, 0, 2);
	tcase_add_loop_test(tw, test_no_records, 0, 3);
	tcase_add_test(tw, test_lost_markers_counted);
	tcase_add_test(tw, test_unknown_names_first_seen);
	tcase_add_test(tw, test_unknown_names_bounded);
	suite_add_tcase(s, tw);
	tcase_add_loop_test(tf, test_public_file, 0, ARRAY_SIZE(public_files));
	tcase_add_loop_test(tf, test_local_file, 0, ARRAY_SIZE(local_files));
#ifdef HAVE_LIBTRACECMD
	tcase_add_test(tf, test_trace_dat_detected);
	tcase_add_test(tf, test_trace_dat_unread_pages);
#endif
	tcase_set_timeout(tf, 120);
	suite_add_tcase(s, tf);
	tcase_add_loop_test(td, test_detection, 0, ARRAY_SIZE(detect));
	tcase_add_test(td, test_stdin);
	tcase_add_test(td, test_vtr_file);
	tcase_add_test(td, test_pmu_override);
	tcase_add_test(td, test_vtr_header_at_open);
	tcase_add_test(td, test_api_misuse);
	tcase_add_test(td, test_unnamed_exit_reasons);
	suite_add_tcase(s, td);
	return s;
}

CHECK_MAIN(reader_suite)
