#!/usr/bin/env bash
# Clock benchmark: do honest engines lose on time under default settings? Plays Fairy-Stockfish against
# itself and the built-in engine (taikai-4) against Fairy-Stockfish under each time control of issue 12,
# at concurrency 1 and 2, with the default overrun margin (docs/tournaments.md, "Clocks"); and, as the
# reference in the same run, a fake engine that takes twice its time per move, which must lose every
# game on time (at most 10 games a control: each costs its first move). Reports per configuration: games, time losses by engine, the overrun of moves past their
# allowance (median, p99 and largest, over all moves), the moves over their allowance, and stalls and
# disconnects (the manager's faults, were there any).
# Each configuration's row is kept in bench/results/clocks-rows-local/ as it finishes, and a configuration
# whose row already holds GAMES games is not played again (a run of many hours can be continued another
# day; --again plays them all anew). The report, bench/results/clocks-latest.md, is rewritten after every
# row from all the rows kept, in the order of the controls below. Each row also says how long it took and
# the machine's mean load average while it played (1-minute, sampled every 10 s; the minutes count pauses too).
#
# With --cluster, the same games run through a local cluster (`taikai cluster up`: one worker with four
# slots, one referee with two games at once) and are read back from the scheduler's API; the report is
# bench/results/clocks-cluster-latest.md (rows in bench/results/clocks-rows-cluster/).
#
# With --xboard, the XBoard engines instead (local runner, concurrency 1): Debian's CrazyWa against Sjaak II,
# so each plays GAMES games (issue 15's rows), and the fake at twice its time against CrazyWa.
#
# Usage: bench/clocks.sh [--cluster|--xboard] [--again] [GAMES] [CONTROLS...]
#   GAMES     games per configuration (default 200; even)
#   CONTROLS  a subset of: st0.05 st0.1 st1 byo0.1 fischer1+0.01 10byo0.1 (default: all)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode=local
xboard=no
if [ "${1:-}" = --cluster ]; then mode=cluster; shift; fi
if [ "${1:-}" = --xboard ]; then xboard=yes; shift; fi
again=no
if [ "${1:-}" = --again ]; then again=yes; shift; fi
games="${1:-200}"
shift || true
all_controls=(st0.05 st0.1 st1 byo0.1 fischer1+0.01 10byo0.1)
controls=("$@")
[ ${#controls[@]} -gt 0 ] || controls=("${all_controls[@]}")
out="$root/bench/out/clocks-$mode"
report="$root/bench/results/clocks-latest.md"
[ "$mode" = local ] || report="$root/bench/results/clocks-cluster-latest.md"
rows_dir="$root/bench/results/clocks-rows-$mode"
rm -rf "$out"
mkdir -p "$out" "$rows_dir"
"$root/taikai" --version >/dev/null

flags() { # control -> the -each time flags
  case "$1" in
    st0.05) echo "st=0.05" ;;
    st0.1) echo "st=0.1" ;;
    st1) echo "st=1" ;;
    byo0.1) echo "byoyomi=0.1" ;;
    fischer1+0.01) echo "tc=1+0.01" ;;
    10byo0.1) echo "tc=10 byoyomi=0.1" ;;
    *) echo "unknown control $1" >&2; exit 2 ;;
  esac
}

control_text() { # control -> the tournament file's time-control
  case "$1" in
    st0.05) echo "movetime 0.05" ;; st0.1) echo "movetime 0.1" ;; st1) echo "movetime 1" ;;
    byo0.1) echo "byoyomi 0.1" ;; fischer1+0.01) echo "1+0.01" ;; 10byo0.1) echo "10 byoyomi 0.1" ;;
  esac
}

double_think() { # control -> ms the fake thinks: twice what its first move may take
  # (beyond the allowance plus the driver's 1 s the engine is called stalled: a loss too, counted apart)
  case "$1" in
    st0.05) echo 100 ;; st0.1) echo 200 ;; st1) echo 2000 ;; byo0.1) echo 200 ;;
    fischer1+0.01) echo 2000 ;; 10byo0.1) echo 20200 ;;
  esac
}

summarize() { # label control concurrency results.json|cluster-records.json minutes load -> one table row
  python3 - "$@" <<'PY'
import json, sys
label, control, concurrency, path, minutes, load = sys.argv[1:7]
results = json.load(open(path))
games = results["games"]
if results.get("from") == "cluster":  # the scheduler's records, in protobuf's JSON
    games = [{
        "termination": r["termination"].removeprefix("TERMINATION_").lower(),
        "result": r["result"].removeprefix("RESULT_").removesuffix("_WINS").lower(),
        "sente": r["assignment"]["sente"]["name"], "gote": r["assignment"]["gote"]["name"],
        "move_data": [{"overrun_ms": int(m.get("overrunNs", 0)) / 1e6, "cpu_wait_ms": int(m.get("cpuWaitNs", 0)) / 1e6}
                      for m in r.get("moves", [])],
        "margin_ms": int(r["assignment"]["sente"].get("overrunMarginMs", 0)),
        "time_loss_overrun_ms": int(r.get("timeLossOverrunNs", 0)) / 1e6,
    } for r in games]
losses = {}
faults = 0
overruns = []
excused = 0  # moves past their margin saved by their CPU wait (docs/tournaments.md, "Clocks")
waits = []
for g in games:
    margin = g["margin_ms"] if "margin_ms" in g else g["time_control"]["sente_overrun_margin_ms"]
    if g["termination"] == "time_forfeit":
        loser = g["gote"] if g["result"] == "sente" else g["sente"]
        losses[loser] = losses.get(loser, 0) + 1
    if g["termination"] in ("stall", "disconnect"):
        faults += 1
    for m in g["move_data"]:
        overruns.append(m.get("overrun_ms", 0.0))
        waits.append(m.get("cpu_wait_ms", 0.0))
        if m.get("overrun_ms", 0.0) > margin:
            excused += 1
    if g.get("time_loss_overrun_ms"):  # the losing move is not among the moves played
        overruns.append(g["time_loss_overrun_ms"])
over = sorted(o for o in overruns if o > 0)
def pct(values, q):
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0
engines = sorted({g["sente"] for g in games} | {g["gote"] for g in games})
loss_text = ", ".join(f"{e} {losses.get(e, 0)}" for e in engines)
print(f"| {label} | {control} | {concurrency} | {len(games)} | {loss_text} | {len(over)} of {len(overruns)} "
      f"| {pct(over, 0.5):.1f} | {pct(over, 0.99):.1f} | {over[-1] if over else 0.0:.1f} | {excused} "
      f"| {max(waits, default=0.0):.1f} | {faults} | {minutes} | {load} |")
PY
}

cluster_dir="$out/cluster"
if [ "$mode" = cluster ]; then
  {
    echo "engines:"
    # one engine per think time: two controls may share one (st0.1 and byo0.1 both think 200 ms)
    for think in $(for control in "${controls[@]}"; do double_think "$control"; done | sort -nu); do
      echo "  - id: double-$think"
      echo "    command: '$root/taikai'"
      echo "    args: [fake-engine, --think-ms, '$think']"
    done
  } > "$out/fakes.yaml"
  "$root/taikai" cluster up --dir "$cluster_dir" --workers 1 --slots 4 --referees 1 --games 2 \
    --catalog "$out/fakes.yaml" >&2
  trap '"$root/taikai" cluster down --dir "$cluster_dir" >&2 || true' EXIT
fi

fetch_records() { # tournament-id file: waits for the end, then writes every record; with a pause (exit 3)
  # the tournament is cancelled first and the records so far are written (games in play are not counted)
  python3 - "$cluster_dir" "$1" "$2" "$pause_dir" <<'PY'
import json, os, ssl, sys, time, urllib.request
directory, tid, target, pause_dir = sys.argv[1:5]
state = json.load(open(f"{directory}/cluster.json"))
port = next(m["http_port"] for m in state["members"] if m["role"] == "scheduler")
ca = f"{directory}/tls/ca/ca.crt"  # a TLS cluster's CA (docs/security.md); none with --plaintext
context = ssl.create_default_context(cafile=ca) if os.path.exists(ca) else None
scheme = "https" if context else "http"
def call(path, role="viewer", method="GET"):
    token = open(f"{directory}/access/{role}.token").read().strip()
    req = urllib.request.Request(f"{scheme}://127.0.0.1:{port}{path}", method=method,
                                 headers={"Authorization": f"Bearer {token}", "Accept": "application/json"})
    return json.load(urllib.request.urlopen(req, timeout=60, context=context))
def paused():
    return bool(pause_dir) and os.path.isdir(pause_dir) and bool(os.listdir(pause_dir))
was_paused = False
while call(f"/api/tournaments/{tid}").get("status") == "STATUS_RUNNING":
    if paused():
        call(f"/api/tournaments/{tid}?reason=benchmark+paused", role="admin", method="DELETE")
        was_paused = True
        break
    time.sleep(2)
records = []
while True:
    page = call(f"/api/tournaments/{tid}/games?offset={len(records)}&limit=1000")
    records += page.get("records", [])
    if len(records) >= int(page.get("total", 0)):
        break
json.dump({"from": "cluster", "games": records}, open(target, "w"))
sys.exit(3 if was_paused else 0)
PY
}

play_cluster() { # label control concurrency games entrant... -> plays; writes $out/<name>.json
  local label="$1" control="$2" concurrency="$3" n="$4"; shift 4
  local name="$label-$control-c$concurrency"
  local file="$out/$name.yaml" records="$out/$name.json" part="$out/$name.part.json" id status left began
  echo '{"from": "cluster", "games": []}' > "$records"
  if [ -f "$partial_dir/$name/records.json.gz" ]; then
    gunzip -c "$partial_dir/$name/records.json.gz" > "$records"
    echo "continued from $partial_dir/$name: $(count_records "$records") games of an earlier run" >&2
  fi
  while true; do
    left=$((n - $(count_records "$records")))
    [ "$left" -gt 0 ] || break
    while paused; do sleep 1; done
    [ -z "$pause_dir" ] || touch "$pause_dir.playing"
    {
      echo "name: $name"
      echo "variant: minishogi"
      echo "rounds: $(((left + 1) / 2))"
      echo "games: 2"
      echo "time-control: $(control_text "$control")"
      echo "adjudication: {move-limit: 120}"
      echo "catalog: $out/fakes.yaml"
      echo "engines:"
      for entrant in "$@"; do echo "  - $entrant"; done
    } > "$file"
    began=$SECONDS
    id=$("$root/taikai" cluster submit --dir "$cluster_dir" --detach --concurrency "$concurrency" "$file")
    status=0
    fetch_records "$id" "$part" || status=$?
    played_seconds=$((played_seconds + SECONDS - began))
    [ -z "$pause_dir" ] || rm -f "$pause_dir.playing"
    python3 - "$records" "$part" "$n" <<'PY'
import json, sys
kept, part, n = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
kept["games"] = (kept["games"] + part["games"])[:n]
json.dump(kept, open(sys.argv[1], "w"))
PY
    [ "$status" -eq 0 ] || [ "$status" -eq 3 ] || { echo "$name: reading the records failed" >&2; exit 1; }
    if [ "$status" -eq 0 ] && [ "$(count_records "$part")" -eq 0 ]; then
      echo "$name: tournament $id ended without a game" >&2
      exit 1
    fi
    if [ "$status" -eq 3 ]; then
      echo "$name: paused $(date -u +%H:%M:%S) with $(count_records "$records") games" >&2
      keep_partial "$name" "$records" records.json "$(minutes_so_far)"
    fi
  done
}

count_records() { python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["games"]))' "$1"; }

# With TAIKAI_BENCH_PAUSE_DIR set, a file in that directory pauses the benchmark: the local run in progress
# is stopped with SIGTERM (its games in progress are not recorded, so a game is never measured while
# something else loads the machine), and the cluster's tournament is cancelled (its games in play are not
# counted; the cluster plays them to their end, so they may still play beside the first games after the
# pause); each resumes from its records when the directory is empty again. bench/quietly.sh CMD does that around a
# command. While a run plays, the file $TAIKAI_BENCH_PAUSE_DIR.playing exists.
pause_dir="${TAIKAI_BENCH_PAUSE_DIR:-}"
[ -z "$pause_dir" ] || mkdir -p "$pause_dir"
paused() { [ -n "$pause_dir" ] && [ -n "$(ls -A "$pause_dir" 2>/dev/null)" ]; }

# A row can take longer than a session on the machine: each time a run is paused, its journal, load samples
# and minutes so far are kept in bench/results/clocks-partial-<local|cluster>/<name>/ (commit them), and a
# later benchmark run continues the row from there (the local runner's --resume of its records; the
# cluster's remaining games as a new tournament) instead of starting it anew; the
# partial is removed when the row is complete. Pause the benchmark (a file in TAIKAI_BENCH_PAUSE_DIR)
# before stopping it, so that the last games are kept.
partial_dir="$root/bench/results/clocks-partial-$mode"

# the minutes the row has played: its earlier runs' and this one's, pauses left out (each run adds its time to
# played_seconds when it stops)
minutes_so_far() { awk -v s="$played_seconds" -v e="$earlier_minutes" 'BEGIN { printf "%.1f", e + s / 60 }'; }

keep_partial() { # name records-file kept-as minutes-so-far (the local journal, or the cluster's records)
  mkdir -p "$partial_dir/$1"
  gzip -c "$2" > "$partial_dir/$1/$3.gz"
  cp "$out/$1.load" "$partial_dir/$1/load"
  echo "$4" > "$partial_dir/$1/minutes"
  [ -f "$partial_dir/$1/since" ] || date -u '+%Y-%m-%d' > "$partial_dir/$1/since"
}

play() { # label control concurrency games engine-args... -> plays; writes $out/<name>.json
  local label="$1" control="$2" concurrency="$3" n="$4"; shift 4
  local name="$label-$control-c$concurrency"
  local dir="$out/$name" pid status began
  if [ -f "$partial_dir/$name/games.jsonl.gz" ] && [ ! -s "$dir/games.jsonl" ]; then
    mkdir -p "$dir"
    gunzip -c "$partial_dir/$name/games.jsonl.gz" > "$dir/games.jsonl"
    echo "continued from $partial_dir/$name: $(wc -l < "$dir/games.jsonl") games of an earlier run" >> "$dir.progress"
  fi
  while true; do
    while paused; do sleep 1; done
    [ -z "$pause_dir" ] || touch "$pause_dir.playing"
    began=$SECONDS
    # shellcheck disable=SC2046
    "$root/taikai" run -variant minishogi "$@" -each $(flags "$control") -rounds $((n / 2)) -games 2 \
      -concurrency "$concurrency" -maxmoves 60 -out "$dir" >> "$dir.txt" 2>> "$dir.progress" &
    pid=$!
    while kill -0 "$pid" 2>/dev/null && ! paused; do sleep 0.5; done
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid"
      echo "paused $(date -u +%H:%M:%S)" >> "$dir.progress"
    fi
    status=0
    wait "$pid" || status=$?
    played_seconds=$((played_seconds + SECONDS - began))
    [ -z "$pause_dir" ] || rm -f "$pause_dir.playing"
    [ "$status" -eq 130 ] || [ "$status" -eq 143 ] || break
    [ ! -s "$dir/games.jsonl" ] || keep_partial "$name" "$dir/games.jsonl" games.jsonl "$(minutes_so_far)"
  done
  cp "$dir/results.json" "$out/$label-$control-c$concurrency.json"
}

write_report() { # every kept row, in the order of all_controls
  {
    echo "# Clocks under default settings ($mode runner)"
    echo
    echo "$(nproc) cores, $(uname -m); \`bench/clocks.sh $([ "$mode" = cluster ] && echo '--cluster ')GAMES CONTROLS\`, rows kept in"
    echo "\`bench/results/clocks-rows-$mode/\` (each row's date is in its file); default overrun margins"
    echo "(docs/tournaments.md: movetime and byoyomi t: max(100 ms, t/10), at most 0.9 t; Fischer:"
    echo "max(100 ms, increment/10)); at most 60 moves a side. Reference in the same run: a fake engine that"
    echo "thinks twice its time per move (it must lose every game on time). Overruns in ms over the moves past"
    echo "their allowance. cpu-excused: moves past their margin that did not lose, because their CPU wait"
    echo "(docs/tournaments.md, \"Clocks\") covered the rest; max CPU wait, ms; – in rows measured before"
    echo "2026-12-02 14:30 UTC, when neither was recorded (and such a move lost). Load: the machine's mean"
    echo "1-minute load average while the row played. Minutes: the time the row played, pauses left out (in rows"
    echo "measured before 2026-12-04 14:00 UTC they count the time a pause took too)."
    echo
    echo "| pairing | control | concurrency | games | time losses | moves over allowance | overrun median | p99 | max | cpu-excused | max CPU wait | stalls + disconnects | minutes | load |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for control in "${all_controls[@]}"; do
      for name in fsf-vs-fsf-$control-c1 builtin-vs-fsf-$control-c1 fsf-vs-fsf-$control-c2 \
          builtin-vs-fsf-$control-c2 double-time-fake-$control-c1 crazywa-vs-sjaakii-$control-c1 \
          double-time-fake-vs-crazywa-$control-c1; do
        if [ -f "$rows_dir/$name.md" ]; then sed -n 1p "$rows_dir/$name.md"; fi
      done
    done
  } > "$report"
}

configuration() { # label control concurrency games play-args... -> plays unless its row is kept
  local label="$1" control="$2" concurrency="$3" n="$4"
  local name="$label-$control-c$concurrency" row="$rows_dir/$label-$control-c$concurrency.md"
  if [ "$again" = no ] && [ -f "$row" ] && [ "$(sed -n 1p "$row" | cut -d'|' -f5 | tr -d ' ')" = "$n" ]; then
    echo "$name: kept ($n games)" >&2
    return
  fi
  echo "$name ($mode): $n games, from $(date -u +%H:%M)" >&2
  played_seconds=0
  earlier_minutes=0
  local continued=""
  : > "$out/$name.load"
  if [ -f "$partial_dir/$name/minutes" ]; then
    earlier_minutes=$(cat "$partial_dir/$name/minutes")
    cat "$partial_dir/$name/load" >> "$out/$name.load"
    continued=", continued from an earlier run (begun $(cat "$partial_dir/$name/since"))"
  fi
  # the load only while a run plays (not while paused for something else; see TAIKAI_BENCH_PAUSE_DIR)
  (while true; do
    if [ -z "$pause_dir" ] || [ -e "$pause_dir.playing" ]; then cut -d' ' -f1 /proc/loadavg; fi
    sleep 10
  done) >> "$out/$name.load" &
  local sampler=$!
  if [ "$mode" = cluster ]; then play_cluster "$@"; else play "$@"; fi
  kill "$sampler"
  local minutes load
  minutes=$(minutes_so_far)
  load=$(awk '{ s += $1 } END { printf "%.2f", NR ? s / NR : 0 }' "$out/$name.load")
  summarize "$label" "$control" "$concurrency" "$out/$name.json" "$minutes" "$load" > "$row"
  echo "measured $(date -u '+%Y-%m-%d %H:%M') UTC, taikai $(git -C "$root" rev-parse --short HEAD)$continued" >> "$row"
  rm -rf "${partial_dir:?}/$name"
  write_report
  sed -n 1p "$row" >&2
}

for control in "${controls[@]}"; do
  flags "$control" > /dev/null
  fake_games=$(( games < 10 ? games : 10 ))
  if [ "$xboard" = yes ]; then
    configuration crazywa-vs-sjaakii "$control" 1 "$games" -engine conf=crazywa -engine conf=sjaakii
    configuration double-time-fake-vs-crazywa "$control" 1 "$fake_games" -engine name=double \
      cmd="$root/taikai" arg=fake-engine arg=--think-ms arg="$(double_think "$control")" -engine conf=crazywa
    continue
  fi
  for concurrency in 1 2; do
    if [ "$mode" = cluster ]; then
      configuration fsf-vs-fsf "$control" "$concurrency" "$games" \
        "{engine: fairy-stockfish, name: fsf-a}" "{engine: fairy-stockfish, name: fsf-b}"
      configuration builtin-vs-fsf "$control" "$concurrency" "$games" \
        "{engine: taikai-4, name: taikai-4}" "{engine: fairy-stockfish, name: fsf}"
    else
      configuration fsf-vs-fsf "$control" "$concurrency" "$games" -engine conf=fairy-stockfish name=fsf-a \
        -engine conf=fairy-stockfish name=fsf-b
      configuration builtin-vs-fsf "$control" "$concurrency" "$games" -engine conf=taikai-4 name=taikai-4 \
        -engine conf=fairy-stockfish name=fsf
    fi
  done
  if [ "$mode" = cluster ]; then
    configuration double-time-fake "$control" 1 "$fake_games" \
      "{engine: double-$(double_think "$control"), name: double}" "{engine: fairy-stockfish, name: fsf}"
  else
    configuration double-time-fake "$control" 1 "$fake_games" -engine name=double \
      cmd="$root/taikai" arg=fake-engine arg=--think-ms arg="$(double_think "$control")" \
      -engine conf=fairy-stockfish name=fsf
  fi
done
write_report
cat "$report"
