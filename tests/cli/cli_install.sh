#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_install.sh - The installed library (README, "Use the library"): 'make install prefix=DIR'
# and 'make install DESTDIR=DIR' of this build tree, into temporary directories, each give a
# vpmc.pc with which 'pkg-config --cflags --libs vpmc' builds vpmc(3)'s EXAMPLE; the program
# runs against the installed libvpmc and agrees with vpmcsim. A staged (DESTDIR) vpmc.pc names
# the final prefix; pkg-config reaches the staged copy through PKG_CONFIG_SYSROOT_DIR, or
# --define-prefix. Needs VPMC_MAKE, VPMC_CC and the build's extra flags (make check sets them).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tap.sh"

tap_plan 13
if ! command -v pkg-config >/dev/null 2>&1; then
	for t in $(seq 1 13); do tap_result 0 "install-$t # SKIP pkg-config not found"; done
	tap_done
fi
: "${VPMC_MAKE:=make}" "${VPMC_CC:=cc}"
top_builddir=$(cd "$top_builddir" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-install.XXXXXX")
trap 'rm -rf "$tmp" "$tap_out" "$tap_out.err"' EXIT
trace=$VPMC_TRACES/local-kvm/pmu-gp-real.txt
# the build's sanitizer or coverage flags: libvpmc needs their run-time libraries
cflags="-std=c11 -Wall -Wextra -Werror $VPMC_EXTRA_CFLAGS"
ldflags=$VPMC_EXTRA_LDFLAGS
# pkg-config leaves /usr/include and /usr/lib out by default; a build configured with
# --prefix=/usr installed into DIR/usr needs them
PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
export PKG_CONFIG_ALLOW_SYSTEM_CFLAGS PKG_CONFIG_ALLOW_SYSTEM_LIBS
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR

# make VAR=...: the build tree's own make, without make check's flags and jobserver
build_make() {
	(cd "$top_builddir" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $VPMC_MAKE -s "$@")
}

# vpmc(3)'s EXAMPLE as C: the .nf block of the section, man escapes undone
sed -n '/^\.SH EXAMPLE$/,/^\.SH /p' "$top_srcdir/sim/vpmc.3" | sed -n '/^\.nf$/,/^\.fi$/p' |
	sed -e '/^\.\(nf\|fi\|RS\|RE\)/d' -e 's/\\e/\\/g' -e 's/\\-/-/g' >"$tmp/example.c"

# The configured directories, as make sees them
dirs=$(build_make -f Makefile -f - print-dirs <<'EOF'
print-dirs:
	@echo "$(prefix)|$(exec_prefix)|$(libdir)|$(includedir)|$(pkgconfigdir)"
EOF
)
IFS='|' read -r prefix exec_prefix libdir includedir pkgconfigdir <<EOF
$dirs
EOF

# Expected: what vpmcsim says (CSV columns reads, reads_with_error, found by name)
want=$($vpmcsim compare --policy tolerance=100 --format csv "$trace" 2>/dev/null |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
		 NR == 2 { print $col["reads_with_error"] " of " $col["reads"] " reads wrong" }')

# run_example NAME [ENV=VALUE...]: build example.c with pkg-config's flags (PKG_CONFIG_* in the
# environment), run it on the trace with ENV, and compare with vpmcsim
run_example() {
	local name=$1 flags
	shift
	flags=$(pkg-config --cflags --libs vpmc) &&
		$VPMC_CC $cflags -o "$tmp/example-$name" "$tmp/example.c" $flags $ldflags \
			>"$tap_out" 2>&1
	tap_result $? "$name-build"
	[ -s "$tap_out" ] && tap_quote "$tap_out"
	env "$@" "$tmp/example-$name" "$trace" >"$tap_out" 2>&1
	if [ "$(cat "$tap_out")" = "$want" ] && [ -n "$want" ]; then
		tap_result 0 "$name-run"
	else
		tap_result 1 "$name-run"
		echo "# want: $want"
		tap_quote "$tap_out"
	fi
}

# make install prefix=DIR: every directory must follow the prefix, or the install would go
# elsewhere (a build configured with --libdir=/usr/lib64)
case "$exec_prefix|$libdir|$includedir|$pkgconfigdir" in
"$prefix"*"|$exec_prefix"/*"|$prefix"/*"|$libdir"/*)
	p=$tmp/prefix
	build_make install prefix="$p" >"$tap_out" 2>&1
	tap_result $? install-prefix
	pc=$p${pkgconfigdir#"$prefix"}/vpmc.pc
	check prefix-pc-names-dir 0 "prefix=$p" cat "$pc"
	PKG_CONFIG_PATH=${pc%/vpmc.pc}
	export PKG_CONFIG_PATH
	check prefix-cflags-libs 0 "-I$p${includedir#"$prefix"} -L$p${libdir#"$prefix"} -lvpmc" \
		pkg-config --cflags --libs vpmc
	check prefix-version 0 "$($vpmcsim --version | sed 's/.*(libvpmc \(.*\))/\1/')" \
		pkg-config --modversion vpmc
	# the run-time path: -Wl,-rpath from pkg-config's libdir (README, "Use the library")
	ldflags="$ldflags -Wl,-rpath,$(pkg-config --variable=libdir vpmc)"
	run_example prefix
	ldflags=$VPMC_EXTRA_LDFLAGS
	build_make uninstall prefix="$p" >"$tap_out" 2>&1
	left=$(find "$p" -type f)
	[ -z "$left" ]
	tap_result $? prefix-uninstall-leaves-nothing
	[ -n "$left" ] && echo "# left: $left"
	unset PKG_CONFIG_PATH
	;;
*)
	for t in install-prefix prefix-pc-names-dir prefix-cflags-libs prefix-version \
		prefix-build prefix-run prefix-uninstall-leaves-nothing; do
		tap_result 0 "$t # SKIP $libdir, $includedir or $pkgconfigdir outside $prefix"
	done
	;;
esac

# make install DESTDIR=DIR: staged; vpmc.pc names the configured prefix
d=$tmp/stage
build_make install DESTDIR="$d" >"$tap_out" 2>&1
tap_result $? install-destdir
check destdir-pc-names-prefix 0 "prefix=$prefix" cat "$d$pkgconfigdir/vpmc.pc"
PKG_CONFIG_PATH=$d$pkgconfigdir PKG_CONFIG_SYSROOT_DIR=$d
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
check destdir-sysroot-cflags-libs 0 "-I$d$includedir -L$d$libdir -lvpmc" \
	pkg-config --cflags --libs vpmc
run_example destdir LD_LIBRARY_PATH="$d$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset PKG_CONFIG_SYSROOT_DIR
# --define-prefix: prefix from where vpmc.pc lies (pkgconf, pkg-config >= 0.29), for the layout
# DIR/lib/pkgconfig with libdir and includedir under the prefix
if [ "$pkgconfigdir" = "$prefix/lib/pkgconfig" ] && [ "$libdir" = "$prefix/lib" ] &&
   [ "$includedir" = "$prefix/include" ] &&
   pkg-config --define-prefix --modversion vpmc >/dev/null 2>&1; then
	check destdir-define-prefix 0 "-I$d$includedir -L$d$libdir -lvpmc" \
		pkg-config --define-prefix --cflags --libs vpmc
else
	tap_result 0 "destdir-define-prefix # SKIP no --define-prefix, or another layout"
fi
tap_done
