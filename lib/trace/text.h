/* SPDX-License-Identifier: GPL-2.0-only */
/* text.h - One line of kvm tracepoint text (trace-cmd report, raw ftrace, perf script)
 * -> struct kvm_record. */
#ifndef VPMC_TRACE_TEXT_H
#define VPMC_TRACE_TEXT_H

#include <stddef.h>

#include "lineerr.h"
#include "record.h"

/* What a line that is not an event is (trace_text_parse_line() returned 0). */
enum text_skip {
	TEXT_SKIP_BLANK,   /* empty or only white space */
	TEXT_SKIP_HEADER,  /* "# ..." comments and headers, "cpus=N", "version = N",
			    * "CPU N is empty" (trace-cmd report) */
	TEXT_SKIP_ELISION, /* "..." / "...." lines an author put where lines were cut */
};

#define TEXT_HEAD_MAX 64
#define TEXT_CACHE_WAYS 4 /* one per vCPU thread of a small guest */
#define TEXT_NAME_WAYS 8  /* the events of a PMU trace (kvm_emulate_insn, kvm_msr, kvm_fpu,
			   * kvm_inj_exception, kvm_userspace_exit, kvm_pio, kvm_cpuid...) */

/*
 * State kept between lines: the prefixes (up to the time stamp) and event names of recent
 * lines. Lines of one trace repeat them, and comparing bytes is cheaper than parsing them
 * again; a line is parsed exactly as without the cache.
 */
struct text_parser {
	struct text_head {
		char bytes[TEXT_HEAD_MAX]; /* "  comm-pid [cpu] flags " */
		unsigned int len;          /* 0: empty */
		int32_t cpu;
		int64_t tid;
	} head[TEXT_CACHE_WAYS];
	struct text_name {
		char tok[KVM_REC_NAME_MAX + 8]; /* the event token as written, with its ':' */
		unsigned int len;               /* of tok, with the ':'; 0: empty */
		enum kvm_rec_kind kind;
		char name[KVM_REC_NAME_MAX];    /* the record's name, NUL-padded */
	} name[TEXT_NAME_WAYS];
	unsigned int next_head, next_name; /* round-robin replacement */
	unsigned int last_head, last_name; /* the way that matched last: probed first */
	const char *layout; /* of the first event line: "ftrace" (irq flags), "trace-cmd" ([cpu], no
			     * flags), "perf" ("kvm:" names, "comm tid"), "text"; NULL before */
};

/* A parser with an empty cache. */
void trace_text_init(struct text_parser *tp);

/**
 * trace_text_parse_line() - Parse one line of kvm tracepoint text.
 * @tp: parser state from trace_text_init(), or NULL (no cache)
 * @line: the line, without its '\n' (a trailing '\r' is ignored); need not be NUL-terminated
 * @len: its length in bytes
 * @rec: filled when the line is a record
 * @skip: if not NULL, set to what the line was when it is not a record
 * @err: set on a parse error
 *
 * Accepts every line prefix (raw ftrace with or without irq flags, trace-cmd report, perf script,
 * timestamp only, "comm-pid:" only, bare event) and event layout of traces/public/INDEX.md, the
 * "trace-cmd report -R" field form and libtraceevent's "[FAILED TO PARSE]" fallback. Events the
 * importer does not use become KVM_REC_OTHER records with their name; trace-cmd's and ftrace's
 * lost-events lines ("CPU:N [LOST N EVENTS]", "CPU:N [N EVENTS DROPPED]") become KVM_REC_LOST.
 * Integer time stamps (trace-cmd -C x86-tsc) are taken as they are, as if they were ns.
 *
 * Return: 1 (*@rec is a record), 0 (not an event: *@skip says what), or VPMC_ERR_PARSE with
 * *@err set.
 */
int trace_text_parse_line(struct text_parser *tp, const char *line, size_t len,
			  struct kvm_record *rec, enum text_skip *skip, struct vpmc__lineerr *err);

#endif /* VPMC_TRACE_TEXT_H */
