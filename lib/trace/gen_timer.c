// SPDX-License-Identifier: GPL-2.0-only
/*
 * gen_timer.c - vpmcsim gen timer-storm (timer-storm.md §4): the per-vCPU exit stream of a Linux
 * guest on an AMD v1 PMU with a 1 kHz tick, a resident instructions counter and a counting
 * profiler, written as a canonical .vtr. Deterministic: xoshiro256** streams per (vCPU,
 * purpose), integer time, only IEEE +, -, *, / and floor (§4.7).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <vpmc/gen.h>
#include <vpmc/reader.h>

#include "internal.h"
#include "msr-index.h"
#include "numparse.h"

enum {
	P_VCPUS, P_SECONDS, P_SEED, P_HOST_KERNEL, P_GUEST_HZ, P_TICK_SKEW, P_ACTIVE_FRACTION,
	P_SLOT_MS, P_GUEST_IPS, P_TSC_GHZ, P_HANDLER_NATIVE_NS, P_HANDLER_JITTER_NS,
	P_HANDLER_PRE_FRAC, P_DUTY_NS, P_PV_EOI, P_P_EOI_EXIT, P_EOI_AT_NS, P_P_VINTR,
	P_IRQ_OFF_NS, P_RT_MSR_FAST_NS, P_RT_MSR_SLOW_NS, P_RT_INTR_NS, P_RT_VINTR_NS, P_RT_WAKE_NS,
	P_HOST_HZ, P_BIG_IRQ_RATE, P_BIG_IRQ_MIN_NS, P_BIG_IRQ_MAX_NS, P_RESIDENT, P_NMI_WATCHDOG,
	P_WATCHDOG_THRESH_S, P_PROFILER, P_P0_PERIOD_MS, P_P0_GAP_NS, P_IDLE_AFTER_US, P_NR
};

#define GEN_PROGRESS_EVERY (1u << 14) /* events between two calls of o->progress */

/* How a value is read and checked. */
enum kind { K_INT, K_REAL, K_PROB, K_NS, K_BOOL, K_KERNEL, K_RESIDENT, K_PROFILER };

struct tparam {
	struct vpmc_gen_param p;
	enum kind kind;
	double min, max; /* K_INT, K_REAL */
	const char *range;
};

#define NS 0, 1e9, "0 to 10^9 ns"
static const struct tparam tparams[P_NR] = {
	{ { "vcpus", "8", "vCPUs", "measured", "RFC (8-vCPU guest)" }, K_INT, 1, 4096, "1 to 4096" },
	{ { "seconds", "30", "s", "measured", "RFC (30 s of function_graph)" }, K_INT, 1, 3600,
	  "1 to 3600" },
	{ { "seed", "1", "-", "-", "xoshiro256** streams (timer-storm.md §4.7)" }, K_INT, 0, 0,
	  "0 to 2^64-1" },
	{ { "host_kernel", "7.2", "MAJOR.MINOR", "measured",
	    "RFC (v7.2-rc4 era); >= 6.18 makes 0x6e0 a fastpath exit on AMD (0a94b2042419)" },
	  K_KERNEL, 0, 0, "MAJOR.MINOR" },
	{ { "guest_hz", "1000", "Hz", "measured", "RFC (1 kHz guest tick)" }, K_INT, 1, 1e6,
	  "1 to 10^6" },
	{ { "tick_skew", "0", "0/1", "derived",
	    "tick_setup_sched_timer (kernel/time/tick-sched.c): one grid unless skew_tick=1" },
	  K_BOOL, 0, 1, "0 or 1" },
	{ { "active_fraction", "0.667", "-", "derived", "160k / 30 s / (8 x 1000)" }, K_PROB, 0, 1,
	  "0 to 1" },
	{ { "slot_ms", "100", "ms", "estimate", "granularity of busy/idle phases" }, K_INT, 1,
	  1e6, "1 to 10^6" },
	{ { "guest_ips", "3.0e9", "insn/s", "estimate", "Zen 3 near 3 GHz, IPC ~1" }, K_REAL, 1,
	  1e12, "1 to 10^12" },
	{ { "tsc_ghz", "3.0", "GHz", "estimate", "Zen 3 near 3 GHz; sets 0x6e0 values" }, K_REAL,
	  0.01, 100, "0.01 to 100" },
	{ { "handler_native_ns", "2000", "ns", "estimate",
	    "OFF mean minus one fastpath exit and tracer overhead: 1.9-2.2 us" }, K_NS, NS },
	{ { "handler_jitter_ns", "550", "ns (sigma)", "derived", "(OFF p99 - p50) / 2.33" }, K_NS, NS },
	{ { "handler_pre_frac", "0.9", "-", "estimate",
	    "hrtimer_interrupt (kernel/time/hrtimer.c) writes the deadline near its end" },
	  K_PROB, 0, 1, "0 to 1" },
	{ { "duty_ns", "300", "ns", "estimate", "tick_sched_do_timer on one CPU per tick" }, K_NS, NS },
	{ { "pv_eoi", "1", "0/1", "derived",
	    "QEMU kvm_default_props (target/i386/kvm/kvm-cpu.c): kvm-pv-eoi=on" }, K_BOOL, 0, 1,
	  "0 or 1" },
	{ { "p_eoi_exit", "0.02", "per tick", "estimate",
	    "apic_sync_pv_eoi_to_guest (arch/x86/kvm/lapic.c); range 0.01-0.05" }, K_PROB, 0, 1,
	  "0 to 1" },
	{ { "eoi_at_ns", "100", "ns", "estimate", "handler start to apic_eoi()" }, K_NS, NS },
	{ { "p_vintr", "0.02", "per tick", "estimate", "guest had IF=0 when its deadline fired" },
	  K_PROB, 0, 1, "0 to 1" },
	{ { "irq_off_ns", "2000", "ns", "estimate", "how long IF=0 lasted then" }, K_NS, NS },
	{ { "rt_msr_fast_ns", "650", "ns", "derived",
	    "Zen 3 CPUID round trip 649 ns (Khorenko, kvm@ 2023-11-09)" }, K_NS, NS },
	{ { "rt_msr_slow_ns", "1050", "ns", "estimate", "fastpath round trip + slowpath_tax_ns" },
	  K_NS, NS },
	{ { "rt_intr_ns", "1200", "ns", "estimate", "host interrupt exit with its handler" }, K_NS, NS },
	{ { "rt_vintr_ns", "700", "ns", "estimate", "interrupt window exit" }, K_NS, NS },
	{ { "rt_wake_ns", "4000", "ns", "estimate", "halted vCPU woken by its timer" }, K_NS, NS },
	{ { "host_hz", "1000", "Hz", "estimate", "host tick exits; explain OFF p99.9" }, K_INT, 0,
	  1e6, "0 to 10^6" },
	{ { "big_irq_rate", "3", "per s per vCPU", "estimate",
	    "one long host interrupt inside an OFF handler explains OFF max 22.55 us" }, K_REAL, 0,
	  1000, "0 to 1000" },
	{ { "big_irq_min_ns", "15000", "ns", "estimate", "length of a long host interrupt" }, K_NS, NS },
	{ { "big_irq_max_ns", "20000", "ns", "estimate", "length of a long host interrupt" }, K_NS, NS },
	{ { "resident", "instructions", "instructions/none", "measured",
	    "RFC: instructions-retired counter resident (none: control trace)" }, K_RESIDENT, 0, 0,
	  "instructions or none" },
	{ { "nmi_watchdog", "1", "0/1", "estimate",
	    "guest hardlockup detector holds a cycles counter" }, K_BOOL, 0, 1, "0 or 1" },
	{ { "watchdog_thresh_s", "10", "s", "derived", "Linux default watchdog_thresh" }, K_INT, 1,
	  60, "1 to 60" },
	{ { "profiler", "p0", "p0/none", "estimate",
	    "the only profiler shape consistent with timer-storm.md §1.2 item 4" }, K_PROFILER, 0,
	  0, "p0 or none" },
	{ { "p0_period_ms", "10", "ms", "estimate", "'periodically reprograms' (shape unknown)" },
	  K_INT, 1, 1e6, "1 to 10^6" },
	{ { "p0_gap_ns", "300", "ns", "estimate", "guest work between the profiler's accesses" },
	  K_NS, NS },
	{ { "idle_after_us", "100", "us", "estimate", "user work after the last tick before halting" },
	  K_INT, 0, 1e6, "0 to 10^6" },
};

const struct vpmc_gen_param *vpmc_timerstorm_params(size_t *n)
{
	static struct vpmc_gen_param t[P_NR];
	size_t i;

	for (i = 0; i < P_NR; i++)
		t[i] = tparams[i].p;
	*n = P_NR;
	return t;
}

/* Parse @s as parameter @i; return 0 and the value, or -1. */
static int tparam_value(size_t i, const char *s, double *v, uint64_t *seed)
{
	const struct tparam *tp = &tparams[i];
	uint64_t u, maj, min;
	const char *dot;
	char *end;

	switch (tp->kind) {
	case K_INT:
	case K_BOOL:
		if (vpmc__parse_u64(s, strlen(s), VPMC__NUM_HEX, 0, UINT64_MAX, &u))
			return -1;
		if (i == P_SEED) {
			*seed = u;
			*v = 0;
			return 0;
		}
		*v = (double)u;
		break;
	case K_KERNEL:
		dot = strchr(s, '.');
		if (!dot || vpmc__parse_u64(s, (size_t)(dot - s), 0, 0, 0xffff, &maj) ||
		    vpmc__parse_u64(dot + 1, strlen(dot + 1), 0, 0, 0xffff, &min))
			return -1;
		*v = (double)VPMC_KERNEL(maj, min);
		return 0;
	case K_RESIDENT:
		if (strcmp(s, "instructions") && strcmp(s, "none"))
			return -1;
		*v = !strcmp(s, "instructions");
		return 0;
	case K_PROFILER:
		if (strcmp(s, "p0") && strcmp(s, "none"))
			return -1;
		*v = !strcmp(s, "p0");
		return 0;
	default:
		errno = 0;
		*v = strtod(s, &end);
		if (errno || end == s || *end)
			return -1;
		break;
	}
	if (tp->kind == K_NS)
		return *v >= 0 && *v <= 1e9 ? 0 : -1;
	return *v >= tp->min && *v <= tp->max ? 0 : -1;
}

void vpmc_timerstorm_opts_default(struct vpmc_timerstorm_opts *o)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < P_NR; i++)
		tparam_value(i, tparams[i].p.def, &o->v[i], &o->seed);
}

int vpmc_timerstorm_set(struct vpmc_timerstorm_opts *o, const char *name, const char *value,
			char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < P_NR && strcmp(tparams[i].p.name, name); i++)
		;
	if (i == P_NR) {
		snprintf(err, errlen, "unknown parameter '%s' (see vpmcsim gen timer-storm --help)",
			 name);
		return VPMC_ERR_INVAL;
	}
	if (o->given[i]) {
		snprintf(err, errlen, "%s given twice ('%s', '%s')", name, o->given[i], value);
		return VPMC_ERR_INVAL;
	}
	if (tparam_value(i, value, &o->v[i], &o->seed)) {
		snprintf(err, errlen, "%s '%s': expected %s (%s)", name, value,
			 tparams[i].kind == K_NS ? "0 to 10^9 ns" : tparams[i].range,
			 tparams[i].p.unit);
		return VPMC_ERR_INVAL;
	}
	o->given[i] = value;
	return 0;
}

/* ---- random numbers (§4.7) ---------------------------------------------------------------- */

struct xoshiro {
	uint64_t s[4];
};

/* splitmix64's finalizer (Steele, Lea, Flood 2014). */
static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static uint64_t splitmix64(uint64_t *x)
{
	return mix(*x += 0x9E3779B97F4A7C15ULL);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** 1.0 (Blackman, Vigna; prng.di.unimi.it). */
static uint64_t xnext(struct xoshiro *x)
{
	uint64_t *s = x->s, r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

static double xuniform(struct xoshiro *x)
{
	return (double)(xnext(x) >> 11) * 0x1.0p-53;
}

/* The stream of vCPU @v for purpose @purpose (1 ticks, 2 host, 3 profiler; 0, the slots, is keyed:
 * slot_is_busy()). */
static void xseed(struct xoshiro *x, uint64_t seed, uint32_t v, unsigned int purpose)
{
	uint64_t sm = seed + 0x9E3779B97F4A7C15ULL * (1 + 16 * (uint64_t)v + purpose);
	int i;

	for (i = 0; i < 4; i++)
		x->s[i] = splitmix64(&sm);
}

/* ---- one vCPU's timeline (§4.2 - §4.5) ---------------------------------------------------- */

struct tgen;

struct tvcpu {
	uint32_t v;
	uint64_t t;               /* where the vCPU's trace stands */
	bool halted;
	uint64_t k;               /* the next tick index */
	struct xoshiro ticks, host, prof;
	uint64_t host_next;       /* next host tick */
	uint64_t big_ms, big_at, big_len; /* next long interrupt (big_at UINT64_MAX: none yet) */
	uint64_t burst_next;      /* next profiler burst on its grid */
	uint64_t burst_at;        /* where the one taken from the grid runs */
	bool burst_pending;
	bool done;
	struct vpmc_event *q;     /* events of the chunk being written out */
	size_t nq, cap, qi;
};

struct tgen {
	const struct vpmc_timerstorm_opts *o;
	uint32_t nr_vcpus;
	uint64_t end_ns, tick_ns, slot_ns, nr_slots, host_period, burst_period;
	struct tvcpu *vc;
	int err;
};

#define PV(g, i) ((g)->o->v[i])

static uint64_t ns_of(double x)
{
	return (uint64_t)x; /* values are checked to be 0 .. 1e9 or derived from them */
}

static uint64_t insn_of(const struct tgen *g, uint64_t ns)
{
	return (uint64_t)((double)ns * PV(g, P_GUEST_IPS) / 1e9);
}

static void push(struct tgen *g, struct tvcpu *c, const struct vpmc_event *ev)
{
	if (c->nq == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct vpmc_event *q = realloc(c->q, cap * sizeof(*q));

		if (!q) {
			g->err = VPMC_ERR_NOMEM;
			return;
		}
		c->q = q;
		c->cap = cap;
	}
	c->q[c->nq++] = *ev;
}

static void ev_simple(struct tgen *g, struct tvcpu *c, enum vpmc_event_type type, uint64_t t)
{
	struct vpmc_event ev = { .time_ns = t, .vcpu = c->v, .type = type, .cpl = VPMC_CPL_KEEP };

	push(g, c, &ev);
}

static void ev_exit(struct tgen *g, struct tvcpu *c, uint64_t t, const char *reason)
{
	struct vpmc_event ev = { .time_ns = t, .vcpu = c->v, .type = VPMC_EV_EXIT,
				 .cpl = VPMC_CPL_KEEP };

	snprintf(ev.reason, sizeof(ev.reason), "%s", reason);
	push(g, c, &ev);
}

static void ev_idx(struct tgen *g, struct tvcpu *c, enum vpmc_event_type type, uint64_t t,
		   uint32_t index, uint64_t value)
{
	struct vpmc_event ev = { .time_ns = t, .vcpu = c->v, .type = type, .index = index,
				 .value = value, .cpl = VPMC_CPL_KEEP };

	push(g, c, &ev);
}

/* Guest work of @ns ending at c->t + @ns, at @cpl. */
static void guest(struct tgen *g, struct tvcpu *c, uint64_t ns, uint8_t cpl)
{
	struct vpmc_event ev = { .vcpu = c->v, .type = VPMC_EV_GUEST, .cpl = cpl };

	if (!ns)
		return;
	c->t += ns;
	ev.time_ns = c->t;
	ev.insn = insn_of(g, ns);
	push(g, c, &ev);
}

/*
 * Whether vCPU @v is busy in slot @s: a draw keyed by (seed, v, s), not streamed, so that no
 * slot is stored and memory does not grow with --seconds (timer-storm.md §4.7 as implemented,
 * §13): k_v is the first splitmix64 output of the (v, purpose 0) stream's start, and the slot's
 * uniform is (mix(k_v ^ mix(s)) >> 11) * 2^-53, as the cost draws of §6.5.
 */
static bool slot_is_busy(const struct tgen *g, uint32_t v, uint64_t s)
{
	uint64_t k = g->o->seed + 0x9E3779B97F4A7C15ULL * (1 + 16 * (uint64_t)v);
	double u;

	k = splitmix64(&k);
	u = (double)(mix(k ^ mix(s)) >> 11) * 0x1.0p-53;
	return s < g->nr_slots && u < PV(g, P_ACTIVE_FRACTION);
}

static bool slot_busy(const struct tgen *g, uint32_t v, uint64_t t)
{
	return slot_is_busy(g, v, t / g->slot_ns);
}

/* The duty vCPU of slot @s (§4.2): the lowest busy one, or UINT32_MAX. */
static uint32_t slot_duty(const struct tgen *g, uint64_t s)
{
	uint32_t v;

	for (v = 0; v < g->nr_vcpus; v++)
		if (slot_is_busy(g, v, s))
			return v;
	return UINT32_MAX;
}

/* The long host interrupt of the next millisecond that has one, at or after @t (draws per ms:
 * occurs, position, length). */
static void big_advance(struct tgen *g, struct tvcpu *c, uint64_t t)
{
	while (c->big_at == UINT64_MAX || c->big_at + 0 < t) {
		double occ, pos, len;

		if (c->big_ms * 1000000ULL >= g->end_ns) {
			c->big_at = UINT64_MAX - 1;
			return;
		}
		occ = xuniform(&c->host);
		pos = xuniform(&c->host);
		len = xuniform(&c->host);
		if (occ < PV(g, P_BIG_IRQ_RATE) / 1000.0) {
			c->big_at = c->big_ms * 1000000ULL + (uint64_t)(pos * 1e6);
			c->big_len = ns_of(PV(g, P_BIG_IRQ_MIN_NS) +
					   len * (PV(g, P_BIG_IRQ_MAX_NS) - PV(g, P_BIG_IRQ_MIN_NS)));
		} else {
			c->big_at = UINT64_MAX;
		}
		c->big_ms++;
	}
}

/* The next host interrupt at or after @t: its time, and its length in *@len. Those in the past
 * (in an exit span, while halted) are dropped. */
static uint64_t host_irq(struct tgen *g, struct tvcpu *c, uint64_t t, uint64_t *len)
{
	while (g->host_period && c->host_next < t)
		c->host_next += g->host_period;
	big_advance(g, c, t);
	if (g->host_period && c->host_next <= c->big_at) {
		*len = ns_of(PV(g, P_RT_INTR_NS));
		return c->host_next;
	}
	*len = c->big_len;
	return c->big_at;
}

static void host_irq_taken(struct tgen *g, struct tvcpu *c, uint64_t at)
{
	if (g->host_period && c->host_next == at)
		c->host_next += g->host_period;
	else
		c->big_at = UINT64_MAX;
}

/* Host interrupt exit at c->t lasting @len. */
static void host_exit(struct tgen *g, struct tvcpu *c, uint64_t len)
{
	ev_exit(g, c, c->t, "interrupt"); /* SVM_EXIT_INTR as kvm_exit names it */
	c->t += len;
	ev_simple(g, c, VPMC_EV_ENTRY, c->t);
}

/* User code until @until; host interrupts take their time out of it. */
static void run_user(struct tgen *g, struct tvcpu *c, uint64_t until)
{
	uint64_t len, h;

	while (c->t < until && (h = host_irq(g, c, c->t, &len)) < until) {
		guest(g, c, h - c->t, 3);
		host_irq_taken(g, c, h);
		host_exit(g, c, len);
	}
	if (c->t < until)
		guest(g, c, until - c->t, 3);
}

/* Kernel work of @ns; a host interrupt inside delays the rest. */
static void run_kernel(struct tgen *g, struct tvcpu *c, uint64_t ns)
{
	uint64_t len, h;

	while (ns && (h = host_irq(g, c, c->t, &len)) < c->t + ns) {
		ns -= h - c->t;
		guest(g, c, h - c->t, 0);
		host_irq_taken(g, c, h);
		host_exit(g, c, len);
	}
	guest(g, c, ns, 0);
}

/* One retiring PMU or APIC access exit (§4.3): exit, the access, an eoi, retire, entry. */
static void pmu_exit(struct tgen *g, struct tvcpu *c, enum vpmc_event_type type, uint32_t index,
		   uint64_t value, bool eoi, uint64_t rt)
{
	ev_exit(g, c, c->t, type == VPMC_EV_RDPMC ? "rdpmc" : "msr");
	ev_idx(g, c, type, c->t, index, value);
	if (eoi)
		ev_idx(g, c, VPMC_EV_EOI, c->t, 0xec, 0);
	ev_simple(g, c, VPMC_EV_RETIRE, c->t);
	c->t += rt;
	ev_simple(g, c, VPMC_EV_ENTRY, c->t);
}

static uint64_t tick_at(const struct tgen *g, uint32_t v, uint64_t k)
{
	uint64_t skew = PV(g, P_TICK_SKEW) ? v * g->tick_ns / (2 * g->nr_vcpus) : 0;

	return k * g->tick_ns + skew;
}

static uint64_t rt_deadline(const struct tgen *g)
{
	/* 0x6e0 is a fastpath exit on AMD from 6.18 (kvm-x86 0a94b2042419) */
	return ns_of(PV(g, P_HOST_KERNEL) >= VPMC_KERNEL(6, 18) ? PV(g, P_RT_MSR_FAST_NS)
								 : PV(g, P_RT_MSR_SLOW_NS));
}

static uint64_t tsc_of(const struct tgen *g, uint64_t t)
{
	return (uint64_t)((double)t * PV(g, P_TSC_GHZ));
}

/* The tick handler from its start (§4.4), @eoi_exit: the EOI is an x2APIC write. */
static void handler(struct tgen *g, struct tvcpu *c, uint64_t n, bool eoi_exit, uint64_t next)
{
	uint64_t pre = (uint64_t)((double)n * PV(g, P_HANDLER_PRE_FRAC));
	uint64_t eoi_at = ns_of(PV(g, P_EOI_AT_NS));

	if (eoi_exit) {
		if (eoi_at > pre)
			eoi_at = pre;
		run_kernel(g, c, eoi_at);
		pmu_exit(g, c, VPMC_EV_WRMSR, X2APIC_MSR_EOI, 0, true, ns_of(PV(g, P_RT_MSR_SLOW_NS)));
		pre -= eoi_at;
	}
	run_kernel(g, c, pre);
	pmu_exit(g, c, VPMC_EV_WRMSR, MSR_IA32_TSC_DEADLINE, next ? tsc_of(g, next) : 0, !eoi_exit,
	       rt_deadline(g));
	run_kernel(g, c, n - (pre + (eoi_exit ? eoi_at : 0)));
}

/* One busy tick at @T (§4.4). */
static void tick(struct tgen *g, struct tvcpu *c, uint64_t T, uint64_t next)
{
	double u_vintr = xuniform(&c->ticks), u_eoi = xuniform(&c->ticks), sum = 0;
	double native = PV(g, P_HANDLER_NATIVE_NS), n;
	bool eoi_exit = !PV(g, P_PV_EOI) || u_eoi < PV(g, P_P_EOI_EXIT);
	uint64_t slot = T / g->slot_ns;
	int i;

	for (i = 0; i < 12; i++)
		sum += xuniform(&c->ticks);
	n = native + PV(g, P_HANDLER_JITTER_NS) * (sum - 6.0); /* Irwin-Hall: no libm */
	if (n < native / 4)
		n = native / 4;
	if (n > 4 * native)
		n = 4 * native;
	if (slot_duty(g, slot) == c->v)
		n += PV(g, P_DUTY_NS);
	if (c->halted) {
		c->halted = false;
		c->t = T + ns_of(PV(g, P_RT_WAKE_NS));
		ev_idx(g, c, VPMC_EV_IRQ, c->t, 0xec, 0);
		ev_simple(g, c, VPMC_EV_ENTRY, c->t);
	} else if (u_vintr < PV(g, P_P_VINTR)) {
		run_user(g, c, T >= 1000 ? T - 1000 : 0);
		if (c->t < T)
			guest(g, c, T - c->t, 0);
		host_exit(g, c, ns_of(PV(g, P_RT_INTR_NS)));
		run_kernel(g, c, ns_of(PV(g, P_IRQ_OFF_NS)));
		ev_exit(g, c, c->t, "vintr");
		c->t += ns_of(PV(g, P_RT_VINTR_NS));
		ev_idx(g, c, VPMC_EV_IRQ, c->t, 0xec, 0);
		ev_simple(g, c, VPMC_EV_ENTRY, c->t);
	} else {
		run_user(g, c, T);
		ev_exit(g, c, c->t, "interrupt");
		c->t += ns_of(PV(g, P_RT_INTR_NS));
		ev_idx(g, c, VPMC_EV_IRQ, c->t, 0xec, 0);
		ev_simple(g, c, VPMC_EV_ENTRY, c->t);
	}
	handler(g, c, (uint64_t)n, eoi_exit, next);
}

/* The vCPU halts (§4.5, idle entry); @wake_at: the deadline it programs (0: none). */
static void idle_entry(struct tgen *g, struct tvcpu *c, uint64_t wake_at)
{
	run_kernel(g, c, 1000);
	pmu_exit(g, c, VPMC_EV_WRMSR, MSR_IA32_TSC_DEADLINE, wake_at ? tsc_of(g, wake_at) : 0, false,
	       rt_deadline(g));
	run_kernel(g, c, 500);
	ev_exit(g, c, c->t, "hlt");
	ev_simple(g, c, VPMC_EV_RETIRE, c->t);
	c->halted = true;
}

/* The profiler's burst (§4.5, P0). */
static void burst(struct tgen *g, struct tvcpu *c)
{
	uint64_t gap = ns_of(PV(g, P_P0_GAP_NS)), rt = ns_of(PV(g, P_RT_MSR_SLOW_NS));

	run_kernel(g, c, gap);
	pmu_exit(g, c, VPMC_EV_WRMSR, MSR_F15H_PERF_CTL0, 0x1300c0, false, rt);
	run_kernel(g, c, gap);
	pmu_exit(g, c, VPMC_EV_RDPMC, 0, 0, false, rt);
	run_kernel(g, c, gap);
	pmu_exit(g, c, VPMC_EV_WRMSR, MSR_F15H_PERF_CTR0, 0x800000000001ULL, false, rt);
	run_kernel(g, c, gap);
	pmu_exit(g, c, VPMC_EV_WRMSR, MSR_F15H_PERF_CTL0, 0x5300c0, false, rt);
}

/* Where a burst due at @b runs: after [T - 10 us, T + 50 us] of a tick it would overlap. */
static uint64_t burst_place(const struct tgen *g, const struct tvcpu *c, uint64_t b)
{
	uint64_t len = 4 * (ns_of(PV(g, P_P0_GAP_NS)) + ns_of(PV(g, P_RT_MSR_SLOW_NS)));
	uint64_t skew = tick_at(g, c->v, 0), k, T;

	/* the first tick at or after b - 50 us */
	k = b >= 50000 + skew ? (b - 50000 - skew + g->tick_ns - 1) / g->tick_ns : 1;
	T = tick_at(g, c->v, k ? k : 1);
	if (b + len + 10000 > T && b < T + 50000)
		b = T + 50000;
	return b;
}

/* Profiler bursts that start before @until (a moved one may wait for the next chunk). */
static void bursts_until(struct tgen *g, struct tvcpu *c, uint64_t until)
{
	uint64_t b;

	while (g->burst_period) {
		if (!c->burst_pending) {
			if (c->burst_next >= until)
				return;
			c->burst_at = burst_place(g, c, c->burst_next);
			c->burst_next += g->burst_period;
			c->burst_pending = true;
		}
		b = c->burst_at;
		if (b >= until)
			return;
		c->burst_pending = false;
		if (b < c->t)
			b = c->t;
		if (c->halted || !slot_busy(g, c->v, b) || b >= g->end_ns)
			continue;
		run_user(g, c, b);
		burst(g, c);
	}
}

/* The setup accesses at t = 0 (§4.3). */
static void setup(struct tgen *g, struct tvcpu *c)
{
	uint64_t rt = ns_of(PV(g, P_RT_MSR_SLOW_NS));

	if (PV(g, P_NMI_WATCHDOG)) {
		/* -(watchdog_thresh_s * CPU clock): hw_nmi_get_sample_period() */
		uint64_t period = (uint64_t)(PV(g, P_WATCHDOG_THRESH_S) * PV(g, P_TSC_GHZ) * 1e9);

		pmu_exit(g, c, VPMC_EV_WRMSR, MSR_F15H_PERF_CTR0 + 2,
		       (0 - period) & ((1ULL << 48) - 1), false, rt);
		pmu_exit(g, c, VPMC_EV_WRMSR, MSR_F15H_PERF_CTL0 + 2, 0x530076, false, rt);
	}
	if (PV(g, P_RESIDENT)) {
		pmu_exit(g, c, VPMC_EV_WRMSR, MSR_F15H_PERF_CTR0, 0x800000000001ULL, false, rt);
		pmu_exit(g, c, VPMC_EV_WRMSR, MSR_F15H_PERF_CTL0, 0x5300c0, false, rt);
	}
	if (!slot_busy(g, c->v, 0)) {
		uint64_t k = 1;

		while (tick_at(g, c->v, k) < g->end_ns && !slot_busy(g, c->v, tick_at(g, c->v, k)))
			k++;
		idle_entry(g, c, tick_at(g, c->v, k) < g->end_ns ? tick_at(g, c->v, k) : 0);
	}
}

/* The events of the next tick of @c (and what comes before it) into c->q. */
static void chunk(struct tgen *g, struct tvcpu *c)
{
	uint64_t T = tick_at(g, c->v, c->k), next, k2;

	c->nq = c->qi = 0;
	if (c->k == 0) {
		setup(g, c);
		c->k = 1;
		return;
	}
	if (T >= g->end_ns) {
		bursts_until(g, c, g->end_ns);
		if (!c->halted && slot_busy(g, c->v, g->end_ns - 1))
			run_user(g, c, g->end_ns);
		c->done = true;
		return;
	}
	c->k++;
	if (!slot_busy(g, c->v, T))
		return;
	bursts_until(g, c, T);
	next = tick_at(g, c->v, c->k);
	tick(g, c, T, next < g->end_ns ? next : 0);
	if (next < g->end_ns && next / g->slot_ns != T / g->slot_ns && !slot_busy(g, c->v, next)) {
		uint64_t idle_at = T + (uint64_t)PV(g, P_IDLE_AFTER_US) * 1000;

		for (k2 = c->k; tick_at(g, c->v, k2) < g->end_ns &&
				!slot_busy(g, c->v, tick_at(g, c->v, k2)); k2++)
			;
		bursts_until(g, c, idle_at);
		run_user(g, c, idle_at);
		idle_entry(g, c, tick_at(g, c->v, k2) < g->end_ns ? tick_at(g, c->v, k2) : 0);
	}
}

/* ---- the header, the merge ---------------------------------------------------------------- */

static int header(struct tgen *g, FILE *out)
{
	struct vpmc_pmu_config cfg;
	char line[4096];
	size_t i, n;

	vpmc_pmu_config_default(&cfg, VPMC_VENDOR_AMD);
	cfg.version = 1;
	cfg.nr_gp = 6;
	cfg.host_kernel = (unsigned int)PV(g, P_HOST_KERNEL);
	if (vpmc_vtr_write_header(out, &cfg, "gen", "timer-storm"))
		return VPMC_ERR_IO;
	n = (size_t)snprintf(line, sizeof(line), "workload=timer-storm version=1 seed=%" PRIu64
			     " vcpus=%u seconds=%" PRIu64, g->o->seed, g->nr_vcpus,
			     (uint64_t)(g->end_ns / 1000000000ULL));
	for (i = 0; i < P_NR; i++) {
		if (i == P_VCPUS || i == P_SECONDS || i == P_SEED || !g->o->given[i])
			continue;
		if (n + strlen(tparams[i].p.name) + strlen(g->o->given[i]) + 3 >= sizeof(line))
			break;
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s=%s", tparams[i].p.name,
				      g->o->given[i]);
	}
	strcat(line, "\n");
	return vpmc_vtr_write_gen(out, line, true, VPMC_GAPS_BASE);
}

static int tgen_init(struct tgen *g, const struct vpmc_timerstorm_opts *o)
{
	uint32_t v;

	memset(g, 0, sizeof(*g));
	g->o = o;
	g->nr_vcpus = (uint32_t)o->v[P_VCPUS];
	g->end_ns = (uint64_t)o->v[P_SECONDS] * 1000000000ULL;
	g->tick_ns = 1000000000ULL / (uint64_t)o->v[P_GUEST_HZ];
	g->slot_ns = (uint64_t)o->v[P_SLOT_MS] * 1000000ULL;
	g->nr_slots = (g->end_ns + g->slot_ns - 1) / g->slot_ns;
	g->host_period = o->v[P_HOST_HZ] ? 1000000000ULL / (uint64_t)o->v[P_HOST_HZ] : 0;
	g->burst_period = o->v[P_PROFILER] ? (uint64_t)o->v[P_P0_PERIOD_MS] * 1000000ULL : 0;
	g->vc = calloc(g->nr_vcpus, sizeof(*g->vc));
	if (!g->vc)
		return VPMC_ERR_NOMEM;
	for (v = 0; v < g->nr_vcpus; v++) {
		struct tvcpu *c = &g->vc[v];

		c->v = v;
		xseed(&c->ticks, o->seed, v, 1);
		xseed(&c->host, o->seed, v, 2);
		xseed(&c->prof, o->seed, v, 3);
		c->host_next = g->host_period ? (uint64_t)(xuniform(&c->host) *
							   (double)g->host_period) : 0;
		c->big_at = UINT64_MAX;
		c->burst_next = g->burst_period ? (uint64_t)(xuniform(&c->prof) *
							     (double)g->burst_period) : 0;
	}
	return 0;
}

static void tgen_release(struct tgen *g)
{
	uint32_t v;

	for (v = 0; g->vc && v < g->nr_vcpus; v++)
		free(g->vc[v].q);
	free(g->vc);
}

/* The vCPU whose next event comes first (equal times: the lowest index), refilling; NULL at the
 * end. */
static struct tvcpu *next_vcpu(struct tgen *g)
{
	struct tvcpu *best = NULL;
	uint32_t v;

	for (v = 0; v < g->nr_vcpus; v++) {
		struct tvcpu *c = &g->vc[v];

		while (c->qi == c->nq && !c->done && !g->err)
			chunk(g, c);
		if (c->qi == c->nq)
			continue;
		if (!best || c->q[c->qi].time_ns < best->q[best->qi].time_ns)
			best = c;
	}
	return best;
}

int vpmc_timerstorm_gen(const struct vpmc_timerstorm_opts *o, FILE *out, char *err,
			size_t errlen)
{
	struct tgen g;
	struct tvcpu *c;
	uint64_t events = 0;
	int ret = tgen_init(&g, o);

	if (!ret)
		ret = header(&g, out);
	while (!ret && (c = next_vcpu(&g)) != NULL) {
		ret = vpmc_vtr_write_event(out, &c->q[c->qi++]);
		if (!(++events % GEN_PROGRESS_EVERY) && o->progress)
			o->progress(o->progress_data, c->q[c->qi - 1].time_ns, g.end_ns);
	}
	if (!ret && g.err)
		ret = g.err;
	if (!ret)
		ret = vpmc_vtr_write_end(out, events); /* format version 2: a cut file is told */
	tgen_release(&g);
	if (ret)
		snprintf(err, errlen, "%s", vpmc_strerror(ret));
	return ret;
}
