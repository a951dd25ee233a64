#!/bin/sh
# readers.sh - Speed and memory of the trace readers (make bench; needs trace-cmd, python3).
#
# Inputs, built in $BENCH_DIR (default _build/bench) from traces/local-kvm/multi-vcpu-real:
#   text:  its trace-cmd report, repeated with shifted time stamps (50,648 lines a copy);
#   dat:   its trace.dat as file version 6 (trace-cmd convert), CPU data repeated by
#          bench/mkdat.py with shifted page time stamps (50,647 events a copy).
# Each at two sizes (SMALL and LARGE copies) to show that peak RSS does not grow with length.
# Measured: `vpmcsim convert IN -o /dev/null` (read + import + .vtr writing) against
# `trace-cmd report IN > /dev/null` on the same trace.dat; lines/s for the text reader.
# Targets (issue 4): trace.dat >= 5x faster than trace-cmd report, text >= 10 M lines/s.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# make bench runs it from the build directory; by hand, the build in _build/plain.
builddir=${top_builddir:-$( [ -x sim/vpmcsim ] && pwd || echo "$top/_build/plain" )}
case $builddir in /*) ;; *) builddir=$(pwd)/$builddir ;; esac
vpmcsim=$builddir/sim/vpmcsim
dir=${BENCH_DIR:-$top/_build/bench}
small=${SMALL:-10}
large=${LARGE:-100}
src=$top/traces/local-kvm/multi-vcpu-real

for tool in trace-cmd python3 /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "readers.sh: needs $tool" >&2; exit 1; }
done
[ -x "$vpmcsim" ] || { echo "readers.sh: build vpmcsim first ($vpmcsim)" >&2; exit 1; }
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

make_dat() { # N OUT
	[ -s "$2" ] && return 0
	[ -s "$dir/v6.dat" ] || trace-cmd convert --file-version 6 --compression none \
		-i "$src.dat" -o "$dir/v6.dat" >/dev/null 2>&1
	python3 "$top/bench/mkdat.py" --repeat "$1" "$dir/v6.dat" "$2"
}

# run LABEL CMD...: elapsed seconds and peak RSS (KB) of CMD, output to /dev/null.
run() {
	label=$1
	shift
	/usr/bin/time -f '%e %M' -o "$dir/time.out" "$@" >/dev/null 2>"$dir/stderr.out" || {
		echo "readers.sh: $label failed:" >&2; cat "$dir/stderr.out" >&2; exit 1; }
	read -r secs rss <"$dir/time.out"
	printf '%-36s %8.2f s %9d KB peak RSS\n' "$label" "$secs" "$rss"
}

rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.1f", (s > 0 ? n / s / 1e6 : 0) }'; }

for n in "$small" "$large"; do
	make_text "$n" "$dir/text-$n.txt"
	make_dat "$n" "$dir/dat-$n.dat"
done

echo "== inputs"
for n in "$small" "$large"; do
	printf '%-36s %10s lines %12s bytes\n' "text x$n" "$(wc -l <"$dir/text-$n.txt")" \
		"$(wc -c <"$dir/text-$n.txt")"
	printf '%-36s %10s events %11s bytes\n' "trace.dat (v6) x$n" "$((50647 * n))" \
		"$(wc -c <"$dir/dat-$n.dat")"
done

for n in "$small" "$large"; do
	echo "== x$n"
	lines=$(wc -l <"$dir/text-$n.txt")
	run "vpmcsim convert text" "$vpmcsim" convert "$dir/text-$n.txt" -o /dev/null
	t_text=$secs
	echo "   text: $(rate "$lines" "$t_text") M lines/s"
	run "vpmcsim convert trace.dat" "$vpmcsim" convert "$dir/dat-$n.dat" -o /dev/null
	t_ours=$secs
	echo "   trace.dat: $(rate $((50647 * n)) "$t_ours") M events/s"
	run "trace-cmd report trace.dat" trace-cmd report -i "$dir/dat-$n.dat"
	t_tc=$secs
	awk -v a="$t_tc" -v b="$t_ours" \
		'BEGIN { printf "   trace.dat: %.1fx faster than trace-cmd report\n", (b > 0 ? a / b : 0) }'
done
