// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_alike.c - Lanes that behave alike (lib/replay/alike.h): the rule by which a follower
 * with threshold T' stays with its leader (the leader's comparisons found le <= T' < gt), and
 * what a tolerance policy's model notes of its comparisons (vpmc__vcpu_tolerance_seen()),
 * worked out by hand from kvm_pmu_incr_counter(): emulated_counter++, then the reprogram is
 * requested unless emulated_counter <= T; the drain at the next VM-entry folds the pending
 * events (emulated_counter = 0). The engine's sharing itself is checked against sweeps of each
 * T alone in tests/cli/cli_alike.sh.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include <vpmc.h>

#include "alike.h"
#include "check_common.h"
#include "model.h"

#define MSR_EVNTSEL0 0x186
#define MSR_GLOBAL_CTRL 0x38f
#define EVNTSEL_EN_INT_OS_USR_INSN 0x5300c0 /* EN | INT | OS | USR, event 0xc0 */

/* No comparison (0, 0) leaves every T; a leader that found 3 <= T and 4 > T (its T is 3) is
 * followed by T' = 3 only; one that found 2 <= T and nothing above, by any T' >= 2. */
START_TEST(test_rule)
{
	ck_assert(alike_same(0, 0, 0));
	ck_assert(alike_same(0, 0, UINT64_MAX));
	ck_assert(alike_same(3, 4, 3));
	ck_assert(!alike_same(3, 4, 2));
	ck_assert(!alike_same(3, 4, 4));
	ck_assert(!alike_same(3, 4, 100));
	ck_assert(alike_same(2, 0, 2));
	ck_assert(alike_same(2, 0, UINT64_MAX));
	ck_assert(!alike_same(2, 0, 1));
	ck_assert(alike_same(128, 2048, 2047));
	ck_assert(!alike_same(128, 2048, 2048));
}
END_TEST

static void send(struct vpmc_vcpu *v, uint64_t *t, enum vpmc_event_type type, uint32_t index,
		 uint64_t value)
{
	struct vpmc_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.time_ns = *t += 10;
	ev.type = type;
	ev.cpl = type == VPMC_EV_RETIRE ? 0 : VPMC_CPL_KEEP;
	ev.index = index;
	ev.value = value;
	ck_assert_int_eq(vpmc_vcpu_event(v, &ev), 0);
}

static const enum vpmc_policy_kind kinds[] = {
	VPMC_POLICY_TOLERANCE, VPMC_POLICY_TOLERANCE_FOLD, VPMC_POLICY_TOLERANCE_WRAP,
};

/*
 * T = 3, PMC0 counting instructions at CPL 0 (the counter far from wrapping, so tolerance-wrap
 * compares as tolerance does). The WRMSRs that program it have no retire here: no comparison.
 * Five emulated retires: emulated_counter 1, 2, 3 (<= 3: deferred), 4, 5 (> 3: requested):
 * le = 3, gt = 4. Looked at, forgotten: (0, 0). The entry drains (requested at 4); two retires:
 * 1, 2: le = 2, nothing above. A look adds to what the caller has: le raised, gt lowered.
 */
START_TEST(test_model_notes_comparisons)
{
	const struct vpmc_policy p = { kinds[_i], 3 };
	struct vpmc_pmu_config cfg;
	struct vpmc_vcpu *v;
	uint64_t t = 0, le = 0, gt = 0;
	int k;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_INTEL);
	ck_assert_int_eq(vpmc_vcpu_new(&v, &cfg, &p, 0, NULL), 0);
	send(v, &t, VPMC_EV_WRMSR, MSR_EVNTSEL0, EVNTSEL_EN_INT_OS_USR_INSN);
	send(v, &t, VPMC_EV_WRMSR, MSR_GLOBAL_CTRL, 1);
	send(v, &t, VPMC_EV_ENTRY, 0, 0);
	vpmc__vcpu_tolerance_seen(v, &le, &gt);
	ck_assert_uint_eq(le, 0);
	ck_assert_uint_eq(gt, 0);
	for (k = 0; k < 5; k++)
		send(v, &t, VPMC_EV_RETIRE, 0, 0);
	vpmc__vcpu_tolerance_seen(v, &le, &gt);
	ck_assert_uint_eq(le, 3);
	ck_assert_uint_eq(gt, 4);
	le = gt = 0;
	vpmc__vcpu_tolerance_seen(v, &le, &gt);
	ck_assert_uint_eq(le, 0);
	ck_assert_uint_eq(gt, 0);
	send(v, &t, VPMC_EV_ENTRY, 0, 0);
	send(v, &t, VPMC_EV_RETIRE, 0, 0);
	send(v, &t, VPMC_EV_RETIRE, 0, 0);
	le = 1;
	gt = 10;
	vpmc__vcpu_tolerance_seen(v, &le, &gt);
	ck_assert_uint_eq(le, 2);
	ck_assert_uint_eq(gt, 10);
	vpmc_vcpu_free(v);
}
END_TEST

static Suite *alike_suite(void)
{
	Suite *s = suite_create("alike");
	TCase *tc = tcase_create("alike");

	tcase_add_test(tc, test_rule);
	tcase_add_loop_test(tc, test_model_notes_comparisons, 0, ARRAY_SIZE(kinds));
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(alike_suite)
