#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# readers.sh - Speed and memory of the trace readers (make bench; needs trace-cmd, python3).
#
# Inputs, built in $BENCH_DIR (default _build/bench) from traces/local-kvm/multi-vcpu-real:
#   text:  its trace-cmd report, repeated with shifted time stamps (50,648 lines a copy);
#   dat:   its trace.dat as file version 6 (trace-cmd convert), CPU data repeated by
#          bench/mkdat.py with shifted page time stamps (50,647 events a copy), and that file
#          converted back to version 7 (zstd), trace-cmd's default.
# Each at two sizes (SMALL and LARGE copies) to show how peak RSS depends on length.
# Measured (least CPU time of 3 runs, peak RSS, from /usr/bin/time):
#   read_events IN       the public reader alone (bench/read_events.c: open, next until the end);
#   vpmcsim convert IN   reading, import and writing .vtr to /dev/null;
#   trace-cmd report IN > /dev/null, on the same trace.dat.
# Targets (issue 4): trace.dat read >= 5x faster than trace-cmd report, text >= 10 M lines/s.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# make bench runs it from the build directory; by hand, the build in _build/plain.
builddir=${top_builddir:-$( [ -x sim/vpmcsim ] && pwd || echo "$top/_build/plain" )}
case $builddir in /*) ;; *) builddir=$(pwd)/$builddir ;; esac
dir=${BENCH_DIR:-$top/_build/bench}
small=${SMALL:-10}
large=${LARGE:-100}
src=$top/traces/local-kvm/multi-vcpu-real

# The programs themselves, not libtool's wrapper scripts (a shell and sed per run).
export LD_LIBRARY_PATH=$builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
vpmcsim=$builddir/sim/.libs/vpmcsim
reader=$builddir/bench/.libs/read_events
[ -x "$vpmcsim" ] || vpmcsim=$builddir/sim/vpmcsim
[ -x "$reader" ] || reader=$builddir/bench/read_events

for tool in trace-cmd python3 /usr/bin/time "$vpmcsim" "$reader"; do
	command -v "$tool" >/dev/null || { echo "readers.sh: needs $tool (make bench)" >&2; exit 1; }
done
mkdir -p "$dir"

# NAME.txt repeated N times; copy k's time stamps (the field before the event name) + k*span.
make_text() { # N OUT
	[ -s "$2" ] && return 0
	awk -v n="$1" '
		/^cpus=/ { hdr = $0; next }
		{ line[++nl] = $0; if (match($0, /\] +[0-9]+\.[0-9]+:/)) {
			t = substr($0, RSTART, RLENGTH); sub(/^\] +/, "", t); sub(/:$/, "", t)
			if (first == "") first = t; last = t } }
		END {
			span = last - first + 0.001
			print hdr
			for (k = 0; k < n; k++)
				for (i = 1; i <= nl; i++) {
					l = line[i]
					if (k && match(l, /\] +[0-9]+\.[0-9]+:/)) {
						pre = substr(l, 1, RSTART - 1); m = substr(l, RSTART, RLENGTH)
						t = m; sub(/^\] +/, "", t); sub(/:$/, "", t)
						sp = m; sub(/[0-9.]+:$/, "", sp)
						l = pre sp sprintf("%.6f", t + k * span) ":" substr(l, RSTART + RLENGTH)
					}
					print l
				}
		}' "$src.txt" >"$2.tmp" && mv "$2.tmp" "$2"
}

make_dat() { # N OUT6 OUT7
	[ -s "$dir/v6.dat" ] || trace-cmd convert --file-version 6 --compression none \
		-i "$src.dat" -o "$dir/v6.dat" >/dev/null 2>&1
	[ -s "$2" ] || python3 "$top/bench/mkdat.py" --repeat "$1" "$dir/v6.dat" "$2"
	[ -s "$3" ] || trace-cmd convert --file-version 7 -i "$2" -o "$3" >/dev/null 2>&1
}

# run LABEL CMD...: the least CPU seconds, user + system ($secs), of RUNS runs (default 3) and
# the largest peak RSS in KB ($rss) of CMD, output dropped. CPU time, not elapsed: the machine
# is shared, and elapsed time there measures the neighbours.
run() {
	label=$1
	shift
	secs= rss=0 wall=
	i=0
	while [ "$i" -lt "${RUNS:-3}" ]; do
		/usr/bin/time -f '%e %U %S %M' -o "$dir/time.out" "$@" >/dev/null \
			2>"$dir/stderr.out" || {
			echo "readers.sh: $label failed:" >&2; cat "$dir/stderr.out" >&2; exit 1; }
		read -r e u sy r <"$dir/time.out"
		secs=$(awk -v a="$secs" -v b="$u" -v c="$sy" \
			'BEGIN { b += c; print (a == "" || b < a) ? b : a }')
		wall=$(awk -v a="$wall" -v b="$e" 'BEGIN { print (a == "" || b < a) ? b : a }')
		[ "$r" -gt "$rss" ] && rss=$r
		i=$((i + 1))
	done
	printf '  %-30s %7.2f s CPU %7.2f s elapsed %8d KB peak RSS\n' "$label" "$secs" \
		"$wall" "$rss"
}

per_s() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.2f", (s > 0 ? n / s / 1e6 : 0) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }

for n in "$small" "$large"; do
	make_text "$n" "$dir/text-$n.txt"
	make_dat "$n" "$dir/dat6-$n.dat" "$dir/dat7-$n.dat"
done

echo "== inputs"
for n in "$small" "$large"; do
	printf '  %-30s %10s lines  %11s bytes\n' "report text x$n" \
		"$(wc -l <"$dir/text-$n.txt")" "$(wc -c <"$dir/text-$n.txt")"
	for v in 6 7; do
		printf '  %-30s %10s events %11s bytes\n' "trace.dat v$v x$n" "$((50647 * n))" \
			"$(wc -c <"$dir/dat$v-$n.dat")"
	done
done

for n in "$small" "$large"; do
	echo "== x$n"
	lines=$(wc -l <"$dir/text-$n.txt")
	run "read_events text" "$reader" "$dir/text-$n.txt"
	echo "    at the end: $("$reader" "$dir/text-$n.txt" | tr -s '\t ' ' ')"
	echo "    text reader: $(per_s "$lines" "$secs") M lines/s (target 10)"
	run "vpmcsim convert text" "$vpmcsim" convert "$dir/text-$n.txt" -o /dev/null
	echo "    text convert: $(per_s "$lines" "$secs") M lines/s"
	for v in 6 7; do
		f=$dir/dat$v-$n.dat
		run "read_events trace.dat v$v" "$reader" "$f"
		t_read=$secs
		# libtracecmd maps v6 CPU data (file-backed) and inflates v7 data (anonymous) whole
		echo "    at the end: $("$reader" "$f" | tr -s '\t ' ' ')"
		run "vpmcsim convert trace.dat v$v" "$vpmcsim" convert "$f" -o /dev/null
		t_conv=$secs
		run "trace-cmd report v$v" trace-cmd report -i "$f"
		echo "    v$v: reader $(ratio "$secs" "$t_read")x, convert $(ratio "$secs" "$t_conv")x" \
			"faster than trace-cmd report (target 5x)"
	done
done
