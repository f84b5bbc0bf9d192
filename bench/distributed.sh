#!/usr/bin/env bash
# Distributed-mode benchmark: the per-move transport overhead (the referee's measurement of a move minus
# the worker's pipe measurement; median and p99) on loopback, and games per second with near-instant
# engines (Fairy-Stockfish at `go nodes 1`) through one referee and two workers, against the local runner
# playing the same games on the same machine in the same run. Writes bench/results/distributed-latest.md.
#
# Usage: bench/distributed.sh [GAMES] [REPEATS]
#   GAMES     default 200 (Minishogi, paired openings)
#   REPEATS   default 9: timed runs of each configuration; the report gives their medians, and for TLS
#             also the median of its paired ratios (submission i with TLS against submission i in
#             plaintext, played one after the other): single submissions of the same games vary by 10 %
#             on this machine, twice the 5 % TLS is held to, so a median of 3 or 5 moved by that much
# Configurations, all in the same run on the same games:
#   local runner at concurrency 2 and at CLUSTER_CONCURRENCY (environment, default 6);
#   two clusters, one with TLS on every hop (the default) and one with --plaintext (the reference for TLS's
#   cost), up side by side, each: 1 referee (CLUSTER_CONCURRENCY games at once), 2 workers
#   (CLUSTER_CONCURRENCY engine slots each), untimed warm-up submissions first so that the long-running
#   services are measured warm: at least WARMUPS (environment, default 5) and then more, up to MAX_WARMUPS
#   (default 15), until a submission's JIT compilation (the services' C1 and C2 compiler threads) is under
#   WARM_JIT_PERCENT (default 5) of the CPU the services used for it (after 5 submissions of 200 games
#   it was still a fifth, after 15 still 13 %, with and without TLS); then
#   their timed submissions alternate.
# The transport overhead is given twice: under the timed submissions' full load (the playing cluster's 12 engines
# and 5 JVMs, beside the idle cluster's, on this machine's cores, where a move's wait for a free core is part of every hop; over all
# timed submissions' moves, and over the last one's as the scheduler's API gives them), and with
# one game at a time (LATENCY_GAMES, environment, default 20, submitted to each cluster in turn after the
# timed ones, the other cluster idle): what the transport itself adds to a move when a core is free.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
games="${1:-200}"
repeats="${2:-9}"
concurrency="${CLUSTER_CONCURRENCY:-6}"
warmups="${WARMUPS:-5}"
max_warmups="${MAX_WARMUPS:-15}"
warm_jit_percent="${WARM_JIT_PERCENT:-5}"
latency_games="${LATENCY_GAMES:-20}"
out="$root/bench/out/distributed"
report="$root/bench/results/distributed-latest.md"
fsf="$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)"
[ -x "$fsf" ] || { echo "bench/distributed.sh needs fairy-stockfish: apt-get install fairy-stockfish" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
"$root/taikai" cluster --help > /dev/null # builds the services when needed

# the same games every time: only the local runner's concurrency and its output directory differ
tournament() { # $1: concurrency, $2: output directory (relative to $out), [$3: games]; prints the file's path
  cat > "$out/$2.yaml" <<YAML
name: distributed bench
variant: minishogi
rounds: $((${3:-$games} / 2))
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

# Two clusters of the same shape, up side by side: one with TLS everywhere (the default: HTTPS, gRPC over
# TLS, referee-to-worker mutual TLS, Kafka over mutual TLS with ACLs; docs/security.md) and one with
# --plaintext. Their timed submissions alternate, so that both see the same machine.
variants=(tls plaintext)
up_args_tls=()
up_args_plaintext=(--plaintext)
trap 'for v in "${variants[@]}"; do "$root/taikai" cluster down --dir "$out/cluster-$v" > /dev/null 2>&1 || true; done' EXIT
for v in "${variants[@]}"; do
  echo "cluster ($v): 1 referee ($concurrency games at once), 2 workers ($concurrency slots each)" >&2
  args_name="up_args_$v[@]"
  "$root/taikai" cluster up --dir "$out/cluster-$v" --workers 2 --referees 1 --slots "$concurrency" \
    --games "$concurrency" "${!args_name}" > "$out/up-$v.txt"
done
# user + system CPU seconds of every service JVM of cluster $1 (engines excluded: they outlive the run)
service_cpu() {
  for pid in $(sed -n 's/.* pid \([0-9]*\).*/\1/p' "$out/up-$1.txt"); do awk '{ print $1 " " ($14 + $15) }' "/proc/$pid/stat"; done
}
cluster_file=$(tournament "$concurrency" cluster-unused)
submit() { # $1: cluster, $2: run name, [$3: tournament file, $4: games at once]; prints wall seconds
  local begin=$(date +%s%N)
  ( "$root/taikai" cluster submit --dir "$out/cluster-$1" --concurrency "${4:-16}" --out "$out/$2-records" "${3:-$cluster_file}" > "$out/$2.txt" 2> "$out/$2.progress"; times > "$out/$2.times" )
  seconds $(( $(date +%s%N) - begin ))
}
declare -A cold warm
# CPU ticks of cluster $1's service JVMs: all their threads, and their JIT compilers' threads
services_ticks() { service_cpu "$1" | awk '{ n += $2 } END { print n }'; }
jit_ticks() {
  for pid in $(sed -n 's/.* pid \([0-9]*\).*/\1/p' "$out/up-$1.txt"); do
    for task in /proc/"$pid"/task/*; do
      if grep -q '^C[12] CompilerThre' "$task/comm" 2>/dev/null; then awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "$task/stat"; fi
    done
  done | awk '{ n += $1 } END { print n + 0 }'
}
jit_percent() { # $1 $2: services' ticks before and after, $3 $4: the compilers' -> percent
  awk -v s="$(( $2 - $1 ))" -v j="$(( $4 - $3 ))" 'BEGIN { printf "%.0f", (s > 0 ? 100 * j / s : 0) }'
}
declare -A warm_after jit_last
pending=("${variants[@]}")
for i in $(seq "$max_warmups"); do
  [ ${#pending[@]} -gt 0 ] || break
  still=()
  for v in "${pending[@]}"; do
    echo "  warm-up submission $i to the $v cluster (services cold: JIT compilation under way)" >&2
    s0=$(services_ticks "$v") j0=$(jit_ticks "$v")
    cold[$v]="${cold[$v]:-} $(submit "$v" "$v-cold-$i")"
    jit_last[$v]=$(jit_percent "$s0" "$(services_ticks "$v")" "$j0" "$(jit_ticks "$v")")
    warm_after[$v]=$i
    if [ "$i" -lt "$warmups" ] || [ "${jit_last[$v]}" -ge "$warm_jit_percent" ]; then still+=("$v"); fi
  done
  pending=("${still[@]}")
done
declare -A busy timed_s0 timed_j0 jit_timed
for v in "${variants[@]}"; do timed_s0[$v]=$(services_ticks "$v") timed_j0[$v]=$(jit_ticks "$v"); done
for i in $(seq "$repeats"); do
  order=("${variants[@]}")
  [ $((i % 2)) = 1 ] || order=("${variants[1]}" "${variants[0]}") # who goes first alternates: no drift favours one
  for v in "${order[@]}"; do
    echo "  submission $i of $repeats to the $v cluster, the same games (services warm)" >&2
    service_cpu "$v" > "$out/cpu-before-$v-$i"
    python3 "$root/bench/cpu-by-process.py" snapshot "$out/processes-before-$v-$i.json"
    warm[$v]="${warm[$v]:-} $(submit "$v" "$v-$i")"
    python3 "$root/bench/cpu-by-process.py" snapshot "$out/processes-after-$v-$i.json"
    service_cpu "$v" > "$out/cpu-after-$v-$i"
    other=${variants[0]}
    [ "$other" != "$v" ] || other=${variants[1]}
    python3 "$root/bench/cpu-by-process.py" attribute "$out/processes-before-$v-$i.json" \
      "$out/processes-after-$v-$i.json" "$out/up-$v.txt" "$out/up-$other.txt" $$ > "$out/cpu-groups-$v-$i"
    # the whole machine's busy ticks (user, nice, system, irq, softirq) over the submission
    busy[$v]="${busy[$v]:-} $(awk '$1 == "machine" { print $2 }' "$out/cpu-groups-$v-$i")"
  done
done
for v in "${variants[@]}"; do
  jit_timed[$v]=$(jit_percent "${timed_s0[$v]}" "$(services_ticks "$v")" "${timed_j0[$v]}" "$(jit_ticks "$v")")
done
latency_file=$(tournament 1 cluster-latency-unused "$latency_games")
for v in "${variants[@]}"; do
  echo "  $latency_games games one at a time on the $v cluster (the other idle): transport without load" >&2
  submit "$v" "$v-one-at-a-time" "$latency_file" 1 > /dev/null
done
ticks=$(getconf CLK_TCK)
cpu_table() { # $1: cluster -> "member CPU-seconds" lines: the mean over its timed submissions
  for i in $(seq "$repeats"); do
    join <(sort "$out/cpu-before-$1-$i") <(sort "$out/cpu-after-$1-$i")
  done | while read -r pid before after; do
    echo "$(grep " pid $pid " "$out/up-$1.txt" | awk '{ print $1 }') $((after - before))"
  done | awk -v t="$ticks" -v r="$repeats" '{ n[$1] += $2 } END { for (m in n) printf "%s %.2f\n", m, n[m] / t / r }'
}
if [ "$games" -gt 1000 ]; then
  echo "bench/distributed.sh reads at most 1000 records" >&2
fi
summarize() { # $1: cluster, $2: run name -> "games moves transport-median -p99 referee-median -p99 same-games"
  local url ca=()
  url=$(sed -n 's/^Records on the scheduler: \([^ ]*\).*/\1/p' "$out/$2.txt")
  [ "$1" = plaintext ] || ca=(--cacert "$out/cluster-$1/tls/ca/ca.crt")
  curl -sf "${ca[@]}" -H "Authorization: Bearer $(cat "$out/cluster-$1/access/viewer.token")" "$url?limit=1000" > "$out/records-$2.json"
  python3 - "$out/records-$2.json" "$out/local-c2-1/results.json" <<'PY'
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
}
# every timed submission of cluster $1 together, from the records its client wrote (games.jsonl, times in ms
# to the µs) -> "moves transport-median -p99 referee-median -p99 per-submission-medians"; one submission's
# median moves by a fifth from one to the next on this machine, so the pooled one is the steadier figure
pooled() {
  python3 - "$repeats" "$out/$1" <<'PY'
import json, sys
repeats, prefix = int(sys.argv[1]), sys.argv[2]
def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]
overhead, latency, medians = [], [], []
for i in range(1, repeats + 1):
    mine = []
    with open(f"{prefix}-{i}-records/games.jsonl") as games:
        for line in games:
            for m in json.loads(line).get("move_data", []):
                mine.append((m["referee_ms"] - m["time_ms"]) * 1000)
                latency.append(m["referee_ms"] * 1000)
    overhead += mine
    medians.append("%.0f" % pct(mine, 0.5))
print(len(overhead), "%.1f" % pct(overhead, 0.5), "%.1f" % pct(overhead, 0.99),
      "%.1f" % pct(latency, 0.5), "%.1f" % pct(latency, 0.99), ",".join(medians))
PY
}
for v in "${variants[@]}"; do
  summarize "$v" "$v-$repeats" > "$out/summary-$v.txt"
  summarize "$v" "$v-one-at-a-time" > "$out/summary-one-$v.txt"
  pooled "$v" > "$out/summary-pooled-$v.txt"
done
# `times` prints the shell's then its children's user and system time, e.g. "0m1.5s 0m0.3s"
child_cpu() { sed -n 2p "$1" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%.1f", n }'; }
local_cpu=$(child_cpu "$out/local-c2-$repeats.times")
# the mean CPU seconds of group $2 (bench/cpu-by-process.py) over cluster $1's timed submissions
group_cpu() {
  cat "$out"/cpu-groups-"$1"-* | awk -v g="$2" -v t="$ticks" -v r="$repeats" '
    { n = $NF; $NF = ""; sub(/ $/, "") } $0 == g { s += n } END { printf "%.2f", s / t / r }'
}
# the mean CPU seconds of every group but the machine's together
accounted_cpu() {
  grep -hv '^machine ' "$out"/cpu-groups-"$1"-* | awk -v t="$ticks" -v r="$repeats" '{ s += $NF } END { printf "%.2f", s / t / r }'
}
group_row() { # $1: label, $2: group
  local t p
  t=$(group_cpu tls "$2") p=$(group_cpu plaintext "$2")
  echo "| $1 | $t | $p | $(awk -v t="$t" -v p="$p" 'BEGIN { printf "%+.2f", t - p }') |"
}
client_cpu() { # $1: cluster -> the mean CPU seconds of its timed submissions' client
  for i in $(seq "$repeats"); do child_cpu "$out/$1-$i.times"; echo; done | awk '{ n += $1 } END { printf "%.2f", n / NR }'
}
paired=$(paste <(echo "${warm[plaintext]}" | tr ' ' '\n' | grep .) <(echo "${warm[tls]}" | tr ' ' '\n' | grep .) \
  | awk '{ printf "%.1f ", 100 * $1 / $2 }' | sed 's/ $//')
paired_median=$(echo "$paired" | median)
paired_range=$(echo "$paired" | tr ' ' '\n' | grep . | sort -n | sed -n '1p;$p' | paste -sd' ' | awk '{ print $1 "–" $2 }')
busy_s() { echo "${busy[$1]}" | tr ' ' '\n' | grep . | awk -v t="$(getconf CLK_TCK)" '{ printf "%.1f ", $1 / t }'; }
local_2_s=$(echo "$local_2" | median)
local_c_s=$(echo "$local_c" | median)
best_local_s=$(printf '%s\n%s\n' "$local_2_s" "$local_c_s" | sort -n | head -1)
tls_s=$(echo "${warm[tls]}" | median)
plain_s=$(echo "${warm[plaintext]}" | median)
read -r counted moves over_med over_p99 lat_med lat_p99 same < "$out/summary-tls.txt"
read -r p_counted p_moves p_over_med p_over_p99 p_lat_med p_lat_p99 p_same < "$out/summary-plaintext.txt"
read -r _ one_moves one_over_med one_over_p99 one_lat_med one_lat_p99 _ < "$out/summary-one-tls.txt"
read -r _ p_one_moves p_one_over_med p_one_over_p99 p_one_lat_med p_one_lat_p99 _ < "$out/summary-one-plaintext.txt"
read -r all_moves all_over_med all_over_p99 all_lat_med all_lat_p99 all_medians < "$out/summary-pooled-tls.txt"
read -r p_all_moves p_all_over_med p_all_over_p99 p_all_lat_med p_all_lat_p99 p_all_medians < "$out/summary-pooled-plaintext.txt"
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
{
  echo "# Distributed-mode benchmark"
  echo
  echo "Latest run of \`bench/distributed.sh $games $repeats\` (CLUSTER_CONCURRENCY=$concurrency WARMUPS=$warmups MAX_WARMUPS=$max_warmups WARM_JIT_PERCENT=$warm_jit_percent), $(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  echo "- Machine: $cpu, $(nproc) cores; $(uname -sr); $(java -version 2>&1 | head -1)"
  echo "- Games: $games Minishogi games of Fairy-Stockfish 11.1 against itself at \`go nodes 1\`, paired openings"
  echo "  from openings/minishogi.txt; the same games in every run (each cluster played the same game ids,"
  echo "  colours and openings as the local runner: TLS $same, plaintext $p_same)."
  echo "- Clusters: two of the same shape, up side by side, their timed submissions alternating: Kafka (one"
  echo "  KRaft process), scheduler, 1 referee ($concurrency games at once), 2 workers ($concurrency engine slots"
  echo "  each), every service its own JVM, all on this machine over loopback; one with TLS on every hop (the"
  echo "  default: HTTPS and gRPC over TLS, referee-to-worker and Kafka mutual TLS, Kafka ACLs), one started"
  echo "  with --plaintext. Submitted with --concurrency 16; untimed warm-up submissions until a submission's"
  echo "  JIT compilation was under $warm_jit_percent % of the services' CPU (at least $warmups, at most $max_warmups): TLS ${warm_after[tls]}"
  echo "  (the last at ${jit_last[tls]} %), plaintext ${warm_after[plaintext]} (${jit_last[plaintext]} %); then $repeats timed ones, in which"
  echo "  the JIT compilers took ${jit_timed[tls]} % (TLS) and ${jit_timed[plaintext]} % (plaintext) of the services' CPU."
  echo "- Local: \`taikai run\` (a fresh JVM each run, engines kept between games), $repeats runs per concurrency."
  echo
  echo "| configuration | runs (s) | median s | games/s |"
  echo "|---|---|---|---|"
  echo "| local runner, concurrency 2 | $local_2 | $local_2_s | $(rate "$local_2_s") |"
  [ "$concurrency" = 2 ] || echo "| local runner, concurrency $concurrency | $local_c | $local_c_s | $(rate "$local_c_s") |"
  echo "| cluster with TLS, warm-up submissions (JVMs cold, then warming) | ${cold[tls]} | | |"
  echo "| cluster in plaintext, warm-up submissions | ${cold[plaintext]} | | |"
  echo "| **cluster with TLS, warm** | ${warm[tls]} | $tls_s | $(rate "$tls_s") |"
  echo "| cluster in plaintext, warm (reference) | ${warm[plaintext]} | $plain_s | $(rate "$plain_s") |"
  echo
  echo "Warm throughput with TLS is **$(awk -v p="$plain_s" -v t="$tls_s" 'BEGIN { printf "%.1f", 100 * p / t }')%** of plaintext's by the medians (goal: within 5%, so at least 95%);"
  echo "by pairs (submission i in plaintext against submission i with TLS, one right after the other) the median is"
  echo "**$paired_median%** and they range over $paired_range% ($paired). The whole machine (every process, engines"
  echo "included) was busy for $(busy_s tls | median) CPU-seconds a submission with TLS and $(busy_s plaintext | median) in plaintext (medians), that is"
  echo "$(busy_s tls | median | awk -v n="$(nproc)" -v t="$tls_s" '{ printf "%.0f", 100 * $1 / (n * t) }')% and $(busy_s plaintext | median | awk -v n="$(nproc)" -v t="$plain_s" '{ printf "%.0f", 100 * $1 / (n * t) }')% of its $(nproc) cores over the median submission's time. Throughput with TLS is"
  echo "$(awk -v l="$best_local_s" -v c="$tls_s" 'BEGIN { printf "%.0f", 100 * l / c }')% of the local runner's at its best concurrency (plaintext: $(awk -v l="$best_local_s" -v c="$plain_s" 'BEGIN { printf "%.0f", 100 * l / c }')%; goal: at least 80%). The last submissions counted $counted (TLS) and $p_counted (plaintext) games."
  echo
  echo "Per move: transport overhead (the referee's measurement minus the worker's pipe measurement), and the"
  echo "referee's whole measurement (goal: transport median under 0.5 ms with TLS). Under full load ($concurrency games"
  echo "at once beside the other cluster, up and idle: a hop waits for a free core), over all $repeats timed submissions'"
  echo "moves (from the records each client wrote) and over the last one's (from the scheduler's API); and one game at"
  echo "a time, $latency_games games submitted to each cluster in turn, the other idle:"
  echo
  echo "| cluster | load | moves | transport median µs | transport p99 µs | referee median µs | referee p99 µs |"
  echo "|---|---|---|---|---|---|---|"
  echo "| TLS | full, all $repeats submissions | $all_moves | **$all_over_med** | $all_over_p99 | $all_lat_med | $all_lat_p99 |"
  echo "| plaintext | full, all $repeats submissions | $p_all_moves | $p_all_over_med | $p_all_over_p99 | $p_all_lat_med | $p_all_lat_p99 |"
  echo "| TLS | full, the last submission | $moves | $over_med | $over_p99 | $lat_med | $lat_p99 |"
  echo "| plaintext | full, the last submission | $p_moves | $p_over_med | $p_over_p99 | $p_lat_med | $p_lat_p99 |"
  echo "| TLS | one game at a time | $one_moves | **$one_over_med** | $one_over_p99 | $one_lat_med | $one_lat_p99 |"
  echo "| plaintext | one game at a time | $p_one_moves | $p_one_over_med | $p_one_over_p99 | $p_one_lat_med | $p_one_lat_p99 |"
  echo
  echo "Transport medians of the timed submissions one by one, µs: TLS ${all_medians//,/ }; plaintext ${p_all_medians//,/ }."
  echo
  echo "CPU seconds a timed submission used in each cluster's service JVMs (the mean of the $repeats; the engines are"
  echo "not counted), against a local run at concurrency 2 (its whole process, engines included): $local_cpu s."
  echo
  echo "| service | CPU s with TLS | CPU s in plaintext |"
  echo "|---|---|---|"
  join <(cpu_table tls | sort) <(cpu_table plaintext | sort) | awk '{ printf "| %s | %s | %s |\n", $1, $2, $3 }'
  echo "| all services | $(cpu_table tls | awk '{ n += $2 } END { printf "%.2f", n }') | $(cpu_table plaintext | awk '{ n += $2 } END { printf "%.2f", n }') |"
  echo "| the submitting client (\`taikai cluster submit\`) | $(client_cpu tls) | $(client_cpu plaintext) |"
  echo
  echo "Where the whole machine's CPU went in a timed submission (the mean of the $repeats, CPU seconds; every"
  echo "process's user and system time from /proc, a process that ended counted for what it used between"
  echo "the submission's start and end: bench/cpu-by-process.py):"
  echo
  echo "| processes | with TLS | in plaintext | TLS − plaintext |"
  echo "|---|---|---|---|"
  group_row "services of the cluster that plays (5 JVMs)" services
  group_row "its engines (the workers' Fairy-Stockfish processes)" engines
  group_row "the submitting client and the benchmark's shell" "client and shell"
  group_row "the other cluster, idle (services and engines)" "idle cluster"
  group_row "kernel threads" "kernel threads"
  group_row "everything else on the machine" other
  echo "| all of these | $(accounted_cpu tls) | $(accounted_cpu plaintext) | $(awk -v t="$(accounted_cpu tls)" -v p="$(accounted_cpu plaintext)" 'BEGIN { printf "%+.2f", t - p }') |"
  group_row "the machine's busy time (/proc/stat)" machine
} | tee "$report"
