#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_errors.sh - What every command that reads a trace (compare, replay, sweep, stat, convert)
# says about its input, the same way: the reader's report on standard error (a cut last line,
# skipped lines, lost events, unused events, synthesized entries, time stamps that went back),
# input without records, endless lines; and write errors on every output.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tap.sh"

T=$VPMC_TRACES
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-errors.XXXXXX")
trap 'rm -rf "$tmp" "$tap_out" "$tap_out.err"' EXIT
vmx=$T/public/12-vmx-nested-l1-cr0wp-triple-fault-newfmt-multivcpu.txt
late=$T/scenarios/replay-tolerance-late-pmi.vtr
# a slow run (valgrind) gets more time before an endless input counts as a hang
hang_s=10
[ -n "$VPMC_VALGRIND" ] && hang_s=300

# The commands, each with what it needs besides TRACE (convert: its output).
commands="compare
replay --policy exact
sweep --tolerance 10
stat
convert -o $tmp/out.vtr"

# each_command NAME EXIT TEXT [OPTIONS...] -- TRACE: check for every command, its standard input
# from $each_stdin (default /dev/null).
each_command() {
	local name=$1 rc=$2 text=$3 cmd
	shift 3
	echo "$commands" | {
		while read -r cmd; do
			# $cmd and the options split into words on purpose
			check "$name-${cmd%% *}" "$rc" "$text" timeout "$hang_s" $vpmcsim $cmd "$@" \
				<"${each_stdin:-/dev/null}"
		done
		echo "$tap_n $tap_failed" >"$tmp/counts"
	}
	read -r tap_n tap_failed <"$tmp/counts"
}

tap_plan 131

# ---- the reader's report, the same for every command ----------------------------------------
# The last line of truncated-tail.txt is "... kvm_entry" without payload or newline: a warning.
cut=$T/bad/truncated-tail.txt
each_command cut-last-line 0 \
	"vpmcsim: warning: $cut:5:42: last line cut short (no newline at the end), ignored" "$cut"
# File 47: lines 1, 2 and 4 are hand edits (see cli_convert.sh), each shown.
bad=$T/public/47-vmx-pmu-pmi-loop-hand-edited-symbolic-msr-NOT-PARSEABLE.txt
each_command lenient-count 0 "vpmcsim: $bad: 3 malformed lines skipped (--lenient)" \
	--lenient "$bad"
each_command lenient-first 0 \
	"vpmcsim: warning: $bad:4:21: kvm_msr: expected the MSR index in hex after 'msr_read'" \
	--lenient "$bad"
# LOST markers: 140 + 7 events in 2 markers
printf '%s\n' "CPU:2 [LOST 140 EVENTS]" \
	" qemu-1 [002]   1.000001: kvm_entry: vcpu 0, rip 0x1" \
	" qemu-1 [002]   1.000002: kvm_exit: vcpu 0 reason HLT rip 0x1 info 0 0" \
	"CPU:1 [7 EVENTS DROPPED]" \
	" qemu-1 [002]   1.000003: kvm_entry: vcpu 0, rip 0x2" >"$tmp/lost.txt"
each_command lost-events 0 "vpmcsim: $tmp/lost.txt: events lost: 147 (2 markers)" "$tmp/lost.txt"
# small-mixed-real (README of local-kvm): PVM, no kvm_entry; 81 userspace exits
pvm=$T/local-kvm/small-mixed-real.txt
each_command unused-events 0 "vpmcsim: $pvm: events not used: kvm_update_master_clock 2," "$pvm"
each_command synthesized 0 "vpmcsim: $pvm: 81 VM-entries synthesized" "$pvm"
# exit reasons in neither vendor's table: kept as written, counted (2 of the 3 exits)
printf '%s\n' '!vpmcsim-trace 1' '0 0 exit NOT_A_REASON' '1 0 entry' '2 0 exit HLT' '3 0 entry' \
	'4 0 exit 0x7b' '5 0 entry' >"$tmp/unnamed.vtr"
each_command unnamed-reasons 0 \
	"vpmcsim: $tmp/unnamed.vtr: 2 exits with a reason in neither the VMX nor the SVM exit-reason table (the first: 'NOT_A_REASON'), kept as written" \
	"$tmp/unnamed.vtr"

# ---- standard input is "<stdin>" in every message, as in the reader's own -------------------
each_stdin=$T/public/16-svm-platform-info-gp-df-shutdown-trace-cmd-unknown-comm.txt
each_command stdin-name 0 "vpmcsim: <stdin>: 11 records, 9 events" -
each_stdin=
check stdin-warning 0 "vpmcsim: warning: <stdin>: all 6 rows are identical" \
	sh -c "$vpmcsim compare - <'$T/public/16-svm-platform-info-gp-df-shutdown-trace-cmd-unknown-comm.txt'"
check stdin-header 0 "trace: <stdin>" \
	sh -c "$vpmcsim compare - <'$T/public/16-svm-platform-info-gp-df-shutdown-trace-cmd-unknown-comm.txt'"

# ---- getopt's messages name the program and the command -------------------------------------
for cmd in compare replay sweep stat convert latency calibrate nested conformance; do
	check "getopt-prefix-$cmd" 2 "vpmcsim $cmd: unrecognized option '--x'" $vpmcsim $cmd --x
done
check getopt-prefix-gen-workload 2 "vpmcsim gen timer-storm: unrecognized option '--x'" \
	$vpmcsim gen timer-storm --x
check getopt-prefix-top 2 "vpmcsim: unrecognized option '--x'" $vpmcsim --x
check getopt-prefix-argument 2 "vpmcsim compare: option '--assume' requires an argument" \
	$vpmcsim compare --assume

# ---- time stamps that go back on a vCPU (F13) -----------------------------------------------
# line 4: an entry 50 us before the CPUID exit of the same vCPU at line 3
printf '%s\n' " qemu-1 [000] 100.000100: kvm_exit: vcpu 0 reason CPUID rip 0x1 info 0 0" \
	" qemu-1 [000] 100.000200: kvm_entry: vcpu 0, rip 0x3" \
	" qemu-1 [000] 100.000300: kvm_exit: vcpu 0 reason CPUID rip 0x3 info 0 0" \
	" qemu-1 [000] 100.000250: kvm_entry: vcpu 0, rip 0x5" \
	" qemu-1 [000] 100.000500: kvm_exit: vcpu 0 reason HLT rip 0x5 info 0 0" \
	" qemu-1 [000] 100.000600: kvm_entry: vcpu 0, rip 0x6" >"$tmp/back.txt"
each_command time-back-count 0 \
	"vpmcsim: $tmp/back.txt: 1 time stamp went back on its vCPU, taken as the vCPU's previous time" \
	"$tmp/back.txt"
each_command time-back-where 0 \
	"vpmcsim: warning: $tmp/back.txt:4: time stamp 100.000250000 s is 0.000050000 s before vCPU 0's previous record; taken as 100.000300000 s" \
	"$tmp/back.txt"
# the entry taken at the exit's time: the CPUID exit of line 3 lasts 0 ns
check time-back-clamped 0 "100000300000 0 entry" $vpmcsim convert "$tmp/back.txt" -o -
# 50 s back: no clock skew, an error; --lenient takes it as the previous time
sed 's/100.000250/50.000000/' "$tmp/back.txt" >"$tmp/far.txt"
each_command time-back-far 1 \
	"vpmcsim: $tmp/far.txt:4: time stamp 50.000000000 s is 50.000300000 s before vCPU 0's previous record (100.000300000 s): more than 1 s back is no clock skew" \
	"$tmp/far.txt"
check time-back-far-lenient 0 "1 time stamp went back on its vCPU" \
	$vpmcsim compare --lenient "$tmp/far.txt"

# ---- input without records: an error (exit 1), as an empty file ------------------------------
printf 'garbage' >"$tmp/nonl.txt"
each_command no-records 1 "vpmcsim: $tmp/nonl.txt: no trace records (1 line, the last one cut short)" \
	"$tmp/nonl.txt"
# the first 7 bytes of a trace.dat: no magic, one line without newline
head -c 7 "$T/local-kvm/small-mixed-real.dat" >"$tmp/c7.dat"
check no-records-dat-head 1 "vpmcsim: $tmp/c7.dat: no trace records (1 line, the last one cut short)" \
	$vpmcsim compare "$tmp/c7.dat"
: >"$tmp/empty.txt"
check empty-compare 1 "vpmcsim: compare: $tmp/empty.txt: empty input (no trace)" \
	$vpmcsim compare "$tmp/empty.txt"
check empty-convert 1 "vpmcsim: $tmp/empty.txt: empty input (no trace)" \
	$vpmcsim convert "$tmp/empty.txt" -o "$tmp/x.vtr"

# ---- trace.dat: bad input exits 1 in every command, as a bad text trace (#19) ----------------
dat=$T/local-kvm/small-mixed-real.dat
if $vpmcsim stat "$dat" >/dev/null 2>&1; then
	# libtracecmd needs to seek: refused, but it is the input that is wrong, not the command
	each_stdin=$dat
	each_command dat-stdin 1 "<stdin>: trace.dat cannot be read from standard input (give its file name)" -
	each_stdin=
	# libtraceevent crashes on its event formats (in a child of the reader)
	each_command dat-corrupt 1 "crash-v7-event-format.dat: libtraceevent could not parse this trace.dat's event formats" \
		"$T/bad/crash-v7-event-format.dat"
	# libtracecmd crashes on it (a file with an OFFSET option goes to libtracecmd)
	each_command dat-corrupt-libtracecmd 1 "crash-v6-header-page-offset.dat: libtracecmd could not open this trace.dat" \
		"$T/bad/crash-v6-header-page-offset.dat"
	# CPU 0's records stop on page 30 of its 40 (fix-dat, F11): an error, or lenient a warning;
	# the report counts the pages either way
	each_command dat-unread 1 "cut-v7-chunk.dat: 10 ring-buffer pages unread (corrupt)" \
		"$T/bad/cut-v7-chunk.dat"
	each_command dat-unread-lenient 0 "cut-v7-chunk.dat: 10 ring-buffer pages unread (corrupt)" \
		--lenient "$T/bad/cut-v7-chunk.dat"
	# a chunk that inflates to garbage: its unreadable records are errors, or lenient skips
	check dat-bad-records 1 "v7-garbled-chunk.dat: cpu 0 ts " \
		$vpmcsim stat "$T/bad/v7-garbled-chunk.dat"
	check dat-bad-records-lenient 0 "v7-garbled-chunk.dat: 5 malformed records skipped (--lenient)" \
		$vpmcsim stat --lenient "$T/bad/v7-garbled-chunk.dat"
	# through a FIFO or a pipe: a trace.dat is read at offsets (a FIFO once hung here)
	mkfifo "$tmp/fifo"
	check dat-fifo 1 "fifo: a trace.dat must be a regular file (it is read at offsets), not a pipe or FIFO" \
		sh -c "cat '$dat' >'$tmp/fifo' 2>/dev/null & exec timeout $hang_s $vpmcsim stat '$tmp/fifo'"
	check dat-pipe 1 "/dev/stdin: a trace.dat must be a regular file" \
		sh -c "cat '$dat' 2>/dev/null | timeout $hang_s $vpmcsim stat /dev/stdin"
else
	for t in dat-stdin dat-corrupt dat-corrupt-libtracecmd dat-unread dat-unread-lenient; do
		for c in compare replay sweep stat convert; do
			tap_result 0 "$t-$c # SKIP no trace.dat support"
		done
	done
	for t in dat-bad-records dat-bad-records-lenient dat-fifo dat-pipe; do
		tap_result 0 "$t # SKIP no trace.dat support"
	done
fi

# ---- endless lines (F14): strict fails at once, --lenient skips at most 1 MiB ----------------
each_command endless-line 1 "vpmcsim: /dev/zero:1:1: NUL byte in the line (binary data?)" \
	/dev/zero
check endless-line-stdin 1 "vpmcsim: <stdin>:1:1: NUL byte in the line (binary data?)" \
	sh -c "exec timeout $hang_s $vpmcsim stat - </dev/zero"
check endless-line-text 1 "vpmcsim: /dev/zero:1:1: NUL byte in the line (binary data?)" \
	timeout "$hang_s" $vpmcsim compare --input-format text /dev/zero
# a trace.dat read as text (--input-format given): its magic, 0x17 0x08 0x44 "tracing" then the
# version "6" and a NUL (trace-cmd.dat(5)), names the likely mistake
printf '\027\010\104tracing6\000\001\010\000\000\000\n' >"$tmp/magic.dat"
hint="(is it a trace.dat? try --input-format dat or leave --input-format out)"
check dat-read-as-text 1 "magic.dat:1:12: NUL byte in the line (binary data?) $hint" \
	$vpmcsim stat --input-format text "$tmp/magic.dat"
check endless-line-lenient 1 "and no newline in its first 1 MiB: too much to skip, even with --lenient" \
	timeout "$hang_s" $vpmcsim stat --lenient /dev/zero
# 10 MB of NUL bytes: the same message as 100 (and not after reading all of it)
head -c 10000000 /dev/zero >"$tmp/nul10m"
check nul-long 1 "vpmcsim: $tmp/nul10m:1:1: NUL byte in the line (binary data?)" \
	$vpmcsim stat "$tmp/nul10m"
head -c 100 /dev/zero >"$tmp/nul100"
echo >>"$tmp/nul100"
check nul-short 1 "vpmcsim: $tmp/nul100:1:1: NUL byte in the line (binary data?)" \
	$vpmcsim stat "$tmp/nul100"

# ---- write errors (F15): every output, exit 1 ------------------------------------------------
full="write error on standard output: File too large"
check write-compare 1 "vpmcsim: $full" small_fs $vpmcsim compare "$late"
check write-compare-csv 1 "vpmcsim: $full" small_fs $vpmcsim compare --format csv "$late"
check write-compare-json 1 "vpmcsim: $full" small_fs $vpmcsim compare --format json "$late"
check write-replay 1 "vpmcsim: $full" small_fs $vpmcsim replay --policy exact "$late"
check write-sweep 1 "vpmcsim: $full" small_fs $vpmcsim sweep --tolerance 1,10 "$late"
check write-stat 1 "vpmcsim: $full" small_fs $vpmcsim stat "$vmx"
check write-convert-stdout 1 "vpmcsim: $full" small_fs $vpmcsim convert "$vmx" -o -
check write-help 1 "vpmcsim: $full" small_fs $vpmcsim compare --help
check write-convert-file 1 "vpmcsim: write error on $tmp/w.vtr: File too large" \
	small_fs $vpmcsim convert "$vmx" -o "$tmp/w.vtr"
if [ -e "$tmp/w.vtr" ]; then tap_result 1 write-convert-file-removed; else tap_result 0 write-convert-file-removed; fi
# the log fails first: the report is not printed after it
check write-log 1 "vpmcsim: write error on --log $tmp/log.jsonl: File too large" \
	small_fs $vpmcsim replay --policy exact --log "$tmp/log.jsonl" "$late"
if [ -e "$tmp/log.jsonl" ]; then tap_result 1 write-log-removed; else tap_result 0 write-log-removed; fi
tap_done
