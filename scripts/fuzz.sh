#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# fuzz.sh - build the libFuzzer targets in _build/fuzz (configure --enable-fuzzing CC=clang) and
# run them: vtr, text, dat (the readers) and engine (the model and the replay engine under
# invariants, fuzz/fuzz_engine.c).
#
#   fuzz.sh [SECONDS] [TARGET...]      each target for SECONDS (default 60), from the seeds
#                                      (traces/) and the committed corpus (fuzz/corpus/TARGET/)
#   fuzz.sh --campaign [--runs N] [--fork J] [SECONDS] [TARGET...]
#                                      the same for SECONDS and/or N executions per target (N
#                                      alone: no time limit), then the corpus minimized
#                                      (-merge=1) into fuzz/corpus/TARGET/; --fork J: libFuzzer's
#                                      -fork=J, J processes at a time (N counts all of theirs)
#   fuzz.sh --campaign --resume ...     a campaign in legs: start from the corpus the last run
#                                      left in _build/fuzz/corpus/TARGET/ (kept, not reseeded);
#                                      each leg's executions go to _build/fuzz/campaign.ledger,
#                                      which prints the target's total
#   fuzz.sh --no-asan ...               the targets built under UBSan alone, in _build/fuzz-noasan
#                                      (its own corpus; the same ledger, legs marked "no-asan"):
#                                      about twice the executions per second. A use after free or
#                                      overflow that does not crash goes unseen, and fuzz_engine's
#                                      I8 is not checked (it reads ASan's heap); so after a run
#                                      that was not interrupted, every input of the corpus runs
#                                      through the ASan build (-runs=0), which checks both
#
# Prints, per target, executions, executions per second, coverage (libFuzzer's cov: edges) and
# peak RSS. SIGINT or SIGTERM stops the run: the target running reports "interrupted" with the
# executions it made (counted in the ledger), no later target or merge runs, exit 130 / 143.
# Exit 1 if a target crashed, violated an invariant or exited non-zero otherwise (its exit status
# is printed and goes to the ledger: "exit N"). A failing input is in
# _build/fuzz/artifacts/; copy it to fuzz/crashes/TARGET/, where make check replays it
# (tests/fuzz/regress.c). Rerun it there, or with the target and default sanitizer options, for
# a full report: the runs here keep short allocation stacks (see ASAN_OPTIONS below).
set -eu

campaign=0 resume=0 runs='' secs='' fork='' noasan=''
while [ $# -gt 0 ]; do
	case $1 in
	--campaign) campaign=1 ;;
	--resume) resume=1 ;;
	--no-asan) noasan=-noasan ;;
	--runs) runs=$2; shift ;;
	--fork) fork=$2; shift ;;
	[0-9]*) secs=$1 ;;
	*) break ;;
	esac
	shift
done
[ -z "$secs$runs" ] && secs=60
targets=${*:-"vtr text dat engine"}
top=$(cd "$(dirname "$0")/.." && pwd)
asan_build=$top/_build/fuzz
build=$asan_build$noasan
ledger=$asan_build/campaign.ledger

# Configure DIR for fuzzing under SANITIZERS (configure's --enable-fuzzing value) and make TARGETs.
make_targets() { # DIR yes|undefined TARGET...
	dir=$1 sanitizers=$2
	shift 2
	mkdir -p "$dir"
	(cd "$dir"
	 [ -f Makefile ] || "$top/configure" -q --enable-fuzzing="$sanitizers" CC=clang
	 make -s built-sources # the generated headers, which a single target's make does not build
	 for t in "$@"; do
		make -s -j2 "fuzz/fuzz_$t"
	 done)
}

[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi)
# shellcheck disable=SC2086 # (a list of targets)
if [ -n "$noasan" ]; then
	make_targets "$build" undefined $targets
	make_targets "$asan_build" yes $targets # the corpus's replay
else
	make_targets "$build" yes $targets
fi
cd "$build"

# Seeds: copies, so that libFuzzer's additions never land in traces/.
seed() { # TARGET FILE...
	dir=corpus/$1
	shift
	for f in "$@"; do
		[ -f "$f" ] && head -c "$max_len" "$f" >"$dir/$(basename "$f")"
	done
	return 0
}

# Text traces in pieces of whole lines of at most 8000 bytes, the first 4 of each trace: the
# grammar is per line, and an input of 8 KiB runs 8 times faster than one of 64 KiB (a line
# over 4096 bytes, the reader's limit, still fits).
seed_text() { # FILE...
	for f in "$@"; do
		awk -v out="corpus/text/$(basename "$f" .txt)" '
			{ l = length($0) + 1
			  if (sz + l > 8000 && sz) { n++; sz = 0 }
			  if (n < 4) { print > (out "-" n ".txt"); sz += l } }' "$f"
	done
}

# Small trace.dat files: a recording's first pages with only the formats the importer reads
# (libtraceevent parses them at every open), as read directly and with an OFFSET option (read by
# libtracecmd); and the small v7 files of traces/bad (zstd, zlib). --bare: empty print fmts and
# no cmdlines (two thirds of the formats' text, and most of a parse: kvm_exit's exit-reason
# tables; the readers use neither): files of 20-32 KB, not 32-53 KB
seed_dat() {
	src=$top/traces/local-kvm/small-mixed-real.v6.dat
	events=kvm_entry,kvm_exit,kvm_msr,kvm_emulate_insn,kvm_inj_exception,kvm_inj_virq
	events=$events,kvm_apic_accept_irq,kvm_eoi,kvm_apic,kvm_pio,kvm_userspace_exit,kvm_cpuid
	events=$events,kvm_fpu,kvm_hypercall,kvm_nested_vmexit,kvm_nested_vmexit_inject
	events=$events,kvm_nested_vmenter,kvm_nested_vmrun,kvm_nested_intercepts
	events=$events,kvm_nested_vmenter_failed
	if command -v python3 >/dev/null; then
		for n in 1 4; do
			python3 "$top/bench/mkdat.py" --strip --bare --events "$events" --pages "$n" \
				"$src" "corpus/dat/kvm-$n.dat"
		done
		# libtracecmd parses every format at each open: three of them; four pages, so that
		# most mutations leave the first page (what its open reads, so probes) alone
		python3 "$top/bench/mkdat.py" --strip --bare --events kvm_entry,kvm_exit,kvm_msr \
			--pages 4 --option 7=1000000000 "$src" corpus/dat/kvm-4-offset.dat
	fi
	seed dat "$top"/traces/bad/v7-4pages.dat "$top"/traces/bad/v7-4pages-zlib.dat
}

# allocator_may_return_null: libtracecmd mallocs sizes read from the file and checks for NULL;
# ASan would abort on the attempt instead (our own code checks every allocation too).
# malloc_context_size, quarantine_size_mb, max_malloc_fill_size: recording 30 frames per
# allocation, a 256 MiB quarantine and filling each allocation took most of a reader input's
# time and memory; reports keep 2 frames of where a block was allocated.
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:malloc_context_size=2:quarantine_size_mb=16:max_malloc_fill_size=0
export LSAN_OPTIONS="suppressions=$top/fuzz/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# A signal stops the run. libFuzzer exits 72 on SIGINT and SIGTERM, after its final stats: that
# is an interrupted leg, not a crash. The fuzzer runs in the background so that a signal sent to
# this script alone (kill PID) reaches it too (^C reaches both).
stop=
fpid=
# shellcheck disable=SC2317 # (the traps call it)
on_signal() { # INT|TERM
	stop=$1
	[ -z "$fpid" ] || kill -"$1" "$fpid" 2>/dev/null || :
}
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM

# Run a target ("$@", output to $log) until it exits; its exit status in $rc.
run_target() {
	"$@" >"$log" 2>&1 &
	fpid=$!
	while :; do
		rc=0
		wait "$fpid" || rc=$?
		kill -0 "$fpid" 2>/dev/null || break # else a signal ended the wait, not the fuzzer
	done
	fpid=
}

# The inputs libFuzzer wrote for TARGET's failures so far.
found() { # TARGET
	find artifacts -name "$1-crash-*" -o -name "$1-leak-*" -o -name "$1-timeout-*" \
		-o -name "$1-oom-*" | wc -l
}

mkdir -p artifacts
failed=0
for t in $targets; do
	[ -z "$stop" ] || break
	extra=
	asan=
	# a resumed campaign's corpus stays (a leg of hours adds what its seeds alone do not reach)
	if [ "$resume" != 1 ] || [ ! -d "corpus/$t" ]; then rm -rf "corpus/$t"; fi
	mkdir -p "corpus/$t"
	case $t in
	# 8 KiB, as text: the grammar is per line. At equal CPU (about 125 s, seeds 1 and 2) 64 KiB
	# reached cov 1877-1888 in 300 k runs, 8 KiB the same edges in 720 k (ft 1-2% lower: hit
	# counts of loops over more lines); 64 KiB ran 1200-1700/s, 8 KiB 2900-4600/s
	vtr)  max_len=8192; keep_len=1024
	      # shellcheck disable=SC2046 # file names without spaces
	      seed vtr $(find "$top/traces" -name '*.vtr') ;;
	# -entropic=0: libFuzzer 14's entropic schedule (UpdateFeatureFrequency(), a linear search
	# of its rare features for every feature of every run) took 60% of a text input's time
	text) max_len=8192; keep_len=1024
	      seed_text "$top"/traces/public/*.txt "$top"/traces/local-kvm/*.txt
	      extra="-entropic=0" ;;
	# fuzz/fuzz_dat.c says why these flags
	# no committed corpus: trace.dat inputs are 16-60 KB each (a campaign's merge kept 190,
	# 7.4 MB); the seeds are made from traces/ at each run
	# -reload=0: one process per corpus, nothing else writes there (rereading it took 1-2%)
	# quarantine_size_mb=1: each probe's fork copies the page tables of the quarantined memory,
	# and this process then faults on each page it writes there (copy on write): 16 MiB took a
	# fifth of the CPU. A use after free is now caught only until 1 MiB of later frees (16
	# before) recycle the block; make check replays the corpus and crash inputs with ASan's
	# default 256 MiB
	# -purge_allocator_interval=-1: libFuzzer gave ASan's free memory back to the system every
	# second (madvise), and the next allocations faulted it in again (4% of the CPU); the
	# process keeps its peak instead (tens of MB)
	# 32 KiB: every seed whole (20-32 KB); mutants grew to 50-58 KB under 64 KiB. At equal CPU
	# (99 s, seed 1) 64 KiB ran 104 k executions, 32 KiB 172 k, and reached as much (each
	# corpus through one binary, -runs=0: cov / ft 3330 / 12847 -> 3348 / 13182)
	dat)  max_len=32768; keep_len=; seed_dat; asan=:quarantine_size_mb=1
	      extra="-entropic=0 -detect_leaks=0 -rss_limit_mb=0 -malloc_limit_mb=2048 -reload=0"
	      extra="$extra -purge_allocator_interval=-1" ;;
	# every .vtr (fuzz_engine.c decodes a binary stream too, which the fuzzer finds itself);
	# -entropic=0: its schedule took 14% of the time here too
	# allocator_release_to_os_interval_ms=-1: each run allocates and frees the engine's
	# per-vCPU structures; ASan gave their free pages back to the kernel every 5 s per size
	# class, then faulted them in again (madvise, TLB flushes and page faults: about a tenth of
	# the CPU). It costs resident memory only (peak RSS), no check
	engine) max_len=4096; keep_len=1024
		# shellcheck disable=SC2046 # file names without spaces
		seed engine $(find "$top/traces" -name '*.vtr')
		asan=:allocator_release_to_os_interval_ms=-1
		extra="-entropic=0" ;;
	esac
	# the committed corpus goes in too (its file names are content hashes: no clash)
	if [ -d "$top/fuzz/corpus/$t" ]; then cp "$top/fuzz/corpus/$t"/* "corpus/$t/" 2>/dev/null || :; fi
	echo "=== fuzz_$t:${secs:+ $secs s}${runs:+ $runs runs}"
	log=fuzz_$t.log
	found=$(found "$t")
	# shellcheck disable=SC2086 # $extra is a list of flags
	run_target env ASAN_OPTIONS="$ASAN_OPTIONS$asan" "./fuzz/fuzz_$t" ${secs:+-max_total_time=$secs} \
		${runs:+-runs=$runs} ${fork:+-fork=$fork} -max_len="$max_len" -print_final_stats=1 \
		-artifact_prefix="artifacts/$t-" $extra "corpus/$t"
	leg=
	if [ "$rc" = 72 ] && [ -n "$stop" ]; then
		leg=" interrupted"
	elif [ "$rc" != 0 ]; then
		failed=1
		leg=" exit $rc"
		tail -n 40 "fuzz_$t.log"
		[ "$(found "$t")" -gt "$found" ] ||
			echo "fuzz_$t: libFuzzer exited $rc and wrote no crash, leak, timeout or oom input"
	fi
	n=$(awk '/^stat::number_of_executed_units:/ { print $2 }' "fuzz_$t.log")
	rate=$(awk '/^stat::average_exec_per_sec:/ { print $2 }' "fuzz_$t.log")
	rss=$(awk '/^stat::peak_rss_mb:/ { print $2 }' "fuzz_$t.log")
	cov=$(grep -o 'cov: [0-9]*' "fuzz_$t.log" | tail -n 1)
	if [ -n "$fork" ]; then
		# -fork prints no final stats: its last status line has the executions of all its
		# processes, their time, and as cov the edges of the corpus it kept (not comparable
		# with one process's cov; the merge below prints that)
		last=$(grep -E '^#[0-9]+: cov' "fuzz_$t.log" | tail -n 1)
		n=$(echo "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
		# its exec/s is the last job's: the campaign's rate is executions over its time
		rate=$(echo "$last" | awk '{ for (i = 1; i < NF; i++) if ($i == "time:")
			{ t = $(i + 1) + 0; if (t) printf "%d", substr($1, 2) / t } }')
		cov="$cov (-fork)"
	fi
	echo "fuzz_$t:$leg ${n:-?} executions, ${rate:-?}/s, ${cov:-cov: ?}, peak RSS ${rss:-?} MB"
	if [ "$campaign" = 1 ]; then
		[ "$resume" = 1 ] || sed -i "/ $t /d" "$ledger" 2>/dev/null || :
		marks="$leg${noasan:+ no-asan}"
		echo "$(date -u +%FT%TZ) $t ${n:-0} executions ${rate:-?}/s ${cov:-cov: ?}$marks" \
			>>"$ledger"
		echo "fuzz_$t: campaign total $(awk -v t="$t" '$2 == t { n += $3 }
			END { print n + 0 }' "$ledger") executions in" \
		     "$(awk -v t="$t" '$2 == t' "$ledger" | wc -l) leg(s) ($ledger)"
	fi
	if [ -n "$noasan" ] && [ -z "$stop" ]; then
		# shellcheck disable=SC2086
		ASAN_OPTIONS=$ASAN_OPTIONS$asan "$asan_build/fuzz/fuzz_$t" -runs=0 \
			-max_len="$max_len" -artifact_prefix="artifacts/$t-" $extra "corpus/$t" \
			>"replay_$t.log" 2>&1 || {
			[ -n "$stop" ] || { tail -n 40 "replay_$t.log"; failed=1; }
			continue
		}
		echo "fuzz_$t: the corpus, $(find "corpus/$t" -type f | wc -l) inputs, run under ASan and UBSan:" \
		     "no finding"
	fi
	if [ "$campaign" = 1 ] && [ -n "$keep_len" ] && [ -z "$stop" ]; then
		# the smallest set of inputs that reaches the same edges (cov; -use_counters=0: not
		# every hit count, which kept thousands of inputs) replaces fuzz/corpus/TARGET/, inputs
		# cut to keep_len bytes (measured on the cut): the committed corpus stays small (244 KB
		# for vtr, text and engine after the first campaign), and the next run grows them again
		rm -rf "merged/$t"
		mkdir -p "merged/$t"
		# shellcheck disable=SC2086
		ASAN_OPTIONS=$ASAN_OPTIONS$asan "./fuzz/fuzz_$t" -merge=1 -use_counters=0 \
			-max_len="$keep_len" $extra "merged/$t" "corpus/$t" \
			>"merge_$t.log" 2>&1 || {
			[ -n "$stop" ] || { tail -n 20 "merge_$t.log"; failed=1; }
			continue
		}
		rm -rf "$top/fuzz/corpus/$t"
		mkdir -p "$top/fuzz/corpus/$t"
		cp "merged/$t"/* "$top/fuzz/corpus/$t/"
		echo "fuzz_$t: corpus $(find "merged/$t" -type f | wc -l) inputs," \
		     "$(du -sk "merged/$t" | cut -f1) KiB, $(grep -o 'cov: [0-9]*' "merge_$t.log" |
		     tail -n 1) -> fuzz/corpus/$t/"
	fi
done
[ "$failed" = 0 ] && echo "fuzz: no crash" || echo "fuzz: a target failed, see $build/artifacts"
if [ -n "$stop" ]; then
	echo "fuzz: interrupted (SIG$stop)"
	[ "$stop" = INT ] && exit 130
	exit 143
fi
exit "$failed"
