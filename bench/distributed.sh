#!/usr/bin/env bash
# Distributed-mode benchmark: the per-move transport overhead (the referee's measurement of a move minus
# the worker's pipe measurement; median and p99) on loopback, and games per second with near-instant
# engines (Fairy-Stockfish at `go nodes 1`) through one referee and two workers, against the local runner
# playing the same games on the same machine in the same run. Writes bench/results/distributed-latest.md.
#
# Usage: bench/distributed.sh [GAMES]    default 200 games (Minishogi, paired openings)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
games="${1:-200}"
out="$root/bench/out/distributed"
report="$root/bench/results/distributed-latest.md"
fsf="$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)"
[ -x "$fsf" ] || { echo "bench/distributed.sh needs fairy-stockfish: apt-get install fairy-stockfish" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
"$root/taikai" cluster --help > /dev/null # builds the services when needed

cat > "$out/tournament.yaml" <<YAML
name: distributed bench
variant: minishogi
rounds: $((games / 2))
games: 2
time-control: nodes 1
concurrency: 2
openings: {file: $root/openings/minishogi.txt, order: random}
seed: 3
output: local
engines:
  - {engine: fairy-stockfish, name: fsf-a}
  - {engine: fairy-stockfish, name: fsf-b}
YAML

seconds() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e9 }'; }

echo "local runner, concurrency 2" >&2
start=$(date +%s%N)
( "$root/taikai" run "$out/tournament.yaml" > "$out/local.txt" 2> "$out/local.progress"; times > "$out/local.times" )
local_ns=$(( $(date +%s%N) - start ))
# `times` prints the shell's then its children's user and system time, e.g. "0m1.5s 0m0.3s"
local_cpu=$(sed -n 2p "$out/local.times" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%.1f", n }')

echo "cluster: 1 referee (2 games at once), 2 workers (2 slots each)" >&2
"$root/taikai" cluster up --dir "$out/cluster" --workers 2 --referees 1 --slots 2 --games 2 > "$out/up.txt"
trap '"$root/taikai" cluster down --dir "$out/cluster" > /dev/null 2>&1 || true' EXIT
pids=$(sed -n 's/.* pid \([0-9]*\).*/\1/p' "$out/up.txt")
# user + system CPU seconds of every service JVM (engines excluded: they outlive the run)
service_cpu() { for pid in $pids; do awk '{ print $1 " " ($14 + $15) }' "/proc/$pid/stat"; done; }
submit() { # $1: run name; prints wall nanoseconds
  local begin=$(date +%s%N)
  "$root/taikai" cluster submit --dir "$out/cluster" --concurrency 16 "$out/tournament.yaml" > "$out/$1.txt" 2> "$out/$1.progress"
  echo $(( $(date +%s%N) - begin ))
}
echo "  first submission (services cold: JIT compilation still under way)" >&2
cold_ns=$(submit cluster-cold)
service_cpu > "$out/cpu-before"
echo "  second submission, the same games (services warm)" >&2
cluster_ns=$(submit cluster)
service_cpu > "$out/cpu-after"
ticks=$(getconf CLK_TCK)
cpu_table=$(join <(sort "$out/cpu-before") <(sort "$out/cpu-after") | while read -r pid before after; do
  name=$(grep " pid $pid " "$out/up.txt" | awk '{ print $1 }')
  awk -v n="$name" -v b="$before" -v a="$after" -v t="$ticks" 'BEGIN { printf "%s %.1f\n", n, (a - b) / t }'
done)
url=$(sed -n 's/^Records: //p' "$out/cluster.txt")
curl -s -H "Authorization: Bearer $(cat "$out/cluster/access/viewer.token")" "$url?limit=1000" > "$out/records-1.json"
if [ "$games" -gt 1000 ]; then
  echo "bench/distributed.sh reads at most 1000 records" >&2
fi

python3 - "$out/records-1.json" "$root/bench/out/distributed/local/results.json" > "$out/summary.txt" <<'PY'
import json, sys
records = json.load(open(sys.argv[1]))["records"]
local = json.load(open(sys.argv[2]))["games"]
overhead, latency = [], []
for r in records:
    for m in r.get("moves", []):
        engine, referee = int(m.get("engineNs", 0)), int(m.get("refereeNs", 0))
        overhead.append((referee - engine) / 1000)
        latency.append(referee / 1000)
def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]
same = {(g["id"], g["sente"], g["gote"], g["start_sfen"]) for g in local} == {
    (r["assignment"]["localId"], r["assignment"]["sente"]["name"], r["assignment"]["gote"]["name"], r["startSfen"]) for r in records}
print(len(records), len(overhead), "%.1f" % pct(overhead, 0.5), "%.1f" % pct(overhead, 0.99),
      "%.1f" % pct(latency, 0.5), "%.1f" % pct(latency, 0.99), "yes" if same else "no")
PY
read -r counted moves over_med over_p99 lat_med lat_p99 same < "$out/summary.txt"
local_s=$(seconds "$local_ns")
cluster_s=$(seconds "$cluster_ns")
cold_s=$(seconds "$cold_ns")
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
{
  echo "# Distributed-mode benchmark"
  echo
  echo "Latest run of \`bench/distributed.sh $games\`, $(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  echo "- Machine: $cpu, $(nproc) cores; $(uname -sr); $(java -version 2>&1 | head -1)"
  echo "- Games: $games Minishogi games of Fairy-Stockfish 11.1 against itself at \`go nodes 1\`, paired openings"
  echo "  from openings/minishogi.txt; the same tournament file for both runs (same game ids, colours and"
  echo "  openings: $same)."
  echo "- Cluster: Kafka (one KRaft process), scheduler, 1 referee (2 games at once), 2 workers (2 engine slots"
  echo "  each), every service its own JVM, all on this machine over loopback; submitted with --concurrency 16."
  echo "- Local: \`taikai run\` with concurrency 2, engines kept between games."
  echo
  echo "| run | games | seconds | games/s |"
  echo "|---|---|---|---|"
  echo "| local runner | $games | $local_s | $(awk -v g="$games" -v s="$local_s" 'BEGIN { printf "%.1f", g / s }') |"
  echo "| cluster, first submission (cold JVMs) | $games | $cold_s | $(awk -v g="$games" -v s="$cold_s" 'BEGIN { printf "%.1f", g / s }') |"
  echo "| cluster, second submission (warm) | $counted | $cluster_s | $(awk -v g="$counted" -v s="$cluster_s" 'BEGIN { printf "%.1f", g / s }') |"
  echo
  echo "Warm cluster throughput is $(awk -v l="$local_s" -v c="$cluster_s" -v g="$games" -v n="$counted" 'BEGIN { printf "%.0f", 100 * (n / c) / (g / l) }')% of the local runner's (goal: at least 80%)."
  echo
  echo "Per move over $moves moves: transport overhead (referee's measurement minus the worker's pipe"
  echo "measurement) median **$over_med µs**, p99 $over_p99 µs (goal: median under 1 ms); the referee's whole"
  echo "measurement median $lat_med µs, p99 $lat_p99 µs (second submission)."
  echo
  echo "CPU seconds used during the warm submission (service JVMs; the engines are not counted) against the"
  echo "local runner's whole process (its engines included): local runner $local_cpu s."
  echo
  echo "| service | CPU s |"
  echo "|---|---|"
  echo "$cpu_table" | awk '{ printf "| %s | %s |\n", $1, $2 }'
  echo "| all services | $(echo "$cpu_table" | awk '{ n += $2 } END { printf "%.1f", n }') |"
} | tee "$report"
