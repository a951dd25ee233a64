#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# run-tests.sh - Install what is missing, build (scripts/build.sh), run the whole test suite.
# Usage: scripts/run-tests.sh [--sanitizers] [--werror] [--valgrind]
# Builds in _build/san (with --sanitizers) or _build/plain; prints the test-suite summary.
set -euo pipefail
cd "$(dirname "$0")/.."

build=() valgrind=0
for arg in "$@"; do
	case $arg in
	--sanitizers|--werror) build+=("$arg") ;;
	--valgrind) valgrind=1 ;;
	*) echo "run-tests.sh: unknown option '$arg'" >&2; exit 2 ;;
	esac
done

dir=$(scripts/build.sh "${build[@]}")
cd "$dir"
target=check
((valgrind)) && target=check-valgrind
# One line per test case goes to check.out; the summary (and any failure) to the terminal.
if ! make -s -j"$(nproc)" "$target" >check.out 2>&1; then
	grep -E '^(FAIL|ERROR|XPASS)' check.out || tail -n 40 check.out
	cat test-suite.log 2>/dev/null || :
	echo "run-tests.sh: FAILED (all output: $dir/check.out)"
	exit 1
fi
grep -h '^[0-9]*%: Checks:' tests/*/*.log | awk '{ n += $3 } END { print "Check unit tests: " n " cases" }'
sed -n '/^# TOTAL/,/^# ERROR/p' test-suite.log
