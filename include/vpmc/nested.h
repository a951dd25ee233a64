/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc/nested.h - Nested round trips: what L0 pays to touch L1 pages, kvm_vcpu_map() against
 * gfn_to_pfn_cache, nSVM and nVMX, classified from kvm:* traces (vpmcsim(1), NESTED and GEN). */
#ifndef VPMC_PUBLIC_NESTED_H
#define VPMC_PUBLIC_NESTED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <vpmc/common.h>
#include <vpmc/event.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * What a trace cannot tell: the assumptions, as the .vtr "!nested" directive and the options of
 * "vpmcsim nested" and "vpmcsim gen nested-pingpong" spell them (trace-format.md).
 */
enum vpmc_nested_isa {
	VPMC_NESTED_ISA_NONE = 0,
	VPMC_NESTED_ISA_VMX = 1, /* the kernel's KVM_ISA_VMX */
	VPMC_NESTED_ISA_SVM = 2, /* KVM_ISA_SVM */
};

enum vpmc_nested_profile { VPMC_NESTED_DEBUG, VPMC_NESTED_PROD };
enum vpmc_nested_mem { VPMC_NESTED_MEM_SP, VPMC_NESTED_MEM_IO }; /* struct page / PFNMAP */
enum vpmc_nested_design { VPMC_NESTED_BASELINE, VPMC_NESTED_GPC };
enum vpmc_nested_apic { VPMC_NESTED_X2APIC, VPMC_NESTED_XAPIC, VPMC_NESTED_APIC_NONE };

/* The keys, in their canonical order. */
enum vpmc_nested_key {
	VPMC_NESTED_KEY_ISA,
	VPMC_NESTED_KEY_PROFILE,
	VPMC_NESTED_KEY_L1MEM,
	VPMC_NESTED_KEY_RECORDED,
	VPMC_NESTED_KEY_GHZ,
	VPMC_NESTED_KEY_APIC,
	VPMC_NESTED_KEY_PI,
	VPMC_NESTED_KEY_MSR_BITMAP,
	VPMC_NESTED_KEY_IO_BITMAP,
	VPMC_NESTED_KEY_EVMCS,
	VPMC_NESTED_KEY_SVM_MERGE_CHUNKS,
	VPMC_NESTED_KEY_SVM_INTERCEPTS,
	VPMC_NESTED_KEY_NR
};

struct vpmc_nested_assume {
	uint32_t given;                     /* bit k set: key k was given */
	enum vpmc_nested_isa isa;           /* default NONE: from the trace */
	enum vpmc_nested_profile profile;   /* default debug */
	enum vpmc_nested_mem l1mem;         /* default sp */
	enum vpmc_nested_design recorded;   /* design the trace was recorded on; default baseline */
	uint32_t ghz_milli;                 /* CPU clock, GHz x 1000 (10 .. 100000); 2450 */
	enum vpmc_nested_apic apic;         /* vmcs12: default x2apic (KVM as L1) */
	bool pi, msr_bitmap, io_bitmap, evmcs; /* vmcs12: default 1, 1, 0, 0 */
	unsigned int svm_merge_chunks;      /* nested_svm_merge_msrpm() reads, 1 .. 64; 10 */
	uint32_t svm_intercepts[3];         /* VMCB intercept words 3, 4, 5 where the trace has
					     * no kvm_nested_intercepts; fd44bfeb 217f 0 */
};

/* The defaults above, nothing given. */
void vpmc_nested_assume_default(struct vpmc_nested_assume *a);

/* The name of key @k ("isa", "svm_intercepts"), or NULL. */
const char *vpmc_nested_key_name(enum vpmc_nested_key k);

/**
 * vpmc_nested_assume_set() - Set one key from its text, as "!nested" and the options spell it.
 * @a: updated on success only; the key's bit is set in a->given
 * @key: the key's name, @klen bytes
 * @klen: its length
 * @val: the value, @vlen bytes (need not be NUL-terminated)
 * @vlen: its length
 * @why: set to what was expected, on failure
 *
 * Return: 0, or VPMC_ERR_INVAL (unknown key, bad value, or a key already given).
 */
int vpmc_nested_assume_set(struct vpmc_nested_assume *a, const char *key, size_t klen,
			   const char *val, size_t vlen, const char **why);

/**
 * vpmc_nested_assume_format() - "key=value" of every key in @keys, in canonical order, one space
 * apart.
 * @a: the values
 * @keys: bit k: write key k
 * @buf: output, always NUL-terminated
 * @len: its size, bytes
 *
 * Return: the length written (as snprintf(), the length it needed if that is >= @len).
 */
int vpmc_nested_assume_format(const struct vpmc_nested_assume *a, uint32_t keys, char *buf,
			      size_t len);

struct vpmc_reader;

/* The "!nested" directive of an open .vtr, or NULL if it has none (or is no .vtr). */
const struct vpmc_nested_assume *vpmc_reader_nested(const struct vpmc_reader *r);

/* Lines of kvm_nested_vmexit that libtraceevent printed as "CAN'T FIND FIELD" and that the
 * reader took from the fields after it (vpmc_reader_opts.nested only). */
uint64_t vpmc_reader_nested_partial(const struct vpmc_reader *r);

/**
 * vpmc_vtr_write_nested() - Write "!nested" with the keys in a->given, canonical order.
 * @out: output stream, after vpmc_vtr_write_header() without a source (its canonical place is
 *       after "!host" and before "!source")
 * @a: the assumptions
 *
 * Return: 0, VPMC_ERR_INVAL (NULL argument), or VPMC_ERR_IO.
 */
int vpmc_vtr_write_nested(FILE *out, const struct vpmc_nested_assume *a);

/* ---------------------------------------------------------------------------------------------
 * The model: classification into round trips, counts of both designs, cycles.
 */
enum vpmc_nested_anchor { VPMC_NESTED_ANCHOR_AUTO, VPMC_NESTED_ANCHOR_MEASURED,
			  VPMC_NESTED_ANCHOR_MODEL };

/* Cost parameters, cycles (vpmcsim(1), NESTED COST MODEL: values, tags and sources). */
enum vpmc_nested_param {
	VPMC_NP_MAP_PAIR_SP,        /* __kvm_vcpu_map() + kvm_vcpu_unmap(), struct page */
	VPMC_NP_MAP_PAIR_IO,        /* the same through memremap() / memunmap() (PFNMAP) */
	VPMC_NP_IO_TAIL,            /* every io_tail_every-th PFNMAP unmap: lazy vmap purge */
	VPMC_NP_IO_TAIL_EVERY,      /* (a count, not cycles) */
	VPMC_NP_READ_GUEST,         /* one kvm_vcpu_read_guest() page segment */
	VPMC_NP_GPC_HIT,            /* kvm_gpc_check() under the cache's lock */
	VPMC_NP_LOAD,               /* a plain access through the cache's khva */
	VPMC_NP_GPC_REFRESH_EXTRA,  /* kvm_gpc_refresh() beyond one map pair */
	VPMC_NP_GPC_KICK,           /* invalidation kick of a VMX guest-uses-pfn cache */
	VPMC_NP_GPC_INVAL_WALK,     /* per invalidation and active cache (totals only) */
	VPMC_NP_VMX_GPC_EXTRA_HITS, /* (a count) hits per RT in has_events/check_events */
	VPMC_NP_EVMCS_GPC_HITS,     /* (a count) hits per RT on the eVMCS cache */
	VPMC_NP_RT_FIXED,           /* everything else in a round trip; per ISA */
	VPMC_NP_RT_FIXED_EXTRA_MSR, /* extra fixed cost of an MSR round trip */
	VPMC_NP_RT_FIXED_EXTRA_IO,  /* the same for IO */
	VPMC_NP_L0_FIXED,           /* an L0-handled L2 exit, all but its reads */
	VPMC_NP_NR
};

#define VPMC_NESTED_COST_MAX 100000000ULL /* --cost values: 0 .. 10^8 */

struct vpmc_nested_opts {
	struct vpmc_nested_assume assume; /* the options' values (assume.given: which) */
	enum vpmc_nested_anchor anchor;   /* default auto */
	bool msr_in_range;                /* the MSR of an MSR exit is in a bitmap range; true */
	bool gpc_svm_merge;               /* nsvm-gpc converts the MSRPM merge (variant M); true */
	int gpc_context;                  /* per-L2 nested context: -1 the ISA's default (svm 0,
					   * vmx 1), 0, 1 */
	bool gpc_cold;                    /* caches empty at the trace's start */
	uint64_t gpc_invalidate_every;    /* invalidate every K-th round trip of a vCPU; 0 never */
	uint32_t cost_given;              /* bit p: cost[p] given (never refitted) */
	uint64_t cost[VPMC_NP_NR];
	uint32_t given;                   /* bits VPMC_NESTED_OPT_*: options given (for _from) */
};

#define VPMC_NESTED_OPT_MSR_IN_RANGE (1u << 0)
#define VPMC_NESTED_OPT_GPC_SVM_MERGE (1u << 1)
#define VPMC_NESTED_OPT_GPC_CONTEXT (1u << 2)
#define VPMC_NESTED_OPT_GPC_COLD (1u << 3)
#define VPMC_NESTED_OPT_GPC_INVALIDATE_EVERY (1u << 4)
#define VPMC_NESTED_OPT_ANCHOR (1u << 5)

/* Defaults: no assumption given, anchor auto, MSR in range, merge converted, context by ISA,
 * warm caches, no invalidation, no cost given. */
void vpmc_nested_opts_default(struct vpmc_nested_opts *o);

/* The name of cost parameter @p ("map_pair_sp"), or NULL. */
const char *vpmc_nested_param_name(enum vpmc_nested_param p);

/**
 * vpmc_nested_cost_parse() - Apply "NAME=VALUE[,NAME=VALUE...]" to o->cost.
 * @o: updated (the parameters before a bad item are set)
 * @spec: the text
 * @why: set to what was expected, on failure
 *
 * Return: 0, or VPMC_ERR_INVAL (unknown name, value not a decimal 0 .. 10^8, or a name given
 * before, in @spec or earlier).
 */
int vpmc_nested_cost_parse(struct vpmc_nested_opts *o, const char *spec, const char **why);

struct vpmc_nested;

/**
 * vpmc_nested_new() - A model with options @o (copied).
 * @out: set on success only
 * @o: options; NULL = defaults
 *
 * Return: 0 or VPMC_ERR_NOMEM.
 */
int vpmc_nested_new(struct vpmc_nested **out, const struct vpmc_nested_opts *o);

/**
 * vpmc_nested_set_log() - Write one JSON line per round trip and per L0-handled exit, in trace
 * order, to @log (vpmcsim(1), NESTED, --log), as vpmc_nested_run() goes; lines whose cycles wait
 * for the anchor (auto, no time stamp finer than 1 us yet) are kept in a tmpfile(3) till then.
 * @n: model
 * @log: stream, or NULL for none
 */
void vpmc_nested_set_log(struct vpmc_nested *n, FILE *log);

/**
 * vpmc_nested_set_threads() - Let vpmc_nested_run() read on the calling thread and classify on
 * a second one, block by block in trace order, when @threads is 2 or more (more add nothing:
 * the classifier is one state machine over every vCPU); results, warnings, the log and errors
 * as on one thread.
 * @n: model, before vpmc_nested_run()
 * @threads: threads to use; 0 or 1: the calling thread only (the default)
 */
void vpmc_nested_set_threads(struct vpmc_nested *n, unsigned int threads);

/**
 * vpmc_nested_run() - Classify every event of @r into round trips and count them.
 * @n: model, not run before
 * @r: an open reader with vpmc_reader_opts.nested set
 * @name: the trace's name for the report ("-" is shown as it is)
 *
 * A nested event the state machine cannot place is counted and warned about with the reader's
 * FILE:LINE (vpmc_nested_warning()); it never stops the run.
 *
 * Return: 0; the reader's error (vpmc_nested_error() says it); VPMC_ERR_INVAL when an option
 * contradicts the trace (--isa vmx on a "vmcb:" trace); VPMC_ERR_PARSE when "!nested"
 * contradicts it; VPMC_ERR_NOMEM; VPMC_ERR_IO (the log could not be written).
 */
int vpmc_nested_run(struct vpmc_nested *n, struct vpmc_reader *r, const char *name);

/**
 * vpmc_nested_report() - The report after vpmc_nested_run(), one row per round-trip kind.
 * @n: model
 * @fmt: text, csv or json
 * @text: set to the report, owned by @n
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_nested_report(struct vpmc_nested *n, enum vpmc_output fmt, const char **text);

/* Warnings of the last run, in order ("FILE:LINE: ..."); the first 10 unplaced events, a trace
 * without nested events. */
size_t vpmc_nested_nr_warnings(const struct vpmc_nested *n);
const char *vpmc_nested_warning(const struct vpmc_nested *n, size_t i);

/* The last error's message, "" if none. */
const char *vpmc_nested_error(const struct vpmc_nested *n);

/**
 * vpmc_nested_merge() - Add a summary: the "merge_state" of a JSON report of nested (vpmcsim(1),
 * MERGE); vpmc_nested_report() then prints the union (exact, in any order).
 * @n: from vpmc_nested_new(), never run
 * @state: the merge_state object as JSON text
 * @path: the report's file, for messages
 *
 * Return: 0, VPMC_ERR_PARSE (malformed), VPMC_ERR_INVAL (another model than the first
 * summary's: vpmc_nested_error() names the difference and both files), VPMC_ERR_NOMEM.
 */
int vpmc_nested_merge(struct vpmc_nested *n, const char *state, const char *path);

/* Free the model and its report; NULL is a no-op. */
void vpmc_nested_free(struct vpmc_nested *n);

/* ---------------------------------------------------------------------------------------------
 * The ping-pong generator (vpmcsim gen nested-pingpong).
 */
enum vpmc_nested_l2_kind {
	VPMC_NESTED_L2_CPUID,
	VPMC_NESTED_L2_MSR_READ,
	VPMC_NESTED_L2_MSR_WRITE,
	VPMC_NESTED_L2_IO_IN,
	VPMC_NESTED_L2_IO_OUT,
	VPMC_NESTED_L2_VMCALL,
	VPMC_NESTED_L2_EXT_INTR,
	VPMC_NESTED_L2_INTR, /* --l0-handled-exit only: an interrupt L0 takes */
};

struct vpmc_nested_l2_exit {
	enum vpmc_nested_l2_kind kind;
	uint32_t index;         /* MSR index; or IO port */
	unsigned int size;      /* IO: 1, 2 or 4 bytes */
	unsigned int weight;    /* iterations in a block */
};

#define VPMC_NESTED_GEN_MAX_EXITS 16

enum vpmc_nested_gen_format { VPMC_NESTED_GEN_VTR, VPMC_NESTED_GEN_FTRACE,
			      VPMC_NESTED_GEN_LEGACY };

struct vpmc_nested_gen_opts {
	struct vpmc_nested_opts model;      /* the assumptions and costs, as for the replay */
	uint64_t iterations;                /* round trips per vCPU, 1 .. 10^8; 10000 */
	unsigned int vcpus;                 /* 1 .. 4096; 1 */
	struct vpmc_nested_l2_exit l2_exits[VPMC_NESTED_GEN_MAX_EXITS]; /* default: cpuid */
	unsigned int nr_l2_exits;
	uint64_t l0_every;                  /* an L0-handled exit every K-th RT; 0 never */
	struct vpmc_nested_l2_exit l0_exit; /* default intr */
	unsigned int l2_per_l1;             /* VMCB12/vmcs12 GPAs per vCPU, round robin; 1 */
	enum vpmc_nested_design design;     /* whose ops make the time stamps; baseline */
	uint64_t l1_handler;                /* L1 cycles between its entry and next VMRUN; 2000 */
	unsigned int split[3];              /* % of rt_fixed in entry, L2, exit; 45 10 45 */
	unsigned int jitter_pct;            /* 0 .. 100; 0 */
	uint64_t seed;                      /* splitmix64 seed; 1 */
	enum vpmc_nested_gen_format format; /* vtr */
	vpmc_progress_fn progress;          /* NULL, or called every 2^10 round trips: done, all */
	void *progress_data;
};

/* Defaults as above. */
void vpmc_nested_gen_opts_default(struct vpmc_nested_gen_opts *o);

/**
 * vpmc_nested_l2_exit_parse() - Parse "KIND[@ARG][*WEIGHT]" (--l2-exit; with @l0, the kinds of
 * --l0-handled-exit: intr, io-in, msr-read, and no weight).
 * @e: set on success only
 * @s: the text
 * @l0: parse an --l0-handled-exit
 * @why: set to what was expected, on failure
 *
 * Return: 0, or VPMC_ERR_INVAL.
 */
int vpmc_nested_l2_exit_parse(struct vpmc_nested_l2_exit *e, const char *s, bool l0,
			      const char **why);

/**
 * vpmc_nested_gen() - Write a deterministic ping-pong trace.
 * @o: options
 * @out: stream
 * @err: set to the reason on failure (@errlen bytes, NUL-terminated)
 * @errlen: its size
 *
 * Return: 0, VPMC_ERR_INVAL (inconsistent options), VPMC_ERR_IO, or VPMC_ERR_NOMEM.
 */
int vpmc_nested_gen(const struct vpmc_nested_gen_opts *o, FILE *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* VPMC_PUBLIC_NESTED_H */
