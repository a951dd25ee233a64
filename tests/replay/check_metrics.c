// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_metrics.c - Count error, PMI matching and lateness, host cost (lib/replay/metrics.c), fed with
 * hand-made observation sequences; every expected value follows from the definitions in
 * metrics.h (and vpmcsim(1), METRICS).
 */
#include "config.h"

#include <string.h>

#include "check_common.h"
#include "metrics.h"

#define GSTATUS 0x38e

static struct vpmc_pmu_config cfg;
static struct vpmc_cost cost;
static struct metrics_vcpu m;

/* probe: returns a fixed reference count and records what it was asked */
static uint64_t probe_value;
static int probe_calls;
static bool probe_had_pos;
static uint64_t probe_pos[2];

static uint64_t probe_ref_count(void *data, int idx, const struct vpmc_obs *at,
				const uint64_t *ovf_pos)
{
	(void)data;
	(void)idx;
	(void)at;
	probe_calls++;
	probe_had_pos = ovf_pos != NULL;
	if (ovf_pos)
		memcpy(probe_pos, ovf_pos, sizeof(probe_pos));
	return probe_value;
}

static const struct metrics_probe probe = { probe_ref_count, NULL };

static void setup(void)
{
	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	vpmc_cost_default(&cost);
	metrics_vcpu_init(&m, &cfg, &cost);
	probe_value = 0;
	probe_calls = 0;
	probe_had_pos = false;
}

static void teardown(void)
{
	metrics_vcpu_release(&m);
}

static struct vpmc_obs obs(enum vpmc_obs_kind kind, uint64_t t, int counter)
{
	struct vpmc_obs o;

	memset(&o, 0, sizeof(o));
	o.kind = kind;
	o.time_ns = t;
	o.counter = counter;
	return o;
}

static void ref(struct vpmc_obs o)
{
	metrics_ref_obs(&m, &o);
}

static void pol(struct vpmc_obs o)
{
	metrics_pol_obs(&m, &o, &probe);
}

static struct vpmc_obs read_obs(uint64_t t, int counter, uint32_t index, uint64_t value)
{
	struct vpmc_obs o = obs(VPMC_OBS_READ, t, counter);

	o.rdpmc = counter >= 0;
	o.index = index;
	o.value = value;
	return o;
}

static struct vpmc_obs pmi_obs(uint64_t t, uint64_t status, bool delivered)
{
	struct vpmc_obs o = obs(VPMC_OBS_PMI, t, -1);

	o.global_status = status;
	o.delivered = delivered;
	return o;
}

/* One RDPMC event: the reference reads @ref_v, the policy @pol_v. */
static void one_read(int counter, uint64_t ref_v, uint64_t pol_v)
{
	metrics_event_begin(&m, VPMC_EV_RDPMC);
	ref(read_obs(10, counter, (uint32_t)counter, ref_v));
	pol(read_obs(10, counter, (uint32_t)counter, pol_v));
	metrics_event_end(&m, VPMC_EV_RDPMC);
}

/* A reference overflow of @counter at @t with the reference's PMI in the same event. */
static void ref_overflow_with_pmi(int counter, uint64_t t, enum vpmc_event_type type)
{
	metrics_event_begin(&m, type);
	ref(obs(VPMC_OBS_OVERFLOW, t, counter));
	ref(pmi_obs(t, 1ULL << counter, true));
	metrics_event_end(&m, type);
}

/* The policy overflows @counter and delivers a PMI at an entry at @t. */
static void pol_overflow_pmi_at_entry(int counter, uint64_t t, uint64_t status)
{
	metrics_event_begin(&m, VPMC_EV_ENTRY);
	pol(obs(VPMC_OBS_OVERFLOW, t, counter));
	pol(pmi_obs(t, status, true));
	metrics_event_end(&m, VPMC_EV_ENTRY);
}

START_TEST(test_read_error_is_policy_minus_reference)
{
	/* disabled-like: 5 KVM-retired instructions missing -> error -5 */
	one_read(0, 1005, 1000);
	ck_assert_uint_eq(m.ctr[0].reads, 1);
	ck_assert_uint_eq(m.ctr[0].reads_err, 1);
	ck_assert_uint_eq(m.ctr[0].err_abs_max, 5);
	ck_assert_double_eq(m.ctr[0].err_sum, -5.0);
	ck_assert_double_eq(m.ctr[0].err_abs_sum, 5.0);
	/* equal reads: counted, no error */
	one_read(0, 77, 77);
	ck_assert_uint_eq(m.ctr[0].reads, 2);
	ck_assert_uint_eq(m.ctr[0].reads_err, 1);
}
END_TEST

START_TEST(test_read_error_modulo_width)
{
	/* 48-bit counters: the reference wrapped to 2, the policy reads 2^48 - 3: 5 behind */
	one_read(1, 2, (1ULL << 48) - 3);
	ck_assert_double_eq(m.ctr[1].err_sum, -5.0);
	ck_assert_uint_eq(m.ctr[1].err_abs_max, 5);
	/* and 3 ahead across the wrap the other way */
	one_read(1, (1ULL << 48) - 1, 2);
	ck_assert_double_eq(m.ctr[1].err_sum, -5.0 + 3.0);
	ck_assert_uint_eq(m.ctr[1].err_abs_max, 5);
}
END_TEST

START_TEST(test_fixed_counter_slot_and_status_reads)
{
	/* fixed counter 0 is KVM index 32 -> slot 8; RDPMC ECX = 1 << 30 */
	one_read(32, 100, 90);
	ck_assert_uint_eq(m.ctr[VPMC_MAX_GP].reads, 1);
	ck_assert_uint_eq(m.ctr[VPMC_MAX_GP].err_abs_max, 10);
	/* GLOBAL_STATUS reads: one equal, one different */
	metrics_event_begin(&m, VPMC_EV_RDMSR);
	ref(read_obs(20, -1, GSTATUS, 1));
	pol(read_obs(20, -1, GSTATUS, 1));
	metrics_event_end(&m, VPMC_EV_RDMSR);
	metrics_event_begin(&m, VPMC_EV_RDMSR);
	ref(read_obs(30, -1, GSTATUS, 1));
	pol(read_obs(30, -1, GSTATUS, 0));
	metrics_event_end(&m, VPMC_EV_RDMSR);
	ck_assert_uint_eq(m.status_reads, 2);
	ck_assert_uint_eq(m.status_differ, 1);
}
END_TEST

START_TEST(test_unpaired_and_gp_reads)
{
	/* the policy reads, the reference did not: unpaired, no error counted */
	metrics_event_begin(&m, VPMC_EV_RDPMC);
	pol(read_obs(10, 0, 0, 5));
	metrics_event_end(&m, VPMC_EV_RDPMC);
	ck_assert_uint_eq(m.unpaired_reads, 1);
	ck_assert_uint_eq(m.ctr[0].reads, 0);
	/* a #GP read is not a counter value */
	metrics_event_begin(&m, VPMC_EV_RDPMC);
	{
		struct vpmc_obs r = read_obs(10, 0, 0, 0), p = r;

		r.gp = p.gp = true;
		ref(r);
		pol(p);
	}
	metrics_event_end(&m, VPMC_EV_RDPMC);
	ck_assert_uint_eq(m.ctr[0].reads, 0);
}
END_TEST

START_TEST(test_pmi_matched_with_lateness)
{
	/* reference overflows GP0 at t=100 on a retire; the policy delivers at the entry at 150,
	 * when the reference counter reads 7 (7 events after its wrap) */
	ref_overflow_with_pmi(0, 100, VPMC_EV_RETIRE);
	ck_assert_uint_eq(m.ctr[0].ref_overflows, 1);
	ck_assert_uint_eq(m.pending_mask, 1);
	probe_value = 7;
	pol_overflow_pmi_at_entry(0, 150, 1);
	ck_assert_int_eq(probe_calls, 1);
	ck_assert(!probe_had_pos); /* overflow in an earlier event */
	ck_assert_uint_eq(m.pmis, 1);
	ck_assert_uint_eq(m.ctr[0].matched, 1);
	ck_assert_uint_eq(m.ctr[0].missed, 0);
	ck_assert_uint_eq(m.spurious, 0);
	ck_assert_uint_eq(m.ctr[0].late_ev.n, 1);
	ck_assert_uint_eq(m.ctr[0].late_ev.max, 7);
	ck_assert_uint_eq(m.ctr[0].late_ns.max, 50);
	ck_assert_uint_eq(m.pending_mask, 0);
	metrics_finish(&m, 1000);
	ck_assert_uint_eq(m.ctr[0].missed, 0);
}
END_TEST

START_TEST(test_same_segment_overflow_passes_position)
{
	struct vpmc_obs ov = obs(VPMC_OBS_OVERFLOW, 200, 0), p;

	/* both overflow inside one guest segment: reference at instruction 40, policy's host PMI
	 * at instruction 45; the probe gets the reference's position */
	metrics_event_begin(&m, VPMC_EV_GUEST);
	ov.seg_insn = 40;
	ov.seg_br = 8;
	ref(ov);
	p = pmi_obs(200, 1, true);
	p.seg_insn = 40;
	ref(p);
	ov = obs(VPMC_OBS_OVERFLOW, 205, 0);
	ov.seg_insn = 45;
	pol(ov);
	p = pmi_obs(205, 1, true);
	p.seg_insn = 45;
	probe_value = 5;
	pol(p);
	metrics_event_end(&m, VPMC_EV_GUEST);
	ck_assert(probe_had_pos);
	ck_assert_uint_eq(probe_pos[0], 40);
	ck_assert_uint_eq(probe_pos[1], 8);
	ck_assert_uint_eq(m.ctr[0].late_ev.max, 5);
	ck_assert_uint_eq(m.ctr[0].late_ns.max, 5);
	/* the host PMI forced one implicit exit (no drain here: priced 0) */
	ck_assert_uint_eq(m.exits_implicit, 1);
	ck_assert_uint_eq(m.exits, 1);
}
END_TEST

START_TEST(test_missed_by_write_then_spurious)
{
	struct vpmc_obs w = obs(VPMC_OBS_WRITE, 120, 0);

	ref_overflow_with_pmi(0, 100, VPMC_EV_RETIRE);
	/* the guest writes the counter before any PMI covers the overflow */
	metrics_event_begin(&m, VPMC_EV_WRMSR);
	ref(w);
	pol(w);
	metrics_event_end(&m, VPMC_EV_WRMSR);
	ck_assert_uint_eq(m.ctr[0].missed, 1);
	ck_assert_uint_eq(m.pending_mask, 0);
	/* a later PMI covering GP0 covers no pending reference overflow: spurious */
	pol_overflow_pmi_at_entry(0, 130, 1);
	ck_assert_uint_eq(m.spurious, 1);
	ck_assert_uint_eq(m.ctr[0].matched, 0);
	ck_assert_int_eq(probe_calls, 0);
}
END_TEST

START_TEST(test_missed_by_next_overflow_and_at_end)
{
	ref_overflow_with_pmi(1, 100, VPMC_EV_RETIRE);
	ref_overflow_with_pmi(1, 200, VPMC_EV_RETIRE);
	ck_assert_uint_eq(m.ctr[1].ref_overflows, 2);
	ck_assert_uint_eq(m.ctr[1].missed, 1); /* the first: the second overflow came first */
	metrics_finish(&m, 300);
	ck_assert_uint_eq(m.ctr[1].missed, 2); /* the second: end of the trace */
	ck_assert_uint_eq(m.ctr[1].matched, 0);
}
END_TEST

START_TEST(test_overflow_without_reference_pmi_not_tracked)
{
	/* INT clear: the reference overflows but raises no PMI */
	metrics_event_begin(&m, VPMC_EV_RETIRE);
	ref(obs(VPMC_OBS_OVERFLOW, 100, 0));
	metrics_event_end(&m, VPMC_EV_RETIRE);
	ck_assert_uint_eq(m.ctr[0].ref_overflows, 0);
	ck_assert_uint_eq(m.ref_overflows_no_pmi, 1);
	metrics_finish(&m, 200);
	ck_assert_uint_eq(m.ctr[0].missed, 0);
}
END_TEST

START_TEST(test_stale_status_bit_covers_nothing)
{
	ref_overflow_with_pmi(0, 100, VPMC_EV_RETIRE);
	/* the policy's PMI has bit 0 set, but the policy did not overflow GP0 (a status bit the
	 * guest never cleared; the PMI is for GP1): it covers nothing -> spurious */
	pol_overflow_pmi_at_entry(1, 110, 3);
	ck_assert_uint_eq(m.spurious, 1);
	ck_assert_uint_eq(m.ctr[0].matched, 0);
	ck_assert_uint_eq(m.pending_mask, 1);
}
END_TEST

START_TEST(test_dropped_pmi_then_delivered)
{
	ref_overflow_with_pmi(0, 100, VPMC_EV_RETIRE);
	/* LVTPC masked: the PMI is dropped and matches nothing */
	metrics_event_begin(&m, VPMC_EV_ENTRY);
	pol(obs(VPMC_OBS_OVERFLOW, 110, 0));
	pol(pmi_obs(110, 1, false));
	metrics_event_end(&m, VPMC_EV_ENTRY);
	ck_assert_uint_eq(m.pmis_dropped, 1);
	ck_assert_uint_eq(m.pmis, 0);
	ck_assert_uint_eq(m.ctr[0].matched, 0);
	/* the next delivered PMI (another counter's overflow) still has bit 0: covers it */
	probe_value = 30;
	pol_overflow_pmi_at_entry(1, 140, 3);
	ck_assert_uint_eq(m.ctr[0].matched, 1);
	ck_assert_uint_eq(m.ctr[0].late_ns.max, 40);
	ck_assert_uint_eq(m.ctr[0].late_ev.max, 30);
	ck_assert_uint_eq(m.spurious, 0);
}
END_TEST

START_TEST(test_exit_cost)
{
	struct vpmc_obs d = obs(VPMC_OBS_DRAIN, 50, -1);

	/* exit with 3 triggers, entry draining 1 resumed counter:
	 * 2.4 us + 3 * 200 cycles / 2.5 GHz = 2.4 + 0.24 = 2.64 us */
	metrics_event_begin(&m, VPMC_EV_EXIT);
	metrics_event_end(&m, VPMC_EV_EXIT);
	metrics_event_begin(&m, VPMC_EV_RETIRE);
	metrics_triggers(&m, 3);
	metrics_event_end(&m, VPMC_EV_RETIRE);
	metrics_event_begin(&m, VPMC_EV_ENTRY);
	d.nr_reprogrammed = 2;
	d.nr_resumed = 1;
	pol(d);
	metrics_event_end(&m, VPMC_EV_ENTRY);
	ck_assert_uint_eq(m.exits, 1);
	ck_assert_uint_eq(m.exits_drained, 1);
	ck_assert_uint_eq(m.drains, 1);
	ck_assert_uint_eq(m.reprograms, 2);
	ck_assert_uint_eq(m.resumes, 1);
	ck_assert_uint_eq(m.triggers, 3);
	ck_assert_double_eq_tol(m.cost_us_total, 2.64, 1e-9);
	ck_assert_uint_eq(m.cost_ns.max, 2640);
	/* an entry with nothing to drain: one more exit, priced 0 */
	metrics_event_begin(&m, VPMC_EV_ENTRY);
	metrics_event_end(&m, VPMC_EV_ENTRY);
	ck_assert_uint_eq(m.exits, 2);
	ck_assert_uint_eq(m.exits_drained, 1);
	ck_assert_uint_eq(hist_percentile(&m.cost_ns, 5000), 0);
	/* a drain inside a guest segment is an implicit exit of its own: 1 create = 5.2 us */
	metrics_event_begin(&m, VPMC_EV_GUEST);
	d = obs(VPMC_OBS_DRAIN, 70, -1);
	d.nr_reprogrammed = 1;
	d.nr_created = 1;
	d.seg_insn = 9;
	pol(d);
	d = pmi_obs(70, 0, true);
	d.seg_insn = 9;
	pol(d); /* the PMI of the same implicit entry: no extra exit */
	metrics_event_end(&m, VPMC_EV_GUEST);
	ck_assert_uint_eq(m.exits, 3);
	ck_assert_uint_eq(m.exits_implicit, 1);
	ck_assert_double_eq_tol(m.cost_us_max, 5.2, 1e-9);
	/* triggers after the last entry are priced at the end of the trace */
	metrics_event_begin(&m, VPMC_EV_RETIRE);
	metrics_triggers(&m, 1);
	metrics_event_end(&m, VPMC_EV_RETIRE);
	metrics_finish(&m, 100);
	ck_assert_uint_eq(m.exits, 4);
}
END_TEST

/* the draw key of each priced exit, in order */
static uint64_t keys[8];
static unsigned int nr_keys;

static void key_of(void *data, const struct vpmc_exit_work *w, double us, double x_us)
{
	(void)data;
	(void)us;
	(void)x_us;
	if (nr_keys < 8)
		keys[nr_keys++] = w->ordinal;
}

/* A trace exit (exit, entry), as the engine applies it. */
static void trace_exit(void)
{
	metrics_event_begin(&m, VPMC_EV_EXIT);
	metrics_event_end(&m, VPMC_EV_EXIT);
	metrics_event_begin(&m, VPMC_EV_ENTRY);
	metrics_trace_entry(&m);
	metrics_event_end(&m, VPMC_EV_ENTRY);
}

/* An exit the overlay adds (its entry is not the trace's). */
static void overlay_exit(void)
{
	metrics_event_begin(&m, VPMC_EV_EXIT);
	metrics_event_end(&m, VPMC_EV_EXIT);
	metrics_event_begin(&m, VPMC_EV_ENTRY);
	metrics_event_end(&m, VPMC_EV_ENTRY);
}

/* A host PMI's drain inside a guest segment: an implicit (modeled) exit. */
static void implicit_exit(uint64_t insn)
{
	struct vpmc_obs d = obs(VPMC_OBS_DRAIN, 70, -1);

	d.seg_insn = insn;
	metrics_event_begin(&m, VPMC_EV_GUEST);
	pol(d);
	metrics_event_end(&m, VPMC_EV_GUEST);
}

START_TEST(test_draw_keys)
{
	/* timer-storm.md §6.5: a trace exit's key is its ordinal on the vCPU (0, 1, ...); a
	 * modeled exit's, that of the trace exit before it + 2^40 x its index since (1, 2, ...):
	 * so the trace exits keep keys 0, 1, 2 whatever modeled exits come between them; one the
	 * trace's end closes is a trace exit (3) */
	m.exit_fn = key_of;
	nr_keys = 0;
	trace_exit();
	implicit_exit(5);
	overlay_exit();
	trace_exit();
	trace_exit();
	implicit_exit(3);
	metrics_event_begin(&m, VPMC_EV_EXIT);
	metrics_event_end(&m, VPMC_EV_EXIT);
	metrics_finish(&m, 100);
	ck_assert_uint_eq(nr_keys, 7);
	ck_assert_uint_eq(keys[0], 0);
	ck_assert_uint_eq(keys[1], 0 + (1ULL << 40));
	ck_assert_uint_eq(keys[2], 0 + (2ULL << 40));
	ck_assert_uint_eq(keys[3], 1);
	ck_assert_uint_eq(keys[4], 2);
	ck_assert_uint_eq(keys[5], 2 + (1ULL << 40));
	ck_assert_uint_eq(keys[6], 3);
	ck_assert_uint_eq(m.exits, 7);
}
END_TEST

START_TEST(test_add_totals)
{
	struct metrics_vcpu tot;

	one_read(0, 10, 4);
	ref_overflow_with_pmi(0, 100, VPMC_EV_RETIRE);
	probe_value = 3;
	pol_overflow_pmi_at_entry(0, 104, 1);
	metrics_vcpu_init(&tot, NULL, NULL);
	ck_assert_int_eq(metrics_vcpu_add(&tot, &m), 0);
	ck_assert_int_eq(metrics_vcpu_add(&tot, &m), 0);
	ck_assert_uint_eq(tot.ctr[0].reads, 2);
	ck_assert_uint_eq(tot.ctr[0].err_abs_max, 6);
	ck_assert_double_eq(tot.ctr[0].err_sum, -12.0);
	ck_assert_uint_eq(tot.ctr[0].matched, 2);
	ck_assert_uint_eq(tot.ctr[0].late_ev.n, 2);
	ck_assert_uint_eq(tot.pmis, 2);
	ck_assert_uint_eq(tot.exits, 2);
	metrics_vcpu_release(&tot);
}
END_TEST

static Suite *metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_read_error_is_policy_minus_reference);
	tcase_add_test(tc, test_read_error_modulo_width);
	tcase_add_test(tc, test_fixed_counter_slot_and_status_reads);
	tcase_add_test(tc, test_unpaired_and_gp_reads);
	tcase_add_test(tc, test_pmi_matched_with_lateness);
	tcase_add_test(tc, test_same_segment_overflow_passes_position);
	tcase_add_test(tc, test_missed_by_write_then_spurious);
	tcase_add_test(tc, test_missed_by_next_overflow_and_at_end);
	tcase_add_test(tc, test_overflow_without_reference_pmi_not_tracked);
	tcase_add_test(tc, test_stale_status_bit_covers_nothing);
	tcase_add_test(tc, test_dropped_pmi_then_delivered);
	tcase_add_test(tc, test_exit_cost);
	tcase_add_test(tc, test_draw_keys);
	tcase_add_test(tc, test_add_totals);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(metrics_suite)
