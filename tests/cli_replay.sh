#!/bin/sh
# cli_replay.sh - vpmcsim compare, replay, sweep and stat: golden outputs on real traces and
# hand-written scenarios, agreement with grep, determinism, and bad command lines.
#
# Every golden file was reviewed; the key numbers and why they are right:
#
# golden/compare-12-vmx-gp0.txt: traces/public/12-vmx-... (the largest VMX excerpt; 2 vCPUs,
#   12 kvm_entry, 13 kvm_exit; guest segments at the default 1e9 instructions/s: vCPU 0 runs
#   13000 + 6000 instructions, vCPU 1 20000, 10000, 8000, 7000, 16000, 12000, 11000, 51000,
#   19000), --assume gp0=instructions,period=10000:
#   - ref ovf 9: the counter starts at -10000, +1 for the enabling GLOBAL_CTRL write; after each
#     PMI the handler re-arms it at -(10000 - events past the overflow) (x86_perf_event_set_period)
#     and its own GLOBAL_CTRL and LVTPC writes count 2. vCPU 0 crosses 0 once (in its 13000
#     segment); vCPU 1, with its 7 retiring exits (CR_ACCESS x3, CPUID, MSR_READ, MSR_WRITE x2),
#     crosses 0 in the segments of 20000, 10000, 7000, 16000, 12000, 11000, 51000 and 19000: 8.
#   - exact: all 9 matched with lateness 0 events and 0 ns: every overflow is a hardware one in a
#     guest segment, where the perf event (re-armed by each drain) overflows at the same
#     instruction as the reference, and the host PMI's implicit exit delivers it there.
#   - reads 9, status reads 18: one RDPMC and two GLOBAL_STATUS reads per handler run.
#   - host reads 0: the trace has no kvm_msr read of a PMU register.
#   - exits 102: 12 entries + 1 (the trace ends in the TRIPLE_FAULT exit) + 8 programming
#     accesses (4 per vCPU) + 9 x 8 handler accesses + 9 implicit exits.
#   - exact triggers 27: the 2 enabling GLOBAL_CTRL writes, 2 counted handler writes x 9, the
#     7 retiring exits of vCPU 1. disabled=0x12: 0 triggers; its first overflow on vCPU 1 comes
#     2 events late (the enabling write and the first CR_ACCESS are not counted).
# golden/compare-small-mixed-real-fixed0.csv: traces/local-kvm/small-mixed-real.dat (PVM: every
#   guest instruction is emulated, 1561 retires, 81 synthesized entries, no guest segments; the
#   guest programs GP0 itself: 20 x WRMSR PMC0 = 0, 18 retires, RDMSR PMC0),
#   --assume fixed0,period=100:
#   - host reads 40: the 20 RDMSR PMC0 and 20 RDMSR EVNTSEL0 that the trace recorded (0: the
#     recording host had enable_pmu=N); its other recorded reads (0x174, 0x1b, EFER) are no PMU
#     registers. All 40 differ except, under disabled=0x12 (which counts nothing here), the 20
#     PMC0 reads: 20.
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

tap_plan 81

golden compare-vmx-overlay "$golden/compare-12-vmx-gp0.txt" \
	$vpmcsim compare --assume gp0=instructions,period=10000 "$vmx"
if has_dat; then
	golden compare-pvm-dat-overlay-csv "$golden/compare-small-mixed-real-fixed0.csv" \
		$vpmcsim compare --assume fixed0,period=100 --format csv "$pvm"
else
	echo "ok $((tap_n += 1)) - compare-pvm-dat-overlay-csv # SKIP no trace.dat support"
fi
# #22: in a sanitizer build, vpmcsim run by hand (no LSAN_OPTIONS) exits 0 on a good trace.dat
# despite libtraceevent's and libtracecmd's own leaks (sim/lsan.c: LSan's built-in suppressions);
# the v6 file is the one whose trace clock name libtracecmd leaks
for f in "$pvm" "$traces/local-kvm/small-mixed-real.v6.dat"; do
	if has_dat; then
		check "no-lsan-options-${f##*/}" 0 "Total Samples:" env -u LSAN_OPTIONS $vpmcsim stat "$f"
	else
		echo "ok $((tap_n += 1)) - no-lsan-options-${f##*/} # SKIP no trace.dat support"
	fi
done
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
# --log - is standard output (before the report); a #GP'd WRMSR (EVNTSEL bit 21 is reserved:
# intel_pmu_set_msr() refuses it) is logged with the value the guest tried
printf '%s\n' '!vpmcsim-trace 1' '0 0 entry' '10 0 exit MSR_WRITE' '10 0 wrmsr 0x186 0x200000' \
	'20 0 entry' >"$tmp/gpw.vtr"
check log-stdout 0 '{"kind":"write","t":10,"vcpu":0,"policy":"exact","index":390,"value":2097152,"counter":-1,"gp":true}' \
	$vpmcsim replay --policy exact --log - "$tmp/gpw.vtr"
if [ -e ./- ]; then tap_result 1 log-stdout-no-file; else tap_result 0 log-stdout-no-file; fi
# a device that fails is reported and kept (as root, removing it would remove /dev/full)
if [ -c /dev/full ]; then
	check log-device-full 1 "vpmcsim: write error on --log /dev/full: No space left on device" \
		$vpmcsim replay --policy exact --log /dev/full "$late"
	[ -c /dev/full ]
	tap_result $? log-device-kept
else
	echo "ok $((tap_n += 1)) - log-device-full # SKIP no /dev/full device"
	echo "ok $((tap_n += 1)) - log-device-kept # SKIP no /dev/full device"
fi
check replay-json-detail 0 '"name": "gp0"' \
	$vpmcsim replay --policy exact --format json "$traces/scenarios/replay-disabled-read-error.vtr"

# the same input gives byte-identical output
$vpmcsim compare --assume gp0=instructions,period=10000 --format json "$vmx" >"$tmp/a" 2>&1
$vpmcsim compare --assume gp0=instructions,period=10000 --format json "$vmx" >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b"
tap_result $? compare-json-byte-identical
check json-field-names-with-units 0 '"lateness_ns_p99": 0,' cat "$tmp/a"

# sweep --plot (F7). absent NAME FILE: FILE was not left behind.
absent() { if [ -e "$2" ]; then tap_result 1 "$1"; else tap_result 0 "$1"; fi; }
missed=$traces/scenarios/replay-tolerance-missed-pmi.vtr
check plot-bad-name 2 "vpmcsim: sweep: --plot 'x.pdf': expected a file name ending in .svg or .png" \
	$vpmcsim sweep --tolerance 1 --plot x.pdf "$late"
check plot-t0-only 2 "vpmcsim: sweep: --plot: no tolerance T > 0 in the list: T = 0 has no place on the plot's log axis" \
	$vpmcsim sweep --tolerance 0 --plot "$tmp/t0.svg" "$late"
absent plot-t0-only-no-file "$tmp/t0.svg"
check plot-unwritable 2 "vpmcsim: sweep: --plot: cannot write $tmp/no/x.svg: No such file or directory" \
	$vpmcsim sweep --tolerance 1 --plot "$tmp/no/x.svg" "$late"
# a gnuplot that fails: its exit status, not "is it installed?", and no file left
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "fake gnuplot: cannot draw" >&2\nexit 3\n' >"$tmp/bin/gnuplot"
chmod +x "$tmp/bin/gnuplot"
check plot-gnuplot-fails 1 "vpmcsim: sweep: --plot: gnuplot failed with exit status 3 (its messages are above); no plot in $tmp/f.svg" \
	env PATH="$tmp/bin:$PATH" $vpmcsim sweep --tolerance 1 --plot "$tmp/f.svg" "$late"
check plot-gnuplot-message 1 "fake gnuplot: cannot draw" \
	env PATH="$tmp/bin:$PATH" $vpmcsim sweep --tolerance 1 --plot "$tmp/f.svg" "$late"
absent plot-gnuplot-fails-no-file "$tmp/f.svg"
printf '#!/bin/sh\ncat >/dev/null\n' >"$tmp/bin/gnuplot"
check plot-gnuplot-writes-nothing 1 "vpmcsim: sweep: --plot: gnuplot wrote nothing to $tmp/f.svg" \
	env PATH="$tmp/bin:$PATH" $vpmcsim sweep --tolerance 1 --plot "$tmp/f.svg" "$late"
absent plot-gnuplot-writes-nothing-no-file "$tmp/f.svg"
if command -v gnuplot >/dev/null 2>&1; then
	$vpmcsim sweep --tolerance 1,10,100 --plot "$tmp/sweep.svg" "$late" >"$tmp/o" 2>&1
	grep -q "<svg" "$tmp/sweep.svg" 2>/dev/null
	tap_result $? sweep-plot-svg
	# no PMI matched anywhere (no counter programmed): the cost curve alone, said in the title
	check plot-no-pmi 0 "tolerance=100,100," \
		$vpmcsim sweep --tolerance 1,10,100 --plot "$tmp/nopmi.svg" "$vmx"
	check plot-trace-name 0 "vpmcsim sweep of $vmx</text>" cat "$tmp/nopmi.svg"
	check plot-no-pmi-title 0 "--assume: none; no PMI matched at any T: no lateness curve (program a counter with --assume)" \
		cat "$tmp/nopmi.svg"
	check plot-no-pmi-cost-curve 0 "host us per exit (mean)" cat "$tmp/nopmi.svg"
	# T = 0 is left out, with a note; the title names the overlay
	check plot-t0-noted 0 "vpmcsim: sweep: --plot: T = 0 is left out of the plot (no place on its log axis); its row is in the table" \
		$vpmcsim sweep --tolerance 0,10 --assume gp1=instructions,period=1000 --plot "$tmp/t0.svg" "$vmx"
	check plot-t0-title 0 "--assume gp1=instructions,period=1000; T = 0 left out (no place on a log axis)" \
		cat "$tmp/t0.svg"
	# missed-pmi: T = 100 and 1000 miss their one PMI (the scenario's header); T = 1 matches
	$vpmcsim sweep --tolerance 1,100,1000 --plot "$tmp/missed.svg" "$missed" >"$tmp/o" 2>&1
	check plot-all-missed-label 0 "no PMI matched (1 missed)" cat "$tmp/missed.svg"
	check plot-lateness-curve 0 "p99 PMI lateness (events)" cat "$tmp/missed.svg"
	$vpmcsim sweep --tolerance 1,10 --plot "$tmp/sweep.png" "$late" >"$tmp/o" 2>&1
	check plot-png 0 "PNG" head -c 4 "$tmp/sweep.png"
else
	for t in sweep-plot-svg plot-no-pmi plot-trace-name plot-no-pmi-title plot-no-pmi-cost-curve plot-t0-noted \
		plot-t0-title plot-all-missed-label plot-lateness-curve plot-png; do
		echo "ok $((tap_n += 1)) - $t # SKIP gnuplot not installed"
	done
fi

gp=$traces/local-kvm/pmu-gp-real.txt
# F5: values the trace recorded on the real host are checked. pmu-gp-real was recorded with
# kvm.enable_pmu=N (traces/local-kvm/README.md): its 50 RDMSR PMC0 and 50 RDMSR EVNTSEL0 read 0.
# The model (Intel v2, GP counters globally enabled at RESET since 6.9) keeps EVNTSEL0 =
# 0x5300c0 (line 21) and counts from PMC0 = 0 (line 26): the WRMSR's own retirement, 3 MOVs,
# the #GP handler of the WRMSR 0x38d (5 instructions: push, mov, add, pop, iret), 3 MOVs, the
# handler of the #GP'd WRMSR 0x38f (5), a MOV: 18 when the first RDMSR PMC0 (line 51) reads it.
check host-differ-warning 0 "vpmcsim: warning: $gp: 100 of the 100 reads whose value the trace recorded on the real host differ from the model under exact (is the modeled PMU the recording host's?); the first at 880240271000 ns on vCPU 0: rdmsr 0xc1: model 0x12, host 0" \
	$vpmcsim compare "$gp"
# disabled=0x12 counts nothing here: its PMC0 reads match, only the 50 EVNTSEL0 reads differ
check host-differ-csv 0 "disabled=0x12,all,all,50,50,18.00,18,-18.00,0,0,100,50," \
	$vpmcsim replay --policy disabled=0x12 --format csv "$gp"
hv=$traces/scenarios/replay-host-values.vtr
check host-json 0 '"host_differ": 4,' $vpmcsim compare --policy exact --format json "$hv"
check host-log 0 '{"kind":"read","t":50,"vcpu":0,"policy":"exact","insn":"rdpmc","index":0,"counter":0,"value":100,"reference":100,"host":101}' \
	$vpmcsim replay --policy exact --log - "$hv"

# F6: --assume on a counter the trace programs itself. pmu-gp-real's guest writes EVNTSEL0
# (0x186 = 0x5300c0) first at line 21 (880.240245 s), then PMC0 (0xc1 = 0) at line 26.
check assume-overwritten 0 "vpmcsim: warning: the trace writes IA32_PERFEVTSEL0 (0x186) = 0x5300c0 itself at $gp:21 (vCPU 0, 880240245000 ns): --assume gp0=instructions,period=1000 will be overwritten" \
	$vpmcsim compare --assume gp0=instructions,period=1000 "$gp"
$vpmcsim compare --assume gp1=instructions,period=1000 "$gp" >"$tmp/o" 2>&1
! grep -q "itself at" "$tmp/o"
tap_result $? assume-not-overwritten
# once, however often the trace writes it (50 times each)
$vpmcsim replay --policy exact --assume gp0=instructions "$gp" >"$tmp/o" 2>&1
[ "$(grep -c "itself at" "$tmp/o")" = 1 ]
tap_result $? assume-overwritten-once
printf '%s\n' '!vpmcsim-trace 1' '0 0 entry' '10 0 exit MSR_WRITE' '10 0 wrmsr 0x38f 0x1' \
	'10 0 retire' '20 0 entry' >"$tmp/ctrl.vtr"
check assume-global-ctrl 0 "vpmcsim: warning: the trace writes IA32_PERF_GLOBAL_CTRL (0x38f) = 0x1 itself at $tmp/ctrl.vtr:4 (vCPU 0, 10 ns): --assume fixed0,period=100000 will be overwritten" \
	$vpmcsim compare --assume gp0=instructions --assume fixed0 "$tmp/ctrl.vtr"

# F16: a .vtr's !pmu is the replay's PMU. every-event.vtr says AMD v2 with 6 GP of 48 bits.
check vtr-pmu-used 0 "pmu: amd v2, 6 GP x 48 bits, 0 fixed x 0 bits" \
	$vpmcsim compare "$traces/vtr/every-event.vtr"
# An AMD guest programs its own counter 0 (PerfMonV2 MSRs): no #GP. The enabling WRMSR of
# MSR_F15H_PERF_CTL0 retires (1, emulated), the entry at 210 creates the perf event, the 100
# guest instructions count: the RDMSR of MSR_F15H_PERF_CTR0 reads 101.
printf '%s\n' '!vpmcsim-trace 1' '!pmu vendor=amd version=2 gp=6 gp_width=48' '100 0 entry' \
	'200 0 guest insn=50' '200 0 exit msr' '200 0 wrmsr 0xc0010201 0' '200 0 retire' \
	'201 0 exit msr' '201 0 wrmsr 0xc0010200 0x5300c0' '201 0 retire' '210 0 entry' \
	'300 0 guest insn=100' '300 0 exit msr' '300 0 rdmsr 0xc0010201' '300 0 retire' \
	'310 0 entry' >"$tmp/amd.vtr"
check vtr-amd-guest 0 '{"kind":"read","t":300,"vcpu":0,"policy":"exact","insn":"rdmsr","index":3221291521,"counter":0,"value":101,"reference":101}' \
	$vpmcsim replay --policy exact --log - "$tmp/amd.vtr"

# F17: an engine error says where in the trace. A 2-bit GP0 counting instructions wraps every
# 4: 5000 reference overflows in the guest segment of line 6, more than the engine keeps for one
# event.
printf '%s\n' '!vpmcsim-trace 1' \
	'!pmu vendor=intel version=2 gp=8 fixed=3 gp_width=2 fixed_width=48' \
	'0 0 wrmsr 0x186 0x4300c0' '0 0 retire' '10 0 entry' '100 0 guest insn=20000' \
	'100 0 exit HLT' >"$tmp/wrap.vtr"
check engine-error-where 1 "vpmcsim: $tmp/wrap.vtr:6: guest segment of 20000 instructions at 100 ns on vCPU 0: more than 4096 reference overflows and PMIs in one event, the engine's limit" \
	$vpmcsim compare "$tmp/wrap.vtr"
# #14: the same limit reached through --assume on a 48-bit GP0 (period 10): the reference wraps
# after at most 10 instructions, then every 2^48, (2^64 - 1) / 2^48 = 65535 more times in the
# segment of line 5; the message names the limit and the line, in every command
printf '%s\n' '!vpmcsim-trace 1' \
	'!pmu vendor=intel version=2 gp=8 fixed=3 gp_width=48 fixed_width=48 fw_writes=1' \
	'1000 0 entry' '2000 0 guest insn=18446744073709551615 br=0' '2000 0 exit HLT' \
	'2100 0 entry' >"$tmp/huge.vtr"
huge_msg="vpmcsim: $tmp/huge.vtr:4: guest segment of 18446744073709551615 instructions at 2000 ns on vCPU 0: more than 4096 reference overflows and PMIs in one event, the engine's limit"
check limit-named-compare 1 "$huge_msg" \
	$vpmcsim compare --assume gp0=instructions,period=10 "$tmp/huge.vtr"
check limit-named-sweep 1 "$huge_msg" \
	$vpmcsim sweep --tolerance 10 --assume gp0=instructions,period=10 "$tmp/huge.vtr"
check limit-named-replay 1 "$huge_msg" \
	$vpmcsim replay --policy exact --assume gp0=instructions,period=10 "$tmp/huge.vtr"

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
# F9: values whose per-exit cost is absurd or not representable are refused, with the range
check cost-too-large 2 "vpmcsim: compare: --cost 'resume_us=1e308': resume_us: expected microseconds per perf event resumed, from 0 to 1e6" \
	$vpmcsim compare --cost resume_us=1e308 --format json "$late"
check cost-ghz-too-small 2 "vpmcsim: compare: --cost 'cpu_ghz=0.001': cpu_ghz: expected the host clock in GHz, from 0.01 to 100" \
	$vpmcsim compare --cost cpu_ghz=0.001 "$late"
check cost-at-bounds 0 "cost model: resume_us=1e+06 create_us=1e+06 trigger_cycles=1e+09 cpu_ghz=0.01" \
	$vpmcsim compare --cost resume_us=1e6,create_us=1e6,trigger_cycles=1e9,cpu_ghz=0.01 "$late"
check bad-format 2 "vpmcsim: compare: --format 'xml': expected text, csv or json" \
	$vpmcsim compare --format xml "$late"
check replay-needs-one-policy 2 "vpmcsim: replay: give exactly one --policy" \
	$vpmcsim replay "$late"
check sweep-needs-tolerance 2 "vpmcsim: sweep: --tolerance LIST is required" \
	$vpmcsim sweep "$late"
check stat-bad-vcpu 2 "vpmcsim: stat: --vcpu 'x': expected vCPU indices" \
	$vpmcsim stat --vcpu x "$vmx"
# #17: sweep words its errors for --tolerance (it takes no --policy)
check sweep-negative-tolerance 2 "vpmcsim: sweep: --tolerance '-1': '-1' is not a number of events" \
	$vpmcsim sweep --tolerance -1 "$late"
! grep -q -- --policy "$tap_out"
tap_result $? sweep-negative-tolerance-no-policy
# repeated --tolerance lists add up: 0,10 then 100 is the golden 0,10,100 sweep
golden sweep-tolerance-lists-add-up "$golden/sweep-late-pmi.csv" \
	$vpmcsim sweep --tolerance 0,10 --tolerance 100 "$late"
# at most VPMC_REPLAY_MAX_POLICIES (64) thresholds, however they are split into lists
many=$(i=1; while [ $i -le 64 ]; do printf -- "--tolerance %d " $i; i=$((i + 1)); done)
$vpmcsim sweep $many "$late" >"$tmp/o" 2>&1
check sweep-64-thresholds 0 "tolerance=64,64," cat "$tmp/o"
check sweep-65-thresholds 2 "vpmcsim: sweep: --tolerance: at most 64 thresholds in all" \
	$vpmcsim sweep $many --tolerance 65 "$late"
list=$(i=1; while [ $i -le 64 ]; do printf "%d," $i; i=$((i + 1)); done)
check sweep-65-thresholds-one-list 2 "vpmcsim: sweep: --tolerance: at most 64 thresholds in all" \
	$vpmcsim sweep --tolerance "${list}65" "$late"
# --vcpu lists add up: vCPU 0's 3 samples and vCPU 1's 9 (10 exits, the TRIPLE_FAULT has no
# entry after it), still as a selection of vCPUs
check stat-vcpu-repeated 0 "Total Samples:12," $vpmcsim stat --vcpu 0 --vcpu 1 "$vmx"
check stat-vcpu-repeated-selected 0 "all VMs, selected VCPUs" $vpmcsim stat --vcpu 1 --vcpu 0 "$vmx"
# options that take one value refuse a second one instead of keeping the last
check stat-time-twice 2 "vpmcsim: stat: --time given twice ('0,', '1405,')" \
	$vpmcsim stat --time 0, --time 1405, "$vmx"
check replay-log-twice 2 "vpmcsim: replay: --log given twice ('$tmp/a.jsonl', '$tmp/b.jsonl')" \
	$vpmcsim replay --policy exact --log "$tmp/a.jsonl" --log "$tmp/b.jsonl" "$late"
check sweep-plot-twice 2 "vpmcsim: sweep: --plot given twice ('$tmp/a.svg', '$tmp/b.svg')" \
	$vpmcsim sweep --tolerance 1 --plot "$tmp/a.svg" --plot "$tmp/b.svg" "$late"
tap_done
