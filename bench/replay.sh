#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# replay.sh - Replay benchmark (issue 5): speed of compare against `trace-cmd report`, cost of a
# 32-tolerance sweep against one policy, and peak memory when the trace is 10x longer.
#
# Usage: bench/replay.sh [BUILD_DIR]   (default: the current directory if it has sim/vpmcsim,
#                                       else _build/plain)
# Environment: BENCH_REPEAT (default 1000: 2.3 M events), BENCH_RUNS (default 3), BENCH_TMP.
# compare is also timed on the trace converted to version 7 (zstd), trace-cmd's default.
#
# The input is traces/local-kvm/small-mixed-real.v6.dat (a real recording, 2313 events)
# repeated BENCH_REPEAT times by bench/mkdat.py into one valid trace.dat. Times are CPU time
# (user + sys, the minimum of BENCH_RUNS runs): the machine is shared, wall time is noise.
# Memory: peak RSS (VmHWM), and peak anonymous RSS sampled from /proc every 20 ms - libtracecmd
# maps the trace's pages (file-backed RSS grows with the file; the kernel can drop them), the
# replay's own state is the anonymous part. Prints ratios; asserts nothing.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-}
if [ -z "$build" ]; then
	if [ -x sim/vpmcsim ]; then build=$PWD; else build=$top/_build/plain; fi
fi
# The program itself, not libtool's wrapper script (a shell and sed per run: ~0.1 s of CPU).
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
vpmcsim=$build/sim/.libs/vpmcsim
[ -x "$vpmcsim" ] || vpmcsim=$build/sim/vpmcsim
repeat=${BENCH_REPEAT:-1000}
runs=${BENCH_RUNS:-3}
tmp=${BENCH_TMP:-$(mktemp -d "${TMPDIR:-/tmp}/vpmc-bench.XXXXXX")}
trap 'rm -rf "$tmp"' EXIT

[ -x "$vpmcsim" ] || { echo "replay.sh: no $vpmcsim (build first)" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "replay.sh: trace-cmd not installed" >&2; exit 1; }

src=$top/traces/local-kvm/small-mixed-real.v6.dat
python3 "$top/bench/mkdat.py" "$src" "$tmp/x1.dat" --repeat "$repeat" >/dev/null
python3 "$top/bench/mkdat.py" "$src" "$tmp/x10.dat" --repeat $((repeat * 10)) >/dev/null
events=$("$vpmcsim" compare --policy exact --format json "$tmp/x1.dat" |
	 sed -n 's/^ *"records": \([0-9]*\),$/\1/p' | head -1)

# cpu CMD... : minimum user+sys seconds over $runs runs (output to /dev/null)
cpu() {
	local best= t i
	for ((i = 0; i < runs; i++)); do
		/usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" ||
			{ cat "$tmp/err" >&2; exit 1; }
		t=$(awk '{ printf "%.2f", $1 + $2 }' "$tmp/time")
		if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
	done
	echo "$best"
}

# mem CMD... : "peak_rss_kb peak_anon_kb"
mem() {
	local pid anon=0 a
	"$@" >/dev/null 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		a=$(awk '/^RssAnon:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
		[ -n "$a" ] && [ "$a" -gt "$anon" ] && anon=$a
		sleep 0.02
	done
	wait "$pid"
	/usr/bin/time -f '%M' -o "$tmp/time" "$@" >/dev/null 2>&1
	echo "$(cat "$tmp/time") $anon"
}

ratio() { awk "BEGIN { printf \"%.2f\", $1 / $2 }"; }

tol=$(seq -s, 0 31 | awk -F, '{ for (i = 1; i <= NF; i++) printf "%s%d", (i > 1 ? "," : ""), $i * $i * 10 }')

echo "replay benchmark: $(basename "$src") x$repeat = $events events; CPU seconds, best of $runs"
t_report=$(cpu trace-cmd report "$tmp/x1.dat")
t_compare=$(cpu "$vpmcsim" compare "$tmp/x1.dat")
t_overlay=$(cpu "$vpmcsim" compare --assume fixed0,period=10000 "$tmp/x1.dat")
t_read=$(cpu "$vpmcsim" stat "$tmp/x1.dat")
t_one=$(cpu "$vpmcsim" compare --policy tolerance=100 "$tmp/x1.dat")
t_sweep=$(cpu "$vpmcsim" sweep --tolerance "$tol" "$tmp/x1.dat")
printf '  %-58s %7s s\n' "trace-cmd report > /dev/null" "$t_report" \
	"vpmcsim stat (reading the trace only)" "$t_read" \
	"vpmcsim compare (5 policies + reference)" "$t_compare" \
	"vpmcsim compare --assume fixed0 (5 policies + 5 references)" "$t_overlay" \
	"vpmcsim compare --policy tolerance=100 (1 policy)" "$t_one" \
	"vpmcsim sweep, 32 tolerances" "$t_sweep"
echo "  compare speed / trace-cmd report speed:        $(ratio "$t_report" "$t_compare")x (target >= 5)"
# The same trace as trace-cmd 3.x writes it by default: version 7, zstd.
if trace-cmd convert --file-version 7 -i "$tmp/x1.dat" -o "$tmp/x1.v7.dat" >/dev/null 2>&1; then
	t_report7=$(cpu trace-cmd report "$tmp/x1.v7.dat")
	t_compare7=$(cpu "$vpmcsim" compare "$tmp/x1.v7.dat")
	echo "  the same as v7 (zstd): trace-cmd report $t_report7 s, compare $t_compare7 s:" \
	     "$(ratio "$t_report7" "$t_compare7")x"
fi
echo "  compare --assume speed / trace-cmd report:     $(ratio "$t_report" "$t_overlay")x"
echo "  sweep of 32 tolerances / one policy:           $(ratio "$t_sweep" "$t_one")x (target <= 4)"

read -r rss1 anon1 < <(mem "$vpmcsim" compare "$tmp/x1.dat")
read -r rss10 anon10 < <(mem "$vpmcsim" compare "$tmp/x10.dat")
echo "  peak RSS, compare:  x1 ${rss1} KB, x10 ${rss10} KB (file-backed pages of the trace included)"
echo "  peak anonymous RSS: x1 ${anon1} KB, x10 ${anon10} KB; x10 / x1 = $(ratio "$anon10" "$anon1") (target: flat)"
