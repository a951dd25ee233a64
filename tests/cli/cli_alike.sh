#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_alike.sh - Sweep lanes that behave alike (lib/replay/alike.h, issue 15): tolerance lanes
# of one engine share a leader's work while its comparisons with T give their answers too, and
# leave when not. Each T's CSV row of a shared sweep, at -j 1 and -j 2, is the row of a sweep of
# that T alone (3 lanes, one engine, nothing shared: an independent oracle), on traces whose
# tolerances part only in the second block of 4096 events; and the rows of one trace are
# worked out by hand from KVM's semantics.
. "$(dirname "$0")/../tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-alike.XXXXXX")
trap 'rm -rf "$tmp" "$tap_out" "$tap_out.err"' EXIT

tols="16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576"

# late.vtr: gp0 counts instructions from 2^48 - 100 (the overlay's period 100). The overlay
# programs it at vCPU 0's first event (overlay.c): four guest WRMSRs, each an exit, the access,
# its retire and an entry; only the last retire, after GLOBAL_CTRL enables gp0, counts (the
# GLOBAL_CTRL write requested the reprogram, whose drain at its entry folds it): 2^48 - 99,
# one comparison of emulated_counter = 1 with T. Then 2100 exits and entries count nothing
# (4201 events: past the first block of 4096). Then a CPUID exit with 150 emulated retires
# before its entry: emulated_counter reaches 150 and is drained only at that entry, when T <
# 150 made kvm_pmu_incr_counter() request the reprogram (at retire T + 1).
# - T = 16 .. 128: the drain at the entry folds 150 events, the counter wraps (at retire 99,
#   where the reference overflows), KVM_REQ_PMI delivers the PMI at the same entry: matched,
#   late by the 51 events the reference counted after its overflow (retires 100 .. 150).
# - T >= 256: nothing requests a reprogram; the overflow is never seen: missed, at the end.
{
	printf '%s\n' '!vpmcsim-trace 1' '!pmu vendor=intel'
	i=0
	while [ $i -lt 2100 ]; do
		echo "$((i * 100)) 0 exit EPT_VIOLATION"
		echo "$((i * 100 + 50)) 0 entry"
		i=$((i + 1))
	done
	echo "300000 0 exit CPUID"
	i=0
	while [ $i -lt 150 ]; do
		echo "$((300001 + i)) 0 retire"
		i=$((i + 1))
	done
	echo "300200 0 entry"
} >"$tmp/late.vtr"
# early.vtr: the same without the 2100 exits: the tolerances part in the first block, which
# decides the engines' units of lanes (parallel.c, probe_units()): each retire compares 1 .. 150
# with T, so lane 0, exact, T = 16, 32, 64 and 128 alone and T >= 256 together (late.vtr: lane
# 0, exact, all T); -j 1 runs them on one engine, -j 4 cuts the run between its groups.
grep -v EPT_VIOLATION "$tmp/late.vtr" | grep -v '^[0-9]*50 0 entry$' >"$tmp/early.vtr"

# two.vtr: vCPU 0 runs 1400 rounds of a guest segment, an EPT exit and an entry (4200 events,
# past the first block); then vCPUs 0 and 1 (whose first event is in the second block) take
# CPUID exits with 1 to 60 emulated retires each, the guest's handler running on the PMIs.
{
	printf '%s\n' '!vpmcsim-trace 1' '!pmu vendor=intel'
	t=0 i=0
	while [ $i -lt 1400 ]; do
		echo "$((t + 100)) 0 guest insn=5"
		echo "$((t + 110)) 0 exit EPT_VIOLATION"
		echo "$((t + 120)) 0 entry"
		t=$((t + 120)) i=$((i + 1))
	done
	k=1
	while [ $k -le 60 ]; do
		for v in 0 1; do
			echo "$((t + 100)) $v guest insn=5"
			echo "$((t + 110)) $v exit CPUID"
			t=$((t + 110)) i=0
			while [ $i -lt $((k + v)) ]; do
				t=$((t + 1)) i=$((i + 1))
				echo "$t $v retire"
			done
			echo "$((t + 10)) $v entry"
			t=$((t + 10))
		done
		k=$((k + 1))
	done
} >"$tmp/two.vtr"

# alone_rows TRACE ASSUME: each T's row of a sweep of that T alone, in the order of $tols.
alone_rows() {
	local t
	for t in $(echo "$tols" | tr , ' '); do
		$vpmcsim sweep -j 1 --tolerance "$t" --assume "$2" "$1" | grep "^tolerance=$t,"
	done
}

# same_rows NAME TRACE ASSUME: the shared sweep's rows at -j 1 and -j 2 are the rows alone.
same_rows() {
	local j ok=0
	alone_rows "$2" "$3" >"$tmp/want"
	for j in 1 2 3; do
		$vpmcsim sweep -j $j --tolerance "$tols" --assume "$3" "$2" >"$tmp/got.$j" || ok=1
		grep '^tolerance=' "$tmp/got.$j" >"$tmp/rows.$j"
		if ! cmp -s "$tmp/want" "$tmp/rows.$j"; then
			ok=1
			diff "$tmp/want" "$tmp/rows.$j" | head -6 | tap_quote
		fi
	done
	tap_result $ok "$1"
}

tap_plan 5
same_rows late-rows-alone "$tmp/late.vtr" gp0=instructions,period=100
same_rows two-vcpus-rows-alone "$tmp/two.vtr" gp0=instructions,period=100
same_rows two-vcpus-fixed0-rows-alone "$tmp/two.vtr" fixed0,period=50

# The hand-worked rows of late.vtr and early.vtr (columns lane_ref_matched, lane_ref_missed and
# lane_ref_lateness_events_p99, found by name; empty without a match), at -j 1 to 4.
{
	for t in $(echo "$tols" | tr , ' '); do
		if [ "$t" -le 128 ]; then echo "$t 1 0 51"; else echo "$t 0 1 "; fi
	done
} >"$tmp/hand.want"
# hand_rows NAME TRACE
hand_rows() {
	local j ok=0
	for j in 1 2 3 4; do
		$vpmcsim sweep -j $j --tolerance "$tols" --assume gp0=instructions,period=100 \
			"$2" | awk -F, '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			/^tolerance=/ { print $2, $c["lane_ref_matched"], $c["lane_ref_missed"],
					$c["lane_ref_lateness_events_p99"] }' >"$tmp/hand.$j"
		cmp -s "$tmp/hand.want" "$tmp/hand.$j" || {
			ok=1
			diff "$tmp/hand.want" "$tmp/hand.$j" | tap_quote
		}
	done
	tap_result $ok "$1"
}
hand_rows late-rows-by-hand "$tmp/late.vtr"
hand_rows early-rows-by-hand "$tmp/early.vtr"
