#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_progress.sh - The progress line of long work (issue 15): on a terminal (script(1) gives
# vpmcsim a pseudo-terminal) stderr shows "NAME: P% done, N events, R events/s, M:SS left" and
# erases it before the reader's report (merge: files read of all, the share of their bytes); with
# stderr in a file nothing of it is written, and stderr is the same bytes as without a terminal.
. "$(dirname "$0")/../tap.sh"

if ! command -v script >/dev/null 2>&1; then
	echo "1..0 # SKIP script(1) (util-linux) not installed"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-prog.XXXXXX")
trap 'rm -rf "$tmp" "$tap_out" "$tap_out.err"' EXIT
tr=$VPMC_TRACES
# VPMCSIM_PROGRESS_MS=0: redraw at every callback (every 2^14 events), not at most 4 times a
# second, so that a trace read in a few milliseconds shows its line too.
export VPMCSIM_PROGRESS_MS=0

# on_tty OUT CMD...: CMD with stdin, stdout and stderr on a pseudo-terminal, stdout sent
# to /dev/null inside it; what the terminal got goes to OUT.
# The terminal is 200 columns wide (COLS): the line is cut to its width.
on_tty() {
	local out=$1
	shift
	script -q -e -c "stty cols ${COLS:-200}; $* >/dev/null" /dev/null >"$out" </dev/null
}

# progress NAME EVENTS CMD...: on a terminal the line shows the 2^14-multiple EVENTS (the last
# callback before the end: multi-vcpu-real has 39168 events, so 32768 = "32.77 k events"),
# a share in percent and the time left, and is erased ("\r" then ESC [K) before the first
# line of the reader's report.
progress() {
	local name=$1 want=$2 ok=0
	shift 2
	on_tty "$tmp/tty" "$@"
	grep -q ": [0-9.]*% done, $want events, .* events/s, [0-9]*:[0-9][0-9] left" "$tmp/tty" || ok=1
	# "\r", the erase, then the report's first line, "vpmcsim: TRACE: N records, M events"
	tr '\r' '\n' <"$tmp/tty" |
		grep -q "^$(printf '\033')\\[Kvpmcsim: .*: [0-9]* records, [0-9]* events" || ok=1
	tap_result $ok "$name"
	[ $ok = 0 ] || tr '\r\033' '|~' <"$tmp/tty" | head -5 | tap_quote
}

# quiet NAME CMD...: stderr to a file is the same bytes as with VPMCSIM_PROGRESS_MS unset and
# has no '\r' nor ESC (nothing of a progress line)
quiet() {
	local name=$1 ok=0
	shift
	"$@" >/dev/null 2>"$tmp/err1"
	env -u VPMCSIM_PROGRESS_MS "$@" >/dev/null 2>"$tmp/err2" </dev/null
	cmp -s "$tmp/err1" "$tmp/err2" || ok=1
	if grep -q "$(printf '[\r\033]')" "$tmp/err1"; then ok=1; fi
	tap_result $ok "$name"
}

tap_plan 18
progress "compare, kvm text on a terminal" "32.77 k" $vpmcsim compare "$tr/local-kvm/multi-vcpu-real.txt"
# dat NAME: true if this vpmcsim reads trace.dat (libtracecmd), else a TAP skip for NAME
dat() {
	$vpmcsim stat "$tr/local-kvm/small-mixed-real.v6.dat" >/dev/null 2>&1 && return 0
	tap_result 0 "$1 # SKIP no trace.dat reader"
	return 1
}
n="sweep -j 2, trace.dat on a terminal"
! dat "$n" || progress "$n" "32.77 k" $vpmcsim sweep -j 2 --tolerance 100 \
	"$tr/local-kvm/multi-vcpu-real.dat"
n="stat, trace.dat on a terminal"
! dat "$n" || progress "$n" "32.77 k" $vpmcsim stat "$tr/local-kvm/multi-vcpu-real.dat"
# a share read from standard input is not known: no "% done", no time left
on_tty "$tmp/tty" "$vpmcsim stat - < $tr/local-kvm/multi-vcpu-real.txt"
ok=0
grep -q "32.77 k events, .* events/s" "$tmp/tty" || ok=1
if grep -q "% done\|left" "$tmp/tty"; then ok=1; fi
tap_result $ok "standard input: events and rate only"
quiet "compare, stderr to a file" $vpmcsim compare "$tr/local-kvm/multi-vcpu-real.txt"
n="sweep -j 2, stderr to a file"
! dat "$n" || quiet "$n" $vpmcsim sweep -j 2 --tolerance 100 "$tr/local-kvm/multi-vcpu-real.dat"
n="convert, stderr to a file"
! dat "$n" || quiet "$n" $vpmcsim convert "$tr/local-kvm/multi-vcpu-real.dat" -o -
# a bad VPMCSIM_PROGRESS_MS (not digits alone, or above 60000) is said on stderr even when it
# is a file, once, before what the command says anyway; 60000 is taken without a word
for v in abc -1 10x 60001 60000; do
	VPMCSIM_PROGRESS_MS=$v $vpmcsim compare "$tr/local-kvm/multi-vcpu-real.txt" \
		>/dev/null 2>"$tmp/err1"
	env -u VPMCSIM_PROGRESS_MS $vpmcsim compare "$tr/local-kvm/multi-vcpu-real.txt" \
		>/dev/null 2>"$tmp/err2"
	if [ $v = 60000 ]; then
		cp "$tmp/err2" "$tmp/want"
	else
		{ echo "vpmcsim: warning: VPMCSIM_PROGRESS_MS '$v': expected milliseconds" \
			"from 0 to 60000; using 250"; cat "$tmp/err2"; } >"$tmp/want"
	fi
	ok=0
	cmp -s "$tmp/want" "$tmp/err1" || ok=1
	tap_result $ok "VPMCSIM_PROGRESS_MS=$v, stderr to a file"
	[ $ok = 0 ] || diff "$tmp/want" "$tmp/err1" | head -5 | tap_quote
done
# a short trace (1782 events, less than 2^14) never calls back: nothing on the terminal but
# the report
if dat "a short trace shows no line"; then
	on_tty "$tmp/tty" $vpmcsim compare "$tr/local-kvm/small-mixed-real.v6.dat"
	ok=0
	if grep -q "$(printf '\033')" "$tmp/tty"; then ok=1; fi
	tap_result $ok "a short trace shows no line"
fi
# a terminal of 45 columns: each redraw ("\r", at most 44 characters, ESC [K) stays on one row
COLS=45 on_tty "$tmp/tty" $vpmcsim compare "$tr/local-kvm/multi-vcpu-real.txt"
tr '\r' '\n' <"$tmp/tty" | grep "% done" >"$tmp/lines"
ok=0
[ -s "$tmp/lines" ] || ok=1
# (uncut, the line has about 87 characters: some are cut to 44 exactly, none is longer)
awk -v esc="$(printf '\033')" '{ sub(esc "\\[K$", "") } length($0) > 44 { bad = 1 }
	length($0) == 44 { cut = 1 } END { exit bad || !cut }' "$tmp/lines" || ok=1
tap_result $ok "the line is cut to the terminal's width"
[ $ok = 0 ] || tr '\033' '~' <"$tmp/lines" | head -3 | tap_quote

# merge: files read of all, the share of their bytes, erased before the merge's messages; three
# copies of one summary, the same size each, so after file k the share is k/3: 33.3%, 66.7%, 100.0%
$vpmcsim compare --format json "$tr/local-kvm/multi-vcpu-real.txt" >"$tmp/s1.json" 2>/dev/null
cp "$tmp/s1.json" "$tmp/s2.json"
cp "$tmp/s1.json" "$tmp/s3.json"
on_tty "$tmp/tty" $vpmcsim merge "$tmp/s1.json" "$tmp/s2.json" "$tmp/s3.json"
tr '\r' '\n' <"$tmp/tty" >"$tmp/lines"
ok=0
for k in "1 of 3 files: 33.3" "2 of 3 files: 66.7" "3 of 3 files: 100.0"; do
	grep -q "^vpmcsim: merge, $k% done, .* bytes, .* bytes/s, [0-9]*:[0-9][0-9] left" \
		"$tmp/lines" || ok=1
done
# the line after the last one is the erase, then the merge's first warning (or nothing)
esc=$(printf '\033')
sed -n '/3 of 3 files/{n;p;q}' "$tmp/lines" | grep -q "^$esc\\[K\(vpmcsim: \|$\)" || ok=1
tap_result $ok "merge: files, share of bytes, rate, time left; erased"
[ $ok = 0 ] || tr '\033' '~' <"$tmp/lines" | head -6 | tap_quote
quiet "merge, stderr to a file" $vpmcsim merge "$tmp/s1.json" "$tmp/s2.json" "$tmp/s3.json"

# gen: the share of the duration generated (timer-storm) or of the round trips (nested-pingpong),
# erased at the end; the file written is the same bytes as without a terminal
for w in "timer-storm --seconds 5" "nested-pingpong --iterations 20000"; do
	on_tty "$tmp/tty" $vpmcsim gen $w -o "$tmp/tty.vtr"
	$vpmcsim gen $w -o "$tmp/file.vtr" 2>"$tmp/err"
	ok=0
	grep -q "gen ${w%% *}: [0-9.]*% done, .* left" "$tmp/tty" || ok=1
	tr '\r' '\n' <"$tmp/tty" | tail -1 | grep -q "^$(printf '\033')\\[K$" || ok=1
	cmp -s "$tmp/tty.vtr" "$tmp/file.vtr" && [ ! -s "$tmp/err" ] || ok=1
	tap_result $ok "gen ${w%% *}: progress on a terminal, the same trace"
	[ $ok = 0 ] || tr '\r\033' '|~' <"$tmp/tty" | tail -c 300 | tap_quote
done
tap_done
