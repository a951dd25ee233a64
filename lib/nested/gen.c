// SPDX-License-Identifier: GPL-2.0-only
/* gen.c - vpmcsim gen nested-pingpong (nested-gpc.md §8.1): a deterministic L1<->L2 ping-pong
 * whose time stamps come from the cost model, counted by the very rules the replay uses
 * (count.c), so that replaying it gives back every map, refresh and PFNMAP tail, and M1's
 * numbers for the nSVM debug case. Formats: .vtr, raw ftrace (current layouts), and trace-cmd
 * with the kvm plugin's old layouts (microsecond time stamps: not usable as measurements). */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "exit-reasons.h"
#include "nested-local.h"
#include "numparse.h"

/* L2 runs "cpuid; jmp" at 0x401000; L1's VMRUN / VMRESUME and where L1 resumes (§8.1). */
#define L2_EXIT_RIP 0x401000ULL
#define L2_ENTRY_RIP 0x401002ULL
#define SVM_VMRUN_RIP 0xffffffffc0a01234ULL
#define SVM_L1_RIP 0xffffffffc0a01237ULL
#define VMX_VMRESUME_RIP 0xffffffffc0b05678ULL
#define VMX_L1_RIP 0xffffffffc0b05700ULL
#define SVM_GPA_BASE 0x10a000ULL
#define VMX_GPA_BASE 0x117000ULL
#define T0_NS 1000000000ULL /* time starts at 1 s */
#define GEN_PROGRESS_RTS (1u << 10) /* round trips between two calls of o->progress */

void vpmc_nested_gen_opts_default(struct vpmc_nested_gen_opts *o)
{
	memset(o, 0, sizeof(*o));
	vpmc_nested_opts_default(&o->model);
	o->iterations = 10000;
	o->vcpus = 1;
	o->l2_exits[0] = (struct vpmc_nested_l2_exit){ VPMC_NESTED_L2_CPUID, 0, 0, 1 };
	o->nr_l2_exits = 1;
	o->l0_exit = (struct vpmc_nested_l2_exit){ VPMC_NESTED_L2_INTR, 0, 0, 1 };
	o->l2_per_l1 = 1;
	o->l1_handler = 2000;
	o->split[0] = 45;
	o->split[1] = 10;
	o->split[2] = 45;
	o->seed = 1;
}

/* A decimal or 0x-hex number up to @max, the whole of [s, end). */
static int number(const char *s, const char *end, uint64_t max, uint64_t *v)
{
	return vpmc__parse_u64(s, (size_t)(end - s), VPMC__NUM_HEX, 0, max, v) ? -1 : 0;
}

int vpmc_nested_l2_exit_parse(struct vpmc_nested_l2_exit *e, const char *s, bool l0,
			      const char **why)
{
	static const struct {
		const char *name;
		enum vpmc_nested_l2_kind kind;
		bool l0, l2;
	} kinds[] = {
		{ "cpuid", VPMC_NESTED_L2_CPUID, false, true },
		{ "msr-read", VPMC_NESTED_L2_MSR_READ, true, true },
		{ "msr-write", VPMC_NESTED_L2_MSR_WRITE, false, true },
		{ "io-in", VPMC_NESTED_L2_IO_IN, true, true },
		{ "io-out", VPMC_NESTED_L2_IO_OUT, false, true },
		{ "vmcall", VPMC_NESTED_L2_VMCALL, false, true },
		{ "ext-intr", VPMC_NESTED_L2_EXT_INTR, false, true },
		{ "intr", VPMC_NESTED_L2_INTR, true, false },
	};
	const char *at = strchr(s, '@'), *star = strchr(s, '*'), *end = s + strlen(s);
	const char *name_end = at ? at : star ? star : end;
	struct vpmc_nested_l2_exit t = { VPMC_NESTED_L2_CPUID, 0, 1, 1 };
	uint64_t v = 0;
	size_t i;

	*why = l0 ? "expected intr, io-in[@PORT[/SIZE]] or msr-read[@0xIDX]" :
		    "expected cpuid, msr-read[@0xIDX], msr-write[@0xIDX], io-in[@PORT[/SIZE]], "
		    "io-out[@PORT[/SIZE]], vmcall or ext-intr, then [*WEIGHT]";
	if ((star && l0) || (at && star && star < at))
		return VPMC_ERR_INVAL;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		if (strlen(kinds[i].name) == (size_t)(name_end - s) &&
		    !memcmp(s, kinds[i].name, (size_t)(name_end - s)) && (l0 ? kinds[i].l0 :
									   kinds[i].l2))
			break;
	}
	if (i == ARRAY_SIZE(kinds))
		return VPMC_ERR_INVAL;
	t.kind = kinds[i].kind;
	if (t.kind == VPMC_NESTED_L2_MSR_READ || t.kind == VPMC_NESTED_L2_MSR_WRITE)
		t.index = 0x1b; /* IA32_APIC_BASE */
	if (t.kind == VPMC_NESTED_L2_IO_IN || t.kind == VPMC_NESTED_L2_IO_OUT)
		t.index = 0x70; /* the CMOS index port, 1 byte */
	if (at) {
		const char *aend = star ? star : end, *slash = memchr(at, '/', (size_t)(aend - at));
		bool io = t.kind == VPMC_NESTED_L2_IO_IN || t.kind == VPMC_NESTED_L2_IO_OUT;
		bool msr = t.kind == VPMC_NESTED_L2_MSR_READ || t.kind == VPMC_NESTED_L2_MSR_WRITE;

		if (!io && !msr)
			return VPMC_ERR_INVAL;
		if (msr && (slash || aend - at < 4 || at[1] != '0' || at[2] != 'x' ||
			    number(at + 1, aend, 0xffffffffu, &v))) {
			*why = "expected @0xIDX: the MSR index in hex";
			return VPMC_ERR_INVAL;
		}
		if (io && number(at + 1, slash ? slash : aend, 0xffff, &v)) {
			*why = "expected @PORT[/SIZE]: a port 0 to 0xffff, size 1, 2 or 4";
			return VPMC_ERR_INVAL;
		}
		t.index = (uint32_t)v;
		if (slash) {
			if (number(slash + 1, aend, 4, &v) || (v != 1 && v != 2 && v != 4)) {
				*why = "expected @PORT[/SIZE]: a port 0 to 0xffff, size 1, 2 or 4";
				return VPMC_ERR_INVAL;
			}
			t.size = (unsigned int)v;
		}
	}
	if (star) {
		if (number(star + 1, end, 1000000, &v) || !v) {
			*why = "expected *WEIGHT: 1 to 10^6 iterations";
			return VPMC_ERR_INVAL;
		}
		t.weight = (unsigned int)v;
	}
	*e = t;
	*why = NULL;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The generator.
 */
enum gev_type { G_EXIT, G_NENTER, G_NINTERCEPTS, G_ENTRY, G_NEXIT, G_NINJECT };

struct gev {
	uint64_t t;
	enum gev_type type;
	const char *reason;
	uint64_t info1, gpa, rip;
};

#define GEN_EVENTS_MAX 16 /* events of one iteration of one vCPU */

struct gen_vcpu {
	uint32_t id;
	uint64_t t, iter, nr_rts, pending_kicks;
	struct nested_caches caches;
	struct gev ev[GEN_EVENTS_MAX];
	unsigned int nr, pos;
};

struct gen {
	const struct vpmc_nested_gen_opts *o;
	struct nested_cfg cfg;
	struct nested_counter counter;
	struct gen_vcpu *v;
	uint32_t *heap; /* vCPU indices by (time of the next event, vCPU) */
	unsigned int nr_heap;
	unsigned int block;     /* iterations in a block of --l2-exit specs */
	uint64_t rng;
	bool vmx;
	FILE *out;
	uint64_t events;        /* vtr: event lines written, for "!end events=N" */
	uint64_t rts;           /* round trips written, of all vCPUs (progress) */
	char *err;
	size_t errlen;
};

/* splitmix64 (Steele, Lea, Flood 2014): the jitter's numbers, from --seed. */
static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A fixed segment of @cycles, times (1 + P/100 u), u uniform in [-1, 1). */
static uint64_t jitter(struct gen *g, uint64_t cycles)
{
	double u, x;

	if (!g->o->jitter_pct)
		return cycles;
	u = (double)(splitmix64(&g->rng) >> 11) * 0x1.0p-53 * 2.0 - 1.0;
	x = (double)cycles * (1.0 + (double)g->o->jitter_pct / 100.0 * u);
	return x < 0 ? 0 : (uint64_t)(x + 0.5);
}

/* ns = cycles / GHz, to the nearest, ties up. */
static uint64_t to_ns(const struct gen *g, uint64_t cycles)
{
	uint64_t gm = g->cfg.a.ghz_milli;

	return (2 * cycles * 1000 + gm) / (2 * gm);
}

/* The cycles of @o in the design whose time stamps these are, tails left out (§8.1: a tail
 * goes to the exit segment). */
static uint64_t design_cycles(const struct gen *g, const struct nested_ops *o, bool tails)
{
	struct nested_ops t = *o;

	if (!tails)
		t.tails_b = t.tails_g = 0;
	return g->o->design == VPMC_NESTED_GPC ? nested_ops_cycles_g(&g->cfg, &t) :
						 nested_ops_cycles_b(&g->cfg, &t);
}

/* An L2 exit of @e: its reason as the ISA prints it, its info1, and its class. */
static void exit_of(const struct gen *g, const struct vpmc_nested_l2_exit *e, const char **reason,
		    uint64_t *info1)
{
	unsigned int size = e->size ? e->size : 1;
	bool in = e->kind == VPMC_NESTED_L2_IO_IN;

	*info1 = 0;
	switch (e->kind) {
	case VPMC_NESTED_L2_CPUID:
		*reason = g->vmx ? "CPUID" : "cpuid";
		break;
	case VPMC_NESTED_L2_MSR_READ:
	case VPMC_NESTED_L2_MSR_WRITE:
		*reason = g->vmx ? (e->kind == VPMC_NESTED_L2_MSR_READ ? "MSR_READ" : "MSR_WRITE") :
				   "msr";
		*info1 = !g->vmx && e->kind == VPMC_NESTED_L2_MSR_WRITE; /* SVM EXITINFO1: write */
		break;
	case VPMC_NESTED_L2_IO_IN:
	case VPMC_NESTED_L2_IO_OUT:
		*reason = g->vmx ? "IO_INSTRUCTION" : "io";
		/* SVM EXITINFO1: port << 16 | SZ (size << 4) | TYPE (IN); VMX qualification:
		 * port << 16 | IN << 3 | size - 1 */
		*info1 = g->vmx ? (uint64_t)e->index << 16 | (uint64_t)in << 3 | (size - 1) :
				  (uint64_t)e->index << 16 | size << 4 | in;
		break;
	case VPMC_NESTED_L2_VMCALL:
		*reason = g->vmx ? "VMCALL" : "hypercall";
		break;
	default: /* ext-intr, intr */
		*reason = g->vmx ? "EXTERNAL_INTERRUPT" : "interrupt";
		break;
	}
}

/* The bitmap reads the generator counts for @e: the MSR's range decides (§6.5). */
static bool msr_in_range(const struct gen *g, uint32_t msr)
{
	/* nested_svm_exit_handled_msr(): the MSRPM covers 0-0x1fff, 0xc0000000-0xc0001fff and
	 * 0xc0010000-0xc0011fff; nested_vmx_exit_handled_msr() the first two */
	if (msr <= 0x1fff || (msr >= 0xc0000000 && msr <= 0xc0001fff))
		return true;
	return !g->vmx && msr >= 0xc0010000 && msr <= 0xc0011fff;
}

static void l2_ops(struct gen *g, struct gen_vcpu *v, const struct vpmc_nested_l2_exit *e,
		   const char *reason, uint64_t info1, struct nested_ops *o)
{
	struct nested_cfg saved = g->cfg;
	struct nested_reason r;

	nested_reason(reason, &r);
	if (r.cls == NR_MSR)
		g->cfg.msr_in_range = g->cfg.msr_in_range && msr_in_range(g, e->index);
	nested_count_l2_exit(&g->counter, &v->caches, &r, info1, true, g->cfg.a.svm_intercepts[0],
			     o);
	g->cfg = saved;
}

static void push(struct gen_vcpu *v, uint64_t t, enum gev_type type, const char *reason,
		 uint64_t info1, uint64_t rip)
{
	struct gev *e = &v->ev[v->nr++];

	*e = (struct gev){ t, type, reason, info1, 0, rip };
}

/* The events of iteration v->iter of vCPU v (§8.1, timeline). */
static int fill(struct gen *g, struct gen_vcpu *v)
{
	const struct vpmc_nested_gen_opts *o = g->o;
	const struct nested_cfg *c = &g->cfg;
	const struct vpmc_nested_l2_exit *e = &o->l2_exits[0];
	struct nested_ops oe = { 0 }, o0 = { 0 }, ol = { 0 }, ox = { 0 };
	uint64_t i = v->iter, pos = i % g->block, fixed = c->p[VPMC_NP_RT_FIXED], t, extra = 0;
	uint64_t fe = (fixed * o->split[0] + 50) / 100, fg = (fixed * o->split[1] + 50) / 100;
	uint64_t fx = fixed - fe - fg, gpa, info1, tails, kicks;
	const char *reason, *l1_reason = g->vmx ? "VMRESUME" : "vmrun";
	bool l0 = o->l0_every && !((i + 1) % o->l0_every);
	struct nested_reason r;
	unsigned int k;
	int ret;

	for (k = 0; k < o->nr_l2_exits; k++) {
		if (pos < o->l2_exits[k].weight) {
			e = &o->l2_exits[k];
			break;
		}
		pos -= o->l2_exits[k].weight;
	}
	v->nr = v->pos = 0;
	gpa = (g->vmx ? VMX_GPA_BASE : SVM_GPA_BASE) +
	      0x1000ULL * ((uint64_t)v->id * o->l2_per_l1 + i % o->l2_per_l1);
	/* the entry: L1's VMRUN / VMRESUME exit, kvm_nested_vmenter, kvm_entry into L2 */
	ret = nested_caches_select(&g->counter, &v->caches, gpa);
	if (ret)
		return ret;
	nested_count_entry(&g->counter, &v->caches, g->vmx ? NE_VMRESUME : NE_VMRUN,
			   c->a.svm_intercepts[0], &oe);
	t = v->t;
	push(v, t, G_EXIT, l1_reason, 0, g->vmx ? VMX_VMRESUME_RIP : SVM_VMRUN_RIP);
	v->ev[v->nr] = (struct gev){ t, G_NENTER, NULL, 0, gpa, 0 };
	v->nr++;
	if (!g->vmx)
		push(v, t, G_NINTERCEPTS, NULL, 0, 0);
	t += to_ns(g, jitter(g, fe) + design_cycles(g, &oe, false));
	push(v, t, G_ENTRY, NULL, 0, L2_ENTRY_RIP);
	t += to_ns(g, jitter(g, fg));
	if (l0) {
		/* an L2 exit L0 handles and resumes L2 from, no L1 */
		exit_of(g, &o->l0_exit, &reason, &info1);
		l2_ops(g, v, &o->l0_exit, reason, info1, &o0);
		push(v, t, G_EXIT, reason, info1, L2_EXIT_RIP);
		push(v, t, G_NEXIT, reason, info1, L2_EXIT_RIP);
		t += to_ns(g, jitter(g, c->p[VPMC_NP_L0_FIXED]) + design_cycles(g, &o0, true));
		push(v, t, G_ENTRY, NULL, 0, L2_ENTRY_RIP);
		t += to_ns(g, jitter(g, fg));
	}
	/* the L2 exit L1 gets: kvm_exit, kvm_nested_vmexit, then the emulated VM-exit */
	exit_of(g, e, &reason, &info1);
	l2_ops(g, v, e, reason, info1, &ol);
	push(v, t, G_EXIT, reason, info1, L2_EXIT_RIP);
	push(v, t, G_NEXIT, reason, info1, L2_EXIT_RIP);
	nested_count_exit(&g->counter, &v->caches, false, &ox);
	nested_reason(reason, &r);
	if (r.cls == NR_MSR)
		extra = c->p[VPMC_NP_RT_FIXED_EXTRA_MSR];
	else if (r.cls == NR_IO)
		extra = c->p[VPMC_NP_RT_FIXED_EXTRA_IO];
	tails = o->design == VPMC_NESTED_GPC ? oe.tails_g + ol.tails_g + ox.tails_g :
					       oe.tails_b + ol.tails_b + ox.tails_b;
	kicks = o->design == VPMC_NESTED_GPC ? v->pending_kicks : 0;
	v->pending_kicks = 0;
	t += to_ns(g, jitter(g, fx + extra) + design_cycles(g, &ol, false) +
		   design_cycles(g, &ox, false) + tails * c->p[VPMC_NP_IO_TAIL] +
		   kicks * c->p[VPMC_NP_GPC_KICK]);
	push(v, t, G_NINJECT, reason, info1, 0);
	push(v, t, G_ENTRY, NULL, 0, g->vmx ? VMX_L1_RIP : SVM_L1_RIP);
	if (c->inval_every && !(++v->nr_rts % c->inval_every)) {
		uint32_t kk;

		nested_caches_invalidate(&v->caches, &kk);
		v->pending_kicks += g->vmx ? kk : 0;
	}
	v->t = t + to_ns(g, o->l1_handler);
	return 0;
}

/* ---- output ------------------------------------------------------------------------------- */

static int write_vtr(struct gen *g, const struct gen_vcpu *v, const struct gev *e)
{
	struct vpmc_event ev = { .time_ns = e->t, .vcpu = v->id, .cpl = VPMC_CPL_KEEP };
	const uint32_t *w = g->cfg.a.svm_intercepts;

	switch (e->type) {
	case G_EXIT:
		ev.type = VPMC_EV_EXIT;
		snprintf(ev.reason, sizeof(ev.reason), "%s", e->reason);
		break;
	case G_ENTRY:
		ev.type = VPMC_EV_ENTRY;
		break;
	case G_NENTER:
		ev.type = VPMC_EV_NENTER;
		ev.value = e->gpa;
		ev.has_value = true;
		break;
	case G_NINTERCEPTS:
		ev.type = VPMC_EV_NINTERCEPTS;
		ev.index = w[0];
		ev.value = (uint64_t)w[1] << 32 | w[2];
		break;
	case G_NEXIT:
		ev.type = VPMC_EV_NEXIT;
		snprintf(ev.reason, sizeof(ev.reason), "%s", e->reason);
		ev.value = e->info1;
		ev.has_value = true;
		break;
	case G_NINJECT:
		ev.type = VPMC_EV_NINJECT;
		snprintf(ev.reason, sizeof(ev.reason), "%s", e->reason);
		break;
	}
	g->events++;
	return vpmc_vtr_write_event(g->out, &ev);
}

/* libtraceevent's kvm plugin name of an SVM reason (VMX names are the same in both). */
static const char *plugin_reason(const struct gen *g, const char *reason)
{
	const char *plugin = NULL;
	uint32_t code;

	if (!g->vmx && x86_svm_exit_code(reason, &code))
		plugin = x86_svm_exit_plugin_name(code);
	return plugin ? plugin : reason;
}

/* Raw ftrace (tracefs "trace" file) with the current kernel layouts (K4). */
static int write_ftrace(struct gen *g, const struct gen_vcpu *v, const struct gev *e)
{
	const uint32_t *w = g->cfg.a.svm_intercepts;
	FILE *f = g->out;

	fprintf(f, " CPU %u/KVM-%u [%03u] %s %" PRIu64 ".%09" PRIu64 ": ", v->id, 1000 + v->id,
		v->id % 1000, e->type == G_EXIT || e->type == G_ENTRY ? "d...." : ".....",
		e->t / 1000000000, e->t % 1000000000);
	switch (e->type) {
	case G_EXIT:
	case G_NEXIT:
		fprintf(f, "%s: vcpu %u reason %s rip 0x%" PRIx64 " info1 0x%016" PRIx64
			" info2 0x%016x intr_info 0x%08x error_code 0x%08x\n",
			e->type == G_EXIT ? "kvm_exit" : "kvm_nested_vmexit", v->id, e->reason,
			e->rip, e->info1, 0, 0, 0);
		break;
	case G_NENTER:
		if (g->vmx)
			fprintf(f, "kvm_nested_vmenter: rip: 0x%016llx vmcs: 0x%016" PRIx64
				" nested_rip: 0x%016llx int_ctl: 0x00000000 event_inj: 0x00000000 "
				"nested_ept=y nested_eptp: 0x000000000011e05e\n", VMX_VMRESUME_RIP,
				e->gpa, L2_ENTRY_RIP);
		else
			fprintf(f, "kvm_nested_vmenter: rip: 0x%016llx vmcb: 0x%016" PRIx64
				" nested_rip: 0x%016llx int_ctl: 0x01000000 event_inj: 0x00000000 "
				"nested_npt=y nested_cr3: 0x0000000000123000\n", SVM_VMRUN_RIP,
				e->gpa, L2_ENTRY_RIP);
		break;
	case G_NINTERCEPTS:
		fprintf(f, "kvm_nested_intercepts: cr_read: 0000 cr_write: 0010 excp: 40060002 "
			"intercepts: %08x %08x %08x\n", w[0], w[1], w[2]);
		break;
	case G_ENTRY:
		fprintf(f, "kvm_entry: vcpu %u, rip 0x%" PRIx64 "\n", v->id, e->rip);
		break;
	case G_NINJECT:
		fprintf(f, "kvm_nested_vmexit_inject: reason: %s ext_inf1: 0x%016" PRIx64
			" ext_inf2: 0x%016x ext_int: 0x%08x ext_int_err: 0x%08x\n", e->reason,
			e->info1, 0, 0, 0);
		break;
	}
	return ferror(f) ? VPMC_ERR_IO : 0;
}

/* trace-cmd report with the kvm plugin's layouts of older kernels: kvm_nested_vmrun, one-word
 * kvm_nested_intercepts, EXIT_* names, no vcpu field but kvm_entry's; microseconds. */
static int write_legacy(struct gen *g, const struct gen_vcpu *v, const struct gev *e)
{
	const uint32_t *w = g->cfg.a.svm_intercepts;
	uint64_t us = e->t / 1000;
	FILE *f = g->out;

	fprintf(f, " qemu-system-x86-%u [%03u] %" PRIu64 ".%06" PRIu64 ": ", 1000 + v->id,
		v->id % 1000, us / 1000000, us % 1000000);
	switch (e->type) {
	case G_EXIT:
		fprintf(f, "kvm_exit:             reason %s rip 0x%" PRIx64 " info %" PRIx64 " 0\n",
			plugin_reason(g, e->reason), e->rip, e->info1);
		break;
	case G_NEXIT:
		fprintf(f, "kvm_nested_vmexit:    rip %" PRIx64 " reason %s info1 %" PRIx64
			" info2 0 int_info 0 int_info_err 0\n", e->rip, plugin_reason(g, e->reason),
			e->info1);
		break;
	case G_NENTER:
		if (g->vmx)
			fprintf(f, "kvm_nested_vmenter:   rip: 0x%016llx vmcs: 0x%016" PRIx64
				" nested_rip: 0x%016llx int_ctl: 0x00000000 event_inj: 0x00000000 "
				"nested_ept=y nested_eptp: 0x000000000011e05e\n", VMX_VMRESUME_RIP,
				e->gpa, L2_ENTRY_RIP);
		else
			fprintf(f, "kvm_nested_vmrun:     rip: 0x%016llx vmcb: 0x%016" PRIx64
				" nrip: 0x%016llx int_ctl: 0x01000000 event_inj: 0x00000000 npt: on\n",
				SVM_VMRUN_RIP, e->gpa, L2_ENTRY_RIP);
		break;
	case G_NINTERCEPTS:
		fprintf(f, "kvm_nested_intercepts: cr_read: 0000 cr_write: 0010 excp: 40060002 "
			"intercept: %016" PRIx64 "\n", (uint64_t)w[1] << 32 | w[0]);
		break;
	case G_ENTRY:
		fprintf(f, "kvm_entry:            vcpu %u, rip 0x%" PRIx64 "\n", v->id, e->rip);
		break;
	case G_NINJECT:
		fprintf(f, "kvm_nested_vmexit_inject: reason %s info1 %" PRIx64 " info2 0 int_info 0 "
			"int_info_err 0\n", plugin_reason(g, e->reason), e->info1);
		break;
	}
	return ferror(f) ? VPMC_ERR_IO : 0;
}

static int header(struct gen *g)
{
	struct vpmc_nested_assume a = g->cfg.a, def;
	struct vpmc_pmu_config pmu;
	int k, ret;

	if (g->o->format != VPMC_NESTED_GEN_VTR)
		return 0;
	/* the converter's defaults for the isa's vendor (nSVM runs on AMD): what convert
	 * --vendor amd|intel makes of the ftrace output */
	vpmc_pmu_config_default(&pmu, g->vmx ? VPMC_VENDOR_INTEL : VPMC_VENDOR_AMD);
	ret = vpmc_vtr_write_header(g->out, &pmu, NULL, NULL);
	if (ret)
		return ret;
	vpmc_nested_assume_default(&def);
	a.recorded = g->o->design;
	a.given = (1u << VPMC_NESTED_KEY_ISA) | (1u << VPMC_NESTED_KEY_PROFILE) |
		  (1u << VPMC_NESTED_KEY_L1MEM) | (1u << VPMC_NESTED_KEY_RECORDED) |
		  (1u << VPMC_NESTED_KEY_GHZ);
	for (k = VPMC_NESTED_KEY_APIC; k < VPMC_NESTED_KEY_NR; k++) {
		char x[128], y[128];

		vpmc_nested_assume_format(&a, 1u << k, x, sizeof(x));
		vpmc_nested_assume_format(&def, 1u << k, y, sizeof(y));
		if (strcmp(x, y))
			a.given |= 1u << k;
	}
	ret = vpmc_vtr_write_nested(g->out, &a);
	return ret ? ret : vpmc_vtr_write_source(g->out, "gen", "nested-pingpong");
}

/* The heap of vCPUs by their next event: (time, vCPU) ascending. */
static bool before(const struct gen *g, uint32_t a, uint32_t b)
{
	uint64_t ta = g->v[a].ev[g->v[a].pos].t, tb = g->v[b].ev[g->v[b].pos].t;

	return ta < tb || (ta == tb && a < b);
}

static void sift_down(struct gen *g, unsigned int i)
{
	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, m = i;
		uint32_t x;

		if (l < g->nr_heap && before(g, g->heap[l], g->heap[m]))
			m = l;
		if (r < g->nr_heap && before(g, g->heap[r], g->heap[m]))
			m = r;
		if (m == i)
			return;
		x = g->heap[i];
		g->heap[i] = g->heap[m];
		g->heap[m] = x;
		i = m;
	}
}

static int __attribute__((format(printf, 3, 4))) gen_fail(struct gen *g, int err,
							   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(g->err, g->errlen, fmt, ap);
	va_end(ap);
	return err;
}

static int check(struct gen *g)
{
	const struct vpmc_nested_gen_opts *o = g->o;

	if (!o->iterations || o->iterations > 100000000)
		return gen_fail(g, VPMC_ERR_INVAL, "--iterations: expected 1 to 10^8");
	if (!o->vcpus || o->vcpus > VPMC_MAX_VCPUS)
		return gen_fail(g, VPMC_ERR_INVAL, "--vcpus: expected 1 to %d", VPMC_MAX_VCPUS);
	if (!o->nr_l2_exits || o->nr_l2_exits > VPMC_NESTED_GEN_MAX_EXITS)
		return gen_fail(g, VPMC_ERR_INVAL, "--l2-exit: 1 to %d of them",
				VPMC_NESTED_GEN_MAX_EXITS);
	if (o->split[0] + o->split[1] + o->split[2] != 100)
		return gen_fail(g, VPMC_ERR_INVAL, "--split: the three parts must add up to 100");
	if (o->jitter_pct > 100)
		return gen_fail(g, VPMC_ERR_INVAL, "--jitter: expected 0 to 100 (percent)");
	if (!o->l2_per_l1 || o->l2_per_l1 > 4096)
		return gen_fail(g, VPMC_ERR_INVAL, "--l2-per-l1: expected 1 to 4096");
	if (o->l1_handler > VPMC_NESTED_COST_MAX)
		return gen_fail(g, VPMC_ERR_INVAL, "--l1-handler: expected 0 to 10^8 cycles");
	return 0;
}

int vpmc_nested_gen(const struct vpmc_nested_gen_opts *o, FILE *out, char *err, size_t errlen)
{
	struct gen g = { .o = o, .out = out, .err = err, .errlen = errlen, .rng = o->seed };
	struct vpmc__errbuf eb;
	unsigned int i;
	int ret;

	if (errlen)
		err[0] = '\0';
	ret = check(&g);
	if (ret)
		return ret;
	nested_cfg_init(&g.cfg, &o->model, NULL);
	if (!g.cfg.isa_known)
		g.cfg.a.isa = VPMC_NESTED_ISA_SVM;
	g.vmx = g.cfg.a.isa == VPMC_NESTED_ISA_VMX;
	ret = nested_cfg_settle(&g.cfg, &o->model, &eb);
	if (ret)
		return gen_fail(&g, ret, "%s", eb.msg);
	g.counter.cfg = &g.cfg;
	for (i = 0; i < o->nr_l2_exits; i++)
		g.block += o->l2_exits[i].weight;
	g.v = calloc(o->vcpus, sizeof(*g.v));
	g.heap = calloc(o->vcpus, sizeof(*g.heap));
	ret = g.v && g.heap ? 0 : VPMC_ERR_NOMEM;
	for (i = 0; !ret && i < o->vcpus; i++) {
		g.v[i].id = i;
		g.v[i].t = T0_NS;
		ret = nested_caches_init(&g.v[i].caches);
		if (!ret)
			ret = fill(&g, &g.v[i]);
		g.heap[g.nr_heap++] = i;
	}
	if (!ret)
		ret = header(&g);
	for (i = g.nr_heap / 2; !ret && i-- > 0;)
		sift_down(&g, i);
	while (!ret && g.nr_heap) {
		struct gen_vcpu *v = &g.v[g.heap[0]];
		const struct gev *e = &v->ev[v->pos];

		ret = o->format == VPMC_NESTED_GEN_VTR ? write_vtr(&g, v, e) :
		      o->format == VPMC_NESTED_GEN_FTRACE ? write_ftrace(&g, v, e) :
							     write_legacy(&g, v, e);
		if (++v->pos == v->nr) {
			if (!(++g.rts % GEN_PROGRESS_RTS) && o->progress)
				o->progress(o->progress_data, g.rts, o->iterations * o->vcpus);
			if (++v->iter == o->iterations) {
				g.heap[0] = g.heap[--g.nr_heap];
			} else {
				ret = ret ? ret : fill(&g, v);
			}
		}
		if (g.nr_heap)
			sift_down(&g, 0);
	}
	if (!ret && o->format == VPMC_NESTED_GEN_VTR)
		ret = vpmc_vtr_write_end(g.out, g.events);
	for (i = 0; g.v && i < o->vcpus; i++)
		nested_caches_release(&g.v[i].caches);
	free(g.v);
	free(g.heap);
	if (ret == VPMC_ERR_NOMEM)
		return gen_fail(&g, ret, "%s", vpmc_strerror(ret));
	if (ret)
		return gen_fail(&g, ret, "write error");
	return 0;
}
