#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_parallel.sh - Parallel replay (-j, issue 15): compare, sweep, replay, latency,
# calibrate and nested give the same bytes on stdout and stderr (and written files), and the
# same exit code, with -j 1 (one thread), -j 2, 3, 4 and 8 (nested: 2 and 8),
# on real traces with and without an overlay, a sweep of 32 tolerances, several vCPUs, and
# traces that fail in the engine (the error names the same place); -j is checked, and nested's
# threads are counted.
. "$(dirname "$0")/../tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-par.XXXXXX")
trap 'rm -rf "$tmp" "$tap_out" "$tap_out.err"' EXIT
tr=$VPMC_TRACES

# same_j JOBS NAME CMD...: CMD with -j 1 and with each -j of JOBS after its command word: the
# same stdout, stderr and exit code each time.
same_j() {
	local jobs=$1 name=$2 cmd=$3 j ok=0
	shift 3
	for j in 1 $jobs; do
		$vpmcsim "$cmd" -j "$j" "$@" >"$tmp/out.$j" 2>"$tmp/err.$j"
		echo $? >"$tmp/rc.$j"
	done
	for j in $jobs; do
		cmp -s "$tmp/out.1" "$tmp/out.$j" && cmp -s "$tmp/err.1" "$tmp/err.$j" &&
			cmp -s "$tmp/rc.1" "$tmp/rc.$j" || ok=1
	done
	tap_result $ok "$name"
	if [ $ok != 0 ]; then
		for j in $jobs; do
			diff "$tmp/out.1" "$tmp/out.$j" | head -5 | tap_quote
			diff "$tmp/err.1" "$tmp/err.$j" | head -5 | tap_quote
		done
	fi
}

# same NAME CMD...: as same_j with -j 2, 3, 4 and 8: lane 0 with policies and without, each
# engine's share of the lanes (share.c) cut in other places.
same() {
	same_j "2 3 4 8" "$@"
}

# 32 tolerances from 1 to 2^31
tols=
t=1
while [ $t -le 2147483648 ]; do
	tols="$tols --tolerance $t"
	t=$((t * 2))
done

multi=$tr/local-kvm/multi-vcpu-real.dat # 4 vCPUs, trace.dat
vmx12=$tr/public/12-vmx-nested-l1-cr0wp-triple-fault-newfmt-multivcpu.txt
gp0=gp0=instructions,period=10000

tap_plan 43
if [ -f "$multi" ] && $vpmcsim stat "$multi" >/dev/null 2>&1; then
	same compare-multi compare "$multi"
	same compare-multi-overlay compare --assume $gp0 "$multi"
	same compare-multi-json compare --format json --assume fixed0,period=10000 "$multi"
	# shellcheck disable=SC2086
	same sweep-multi-32 sweep $tols --assume $gp0 "$multi"
	# shellcheck disable=SC2086
	same sweep-multi-32-wrap-plot sweep --wrap $tols --plot "$tmp/p.svg" "$multi"
	# The ideal guest runs on an engine of its own and its samples go to the shares of the
	# policies with each block (parallel.c): 4 vCPUs over ten blocks, fixed0 overflowing every
	# 1000 instructions so that every policy has samples matched with the ideal guest's (checked
	# below: a share that lost them would match none), -j from 2 to more threads than policies
	# (one share each, the reading thread running shares too); and one policy (replay: two
	# threads at most).
	same_j "2 3 8" compare-multi-ideal-samples compare --format json --policy exact \
		--policy tolerance=100 --policy disabled=0xc0 --assume fixed0,period=1000 "$multi"
	[ "$(grep -c '"samples_matched": [1-9]' "$tmp/out.1")" = 3 ]
	tap_result $? "compare-multi-ideal-samples: every policy matched samples"
	same_j "2 8" replay-multi-ideal-samples replay --format json --policy tolerance=100 \
		--assume fixed0,period=1000 "$multi"
else
	for n in compare-multi compare-multi-overlay compare-multi-json sweep-multi-32 \
		 sweep-multi-32-wrap-plot compare-multi-ideal-samples \
		 "compare-multi-ideal-samples: every policy matched samples" \
		 replay-multi-ideal-samples; do
		tap_result 0 "$n # SKIP no trace.dat reader"
	done
fi
same compare-vmx12 compare "$vmx12"
same compare-vmx12-overlay compare --assume $gp0 --assume fixed0,period=5000 "$vmx12"
same compare-vmx12-two compare --policy exact --policy mediated --assume $gp0 "$vmx12"
same compare-scenario compare "$tr/scenarios/replay-overlay-tolerance-k-of-n.vtr"
same sweep-scenario sweep --format text $tols "$tr/scenarios/replay-tolerance-late-pmi.vtr"
# one policy: the ideal guest and the policy, on two threads at most
same replay-one replay --policy exact --assume $gp0 "$vmx12"

# An engine error on a later line than a read-ahead block starts: 5000 ordinary events, then a
# 2-bit GP0 counting instructions wraps 5000 times in the guest segment of line 5006 (more
# than the 4096 observations the engine keeps for one event), then 10000 more events that the
# reading thread may read ahead: every -j names line 5006.
{
	printf '%s\n' '!vpmcsim-trace 1' \
		'!pmu vendor=intel version=2 gp=8 fixed=3 gp_width=2 fixed_width=48'
	i=0
	while [ $i -lt 5000 ]; do
		echo "$i 0 guest insn=1"
		i=$((i + 1))
	done
	printf '%s\n' '5000 0 wrmsr 0x186 0x4300c0' '5000 0 retire' '5010 0 entry' \
		'5100 0 guest insn=20000' '5100 0 exit HLT' '5200 0 entry'
	while [ $i -lt 15000 ]; do # read ahead while the workers fail
		echo "$((i + 300)) 0 guest insn=1"
		i=$((i + 1))
	done
} >"$tmp/wrap.vtr"
# (the reader's counts before the message cover what it read ahead: not compared)
for j in 1 2 4; do
	check engine-error-line-j$j 1 "vpmcsim: $tmp/wrap.vtr:5006: guest segment of 20000 instructions at 5100 ns on vCPU 0: more than 4096 reference overflows" \
		$vpmcsim compare -j $j "$tmp/wrap.vtr"
done

check j-zero 2 "compare: -j '0': expected a number of threads from 1 to 1024" \
	$vpmcsim compare -j 0 "$vmx12"

# latency: each thread measures the windows of its own policies (the windows' bounds come from
# the trace alone); 8 vCPUs of a timer storm, every output format, both ends and gaps, an
# overlay, the samples calibrate keeps (its fit and the profile it writes)
$vpmcsim gen timer-storm --seconds 2 -o "$tmp/ts.vtr"
same latency-ts latency "$tmp/ts.vtr"
same latency-ts-per-vcpu-json latency --per-vcpu --format json "$tmp/ts.vtr"
same latency-ts-csv-eoi-model latency --format csv --end eoi --gaps model "$tmp/ts.vtr"
same latency-ts-overlay-three latency --assume $gp0 --policy exact --policy mediated \
	--policy tolerance=100 --baseline mediated --cost-profile rfc-milan "$tmp/ts.vtr"
same latency-ts-seven latency --policy exact --policy disabled=0x12 --policy tolerance=1 \
	--policy tolerance=100 --policy tolerance-wrap=100 --policy mediated \
	--policy reference "$tmp/ts.vtr"
same latency-vmx12 latency "$vmx12"
same latency-multi-overlay latency --assume $gp0 "$tr/local-kvm/multi-vcpu-real.txt"
ok=0
for j in 1 2 4; do # the profile's name is its file's: the same name in three folders
	mkdir -p "$tmp/cal$j"
	$vpmcsim calibrate -j $j "$tmp/ts.vtr" --target exact:mean=209.8 \
		--target exact:p50=256.4 --target disabled=0x12:mean=3.16 -o "$tmp/cal$j/fit.cost" \
		2>&1 | sed "s|$tmp/cal$j/||" >"$tmp/cal$j/out" || ok=1
done
for j in 2 4; do
	cmp -s "$tmp/cal1/fit.cost" "$tmp/cal$j/fit.cost" && cmp -s "$tmp/cal1/out" "$tmp/cal$j/out" ||
		ok=1
done
[ -s "$tmp/cal1/fit.cost" ] || ok=1
tap_result $ok "calibrate: the same fit and profile"
check latency-engine-error-j2 1 "vpmcsim: $tmp/wrap.vtr:5006: guest segment of 20000" \
	$vpmcsim latency -j 2 "$tmp/wrap.vtr"

# ---- nested (pipe.c): the reading thread fills blocks of 4096 events, one classifier thread
# takes them in order; stdout, stderr, exit code and the --log file as at -j 1.
# nested_same ARGS...: nested -j 1, 2 and 8 with --log ARGS; status 0 if all alike, else the
# differences quoted.
nested_same() {
	local j ok=0
	for j in 1 2 8; do
		$vpmcsim nested -j $j --log "$tmp/nlog.$j" "$@" >"$tmp/out.$j" 2>"$tmp/err.$j"
		echo $? >"$tmp/rc.$j"
	done
	for j in 2 8; do
		cmp -s "$tmp/out.1" "$tmp/out.$j" && cmp -s "$tmp/err.1" "$tmp/err.$j" &&
			cmp -s "$tmp/rc.1" "$tmp/rc.$j" && cmp -s "$tmp/nlog.1" "$tmp/nlog.$j" && continue
		ok=1
		echo "# $*: -j $j"
		for f in out err nlog; do
			diff "$tmp/$f.1" "$tmp/$f.$j" | head -5 | tap_quote
		done
	done
	return $ok
}

# same_nested NAME ARGS...: one test of nested_same.
same_nested() {
	local name=$1
	shift
	nested_same "$@"
	tap_result $? "$name"
}

# 4 vCPUs interleaved in ftrace text (the importer orders the CPUs), four L2 exit kinds and
# L0-handled exits: 4 x 1500 round trips, about 70000 events, 17 blocks
$vpmcsim gen nested-pingpong --vcpus 4 --iterations 1500 --l2-exit cpuid --l2-exit msr-read \
	--l2-exit io-out --l2-exit ext-intr --l0-handled-every 3 --trace-format ftrace \
	-o "$tmp/pp4.txt"
same_nested nested-pp4-ftrace "$tmp/pp4.txt"
[ "$(wc -l <"$tmp/nlog.1")" -ge 6000 ]
tap_result $? "nested-pp4-ftrace: a log line per round trip (at least 4 x 1500)"
$vpmcsim gen nested-pingpong --isa vmx --vcpus 2 --iterations 3000 --l2-exit cpuid \
	--l2-exit msr-write -o "$tmp/vmx2.vtr"
same_nested nested-vmx2-vtr-json --format json "$tmp/vmx2.vtr"
ok=0
for f in "$tr"/public/*-nested-*; do # every real nested excerpt
	nested_same "$f" || ok=1
done
tap_result $ok "nested-public: every nested excerpt in traces/public"
if [ -f "$multi" ] && $vpmcsim stat "$multi" >/dev/null 2>&1; then
	same_nested nested-multi-dat "$multi"
else
	tap_result 0 "nested-multi-dat # SKIP no trace.dat reader"
fi

# A warning's place is where the reader was when it returned the event, not where it is now:
# 2 vCPUs, an nintercepts put after the entry into L1 that follows the 700th ninject (L1 runs:
# nowhere to place it), some 5600 lines in and 10000 before the end; every -j names its line.
$vpmcsim gen nested-pingpong --vcpus 2 --iterations 1000 -o "$tmp/w.vtr"
awk -v at="$tmp/w2.line" '/^!end events=/ { $2 = "events=" substr($2, 8) + 1 } { print }
	/ ninject / { k = ++n } k == 700 && / entry$/ {
	print $1, $2, "nintercepts 0xfd44bfeb 0x217f 0x0"; print NR + 1 >at; k = 0 }' \
	"$tmp/w.vtr" >"$tmp/w2.vtr"
line=$(cat "$tmp/w2.line")
same_nested nested-unplaced-late "$tmp/w2.vtr"
grep -qF "vpmcsim: warning: $tmp/w2.vtr:$line: vCPU " "$tmp/err.2"
tap_result $? "nested-unplaced-late: -j 2 names line $line"

# An engine error after a read-ahead block starts: --isa svm, and the 700th of 2000 vmcb: labels
# made a vmcs: label, some 5600 lines in and 10000 lines before the end: every -j stops there,
# names that line and writes no log (the reader's counts cover what it read ahead: not compared)
$vpmcsim gen nested-pingpong --iterations 2000 --trace-format ftrace -o "$tmp/e.txt"
awk '/vmcb:/ && ++n == 700 { sub("vmcb:", "vmcs:") } { print }' "$tmp/e.txt" >"$tmp/e2.txt"
line=$(grep -n 'vmcs:' "$tmp/e2.txt" | cut -d: -f1)
ok=0
for j in 1 2 8; do
	check nested-engine-error-line-j$j 2 \
		"vpmcsim: $tmp/e2.txt:$line: a 'vmcs:' label (isa vmx) contradicts --isa svm" \
		$vpmcsim nested -j $j --isa svm --log "$tmp/elog$j" "$tmp/e2.txt"
	[ ! -e "$tmp/elog$j" ] || ok=1
done
tap_result $ok "nested-engine-error: no log file at any -j"

check nested-j-zero 2 "nested: -j '0': expected a number of threads from 1 to 1024" \
	$vpmcsim nested -j 0 "$vmx12"

# -j takes effect: nested reads a FIFO that stays open after the first 40 lines, and its
# threads are counted while it waits (Linux /proc): 1 at -j 1, 2 at -j 2 and at -j 8 (two at
# most: one reads, one classifies), and 2 without -j on two or more CPUs.
# nested_threads J: the threads of "nested -j J" (J empty: no -j) once it waits for input.
nested_threads() {
	local fifo=$tmp/fifo$1 pid n=0 i=0
	mkfifo "$fifo"
	$vpmcsim nested ${1:+-j $1} "$fifo" >/dev/null 2>&1 &
	pid=$!
	exec 3>"$fifo"
	head -40 "$tmp/pp4.txt" >&3
	# the threads start before the first event is read: wait for 2 for up to 20 s; at -j 1
	# for 1 s (a second thread, if any, would have come by then)
	while [ $i -lt "$([ "$1" = 1 ] && echo 10 || echo 200)" ]; do
		n=$(ls "/proc/$pid/task" 2>/dev/null | wc -l)
		[ "$n" -ge 2 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.2 # and no third comes
	n=$(ls "/proc/$pid/task" 2>/dev/null | wc -l)
	exec 3>&-
	wait $pid
	rm -f "$fifo"
	echo "$n"
}
if [ -d /proc/self/task ] && [ -z "${VPMC_VALGRIND:-}" ]; then
	for j in 1 2 8; do
		n=$(nested_threads $j)
		want=$([ $j = 1 ] && echo 1 || echo 2)
		[ "$n" = "$want" ]
		tap_result $? "nested-threads-j$j: $want thread(s) ($n)"
	done
	cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
	n=$(nested_threads "")
	want=$([ "$cpus" -ge 2 ] && echo 2 || echo 1)
	[ "$n" = "$want" ]
	tap_result $? "nested-threads-default: $want thread(s) on $cpus CPUs ($n)"
else
	for n in j1 j2 j8 default; do
		tap_result 0 "nested-threads-$n # SKIP no /proc/PID/task, or under valgrind"
	done
fi
tap_done
