#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# fuzz.sh [SECONDS] [TARGET...] - build the libFuzzer targets (vtr, text, dat: the readers;
# engine: the model and the replay engine with invariants) in _build/fuzz (configure
# --enable-fuzzing CC=clang) and run each for SECONDS (default 60), seeded with traces/.
# Exit 1 if a target found a crash: the input is in _build/fuzz/artifacts/; copy it to
# fuzz/crashes/TARGET/, where make check replays it (tests/fuzz/regress.c).
set -eu

secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-"vtr text dat engine"}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/_build/fuzz

[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi)
mkdir -p "$build"
cd "$build"
[ -f Makefile ] || "$top/configure" -q --enable-fuzzing CC=clang
for t in $targets; do
	make -s -j2 "fuzz/fuzz_$t"
done

# Seeds: copies, so that libFuzzer's additions never land in traces/. libFuzzer reads at most
# -max_len bytes of an input; the text seeds are cut to that, the trace.dat ones fit whole.
seed() { # TARGET FILE...
	dir=corpus/$1
	shift
	mkdir -p "$dir"
	for f in "$@"; do
		[ -f "$f" ] && head -c "$max_len" "$f" >"$dir/$(basename "$f")"
	done
	return 0
}

# allocator_may_return_null: libtracecmd mallocs sizes read from the file and checks for NULL;
# ASan would abort on the attempt instead (our own code checks every allocation too).
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export LSAN_OPTIONS=suppressions=$top/fuzz/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
mkdir -p artifacts
failed=0
for t in $targets; do
	case $t in
	vtr)  max_len=65536; seed vtr $(find "$top/traces" -name '*.vtr') ;;
	text) max_len=65536; seed text "$top"/traces/public/*.txt "$top"/traces/local-kvm/*.txt ;;
	dat)  max_len=1100000; seed dat "$top"/traces/local-kvm/small-mixed-real.dat \
		"$top"/traces/local-kvm/pmu-gp-real.dat
	      # small v6 copies without kallsyms and foreign formats: many more runs per second
	      if command -v python3 >/dev/null; then
		      for n in 1 4; do
			      python3 "$top/bench/mkdat.py" --strip --pages "$n" \
				      "$top/traces/local-kvm/small-mixed-real.v6.dat" \
				      "corpus/dat/stripped-$n.dat"
		      done
	      fi ;;
	# every .vtr (fuzz_engine.c decodes a binary stream too, which the fuzzer finds itself)
	engine) max_len=4096; seed engine $(find "$top/traces" -name '*.vtr') ;;
	esac
	echo "=== fuzz_$t: $secs s"
	if ! "./fuzz/fuzz_$t" -max_total_time="$secs" -max_len="$max_len" -print_final_stats=1 \
		-artifact_prefix="artifacts/$t-" "corpus/$t" >"fuzz_$t.log" 2>&1; then
		failed=1
		tail -n 40 "fuzz_$t.log"
	fi
	grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "fuzz_$t.log" || :
done
[ "$failed" = 0 ] && echo "fuzz: no crash" || echo "fuzz: crash found, see $build/artifacts"
exit "$failed"
