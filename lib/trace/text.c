// SPDX-License-Identifier: GPL-2.0-only
/* text.c - kvm tracepoint text, one line at a time, in every layout real tools print.
 *
 * A line is PREFIX EVENT: PAYLOAD. The prefix is whatever the tool put before the event name:
 * "comm-pid [cpu] flags ts:" (raw ftrace), "comm-pid [cpu] ts:" (trace-cmd report), "comm tid
 * [cpu] ts:" (perf script), "ts:", "comm-pid:" or nothing. The first token that ends in ':' (a
 * time stamp, a comm-pid, or the event name itself) tells which; the rest of the prefix is read
 * from the right, so comms with spaces, '-' and digits need no special case. The payload
 * layouts are those of arch/x86/kvm/trace.h and include/trace/events/kvm.h across kernel
 * versions, of libtraceevent's kvm plugin (what trace-cmd and perf print by default), and the
 * "name=value" form of trace-cmd report -R and of libtraceevent's "[FAILED TO PARSE]" fallback.
 *
 * Hand-written scanning with byte-class tables, no allocation: this runs once per line of
 * multi-GB reports. Lines of one trace repeat their prefix and event names, so struct
 * text_parser remembers the last few and compares bytes (8 at a time) instead of parsing them;
 * the frequent payloads then take a fast path (text_fast.c). Neither changes a result. One
 * grammar per layout: the plain layouts of the frequent kinds are step tables
 * (text_layouts.h) and the -R form field tables (text_raw_kinds[]), read here by
 * parse_layout() and parse_raw() and there in the printed spacing. The scanners both use are
 * in text_scan.h.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "text.h"
#include "text_scan.h"
#include "text_layouts.h"
#include "internal.h"

/* ---------------------------------------------------------------------------------------------
 * The "name=value" field form: trace-cmd report -R, and "[FAILED TO PARSE] name=value ...".
 */
struct raw_field {
	const char *key, *val;
	unsigned int klen, vlen;
};

struct raw {
	struct raw_field f[RAW_FIELDS_MAX];
	unsigned int n;
};

/* Split "a=1 b=0x2 insn=ARRAY[66, 01]" into fields; the rest of the line must be fields. */
static int raw_split(struct cur *c, struct raw *r, const char *what)
{
	r->n = 0;
	for (skip_sp(c); c->p < c->end; skip_sp(c)) {
		struct raw_field *f = &r->f[r->n];
		const char *k = c->p;

		while (c->p < c->end && is_ident_char(*c->p))
			c->p++;
		if (c->p == k || c->p == c->end || *c->p != '=')
			return fail_at(c, k, "%s: expected 'name=value'", what);
		if (r->n == RAW_FIELDS_MAX)
			return fail_at(c, k, "%s: more than %d fields", what, RAW_FIELDS_MAX);
		f->key = k;
		f->klen = (unsigned int)(c->p - k);
		f->val = ++c->p;
		if ((size_t)(c->end - c->p) >= 6 && !memcmp(c->p, "ARRAY[", 6)) {
			const char *q = memchr(c->p, ']', (size_t)(c->end - c->p));

			if (!q)
				return fail_at(c, c->p, "%s: expected ']' closing ARRAY[", what);
			c->p = q + 1;
		} else {
			c->p = tok_end(c->p, c->end);
		}
		f->vlen = (unsigned int)(c->p - f->val);
		r->n++;
	}
	return 0;
}

static const struct raw_field *raw_get(const struct raw *r, const char *key)
{
	size_t n = strlen(key);
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		if (r->f[i].klen == n && !memcmp(r->f[i].key, key, n))
			return &r->f[i];
	}
	return NULL;
}

/*
 * The value of field @key. trace-cmd -R prints a field in the conversion its print format uses:
 * "%x" fields in hex without "0x" (ecx=174, rip=3000), "0x%x" fields with it, the rest in
 * decimal; so "0x" always means hex and @base says what a bare number is.
 */
static int raw_num(struct cur *c, const struct raw *r, const char *key, int base, uint64_t max,
		   uint64_t *out, const char *what)
{
	const struct raw_field *f = raw_get(r, key);
	struct cur vc;

	if (!f)
		return fail_at(c, c->end, "%s: expected field '%s='", what, key);
	vc = *c;
	vc.p = f->val;
	vc.end = f->val + f->vlen;
	if (base == HEX || (f->vlen > 2 && f->val[0] == '0' && f->val[1] == 'x'))
		return field_hex(&vc, out, max, what);
	return field_dec(&vc, out, max, what);
}

/* ---------------------------------------------------------------------------------------------
 * Payloads, one parser per kind.
 */

/* Optional "rip 0x<h>" / "rip: 0x<h>" at the cursor. */
static int opt_rip(struct cur *c, struct kvm_record *rec, const char *what)
{
	skip_sp(c);
	if (at_word(c, "rip"))
		c->p += 3;
	else if (at_word(c, "rip:"))
		c->p += 4;
	else
		return 0;
	return field_hex(c, &rec->rip, UINT64_MAX, what);
}

/* Words of an exit reason end at the next field name. */
static bool is_reason_end(const struct cur *c)
{
	switch (*c->p) {
	case 'r':
		return at_word(c, "rip") || at_word(c, "requests");
	case 'i':
		return at_word(c, "info") || at_word(c, "info1") || at_word(c, "info2") ||
		       at_word(c, "intr_info") || at_word(c, "intr");
	case 'e':
		return at_word(c, "error_code") || at_word(c, "ext_inf1:");
	}
	return false;
}

/* The reason words up to the next field name, joined by single spaces ("INVALID_STATE
 * FAILED_VMENTRY", "UNKNOWN (90)"). */
static int parse_reason(struct cur *c, struct kvm_record *rec, const char *what)
{
	size_t n = 0;

	skip_sp(c);
	if (c->p == c->end || is_reason_end(c))
		return fail_at(c, c->p, "%s: expected an exit reason", what);
	while (c->p < c->end && !is_reason_end(c)) {
		const char *te = tok_end(c->p, c->end);
		size_t tl = (size_t)(te - c->p);

		if (n + !!n + tl >= sizeof(rec->reason))
			return fail_at(c, c->p, "%s: exit reason longer than %zu characters", what,
				       sizeof(rec->reason) - 1);
		if (n)
			rec->reason[n++] = ' ';
		memcpy(rec->reason + n, c->p, tl);
		n += tl;
		c->p = te;
		skip_sp(c);
	}
	rec->reason[n] = '\0';
	return 0;
}

/* -R form of kvm_exit / kvm_nested_vmexit (TRACE_EVENT_KVM_EXIT since 5.9; the nested event
 * had rip/exit_code before) and of kvm_nested_vmexit_inject (exit_code). */
static int parse_exit_raw(struct cur *c, struct kvm_record *rec, const char *what)
{
	uint64_t reason = 0, isa = 1, v = 0;
	struct raw r;
	int ret;

	ret = raw_split(c, &r, what);
	if (ret)
		return ret;
	ret = raw_num(c, &r, raw_get(&r, "exit_reason") ? "exit_reason" : "exit_code", DEC,
		      U32_MAX_, &reason, what);
	/* libtraceevent's kvm plugin also takes VMX when there is no isa field. */
	if (!ret && raw_get(&r, "isa")) {
		ret = raw_num(c, &r, "isa", DEC, U32_MAX_, &isa, what);
		rec->isa = (uint8_t)isa;
	}
	if (!ret && raw_get(&r, "guest_rip"))
		ret = raw_num(c, &r, "guest_rip", HEX, UINT64_MAX, &rec->rip, what);
	else if (!ret && raw_get(&r, "rip"))
		ret = raw_num(c, &r, "rip", HEX, UINT64_MAX, &rec->rip, what);
	if (!ret && raw_get(&r, "vcpu_id")) {
		ret = raw_num(c, &r, "vcpu_id", DEC, VCPU_MAX_, &v, what);
		rec->vcpu = (int32_t)v;
	}
	if (!ret)
		trace_exit_reason_name((unsigned int)isa, reason, rec->reason, sizeof(rec->reason));
	return ret;
}

/*
 * kvm_exit and kvm_nested_vmexit in all their layouts:
 *   [vcpu N] reason NAME[ FLAG...] [rip 0xH] [info A B | info1 0x.. ...]   (native, plugin)
 *   rip H reason NAME info1 H ...                     (plugin kvm_nested_vmexit)
 *   rip: 0xH reason: NAME ext_inf1: ...               (native kvm_nested_vmexit before 5.9)
 */
static int parse_exit(struct cur *c, struct kvm_record *rec)
{
	const char *what = rec->kind == KVM_REC_EXIT ? "kvm_exit" : "kvm_nested_vmexit";
	uint64_t v = 0;
	int ret;

	if (c->end - c->p >= 16 && !memcmp(c->p, "CAN'T FIND FIELD", 16))
		return fail_at(c, c->p, "%s: libtraceevent could not decode this event (read the "
				  "trace.dat, or trace-cmd report -R)", what);
	if (at_word(c, "vcpu")) {
		c->p += 4;
		ret = field_dec(c, &v, VCPU_MAX_, what);
		if (ret)
			return ret;
		rec->vcpu = (int32_t)v;
		skip_sp(c);
	}
	if (at_word(c, "rip") || at_word(c, "rip:")) {
		ret = opt_rip(c, rec, what);
		if (ret)
			return ret;
		skip_sp(c);
	}
	if (at_word(c, "reason:"))
		c->p += 7;
	else if (at_word(c, "reason"))
		c->p += 6;
	else
		return fail_at(c, c->p, "%s: expected 'reason'", what);
	ret = parse_reason(c, rec, what);
	return ret ? ret : opt_rip(c, rec, what);
}

/* kvm_nested_vmexit_inject: native "reason: NAME ext_inf1: ..." or plugin "reason NAME info1". */
static int parse_vmexit_inject(struct cur *c, struct kvm_record *rec)
{
	static const char what[] = "kvm_nested_vmexit_inject";

	if (at_word(c, "reason:"))
		c->p += 7;
	else if (at_word(c, "reason"))
		c->p += 6;
	else
		return fail_at(c, c->p, "%s: expected 'reason'", what);
	return parse_reason(c, rec, what);
}

/* kvm_nested_vmenter / kvm_nested_vmrun: "rip: 0x%016llx vmcs: ..." or -R "rip=...". */
static int parse_vmenter(struct cur *c, struct kvm_record *rec)
{
	const char *what = rec->name;

	if (!at_word(c, "rip:"))
		return fail_at(c, c->p, "%s: expected 'rip:'", what);
	return opt_rip(c, rec, what);
}

/* Instruction bytes: two hex digits each, up to "(mode)", "FAIL"/"failed" or the end. */
static int parse_insn_bytes(struct cur *c, struct kvm_record *rec, const char *what)
{
	const char *p = c->p, *end = c->end;
	unsigned int n = 0;

	for (;;) {
		int hi, lo;

		while (p < end && *p == ' ')
			p++;
		if (end - p < 2 || (hi = hex_val(p[0])) < 0 || (lo = hex_val(p[1])) < 0 ||
		    (end - p > 2 && !is_sp(p[2])))
			break;
		if (n == KVM_INSN_MAX) {
			c->p = p;
			return fail_at(c, p, "%s: more than %d instruction bytes", what,
				       KVM_INSN_MAX);
		}
		rec->insn[n++] = (uint8_t)(hi << 4 | lo);
		p += 2;
	}
	rec->insn_len = (uint8_t)n;
	c->p = p;
	skip_sp(c);
	if (c->p == c->end || *c->p == '(' || at_word(c, "FAIL") || at_word(c, "failed"))
		return 0;
	return fail_at(c, c->p, "%s: expected instruction bytes (two hex digits each; a "
			  "trace-cmd built with a disassembler prints mnemonics: use "
			  "trace-cmd report -N or -R)", what);
}

static int parse_emulate_insn_raw(struct cur *c, struct kvm_record *rec, const char *what)
{
	uint64_t len = 0, flags = 0, failed = 0, b;
	const struct raw_field *f;
	struct raw r;
	struct cur vc;
	int ret;

	ret = raw_split(c, &r, what);
	if (!ret)
		ret = raw_num(c, &r, "rip", HEX, UINT64_MAX, &rec->rip, what);
	if (!ret)
		ret = raw_num(c, &r, "len", DEC, KVM_INSN_MAX, &len, what);
	if (!ret)
		ret = raw_num(c, &r, "flags", DEC, 0xff, &flags, what);
	if (!ret)
		ret = raw_num(c, &r, "failed", DEC, 1, &failed, what);
	if (ret)
		return ret;
	f = raw_get(&r, "insn");
	if (!f || f->vlen < 7 || memcmp(f->val, "ARRAY[", 6))
		return fail_at(c, f ? f->val : c->end, "%s: expected field 'insn=ARRAY[...]'",
			       what);
	/* All 15 bytes are printed; only the first len are the instruction. */
	vc = *c;
	vc.p = f->val + 6;
	vc.end = f->val + f->vlen - 1;
	while (rec->insn_len < len) {
		ret = field_num(&vc, true, &b, 0xff, ',', what);
		if (ret)
			return ret;
		rec->insn[rec->insn_len++] = (uint8_t)b;
		if (vc.p < vc.end && *vc.p == ',')
			vc.p++;
	}
	rec->mode = trace_insn_mode_from_flags((unsigned int)flags);
	rec->failed = failed;
	return 0;
}

const char *const text_insn_modes[KVM_MODE_PROT64 + 1] = {
	[KVM_MODE_REAL] = "(real)",	[KVM_MODE_VM86] = "(vm16)",
	[KVM_MODE_PROT16] = "(prot16)", [KVM_MODE_PROT32] = "(prot32)",
	[KVM_MODE_PROT64] = "(prot64)",
};

/* "(real)" ... "(prot64)" at the cursor, or "(0x..)" for flags kvm_trace_symbol_emul_flags does
 * not name; nothing if no '('. */
static int parse_insn_mode(struct cur *c, struct kvm_record *rec, const char *what)
{
	const char *te;
	size_t i;

	if (c->p == c->end || *c->p != '(')
		return 0;
	te = tok_end(c->p, c->end);
	for (i = KVM_MODE_REAL; i < ARRAY_SIZE(text_insn_modes); i++) {
		if (strlen(text_insn_modes[i]) == (size_t)(te - c->p) &&
		    !memcmp(text_insn_modes[i], c->p, (size_t)(te - c->p)))
			rec->mode = (enum kvm_insn_mode)i;
	}
	/* __print_symbolic() prints a flags value it does not know as "0x..". */
	if (rec->mode == KVM_MODE_UNKNOWN &&
	    !(te - c->p > 4 && c->p[1] == '0' && c->p[2] == 'x' && te[-1] == ')'))
		return fail_at(c, c->p, "%s: expected the mode: (real), (vm16), (prot16), "
				  "(prot32) or (prot64)", what);
	c->p = te;
	skip_sp(c);
	return 0;
}

/* Read @lay at the cursor: any white space between steps, text after the last one ignored. */
static int parse_layout(struct cur *c, struct kvm_record *rec, const struct tp_layout *lay)
{
	const char *what = lay->name, *chosen = "", *te;
	bool errno_name = false;
	unsigned int i;
	uint64_t v = 0;
	int ret;

	for (i = 0; i < lay->n; i++) {
		const struct tp_step *st = &lay->step[i];
		/* the byte a number may end at: a glued byte after it */
		const struct tp_step *next = i + 1 < lay->n ? st + 1 : NULL;
		char also = next && next->glue && (next->op == TP_CHAR || next->op == TP_OPT_CHAR) ?
			    next->lit[0][0] : 0;

		if (!st->glue)
			skip_sp(c);
		switch (st->op) {
		case TP_WORD:
			if (!at_word_n(c, st->lit[0], st->len[0]))
				return fail_at(c, c->p, "%s: expected '%s'", what, st->lit[0]);
			c->p += st->len[0];
			break;
		case TP_CHOICE:
			if (at_word_n(c, st->lit[0], st->len[0])) {
				v = st->max;
			} else if (at_word_n(c, st->lit[1], st->len[1])) {
				v = !st->max;
			} else {
				return fail_at(c, c->p, "%s: expected '%s' or '%s'", what,
					       st->lit[0], st->lit[1]);
			}
			chosen = st->lit[v != st->max];
			c->p += st->len[v != st->max];
			field_store(rec, st->off, st->type, v);
			break;
		case TP_HEX:
		case TP_DEC:
			ret = field_num(c, st->op == TP_HEX, &v, st->max, also, what);
			if (ret && st->msg)
				return fail_at(c, c->p, st->msg, what, chosen);
			if (ret)
				return ret;
			field_store(rec, st->off, st->type, errno_name ? 0 : v);
			break;
		case TP_HEXP:
			ret = parse_hex(c, &v, what);
			if (ret)
				return ret;
			field_store(rec, st->off, st->type, v);
			break;
		case TP_CHAR:
			if (c->p == c->end || *c->p != st->lit[0][0])
				return fail_at(c, c->p, st->msg, what);
			c->p++;
			break;
		case TP_OPT_CHAR:
			if (c->p < c->end && *c->p == st->lit[0][0])
				c->p++;
			break;
		case TP_OPT:
			if (!at_word_n(c, st->lit[0], st->len[0]))
				return 0;
			c->p += st->len[0];
			break;
		case TP_FLAG:
			if (at_word_n(c, st->lit[0], st->len[0]) ||
			    (st->lit[1] && at_word_n(c, st->lit[1], st->len[1])))
				field_store(rec, st->off, st->type, 1);
			break;
		case TP_EXIT_NAME:
			te = tok_end(c->p, c->end);
			if (te == c->p)
				return fail_at(c, c->p, st->msg, what);
			errno_name = is_errno_name(c->p, (size_t)(te - c->p));
			c->p = te;
			break;
		case TP_INSN:
			ret = parse_insn_bytes(c, rec, what);
			if (ret)
				return ret;
			break;
		case TP_MODE:
			ret = parse_insn_mode(c, rec, what);
			if (ret)
				return ret;
			break;
		}
	}
	return 0;
}

/* kvm_trace_sym_exc in arch/x86/kvm/trace.h: EXS(x) = { x##_VECTOR, "#" #x }. */
static const struct {
	char name[4];
	uint8_t vector;
} exception_names[] = {
	{ "#DE", 0 },  { "#DB", 1 },  { "#BP", 3 },  { "#OF", 4 },  { "#BR", 5 },  { "#UD", 6 },
	{ "#NM", 7 },  { "#DF", 8 },  { "#TS", 10 }, { "#NP", 11 }, { "#SS", 12 }, { "#GP", 13 },
	{ "#PF", 14 }, { "#MF", 16 }, { "#AC", 17 }, { "#MC", 18 },
};

/* kvm_inj_exception: "#GP", "#PF (0x3)", "#DB [reinjected]", "0x1e" (a vector without a name),
 * -R and "[FAILED TO PARSE] exception=13 has_error=0 error_code=0 reinjected=0" (libtraceevent
 * 1.7 cannot parse the empty __print_symbolic() of 6.x kernels). */
static int parse_inj_exception(struct cur *c, struct kvm_record *rec)
{
	static const char what[] = "kvm_inj_exception";
	const char *te = tok_end(c->p, c->end);
	uint64_t v = 0;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(exception_names); i++) {
		if (te - c->p == 3 && !memcmp(exception_names[i].name, c->p, 3))
			break;
	}
	if (i < ARRAY_SIZE(exception_names)) {
		rec->vector = exception_names[i].vector;
		c->p = te;
	} else if (te - c->p > 2 && c->p[0] == '0' && c->p[1] == 'x') {
		ret = field_hex(c, &v, 0xff, what);
		if (ret)
			return ret;
		rec->vector = (uint32_t)v;
	} else {
		return fail_at(c, c->p, "%s: expected an exception name (#GP, #PF, ...)", what);
	}
	skip_sp(c);
	if (c->p < c->end && *c->p == '(') /* the error code */
		c->p = tok_end(c->p, c->end);
	skip_sp(c);
	if (at_word(c, "[reinjected]"))
		rec->reinjected = true;
	return 0;
}

/* kvm_inj_virq: "irq %u" (before 6.2), "IRQ 0x%x", "Soft/INTn 0x%x", with " [reinjected]". */
static int parse_inj_virq(struct cur *c, struct kvm_record *rec)
{
	static const char what[] = "kvm_inj_virq";
	uint64_t v = 0;
	int ret;

	if (at_word(c, "irq")) {
		c->p += 3;
		ret = field_dec(c, &v, 0xff, what);
	} else if (at_word(c, "IRQ") || at_word(c, "Soft/INTn")) {
		c->p = tok_end(c->p, c->end);
		ret = field_hex(c, &v, 0xff, what);
	} else {
		return fail_at(c, c->p, "%s: expected 'IRQ', 'Soft/INTn' or 'irq'", what);
	}
	if (ret)
		return ret;
	rec->vector = (uint32_t)v;
	skip_sp(c);
	if (at_word(c, "[reinjected]"))
		rec->reinjected = true;
	return 0;
}

/* kvm_deliver_mode in include/trace/events/kvm.h, indexed by (dm >> 8) & 7. */
static const char *const deliver_modes[8] = {
	"Fixed", "LowPrio", "SMI", "Res3", "NMI", "INIT", "SIPI", "ExtINT",
};

/*
 * kvm_apic_accept_irq "apicid %x vec %u (%s|%s)": the target vCPU is the APIC ID (KVM's
 * default APIC ID is the vcpu_id; the record comes from the sender's thread) and the delivery
 * mode is the first word in parentheses. kvm_eoi "apicid %x vector %d" comes from the vCPU's own
 * thread: no vcpu.
 */
static int parse_apic_vector(struct cur *c, struct kvm_record *rec, bool eoi)
{
	const char *what = eoi ? "kvm_eoi" : "kvm_apic_accept_irq";
	uint64_t apicid = 0, v = 0;
	const char *m;
	size_t i;
	int ret;

	ret = expect_word(c, "apicid", what);
	if (!ret)
		ret = field_hex(c, &apicid, VCPU_MAX_, what);
	if (!ret)
		ret = eoi ? expect_word(c, "vector", what) : expect_word(c, "vec", what);
	if (!ret)
		ret = field_dec(c, &v, 0xff, what);
	rec->vector = (uint32_t)v;
	if (ret || eoi)
		return ret;
	rec->vcpu = (int32_t)apicid;
	skip_sp(c);
	m = c->p + 1;
	for (i = 0; c->p < c->end && *c->p == '(' && i < ARRAY_SIZE(deliver_modes); i++) {
		size_t n = strlen(deliver_modes[i]);

		if ((size_t)(c->end - m) > n && !memcmp(m, deliver_modes[i], n) &&
		    (m[n] == '|' || m[n] == ')')) {
			rec->dm = (uint32_t)i;
			return 0;
		}
	}
	return fail_at(c, c->p, "%s: expected the delivery mode: (Fixed|..., (LowPrio|..., ...",
		       what);
}

/* APIC registers of kvm_trace_symbol_apic (arch/x86/kvm/trace.h, AREG(x) = { APIC_##x,
 * "APIC_" #x }); offsets from arch/x86/include/asm/apicdef.h. */
static const struct {
	const char *name;
	uint16_t reg;
} apic_regs[] = {
	{ "APIC_ID", 0x20 },	  { "APIC_LVR", 0x30 },	      { "APIC_TASKPRI", 0x80 },
	{ "APIC_ARBPRI", 0x90 },  { "APIC_PROCPRI", 0xa0 },   { "APIC_EOI", 0xb0 },
	{ "APIC_RRR", 0xc0 },	  { "APIC_LDR", 0xd0 },	      { "APIC_DFR", 0xe0 },
	{ "APIC_SPIV", 0xf0 },	  { "APIC_ISR", 0x100 },      { "APIC_TMR", 0x180 },
	{ "APIC_IRR", 0x200 },	  { "APIC_ESR", 0x280 },      { "APIC_ICR", 0x300 },
	{ "APIC_ICR2", 0x310 },	  { "APIC_LVTT", 0x320 },     { "APIC_LVTTHMR", 0x330 },
	{ "APIC_LVTPC", 0x340 },  { "APIC_LVT0", 0x350 },     { "APIC_LVT1", 0x360 },
	{ "APIC_LVTERR", 0x370 }, { "APIC_TMICT", 0x380 },    { "APIC_TMCCT", 0x390 },
	{ "APIC_TDCR", 0x3e0 },	  { "APIC_SELF_IPI", 0x3f0 }, { "APIC_EFEAT", 0x400 },
	{ "APIC_ECTRL", 0x410 },
};

/* kvm_apic: "apic_%s %s = 0x%x", the register by name (or "0x%x" for one without a name). */
static int parse_apic(struct cur *c, struct kvm_record *rec)
{
	static const char what[] = "kvm_apic";
	const char *te;
	uint64_t v = 0;
	size_t i;
	int ret;

	if (at_word(c, "apic_write"))
		rec->write = true;
	else if (!at_word(c, "apic_read"))
		return fail_at(c, c->p, "%s: expected 'apic_read' or 'apic_write'", what);
	c->p += rec->write ? 10 : 9;
	skip_sp(c);
	te = tok_end(c->p, c->end);
	for (i = 0; i < ARRAY_SIZE(apic_regs); i++) {
		if (strlen(apic_regs[i].name) == (size_t)(te - c->p) &&
		    !memcmp(apic_regs[i].name, c->p, (size_t)(te - c->p)))
			break;
	}
	if (i < ARRAY_SIZE(apic_regs)) {
		rec->reg = apic_regs[i].reg;
		c->p = te;
	} else if (te - c->p > 2 && c->p[0] == '0' && c->p[1] == 'x') {
		ret = field_hex(c, &v, U32_MAX_, what);
		if (ret)
			return ret;
		rec->reg = (uint32_t)v;
	} else {
		return fail_at(c, c->p, "%s: expected an APIC register (APIC_LVTPC, ...)", what);
	}
	ret = expect_word(c, "=", what);
	return ret ? ret : field_hex(c, &rec->data, UINT64_MAX, what);
}

/* ---------------------------------------------------------------------------------------------
 * The -R field form of each kind: which fields, read how, into which record field.
 */
/* Field names and print conversions of the TRACE_EVENTs in arch/x86/kvm/trace.h and
 * include/trace/events/kvm.h. */
static const struct raw_spec raw_entry[] = {
	RS("vcpu_id", DEC, RT_I32, false, vcpu, VCPU_MAX_),
	RS("rip", HEX, RT_U64, true, rip, UINT64_MAX),
};
static const struct raw_spec raw_msr[] = {
	RS("write", DEC, RT_BOOL, false, write, 1),
	RS("ecx", HEX, RT_U32, false, msr, U32_MAX_),
	RS("data", HEX, RT_U64, false, data, UINT64_MAX),
	RS("exception", DEC, RT_BOOL, false, gp, 1),
};
static const struct raw_spec raw_inj_exception[] = {
	RS("exception", DEC, RT_U32, false, vector, 0xff),
	RS("reinjected", DEC, RT_BOOL, true, reinjected, 1),
};
/* "irq" before 6.2, "vector" (printed "0x%x") since; one of them is checked for below */
static const struct raw_spec raw_inj_virq[] = {
	RS("irq", DEC, RT_U32, true, vector, 0xff),
	RS("vector", HEX, RT_U32, true, vector, 0xff),
	RS("reinjected", DEC, RT_BOOL, true, reinjected, 1),
};
static const struct raw_spec raw_accept_irq[] = {
	RS("apicid", HEX, RT_I32, false, vcpu, VCPU_MAX_),
	RS("dm", DEC, RT_U32, false, dm, 0xffff),
	RS("vec", DEC, RT_U32, false, vector, 0xff),
};
static const struct raw_spec raw_eoi[] = {
	RS("vector", DEC, RT_U32, false, vector, 0xff),
};
static const struct raw_spec raw_apic[] = {
	RS("rw", DEC, RT_BOOL, false, write, 1),
	RS("reg", DEC, RT_U32, false, reg, U32_MAX_),
	RS("val", HEX, RT_U64, false, data, UINT64_MAX),
};
static const struct raw_spec raw_pio[] = {
	RS("rw", DEC, RT_BOOL, false, write, 1),
	RS("port", HEX, RT_U32, false, port, 0xffff),
	RS("size", DEC, RT_U32, false, size, U32_MAX_),
	RS("count", DEC, RT_U32, false, count, U32_MAX_),
	RS("val", HEX, RT_U64, true, data, U32_MAX_),
};
static const struct raw_spec raw_userspace_exit[] = {
	RS("reason", DEC, RT_U32, false, exit_reason, U32_MAX_),
};
static const struct raw_spec raw_fpu[] = {
	RS("load", DEC, RT_BOOL, false, write, 1),
};
static const struct raw_spec raw_vmenter[] = {
	RS("rip", HEX, RT_U64, false, rip, UINT64_MAX),
};

const struct raw_kind text_raw_kinds[KVM_REC_NR] = {
#define RK(kind, spec) [kind] = { spec, ARRAY_SIZE(spec) }
	RK(KVM_REC_ENTRY, raw_entry),
	RK(KVM_REC_MSR, raw_msr),
	RK(KVM_REC_INJ_EXCEPTION, raw_inj_exception),
	RK(KVM_REC_INJ_VIRQ, raw_inj_virq),
	RK(KVM_REC_APIC_ACCEPT_IRQ, raw_accept_irq),
	RK(KVM_REC_EOI, raw_eoi),
	RK(KVM_REC_APIC, raw_apic),
	RK(KVM_REC_PIO, raw_pio),
	RK(KVM_REC_USERSPACE_EXIT, raw_userspace_exit),
	RK(KVM_REC_FPU, raw_fpu),
	RK(KVM_REC_NESTED_VMENTER, raw_vmenter),
#undef RK
};

/* The "name=value" form of any kind (trace-cmd report -R, "[FAILED TO PARSE]"). */
static int parse_raw(struct cur *c, struct kvm_record *rec)
{
	const char *what = rec->name;
	struct raw r;
	size_t i;
	int ret;

	switch (rec->kind) {
	case KVM_REC_EXIT:
	case KVM_REC_NESTED_VMEXIT:
	case KVM_REC_NESTED_VMEXIT_INJECT:
		return parse_exit_raw(c, rec, what);
	case KVM_REC_EMULATE_INSN:
		return parse_emulate_insn_raw(c, rec, what);
	default:
		break;
	}
	ret = raw_split(c, &r, what);
	for (i = 0; !ret && i < text_raw_kinds[rec->kind].n; i++) {
		const struct raw_spec *sp = &text_raw_kinds[rec->kind].spec[i];
		uint64_t v;

		if (sp->optional && !raw_get(&r, sp->key))
			continue;
		ret = raw_num(c, &r, sp->key, sp->base, sp->max, &v, what);
		if (!ret)
			field_store(rec, sp->off, sp->type, v);
	}
	if (ret)
		return ret;
	if (rec->kind == KVM_REC_INJ_VIRQ && !raw_get(&r, "irq") && !raw_get(&r, "vector"))
		return fail_at(c, c->end, "%s: expected field 'vector='", what);
	raw_finish(rec);
	return 0;
}

static int parse_payload(struct cur *c, struct kvm_record *rec)
{
	static const char failed[] = FAILED_TO_PARSE;

	switch (rec->kind) {
	case KVM_REC_OTHER:
	case KVM_REC_CPUID:
	case KVM_REC_HYPERCALL:
	case KVM_REC_NESTED_OTHER:
		return 0; /* nothing the importer reads */
	default:
		break;
	}
	if (c->p < c->end && *c->p == '[' && (size_t)(c->end - c->p) >= sizeof(failed) - 1 &&
	    !memcmp(c->p, failed, sizeof(failed) - 1)) {
		c->p += sizeof(failed) - 1;
		skip_sp(c);
		if (!is_raw_form(c->p, c->end))
			return fail_at(c, c->p, "%s: expected 'name=value' fields after %s",
				       rec->name, failed);
	}
	if (is_raw_form(c->p, c->end))
		return parse_raw(c, rec);
	if (text_layouts[rec->kind].n)
		return parse_layout(c, rec, &text_layouts[rec->kind]);
	switch (rec->kind) {
	case KVM_REC_EXIT:
	case KVM_REC_NESTED_VMEXIT:
		return parse_exit(c, rec);
	case KVM_REC_NESTED_VMEXIT_INJECT:
		return parse_vmexit_inject(c, rec);
	case KVM_REC_NESTED_VMENTER:
		return parse_vmenter(c, rec);
	case KVM_REC_INJ_EXCEPTION:
		return parse_inj_exception(c, rec);
	case KVM_REC_INJ_VIRQ:
		return parse_inj_virq(c, rec);
	case KVM_REC_APIC_ACCEPT_IRQ:
		return parse_apic_vector(c, rec, false);
	case KVM_REC_EOI:
		return parse_apic_vector(c, rec, true);
	case KVM_REC_APIC:
		return parse_apic(c, rec);
	default:
		return 0;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Line prefix.
 */

/* End of NAME or SYSTEM:NAME starting at @p (the byte after it). */
static const char *name_end(const char *p, const char *end)
{
	while (p < end && is_name_char(*p))
		p++;
	if (end - p > 1 && *p == ':' && is_name_start(p[1])) {
		for (p++; p < end && is_name_char(*p); p++)
			;
	}
	return p;
}

/*
 * A time stamp at @p: SECONDS[.FRACTION] (to ns) or an integer clock (trace-cmd -C x86-tsc,
 * counter: taken as is). Return: where it ends (p itself if there are no digits), or NULL with
 * the error set (too many digits).
 */
static inline const char *parse_time(struct cur *c, const char *p, const char *end,
				     struct kvm_record *rec)
{
	const char *start = p;
	uint64_t sec, frac;
	unsigned int nd;

	/* the usual "SSSSS.UUUUUU": at most 7 + 1 + 8 digits, two SWAR conversions */
	if (end - p >= 17) {
		nd = digits8(p, &sec);
		if (nd && nd < 8 && p[nd] == '.') {
			unsigned int nf = digits8(p + nd + 1, &frac);

			if (nf && nf < 8) {
				rec->time_ns = sec * 1000000000ull + frac * pow10_frac[nf];
				rec->has_time = true;
				return p + nd + 1 + nf;
			}
		}
	}
	p = scan_dec(p, end, &sec, &nd);
	if (!nd)
		return p;
	if (nd > 19) {
		fail_at(c, start, "time stamp larger than 64 bits");
		return NULL;
	}
	rec->time_ns = sec;
	rec->has_time = true;
	if (p == end || *p != '.' || end - p < 2 || !is_digit(p[1]))
		return p;
	p = scan_dec(p + 1, end, &frac, &nd);
	if (nd > 9) {
		fail_at(c, start, "time stamp: more than 9 decimals (finer than 1 ns)");
		return NULL;
	}
	frac *= pow10_frac[nd];
	if (sec > (UINT64_MAX - frac) / 1000000000ull) {
		fail_at(c, start, "time stamp too large for 64-bit ns");
		return NULL;
	}
	rec->time_ns = sec * 1000000000ull + frac;
	return p;
}

static int64_t dec_span(const char *p, const char *end)
{
	int64_t v = 0;

	for (; p < end; p++)
		v = v * 10 + (*p - '0');
	return v;
}

/* "[cpu]" (at most 9 digits) at the end of [p, end): set rec->cpu and return its start. */
static const char *cpu_suffix(const char *p, const char *end, struct kvm_record *rec)
{
	const char *d = end - 1;

	if (end - p < 3 || *d != ']')
		return NULL;
	while (d > p && is_digit(d[-1]))
		d--;
	if (d == end - 1 || end - d > 10 || d == p || d[-1] != '[')
		return NULL;
	rec->cpu = (int32_t)dec_span(d, end - 1);
	return d - 1;
}

/* A latency-flags token ("d..1", ".N..", "d..2.", ".......") at the end of [p, end), after
 * white space: its start. Flags are at most 8 bytes of [A-Za-z0-9_.], not all digits. */
static const char *flags_suffix(const char *p, const char *end)
{
	const char *t = end;
	bool digits_only = true;

	while (t > p && end - t < 8 && (is_ident_char(t[-1]) || t[-1] == '.')) {
		digits_only &= is_digit(t[-1]);
		t--;
	}
	if (t == end || digits_only || t == p || !is_sp(t[-1]))
		return NULL;
	return t;
}

/* A thread id (at most 10 digits) at the end of [p, end): perf's "comm tid" or "comm-pid". */
static bool tid_suffix(const char *p, const char *end, struct kvm_record *rec)
{
	const char *d = end;

	while (d > p && is_digit(d[-1]))
		d--;
	if (d == end || end - d > 10 || d == p || !(is_sp(d[-1]) || d[-1] == '-'))
		return false;
	rec->tid = dec_span(d, end);
	return true;
}

enum { HEAD_CPU = 1, HEAD_FLAGS = 2, HEAD_SPACE_TID = 4 };

/* A thread id at the end of [p, end): HEAD_SPACE_TID if it follows a space (perf's "comm tid"),
 * 0 for ftrace's "comm-pid" or none. */
static int head_tid(const char *p, const char *end, struct kvm_record *rec)
{
	if (!tid_suffix(p, end, rec))
		return 0;
	while (end > p && is_digit(end[-1]))
		end--;
	return is_sp(end[-1]) ? HEAD_SPACE_TID : 0;
}

/*
 * Everything before the time stamp: "comm-pid [cpu] flags", "comm-pid [cpu]", "comm tid [cpu]",
 * "date time comm tid flags [cpu]" (perf-prof), "comm" (perf without tid/cpu) or nothing.
 * Return: what was there (HEAD_*), for vpmc_reader_source().
 */
static int parse_head(const char *p, const char *end, struct kvm_record *rec)
{
	const char *t;

	end = rtrim(p, end);
	t = cpu_suffix(p, end, rec);
	if (!t) {
		t = flags_suffix(p, end);
		if (!t) /* no [cpu]: perf without it, or "comm" only */
			return head_tid(p, end, rec);
		t = cpu_suffix(p, rtrim(p, t), rec);
		if (!t)
			return 0;
		return HEAD_CPU | HEAD_FLAGS | head_tid(p, rtrim(p, t), rec);
	}
	end = rtrim(p, t);
	if (tid_suffix(p, end, rec))
		return HEAD_CPU | head_tid(p, end, rec);
	t = flags_suffix(p, end); /* perf-prof prints the flags before [cpu] */
	if (t)
		return HEAD_CPU | HEAD_FLAGS | head_tid(p, rtrim(p, t), rec);
	return HEAD_CPU;
}

/* The tool that printed a line, from its prefix: for vpmc_reader_source(). */
static const char *layout_of(int head, const char *name_tok, const char *end)
{
	if ((end - name_tok > 4 && !memcmp(name_tok, "kvm:", 4)) || (head & HEAD_SPACE_TID))
		return "perf";
	if (head & HEAD_FLAGS)
		return "ftrace";
	if (head & HEAD_CPU)
		return "trace-cmd";
	return "text";
}

/* Known kinds by name, compared with constant-size memcmp() the compiler inlines. */
#define IS(lit) (len == sizeof(lit) - 1 && !memcmp(n, lit, sizeof(lit) - 1))

static enum kvm_rec_kind kind_of(const char *n, size_t len)
{
	if (len < 7 || memcmp(n, "kvm_", 4))
		return KVM_REC_OTHER;
	switch (len) {
	case 7:
		return IS("kvm_msr") ? KVM_REC_MSR : IS("kvm_fpu") ? KVM_REC_FPU :
		       IS("kvm_pio") ? KVM_REC_PIO : IS("kvm_eoi") ? KVM_REC_EOI : KVM_REC_OTHER;
	case 8:
		return IS("kvm_exit") ? KVM_REC_EXIT : IS("kvm_apic") ? KVM_REC_APIC : KVM_REC_OTHER;
	case 9:
		return IS("kvm_entry") ? KVM_REC_ENTRY : IS("kvm_cpuid") ? KVM_REC_CPUID :
									 KVM_REC_OTHER;
	case 16:
		if (IS("kvm_emulate_insn"))
			return KVM_REC_EMULATE_INSN;
		break;
	}
	return trace_record_kind_n(n, len); /* the rarer ones, and kvm_nested_* */
}

#undef IS

static int set_name(struct cur *c, const char *p, const char *end, struct kvm_record *rec)
{
	size_t n = (size_t)(end - p);

	if (n > 4 && !memcmp(p, "kvm:", 4)) {
		p += 4;
		n -= 4;
	}
	if (n >= KVM_REC_NAME_MAX)
		return fail_at(c, p, "event name longer than %d characters", KVM_REC_NAME_MAX - 1);
	memcpy(rec->name, p, n);
	rec->name[n] = '\0';
	rec->kind = kind_of(p, n);
	return 0;
}

/* A cached event token, followed by ':' and white space or the end, is at the cursor. */
static inline bool cached_name(struct cur *c, struct kvm_record *rec)
{
	struct text_parser *tp = c->tp;
	size_t avail = (size_t)(c->end - c->p);
	unsigned int k;

	for (k = 0; k < TEXT_NAME_WAYS; k++) {
		unsigned int i = (tp->last_name + k) % TEXT_NAME_WAYS;
		const struct text_name *e = &tp->name[i];
		size_t n = e->len;

		if (!n || avail < n || (n >= 8 && load64(c->p) != load64(e->tok)) ||
		    !mem_eq(c->p, e->tok, n) || (avail > n && !is_sp(c->p[n])))
			continue;
		memcpy(rec->name, e->name, sizeof(rec->name));
		rec->kind = e->kind;
		tp->last_name = i;
		c->p += n;
		return true;
	}
	return false;
}

static void cache_name(struct cur *c, const char *tok, size_t n, const struct kvm_record *rec)
{
	struct text_parser *tp = c->tp;
	struct text_name *e = &tp->name[tp->next_name++ % TEXT_NAME_WAYS];

	memcpy(e->tok, tok, n + 1); /* n < KVM_REC_NAME_MAX + 4: set_name() checked it */
	e->len = (unsigned int)n + 1;
	e->kind = rec->kind;
	memset(e->name, 0, sizeof(e->name));
	strcpy(e->name, rec->name);
}

/* After the prefix: "NAME:" (or "SYSTEM:NAME:") and white space or the end of the line. */
static int parse_event_name(struct cur *c, struct kvm_record *rec)
{
	const char *ne;

	skip_sp(c);
	if (c->tp && cached_name(c, rec))
		return 0;
	if (c->p == c->end)
		return fail_at(c, c->p, "expected an event name ('NAME:') after the line prefix");
	ne = is_name_start(*c->p) ? name_end(c->p, c->end) : c->p;
	if (ne == c->p || ne == c->end || *ne != ':' || (ne + 1 < c->end && !is_sp(ne[1])))
		return fail_at(c, c->p, "expected an event name followed by ':'");
	if (set_name(c, c->p, ne, rec))
		return VPMC_ERR_PARSE;
	if (c->tp)
		cache_name(c, c->p, (size_t)(ne - c->p), rec);
	c->p = ne + 1;
	return 0;
}

/*
 * The line starts with a cached head, then a time stamp token ending in ": ": the prefix is the
 * same shape with the same comm, pid and cpu. A head holds no ':' followed by white space (its
 * first one was the time stamp's), so this is what parse_prefix() would find.
 * Return: 1 (found) or 0 (not cached).
 */
static inline int cached_head(struct cur *c, struct kvm_record *rec)
{
	struct text_parser *tp = c->tp;
	size_t avail = (size_t)(c->end - c->line);
	unsigned int k;

	for (k = 0; k < TEXT_CACHE_WAYS; k++) {
		unsigned int i = (tp->last_head + k) % TEXT_CACHE_WAYS;
		const struct text_head *h = &tp->head[i];
		const char *t = c->line + h->len, *p;
		size_t n = h->len;

		if (!n || avail < n + 2 || !is_digit(*t) ||
		    (n >= 8 && load64(t - 8) != load64(h->bytes + n - 8)) ||
		    !mem_eq(c->line, h->bytes, n))
			continue;
		p = parse_time(c, t, c->end, rec);
		/* not "TIMESTAMP: ": the general parser decides (and words the error) */
		if (!p || p == c->end || *p != ':' || (p + 1 < c->end && !is_sp(p[1]))) {
			rec->has_time = false;
			rec->time_ns = 0;
			return 0;
		}
		rec->tid = h->tid;
		rec->cpu = h->cpu;
		tp->last_head = i;
		c->p = p + 1;
		return 1;
	}
	return 0;
}

static void cache_head(struct cur *c, const char *t, const struct kvm_record *rec)
{
	struct text_parser *tp = c->tp;
	struct text_head *h = &tp->head[tp->next_head++ % TEXT_CACHE_WAYS];
	size_t n = (size_t)(t - c->line);

	if (n > sizeof(h->bytes))
		return;
	memcpy(h->bytes, c->line, n);
	h->len = (unsigned int)n;
	h->tid = rec->tid;
	h->cpu = rec->cpu;
}

/*
 * The prefix: the first token that ends in ':' is a time stamp, a "comm-pid" or (as the first
 * token) the event name itself. That token ends at the first ':' followed by white space,
 * which memchr() finds fast.
 */
static int parse_prefix(struct cur *c, struct kvm_record *rec)
{
	const char *first = c->p, *q = c->p, *t, *ts;
	int ret, head = 0;

	if (c->tp && cached_head(c, rec))
		return parse_event_name(c, rec);
	for (;;) {
		q = memchr(q, ':', (size_t)(c->end - q));
		if (!q)
			return fail_at(c, first, "expected an event ('NAME: ...') on this line");
		if (q + 1 == c->end || is_sp(q[1]))
			break;
		q++;
	}
	for (t = q; t > first && !is_sp(t[-1]); t--)
		;
	if (t == first && is_name_start(*t) && name_end(t, q) == q) {
		c->p = q + 1; /* a bare event line */
		if (c->tp && !c->tp->layout)
			c->tp->layout = layout_of(0, t, c->end);
		return set_name(c, t, q, rec);
	}
	ts = parse_time(c, t, q, rec);
	if (!ts)
		return VPMC_ERR_PARSE;
	if (ts != q) {
		rec->has_time = false;
		rec->time_ns = 0;
	}
	if (ts == q) {
		head = parse_head(first, t, rec);
		if (c->tp)
			cache_head(c, t, rec);
	} else if (!(memchr(t, '-', (size_t)(q - t)) && tid_suffix(t, q, rec) && q[-1] != '-'))
		return fail_at(c, t, "expected 'TIMESTAMP:' or 'COMM-PID:' before the event name");
	c->p = q + 1;
	ret = parse_event_name(c, rec);
	if (!ret && c->tp && !c->tp->layout) {
		const char *nt = q + 1;

		while (nt < c->end && is_sp(*nt))
			nt++;
		c->tp->layout = layout_of(head, nt, c->end);
	}
	return ret;
}

/* ---------------------------------------------------------------------------------------------
 * Lines that are not events.
 */
static bool has_prefix(const char *p, const char *end, const char *s, size_t n)
{
	return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

#define HAS_PREFIX(p, end, lit) has_prefix((p), (end), (lit), sizeof(lit) - 1)

static const char *skip_digits(const char *p, const char *end)
{
	while (p < end && is_digit(*p))
		p++;
	return p;
}

/* "CPU:N [LOST N EVENTS]", "CPU:N [LOST EVENTS]" (ftrace), "CPU:N [N EVENTS DROPPED]",
 * "CPU:N [EVENTS DROPPED]" (trace-cmd). */
static bool parse_lost(const char *p, const char *end, struct kvm_record *rec)
{
	const char *d, *q, *n;

	if (!HAS_PREFIX(p, end, "CPU:"))
		return false;
	d = p + 4;
	q = skip_digits(d, end);
	if (q == d || q - d > 9 || !HAS_PREFIX(q, end, " ["))
		return false;
	rec->cpu = (int32_t)dec_span(d, q);
	q += 2;
	if ((HAS_PREFIX(q, end, "LOST EVENTS]") && q + 12 == end) ||
	    (HAS_PREFIX(q, end, "EVENTS DROPPED]") && q + 15 == end)) {
		rec->lost = 0;
	} else {
		if (HAS_PREFIX(q, end, "LOST "))
			q += 5;
		n = q;
		q = skip_digits(q, end);
		if (q == n || q - n > 19 ||
		    !((HAS_PREFIX(q, end, " EVENTS]") && q + 8 == end) ||
		      (HAS_PREFIX(q, end, " EVENTS DROPPED]") && q + 16 == end)))
			return false;
		for (rec->lost = 0; n < q; n++)
			rec->lost = rec->lost * 10 + (uint64_t)(*n - '0');
	}
	rec->kind = KVM_REC_LOST;
	strcpy(rec->name, "lost events");
	return true;
}

/* "# ..." (ftrace headers, comments), "cpus=N", "version = N", "CPU N is empty" (trace-cmd). */
static bool is_header(const char *p, const char *end)
{
	const char *q;

	switch (*p) {
	case '#':
		return true;
	case 'c':
		q = p + 5;
		return HAS_PREFIX(p, end, "cpus=") && q < end && skip_digits(q, end) == end;
	case 'v':
		q = p + 10;
		return HAS_PREFIX(p, end, "version = ") && q < end && skip_digits(q, end) == end;
	case 'C':
		q = skip_digits(p + 4, end);
		return HAS_PREFIX(p, end, "CPU ") && q > p + 4 && HAS_PREFIX(q, end, " is empty") &&
		       q + 9 == end;
	}
	return false;
}

static bool is_elision(const char *p, const char *end)
{
	if (end - p < 3)
		return false;
	for (; p < end; p++) {
		if (*p != '.')
			return false;
	}
	return true;
}

void trace_text_init(struct text_parser *tp)
{
	memset(tp, 0, sizeof(*tp));
}

int trace_text_parse_line(struct text_parser *tp, const char *line, size_t len,
			  struct kvm_record *rec, enum text_skip *skip, struct vpmc__lineerr *err)
{
	struct cur c = { .line = line, .p = line, .end = line + len, .err = err, .tp = tp };
	enum text_skip dummy;

	if (!skip)
		skip = &dummy;
	/* Tools pad the payload (trace-cmd) and end some with a space (kvm_pio's empty "%s");
	 * mail clients add a '\r'. */
	if (len && line[len - 1] == '\r')
		c.end--;
	c.end = rtrim(c.p, c.end);
	skip_sp(&c);
	if (c.p == c.end) {
		*skip = TEXT_SKIP_BLANK;
		return 0;
	}
	if (is_header(c.p, c.end)) {
		*skip = TEXT_SKIP_HEADER;
		return 0;
	}
	if (*c.p == '.' && is_elision(c.p, c.end)) {
		*skip = TEXT_SKIP_ELISION;
		return 0;
	}
	if (tp && text_fast_line(tp, line, c.end, rec))
		return 1;
	memset(rec, 0, sizeof(*rec));
	rec->tid = -1;
	rec->cpu = -1;
	rec->vcpu = -1;
	if (*c.p == 'C' && parse_lost(c.p, c.end, rec))
		return 1;
	if (parse_prefix(&c, rec))
		return VPMC_ERR_PARSE;
	skip_sp(&c);
	return parse_payload(&c, rec) ? VPMC_ERR_PARSE : 1;
}
