# SPDX-License-Identifier: GPL-2.0-only
# tap.sh - sourced by the CLI tests: TAP output and helpers to run vpmcsim.
# Needs: top_builddir, VPMC_TRACES (set by make check); VPMC_VALGRIND optional prefix.

: "${top_builddir:=.}"
: "${VPMC_TRACES:=$(dirname "$0")/../../traces}"
vpmcsim="${VPMC_VALGRIND:+$VPMC_VALGRIND }$top_builddir/sim/vpmcsim"
tap_n=0
tap_failed=0
tap_out=$(mktemp "${TMPDIR:-/tmp}/vpmc-tap.XXXXXX")
trap 'rm -f "$tap_out" "$tap_out.err"' EXIT

tap_plan() { echo "1..$1"; }

tap_quote() { sed 's/^/# /' "$@"; }

tap_result() { # OK? NAME
	tap_n=$((tap_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

# check NAME WANT_EXIT WANT_TEXT CMD...: CMD exits WANT_EXIT and prints WANT_TEXT (a fixed
# string, looked for in stdout and stderr together).
check() {
	local name=$1 want_rc=$2 want_text=$3 rc
	shift 3
	"$@" >"$tap_out" 2>"$tap_out.err"
	rc=$?
	cat "$tap_out.err" >>"$tap_out"
	if [ "$rc" = "$want_rc" ] && grep -qF -- "$want_text" "$tap_out"; then
		tap_result 0 "$name"
	else
		tap_result 1 "$name"
		echo "# exit $rc (want $want_rc), want text: $want_text"
		tap_quote "$tap_out"
	fi
}

# small_fs CMD...: CMD with files limited to 0 bytes (ulimit -f 0) and SIGXFSZ ignored, so that
# every write to a regular file fails with EFBIG ("File too large"), as on a full disk (this
# works where /dev/full does not exist). Standard error goes through a pipe, which the limit
# leaves alone; standard output stays where it was (a file). Returns CMD's exit status.
small_fs() {
	local rc
	{ ( ( ulimit -f 0; trap '' XFSZ; exec "$@" ) 2>&3; echo $? >"$tap_out.rc" ) \
		3>&1 1>&4 4>&- | cat >&2; } 4>&1
	rc=$(cat "$tap_out.rc")
	rm -f "$tap_out.rc"
	return "$rc"
}

tap_done() { exit $((tap_failed > 0)); }
