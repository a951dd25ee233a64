// SPDX-License-Identifier: GPL-2.0-only
/* count.c - What each nested event makes L0 do to L1 memory, in the upstream design (baseline:
 * __kvm_vcpu_map() / kvm_vcpu_unmap() and kvm_vcpu_read_guest() on every transition) and in
 * the gfn_to_pfn_cache design (gpc: nsvm-gpc for SVM, Griffoul's v4 for VMX), with the caches
 * the latter keeps (nested-gpc.md §3-§6). Function comments name the kernel code that does it:
 * arch/x86/kvm/svm/nested.c (K1), svm/svm.c (K2), vmx/nested.c (K3), virt/kvm/kvm_main.c (K5),
 * virt/kvm/pfncache.c (K6). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "nested-local.h"

/* VMCB control area, intercept word 3 (arch/x86/include/asm/svm.h: INTERCEPT_IOIO_PROT = 96 + 27,
 * INTERCEPT_MSR_PROT = 96 + 28). */
#define SVM_W3_IOIO_PROT (1u << 27)
#define SVM_W3_MSR_PROT (1u << 28)

#define PAGE_SIZE 4096u

int nested_caches_init(struct nested_caches *cs)
{
	memset(cs, 0, sizeof(*cs));
	cs->sets = calloc(2, sizeof(*cs->sets));
	if (!cs->sets)
		return VPMC_ERR_NOMEM;
	cs->cap_sets = 2;
	cs->nr_sets = 1;
	return 0;
}

void nested_caches_release(struct nested_caches *cs)
{
	free(cs->sets);
	memset(cs, 0, sizeof(*cs));
}

static bool is_iopm(enum nested_cache c)
{
	return c >= NC_IOPM0;
}

/* The caches a GPA change makes stale: all but the IOPM (one page set for every L2, §6.6). */
#define GPA_KEYED ((uint16_t)((1u << NC_IOPM0) - 1))

/*
 * Without a nested context, set 0 holds every cache and a new VMCB12 / vmcs12 makes its
 * GPA-keyed caches stale. With one (G1 v4 patches 8-9), each GPA has its own set, found again
 * when L1 runs that L2 again; set 0 then keeps only the IOPM.
 */
int nested_caches_select(struct nested_counter *k, struct nested_caches *cs, uint64_t gpa)
{
	struct nested_cacheset *s;
	unsigned int i, lru = 1;

	if (!k->cfg->gpc_context) {
		s = &cs->sets[0];
		if (s->used && s->gpa != gpa)
			s->valid &= (uint16_t)~GPA_KEYED;
		s->gpa = gpa;
		cs->cur = 0;
		return 0;
	}
	for (i = 1; i < cs->nr_sets; i++) {
		if (cs->sets[i].gpa == gpa) {
			cs->cur = i;
			return 0;
		}
		if (cs->sets[i].stamp < cs->sets[lru].stamp)
			lru = i;
	}
	if (cs->nr_sets == NESTED_MAX_CONTEXTS + 1) {
		i = lru; /* a context that comes back later starts as a first sight again */
	} else {
		if (cs->nr_sets == cs->cap_sets) {
			s = realloc(cs->sets, 2 * cs->cap_sets * sizeof(*s));
			if (!s)
				return VPMC_ERR_NOMEM;
			cs->sets = s;
			cs->cap_sets *= 2;
		}
		i = cs->nr_sets++;
	}
	memset(&cs->sets[i], 0, sizeof(cs->sets[i]));
	cs->sets[i].gpa = gpa;
	cs->sets[i].stamp = ++cs->clock;
	cs->cur = i;
	return 0;
}

/* Host MMU notifier: gfn_to_pfn_cache_invalidate_start() clears `valid` on every cache. */
unsigned int nested_caches_invalidate(struct nested_caches *cs, uint32_t *kicks)
{
	const uint16_t apic = (1u << NC_APIC_ACCESS) | (1u << NC_VAPIC) | (1u << NC_PI);
	unsigned int i, active = 0;

	*kicks = (uint32_t)__builtin_popcount(cs->sets[cs->cur].valid & apic);
	for (i = 0; i < cs->nr_sets; i++) {
		active += (unsigned int)__builtin_popcount(cs->sets[i].valid);
		cs->sets[i].valid = 0;
	}
	return active;
}

/* An unmap of PFNMAP memory: every io_tail_every-th of a design carries the purge's tail. */
static void pfnmap_unmap(struct nested_counter *k, uint64_t *unmaps, uint64_t *tails)
{
	if (k->cfg->a.l1mem != VPMC_NESTED_MEM_IO)
		return;
	if (!(++*unmaps % k->cfg->p[VPMC_NP_IO_TAIL_EVERY]))
		++*tails;
}

/* Baseline: __kvm_vcpu_map() (kvm_follow_pfn() with .pin, then kmap() or memremap()) and its
 * kvm_vcpu_unmap() (kunmap() or memunmap(), dirty mark, unpin), K5. */
static void map_b(struct nested_counter *k, struct nested_ops *o)
{
	o->maps_b++;
	pfnmap_unmap(k, &k->unmaps_b, &o->tails_b);
}

/* A map the gpc design keeps as it is. */
static void map_g(struct nested_counter *k, struct nested_ops *o)
{
	o->maps_g++;
	pfnmap_unmap(k, &k->unmaps_g, &o->tails_g);
}

/*
 * The gpc design's use of cache @c: kvm_gpc_check() under the read lock (a hit), or, when the
 * page changed or was invalidated, kvm_gpc_refresh(): hva_to_pfn_retry() maps the new page and
 * the old mapping is unmapped (K6). A cache's first use hits if the trace is a window into a
 * warm run (the default), refreshes if --gpc-cold.
 */
static void use(struct nested_counter *k, struct nested_caches *cs, enum nested_cache c,
		struct nested_ops *o)
{
	struct nested_cacheset *s = &cs->sets[is_iopm(c) ? 0 : cs->cur];
	uint16_t bit = (uint16_t)(1u << c);

	s->stamp = ++cs->clock;
	if (!(s->used & bit)) {
		s->used |= bit;
		s->valid |= bit;
		if (k->cfg->gpc_cold)
			o->refreshes_g++;
		else
			o->hits_g++;
		return;
	}
	if (s->valid & bit) {
		o->hits_g++;
		return;
	}
	s->valid |= bit;
	o->refreshes_g++;
	pfnmap_unmap(k, &k->unmaps_g, &o->tails_g);
}

unsigned int nested_vmx_n_apic(const struct vpmc_nested_assume *a)
{
	return (a->apic == VPMC_NESTED_XAPIC) + (a->apic != VPMC_NESTED_APIC_NONE) + a->pi;
}

/*
 * nSVM entry (§4.1, §4.3). nested_svm_vmrun(): nested_svm_copy_vmcb12_to_cache() maps VMCB12
 * writable, copies it and unmaps it; enter_svm_guest_mode() builds vmcb02 from the copies; then
 * nested_svm_merge_msrpm() reads 8 bytes of L1's MSRPM per merge offset with
 * kvm_vcpu_read_guest() when VMCB12 sets MSR_PROT. svm_leave_smm() maps VMCB12 and the HSAVE
 * page and defers the merge to svm_get_nested_state_pages(); svm_set_nested_state() maps
 * nothing and defers it too. nsvm-gpc (M1, §4.2): VMCB12 through its cache; the merge through
 * the two MSRPM page caches (variant M) or still kvm_vcpu_read_guest() (V); HSAVE unchanged.
 */
static void svm_entry(struct nested_counter *k, struct nested_caches *cs, enum nested_entry e,
		      uint32_t w3, struct nested_ops *o)
{
	const struct nested_cfg *c = k->cfg;
	unsigned int n = c->a.svm_merge_chunks;

	if (e == NE_RSM) {
		map_b(k, o);
		map_b(k, o);
		map_g(k, o);
		use(k, cs, NC_VMCB12, o);
	} else if (e != NE_NONE) {
		map_b(k, o);
		use(k, cs, NC_VMCB12, o);
	}
	if (!(w3 & SVM_W3_MSR_PROT))
		return;
	o->reads_b += n;
	if (c->gpc_svm_merge) {
		use(k, cs, NC_MSRPM0, o);
		use(k, cs, NC_MSRPM1, o);
		o->loads_g += n;
	} else {
		o->reads_g += n;
	}
}

/*
 * nVMX entry (§5.1, §5.3), whatever led to it (VMLAUNCH/VMRESUME, RSM, KVM_SET_NESTED_STATE
 * through KVM_REQ_GET_NESTED_STATE_PAGES): nested_get_vmcs12_pages() maps writable the
 * APIC-access page (xAPIC), the virtual-APIC page and the PI descriptor, which stay mapped while
 * L2 runs; nested_vmx_prepare_msr_bitmap() maps L1's MSR bitmap read-only, merges and unmaps it,
 * unless eVMCS marks it clean (evmcs=1 is modeled as clean on every entry). v4: each page is a
 * cache hit, plus the three is_nested_state_invalid flag loads (patches 2-3), the eVMCS cache's
 * hits (patches 6-7) and has_events/check_events hits (vmx_gpc_extra_hits).
 */
static void vmx_entry(struct nested_counter *k, struct nested_caches *cs, struct nested_ops *o)
{
	const struct nested_cfg *c = k->cfg;

	if (c->a.apic == VPMC_NESTED_XAPIC) {
		map_b(k, o);
		use(k, cs, NC_APIC_ACCESS, o);
	}
	if (c->a.apic != VPMC_NESTED_APIC_NONE) {
		map_b(k, o);
		use(k, cs, NC_VAPIC, o);
	}
	if (c->a.pi) {
		map_b(k, o);
		use(k, cs, NC_PI, o);
	}
	if (c->a.msr_bitmap && !c->a.evmcs) {
		map_b(k, o);
		use(k, cs, NC_MSR_BITMAP, o);
	}
	o->loads_g += 3;
	if (c->a.evmcs)
		o->hits_g += (uint32_t)c->p[VPMC_NP_EVMCS_GPC_HITS];
	o->hits_g += (uint32_t)c->p[VPMC_NP_VMX_GPC_EXTRA_HITS];
}

void nested_count_entry(struct nested_counter *k, struct nested_caches *cs, enum nested_entry e,
			uint32_t w3, struct nested_ops *o)
{
	if (k->cfg->a.isa == VPMC_NESTED_ISA_VMX)
		vmx_entry(k, cs, o);
	else
		svm_entry(k, cs, e, w3, o);
}

/*
 * The emulated VM-exit. nSVM: nested_svm_vmexit() -> nested_svm_vmexit_update_vmcb12() maps
 * VMCB12 writable, writes the exit state (kvm_nested_vmexit_inject), unmaps it; nsvm-gpc uses
 * its cache. nVMX: __nested_vmx_vmexit() -> nested_put_vmcs12_pages() unmaps the entry's pages,
 * already counted as pairs at the entry; v4 leaves them cached. A late VM-Fail goes the same way.
 */
void nested_count_exit(struct nested_counter *k, struct nested_caches *cs, bool late_fail,
		       struct nested_ops *o)
{
	(void)late_fail;
	if (k->cfg->a.isa == VPMC_NESTED_ISA_VMX)
		return;
	map_b(k, o);
	use(k, cs, NC_VMCB12, o);
}

/* SVM IOPM bytes of an IN/OUT: port = EXITINFO1[31:16], size = [6:4] (1, 2, 4); the access's
 * bits span 2 bytes when port % 8 + size > 8 (nested_svm_intercept_ioio()). */
static void svm_io(struct nested_counter *k, struct nested_caches *cs, uint64_t info1,
		   bool has_info1, struct nested_ops *o)
{
	uint32_t port = has_info1 ? (uint32_t)(info1 >> 16) & 0xffff : 0;
	uint32_t size = has_info1 ? (uint32_t)(info1 >> 4) & 7 : 1;
	uint32_t first = port / 8, last = first + (port % 8 + (size ? size : 1) > 8);
	uint32_t p0 = first / PAGE_SIZE, p1 = last / PAGE_SIZE;

	o->reads_b += 1 + (p1 != p0);
	use(k, cs, (enum nested_cache)(NC_IOPM0 + p0), o);
	o->loads_g++;
	if (p1 != p0) {
		use(k, cs, (enum nested_cache)(NC_IOPM0 + p1), o);
		o->loads_g++;
	}
}

/* VMX IO bitmaps: port = qualification[31:16], size = [2:0] + 1; one read per distinct bitmap
 * byte (bitmap A below 0x8000, B above), as nested_vmx_check_io_bitmaps() reads them when no
 * bit set stops it early. */
static uint32_t vmx_io_reads(uint64_t info1, bool has_info1)
{
	uint32_t port = (uint32_t)(info1 >> 16) & 0xffff, size = (uint32_t)(info1 & 7) + 1;

	if (!has_info1)
		return 1;
	return (port + size - 1) / 8 != port / 8 ? 2 : 1;
}

/*
 * An L2 exit's bitmap reads (§6.5), the same whether the exit is then reflected or not. nSVM:
 * nested_svm_exit_handled_msr() reads 1 byte of L1's MSRPM if MSR_PROT (and the MSR is in a
 * range); nested_svm_intercept_ioio() 1-2 bytes of L1's IOPM if IOIO_PROT; nsvm-gpc reads both
 * through the page caches. nVMX: nested_vmx_exit_handled_msr() reads 1 byte of L1's MSR bitmap
 * if vmcs12 uses MSR bitmaps; nested_vmx_check_io_bitmaps() if it uses IO bitmaps (KVM as L1
 * never does: CPU_BASED_UNCOND_IO_EXITING). v4 keeps both on kvm_vcpu_read_guest().
 */
void nested_count_l2_exit(struct nested_counter *k, struct nested_caches *cs,
			  const struct nested_reason *r, uint64_t info1, bool has_info1,
			  uint32_t w3, struct nested_ops *o)
{
	const struct nested_cfg *c = k->cfg;
	uint32_t n;

	if (c->a.isa == VPMC_NESTED_ISA_VMX) {
		if (r->cls == NR_MSR && c->a.msr_bitmap && c->msr_in_range) {
			o->reads_b++;
			o->reads_g++;
		} else if (r->cls == NR_IO && c->a.io_bitmap) {
			n = vmx_io_reads(info1, has_info1);
			o->reads_b += n;
			o->reads_g += n;
		}
		return;
	}
	if (r->cls == NR_MSR && (w3 & SVM_W3_MSR_PROT) && c->msr_in_range) {
		o->reads_b++;
		use(k, cs, NC_MSRPM0, o);
		o->loads_g++;
	} else if (r->cls == NR_IO && (w3 & SVM_W3_IOIO_PROT)) {
		svm_io(k, cs, info1, has_info1, o);
	}
}
