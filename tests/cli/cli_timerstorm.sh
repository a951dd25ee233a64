#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_timerstorm.sh - gen timer-storm, latency, calibrate and cost profiles (issue 13,
# timer-storm.md §9). Expected values come from the RFC's table and the generator's parameters,
# not from our output:
# - G2: per busy tick one injection of 0xec; 0x80b exits in p_eoi_exit = 2 % of ticks and
#   vintr exits in p_vintr = 2 % (binomial on ~15k ticks of the 3 s trace: sigma 0.0011, so
#   +-0.005 is 4 sigma); a P0 burst every p0_period_ms = 10 ms of busy time: 100 +- 1 per busy
#   vCPU-second (busy vCPU-seconds = busy ticks / guest_hz).
# - L1: the RFC's ON row (209.8, 256.4, 463.3) and OFF row (3.16, 3.14, 4.45), +-25 %; L2:
#   160k samples / 30 s = 5333 per s, +-5 % (active_fraction is derived from it).
# - L4: with the profiler's burst every 10 ms folding pending events, no tolerance >= 100 ever
#   drains in a handler (a window retires 1-2 instructions); tolerance-wrap=T as tolerance=T.
# - C3: drain_extra_p0=1 removes the calibrated extra: what is left per drain is the
#   code-derived part of rfc-milan (resume 2 us + 29 host PMU accesses x 60 ns + 0.2 us fixed +
#   0.4 us slowpath tax + a 67 ns trigger = 4.4 us) on a ~3 us handler: 7 to 8 us.
# The acceptance runs on the spec's default trace (8 vCPUs x 30 s, ~2.6 M events, a few seconds);
# the structural checks use a 3 s trace.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tap.sh"

out=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-ts.XXXXXX")
trap 'rm -rf "$out" "$tap_out" "$tap_out.err"' EXIT
src=${top_srcdir:-$(dirname "$0")/../..}

tap_plan 62

# field NAME CSV POLICY: the named column of POLICY's row
field() {
	awk -F, -v name="$1" -v pol="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
		NR > 1 && $1 == pol { print $col[name] }' "$2"
}

# within NAME VALUE WANT REL: |VALUE - WANT| <= REL * WANT
within() {
	if awk -v v="$2" -v w="$3" -v r="$4" 'BEGIN { d = v - w; if (d < 0) d = -d;
						 exit !(v != "" && d <= r * w) }'; then
		tap_result 0 "$1"
	else
		tap_result 1 "$1"
		echo "# $2, want $3 +- $4 relative"
	fi
}

# ---- gen ------------------------------------------------------------------------------------
$vpmcsim gen timer-storm --seconds 3 --seed 1 -o "$out/a.vtr" 2>"$out/gen.err"
$vpmcsim gen timer-storm --seconds 3 --seed 1 -o "$out/b.vtr" 2>>"$out/gen.err"
$vpmcsim gen timer-storm --seconds 3 --seed 2 -o "$out/c.vtr" 2>>"$out/gen.err"
cmp -s "$out/a.vtr" "$out/b.vtr"; tap_result $? "G1: same seed, same bytes"
! cmp -s "$out/a.vtr" "$out/c.vtr"; tap_result $? "G1: seed 2 differs"
$vpmcsim convert "$out/a.vtr" -o - 2>/dev/null | cmp -s - "$out/a.vtr"
tap_result $? "G1: convert writes the trace back byte for byte (!gen, !gaps)"
grep -qx '!gen workload=timer-storm version=1 seed=1 vcpus=8 seconds=3' "$out/a.vtr" &&
	grep -qx '!gaps base' "$out/a.vtr" && grep -qx '!pmu vendor=amd version=1 gp=6 gp_width=48' \
	"$out/a.vtr"
tap_result $? "G1: header directives"
irq=$(grep -c ' irq 0xec$' "$out/a.vtr")
within "G2: 0x80b exits per tick" "$(grep -c 'wrmsr 0x80b' "$out/a.vtr")" \
	"$(awk -v i="$irq" 'BEGIN { print 0.02 * i }')" 0.25
within "G2: vintr per tick" "$(grep -c 'exit vintr$' "$out/a.vtr")" \
	"$(awk -v i="$irq" 'BEGIN { print 0.02 * i }')" 0.25
within "G2: P0 bursts per busy vCPU-second" \
	"$(awk -v i="$irq" -v b="$(grep -c 'wrmsr 0xc0010200 0x1300c0$' "$out/a.vtr")" \
	'BEGIN { print b / (i / 1000) }')" 100 0.01
$vpmcsim latency "$out/a.vtr" --format csv >"$out/a.csv" 2>/dev/null
[ "$(field samples "$out/a.csv" exact)" = "$irq" ] &&
	[ "$(field flagged "$out/a.csv" exact)" = 0 ] && [ "$(field fallback "$out/a.csv" exact)" = 0 ]
tap_result $? "G2: every injection is one sample ending at its deadline write"
check "G3: p_eoi_exit out of range" 2 "p_eoi_exit '2': expected 0 to 1" \
	$vpmcsim gen timer-storm --set p_eoi_exit=2 -o "$out/x.vtr"
check "G3: unknown parameter" 2 "unknown parameter 'bogus'" \
	$vpmcsim gen timer-storm --set bogus=1 -o "$out/x.vtr"
check "G3: a parameter given twice" 2 "seed given twice" \
	$vpmcsim gen timer-storm --seed 1 --set seed=2 -o "$out/x.vtr"
check "gen --help lists the parameters with sources" 0 "rt_msr_fast_ns     650" \
	$vpmcsim gen timer-storm --help

# ---- cost profiles --------------------------------------------------------------------------
for t in "$VPMC_TRACES"/vtr/canonical.vtr "$out/a.vtr"; do
	$vpmcsim compare "$t" >"$out/p0" 2>&1
	$vpmcsim compare --cost-profile default "$t" >"$out/p1" 2>&1
	cmp -s "$out/p0" "$out/p1"; tap_result $? "P1: --cost-profile default changes nothing ($t)"
done
check "compare says which profile it priced with" 0 "cost profile: rfc-milan (calibrated:" \
	$vpmcsim compare --cost-profile rfc-milan "$out/a.vtr"
# P3: one cost model, two views: compare prices the slowpath tax and the mediated switch per
# exit as latency does. A hand-made trace on a 6.18 host (0x6e0 is a fastpath write): E0 writes
# PERF_CTR0, E1 enables it (instructions), E2 a host interrupt that injects 0xec, E3 the handler's
# 0x6e0 write. --cost cpu_ghz=3,slowpath_tax_ns=400,mediated_switch_cycles=3000 (default profile
# otherwise: resume 2.4 us, create 5.2 us, a trigger 200 / 3 GHz = 0.0667 us; switch 1 us):
# - exact drains at E1 (creation 5.2 + its retire's trigger) and at E3 (resume 2.4 + trigger +
#   the tax: a fastpath exit whose entry drains): 5.2667 + 2.8667 = 8.133 us host; latency's
#   window (E3's entry to its end) is 1000 ns of guest + E3's 650 ns span + 2.8667 = 4.5167 us.
# - mediated: two triggers (0.1333), the switch on E0, E1, E2 (3 us) and on E3 the tax and the
#   switch (a counter counts instructions: no fastpath, f7a65e58d643): 4.533 us; latency 1.65 +
#   0.0667 + 1.4 = 3.1167 us.
# - disabled=0x12 and tolerance=100 do not drain at E3: no tax; the same as without the terms.
# Without the two terms (cpu_ghz=3 alone) exact is 0.4 us less in both views, mediated 4.4 us
# (compare) and 1.4 us (latency) less.
printf '%s\n' '!vpmcsim-trace 1' '!pmu vendor=amd version=1 gp=6 gp_width=48' '!host kernel=6.18' \
	'!gaps base' '0 0 exit msr' '0 0 wrmsr 0xc0010201 0x800000000001' '0 0 retire' \
	'1000 0 entry' '1000 0 exit msr' '1000 0 wrmsr 0xc0010200 0x5300c0' '1000 0 retire' \
	'2000 0 entry' '3000 0 guest insn=3000 cpl=3' '3000 0 exit interrupt' '4000 0 irq 0xec' \
	'4000 0 entry' '5000 0 guest insn=3000 cpl=0' '5000 0 exit msr' '5000 0 wrmsr 0x6e0 0x1000' \
	'5000 0 retire' '5650 0 entry' '6000 0 guest insn=1000 cpl=0' >"$out/tiny.vtr"
for c in cpu_ghz=3 cpu_ghz=3,slowpath_tax_ns=400,mediated_switch_cycles=3000; do
	$vpmcsim compare "$out/tiny.vtr" --cost "$c" --format csv >"$out/tc-${c##*=}.csv" 2>/dev/null
	$vpmcsim latency "$out/tiny.vtr" --cost "$c" --format csv >"$out/tl-${c##*=}.csv" 2>/dev/null
done
ok=0
for e in exact:8.133:4.5167:7.733:4.1167 mediated:4.533:3.1167:0.133:1.7167 \
	disabled=0x12:5.200:1.6500:5.200:1.6500 tolerance=100:5.333:1.7167:5.333:1.7167; do
	# shellcheck disable=SC2046
	set -- $(echo "$e" | tr : ' ')
	[ "$(field host_us_total "$out/tc-3000.csv" "$1")" = "$2" ] &&
		[ "$(field handler_us_mean "$out/tl-3000.csv" "$1")" = "$3" ] &&
		[ "$(field host_us_total "$out/tc-3.csv" "$1")" = "$4" ] &&
		[ "$(field handler_us_mean "$out/tl-3.csv" "$1")" = "$5" ] ||
		{ ok=1; echo "# $1: want host $2 ($4 without the terms), handler $3 ($5)"; }
done
tap_result $ok "P3: compare's host us and latency price the slowpath tax and the mediated switch alike"
! $vpmcsim compare --cost-profile rfc-milan "$out/a.vtr" 2>&1 >/dev/null | grep -q slowpath_tax_ns
tap_result $? "P3: ... so compare no longer warns about terms only latency prices"
printf 'base = rfc-milan\nprofile = mine\nresume_us = 3.1  # guess; me\n' >"$out/bad.cost"
check "P2: a profile file without a proper tag" 2 "bad.cost:3: resume_us: expected a tag" \
	$vpmcsim latency --cost-profile "$out/bad.cost" "$out/a.vtr"
printf 'base = rfc-milan\nprofile = mine\nresume_us = 3.1  # measured; EPYC 7R13, bpftrace\n' \
	>"$out/my.cost"
check "a user's measured profile on top of rfc-milan" 0 "cost profile: mine" \
	$vpmcsim latency --cost-profile "$out/my.cost" "$out/a.vtr"

# ---- latency on the default trace (acceptance) -------------------------------------------------
$vpmcsim gen timer-storm -o "$out/ts.vtr" 2>>"$out/gen.err"
$vpmcsim latency "$out/ts.vtr" --cost-profile rfc-milan --format csv >"$out/ts.csv" 2>"$out/l.err"
for s in mean:209.8 p50:256.4 p99:463.3; do
	within "L1: exact ${s%%:*} within 25 % of the RFC" \
		"$(field "handler_us_${s%%:*}" "$out/ts.csv" exact)" "${s#*:}" 0.25
done
for s in mean:3.16 p50:3.14 p99:4.45; do
	within "L1: disabled=0x12 ${s%%:*} within 25 % of the RFC" \
		"$(field "handler_us_${s%%:*}" "$out/ts.csv" disabled=0x12)" "${s#*:}" 0.25
done
within "L2: samples per second near 5.3k" "$(field samples_per_s "$out/ts.csv" mediated)" 5333 0.05
[ "$(field calibrated "$out/ts.csv" exact)" = "handler_us_mean;handler_us_p50" ] &&
	[ "$(field calibrated "$out/ts.csv" disabled=0x12)" = handler_us_mean ] &&
	[ -z "$(field calibrated "$out/ts.csv" tolerance=100)" ] &&
	[ -z "$(field calibrated "$out/ts.csv" mediated)" ]
tap_result $? "L3: only the fitted statistics are labeled calibrated"
awk -F, 'NR > 1 && $1 ~ /^tolerance/ && $11 != "0.0000" { bad = 1 }
	 NR == 2 { ex = $4 } NR > 2 && $4 + 0 > ex + 0 { bad = 1 } END { exit bad }' "$out/ts.csv"
tap_result $? "L4: tolerance rows never drain in a handler; no mean above exact's"
$vpmcsim latency "$out/ts.vtr" --cost-profile rfc-milan >"$out/ts.txt" 2>/dev/null
grep -q '^\* fitted to the measured value by calibrate' "$out/ts.txt" &&
	grep -q '^mediated .*(1)$' "$out/ts.txt" && grep -q 'hypothetical' "$out/ts.txt"
tap_result $? "L3, L4: the text marks fitted values and the mediated row's note"

# ---- calibrate -------------------------------------------------------------------------------
targets="--target exact:mean=209.8 --target exact:p50=256.4 --target disabled=0x12:mean=3.16"
measured="--measured exact:p99=463.3 --measured exact:p999=915.2 --measured exact:max=929.7
	--measured disabled=0x12:p50=3.14 --measured disabled=0x12:p99=4.45
	--measured disabled=0x12:p999=5.03 --measured disabled=0x12:max=22.55"
# shellcheck disable=SC2086
$vpmcsim calibrate "$out/ts.vtr" $targets $measured -o "$out/rfc-milan.cost" >"$out/c1.txt" 2>&1
cmp -s "$out/rfc-milan.cost" "$src/profiles/rfc-milan.cost"
rc=$?
tap_result $rc "C1: the shipped rfc-milan is calibrate's output on the default trace"
[ $rc = 0 ] || diff "$out/rfc-milan.cost" "$src/profiles/rfc-milan.cost" | tap_quote
grep -q '^  exact:p99 .* 463.300' "$out/c1.txt" && grep -q '^  disabled=0x12:max ' "$out/c1.txt"
tap_result $? "C1: p99 and max reported as predicted next to the measured values"
# shellcheck disable=SC2086
check "C2: p99 is not a target" 2 "p99 is predicted, not fitted; pass it with --measured" \
	$vpmcsim calibrate "$out/a.vtr" --target exact:p99=463.3 -o "$out/x.cost"
check "C2: two drain-free means" 2 "a second drain-free policy" \
	$vpmcsim calibrate "$out/a.vtr" --target disabled=0x12:mean=3.16 \
	--target tolerance=100:mean=3.2 -o "$out/x.cost"
check "C2: a target that cannot be met" 1 "nothing written" \
	$vpmcsim calibrate "$out/a.vtr" --target exact:mean=209.8 --target exact:p50=100000 \
	-o "$out/x.cost"
[ ! -e "$out/x.cost" ]; tap_result $? "C2: ... and nothing is written"
$vpmcsim latency "$out/a.vtr" --cost-profile rfc-milan --cost drain_extra_p0=1 --format csv \
	>"$out/c3.csv" 2>"$out/c3.err"
within "C3: without the calibrated extra exact costs the code-derived 7-8 us" \
	"$(field handler_us_mean "$out/c3.csv" exact)" 7.5 0.07
grep -q 'changed a fitted parameter' "$out/c3.err" && [ -z "$(field calibrated "$out/c3.csv" exact)" ]
tap_result $? "C3: an override of a fitted term drops the marks, with a warning"
check "latency says when a trace has no handler markers" 0 "no injection of vector 0xec" \
	$vpmcsim latency "$VPMC_TRACES"/vtr/canonical.vtr

# ---- one cost model, two views (issue 13 acceptance) -------------------------------------------
# compare counts every drain (kvm_pmu_handle_event() at a VM-entry) of the whole trace; latency
# counts, per sample, the drained exits inside the handler's window (the injection of 0xec up
# to the deadline write, timer-storm.md §5). So for every policy, with the drains of the
# replay log (each drain: its VM-entry's time and vCPU) split by whether the exit that entry
# closes began inside a window (worked out from the trace alone, by awk below):
#   inside  = latency's samples x drains_per_sample (4 decimals: exact below 5000 samples)
#   inside + outside = compare's drains
# On this trace no exit drains twice (no implicit exits: compare's exits_implicit is 0), so a
# drain and a drained exit are the same count. The tolerance rows drain inside no window (L4).
$vpmcsim gen timer-storm --vcpus 2 --seconds 1 --seed 1 -o "$out/v.vtr" 2>>"$out/gen.err"
$vpmcsim latency "$out/v.vtr" --format csv >"$out/v-lat.csv" 2>/dev/null
$vpmcsim compare "$out/v.vtr" --format csv >"$out/v-cmp.csv" 2>/dev/null
inside_ok=0 total_ok=0
for p in exact disabled=0x12 tolerance=100 tolerance=10000 tolerance-wrap=10000 mediated; do
	$vpmcsim replay --policy "$p" --log "$out/v.log" "$out/v.vtr" >/dev/null 2>&1
	set -- $(awk 'FNR == NR {
			if ($0 ~ /^[!#]/) next
			v = $2
			if ($3 == "irq" && $4 == "0xec") open[v] = 1
			else if ($3 == "exit") inwin[v] = open[v]
			else if ($3 == "wrmsr" && $4 == "0x6e0") open[v] = 0
			else if ($3 == "entry") { if (inwin[v]) mark[v " " $1] = 1; inwin[v] = 0 }
			next
		}
		/"kind":"drain"/ {
			match($0, /"t_ns":[0-9]+/); t = substr($0, RSTART + 7, RLENGTH - 7)
			match($0, /"vcpu":[0-9]+/); v = substr($0, RSTART + 7, RLENGTH - 7)
			if ((v " " t) in mark) n++; else o++
		}
		END { print n + 0, o + 0 }' "$out/v.vtr" "$out/v.log")
	lat=$(awk -v s="$(field samples "$out/v-lat.csv" "$p")" \
		-v d="$(field drains_per_sample "$out/v-lat.csv" "$p")" 'BEGIN { printf "%.0f", s * d }')
	cmpd=$(field drains "$out/v-cmp.csv" "$p")
	[ "$(field exits_implicit "$out/v-cmp.csv" "$p")" = 0 ] || total_ok=1
	[ "$1" = "$lat" ] || { inside_ok=1; echo "# $p: $1 drains inside windows, latency $lat"; }
	[ $(($1 + $2)) = "$cmpd" ] || { total_ok=1; echo "# $p: $1 + $2 drains, compare $cmpd"; }
done
tap_result $inside_ok "V1: drains inside handler windows (replay log, trace) = latency's, each policy"
tap_result $total_ok "V1: all drains of the replay log = compare's drains, each policy"
# ---- one cost model, two views: PMI lateness and counts ----------------------------------------
# The generated trace never overflows (its counter starts 2^47 - 1 events away). Here every write
# of the resident counter (PERF_CTR0, at setup and in each P0 burst) is made -1 (0xffffffffffff),
# so the retire of the write that enables it next (PERF_CTL0 = 0x5300c0, INT set; LVTPC starts
# unmasked, trace-format.md) wraps it: one reference overflow per counter write (W), at that
# retire. What each policy must then report, from KVM's code and the trace alone (awk below):
# - exact, tolerance=T, tolerance-wrap=T: the retire is an emulated event; the event-select
#   write requested a reprogram anyway, so the entry after the retire drains (under tolerance
#   with 1 <= T pending: the write raised it) and reprogram_counter() finds the overflow; KVM_REQ_PMI
#   is handled after KVM_REQ_PMU in vcpu_enter_guest(), so the PMI comes at that same entry:
#   0 events and (entry - retire) ns late, the exit's span RT (rt_msr_slow_ns = 1050). Except the
#   first of each vCPU (V of them): reprogram_counter() signals an emulated overflow with the old
#   pmc->intr, and before the counter's first perf event it is 0: missed.
# - disabled=0x12: the retire is not counted; the perf event left at -1 gets a period of 2
#   (x86_perf_event_set_period(): "if (unlikely(left < 2)) left = 2"): it overflows at the
#   second instruction after the entry: 2 events and RT ns (+ 2 x 0.33 ns, floored) late; none missed.
# - mediated: the counter is the guest's own; the retire overflows it and the PMI comes at the
#   entry: 0 events, RT ns; none missed.
# And each matched PMI of exact and tolerance is at a drain of the replay log (the entry after the
# wrapping retire), as many as compare matched. Counts: triggers = retires while PERF_CTL0 is
# enabled (exact, tolerance, mediated; none under disabled=0x12); every P0 RDPMC reads the
# reference's value, except under disabled=0x12, short by the retires since the counter's write.
$vpmcsim gen timer-storm --vcpus 2 --seconds 1 --seed 1 -o - 2>>"$out/gen.err" |
	sed 's/^\([0-9]* [0-9]* wrmsr 0xc0010201\) 0x800000000001$/\1 0xffffffffffff/' >"$out/o.vtr"
set -- $(awk '/^!/ { next }
	{ v = $2 }
	$3 == "wrmsr" && $4 == "0xc0010201" { w++; if (!(v in seen)) { seen[v] = 1; nv++ } }
	$3 == "wrmsr" && $4 == "0xc0010200" { en[v] = $5 == "0x5300c0"; armed[v] = en[v] }
	$3 == "retire" { if (en[v]) { trig++; since[v]++ }
			 if (armed[v]) { rt_t[v] = $1; wait[v] = 1 } armed[v] = 0 }
	$3 == "entry" && wait[v] { d = $1 - rt_t[v]; if (!n++ || d < lo) lo = d; if (d > hi) hi = d
				   wait[v] = 0 }
	$3 == "rdpmc" { reads++; e = since[v]; sum += e; if (e > max) max = e }
	$3 == "wrmsr" && $4 == "0xc0010201" { since[v] = 0 }
	END { printf "%d %d %d %d %d %d %.2f %d\n", w, nv, lo, hi, trig, reads, sum / reads, max }' \
	"$out/o.vtr")
w=$1 nv=$2 rt=$3 rt_hi=$4 trig=$5 reads=$6 err_mean=$7 err_max=$8
$vpmcsim compare "$out/o.vtr" --format csv >"$out/o.csv" 2>/dev/null
# pmi POLICY MATCHED MISSED EVENTS: compare's row against the expectation above
pmi() {
	[ "$(field lane_ref_overflows "$out/o.csv" "$1")" = "$w" ] &&
	[ "$(field lane_ref_matched "$out/o.csv" "$1")" = "$2" ] &&
	[ "$(field lane_ref_missed "$out/o.csv" "$1")" = "$3" ] &&
	[ "$(field lane_ref_lateness_events_p50 "$out/o.csv" "$1")" = "$4" ] &&
	[ "$(field lane_ref_lateness_events_max "$out/o.csv" "$1")" = "$4" ] &&
	[ "$(field lane_ref_lateness_ns_p50 "$out/o.csv" "$1")" = "$rt" ] &&
	[ "$(field lane_ref_lateness_ns_max "$out/o.csv" "$1")" = "$rt" ] ||
	{ echo "# $1: want $w overflows, $2 matched, $3 missed, $4 events and $rt ns late"; return 1; }
}
[ "$w" -gt "$nv" ] && [ "$rt" = 1050 ] && [ "$rt_hi" = 1050 ]
tap_result $? "V2: the edited trace re-arms the counter $w times on $nv vCPUs, each wrap 1050 ns before its entry"
ok=0
for p in exact tolerance=100 tolerance=10000 tolerance-wrap=10000; do
	pmi "$p" $((w - nv)) "$nv" 0 || ok=1
done
tap_result $ok "V2: exact, tolerance: the PMI at the entry after the wrap, 0 events late; the first per vCPU missed"
pmi disabled=0x12 "$w" 0 2
tap_result $? "V2: disabled=0x12: the PMI 2 instructions after the entry (perf's period of at least 2)"
pmi mediated "$w" 0 0
tap_result $? "V2: mediated: the PMI at the entry after the wrap, 0 events late"
ok=0
for p in exact tolerance=100 tolerance-wrap=10000; do
	$vpmcsim replay --policy "$p" --log "$out/o.log" "$out/o.vtr" >/dev/null 2>&1
	m=$(awk '{ match($0, /"t_ns":[0-9]+/); t = substr($0, RSTART + 7, RLENGTH - 7)
		   match($0, /"vcpu":[0-9]+/); v = substr($0, RSTART + 7, RLENGTH - 7) }
		 /"kind":"drain"/ { d[v " " t] = 1 }
		 /"kind":"match"/ { n++; if (!((v " " t) in d)) bad++ }
		 END { print bad ? -1 : n + 0 }' "$out/o.log")
	[ "$m" = "$(field lane_ref_matched "$out/o.csv" "$p")" ] ||
		{ ok=1; echo "# $p: $m matched PMIs at drains in the log"; }
done
tap_result $ok "V2: every matched PMI (compare) is at a drain of the replay log (the entry after the wrap)"
ok=0
for p in exact tolerance=100 tolerance=10000 tolerance-wrap=10000 mediated; do
	[ "$(field triggers "$out/o.csv" "$p")" = "$trig" ] &&
		[ "$(field reads "$out/o.csv" "$p")" = "$reads" ] &&
		[ "$(field reads_with_error "$out/o.csv" "$p")" = 0 ] || ok=1
done
[ "$(field triggers "$out/o.csv" disabled=0x12)" = 0 ] &&
	[ "$(field reads_with_error "$out/o.csv" disabled=0x12)" = "$reads" ] &&
	[ "$(field error_events_mean "$out/o.csv" disabled=0x12)" = "-$err_mean" ] &&
	[ "$(field error_events_max_abs "$out/o.csv" disabled=0x12)" = "$err_max" ] || ok=1
tap_result $ok "V3: triggers = the trace's retires with the counter on ($trig); reads exact but under disabled=0x12 (-$err_mean mean, $err_max max)"
# C4: -o is checked before the fit (gen and convert open theirs first): the directory does not
# exist, so nothing is fitted, nothing printed on standard output
$vpmcsim calibrate "$out/a.vtr" --target exact:mean=209.8 -o "$out/none/x.cost" \
	>"$out/c4.txt" 2>"$out/c4.err"
rc=$?
[ $rc = 2 ] && [ ! -s "$out/c4.txt" ] && grep -qF -- "-o '$out/none/x.cost'" "$out/c4.err"
tap_result $? "C4: an -o that cannot be written is refused before the fit"
# C4: a fit that fails leaves a profile already at -o as it was
echo keep >"$out/old.cost"
$vpmcsim calibrate "$out/a.vtr" --target exact:mean=209.8 --target exact:p50=100000 \
	-o "$out/old.cost" >/dev/null 2>&1
[ "$(cat "$out/old.cost")" = keep ]; tap_result $? "C4: a failed fit leaves an existing -o alone"
# C5: canonical.vtr injects no 0xec (latency's check above): latency's message, exit 1, no nan
$vpmcsim calibrate "$VPMC_TRACES"/vtr/canonical.vtr --target exact:mean=209.8 \
	-o "$out/x.cost" >"$out/c5.txt" 2>"$out/c5.err"
rc=$?
[ $rc = 1 ] && grep -q 'no injection of vector 0xec .*no handler to measure' "$out/c5.err" &&
	! grep -qi nan "$out/c5.txt" "$out/c5.err" && [ ! -e "$out/x.cost" ]
tap_result $? "C5: calibrate on a trace without handlers says so, exit 1, no nan, no file"
# C6: one percentile definition: every statistic calibrate reports for the profile it wrote
# (C1) is the one latency prints with that profile, to the digits latency's table prints (0.01
# us; the histogram's p50 would differ by its half bucket, 1 us at 256 us)
$vpmcsim latency "$out/ts.vtr" --cost-profile "$out/rfc-milan.cost" --format csv \
	>"$out/c6.csv" 2>/dev/null
bad=
for s in exact:mean exact:p50 exact:p99 exact:p999 disabled=0x12:mean disabled=0x12:p50 \
	disabled=0x12:p99; do
	# targets: "STAT TARGET MODEL RESIDUAL"; then "predicted": "STAT MODEL MEASURED ERROR"
	c=$(awk -v s="$s" '/^predicted/ { p = 1 } $1 == s { print p ? $2 : $3 }' "$out/c1.txt")
	l=$(field "handler_us_${s#*:}" "$out/c6.csv" "${s%:*}")
	awk -v c="$c" -v l="$l" 'BEGIN { d = c - l; exit !(c != "" && l != "" &&
		d < 0.005 && d > -0.005) }' || bad="$bad $s: calibrate $c, latency $l;"
done
[ -z "$bad" ]; tap_result $? "C6: calibrate's model values are latency's"
[ -z "$bad" ] || echo "#$bad"

# ---- --assume on the generated AMD PMU without PerfMonV2 (issue 13 acceptance) ------------------
# gen timer-storm's guest has an AMD PMU of version 1 (no global control). The overlay then runs
# what Linux perf does there (amd/core.c: amd_pmu_enable_all(), amd_pmu_handle_irq() ->
# x86_pmu_handle_irq()): programming writes the counter (-period, x86_perf_event_set_period())
# and then its event select with EN; each PMI: WRMSR LVTPC = NMI (unmask, first), RDPMC of each
# counter, WRMSR counter = -left for those whose bit 47 is clear. Nothing stops the counter, so
# it counts the handler's own retired instructions: after a wrap, LVTPC's retire (1) is in the
# RDPMC's value (delta = P + 1, left = P - 1), RDPMC's retire is overwritten by the WRMSR, and
# the WRMSR's retire is the new period's first event; perf's next wrap comes P - 2 trace events
# later. The first comes P - 1 trace events after programming (the event select's retire counts).
#
# A1-A3, by hand, on 4 counters (K7 MSRs: amd_pmu_refresh() gives perfctr_core only above four
# counters) and --assume gp0=instructions,period=100: programming at the first event (t 0):
# PERFCTR0 (0xc0010004) = 2^48 - 100, EVNTSEL0 (0xc0010000) = 0x5300c0, whose retire counts: -99.
# The 250-instruction segment runs 1000-2000 ns, instruction i at 1000 + 4i ns: wraps at i = 99
# (1396 ns; RDPMC 1, re-armed at 2^48 - 99, -98 after its retire) and i = 99 + 98 = 197 (1788 ns,
# the same); the 53 left and 44 more bring it to -1, and the retire at 3000 ns wraps it: the PMI
# at the entry at 4050 ns (RDPMC 1, 2^48 - 99 again). Three samples; the first two at a host PMI
# (implicit exit) at the wrapping instruction, 0 events and 0 ns late; the third 0 events and
# 1050 ns late (the entry) under exact, tolerance-wrap (the wrap requests the reprogram) and
# mediated. tolerance=100: the handler's WRMSR retire is pending when pmc_write_counter() sets the
# perf period, so the second wrap comes 1 instruction (4 ns) late (p50 of 0 and 4 ns: 0, the
# lower); the last retire stays pending (2 <= T, no request, no later entry drains): missed. disabled=0x12 (PERF_COUNT_HW_INSTRUCTIONS):
# no retire counts, so the counter wraps at instructions 100 and 200 (RDPMC 0: re-armed at -100),
# each 1 event (4 ns) after the lane reference's, which counted the event select's (then the
# re-arm's) retire; each RDPMC reads 2 short of it (that retire and LVTPC's); -6 at 3000, whose
# retire is not counted: 2 samples, none missed.
printf '%s\n' '!vpmcsim-trace 2' '!pmu vendor=amd version=1 gp=4 gp_width=48' '!host kernel=7.2' \
	'0 0 exit hlt' '1000 0 entry' '2000 0 guest insn=250 cpl=3' '2000 0 exit interrupt' \
	'2500 0 entry' '3000 0 guest insn=44 cpl=3' '3000 0 exit msr' '3000 0 wrmsr 0x6e0 0x1' \
	'3000 0 retire' '4050 0 entry' '!end events=10' >"$out/amd1.vtr"
$vpmcsim replay --policy exact --assume gp0=instructions,period=100 --log "$out/amd1.log" \
	"$out/amd1.vtr" >/dev/null 2>&1
acc=$(awk '/"policy":"exact"/ && /"kind":"(read|write)"/ {
		match($0, /"t_ns":[0-9]+/); t = substr($0, RSTART + 7, RLENGTH - 7)
		match($0, /"index":[0-9]+/); i = substr($0, RSTART + 8, RLENGTH - 8)
		match($0, /"value":[0-9]+/); v = substr($0, RSTART + 8, RLENGTH - 8)
		printf "%s %x %s;", t, i, v }' "$out/amd1.log")
m100=281474976710556 m99=281474976710557 # 2^48 - 100, 2^48 - 99
want="0 c0010004 $m100;0 c0010000 5439680;1396 0 1;1396 c0010004 $m99;1788 0 1;"
want="${want}1788 c0010004 $m99;4050 0 1;4050 c0010004 $m99;"
[ "$acc" = "$want" ]
tap_result $? "A1: AMD v1, K7 MSRs: the overlay's programming, RDPMCs and re-arms (x86_pmu_handle_irq())"
[ "$acc" = "$want" ] || echo "# got $acc, want $want"
$vpmcsim compare --assume gp0=instructions,period=100 "$out/amd1.vtr" --format csv \
	>"$out/amd1.csv" 2>/dev/null
# row CSV POLICY SAMPLES MATCHED MISSED EVENTS_MAX NS_P50 NS_MAX: compare's row against the above
row() {
	got="$(field samples "$1" "$2") $(field lane_ref_matched "$1" "$2")"
	got="$got $(field lane_ref_missed "$1" "$2") $(field lane_ref_lateness_events_max "$1" "$2")"
	got="$got $(field lane_ref_lateness_ns_p50 "$1" "$2") $(field lane_ref_lateness_ns_max "$1" "$2")"
	[ "$got" = "$3 $4 $5 $6 $7 $8" ] || { echo "# $2: $got, want $3 $4 $5 $6 $7 $8"; return 1; }
}
ok=0
row "$out/amd1.csv" exact 3 3 0 0 0 1050 && row "$out/amd1.csv" mediated 3 3 0 0 0 1050 &&
	[ "$(field samples_ideal "$out/amd1.csv" exact)" = 3 ] &&
	[ "$(field exits_implicit "$out/amd1.csv" exact)" = 2 ] &&
	[ "$(field reads "$out/amd1.csv" exact)" = 3 ] &&
	[ "$(field reads_with_error "$out/amd1.csv" exact)" = 0 ] || ok=1
tap_result $ok "A2: exact and mediated: 3 samples, 2 at host PMIs on time, 1 at the entry 1050 ns late"
ok=0
row "$out/amd1.csv" tolerance=100 2 2 1 1 0 4 &&
	row "$out/amd1.csv" tolerance-wrap=10000 3 3 0 1 4 1050 &&
	row "$out/amd1.csv" disabled=0x12 2 2 0 1 4 4 &&
	[ "$(field error_events_max_abs "$out/amd1.csv" disabled=0x12)" = 2 ] || ok=1
tap_result $ok "A3: tolerance loses the pending wrap, tolerance-wrap delivers it, disabled=0x12 1 late"
# A4: the generated trace (2 vCPUs, 1 s, F15H MSRs: 6 counters) with a counter the trace leaves
# alone (it programs gp0, the profiler's, and gp1) and P = 10^6. The awk below runs the rule
# above over the trace: per vCPU the first wrap after P - 1 counted events, then every P - 2;
# counted events: every guest instruction (USR | OS) and every retire. A wrap inside a segment
# is a host PMI at that instruction (an implicit exit), 0 events and 0 ns late under exact and
# mediated; a wrap at a retire is delivered at its entry (entry - retire late); a wrap at a
# segment's first instruction after a drain would be 1 event late (the host perf event's period
# of at least 2, x86_perf_event_set_period()): none here. Each PMI adds one RDPMC to the reads.
set -- $(awk -v P=1000000 '/^!/ { next }
	{ v = $2 }
	!(v in left) { left[v] = P - 1 }
	$3 == "guest" { split($4, a, "="); n = a[2]; if (left[v] == 1) first++
			while (n >= left[v]) { n -= left[v]; left[v] = P - 2; seg++ }
			left[v] -= n }
	$3 == "retire" && --left[v] == 0 { left[v] = P - 2; rt++; rt_t[v] = $1; wait[v] = 1 }
	$3 == "entry" && wait[v] { if ($1 - rt_t[v] > span) span = $1 - rt_t[v]; wait[v] = 0 }
	$3 == "rdpmc" { reads++ }
	END { print seg + 0, rt + 0, span + 0, first + 0, reads + 0 }' "$out/v.vtr")
seg=$1 rt=$2 span=$3 first=$4 reads=$5 s=$(($1 + $2))
$vpmcsim compare --assume gp2=instructions,period=1000000 "$out/v.vtr" --format csv \
	>"$out/a4.csv" 2>/dev/null
ok=0
[ "$first" = 0 ] && [ "$(field exits_implicit "$out/a4.csv" exact)" = "$seg" ] &&
	[ "$(field reads "$out/a4.csv" exact)" = $((reads + s)) ] &&
	[ "$(field reads_with_error "$out/a4.csv" exact)" = 0 ] || ok=1
for p in exact mediated; do
	[ "$(field samples_ideal "$out/a4.csv" "$p")" = "$s" ] &&
		[ "$(field lane_ref_overflows "$out/a4.csv" "$p")" = "$s" ] &&
		row "$out/a4.csv" "$p" "$s" "$s" 0 0 0 "$span" || ok=1
done
tap_result $ok "A4: compare --assume on the generated AMD v1 trace: $s samples ($rt at retires) as the trace gives them, on time"
# A5: each of exact's PMIs sits on a drain of replay --log (the implicit exit's entry), as many
# as compare matched; and the log's drains are compare's, every policy (one engine, two views)
ok=0
for p in exact disabled=0x12 tolerance=100 tolerance-wrap=10000 mediated; do
	$vpmcsim replay --policy "$p" --assume gp2=instructions,period=1000000 --log "$out/a5.log" \
		"$out/v.vtr" >/dev/null 2>&1
	set -- $(awk -v pol="\"policy\":\"$p\"" 'index($0, pol) {
			match($0, /"t_ns":[0-9]+/); t = substr($0, RSTART + 7, RLENGTH - 7)
			match($0, /"vcpu":[0-9]+/); v = substr($0, RSTART + 7, RLENGTH - 7) }
		index($0, pol) && /"kind":"drain"/ { d[v " " t] = 1; nd++ }
		index($0, pol) && /"kind":"match"/ { n++; if (!((v " " t) in d)) bad++ }
		END { print nd + 0, bad ? -1 : n + 0 }' "$out/a5.log")
	[ "$1" = "$(field drains "$out/a4.csv" "$p")" ] || { ok=1; echo "# $p: the log has $1 drains"; }
	[ "$p" != exact ] || [ "$2" = "$s" ] || { ok=1; echo "# exact: $2 matched PMIs at drains"; }
done
tap_result $ok "A5: exact's PMIs at drains of replay --log; the log's drains are compare's, each policy"

# The generated guest's PMU is AMD without PerfMonV2 (timer-storm.md: Milan): compare's mediated
# row is this guest on a host that has PerfMonV2, as latency's row note says; on the same trace
# with PerfMonV2 (version 2), or without a mediated row, no such warning.
hyp="mediated is hypothetical on this trace: the mediated vPMU needs PerfMonV2 on AMD"
check H1-mediated-hypothetical-amd-v1 0 "$hyp" $vpmcsim compare "$out/a.vtr"
$vpmcsim compare --format json "$out/a.vtr" 2>/dev/null | grep -qF "$hyp"
tap_result $? "H2: the warning is in compare's JSON warnings too"
$vpmcsim compare --policy exact "$out/a.vtr" 2>&1 >/dev/null | grep -qF "$hyp"
tap_result $((! $?)) "H3: no mediated row, no warning"
sed 's/^!pmu vendor=amd version=1/!pmu vendor=amd version=2/' "$out/a.vtr" >"$out/a2.vtr"
grep -q '^!pmu vendor=amd version=2' "$out/a2.vtr" &&
	! $vpmcsim compare "$out/a2.vtr" 2>&1 >/dev/null | grep -qF "$hyp"
tap_result $? "H4: PerfMonV2 (version 2): no warning"

# --host-kernel alone on a .vtr replaces its !host and keeps its !pmu (AMD version 1, 6 GP): the
# PMU's shape is the trace's, not the vendor's defaults (version 2).
check H5-host-kernel-keeps-vtr-pmu 0 "pmu: amd v1, 6 GP x 48 bits" \
	$vpmcsim compare --host-kernel 6.5 --policy exact "$out/a.vtr"
check H6-host-kernel-given 0 "host kernel: 6.5 (--host-kernel)" \
	$vpmcsim compare --host-kernel 6.5 --policy exact "$out/a.vtr"
# --vendor alone takes that vendor's default PMU, and keeps the trace's !host kernel=7.2
check H7-vendor-keeps-vtr-host 0 "host kernel: 7.2 (modeled as 7.0) (!host in the .vtr)" \
	$vpmcsim compare --vendor intel --policy exact "$out/a.vtr"

tap_done
