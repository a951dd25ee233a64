#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_merge.sh - convert --vcpu, the merge_state of the JSON of compare, sweep, stat, latency and
# nested, and vpmcsim merge
# (issue 15): a trace split by vCPU, each part replayed, merged = the whole trace's report.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tap.sh"

T=$VPMC_TRACES
out=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-merge.XXXXXX")
trap 'rm -rf "$out" "$tap_out" "$tap_out.err"' EXIT

# same NAME A B: files A and B have the same content.
same() {
	if cmp -s "$2" "$3"; then
		tap_result 0 "$1"
	else
		tap_result 1 "$1"
		diff "$2" "$3" | head -n 10 | tap_quote
	fi
}

# norm JSON: without the input list (trace.path, merge_state.inputs; the names in warnings).
norm() {
	jq --arg w "$out/whole.vtr" --arg m "4 traces (merged)" \
		'del(.trace.path, .merge_state.inputs) |
		 .warnings |= map(split($w) | join("TRACE") | split($m) | join("TRACE"))' "$1"
}

tap_plan 102

# ---- convert --vcpu ---------------------------------------------------------------------------
# The 4-vCPU recording as text (no libtracecmd needed); whole.vtr holds all its events.
$vpmcsim convert "$T/local-kvm/multi-vcpu-real.txt" -o "$out/whole.vtr" 2>/dev/null
tap_result $? "convert-whole"
for v in 0 1 2 3; do
	$vpmcsim convert --vcpu $v "$out/whole.vtr" -o "$out/p$v.vtr" 2>/dev/null
done
$vpmcsim convert --vcpu 0,2-3 "$out/whole.vtr" -o "$out/p023.vtr" 2>/dev/null
tap_result $? "convert-vcpu-list"
# By hand: the event lines of whole.vtr whose second field (the vCPU) is 0, 2 or 3, in order.
grep -v '^!' "$out/whole.vtr" | awk '$2 == 0 || $2 == 2 || $2 == 3' >"$out/want023"
grep -v '^!' "$out/p023.vtr" >"$out/got023"
same "convert-vcpu-events" "$out/want023" "$out/got023"
# the directives are the whole trace's; !end counts the events kept
grep '^!' "$out/whole.vtr" | grep -v '^!end' >"$out/wantdir"
grep '^!' "$out/p023.vtr" | grep -v '^!end' >"$out/gotdir"
same "convert-vcpu-directives" "$out/wantdir" "$out/gotdir"
[ "$(grep '^!end' "$out/p023.vtr")" = "!end events=$(wc -l <"$out/want023" | tr -d ' ')" ]
tap_result $? "convert-vcpu-end-count"
# the parts hold every event once: their event counts add up to the whole's
n=0
for v in 0 1 2 3; do
	n=$((n + $(grep -vc '^!' "$out/p$v.vtr")))
done
[ "$n" = "$(grep -vc '^!' "$out/whole.vtr")" ] && [ "$n" -gt 0 ]
tap_result $? "convert-vcpu-parts-add-up"
# a vCPU the trace does not have: refused, and no part written (it would fail only at replay)
check convert-vcpu-none 1 "no event of vCPU 9 (--vcpu) in the trace" \
	$vpmcsim convert --vcpu 9 "$out/whole.vtr" -o "$out/none.vtr"
[ ! -e "$out/none.vtr" ]
tap_result $? "convert-vcpu-none-no-file"
check convert-vcpu-bad-range 2 "convert: --vcpu '3-1': expected vCPU numbers" \
	$vpmcsim convert --vcpu 3-1 "$out/whole.vtr" -o "$out/x.vtr"
check convert-vcpu-bad-list 2 "convert: --vcpu '1,': expected vCPU numbers" \
	$vpmcsim convert --vcpu 1, "$out/whole.vtr" -o "$out/x.vtr"
check convert-vcpu-twice 2 "convert: --vcpu given twice" \
	$vpmcsim convert --vcpu 1 --vcpu 2 "$out/whole.vtr" -o "$out/x.vtr"

# ---- merged parts = the whole -----------------------------------------------------------------
# run NAME ARGS...: NAME-whole.json and NAME-p0..3.json from the whole trace and its parts
run() {
	local name=$1 f
	shift
	for f in whole p0 p1 p2 p3; do
		"$@" --format json "$out/$f.vtr" >"$out/$name-$f.json" 2>/dev/null || return 1
	done
}
# whole_eq NAME: the merge of the parts (in a shuffled order) equals the whole's JSON
whole_eq() {
	$vpmcsim merge "$out/$1-p2.json" "$out/$1-p0.json" "$out/$1-p3.json" "$out/$1-p1.json" \
		--format json -o "$out/$1-merged.json" 2>/dev/null
	tap_result $? "$1-merge-runs"
	norm "$out/$1-whole.json" >"$out/$1-want"
	norm "$out/$1-merged.json" >"$out/$1-got"
	same "$1-merged-equals-whole" "$out/$1-want" "$out/$1-got"
}

run compare $vpmcsim compare -j 1
tap_result $? "compare-runs"
whole_eq compare
# the overlay gives samples, lateness histograms and draws: -j 2 for the parallel replay too
run overlay $vpmcsim compare -j 2 --assume fixed0,period=5000
tap_result $? "overlay-runs"
whole_eq overlay
# the whole trace has samples against the ideal guest (else the test would prove less)
[ "$(jq '.policies[0].samples_ideal' "$out/overlay-whole.json")" -gt 0 ]
tap_result $? "overlay-has-samples"
run sweep $vpmcsim sweep --tolerance 1,100,10000 --assume fixed0,period=5000
tap_result $? "sweep-runs"
whole_eq sweep

# text and CSV of the merge are the command's own, apart from the trace's name
$vpmcsim compare -j 1 "$out/whole.vtr" 2>/dev/null | grep -v '^trace: ' >"$out/ctext-want"
$vpmcsim merge "$out"/compare-p?.json 2>/dev/null | grep -v '^trace: ' >"$out/ctext-got"
same "merge-text-is-compare-text" "$out/ctext-want" "$out/ctext-got"
$vpmcsim sweep --tolerance 1,100,10000 --assume fixed0,period=5000 "$out/whole.vtr" \
	2>/dev/null >"$out/scsv-want"
$vpmcsim merge "$out"/sweep-p?.json 2>/dev/null >"$out/scsv-got"
same "merge-csv-is-sweep-csv" "$out/scsv-want" "$out/scsv-got"
check merge-names-union 0 "trace: 4 traces (merged)" $vpmcsim merge "$out"/compare-p?.json
# one summary merged alone is its own report
$vpmcsim merge "$out/compare-whole.json" --format json -o "$out/alone.json" 2>/dev/null
same "merge-one-is-itself" "$out/compare-whole.json" "$out/alone.json"

# ---- associative, order-independent -----------------------------------------------------------
m() { $vpmcsim merge --format json "$@" 2>/dev/null; }
m "$out/overlay-p0.json" "$out/overlay-p1.json" >"$out/ab.json"
m "$out/ab.json" "$out/overlay-p2.json" >"$out/ab_c.json"
m "$out/overlay-p1.json" "$out/overlay-p2.json" >"$out/bc.json"
m "$out/overlay-p0.json" "$out/bc.json" >"$out/a_bc.json"
m "$out/overlay-p2.json" "$out/overlay-p0.json" "$out/overlay-p1.json" >"$out/cab.json"
same "associative" "$out/ab_c.json" "$out/a_bc.json"
same "order-independent" "$out/ab_c.json" "$out/cab.json"
# the same vCPUs in several summaries (a fleet of traces): sums of doubles too; a copy stands for
# a second trace (one file given twice is refused, below)
cp "$out/overlay-whole.json" "$out/overlay-whole2.json"
m "$out/overlay-whole.json" "$out/overlay-whole2.json" >"$out/ww.json"
m "$out/ww.json" "$out/overlay-whole.json" >"$out/ww_w.json"
m "$out/overlay-whole.json" "$out/ww.json" >"$out/w_ww.json"
same "associative-same-vcpus" "$out/ww_w.json" "$out/w_ww.json"
# by hand: three copies of the trace have three times its exits, events and samples
for k in exits samples_ideal host_reads; do
	[ "$(jq ".policies[0].$k" "$out/ww_w.json")" = \
	  "$(jq ".policies[0].$k * 3" "$out/overlay-whole.json")" ]
	tap_result $? "three-copies-$k"
done
[ "$(jq .trace.events "$out/ww_w.json")" = "$(jq '.trace.events * 3' "$out/overlay-whole.json")" ]
tap_result $? "three-copies-events"
check same-file-twice 2 "are the same file: its counts would be added twice" \
	$vpmcsim merge "$out/overlay-whole.json" "$out/ww.json" "$out/overlay-whole.json"

# ---- stat -------------------------------------------------------------------------------------
# a timer storm on 4 vCPUs (exits and entries; compare's recording above has no kvm_exit)
$vpmcsim gen timer-storm --vcpus 4 --seconds 1 --set guest_hz=500 -o "$out/storm.vtr" 2>/dev/null
for v in 0 1 2 3; do
	$vpmcsim convert --vcpu $v "$out/storm.vtr" -o "$out/s$v.vtr" 2>/dev/null
done
for f in storm s0 s1 s2 s3; do
	$vpmcsim stat --format json "$out/$f.vtr" >"$out/stat-$f.json" 2>/dev/null
done
$vpmcsim merge "$out/stat-s3.json" "$out/stat-s1.json" "$out/stat-s0.json" \
	"$out/stat-s2.json" --format json -o "$out/stat-merged.json" 2>/dev/null
tap_result $? "stat-merge-runs"
jq 'del(.merge_state.inputs)' "$out/stat-storm.json" >"$out/stat-want"
jq 'del(.merge_state.inputs)' "$out/stat-merged.json" >"$out/stat-got"
same "stat-merged-equals-whole" "$out/stat-want" "$out/stat-got"
# the test covers both percentile definitions: the msr row has more than 1000 samples
# (histogram) while each part has at most 1000 (its samples, exact); rdpmc at most 1000 in all
jq -e '.merge_state.reasons[] | select(.name == "msr") | .n > 1000 and .exact == null' \
	"$out/stat-storm.json" >/dev/null &&
	jq -e '.merge_state.reasons[] | select(.name == "rdpmc") | .exact != null' \
		"$out/stat-storm.json" >/dev/null &&
	! cat "$out"/stat-s?.json | jq -e '.merge_state.reasons[] | select(.name == "msr") |
		.n > 1000' | grep -q true
tap_result $? "stat-covers-exact-and-histogram"
$vpmcsim stat "$out/storm.vtr" 2>/dev/null >"$out/stext-want"
$vpmcsim merge "$out"/stat-s?.json 2>/dev/null >"$out/stext-got"
same "merge-text-is-stat-text" "$out/stext-want" "$out/stext-got"
m "$out/stat-s0.json" "$out/stat-s1.json" >"$out/sab.json"
m "$out/sab.json" "$out/stat-s2.json" >"$out/sab_c.json"
m "$out/stat-s1.json" "$out/stat-s2.json" >"$out/sbc.json"
m "$out/stat-s0.json" "$out/sbc.json" >"$out/sa_bc.json"
m "$out/stat-s2.json" "$out/stat-s0.json" "$out/stat-s1.json" >"$out/scab.json"
same "stat-associative" "$out/sab_c.json" "$out/sa_bc.json"
same "stat-order-independent" "$out/sab_c.json" "$out/scab.json"
s0=$out/stat-s0.json
for o in "key --key max" "time --time 0,0.5" "vcpus --vcpu 1"; do
	set -- $o
	$vpmcsim stat "$2" "$3" --format json "$out/s1.vtr" >"$out/sr-$1.json" 2>/dev/null
	check "stat-refuse-$1" 1 "merge: $s0 and $out/sr-$1.json were made with different $1" \
		$vpmcsim merge "$s0" "$out/sr-$1.json"
done
check stat-refuse-compare 1 "were made with different command: \"stat\" against \"compare\"" \
	$vpmcsim merge "$s0" "$out/compare-p1.json"

# ---- latency ------------------------------------------------------------------------------------
# The timer storm of timer-storm.md on 4 vCPUs; latency measures each vCPU's handler windows
# (pooled and per vCPU), so the parts of a split by vCPU add up to the whole.
$vpmcsim gen timer-storm --vcpus 4 --seconds 1 -o "$out/lat.vtr" 2>/dev/null
for v in 0 1 2 3; do
	$vpmcsim convert --vcpu $v "$out/lat.vtr" -o "$out/l$v.vtr" 2>/dev/null
done
for f in lat l0 l1 l2 l3; do
	$vpmcsim latency --format json "$out/$f.vtr" >"$out/lat-$f.json" 2>/dev/null
done
$vpmcsim merge "$out/lat-l2.json" "$out/lat-l0.json" "$out/lat-l3.json" "$out/lat-l1.json" \
	--format json -o "$out/lat-merged.json" 2>/dev/null
tap_result $? "latency-merge-runs"
# latency's "trace" is the path alone
jq 'del(.trace, .merge_state.inputs)' "$out/lat-lat.json" >"$out/lat-want"
jq 'del(.trace, .merge_state.inputs)' "$out/lat-merged.json" >"$out/lat-got"
same "latency-merged-equals-whole" "$out/lat-want" "$out/lat-got"
# every vCPU has windows in the whole trace, under every policy (else the test proves less)
jq -e '[.rows[].per_vcpu[].samples] | length == 24 and all(. > 0)' "$out/lat-lat.json" \
	>/dev/null
tap_result $? "latency-every-vcpu-has-samples"
# by hand: each policy's windows in the union are the sum of the parts'
[ "$(jq '[.rows[].samples]' "$out/lat-merged.json" | tr -d ' \n')" = \
  "$(cat "$out"/lat-l?.json | jq -s '[range(6) as $p | map(.rows[$p].samples) | add]' |
     tr -d ' \n')" ]
tap_result $? "latency-samples-add-up"
$vpmcsim latency "$out/lat.vtr" 2>/dev/null | grep -v '^trace: ' >"$out/ltext-want"
$vpmcsim merge "$out"/lat-l?.json 2>/dev/null | grep -v '^trace: ' >"$out/ltext-got"
same "merge-text-is-latency-text" "$out/ltext-want" "$out/ltext-got"
check latency-merge-names-union-and-gen 0 \
	"trace: 4 traces (merged) (gen timer-storm version=1 seed=1 vcpus=4 seconds=1)" \
	$vpmcsim merge "$out"/lat-l?.json
$vpmcsim latency --format csv "$out/lat.vtr" 2>/dev/null >"$out/lcsv-want"
$vpmcsim merge --format csv "$out"/lat-l?.json 2>/dev/null >"$out/lcsv-got"
same "merge-csv-is-latency-csv" "$out/lcsv-want" "$out/lcsv-got"
m "$out/lat-l0.json" "$out/lat-l1.json" >"$out/lab.json"
m "$out/lab.json" "$out/lat-l2.json" >"$out/lab_c.json"
m "$out/lat-l1.json" "$out/lat-l2.json" >"$out/lbc.json"
m "$out/lat-l0.json" "$out/lbc.json" >"$out/la_bc.json"
m "$out/lat-l2.json" "$out/lat-l0.json" "$out/lat-l1.json" >"$out/lcab.json"
same "latency-associative" "$out/lab_c.json" "$out/la_bc.json"
same "latency-order-independent" "$out/lab_c.json" "$out/lcab.json"
# the same vCPUs in several summaries: exact sums of doubles in any grouping
m "$out/lat-lat.json" "$out/lat-lat.json" >"$out/lww.json"
m "$out/lww.json" "$out/lat-lat.json" >"$out/lww_w.json"
m "$out/lat-lat.json" "$out/lww.json" >"$out/lw_ww.json"
same "latency-associative-same-vcpus" "$out/lww_w.json" "$out/lw_ww.json"
l0=$out/lat-l0.json
lrefuse() { # NAME WHAT ARGS...: latency ARGS on part 1 does not merge with part 0, for WHAT
	local name=$1 what=$2
	shift 2
	$vpmcsim latency "$@" --format json "$out/l1.vtr" >"$out/lr-$name.json" 2>/dev/null
	check "latency-refuse-$name" 1 \
		"merge: $l0 and $out/lr-$name.json were made with different $what" \
		$vpmcsim merge "$l0" "$out/lr-$name.json"
}
lrefuse policies policies --policy exact
# the first parameter that differs, named, with both values (profiles/*.cost: resume_us 2.4 in
# default, 2 in rfc-milan; handler_overhead_ns 0 by default)
lrefuse cost-profile "cost.resume_us: 2.4 (0x1.3333333333333p+1) against 2 (0x1p+1)" \
	--cost-profile rfc-milan
lrefuse cost "cost.handler_overhead_ns: 0 (0x0p+0) against 1000 (0x1.f4p+9)" \
	--cost handler_overhead_ns=1000
lrefuse vector "latency.vector: 236 against 239" --vector 0xef
lrefuse end "latency.end" --end eoi
lrefuse max-window "latency.max_window_ns" --max-window-us 1000
lrefuse fast "latency.fast_us" --fast-us 10
lrefuse gaps "latency.gaps" --gaps model
lrefuse baseline "latency.baseline" --baseline mediated
lrefuse per-vcpu "latency.per_vcpu" --per-vcpu
# the trace's !gen line, or its absence
grep -v '^!gen' "$out/l1.vtr" >"$out/l1-nogen.vtr"
$vpmcsim latency --format json "$out/l1-nogen.vtr" >"$out/lr-gen.json" 2>/dev/null
check latency-refuse-gen 1 "were made with different latency.gen" \
	$vpmcsim merge "$l0" "$out/lr-gen.json"
check latency-refuse-compare 1 "different command: \"latency\" against \"compare\"" \
	$vpmcsim merge "$l0" "$out/compare-p1.json"

# ---- nested -------------------------------------------------------------------------------------
# A 3-vCPU ping-pong with jitter: 30 round trips per vCPU (at most 30 distinct measured windows:
# each part's distribution exact), 90 in the whole (more than 64 distinct: its histogram).
$vpmcsim gen nested-pingpong --vcpus 3 --iterations 30 --jitter 5 -o "$out/nest.vtr" 2>/dev/null
for v in 0 1 2; do
	$vpmcsim convert --vcpu $v "$out/nest.vtr" -o "$out/n$v.vtr" 2>/dev/null
done
for f in nest n0 n1 n2; do
	$vpmcsim nested --format json "$out/$f.vtr" >"$out/nest-$f.json" 2>/dev/null
done
$vpmcsim merge "$out/nest-n2.json" "$out/nest-n0.json" "$out/nest-n1.json" --format json \
	-o "$out/nest-merged.json" 2>/dev/null
tap_result $? "nested-merge-runs"
jq 'del(.trace.path, .merge_state.inputs)' "$out/nest-nest.json" >"$out/nest-want"
jq 'del(.trace.path, .merge_state.inputs)' "$out/nest-merged.json" >"$out/nest-got"
same "nested-merged-equals-whole" "$out/nest-want" "$out/nest-got"
jq -e '.merge_state.kinds[0].measured | .n == 90 and .values == null' \
	"$out/nest-nest.json" >/dev/null &&
	jq -e '.merge_state.kinds[0].measured | .n == 30 and .hist == null' \
		"$out/nest-n1.json" >/dev/null
tap_result $? "nested-covers-exact-and-histogram"
$vpmcsim nested "$out/nest.vtr" 2>/dev/null | grep -v '^trace: ' >"$out/ntext-want"
$vpmcsim merge "$out"/nest-n?.json 2>/dev/null | grep -v '^trace: ' >"$out/ntext-got"
same "merge-text-is-nested-text" "$out/ntext-want" "$out/ntext-got"
$vpmcsim nested --format csv "$out/nest.vtr" 2>/dev/null >"$out/ncsv-want"
$vpmcsim merge --format csv "$out"/nest-n?.json 2>/dev/null >"$out/ncsv-got"
same "merge-csv-is-nested-csv" "$out/ncsv-want" "$out/ncsv-got"
m "$out/nest-n0.json" "$out/nest-n1.json" >"$out/nab.json"
m "$out/nab.json" "$out/nest-n2.json" >"$out/nab_c.json"
m "$out/nest-n1.json" "$out/nest-n2.json" >"$out/nbc.json"
m "$out/nest-n0.json" "$out/nbc.json" >"$out/na_bc.json"
m "$out/nest-n2.json" "$out/nest-n0.json" "$out/nest-n1.json" >"$out/ncab.json"
same "nested-associative" "$out/nab_c.json" "$out/na_bc.json"
same "nested-order-independent" "$out/nab_c.json" "$out/ncab.json"
# by hand: two copies of the trace (the same vCPUs) have twice its round trips, events and
# L1 exits: 3 vCPUs x 30 round trips = 90, each one L1 exit
cp "$out/nest-nest.json" "$out/nest-nest2.json"
m "$out/nest-nest.json" "$out/nest-nest2.json" >"$out/nww.json"
[ "$(jq -c '[.kinds[0].roundtrips, .totals.roundtrips, .totals.l1_exits, .trace.vcpus]' \
	"$out/nww.json")" = "[180,180,180,3]" ] &&
	[ "$(jq .trace.events "$out/nww.json")" = "$(jq '.trace.events * 2' \
		"$out/nest-nest.json")" ]
tap_result $? "nested-two-copies-add-up"
n0=$out/nest-n0.json
nrefuse() { # NAME WHAT ARGS...: nested ARGS on part 1 does not merge with part 0, for WHAT
	local name=$1 what=$2
	shift 2
	$vpmcsim nested "$@" --format json "$out/n1.vtr" >"$out/nr-$name.json" 2>/dev/null
	check "nested-refuse-$name" 1 \
		"merge: $n0 and $out/nr-$name.json were made with different $what" \
		$vpmcsim merge "$n0" "$out/nr-$name.json"
}
nrefuse profile model.assume --profile prod
nrefuse l1-memory model.assume --l1-memory io
nrefuse cost model.params --cost map_pair_sp=1000
nrefuse anchor model.anchor --anchor model
nrefuse msr-in-range model.msr_in_range --msr-in-range no
nrefuse gpc-cold model.gpc_cold --gpc-cold
nrefuse invalidate model.gpc_invalidate_every --gpc-invalidate-every 10
check nested-refuse-latency 1 "different command: \"nested\" against \"latency\"" \
	$vpmcsim merge "$n0" "$l0"
jq '.merge_state.kinds[0].measured.values[0][1] = 0' "$n0" >"$out/nzero.json"
check nested-bad-count 1 "merge: $out/nzero.json: merge_state.kinds: missing or malformed" \
	$vpmcsim merge "$out/nzero.json"

# ---- refusals ---------------------------------------------------------------------------------
p0=$out/compare-p0.json
refuse() { # NAME WHAT ARGS...: compare ARGS on part 1 does not merge with part 0, for WHAT
	local name=$1 what=$2
	shift 2
	$vpmcsim compare -j 1 "$@" --format json "$out/p1.vtr" >"$out/r-$name.json" 2>/dev/null
	check "refuse-$name" 1 "merge: $p0 and $out/r-$name.json were made with different $what" \
		$vpmcsim merge "$p0" "$out/r-$name.json"
}
refuse policies policies --policy exact
refuse overlay overlay --assume fixed0,period=5000
refuse cost cost --cost resume_us=3
refuse cost-profile cost --cost-profile rfc-milan
refuse vendor pmu --vendor amd
refuse kernel pmu --host-kernel 6.5
# the host kernels named as written, MAJOR.MINOR, not as VPMC_KERNEL() encodes them (6.8 is
# 6 << 16 | 8 = 393224, 6.12 is 393228)
for k in 6.8 6.12; do
	$vpmcsim compare -j 1 --host-kernel $k --format json "$out/p1.vtr" >"$out/k$k.json" \
		2>/dev/null
done
check refuse-kernel-as-written 1 "different pmu.host_kernel: 6.8 against 6.12; they do not merge" \
	$vpmcsim merge "$out/k6.8.json" "$out/k6.12.json"
refuse guest-ips assumptions --guest-ips 2000000000
check refuse-command 1 "were made with different command: \"compare\" against \"sweep\"" \
	$vpmcsim merge "$p0" "$out/sweep-p1.json"
check refuse-names-both 1 "$out/sweep-p1.json" $vpmcsim merge "$p0" "$out/sweep-p1.json"

# ---- bad input ----------------------------------------------------------------------------------
check no-input 2 "merge: no summary to merge" $vpmcsim merge
check bad-format 2 "merge: --format 'xml': expected text, csv or json" \
	$vpmcsim merge --format xml "$p0"
check missing-file 2 "merge: $out/nope.json:" $vpmcsim merge "$p0" "$out/nope.json"
printf '{"merge_state": {"schema": 1,\n' >"$out/cut.json"
check malformed-json 1 "merge: $out/cut.json:2:" $vpmcsim merge "$p0" "$out/cut.json"
$vpmcsim replay --policy exact --format json "$out/p0.vtr" >"$out/replay.json" 2>/dev/null
check not-a-summary 1 "merge: $out/replay.json: no \"merge_state\" object" \
	$vpmcsim merge "$out/replay.json"
jq '.merge_state.schema = "vpmcsim-summary/0"' "$p0" >"$out/schema.json"
check wrong-schema 1 "merge: $out/schema.json: merge_state.schema: not \"vpmcsim-summary/1\"" \
	$vpmcsim merge "$out/schema.json"
# a bucket whose bounds are not a bucket of the histogram (low 129 is inside [128, 129])
jq '(.merge_state.units[0].lanes[0].cost_ns.buckets[0]) |= [129, 129, .[2]]' "$p0" \
	>"$out/bucket.json"
check bad-bucket 1 "merge: $out/bucket.json: merge_state.units[vcpu 0].lanes[0]: \"cost_ns\"" \
	$vpmcsim merge "$out/bucket.json"
jq '.merge_state.units[0].lanes[0].exits = -1' "$p0" >"$out/neg.json"
check bad-count 1 "merge: $out/neg.json: merge_state.units[vcpu 0].lanes[0]: \"exits\"" \
	$vpmcsim merge "$out/neg.json"
jq 'del(.merge_state.units[0].lanes[1])' "$p0" >"$out/lanes.json"
check bad-lanes 1 "a unit without one entry in \"lanes\" per policy" \
	$vpmcsim merge "$out/lanes.json"
# -o: a refused merge leaves no file behind, nor changes one
echo keep >"$out/kept"
$vpmcsim merge "$p0" "$out/schema.json" -o "$out/kept" 2>/dev/null
[ "$(cat "$out/kept")" = keep ]
tap_result $? "refused-merge-leaves-output"

tap_done
