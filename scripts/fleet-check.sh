#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# fleet-check.sh - The fleet recipe of docs/fleet.md, run on traces/local-kvm/*.dat (issue 15):
# GNU parallel writes one JSON summary per trace (compare; sweep with an overlay; stat), merges them
# as a fleet would (shares of three, as each host merges its own, then the shares), and the
# report is the same bytes as a merge of every summary in one process (one `vpmcsim merge`
# call), in any order, and in text too; the summaries parallel wrote are those written one after
# the other without it. The --sshlogin form runs on the local machine (':'), so that its options
# are checked; a real remote host is not (that needs ssh access).
#
# Usage: scripts/fleet-check.sh [VPMCSIM]   (default: $top_builddir/sim/vpmcsim, else
#                                           _build/plain/sim/vpmcsim)
# TAP on stdout; run by make check. Skipped (TAP "1..0 # SKIP") without GNU parallel or
# without `vpmcsim merge`. About 10 s on 2 CPUs.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
vpmcsim=${1:-${top_builddir:+$top_builddir/sim/vpmcsim}}
vpmcsim=${vpmcsim:-$top/_build/plain/sim/vpmcsim}
VPMCSIM=$(cd "$(dirname "$vpmcsim")" && pwd)/$(basename "$vpmcsim")
export VPMCSIM

if ! command -v parallel >/dev/null 2>&1; then
	echo "1..0 # SKIP GNU parallel not installed (scripts/install-deps.sh)"
	exit 0
fi
if ! "$VPMCSIM" merge --help >/dev/null 2>&1; then
	echo "1..0 # SKIP this vpmcsim has no merge command"
	exit 0
fi
if ! "$VPMCSIM" stat "$top/traces/local-kvm/small-mixed-real.v6.dat" >/dev/null 2>&1; then
	echo "1..0 # SKIP this vpmcsim reads no trace.dat (built without libtracecmd)"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-fleet.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
mkdir -p traces
cp "$top"/traces/local-kvm/*.dat traces/ # relative paths: the summaries name them alike
n=0 failed=0
result() { # OK NAME
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
# same NAME A B: files A and B are the same bytes
same() {
	if cmp -s "$2" "$3"; then result 0 "$1"; else result 1 "$1"; diff "$2" "$3" | head -5 | sed 's/^/# /'; fi
}

# fleet KIND ARGS: one summary per trace with GNU parallel (docs/fleet.md, "One machine"): a
# summary is written whole or not at all (.part, then mv), a failed trace stops the run
fleet() {
	local kind=$1 args=$2
	mkdir -p "$kind"
	parallel --will-cite --halt now,fail=1 --jobs 2 \
		"\"\$VPMCSIM\" $kind $args --format json {} >$kind/{/.}.json.part && \
		 mv $kind/{/.}.json.part $kind/{/.}.json" ::: traces/*.dat 2>"$kind.log"
}

# serial KIND ARGS: the same summaries, one after the other, without parallel
serial() {
	local kind=$1 args=$2 t
	mkdir -p "serial-$kind"
	for t in traces/*.dat; do
		# shellcheck disable=SC2086 # args are words
		"$VPMCSIM" "$kind" $args --format json "$t" >"serial-$kind/$(basename "$t" .dat).json" \
			2>/dev/null || return 1
	done
}

# check KIND ARGS: the recipe against one process
check() {
	local kind=$1 args=$2 f ok=0
	fleet "$kind" "$args"
	result $? "$kind: GNU parallel wrote one summary per trace"
	serial "$kind" "$args"
	for f in "serial-$kind"/*.json; do
		cmp -s "$f" "$kind/$(basename "$f")" || ok=1
	done
	result $ok "$kind: each summary is the one written without parallel"
	# one process: every summary in one call
	"$VPMCSIM" merge "$kind"/*.json --format json -o "$kind.one.json" 2>"$kind.one.err"
	result $? "$kind: merge in one call"
	# the fleet's merge: shares of three (a host's each), then the shares
	mkdir -p "$kind.shares"
	ls "$kind"/*.json | parallel --will-cite --halt now,fail=1 -N 3 \
		"\"\$VPMCSIM\" merge --format json -o $kind.shares/{#}.json {}" 2>"$kind.shares.log" &&
		"$VPMCSIM" merge "$kind.shares"/*.json --format json -o "$kind.tree.json" 2>/dev/null
	result $? "$kind: merge of merges (shares of 3)"
	same "$kind: the merge of the shares is the merge in one call" "$kind.one.json" "$kind.tree.json"
	# shellcheck disable=SC2046 # file names without spaces
	"$VPMCSIM" merge $(ls -r "$kind"/*.json) --format json -o "$kind.rev.json" 2>/dev/null
	same "$kind: merged in the reverse order" "$kind.one.json" "$kind.rev.json"
	"$VPMCSIM" merge "$kind"/*.json --format text -o "$kind.one.txt" 2>/dev/null
	"$VPMCSIM" merge "$kind.tree.json" --format text -o "$kind.tree.txt" 2>/dev/null
	same "$kind: the text report of the fleet's merge" "$kind.one.txt" "$kind.tree.txt"
}

echo "1..22"
check compare "-j 1"
check sweep "-j 1 --tolerance 1,100,10000 --assume gp0=instructions,period=10000"
check stat ""
# docs/fleet.md, "Several machines", on the local machine (':'): the options are accepted and
# the summaries come back where --return says
mkdir -p ssh
parallel --will-cite --halt now,fail=1 -S : --transferfile {} --return ssh/{/.}.json --cleanup \
	"mkdir -p ssh && \"\$VPMCSIM\" compare -j 1 --format json {} >ssh/{/.}.json" \
	::: traces/*.dat 2>ssh.log
ok=$?
for f in compare/*.json; do cmp -s "$f" "ssh/$(basename "$f")" || ok=1; done
result $ok "--sshlogin form (local ':'): the same summaries"
exit $((failed > 0))
