// SPDX-License-Identifier: GPL-2.0-only
/* policy.c - Accounting policy names: parse and format "tolerance=100" and friends. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <vpmc/model.h>

#include "internal.h"
#include "numparse.h"

static const struct {
	const char *name;
	bool has_arg;
} policy_names[VPMC_POLICY_NR] = {
	[VPMC_POLICY_EXACT] = { "exact", false },
	[VPMC_POLICY_DISABLED] = { "disabled", true },
	[VPMC_POLICY_TOLERANCE] = { "tolerance", true },
	[VPMC_POLICY_TOLERANCE_WRAP] = { "tolerance-wrap", true },
	[VPMC_POLICY_MEDIATED] = { "mediated", false },
	[VPMC_POLICY_REFERENCE] = { "reference", false },
	[VPMC_POLICY_TOLERANCE_FOLD] = { "tolerance-fold", true },
};

int vpmc_policy_parse(struct vpmc_policy *out, const char *s, const char **why)
{
	static const char expected[] =
		"expected exact, disabled=MASK, tolerance=N, tolerance-wrap=N, mediated, reference "
		"or tolerance-fold=N";
	const char *eq;
	size_t nlen;
	unsigned int k;
	uint64_t arg = 0;

	if (!s)
		goto bad;
	eq = strchr(s, '=');
	nlen = eq ? (size_t)(eq - s) : strlen(s);
	for (k = 0; k < VPMC_POLICY_NR; k++) {
		if (strlen(policy_names[k].name) == nlen && !strncmp(s, policy_names[k].name, nlen))
			break;
	}
	if (k == VPMC_POLICY_NR)
		goto bad;
	if (policy_names[k].has_arg != (eq != NULL)) {
		if (why)
			*why = policy_names[k].has_arg ? "this policy needs =VALUE (a u64)"
						       : "this policy takes no =VALUE";
		return VPMC_ERR_INVAL;
	}
	if (eq && vpmc__parse_u64(eq + 1, strlen(eq + 1), VPMC__NUM_HEX | VPMC__NUM_HEX_X, 0,
				   UINT64_MAX, &arg)) {
		if (why)
			*why = "VALUE must be a u64, decimal or 0x-hex";
		return VPMC_ERR_INVAL;
	}
	out->kind = k;
	out->arg = arg;
	return 0;
bad:
	if (why)
		*why = expected;
	return VPMC_ERR_INVAL;
}

int vpmc_policy_format(const struct vpmc_policy *p, char *buf, size_t len)
{
	int n;

	if (!p || (unsigned int)p->kind >= VPMC_POLICY_NR || !buf)
		return VPMC_ERR_INVAL;
	if (!policy_names[p->kind].has_arg)
		n = snprintf(buf, len, "%s", policy_names[p->kind].name);
	else if (p->kind == VPMC_POLICY_DISABLED)
		n = snprintf(buf, len, "disabled=%#" PRIx64, p->arg);
	else
		n = snprintf(buf, len, "%s=%" PRIu64, policy_names[p->kind].name, p->arg);
	return (n < 0 || (size_t)n >= len) ? VPMC_ERR_INVAL : 0;
}
