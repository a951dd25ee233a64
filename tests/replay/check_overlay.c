// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_overlay.c - "--assume" parsing and the guest profiler's MSR sequences (lib/replay/overlay.c).
 * Expected sequences follow Linux: x86_pmu_enable()/x86_pmu_start() for programming,
 * intel_pmu_handle_irq() (late ack), amd_pmu_v2_handle_irq() and x86_pmu_handle_irq() (AMD without
 * PerfMonV2) for the PMI handler, with the
 * arithmetic of x86_perf_event_update() and x86_perf_event_set_period().
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "check_common.h"
#include "overlay.h"

#define M48 ((1ULL << 48) - 1)

static const struct {
	const char *name;
	const char *spec;
	const char *canonical;
} good[] = {
	{ "instructions", "gp0=instructions,period=1000000", "gp0=instructions,period=1000000" },
	{ "default-period", "gp1=branches", "gp1=branches,period=100000" },
	{ "fixed", "fixed0,period=5000", "fixed0,period=5000" },
	{ "cycles-hex-period", "gp2=cycles,period=0x100", "gp2=cycles,period=256" },
	{ "raw", "gp3=0x1c0", "gp3=0x1c0,period=100000" },
	{ "raw-max", "gp3=0xffff", "gp3=0xffff,period=100000" },
	{ "raw-decimal", "gp3=192", "gp3=0xc0,period=100000" },
	{ "period-int64-max", "gp0=instructions,period=9223372036854775807",
	  "gp0=instructions,period=9223372036854775807" },
};

START_TEST(test_add_good)
{
	struct overlay ov = { 0 };
	struct vpmc__errbuf why = { "" };

	ck_assert_msg(overlay_add(&ov, good[_i].spec, &why) == 0, "%s: %s",
		      good[_i].name, why.msg);
	ck_assert_uint_eq(ov.nr, 1);
	ck_assert_str_eq(ov.ctr[0].spec, good[_i].canonical);
}
END_TEST

static const struct {
	const char *name;
	const char *spec;
	const char *why_contains;
} bad[] = {
	{ "no-counter", "instructions", "expected gpN" },
	{ "gp-without-event", "gp0", "needs =EVENT" },
	{ "unknown-event", "gp0=bogus", "'bogus' is not an event: expected instructions, "
	  "branches, cycles or a raw 0xUUEE" },
	/* an event given, but beyond the unit mask and event select bytes of the event select */
	{ "raw-too-big", "gp0=0xffffff", "raw event '0xffffff' is out of range: expected 0x1 to "
	  "0xffff (0xUUEE: unit mask UU, event select EE)" },
	{ "raw-zero", "gp0=0", "raw event '0' is out of range: expected 0x1 to 0xffff" },
	{ "raw-beyond-u64", "gp0=0x1ffffffffffffffff", "raw event '0x1ffffffffffffffff' is out of "
	  "range" },
	{ "raw-not-hex", "gp0=0xc0g", "'0xc0g' is not an event" },
	{ "fixed-with-event", "fixed0=instructions", "no =EVENT" },
	{ "bad-key", "gp0=instructions,freq=4000", "expected ,period=P after the counter, found "
	  "'freq=4000'" },
	/* perf_event_open() refuses a sample_period with bit 63 set: at most INT64_MAX */
	{ "zero-period", "gp0=instructions,period=0", "period=0: expected 1 to "
	  "9223372036854775807 events (INT64_MAX" },
	{ "period-u64-max", "fixed0,period=18446744073709551615", "period=18446744073709551615: "
	  "expected 1 to 9223372036854775807 events (INT64_MAX, as perf_event_open() takes); a "
	  "period above the counter's max period is clamped to it at each re-arm, as "
	  "x86_perf_event_set_period() does" },
	{ "period-bit-63", "gp0=cycles,period=0x8000000000000000", "expected 1 to "
	  "9223372036854775807" },
	{ "period-twice", "fixed0,period=10,period=20", "period given twice ('10', '20')" },
	{ "bad-index", "gpx=instructions", "expected gpN" },
	{ "huge-index", "gp99=instructions", "expected gpN" },
};

START_TEST(test_add_bad)
{
	struct overlay ov = { 0 };
	struct vpmc__errbuf why = { "" };

	ck_assert_msg(overlay_add(&ov, bad[_i].spec, &why) == VPMC_ERR_INVAL,
		      "%s: accepted", bad[_i].name);
	ck_assert_msg(strstr(why.msg, bad[_i].why_contains), "%s: why '%s'", bad[_i].name,
		      why.msg);
	ck_assert_uint_eq(ov.nr, 0);
}
END_TEST

START_TEST(test_duplicate_and_check)
{
	struct overlay ov = { 0 };
	struct vpmc_pmu_config cfg;
	struct vpmc__errbuf why = { "" };
	struct vpmc__errbuf msg;

	ck_assert_int_eq(overlay_add(&ov, "gp0=instructions", &why), 0);
	ck_assert_int_eq(overlay_add(&ov, "gp0=branches", &why), VPMC_ERR_INVAL);
	ck_assert_str_eq(why.msg, "gp0 given twice ('gp0=instructions,period=100000', "
			 "'gp0=branches')");
	ck_assert_int_eq(overlay_add(&ov, "gp9=branches", &why), 0);
	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	ck_assert_int_eq(overlay_check(&ov, &cfg, &msg), VPMC_ERR_INVAL);
	ck_assert_str_eq(msg.msg, "--assume gp9: the Intel PMU has 8 GP counters (gp0 to gp7)");
	/* AMD has no fixed counters */
	memset(&ov, 0, sizeof(ov));
	ck_assert_int_eq(overlay_add(&ov, "fixed1", &why), 0);
	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_AMD);
	ck_assert_int_eq(overlay_check(&ov, &cfg, &msg), VPMC_ERR_INVAL);
	ck_assert_str_eq(msg.msg, "--assume fixed1: the AMD PMU has no fixed counters");
	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.nr_fixed = 1;
	ck_assert_int_eq(overlay_check(&ov, &cfg, &msg), VPMC_ERR_INVAL);
	ck_assert_str_eq(msg.msg, "--assume fixed1: the Intel PMU has one fixed counter (fixed0)");
	memset(&ov, 0, sizeof(ov));
	ck_assert_int_eq(overlay_add(&ov, "gp9=branches", &why), 0);
	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.version = 1;
	ck_assert_int_eq(overlay_check(&ov, &cfg, &msg), VPMC_ERR_INVAL);
	ck_assert_str_eq(msg.msg, "--assume needs an Intel PMU with global control (version 2 or "
			 "later); this trace's Intel PMU is version 1");
	/* AMD without PerfMonV2 is driven through its event selects (amd_pmu_enable_all()) */
	memset(&ov, 0, sizeof(ov));
	ck_assert_int_eq(overlay_add(&ov, "gp3=branches", &why), 0);
	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_AMD);
	cfg.version = 1;
	cfg.nr_gp = 4;
	ck_assert_int_eq(overlay_check(&ov, &cfg, &msg), 0);
	cfg.version = 0;
	ck_assert_int_eq(overlay_check(&ov, &cfg, &msg), VPMC_ERR_INVAL);
	ck_assert_str_eq(msg.msg, "--assume needs a vPMU; this trace's AMD PMU is version 0 (none)");
}
END_TEST

/* A sink that records the events as text and answers reads from a script. */
static char trace[8192];
static uint64_t status_script[4];
static unsigned int status_next;
static uint64_t rdpmc_value[64];

static int record(void *data, const struct vpmc_event *ev, uint64_t *value)
{
	size_t n = strlen(trace);

	(void)data;
	switch (ev->type) {
	case VPMC_EV_EXIT:
		snprintf(trace + n, sizeof(trace) - n, "exit %s;", ev->reason);
		break;
	case VPMC_EV_WRMSR:
		snprintf(trace + n, sizeof(trace) - n, "wrmsr %#x %#llx;", ev->index,
			 (unsigned long long)ev->value);
		break;
	case VPMC_EV_RDMSR:
		*value = ev->index == 0x38e || ev->index == 0xc0000300 ? status_script[status_next++]
								     : 0;
		snprintf(trace + n, sizeof(trace) - n, "rdmsr %#x=%#llx;", ev->index,
			 (unsigned long long)*value);
		break;
	case VPMC_EV_RDPMC:
		*value = rdpmc_value[ev->index & 63];
		snprintf(trace + n, sizeof(trace) - n, "rdpmc %#x=%llu;", ev->index,
			 (unsigned long long)*value);
		break;
	case VPMC_EV_RETIRE:
		ck_assert_int_eq(ev->cpl, 0);
		snprintf(trace + n, sizeof(trace) - n, "retire;");
		break;
	case VPMC_EV_ENTRY:
		snprintf(trace + n, sizeof(trace) - n, "entry|");
		break;
	default:
		ck_abort_msg("unexpected event type %d", ev->type);
	}
	return 0;
}

static const struct overlay_sink sink = { record, NULL };

static void reset_sink(void)
{
	trace[0] = '\0';
	status_next = 0;
	memset(status_script, 0, sizeof(status_script));
	memset(rdpmc_value, 0, sizeof(rdpmc_value));
}

START_TEST(test_intel_program_and_handler)
{
	struct overlay ov = { 0 };
	struct overlay_guest g;
	struct vpmc_pmu_config cfg;
	struct vpmc__errbuf why = { "" };
	char want[2048];

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL); /* 8 GP, 3 fixed, 48-bit, FW_WRITE */
	ck_assert_int_eq(overlay_add(&ov, "gp0=instructions,period=1000", &why), 0);
	ck_assert_int_eq(overlay_add(&ov, "fixed0,period=500", &why), 0);
	reset_sink();
	ck_assert_int_eq(overlay_program(&ov, &cfg, &g, 0, 100, &sink), 0);
	/* GLOBAL_CTRL = 0; PMC0 (full width 0x4c1) = -1000; EVNTSEL0 = 0xc0 | INT | USR | OS | EN;
	 * FIXED_CTR0 = -500; FIXED_CTR_CTRL read-modify-write with nibble 0xb; GLOBAL_CTRL =
	 * 8 GP | 3 fixed */
	snprintf(want, sizeof(want),
		 "exit MSR_WRITE;wrmsr 0x38f 0;retire;entry|"
		 "exit MSR_WRITE;wrmsr 0x4c1 %#llx;retire;entry|"
		 "exit MSR_WRITE;wrmsr 0x186 0x5300c0;retire;entry|"
		 "exit MSR_WRITE;wrmsr 0x309 %#llx;retire;entry|"
		 "exit MSR_READ;rdmsr 0x38d=0;retire;entry|"
		 "exit MSR_WRITE;wrmsr 0x38d 0xb;retire;entry|"
		 "exit MSR_WRITE;wrmsr 0x38f 0x7000000ff;retire;entry|",
		 (unsigned long long)(-1000ULL & M48), (unsigned long long)(-500ULL & M48));
	ck_assert_str_eq(trace, want);

	/* GP0 overflowed and counted 5 more events before the handler's RDPMC:
	 * delta = 5 - (-1000) = 1005, period_left = 1000 - 1005 = -5 -> left = 995 */
	reset_sink();
	status_script[0] = 1;
	status_script[1] = 0;
	rdpmc_value[0] = 5;
	ck_assert_int_eq(overlay_pmi_handler(&ov, &cfg, &g, 0, 200, &sink), 0);
	snprintf(want, sizeof(want),
		 "exit MSR_WRITE;wrmsr 0x38f 0;retire;entry|"
		 "exit MSR_READ;rdmsr 0x38e=0x1;retire;entry|"
		 "exit MSR_WRITE;wrmsr 0x390 0x1;retire;entry|"
		 "exit RDPMC;rdpmc 0=5;retire;entry|"
		 "exit MSR_WRITE;wrmsr 0x4c1 %#llx;retire;entry|"
		 "exit MSR_READ;rdmsr 0x38e=0;retire;entry|"
		 "exit MSR_WRITE;wrmsr 0x38f 0x7000000ff;retire;entry|"
		 "exit MSR_WRITE;wrmsr 0x834 0x400;retire;entry|",
		 (unsigned long long)(-995ULL & M48));
	ck_assert_str_eq(trace, want);
	ck_assert_int_eq(g.period_left[0], 995);
}
END_TEST

/*
 * A period above x86_pmu.max_period is clamped to it at each re-arm (x86_perf_event_set_period():
 * "if (left > x86_pmu.max_period) left = x86_pmu.max_period"), while period_left keeps the whole
 * period. Intel with full-width writes: max_period = cntval_mask >> 1 = 2^47 - 1
 * (intel_pmu_init()); without them 2^31 - 1; AMD 2^47 - 1 (amd_pmu_init()).
 */
static const struct {
	enum vpmc_vendor vendor;
	bool fw_writes;
	uint32_t msr; /* the counter perf writes */
	uint64_t max_period;
} pmus[] = {
	{ VPMC_VENDOR_INTEL, true, 0x4c1, (1ULL << 47) - 1 },
	{ VPMC_VENDOR_INTEL, false, 0xc1, (1ULL << 31) - 1 },
	{ VPMC_VENDOR_AMD, false, 0xc0010201, (1ULL << 47) - 1 },
};

START_TEST(test_period_clamped_to_max_period)
{
	struct overlay ov = { 0 };
	struct overlay_guest g;
	struct vpmc_pmu_config cfg;
	struct vpmc__errbuf why = { "" };
	char want[64];
	uint64_t max = pmus[_i].max_period;

	vpmc_pmu_config_default(&cfg, pmus[_i].vendor);
	cfg.fw_writes = pmus[_i].fw_writes;
	ck_assert_int_eq(overlay_add(&ov, "gp0=instructions,period=9223372036854775807", &why), 0);
	reset_sink();
	ck_assert_int_eq(overlay_program(&ov, &cfg, &g, 0, 0, &sink), 0);
	snprintf(want, sizeof(want), "wrmsr %#x %#llx;", pmus[_i].msr,
		 (unsigned long long)(-max & M48));
	ck_assert_msg(strstr(trace, want) != NULL, "%s not in %s", want, trace);
	ck_assert_int_eq(g.period_left[0], INT64_MAX);
	/* the counter wrapped and counted 5 more: delta = 5 + max, period_left stays far above
	 * max_period, so the counter is re-armed at -max_period again */
	reset_sink();
	status_script[0] = 1;
	rdpmc_value[0] = 5;
	ck_assert_int_eq(overlay_pmi_handler(&ov, &cfg, &g, 0, 10, &sink), 0);
	ck_assert_msg(strstr(trace, want) != NULL, "%s not in %s", want, trace);
	ck_assert_int_eq(g.period_left[0], INT64_MAX - (int64_t)(max + 5));
}
END_TEST

START_TEST(test_intel_legacy_alias_and_status_bits_not_ours)
{
	struct overlay ov = { 0 };
	struct overlay_guest g;
	struct vpmc_pmu_config cfg;
	struct vpmc__errbuf why = { "" };

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	cfg.fw_writes = false; /* perf writes the legacy 0xc1 alias */
	ck_assert_int_eq(overlay_add(&ov, "gp1=branches,period=7", &why), 0);
	reset_sink();
	ck_assert_int_eq(overlay_program(&ov, &cfg, &g, 0, 0, &sink), 0);
	ck_assert(strstr(trace, "wrmsr 0xc2 0xfffffffffff9;") != NULL);
	ck_assert(strstr(trace, "wrmsr 0x187 0x5300c4;") != NULL);
	/* status has bit 0 (not perf's counter) and bit 33: acked, never read or re-armed */
	reset_sink();
	status_script[0] = (1ULL << 33) | 1;
	ck_assert_int_eq(overlay_pmi_handler(&ov, &cfg, &g, 0, 0, &sink), 0);
	ck_assert(strstr(trace, "wrmsr 0x390 0x200000001;") != NULL);
	ck_assert(strstr(trace, "rdpmc") == NULL);
}
END_TEST

START_TEST(test_intel_handler_without_status)
{
	struct overlay ov = { 0 };
	struct overlay_guest g;
	struct vpmc_pmu_config cfg;
	struct vpmc__errbuf why = { "" };

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	ck_assert_int_eq(overlay_add(&ov, "gp0=instructions", &why), 0);
	reset_sink();
	ck_assert_int_eq(overlay_pmi_handler(&ov, &cfg, &g, 0, 0, &sink), 0);
	/* status 0: "goto done" - disable, read, enable, unmask */
	ck_assert_str_eq(trace, "exit MSR_WRITE;wrmsr 0x38f 0;retire;entry|"
				"exit MSR_READ;rdmsr 0x38e=0;retire;entry|"
				"exit MSR_WRITE;wrmsr 0x38f 0x7000000ff;retire;entry|"
				"exit MSR_WRITE;wrmsr 0x834 0x400;retire;entry|");
}
END_TEST

START_TEST(test_amd_v2_handler)
{
	struct overlay ov = { 0 };
	struct overlay_guest g;
	struct vpmc_pmu_config cfg;
	struct vpmc__errbuf why = { "" };
	char want[1024];

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_AMD); /* PerfMonV2, 6 GP, 48-bit */
	ck_assert_int_eq(overlay_add(&ov, "gp0=instructions,period=1000", &why), 0);
	ck_assert_int_eq(overlay_add(&ov, "gp1=branches,period=100", &why), 0);
	reset_sink();
	ck_assert_int_eq(overlay_program(&ov, &cfg, &g, 0, 0, &sink), 0);
	ck_assert(strstr(trace, "wrmsr 0xc0010201 ") != NULL);
	ck_assert(strstr(trace, "wrmsr 0xc0010202 0x5300c2;") != NULL); /* AMD branches: 0xc2 */
	ck_assert(strstr(trace, "wrmsr 0xc0000301 0x3f;") != NULL);
	/* GP1 overflowed (status bit 1); GP0 is read but not re-armed. GP1: prev -100, read 3:
	 * delta 103, left = 100 - 103 + 100 = 97 */
	reset_sink();
	status_script[0] = 2;
	rdpmc_value[0] = 40;
	rdpmc_value[1] = 3;
	ck_assert_int_eq(overlay_pmi_handler(&ov, &cfg, &g, 0, 0, &sink), 0);
	snprintf(want, sizeof(want),
		 "exit MSR_WRITE;wrmsr 0xc0000301 0;retire;entry|"
		 "exit MSR_READ;rdmsr 0xc0000300=0x2;retire;entry|"
		 "exit RDPMC;rdpmc 0=40;retire;entry|"
		 "exit RDPMC;rdpmc 0x1=3;retire;entry|"
		 "exit MSR_WRITE;wrmsr 0xc0010203 %#llx;retire;entry|"
		 "exit MSR_WRITE;wrmsr 0xc0000302 0xffffffffffffffff;retire;entry|"
		 "exit MSR_WRITE;wrmsr 0xc0000301 0x3f;retire;entry|",
		 (unsigned long long)(-97ULL & M48));
	ck_assert_str_eq(trace, want);
	/* GP0's update took 40 - (-1000) = 1040 events off its period: left -40 */
	ck_assert_int_eq(g.period_left[0], -40);
}
END_TEST

/*
 * AMD without PerfMonV2 (version 1). The MSRs are amd_pmu_refresh()'s: with more than four
 * counters (perfctr_core) the F15H block (CTLn 0xc0010200 + 2n, CTRn 0xc0010201 + 2n), else the K7
 * MSRs (EVNTSELn 0xc0010000 + n, PERFCTRn 0xc0010004 + n), as amd_core_pmu_init() picks them.
 */
static const struct {
	unsigned int nr_gp;
	uint32_t sel1, ctr1, sel3, ctr3; /* gp1's and gp3's event select and counter */
} amd_v1[] = {
	{ 6, 0xc0010202, 0xc0010203, 0xc0010206, 0xc0010207 },
	{ 4, 0xc0010001, 0xc0010005, 0xc0010003, 0xc0010007 },
};

START_TEST(test_amd_v1_program_and_handler)
{
	struct overlay ov = { 0 };
	struct overlay_guest g;
	struct vpmc_pmu_config cfg;
	struct vpmc__errbuf why = { "" };
	char want[2048];

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_AMD);
	cfg.version = 1;
	cfg.nr_gp = amd_v1[_i].nr_gp;
	/* given in the order gp3, gp1 */
	ck_assert_int_eq(overlay_add(&ov, "gp3=branches,period=100", &why), 0);
	ck_assert_int_eq(overlay_add(&ov, "gp1=instructions,period=1000", &why), 0);
	reset_sink();
	ck_assert_int_eq(overlay_program(&ov, &cfg, &g, 0, 0, &sink), 0);
	/* x86_pmu_disable(): no active counter, nothing to disable; x86_pmu_start() for each
	 * event, in the order added: counter = -period (x86_perf_event_set_period()), its
	 * x86_pmu_enable_event() silent (cpuc->enabled = 0); amd_pmu_enable_all(): event selects
	 * with EN in counter order, gp1 (0xc0 | INT | USR | OS | EN = 0x5300c0) then gp3 (0xc2) */
	snprintf(want, sizeof(want),
		 "exit MSR_WRITE;wrmsr %#x %#llx;retire;entry|"
		 "exit MSR_WRITE;wrmsr %#x %#llx;retire;entry|"
		 "exit MSR_WRITE;wrmsr %#x 0x5300c0;retire;entry|"
		 "exit MSR_WRITE;wrmsr %#x 0x5300c2;retire;entry|",
		 amd_v1[_i].ctr3, (unsigned long long)(-100ULL & M48),
		 amd_v1[_i].ctr1, (unsigned long long)(-1000ULL & M48),
		 amd_v1[_i].sel1, amd_v1[_i].sel3);
	ck_assert_str_eq(trace, want);

	/* x86_pmu_handle_irq(): LVTPC = NMI (x2APIC 0x834) first; gp1 reads -990 (top bit 47 set:
	 * not overflowed, skipped; its update still takes 10 events off: left 990); gp3 reads 4
	 * (wrapped): delta = 4 - (-100) = 104, left = 100 - 104 = -4 -> + 100 = 96, counter =
	 * -96. No global control: no disable, status, ack or enable. */
	reset_sink();
	rdpmc_value[1] = -990ULL & M48;
	rdpmc_value[3] = 4;
	ck_assert_int_eq(overlay_pmi_handler(&ov, &cfg, &g, 0, 0, &sink), 0);
	snprintf(want, sizeof(want),
		 "exit MSR_WRITE;wrmsr 0x834 0x400;retire;entry|"
		 "exit RDPMC;rdpmc 0x1=%llu;retire;entry|"
		 "exit RDPMC;rdpmc 0x3=4;retire;entry|"
		 "exit MSR_WRITE;wrmsr %#x %#llx;retire;entry|",
		 (unsigned long long)(-990ULL & M48), amd_v1[_i].ctr3,
		 (unsigned long long)(-96ULL & M48));
	ck_assert_str_eq(trace, want);
	ck_assert_int_eq(g.period_left[0], 96);
	ck_assert_int_eq(g.period_left[1], 990);
	/* the trace's own writes: the K7 alias of gp1 always undoes it (amd_msr_idx_to_pmc());
	 * F15H CTR1 only where it exists; GLOBAL_CTL does not exist without PerfMonV2 (#GP) */
	ck_assert_int_eq(overlay_msr_conflict(&ov, &cfg, 0xc0010005, 0, want, sizeof(want)), 1);
	ck_assert_int_eq(overlay_msr_conflict(&ov, &cfg, 0xc0010203, 0, want, sizeof(want)),
			 amd_v1[_i].nr_gp > 4 ? 1 : -1);
	ck_assert_int_eq(overlay_msr_conflict(&ov, &cfg, 0xc0000301, 0, want, sizeof(want)), -1);
}
END_TEST

/*
 * A trace's own WRMSR that undoes what overlay_program() wrote for an assumed counter (F6): the
 * counter MSR (both Intel aliases; AMD's F15H and, for counters 0-3, K7 MSRs: amd_msr_idx_to_pmc
 * maps both), its event select with another value than overlay_program()'s (0x5300c0 for
 * instructions: EN, INT, OS, USR; KVM's set_msr ignores an unchanged event select), its
 * FIXED_CTR_CTRL nibble other than 0xb, or GLOBAL_CTRL without its bit. Writes that keep the
 * assumed state, or touch other counters, are no conflict.
 */
static const struct {
	enum vpmc_vendor vendor;
	const char *spec;
	uint32_t msr;
	uint64_t value;
	const char *name; /* NULL: no conflict */
} conflicts[] = {
	{ VPMC_VENDOR_INTEL, "gp0=instructions", 0xc1, 0, "IA32_PMC0" },
	{ VPMC_VENDOR_INTEL, "gp2=instructions", 0x4c3, 5, "IA32_A_PMC2" },
	{ VPMC_VENDOR_INTEL, "gp0=instructions", 0x186, 0x4300c0, "IA32_PERFEVTSEL0" },
	{ VPMC_VENDOR_INTEL, "gp0=instructions", 0x186, 0x5300c0, NULL },
	{ VPMC_VENDOR_INTEL, "gp0=instructions", 0x186, 0, "IA32_PERFEVTSEL0" },
	{ VPMC_VENDOR_INTEL, "gp0=instructions", 0xc2, 0, NULL },
	{ VPMC_VENDOR_INTEL, "gp0=instructions", 0x187, 0, NULL },
	{ VPMC_VENDOR_INTEL, "gp0=instructions", 0x38f, 0x70000000f, NULL },
	{ VPMC_VENDOR_INTEL, "gp0=instructions", 0x38f, 0x70000000e, "IA32_PERF_GLOBAL_CTRL" },
	{ VPMC_VENDOR_INTEL, "gp0=instructions", 0x38d, 0, NULL },
	{ VPMC_VENDOR_INTEL, "fixed1", 0x30a, 0, "IA32_FIXED_CTR1" },
	{ VPMC_VENDOR_INTEL, "fixed1", 0x309, 0, NULL },
	{ VPMC_VENDOR_INTEL, "fixed1", 0x38d, 0xb0, NULL },
	{ VPMC_VENDOR_INTEL, "fixed1", 0x38d, 0x3b, "IA32_FIXED_CTR_CTRL" },
	{ VPMC_VENDOR_INTEL, "fixed1", 0x38f, 0xff, "IA32_PERF_GLOBAL_CTRL" },
	{ VPMC_VENDOR_INTEL, "fixed1", 0x38f, 1ULL << 33, NULL },
	{ VPMC_VENDOR_AMD, "gp2=instructions", 0xc0010205, 0, "MSR_F15H_PERF_CTR2" },
	{ VPMC_VENDOR_AMD, "gp2=instructions", 0xc0010204, 0, "MSR_F15H_PERF_CTL2" },
	{ VPMC_VENDOR_AMD, "gp2=instructions", 0xc0010204, 0x5300c0, NULL },
	{ VPMC_VENDOR_AMD, "gp2=instructions", 0xc0010006, 0, "MSR_K7_PERFCTR2" },
	{ VPMC_VENDOR_AMD, "gp2=instructions", 0xc0010002, 0, "MSR_K7_EVNTSEL2" },
	{ VPMC_VENDOR_AMD, "gp2=instructions", 0xc0010002, 0x5300c2, "MSR_K7_EVNTSEL2" },
	{ VPMC_VENDOR_AMD, "gp2=instructions", 0xc0010002, 0x5300c0, NULL },
	{ VPMC_VENDOR_AMD, "gp2=instructions", 0xc0000301, 0x3, "PerfCntrGlobalCtl" },
	{ VPMC_VENDOR_AMD, "gp2=instructions", 0xc0000301, 0x3f, NULL },
	{ VPMC_VENDOR_AMD, "gp5=instructions", 0xc0010009, 0, NULL },
	{ VPMC_VENDOR_AMD, "gp5=instructions", 0xc001020b, 0, "MSR_F15H_PERF_CTR5" },
};

START_TEST(test_msr_conflict)
{
	struct vpmc_pmu_config cfg;
	struct overlay ov = { 0 };
	struct vpmc__errbuf why = { "" };
	char name[32] = "";
	uint64_t value;
	int i;

	vpmc_pmu_config_default(&cfg, conflicts[_i].vendor);
	/* a second assumed counter that no row touches: the answer is the row's position */
	ck_assert_int_eq(overlay_add(&ov, "gp4=branches", &why), 0);
	ck_assert_int_eq(overlay_add(&ov, conflicts[_i].spec, &why), 0);
	value = conflicts[_i].value;
	if (conflicts[_i].msr == 0x38f || conflicts[_i].msr == 0xc0000301)
		value |= 1ULL << 4; /* GLOBAL_CTRL keeps gp4 enabled */
	i = overlay_msr_conflict(&ov, &cfg, conflicts[_i].msr, value, name, sizeof(name));
	if (!conflicts[_i].name) {
		ck_assert_msg(i == -1, "%s %#x: conflict %s", conflicts[_i].spec,
			      conflicts[_i].msr, name);
		return;
	}
	ck_assert_int_eq(i, 1);
	ck_assert_str_eq(name, conflicts[_i].name);
}
END_TEST

static Suite *overlay_suite(void)
{
	Suite *s = suite_create("overlay");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_add_good, 0, ARRAY_SIZE(good));
	tcase_add_loop_test(tc, test_add_bad, 0, ARRAY_SIZE(bad));
	tcase_add_test(tc, test_duplicate_and_check);
	tcase_add_test(tc, test_intel_program_and_handler);
	tcase_add_loop_test(tc, test_period_clamped_to_max_period, 0, ARRAY_SIZE(pmus));
	tcase_add_test(tc, test_intel_legacy_alias_and_status_bits_not_ours);
	tcase_add_test(tc, test_intel_handler_without_status);
	tcase_add_test(tc, test_amd_v2_handler);
	tcase_add_loop_test(tc, test_amd_v1_program_and_handler, 0, ARRAY_SIZE(amd_v1));
	tcase_add_loop_test(tc, test_msr_conflict, 0, ARRAY_SIZE(conflicts));
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(overlay_suite)
