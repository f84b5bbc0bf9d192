#!/usr/bin/env bash
# JMH benchmarks of the rules core's hot code. Writes bench/results/jmh-latest.txt.
# Usage: bench/jmh.sh [JMH options]   e.g. bench/jmh.sh RulesBenchmark.legalMoves -f 1 -wi 2 -i 3
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -q -B -Pbench -DskipTests -Dspotless.check.skip=true -pl bench -am package
out="$root/bench/results/jmh-latest.txt"
{
  echo "# bench/jmh.sh $*   $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "# $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) cores; $(java -version 2>&1 | head -1)"
  java -jar bench/target/benchmarks.jar "$@" 2>&1 | grep -E '^(Benchmark|RulesBenchmark)' 
} | tee "$out.tmp"
mv "$out.tmp" "$out"
