#!/bin/sh
# cli_replay.sh - vpmcsim compare, replay, sweep and stat: golden outputs on real traces and
# hand-written scenarios, agreement with grep, determinism, and bad command lines.
#
# Every golden file was reviewed; the key numbers and why they are right:
#
# golden/compare-12-vmx-gp0.txt: traces/public/12-vmx-... (the largest VMX excerpt; 2 vCPUs,
#   12 kvm_entry, 13 kvm_exit; guest segments at the default 1e9 instructions/s, 1 per ns:
#   vCPU 0 runs 13000 + 6000 instructions, vCPU 1 20000, 10000, 8000, 7000, 16000, 12000,
#   11000, 51000, 19000; vCPU 1's exits CR_ACCESS x3, CPUID, MSR_READ, MSR_WRITE x2 retire one
#   instruction), --assume gp0=instructions,period=10000. The guest's PMI handler runs at the
#   instruction where the PMI came, and the segment goes on after it (vpmcsim(1), OVERLAY).
#   - exact: the counter starts at -10000, +1 for the enabling GLOBAL_CTRL write: 9999 events
#     to go. At each overflow RDPMC reads 0 (the perf event runs out at the reference's
#     instruction), so x86_perf_event_set_period() writes -10000 and the handler's GLOBAL_CTRL
#     and LVTPC writes count 2: 9998 to go. vCPU 0: 9999 < 13000: 1 overflow, 6997 left after
#     the 6000. vCPU 1 (to go before each segment after its exit's retire: overflows in it):
#     9998 (20000: at 9998 and 19996: 2), 9993 (10000: 1), 9990 (8000: 0), 1989 (7000: 1),
#     4986 (16000: at 4986 and 14984: 2), 8981 (12000: 1), 6979 (11000: 1), 5976 (51000: at
#     5976 and 4 x 9998 more: 5), 4966 (19000: 2): 15. ref ovf 16, all matched with lateness 0
#     (the host PMI's implicit exit delivers at the overflowing instruction). Before segments
#     were split at PMIs, the handler ran at the segment's end: 9, at most 1 per segment.
#   - reads 16, status reads 32: one RDPMC and two GLOBAL_STATUS reads per handler run.
#   - exits 165: 12 entries + 1 (the trace ends in the TRIPLE_FAULT exit) + 8 programming
#     accesses (4 per vCPU) + 16 x 8 handler accesses + 16 implicit exits.
#   - exact drains 77 = 2 x 3 programming (GLOBAL_CTRL = 0: 8 counters, EVNTSEL0: 1,
#     GLOBAL_CTRL = all: 11, the perf event created) + 16 x 4 (the implicit exit: 1 counter
#     resumed; GLOBAL_CTRL = 0: 11, GP0 paused; GLOBAL_CTRL = all: 11, resumed; the LVTPC
#     write's retire: 1, resumed) + 7 (the retiring exits of vCPU 1: 1, resumed); reprograms
#     2 x 20 + 16 x 24 + 7 = 431; resumes 16 x 3 + 7 = 55; creates 2; triggers 41 = 2 enabling
#     writes + 2 x 16 handler writes + 7 retiring exits. Drain % 77 / 165 = 46.67; host us
#     55 x 2.4 + 2 x 5.2 + 41 x 200 / 2.5 / 1000 = 145.68, per exit 0.883; p99 and max 5.28
#     (a create and a trigger in one exit).
#   - disabled=0x12: no retire counts (0 triggers): the policy's counter is -10000 after the
#     programming and after each handler, while its reference counts the handler's 2 writes and
#     the trace's retires. vCPU 0: 1 overflow, 1 event late (10000 vs 9999). vCPU 1, policy
#     to go / lateness of each overflow: 10000 (20000: at 10000, 20000; late 2, 2), 10000
#     (10000: at 10000; 3), 2000 (8000: 0), 2000 (7000: at 2000; 4), 5000 (16000: at 5000,
#     15000; 3, 2), 9000 (12000: 3), 7000 (11000: 2), 6000 (51000: 5; 3, 2, 2, 2, 2), 5000
#     (19000: 2; 2, 2): 15, so 16 in all. Lateness 1 x1, 2 x10, 3 x4, 4 x1: p50 2, p99 and
#     max 4, in ns the same (1 instruction per ns). Every RDPMC reads 0 under the policy and
#     the lateness under the reference: mean |error| 37 / 16 = 2.31, max 4. Drains 6 + 16 x 3
#     (no drain for a retire) = 54, reprograms 40 + 16 x 23 = 408, resumes 32, host us 32 x
#     2.4 + 2 x 5.2 = 87.2 (0.528 per exit), drain % 54 / 165 = 32.73.
#   - tolerance=100 (=10000 alike: never more than 3 events pending): the GLOBAL_CTRL = all
#     write's drain folds its retire, the LVTPC write's retire stays pending, so the perf
#     event runs out one event after the reference (more after a retiring exit); the drain at
#     that hardware overflow folds the pending events and RDPMC reads the lateness k, so
#     x86_perf_event_set_period() writes -(10000 - k) (period_left absorbs the overshoot).
#     vCPU 0: late 0. vCPU 1, lateness per overflow: 1, 1 (20000), 2 (10000), 3 (7000: the
#     CPUID and MSR_READ retires pending), 2, 1 (16000), 2 (12000), 1 (11000), 2, 1, 1, 1, 1
#     (51000), 1, 1 (19000): 16 overflows, lateness 0 x1, 1 x10, 2 x4, 3 x1: p50 1, p99 and
#     max 3. Reads exact (pmc_read_counter() includes emulated_counter). Drains 6 + 16 x 3 =
#     54, resumes 32, triggers 41 (the same retires as exact reach kvm_pmu_trigger_event()),
#     host us 76.8 + 10.4 + 3.28 = 90.48 (0.548 per exit).
#   - mediated: the counter counts directly, overflows and PMIs as exact; no perf event, so no
#     drain at the implicit exit nor for a retire: drains 6 + 16 x 2 = 38 (23.03 %),
#     reprograms 40 + 16 x 22 = 392, host us = the 41 triggers x 0.08 = 3.28 (0.020 per exit).
# golden/compare-small-mixed-real-fixed0.csv: traces/local-kvm/small-mixed-real.dat (PVM: every
#   guest instruction is emulated, 1561 retires, 81 synthesized entries, no guest segments; the
#   guest programs GP0 itself: 20 x WRMSR PMC0 = 0, 18 retires, RDMSR PMC0),
#   --assume fixed0,period=100:
#   - disabled=0x12: 20 reads, each exactly 18 short (nothing is counted in hardware here);
#     no PMI at all, so its reference overflows once (at 100 events) and that one is missed.
#   - exact: 1592 triggers = 1561 retires + 1 enabling write + 2 x 15 handler writes; the
#     handler re-arms every 100 counted events, so ref ovf = floor(1592 / 100) = 15; 35 reads
#     (20 + one RDPMC per PMI), 30 status reads.
#   - exits: 81 entries + 1 (ends inside an exit) + 5 programming accesses = 87 (disabled,
#     tolerance=10000: no PMI delivered), + 8 per handler run: exact 207, tolerance=100 167.
# golden/stat-12-vmx.txt: samples per reason equal grep's count of "reason X" (checked below);
#   the TRIPLE_FAULT exit has no entry after it and is not a sample.
# golden/sweep-late-pmi.csv: traces/scenarios/replay-tolerance-late-pmi.vtr (header comment):
#   T=0 is exact (21 drains, lateness 0 events, 5 ns); T=10 requests the reprogram at the 11th
#   pending retire, the drain at 205 sees the wrap: 2 events (retires 10, 11), 25 ns, 2 drains;
#   T=100: 20 events, 124 ns, 22 exits with the implicit one.
# overlay-segment-*: traces/scenarios/replay-overlay-segment.vtr (header comment: a PMI every
#   98 instructions inside one guest segment, the handler at each); without --assume that trace
#   has no PMU traffic at all: 2 exits, nothing else.
. "${top_srcdir:-$(dirname "$0")/..}/tests/tap.sh"

golden=$(cd "$(dirname "$0")" && pwd)/golden
traces=$VPMC_TRACES
vmx=$traces/public/12-vmx-nested-l1-cr0wp-triple-fault-newfmt-multivcpu.txt
pvm=$traces/local-kvm/small-mixed-real.dat
late=$traces/scenarios/replay-tolerance-late-pmi.vtr
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-cli.XXXXXX")
trap 'rm -rf "$tmp" "$tap_out" "$tap_out.err"' EXIT

# golden NAME FILE CMD...: CMD exits 0 and prints exactly FILE
golden() {
	local name=$1 want=$2
	shift 2
	# the report names the trace as given: print it as relative to the source tree
	if "$@" >"$tmp/raw" 2>"$tmp/err" && sed "s|^trace: $traces/|trace: traces/|" "$tmp/raw" \
		>"$tmp/out" && cmp -s "$want" "$tmp/out"; then
		tap_result 0 "$name"
	else
		tap_result 1 "$name"
		tap_quote "$tmp/err"
		diff "$want" "$tmp/out" | head -20 | tap_quote
	fi
}

# has_dat: this build reads trace.dat
has_dat() { $vpmcsim stat "$pvm" >/dev/null 2>&1; }

tap_plan 32

golden compare-vmx-overlay "$golden/compare-12-vmx-gp0.txt" \
	$vpmcsim compare --assume gp0=instructions,period=10000 "$vmx"
if has_dat; then
	golden compare-pvm-dat-overlay-csv "$golden/compare-small-mixed-real-fixed0.csv" \
		$vpmcsim compare --assume fixed0,period=100 --format csv "$pvm"
else
	echo "ok $((tap_n += 1)) - compare-pvm-dat-overlay-csv # SKIP no trace.dat support"
fi
golden stat-vmx "$golden/stat-12-vmx.txt" $vpmcsim stat "$vmx"
golden sweep-late-pmi "$golden/sweep-late-pmi.csv" $vpmcsim sweep --tolerance 0,10,100 "$late"

# stat agrees with grep: samples per exit reason
$vpmcsim stat --format csv "$vmx" >"$tmp/stat.csv" 2>&1
bad=0
for r in EXTERNAL_INTERRUPT CR_ACCESS MSR_WRITE MSR_READ CPUID LDTR_TR; do
	want=$(grep -c "kvm_exit: .*reason $r " "$vmx")
	got=$(awk -F, -v r="$r" '$1 == r { print $2 }' "$tmp/stat.csv")
	[ "$want" = "$got" ] || { echo "# $r: grep $want, stat $got"; bad=1; }
done
tap_result $bad stat-samples-equal-grep-counts
check stat-triple-fault-has-no-entry 0 '"exits_without_entry": 1' \
	$vpmcsim stat --format json "$vmx"
# vCPU 0 exits 3 times (EXTERNAL_INTERRUPT), each followed by its entry
check stat-vcpu-filter 0 "Total Samples:3," $vpmcsim stat --vcpu 0 "$vmx"
check stat-time-filter 0 "Total Samples:0," $vpmcsim stat --time 1405, "$vmx"

# the scenarios through the CLI: values from their header comments
check replay-disabled-error 0 "disabled=0x2,all,all,1,1,3.00,3,-3.00" \
	$vpmcsim replay --policy disabled=0x2 --format csv "$traces/scenarios/replay-disabled-read-error.vtr"
check replay-missed 0 '"overflows_missed": 1' \
	$vpmcsim replay --policy tolerance=100 --format json "$traces/scenarios/replay-tolerance-missed-pmi.vtr"
$vpmcsim replay --policy tolerance=100 --log "$tmp/log" "$late" >/dev/null 2>&1
check log-match-line 0 '{"kind":"match","t":304,"vcpu":0,"policy":"tolerance=100","counter":0,"overflow_t":180,"lateness_events":20,"lateness_ns":124}' \
	cat "$tmp/log"
check log-reference-overflow 0 '{"kind":"overflow","t":180,"vcpu":0,"policy":"reference","counter":0,"source":"emulated"}' \
	cat "$tmp/log"
check log-drain 0 '{"kind":"drain","t":10,"vcpu":0,"policy":"tolerance=100","counters":1,"resumed":0,"created":1}' \
	cat "$tmp/log"
$vpmcsim replay --policy disabled=0x2 --log "$tmp/log2" "$traces/scenarios/replay-disabled-read-error.vtr" >/dev/null 2>&1
check log-read-with-reference 0 '{"kind":"read","t":400,"vcpu":0,"policy":"disabled=0x2","insn":"rdpmc","index":0,"counter":0,"value":100,"reference":103}' \
	cat "$tmp/log2"
check replay-json-detail 0 '"name": "gp0"' \
	$vpmcsim replay --policy exact --format json "$traces/scenarios/replay-disabled-read-error.vtr"

# --assume: the guest's PMI handler inside a guest segment, at each PMI
seg=$traces/scenarios/replay-overlay-segment.vtr
check overlay-segment-10-pmis 0 "exact,10,0,0.00,0,0.00,20,0,10,10,0,10,0,0,0,0,0,0,0,0,96,10,44.79,43,260,30,1,21," \
	$vpmcsim compare --policy exact --format csv --assume gp0=instructions,period=100 "$seg"
$vpmcsim replay --policy exact --assume gp0=instructions,period=100 --log "$tmp/seglog" "$seg" >/dev/null 2>&1
check overlay-segment-last-handler-read 0 '{"kind":"read","t":1981,"vcpu":0,"policy":"exact","insn":"rdpmc","index":0,"counter":0,"value":0,"reference":0}' \
	cat "$tmp/seglog"
check overlay-segment-without-assume 0 "exact,0,0,0.00,0,0.00,0,0,0,0,0,0,0,0,,,,,,,2,0,0.00,0,0,0,0,0," \
	$vpmcsim compare --policy exact --format csv "$seg"

# the same input gives byte-identical output
$vpmcsim compare --assume gp0=instructions,period=10000 --format json "$vmx" >"$tmp/a" 2>&1
$vpmcsim compare --assume gp0=instructions,period=10000 --format json "$vmx" >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b"
tap_result $? compare-json-byte-identical
check json-field-names-with-units 0 '"lateness_ns_p99": 0,' cat "$tmp/a"

if command -v gnuplot >/dev/null 2>&1; then
	$vpmcsim sweep --tolerance 1,10,100 --plot "$tmp/sweep.svg" "$late" >/dev/null 2>&1
	grep -q "<svg" "$tmp/sweep.svg" 2>/dev/null
	tap_result $? sweep-plot-svg
else
	echo "ok $((tap_n += 1)) - sweep-plot-svg # SKIP gnuplot not installed"
fi

# bad command lines: a clear message, exit 2
check bad-policy 2 "vpmcsim: compare: --policy 'lazy': expected exact, disabled=MASK" \
	$vpmcsim compare --policy lazy "$late"
check bad-mask 2 "vpmcsim: compare: --policy 'disabled=0xzz': VALUE must be a u64" \
	$vpmcsim compare --policy disabled=0xzz "$late"
check missing-file 2 "vpmcsim: compare: " $vpmcsim compare "$traces/no-such-trace.vtr"
check unreadable-trace 2 "vpmcsim: compare: " $vpmcsim compare "$traces/scenarios"
check bad-assume 2 "vpmcsim: compare: --assume 'gp0': gpN needs =EVENT" \
	$vpmcsim compare --assume gp0 "$late"
check assume-missing-counter 2 "vpmcsim: compare: --assume gp9=branches,period=100000: the Intel PMU has 8 GP counters" \
	$vpmcsim compare --assume gp9=branches "$late"
check bad-cost 2 "vpmcsim: compare: --cost 'resume=1': expected NAME=VALUE" \
	$vpmcsim compare --cost resume=1 "$late"
check bad-format 2 "vpmcsim: compare: --format 'xml': expected text, csv or json" \
	$vpmcsim compare --format xml "$late"
check replay-needs-one-policy 2 "vpmcsim: replay: give exactly one --policy" \
	$vpmcsim replay "$late"
check sweep-needs-tolerance 2 "vpmcsim: sweep: --tolerance LIST is required" \
	$vpmcsim sweep "$late"
check stat-bad-vcpu 2 "vpmcsim: stat: --vcpu 'x': expected vCPU indices" \
	$vpmcsim stat --vcpu x "$vmx"
tap_done
