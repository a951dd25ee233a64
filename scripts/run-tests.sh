#!/usr/bin/env bash
# run-tests.sh - Install what is missing, build, and run the whole test suite.
# Usage: scripts/run-tests.sh [--sanitizers] [--werror] [--valgrind]
# Builds in _build/san (with --sanitizers) or _build/plain; prints the test-suite summary.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=_build/plain conf=(--with-libtracecmd=yes) valgrind=0
for arg in "$@"; do
	case $arg in
	--sanitizers) dir=_build/san; conf+=(--enable-sanitizers) ;;
	--werror) conf+=(--enable-werror) ;;
	--valgrind) valgrind=1 ;;
	*) echo "run-tests.sh: unknown option '$arg'" >&2; exit 2 ;;
	esac
done

scripts/install-deps.sh
[ -x configure ] || autoreconf -fi >/dev/null
mkdir -p "$dir"
cd "$dir"
../../configure -q "${conf[@]}"
make -s -j"$(nproc)"
target=check
((valgrind)) && target=check-valgrind
# One line per test case goes to check.out; the summary (and any failure) to the terminal.
if ! make -s -j"$(nproc)" "$target" >check.out 2>&1; then
	grep -E '^(FAIL|ERROR|XPASS)' check.out || tail -n 40 check.out
	cat test-suite.log 2>/dev/null || :
	echo "run-tests.sh: FAILED (all output: $dir/check.out)"
	exit 1
fi
grep -h '^[0-9]*%: Checks:' tests/*.log | awk '{ n += $3 } END { print "Check unit tests: " n " cases" }'
sed -n '/^# TOTAL/,/^# ERROR/p' test-suite.log
