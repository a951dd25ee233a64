// SPDX-License-Identifier: GPL-2.0-only
/* check_nested_classify.c - The round-trip state machine (nested-gpc.md §6.3, §6.4, §6.7) on
 * hand-written .vtr and on every nested excerpt of traces/public (§9.3). The expected counts are
 * read off the lines by hand; the cycles follow from §7.2 with the default parameters (debug:
 * map pair 2,600, read 510, hit 300, load 10; rt_fixed SVM 37,300, VMX 42,700; l0_fixed 16,000). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "nested-local.h"

static const char *traces_dir(void)
{
	const char *t = getenv("VPMC_TRACES");

	return t ? t : "../../traces";
}

/* Run @data (a .vtr in memory, or with @file a trace under traces/public) through a model with
 * options @o (NULL: defaults). *@ret: vpmc_nested_run()'s return. */
static struct vpmc_nested *run(const char *data, const char *file,
			       const struct vpmc_nested_opts *o, int *ret)
{
	struct vpmc_reader_opts ro;
	struct vpmc_reader *r;
	struct vpmc_nested *n;
	char path[4096];

	vpmc_reader_opts_default(&ro);
	ro.nested = true;
	ck_assert_int_eq(vpmc_reader_new(&r, &ro), 0);
	if (file) {
		snprintf(path, sizeof(path), "%s/public/%s", traces_dir(), file);
		ck_assert_int_eq(vpmc_reader_open(r, path), 0);
	} else {
		ck_assert_int_eq(vpmc_reader_open_mem(r, "v.vtr", data, strlen(data)), 0);
	}
	ck_assert_int_eq(vpmc_nested_new(&n, o), 0);
	*ret = vpmc_nested_run(n, r, file ? file : "v.vtr");
	vpmc_reader_free(r);
	return n;
}

static uint64_t p50_b(const struct vpmc_nested *n, enum nested_kind k)
{
	return nested_dist_p50(n->use_measured ? &n->rows[k].meas_b : &n->rows[k].model_b);
}

static uint64_t p50_g(const struct vpmc_nested *n, enum nested_kind k)
{
	return nested_dist_p50(n->use_measured ? &n->rows[k].meas_g : &n->rows[k].model_g);
}

/* ---------------------------------------------------------------------------------------------
 * Hand-written traces
 */

/* §8.1's SVM iteration: the RT window is 1,000,019,428 - 1,000,000,000 = 19,428 ns, 47,598.6
 * cycles at 2.45 GHz, so 47,599; the gpc design's is that minus the ops difference, (2 x 2,600
 * + 10 x 510) - (4 x 300 + 10 x 10) = 9,000: 38,599. */
static const char svm_rt[] =
	"!vpmcsim-trace 1\n"
	"!nested isa=svm\n"
	"1000000000 0 exit vmrun\n"
	"1000000000 0 nenter 0x10a000\n"
	"1000000000 0 nintercepts 0xfd44bfeb 0x217f 0x0\n"
	"1000009994 0 entry\n"
	"1000011516 0 exit cpuid\n"
	"1000011516 0 nexit cpuid info1=0x0\n"
	"1000019428 0 ninject cpuid\n"
	"1000019428 0 entry\n";

START_TEST(test_svm_round_trip_measured)
{
	struct vpmc_nested *n;
	int ret;

	n = run(svm_rt, NULL, NULL, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert(n->usable && n->use_measured);
	ck_assert_uint_eq(n->rows[NK_CPUID].n, 1);
	ck_assert_uint_eq(n->rows[NK_CPUID].ops.maps_b, 2);
	ck_assert_uint_eq(n->rows[NK_CPUID].ops.reads_b, 10);
	ck_assert_uint_eq(n->rows[NK_CPUID].ops.hits_g, 4);
	ck_assert_uint_eq(n->rows[NK_CPUID].ops.loads_g, 10);
	ck_assert_uint_eq(nested_dist_p50(&n->rows[NK_CPUID].measured), 47599);
	ck_assert_uint_eq(p50_b(n, NK_CPUID), 47599);
	ck_assert_uint_eq(p50_g(n, NK_CPUID), 38599);
	/* the model anchor: 37,300 + 10,300 and 37,300 + 1,300 */
	ck_assert_uint_eq(nested_dist_p50(&n->rows[NK_CPUID].model_b), 47600);
	ck_assert_uint_eq(nested_dist_p50(&n->rows[NK_CPUID].model_g), 38600);
	ck_assert_uint_eq(n->tot.l1_exits, 1);
	ck_assert_uint_eq(n->tot.l2_exits, 1);
	ck_assert_uint_eq(n->tot.roundtrips, 1);
	vpmc_nested_free(n);
}
END_TEST

START_TEST(test_recorded_gpc)
{
	struct vpmc_nested_opts o;
	struct vpmc_nested *n;
	const char *why;
	int ret;

	/* --recorded gpc: the window is the gpc design's, 47,599; the baseline's is 9,000 more */
	vpmc_nested_opts_default(&o);
	ck_assert_int_eq(vpmc_nested_assume_set(&o.assume, "recorded", 8, "gpc", 3, &why), 0);
	n = run(svm_rt, NULL, &o, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(p50_b(n, NK_CPUID), 56599);
	ck_assert_uint_eq(p50_g(n, NK_CPUID), 47599);
	vpmc_nested_free(n);
}
END_TEST

/* An L0-handled IN of port 0x70 (EXITINFO1 0x700011: port << 16 | 1 byte << 4 | IN) inside the
 * run: 1 IOPM read / 1 hit + 1 load; its window 1,000 ns = 2,450 cycles; the RT's window,
 * 5,000 ns = 12,250 cycles, takes it in (§6.7). The round trip is an MSR one: 11 reads, 5 hits. */
static const char svm_l0_and_msr[] =
	"!vpmcsim-trace 1\n"
	"0 0 exit vmrun\n"
	"0 0 nenter 0x10a000\n"
	"0 0 nintercepts 0xfd44bfeb 0x217f 0x0\n"
	"1000 0 entry\n"
	"2000 0 exit io\n"
	"2000 0 nexit io info1=0x700011\n"
	"3000 0 entry\n"
	"4000 0 exit msr\n"
	"4000 0 nexit msr info1=0x0\n"
	"5000 0 ninject msr\n"
	"5000 0 entry\n";

START_TEST(test_l0_handled_and_msr_intercept)
{
	struct vpmc_nested *n;
	int ret;

	n = run(svm_l0_and_msr, NULL, NULL, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_int_eq(n->cfg.a.isa, VPMC_NESTED_ISA_SVM); /* from "vmrun" */
	ck_assert_uint_eq(n->rows[NK_L0_IO].n, 1);
	ck_assert_uint_eq(n->rows[NK_L0_IO].ops.reads_b, 1);
	ck_assert_uint_eq(n->rows[NK_L0_IO].ops.hits_g, 1);
	ck_assert_uint_eq(nested_dist_p50(&n->rows[NK_L0_IO].measured), 2450);
	/* model: 16,000 + 510 and 16,000 + 300 + 10 */
	ck_assert_uint_eq(nested_dist_p50(&n->rows[NK_L0_IO].model_b), 16510);
	ck_assert_uint_eq(nested_dist_p50(&n->rows[NK_L0_IO].model_g), 16310);
	ck_assert_uint_eq(n->rows[NK_MSR].n, 1);
	ck_assert_uint_eq(n->rows[NK_MSR].ops.reads_b, 11);
	ck_assert_uint_eq(n->rows[NK_MSR].ops.hits_g, 5);
	ck_assert_uint_eq(nested_dist_p50(&n->rows[NK_MSR].measured), 12250);
	/* model: 37,300 + 990 + 2 x 2,600 + 11 x 510 = 49,100; 38,290 + 5 x 300 + 11 x 10 */
	ck_assert_uint_eq(nested_dist_p50(&n->rows[NK_MSR].model_b), 49100);
	ck_assert_uint_eq(nested_dist_p50(&n->rows[NK_MSR].model_g), 39900);
	ck_assert_uint_eq(n->tot.l2_exits, 2);
	ck_assert_uint_eq(n->tot.l0_handled, 1);
	/* all times are multiples of 1,000 ns: not usable, the model anchor */
	ck_assert(!n->usable && !n->use_measured);
	vpmc_nested_free(n);
}
END_TEST

/* Events the state machine cannot place are counted and shown with FILE:LINE, never dropped
 * silently: kvm_nested_intercepts after the run began (line 6), an inject while L1 runs (10). */
static const char unplaced[] =
	"!vpmcsim-trace 1\n"
	"0 0 exit vmrun\n"
	"0 0 nenter 0x10a000\n"
	"10 0 entry\n"
	"20 0 exit cpuid\n"
	"20 0 nintercepts 0xfd44bfeb 0x217f 0x0\n"
	"20 0 nexit cpuid\n"
	"30 0 ninject cpuid\n"
	"30 0 entry\n"
	"40 0 ninject cpuid\n";

START_TEST(test_unplaced_events_are_reported)
{
	struct vpmc_nested *n;
	int ret;

	n = run(unplaced, NULL, NULL, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(n->tot.unplaced, 2);
	ck_assert_uint_eq(vpmc_nested_nr_warnings(n), 2);
	ck_assert_str_eq(vpmc_nested_warning(n, 0), "v.vtr:6: vCPU 0: nintercepts outside an "
			 "emulated VM-entry (expected right after kvm_nested_vmenter / vmrun): not "
			 "counted");
	ck_assert_str_eq(vpmc_nested_warning(n, 1), "v.vtr:10: vCPU 0: ninject while the vCPU "
			 "runs L1 (no emulated VM-entry since the last emulated VM-exit): not counted");
	/* the one round trip is still there, with the assumed intercepts */
	ck_assert_uint_eq(n->rows[NK_CPUID].n, 1);
	vpmc_nested_free(n);
}
END_TEST

/* VMX: a run ended by a late VM-Fail is a synthesized round trip (entry vmlaunch, 3 maps); an
 * early one (no run) maps nothing; a second kvm_nested_vmenter before any end leaves an
 * incomplete run; an invalidation makes the next entry refresh its 3 caches and kick the 2
 * APIC-page ones; a new vmcs12 is a GPA change (the nested context keeps it warm). */
static const char vmx_mix[] =
	"!vpmcsim-trace 1\n"
	"!nested isa=vmx\n"
	"0 0 exit VMLAUNCH\n"
	"0 0 nenter 0x117000\n"
	"0 0 nfail\n"
	"10 0 entry\n"
	"20 0 nfail\n"
	"30 0 exit VMRESUME\n"
	"30 0 nenter 0x117000\n"
	"40 0 nenter 0x118000\n"
	"50 0 entry\n"
	"60 0 exit CPUID\n"
	"60 0 nexit CPUID\n"
	"70 0 ninject CPUID\n"
	"70 0 entry\n"
	"80 0 ninval\n"
	"90 0 exit VMRESUME\n"
	"90 0 nenter 0x118000\n"
	"100 0 entry\n"
	"110 0 exit MSR_WRITE\n"
	"110 0 nexit MSR_WRITE\n"
	"120 0 ninject MSR_WRITE\n"
	"120 0 entry\n";

START_TEST(test_vmx_late_fail_incomplete_invalidation)
{
	struct vpmc_nested *n;
	int ret;

	n = run(vmx_mix, NULL, NULL, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(n->rows[NK_SYNTH].n, 1);
	ck_assert_uint_eq(n->rows[NK_SYNTH].ops.maps_b, 3);
	ck_assert_uint_eq(n->tot.early_vmfails, 1);
	ck_assert_uint_eq(n->tot.incomplete_runs, 1);
	ck_assert_uint_eq(n->tot.gpa_changes, 1);
	ck_assert_uint_eq(n->rows[NK_CPUID].n, 1);
	ck_assert_uint_eq(n->rows[NK_CPUID].ops.refreshes_g, 0);
	ck_assert_uint_eq(n->rows[NK_MSR].n, 1);
	ck_assert_uint_eq(n->rows[NK_MSR].ops.refreshes_g, 3);
	ck_assert_uint_eq(n->rows[NK_MSR].ops.kicks_g, 2);
	ck_assert_uint_eq(n->rows[NK_MSR].ops.reads_b, 1);
	ck_assert_uint_eq(n->tot.invalidations, 1);
	/* the walk: the 3 caches of vmcs12 0x118000 (the 3 of 0x117000 too: 6) x 150 */
	ck_assert_uint_eq(n->tot.inval_walk_cycles, 6 * 150);
	/* model, MSR: 42,700 + 990 + 3 x 2,600 + 510 = 52,000; gpc 43,690 + 3 x (2,600 + 800)
	 * + 3 x 10 + 510 + 2 x 19,200 = 43,690 + 10,200 + 30 + 510 + 38,400 = 92,830 */
	ck_assert_uint_eq(nested_dist_p50(&n->rows[NK_MSR].model_b), 52000);
	ck_assert_uint_eq(nested_dist_p50(&n->rows[NK_MSR].model_g), 92830);
	vpmc_nested_free(n);
}
END_TEST

START_TEST(test_vmload_vmsave_in_the_totals)
{
	static const char data[] = "!vpmcsim-trace 1\n0 0 exit vmload\n10 0 entry\n"
				   "20 0 exit EXIT_VMSAVE\n30 0 entry\n";
	struct vpmc_nested *n;
	int ret;

	/* vmload_vmsave_interception() maps the VMCB in both designs: 2 maps each, no RT */
	n = run(data, NULL, NULL, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(n->tot.vmload_vmsave, 2);
	ck_assert_uint_eq(n->tot.ops.maps_b, 2);
	ck_assert_uint_eq(n->tot.ops.maps_g, 2);
	ck_assert_uint_eq(n->tot.roundtrips, 0);
	ck_assert_uint_eq(n->tot.l1_exits, 2);
	vpmc_nested_free(n);
}
END_TEST

START_TEST(test_isa_contradiction)
{
	struct vpmc_nested_opts o;
	struct vpmc_reader_opts ro;
	struct vpmc_reader *r;
	struct vpmc_nested *n;
	const char *why;
	static const char text[] = "kvm_nested_vmenter: rip: 0xffffffffc0a01234 vmcb: "
				   "0x000000000010a000 nested_rip: 0x0000000000401002\n";

	/* --isa vmx on a "vmcb:" label: a usage error (exit 2) naming the line */
	vpmc_nested_opts_default(&o);
	ck_assert_int_eq(vpmc_nested_assume_set(&o.assume, "isa", 3, "vmx", 3, &why), 0);
	vpmc_reader_opts_default(&ro);
	ro.nested = true;
	ck_assert_int_eq(vpmc_reader_new(&r, &ro), 0);
	ck_assert_int_eq(vpmc_reader_open_mem(r, "t.txt", text, strlen(text)), 0);
	ck_assert_int_eq(vpmc_nested_new(&n, &o), 0);
	ck_assert_int_eq(vpmc_nested_run(n, r, "t.txt"), VPMC_ERR_INVAL);
	ck_assert_str_eq(vpmc_nested_error(n), "t.txt:1: a 'vmcb:' label (isa svm) contradicts "
			 "--isa vmx");
	vpmc_nested_free(n);
	vpmc_reader_free(r);
}
END_TEST

START_TEST(test_no_nested_event_warns)
{
	static const char data[] = "!vpmcsim-trace 1\n0 0 exit CPUID\n10 0 entry\n";
	struct vpmc_nested *n;
	int ret;

	n = run(data, NULL, NULL, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(vpmc_nested_nr_warnings(n), 1);
	ck_assert_str_eq(vpmc_nested_warning(n, 0), "v.vtr: no kvm_nested_* event: nothing to "
			 "classify (1 exits, all outside guest mode)");
	vpmc_nested_free(n);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * traces/public, default options (§9.3), counted by hand from each file.
 */
static const struct {
	const char *file;
	enum vpmc_nested_isa isa;
	unsigned int vcpus;
	uint64_t l2_exits, rts[NK_NR], incomplete, assumed, l1_exits;
	uint64_t maps_b, reads_b, maps_g, hits_g; /* totals */
	uint64_t p50_b, p50_g;                    /* of the row with round trips, if any */
} excerpts[] = {
	/* 13 kvm_exit, none followed by kvm_nested_vmexit: all L1 exits (vCPUs 0 and 1) */
	{ "12-vmx-nested-l1-cr0wp-triple-fault-newfmt-multivcpu.txt", VPMC_NESTED_ISA_VMX, 2, 0,
	  { 0 }, 0, 0, 13, 0, 0, 0, 0, 0, 0 },
	/* kvm_exit EPT_VIOLATION then kvm_nested_vmexit: an L2 exit never closed */
	{ "17-vmx-nested-hyperv-l2-ept-violation-emulate-fail-trace-cmd.txt", VPMC_NESTED_ISA_VMX,
	  1, 1, { 0 }, 1, 0, 0, 0, 0, 0, 0, 0, 0 },
	/* a bare kvm_nested_vmexit: the exit opened from it, never closed */
	{ "18-vmx-nested-bare-event-lines-commit-msg.txt", VPMC_NESTED_ISA_VMX, 1, 1, { 0 }, 1, 0,
	  0, 0, 0, 0, 0, 0, 0 },
	/* two kvm_nested_vmexit npf: the second closes the first, both incomplete */
	{ "20-svm-nested-vmexit-cant-find-field-libtraceevent.txt", VPMC_NESTED_ISA_SVM, 1, 2,
	  { 0 }, 2, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "21-svm-nested-vmexit-oldfmt-exit-npf-trace-cmd.txt", VPMC_NESTED_ISA_SVM, 1, 2, { 0 }, 2,
	  0, 0, 0, 0, 0, 0, 0, 0 },
	/* EXIT_RSM (L1), kvm_nested_vmrun (entry rsm), intercepts fd44bfeb, entry, EXIT_NPF +
	 * npf (L2), inject EXIT_NPF: the same code but L0's (synthesized); EXIT_EXCP_GP (L1).
	 * Baseline: VMCB12 + HSAVE at RSM, VMCB12 at the inject = 3 maps, 10 merge reads; gpc:
	 * HSAVE 1 map, VMCB12 2 hits + 2 MSRPM hits = 4, 10 loads. 37,300 + 7,800 + 5,100 =
	 * 50,200; 37,300 + 2,600 + 1,200 + 100 = 41,200 */
	{ "23-svm-nested-smm-rsm-vmrun-intercepts-bare-lines-rejoined.txt", VPMC_NESTED_ISA_SVM,
	  1, 1, { [NK_SYNTH] = 1 }, 0, 0, 2, 3, 10, 1, 4, 50200, 41200 },
	/* kvm_nested_vmenter after RSM (no exit in the excerpt: entry none), inject TRIPLE_FAULT
	 * with no L2 exit: synthesized; 3 maps / 3 hits; 42,700 + 7,800 = 50,500, 42,700 + 900 +
	 * 30 = 43,630 */
	{ "32-vmx-nested-vmenter-vmexit-inject-raw-fmt-smm-bare-rejoined.txt", VPMC_NESTED_ISA_VMX,
	  1, 0, { [NK_SYNTH] = 1 }, 0, 0, 0, 3, 0, 0, 3, 50500, 43630 },
	/* DR_ACCESS from L2 reflected with no vmenter in the excerpt (assumed); then VMREAD x 2,
	 * DR_ACCESS, PREEMPTION_TIMER, VMRESUME in L1 */
	{ "34-vmx-nested-dr6-l0-view-trimmed-fields-vmread-vmresume.txt", VPMC_NESTED_ISA_VMX, 1,
	  1, { [NK_OTHER] = 1 }, 0, 1, 5, 3, 0, 0, 3, 50500, 43630 },
	{ "36-svm-nested-vmexit-raw-newfmt-hypercall-single.txt", VPMC_NESTED_ISA_SVM, 1, 1, { 0 },
	  1, 0, 0, 0, 0, 0, 0, 0, 0 },
	/* vCPUs 12 and 3, one bare kvm_nested_vmexit each */
	{ "37-vmx-nested-vmexit-failed-vmentry-flag-suffix-rejoined.txt", VPMC_NESTED_ISA_VMX, 2,
	  2, { 0 }, 2, 0, 0, 0, 0, 0, 0, 0, 0 },
	/* an inject EXTERNAL_INTERRUPT with neither vmenter nor L2 exit: assumed, synthesized;
	 * then MSR_WRITE in L1 */
	{ "39-vmx-nested-windows-cg-perf-script-split-irqchip-msr-ioapic-eoi-rejoined.txt",
	  VPMC_NESTED_ISA_VMX, 1, 0, { [NK_SYNTH] = 1 }, 0, 1, 1, 3, 0, 0, 3, 50500, 43630 },
	/* vCPU 3: 3 L2 IO_INSTRUCTION exits, the first two resumed into L2 (L0-handled), the last
	 * open at the end; KVM as L1 uses no IO bitmaps: 0 reads, 16,000 both */
	{ "50-vmx-nested-jailhouse-l1-l2-io-loop-vmport-trace-cmd.txt", VPMC_NESTED_ISA_VMX, 1, 3,
	  { [NK_L0_IO] = 2 }, 1, 0, 0, 0, 0, 0, 0, 16000, 16000 },
};

START_TEST(test_public_excerpts)
{
	const char *f = excerpts[_i].file;
	struct vpmc_nested *n;
	int ret, k;

	n = run(NULL, f, NULL, &ret);
	ck_assert_msg(!ret, "%s: %d %s", f, ret, vpmc_nested_error(n));
	ck_assert_msg(n->cfg.a.isa == excerpts[_i].isa, "%s: isa", f);
	ck_assert_msg(n->nr_vcpus == excerpts[_i].vcpus, "%s: %u vCPUs", f, n->nr_vcpus);
	ck_assert_msg(n->tot.l2_exits == excerpts[_i].l2_exits, "%s: l2 exits %llu", f,
		      (unsigned long long)n->tot.l2_exits);
	for (k = 0; k < NK_NR; k++) {
		ck_assert_msg(n->rows[k].n == excerpts[_i].rts[k], "%s: %s: %llu", f,
			      nested_kind_name(k), (unsigned long long)n->rows[k].n);
		if (n->rows[k].n) {
			ck_assert_msg(p50_b(n, k) == excerpts[_i].p50_b, "%s: p50 base %llu", f,
				      (unsigned long long)p50_b(n, k));
			ck_assert_msg(p50_g(n, k) == excerpts[_i].p50_g, "%s: p50 gpc %llu", f,
				      (unsigned long long)p50_g(n, k));
		}
	}
	ck_assert_msg(n->tot.incomplete_exits == excerpts[_i].incomplete, "%s: incomplete", f);
	ck_assert_msg(n->tot.assumed_entries == excerpts[_i].assumed, "%s: assumed", f);
	ck_assert_msg(n->tot.l1_exits == excerpts[_i].l1_exits, "%s: l1 exits %llu", f,
		      (unsigned long long)n->tot.l1_exits);
	ck_assert_msg(n->tot.ops.maps_b == excerpts[_i].maps_b &&
		      n->tot.ops.reads_b == excerpts[_i].reads_b &&
		      n->tot.ops.maps_g + n->tot.ops.refreshes_g == excerpts[_i].maps_g &&
		      n->tot.ops.hits_g == excerpts[_i].hits_g, "%s: ops", f);
	/* none has usable times: µs resolution or none (§9.3) */
	ck_assert_msg(!n->usable, "%s: usable", f);
	ck_assert_uint_eq(n->tot.unplaced, 0);
	vpmc_nested_free(n);
}
END_TEST

START_TEST(test_excerpt_50_with_io_bitmaps)
{
	struct vpmc_nested_opts o;
	struct vpmc_nested *n;
	const char *why;
	int ret;

	/* --vmcs12 io_bitmap=1: port 0x5658, 4 bytes, one bitmap byte: 1 read in both designs
	 * (v4 keeps it): 16,510 / 16,510, saved 0 */
	vpmc_nested_opts_default(&o);
	ck_assert_int_eq(vpmc_nested_assume_set(&o.assume, "io_bitmap", 9, "1", 1, &why), 0);
	n = run(NULL, "50-vmx-nested-jailhouse-l1-l2-io-loop-vmport-trace-cmd.txt", &o, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(n->rows[NK_L0_IO].ops.reads_b, 2);
	ck_assert_uint_eq(n->rows[NK_L0_IO].ops.reads_g, 2);
	ck_assert_uint_eq(p50_b(n, NK_L0_IO), 16510);
	ck_assert_uint_eq(p50_g(n, NK_L0_IO), 16510);
	vpmc_nested_free(n);
}
END_TEST

static Suite *nested_classify_suite(void)
{
	Suite *s = suite_create("nested_classify");
	TCase *tc = tcase_create("scenarios");

	tcase_add_test(tc, test_svm_round_trip_measured);
	tcase_add_test(tc, test_recorded_gpc);
	tcase_add_test(tc, test_l0_handled_and_msr_intercept);
	tcase_add_test(tc, test_unplaced_events_are_reported);
	tcase_add_test(tc, test_vmx_late_fail_incomplete_invalidation);
	tcase_add_test(tc, test_vmload_vmsave_in_the_totals);
	tcase_add_test(tc, test_isa_contradiction);
	tcase_add_test(tc, test_no_nested_event_warns);
	suite_add_tcase(s, tc);
	tc = tcase_create("public");
	tcase_add_loop_test(tc, test_public_excerpts, 0, ARRAY_SIZE(excerpts));
	tcase_add_test(tc, test_excerpt_50_with_io_bitmaps);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(nested_classify_suite)
