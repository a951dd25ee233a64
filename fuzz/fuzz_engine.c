// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_engine.c - libFuzzer target: the vPMU model and the replay engine, checked against
 * invariants on every run (issue 16). Public API only (vpmc_vcpu_*, vpmc_replay_*).
 *
 * An input is either a .vtr trace (it starts with '!' or '#': the seeds are traces/ *.vtr; the
 * policies' arguments and the overlay are drawn from a hash of the bytes) or a binary stream
 * (decode_binary(): a header with the PMU shape, host kernel, policy arguments and overlay,
 * then one event per opcode byte, every event kind). The events then go
 *   - through one vCPU per policy (exact twice, tolerance=0, tolerance-wrap=0, disabled=MASK,
 *     tolerance=T, tolerance-wrap=T, tolerance=UINT64_MAX, mediated, reference) for each vCPU
 *     of the stream, every observation checked (check_event());
 *   - through the replay engine with the same policies, with the overlay if the input has one
 *     (engine_run(), check_engine()); on a quarter of the inputs it also writes the report and
 *     the plot, and runs twice (I7).
 *
 * The invariants and their rules (kvm-vpmu-semantics.md; "§" are its sections):
 *
 * I1 Equivalent policies give the same observer stream as exact, observation for observation:
 *    tolerance=0 and tolerance-wrap=0 (kvm_pmu_incr_counter() requests the reprogram once
 *    emulated_counter > 0, i.e. at every increment, as exact does: appendix A.3), disabled=MASK
 *    without the instructions (bit 1) and branches (bit 4) ids (the retire hooks skip only
 *    those), every tolerance policy on a host before 6.8 (no emulated_counter there:
 *    upstream-fix-scenarios.md 9, 15) and tolerance(-wrap)=T with T = 0. A second exact vCPU
 *    given the same events gives the same stream too (no hidden state).
 * I2 The guest's MSR interface does not depend on the policy: the same READ/WRITE observations
 *    (MSR or ECX, counter, #GP, value written) under every policy, and the same value for every
 *    read of a register that is not a counter or GLOBAL_STATUS (event selects, FIXED_CTR_CTRL,
 *    GLOBAL_CTRL, PEBS_ENABLE ...: what the guest wrote, §1.6). The policies differ only in
 *    kvm_pmu_incr_counter() and the retire hooks (appendix A).
 * I3 Exact and the reference agree on every guest-visible counter value (every counter read
 *    and, after every event, pmc_read_counter() of every counter), and so do tolerance=T,
 *    tolerance-wrap=T and mediated, where the semantics require it:
 *    - reads are exact at any time (§2.9: counter + emulated_counter + the live perf count),
 *      a counter write makes every policy read the value written (§2.9), and emulated events
 *      pass the same gates at trigger time under every policy (§2.3);
 *    - but a guest segment counts with the perf events as the last drain left them (vpmc(3),
 *      "Guest segments"), while the reference counts with the current MSRs; a WRMSR that can
 *      change what counts (anything but a counter's value) takes effect on the perf events at
 *      the next VM-entry's drain (§2.5, §2.6; an implicit entry of a host PMI inside the
 *      segment applies it at a policy-dependent point). So a guest segment that runs after
 *      such a WRMSR and before the next ENTRY makes the counters diverge: from there on a
 *      counter is compared again only after a successful write to it.
 *    disabled=MASK is not compared (it undercounts by design, appendix A.2).
 * I4 kvm_pmu_incr_counter() requests a reprogram exactly when the policy says (§2.4, §2.5,
 *    appendix A.3): exact and disabled at every increment, tolerance=T once more than T
 *    emulated events are pending (counted from the TRIGGER observations, cleared by the
 *    counter's reprogram, which folds them, and by a write to it, §2.9), tolerance-wrap=T also
 *    when the increment wraps the counter to 0, mediated and the reference never (§4.3); on a
 *    host before 6.8 at every increment. Checked at each drain: every counter requested so is
 *    reprogrammed, and every counter reprogrammed was requested so or had another cause since
 *    the previous drain (a PMU MSR write other than a counter value, or its perf overflow,
 *    §2.10). With T = UINT64_MAX no emulated event ever requests one.
 * I5 Observations are internally consistent: vpmc_vcpu_stats() counts what was observed
 *    (triggers, PMIs delivered and dropped, drains, reprograms, overflows); a DRAIN's counts
 *    are the REPROGRAM observations since the previous one; perf-backed policies never report
 *    a mediated reprogram and mediated ones only those; counter values fit their width;
 *    GLOBAL_STATUS has only bits of existing counters (and bit 62 for PEBS, perf-backed only).
 * I6 Metrics are internally consistent, per policy, per vCPU and per counter: matched + missed
 *    = reference overflows; reads with error <= reads, the error maximum is 0 exactly when no
 *    read erred, |mean| <= mean |error| <= maximum; status and host differences <= their reads;
 *    spurious <= delivered PMIs, and delivered - spurious <= matched <= reference overflows (a
 *    PMI that is not spurious matches at least one overflow, each overflow once); lateness
 *    p50 <= p99 <= max, all 0 without a match; implicit exits and exits with a drain <= exits,
 *    exits with a drain <= drains, resumes + creates <= reprograms; total host time = the cost
 *    model applied to the totals (it is linear), mean <= max; vCPU totals add up to the run's,
 *    counters' to their vCPU's. Policies equivalent to exact (I1) have exact's metrics; the
 *    reference as a policy has no read error and no status difference, and (its PMI comes at
 *    the overflow) no missed overflow and no lateness on a vCPU where no PMI was dropped (a
 *    masked LVTPC leaves the overflow to a later PMI); without an overlay every policy sees
 *    the same reads and reference overflows.
 * I7 Two runs of the engine give identical output: the report (one of the three views in one
 *    of the three formats, chosen by the input), the sweep plot, the log (one input in 16),
 *    the warning, every metric. Checked on a quarter of the inputs (chosen by a hash of the
 *    bytes, so a failing input fails again): the second run doubled every input's time, and
 *    what makes two runs differ (state kept across runs, memory read before it is written)
 *    is not specific to one input, so a campaign still meets it on many. The report and the
 *    plot are written on that quarter only: on a short input they took a third of the time.
 * I8 Memory stays bounded: a vCPU allocates nothing after vpmc_vcpu_new(); the engine's heap
 *    never exceeds what its documented per-vCPU structures can hold (histograms of at most 59
 *    blocks, a reference queue of at most 4096 observations), whatever the number of events.
 *    Checked where the sanitizer reports the heap (__sanitizer_get_current_allocated_bytes()).
 *
 * A violated invariant prints the rule, the event's index and the event, and aborts.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The sanitizers' heap: NULL without a sanitizer runtime (then I8 is not checked). */
size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
					      void (*free_hook)(const volatile void *))
	__attribute__((weak));
size_t __sanitizer_get_allocated_size(const volatile void *p) __attribute__((weak));

#define FZ_MAX_EVENTS 2048
#define FZ_MAX_VCPUS 8           /* distinct vCPUs; events of others are dropped */
#define FZ_INSN_BUDGET (1u << 22) /* guest instructions of a whole input */
#define FZ_MAX_IDX 64            /* KVM global counter indices */

#define FZ_VIEWS 3   /* enum vpmc_replay_view */
#define FZ_FORMATS 3 /* enum vpmc_output */

#define BIT(n) (1ULL << (n))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the policies ---- */

enum fz_pol {
	P_EXACT,
	P_TOL0,
	P_WRAP0,
	P_DIS,
	P_TOL,
	P_WRAP,
	P_TOLMAX,
	P_MEDIATED,
	P_REF,
	NR_POL,
	P_EXACT2 = NR_POL, /* the per-vCPU models only: exact again (I1) */
	NR_MODELS
};

static const char *const pol_names[NR_MODELS] = {
	"exact", "tolerance=0", "tolerance-wrap=0", "disabled", "tolerance=T", "tolerance-wrap=T",
	"tolerance=max", "mediated", "reference", "exact(2)",
};

/* ---- one input, decoded ---- */

struct fz_case {
	struct vpmc_pmu_config cfg;
	uint64_t tol;          /* T of tolerance=T and tolerance-wrap=T */
	uint64_t dis_mask;     /* MASK of disabled=MASK */
	unsigned int cost;     /* a cost preset (cost_presets[]) */
	unsigned int report;   /* the view and format to report: 3 * view + format */
	unsigned int detail;   /* the policy whose counters are checked one by one, beside exact */
	bool log;              /* write the replay log */
	bool twice;            /* write the report and plot, and run the engine again (I7) */
	/* per model (bit p), from pol_is_exact() and pol_reads_exact() once per input: the
	 * checks after each event test a bit */
	unsigned int is_exact, reads_exact;
	unsigned int nr_assume;
	char assume[2][64];    /* --assume specs */
	unsigned int nr_vcpus;
	uint32_t vcpu_ids[FZ_MAX_VCPUS]; /* the vCPUs of the events, in order of appearance */
	size_t nr_ev;
	struct vpmc_event ev[FZ_MAX_EVENTS];
};

static struct fz_case fc;

static struct vpmc_policy policy_of(const struct fz_case *c, enum fz_pol p)
{
	static const enum vpmc_policy_kind kinds[NR_MODELS] = {
		VPMC_POLICY_EXACT, VPMC_POLICY_TOLERANCE, VPMC_POLICY_TOLERANCE_WRAP,
		VPMC_POLICY_DISABLED, VPMC_POLICY_TOLERANCE, VPMC_POLICY_TOLERANCE_WRAP,
		VPMC_POLICY_TOLERANCE, VPMC_POLICY_MEDIATED, VPMC_POLICY_REFERENCE,
		VPMC_POLICY_EXACT,
	};
	struct vpmc_policy pol = { kinds[p], 0 };

	if (p == P_DIS)
		pol.arg = c->dis_mask;
	else if (p == P_TOL || p == P_WRAP)
		pol.arg = c->tol;
	else if (p == P_TOLMAX)
		pol.arg = UINT64_MAX;
	return pol;
}

static bool host_before_6_8(const struct fz_case *c)
{
	return c->cfg.host_kernel < VPMC_KERNEL(6, 8);
}

/* I1: the policy's observer stream is exact's. */
static bool pol_is_exact(const struct fz_case *c, unsigned int p)
{
	switch (p) {
	case P_EXACT:
	case P_EXACT2:
	case P_TOL0:
	case P_WRAP0:
		return true;
	case P_DIS:
		return !(c->dis_mask & (BIT(1) | BIT(4)));
	case P_TOL:
	case P_WRAP:
		return !c->tol || host_before_6_8(c);
	case P_TOLMAX:
		return host_before_6_8(c);
	default:
		return false;
	}
}

/* I3: the policy reads what the reference reads. */
static bool pol_reads_exact(const struct fz_case *c, unsigned int p)
{
	return p != P_DIS || pol_is_exact(c, p);
}

/* I4: when kvm_pmu_incr_counter() requests a reprogram under the policy: once more than
 * @thresh events are pending, or (@wrap) when the increment wraps; @never: not at all. */
static void pol_request_rule(const struct fz_case *c, unsigned int p, uint64_t *thresh,
			     bool *wrap, bool *never)
{
	*thresh = 0;
	*wrap = false;
	*never = p == P_MEDIATED || p == P_REF;
	if (*never || host_before_6_8(c))
		return;
	if (p == P_TOL || p == P_WRAP)
		*thresh = c->tol;
	else if (p == P_TOLMAX)
		*thresh = UINT64_MAX;
	*wrap = p == P_WRAP0 || p == P_WRAP;
}

/* ---- failures ---- */

static const struct vpmc_event *fz_cur_ev; /* the event being applied, for messages */
static size_t fz_cur_idx;

static void __attribute__((noreturn, format(printf, 1, 2))) fz_fail(const char *fmt, ...)
{
	const struct vpmc_event *ev = fz_cur_ev;
	va_list ap;

	if (!ev) {
		fprintf(stderr, "fuzz_engine: invariant violated after the last event");
	} else {
		const char *name = vpmc_event_type_name(ev->type);

		fprintf(stderr, "fuzz_engine: invariant violated at event %zu (%s, vCPU %" PRIu32
			", %" PRIu64 " ns, index %#" PRIx32 ", value %#" PRIx64 ", insn %" PRIu64
			", br %" PRIu64 ", cpl %u)", fz_cur_idx, name ? name : "?", ev->vcpu,
			ev->time_ns, ev->index, ev->value, ev->insn, ev->br, ev->cpl);
	}
	fputs(": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

#define FZ_CHECK(cond, ...)            \
	do {                           \
		if (!(cond))           \
			fz_fail(__VA_ARGS__); \
	} while (0)

/* ---- decoding ---- */

struct fz_in {
	const uint8_t *p, *end;
};

static uint8_t in_u8(struct fz_in *in)
{
	return in->p < in->end ? *in->p++ : 0;
}

static uint64_t in_uint(struct fz_in *in, unsigned int bytes)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)in_u8(in) << (8 * i);
	return v;
}

static uint64_t hash_mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 31);
}

static uint64_t hash_bytes(const uint8_t *data, size_t size)
{
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < size; i++)
		h = hash_mix(h, data[i]);
	return h;
}

static const unsigned int width_table[16] = {
	0, 32, 40, 47, 16, 8, 4, 1, 64, 49, 31, 24, 2, 12, 63, 44,
};

static const unsigned int host_table[16] = {
	VPMC_KERNEL_LATEST, VPMC_KERNEL_LATEST, VPMC_KERNEL(6, 18), VPMC_KERNEL(6, 17),
	VPMC_KERNEL(6, 12), VPMC_KERNEL(6, 9), VPMC_KERNEL(6, 8), VPMC_KERNEL(6, 7),
	VPMC_KERNEL(6, 6), VPMC_KERNEL(6, 5), VPMC_KERNEL(6, 2), VPMC_KERNEL(6, 3),
	VPMC_KERNEL(6, 4), VPMC_KERNEL(7, 0), VPMC_KERNEL(6, 10), VPMC_KERNEL(6, 11),
};

/* Periods of --assume counters (0: the default, 100000); a few short ones, whose PMIs keep the
 * guest's handler busy (vpmc_replay_handler_capped()) and cost the most time per event. */
static const uint64_t period_table[16] = {
	0, 1000, 100, 64, 10, 4096, 100000, 0x7fffffff, 0x7fffffffffffULL, 0x800000000000ULL,
	INT64_MAX, 0x10000, 2, 500, 20000, 1000000,
};

static const char *const cost_presets[4] = {
	NULL, "resume_us=0,create_us=1000000", "trigger_cycles=1e8,cpu_ghz=100",
	"resume_us=0.5,create_us=0,trigger_cycles=0",
};

/* One --assume from a byte: the counter, its event and (@period_idx) its period. */
static void decode_assume(struct fz_case *c, uint8_t b, unsigned int period_idx)
{
	static const char *const events[4] = { "instructions", "branches", "cycles", "0x01c0" };
	char *s = c->assume[c->nr_assume++];
	unsigned int kind = b & 3, idx = (b >> 2) & 7;
	int n;

	if (b & 0x20)
		n = snprintf(s, sizeof(c->assume[0]), "fixed%u", idx & 3);
	else
		n = snprintf(s, sizeof(c->assume[0]), "gp%u=%s", idx, events[kind]);
	if (period_table[period_idx % 16])
		snprintf(s + n, sizeof(c->assume[0]) - (size_t)n, ",period=%" PRIu64,
			 period_table[period_idx % 16]);
}

/* The part of the header that a .vtr input takes from a hash: policy arguments, cost, overlay. */
static void decode_params(struct fz_case *c, struct fz_in *in)
{
	static const uint64_t masks[8] = { 0x2, 0x10, 0x12, 0, 0x1, 0xffff, 0x4, 0x20 };
	uint8_t t = in_u8(in), d = in_u8(in), o1 = in_u8(in), o2 = in_u8(in);

	c->tol = t <= 200 ? t : BIT(t - 200 + 8) - 1;
	c->dis_mask = masks[d & 7];
	c->cost = (d >> 3) & 3;
	c->report = t % (FZ_VIEWS * FZ_FORMATS);
	c->detail = (d >> 5) % NR_POL;
	/* the log in one input in 16: its JSON lines make a run about 5 times longer (logging
	 * every other input took most of the target's time) */
	c->log = !((t ^ d ^ o1) & 15);
	/* an overlay in a quarter of the inputs: its PMI handler makes a run ten times longer */
	c->nr_assume = 0;
	if (!(o1 & 3)) {
		decode_assume(c, o2, o1 >> 2 & 0xf);
		if (o1 & 0x40)
			decode_assume(c, (uint8_t)(o2 * 7 + 3), o1 >> 4 ^ 5);
	}
}

static const uint32_t msr_intel[] = {
	0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0x186, 0x187, 0x188, 0x189, 0x18a, 0x18b,
	0x18c, 0x18d, 0x4c1, 0x4c2, 0x4c3, 0x4c4, 0x4c5, 0x4c6, 0x4c7, 0x4c8, 0x309, 0x30a, 0x30b,
	0x30c, 0x38d, 0x38e, 0x38f, 0x390, 0x391, 0x392, 0x3f1, 0x3f2, 0x600, 0x345,
	/* the usual ones twice */
	0xc1, 0xc2, 0x186, 0x187, 0x309, 0x38d, 0x38f, 0x38f, 0x390, 0x38e,
};

static const uint32_t msr_amd[] = {
	0xc0010000, 0xc0010001, 0xc0010002, 0xc0010003, 0xc0010004, 0xc0010005, 0xc0010006,
	0xc0010007, 0xc0010200, 0xc0010201, 0xc0010202, 0xc0010203, 0xc0010204, 0xc0010205,
	0xc0010206, 0xc0010207, 0xc0010208, 0xc0010209, 0xc001020a, 0xc001020b, 0xc0000300,
	0xc0000301, 0xc0000302, 0xc0000303, 0xc0000301, 0xc0000302, 0xc0010200, 0xc0010201,
};

static const uint32_t msr_other[] = { 0x834, 0x834, 0x10, 0x1b, 0xc9, 0x18e, 0x4c9, 0xc0010208 };

static uint32_t decode_msr(struct fz_in *in, enum vpmc_vendor vendor)
{
	uint8_t b = in_u8(in);
	const uint32_t *own = vendor == VPMC_VENDOR_AMD ? msr_amd : msr_intel;
	size_t nown = vendor == VPMC_VENDOR_AMD ? ARRAY_SIZE(msr_amd) : ARRAY_SIZE(msr_intel);

	if (b < 0xa0)
		return own[b % nown];
	if (b < 0xc0)
		return vendor == VPMC_VENDOR_AMD ? msr_intel[b % ARRAY_SIZE(msr_intel)]
						 : msr_amd[b % ARRAY_SIZE(msr_amd)];
	if (b < 0xf0)
		return msr_other[b % ARRAY_SIZE(msr_other)];
	return (uint32_t)in_uint(in, 4);
}

static uint64_t decode_value(struct fz_in *in)
{
	static const uint64_t events[8] = { 0xc0, 0xc4, 0xc2, 0x3c, 0x2e, 0x1c0, 0x1c4, 0x76 };
	uint8_t s = in_u8(in), f, e;
	uint64_t v;

	switch (s & 7) {
	case 0: /* an event select: EN, INT, OS, USR, edge, INV; event; high bits */
		f = in_u8(in);
		e = in_u8(in);
		v = events[e & 7] | (uint64_t)(e >> 3 & 3) << 8;
		v |= (f & 1 ? BIT(22) : 0) | (f & 2 ? BIT(20) : 0) | (f & 4 ? BIT(17) : 0) |
		     (f & 8 ? BIT(16) : 0) | (f & 16 ? BIT(18) : 0) | (f & 32 ? BIT(23) : 0);
		if (f & 64)
			v |= (uint64_t)(e >> 5) << 32; /* IN_TX, IN_TXCP / AMD event bits 35:32 */
		if (f & 128)
			v |= e & 0x80 ? BIT(21) : BIT(19); /* AnyThread / AMD reserved */
		return v;
	case 1: /* a 48-bit counter just before its wrap */
		return BIT(48) - in_u8(in);
	case 2: /* -k: all bits above the width set */
		return (uint64_t)0 - in_u8(in);
	case 3:
		return in_u8(in);
	case 4: /* GLOBAL_CTRL / STATUS bits */
		f = in_u8(in);
		e = in_u8(in);
		v = f | (uint64_t)(e & 7) << 32;
		return v | (e & 8 ? BIT(62) : 0) | (e & 16 ? BIT(35) : 0) | (e & 32 ? BIT(63) : 0) |
		       (e & 64 ? BIT(61) : 0);
	case 5: /* FIXED_CTR_CTRL */
		return in_uint(in, 2) & 0xfff;
	case 6:
		return in_uint(in, 8);
	default: /* a counter near the wrap of a narrow width */
		f = in_u8(in);
		return BIT(f & 63) - (s >> 3);
	}
}

static uint32_t decode_ecx(struct fz_in *in)
{
	uint8_t b = in_u8(in);

	switch (b >> 6) {
	case 0:
		return b & 7;
	case 1:
		return 0x40000000u | (b & 3);
	case 2:
		return (b & 1 ? 0x80000000u : 0x20000000u) | (b >> 1 & 7);
	default:
		return (uint32_t)in_uint(in, 4);
	}
}

static uint8_t decode_cpl(unsigned int sel, struct fz_in *in)
{
	switch (sel & 7) {
	case 0:
		return VPMC_CPL_KEEP;
	case 1:
	case 4:
		return 0;
	case 2:
	case 5:
		return 3;
	case 3:
		return in_u8(in) & 3;
	case 6:
		return 1;
	default:
		return in_u8(in) | 4; /* out of range: VPMC_ERR_INVAL, or KEEP (0xff) */
	}
}

/*
 * Guest instructions the whole input may run: few enough that neither a narrow counter (an
 * overflow every 2^width events) nor a short overlay period (a PMI and the guest's handler
 * every period) makes one input run for long: about 32 overflows of the narrowest counter,
 * 32 PMIs of the overlay's shortest period. Each overflow costs every model and lane a
 * reprogram or a PMI, and with an overlay on that counter the guest's handler in every lane:
 * with 256 overflows the inputs of counters narrower than 14 bits took 84% of a campaign
 * corpus's CPU time. No invariant counts on more: wraps by emulated events are not budgeted
 * (I4), I6's histograms grow with the values' magnitude, not their number, and I8 bounds the
 * heap whatever the number of events.
 */
static uint64_t insn_budget(const struct fz_case *c)
{
	unsigned int w = 48, i;
	uint64_t budget = FZ_INSN_BUDGET;

	if (c->cfg.nr_gp && c->cfg.gp_width && c->cfg.gp_width < w)
		w = c->cfg.gp_width;
	if (c->cfg.nr_fixed && c->cfg.fixed_width && c->cfg.fixed_width < w)
		w = c->cfg.fixed_width;
	if (w < 14)
		budget = BIT(w + 5);
	for (i = 0; i < c->nr_assume; i++) {
		const char *p = strstr(c->assume[i], "period=");
		uint64_t per = p ? strtoull(p + 7, NULL, 10) : 100000;

		if (per < BIT(20) && per * 32 < budget)
			budget = per * 32;
	}
	return budget;
}

/* Instructions the next segment may run: a quarter of the budget, at most what is left. */
static uint64_t seg_cap(uint64_t total, uint64_t left)
{
	uint64_t cap = total / 4 ? total / 4 : 1;

	return cap < left ? cap : left;
}

/* The index of vCPU @id in c->vcpu_ids. */
static unsigned int vcpu_slot(const struct fz_case *c, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < c->nr_vcpus && c->vcpu_ids[i] != id; i++)
		;
	return i;
}

/* Append @ev, unless the stream is full or @ev is of a vCPU beyond the first FZ_MAX_VCPUS. */
static bool push_event(struct fz_case *c, const struct vpmc_event *ev)
{
	unsigned int i = vcpu_slot(c, ev->vcpu);

	if (i == c->nr_vcpus) {
		if (i == FZ_MAX_VCPUS)
			return false;
		c->vcpu_ids[c->nr_vcpus++] = ev->vcpu;
	}
	if (c->nr_ev == FZ_MAX_EVENTS)
		return false;
	c->ev[c->nr_ev++] = *ev;
	return true;
}

/*
 * A binary input. Header: vendor and version, GP and fixed counts, widths, flags (no
 * FW_WRITE, PEBS, TSX, "disciplined": an ENTRY before each segment that follows other
 * events), host kernel, then decode_params(). Then one event per opcode: bits 3:0 the kind,
 * bits 6:4 its variant, bit 7 "no time passes".
 */
static void decode_binary(struct fz_case *c, struct fz_in *in)
{
	static const unsigned int versions[8] = { 2, 1, 0, 3, 4, 5, 2, 2 };
	/* the last one the highest index there is: the engine's arrays grow to it */
	static const uint32_t vcpus[8] = { 0, 1, 2, 3, 4, 5, 6, VPMC_MAX_VCPUS - 1 };
	uint8_t b0 = in_u8(in), b1 = in_u8(in), b2 = in_u8(in), b3 = in_u8(in), b4 = in_u8(in);
	uint64_t total, budget, t = 1000;
	bool disciplined = b3 & 8, after_entry[8] = { false };
	uint32_t vcpu = 0;
	unsigned int vslot = 0;

	vpmc_pmu_config_default(&c->cfg, b0 & 1 ? VPMC_VENDOR_AMD : VPMC_VENDOR_INTEL);
	c->cfg.version = versions[(b0 >> 1) & 7];
	if (b1 & 0xf)
		c->cfg.nr_gp = (b1 & 0xf) - 1;
	if (b1 >> 4)
		c->cfg.nr_fixed = (b1 >> 4) - 1;
	if (width_table[b2 & 0xf])
		c->cfg.gp_width = width_table[b2 & 0xf];
	if (width_table[b2 >> 4])
		c->cfg.fixed_width = width_table[b2 >> 4];
	c->cfg.fw_writes = !(b3 & 1) && c->cfg.vendor == VPMC_VENDOR_INTEL;
	c->cfg.pebs = b3 & 2;
	c->cfg.tsx = b3 & 4;
	c->cfg.host_kernel = host_table[b4 & 0xf];
	decode_params(c, in);
	total = budget = insn_budget(c);

	while (in->p < in->end && c->nr_ev < FZ_MAX_EVENTS) {
		uint8_t op = in_u8(in), var = (op >> 4) & 7;
		struct vpmc_event ev;

		memset(&ev, 0, sizeof(ev));
		switch (op & 0xf) {
		case 0:
		case 1:
			ev.type = VPMC_EV_ENTRY;
			break;
		case 2:
		case 3:
			ev.type = VPMC_EV_GUEST;
			switch (var) {
			case 0:
				ev.insn = in_u8(in);
				break;
			case 1:
				ev.insn = in_uint(in, 2);
				break;
			case 2:
				ev.insn = in_uint(in, 3);
				break;
			case 3:
				ev.insn = 1;
				break;
			case 4:
				ev.insn = 0;
				break;
			case 5:
				ev.insn = (uint64_t)in_u8(in) << 8;
				break;
			default:
				ev.insn = in_uint(in, 4);
				break;
			}
			ev.insn %= seg_cap(total, budget) + 1;
			budget -= ev.insn;
			{
				uint8_t f = in_u8(in);

				ev.br = f == 0xff ? ev.insn + 1 : ev.insn * f / 254;
				ev.cpl = decode_cpl(f >> 5, in);
			}
			if (disciplined && !after_entry[vslot]) {
				struct vpmc_event entry = { .time_ns = t, .vcpu = vcpu,
							    .type = VPMC_EV_ENTRY };

				push_event(c, &entry);
			}
			break;
		case 4:
		case 5:
		case 6:
			ev.type = VPMC_EV_RETIRE;
			ev.branch = var & 1;
			ev.cpl = decode_cpl(var >> 1, in);
			break;
		case 7:
		case 8:
		case 9:
			ev.type = VPMC_EV_WRMSR;
			ev.index = decode_msr(in, c->cfg.vendor);
			ev.value = decode_value(in);
			break;
		case 10:
			ev.type = VPMC_EV_RDMSR;
			ev.index = decode_msr(in, c->cfg.vendor);
			ev.has_value = var & 1;
			if (ev.has_value)
				ev.value = decode_value(in);
			break;
		case 11:
			ev.type = VPMC_EV_RDPMC;
			ev.index = decode_ecx(in);
			ev.has_value = var & 1;
			if (ev.has_value)
				ev.value = decode_value(in);
			break;
		case 12:
			ev.type = VPMC_EV_CPL;
			ev.cpl = decode_cpl(var, in);
			break;
		case 13: {
			uint8_t m = in_u8(in);
			static const uint32_t modes[4] = { 0x400, 0, 0x200, 0x700 };

			ev.type = VPMC_EV_LVTPC;
			ev.value = modes[m & 3] | (m & 4 ? 0x10000 : 0) | in_u8(in);
			if (m & 8)
				ev.value |= (uint64_t)in_uint(in, 4) << 12;
			break;
		}
		case 14: {
			static const enum vpmc_event_type misc[8] = {
				VPMC_EV_EXIT, VPMC_EV_IRQ, VPMC_EV_EOI, VPMC_EV_SCHED_OUT,
				VPMC_EV_SCHED_IN, VPMC_EV_SCHED_IN, VPMC_EV_EXIT, VPMC_EV_EXIT,
			};

			ev.type = misc[var];
			if (ev.type == VPMC_EV_EXIT)
				snprintf(ev.reason, sizeof(ev.reason), "%s",
					 var == 6 ? "MSR_WRITE" : "CPUID");
			else if (ev.type != VPMC_EV_SCHED_OUT && ev.type != VPMC_EV_SCHED_IN)
				ev.index = in_u8(in);
			break;
		}
		default:
			vcpu = vcpus[var];
			vslot = var;
			continue;
		}
		ev.vcpu = vcpu;
		if (!(op & 0x80))
			t += ev.type == VPMC_EV_GUEST ? ev.insn + 1 : 100;
		ev.time_ns = t;
		after_entry[vslot] = ev.type == VPMC_EV_ENTRY || ev.type == VPMC_EV_GUEST;
		push_event(c, &ev);
	}
}

/* A .vtr input: its PMU and events, the parameters from a hash of the bytes. */
static void decode_vtr(struct fz_case *c, const uint8_t *data, size_t size)
{
	struct vpmc_reader_opts o;
	struct vpmc_reader *r;
	struct vpmc_event ev;
	uint64_t h = hash_bytes(data, size), total, budget;
	uint8_t params[4];
	struct fz_in in = { params, params + sizeof(params) };

	memcpy(params, &h, sizeof(params));
	vpmc_reader_opts_default(&o);
	o.format = VPMC_FORMAT_VTR;
	if (vpmc_reader_new(&r, &o))
		return;
	if (vpmc_reader_open_mem(r, "fuzz", data, size)) {
		vpmc_reader_free(r);
		return;
	}
	c->cfg = *vpmc_reader_pmu(r);
	decode_params(c, &in);
	total = budget = insn_budget(c);
	while (c->nr_ev < FZ_MAX_EVENTS && vpmc_reader_next(r, &ev) == 1) {
		if (ev.type == VPMC_EV_GUEST) {
			uint64_t cap = seg_cap(total, budget);

			if (ev.insn > cap) {
				ev.br = ev.br > cap ? cap : ev.br;
				ev.insn = cap;
			}
			budget -= ev.insn;
		}
		push_event(c, &ev);
	}
	vpmc_reader_free(r);
}

/* ---- the per-vCPU models ---- */

struct fz_model {
	struct vpmc_vcpu *v;
	unsigned int pol;
	/* this event */
	uint64_t hash, nr_obs;
	bool has_access;
	struct vpmc_obs access;    /* its READ or WRITE */
	uint64_t incremented;      /* counters a TRIGGER incremented */
	/* I4 */
	uint64_t thresh;
	bool wrap, never;
	uint64_t pending[FZ_MAX_IDX]; /* emulated events since the last fold or write */
	uint64_t cause, requested, reprogrammed;
	unsigned int drain_reprograms, drain_resumed, drain_created;
	/* I5: totals */
	struct vpmc_vcpu_stats seen;
	/* I6: an overflow in a guest segment without a PMI at its instruction */
	bool ovf_open, quiet_ovf;
	uint64_t ovf_at;
};

struct fz_vcpu {
	uint32_t id;
	bool used;
	bool gate_dirty;   /* I3: a WRMSR that changes what counts, not yet drained */
	uint64_t unsynced; /* I3: counters not compared until written */
	uint64_t valid;    /* counters that exist */
	uint64_t mask_gp, mask_fixed, status_ok;
	struct fz_model m[NR_MODELS];
};

static struct fz_vcpu fz_vcpus[FZ_MAX_VCPUS];
/* I6: slots of fc.vcpu_ids whose reference had an overflow without a PMI in a guest segment */
static unsigned int fz_ref_quiet;

static uint64_t counter_mask(const struct fz_vcpu *fv, int idx)
{
	return idx >= VPMC_FIXED_BASE ? fv->mask_fixed : fv->mask_gp;
}

static void model_obs(void *data, const struct vpmc_obs *o)
{
	struct fz_model *m = data;
	uint64_t h = m->hash;
	int c = o->counter;

	h = hash_mix(h, o->kind);
	h = hash_mix(h, o->time_ns);
	h = hash_mix(h, o->vcpu);
	h = hash_mix(h, (uint64_t)(int64_t)c);
	h = hash_mix(h, (uint64_t)o->rdpmc | (uint64_t)o->gp << 1 | (uint64_t)o->emulated << 2 |
			       (uint64_t)o->delivered << 3 | (uint64_t)o->created << 4);
	h = hash_mix(h, o->index);
	h = hash_mix(h, o->value);
	h = hash_mix(h, o->global_status);
	h = hash_mix(h, o->nr_reprogrammed | (uint64_t)o->nr_resumed << 20 |
			       (uint64_t)o->nr_created << 40);
	h = hash_mix(h, o->seg_insn);
	h = hash_mix(h, o->seg_br);
	m->hash = h;
	m->nr_obs++;

	FZ_CHECK(c >= -1 && c < FZ_MAX_IDX, "%s: observation of counter %d", pol_names[m->pol], c);
	switch (o->kind) {
	case VPMC_OBS_READ:
	case VPMC_OBS_WRITE:
		FZ_CHECK(!m->has_access, "%s: two MSR accesses in one event", pol_names[m->pol]);
		m->has_access = true;
		m->access = *o;
		if (o->kind == VPMC_OBS_WRITE && !o->gp) {
			if (c >= 0)
				m->pending[c] = 0; /* pmc_write_counter() drops them */
			else
				m->cause = ~0ULL;
		}
		break;
	case VPMC_OBS_OVERFLOW:
		m->seen.overflows++;
		if (!o->emulated && c >= 0)
			m->cause |= BIT(c); /* kvm_perf_overflow() */
		if (o->seg_insn) {
			if (m->ovf_open && m->ovf_at != o->seg_insn)
				m->quiet_ovf = true;
			m->ovf_open = true;
			m->ovf_at = o->seg_insn;
		}
		break;
	case VPMC_OBS_PMI:
		if (m->ovf_open && o->seg_insn == m->ovf_at)
			m->ovf_open = false;
		if (o->delivered)
			m->seen.pmis_delivered++;
		else
			m->seen.pmis_dropped++;
		break;
	case VPMC_OBS_TRIGGER: {
		uint64_t bits = o->value;

		m->seen.triggers++;
		m->incremented |= bits;
		while (bits) {
			int i = __builtin_ctzll(bits);

			bits &= bits - 1;
			m->pending[i]++;
			if (!m->never && m->pending[i] > m->thresh)
				m->requested |= BIT(i);
		}
		break;
	}
	case VPMC_OBS_REPROGRAM:
		FZ_CHECK(c >= 0, "%s: reprogram of no counter", pol_names[m->pol]);
		m->seen.reprograms++;
		m->drain_reprograms++;
		m->drain_resumed += o->value == VPMC_REPROGRAM_RESUMED;
		m->drain_created += o->value == VPMC_REPROGRAM_CREATED;
		FZ_CHECK((o->value == VPMC_REPROGRAM_MEDIATED) ==
				 (m->pol == P_MEDIATED || m->pol == P_REF),
			 "I5: %s: reprogram outcome %" PRIu64, pol_names[m->pol], o->value);
		m->reprogrammed |= BIT(c);
		m->pending[c] = 0; /* pmc_pause_counter() folds them */
		break;
	case VPMC_OBS_DRAIN:
		m->seen.drains++;
		FZ_CHECK(o->nr_reprogrammed == m->drain_reprograms &&
				 o->nr_resumed == m->drain_resumed && o->nr_created == m->drain_created,
			 "I5: %s: DRAIN says %u reprograms (%u resumed, %u created), %u (%u, %u) "
			 "observed", pol_names[m->pol], o->nr_reprogrammed, o->nr_resumed,
			 o->nr_created, m->drain_reprograms, m->drain_resumed, m->drain_created);
		FZ_CHECK(!(m->requested & ~m->reprogrammed),
			 "I4: %s: counters %#" PRIx64 " had a reprogram requested by emulated events "
			 "but were not reprogrammed", pol_names[m->pol],
			 m->requested & ~m->reprogrammed);
		FZ_CHECK(!(m->reprogrammed & ~(m->requested | m->cause)),
			 "I4: %s: counters %#" PRIx64 " reprogrammed without a cause (no write, no "
			 "perf overflow, %s)", pol_names[m->pol],
			 m->reprogrammed & ~(m->requested | m->cause),
			 m->never ? "no request from emulated events" : "not enough pending");
		m->drain_reprograms = m->drain_resumed = m->drain_created = 0;
		m->cause = m->requested = m->reprogrammed = 0;
		break;
	default:
		break;
	}
}

static void vcpus_free(void)
{
	unsigned int i, p;

	for (i = 0; i < FZ_MAX_VCPUS; i++) {
		for (p = 0; p < NR_MODELS; p++)
			vpmc_vcpu_free(fz_vcpus[i].m[p].v);
	}
	memset(fz_vcpus, 0, sizeof(fz_vcpus));
}

/*
 * I8 counts this thread's heap only, through the sanitizer's allocation hooks: the heap of the
 * whole process also moves with libFuzzer's threads (a run once failed I8 on an event that
 * allocates nothing, while libFuzzer's RSS thread started).
 */
static _Thread_local size_t fz_heap;
static int fz_hooked; /* 1: hooks installed, -1: the process-wide figure instead */

static void fz_malloc_hook(const volatile void *ptr, size_t size)
{
	(void)ptr;
	fz_heap += size;
}

static void fz_free_hook(const volatile void *ptr)
{
	if (ptr)
		fz_heap -= __sanitizer_get_allocated_size(ptr);
}

static size_t heap_bytes(void)
{
	if (!fz_hooked)
		fz_hooked = __sanitizer_install_malloc_and_free_hooks &&
				    __sanitizer_get_allocated_size &&
				    __sanitizer_install_malloc_and_free_hooks(fz_malloc_hook,
									      fz_free_hook)
			    ? 1 : -1;
	if (fz_hooked > 0)
		return fz_heap;
	return __sanitizer_get_current_allocated_bytes ? __sanitizer_get_current_allocated_bytes()
						      : 0;
}

/* The models of vCPU @id; NULL if the configuration is refused (every model must agree). */
static struct fz_vcpu *vcpu_get(const struct fz_case *c, uint32_t id)
{
	struct fz_vcpu *fv = NULL;
	const struct vpmc_pmu_config *cfg;
	unsigned int i, p, nr_refused = 0;

	for (i = 0; i < FZ_MAX_VCPUS; i++) {
		if (fz_vcpus[i].used && fz_vcpus[i].id == id)
			return &fz_vcpus[i];
		if (!fz_vcpus[i].used && !fv)
			fv = &fz_vcpus[i];
	}
	if (!fv)
		return NULL;
	for (p = 0; p < NR_MODELS; p++) {
		struct fz_model *m = &fv->m[p];
		struct vpmc_policy pol = policy_of(c, p);
		struct vpmc_observer obs = { model_obs, m, 0 };

		m->pol = p;
		pol_request_rule(c, p, &m->thresh, &m->wrap, &m->never);
		if (vpmc_vcpu_new(&m->v, &c->cfg, &pol, id, &obs))
			nr_refused++;
	}
	FZ_CHECK(!nr_refused || nr_refused == NR_MODELS, "a configuration refused by %u policies",
		 nr_refused);
	if (nr_refused)
		return NULL;
	fv->used = true;
	fv->id = id;
	cfg = vpmc_vcpu_config(fv->m[P_EXACT].v);
	for (p = 1; p < NR_MODELS; p++)
		FZ_CHECK(!memcmp(cfg, vpmc_vcpu_config(fv->m[p].v), sizeof(*cfg)),
			 "%s: another capped configuration", pol_names[p]);
	fv->valid = (cfg->nr_gp ? BIT(cfg->nr_gp) - 1 : 0) |
		    (cfg->nr_fixed ? (BIT(cfg->nr_fixed) - 1) << VPMC_FIXED_BASE : 0);
	fv->mask_gp = cfg->gp_width >= 64 ? ~0ULL : BIT(cfg->gp_width) - 1;
	fv->mask_fixed = cfg->fixed_width >= 64 ? ~0ULL : BIT(cfg->fixed_width) - 1;
	fv->status_ok = fv->valid | (cfg->pebs ? BIT(62) : 0);
	return fv;
}

static bool is_status_msr(uint32_t msr)
{
	return msr == 0x38e || msr == 0xc0000300;
}

/* Apply one event to every model of its vCPU and check I1 to I5. */
static void check_event(const struct fz_case *c, struct fz_vcpu *fv, const struct vpmc_event *ev)
{
	const struct fz_model *ex = &fv->m[P_EXACT];
	size_t heap = heap_bytes();
	int ret[NR_MODELS];
	unsigned int p;
	uint64_t bits;

	/* I3: a segment after an undrained gate change counts with stale perf events */
	if (ev->type == VPMC_EV_GUEST && fv->gate_dirty)
		fv->unsynced = fv->valid;
	for (p = 0; p < NR_MODELS; p++) {
		struct fz_model *m = &fv->m[p];

		m->hash = m->nr_obs = 0;
		m->has_access = false;
		m->incremented = 0;
		ret[p] = vpmc_vcpu_event(m->v, ev);
		FZ_CHECK(ret[p] == ret[P_EXACT], "%s returns %d, exact %d", pol_names[p], ret[p],
			 ret[P_EXACT]);
	}
	FZ_CHECK(!ret[P_EXACT] || ret[P_EXACT] == VPMC_ERR_INVAL, "vpmc_vcpu_event() returns %d",
		 ret[P_EXACT]);
	FZ_CHECK(ret[P_EXACT] == ((ev->cpl > 3 && ev->cpl != VPMC_CPL_KEEP) ? VPMC_ERR_INVAL : 0),
		 "vpmc_vcpu_event() returns %d for CPL %u", ret[P_EXACT], ev->cpl);
	FZ_CHECK(heap_bytes() == heap, "I8: the models' heap went from %zu to %zu bytes in an "
		 "event", heap, heap_bytes());
	if (ret[P_EXACT])
		return;

	for (p = 0; p < NR_MODELS; p++) {
		struct fz_model *m = &fv->m[p];
		const struct vpmc_obs *a = &m->access;

		m->quiet_ovf |= m->ovf_open;
		m->ovf_open = false;

		/* I4, tolerance-wrap: the increment wrapped the counter (read now: no drain
		 * and no other increment of it follows in a RETIRE) */
		if (m->wrap) {
			for (bits = m->incremented; bits; bits &= bits - 1) {
				int i = __builtin_ctzll(bits);

				if (!vpmc_vcpu_counter(m->v, (unsigned int)i))
					m->requested |= BIT(i);
			}
		}
		/* I1 */
		if (c->is_exact & BIT(p))
			FZ_CHECK(m->hash == ex->hash && m->nr_obs == ex->nr_obs,
				 "I1: %s's observations differ from exact's (%" PRIu64 " vs %" PRIu64
				 ")", pol_names[p], m->nr_obs, ex->nr_obs);
		/* I2 */
		FZ_CHECK(m->has_access == ex->has_access, "I2: %s: an MSR access %s",
			 pol_names[p], m->has_access ? "only here" : "missing");
		if (m->has_access) {
			const struct vpmc_obs *e = &ex->access;

			FZ_CHECK(a->kind == e->kind && a->index == e->index && a->rdpmc == e->rdpmc &&
					 a->gp == e->gp && a->counter == e->counter,
				 "I2: %s: access %u/%#" PRIx32 "/gp %d/counter %d, exact %u/%#" PRIx32
				 "/gp %d/counter %d", pol_names[p], a->kind, a->index, a->gp,
				 a->counter, e->kind, e->index, e->gp, e->counter);
			if (a->kind == VPMC_OBS_WRITE ||
			    (a->counter < 0 && !(is_status_msr(a->index) && !a->rdpmc)))
				FZ_CHECK(a->value == e->value, "I2: %s read %#" PRIx64 " from %#" PRIx32
					 ", exact %#" PRIx64, pol_names[p], a->value, a->index,
					 e->value);
			/* I3 at the read */
			if (a->kind == VPMC_OBS_READ && a->counter >= 0 && !a->gp &&
			    !(fv->unsynced & BIT(a->counter)) && (c->reads_exact & BIT(p)))
				FZ_CHECK(a->value == fv->m[P_REF].access.value,
					 "I3: %s read %#" PRIx64 " from counter %d, the reference "
					 "%#" PRIx64, pol_names[p], a->value, a->counter,
					 fv->m[P_REF].access.value);
		}
	}

	/* I3 after the event: the sync state, then every counter */
	if (ev->type == VPMC_EV_ENTRY)
		fv->gate_dirty = false;
	if (ex->has_access && ex->access.kind == VPMC_OBS_WRITE && !ex->access.gp) {
		if (ex->access.counter >= 0)
			fv->unsynced &= ~BIT(ex->access.counter);
		else
			fv->gate_dirty = true;
	}
	for (bits = fv->valid; bits; bits &= bits - 1) {
		int i = __builtin_ctzll(bits);
		uint64_t ref = vpmc_vcpu_counter(fv->m[P_REF].v, (unsigned int)i);
		uint64_t wide = ~counter_mask(fv, i);
		unsigned int same = fv->unsynced & BIT(i) ? 0 : c->reads_exact;

		for (p = 0; p < NR_MODELS; p++) {
			uint64_t v = vpmc_vcpu_counter(fv->m[p].v, (unsigned int)i);

			FZ_CHECK(!(v & wide), "I5: %s: counter %d = %#" PRIx64
				 " is wider than its width", pol_names[p], i, v);
			if (same & BIT(p))
				FZ_CHECK(v == ref, "I3: %s: counter %d = %#" PRIx64 ", the reference "
					 "%#" PRIx64, pol_names[p], i, v, ref);
		}
	}
	/* I5 */
	for (p = 0; p < NR_MODELS; p++) {
		uint64_t st = vpmc_vcpu_global_status(fv->m[p].v);
		uint64_t ok = p == P_MEDIATED || p == P_REF ? fv->valid : fv->status_ok;

		FZ_CHECK(!(st & ~ok), "I5: %s: GLOBAL_STATUS %#" PRIx64 " has bits of no counter",
			 pol_names[p], st);
	}
}

/* I5 at the end: the statistics count what was observed. */
static void check_stats(const struct fz_vcpu *fv)
{
	unsigned int p;

	for (p = 0; p < NR_MODELS; p++) {
		const struct fz_model *m = &fv->m[p];
		struct vpmc_vcpu_stats st;

		vpmc_vcpu_stats(m->v, &st);
		FZ_CHECK(st.triggers == m->seen.triggers &&
				 st.pmis_delivered == m->seen.pmis_delivered &&
				 st.pmis_dropped == m->seen.pmis_dropped &&
				 st.drains == m->seen.drains && st.reprograms == m->seen.reprograms &&
				 st.overflows == m->seen.overflows && st.entries >= st.drains,
			 "I5: %s (vCPU %" PRIu32 "): statistics %" PRIu64 "/%" PRIu64 "/%" PRIu64
			 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 " (triggers, PMIs, dropped, drains, "
			 "reprograms, overflows), observed %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%"
			 PRIu64 "/%" PRIu64 "/%" PRIu64, pol_names[p], fv->id, st.triggers,
			 st.pmis_delivered, st.pmis_dropped, st.drains, st.reprograms, st.overflows,
			 m->seen.triggers, m->seen.pmis_delivered, m->seen.pmis_dropped,
			 m->seen.drains, m->seen.reprograms, m->seen.overflows);
	}
}

static void check_models(const struct fz_case *c)
{
	size_t i;

	fz_ref_quiet = 0;
	for (i = 0; i < c->nr_ev; i++) {
		const struct vpmc_event *ev = &c->ev[i];
		struct fz_vcpu *fv;

		fz_cur_ev = ev;
		fz_cur_idx = i;
		fv = vcpu_get(c, ev->vcpu);
		if (!fv)
			break;
		check_event(c, fv, ev);
	}
	fz_cur_ev = NULL;
	for (i = 0; i < FZ_MAX_VCPUS; i++) {
		if (!fz_vcpus[i].used)
			continue;
		check_stats(&fz_vcpus[i]);
		if (fz_vcpus[i].m[P_REF].quiet_ovf)
			fz_ref_quiet |= 1u << vcpu_slot(c, fz_vcpus[i].id);
	}
	vcpus_free();
}

/* ---- the engine ---- */

/* What one engine run gave, for I7 and the cross-policy checks. */
struct fz_engine_out {
	bool begun;
	bool overlay;             /* the overlay was accepted */
	size_t stopped_at;        /* first event refused, or c->nr_ev */
	int stop_err;
	uint64_t log_hash, log_lines;
	uint64_t report_hash;
	int report_err;
	uint64_t plot_hash;
	int plot_err;
	uint64_t warning_hash;
	uint32_t nr_vcpus;
	struct vpmc_metrics total[NR_POL];
	struct vpmc_metrics per_vcpu[NR_POL][FZ_MAX_VCPUS];
	uint64_t capped[NR_POL];
};

static struct fz_engine_out fz_out[2];

/* @s into @h, 8 bytes at a time: a run hashes every log line and the report (a byte at a
 * time was 4% of the target's CPU) */
static uint64_t hash_mem(uint64_t h, const char *s, size_t n)
{
	uint64_t w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, sizeof(w));
		h = hash_mix(h, w);
	}
	w = 0;
	memcpy(&w, s, n);
	return hash_mix(hash_mix(h, w), 0x100 | n);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	return hash_mem(h, s, strlen(s));
}

static void engine_log(void *data, const char *line)
{
	struct fz_engine_out *out = data;
	size_t n = strlen(line);

	FZ_CHECK(n >= 2 && line[0] == '{' && line[n - 1] == '}' && !memchr(line, '\n', n),
		 "the replay log's line is not one JSON object: %.80s", line);
	out->log_hash = hash_mem(out->log_hash, line, n);
	out->log_lines++;
}

/* I8: what the engine may hold for @nr_vcpus vCPUs, from its documented structures. */
static size_t engine_heap_bound(uint32_t nr_vcpus, unsigned int nr_groups)
{
	const size_t hist = 59 * 64 * sizeof(uint64_t); /* one histogram at most */
	const size_t slots = VPMC_MAX_GP + VPMC_MAX_FIXED;
	const size_t lane_vcpu = (2 * slots + 1) * hist + 64 * 1024;
	const size_t group_vcpu = 4096 * sizeof(struct vpmc_obs) + 64 * 1024;
	const size_t arrays = 2 * (size_t)VPMC_MAX_VCPUS * sizeof(void *) * (NR_POL + nr_groups);

	return (size_t)nr_vcpus * (NR_POL * lane_vcpu + nr_groups * group_vcpu) + arrays +
	       1024 * 1024;
}

/* I6: the counters of vCPU @id add up to its metrics @m; each counter's matches and misses to
 * its reference overflows. */
static void check_counters(struct vpmc_replay *r, unsigned int p, uint32_t id,
			   const struct vpmc_metrics *m, uint64_t valid)
{
	struct vpmc_metrics sum, ctr;
	uint64_t bits;
	int err;

	memset(&sum, 0, sizeof(sum));
	for (bits = valid; bits; bits &= bits - 1) {
		int k = __builtin_ctzll(bits);

		err = vpmc_replay_metrics(r, p, (int)id, k, &ctr);
		FZ_CHECK(!err, "vpmc_replay_metrics(%s, %" PRIu32 ", %d): %d", pol_names[p], id, k,
			 err);
		FZ_CHECK(ctr.overflows_matched + ctr.overflows_missed == ctr.ref_overflows,
			 "I6: %s, vCPU %" PRIu32 ", counter %d: %" PRIu64 " matched + %" PRIu64
			 " missed != %" PRIu64 " reference overflows", pol_names[p], id, k,
			 ctr.overflows_matched, ctr.overflows_missed, ctr.ref_overflows);
		sum.reads += ctr.reads;
		sum.reads_with_error += ctr.reads_with_error;
		sum.ref_overflows += ctr.ref_overflows;
		sum.overflows_matched += ctr.overflows_matched;
		sum.overflows_missed += ctr.overflows_missed;
		if (ctr.error_events_max_abs > sum.error_events_max_abs)
			sum.error_events_max_abs = ctr.error_events_max_abs;
		if (ctr.lateness_events_max > sum.lateness_events_max)
			sum.lateness_events_max = ctr.lateness_events_max;
		if (ctr.lateness_ns_max > sum.lateness_ns_max)
			sum.lateness_ns_max = ctr.lateness_ns_max;
	}
	FZ_CHECK(sum.reads == m->reads && sum.reads_with_error == m->reads_with_error &&
			 sum.ref_overflows == m->ref_overflows &&
			 sum.overflows_matched == m->overflows_matched &&
			 sum.overflows_missed == m->overflows_missed &&
			 sum.error_events_max_abs == m->error_events_max_abs &&
			 sum.lateness_events_max == m->lateness_events_max &&
			 sum.lateness_ns_max == m->lateness_ns_max,
		 "I6: %s, vCPU %" PRIu32 ": the counters do not add up to the vCPU", pol_names[p],
		 id);
}

/* Run the engine over the events (@overlay: with the input's --assume counters, if it has
 * any and the PMU takes them), keep its output in @out; @detail: check every counter too. */
static void engine_run(const struct fz_case *c, bool overlay, bool detail,
		       struct fz_engine_out *out)
{
	const struct vpmc_pmu_config *cfg;
	struct vpmc_replay *r;
	struct vpmc_cost cost;
	unsigned int p, i, v;
	uint32_t max_vcpu = 0;
	unsigned int accepted = 0; /* slots of c->vcpu_ids with an event the engine took */
	uint64_t valid;
	size_t heap0;
	int err;

	memset(out, 0, sizeof(*out));
	out->stopped_at = c->nr_ev;
	heap0 = heap_bytes();
	if (vpmc_replay_new(&r))
		return;
	for (p = 0; p < NR_POL; p++) {
		struct vpmc_policy pol = policy_of(c, p);

		err = vpmc_replay_add_policy(r, &pol);
		FZ_CHECK(!err, "vpmc_replay_add_policy(%s): %d", pol_names[p], err);
	}
	vpmc_cost_default(&cost);
	if (cost_presets[c->cost]) {
		err = vpmc_cost_parse(&cost, cost_presets[c->cost], NULL);
		FZ_CHECK(!err, "cost preset %u refused", c->cost);
	}
	vpmc_replay_set_cost(r, &cost);
	if (c->log)
		vpmc_replay_set_log(r, engine_log, out);
	for (i = 0; overlay && i < c->nr_assume; i++) {
		err = vpmc_replay_assume(r, c->assume[i]);
		FZ_CHECK(!err || vpmc_replay_error(r)[0], "--assume %s: error %d without a message",
			 c->assume[i], err);
		if (err)
			overlay = false;
	}
	if (!overlay && vpmc_replay_nr_assumed(r)) {
		/* a refused overlay: the rest of the run without one */
		vpmc_replay_free(r);
		engine_run(c, false, detail, out);
		return;
	}
	err = vpmc_replay_begin(r, &c->cfg);
	if (err) {
		FZ_CHECK(err == VPMC_ERR_INVAL && vpmc_replay_error(r)[0],
			 "vpmc_replay_begin(): %d '%s'", err, vpmc_replay_error(r));
		vpmc_replay_free(r);
		if (overlay && c->nr_assume)
			engine_run(c, false, detail, out); /* an overlay the PMU does not have */
		return;
	}
	out->begun = true;
	out->overlay = overlay && c->nr_assume;
	for (i = 0; i < c->nr_ev; i++) {
		const struct vpmc_event *ev = &c->ev[i];
		bool bad = ev->cpl > 3 && ev->cpl != VPMC_CPL_KEEP;

		fz_cur_ev = ev;
		fz_cur_idx = i;
		err = vpmc_replay_event(r, ev);
		if (bad) {
			FZ_CHECK(err == VPMC_ERR_INVAL, "an event with CPL %u: %d", ev->cpl, err);
			continue; /* refused before any model took it */
		}
		if (err) {
			FZ_CHECK((err == VPMC_ERR_LIMIT || err == VPMC_ERR_NOMEM) &&
					 vpmc_replay_error(r)[0],
				 "vpmc_replay_event(): %d '%s'", err, vpmc_replay_error(r));
			out->stopped_at = i;
			out->stop_err = err;
			break;
		}
		accepted |= 1u << vcpu_slot(c, ev->vcpu);
		if (ev->vcpu > max_vcpu)
			max_vcpu = ev->vcpu;
		FZ_CHECK(heap_bytes() - heap0 <= engine_heap_bound(max_vcpu + 1,
								   out->overlay ? NR_POL : 1),
			 "I8: the engine holds %zu bytes for %" PRIu32 " vCPUs",
			 heap_bytes() - heap0, max_vcpu + 1);
	}
	fz_cur_ev = NULL;
	fz_cur_idx = c->nr_ev;
	if (out->stopped_at < c->nr_ev) {
		vpmc_replay_free(r);
		return;
	}
	err = vpmc_replay_finish(r);
	FZ_CHECK(!err, "vpmc_replay_finish(): %d '%s'", err, vpmc_replay_error(r));
	FZ_CHECK(vpmc_replay_finish(r) == VPMC_ERR_INVAL, "vpmc_replay_finish() twice");

	vpmc_replay_span(r, &out->nr_vcpus, NULL, NULL);
	cfg = vpmc_replay_config(r);
	valid = (cfg->nr_gp ? BIT(cfg->nr_gp) - 1 : 0) |
		(cfg->nr_fixed ? (BIT(cfg->nr_fixed) - 1) << VPMC_FIXED_BASE : 0);
	for (p = 0; p < NR_POL; p++) {
		err = vpmc_replay_metrics(r, p, -1, -1, &out->total[p]);
		FZ_CHECK(!err, "vpmc_replay_metrics(%s): %d", pol_names[p], err);
		out->capped[p] = vpmc_replay_handler_capped(r, p, NULL, NULL);
		for (v = 0; v < c->nr_vcpus; v++) {
			struct vpmc_metrics *m = &out->per_vcpu[p][v];
			uint32_t id = c->vcpu_ids[v];

			FZ_CHECK(vpmc_replay_has_vcpu(r, id) == !!(accepted & 1u << v),
				 "vCPU %" PRIu32 ": models %d, events taken %d", id,
				 vpmc_replay_has_vcpu(r, id), !!(accepted & 1u << v));
			if (!(accepted & 1u << v))
				continue;
			err = vpmc_replay_metrics(r, p, (int)id, -1, m);
			FZ_CHECK(!err, "vpmc_replay_metrics(%s, vCPU %" PRIu32 "): %d", pol_names[p],
				 id, err);
			if (detail && (p == P_EXACT || p == c->detail))
				check_counters(r, p, id, m, valid);
		}
	}
	if (c->twice) {
		/* one view and format per input: a report costs a metrics call per row */
		enum vpmc_replay_view view = (enum vpmc_replay_view)(c->report / FZ_FORMATS);
		enum vpmc_output fmt = (enum vpmc_output)(c->report % FZ_FORMATS);
		const char *text = NULL;

		out->report_err = vpmc_replay_report(r, view, fmt, &text);
		FZ_CHECK(!out->report_err || out->report_err == VPMC_ERR_LIMIT,
			 "vpmc_replay_report(%u, %u): %d", view, fmt, out->report_err);
		if (!out->report_err)
			out->report_hash = hash_str(0, text);
	}
	if (c->twice) {
		const char *text = NULL;

		out->plot_err = vpmc_replay_plot(r, "fuzz.svg", &text);
		FZ_CHECK(!out->plot_err || out->plot_err == VPMC_ERR_INVAL,
			 "vpmc_replay_plot(): %d", out->plot_err);
		if (!out->plot_err)
			out->plot_hash = hash_str(0, text);
	}
	out->warning_hash = hash_str(0, vpmc_replay_warning(r));
	vpmc_replay_free(r);
}

/* Some fields of a metric must be equal. */
#define M_EQ(a, b, f) ((a)->f == (b)->f)
#define M_DEQ(a, b, f) (!memcmp(&(a)->f, &(b)->f, sizeof((a)->f)))

static bool metrics_equal(const struct vpmc_metrics *a, const struct vpmc_metrics *b)
{
	return M_EQ(a, b, reads) && M_EQ(a, b, reads_with_error) &&
	       M_EQ(a, b, error_events_max_abs) && M_DEQ(a, b, error_events_mean_abs) &&
	       M_DEQ(a, b, error_events_mean) && M_EQ(a, b, status_reads) &&
	       M_EQ(a, b, status_reads_differ) && M_EQ(a, b, host_reads) &&
	       M_EQ(a, b, host_differ) && M_EQ(a, b, ref_overflows) &&
	       M_EQ(a, b, overflows_matched) && M_EQ(a, b, overflows_missed) &&
	       M_EQ(a, b, pmis_delivered) && M_EQ(a, b, pmis_dropped) &&
	       M_EQ(a, b, pmis_spurious) && M_EQ(a, b, lateness_events_p50) &&
	       M_EQ(a, b, lateness_events_p99) && M_EQ(a, b, lateness_events_max) &&
	       M_EQ(a, b, lateness_ns_p50) && M_EQ(a, b, lateness_ns_p99) &&
	       M_EQ(a, b, lateness_ns_max) && M_EQ(a, b, exits) && M_EQ(a, b, exits_implicit) &&
	       M_EQ(a, b, exits_with_drain) && M_EQ(a, b, drains) && M_EQ(a, b, reprograms) &&
	       M_EQ(a, b, perf_resumes) && M_EQ(a, b, perf_creates) && M_EQ(a, b, triggers) &&
	       M_DEQ(a, b, host_us_total) && M_DEQ(a, b, host_us_per_exit_mean) &&
	       M_DEQ(a, b, host_us_per_exit_max) && M_DEQ(a, b, host_us_per_exit_p50) &&
	       M_DEQ(a, b, host_us_per_exit_p99) &&
	       (!a->host_differ || !memcmp(&a->host_first_differ, &b->host_first_differ,
					   sizeof(a->host_first_differ)));
}

static bool close_to(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* I6 on one vCPU's or the whole run's metrics of policy @p. */
static void check_metrics(const struct vpmc_metrics *m, const struct vpmc_cost *cost,
			  unsigned int p, bool on_time, const char *what)
{
	const char *pn = pol_names[p];

	FZ_CHECK(m->overflows_matched + m->overflows_missed == m->ref_overflows,
		 "I6: %s, %s: %" PRIu64 " matched + %" PRIu64 " missed != %" PRIu64
		 " reference overflows", pn, what, m->overflows_matched, m->overflows_missed,
		 m->ref_overflows);
	FZ_CHECK(m->reads_with_error <= m->reads, "I6: %s, %s: more reads erred than read", pn,
		 what);
	FZ_CHECK(!m->error_events_max_abs == !m->reads_with_error,
		 "I6: %s, %s: max error %" PRIu64 " with %" PRIu64 " reads in error", pn, what,
		 m->error_events_max_abs, m->reads_with_error);
	FZ_CHECK(m->reads || (m->error_events_mean_abs == 0 && m->error_events_mean == 0),
		 "I6: %s, %s: a mean error without reads", pn, what);
	FZ_CHECK(fabs(m->error_events_mean) <= m->error_events_mean_abs * (1 + 1e-12) &&
			 m->error_events_mean_abs <=
				 (double)m->error_events_max_abs * (1 + 1e-12),
		 "I6: %s, %s: |mean error| %g, mean |error| %g, max %" PRIu64, pn, what,
		 m->error_events_mean, m->error_events_mean_abs, m->error_events_max_abs);
	FZ_CHECK(m->status_reads_differ <= m->status_reads && m->host_differ <= m->host_reads,
		 "I6: %s, %s: more differences than reads", pn, what);
	FZ_CHECK(m->pmis_spurious <= m->pmis_delivered, "I6: %s, %s: %" PRIu64 " spurious of %"
		 PRIu64 " delivered PMIs", pn, what, m->pmis_spurious, m->pmis_delivered);
	/* a PMI that is not spurious covers a matched overflow, one whose reference PMI the guest's
	 * own LVTPC dropped (dropped_by_guest, issue 17 item 5), or only overflows of counters not
	 * modeled (pmis_not_modeled, issue 17 item 4) */
	FZ_CHECK(m->pmis_delivered - m->pmis_spurious <=
		 m->overflows_matched + m->dropped_by_guest + m->pmis_not_modeled,
		 "I6: %s, %s: %" PRIu64 " PMIs delivered, %" PRIu64 " spurious, only %" PRIu64
		 " overflows matched and %" PRIu64 " dropped by the guest", pn, what,
		 m->pmis_delivered, m->pmis_spurious, m->overflows_matched, m->dropped_by_guest);
	if (m->overflows_matched)
		FZ_CHECK(m->lateness_events_p50 <= m->lateness_events_p99 &&
				 m->lateness_events_p99 <= m->lateness_events_max &&
				 m->lateness_ns_p50 <= m->lateness_ns_p99 &&
				 m->lateness_ns_p99 <= m->lateness_ns_max,
			 "I6: %s, %s: lateness percentiles out of order", pn, what);
	else
		FZ_CHECK(!m->lateness_events_p50 && !m->lateness_events_p99 &&
				 !m->lateness_events_max && !m->lateness_ns_p50 &&
				 !m->lateness_ns_p99 && !m->lateness_ns_max,
			 "I6: %s, %s: lateness without a matched PMI", pn, what);
	FZ_CHECK(m->exits_implicit <= m->exits && m->exits_with_drain <= m->exits &&
			 m->exits_with_drain <= m->drains,
		 "I6: %s, %s: exits %" PRIu64 ", implicit %" PRIu64 ", with a drain %" PRIu64
		 ", drains %" PRIu64, pn, what, m->exits, m->exits_implicit, m->exits_with_drain,
		 m->drains);
	FZ_CHECK(m->perf_resumes + m->perf_creates <= m->reprograms,
		 "I6: %s, %s: %" PRIu64 " resumes + %" PRIu64 " creates > %" PRIu64
		 " reprograms", pn, what, m->perf_resumes, m->perf_creates, m->reprograms);
	if (m->exits) {
		double total = vpmc_cost_us(cost, m->perf_resumes, m->perf_creates, m->triggers);
		double slack = m->host_us_per_exit_max / 128 + 0.0005;

		FZ_CHECK(close_to(m->host_us_total, total),
			 "I6: %s, %s: host time %.17g us, the cost model gives %.17g", pn, what,
			 m->host_us_total, total);
		FZ_CHECK(m->host_us_per_exit_mean <= m->host_us_per_exit_max * (1 + 1e-9) &&
				 m->host_us_per_exit_p50 <= m->host_us_per_exit_p99 &&
				 m->host_us_per_exit_p99 <= m->host_us_per_exit_max + slack,
			 "I6: %s, %s: per exit mean %g p50 %g p99 %g max %g", pn, what,
			 m->host_us_per_exit_mean, m->host_us_per_exit_p50,
			 m->host_us_per_exit_p99, m->host_us_per_exit_max);
	} else {
		FZ_CHECK(!m->host_us_total && !m->host_us_per_exit_max && !m->exits_implicit,
			 "I6: %s, %s: host time without exits", pn, what);
	}
	/*
	 * The reference as a policy is the reference: the same reads and GLOBAL_STATUS. Its PMI
	 * comes at the overflowing instruction, so it matches its own overflow at once (@on_time)
	 * unless LVTPC dropped that PMI (a later PMI then covers it, late, or none: missed). Not
	 * checked with an overlay, or where an overflow without a PMI in a guest segment is
	 * tracked as one because another counter's PMI comes later in the segment: the metrics
	 * take "a PMI in the same event" for "raised a PMI" (reported: issue 16).
	 */
	if (p == P_REF) {
		FZ_CHECK(!m->reads_with_error && !m->status_reads_differ,
			 "I6: the reference as a policy, %s: %" PRIu64 " reads in error, %" PRIu64
			 " status reads differ", what, m->reads_with_error, m->status_reads_differ);
		FZ_CHECK(!on_time || m->pmis_dropped ||
				 (!m->overflows_missed && !m->lateness_events_max &&
				  !m->lateness_ns_max),
			 "I6: the reference as a policy, %s: no PMI dropped, but %" PRIu64
			 " overflows missed, lateness %" PRIu64 " events %" PRIu64 " ns", what,
			 m->overflows_missed, m->lateness_events_max, m->lateness_ns_max);
	}
}

/* The metrics that are counts, which add up over vCPUs. */
#define COUNT_FIELDS(X)                                                                     \
	X(reads) X(reads_with_error) X(status_reads) X(status_reads_differ) X(host_reads)   \
	X(host_differ) X(ref_overflows) X(overflows_matched) X(overflows_missed)            \
	X(pmis_delivered) X(pmis_dropped) X(pmis_spurious) X(exits) X(exits_implicit)       \
	X(exits_with_drain) X(drains) X(reprograms) X(perf_resumes) X(perf_creates)         \
	X(triggers)

static void counts_add(struct vpmc_metrics *d, const struct vpmc_metrics *s)
{
#define COUNT_ADD(f) d->f += s->f;
	COUNT_FIELDS(COUNT_ADD)
#undef COUNT_ADD
}

static bool counts_equal(const struct vpmc_metrics *a, const struct vpmc_metrics *b)
{
#define COUNT_EQ(f) &&a->f == b->f
	return true COUNT_FIELDS(COUNT_EQ);
#undef COUNT_EQ
}

static void check_engine(const struct fz_case *c)
{
	const struct fz_engine_out *a = &fz_out[0], *b = &fz_out[1];
	struct vpmc_cost cost;
	unsigned int p, v;
	char what[32];

	engine_run(c, true, true, &fz_out[0]);
	if (c->twice)
		engine_run(c, true, false, &fz_out[1]);
	else
		fz_out[1] = fz_out[0];
	/* I7 */
	FZ_CHECK(a->begun == b->begun && a->overlay == b->overlay &&
			 a->stopped_at == b->stopped_at && a->stop_err == b->stop_err &&
			 a->log_hash == b->log_hash && a->log_lines == b->log_lines &&
			 a->report_hash == b->report_hash && a->report_err == b->report_err &&
			 a->plot_hash == b->plot_hash && a->plot_err == b->plot_err &&
			 a->warning_hash == b->warning_hash && a->nr_vcpus == b->nr_vcpus &&
			 !memcmp(a->capped, b->capped, sizeof(a->capped)),
		 "I7: two runs of the engine differ");
	if (!a->begun || a->stopped_at < c->nr_ev)
		return;
	vpmc_cost_default(&cost);
	if (cost_presets[c->cost])
		vpmc_cost_parse(&cost, cost_presets[c->cost], NULL);
	for (p = 0; p < NR_POL; p++) {
		struct vpmc_metrics sum;

		FZ_CHECK(metrics_equal(&a->total[p], &b->total[p]), "I7: %s's metrics differ",
			 pol_names[p]);
		check_metrics(&a->total[p], &cost, p, !a->overlay && !fz_ref_quiet, "all vCPUs");
		memset(&sum, 0, sizeof(sum));
		for (v = 0; v < c->nr_vcpus; v++) {
			const struct vpmc_metrics *m = &a->per_vcpu[p][v];

			FZ_CHECK(metrics_equal(m, &b->per_vcpu[p][v]),
				 "I7: %s's metrics of vCPU %" PRIu32 " differ", pol_names[p],
				 c->vcpu_ids[v]);
			snprintf(what, sizeof(what), "vCPU %" PRIu32, c->vcpu_ids[v]);
			check_metrics(m, &cost, p, !a->overlay && !(fz_ref_quiet & 1u << v), what);
			counts_add(&sum, m);
		}
		FZ_CHECK(counts_equal(&sum, &a->total[p]),
			 "I6: %s: the vCPUs do not add up to the run", pol_names[p]);
		/* I1 in the metrics */
		if (pol_is_exact(c, p)) {
			FZ_CHECK(metrics_equal(&a->total[p], &a->total[P_EXACT]) &&
					 a->capped[p] == a->capped[P_EXACT],
				 "I1: %s's metrics differ from exact's", pol_names[p]);
			for (v = 0; v < c->nr_vcpus; v++)
				FZ_CHECK(metrics_equal(&a->per_vcpu[p][v], &a->per_vcpu[P_EXACT][v]),
					 "I1: %s's metrics of vCPU %" PRIu32 " differ from exact's",
					 pol_names[p], c->vcpu_ids[v]);
		}
		/* without an overlay every policy's guest makes the same reads */
		if (!a->overlay)
			FZ_CHECK(a->total[p].reads == a->total[P_EXACT].reads &&
					 a->total[p].status_reads == a->total[P_EXACT].status_reads &&
					 a->total[p].host_reads == a->total[P_EXACT].host_reads &&
					 a->total[p].ref_overflows == a->total[P_EXACT].ref_overflows,
				 "I6: %s sees other reads or reference overflows than exact",
				 pol_names[p]);
	}
}

/*
 * FUZZ_ENGINE_VTR=FILE: write the decoded input as a .vtr (and its policies and overlay as a
 * comment line), for vpmcsim replay --log when an invariant fails.
 */
static void dump_vtr(const struct fz_case *c, const char *path)
{
	char pol[VPMC_POLICY_NAME_MAX];
	FILE *f = fopen(path, "w");
	unsigned int p;
	size_t i, n = 0;

	if (!f)
		return;
	vpmc_vtr_write_header(f, &c->cfg, "fuzz", NULL);
	fputs("# policies:", f);
	for (p = 0; p < NR_POL; p++) {
		struct vpmc_policy pp = policy_of(c, p);

		vpmc_policy_format(&pp, pol, sizeof(pol));
		fprintf(f, " %s", pol);
	}
	for (i = 0; i < c->nr_assume; i++)
		fprintf(f, " --assume %s", c->assume[i]);
	fputc('\n', f);
	for (i = 0; i < c->nr_ev; i++) {
		if (vpmc_vtr_write_event(f, &c->ev[i]))
			fprintf(f, "# event %zu cannot be written (type %u, cpl %u)\n", i,
				c->ev[i].type, c->ev[i].cpl);
		else
			n++;
	}
	vpmc_vtr_write_end(f, n);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *dump = getenv("FUZZ_ENGINE_VTR");
	unsigned int p;

	struct fz_in in = { data, data + size };

	memset(&fc, 0, offsetof(struct fz_case, ev));
	if (size && (data[0] == '!' || data[0] == '#'))
		decode_vtr(&fc, data, size);
	else
		decode_binary(&fc, &in);
	if (!fc.nr_ev)
		return 0;
	/* I7 on a quarter of the inputs (its top 2 bits; decode_vtr() takes the low ones) */
	fc.twice = !(hash_bytes(data, size) >> 62);
	for (p = 0; p < NR_MODELS; p++) {
		fc.is_exact |= pol_is_exact(&fc, p) ? 1u << p : 0;
		fc.reads_exact |= pol_reads_exact(&fc, p) ? 1u << p : 0;
	}
	if (dump)
		dump_vtr(&fc, dump);
	check_models(&fc);
	check_engine(&fc);
	return 0;
}
