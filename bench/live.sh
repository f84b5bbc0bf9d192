#!/usr/bin/env bash
# Live view under load: a local cluster playing 6 games at once (one referee of six games, two workers of
# six slots) plays a tournament of GAMES near-instant games between fake engines, with no dashboard watching
# and with SUBSCRIBERS browsers' worth of subscribers to the scheduler's live events (bench/src/main/java/
# dev/taikai/bench/LiveLoad.java), ROUNDS times each. WARMUPS untimed tournaments come first (the services'
# JIT compilers are busy for tens of thousands of moves), then the timed ones in the order quiet, watched,
# watched, quiet, ... so that a machine that speeds up or slows down favours neither. Reports the
# tournament's games per second with and without them (median of the rounds) and the subscribers' update
# delay (from the referee's publishing of the move an update shows to its arrival, median and p99).
# Writes bench/results/live-latest.md.
#
# Usage: bench/live.sh [SUBSCRIBERS] [ROUNDS]     defaults: 200 subscribers, 4 rounds
#   GAMES (environment) games per tournament, even; default 60. WARMUPS: default 6 (after 3, the services
#   were still compiling through the first timed rounds).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
subscribers="${1:-200}"
rounds="${2:-4}"
games="${GAMES:-60}"
warmups="${WARMUPS:-6}"
out="$root/bench/out/live"
report="$root/bench/results/live-latest.md"
rm -rf "$out"
mkdir -p "$out"
(cd "$root" && mvn -q -B -Pbench -DskipTests -Dspotless.check.skip=true -pl bench -am package)
"$root/taikai" --version >/dev/null

cat > "$out/fakes.yaml" <<YAML
engines:
  - id: instant-a
    command: '$root/taikai'
    args: [fake-engine, --think-ms, '0', --seed, '1']
  - id: instant-b
    command: '$root/taikai'
    args: [fake-engine, --think-ms, '0', --seed, '2']
YAML
"$root/taikai" cluster up --dir "$out/cluster" --workers 2 --slots 6 --referees 1 --games 6 --catalog "$out/fakes.yaml" > "$out/up.txt" 2>&1 \
  || { cat "$out/up.txt" >&2; exit 1; }
cat "$out/up.txt" >&2
trap '"$root/taikai" cluster down --dir "$out/cluster" >&2 || true' EXIT
base="$(cd "$root" && ./taikai cluster status --dir "$out/cluster" --url scheduler)"
token="$out/cluster/access/viewer.token"
ca="$(cd "$root" && ./taikai cluster status --dir "$out/cluster" --ca)" # the cluster's CA: it runs TLS

ticks=$(getconf CLK_TCK)
cpu_of() { awk -v t="$ticks" '{ printf "%.2f\n", ($14 + $15) / t }' "/proc/$1/stat"; } # pid -> CPU seconds so far
services_cpu() { # the cluster's service JVMs (Kafka, scheduler, referee, workers): CPU seconds so far
  for pid in $(sed -n 's/.* pid \([0-9]*\).*/\1/p' "$out/up.txt"); do cpu_of "$pid"; done | awk '{ n += $1 } END { printf "%.2f\n", n }'
}
scheduler_pid=$(grep -m1 '^ *scheduler ' "$out/up.txt" | sed -n 's/.* pid \([0-9]*\).*/\1/p')

play() { # name -> seconds the tournament took, from submit to its end
  local file="$out/$1.yaml"
  printf 'name: %s\nvariant: minishogi\ngames: 2\nrounds: %s\ntime-control: nodes 1\nadjudication: {move-limit: 120}\ncatalog: %s\nengines: [instant-a, instant-b]\n' \
    "$1" "$((games / 2))" "$out/fakes.yaml" > "$file"
  local started id
  started=$(date +%s.%N)
  id=$("$root/taikai" cluster submit --dir "$out/cluster" --detach "$file" 2>/dev/null)
  python3 - "$base" "$token" "$id" "$ca" <<'PY'
import json, ssl, sys, time, urllib.request
base, token, tid = sys.argv[1], open(sys.argv[2]).read().strip(), sys.argv[3]
context = ssl.create_default_context(cafile=sys.argv[4])
while True:
    req = urllib.request.Request(f"{base}/api/tournaments/{tid}", headers={"Authorization": f"Bearer {token}"})
    if json.load(urllib.request.urlopen(req, timeout=30, context=context)).get("status") != "STATUS_RUNNING":
        break
    time.sleep(0.05)
PY
  awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3f\n", e - s }'
}

: > "$out/quiet.s"
: > "$out/watched.s"
: > "$out/delays.txt"
: > "$out/quiet.cpu"
: > "$out/watched.cpu"
idle=(chrt --idle 0) idle_name="a SCHED_IDLE process"
"${idle[@]}" true 2>/dev/null || idle=(nice -n 19) idle_name="a process at nice 19"
# the load client: one process for every round (its own start and JIT compilation fall outside them). Browsers
# run on other machines: it takes only the CPU time nothing else wants (SCHED_IDLE; nice 19 where that is
# refused), so that its own reading is not taken for the scheduler's cost; a client that falls behind is
# what the stream is built to survive
control="$out/load"
mkdir -p "$control"
"${idle[@]}" java -cp "$root/bench/target/benchmarks.jar" dev.taikai.bench.LiveLoad "$base" "$token" "$subscribers" "$control" "$ca" &
load=$!
trap 'touch "$control/quit"; "$root/taikai" cluster down --dir "$out/cluster" >&2 || true' EXIT
subscribe() { # report file; returns once the subscribers are connected
  echo "$1" > "$control/start.tmp" && mv "$control/start.tmp" "$control/start"
  while [ ! -e "$control/subscribed" ]; do
    kill -0 "$load" 2>/dev/null || { echo "live.sh: the load client ended" >&2; exit 1; }
    sleep 0.1
  done
}
unsubscribe() {
  sleep 1 # the last events reach the subscribers
  touch "$control/stop"
  while [ ! -e "$control/stopped" ]; do sleep 0.1; done
  rm -f "$control/stopped"
}
for ((w = 1; w <= warmups; w++)); do
  # watched, so that the scheduler's stream code is compiled before the first timed round as the rest is
  echo "warm-up tournament $w of $warmups (untimed, $subscribers subscribers)" >&2
  subscribe /dev/null
  play "warm-up-$w" > /dev/null
  unsubscribe
done
quiet() { # round
  echo "round $1 of $rounds: no subscribers" >&2
  local services scheduler
  services=$(services_cpu) scheduler=$(cpu_of "$scheduler_pid")
  play "quiet-$1" >> "$out/quiet.s"
  echo "$(services_cpu) $services $(cpu_of "$scheduler_pid") $scheduler" | awk '{ printf "%.2f %.2f\n", $1 - $2, $3 - $4 }' >> "$out/quiet.cpu"
}
watched() { # round
  echo "round $1 of $rounds: $subscribers subscribers" >&2
  subscribe "$out/delays.txt"
  local services scheduler client
  services=$(services_cpu) scheduler=$(cpu_of "$scheduler_pid") client=$(cpu_of "$load")
  play "watched-$1" >> "$out/watched.s"
  echo "$(services_cpu) $services $(cpu_of "$scheduler_pid") $scheduler $(cpu_of "$load") $client" \
    | awk '{ printf "%.2f %.2f %.2f\n", $1 - $2, $3 - $4, $5 - $6 }' >> "$out/watched.cpu"
  unsubscribe
}
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2 == 1)); then quiet "$r"; watched "$r"; else watched "$r"; quiet "$r"; fi
done

median() { sort -n "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
column_median() { awk -v c="$2" '{ print $c }' "$1" > "$1.$2"; median "$1.$2"; } # file column
quiet=$(median "$out/quiet.s")
watched=$(median "$out/watched.s")
gps() { awk -v s="$1" -v g="$games" 'BEGIN { printf "%.3f", g / s }'; }
change=$(awk -v q="$quiet" -v w="$watched" 'BEGIN { printf "%+.1f", (q / w - 1) * 100 }')
events=$(awk '{ s += $2 } END { print s }' "$out/delays.txt")
delay_median=$(awk '{ print $3 }' "$out/delays.txt" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
delay_p99=$(awk '{ print $4 }' "$out/delays.txt" | sort -n | tail -n 1)
dropped=$(curl -s --cacert "$ca" -H "Authorization: Bearer $(cat "$token")" "$base/api/cluster" | python3 -c 'import json,sys; print(json.load(sys.stdin)["live"]["dropped"])')
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
{
  echo "# Live view under load"
  echo
  echo "Latest run of \`bench/live.sh $subscribers $rounds\` (GAMES=$games WARMUPS=$warmups), $(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  echo "- Machine: $cpu, $(nproc) cores; $(uname -sr); $(java -version 2>&1 | head -1)"
  echo "- Cluster: \`taikai cluster up --workers 2 --slots 6 --referees 1 --games 6\` (TLS on every hop); a"
  echo "  tournament of $games games, 6 at once (Minishogi, \`nodes 1\`, at most 120 plies) between two fake"
  echo "  engines that answer at once; $warmups untimed tournaments first, watched as the timed ones are."
  echo "- Load: $subscribers subscribers to \`GET /api/live\` (one connection and thread each, reading every event, as"
  echo "  $idle_name: browsers run on other machines, so the client's own reading is not the scheduler's cost),"
  echo "  connected before the tournament is submitted; $rounds rounds of each, interleaved (quiet, watched,"
  echo "  watched, quiet, ...)."
  echo
  echo "| measure | no subscribers | $subscribers subscribers |"
  echo "|---|---|---|"
  echo "| seconds for the $games games (median of $rounds) | $quiet | $watched |"
  echo "| games per second | $(gps "$quiet") | $(gps "$watched") |"
  echo
  echo "Each round, seconds: no subscribers $(tr '\n' ' ' < "$out/quiet.s"); $subscribers subscribers $(tr '\n' ' ' < "$out/watched.s")."
  echo
  echo "Games per second with the subscribers: $change % against none (goal: within 5 %)."
  echo
  echo "CPU seconds per round, from the tournament's submission to its end (median of $rounds):"
  echo
  echo "| process | no subscribers | $subscribers subscribers |"
  echo "|---|---|---|"
  echo "| the cluster's services (Kafka, scheduler, referee, workers; not the engines) | $(column_median "$out/quiet.cpu" 1) | $(column_median "$out/watched.cpu" 1) |"
  echo "| of which the scheduler | $(column_median "$out/quiet.cpu" 2) | $(column_median "$out/watched.cpu" 2) |"
  echo "| the load client | | $(column_median "$out/watched.cpu" 3) |"
  echo
  echo "Game updates received by the subscribers: $events (a stream sends a game's latest state at most every"
  echo "250 ms, merging the moves between); delay from the referee's publishing of the move shown to a subscriber:"
  echo "median of the rounds' medians $delay_median ms, largest p99 $delay_p99 ms; updates merged into a later one"
  echo "(counted as dropped) in all: $dropped. The delay is the idle-priority client's as much as the stream's: while the"
  echo "instant engines keep both cores busy it reads late, which is what a slow browser does."
} | tee "$report"
