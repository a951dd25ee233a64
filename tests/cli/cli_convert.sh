#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_convert.sh - vpmcsim convert: options, exit codes, messages, and the events it writes.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tap.sh"

T=$VPMC_TRACES
out=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-convert.XXXXXX")
trap 'rm -rf "$out" "$tap_out" "$tap_out.err"' EXIT
public=$T/public
kvm=$T/local-kvm
recordings="small-mixed-real small-mixed-pm32 small-mixed-lm64 multi-vcpu-real pmu-gp-real
pmu-usermsr-real"
# the recordings that traces/local-kvm also has as trace-cmd report -R text
raw_recordings="small-mixed-real small-mixed-pm32 small-mixed-lm64 pmu-gp-real pmu-usermsr-real"
have_dat=no
grep -q '^#define HAVE_LIBTRACECMD 1' "$top_builddir/config.h" 2>/dev/null && have_dat=yes

# The event lines of a .vtr (no directives), times in µs (rounded): the default trace-cmd report
# prints µs, trace.dat has ns.
events_us() { grep -v '^!' "$1" | awk '{ $1 = int(($1 + 500) / 1000) } 1'; }

# same NAME A B: files A and B have the same content.
same() {
	if cmp -s "$2" "$3"; then
		tap_result 0 "$1"
	else
		tap_result 1 "$1"
		diff "$2" "$3" | head -n 10 | tap_quote
	fi
}

tap_plan 73

# ---- command line -----------------------------------------------------------------------------
check help 0 "Usage: vpmcsim convert [OPTIONS] IN -o OUT.vtr" $vpmcsim convert --help
check listed 0 "convert" $vpmcsim --help
# F: every command's --help shows its options as "--opt ARG", none as "--opt=ARG"
check help-output-style 0 "  -o, --output FILE   the .vtr to write" $vpmcsim convert --help
for c in compare replay sweep stat convert; do
	$vpmcsim $c --help >"$out/help" 2>&1
	! grep -q -- '--[a-z-]*=' "$out/help"
	tap_result $? "help-no-equals-$c"
done
check no-input 2 "vpmcsim: convert: no input trace" $vpmcsim convert -o "$out/x.vtr"
check two-inputs 2 "vpmcsim: convert: one input trace only" \
	$vpmcsim convert a.txt b.txt -o "$out/x.vtr"
check no-output 2 "vpmcsim: convert: no output: -o OUT.vtr" $vpmcsim convert "$kvm/pmu-gp-real.txt"
check bad-option 2 "Usage: vpmcsim convert" $vpmcsim convert --frobnicate x.txt -o "$out/x.vtr"
check bad-format 2 "vpmcsim: convert: --input-format: 'xml' is not auto, vtr, text or dat" \
	$vpmcsim convert --input-format=xml x.txt -o "$out/x.vtr"
# --input-format as in the other commands; --format (the output's format elsewhere) is an error
check input-format 0 "!source kind=ftrace" \
	$vpmcsim convert --input-format text "$public/05-vmx-ctf-kvm-hlt-userspace-exit.txt" -o -
check format-is-not-input-format 2 "vpmcsim: convert: --format 'text': convert always writes .vtr; the input's format is --input-format" \
	$vpmcsim convert --format=text x.txt -o "$out/x.vtr"
check input-format-applies 1 "expected an event ('NAME: ...') on this line, found '!vpmcsim-trace'" \
	$vpmcsim convert --input-format=text "$T/vtr/canonical.vtr" -o "$out/x.vtr"
check bad-permille 2 "vpmcsim: convert: --guest-branch-permille: '1001' is not 0..1000" \
	$vpmcsim convert --guest-branch-permille=1001 x.txt -o "$out/x.vtr"
check bad-ips 2 "vpmcsim: convert: --guest-ips: '1e9' is not a decimal number" \
	$vpmcsim convert --guest-ips=1e9 x.txt -o "$out/x.vtr"
check bad-kernel 2 "vpmcsim: convert: --host-kernel: '6' is not MAJOR.MINOR" \
	$vpmcsim convert --host-kernel=6 x.txt -o "$out/x.vtr"
# 5.15 counted no emulated instructions (before 9cd803d496e7): not modeled, refused
check old-kernel 2 "vpmcsim: convert: --host-kernel: 5.15 is older than 6.2, the oldest host the model represents" \
	$vpmcsim convert --host-kernel=5.15 x.txt -o "$out/x.vtr"
check bad-vendor 2 "vpmcsim: convert: --vendor: 'via' is not intel or amd" \
	$vpmcsim convert --vendor=via x.txt -o "$out/x.vtr"
check missing-file 2 "vpmcsim: $out/none.txt: No such file or directory" \
	$vpmcsim convert "$out/none.txt" -o "$out/x.vtr"
# an option that takes one value is refused when given twice, not last-wins (nothing written)
hlt=$public/05-vmx-ctf-kvm-hlt-userspace-exit.txt
check output-twice 2 "vpmcsim: convert: -o given twice ('$out/a.vtr', '$out/b.vtr')" \
	$vpmcsim convert "$hlt" -o "$out/a.vtr" -o "$out/b.vtr"
if [ -e "$out/a.vtr" ] || [ -e "$out/b.vtr" ]; then r=1; else r=0; fi
tap_result $r output-twice-nothing-written
check output-twice-long 2 "vpmcsim: convert: --output given twice ('-', '$out/b.vtr')" \
	$vpmcsim convert "$hlt" -o - --output="$out/b.vtr"
check input-format-twice 2 "vpmcsim: convert: --input-format given twice ('text', 'vtr')" \
	$vpmcsim convert --input-format text --input-format vtr "$hlt" -o -
for o in "guest-ips 1 2" "guest-branch-permille 1 2" "host-kernel 6.3 6.2" "vendor amd intel"; do
	set -- $o
	check "$1-twice" 2 "vpmcsim: convert: --$1 given twice ('$2', '$3')" \
		$vpmcsim convert "--$1" "$2" "--$1=$3" "$hlt" -o -
done
# a flag may be given again: it asks for the same thing
check lenient-twice 0 "!source kind=ftrace" $vpmcsim convert --lenient --lenient "$hlt" -o -
check unwritable-output 2 "vpmcsim: convert: $out/no/x.vtr: No such file or directory" \
	$vpmcsim convert "$public/05-vmx-ctf-kvm-hlt-userspace-exit.txt" -o "$out/no/x.vtr"

# ---- bad input: exit 1, the reader's FILE:LINE:COL message, no output left behind ------------
bad=$public/47-vmx-pmu-pmi-loop-hand-edited-symbolic-msr-NOT-PARSEABLE.txt
check bad-input 1 "vpmcsim: $bad:1:22: kvm_msr: expected the MSR index in hex after 'msr_write'" \
	$vpmcsim convert "$bad" -o "$out/bad.vtr"
if [ -e "$out/bad.vtr" ]; then tap_result 1 bad-input-no-output; else tap_result 0 bad-input-no-output; fi
# Only a regular output file is removed on failure: `-o /dev/null` once deleted /dev/null (as
# root). A FIFO stands for any device here; a background reader keeps the open from blocking.
mkfifo "$out/fifo"
cat "$out/fifo" >/dev/null &
check bad-input-to-fifo 1 "expected the MSR index in hex" $vpmcsim convert "$bad" -o "$out/fifo"
wait
if [ -p "$out/fifo" ]; then tap_result 0 failed-convert-keeps-fifo; else tap_result 1 failed-convert-keeps-fifo; fi
# lines 1, 2, 4 are hand edits; line 3 is a (trimmed) kvm_exit
check bad-input-lenient 0 "3 malformed lines skipped" \
	$vpmcsim convert --lenient "$bad" -o "$out/bad.vtr"

# ---- what is written ------------------------------------------------------------------------------
# 05: kvm_entry 89662.281943, HLT exit .281945 (2 us: 2000 insn at 1e9/s, 400 br at 200 per
# mille), its retirement at the vCPU's last record before the next entry (kvm_fpu load .281959),
# entry .281960, exit .281961 (1 us), the second HLT retired at the end (.281964).
hlt=$public/05-vmx-ctf-kvm-hlt-userspace-exit.txt
check guest-default 0 "89662281945000 0 guest insn=2000 br=400" \
	$vpmcsim convert "$hlt" -o -
$vpmcsim convert "$hlt" -o "$out/hlt.vtr" 2>/dev/null
printf '%s\n' "89662281943000 0 entry" "89662281945000 0 guest insn=2000 br=400" \
	"89662281945000 0 exit HLT" "89662281959000 0 retire" "89662281960000 0 entry" \
	"89662281961000 0 guest insn=1000 br=200" "89662281961000 0 exit HLT" \
	"89662281964000 0 retire" >"$out/hlt.want"
grep -v '^!' "$out/hlt.vtr" >"$out/hlt.got"
same hlt-events "$out/hlt.want" "$out/hlt.got"
# 2 us at 2.5e9/s = 5000 insn, 150 per mille of it = 750.
check guest-rate 0 "89662281945000 0 guest insn=5000 br=750" \
	$vpmcsim convert --guest-ips=2500000000 --guest-branch-permille=150 "$hlt" -o -
check guest-off 0 "89662281945000 0 exit HLT" $vpmcsim convert --guest-ips=0 "$hlt" -o -
if $vpmcsim convert --guest-ips=0 "$hlt" -o - 2>/dev/null | grep -q guest; then
	tap_result 1 guest-off-no-guest-lines
else
	tap_result 0 guest-off-no-guest-lines
fi
check header 0 "!source kind=ftrace file=$hlt" $vpmcsim convert "$hlt" -o -
check host-kernel 0 "!host kernel=6.12" $vpmcsim convert --host-kernel=6.12 "$hlt" -o -
check vendor 0 "!pmu vendor=amd version=2 gp=6 gp_width=48" \
	$vpmcsim convert --vendor=amd "$hlt" -o -
# The vendor as compare decides it (issue 12), and what decided it, on stderr. File 16 is SVM:
# its line 2 is "kvm_exit: reason EXIT_MSR" (trace-cmd's plugin spells SVM exits EXIT_*); AMD's
# defaults are version=2 gp=6 gp_width=48 (trace-format.md, !pmu).
svm16=$public/16-svm-platform-info-gp-df-shutdown-trace-cmd-unknown-comm.txt
check vendor-svm-text 0 "!pmu vendor=amd version=2 gp=6 gp_width=48" $vpmcsim convert "$svm16" -o -
check vendor-svm-text-how 0 \
	"vpmcsim: $svm16: !pmu vendor=amd (SVM exit reason 'EXIT_MSR' at line 2), !host kernel=7.0 (not in the trace: the newest modeled (--host-kernel))" \
	$vpmcsim convert "$svm16" -o "$out/svm16.vtr"
check vendor-given-how 0 "vpmcsim: $svm16: !pmu vendor=intel (--vendor), !host kernel=6.8 (--host-kernel)" \
	$vpmcsim convert --vendor intel --host-kernel 6.8 "$svm16" -o "$out/svm16-intel.vtr"
# a .vtr keeps its own !pmu: the AMD file just written, read back
check vendor-vtr-how 0 "vpmcsim: $out/svm16.vtr: !pmu vendor=amd (!pmu in the .vtr)" \
	$vpmcsim convert "$out/svm16.vtr" -o -
check vendor-stdin-how 0 "!pmu vendor=intel (a pipe is not probed: intel by default (--vendor))" \
	sh -c "$vpmcsim convert - -o - <'$svm16'"
# a trace.dat's kvm_exit isa field (tests/nested/data: 6.18's binary layout, record 1 of each)
if [ $have_dat = yes ]; then
	nd=${top_srcdir:-$(dirname "$0")/../..}/tests/nested/data
	check vendor-dat-svm 0 "!pmu vendor=amd version=2 gp=6 gp_width=48" \
		$vpmcsim convert "$nd/pingpong-svm-io.dat" -o -
	check vendor-dat-svm-how 0 "!pmu vendor=amd (kvm_exit isa=2 (SVM) at record 1)" \
		$vpmcsim convert "$nd/pingpong-svm-io.dat" -o "$out/d.vtr"
	check vendor-dat-vmx-how 0 "!pmu vendor=intel (kvm_exit isa=1 (VMX) at record 1)" \
		$vpmcsim convert "$nd/pingpong-vmx-msr.dat" -o "$out/d.vtr"
else
	for t in vendor-dat-svm vendor-dat-svm-how vendor-dat-vmx-how; do
		echo "ok $((tap_n += 1)) - $t # SKIP no trace.dat support"
	done
fi

# ---- the report on stderr (README.md of local-kvm: 81 userspace exits, the VM thread's events) --
check report-records 0 "vpmcsim: $kvm/small-mixed-real.txt: 2313 records," \
	$vpmcsim convert "$kvm/small-mixed-real.txt" -o "$out/r.vtr"
check report-unknown 0 "events not used: kvm_update_master_clock 2, kvm_apicv_inhibit_changed 1, kvm_write_tsc_offset 1, kvm_track_tsc 1, kvm_unmap_hva_range 3" \
	$vpmcsim convert "$kvm/small-mixed-real.txt" -o "$out/r.vtr"
check report-synthesized 0 "81 VM-entries synthesized (the trace has no kvm_entry)" \
	$vpmcsim convert "$kvm/small-mixed-real.txt" -o "$out/r.vtr"

# ---- .vtr in, the same .vtr out ---------------------------------------------------------------
$vpmcsim convert "$kvm/small-mixed-lm64.txt" -o "$out/once.vtr" 2>/dev/null
$vpmcsim convert "$out/once.vtr" -o "$out/twice.vtr" 2>/dev/null
same convert-twice-identical "$out/once.vtr" "$out/twice.vtr"
$vpmcsim convert "$hlt" -o "$out/h1.vtr" 2>/dev/null
$vpmcsim convert "$out/h1.vtr" -o "$out/h2.vtr" 2>/dev/null
same convert-twice-identical-vmx "$out/h1.vtr" "$out/h2.vtr"
# a version 1 file comes out as version 2 (trace-format.md): the same lines, and the !end line
# with its 22 event lines (26 lines: the header, !pmu, !host, !source and 22 events)
$vpmcsim convert "$T/vtr/canonical.vtr" -o "$out/canonical.vtr" 2>/dev/null
{ echo '!vpmcsim-trace 2'; tail -n +2 "$T/vtr/canonical.vtr"; echo '!end events=22'; } \
	>"$out/canonical-v2.vtr"
same canonical-vtr-to-itself "$out/canonical-v2.vtr" "$out/canonical.vtr"
$vpmcsim convert "$out/canonical.vtr" -o "$out/canonical2.vtr" 2>/dev/null
same canonical-v2-to-itself "$out/canonical.vtr" "$out/canonical2.vtr"

# ---- trace.dat and its text reports give the same events ------------------------------------
if [ "$have_dat" = yes ]; then
	for name in $recordings; do
		$vpmcsim convert "$kvm/$name.dat" -o "$out/$name.dat.vtr" 2>/dev/null
		$vpmcsim convert "$kvm/$name.txt" -o "$out/$name.txt.vtr" 2>/dev/null
		events_us "$out/$name.dat.vtr" >"$out/a"
		events_us "$out/$name.txt.vtr" >"$out/b"
		same "dat-vs-report-$name" "$out/a" "$out/b"
	done
	for name in $raw_recordings; do
		events_us "$out/$name.dat.vtr" >"$out/a"
		$vpmcsim convert "$kvm/$name.raw.txt" -o "$out/$name.raw.vtr" 2>/dev/null
		events_us "$out/$name.raw.vtr" >"$out/b"
		same "dat-vs-report-R-$name" "$out/a" "$out/b"
	done
	check dat-source 0 "!source kind=trace.dat file=$kvm/pmu-gp-real.dat" \
		$vpmcsim convert "$kvm/pmu-gp-real.dat" -o -
	check dat-report 0 "vpmcsim: $kvm/pmu-gp-real.dat: 3763 records," \
		$vpmcsim convert "$kvm/pmu-gp-real.dat" -o "$out/x.vtr"
else
	# Built without libtracecmd: trace.dat is refused with exit 3 (vpmcsim(1)).
	for name in $recordings; do
		tap_result 0 "dat-vs-report-$name # SKIP built without libtracecmd"
	done
	for name in $raw_recordings; do
		tap_result 0 "dat-vs-report-R-$name # SKIP built without libtracecmd"
	done
	check dat-not-built 3 "trace.dat support not built in" \
		$vpmcsim convert "$kvm/pmu-gp-real.dat" -o "$out/x.vtr"
	tap_result 0 "dat-report # SKIP built without libtracecmd"
fi
tap_done
