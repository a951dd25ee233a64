// SPDX-License-Identifier: GPL-2.0-only
/*
 * overlay.c - An assumed guest profiler: Linux perf's counter programming and PMI handler as
 * intercepted MSR accesses (arch/x86/events/core.c, intel/core.c, amd/core.c).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "msr-index.h"
#include "numparse.h"
#include "overlay.h"
#include "perf_period.h"

/* intel_pmu_enable_fixed(): count at CPL 0 and above, PMI on overflow (0xb) */
#define FIXED_BITS_OS_USR_PMI (INTEL_FIXED_0_KERNEL | INTEL_FIXED_0_USER | INTEL_FIXED_0_ENABLE_PMI)
#define PMI_LOOPS_MAX 100 /* intel_pmu_handle_irq(): "irq loop stuck" */

static const char *const event_names[] = {
	[OVERLAY_EV_INSTRUCTIONS] = "instructions",
	[OVERLAY_EV_BRANCHES] = "branches",
	[OVERLAY_EV_CYCLES] = "cycles",
};

/* A whole unsigned number, decimal or 0x / 0X hex, in [@lo, @hi] (vpmc__parse_u64()). 32
 * characters or more are out of range, leading zeros or not, as they always were here.
 * Return: 0, -1 if @s is no such number, -2 if it is one outside [@lo, @hi]. */
static int parse_num(const char *s, size_t len, uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t v;
	int err = vpmc__parse_u64(s, len, VPMC__NUM_HEX | VPMC__NUM_HEX_X, lo, hi, &v);

	if (err)
		return err;
	if (len >= 32)
		return -2;
	*out = v;
	return 0;
}

/* EVENT of gpN=EVENT (@len bytes at @s): a name, or a raw unit mask and event select. Return 0,
 * or VPMC_ERR_INVAL with @why set. */
static int overlay_parse_event(struct overlay_ctr *c, const char *s, size_t len,
			       struct vpmc__errbuf *why)
{
	size_t i;
	int err;

	for (i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++) {
		if (strlen(event_names[i]) == len && !strncmp(s, event_names[i], len)) {
			c->event = (enum overlay_event)i;
			return 0;
		}
	}
	c->event = OVERLAY_EV_RAW;
	/* the event select and unit mask bytes of IA32_PERFEVTSELx / PERF_CTLx */
	err = parse_num(s, len, 1, 0xffff, &c->raw);
	if (err == -2)
		return vpmc__set_error(why, VPMC_ERR_INVAL, "raw event '%.*s' is out of range: "
				       "expected 0x1 to 0xffff (0xUUEE: unit mask UU, event select "
				       "EE)", (int)len, s);
	if (err)
		return vpmc__set_error(why, VPMC_ERR_INVAL, "'%.*s' is not an event: expected "
				       "instructions, branches, cycles or a raw 0xUUEE",
				       (int)len, s);
	return 0;
}

/* @why for a bad period: perf_event_open() refuses a sample_period with bit 63 set; set_period()
 * clamps to max_period. Return: VPMC_ERR_INVAL. */
static int period_range_error(const char *p, size_t len, struct vpmc__errbuf *why)
{
	return vpmc__set_error(why, VPMC_ERR_INVAL, "period=%.*s: expected 1 to %" PRId64 " events "
			       "(INT64_MAX, as perf_event_open() takes); a period above the "
			       "counter's max period is clamped to it at each re-arm, as "
			       "x86_perf_event_set_period() does", (int)len, p, INT64_MAX);
}

/* ",period=P" items after the counter (@p: the first comma, or NULL). Return 0, or
 * VPMC_ERR_INVAL with @why set. */
static int overlay_parse_period(struct overlay_ctr *c, const char *p, struct vpmc__errbuf *why)
{
	const char *comma, *first = NULL;
	size_t len;

	for (; p; p = comma) {
		p++;
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (len < 7 || strncmp(p, "period=", 7))
			return vpmc__set_error(why, VPMC_ERR_INVAL, "expected ,period=P after the "
					       "counter, found '%.*s'", (int)len, p);
		if (first)
			return vpmc__set_error(why, VPMC_ERR_INVAL, "period given twice ('%.*s', "
					       "'%.*s')", (int)strcspn(first, ","), first,
					       (int)len - 7, p + 7);
		first = p + 7;
		if (parse_num(p + 7, len - 7, 1, INT64_MAX, &c->period))
			return period_range_error(p + 7, len - 7, why);
	}
	return 0;
}

static const char *overlay_ctr_name(const struct overlay_ctr *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%u", c->fixed ? "fixed" : "gp", c->index);
	return buf;
}

int overlay_add(struct overlay *ov, const char *spec, struct vpmc__errbuf *why)
{
	struct overlay_ctr c;
	const char *p, *comma, *eq;
	char name[16];
	size_t namelen;
	unsigned int i;
	uint64_t n;

	memset(&c, 0, sizeof(c));
	c.period = OVERLAY_DEFAULT_PERIOD;
	comma = strchr(spec, ',');
	namelen = comma ? (size_t)(comma - spec) : strlen(spec);
	eq = memchr(spec, '=', namelen);
	p = !strncmp(spec, "gp", 2) ? spec + 2 : !strncmp(spec, "fixed", 5) ? spec + 5 : NULL;
	if (!p || parse_num(p, (size_t)((eq ? eq : spec + namelen) - p), 0, 31, &n))
		return vpmc__set_error(why, VPMC_ERR_INVAL, "expected gpN=EVENT[,period=P] or "
				       "fixedN[,period=P]");
	c.fixed = spec[0] == 'f';
	c.index = (unsigned int)n;
	if (c.fixed && eq)
		return vpmc__set_error(why, VPMC_ERR_INVAL, "fixed counters count their "
				       "architectural event: no =EVENT");
	if (!c.fixed && !eq)
		return vpmc__set_error(why, VPMC_ERR_INVAL, "gpN needs =EVENT: instructions, "
				       "branches, cycles or a raw 0xUUEE");
	if ((!c.fixed && overlay_parse_event(&c, eq + 1, (size_t)(spec + namelen - eq - 1), why)) ||
	    overlay_parse_period(&c, comma, why))
		return VPMC_ERR_INVAL;
	for (i = 0; i < ov->nr; i++) {
		if (ov->ctr[i].fixed == c.fixed && ov->ctr[i].index == c.index)
			return vpmc__set_error(why, VPMC_ERR_INVAL, "%s given twice ('%s', '%s')",
					       overlay_ctr_name(&c, name, sizeof(name)),
					       ov->ctr[i].spec, spec);
	}
	if (ov->nr == OVERLAY_MAX_CTRS)
		return vpmc__set_error(why, VPMC_ERR_LIMIT, "too many counters");
	if (c.fixed)
		snprintf(c.spec, sizeof(c.spec), "fixed%u,period=%" PRIu64, c.index, c.period);
	else if (c.event == OVERLAY_EV_RAW)
		snprintf(c.spec, sizeof(c.spec), "gp%u=%#" PRIx64 ",period=%" PRIu64, c.index,
			 c.raw, c.period);
	else
		snprintf(c.spec, sizeof(c.spec), "gp%u=%s,period=%" PRIu64, c.index,
			 event_names[c.event], c.period);
	ov->ctr[ov->nr++] = c;
	return 0;
}

int overlay_check(const struct overlay *ov, const struct vpmc_pmu_config *cfg,
		  struct vpmc__errbuf *msg)
{
	bool amd = cfg->vendor == VPMC_VENDOR_AMD;
	unsigned int i;

	if (ov->nr && !cfg->version)
		return vpmc__set_error(msg, VPMC_ERR_INVAL, "--assume needs a vPMU; this trace's "
				       "%s PMU is version 0 (none)", amd ? "AMD" : "Intel");
	/* Intel's version 1 PMI handler (no global control) is not modeled */
	if (ov->nr && !amd && cfg->version < 2)
		return vpmc__set_error(msg, VPMC_ERR_INVAL, "--assume needs an Intel PMU with "
				       "global control (version 2 or later); this trace's Intel "
				       "PMU is version %u", cfg->version);
	for (i = 0; i < ov->nr; i++) {
		const struct overlay_ctr *c = &ov->ctr[i];
		unsigned int have = c->fixed ? cfg->nr_fixed : cfg->nr_gp;
		const char *name = c->fixed ? "fixed" : "gp", *kind = c->fixed ? "fixed" : "GP";
		const char *vendor = amd ? "AMD" : "Intel";

		if (c->index < have)
			continue;
		/* the counter as the user named it (c->spec adds the default period) */
		if (have > 1)
			return vpmc__set_error(msg, VPMC_ERR_INVAL, "--assume %s%u: the %s PMU has %u "
					       "%s counters (%s0 to %s%u)", name, c->index, vendor,
					       have, kind, name, name, have - 1);
		if (have)
			return vpmc__set_error(msg, VPMC_ERR_INVAL, "--assume %s%u: the %s PMU has one "
					       "%s counter (%s0)", name, c->index, vendor, kind, name);
		return vpmc__set_error(msg, VPMC_ERR_INVAL, "--assume %s%u: the %s PMU has no %s "
				       "counters", name, c->index, vendor, kind);
	}
	return 0;
}

/* x86_pmu.cntval_mask and x86_pmu.max_period (intel_pmu_init(), amd_pmu_init()). */
static uint64_t cntval_mask(const struct vpmc_pmu_config *cfg)
{
	return cfg->gp_width >= 64 ? UINT64_MAX : (1ULL << cfg->gp_width) - 1;
}

static int64_t max_period(const struct vpmc_pmu_config *cfg)
{
	if (cfg->vendor == VPMC_VENDOR_AMD)
		return (1LL << 47) - 1;
	return cfg->fw_writes ? (int64_t)(cntval_mask(cfg) >> 1) : (1LL << 31) - 1;
}

/* Guest perf drives counters through global control: Intel v2+, AMD PerfMonV2 (overlay_check()
 * leaves AMD version 1 as the only PMU without it). */
static bool has_global_ctrl(const struct vpmc_pmu_config *cfg)
{
	return cfg->version >= 2;
}

/* amd_pmu_refresh()'s perfctr_core: the F15H core MSRs exist (PerfMonV2, or more than the four
 * legacy counters), and amd_core_pmu_init() makes perf use them; else perf keeps amd_pmu's K7
 * MSRs (MSR_K7_EVNTSEL0, MSR_K7_PERFCTR0, four counters). */
static bool has_perfctr_core(const struct vpmc_pmu_config *cfg)
{
	return cfg->version >= 2 || cfg->nr_gp > AMD64_NUM_COUNTERS;
}

/* KVM global index of overlay counter @c. */
static unsigned int ctr_idx(const struct overlay_ctr *c)
{
	return c->fixed ? VPMC_FIXED_BASE + c->index : c->index;
}

/* x86_pmu_event_addr(): the counter MSR perf writes. */
static uint32_t ctr_msr(const struct overlay_ctr *c, const struct vpmc_pmu_config *cfg)
{
	if (cfg->vendor == VPMC_VENDOR_AMD)
		return has_perfctr_core(cfg) ? MSR_F15H_PERF_CTR0 + 2 * c->index
					     : MSR_K7_PERFCTR0 + c->index;
	if (c->fixed)
		return MSR_CORE_PERF_FIXED_CTR0 + c->index;
	return (cfg->fw_writes ? MSR_IA32_PMC0 : MSR_IA32_PERFCTR0) + c->index;
}

/* x86_pmu_config_addr(): the event select MSR of GP counter @c. */
static uint32_t sel_msr(const struct overlay_ctr *c, const struct vpmc_pmu_config *cfg)
{
	if (cfg->vendor == VPMC_VENDOR_AMD)
		return has_perfctr_core(cfg) ? MSR_F15H_PERF_CTL0 + 2 * c->index
					     : MSR_K7_EVNTSEL0 + c->index;
	return MSR_P6_EVNTSEL0 + c->index;
}

/* hwc->config of a sampling event counting at every CPL (x86_pmu_hw_config()). */
static uint64_t ctr_config(const struct overlay_ctr *c, const struct vpmc_pmu_config *cfg)
{
	uint64_t ev;

	switch (c->event) {
	case OVERLAY_EV_INSTRUCTIONS:
		ev = 0xc0;
		break;
	case OVERLAY_EV_BRANCHES:
		ev = cfg->vendor == VPMC_VENDOR_AMD ? 0xc2 : 0xc4;
		break;
	case OVERLAY_EV_CYCLES:
		ev = cfg->vendor == VPMC_VENDOR_AMD ? 0x76 : 0x3c;
		break;
	default:
		ev = c->raw;
		break;
	}
	return ev | ARCH_PERFMON_EVENTSEL_INT | ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS;
}

/* One intercepted guest instruction: exit, the access, its retirement at CPL 0, entry. */
static int guest_access(const struct overlay_sink *sink, uint32_t vcpu, uint64_t t,
			enum vpmc_event_type type, uint32_t index, uint64_t *value)
{
	static const char *const reason[] = {
		[VPMC_EV_WRMSR] = "MSR_WRITE",
		[VPMC_EV_RDMSR] = "MSR_READ",
		[VPMC_EV_RDPMC] = "RDPMC",
	};
	struct vpmc_event ev;
	uint64_t dummy;
	int err;

	memset(&ev, 0, sizeof(ev));
	ev.time_ns = t;
	ev.vcpu = vcpu;
	ev.cpl = VPMC_CPL_KEEP;
	ev.type = VPMC_EV_EXIT;
	snprintf(ev.reason, sizeof(ev.reason), "%s", reason[type]);
	err = sink->apply(sink->data, &ev, &dummy);
	if (err)
		return err;
	ev.reason[0] = '\0';
	ev.type = type;
	ev.index = index;
	ev.value = type == VPMC_EV_WRMSR ? *value : 0;
	err = sink->apply(sink->data, &ev, type == VPMC_EV_WRMSR ? &dummy : value);
	if (err)
		return err;
	memset(&ev, 0, sizeof(ev));
	ev.time_ns = t;
	ev.vcpu = vcpu;
	ev.type = VPMC_EV_RETIRE;
	ev.cpl = 0;
	err = sink->apply(sink->data, &ev, &dummy);
	if (err)
		return err;
	ev.type = VPMC_EV_ENTRY;
	ev.cpl = VPMC_CPL_KEEP;
	return sink->apply(sink->data, &ev, &dummy);
}

static int wrmsr(const struct overlay_sink *sink, uint32_t vcpu, uint64_t t, uint32_t msr,
		 uint64_t v)
{
	return guest_access(sink, vcpu, t, VPMC_EV_WRMSR, msr, &v);
}

/* x86_perf_event_set_period(): re-arm with what is left of the period, and write -left. */
static int set_period(const struct overlay_ctr *c, const struct vpmc_pmu_config *cfg,
		      struct overlay_guest *g, unsigned int i, const struct overlay_sink *sink,
		      uint32_t vcpu, uint64_t t)
{
	int64_t left = perf_period_left(&g->period_left[i], (int64_t)c->period);

	if (left > max_period(cfg))
		left = max_period(cfg);
	g->prev_count[i] = (uint64_t)-left;
	return wrmsr(sink, vcpu, t, ctr_msr(c, cfg), (uint64_t)-left & cntval_mask(cfg));
}

/* x86_perf_event_update(): RDPMC, and take the events since the last read off period_left. */
static int event_update(const struct overlay_ctr *c, const struct vpmc_pmu_config *cfg,
			struct overlay_guest *g, unsigned int i, const struct overlay_sink *sink,
			uint32_t vcpu, uint64_t t)
{
	unsigned int shift = 64 - (cfg->gp_width >= 64 ? 64 : cfg->gp_width);
	uint64_t now = 0, delta;
	uint32_t ecx = c->fixed ? INTEL_RDPMC_FIXED | c->index : c->index;
	int err = guest_access(sink, vcpu, t, VPMC_EV_RDPMC, ecx, &now);

	if (err)
		return err;
	delta = ((now << shift) - (g->prev_count[i] << shift)) >> shift;
	g->prev_count[i] = now;
	g->period_left[i] -= (int64_t)delta;
	return 0;
}

/* __intel_pmu_enable_all() writes x86_pmu.intel_ctrl: every counter the PMU has. */
static uint64_t all_counters(const struct vpmc_pmu_config *cfg)
{
	uint64_t gp = (1ULL << cfg->nr_gp) - 1;

	if (cfg->vendor == VPMC_VENDOR_AMD)
		return gp;
	return gp | (((1ULL << cfg->nr_fixed) - 1) << VPMC_FIXED_BASE);
}

static uint32_t global_ctrl_msr(const struct vpmc_pmu_config *cfg)
{
	return cfg->vendor == VPMC_VENDOR_AMD ? MSR_AMD64_PERF_CNTR_GLOBAL_CTL
					      : MSR_CORE_PERF_GLOBAL_CTRL;
}

/* The overlay counter at KVM index @idx, or -1. */
static int overlay_find(const struct overlay *ov, unsigned int idx)
{
	unsigned int i;

	for (i = 0; i < ov->nr; i++) {
		if (ctr_idx(&ov->ctr[i]) == idx)
			return (int)i;
	}
	return -1;
}

/*
 * x86_pmu_enable() on an AMD PMU without PerfMonV2 (amd_pmu): x86_pmu_disable() ->
 * amd_pmu_disable_all() -> x86_pmu_disable_all() and amd_pmu_check_overflow() touch only active
 * counters, and none is active yet; x86_pmu_start(PERF_EF_RELOAD) sets each period
 * (x86_perf_event_set_period()), and its amd_pmu_enable_event() -> x86_pmu_enable_event() writes
 * nothing while cpuc->enabled is 0; then amd_pmu_enable_all() writes each active counter's event
 * select with EN (__x86_pmu_enable_event()), in counter order.
 */
static int overlay_program_amd_v1(const struct overlay *ov, const struct vpmc_pmu_config *cfg,
				  struct overlay_guest *g, uint32_t vcpu, uint64_t t,
				  const struct overlay_sink *sink)
{
	unsigned int i, idx;
	int err = 0, n;

	for (i = 0; !err && i < ov->nr; i++) {
		g->period_left[i] = (int64_t)ov->ctr[i].period;
		err = set_period(&ov->ctr[i], cfg, g, i, sink, vcpu, t);
	}
	for (idx = 0; !err && idx < cfg->nr_gp; idx++) {
		n = overlay_find(ov, idx);
		if (n >= 0)
			err = wrmsr(sink, vcpu, t, sel_msr(&ov->ctr[n], cfg),
				    ctr_config(&ov->ctr[n], cfg) | ARCH_PERFMON_EVENTSEL_ENABLE);
	}
	return err;
}

int overlay_program(const struct overlay *ov, const struct vpmc_pmu_config *cfg,
		    struct overlay_guest *g, uint32_t vcpu, uint64_t t,
		    const struct overlay_sink *sink)
{
	unsigned int i;
	int err;

	if (!ov->nr)
		return 0;
	if (!has_global_ctrl(cfg))
		return overlay_program_amd_v1(ov, cfg, g, vcpu, t, sink);
	/* x86_pmu_disable() */
	err = wrmsr(sink, vcpu, t, global_ctrl_msr(cfg), 0);
	for (i = 0; !err && i < ov->nr; i++) {
		const struct overlay_ctr *c = &ov->ctr[i];
		uint64_t ctrl = 0;

		/* x86_pmu_start(PERF_EF_RELOAD): set the period, then enable the event */
		g->period_left[i] = (int64_t)c->period;
		err = set_period(c, cfg, g, i, sink, vcpu, t);
		if (err)
			break;
		if (!c->fixed) {
			err = wrmsr(sink, vcpu, t, sel_msr(c, cfg),
				    ctr_config(c, cfg) | ARCH_PERFMON_EVENTSEL_ENABLE);
			continue;
		}
		/* intel_pmu_enable_fixed(): read-modify-write of FIXED_CTR_CTRL */
		err = guest_access(sink, vcpu, t, VPMC_EV_RDMSR, MSR_CORE_PERF_FIXED_CTR_CTRL,
				   &ctrl);
		if (!err) {
			ctrl &= ~(INTEL_FIXED_BITS_MASK << (INTEL_FIXED_BITS_STRIDE * c->index));
			ctrl |= FIXED_BITS_OS_USR_PMI << (INTEL_FIXED_BITS_STRIDE * c->index);
			err = wrmsr(sink, vcpu, t, MSR_CORE_PERF_FIXED_CTR_CTRL, ctrl);
		}
	}
	/* x86_pmu_enable() -> __intel_pmu_enable_all() / amd_pmu_v2_enable_all() */
	return err ? err : wrmsr(sink, vcpu, t, global_ctrl_msr(cfg), all_counters(cfg));
}

/* intel_pmu_handle_irq() on a late-ack CPU, with handle_pmi_common() for perf's counters. */
static int overlay_pmi_handler_intel(const struct overlay *ov, const struct vpmc_pmu_config *cfg,
			     struct overlay_guest *g, uint32_t vcpu, uint64_t t,
			     const struct overlay_sink *sink)
{
	uint64_t status = 0;
	unsigned int loops = 0, bit;
	int err;

	err = wrmsr(sink, vcpu, t, MSR_CORE_PERF_GLOBAL_CTRL, 0);
	if (!err)
		err = guest_access(sink, vcpu, t, VPMC_EV_RDMSR, MSR_CORE_PERF_GLOBAL_STATUS,
				   &status);
	while (!err && status && ++loops <= PMI_LOOPS_MAX) {
		err = wrmsr(sink, vcpu, t, MSR_CORE_PERF_GLOBAL_OVF_CTRL, status);
		for (bit = 0; !err && bit < 64; bit++) {
			int i = (status & (1ULL << bit)) ? overlay_find(ov, bit) : -1;

			if (i < 0) /* not one of perf's active events */
				continue;
			err = event_update(&ov->ctr[i], cfg, g, (unsigned int)i, sink, vcpu, t);
			if (!err)
				err = set_period(&ov->ctr[i], cfg, g, (unsigned int)i, sink, vcpu, t);
		}
		if (!err)
			err = guest_access(sink, vcpu, t, VPMC_EV_RDMSR,
					   MSR_CORE_PERF_GLOBAL_STATUS, &status);
	}
	if (!err)
		err = wrmsr(sink, vcpu, t, MSR_CORE_PERF_GLOBAL_CTRL, all_counters(cfg));
	/* late ack: unmask LVTPC (KVM masked it when it delivered the PMI) */
	return err ? err : wrmsr(sink, vcpu, t, X2APIC_MSR_LVTPC, APIC_DM_NMI);
}

/* amd_pmu_v2_handle_irq(): every active counter is read; overflowed ones get a new period. */
static int overlay_pmi_handler_amd(const struct overlay *ov, const struct vpmc_pmu_config *cfg,
			   struct overlay_guest *g, uint32_t vcpu, uint64_t t,
			   const struct overlay_sink *sink)
{
	uint64_t status = 0;
	unsigned int i;
	int err;

	err = wrmsr(sink, vcpu, t, MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0);
	if (!err)
		err = guest_access(sink, vcpu, t, VPMC_EV_RDMSR, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS,
				   &status);
	if (!err && status) {
		for (i = 0; !err && i < ov->nr; i++) {
			uint64_t mask = 1ULL << ov->ctr[i].index;

			err = event_update(&ov->ctr[i], cfg, g, i, sink, vcpu, t);
			if (err || !(status & mask))
				continue;
			status &= ~mask;
			err = set_period(&ov->ctr[i], cfg, g, i, sink, vcpu, t);
		}
		/* "Clear overflow and freeze bits" */
		if (!err)
			err = wrmsr(sink, vcpu, t, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, ~status);
	}
	return err ? err : wrmsr(sink, vcpu, t, MSR_AMD64_PERF_CNTR_GLOBAL_CTL, all_counters(cfg));
}

/*
 * amd_pmu_handle_irq() without PerfMonV2 (and without BRS, which adds no MSR access here):
 * x86_pmu_handle_irq() unmasks LVTPC first (apic_write(APIC_LVTPC, APIC_DM_NMI); x2APIC WRMSR),
 * then for each active counter in counter order reads it (x86_perf_event_update(): RDPMC); a
 * counter whose top bit (cntval_bits - 1) is still set has not overflowed and is skipped, the
 * others are re-armed (x86_perf_event_set_period(): WRMSR counter = -left) and sampled. Nothing
 * stops the counters: they count the handler's own instructions.
 */
static int overlay_pmi_handler_amd_v1(const struct overlay *ov, const struct vpmc_pmu_config *cfg,
				      struct overlay_guest *g, uint32_t vcpu, uint64_t t,
				      const struct overlay_sink *sink)
{
	uint64_t top = 1ULL << (cfg->gp_width - 1);
	unsigned int idx;
	int err, i;

	err = wrmsr(sink, vcpu, t, X2APIC_MSR_LVTPC, APIC_DM_NMI);
	for (idx = 0; !err && idx < cfg->nr_gp; idx++) {
		i = overlay_find(ov, idx);
		if (i < 0)
			continue;
		err = event_update(&ov->ctr[i], cfg, g, (unsigned int)i, sink, vcpu, t);
		if (err || (g->prev_count[i] & top))
			continue;
		err = set_period(&ov->ctr[i], cfg, g, (unsigned int)i, sink, vcpu, t);
	}
	return err;
}

int overlay_pmi_handler(const struct overlay *ov, const struct vpmc_pmu_config *cfg,
			struct overlay_guest *g, uint32_t vcpu, uint64_t t,
			const struct overlay_sink *sink)
{
	if (!ov->nr)
		return 0;
	if (!has_global_ctrl(cfg))
		return overlay_pmi_handler_amd_v1(ov, cfg, g, vcpu, t, sink);
	if (cfg->vendor == VPMC_VENDOR_AMD)
		return overlay_pmi_handler_amd(ov, cfg, g, vcpu, t, sink);
	return overlay_pmi_handler_intel(ov, cfg, g, vcpu, t, sink);
}

/* One assumed counter's MSRs that a trace's WRMSR may overwrite, with their SDM/APM names
 * (arch/x86/include/asm/msr-index.h for AMD). An event select written with the value
 * overlay_program() gave it changes nothing (kvm_pmu_set_msr() reprograms only when the value
 * differs). Return: true and @name set if @msr = @value undoes what overlay_program() wrote for
 * @c. */
static bool ctr_overwritten(const struct overlay_ctr *c, const struct vpmc_pmu_config *cfg,
			    uint32_t msr, uint64_t value, char *name, size_t len)
{
	unsigned int n = c->index;
	bool new_sel = value != (ctr_config(c, cfg) | ARCH_PERFMON_EVENTSEL_ENABLE);

	if (cfg->vendor == VPMC_VENDOR_AMD) {
		/* without perfctr_core or PerfMonV2 these MSRs #GP (amd_is_valid_msr()) */
		if (has_perfctr_core(cfg) && msr == MSR_F15H_PERF_CTR0 + 2 * n)
			return snprintf(name, len, "MSR_F15H_PERF_CTR%u", n), true;
		if (has_perfctr_core(cfg) && msr == MSR_F15H_PERF_CTL0 + 2 * n && new_sel)
			return snprintf(name, len, "MSR_F15H_PERF_CTL%u", n), true;
		/* the legacy K7 MSRs alias counters 0-3 (amd_msr_idx_to_pmc()) */
		if (n < 4 && msr == MSR_K7_PERFCTR0 + n)
			return snprintf(name, len, "MSR_K7_PERFCTR%u", n), true;
		if (n < 4 && msr == MSR_K7_EVNTSEL0 + n && new_sel)
			return snprintf(name, len, "MSR_K7_EVNTSEL%u", n), true;
		if (has_global_ctrl(cfg) && msr == MSR_AMD64_PERF_CNTR_GLOBAL_CTL &&
		    !(value & (1ULL << n)))
			return snprintf(name, len, "PerfCntrGlobalCtl"), true;
		return false;
	}
	if (c->fixed) {
		if (msr == MSR_CORE_PERF_FIXED_CTR0 + n)
			return snprintf(name, len, "IA32_FIXED_CTR%u", n), true;
		if (msr == MSR_CORE_PERF_FIXED_CTR_CTRL &&
		    ((value >> (INTEL_FIXED_BITS_STRIDE * n)) & INTEL_FIXED_BITS_MASK) !=
		    FIXED_BITS_OS_USR_PMI)
			return snprintf(name, len, "IA32_FIXED_CTR_CTRL"), true;
		if (msr == MSR_CORE_PERF_GLOBAL_CTRL && !(value & (1ULL << (VPMC_FIXED_BASE + n))))
			return snprintf(name, len, "IA32_PERF_GLOBAL_CTRL"), true;
		return false;
	}
	if (msr == MSR_IA32_PERFCTR0 + n)
		return snprintf(name, len, "IA32_PMC%u", n), true;
	if (msr == MSR_IA32_PMC0 + n)
		return snprintf(name, len, "IA32_A_PMC%u", n), true;
	if (msr == MSR_P6_EVNTSEL0 + n && new_sel)
		return snprintf(name, len, "IA32_PERFEVTSEL%u", n), true;
	if (msr == MSR_CORE_PERF_GLOBAL_CTRL && !(value & (1ULL << n)))
		return snprintf(name, len, "IA32_PERF_GLOBAL_CTRL"), true;
	return false;
}

int overlay_msr_conflict(const struct overlay *ov, const struct vpmc_pmu_config *cfg,
			 uint32_t msr, uint64_t value, char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < ov->nr; i++) {
		if (ctr_overwritten(&ov->ctr[i], cfg, msr, value, name, len))
			return (int)i;
	}
	return -1;
}
