// SPDX-License-Identifier: GPL-2.0-only
/* check_trace_vtr.c - The native .vtr format: parser and writer (lib/trace_vtr.c).
 * Expected values come from docs/trace-format.md and the hand-written files in traces/vtr/. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "vtr.h"
#include "internal.h"

#define KEEP VPMC_CPL_KEEP

static char *slurp(const char *file, size_t *len)
{
	const char *traces = getenv("VPMC_TRACES");
	char path[1024];
	char *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/vtr/%s", traces ? traces : "../../traces", file);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert(buf && fread(buf, 1, (size_t)n, f) == (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Parse @text (NUL-terminated, '\n' lines) into @evs; the first error fails the test. */
static unsigned int parse_all(struct vtr_parser *p, const char *text, struct vpmc_event *evs,
			      unsigned int max)
{
	unsigned int n = 0, line = 0;

	vtr_parser_init(p);
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		struct vpmc__lineerr err;
		int ret;

		line++;
		ck_assert_uint_lt(n, max);
		ret = vtr_parse_line(p, text, len, &evs[n], &err);
		ck_assert_msg(ret >= 0, "line %u:%u: %s", line, err.col, err.msg);
		n += (unsigned int)ret;
		text += len + !!nl;
	}
	return n;
}

static void check_event(unsigned int i, const struct vpmc_event *got,
			const struct vpmc_event *want)
{
	ck_assert_msg(got->time_ns == want->time_ns, "event %u: time %llu want %llu", i,
		      (unsigned long long)got->time_ns, (unsigned long long)want->time_ns);
	ck_assert_msg(got->vcpu == want->vcpu, "event %u: vcpu", i);
	ck_assert_msg(got->type == want->type, "event %u: type %d want %d", i, got->type, want->type);
	ck_assert_msg(got->cpl == want->cpl, "event %u: cpl %u want %u", i, got->cpl, want->cpl);
	ck_assert_msg(got->branch == want->branch, "event %u: branch", i);
	ck_assert_msg(got->has_value == want->has_value, "event %u: has_value", i);
	ck_assert_msg(got->index == want->index, "event %u: index %#x want %#x", i, got->index,
		      want->index);
	ck_assert_msg(got->value == want->value, "event %u: value %#llx want %#llx", i,
		      (unsigned long long)got->value, (unsigned long long)want->value);
	ck_assert_msg(got->insn == want->insn, "event %u: insn", i);
	ck_assert_msg(got->br == want->br, "event %u: br", i);
	ck_assert_msg(!strcmp(got->reason, want->reason), "event %u: reason '%s' want '%s'", i,
		      got->reason, want->reason);
}

/* traces/vtr/every-event.vtr, read off the file. */
static const struct vpmc_event every_event[] = {
	{ .time_ns = 100, .vcpu = 0, .type = VPMC_EV_ENTRY, .cpl = KEEP },
	{ .time_ns = 100, .vcpu = 1, .type = VPMC_EV_ENTRY, .cpl = KEEP },
	{ .time_ns = 150, .vcpu = 0, .type = VPMC_EV_GUEST, .cpl = 3, .insn = 1000, .br = 200 },
	{ .time_ns = 160, .vcpu = 1, .type = VPMC_EV_GUEST, .cpl = KEEP, .insn = 16 },
	{ .time_ns = 200, .vcpu = 0, .type = VPMC_EV_EXIT, .cpl = KEEP, .reason = "msr" },
	{ .time_ns = 200, .vcpu = 0, .type = VPMC_EV_WRMSR, .cpl = KEEP, .index = 0xc0010200,
	  .value = 0x530076 },
	{ .time_ns = 200, .vcpu = 0, .type = VPMC_EV_RETIRE, .cpl = 0 },
	{ .time_ns = 210, .vcpu = 1, .type = VPMC_EV_EXIT, .cpl = KEEP,
	  .reason = "INVALID_STATE FAILED_VMENTRY" },
	{ .time_ns = 300, .vcpu = 0, .type = VPMC_EV_RDMSR, .cpl = KEEP, .index = 0xc0010201 },
	{ .time_ns = 300, .vcpu = 0, .type = VPMC_EV_RDMSR, .cpl = KEEP, .index = 0xc0010201,
	  .has_value = true, .value = 12345 },
	{ .time_ns = 310, .vcpu = 1, .type = VPMC_EV_RDPMC, .cpl = KEEP, .index = 0x40000000,
	  .has_value = true, .value = 0xffff },
	{ .time_ns = 310, .vcpu = 1, .type = VPMC_EV_RDPMC, .cpl = KEEP, .index = 2 },
	{ .time_ns = 320, .vcpu = 0, .type = VPMC_EV_RETIRE, .cpl = KEEP, .branch = true },
	{ .time_ns = 320, .vcpu = 0, .type = VPMC_EV_RETIRE, .cpl = 3, .branch = true },
	{ .time_ns = 330, .vcpu = 0, .type = VPMC_EV_CPL, .cpl = 3 },
	{ .time_ns = 340, .vcpu = 0, .type = VPMC_EV_LVTPC, .cpl = KEEP, .value = 0x10000 },
	{ .time_ns = 350, .vcpu = 1, .type = VPMC_EV_IRQ, .cpl = KEEP, .index = 0xec },
	{ .time_ns = 360, .vcpu = 1, .type = VPMC_EV_EOI, .cpl = KEEP, .index = 236 },
	{ .time_ns = 370, .vcpu = 0, .type = VPMC_EV_SCHED_OUT, .cpl = KEEP },
	{ .time_ns = 380, .vcpu = 0, .type = VPMC_EV_SCHED_IN, .cpl = KEEP },
};

START_TEST(test_every_event)
{
	struct vtr_parser *p = malloc(sizeof(*p));
	struct vpmc_event evs[32];
	size_t len;
	char *text = slurp("every-event.vtr", &len);
	unsigned int n, i;

	ck_assert(p);
	n = parse_all(p, text, evs, ARRAY_SIZE(evs));
	ck_assert_uint_eq(n, ARRAY_SIZE(every_event));
	for (i = 0; i < n; i++)
		check_event(i, &evs[i], &every_event[i]);
	/* !pmu vendor=amd version=2 gp=6 gp_width=48, !host kernel=6.9 */
	ck_assert_int_eq(p->pmu.vendor, VPMC_VENDOR_AMD);
	ck_assert_uint_eq(p->pmu.version, 2);
	ck_assert_uint_eq(p->pmu.nr_gp, 6);
	ck_assert_uint_eq(p->pmu.nr_fixed, 0);
	ck_assert_uint_eq(p->pmu.gp_width, 48);
	ck_assert(!p->pmu.fw_writes);
	ck_assert_uint_eq(p->pmu.host_kernel, VPMC_KERNEL(6, 9));
	ck_assert_str_eq(p->source_kind, "trace-cmd");
	ck_assert_str_eq(p->source_file, "guest.dat");
	free(text);
	free(p);
}
END_TEST

/* The example of the format page: nine events, comments after them ignored. */
START_TEST(test_format_page_example)
{
	static const struct vpmc_event want[] = {
		{ .time_ns = 0, .type = VPMC_EV_WRMSR, .cpl = KEEP, .index = 0xc1,
		  .value = 0xfffffffe },
		{ .time_ns = 0, .type = VPMC_EV_RETIRE, .cpl = KEEP },
		{ .time_ns = 10, .type = VPMC_EV_WRMSR, .cpl = KEEP, .index = 0x186,
		  .value = 0x5300c0 },
		{ .time_ns = 10, .type = VPMC_EV_RETIRE, .cpl = KEEP },
		{ .time_ns = 20, .type = VPMC_EV_ENTRY, .cpl = KEEP },
		{ .time_ns = 30, .type = VPMC_EV_GUEST, .cpl = KEEP },
		{ .time_ns = 40, .type = VPMC_EV_EXIT, .cpl = KEEP, .reason = "CPUID" },
		{ .time_ns = 40, .type = VPMC_EV_RETIRE, .cpl = KEEP },
		{ .time_ns = 50, .type = VPMC_EV_ENTRY, .cpl = KEEP },
	};
	struct vtr_parser *p = malloc(sizeof(*p));
	struct vpmc_event evs[16];
	size_t len;
	char *text = slurp("format-example.vtr", &len);
	unsigned int n, i;

	ck_assert(p);
	n = parse_all(p, text, evs, ARRAY_SIZE(evs));
	ck_assert_uint_eq(n, ARRAY_SIZE(want));
	for (i = 0; i < n; i++)
		check_event(i, &evs[i], &want[i]);
	free(text);
	free(p);
}
END_TEST

/* PMU configurations: the format page's defaults and what !pmu and !host change. */
static const struct {
	const char *name;
	const char *directives;
	struct vpmc_pmu_config want;
} pmus[] = {
#define CFG(v, ver, gp, fx, gw, fw, fww, k) \
	{ .vendor = (v), .version = (ver), .nr_gp = (gp), .nr_fixed = (fx), .gp_width = (gw), \
	  .fixed_width = (fw), .fw_writes = (fww), .host_kernel = (k) }
	{ "no !pmu: Intel defaults", "",
	  CFG(VPMC_VENDOR_INTEL, 2, 8, 3, 48, 48, true, VPMC_KERNEL_LATEST) },
	{ "vendor=intel", "!pmu vendor=intel\n",
	  CFG(VPMC_VENDOR_INTEL, 2, 8, 3, 48, 48, true, VPMC_KERNEL_LATEST) },
	{ "vendor=amd defaults", "!pmu vendor=amd\n",
	  CFG(VPMC_VENDOR_AMD, 2, 6, 0, 48, 0, false, VPMC_KERNEL_LATEST) },
	{ "AMD version 1: the legacy four counters", "!pmu vendor=amd version=1\n",
	  CFG(VPMC_VENDOR_AMD, 1, 4, 0, 48, 0, false, VPMC_KERNEL_LATEST) },
	{ "every Intel key, hex numbers, vendor last",
	  "!pmu version=0x1 gp=4 fixed=0 gp_width=40 fixed_width=0x30 fw_writes=0 vendor=intel\n",
	  CFG(VPMC_VENDOR_INTEL, 1, 4, 0, 40, 48, false, VPMC_KERNEL_LATEST) },
	{ "no vPMU", "!pmu version=0\n",
	  CFG(VPMC_VENDOR_INTEL, 0, 8, 3, 48, 48, true, VPMC_KERNEL_LATEST) },
	{ "!host before !pmu", "!host kernel=6.2\n!pmu vendor=amd gp=4\n",
	  CFG(VPMC_VENDOR_AMD, 2, 4, 0, 48, 0, false, VPMC_KERNEL(6, 2)) },
	{ "!host after !pmu", "!pmu vendor=intel\n!host kernel=6.17\n",
	  CFG(VPMC_VENDOR_INTEL, 2, 8, 3, 48, 48, true, VPMC_KERNEL(6, 17)) },
	{ "Intel PEBS and TSX capabilities", "!pmu vendor=intel pebs=1 tsx=1\n",
	  { .vendor = VPMC_VENDOR_INTEL, .version = 2, .nr_gp = 8, .nr_fixed = 3, .gp_width = 48,
	    .fixed_width = 48, .fw_writes = true, .host_kernel = VPMC_KERNEL_LATEST,
	    .pebs = true, .tsx = true } },
#undef CFG
};

START_TEST(test_pmu_directives)
{
	struct vtr_parser *p = malloc(sizeof(*p));
	const struct vpmc_pmu_config *w = &pmus[_i].want;
	struct vpmc_event ev;
	char text[512];

	ck_assert(p);
	snprintf(text, sizeof(text), "!vpmcsim-trace 1\n%s0 0 entry\n", pmus[_i].directives);
	ck_assert_uint_eq(parse_all(p, text, &ev, 1), 1);
	ck_assert_msg(p->pmu.vendor == w->vendor && p->pmu.version == w->version &&
		      p->pmu.nr_gp == w->nr_gp && p->pmu.nr_fixed == w->nr_fixed &&
		      p->pmu.gp_width == w->gp_width && p->pmu.fixed_width == w->fixed_width &&
		      p->pmu.fw_writes == w->fw_writes && p->pmu.host_kernel == w->host_kernel &&
		      p->pmu.pebs == w->pebs && p->pmu.tsx == w->tsx,
		      "%s: got vendor %d v%u gp %u fixed %u widths %u/%u fw %d kernel %#x pebs %d "
		      "tsx %d", pmus[_i].name, p->pmu.vendor, p->pmu.version, p->pmu.nr_gp,
		      p->pmu.nr_fixed, p->pmu.gp_width, p->pmu.fixed_width, p->pmu.fw_writes,
		      p->pmu.host_kernel, p->pmu.pebs, p->pmu.tsx);
	free(p);
}
END_TEST

/* Lines the parser rejects: column and message (the reader adds "FILE:LINE:"). The header
 * line is given first unless the case is about the header. */
static const struct {
	const char *name;
	const char *text; /* lines before the bad one, then the bad one (last) */
	unsigned int col;
	const char *msg;
} bad[] = {
	/* !expect (trace-format.md, Expectations): anywhere after the header, checked strictly */
	{ "expect before header", "!expect pmis == 0 by=kvm_pmu_deliver_pmi \"x\"", 1,
	  "expected '!vpmcsim-trace 2' before !expect, found '!expect'" },
	{ "expect target", "!vpmcsim-trace 1\n!expect rdtsc 0x10 == 0 by=kvm_pmu_rdpmc \"x\"", 9,
	  "!expect: expected the target: rdmsr MSR, rdpmc ECX, wrmsr MSR or pmis, found 'rdtsc'" },
	{ "expect msr not hex", "!vpmcsim-trace 1\n!expect rdmsr 910 == 0 by=kvm_pmu_get_msr \"x\"",
	  15, "expected the MSR index in hex with 0x (e.g. 0x38e), found '910'" },
	{ "expect op", "!vpmcsim-trace 1\n!expect rdmsr 0x38e = 0 by=kvm_pmu_get_msr \"x\"", 21,
	  "!expect: expected the comparison: ==, !=, <, <=, > or >=, found '='" },
	{ "expect GP with <", "!vpmcsim-trace 1\n!expect rdpmc 64 < GP by=kvm_pmu_rdpmc \"x\"", 20,
	  "!expect: GP compares with == or != only, found 'GP'" },
	{ "expect wrmsr value", "!vpmcsim-trace 1\n!expect wrmsr 0xc1 == 0 by=kvm_pmu_set_msr \"x\"",
	  23, "!expect: a wrmsr compares with GP only (== GP or != GP), found '0'" },
	{ "expect mask on pmis", "!vpmcsim-trace 1\n!expect pmis & 1 == 0 by=kvm_pmu_deliver_pmi \"x\"",
	  14, "!expect: a mask applies to rdmsr and rdpmc only, found '&'" },
	{ "expect no by", "!vpmcsim-trace 1\n!expect pmis == 0 \"x\"", 19,
	  "!expect: expected by=FUNCTION, the KVM function that decides the value, found '\"x\"'" },
	{ "expect unknown by", "!vpmcsim-trace 1\n!expect pmis == 0 by=kvm_foo \"x\"", 22,
	  "!expect: by=: not a KVM function this format knows (see trace-format.md, Expectations), "
	  "found 'kvm_foo'" },
	{ "expect no message", "!vpmcsim-trace 1\n!expect pmis == 0 by=kvm_pmu_deliver_pmi", 41,
	  "!expect: expected the assertion's message in double quotes, found end of line" },
	{ "expect open message", "!vpmcsim-trace 1\n!expect pmis == 0 by=kvm_pmu_deliver_pmi \"x", 42,
	  "!expect: the message has no closing '\"', found '\"x'" },
	{ "expect long message", "!vpmcsim-trace 1\n!expect pmis == 0 by=kvm_pmu_deliver_pmi "
	  "\"012345678901234567890123456789012345678901234567\"", 42,
	  "!expect: the message must be 1 to 47 bytes, found '\"0123456789012345678901234567890...'" },
	{ "expect junk after message", "!vpmcsim-trace 1\n!expect pmis == 0 by=kvm_pmu_deliver_pmi "
	  "\"x #1\" y", 49, "!expect: unexpected argument after the message (a comment starts with "
	  "'#'), found 'y'" },
	{ "event before header", "0 0 entry", 1,
	  "expected '!vpmcsim-trace 1' before the first event, found '0'" },
	{ "directive before header", "!pmu vendor=intel", 1,
	  "expected '!vpmcsim-trace 1' as the first line that is not a comment, found '!pmu'" },
	{ "version 3", "!vpmcsim-trace 3", 16,
	  "unsupported format version 3 (this reader reads versions 1 and 2), found '3'" },
	{ "version 0", "!vpmcsim-trace 0", 16,
	  "unsupported format version 0 (this reader reads versions 1 and 2), found '0'" },
	{ "no version", "!vpmcsim-trace", 15,
	  "expected the format version after '!vpmcsim-trace', found end of line" },
	{ "junk after header", "!vpmcsim-trace 1 x", 18,
	  "unexpected argument after the header, found 'x'" },
	{ "duplicate header", "!vpmcsim-trace 1\n!vpmcsim-trace 1", 1,
	  "duplicate '!vpmcsim-trace' header, found '!vpmcsim-trace'" },
	{ "unknown directive", "!vpmcsim-trace 1\n!cpu vendor=intel", 1,
	  /* every directive of docs/trace-format.md, from the table the parser looks them up in */
	  "unknown directive (expected !pmu, !host, !source, !nested, !gaps, !gen, !expect or "
	  "!end), found '!cpu'" },
	/* !gen repeats, but like every directive but !expect and !end it comes before events */
	{ "!gen after event", "!vpmcsim-trace 1\n!gen workload=w\n!gen workload=v b=2\n0 0 entry\n!gen workload=u", 1,
	  "directive after the first event (directives come first), found '!gen'" },
	/* !end: 2 event lines before it, so events=3 is a file that lost a line */
	{ "!end count", "!vpmcsim-trace 2\n0 0 entry\n1 0 exit HLT\n!end events=3", 13,
	  "!end: events=3, but 2 event lines come before it (lines lost or added), found '3'" },
	{ "!end count (version 1)", "!vpmcsim-trace 1\n0 0 entry\n!end events=0", 13,
	  "!end: events=0, but 1 event lines come before it (lines lost or added), found '0'" },
	{ "event after !end", "!vpmcsim-trace 2\n0 0 entry\n!end events=1\n1 0 entry", 1,
	  "a line after '!end' (the last line that is not a comment), found '1'" },
	{ "second !end", "!vpmcsim-trace 2\n!end events=0\n!end events=0", 1,
	  "a line after '!end' (the last line that is not a comment), found '!end'" },
	{ "!end key", "!vpmcsim-trace 2\n!end lines=0", 6,
	  "!end: unknown key (expected events), found 'lines=0'" },
	{ "!end junk", "!vpmcsim-trace 2\n!end events=0 x", 15,
	  "unexpected argument after !end, found 'x'" },
	{ "directive after event", "!vpmcsim-trace 1\n0 0 entry\n!pmu vendor=amd", 1,
	  "directive after the first event (directives come first), found '!pmu'" },
	{ "duplicate !pmu", "!vpmcsim-trace 1\n!pmu vendor=amd\n!pmu gp=2", 1,
	  "duplicate directive, found '!pmu'" },
	{ "unknown !pmu key", "!vpmcsim-trace 1\n!pmu vendor=intel gpp=4", 19,
	  "!pmu: unknown key (expected vendor, version, gp, fixed, gp_width, fixed_width, "
	  "fw_writes, pebs, tsx), found 'gpp=4'" },
	{ "duplicate !pmu key", "!vpmcsim-trace 1\n!pmu gp=4 gp=5", 11,
	  "!pmu: duplicate key 'gp', found 'gp=5'" },
	{ "bad vendor", "!vpmcsim-trace 1\n!pmu vendor=via", 13,
	  "!pmu: expected vendor=intel or vendor=amd, found 'via'" },
	{ "Intel key on AMD", "!vpmcsim-trace 1\n!pmu vendor=amd fixed=3", 17,
	  "!pmu: key 'fixed' is Intel-only (vendor=amd), found 'fixed=3'" },
	{ "too many GP counters", "!vpmcsim-trace 1\n!pmu gp=33", 9,
	  "gp out of range (0..32), found '33'" },
	{ "width 0", "!vpmcsim-trace 1\n!pmu gp_width=0", 15,
	  "!pmu: gp_width out of range (1..64), found '0'" },
	{ "key without value", "!vpmcsim-trace 1\n!pmu gp", 6, "!pmu: expected key=value, found 'gp'" },
	{ "empty value", "!vpmcsim-trace 1\n!pmu gp=", 6, "!pmu: empty value, found 'gp='" },
	{ "!host without dot", "!vpmcsim-trace 1\n!host kernel=6", 14,
	  "!host: expected kernel=MAJOR.MINOR (e.g. 6.18), found '6'" },
	{ "!host unknown key", "!vpmcsim-trace 1\n!host version=6.1", 7,
	  "!host: unknown key (expected kernel), found 'version=6.1'" },
	{ "!source unknown key", "!vpmcsim-trace 1\n!source kind=perf path=x", 19,
	  "!source: unknown key (expected kind, file), found 'path=x'" },
	{ "time in hex", "!vpmcsim-trace 1\n0x10 0 entry", 1,
	  "expected the time in ns (a decimal number), found '0x10'" },
	{ "vcpu 4096", "!vpmcsim-trace 1\n0 4096 entry", 3,
	  "the vcpu out of range (0..4095), found '4096'" },
	{ "huge vcpu", "!vpmcsim-trace 1\n0 99999999999999999999 entry", 3,
	  "the vcpu: number larger than 64 bits, found '99999999999999999999'" },
	/* too many digits for 64 bits before a stray byte: the size is what is reported */
	{ "huge vcpu, then a letter", "!vpmcsim-trace 1\n0 99999999999999999999z entry", 3,
	  "the vcpu: number larger than 64 bits, found '99999999999999999999z'" },
	{ "huge MSR index, then a letter", "!vpmcsim-trace 1\n0 0 wrmsr 0x1ffffffffffffffffz 1", 11,
	  "MSR index: number larger than 64 bits, found '0x1ffffffffffffffffz'" },
	{ "time goes backwards", "!vpmcsim-trace 1\n20 0 entry\n20 1 entry\n19 0 entry", 1,
	  "time goes backwards for vcpu 0 (previous event at 20), found '19'" },
	/* every event word of docs/trace-format.md's tables, the nested ones too */
	{ "unknown event", "!vpmcsim-trace 1\n0 0 vmexit", 5,
	  "unknown event (expected entry, exit, guest, retire, wrmsr, rdmsr, rdpmc, cpl, lvtpc, "
	  "irq, eoi, sched_out, sched_in, nexit, ninject, nenter, nintercepts, nfail or "
	  "ninval), found 'vmexit'" },
	/* the longest list and a 28-byte token: 207 bytes, whole (VPMC_LINEERR_MAX) */
	{ "unknown long event", "!vpmcsim-trace 1\n0 0 kvm_nested_vmexit_inject_xyz", 5,
	  "unknown event (expected entry, exit, guest, retire, wrmsr, rdmsr, rdpmc, cpl, lvtpc, "
	  "irq, eoi, sched_out, sched_in, nexit, ninject, nenter, nintercepts, nfail or "
	  "ninval), found 'kvm_nested_vmexit_inject_xyz'" },
	{ "missing event", "!vpmcsim-trace 1\n0 0", 4,
	  "unknown event (expected entry, exit, guest, retire, wrmsr, rdmsr, rdpmc, cpl, lvtpc, "
	  "irq, eoi, sched_out, sched_in, nexit, ninject, nenter, nintercepts, nfail or "
	  "ninval), found end of line" },
	{ "argument to entry", "!vpmcsim-trace 1\n0 0 entry 5", 11,
	  "unexpected argument after entry, found '5'" },
	{ "exit without reason", "!vpmcsim-trace 1\n0 0 exit", 9,
	  "exit: expected the exit reason (e.g. MSR_WRITE), found end of line" },
	{ "MSR in decimal", "!vpmcsim-trace 1\n0 0 wrmsr 390 0", 11,
	  "expected the MSR index in hex with 0x (e.g. 0x186), found '390'" },
	{ "bad hex value", "!vpmcsim-trace 1\n0 0 wrmsr 0x186 0x5g", 17,
	  "expected the value written (decimal, or hex with 0x), found '0x5g'" },
	{ "wrmsr without value", "!vpmcsim-trace 1\n0 0 wrmsr 0x186", 16,
	  "expected the value written, found end of line" },
	{ "MSR above 32 bits", "!vpmcsim-trace 1\n0 0 rdmsr 0x100000000", 11,
	  "MSR index out of range (0..4294967295), found '0x100000000'" },
	{ "guest without insn", "!vpmcsim-trace 1\n0 0 guest br=1", 15,
	  "guest: expected insn=N, found end of line" },
	{ "guest unknown key", "!vpmcsim-trace 1\n0 0 guest insn=5 branches=1", 18,
	  "guest: unknown argument (expected insn=N, br=N or cpl=N), found 'branches=1'" },
	{ "guest duplicate key", "!vpmcsim-trace 1\n0 0 guest insn=5 insn=6", 18,
	  "duplicate 'insn=', found 'insn=6'" },
	{ "br > insn", "!vpmcsim-trace 1\n0 0 guest insn=5 br=6", 18,
	  "guest: more branches than instructions (br=6 > insn=5), found 'br=6'" },
	{ "cpl 4 on retire", "!vpmcsim-trace 1\n0 0 retire cpl=4", 16,
	  "cpl out of range (0..3), found '4'" },
	{ "retire unknown word", "!vpmcsim-trace 1\n0 0 retire taken", 12,
	  "retire: unknown argument (expected 'branch' or cpl=N), found 'taken'" },
	{ "cpl event 5", "!vpmcsim-trace 1\n0 0 cpl 5", 9,
	  "the CPL (0..3) out of range (0..3), found '5'" },
	{ "irq vector 256", "!vpmcsim-trace 1\n0 0 irq 256", 9,
	  "the vector (0..255) out of range (0..255), found '256'" },
	{ "lvtpc above 32 bits", "!vpmcsim-trace 1\n0 0 lvtpc 0x100000000", 11,
	  "the LVTPC value (32 bits) out of range (0..4294967295), found '0x100000000'" },
	{ "negative number", "!vpmcsim-trace 1\n0 0 rdpmc -1", 11,
	  "expected ECX (decimal, or hex with 0x), found '-1'" },
	{ "CRLF", "!vpmcsim-trace 1\r", 17,
	  "carriage return in the line (a CRLF file? .vtr lines end with \\n), found '?'" },
	{ "exit reason not ASCII", "!vpmcsim-trace 1\n0 0 exit MSR\xc3\xa9", 13,
	  "exit: the reason must be printable ASCII, found '?" "?'" },
};

START_TEST(test_bad_lines)
{
	struct vtr_parser *p = malloc(sizeof(*p));
	const char *text = bad[_i].text;
	struct vpmc_event ev;
	struct vpmc__lineerr err;
	int ret = 0;

	ck_assert(p);
	vtr_parser_init(p);
	for (;;) {
		const char *nl = strchr(text, '\n');

		ret = vtr_parse_line(p, text, nl ? (size_t)(nl - text) : strlen(text), &ev, &err);
		if (!nl)
			break;
		ck_assert_msg(ret >= 0, "%s: an earlier line failed: %s", bad[_i].name, err.msg);
		text = nl + 1;
	}
	ck_assert_msg(ret == VPMC_ERR_PARSE, "%s: ret %d", bad[_i].name, ret);
	ck_assert_msg(err.col == bad[_i].col, "%s: col %u want %u", bad[_i].name, err.col,
		      bad[_i].col);
	ck_assert_msg(!strcmp(err.msg, bad[_i].msg), "%s:\n got  '%s'\n want '%s'", bad[_i].name,
		      err.msg, bad[_i].msg);
	free(p);
}
END_TEST

START_TEST(test_no_header_at_end)
{
	struct vtr_parser *p = malloc(sizeof(*p));
	struct vpmc_event ev;
	struct vpmc__lineerr err;

	ck_assert(p);
	vtr_parser_init(p);
	ck_assert_int_eq(vtr_parse_line(p, "# only a comment", 16, &ev, &err), 0);
	ck_assert_int_eq(vtr_finish(p, &err), VPMC_ERR_PARSE);
	ck_assert_uint_eq(err.col, 0);
	ck_assert_str_eq(err.msg, "expected '!vpmcsim-trace 1', found end of file");
	ck_assert_int_eq(vtr_parse_line(p, "!vpmcsim-trace 1", 16, &ev, &err), 0);
	ck_assert_int_eq(vtr_finish(p, &err), 0);
	free(p);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The writer.
 */

/* Write the events of @p and @evs as a .vtr file into a new string. */
static char *write_all(const struct vtr_parser *p, const struct vpmc_event *evs, unsigned int n)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	unsigned int i;

	ck_assert(f);
	ck_assert_int_eq(vpmc_vtr_write_header(f, &p->pmu,
					       p->source_kind[0] ? p->source_kind : NULL,
					       p->source_file[0] ? p->source_file : NULL), 0);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(vpmc_vtr_write_event(f, &evs[i]), 0);
	ck_assert_int_eq(vpmc_vtr_write_end(f, n), 0);
	fclose(f);
	return out;
}

START_TEST(test_canonical_round_trip)
{
	struct vtr_parser *p = malloc(sizeof(*p));
	struct vpmc_event evs[64];
	size_t len;
	char *text = slurp("canonical.vtr", &len), *out;
	unsigned int n;

	ck_assert(p);
	n = parse_all(p, text, evs, ARRAY_SIZE(evs));
	ck_assert_uint_eq(n, 22);
	out = write_all(p, evs, n);
	/* version 1 in, version 2 out: the header's version, the same lines, the !end line */
	ck_assert_uint_eq(strlen(out), len + strlen("!end events=22\n"));
	ck_assert(!strncmp(out, "!vpmcsim-trace 2\n", 17) && !strncmp(text, "!vpmcsim-trace 1\n", 17));
	ck_assert(!strncmp(out + 17, text + 17, len - 17));
	ck_assert_str_eq(out + len, "!end events=22\n");
	free(out);
	free(text);
	free(p);
}
END_TEST

/* A file in a free style is written in the canonical one, which reads back to the same events. */
START_TEST(test_write_canonical_form)
{
	static const char in[] = "# comment\n"
				 "!vpmcsim-trace 1\n"
				 "!source kind=perf\n"
				 "!pmu vendor=amd gp=4\n"
				 "5\t0   guest insn=0x20 br=0\n"
				 "6 0 retire   branch\n"
				 "7 0 exit   INVALID_STATE     FAILED_VMENTRY   # flags\n"
				 "8 0 irq 236\n"
				 "9 0 rdpmc 1073741824 65535\n"
				 "9 0 wrmsr 0xC0010200 83886080\n";
	static const char want[] = "!vpmcsim-trace 2\n"
				   "!pmu vendor=amd version=2 gp=4 gp_width=48\n"
				   "!host kernel=7.0\n"
				   "!source kind=perf\n"
				   "5 0 guest insn=32\n"
				   "6 0 retire branch\n"
				   "7 0 exit INVALID_STATE FAILED_VMENTRY\n"
				   "8 0 irq 0xec\n"
				   "9 0 rdpmc 0x40000000 0xffff\n"
				   "9 0 wrmsr 0xc0010200 0x5000000\n"
				   "!end events=6\n";
	struct vtr_parser *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));
	struct vpmc_event evs[16], again[16];
	unsigned int n, i;
	char *out;

	ck_assert(p && q);
	n = parse_all(p, in, evs, ARRAY_SIZE(evs));
	out = write_all(p, evs, n);
	ck_assert_str_eq(out, want);
	ck_assert_uint_eq(parse_all(q, out, again, ARRAY_SIZE(again)), n);
	for (i = 0; i < n; i++)
		check_event(i, &again[i], &evs[i]);
	free(out);
	free(p);
	free(q);
}
END_TEST

START_TEST(test_writer_sanitizes_source)
{
	struct vpmc_pmu_config cfg;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.host_kernel = VPMC_KERNEL(6, 2);
	ck_assert_int_eq(vpmc_vtr_write_header(f, &cfg, "trace-cmd", "my trace#1.txt"), 0);
	fclose(f);
	ck_assert_str_eq(out, "!vpmcsim-trace 2\n"
			      "!pmu vendor=intel version=2 gp=8 fixed=3 gp_width=48 fixed_width=48 "
			      "fw_writes=1\n"
			      "!host kernel=6.2\n"
			      "!source kind=trace-cmd file=my_trace_1.txt\n");
	free(out);
}
END_TEST

/* pebs= and tsx= appear only when set, so files without them keep their canonical bytes. */
START_TEST(test_writer_pebs_tsx_only_when_set)
{
	struct vpmc_pmu_config cfg;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.pebs = true;
	cfg.tsx = true;
	ck_assert_int_eq(vpmc_vtr_write_header(f, &cfg, NULL, NULL), 0);
	fclose(f);
	ck_assert_str_eq(out, "!vpmcsim-trace 2\n"
			      "!pmu vendor=intel version=2 gp=8 fixed=3 gp_width=48 fixed_width=48 "
			      "fw_writes=1 pebs=1 tsx=1\n"
			      "!host kernel=7.0\n");
	free(out);
}
END_TEST

/* Events the format cannot hold are refused, nothing written. */
static const struct {
	const char *name;
	struct vpmc_event ev;
} unwritable[] = {
	{ "type out of range", { .type = VPMC_EV_NR } },
	{ "vcpu 4096", { .vcpu = 4096, .type = VPMC_EV_ENTRY, .cpl = KEEP } },
	{ "cpl 4", { .type = VPMC_EV_RETIRE, .cpl = 4 } },
	{ "cpl event keeping", { .type = VPMC_EV_CPL, .cpl = KEEP } },
	{ "empty reason", { .type = VPMC_EV_EXIT, .cpl = KEEP } },
	{ "reason with '#'", { .type = VPMC_EV_EXIT, .cpl = KEEP, .reason = "A#B" } },
	{ "reason with two spaces", { .type = VPMC_EV_EXIT, .cpl = KEEP, .reason = "A  B" } },
	{ "reason with a newline", { .type = VPMC_EV_EXIT, .cpl = KEEP, .reason = "A\nB" } },
	{ "br > insn", { .type = VPMC_EV_GUEST, .cpl = KEEP, .insn = 1, .br = 2 } },
	{ "vector 256", { .type = VPMC_EV_IRQ, .cpl = KEEP, .index = 256 } },
	{ "LVTPC above 32 bits", { .type = VPMC_EV_LVTPC, .cpl = KEEP, .value = 1ull << 32 } },
};

START_TEST(test_writer_refuses)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	ck_assert_msg(vpmc_vtr_write_event(f, &unwritable[_i].ev) == VPMC_ERR_INVAL, "%s",
		      unwritable[_i].name);
	fclose(f);
	ck_assert_msg(len == 0, "%s: wrote '%s'", unwritable[_i].name, out);
	free(out);
	ck_assert_int_eq(vpmc_vtr_write_event(NULL, &unwritable[_i].ev), VPMC_ERR_INVAL);
}
END_TEST

/* !expect lines parse into VPMC_EV_EXPECT events (vpmc/event.h), also between events. */
START_TEST(test_expect_lines)
{
	static const char *const lines[] = {
		"!vpmcsim-trace 1",
		"0 0 rdmsr 0x38e",
		"!expect rdmsr 0x38e & 0x2 == 0x2 by=kvm_perf_overflow \"a # b\"  # comment",
		"!expect rdpmc 64 == GP by=kvm_pmu_rdpmc \"#GP\"",
		"!expect pmis >= 3 by=kvm_apic_local_deliver \"irq\"",
	};
	struct vtr_parser *p = malloc(sizeof(*p));
	struct vpmc_event ev[3];
	struct vpmc__lineerr err;
	size_t i;

	ck_assert(p);
	vtr_parser_init(p);
	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		int ret = vtr_parse_line(p, lines[i], strlen(lines[i]), i >= 2 ? &ev[i - 2] : &ev[0],
					 &err);

		ck_assert_msg(ret == (i == 0 ? 0 : 1), "line %zu: %d %s", i, ret, err.msg);
	}
	ck_assert_int_eq(ev[0].type, VPMC_EV_EXPECT);
	ck_assert_uint_eq(ev[0].insn, VPMC_EXPECT_RDMSR);
	ck_assert_uint_eq(ev[0].index, 0x38e);
	ck_assert_uint_eq(ev[0].br, 2);
	ck_assert_uint_eq(ev[0].cpl, VPMC_EXPECT_EQ);
	ck_assert_uint_eq(ev[0].value, 2);
	ck_assert_str_eq(ev[0].reason, "a # b");
	ck_assert_str_eq(vpmc_expect_decider(ev[0].vcpu), "kvm_perf_overflow");
	ck_assert_uint_eq(ev[1].insn, VPMC_EXPECT_RDPMC);
	ck_assert_uint_eq(ev[1].index, 64);
	ck_assert_uint_eq(ev[1].cpl, VPMC_EXPECT_IS_GP);
	ck_assert_uint_eq(ev[1].br, UINT64_MAX);
	ck_assert_str_eq(vpmc_expect_decider(ev[1].vcpu), "kvm_pmu_rdpmc");
	ck_assert_uint_eq(ev[2].insn, VPMC_EXPECT_PMIS);
	ck_assert_uint_eq(ev[2].cpl, VPMC_EXPECT_GE);
	ck_assert_uint_eq(ev[2].value, 3);
	ck_assert_ptr_null(vpmc_expect_decider(1000));
	free(p);
}
END_TEST

static Suite *trace_vtr_suite(void)
{
	Suite *s = suite_create("trace_vtr");
	TCase *tr = tcase_create("read");
	TCase *tw = tcase_create("write");

	tcase_add_test(tr, test_every_event);
	tcase_add_test(tr, test_format_page_example);
	tcase_add_loop_test(tr, test_pmu_directives, 0, ARRAY_SIZE(pmus));
	tcase_add_loop_test(tr, test_bad_lines, 0, ARRAY_SIZE(bad));
	tcase_add_test(tr, test_no_header_at_end);
	tcase_add_test(tr, test_expect_lines);
	suite_add_tcase(s, tr);
	tcase_add_test(tw, test_canonical_round_trip);
	tcase_add_test(tw, test_write_canonical_form);
	tcase_add_test(tw, test_writer_sanitizes_source);
	tcase_add_test(tw, test_writer_pebs_tsx_only_when_set);
	tcase_add_loop_test(tw, test_writer_refuses, 0, ARRAY_SIZE(unwritable));
	suite_add_tcase(s, tw);
	return s;
}

CHECK_MAIN(trace_vtr_suite)
