// SPDX-License-Identifier: GPL-2.0-only
/* model_harness.c - Drive one modeled vCPU through the public API and record what it observes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "harness.h"

const struct mh_vendor mh_intel = {
	.name = "intel",
	.vendor = VPMC_VENDOR_INTEL,
	.evtsel0 = MSR_P6_EVNTSEL0,
	.ctr0 = MSR_IA32_PMC0,
	.stride = 1,
	.global_status = MSR_CORE_PERF_GLOBAL_STATUS,
	.global_ctrl = MSR_CORE_PERF_GLOBAL_CTRL,
	.status_clr = MSR_CORE_PERF_GLOBAL_OVF_CTRL,
	.ev_br = EV_BR_INTEL,
};

const struct mh_vendor mh_amd = {
	.name = "amd",
	.vendor = VPMC_VENDOR_AMD,
	.evtsel0 = MSR_F15H_PERF_CTL0,
	.ctr0 = MSR_F15H_PERF_CTR0,
	.stride = 2,
	.global_status = MSR_AMD64_PERF_CNTR_GLOBAL_STATUS,
	.global_ctrl = MSR_AMD64_PERF_CNTR_GLOBAL_CTL,
	.status_clr = MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR,
	.ev_br = EV_BR_AMD,
};

static void mh_record(void *data, const struct vpmc_obs *obs)
{
	struct mh *h = data;

	if (h->nr_obs == h->cap_obs) {
		size_t cap = h->cap_obs ? 2 * h->cap_obs : 64;
		struct vpmc_obs *p = realloc(h->obs, cap * sizeof(*p));

		if (!p) /* not ck_assert: it costs a write per call, and this runs per event */
			ck_abort_msg("out of memory recording observations");
		h->obs = p;
		h->cap_obs = cap;
	}
	h->obs[h->nr_obs++] = *obs;
}

void mh_new(struct mh *h, const struct vpmc_pmu_config *cfg, const struct vpmc_policy *p)
{
	const struct vpmc_observer o = { .fn = mh_record, .data = h };
	int err;

	memset(h, 0, sizeof(*h));
	h->t = 1000;
	err = vpmc_vcpu_new(&h->v, cfg, p, 0, &o);
	ck_assert_msg(err == 0, "vpmc_vcpu_new: %s", vpmc_strerror(err));
}

void mh_new_vendor(struct mh *h, enum vpmc_vendor vendor, const struct vpmc_policy *p)
{
	struct vpmc_pmu_config cfg;

	vpmc_pmu_config_default(&cfg, vendor);
	mh_new(h, &cfg, p);
}

void mh_free(struct mh *h)
{
	vpmc_vcpu_free(h->v);
	free(h->obs);
	memset(h, 0, sizeof(*h));
}

uint64_t mh_entry(struct mh *h)
{
	h->t += MH_STEP;
	vpmc_vcpu_entry(h->v, h->t);
	return h->t;
}

uint64_t mh_retire(struct mh *h, bool branch)
{
	h->t += MH_STEP;
	vpmc_vcpu_retire(h->v, h->t, branch, VPMC_CPL_KEEP);
	return h->t;
}

uint64_t mh_guest_cpl(struct mh *h, uint64_t insn, uint64_t br, uint8_t cpl)
{
	/* N instructions over N ns: instruction i retires at the previous event's time + i. */
	h->t += insn;
	vpmc_vcpu_guest(h->v, h->t, insn, br, cpl);
	return h->t;
}

uint64_t mh_guest(struct mh *h, uint64_t insn, uint64_t br)
{
	return mh_guest_cpl(h, insn, br, VPMC_CPL_KEEP);
}

int mh_wrmsr(struct mh *h, uint32_t msr, uint64_t val)
{
	h->t += MH_STEP;
	return vpmc_vcpu_wrmsr(h->v, h->t, msr, val);
}

int mh_rdmsr(struct mh *h, uint32_t msr, uint64_t *val)
{
	h->t += MH_STEP;
	return vpmc_vcpu_rdmsr(h->v, h->t, msr, val);
}

int mh_rdpmc(struct mh *h, uint32_t ecx, uint64_t *val)
{
	h->t += MH_STEP;
	return vpmc_vcpu_rdpmc(h->v, h->t, ecx, val);
}

void mh_lvtpc(struct mh *h, uint32_t val)
{
	h->t += MH_STEP;
	vpmc_vcpu_write_lvtpc(h->v, h->t, val);
}

/* A #GP is injected instead of skipping the instruction: nothing retires (semantics §3.2). */
static int mh_finish_insn(struct mh *h, int rc)
{
	if (rc == 0)
		mh_retire(h, false);
	mh_entry(h);
	return rc;
}

int mh_wrmsr_insn(struct mh *h, uint32_t msr, uint64_t val)
{
	return mh_finish_insn(h, mh_wrmsr(h, msr, val));
}

int mh_rdmsr_insn(struct mh *h, uint32_t msr, uint64_t *val)
{
	return mh_finish_insn(h, mh_rdmsr(h, msr, val));
}

int mh_rdpmc_insn(struct mh *h, uint32_t ecx, uint64_t *val)
{
	return mh_finish_insn(h, mh_rdpmc(h, ecx, val));
}

void mh_emulated(struct mh *h, bool branch)
{
	mh_retire(h, branch);
	mh_entry(h);
}

void mh_wrmsr_ok(struct mh *h, uint32_t msr, uint64_t val, const char *what)
{
	int rc = mh_wrmsr_insn(h, msr, val);

	ck_assert_msg(rc == 0, "%s: WRMSR %#x <- %#llx took #GP", what, msr,
		      (unsigned long long)val);
}

uint64_t mh_rdpmc_ok(struct mh *h, uint32_t ecx, const char *what)
{
	uint64_t val = 0;
	int rc = mh_rdpmc_insn(h, ecx, &val);

	ck_assert_msg(rc == 0, "%s: RDPMC %#x took #GP", what, ecx);
	return val;
}

uint64_t mh_rdmsr_ok(struct mh *h, uint32_t msr, const char *what)
{
	uint64_t val = 0;
	int rc = mh_rdmsr_insn(h, msr, &val);

	ck_assert_msg(rc == 0, "%s: RDMSR %#x took #GP", what, msr);
	return val;
}

void mh_arm(struct mh *h, const struct mh_vendor *vd, unsigned int i, uint64_t evtsel,
	    uint64_t preset)
{
	mh_wrmsr_ok(h, vd->global_ctrl, 0, "arm");
	mh_wrmsr_ok(h, mh_ctr(vd, i), preset, "arm");
	mh_wrmsr_ok(h, mh_evtsel(vd, i), evtsel, "arm");
	mh_wrmsr_ok(h, vd->global_ctrl, 1ULL << i, "arm");
}

size_t mh_count(const struct mh *h, enum vpmc_obs_kind kind, size_t from)
{
	size_t i, n = 0;

	for (i = from; i < h->nr_obs; i++)
		n += h->obs[i].kind == kind;
	return n;
}

const struct vpmc_obs *mh_find(const struct mh *h, enum vpmc_obs_kind kind, int counter,
			       size_t from)
{
	size_t i;

	for (i = from; i < h->nr_obs; i++)
		if (h->obs[i].kind == kind && (counter == -2 || h->obs[i].counter == counter))
			return &h->obs[i];
	return NULL;
}

const struct vpmc_obs *mh_expect_overflow(const struct mh *h, size_t from, int counter,
					  uint64_t t, int emulated, const char *what)
{
	const struct vpmc_obs *o = mh_find(h, VPMC_OBS_OVERFLOW, counter, from);

	ck_assert_msg(o, "%s: no overflow of counter %d", what, counter);
	ck_assert_msg(o->time_ns == t && (emulated < 0 || o->emulated == !!emulated),
		      "%s: overflow of counter %d at %llu (emulated %d), want %llu (emulated %d)",
		      what, counter, (unsigned long long)o->time_ns, o->emulated,
		      (unsigned long long)t, emulated);
	return o;
}

const struct vpmc_obs *mh_expect_pmi(const struct mh *h, size_t from, uint64_t t, bool delivered,
				     const char *what)
{
	const struct vpmc_obs *o = mh_find(h, VPMC_OBS_PMI, -2, from);

	ck_assert_msg(o, "%s: no PMI", what);
	ck_assert_msg(o->time_ns == t && o->delivered == delivered,
		      "%s: PMI at %llu (delivered %d), want %llu (delivered %d)", what,
		      (unsigned long long)o->time_ns, o->delivered, (unsigned long long)t,
		      delivered);
	return o;
}

bool mh_obs_equal(const struct vpmc_obs *a, const struct vpmc_obs *b)
{
	return a->kind == b->kind && a->time_ns == b->time_ns && a->vcpu == b->vcpu &&
	       a->counter == b->counter && a->rdpmc == b->rdpmc && a->index == b->index &&
	       a->value == b->value && a->gp == b->gp && a->emulated == b->emulated &&
	       a->delivered == b->delivered && a->global_status == b->global_status &&
	       a->nr_reprogrammed == b->nr_reprogrammed && a->nr_resumed == b->nr_resumed &&
	       a->nr_created == b->nr_created && a->created == b->created &&
	       a->seg_insn == b->seg_insn && a->seg_br == b->seg_br;
}

void mh_obs_format(const struct vpmc_obs *o, char *buf, size_t len)
{
	snprintf(buf, len,
		 "{kind %d t %llu vcpu %u counter %d rdpmc %d index %#x value %#llx gp %d emulated %d "
		 "delivered %d status %#llx drain %u/%u/%u created %d seg %llu/%llu}",
		 o->kind, (unsigned long long)o->time_ns, o->vcpu, o->counter, o->rdpmc, o->index,
		 (unsigned long long)o->value, o->gp, o->emulated, o->delivered,
		 (unsigned long long)o->global_status, o->nr_reprogrammed, o->nr_resumed,
		 o->nr_created, o->created, (unsigned long long)o->seg_insn,
		 (unsigned long long)o->seg_br);
}
