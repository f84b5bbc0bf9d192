#!/usr/bin/env bash
# Runs a command while the clock benchmark is paused (bench/clocks.sh, TAIKAI_BENCH_PAUSE_DIR): waits
# until the benchmark's run in progress has stopped, runs the command, and lets the benchmark go on. So a
# build or a test run on the same machine is never measured as an engine's time. The command runs without
# TAIKAI_BENCH_PAUSE_DIR, so that a benchmark started by it (a short clocks.sh run, say) is not paused by
# its own pause.
#
# Usage: TAIKAI_BENCH_PAUSE_DIR=DIR bench/quietly.sh CMD [ARGS...]
set -uo pipefail
dir="${TAIKAI_BENCH_PAUSE_DIR:?set TAIKAI_BENCH_PAUSE_DIR to the pause directory of the benchmark}"
mkdir -p "$dir"
token="$dir/$$"
touch "$token"
trap 'rm -f "$token"' EXIT
while [ -e "$dir.playing" ]; do sleep 0.2; done
env -u TAIKAI_BENCH_PAUSE_DIR "$@"
