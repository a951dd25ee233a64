/* SPDX-License-Identifier: GPL-2.0-only */
/* text_layouts.h - The plain payload layouts of the frequent kvm tracepoints, each described
 * once, as steps in the order the tracepoint prints them. Two consumers read them: the general
 * parser (text.c, parse_layout(): any white space, trailing text ignored, a message for each
 * error) and the fast path (text_fast.c, fast_layout(): the spacing the tools print, the whole
 * line, no messages; anything else goes to the general parser). The tables are static here so
 * that the compiler specializes the fast path for each layout. A layout's first step takes no
 * "name=" (the -R form) and no '[' ("[FAILED TO PARSE]"), and stores nothing when it fails:
 * fast_payload() tries the layout before looking for those. tests/trace/check_text.c checks that
 * both consumers give the same record or message, on mutated lines of each layout.
 */
#ifndef VPMC_TRACE_TEXT_LAYOUTS_H
#define VPMC_TRACE_TEXT_LAYOUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"
#include "text_scan.h"
#include "internal.h"

enum tp_op {
	TP_WORD,      /* the word lit[0] */
	TP_CHOICE,    /* lit[0] (the field is max) or lit[1] (the field is !max) */
	TP_HEX,       /* a whole token: hex digits, "0x" optional; at most max */
	TP_DEC,       /* a whole token: decimal digits; at most max */
	TP_HEXP,      /* hex digits, "0x" optional, whatever follows them */
	TP_CHAR,      /* the byte lit[0][0] (msg if it is not there) */
	TP_OPT_CHAR,  /* the byte lit[0][0], if it is there */
	TP_OPT,       /* the steps after this one are there if the word lit[0] is */
	TP_FLAG,      /* the last step: the word lit[0] or lit[1] (if not NULL) sets the field */
	TP_EXIT_NAME, /* a KVM_EXIT_* name; "restart" and "error" make the next number 0 (it is an
		       * errno there, not the reason) */
	TP_INSN,      /* instruction bytes, two hex digits each */
	TP_MODE,      /* "(real)" ... "(prot64)", if there is a '(' */
};

struct tp_step {
	uint8_t op;      /* enum tp_op */
	uint8_t type;    /* enum raw_type of the field */
	bool glue;       /* printed right after the step before, no space between (the general
			  * parser still takes white space before a TP_HEX or TP_DEC) */
	uint16_t off;    /* offsetof(struct kvm_record, field), or TP_NO_FIELD */
	uint8_t len[2];  /* of lit[] */
	const char *lit[2];
	uint64_t max;
	const char *msg; /* TP_CHAR, TP_EXIT_NAME: "%s: expected ..." (the event); TP_HEX: also
			  * "%s" the word TP_CHOICE matched, replacing the number's own message */
};

struct tp_layout {
	const char *name; /* the event, in messages */
	const struct tp_step *step;
	unsigned int n;   /* 0: no layout, a hand-written parser in text.c */
};

#define F(field) offsetof(struct kvm_record, field)
#define L(w) (uint8_t)(sizeof(w) - 1)
#define T_WORD(w) { .op = TP_WORD, .lit = { w }, .len = { L(w) } }
#define T_CHOICE(w0, w1, field, v0) \
	{ .op = TP_CHOICE, .type = RT_BOOL, .off = F(field), .lit = { w0, w1 }, \
	  .len = { L(w0), L(w1) }, .max = v0 }
#define T_NUM(op_, field, type_, max_) { .op = op_, .type = type_, .off = F(field), .max = max_ }
#define T_CHAR(ch, glue_, msg_) { .op = TP_CHAR, .glue = glue_, .lit = { ch }, .msg = msg_ }

/* kvm_entry: "vcpu %u", "vcpu %u, rip 0x%lx", "vcpu %u rip 0x%lx", "...[immediate exit]". */
static const struct tp_step layout_entry[] = {
	T_WORD("vcpu"),
	T_NUM(TP_DEC, vcpu, RT_I32, VCPU_MAX_),
	{ .op = TP_OPT_CHAR, .glue = true, .lit = { "," } },
	{ .op = TP_OPT, .lit = { "rip" }, .len = { 3 } },
	/* "[immediate exit]" follows the number without a space (6.9+) */
	T_NUM(TP_HEXP, rip, RT_U64, UINT64_MAX),
};

/* kvm_msr: "msr_%s %x = 0x%llx%s" with " (#GP)"; authors sometimes append a note. */
static const struct tp_step layout_msr[] = {
	T_CHOICE("msr_read", "msr_write", write, 0),
	{ .op = TP_HEX, .type = RT_U32, .off = F(msr), .max = U32_MAX_,
	  .msg = "%s: expected the MSR index in hex after '%s'" },
	T_WORD("="),
	T_NUM(TP_HEX, data, RT_U64, UINT64_MAX),
	{ .op = TP_FLAG, .type = RT_BOOL, .off = F(gp), .lit = { "(#GP)" }, .len = { 5 } },
};

/*
 * kvm_emulate_insn: native "%x:%llx:%s (%s)%s" (bytes, mode, " failed"), and libtraceevent's
 * plugin "%llx:%llx: %s%s" (bytes, " FAIL", no mode).
 */
static const struct tp_step layout_emulate_insn[] = {
	{ .op = TP_HEXP, .glue = true, .off = TP_NO_FIELD, .max = UINT64_MAX }, /* CS base */
	T_CHAR(":", true, "%s: expected ':' after the CS base"),
	{ .op = TP_HEXP, .glue = true, .type = RT_U64, .off = F(rip), .max = UINT64_MAX },
	T_CHAR(":", true, "%s: expected ':' after the rip"),
	{ .op = TP_INSN, .glue = true },
	{ .op = TP_MODE, .glue = true },
	{ .op = TP_FLAG, .glue = true, .type = RT_BOOL, .off = F(failed),
	  .lit = { "failed", "FAIL" }, .len = { 6, 4 } },
};

/* kvm_pio: "pio_%s at 0x%x size %d count %d val 0x%x %s" (no val in 2.6.3x). */
static const struct tp_step layout_pio[] = {
	T_CHOICE("pio_read", "pio_write", write, 0),
	T_WORD("at"),
	T_NUM(TP_HEX, port, RT_U32, 0xffff),
	T_WORD("size"),
	T_NUM(TP_DEC, size, RT_U32, U32_MAX_),
	T_WORD("count"),
	T_NUM(TP_DEC, count, RT_U32, U32_MAX_),
	{ .op = TP_OPT, .lit = { "val" }, .len = { 3 } },
	T_NUM(TP_HEX, data, RT_U64, U32_MAX_),
};

/* kvm_userspace_exit: "reason %s (%d)", a KVM_EXIT_* name or "0x.." and the number; when
 * errno < 0 the name is "restart"/"error" and the number is the errno: reason unknown (0). */
static const struct tp_step layout_userspace_exit[] = {
	T_WORD("reason"),
	{ .op = TP_EXIT_NAME, .msg = "%s: expected the exit reason" },
	T_CHAR("(", false, "%s: expected '(' and the reason number"),
	{ .op = TP_DEC, .glue = true, .type = RT_U32, .off = F(exit_reason), .max = U32_MAX_ },
	T_CHAR(")", true, "%s: expected ')'"),
};

/* kvm_fpu: "load" / "unload". */
static const struct tp_step layout_fpu[] = {
	T_CHOICE("load", "unload", write, 1),
};

/* The plain layouts, by kind; .n = 0: none (a hand-written parser in text.c). */
static const struct tp_layout text_layouts[KVM_REC_NR] = {
#define TL(kind, name, steps) [kind] = { name, steps, ARRAY_SIZE(steps) }
	TL(KVM_REC_ENTRY, "kvm_entry", layout_entry),
	TL(KVM_REC_MSR, "kvm_msr", layout_msr),
	TL(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", layout_emulate_insn),
	TL(KVM_REC_PIO, "kvm_pio", layout_pio),
	TL(KVM_REC_USERSPACE_EXIT, "kvm_userspace_exit", layout_userspace_exit),
	TL(KVM_REC_FPU, "kvm_fpu", layout_fpu),
#undef TL
};

#undef T_CHAR
#undef T_NUM
#undef T_CHOICE
#undef T_WORD
#undef L
#undef F

#endif /* VPMC_TRACE_TEXT_LAYOUTS_H */
