// SPDX-License-Identifier: GPL-2.0-only
/* nested.c - Round trips from a trace (nested-gpc.md §6): a per-vCPU state machine over
 * kvm_exit, kvm_nested_vmexit, kvm_nested_intercepts, kvm_nested_vmenter / vmrun,
 * kvm_nested_vmexit_inject, kvm_nested_vmenter_failed and kvm_entry, as the trace layer's
 * reader returns them with vpmc_reader_opts.nested. What the trace cannot tell comes from the
 * options, then the .vtr's "!nested", then the defaults; the report says which. */
#include "config.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "nested-local.h"

static const char *const kind_names[NK_NR] = {
	[NK_CPUID] = "reflected-cpuid",	 [NK_MSR] = "msr-intercept",
	[NK_IO] = "io-intercept",	 [NK_OTHER] = "reflected-other",
	[NK_SYNTH] = "synthesized",	 [NK_L0_MSR] = "l0-handled-msr",
	[NK_L0_IO] = "l0-handled-io",	 [NK_L0_OTHER] = "l0-handled-other",
};

static const char *const entry_names[] = {
	[NE_VMRUN] = "vmrun", [NE_VMRESUME] = "vmresume", [NE_VMLAUNCH] = "vmlaunch",
	[NE_RSM] = "rsm",     [NE_NONE] = "none",	  [NE_ASSUMED] = "assumed",
};

const char *nested_kind_name(enum nested_kind k)
{
	return kind_names[k];
}

const char *nested_entry_name(enum nested_entry e)
{
	return entry_names[e];
}

int vpmc_nested_new(struct vpmc_nested **out, const struct vpmc_nested_opts *o)
{
	struct vpmc_nested *n = calloc(1, sizeof(*n));
	int k;

	if (!n)
		return VPMC_ERR_NOMEM;
	n->vcpus = calloc(VPMC_MAX_VCPUS, sizeof(*n->vcpus));
	if (!n->vcpus) {
		free(n);
		return VPMC_ERR_NOMEM;
	}
	if (o)
		n->opts = *o;
	else
		vpmc_nested_opts_default(&n->opts);
	for (k = 0; k < NK_NR; k++) {
		nested_dist_init(&n->rows[k].model_b);
		nested_dist_init(&n->rows[k].model_g);
		nested_dist_init(&n->rows[k].meas_b);
		nested_dist_init(&n->rows[k].meas_g);
		nested_dist_init(&n->rows[k].measured);
	}
	n->counter.cfg = &n->cfg;
	*out = n;
	return 0;
}

void vpmc_nested_free(struct vpmc_nested *n)
{
	size_t i;
	int k;

	if (!n)
		return;
	for (i = 0; i < VPMC_MAX_VCPUS; i++) {
		if (n->vcpus[i])
			nested_caches_release(&n->vcpus[i]->caches);
		free(n->vcpus[i]);
	}
	free(n->vcpus);
	for (k = 0; k < NK_NR; k++) {
		nested_dist_release(&n->rows[k].model_b);
		nested_dist_release(&n->rows[k].model_g);
		nested_dist_release(&n->rows[k].meas_b);
		nested_dist_release(&n->rows[k].meas_g);
		nested_dist_release(&n->rows[k].measured);
	}
	nested_log_release(n);
	json_decref(n->merge_first);
	json_decref(n->merge_inputs);
	free(n->merge_path);
	free(n->report);
	free(n->name);
	free(n);
}

void vpmc_nested_set_log(struct vpmc_nested *n, FILE *log)
{
	n->log_out = log;
}

void vpmc_nested_set_threads(struct vpmc_nested *n, unsigned int threads)
{
	n->threads = threads;
}

const char *vpmc_nested_error(const struct vpmc_nested *n)
{
	return n ? n->err.msg : "";
}

size_t vpmc_nested_nr_warnings(const struct vpmc_nested *n)
{
	return n->nr_warnings;
}

const char *vpmc_nested_warning(const struct vpmc_nested *n, size_t i)
{
	return i < n->nr_warnings ? n->warnings[i] : NULL;
}

static void __attribute__((format(printf, 2, 3))) warn(struct vpmc_nested *n, const char *fmt,
						       ...)
{
	va_list ap;

	if (n->nr_warnings == NESTED_WARNINGS_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(n->warnings[n->nr_warnings++], VPMC_ERRMSG_MAX, fmt, ap);
	va_end(ap);
}

/* Where @ev came from: "FILE:LINE" (text records carry their line: the importer may hold one
 * while later lines are read), else the reader's position when it returned @ev (n->at: the
 * reader may have read on, pipe.c). */
static void where(const struct vpmc_nested *n, const struct vpmc_event *ev, char *at, size_t len)
{
	if (ev && ev->insn && ev->type >= VPMC_EV_NEXIT && ev->type < VPMC_EV_NESTED_END)
		snprintf(at, len, "%s:%llu", n->name, (unsigned long long)ev->insn);
	else
		vpmc_reader_where_at(n->reader, n->at, at, len);
}

/* An event the state machine cannot place: counted, and the first few shown with FILE:LINE. */
static void unplaced(struct vpmc_nested *n, const struct vpmc_event *ev, const char *why)
{
	char at[VPMC_ERRMSG_MAX / 2];

	if (++n->tot.unplaced > NESTED_UNPLACED_SHOWN)
		return;
	where(n, ev, at, sizeof(at));
	warn(n, "%s: vCPU %" PRIu32 ": %s %s: not counted", at, ev->vcpu,
	     vpmc_event_type_name(ev->type), why);
}

/* ---------------------------------------------------------------------------------------------
 * Configuration: option > "!nested" > trace > default (§6.8).
 */
void nested_cfg_init(struct nested_cfg *c, const struct vpmc_nested_opts *o,
		     const struct vpmc_nested_assume *dir)
{
	const struct vpmc_nested_assume *opt = &o->assume;
	int k;

	memset(c, 0, sizeof(*c));
	vpmc_nested_assume_default(&c->a);
	for (k = 0; k < VPMC_NESTED_KEY_NR; k++) {
		const struct vpmc_nested_assume *src = NULL;

		if (opt->given & (1u << k)) {
			src = opt;
			c->from[k] = NF_OPTION;
		} else if (dir && (dir->given & (1u << k))) {
			src = dir;
			c->from[k] = NF_DIRECTIVE;
		}
		if (!src)
			continue;
		switch (k) {
		case VPMC_NESTED_KEY_ISA:
			c->a.isa = src->isa;
			c->isa_known = true;
			break;
		case VPMC_NESTED_KEY_PROFILE:
			c->a.profile = src->profile;
			break;
		case VPMC_NESTED_KEY_L1MEM:
			c->a.l1mem = src->l1mem;
			break;
		case VPMC_NESTED_KEY_RECORDED:
			c->a.recorded = src->recorded;
			break;
		case VPMC_NESTED_KEY_GHZ:
			c->a.ghz_milli = src->ghz_milli;
			break;
		case VPMC_NESTED_KEY_APIC:
			c->a.apic = src->apic;
			break;
		case VPMC_NESTED_KEY_PI:
			c->a.pi = src->pi;
			break;
		case VPMC_NESTED_KEY_MSR_BITMAP:
			c->a.msr_bitmap = src->msr_bitmap;
			break;
		case VPMC_NESTED_KEY_IO_BITMAP:
			c->a.io_bitmap = src->io_bitmap;
			break;
		case VPMC_NESTED_KEY_EVMCS:
			c->a.evmcs = src->evmcs;
			break;
		case VPMC_NESTED_KEY_SVM_MERGE_CHUNKS:
			c->a.svm_merge_chunks = src->svm_merge_chunks;
			break;
		default:
			memcpy(c->a.svm_intercepts, src->svm_intercepts, sizeof(c->a.svm_intercepts));
			break;
		}
	}
	c->msr_in_range = o->msr_in_range;
	c->gpc_svm_merge = o->gpc_svm_merge;
	c->gpc_cold = o->gpc_cold;
	c->inval_every = o->gpc_invalidate_every;
	c->anchor = o->anchor;
}

int nested_cfg_settle(struct nested_cfg *c, const struct vpmc_nested_opts *o,
		      struct vpmc__errbuf *err)
{
	c->isa_known = true;
	c->gpc_context = o->gpc_context >= 0 ? o->gpc_context : c->a.isa == VPMC_NESTED_ISA_VMX;
	return nested_params(c, o, err);
}

static int cfg_settle(struct vpmc_nested *n)
{
	return nested_cfg_settle(&n->cfg, &n->opts, &n->err);
}

/* What the trace says of the ISA: @label (a vmcb: / vmcs: field of @ev) or a reason's
 * alphabet. */
static int isa_seen(struct vpmc_nested *n, enum vpmc_nested_isa isa, bool label,
		    const struct vpmc_event *ev)
{
	struct nested_cfg *c = &n->cfg;
	char at[VPMC_ERRMSG_MAX / 2];

	if (isa == VPMC_NESTED_ISA_NONE)
		return 0;
	if (c->params_set) {
		if (!label || isa == c->a.isa || c->from[VPMC_NESTED_KEY_ISA] == NF_DEFAULT ||
		    c->from[VPMC_NESTED_KEY_ISA] == NF_TRACE)
			return 0;
		where(n, ev, at, sizeof(at));
		return vpmc__set_error(&n->err, c->from[VPMC_NESTED_KEY_ISA] == NF_OPTION ?
				       VPMC_ERR_INVAL : VPMC_ERR_PARSE,
				       "%s: a '%s:' label (isa %s) contradicts %s%s", at,
				       isa == VPMC_NESTED_ISA_SVM ? "vmcb" : "vmcs",
				       isa == VPMC_NESTED_ISA_SVM ? "svm" : "vmx",
				       c->from[VPMC_NESTED_KEY_ISA] == NF_OPTION ? "--isa " :
				       "!nested isa=", c->a.isa == VPMC_NESTED_ISA_SVM ? "svm" : "vmx");
	}
	c->a.isa = isa;
	c->from[VPMC_NESTED_KEY_ISA] = NF_TRACE;
	n->isa_by_label = label;
	return cfg_settle(n);
}

/* Counting needs the ISA now: the trace has not told it, so the default (svm) holds. */
static int isa_need(struct vpmc_nested *n)
{
	if (n->cfg.params_set)
		return 0;
	if (!n->cfg.isa_known) {
		n->cfg.a.isa = VPMC_NESTED_ISA_SVM;
		n->cfg.from[VPMC_NESTED_KEY_ISA] = NF_DEFAULT;
	}
	return cfg_settle(n);
}

/* ---------------------------------------------------------------------------------------------
 * Accounting: one finished round trip or L0-handled exit into its row (and the log).
 */
static uint64_t fixed_cycles(const struct nested_cfg *c, enum nested_kind k)
{
	switch (k) {
	case NK_MSR:
		return c->p[VPMC_NP_RT_FIXED] + c->p[VPMC_NP_RT_FIXED_EXTRA_MSR];
	case NK_IO:
		return c->p[VPMC_NP_RT_FIXED] + c->p[VPMC_NP_RT_FIXED_EXTRA_IO];
	case NK_L0_MSR:
	case NK_L0_IO:
	case NK_L0_OTHER:
		return c->p[VPMC_NP_L0_FIXED];
	default:
		return c->p[VPMC_NP_RT_FIXED];
	}
}

static void ops_add(struct nested_ops *a, const struct nested_ops *b)
{
	a->maps_b += b->maps_b;
	a->reads_b += b->reads_b;
	a->tails_b += b->tails_b;
	a->maps_g += b->maps_g;
	a->refreshes_g += b->refreshes_g;
	a->hits_g += b->hits_g;
	a->loads_g += b->loads_g;
	a->reads_g += b->reads_g;
	a->kicks_g += b->kicks_g;
	a->tails_g += b->tails_g;
}

void nested_measured_pair(const struct nested_cfg *c, uint64_t cyc, int64_t delta, uint64_t *b,
			  uint64_t *g)
{
	int64_t other = c->a.recorded == VPMC_NESTED_BASELINE ? (int64_t)cyc - delta :
								 (int64_t)cyc + delta;
	uint64_t o = other < 0 ? 0 : (uint64_t)other;

	*b = c->a.recorded == VPMC_NESTED_BASELINE ? cyc : o;
	*g = c->a.recorded == VPMC_NESTED_GPC ? cyc : o;
}

static int account(struct vpmc_nested *n, const struct nested_rt *rt)
{
	const struct nested_cfg *c = &n->cfg;
	struct nested_row *row = &n->rows[rt->kind];
	uint64_t fixed = fixed_cycles(c, rt->kind), ob, og, mb, mg, b, g, cyc = 0;
	struct nested_logent e;
	int ret = 0;

	ob = nested_ops_cycles_b(c, &rt->ops);
	og = nested_ops_cycles_g(c, &rt->ops);
	mb = fixed + ob;
	mg = fixed + og;
	row->n++;
	ops_add(&row->ops, &rt->ops);
	row->assumed += rt->entry == NE_ASSUMED;
	ops_add(&n->tot.ops, &rt->ops);
	ret |= nested_dist_add(&row->model_b, mb);
	ret |= nested_dist_add(&row->model_g, mg);
	if (rt->has_measured) {
		/* cycles = ns x GHz, to the nearest cycle */
		cyc = (rt->measured_ns * c->a.ghz_milli + 500) / 1000;
		nested_measured_pair(c, cyc, (int64_t)ob - (int64_t)og, &b, &g);
		ret |= nested_dist_add(&row->measured, cyc);
		ret |= nested_dist_add(&row->meas_b, b);
		ret |= nested_dist_add(&row->meas_g, g);
	} else {
		ret |= nested_dist_add(&row->meas_b, mb);
		ret |= nested_dist_add(&row->meas_g, mg);
	}
	if (ret)
		return vpmc__set_error(&n->err, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	if (!n->log_out)
		return 0;
	memset(&e, 0, sizeof(e)); /* written whole to the log's temporary file: no stray bytes */
	e.rt = *rt;
	e.model_b = mb;
	e.model_g = mg;
	e.cycles = cyc;
	return nested_log_entry(n, &e);
}

/* ---------------------------------------------------------------------------------------------
 * The state machine (§6.3).
 */
static int vcpu_of(struct vpmc_nested *n, uint32_t id, struct nested_vcpu **out)
{
	struct nested_vcpu *v = n->vcpus[id];

	if (!v) {
		v = calloc(1, sizeof(*v));
		if (!v || nested_caches_init(&v->caches)) {
			free(v);
			return vpmc__set_error(&n->err, VPMC_ERR_NOMEM, "%s",
					       vpmc_strerror(VPMC_ERR_NOMEM));
		}
		n->vcpus[id] = v;
		n->nr_vcpus++;
	}
	*out = v;
	return 0;
}

/* SVM intercept word 3 for @v's run: kvm_nested_intercepts, else the vCPU's last, else the
 * assumption (--svm-intercepts, !nested, or KVM as L1's). */
static uint32_t word3(const struct vpmc_nested *n, const struct nested_vcpu *v)
{
	if (v->run_open && v->run_has_w3)
		return v->run_w3;
	return v->has_w3 ? v->w3 : n->cfg.a.svm_intercepts[0];
}

/* The entry's counts, once its run is known to have begun: after its kvm_nested_intercepts,
 * before any use of the caches during the run. */
static int count_entry(struct vpmc_nested *n, struct nested_vcpu *v)
{
	int ret;

	if (!v->run_open || v->run_counted)
		return 0;
	ret = isa_need(n);
	if (!ret && v->run_has_gpa)
		ret = nested_caches_select(&n->counter, &v->caches, v->run_gpa);
	if (ret)
		return ret == VPMC_ERR_NOMEM ? vpmc__set_error(&n->err, ret, "%s",
							       vpmc_strerror(ret)) : ret;
	memset(&v->run_ops, 0, sizeof(v->run_ops));
	nested_count_entry(&n->counter, &v->caches, v->run_entry, word3(n, v), &v->run_ops);
	v->run_counted = true;
	return 0;
}

/* Close the open exit: an L2 exit without inject is incomplete, an L1 exit counted. */
static void close_exit(struct vpmc_nested *n, struct nested_vcpu *v)
{
	struct nested_reason r;

	if (!v->exit_open)
		return;
	v->exit_open = false;
	if (v->exit_from_l2) {
		n->tot.l2_exits++;
		if (!v->exit_injected)
			n->tot.incomplete_exits++;
		return;
	}
	n->tot.l1_exits++;
	nested_reason(v->exit_reason, &r);
	/* vmload_vmsave_interception() maps the VMCB RAX names, in both designs; outside the
	 * round trip's window, so in the totals only */
	if (r.cls == NR_VMLOAD_SAVE && n->cfg.a.isa != VPMC_NESTED_ISA_VMX) {
		n->tot.vmload_vmsave++;
		n->tot.ops.maps_b++;
		n->tot.ops.maps_g++;
	}
}

/* A round trip ended without the kvm_entry that would end its window. */
static int flush_rt(struct vpmc_nested *n, struct nested_vcpu *v)
{
	if (!v->rt_waiting)
		return 0;
	v->rt_waiting = false;
	v->rt.has_measured = false;
	return account(n, &v->rt);
}

static int on_vmexit(struct vpmc_nested *n, struct nested_vcpu *v, const struct vpmc_event *ev)
{
	struct nested_reason r;
	int ret = flush_rt(n, v);

	if (ret)
		return ret;
	close_exit(n, v);
	nested_reason(ev->reason, &r);
	if (!n->cfg.isa_known) {
		ret = isa_seen(n, r.isa, false, ev);
		if (ret)
			return ret;
	}
	v->exit_open = true;
	v->exit_from_l2 = v->mode == NM_L2;
	v->exit_had_nexit = false;
	v->exit_injected = false;
	v->exit_t = ev->time_ns;
	memcpy(v->exit_reason, ev->reason, sizeof(v->exit_reason));
	memset(&v->exit_ops, 0, sizeof(v->exit_ops));
	if (!v->exit_from_l2 && r.cls == NR_ENTRY) {
		v->pending_start = ev->time_ns;
		v->has_pending_start = true;
	}
	if (v->exit_from_l2)
		return count_entry(n, v);
	return 0;
}

static int on_nexit(struct vpmc_nested *n, struct nested_vcpu *v, const struct vpmc_event *ev)
{
	struct nested_reason r;
	int ret;

	nested_reason(ev->reason, &r);
	if (!n->cfg.isa_known) {
		ret = isa_seen(n, r.isa, false, ev);
		if (ret)
			return ret;
	}
	if (!v->exit_open || v->exit_had_nexit) {
		/* a layout without kvm_exit, or a second kvm_nested_vmexit */
		ret = flush_rt(n, v);
		if (ret)
			return ret;
		close_exit(n, v);
		v->exit_open = true;
		v->exit_injected = false;
		v->exit_t = ev->time_ns;
		memset(&v->exit_ops, 0, sizeof(v->exit_ops));
	}
	v->exit_from_l2 = true;
	v->exit_had_nexit = true;
	memcpy(v->exit_reason, ev->reason, sizeof(v->exit_reason));
	v->mode = NM_L2;
	ret = count_entry(n, v);
	if (ret)
		return ret;
	ret = isa_need(n);
	if (ret)
		return ret;
	nested_count_l2_exit(&n->counter, &v->caches, &r, ev->value, ev->has_value, word3(n, v),
			     &v->exit_ops);
	return 0;
}

static int on_nenter(struct vpmc_nested *n, struct nested_vcpu *v, const struct vpmc_event *ev)
{
	struct nested_reason r;
	int ret = isa_seen(n, (enum vpmc_nested_isa)ev->index, true, ev);

	if (ret)
		return ret;
	if (v->run_open)
		n->tot.incomplete_runs++;
	v->run_open = true;
	v->run_counted = false;
	v->run_has_w3 = false;
	v->run_entry = NE_NONE;
	if (v->exit_open && !v->exit_from_l2) {
		nested_reason(v->exit_reason, &r);
		if (r.cls == NR_RSM)
			v->run_entry = NE_RSM;
		else if (r.cls == NR_ENTRY && r.isa == VPMC_NESTED_ISA_SVM)
			v->run_entry = NE_VMRUN;
		else if (r.cls == NR_ENTRY)
			v->run_entry = strncmp(v->exit_reason, "VMLAUNCH", 8) ? NE_VMRESUME :
										 NE_VMLAUNCH;
	}
	v->run_has_start = v->has_pending_start;
	v->run_start = v->pending_start;
	v->has_pending_start = false;
	v->run_has_gpa = ev->has_value;
	v->run_gpa = ev->value;
	if (ev->has_value) {
		if (v->has_gpa && v->gpa != ev->value)
			n->tot.gpa_changes++;
		v->gpa = ev->value;
		v->has_gpa = true;
	}
	v->mode = NM_L2;
	return 0;
}

static int on_nintercepts(struct vpmc_nested *n, struct nested_vcpu *v,
			  const struct vpmc_event *ev)
{
	if (n->cfg.isa_known && n->cfg.a.isa == VPMC_NESTED_ISA_VMX) {
		unplaced(n, ev, "on a VMX trace (kvm_nested_intercepts is SVM's)");
		return 0;
	}
	if (!v->run_open || v->run_has_w3 || v->run_counted) {
		unplaced(n, ev, "outside an emulated VM-entry (expected right after "
			 "kvm_nested_vmenter / vmrun)");
		return 0;
	}
	v->run_w3 = ev->index;
	v->run_has_w3 = true;
	v->w3 = ev->index;
	v->has_w3 = true;
	if (!n->intercepts_seen) {
		n->trace_w[0] = ev->index;
		n->trace_w[1] = (uint32_t)(ev->value >> 32);
		n->trace_w[2] = (uint32_t)ev->value;
	}
	n->intercepts_seen = true;
	return 0;
}

/* kvm_nested_vmexit_inject, or a late VM-Fail: the round trip ends (§6.3, §6.4). */
static int end_rt(struct vpmc_nested *n, struct nested_vcpu *v, const struct vpmc_event *ev,
		  bool late_fail)
{
	struct nested_rt *rt = &v->rt;
	struct nested_reason r;
	uint32_t kicks;
	int ret = flush_rt(n, v);

	if (ret)
		return ret;
	if (!v->run_open) {
		/* no kvm_nested_vmenter in the trace for this run: counted like vmrun/vmresume */
		v->run_open = true;
		v->run_counted = false;
		v->run_has_w3 = false;
		v->run_has_gpa = false;
		v->run_has_start = false;
		v->run_entry = NE_ASSUMED;
		n->tot.assumed_entries++;
	}
	ret = count_entry(n, v);
	if (ret)
		return ret;
	memset(rt, 0, sizeof(*rt));
	rt->t = ev->time_ns;
	rt->vcpu = ev->vcpu;
	rt->entry = v->run_entry;
	rt->ops = v->run_ops;
	rt->kind = NK_SYNTH;
	if (!late_fail)
		memcpy(rt->inject_reason, ev->reason, sizeof(rt->inject_reason));
	if (v->exit_open && v->exit_from_l2 && !v->exit_injected) {
		memcpy(rt->l2_reason, v->exit_reason, sizeof(rt->l2_reason));
		ops_add(&rt->ops, &v->exit_ops);
		nested_reason(v->exit_reason, &r);
		if (!late_fail && r.cls != NR_L0_OWNED && nested_reason_same(v->exit_reason,
									      ev->reason))
			rt->kind = r.cls == NR_CPUID ? NK_CPUID : r.cls == NR_MSR ? NK_MSR :
				   r.cls == NR_IO ? NK_IO : NK_OTHER;
		v->exit_injected = true;
	}
	nested_count_exit(&n->counter, &v->caches, late_fail, &rt->ops);
	rt->ops.kicks_g += v->pending_kicks;
	v->pending_kicks = 0;
	rt->has_start = v->run_has_start;
	rt->start = v->run_start;
	v->run_open = false;
	v->mode = NM_L1;
	v->rt_waiting = true;
	n->tot.roundtrips++;
	if (n->cfg.inval_every && !(++v->nr_rts % n->cfg.inval_every)) {
		unsigned int active = nested_caches_invalidate(&v->caches, &kicks);

		v->pending_kicks += n->cfg.a.isa == VPMC_NESTED_ISA_VMX ? kicks : 0;
		n->tot.invalidations++;
		n->tot.inval_walk_cycles += active * n->cfg.p[VPMC_NP_GPC_INVAL_WALK];
	}
	return 0;
}

static int on_entry(struct vpmc_nested *n, struct nested_vcpu *v, const struct vpmc_event *ev)
{
	struct nested_rt l0;
	struct nested_reason r;
	int ret;

	if (v->exit_open && v->exit_from_l2 && !v->exit_injected) {
		/* resumed into L2 without L1: an L0-handled exit, its own row (§6.4) */
		nested_reason(v->exit_reason, &r);
		memset(&l0, 0, sizeof(l0));
		l0.t = v->exit_t;
		l0.vcpu = ev->vcpu;
		l0.entry = NE_NONE;
		l0.l0 = true;
		l0.kind = r.cls == NR_MSR ? NK_L0_MSR : r.cls == NR_IO ? NK_L0_IO : NK_L0_OTHER;
		memcpy(l0.l2_reason, v->exit_reason, sizeof(l0.l2_reason));
		l0.ops = v->exit_ops;
		l0.has_measured = true;
		l0.measured_ns = ev->time_ns - v->exit_t;
		v->exit_injected = true; /* closed below as handled, not incomplete */
		n->tot.l0_handled++;
		ret = isa_need(n);
		if (!ret)
			ret = account(n, &l0);
		if (ret)
			return ret;
	}
	close_exit(n, v);
	if (v->rt_waiting) {
		v->rt_waiting = false;
		v->rt.has_measured = v->rt.has_start;
		v->rt.measured_ns = ev->time_ns - v->rt.start;
		ret = account(n, &v->rt);
		if (ret)
			return ret;
	}
	return count_entry(n, v);
}

static int on_ninval(struct vpmc_nested *n, struct nested_vcpu *v)
{
	uint32_t kicks;
	unsigned int active;
	int ret = isa_need(n);

	if (ret)
		return ret;
	active = nested_caches_invalidate(&v->caches, &kicks);
	v->pending_kicks += n->cfg.a.isa == VPMC_NESTED_ISA_VMX ? kicks : 0;
	n->tot.invalidations++;
	n->tot.inval_walk_cycles += active * n->cfg.p[VPMC_NP_GPC_INVAL_WALK];
	return 0;
}

int nested_event(struct vpmc_nested *n, const struct vpmc_event *ev)
{
	struct nested_vcpu *v = NULL;
	int ret;

	if (ev->vcpu >= VPMC_MAX_VCPUS)
		return 0;
	if (!n->nr_events || ev->time_ns < n->first_ns)
		n->first_ns = ev->time_ns;
	if (ev->time_ns > n->last_ns)
		n->last_ns = ev->time_ns;
	if (ev->time_ns % 1000)
		n->fine_times = true;
	n->nr_events++;
	ret = vcpu_of(n, ev->vcpu, &v);
	if (ret)
		return ret;
	switch (ev->type) {
	case VPMC_EV_EXIT:
		return on_vmexit(n, v, ev);
	case VPMC_EV_ENTRY:
		return on_entry(n, v, ev);
	case VPMC_EV_NEXIT:
		n->nested_events++;
		return on_nexit(n, v, ev);
	case VPMC_EV_NENTER:
		n->nested_events++;
		return on_nenter(n, v, ev);
	case VPMC_EV_NINTERCEPTS:
		n->nested_events++;
		return on_nintercepts(n, v, ev);
	case VPMC_EV_NINJECT:
		n->nested_events++;
		if (!n->cfg.isa_known) {
			struct nested_reason r;

			nested_reason(ev->reason, &r);
			ret = isa_seen(n, r.isa, false, ev);
			if (ret)
				return ret;
		}
		if (!v->run_open && v->mode == NM_L1) {
			unplaced(n, ev, "while the vCPU runs L1 (no emulated VM-entry since the "
				 "last emulated VM-exit)");
			return 0;
		}
		return end_rt(n, v, ev, false);
	case VPMC_EV_NFAIL:
		n->nested_events++;
		if (!v->run_open) {
			n->tot.early_vmfails++; /* an early VM-Fail maps nothing */
			return 0;
		}
		return end_rt(n, v, ev, true);
	case VPMC_EV_NINVAL:
		n->nested_events++;
		return on_ninval(n, v);
	default:
		return 0;
	}
}

/* End of the trace: open L2 exits are incomplete, open runs too (§6.3). */
static int finish(struct vpmc_nested *n)
{
	size_t i;
	int ret;

	for (i = 0; i < VPMC_MAX_VCPUS; i++) {
		struct nested_vcpu *v = n->vcpus[i];

		if (!v)
			continue;
		ret = flush_rt(n, v);
		if (ret)
			return ret;
		close_exit(n, v);
		if (v->run_open)
			n->tot.incomplete_runs++;
		v->run_open = false;
	}
	return 0;
}

void nested_decide_anchor(struct vpmc_nested *n)
{
	n->usable = n->fine_times;
	n->use_measured = n->cfg.anchor == VPMC_NESTED_ANCHOR_MEASURED ||
			  (n->cfg.anchor == VPMC_NESTED_ANCHOR_AUTO && n->usable);
}

/* Classify every event of @r in order on this thread. Return: as nested_run_piped(). */
static int run_serial(struct vpmc_nested *n, struct vpmc_reader *r)
{
	struct vpmc_event ev;
	int ret;

	while ((ret = vpmc_reader_next(r, &ev)) == 1) {
		n->at = vpmc_reader_mark(r);
		ret = nested_event(n, &ev);
		if (ret)
			break;
	}
	return ret;
}

int vpmc_nested_run(struct vpmc_nested *n, struct vpmc_reader *r, const char *name)
{
	int ret;

	if (!n || !r || n->ran)
		return VPMC_ERR_INVAL;
	n->ran = true;
	n->reader = r;
	n->name = strdup(name ? name : "");
	if (!n->name)
		return vpmc__set_error(&n->err, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	nested_cfg_init(&n->cfg, &n->opts, vpmc_reader_nested(r));
	ret = n->cfg.isa_known ? cfg_settle(n) : 0;
	if (!ret)
		ret = n->threads > 1 ? nested_run_piped(n, r) : run_serial(n, r);
	if (ret < 0 && !n->err.msg[0])
		vpmc__set_error(&n->err, ret, "%s", vpmc_reader_error(r));
	if (!ret)
		ret = finish(n);
	if (!ret)
		ret = isa_need(n); /* a trace that never told: the default's parameters */
	n->partial = vpmc_reader_nested_partial(r);
	nested_decide_anchor(n);
	if (!ret && !n->nested_events)
		warn(n, "%s: no kvm_nested_* event: nothing to classify (%" PRIu64 " exits, all "
		     "outside guest mode)", n->name, n->tot.l1_exits);
	if (!ret && n->log_out)
		ret = nested_log_end(n);
	n->reader = NULL;
	return ret;
}
