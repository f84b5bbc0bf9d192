#!/usr/bin/env bash
# XBoard driver overhead: a move of Debian's CrazyWa (or Sjaak II) at `sd 1` from the start position, asked
# through Taikai's XBoard driver (from the caller's request to the move returned) against a minimal
# direct-pipe client in the same JVM that sends the same lines (new, variant, easy, post, force, sd, ping
# until pong, time, otim, go until move), alternating move by move, each with its own engine process
# (bench/src/main/java/dev/taikai/bench/XBoardDriverOverhead.java). Both include the engine's own search;
# the difference is the driver's overhead. Writes bench/results/xboard-driver-latest.md.
#
# Usage: bench/xboard-driver.sh [MOVES] [ROUNDS] [VARIANT] [ENGINE]
#   defaults: 1000 moves, 3 rounds, minishogi, crazywa (sjaakii: Minishogi only)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
moves="${1:-1000}"
rounds="${2:-3}"
variant="${3:-minishogi}"
engine="${4:-crazywa}"
warmup=5000 # moves before measuring in each JVM, so the driver runs JIT-compiled as in a long tournament
out="$root/bench/out"
report="$root/bench/results/xboard-driver-latest.md"
mkdir -p "$out"

[ -x "/usr/games/$engine" ] || { echo "bench/xboard-driver.sh needs $engine: apt-get install $engine" >&2; exit 1; }
(cd "$root" && mvn -q -B -Pbench -DskipTests -Dspotless.check.skip=true -pl bench -am package)

: > "$out/xboard.txt"
for ((r = 1; r <= rounds; r++)); do
  echo "round $r of $rounds: $moves moves each, Taikai and the baseline alternating" >&2
  java -XX:+UseSerialGC -cp "$root/bench/target/benchmarks.jar" dev.taikai.bench.XBoardDriverOverhead \
    "$engine" "$variant" "$moves" "$warmup" >> "$out/xboard.txt"
done

stats() { # file column -> "median p99" in microseconds
  awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ a[NR] = $1 } END {
    printf "%.1f %.1f\n", a[int((NR + 1) / 2)] / 1000, a[int(NR * 0.99 + 0.5)] / 1000 }'
}
read -r tk_med tk_p99 < <(stats "$out/xboard.txt" 1)
read -r pipe_med pipe_p99 < <(stats "$out/xboard.txt" 2)
read -r base_med base_p99 < <(stats "$out/xboard.txt" 3)
awk '{ print $1 - $3 }' "$out/xboard.txt" > "$out/xboard-diff.ns"
read -r diff_med diff_p99 < <(stats "$out/xboard-diff.ns" 1)
samples=$(wc -l < "$out/xboard.txt")
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
{
  echo "# Driver overhead: Taikai's XBoard driver against a direct pipe"
  echo
  echo "Latest run of \`bench/xboard-driver.sh $moves $rounds $variant $engine\`, $(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  echo "- Machine: $cpu, $(nproc) cores; $(uname -sr); $(java -version 2>&1 | head -1)"
  echo "- Engine: /usr/games/$engine, a move at \`sd 1\` from the $variant start, $samples moves per side"
  echo "  ($rounds rounds of $moves; in each JVM after $warmup warm-up moves)."
  echo "- Baseline: a loop in Java in the same JVM, its own engine process, alternating move by move with"
  echo "  Taikai: \`new\`, \`variant\`, \`easy\`, \`post\`, \`force\`, \`sd 1\`, \`st 3600\`, \`ping\` until \`pong\`,"
  echo "  \`time\`, \`otim\`, \`go\` until \`move\`: the lines the driver sends for such a move."
  echo "- Taikai: \`XBoardEngine.go\` timed from the call to its return (translation, sync, deadline,"
  echo "  telemetry included)."
  echo
  echo "| measure | median µs | p99 µs |"
  echo "|---|---|---|"
  echo "| direct-pipe baseline, round trip | $base_med | $base_p99 |"
  echo "| Taikai, request to move returned | $tk_med | $tk_p99 |"
  echo "| Taikai, its pipe measurement (go written to move read) | $pipe_med | $pipe_p99 |"
  echo "| Taikai minus the baseline, move by move | $diff_med | $diff_p99 |"
  echo
  echo "The pipe measurement starts at \`go\`, after the \`ping\`/\`pong\` that precedes every move, so it"
  echo "is what the engine's clock is charged; the request-to-return time includes the sync."
} | tee "$report"
