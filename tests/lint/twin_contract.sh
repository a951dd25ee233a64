#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# twin_contract.sh - The grep-able rules of the KVM twin contract (HACKING.md), as TAP.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tap.sh"
src=${top_srcdir:-$(dirname "$0")/../..}

tap_plan 4

# A function definition: a line that starts a declaration and names NAME( before any '='.
defs() { grep -nE "^[a-z][a-z0-9_ *]*[ *]$1\(" "$@" 2>/dev/null; }

# 1. Invented helpers never take the kernel's prefixes: outside lib/kvm, no function is kvm_*,
#    pmc_*, intel_* or amd_*.
bad=$(grep -nE '^[a-z][a-z0-9_ *]*[ *](kvm|pmc|intel|amd)_[a-z0-9_]*\(' \
	$(ls "$src"/lib/*/*.c | grep -v '/lib/kvm/'))
[ -z "$bad" ]; tap_result $? "no kvm_/pmc_/intel_/amd_ function outside lib/kvm"
[ -z "$bad" ] || echo "$bad" | sed 's/^/# /'

# 2. A legacy fork is its function's first statement: the line before it opens the function
#    (or is a declaration ending in ';' with nothing but declarations above it).
bad=$(awk 'FNR == 1 { body = 0 }
	/^\{/ { body = 1; stmts = 0; next }
	/^\}/ { body = 0; next }
	body && /pmu_host_before\(/ && stmts { print FILENAME ":" FNR ": " $0 }
	body && /^\t[a-z_]/ && !/^\t(const |struct |uint|int |bool |u64 |unsigned |enum )/ { stmts++ }' \
	"$src"/lib/kvm/*.c)
[ -z "$bad" ]; tap_result $? "pmu_host_before() only as a first statement"
[ -z "$bad" ] || echo "$bad" | sed 's/^/# /'

# 3. Only vpmc__pmu_init() sets pmu->reference, and no twin reads it.
n=$(grep -n 'reference' "$src"/lib/kvm/*.c | grep -v '^\S*:[0-9]*: *\*\|/\*' | grep -c 'pmu->reference')
[ "$n" = 1 ]; tap_result $? "lib/kvm reads no pmu->reference (one assignment)"
[ "$n" = 1 ] || grep -n 'pmu->reference' "$src"/lib/kvm/*.c | sed 's/^/# /'

# 4. Stats and observer plumbing stay inside trace_vpmc_*(): no stats., obs_make, hooks. or
#    ->policy. in a twin body (lines of functions whose name starts trace_vpmc are exempt).
bad=$(awk '/^[a-z].*[ *]trace_vpmc[a-z_]*\(/ { tr = 1 }
	/^[a-z].*\(/ && !/trace_vpmc/ { tr = 0 }
	!tr && /(stats\.|obs_make|hooks\.|->policy\.)/ && !/^ *\*|\/\*/ { print FILENAME ":" FNR ": " $0 }' \
	"$src"/lib/kvm/*.c)
[ -z "$bad" ]; tap_result $? "no stats./obs_make/hooks./->policy. in a twin body"
[ -z "$bad" ] || echo "$bad" | sed 's/^/# /'

tap_done
