#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_basic.sh - vpmcsim's common options and dispatch.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tap.sh"

tap_plan 6
check version 0 "vpmcsim 0.1.0 (libvpmc 0.1.0)" $vpmcsim --version
check help 0 "Usage: vpmcsim" $vpmcsim --help
check help-lists-man-page 0 "vpmcsim(1)" $vpmcsim -h
check no-command 2 "Usage: vpmcsim" $vpmcsim
check unknown-command 2 "vpmcsim: unknown command 'frobnicate'" $vpmcsim frobnicate
check unknown-option 2 "Usage: vpmcsim" $vpmcsim --frobnicate
tap_done
