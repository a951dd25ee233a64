// SPDX-License-Identifier: GPL-2.0-only
/* expect_vtr.c - The .vtr's "!expect" assertions (trace-format.md, "Expectations"): what a
 * scenario says the guest must observe, as upstream tests assert it (vpmcsim conformance). */
#include "config.h"

#include <string.h>

#include "expect.h"
#include "internal.h"
#include "numparse.h"
#include "vtr_token.h"

#define EXPECT_WORD "!expect"

struct ecur {
	const char *line, *p, *end;
	struct vpmc__lineerr *err;
};

#define efail(c, at, ...) vpmc__lineerr_set((c)->err, (c)->line, (at), (c)->end, __VA_ARGS__)

/* The next token (n = 0 at the end). */
static const char *etok(struct ecur *c, size_t *n)
{
	return vtr_token(&c->p, c->end, n);
}

static bool is_word(const char *t, size_t n, const char *w)
{
	return n == strlen(w) && !memcmp(t, w, n);
}

bool vtr_expect_is(const char *line, size_t len)
{
	size_t n = strlen(EXPECT_WORD), i = 0;

	while (i < len && vtr_blank(line[i]))
		i++;
	return len - i >= n && !memcmp(line + i, EXPECT_WORD, n) &&
	       (len - i == n || vtr_blank(line[i + n]));
}

/* A number, decimal or 0x-hex; @msr: hex with 0x required, at most 32 bits. */
static int num_arg(struct ecur *c, const char *t, size_t n, bool msr, uint64_t *out,
		 const char *what)
{
	if (!n)
		return efail(c, t, "expected %s", what);
	if (msr && (n < 3 || t[0] != '0' || t[1] != 'x'))
		return efail(c, t, "expected %s in hex with 0x (e.g. 0x38e)", what);
	if (vpmc__parse_u64(t, n, VPMC__NUM_HEX, 0, msr ? 0xffffffffull : UINT64_MAX, out))
		return efail(c, t, "expected %s (decimal, or hex with 0x; %s)", what,
			     msr ? "at most 32 bits" : "at most 64 bits");
	return 0;
}

static const char *const targets[VPMC_EXPECT_TARGET_NR] = {
	[VPMC_EXPECT_RDMSR] = "rdmsr", [VPMC_EXPECT_RDPMC] = "rdpmc",
	[VPMC_EXPECT_WRMSR] = "wrmsr", [VPMC_EXPECT_PMIS] = "pmis",
};

static const char *const ops[VPMC_EXPECT_GE + 1] = {
	[VPMC_EXPECT_EQ] = "==", [VPMC_EXPECT_NE] = "!=", [VPMC_EXPECT_LT] = "<",
	[VPMC_EXPECT_LE] = "<=", [VPMC_EXPECT_GT] = ">", [VPMC_EXPECT_GE] = ">=",
};

/* TARGET [INDEX]: into ev->insn and ev->index. */
static int parse_target(struct ecur *c, struct vpmc_event *ev)
{
	size_t n;
	const char *t = etok(c, &n);
	uint64_t v;
	unsigned int k;

	for (k = 0; k < VPMC_EXPECT_TARGET_NR; k++)
		if (is_word(t, n, targets[k]))
			break;
	if (k == VPMC_EXPECT_TARGET_NR)
		return efail(c, t, "!expect: expected the target: rdmsr MSR, rdpmc ECX, wrmsr MSR "
			     "or pmis");
	ev->insn = k;
	if (k == VPMC_EXPECT_PMIS)
		return 0;
	t = etok(c, &n);
	if (num_arg(c, t, n, k != VPMC_EXPECT_RDPMC, &v,
		  k == VPMC_EXPECT_RDPMC ? "the ECX of the RDPMC" : "the MSR index"))
		return VPMC_ERR_PARSE;
	ev->index = (uint32_t)v;
	return 0;
}

/*
 * KVM functions that decide what a guest observes, for "by=" (the one an assertion's expected
 * value comes from): arch/x86/kvm/pmu.c, pmu.h, vmx/pmu_intel.c, svm/pmu.c, x86.c, lapic.c.
 */
static const char *const deciders[] = {
	"__kvm_perf_overflow", "kvm_perf_overflow", "pmc_pause_counter", "reprogram_counter",
	"pmc_read_counter", "pmc_write_counter", "get_sample_period", "kvm_pmu_handle_event",
	"kvm_pmu_incr_counter", "kvm_pmu_trigger_event", "cpl_is_matched",
	"pmc_is_event_allowed", "pmc_is_globally_enabled", "pmc_is_locally_enabled",
	"kvm_pmu_rdpmc", "kvm_pmu_check_rdpmc_early", "kvm_pmu_get_msr", "kvm_pmu_set_msr",
	"kvm_pmu_deliver_pmi", "kvm_pmu_refresh", "kvm_pmu_reset", "intel_pmu_get_msr",
	"intel_pmu_set_msr", "intel_rdpmc_ecx_to_pmc", "intel_pmu_refresh", "amd_pmu_get_msr",
	"amd_pmu_set_msr", "amd_rdpmc_ecx_to_pmc", "amd_pmu_refresh", "kvm_get_msr_common",
	"kvm_set_msr_common", "kvm_apic_local_deliver", "kvm_pmu_instruction_retired",
	"kvm_pmu_branch_retired", NULL,
};

const char *vpmc_expect_decider(unsigned int i)
{
	return i < sizeof(deciders) / sizeof(deciders[0]) - 1 ? deciders[i] : NULL;
}

/* by=FUNC: into ev->vcpu. */
static int parse_by(struct ecur *c, struct vpmc_event *ev)
{
	size_t n;
	const char *t = etok(c, &n);
	unsigned int i;

	if (n < 3 || memcmp(t, "by=", 3))
		return efail(c, t, "!expect: expected by=FUNCTION, the KVM function that decides "
			     "the value");
	for (i = 0; deciders[i]; i++)
		if (is_word(t + 3, n - 3, deciders[i]))
			break;
	if (!deciders[i])
		return efail(c, t + 3, "!expect: by=: not a KVM function this format knows (see "
			     "trace-format.md, Expectations)");
	ev->vcpu = i;
	return 0;
}

/* "MESSAGE": printable, no '"', 1 to VPMC_REASON_MAX - 1 bytes, then only a comment. */
static int parse_message(struct ecur *c, struct vpmc_event *ev)
{
	const char *q, *t;
	size_t n;

	while (c->p < c->end && vtr_blank(*c->p))
		c->p++;
	if (c->p == c->end || *c->p != '"')
		return efail(c, c->p, "!expect: expected the assertion's message in double quotes");
	q = memchr(c->p + 1, '"', (size_t)(c->end - c->p - 1));
	if (!q)
		return efail(c, c->p, "!expect: the message has no closing '\"'");
	n = (size_t)(q - c->p - 1);
	if (!n || n >= VPMC_REASON_MAX)
		return efail(c, c->p, "!expect: the message must be 1 to %d bytes",
			     VPMC_REASON_MAX - 1);
	for (t = c->p + 1; t < q; t++)
		if ((unsigned char)*t < 0x20 || (unsigned char)*t > 0x7e)
			return efail(c, t, "!expect: the message must be printable ASCII");
	memcpy(ev->reason, c->p + 1, n);
	ev->reason[n] = '\0';
	c->p = q + 1;
	t = etok(c, &n);
	if (n && *t != '#')
		return efail(c, t, "!expect: unexpected argument after the message (a comment "
			     "starts with '#')");
	return 0;
}

int vtr_expect_line(const char *line, size_t len, struct vpmc_event *ev,
		    struct vpmc__lineerr *err)
{
	struct ecur c = { .line = line, .p = line, .end = line + len, .err = err };
	const char *t;
	size_t n;
	unsigned int op;
	uint64_t v;

	memset(ev, 0, sizeof(*ev));
	ev->type = VPMC_EV_EXPECT;
	ev->cpl = VPMC_CPL_KEEP;
	ev->br = UINT64_MAX;
	etok(&c, &n); /* "!expect" */
	if (parse_target(&c, ev))
		return VPMC_ERR_PARSE;
	t = etok(&c, &n);
	if (is_word(t, n, "&")) {
		if (ev->insn == VPMC_EXPECT_WRMSR || ev->insn == VPMC_EXPECT_PMIS)
			return efail(&c, t, "!expect: a mask applies to rdmsr and rdpmc only");
		t = etok(&c, &n);
		if (num_arg(&c, t, n, false, &ev->br, "the mask after '&'"))
			return VPMC_ERR_PARSE;
		t = etok(&c, &n);
	}
	for (op = 0; op <= VPMC_EXPECT_GE; op++)
		if (is_word(t, n, ops[op]))
			break;
	if (op > VPMC_EXPECT_GE)
		return efail(&c, t, "!expect: expected the comparison: ==, !=, <, <=, > or >=");
	t = etok(&c, &n);
	if (is_word(t, n, "GP")) {
		if (op != VPMC_EXPECT_EQ && op != VPMC_EXPECT_NE)
			return efail(&c, t, "!expect: GP compares with == or != only");
		if (ev->insn == VPMC_EXPECT_PMIS || ev->br != UINT64_MAX)
			return efail(&c, t, "!expect: GP is about an access without a mask");
		op = op == VPMC_EXPECT_EQ ? VPMC_EXPECT_IS_GP : VPMC_EXPECT_NOT_GP;
	} else if (ev->insn == VPMC_EXPECT_WRMSR) {
		return efail(&c, t, "!expect: a wrmsr compares with GP only (== GP or != GP)");
	} else {
		if (num_arg(&c, t, n, false, &v, "the expected value (or GP)"))
			return VPMC_ERR_PARSE;
		ev->value = v;
	}
	ev->cpl = (uint8_t)op;
	if (parse_by(&c, ev) || parse_message(&c, ev))
		return VPMC_ERR_PARSE;
	return 1;
}
