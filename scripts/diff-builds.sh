#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# diff-builds.sh - Prove that two vpmcsim builds behave the same on every trace in traces/.
# Usage: scripts/diff-builds.sh OLD_VPMCSIM NEW_VPMCSIM [TRACES_DIR]
# Runs both binaries with compare, replay (and --log), sweep (and --plot), stat, convert and
# nested (and --log), in every --format, over traces/{scenarios,public,local-kvm,vtr,bad}; stdout, stderr, exit codes
# and written files must be identical. Prints one line per difference and a summary; exits 1 if
# anything differs. Restructuring steps use it old build against new build.
# NEW_COMMANDS (default: the commands in the new build's top-level --help that the old one does
# not list): their lines in that --help are the one difference allowed, since adding a command
# lists it there.
set -uo pipefail

[ $# -ge 2 ] || { echo "usage: $0 OLD_VPMCSIM NEW_VPMCSIM [TRACES_DIR]" >&2; exit 2; }
old=$(realpath "$1") new=$(realpath "$2")
traces=$(realpath "${3:-$(dirname "$0")/../traces}")
work=$(mktemp -d "${TMPDIR:-/tmp}/diff-builds.XXXXXX")
trap 'rm -rf "$work"' EXIT
runs=0 diffs=0

# run BIN DIR ARGS...: BIN's stdout, stderr, exit code and written files under DIR. Output files
# are named @OUT@ in ARGS; each run writes them into its own folder, so names match.
run() {
	local bin=$1 dir=$2 rc a
	shift 2
	mkdir -p "$dir/files"
	local args=()
	for a in "$@"; do args+=("${a//@OUT@/$dir/files}"); done
	(cd "$dir" && "$bin" "${args[@]}" >"$dir/stdout" 2>"$dir/stderr" </dev/null)
	rc=$?
	echo "$rc" >"$dir/rc"
	# Paths of the run's own folder differ between the two sides; name them the same.
	sed -i "s|$dir/files|OUT|g" "$dir/stdout" "$dir/stderr"
}

# same ARGS...: run both binaries and compare everything they produced.
same() {
	local d=$work/$runs
	runs=$((runs + 1))
	run "$old" "$d/old" "$@"
	run "$new" "$d/new" "$@"
	if ! diff -r "$d/old" "$d/new" >/dev/null; then
		diffs=$((diffs + 1))
		echo "DIFFERS: vpmcsim $*"
		diff -r "$d/old" "$d/new" | head -n 8 | sed 's/^/    /'
	fi
	rm -rf "$d"
}

mapfile -t files < <(find "$traces"/scenarios "$traces"/public "$traces"/local-kvm \
	"$traces"/vtr "$traces"/bad -type f \( -name '*.vtr' -o -name '*.txt' -o -name '*.dat' \
	-o -name '*.bin' \) | sort)

for f in "${files[@]}"; do
	for fmt in text csv json; do
		same compare --format "$fmt" "$f"
		same sweep --format "$fmt" --tolerance 0,10,1000 "$f"
		same stat --format "$fmt" "$f"
		same replay --format "$fmt" --policy tolerance=100 "$f"
	done
	same compare --lenient "$f"
	same compare --assume gp0=instructions,period=1000 "$f"
	same compare --assume fixed0,period=100 --format csv "$f"
	same replay --policy exact --log @OUT@/log.jsonl "$f"
	same replay --policy tolerance-wrap=100 --assume gp1=branches,period=100 \
		--log @OUT@/log.jsonl "$f"
	same sweep --tolerance 0,100 --plot @OUT@/plot.svg "$f"
	same convert "$f" -o @OUT@/out.vtr
	same convert --vendor amd --host-kernel 6.5 "$f" -o @OUT@/out.vtr
	for fmt in text csv json; do
		same nested --format "$fmt" "$f"
	done
	same nested --lenient --log @OUT@/nested.jsonl "$f"
done
# The commands listed ("  NAME  text") in $1/new's help and not in $1/old's.
new_commands() {
	comm -13 <(awk '/^  [a-z]/ {print $1}' "$1/old" | sort) \
		<(awk '/^  [a-z]/ {print $1}' "$1/new" | sort)
}

# The top-level help, less the lines of commands that the old build does not have.
same_top_help() {
	local d=$work/help cmd
	mkdir -p "$d"
	"$old" --help >"$d/old" 2>&1
	"$new" --help >"$d/new" 2>&1
	for cmd in ${NEW_COMMANDS-$(new_commands "$d")}; do
		sed -i "/^  $cmd /d" "$d/new"
	done
	runs=$((runs + 1))
	cmp -s "$d/old" "$d/new" || { diffs=$((diffs + 1)); echo "DIFFERS: vpmcsim --help"
		diff "$d/old" "$d/new" | head -n 8 | sed 's/^/    /'; }
}
same_top_help
same --version
for c in compare replay sweep stat convert; do same "$c" --help; done

echo "diff-builds: $runs runs over ${#files[@]} traces, $diffs differ"
[ "$diffs" = 0 ]
