#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# install-deps.sh - Install the Debian 12 packages vpmcsim's build and tests need.
# Non-interactive and idempotent: does nothing when every package is already installed.
# Usage: scripts/install-deps.sh [--fuzz] [--dev] [--bench]
#   --fuzz  also clang + libFuzzer runtime (fuzz targets)
#   --dev   also trace-cmd and gnuplot-nox (recording fixtures, sweep plots)
#   --bench also trace-cmd, GNU time and python3 (make bench: bench/replay.sh, bench/readers.sh)
# GNU parallel is for the fleet check (scripts/fleet-check.sh, docs/fleet.md); groff-base renders
# the man pages for tests/cli/cli_docs.sh.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

pkgs=(autoconf automake libtool pkg-config make gcc check lcov libjansson-dev
      libtracecmd-dev libtraceevent-dev libtracefs-dev libzstd-dev zlib1g-dev gnuplot-nox)
pkgs+=(parallel groff-base)
for arg in "$@"; do
	case $arg in
	--fuzz) pkgs+=(clang libclang-rt-14-dev) ;;
	--dev) pkgs+=(trace-cmd) ;;
	--bench) pkgs+=(trace-cmd time python3) ;;
	*) echo "install-deps.sh: unknown option '$arg'" >&2; exit 2 ;;
	esac
done

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
((${#missing[@]})) || exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: missing packages: ${missing[*]}; run as root (or with sudo)" >&2
	exit 1
fi
echo "install-deps.sh: installing ${missing[*]}"
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
