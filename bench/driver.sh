#!/usr/bin/env bash
# Driver overhead benchmark: "go nodes 1" on Debian's Fairy-Stockfish through Taikai's USI driver
# (from the caller's request to the move returned) against two minimal direct-pipe clients that only
# write position/go and read to bestmove: one in C (bench/pipe-baseline.c), run in rounds interleaved
# with Taikai's, and one in Java, alternating move by move with Taikai inside the same JVM
# (bench/src/main/java/dev/taikai/bench/DriverOverhead.java). All times include the engine's own search;
# the differences are the driver's overhead.
# Writes bench/results/driver-latest.md.
#
# Usage: bench/driver.sh [MOVES] [ROUNDS] [VARIANT]     defaults: 1000 moves, 3 rounds, minishogi
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
moves="${1:-1000}"
rounds="${2:-3}"
warmup=10000 # moves before measuring in each JVM, so the driver runs JIT-compiled as in a long tournament
variant="${3:-minishogi}"
out="$root/bench/out"
report="$root/bench/results/driver-latest.md"
mkdir -p "$out"

fsf="$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)"
[ -x "$fsf" ] || { echo "bench/driver.sh needs fairy-stockfish: apt-get install fairy-stockfish" >&2; exit 1; }
command -v gcc >/dev/null || { echo "bench/driver.sh needs gcc for the C baseline: apt-get install gcc" >&2; exit 1; }
gcc -O2 -o "$out/pipe-baseline" "$root/bench/pipe-baseline.c"
(cd "$root" && mvn -q -B -Pbench -DskipTests -Dspotless.check.skip=true -pl bench -am package)

case "$variant" in
  minishogi) sfen="rbsgk/4p/5/P4/KGSBR b - 1" ;;
  kyotoshogi) sfen="p+nks+l/5/5/5/+LSK+NP b - 1" ;;
  *) echo "unknown variant $variant" >&2; exit 2 ;;
esac

: > "$out/baseline.ns"
: > "$out/taikai.txt"
for ((r = 1; r <= rounds; r++)); do
  echo "round $r of $rounds: baseline, then Taikai ($moves moves each)" >&2
  "$out/pipe-baseline" "$fsf" "$variant" "$sfen" "go nodes 1" $((moves + 200)) | tail -n "$moves" >> "$out/baseline.ns"
  java -XX:+UseSerialGC -cp "$root/bench/target/benchmarks.jar" dev.taikai.bench.DriverOverhead \
    "$fsf" "$variant" "$moves" "$warmup" >> "$out/taikai.txt"
done

stats() { # file column -> "median p99" in microseconds
  awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ a[NR] = $1 } END {
    printf "%.1f %.1f\n", a[int((NR + 1) / 2)] / 1000, a[int(NR * 0.99 + 0.5)] / 1000 }'
}
read -r base_med base_p99 < <(stats "$out/baseline.ns" 1)
read -r tk_med tk_p99 < <(stats "$out/taikai.txt" 1)
read -r pipe_med pipe_p99 < <(stats "$out/taikai.txt" 2)
read -r java_med java_p99 < <(stats "$out/taikai.txt" 3)
awk '{ print $1 - $2 }' "$out/taikai.txt" > "$out/own.ns"
read -r own_med own_p99 < <(stats "$out/own.ns" 1)
versus() { awk -v t="$1" -v b="$2" 'BEGIN { d = t - b; printf "%.1f µs %s", (d < 0 ? -d : d), (d < 0 ? "below" : "above") }'; }
diff=$(versus "$tk_med" "$base_med")
diff_java=$(versus "$tk_med" "$java_med")
samples=$(wc -l < "$out/baseline.ns")

cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
{
  echo "# Driver overhead: Taikai's USI driver against a direct pipe"
  echo
  echo "Latest run of \`bench/driver.sh $moves $rounds $variant\`, $(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  echo "- Machine: $cpu, $(nproc) cores; $(uname -sr); $(java -version 2>&1 | head -1)"
  echo "- Engine: $(echo quit | "$fsf" 2>&1 | head -1), \`go nodes 1\` from the $variant start, $samples moves per side"
  echo "  ($rounds interleaved rounds of $moves; in each JVM after $warmup warm-up moves, so the code is JIT-compiled"
  echo "  as in a long tournament)."
  echo "- C baseline: bench/pipe-baseline.c (gcc -O2): write \`position\`/\`go\`, read lines up to \`bestmove\`."
  echo "- Java baseline: the same loop in Java, alternating move by move with Taikai in one JVM (its own engine process)."
  echo "- Taikai: \`UsiEngine.go\` timed from the call to its return (deadline, parsing, telemetry included)."
  echo
  echo "| measure | median µs | p99 µs |"
  echo "|---|---|---|"
  echo "| C direct-pipe baseline, round trip | $base_med | $base_p99 |"
  echo "| Java direct-pipe baseline, round trip (paired with Taikai) | $java_med | $java_p99 |"
  echo "| Taikai, request to move returned | $tk_med | $tk_p99 |"
  echo "| Taikai, its pipe measurement (go written to bestmove read) | $pipe_med | $pipe_p99 |"
  echo "| Taikai, own time outside the pipe measurement | $own_med | $own_p99 |"
  echo
  echo "**Taikai's median is $diff the C baseline's and $diff_java the Java baseline's**"
  echo "(goal: within 50 µs). The Java baseline isolates what the driver adds; the gap between the two"
  echo "baselines is the JVM's own cost of a pipe round trip on this machine."
} | tee "$report"
