#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# build.sh - Install what is missing and build vpmcsim out of tree.
# Usage: scripts/build.sh [--sanitizers] [--werror] [--coverage]
# Builds in _build/plain (or _build/san with --sanitizers, _build/cov with --coverage); the
# program is then _build/<dir>/sim/vpmcsim. Prints the build directory (only that) on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=_build/plain conf=(--with-libtracecmd=yes)
for arg in "$@"; do
	case $arg in
	--sanitizers) dir=_build/san; conf+=(--enable-sanitizers) ;;
	--coverage) dir=_build/cov; conf+=(--enable-coverage) ;;
	--werror) conf+=(--enable-werror) ;;
	*) echo "build.sh: unknown option '$arg'" >&2; exit 2 ;;
	esac
done

if [ -f config.status ]; then
	echo "build.sh: this source tree was configured in place (./configure);" \
	     "run 'make distclean' here first: builds go to _build/" >&2
	exit 1
fi
# Progress and compiler output to stderr: stdout carries only the build directory.
{
	scripts/install-deps.sh
	[ -x configure ] || autoreconf -fi >/dev/null
	mkdir -p "$dir"
	cd "$dir"
	../../configure -q "${conf[@]}"
	make -s -j"$(nproc)"
} >&2
echo "$dir"
