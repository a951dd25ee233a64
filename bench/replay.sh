#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# replay.sh - Replay benchmark (issues 5 and 15): compare and a 32-tolerance sweep, with and
# without a guest profiler laid over the trace (--assume gp0=instructions,period=10000), on one
# thread and on two, against `trace-cmd report` and one policy, on a 1-vCPU and a 4-vCPU trace;
# and peak anonymous memory when the trace is 10x longer. Prints each ratio against its target
# (issue 15), wall and CPU side by side; asserts nothing.
#
# Usage: bench/replay.sh [BUILD_DIR]   (default: the current directory if it has sim/vpmcsim,
#                                       else _build/plain)
# Environment: BENCH_REPEAT (default 1000: the 1-vCPU trace, 2.3 M records), BENCH_REPEAT_MULTI
# (default BENCH_REPEAT / 25: the 4-vCPU trace, 2.0 M records at 40), BENCH_RUNS (default 3),
# BENCH_TMP. Needs trace-cmd and GNU time (scripts/install-deps.sh --bench).
#
# Inputs, both real recordings made longer by bench/mkdat.py (one valid trace.dat, v6):
#  1-vCPU: traces/local-kvm/small-mixed-real.v6.dat (2313 records) x BENCH_REPEAT;
#  4-vCPU: traces/local-kvm/multi-vcpu-real.dat (v7, zstd; 50647 records), converted to v6 by
#          trace-cmd convert, x BENCH_REPEAT_MULTI.
# BENCH_RUNS rounds, each running every command once (interleaved, so that a ratio's two sides
# see the same machine); wall and CPU (user + sys) are the minimum of each over the rounds.
# On a shared machine CPU time is the steadier figure; wall time is what -j changes.
# Memory: peak anonymous RSS sampled from /proc every 20 ms (file-backed pages of the trace are
# left out: the kernel can drop them), and peak RSS (VmHWM).
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
repeat_multi=${BENCH_REPEAT_MULTI:-$(( repeat / 25 > 0 ? repeat / 25 : 1 ))}
runs=${BENCH_RUNS:-3}
tmp=${BENCH_TMP:-$(mktemp -d "${TMPDIR:-/tmp}/vpmc-bench.XXXXXX")}
trap 'rm -rf "$tmp"' EXIT

[ -x "$vpmcsim" ] || { echo "replay.sh: no $vpmcsim (build first)" >&2; exit 1; }
for t in trace-cmd /usr/bin/time; do
	command -v "$t" >/dev/null ||
		{ echo "replay.sh: $t not installed (scripts/install-deps.sh --bench)" >&2; exit 1; }
done

one=$top/traces/local-kvm/small-mixed-real.v6.dat
trace-cmd convert --file-version 6 --compression none \
	-i "$top/traces/local-kvm/multi-vcpu-real.dat" -o "$tmp/multi.v6.dat" >/dev/null 2>&1 ||
	{ echo "replay.sh: trace-cmd convert to v6 failed" >&2; exit 1; }
python3 "$top/bench/mkdat.py" "$one" "$tmp/one.dat" --repeat "$repeat" >/dev/null
python3 "$top/bench/mkdat.py" "$one" "$tmp/one.x10.dat" --repeat $((repeat * 10)) >/dev/null
python3 "$top/bench/mkdat.py" "$tmp/multi.v6.dat" "$tmp/multi.dat" --repeat "$repeat_multi" \
	>/dev/null

# records FILE: the reader's count of records
records() { "$vpmcsim" stat "$1" 2>&1 >/dev/null | sed -n 's/^.*: \([0-9]*\) records,.*/\1/p' | head -1; }

# timeit KEY.TRACE CMD...: run CMD once (output to /dev/null); W[KEY.TRACE] and C[KEY.TRACE],
# wall and CPU seconds, keep the minimum over the runs so far
timeit() {
	local at=$1 w c
	shift
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	read -r w c < <(awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$tmp/time")
	if [ -z "${W[$at]:-}" ] || awk "BEGIN { exit !($w < ${W[$at]}) }"; then W[$at]=$w; fi
	if [ -z "${C[$at]:-}" ] || awk "BEGIN { exit !($c < ${C[$at]}) }"; then C[$at]=$c; fi
}

# mem CMD...: "PEAK_RSS_KB PEAK_ANON_KB"
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

ratio() { awk "BEGIN { if ($2 > 0) printf \"%.2f\", $1 / $2; else printf \"inf\" }"; }
# verdict VALUE OP TARGET: "met" or "MISSED"
verdict() { awk "BEGIN { print ($1 $2 $3) ? \"met\" : \"MISSED\" }"; }

ov=(--assume gp0=instructions,period=10000)
tol=$(awk 'BEGIN { for (i = 0; i < 32; i++) printf "%s%d", (i ? "," : ""), 2 ^ i }')

# The commands timed, by key: KEY|LABEL|ARGS (after vpmcsim; TRACE appended)
cmds=(
	"report|trace-cmd report|"
	"stat|stat (reading only)|stat"
	"one|one policy (tolerance=100), -j 1|compare -j 1 --policy tolerance=100"
	"one_ov|one policy + overlay, -j 1|compare -j 1 --policy tolerance=100 ${ov[*]}"
	"cmp1|compare (6 policies), -j 1|compare -j 1"
	"cmp2|compare (6 policies), -j 2|compare -j 2"
	"cmp1_ov|compare + overlay, -j 1|compare -j 1 ${ov[*]}"
	"cmp2_ov|compare + overlay, -j 2|compare -j 2 ${ov[*]}"
	"sw1|sweep 32 T, -j 1|sweep -j 1 --tolerance $tol"
	"sw2|sweep 32 T, -j 2|sweep -j 2 --tolerance $tol"
	"sw1_ov|sweep 32 T + overlay, -j 1|sweep -j 1 --tolerance $tol ${ov[*]}"
	"sw2_ov|sweep 32 T + overlay, -j 2|sweep -j 2 --tolerance $tol ${ov[*]}"
)

declare -A W C
echo "replay benchmark ($(date -u '+%F %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "  1-vCPU: $(basename "$one") x$repeat = $(records "$tmp/one.dat") records"
echo "  4-vCPU: multi-vcpu-real.dat as v6 x$repeat_multi = $(records "$tmp/multi.dat") records"
echo "  overlay: ${ov[*]}; sweep: 32 tolerances, 1 to 2^31"
echo "  best of $runs rounds; each round runs every command once, so that both sides of a ratio"
echo "  are timed over the same minutes (this machine's speed drifts by 20-40% between minutes)"
echo
# shellcheck disable=SC2086 # args are words
for ((i = 0; i < runs; i++)); do
	for entry in "${cmds[@]}"; do
		IFS='|' read -r key label args <<<"$entry"
		for tr in one multi; do
			if [ "$key" = report ]; then
				timeit "$key.$tr" trace-cmd report "$tmp/$tr.dat"
			else
				timeit "$key.$tr" "$vpmcsim" $args "$tmp/$tr.dat"
			fi
		done
	done
done
printf '  %-36s %17s   %17s\n' "seconds" "1-vCPU wall / CPU" "4-vCPU wall / CPU"
for entry in "${cmds[@]}"; do
	IFS='|' read -r key label args <<<"$entry"
	printf '  %-36s %8s / %-6s  %8s / %-6s\n' "$label" "${W[$key.one]}" "${C[$key.one]}" \
		"${W[$key.multi]}" "${C[$key.multi]}"
done

echo
echo "  ratios (issue 15 targets)                         1-vCPU        4-vCPU"
# target LABEL OP TARGET VALUE_ONE VALUE_MULTI
target() {
	printf '  %-46s %6s %-6s  %6s %-6s  (target %s %s)\n' "$1" "$4" "$(verdict "$4" "$2" "$3")" \
		"$5" "$(verdict "$5" "$2" "$3")" "$2" "$3"
}
# speed = report time / compare time
target "compare+overlay speed / report, CPU, -j 1" ">=" 10 \
	"$(ratio "${C[report.one]}" "${C[cmp1_ov.one]}")" \
	"$(ratio "${C[report.multi]}" "${C[cmp1_ov.multi]}")"
target "compare+overlay speed / report, wall, -j 2" ">=" 10 \
	"$(ratio "${W[report.one]}" "${W[cmp2_ov.one]}")" \
	"$(ratio "${W[report.multi]}" "${W[cmp2_ov.multi]}")"
target "sweep+overlay / one policy+overlay, wall -j 2" "<=" 3 \
	"$(ratio "${W[sw2_ov.one]}" "${W[one_ov.one]}")" \
	"$(ratio "${W[sw2_ov.multi]}" "${W[one_ov.multi]}")"
target "sweep+overlay / one policy+overlay, CPU -j 1" "<=" 4 \
	"$(ratio "${C[sw1_ov.one]}" "${C[one_ov.one]}")" \
	"$(ratio "${C[sw1_ov.multi]}" "${C[one_ov.multi]}")"
target "sweep+overlay, wall -j 2 / -j 1" "<=" 0.6 \
	"$(ratio "${W[sw2_ov.one]}" "${W[sw1_ov.one]}")" \
	"$(ratio "${W[sw2_ov.multi]}" "${W[sw1_ov.multi]}")"
target "compare+overlay, wall -j 2 / -j 1" "<=" 0.6 \
	"$(ratio "${W[cmp2_ov.one]}" "${W[cmp1_ov.one]}")" \
	"$(ratio "${W[cmp2_ov.multi]}" "${W[cmp1_ov.multi]}")"
echo "  (the -j 2 / -j 1 target is the 4-vCPU trace's; wall time needs two idle CPUs)"
echo "  without overlay: compare speed / report, CPU -j 1: $(ratio "${C[report.one]}" "${C[cmp1.one]}")x," \
     "$(ratio "${C[report.multi]}" "${C[cmp1.multi]}")x; sweep / one policy, CPU -j 1:" \
     "$(ratio "${C[sw1.one]}" "${C[one.one]}")x, $(ratio "${C[sw1.multi]}" "${C[one.multi]}")x"

echo
# shellcheck disable=SC2068
for j in 1 2; do
	read -r rss1 anon1 < <(mem "$vpmcsim" compare -j $j ${ov[@]} "$tmp/one.dat")
	read -r rss10 anon10 < <(mem "$vpmcsim" compare -j $j ${ov[@]} "$tmp/one.x10.dat")
	echo "  compare+overlay -j $j: peak anonymous RSS x1 ${anon1} KB, x10 ${anon10} KB:" \
	     "x10 / x1 = $(ratio "$anon10" "$anon1") (target: flat, 1.00);" \
	     "peak RSS x1 ${rss1} KB, x10 ${rss10} KB (the trace's file pages included)"
done
