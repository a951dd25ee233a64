// SPDX-License-Identifier: GPL-2.0-only
/* check_nested_model.c - lib/nested's rules one by one: exit reasons, what each nested event
 * counts in each design (nested-gpc.md §4.3, §5.3, §6.5, §6.6), the cost parameters and the fit
 * to M1 (§7.1, §7.3), the cycles of a round trip (§7.2), the p50. Every expected value is worked
 * out in its comment from the spec's tables and the kernel functions they cite. */
#include "config.h"

#include <string.h>

#include "check_common.h"
#include "nested-local.h"

/* ---------------------------------------------------------------------------------------------
 * Reasons
 */
static const struct {
	const char *reason;
	enum vpmc_nested_isa isa;
	enum nested_rclass cls;
} reasons[] = {
	/* SVM_EXIT_REASONS and the plugin's names map onto the same codes and roles */
	{ "cpuid", VPMC_NESTED_ISA_SVM, NR_CPUID },	{ "EXIT_CPUID", VPMC_NESTED_ISA_SVM, NR_CPUID },
	{ "msr", VPMC_NESTED_ISA_SVM, NR_MSR },		{ "EXIT_MSR", VPMC_NESTED_ISA_SVM, NR_MSR },
	{ "io", VPMC_NESTED_ISA_SVM, NR_IO },		{ "EXIT_IOIO", VPMC_NESTED_ISA_SVM, NR_IO },
	{ "vmrun", VPMC_NESTED_ISA_SVM, NR_ENTRY },	{ "EXIT_RSM", VPMC_NESTED_ISA_SVM, NR_RSM },
	{ "vmload", VPMC_NESTED_ISA_SVM, NR_VMLOAD_SAVE },
	{ "EXIT_VMSAVE", VPMC_NESTED_ISA_SVM, NR_VMLOAD_SAVE },
	/* nested_svm_exit_special(): INTR, NMI, NPF */
	{ "npf", VPMC_NESTED_ISA_SVM, NR_L0_OWNED },	{ "EXIT_INTR", VPMC_NESTED_ISA_SVM, NR_L0_OWNED },
	{ "nmi", VPMC_NESTED_ISA_SVM, NR_L0_OWNED },	{ "hypercall", VPMC_NESTED_ISA_SVM, NR_OTHER },
	{ "GP excp", VPMC_NESTED_ISA_SVM, NR_OTHER },
	/* VMX: first word; the _IMM forms are MSR exits too */
	{ "CPUID", VPMC_NESTED_ISA_VMX, NR_CPUID },	{ "MSR_WRITE_IMM", VPMC_NESTED_ISA_VMX, NR_MSR },
	{ "IO_INSTRUCTION", VPMC_NESTED_ISA_VMX, NR_IO },
	{ "VMLAUNCH", VPMC_NESTED_ISA_VMX, NR_ENTRY },	{ "VMRESUME", VPMC_NESTED_ISA_VMX, NR_ENTRY },
	/* nested_vmx_l0_wants_exit() */
	{ "EPT_VIOLATION", VPMC_NESTED_ISA_VMX, NR_L0_OWNED },
	{ "PREEMPTION_TIMER", VPMC_NESTED_ISA_VMX, NR_L0_OWNED },
	{ "INVALID_STATE FAILED_VMENTRY", VPMC_NESTED_ISA_VMX, NR_OTHER },
	{ "DR_ACCESS", VPMC_NESTED_ISA_VMX, NR_OTHER },
	/* neither alphabet says */
	{ "0x1234", VPMC_NESTED_ISA_NONE, NR_OTHER },
};

START_TEST(test_reason_classes)
{
	struct nested_reason r;

	nested_reason(reasons[_i].reason, &r);
	ck_assert_msg(r.isa == reasons[_i].isa && r.cls == reasons[_i].cls, "%s: isa %d class %d",
		      reasons[_i].reason, r.isa, r.cls);
}
END_TEST

START_TEST(test_reason_same_across_alphabets)
{
	/* §6.4: npf and EXIT_NPF are SVM exit code 0x400 (traces/public/23) */
	ck_assert(nested_reason_same("npf", "EXIT_NPF"));
	ck_assert(nested_reason_same("hypercall", "EXIT_VMMCALL"));
	ck_assert(!nested_reason_same("cpuid", "EXIT_MSR"));
	/* VMX on the first word: the FAILED_VMENTRY flag does not make another reason */
	ck_assert(nested_reason_same("INVALID_STATE FAILED_VMENTRY", "INVALID_STATE"));
	ck_assert(!nested_reason_same("MSR_READ", "MSR_WRITE"));
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Counting rules, on a model set up as the replay sets it up.
 */
struct fixture {
	struct vpmc_nested_opts o;
	struct nested_cfg c;
	struct nested_counter k;
	struct nested_caches cs;
};

static void setup(struct fixture *f, enum vpmc_nested_isa isa, void (*tweak)(struct fixture *))
{
	struct vpmc__errbuf err;
	const char *why;

	memset(f, 0, sizeof(*f));
	vpmc_nested_opts_default(&f->o);
	ck_assert_int_eq(vpmc_nested_assume_set(&f->o.assume, "isa", 3,
						isa == VPMC_NESTED_ISA_VMX ? "vmx" : "svm", 3, &why), 0);
	if (tweak)
		tweak(f);
	nested_cfg_init(&f->c, &f->o, NULL);
	ck_assert_int_eq(nested_cfg_settle(&f->c, &f->o, &err), 0);
	f->k.cfg = &f->c;
	ck_assert_int_eq(nested_caches_init(&f->cs), 0);
}

static void teardown(struct fixture *f)
{
	nested_caches_release(&f->cs);
}

#define W3_KVM_AS_L1 0xfd44bfebu /* traces/public/23: bits 27 IOIO_PROT and 28 MSR_PROT set */

START_TEST(test_svm_vmrun_round_trip)
{
	struct nested_ops o = { 0 };
	struct fixture f;

	setup(&f, VPMC_NESTED_ISA_SVM, NULL);
	ck_assert_int_eq(nested_caches_select(&f.k, &f.cs, 0x10a000), 0);
	nested_count_entry(&f.k, &f.cs, NE_VMRUN, W3_KVM_AS_L1, &o);
	nested_count_exit(&f.k, &f.cs, false, &o);
	/* baseline: nested_svm_copy_vmcb12_to_cache() and nested_svm_vmexit_update_vmcb12()
	 * map VMCB12 (2); nested_svm_merge_msrpm() reads N = 10 chunks. gpc (variant M): VMCB12
	 * hit at entry and exit, 2 MSRPM page hits, 10 loads; nothing mapped, nothing read */
	ck_assert_uint_eq(o.maps_b, 2);
	ck_assert_uint_eq(o.reads_b, 10);
	ck_assert_uint_eq(o.hits_g, 4);
	ck_assert_uint_eq(o.loads_g, 10);
	ck_assert_uint_eq(o.maps_g + o.refreshes_g + o.reads_g, 0);
	teardown(&f);
}
END_TEST

START_TEST(test_svm_entries_rsm_and_set_nested_state)
{
	struct nested_ops rsm = { 0 }, none = { 0 }, nomsr = { 0 };
	struct fixture f;

	setup(&f, VPMC_NESTED_ISA_SVM, NULL);
	nested_count_entry(&f.k, &f.cs, NE_RSM, W3_KVM_AS_L1, &rsm);
	nested_count_entry(&f.k, &f.cs, NE_NONE, W3_KVM_AS_L1, &none);
	nested_count_entry(&f.k, &f.cs, NE_VMRUN, W3_KVM_AS_L1 & ~(1u << 28), &nomsr);
	/* svm_leave_smm(): VMCB12 and HSAVE mapped (2), merge deferred (10 reads); gpc: HSAVE
	 * still mapped, VMCB12 a hit, 2 MSRPM hits */
	ck_assert_uint_eq(rsm.maps_b, 2);
	ck_assert_uint_eq(rsm.reads_b, 10);
	ck_assert_uint_eq(rsm.maps_g, 1);
	ck_assert_uint_eq(rsm.hits_g, 3);
	/* svm_set_nested_state(): no map, the deferred merge */
	ck_assert_uint_eq(none.maps_b, 0);
	ck_assert_uint_eq(none.reads_b, 10);
	ck_assert_uint_eq(none.hits_g, 2);
	/* no MSR_PROT: no merge at all */
	ck_assert_uint_eq(nomsr.reads_b, 0);
	ck_assert_uint_eq(nomsr.loads_g, 0);
	teardown(&f);
}
END_TEST

static void variant_v(struct fixture *f)
{
	f->o.gpc_svm_merge = false;
}

START_TEST(test_svm_variant_v_keeps_the_merge_reads)
{
	struct nested_ops o = { 0 };
	struct fixture f;

	setup(&f, VPMC_NESTED_ISA_SVM, variant_v);
	nested_count_entry(&f.k, &f.cs, NE_VMRUN, W3_KVM_AS_L1, &o);
	/* --gpc-svm-merge no: the merge stays on kvm_vcpu_read_guest() in both designs */
	ck_assert_uint_eq(o.hits_g, 1);
	ck_assert_uint_eq(o.reads_g, 10);
	ck_assert_uint_eq(o.loads_g, 0);
	teardown(&f);
}
END_TEST

/* L2 exits (§6.5). SVM EXITINFO1 of IN/OUT: port << 16 | size << 4 | IN. */
static const struct {
	const char *name, *reason;
	uint64_t info1;
	bool has_info1;
	uint32_t w3;
	uint64_t reads_b, hits_g, loads_g;
} svm_exits[] = {
	{ "msr", "msr", 0, true, W3_KVM_AS_L1, 1, 1, 1 },
	{ "msr without MSR_PROT", "msr", 0, true, W3_KVM_AS_L1 & ~(1u << 28), 0, 0, 0 },
	/* port 0x70, 1 byte: 0 % 8 + 1 <= 8, one byte in IOPM page 0 */
	{ "io 0x70/1", "io", 0x70ull << 16 | 1 << 4 | 1, true, W3_KVM_AS_L1, 1, 1, 1 },
	/* port 0x7f, 2 bytes: 7 + 2 > 8, bytes 15 and 16 of page 0: 1 segment */
	{ "io 0x7f/2", "io", 0x7full << 16 | 2 << 4 | 1, true, W3_KVM_AS_L1, 1, 1, 1 },
	/* port 0x7fff, 2 bytes: bytes 4095 and 4096, pages 0 and 1: 2 segments, 2 caches */
	{ "io 0x7fff/2", "io", 0x7fffull << 16 | 2 << 4 | 1, true, W3_KVM_AS_L1, 2, 2, 2 },
	/* port 0xffff, 4 bytes: bytes 8191 and 8192, pages 1 and 2 */
	{ "io 0xffff/4", "EXIT_IOIO", 0xffffull << 16 | 4 << 4, true, W3_KVM_AS_L1, 2, 2, 2 },
	{ "io without IOIO_PROT", "io", 0x70ull << 16, true, W3_KVM_AS_L1 & ~(1u << 27), 0, 0, 0 },
	/* old layouts without info1: 1 byte */
	{ "io without info1", "io", 0, false, W3_KVM_AS_L1, 1, 1, 1 },
	{ "cpuid", "cpuid", 0, true, W3_KVM_AS_L1, 0, 0, 0 },
};

START_TEST(test_svm_l2_exit_reads)
{
	struct nested_ops o = { 0 };
	struct nested_reason r;
	struct fixture f;

	setup(&f, VPMC_NESTED_ISA_SVM, NULL);
	nested_reason(svm_exits[_i].reason, &r);
	nested_count_l2_exit(&f.k, &f.cs, &r, svm_exits[_i].info1, svm_exits[_i].has_info1,
			     svm_exits[_i].w3, &o);
	ck_assert_msg(o.reads_b == svm_exits[_i].reads_b && o.hits_g == svm_exits[_i].hits_g &&
		      o.loads_g == svm_exits[_i].loads_g && !o.reads_g, "%s: reads %llu hits %llu "
		      "loads %llu", svm_exits[_i].name, (unsigned long long)o.reads_b,
		      (unsigned long long)o.hits_g, (unsigned long long)o.loads_g);
	teardown(&f);
}
END_TEST

static void xapic(struct fixture *f)
{
	const char *why;

	ck_assert_int_eq(vpmc_nested_assume_set(&f->o.assume, "apic", 4, "xapic", 5, &why), 0);
}

static void no_pi_no_bitmap(struct fixture *f)
{
	const char *why;

	ck_assert_int_eq(vpmc_nested_assume_set(&f->o.assume, "pi", 2, "0", 1, &why), 0);
	ck_assert_int_eq(vpmc_nested_assume_set(&f->o.assume, "msr_bitmap", 10, "0", 1, &why), 0);
}

static void evmcs(struct fixture *f)
{
	const char *why;

	ck_assert_int_eq(vpmc_nested_assume_set(&f->o.assume, "evmcs", 5, "1", 1, &why), 0);
}

static const struct {
	const char *name;
	void (*tweak)(struct fixture *);
	uint64_t maps_b, hits_g;
} vmx_entries[] = {
	/* KVM as L1 (x2APIC L2, APICv): virtual-APIC + PI (n_apic 2) + MSR bitmap = 3 */
	{ "x2apic pi", NULL, 3, 3 },
	/* xAPIC adds the APIC-access page: 4 */
	{ "xapic", xapic, 4, 4 },
	/* no PI, no MSR bitmap: the virtual-APIC page only */
	{ "x2apic, no pi, no bitmap", no_pi_no_bitmap, 1, 1 },
	/* eVMCS marks the bitmap clean: 2 maps; v4's eVMCS cache adds evmcs_gpc_hits = 2 */
	{ "evmcs", evmcs, 2, 4 },
};

START_TEST(test_vmx_round_trip)
{
	struct nested_ops o = { 0 };
	struct fixture f;

	setup(&f, VPMC_NESTED_ISA_VMX, vmx_entries[_i].tweak);
	nested_count_entry(&f.k, &f.cs, NE_VMRESUME, 0, &o);
	nested_count_exit(&f.k, &f.cs, false, &o);
	/* nested_put_vmcs12_pages() unmaps at the exit what the entry mapped: no more pairs;
	 * v4: 3 is_nested_state_invalid loads (patches 2-3) */
	ck_assert_msg(o.maps_b == vmx_entries[_i].maps_b && o.hits_g == vmx_entries[_i].hits_g &&
		      o.loads_g == 3 && !o.maps_g && !o.refreshes_g, "%s: maps %llu hits %llu",
		      vmx_entries[_i].name, (unsigned long long)o.maps_b,
		      (unsigned long long)o.hits_g);
	teardown(&f);
}
END_TEST

static void io_bitmap(struct fixture *f)
{
	const char *why;

	ck_assert_int_eq(vpmc_nested_assume_set(&f->o.assume, "io_bitmap", 9, "1", 1, &why), 0);
}

START_TEST(test_vmx_l2_exit_reads)
{
	struct nested_ops msr = { 0 }, io = { 0 }, io2 = { 0 };
	struct nested_reason r;
	struct fixture f;

	setup(&f, VPMC_NESTED_ISA_VMX, NULL);
	nested_reason("MSR_READ", &r);
	nested_count_l2_exit(&f.k, &f.cs, &r, 0, true, 0, &msr);
	/* nested_vmx_exit_handled_msr(): 1 byte in both designs (v4 keeps the read) */
	ck_assert_uint_eq(msr.reads_b, 1);
	ck_assert_uint_eq(msr.reads_g, 1);
	nested_reason("IO_INSTRUCTION", &r);
	/* KVM as L1 uses no IO bitmaps: no read */
	nested_count_l2_exit(&f.k, &f.cs, &r, 0x5658000b, true, 0, &io);
	ck_assert_uint_eq(io.reads_b, 0);
	teardown(&f);
	setup(&f, VPMC_NESTED_ISA_VMX, io_bitmap);
	/* traces/public/50: 0x5658000b = port 0x5658, IN, 4 bytes: ports 0x5658..0x565b are all
	 * in bitmap byte 0xacb: 1 read; port 0x7fff, 2 bytes (qualification 0x7fff0009): bytes
	 * 0xfff (bitmap A) and 0x1000 (bitmap B): 2 reads */
	nested_count_l2_exit(&f.k, &f.cs, &r, 0x5658000b, true, 0, &io);
	ck_assert_uint_eq(io.reads_b, 1);
	ck_assert_uint_eq(io.reads_g, 1);
	nested_count_l2_exit(&f.k, &f.cs, &r, 0x7fff0009, true, 0, &io2);
	ck_assert_uint_eq(io2.reads_b, 2);
	teardown(&f);
}
END_TEST

static void cold(struct fixture *f)
{
	f->o.gpc_cold = true;
}

START_TEST(test_caches_warm_cold_gpa_change_and_invalidation)
{
	struct nested_ops a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 };
	struct fixture f;
	unsigned int active;
	uint32_t kicks;

	/* SVM, no context: VMCB12 A warm (4 hits); VMCB12 B: VMCB12 and both MSRPM pages
	 * refresh at the VMRUN (3), the exit hits (1); B again: 4 hits */
	setup(&f, VPMC_NESTED_ISA_SVM, NULL);
	nested_caches_select(&f.k, &f.cs, 0xa000);
	nested_count_entry(&f.k, &f.cs, NE_VMRUN, W3_KVM_AS_L1, &a);
	nested_count_exit(&f.k, &f.cs, false, &a);
	nested_caches_select(&f.k, &f.cs, 0xb000);
	nested_count_entry(&f.k, &f.cs, NE_VMRUN, W3_KVM_AS_L1, &b);
	nested_count_exit(&f.k, &f.cs, false, &b);
	nested_caches_select(&f.k, &f.cs, 0xb000);
	nested_count_entry(&f.k, &f.cs, NE_VMRUN, W3_KVM_AS_L1, &c);
	nested_count_exit(&f.k, &f.cs, false, &c);
	ck_assert_uint_eq(a.hits_g, 4);
	ck_assert_uint_eq(b.refreshes_g, 3);
	ck_assert_uint_eq(b.hits_g, 1);
	ck_assert_uint_eq(c.hits_g, 4);
	/* an invalidation: the 3 caches that hold a page are walked; the next VMRUN refreshes
	 * them again; SVM caches are used through khva only: no kick */
	active = nested_caches_invalidate(&f.cs, &kicks);
	ck_assert_uint_eq(active, 3);
	ck_assert_uint_eq(kicks, 0);
	nested_count_entry(&f.k, &f.cs, NE_VMRUN, W3_KVM_AS_L1, &d);
	ck_assert_uint_eq(d.refreshes_g, 3);
	teardown(&f);
	/* VMX, cold: the first use of each of the 3 caches refreshes; then an invalidation
	 * kicks the 2 APIC-page caches (guest uses their pfns, G1 v4 patches 2-4) */
	memset(&a, 0, sizeof(a));
	setup(&f, VPMC_NESTED_ISA_VMX, cold);
	nested_count_entry(&f.k, &f.cs, NE_VMRESUME, 0, &a);
	ck_assert_uint_eq(a.refreshes_g, 3);
	ck_assert_uint_eq(a.hits_g, 0);
	nested_caches_invalidate(&f.cs, &kicks);
	ck_assert_uint_eq(kicks, 2);
	teardown(&f);
}
END_TEST

static void context(struct fixture *f)
{
	f->o.gpc_context = 1;
}

START_TEST(test_nested_context_keeps_each_l2s_caches)
{
	struct nested_ops o = { 0 };
	struct fixture f;
	int i;

	/* --gpc-context yes: A, B, A, B: each GPA's first sight is warm, later ones find their
	 * own set: 8 hits per pair of round trips, no refresh */
	setup(&f, VPMC_NESTED_ISA_SVM, context);
	for (i = 0; i < 4; i++) {
		nested_caches_select(&f.k, &f.cs, i % 2 ? 0xb000 : 0xa000);
		nested_count_entry(&f.k, &f.cs, NE_VMRUN, W3_KVM_AS_L1, &o);
		nested_count_exit(&f.k, &f.cs, false, &o);
	}
	ck_assert_uint_eq(o.refreshes_g, 0);
	ck_assert_uint_eq(o.hits_g, 16);
	teardown(&f);
}
END_TEST

static void prod_io(struct fixture *f)
{
	const char *why;

	ck_assert_int_eq(vpmc_nested_assume_set(&f->o.assume, "profile", 7, "prod", 4, &why), 0);
	ck_assert_int_eq(vpmc_nested_assume_set(&f->o.assume, "l1mem", 5, "io", 2, &why), 0);
}

START_TEST(test_pfnmap_tails_every_64th_unmap)
{
	struct nested_ops o = { 0 };
	struct fixture f;
	int i;

	/* VMX, 3 maps per round trip: 100 round trips = 300 unmaps, tails at 64, 128, 192, 256:
	 * 4 = floor(300 / 64); the gpc design unmaps nothing */
	setup(&f, VPMC_NESTED_ISA_VMX, prod_io);
	for (i = 0; i < 100; i++)
		nested_count_entry(&f.k, &f.cs, NE_VMRESUME, 0, &o);
	ck_assert_uint_eq(o.maps_b, 300);
	ck_assert_uint_eq(o.tails_b, 4);
	ck_assert_uint_eq(o.tails_g, 0);
	teardown(&f);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Parameters, the fit (§7.3) and the cycles (§7.2)
 */
static const struct {
	const char *name, *cost;
	bool variant_v;
	const char *chunks;
	uint64_t read_guest, pair, rt_fixed, extra_msr;
} fits[] = {
	/* defaults, H = 300, L = 10, N = 10, variant M:
	 * read_guest = (9,200 - 9,000) + 300 + 10 = 510; 2 pair = 9,000 - 5,100 + 1,200 + 100
	 * = 5,200; rt_fixed = 38,600 - 1,300 = 37,300; extra = 39,900 - 37,300 - 1,610 = 990 */
	{ "default", NULL, false, NULL, 510, 2600, 37300, 990 },
	/* H = 100: 310; (9,000 - 3,100 + 400 + 100) / 2 = 3,200; 38,600 - 500 = 38,100 (§7.3
	 * sensitivity table); extra = (39,900 - 38,600) - H - L = 1,190 */
	{ "H=100", "gpc_hit=100", false, NULL, 310, 3200, 38100, 1190 },
	/* H = 600: 810; (9,000 - 8,100 + 2,400 + 100) / 2 = 1,700; 38,600 - 2,500 = 36,100;
	 * extra 1,300 - 610 = 690 */
	{ "H=600", "gpc_hit=600", false, NULL, 810, 1700, 36100, 690 },
	/* variant V: gpc ops = 2 H + N read_guest = 5,700: (9,000 - 5,100 + 5,700) / 2 = 4,800,
	 * rt_fixed 38,600 - 5,700 = 32,900 */
	{ "variant V", NULL, true, NULL, 510, 4800, 32900, 990 },
	/* N = 6: (9,000 - 3,060 + 1,200 + 60) / 2 = 3,600; 38,600 - 1,260 = 37,340 */
	{ "N=6", NULL, false, "6", 510, 3600, 37340, 990 },
	/* read_guest given 410 (Δ2 - Δ1 = 100): (9,000 - 4,100 + 1,300) / 2 = 3,100; not refitted */
	{ "read_guest given", "read_guest=410", false, NULL, 410, 3100, 37300, 990 },
};

START_TEST(test_fit_to_m1)
{
	struct vpmc__errbuf err;
	struct vpmc_nested_opts o;
	struct nested_cfg c;
	const char *why;

	vpmc_nested_opts_default(&o);
	ck_assert_int_eq(vpmc_nested_assume_set(&o.assume, "isa", 3, "svm", 3, &why), 0);
	if (fits[_i].cost)
		ck_assert_int_eq(vpmc_nested_cost_parse(&o, fits[_i].cost, &why), 0);
	if (fits[_i].chunks)
		ck_assert_int_eq(vpmc_nested_assume_set(&o.assume, "svm_merge_chunks", 16,
							fits[_i].chunks, 1, &why), 0);
	o.gpc_svm_merge = !fits[_i].variant_v;
	nested_cfg_init(&c, &o, NULL);
	ck_assert_int_eq(nested_cfg_settle(&c, &o, &err), 0);
	ck_assert_msg(c.p[VPMC_NP_READ_GUEST] == fits[_i].read_guest &&
		      c.p[VPMC_NP_MAP_PAIR_SP] == fits[_i].pair &&
		      c.p[VPMC_NP_RT_FIXED] == fits[_i].rt_fixed &&
		      c.p[VPMC_NP_RT_FIXED_EXTRA_MSR] == fits[_i].extra_msr,
		      "%s: read_guest %llu pair %llu rt_fixed %llu extra %llu", fits[_i].name,
		      (unsigned long long)c.p[VPMC_NP_READ_GUEST],
		      (unsigned long long)c.p[VPMC_NP_MAP_PAIR_SP],
		      (unsigned long long)c.p[VPMC_NP_RT_FIXED],
		      (unsigned long long)c.p[VPMC_NP_RT_FIXED_EXTRA_MSR]);
	/* what was given is not fitted */
	ck_assert(!(c.fitted & o.cost_given));
}
END_TEST

START_TEST(test_fit_refuses_negative_costs)
{
	struct vpmc__errbuf err;
	struct vpmc_nested_opts o;
	struct nested_cfg c;
	const char *why;

	/* gpc_hit = 5,000: read_guest = 200 + 5,010 = 5,210, 2 pair = 9,000 - 52,100 + 20,100
	 * < 0 */
	vpmc_nested_opts_default(&o);
	ck_assert_int_eq(vpmc_nested_cost_parse(&o, "gpc_hit=5000", &why), 0);
	nested_cfg_init(&c, &o, NULL);
	ck_assert_int_eq(nested_cfg_settle(&c, &o, &err), VPMC_ERR_INVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "a cost below 0"));
}
END_TEST

START_TEST(test_params_vmx_and_prod)
{
	struct vpmc__errbuf err;
	struct vpmc_nested_opts o;
	struct nested_cfg c;
	const char *why;

	/* VMX debug: the SVM fit's per-operation costs, rt_fixed 42,700 (E, not fitted) */
	vpmc_nested_opts_default(&o);
	ck_assert_int_eq(vpmc_nested_assume_set(&o.assume, "isa", 3, "vmx", 3, &why), 0);
	nested_cfg_init(&c, &o, NULL);
	ck_assert_int_eq(nested_cfg_settle(&c, &o, &err), 0);
	ck_assert_uint_eq(c.p[VPMC_NP_MAP_PAIR_SP], 2600);
	ck_assert_uint_eq(c.p[VPMC_NP_RT_FIXED], 42700);
	ck_assert(!(c.fitted & (1u << VPMC_NP_RT_FIXED)));
	ck_assert(c.gpc_context); /* v4 has nested contexts */
	/* VMX prod: the table, nothing fitted: 410, 80, 50, 5, rt_fixed 6,670 */
	ck_assert_int_eq(vpmc_nested_assume_set(&o.assume, "profile", 7, "prod", 4, &why), 0);
	nested_cfg_init(&c, &o, NULL);
	ck_assert_int_eq(nested_cfg_settle(&c, &o, &err), 0);
	ck_assert_uint_eq(c.fitted, 0);
	ck_assert_uint_eq(c.p[VPMC_NP_MAP_PAIR_SP], 410);
	ck_assert_uint_eq(c.p[VPMC_NP_READ_GUEST], 80);
	ck_assert_uint_eq(c.p[VPMC_NP_GPC_HIT], 50);
	ck_assert_uint_eq(c.p[VPMC_NP_RT_FIXED], 6670);
	ck_assert_str_eq(nested_param_tag(&c, VPMC_NP_RT_FIXED),
			 "E: G4's EMR nested CPUID round trip 7,900 minus 3 x 410");
}
END_TEST

START_TEST(test_round_trip_cycles)
{
	struct vpmc__errbuf err;
	struct vpmc_nested_opts o;
	struct nested_cfg c;
	struct nested_ops x = { .maps_b = 2, .reads_b = 10, .tails_b = 1, .maps_g = 1,
				.refreshes_g = 3, .hits_g = 1, .loads_g = 10, .reads_g = 2,
				.kicks_g = 1, .tails_g = 2 };

	vpmc_nested_opts_default(&o);
	nested_cfg_init(&c, &o, NULL);
	ck_assert_int_eq(nested_cfg_settle(&c, &o, &err), 0);
	/* §7.2, debug sp: 2 x 2,600 + 10 x 510 + 1 x 30,000 = 40,300 */
	ck_assert_uint_eq(nested_ops_cycles_b(&c, &x), 40300);
	/* 1 x 2,600 + 3 x (2,600 + 800) + 300 + 10 x 10 + 2 x 510 + 19,200 + 2 x 30,000
	 * = 2,600 + 10,200 + 300 + 100 + 1,020 + 19,200 + 60,000 = 93,420 */
	ck_assert_uint_eq(nested_ops_cycles_g(&c, &x), 93420);
}
END_TEST

START_TEST(test_cost_parse)
{
	struct vpmc_nested_opts o;
	const char *why;

	vpmc_nested_opts_default(&o);
	ck_assert_int_eq(vpmc_nested_cost_parse(&o, "load=20,io_tail_every=32", &why), 0);
	ck_assert_uint_eq(o.cost[VPMC_NP_LOAD], 20);
	ck_assert_uint_eq(o.cost[VPMC_NP_IO_TAIL_EVERY], 32);
	/* a name given twice, in the same --cost or a later one */
	ck_assert_int_eq(vpmc_nested_cost_parse(&o, "load=30", &why), VPMC_ERR_INVAL);
	ck_assert_str_eq(why, "a parameter given twice");
	ck_assert_int_eq(vpmc_nested_cost_parse(&o, "gpc_kick=1,gpc_kick=2", &why), VPMC_ERR_INVAL);
	ck_assert_int_eq(vpmc_nested_cost_parse(&o, "nope=1", &why), VPMC_ERR_INVAL);
	ck_assert_int_eq(vpmc_nested_cost_parse(&o, "l0_fixed=100000001", &why), VPMC_ERR_INVAL);
	ck_assert_int_eq(vpmc_nested_cost_parse(&o, "read_guest=-1", &why), VPMC_ERR_INVAL);
}
END_TEST

START_TEST(test_p50_exact_then_histogram)
{
	struct nested_dist d;
	int i;

	/* 10 x 100, 11 x 200, 1 x 50: 22 samples, nearest rank ceil(22 / 2) = 11; sorted, 50 and
	 * the ten 100s are the first 11: p50 = 100 */
	nested_dist_init(&d);
	for (i = 0; i < 10; i++)
		nested_dist_add(&d, 100);
	for (i = 0; i < 11; i++)
		nested_dist_add(&d, 200);
	nested_dist_add(&d, 50);
	ck_assert_uint_eq(nested_dist_p50(&d), 100);
	nested_dist_release(&d);
	/* more than 64 distinct values: the histogram, within 1 % of 1,000..1,099's median */
	nested_dist_init(&d);
	for (i = 0; i < 100; i++)
		nested_dist_add(&d, 1000 + (uint64_t)i);
	ck_assert(d.hist_on);
	ck_assert_uint_ge(nested_dist_p50(&d), 1049 - 11);
	ck_assert_uint_le(nested_dist_p50(&d), 1049 + 11);
	nested_dist_release(&d);
}
END_TEST

static Suite *nested_model_suite(void)
{
	Suite *s = suite_create("nested_model");
	TCase *tc = tcase_create("reasons");

	tcase_add_loop_test(tc, test_reason_classes, 0, ARRAY_SIZE(reasons));
	tcase_add_test(tc, test_reason_same_across_alphabets);
	suite_add_tcase(s, tc);
	tc = tcase_create("counts");
	tcase_add_test(tc, test_svm_vmrun_round_trip);
	tcase_add_test(tc, test_svm_entries_rsm_and_set_nested_state);
	tcase_add_test(tc, test_svm_variant_v_keeps_the_merge_reads);
	tcase_add_loop_test(tc, test_svm_l2_exit_reads, 0, ARRAY_SIZE(svm_exits));
	tcase_add_loop_test(tc, test_vmx_round_trip, 0, ARRAY_SIZE(vmx_entries));
	tcase_add_test(tc, test_vmx_l2_exit_reads);
	tcase_add_test(tc, test_caches_warm_cold_gpa_change_and_invalidation);
	tcase_add_test(tc, test_nested_context_keeps_each_l2s_caches);
	tcase_add_test(tc, test_pfnmap_tails_every_64th_unmap);
	suite_add_tcase(s, tc);
	tc = tcase_create("costs");
	tcase_add_loop_test(tc, test_fit_to_m1, 0, ARRAY_SIZE(fits));
	tcase_add_test(tc, test_fit_refuses_negative_costs);
	tcase_add_test(tc, test_params_vmx_and_prod);
	tcase_add_test(tc, test_round_trip_cycles);
	tcase_add_test(tc, test_cost_parse);
	tcase_add_test(tc, test_p50_exact_then_histogram);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(nested_model_suite)
