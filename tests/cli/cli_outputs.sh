#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_outputs.sh - Every file vpmcsim writes is whole or absent (issue 16, sim/outfile.c): each
# writer (convert -o, gen -o, replay --log, nested --log, sweep --plot) stopped mid-run by SIGINT
# or SIGTERM leaves no file, no temporary file, and an existing target as it was; a write error
# halfway (a file size limit, ulimit -f, with SIGXFSZ at its default: vpmcsim ignores it) too.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-outputs.XXXXXX")
trap 'rm -rf "$tmp" "$tap_out" "$tap_out.err"' EXIT
tap_plan 20

# An input that takes a while (1.2 M lines, 33 MB): 150000 round trips of 8 events.
$vpmcsim gen nested-pingpong --iterations 150000 -o "$tmp/big.vtr" 2>/dev/null
big=$tmp/big.vtr

# interrupt NAME SIG OLD FILE CMD...: run CMD (SIGINT and SIGTERM at their defaults: a shell
# starts a background command with SIGINT ignored) until its temporary file appears beside
# FILE, then send SIG. With OLD=old, FILE holds "old" before. CMD must die by SIG; FILE must be
# absent (or still "old") and no temporary file left.
interrupt() {
	local name=$1 sig=$2 old=$3 file=$4 dir pid i=0 rc want bad=
	shift 4
	dir=$(dirname "$file")
	rm -rf "$dir"
	mkdir -p "$dir"
	[ "$old" = old ] && echo old >"$file"
	env --default-signal=INT,TERM "$@" >/dev/null 2>"$tmp/err" &
	pid=$!
	while [ "$i" -lt 6000 ] && ! ls "$dir"/.vpmcsim-* >/dev/null 2>&1; do
		sleep 0.01
		i=$((i + 1))
	done
	kill -s "$sig" "$pid" 2>/dev/null || bad="it ended before the signal"
	wait "$pid"
	rc=$?
	want=$((128 + $([ "$sig" = INT ] && echo 2 || echo 15)))
	[ -z "$bad" ] && [ "$rc" != "$want" ] && bad="exit $rc, not by SIG$sig"
	if [ "$old" = old ]; then
		[ "$(cat "$file" 2>/dev/null)" = old ] || bad="$bad; $file is not the old file"
	else
		[ -e "$file" ] && bad="$bad; $file was left"
	fi
	ls "$dir"/.vpmcsim-* >/dev/null 2>&1 && bad="$bad; a temporary file was left"
	tap_result "$([ -z "$bad" ]; echo $?)" "$name"
	[ -n "$bad" ] && echo "# $bad" && tap_quote "$tmp/err"
}

# Each writer, by SIGINT over an existing target and by SIGTERM with none.
for sig in INT TERM; do
	old=$([ "$sig" = INT ] && echo old || echo new)
	interrupt "convert-$sig" "$sig" "$old" "$tmp/c/out.vtr" \
		$vpmcsim convert "$big" -o "$tmp/c/out.vtr"
	interrupt "gen-$sig" "$sig" "$old" "$tmp/g/out.vtr" \
		$vpmcsim gen nested-pingpong --iterations 100000000 -o "$tmp/g/out.vtr"
	interrupt "replay-log-$sig" "$sig" "$old" "$tmp/r/log.jsonl" \
		$vpmcsim replay --policy exact --log "$tmp/r/log.jsonl" "$big"
	interrupt "nested-log-$sig" "$sig" "$old" "$tmp/n/log.jsonl" \
		$vpmcsim nested --log "$tmp/n/log.jsonl" "$big"
	interrupt "sweep-plot-$sig" "$sig" "$old" "$tmp/s/plot.svg" \
		$vpmcsim sweep --tolerance 1,10 --plot "$tmp/s/plot.svg" "$big"
done

# limited NAME FILE TEXT CMD...: CMD with files limited to 256 blocks (128 KiB or 256 KiB: the
# unit is the shell's; every output here is larger) writes FILE, which holds "old": exit 1 and
# TEXT said, FILE still "old", no temporary file.
limited() {
	local name=$1 file=$2 text=$3
	shift 3
	rm -rf "$(dirname "$file")"
	mkdir -p "$(dirname "$file")"
	echo old >"$file"
	check "$name" 1 "$text" \
		sh -c 'ulimit -f 256; exec "$@"' sh "$@"
	[ "$(cat "$file")" = old ]
	tap_result $? "$name-old-file-kept"
	! ls "$(dirname "$file")"/.vpmcsim-* >/dev/null 2>&1
	tap_result $? "$name-no-temporary-file"
}
limited convert-full "$tmp/fc/out.vtr" "write error on $tmp/fc/out.vtr: File too large" \
	$vpmcsim convert "$big" -o "$tmp/fc/out.vtr"
limited gen-full "$tmp/fg/out.vtr" "write error on $tmp/fg/out.vtr" \
	$vpmcsim gen nested-pingpong -o "$tmp/fg/out.vtr"
limited nested-log-full "$tmp/fn/log.jsonl" "write error on the log" \
	$vpmcsim nested --log "$tmp/fn/log.jsonl" "$big"

# A whole run replaces the target, keeps its mode, and leaves no temporary file; a symbolic link
# to it stays a link (the file it names is replaced).
mkdir -p "$tmp/ok"
echo old >"$tmp/ok/out.vtr"
chmod 640 "$tmp/ok/out.vtr"
ln -s out.vtr "$tmp/ok/link.vtr"
$vpmcsim convert "$VPMC_TRACES/vtr/canonical.vtr" -o "$tmp/ok/link.vtr" 2>/dev/null
[ -L "$tmp/ok/link.vtr" ] && [ "$(tail -n 1 "$tmp/ok/out.vtr")" = "!end events=22" ] &&
	[ "$(stat -c %a "$tmp/ok/out.vtr")" = 640 ] && ! ls "$tmp/ok"/.vpmcsim-* >/dev/null 2>&1
tap_result $? "whole-run-replaces-target"
tap_done
