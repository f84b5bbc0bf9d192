#!/usr/bin/env bash
# Tournament benchmark: games per second with near-instant engines (Fairy-Stockfish at `go nodes 1`,
# and the random fake engine) at concurrency 1 and 2; the manager's own CPU time per move; the
# referee's per-move round trip (median, p99) against the direct-pipe baseline of bench/driver.sh,
# measured in the same run; and time forfeits over many games at 100 ms byoyomi.
# Writes bench/results/tournament-latest.md.
#
# Usage: bench/tournament.sh [GAMES] [FORFEIT_GAMES]    defaults: 200 games per throughput run, 2000 forfeit games
# (FORFEIT_GAMES 0 skips the forfeit run, which takes about 15 minutes)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
games="${1:-200}"
forfeit_games="${2:-2000}"
out="$root/bench/out/tournament"
report="$root/bench/results/tournament-latest.md"
rm -rf "$out"
mkdir -p "$out"

fsf="$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)"
[ -x "$fsf" ] || { echo "bench/tournament.sh needs fairy-stockfish: apt-get install fairy-stockfish" >&2; exit 1; }
command -v gcc >/dev/null || { echo "bench/tournament.sh needs gcc for the C baseline" >&2; exit 1; }
"$root/taikai" --version >/dev/null
gcc -O2 -o "$out/pipe-baseline" "$root/bench/pipe-baseline.c"
fake=(cmd="$root/taikai" arg=fake-engine arg=--think-ms arg=0)

percentiles() { # stdin: numbers -> "median p99"
  sort -n | awk '{ a[NR] = $1 } END { printf "%.3f %.3f\n", a[int((NR + 1) / 2)], a[int(NR * 0.99 + 0.5)] }'
}

throughput() { # label concurrency engine-args... -> one table row
  local label="$1" concurrency="$2"; shift 2
  local dir="$out/$label-c$concurrency"
  local start end
  start=$(date +%s%N)
  "$root/taikai" run --verbose -variant minishogi "$@" -rounds $((games / 2)) -games 2 -concurrency "$concurrency" \
    -maxmoves 100 -out "$dir" > "$dir.txt" 2> "$dir.progress"
  end=$(date +%s%N)
  local seconds; seconds=$(awk -v ns=$((end - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
  local cpu; cpu=$(sed -n 's/.*manager CPU \([0-9.]*\) s (\([0-9.]*\) µs per move over \([0-9]*\) moves).*/\2 \3/p' "$dir.txt")
  read -r cpu_per_move moves <<< "$cpu"
  python3 - "$dir/results.json" > "$dir.referee" <<'PY'
import json, sys
for game in json.load(open(sys.argv[1]))["games"]:
    for move in game["move_data"]:
        print(move["referee_ms"] * 1000)
PY
  read -r ref_med ref_p99 < <(percentiles < "$dir.referee")
  local forfeits; forfeits=$(grep -c '"termination":"time_forfeit"' "$dir/games.jsonl" || true)
  echo "| $label | $concurrency | $games | $seconds | $(awk -v g="$games" -v s="$seconds" 'BEGIN { printf "%.1f", g / s }') | $moves | $cpu_per_move | $ref_med | $ref_p99 | $forfeits |"
}

rows=""
for concurrency in 1 2; do
  echo "Fairy-Stockfish go nodes 1, concurrency $concurrency" >&2
  rows+="$(throughput fsf-nodes-1 "$concurrency" -engine conf=fairy-stockfish name=a -engine conf=fairy-stockfish name=b -each nodes=1)"$'\n'
  echo "random fake, concurrency $concurrency" >&2
  rows+="$(throughput random-fake "$concurrency" -engine name=a "${fake[@]}" -engine name=b "${fake[@]}" -each nodes=1)"$'\n'
done

# The baseline replays the positions of the first Fairy-Stockfish run, move by move, as one C client
# would send them: the same position commands, the same engine, no manager.
python3 - "$out/fsf-nodes-1-c1/results.json" > "$out/positions.txt" <<'PY'
import json, sys
for game in json.load(open(sys.argv[1]))["games"]:
    for ply in range(len(game["moves"])):
        moves = game["moves"][:ply]
        print("position sfen " + game["start_sfen"] + (" moves " + " ".join(moves) if moves else ""))
PY
round_trips=$(wc -l < "$out/positions.txt")
echo "baseline: $round_trips direct-pipe round trips over the same positions" >&2
"$out/pipe-baseline" "$fsf" minishogi - "go nodes 1" $((round_trips + 200)) < "$out/positions.txt" | tail -n "$round_trips" \
  | awk '{ print $1 / 1000 }' > "$out/baseline.us"
read -r base_med base_p99 < <(percentiles < "$out/baseline.us")

if [ "$forfeit_games" -gt 0 ]; then
  echo "forfeits: $forfeit_games games of Fairy-Stockfish at byoyomi 0.1" >&2
  start=$(date +%s%N)
  "$root/taikai" run -variant minishogi -engine conf=fairy-stockfish name=a -engine conf=fairy-stockfish name=b \
    -each tc=0 byoyomi=0.1 -rounds $((forfeit_games / 2)) -games 2 -concurrency 1 -maxmoves 10 \
    -openings file="$root/openings/minishogi.txt" order=random -out "$out/forfeits" > "$out/forfeits.txt" 2> "$out/forfeits.progress"
  end=$(date +%s%N)
  forfeits=$(grep -c '"termination":"time_forfeit"' "$out/forfeits/games.jsonl" || true)
  played=$(wc -l < "$out/forfeits/games.jsonl")
  python3 - "$out/forfeits/results.json" > "$out/forfeits.times" <<'PY'
import json, sys
for game in json.load(open(sys.argv[1]))["games"]:
    for move in game["move_data"]:
        print(move["time_ms"], move["referee_ms"])
PY
  read -r time_med time_max < <(awk '{ print $1 }' "$out/forfeits.times" | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f %.1f\n", a[int((NR + 1) / 2)], a[NR] }')
  forfeit_details=$(grep -o '"detail":"[^"]*used [^"]*"' "$out/forfeits/games.jsonl" | head -5 || true)

fi

cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
{
  echo "# Tournament benchmark"
  echo
  echo "Latest run of \`bench/tournament.sh $games $forfeit_games\`, $(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  echo "- Machine: $cpu, $(nproc) cores; $(uname -sr); $(java -version 2>&1 | head -1)"
  echo "- Engines: $(echo quit | "$fsf" 2>&1 | head -1) at \`go nodes 1\`; the testkit's random fake (\`--think-ms 0\`)."
  echo "- Minishogi matches of $games games (paired), move limit 200 plies, engines kept between games."
  echo "- Direct-pipe baseline (bench/pipe-baseline.c, same run): the positions of the first Fairy-Stockfish run replayed"
  echo "  move by move (\`position sfen ... moves ...\`, \`go nodes 1\`): median $base_med µs, p99 $base_p99 µs."
  echo "- \"Referee per move\" is the referee's own time from asking an engine for a move to having it (driver and pipe"
  echo "  included); \"manager CPU\" is the taikai JVM's CPU time (engines excluded, JVM start and JIT included) per move."
  echo
  echo "| engines | concurrency | games | seconds | games/s | moves | manager CPU µs/move | referee per move median µs | p99 µs | time forfeits |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  printf '%s' "$rows"
  echo
  if [ "$forfeit_games" -gt 0 ]; then
  echo "Time forfeits at 100 ms byoyomi (Fairy-Stockfish against itself, concurrency 1, at most 10 moves each, balanced openings):"
  echo "**$forfeits forfeits in $played games** ($(awk '{ n++ } END { print n }' "$out/forfeits.times") moves; engine time per move median ${time_med} ms,"
  echo "max ${time_max} ms; wall time $(awk -v ns=$((end - start)) 'BEGIN { printf "%.0f", ns / 1e9 }') s)."
  if [ -n "$forfeit_details" ]; then
    echo
    echo "Forfeits (first five):"
    echo '```'
    echo "$forfeit_details"
    echo '```'
  fi
  fi
} | tee "$report"
