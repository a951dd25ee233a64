# tap.sh - sourced by the CLI tests: TAP output and helpers to run vpmcsim.
# Needs: top_builddir, VPMC_TRACES (set by make check); VPMC_VALGRIND optional prefix.

: "${top_builddir:=.}"
: "${VPMC_TRACES:=$(dirname "$0")/../traces}"
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

tap_done() { exit $((tap_failed > 0)); }
