#!/usr/bin/env bash
# Soak test of the test command and of the local cluster's start and stop (not part of ./run-tests).
#
#   bench/soak-tests.sh N [--load] [--cycles M] [--keep]
#
# Runs ./run-tests N times, each time in a fresh clone of this checkout's HEAD (commit first: the clone
# holds what is committed), one after the other; then, in one more fresh clone, M cycles of
# 'taikai cluster up' and 'taikai cluster down' (default 0). With --load a CPU-bound process runs beside
# every run and cycle, as another program on a shared two-core machine would. Prints each run's result
# and time, each failing test with the number of runs it failed in, each cycle failure with its
# reason, and processes left behind; the report is also written to bench/results/soak-<date>.md.
# Exit code: 0 when every run and cycle passed, 1 otherwise, 2 for bad usage.
set -euo pipefail

usage() {
  sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

runs=""
load=no
cycles=0
keep=no
while [ $# -gt 0 ]; do
  case "$1" in
    --load) load=yes ;;
    --cycles) [ $# -ge 2 ] || usage; cycles="$2"; shift ;;
    --keep) keep=yes ;;
    -h|--help) usage ;;
    [0-9]*) runs="$1" ;;
    *) echo "soak-tests: unknown argument '$1'" >&2; usage ;;
  esac
  shift
done
[ -n "$runs" ] || usage
case "$runs$cycles" in *[!0-9]*) echo "soak-tests: N and M are whole numbers" >&2; exit 2 ;; esac

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
commit="$(git -C "$repo" rev-parse --short HEAD)"
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
  echo "soak-tests: note: uncommitted changes are not in the clones (they hold $commit)" >&2
fi
work="$(mktemp -d /tmp/taikai-soak.XXXXXX)"
report="$repo/bench/results/soak-$(date -u +%Y%m%d-%H%M%S).md"
mkdir -p "$repo/bench/results"
failures="$work/failures.txt"   # one failing test per line, once per run it failed in
: >"$failures"
hog=""

start_hog() {
  if [ "$load" = yes ]; then
    sh -c 'while :; do :; done' &
    hog=$!
  fi
}

stop_hog() {
  if [ -n "$hog" ]; then
    kill "$hog" 2>/dev/null || true
    wait "$hog" 2>/dev/null || true
    hog=""
  fi
}

cleanup() {
  stop_hog
  if [ "$keep" = no ]; then
    rm -rf "$work"
  else
    echo "soak-tests: clones and logs kept in $work" >&2
  fi
}
trap cleanup EXIT

# The processes still running from clone $1 (its services, broker, engines, Maven).
left_from() {
  local n=0 pid
  for pid in $(pgrep -f -- "$1" || true); do
    [ "$pid" = $$ ] || n=$((n + 1))
  done
  echo "$n"
}

# The test cases that failed in the surefire reports under $1, one "Class.method" per line.
failed_tests() {
  find "$1" -path '*/target/surefire-reports/TEST-*.xml' -print0 2>/dev/null \
    | xargs -0 -r python3 -c '
import sys, xml.etree.ElementTree as ET
for path in sys.argv[1:]:
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            print(case.get("classname", "?").split(".")[-1] + "." + case.get("name", "?"))
' | sort -u
}

{
  echo "# Soak: $runs run(s) of ./run-tests and $cycles cluster cycle(s)"
  echo
  echo "- commit $commit, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "- CPU-bound process beside each run: $load"
  echo
} | tee "$report"

passed=0
times=()
for i in $(seq 1 "$runs"); do
  clone="$work/run-$i"
  git clone -q "$repo" "$clone"
  start_hog
  began=$(date +%s)
  if (cd "$clone" && ./run-tests) >"$work/run-$i.log" 2>&1; then
    result=passed
    passed=$((passed + 1))
  else
    result=FAILED
  fi
  seconds=$(( $(date +%s) - began ))
  stop_hog
  times+=("$seconds")
  failed="$(failed_tests "$clone")"
  if [ -n "$failed" ]; then
    echo "$failed" >>"$failures"
  elif [ "$result" = FAILED ]; then
    echo "(no test failed: see the end of run-$i.log) $(tail -n 3 "$work/run-$i.log" | tr '\n' ' ' | cut -c1-200)" >>"$failures"
  fi
  left="$(left_from "$clone")"
  line="- run $i: $result in $((seconds / 60)) min $((seconds % 60)) s; processes of the clone left: $left"
  [ -z "$failed" ] || line="$line; failed: $(echo "$failed" | paste -sd, -)"
  echo "$line" | tee -a "$report"
  [ "$keep" = yes ] || [ "$result" = FAILED ] || rm -rf "$clone"
done

if [ "$runs" -gt 0 ]; then
  sorted="$(printf '%s\n' "${times[@]}" | sort -n)"
  median="$(echo "$sorted" | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print int((a[NR/2]+a[NR/2+1])/2)}')"
  {
    echo
    echo "Runs passed: $passed of $runs; time median $((median / 60)) min $((median % 60)) s," \
      "min $(echo "$sorted" | head -1) s, max $(echo "$sorted" | tail -1) s"
    if [ -s "$failures" ]; then
      echo
      echo "| failing test | runs failed in |"
      echo "|---|---|"
      sort "$failures" | uniq -c | sort -rn | while read -r count name; do echo "| $name | $count |"; done
    fi
  } | tee -a "$report"
fi

cycle_failures=0
if [ "$cycles" -gt 0 ]; then
  clone="$work/cluster"
  git clone -q "$repo" "$clone"
  echo >>"$report"
  echo "Building the clone for the cluster cycles..." >&2
  (cd "$clone" && mvn -B -q -DskipTests -Dspotless.check.skip=true package) >"$work/cluster-build.log" 2>&1 \
    || { echo "soak-tests: building the clone failed; see $work/cluster-build.log" >&2; exit 1; }
  reasons="$work/cycle-reasons.txt"
  : >"$reasons"
  ups=()
  start_hog
  for i in $(seq 1 "$cycles"); do
    dir="$work/cluster-dir"
    began=$(date +%s%N)
    if (cd "$clone" && ./taikai cluster up --dir "$dir") >"$work/up.log" 2>&1; then
      ups+=($(( ($(date +%s%N) - began) / 1000000 )))
      if ! (cd "$clone" && ./taikai cluster down --dir "$dir") >"$work/down.log" 2>&1; then
        echo "down: $(tail -n 1 "$work/down.log")" >>"$reasons"
        cycle_failures=$((cycle_failures + 1))
      fi
    else
      echo "up: $(grep -m1 'failed' "$work/up.log" || tail -n 1 "$work/up.log")" >>"$reasons"
      cycle_failures=$((cycle_failures + 1))
      (cd "$clone" && ./taikai cluster down --dir "$dir") >/dev/null 2>&1 || true
    fi
    left="$(left_from "$clone")"
    if [ "$left" != 0 ]; then
      echo "processes left after cycle $i: $left ($(pgrep -af -- "$clone" | cut -c1-150 | paste -sd';' -))" >>"$reasons"
      pkill -9 -f -- "$clone/" || true
      cycle_failures=$((cycle_failures + 1))
    fi
    rm -rf "$dir"
  done
  stop_hog
  sorted="$(printf '%s\n' "${ups[@]:-0}" | sort -n)"
  median="$(echo "$sorted" | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print int((a[NR/2]+a[NR/2+1])/2)}')"
  {
    echo "Cluster cycles: $((cycles)) of 'taikai cluster up' and 'down' (CPU-bound process beside: $load):" \
      "$cycle_failures failure(s); 'up' took median $median ms, min $(echo "$sorted" | head -1) ms, max $(echo "$sorted" | tail -1) ms"
    if [ -s "$reasons" ]; then
      sort "$reasons" | uniq -c | sort -rn | sed 's/^ *\([0-9]*\) /- \1x /'
    fi
  } | tee -a "$report"
fi

echo "soak-tests: report in $report" >&2
[ "$passed" = "$runs" ] && [ "$cycle_failures" = 0 ]
