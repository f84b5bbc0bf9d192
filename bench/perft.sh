#!/usr/bin/env bash
# Perft benchmark: Taikai against Debian's Fairy-Stockfish 11.1, single-threaded perft of both start
# positions, side by side and interleaved in one run. Whole-process wall time for both programs
# (Taikai run as users run it, through ./taikai, so its JVM start and JIT warm-up count against it);
# Taikai's in-process time is shown too.
# Prints a Markdown report and writes it to bench/results/perft-latest.md.
#
# Usage: bench/perft.sh [RUNS] [DEPTH]      defaults: 5 runs, depth 7
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-5}"
depth="${2:-7}"
report="$root/bench/results/perft-latest.md"

fsf="$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)"
[ -x "$fsf" ] || { echo "bench/perft.sh needs fairy-stockfish: apt-get install fairy-stockfish" >&2; exit 1; }
"$root/taikai" --version >/dev/null # builds the jar when it is stale

now_ns() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
seconds() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }

run_taikai() { # variant -> "<wall ms> <in-process ms> <nodes>"
  local start end out
  start=$(now_ns)
  out=$("$root/taikai" perft "$1" "$depth" --time 2>&1)
  end=$(now_ns)
  local nodes inproc
  nodes=$(echo "$out" | awk '/^nodes/ { print $2 }')
  inproc=$(echo "$out" | awk '/^time/ { printf "%d", $2 * 1000 }')
  echo "$(( (end - start) / 1000000 )) $inproc $nodes"
}

run_fsf() { # variant -> "<wall ms> <nodes>"
  local start end out
  start=$(now_ns)
  out=$(printf 'usi\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' "$1" "$depth" | "$fsf" 2>&1)
  end=$(now_ns)
  echo "$(( (end - start) / 1000000 )) $(echo "$out" | awk -F': ' '/^Nodes searched/ { print $2 }')"
}

rows=""
for variant in minishogi kyotoshogi; do
  t_wall=(); t_in=(); f_wall=()
  for ((i = 1; i <= runs; i++)); do
    echo "perft $variant $depth: run $i of $runs" >&2
    if (( i % 2 )); then # alternate the order so neither program always runs on a warmer machine
      read -r w p t_nodes < <(run_taikai "$variant"); read -r fw f_nodes < <(run_fsf "$variant")
    else
      read -r fw f_nodes < <(run_fsf "$variant"); read -r w p t_nodes < <(run_taikai "$variant")
    fi
    t_wall+=("$w"); t_in+=("$p"); f_wall+=("$fw")
  done
  tm=$(printf '%s\n' "${t_wall[@]}" | median)
  tp=$(printf '%s\n' "${t_in[@]}" | median)
  fm=$(printf '%s\n' "${f_wall[@]}" | median)
  ratio=$(awk -v f="$fm" -v t="$tm" 'BEGIN { printf "%.2f", f / t }')
  rows+="| $variant | $depth | $t_nodes | $f_nodes | $(seconds "$tm") | $(seconds "$tp") | $(seconds "$fm") | **${ratio}×** |"$'\n'
  echo "  $variant: Taikai $(seconds "$tm") s (in-process $(seconds "$tp") s), Fairy-Stockfish $(seconds "$fm") s" >&2
done

cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
{
  echo "# Perft benchmark: Taikai against Fairy-Stockfish"
  echo
  echo "Latest run of \`bench/perft.sh $runs $depth\`, $(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  echo "- Machine: $cpu, $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr)"
  echo "- Java: $(java -version 2>&1 | head -1), options from ./taikai: ${TAIKAI_JAVA_OPTS:--XX:+UseSerialGC -Xmn32m}"
  echo "- Fairy-Stockfish: $(echo quit | "$fsf" 2>&1 | head -1) ($fsf)"
  echo "- Both single-threaded, start positions, $runs runs each, interleaved; medians."
  echo "  Wall time is the whole process (Taikai's includes JVM start and JIT warm-up);"
  echo "  Taikai's in-process time is what \`taikai perft --time\` reports."
  echo
  echo "| variant | depth | Taikai nodes | Fairy-Stockfish nodes | Taikai wall s | Taikai in-process s | Fairy-Stockfish wall s | speed-up (FSF / Taikai wall) |"
  echo "|---|---|---|---|---|---|---|---|"
  printf '%s' "$rows"
  echo
  echo "Fairy-Stockfish's Minishogi count is higher by the pawn-drop mates it allows at the last ply"
  echo "(81 at depth 7); RULES.md forbids them (docs/rules-decisions.md)."
} | tee "$report"
