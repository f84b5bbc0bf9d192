#!/usr/bin/env bash
# Distributed-mode benchmark: the per-move transport overhead (the referee's measurement of a move minus
# the worker's pipe measurement; median and p99) on loopback, and games per second with near-instant
# engines (Fairy-Stockfish at `go nodes 1`) through one referee and two workers, against the local runner
# playing the same games on the same machine in the same run. Writes bench/results/distributed-latest.md.
#
# Usage: bench/distributed.sh [GAMES] [REPEATS]
#   GAMES     default 200 (Minishogi, paired openings)
#   REPEATS   default 3: timed runs of each configuration; the report gives their medians
# Configurations, all in the same run on the same games:
#   local runner at concurrency 2 and at CLUSTER_CONCURRENCY (environment, default 6);
#   cluster: 1 referee (CLUSTER_CONCURRENCY games at once), 2 workers (CLUSTER_CONCURRENCY engine slots
#   each), WARMUPS (environment, default 3) untimed submissions first so that the long-running services
#   are measured warm (their JIT compilers are still busy after 40,000 moves).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
games="${1:-200}"
repeats="${2:-3}"
concurrency="${CLUSTER_CONCURRENCY:-6}"
warmups="${WARMUPS:-3}"
out="$root/bench/out/distributed"
report="$root/bench/results/distributed-latest.md"
fsf="$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)"
[ -x "$fsf" ] || { echo "bench/distributed.sh needs fairy-stockfish: apt-get install fairy-stockfish" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
"$root/taikai" cluster --help > /dev/null # builds the services when needed

# the same games every time: only the local runner's concurrency and its output directory differ
tournament() { # $1: concurrency, $2: output directory (relative to $out); prints the file's path
  cat > "$out/$2.yaml" <<YAML
name: distributed bench
variant: minishogi
rounds: $((games / 2))
games: 2
time-control: nodes 1
concurrency: $1
openings: {file: $root/openings/minishogi.txt, order: random}
seed: 3
output: $2
engines:
  - {engine: fairy-stockfish, name: fsf-a}
  - {engine: fairy-stockfish, name: fsf-b}
YAML
  echo "$out/$2.yaml"
}

seconds() { awk -v ns="$1" 'BEGIN { printf "%.2f\n", ns / 1e9 }'; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
rate() { awk -v g="$games" -v s="$1" 'BEGIN { printf "%.1f", g / s }'; }

local_runs() { # $1: concurrency; prints the wall seconds of each run
  for i in $(seq "$repeats"); do
    echo "local runner, concurrency $1, run $i of $repeats" >&2
    local file=$(tournament "$1" "local-c$1-$i") begin=$(date +%s%N)
    ( "$root/taikai" run "$file" > "$out/local-c$1-$i.txt" 2> "$out/local-c$1-$i.progress"; times > "$out/local-c$1-$i.times" )
    seconds $(( $(date +%s%N) - begin ))
  done | paste -sd' '
}
local_2=$(local_runs 2)
local_c=$local_2
[ "$concurrency" = 2 ] || local_c=$(local_runs "$concurrency")

echo "cluster: 1 referee ($concurrency games at once), 2 workers ($concurrency slots each)" >&2
"$root/taikai" cluster up --dir "$out/cluster" --workers 2 --referees 1 --slots "$concurrency" --games "$concurrency" > "$out/up.txt"
trap '"$root/taikai" cluster down --dir "$out/cluster" > /dev/null 2>&1 || true' EXIT
pids=$(sed -n 's/.* pid \([0-9]*\).*/\1/p' "$out/up.txt")
# user + system CPU seconds of every service JVM (engines excluded: they outlive the run)
service_cpu() { for pid in $pids; do awk '{ print $1 " " ($14 + $15) }' "/proc/$pid/stat"; done; }
cluster_file=$(tournament "$concurrency" cluster-unused)
submit() { # $1: run name; prints wall seconds
  local begin=$(date +%s%N)
  ( "$root/taikai" cluster submit --dir "$out/cluster" --concurrency 16 --out "$out/$1-records" "$cluster_file" > "$out/$1.txt" 2> "$out/$1.progress"; times > "$out/$1.times" )
  seconds $(( $(date +%s%N) - begin ))
}
cold=""
for i in $(seq "$warmups"); do
  echo "  warm-up submission $i of $warmups (services cold: JIT compilation under way)" >&2
  cold="$cold $(submit "cluster-cold-$i")"
done
warm=""
for i in $(seq "$repeats"); do
  echo "  submission $i of $repeats, the same games (services warm)" >&2
  service_cpu > "$out/cpu-before"
  warm="$warm $(submit "cluster-$i")"
  service_cpu > "$out/cpu-after"
done
ticks=$(getconf CLK_TCK)
cpu_table=$(join <(sort "$out/cpu-before") <(sort "$out/cpu-after") | while read -r pid before after; do
  name=$(grep " pid $pid " "$out/up.txt" | awk '{ print $1 }')
  awk -v n="$name" -v b="$before" -v a="$after" -v t="$ticks" 'BEGIN { printf "%s %.1f\n", n, (a - b) / t }'
done)
url=$(sed -n 's/^Records: //p' "$out/cluster-$repeats.txt")
curl -s -H "Authorization: Bearer $(cat "$out/cluster/access/viewer.token")" "$url?limit=1000" > "$out/records-1.json"
if [ "$games" -gt 1000 ]; then
  echo "bench/distributed.sh reads at most 1000 records" >&2
fi

python3 - "$out/records-1.json" "$out/local-c2-1/results.json" > "$out/summary.txt" <<'PY'
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
# `times` prints the shell's then its children's user and system time, e.g. "0m1.5s 0m0.3s"
child_cpu() { sed -n 2p "$1" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%.1f", n }'; }
local_cpu=$(child_cpu "$out/local-c2-$repeats.times")
client_cpu=$(child_cpu "$out/cluster-$repeats.times")
local_2_s=$(echo "$local_2" | median)
local_c_s=$(echo "$local_c" | median)
warm_s=$(echo "$warm" | median)
best_local_s=$(printf '%s\n%s\n' "$local_2_s" "$local_c_s" | sort -n | head -1)
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
{
  echo "# Distributed-mode benchmark"
  echo
  echo "Latest run of \`bench/distributed.sh $games $repeats\` (CLUSTER_CONCURRENCY=$concurrency WARMUPS=$warmups), $(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  echo "- Machine: $cpu, $(nproc) cores; $(uname -sr); $(java -version 2>&1 | head -1)"
  echo "- Games: $games Minishogi games of Fairy-Stockfish 11.1 against itself at \`go nodes 1\`, paired openings"
  echo "  from openings/minishogi.txt; the same games in every run (the cluster played the same game ids,"
  echo "  colours and openings as the local runner: $same)."
  echo "- Cluster: Kafka (one KRaft process), scheduler, 1 referee ($concurrency games at once), 2 workers"
  echo "  ($concurrency engine slots each), every service its own JVM, all on this machine over loopback;"
  echo "  submitted with --concurrency 16; $warmups untimed warm-up submissions, then $repeats timed ones."
  echo "- Local: \`taikai run\` (a fresh JVM each run, engines kept between games), $repeats runs per concurrency."
  echo
  echo "| configuration | runs (s) | median s | games/s |"
  echo "|---|---|---|---|"
  echo "| local runner, concurrency 2 | $local_2 | $local_2_s | $(rate "$local_2_s") |"
  [ "$concurrency" = 2 ] || echo "| local runner, concurrency $concurrency | $local_c | $local_c_s | $(rate "$local_c_s") |"
  echo "| cluster, warm-up submissions (JVMs cold, then warming) | $cold | | |"
  echo "| cluster, warm | $warm | $warm_s | $(rate "$warm_s") |"
  echo
  echo "Warm cluster throughput is **$(awk -v l="$best_local_s" -v c="$warm_s" 'BEGIN { printf "%.0f", 100 * l / c }')%** of the local runner's at its best concurrency (goal: at least 80%); the last submission counted $counted games."
  echo
  echo "Per move over $moves moves of the last submission: transport overhead (referee's measurement minus the"
  echo "worker's pipe measurement) median **$over_med µs**, p99 $over_p99 µs (goal: median under 1 ms); the"
  echo "referee's whole measurement median $lat_med µs, p99 $lat_p99 µs."
  echo
  echo "CPU seconds used during the last submission by the service JVMs (the engines are not counted), against"
  echo "a local run at concurrency 2 (its whole process, engines included): $local_cpu s."
  echo
  echo "| service | CPU s |"
  echo "|---|---|"
  echo "$cpu_table" | awk '{ printf "| %s | %s |\n", $1, $2 }'
  echo "| all services | $(echo "$cpu_table" | awk '{ n += $2 } END { printf "%.1f", n }') |"
  echo "| the submitting client (\`taikai cluster submit\`) | $client_cpu |"
} | tee "$report"
