#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_docs.sh - The documentation says what the code does:
# - every document the man pages, the installed headers, README.md and docs/ cite is in the
#   source tree and distributed (docs/ in dist_doc_DATA, other paths under EXTRA_DIST);
# - docs/trace-format.md, "The replay log": the kinds and fields it lists, in its order, are
#   those of real --log output; the reference's records; values >= 2^63 and MSR indices;
# - README.md, "Recording a trace": its table names every kvm event the readers use and no
#   other, its command records them all on the mono clock, and the reader's messages it quotes
#   are vpmcsim's;
# - vpmcsim(1), EXAMPLES: every example runs (the recording itself is left out: it needs root
#   and a guest; a real VMX excerpt stands in for its guest.dat), and the README's recording
#   command is the first; a jq example prints no null (each key it names is in the output);
# - vpmcsim(1), MERGE: the fleet example's glob matches the source tree's traces, and it runs;
# - the man pages render without a request left in the text (a macro that is not at the start
#   of its line is printed as words: ".BI -j" in the middle of a sentence).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tap.sh"

src=$top_srcdir
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-docs.XXXXXX")
trap 'rm -rf "$tmp" "$tap_out" "$tap_out.err"' EXIT
vpmcsim_dir=$(cd "$top_builddir/sim" && pwd)

# fail NAME MESSAGE...: a failed result with its reasons
fail() {
	local name=$1
	shift
	tap_result 1 "$name"
	for m in "$@"; do echo "# $m"; done
}

# The words of a variable of Makefile.am (continuation lines joined, every += added)
am_words() {
	sed -e ':a' -e '/\\$/{N;s/\\\n/ /;ba' -e '}' "$src/Makefile.am" |
		sed -n "s/^$1 *+*= *//p" | tr -s ' \t' '\n\n'
}

# ---- cited documents ------------------------------------------------------------------------

cited=$(for f in $(cd "$src" && echo sim/vpmcsim.1 sim/vpmc.3 include/vpmc.h include/vpmc/*.h \
		README.md docs/*.md); do
		(cd "$src" && sed 's/\\-/-/g' "$f") |
			grep -o '[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b'
	done | sort -u)
docs=$(am_words dist_doc_DATA)
dist=$(am_words EXTRA_DIST)

for c in $cited; do
	case $c in
	*/*) path=$c ;;
	*) path=docs/$c ;;
	esac
	case $path in
	docs/*)
		if [ ! -f "$src/$path" ]; then
			fail "cited-$c-shipped" "$path is not in the source tree"
		elif ! echo "$docs" | grep -qx "$path"; then
			fail "cited-$c-shipped" "$path is not in dist_doc_DATA (Makefile.am)"
		else
			tap_result 0 "cited-$c-shipped"
		fi ;;
	*)
		if [ -f "$src/$path" ] && echo "$dist" | grep -qx -e "$path" -e "${path%%/*}"; then
			tap_result 0 "cited-$c-shipped"
		else
			fail "cited-$c-shipped" "$path is missing or not under EXTRA_DIST"
		fi ;;
	esac
done

# ---- the replay log -------------------------------------------------------------------------

# Scenarios that give every kind; the inline one a spurious PMI, a #GP'd WRMSR of a value above
# 2^63 and a read whose host value the trace recorded
cat >"$tmp/log.vtr" <<'EOF'
!vpmcsim-trace 1
!pmu vendor=intel
# PMC0 = 2^48 - 2; EVNTSEL0 = EN|INT|OS|USR, instructions: its own retire makes 2^48 - 1
0 0 wrmsr 0xc1 0xfffffffffffe
0 0 retire
0 0 wrmsr 0x186 0x5300c0
0 0 retire
10 0 entry
# INT cleared: this WRMSR's retire wraps the counter, the reference raises no PMI; a perf-backed
# policy delivers one at the drain (pmc->intr from the programming that created the perf
# event), which covers no reference overflow: spurious
30 0 exit MSR_WRITE
30 0 wrmsr 0x186 0x4300c0
30 0 retire
50 0 entry
# reserved bits: #GP (no retire), logged with the value tried
60 0 exit MSR_WRITE
60 0 wrmsr 0x186 0xffffffffffffffff
70 0 entry
80 0 exit RDPMC
80 0 rdpmc 0 1
80 0 retire
90 0 entry
EOF
sc=$VPMC_TRACES/scenarios
{
	$vpmcsim replay --policy exact --log - "$tmp/log.vtr"
	$vpmcsim replay --policy tolerance=100 --log - "$sc/replay-tolerance-late-pmi.vtr"
	$vpmcsim replay --policy tolerance=100 --log - "$sc/replay-tolerance-missed-pmi.vtr"
	$vpmcsim replay --policy disabled=0x2 --log - "$sc/replay-disabled-read-error.vtr"
	$vpmcsim replay --policy exact --log - "$sc/replay-host-values.vtr"
	$vpmcsim replay --policy exact --assume gp0=instructions,period=100 --log - \
		"$sc/replay-overlay-segment.vtr"
} 2>/dev/null | grep '^{' >"$tmp/log.jsonl"

# The section's tables: the common fields, then "| `kind` | `field`, ..., [`optional`] | ..."
sed -n '/^## The replay log/,/^## [^T]/p' "$src/docs/trace-format.md" >"$tmp/section"
common=$(sed -n '/^| field | JSON type/,/^$/p' "$tmp/section" |
	sed -n 's/^| `\([a-z_]*\)` |.*/\1/p' | paste -sd, -)
sed -n '/^| `kind` | fields after/,/^$/p' "$tmp/section" | grep '^| `[a-z]*` | .*`' |
	awk -F'|' '{ k = $2; f = $3; gsub(/[ `]/, "", k); gsub(/[ `]/, "", f); print k, f }' \
	>"$tmp/kinds"

# Each documented kind: its records have the common fields and its own, in the documented order
# (an optional field, [`host`], may be absent)
while read -r kind fields; do
	want=$common,$(echo "$fields" | tr -d '[]')
	without=$common,$(echo "$fields" | sed 's/,*\[[^]]*\]//g')
	got=$(grep "^{\"kind\":\"$kind\"" "$tmp/log.jsonl" | grep -o '"[a-z_]*":' | tr -d '":' |
		paste -sd, - | sed 's/,kind,/\nkind,/g' | sort -u)
	bad=$(echo "$got" | grep -vx -e "$want" -e "$without")
	if [ -n "$got" ] && [ -z "$bad" ]; then
		tap_result 0 "log-fields-$kind"
	else
		fail "log-fields-$kind" "documented: $want" "logged: ${got:-no $kind record}"
	fi
done <"$tmp/kinds"

cut -d' ' -f1 "$tmp/kinds" >"$tmp/kinds.list"
undocumented=$(sed 's/^{"kind":"\([a-z_]*\)".*/\1/' "$tmp/log.jsonl" | sort -u |
	grep -vxF -f "$tmp/kinds.list")
[ -z "$undocumented" ]
tap_result $? log-every-kind-documented
[ -n "$undocumented" ] && echo "# not in docs/trace-format.md: $undocumented"
# the reference's own records: overflows and PMIs, as the section says
refkinds=$(grep '"policy":"reference"' "$tmp/log.jsonl" | sed 's/^{"kind":"\([a-z]*\)".*/\1/' |
	sort -u | paste -sd, -)
if [ "$refkinds" = overflow,pmi ] && grep -q '"policy":"reference"' "$tmp/section"; then
	tap_result 0 log-reference-records
else
	fail log-reference-records "reference kinds logged: $refkinds"
fi
check log-u64-as-hex-string 0 '"index":390,"value":"0xffffffffffffffff","counter":-1,"gp":true}' \
	cat "$tmp/log.jsonl"
check log-u64-documented 0 '(`"0xffffffffffffffff"`)' cat "$tmp/section"
check log-index-decimal-documented 0 'IA32_PERFEVTSEL0 (0x186) is `390`' cat "$tmp/section"

# ---- README.md, "Recording a trace" ---------------------------------------------------------

sed -n '/^## Recording a trace/,/^## [^R]/p' "$src/README.md" >"$tmp/recording"
used=$(cat "$src/lib/trace/record.c" "$src/lib/trace/nested_import.c" |
	grep -o '"kvm_[a-z_]*[a-z]"' | tr -d '"' | sort -u)
listed=$(grep '^ *| `kvm_' "$tmp/recording" | awk -F'|' '{ print $2 }' |
	grep -o 'kvm_[a-z_]*' | sort -u)

# README: the events it lists are the ones the readers use
echo "$used" >"$tmp/used"
echo "$listed" >"$tmp/listed"
missing=$(grep -vxF -f "$tmp/listed" "$tmp/used")
extra=$(grep -vxF -f "$tmp/used" "$tmp/listed")
if [ -n "$used" ] && [ -z "$missing$extra" ]; then
	tap_result 0 readme-recording-events
else
	fail readme-recording-events "used but not listed: $missing" "listed but not used: $extra"
fi
rec_cmd=$(grep '^trace-cmd record' "$tmp/recording")
case $rec_cmd in
*" -C mono "*" -e kvm "*) tap_result 0 readme-recording-clock-events ;;
*) fail readme-recording-clock-events "README's command: $rec_cmd" ;;
esac
# The reader's lines the README quotes (N a number, NAME an event name), on a trace that has
# them all: PVM records (no kvm_entry, no kvm_exit), a lost-events marker, time stamps back
{
	sed -n 1,40p "$VPMC_TRACES/local-kvm/small-mixed-real.txt"
	echo "CPU:0 [LOST 3 EVENTS]"
	echo " kvm-guest-harne-17369 [001]   876.825000: kvm_emulate_insn:     0:3043: 66 31 c9"
	echo " kvm-guest-harne-17369 [001]   876.825001: kvm_emulate_insn:     0:3046: 66 31 c9"
} >"$tmp/guest.dat"
(cd "$tmp" && "$vpmcsim_dir/vpmcsim" stat guest.dat) >"$tmp/stat.out" 2>&1
quoted=$(sed -n '/^\*\*Checking the recording/,$p' "$tmp/recording" | sed -n '/^```$/,/^```$/p' |
	grep '^vpmcsim: ')
bad=$(echo "$quoted" | while IFS= read -r line; do
		re=$(printf '%s\n' "$line" | sed -e 's/[][\.*^$(){}+?|/]/\\&/g' \
			-e 's/\<N\>/[0-9]+/g' -e 's/\<NAME\>/[a-z_]+/g' -e 's/\\\.\\\.\\\./.*/g')
		grep -qxE "$re" "$tmp/stat.out" || printf '%s\n' "$line"
	done)
if [ -n "$quoted" ] && [ -z "$bad" ]; then
	tap_result 0 readme-recording-stat-lines
else
	fail readme-recording-stat-lines "not printed by vpmcsim stat: ${bad:-(no lines quoted)}"
	tap_quote "$tmp/stat.out"
fi

# ---- vpmcsim(1), EXAMPLES -------------------------------------------------------------------

# The .nf blocks of the section, man escapes undone, continued lines joined: one command a line
sed -n '/^\.SH EXAMPLES$/,/^\.SH /p' "$src/sim/vpmcsim.1" | sed -n '/^\.nf$/,/^\.fi$/p' |
	sed -e '/^\.\(nf\|fi\|RS\|RE\)/d' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g' -e 's/\\-/-/g' |
	sed -e ':a' -e '/[\\|]$/{N;s/\\\n */ /;s/|\n */| /;ba' -e '}' >"$tmp/examples"

# vpmcsim(1) EXAMPLES, in order, in one directory; the recording left out
cp "$VPMC_TRACES/public/12-vmx-nested-l1-cr0wp-triple-fault-newfmt-multivcpu.txt" "$tmp/guest.dat"
n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	case $cmd in
	trace-cmd*) tap_result 0 "example-$n # SKIP recording needs root and a guest"; continue ;;
	*jq*) command -v jq >/dev/null 2>&1 ||
		{ tap_result 0 "example-$n # SKIP jq not installed"; continue; } ;;
	*--plot*) command -v gnuplot >/dev/null 2>&1 ||
		{ tap_result 0 "example-$n # SKIP gnuplot not installed"; continue; } ;;
	esac
	(cd "$tmp" && PATH=$vpmcsim_dir:$PATH && eval "$cmd") >"$tap_out" 2>&1 </dev/null
	rc=$?
	# what the command gave: its output, or the file it wrote
	case $cmd in
	*--plot*) out=$tmp/sweep.svg ;;
	*--log*) out=$tmp/guest.jsonl ;;
	*" -o "*) out=$tmp/guest.vtr ;;
	*) out=$tap_out ;;
	esac
	# a jq example that prints null names a key the output does not have
	null=
	case $cmd in *jq*) grep -qw null "$out" && null=", printed null" ;; esac
	if [ "$rc" = 0 ] && [ -s "$out" ] && [ -z "$null" ]; then
		tap_result 0 "example-$n"
	else
		fail "example-$n" "$cmd: exit $rc$null"
		tap_quote "$tap_out"
	fi
done <"$tmp/examples"
# the README's recipe is the first example
if [ -n "$rec_cmd" ] && grep -qxF "$rec_cmd" "$tmp/examples"; then
	tap_result 0 readme-recording-is-man-example
else
	fail readme-recording-is-man-example "README: $rec_cmd" "not among vpmcsim(1)'s EXAMPLES"
fi

# ---- vpmcsim(1), MERGE: the fleet example ---------------------------------------------------

# Run where traces/ is the source tree's: its glob matches recordings, and the merge it writes
# names as many traces as the glob matched (GNU parallel and a trace.dat reader permitting).
sed -n '/^\.SH MERGE$/,/^\.SH /p' "$src/sim/vpmcsim.1" | sed -n '/^\.nf$/,/^\.fi$/p' |
	sed -e '/^\.\(nf\|fi\|RS\|RE\)/d' -e "s/\\\\(aq/'/g" -e 's/\\-/-/g' >"$tmp/fleet.sh"
mkdir "$tmp/fleet" && ln -s "$(cd "$VPMC_TRACES" && pwd)" "$tmp/fleet/traces"
glob=$(sed -n 's/.* ::: //p' "$tmp/fleet.sh")
set -- $(cd "$tmp/fleet" && for f in $glob; do [ -e "$f" ] && echo "$f"; done)
if [ -n "$glob" ] && [ $# -gt 0 ]; then
	tap_result 0 merge-example-glob-matches
else
	fail merge-example-glob-matches "'$glob' matches nothing in the source tree"
fi
if ! command -v parallel >/dev/null 2>&1; then
	tap_result 0 "merge-example-runs # SKIP GNU parallel not installed"
elif ! "$vpmcsim_dir/vpmcsim" stat "$tmp/fleet/$1" >/dev/null 2>&1; then
	tap_result 0 "merge-example-runs # SKIP this vpmcsim cannot read $1"
else
	(cd "$tmp/fleet" && PATH=$vpmcsim_dir:$PATH && . "$tmp/fleet.sh" &&
		vpmcsim merge merged.json) >"$tap_out" 2>&1 </dev/null
	if grep -qx "trace: $# traces (merged)" "$tap_out"; then
		tap_result 0 merge-example-runs
	else
		fail merge-example-runs "want 'trace: $# traces (merged)'"
		tap_quote "$tap_out"
	fi
fi
# ---- man pages: no request printed as text -------------------------------------------------

for page in sim/vpmcsim.1 sim/vpmc.3; do
	name=man-renders-$(basename "$page")
	if ! command -v groff >/dev/null 2>&1; then
		tap_result 0 "$name # SKIP groff not installed (scripts/install-deps.sh)"
		continue
	fi
	# a macro name after a space or a period, as the man macros name them (an option such as
	# --fast-us, or a file name such as out.vtr, is never one of these words)
	LC_ALL=C groff -man -Tascii -P-c -P-b -P-u "$src/$page" 2>&1 |
		grep -nE '(^|[ .])\.(B|I|BI|BR|IB|IR|RB|RI|SH|SS|TP|IP|PP|LP|P|RS|RE|nf|fi|br)( |$)' \
		>"$tap_out" || :
	if [ -s "$tap_out" ]; then
		fail "$name" "requests printed as text (not at the start of a line in the source):"
		tap_quote "$tap_out"
	else
		tap_result 0 "$name"
	fi
done
tap_plan $tap_n
tap_done
