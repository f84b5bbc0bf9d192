#!/usr/bin/env python3
"""Scale benchmark: many games at once with light engines, on one machine and on a local cluster.

  bench/scale.py [--local 10,100,250] [--cluster 10,100,1000] [--plies 120] [--think 100-500]

Each configuration plays 2 x N games at N games at once (N of the list), Minishogi between two light
engines (testkit's light-engine.c, compiled here: a legal move after sleeping --think ms, 1.5 MB each),
at `byoyomi 1`, adjudicated a draw after --plies plies. The local runner runs them with `concurrency: N`;
the cluster (`taikai cluster up`, TLS on every hop) with one referee per 500 games and one worker per 250
games (at least two of each), submitted with --concurrency N. A sampler reads every second: the games in
play (the engines running, halved), and of each service process its CPU, RSS, threads and descriptors;
the heap of each JVM (jstat) at the most games in play. From the records: moves, time losses, stalls and
disconnects, moves over their allowance, and the referee's own overhead per move (its measurement of a
move less the engine's pipe time). Writes bench/results/scale-latest.md.
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out", "scale")
TAIKAI = os.path.join(ROOT, "taikai")
TICKS = os.sysconf("SC_CLK_TCK")


def light_engine():
    source = os.path.join(ROOT, "testkit", "src", "main", "resources", "dev", "taikai", "testkit", "light-engine.c")
    program = os.path.join(OUT, "light-engine")
    subprocess.run(["cc", "-O2", "-o", program, source], check=True)
    return program


def proc_stat(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/status") as f:
            status = f.read()
        rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
        threads = int(re.search(r"Threads:\s+(\d+)", status).group(1))
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        return {"cpu": (int(fields[11]) + int(fields[12])) / TICKS, "rss_kb": rss, "threads": threads, "fds": fds}
    except (OSError, AttributeError, IndexError):
        return None


def engines_running(program):
    count = 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.readlink(f"/proc/{pid}/exe") == program:
                    count += 1
            except OSError:
                pass
    return count


def heap_mb(pid):
    try:
        out = subprocess.run(["jstat", "-gc", str(pid)], capture_output=True, text=True, timeout=20).stdout.split("\n")
        head, values = out[0].split(), [float(v) for v in out[1].split()]
        row = dict(zip(head, values))
        return sum(row.get(k, 0) for k in ("S0U", "S1U", "EU", "OU")) / 1024
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return None


class Sampler(threading.Thread):
    """Every second: games in play, and each service's CPU, RSS, threads and descriptors; heap at the peak."""

    def __init__(self, program, services):
        super().__init__(daemon=True)
        self.program, self.services = program, services  # name -> pid
        self.samples, self.last, self.first, self.peak = [], {}, {}, {}
        self.heap, self.most = {}, -1
        self.stop = threading.Event()
        self.begin = time.time()

    def run(self):
        while not self.stop.is_set():
            engines = engines_running(self.program)
            row = {"t": time.time() - self.begin, "games": engines / 2}
            for name, pid in self.services.items():
                stat = proc_stat(pid)
                if stat:
                    self.first.setdefault(name, stat)
                    self.last[name] = stat
                    peak = self.peak.setdefault(name, dict(stat))
                    for key in ("rss_kb", "threads", "fds"):
                        peak[key] = max(peak[key], stat[key])
            self.samples.append(row)
            if engines > self.most:
                self.most = engines
                if engines >= 20:
                    self.heap = {name: heap_mb(pid) for name, pid in self.services.items()}
            self.stop.wait(1)


def tournament(name, games_at_once, program, args, catalog=None):
    path = os.path.join(OUT, name + ".yaml")
    lo, hi = args.think.split("-")
    engines = "\n".join(
        f"  - {{id: light-{s}, command: {program}, args: [--think-ms, \"{lo}-{hi}\", --seed, \"{n}\"]}}"
        for n, s in ((1, "a"), (2, "b")))
    with open(path, "w") as f:
        f.write(f"""name: {name}
variant: minishogi
rounds: {games_at_once}
games: 2
time-control: byoyomi 1
adjudication: {{move-limit: {args.plies}}}
openings: {{file: {ROOT}/openings/minishogi.txt, order: random}}
concurrency: {games_at_once}
output: {OUT}/{name}-records
""")
        if catalog:
            f.write(f"catalog: {catalog}\nengines: [light-a, light-b]\n")
        else:
            f.write("engines:\n" + engines + "\n")
    return path


def records(folder):
    with open(os.path.join(folder, "results.json")) as f:
        results = json.load(f)
    moves, overhead, over = 0, [], 0
    endings = {}
    for game in results["games"]:
        endings[game["termination"]] = endings.get(game["termination"], 0) + 1
        for move in game.get("move_data", []):
            moves += 1
            if move.get("referee_ms") is not None and move.get("time_ms") is not None:
                overhead.append(move["referee_ms"] - move["time_ms"])
            if (move.get("overrun_ms") or 0) > 0:
                over += 1
    overhead.sort()
    pick = lambda q: overhead[min(len(overhead) - 1, int(q * len(overhead)))] if overhead else float("nan")
    return {"games": len(results["games"]), "moves": moves, "endings": endings, "over_allowance": over,
            "overhead_median_ms": pick(0.5), "overhead_p99_ms": pick(0.99)}


def run_local(n, program, args):
    name = f"local-{n}"
    shutil.rmtree(os.path.join(OUT, name + "-records"), ignore_errors=True)
    path = tournament(name, n, program, args)
    log = open(os.path.join(OUT, name + ".txt"), "w")
    began = time.time()
    process = subprocess.Popen([TAIKAI, "run", path], stdout=log, stderr=subprocess.STDOUT)
    sampler = Sampler(program, {"runner": process.pid})
    sampler.start()
    process.wait()
    sampler.stop.set()
    sampler.join()
    return summarize(name, n, time.time() - began, process.returncode, sampler, records(os.path.join(OUT, name + "-records")))


def run_cluster(n, program, args):
    name = f"cluster-{n}"
    directory = os.path.join(OUT, name + "-dir")
    shutil.rmtree(directory, ignore_errors=True)
    shutil.rmtree(os.path.join(OUT, name + "-records"), ignore_errors=True)
    catalog = os.path.join(OUT, "catalog.yaml")
    lo, hi = args.think.split("-")
    with open(catalog, "w") as f:
        f.write("engines:\n" + "".join(
            f"  - {{id: light-{s}, command: {program}, args: [--think-ms, \"{lo}-{hi}\", --seed, \"{k}\"]}}\n"
            for k, s in ((1, "a"), (2, "b"))))
    referees = max(2, -(-n // 500))
    workers = max(2, -(-n // 250))
    games = -(-n // referees)
    slots = -(-2 * n // workers)
    up = subprocess.run([TAIKAI, "cluster", "up", "--dir", directory, "--catalog", catalog, "--referees", str(referees),
                         "--games", str(games), "--workers", str(workers), "--slots", str(slots)],
                        capture_output=True, text=True)
    if up.returncode != 0:
        sys.exit(f"cluster up failed: {up.stdout}{up.stderr}")
    services = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+(\S+)\s+pid (\d+)", up.stdout, re.M)}
    try:
        path = tournament(name, n, program, args, catalog)
        log = open(os.path.join(OUT, name + ".txt"), "w")
        began = time.time()
        sampler = Sampler(program, services)
        sampler.start()
        submit = subprocess.run([TAIKAI, "cluster", "submit", "--dir", directory, "--concurrency", str(n), path],
                                stdout=log, stderr=subprocess.STDOUT)
        sampler.stop.set()
        sampler.join()
        shape = f"{referees} referees of {games} games, {workers} workers of {slots} slots"
        return summarize(name, n, time.time() - began, submit.returncode, sampler,
                         records(os.path.join(OUT, name + "-records")), shape)
    finally:
        subprocess.run([TAIKAI, "cluster", "down", "--dir", directory], capture_output=True)


def summarize(name, n, seconds, code, sampler, rec, shape=""):
    in_play = [s["games"] for s in sampler.samples]
    services = {}
    for service, last in sampler.last.items():
        first = sampler.first[service]
        peak = sampler.peak[service]
        services[service] = {
            "cpu_s": last["cpu"] - first["cpu"], "rss_mb": peak["rss_kb"] / 1024, "threads": peak["threads"],
            "fds": peak["fds"], "heap_mb": sampler.heap.get(service)}
    return {"name": name, "n": n, "seconds": seconds, "exit": code, "shape": shape, "records": rec,
            "most_in_play": max(in_play, default=0), "in_play": in_play, "services": services}


def group(service):
    return re.sub(r"-\d+$", "", service)


def report(results, args):
    cpu = open("/proc/cpuinfo").read()
    model = re.search(r"model name\s*:\s*(.*)", cpu).group(1)
    lines = ["# Scale benchmark", "",
             f"Latest run of `bench/scale.py {' '.join(sys.argv[1:])}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.", "",
             f"- Machine: {model}, {os.cpu_count()} cores; Linux {platform.release()}",
             f"- Games: 2 x N Minishogi games of two light engines (a legal move after sleeping {args.think} ms,"
             f" uniformly), `byoyomi 1`, drawn by adjudication after {args.plies} plies (or ended by the rules"
             " before), N at once.", "",
             "| configuration | shape | wall s | most in play | games | moves | moves/s | time losses | stalls | disconnects | over allowance | referee overhead median / p99 ms |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        e = r["records"]["endings"]
        rec = r["records"]
        lines.append(f"| {r['name']} | {r['shape'] or 'one JVM'} | {r['seconds']:.0f} | {r['most_in_play']:.0f} | {rec['games']} |"
                     f" {rec['moves']} | {rec['moves'] / r['seconds']:.0f} | {e.get('time_forfeit', 0)} | {e.get('stall', 0)} |"
                     f" {e.get('disconnect', 0)} | {rec['over_allowance']} | {rec['overhead_median_ms']:.2f} / {rec['overhead_p99_ms']:.2f} |")
    lines += ["", "Per service (summed over replicas; CPU per move over all the run's moves; memory, threads and"
              " descriptors at their most, per replica; per game slot: at the most games in play, a slot being one"
              " engine session on a worker, one game on a referee or runner):", "",
              "| configuration | service | replicas | CPU µs/move | RSS MB | heap MB | RSS KB/slot | threads | fds |",
              "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        moves = max(1, r["records"]["moves"])
        groups = {}
        for service, s in r["services"].items():
            groups.setdefault(group(service), []).append(s)
        for g, members in sorted(groups.items()):
            cpu_us = sum(m["cpu_s"] for m in members) * 1e6 / moves
            rss = max(m["rss_mb"] for m in members)
            heaps = [m["heap_mb"] for m in members if m["heap_mb"] is not None]
            slots = r["most_in_play"] * (2 if g in ("worker",) else 1) / max(1, len(members))
            per_slot = rss * 1024 / slots if g in ("worker", "referee", "runner") and slots else float("nan")
            lines.append(f"| {r['name']} | {g} | {len(members)} | {cpu_us:.0f} | {rss:.0f} |"
                         f" {max(heaps):.0f} | {per_slot:.0f} | {max(m['threads'] for m in members)} | {max(m['fds'] for m in members)} |"
                         if heaps else
                         f"| {r['name']} | {g} | {len(members)} | {cpu_us:.0f} | {rss:.0f} | - | {per_slot:.0f} |"
                         f" {max(m['threads'] for m in members)} | {max(m['fds'] for m in members)} |")
    lines += ["", "Games in play, every 10 s:", ""]
    for r in results:
        lines.append(f"- {r['name']}: " + " ".join(f"{g:.0f}" for g in r["in_play"][::10]))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(ROOT, "bench", "results", "scale-latest.md"), "w") as f:
        f.write(text)
    with open(os.path.join(OUT, "scale.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--local", default="10,100,250", help="games at once on the local runner ('' for none)")
    parser.add_argument("--cluster", default="10,100,1000", help="games at once on the cluster ('' for none)")
    parser.add_argument("--plies", type=int, default=120, help="plies after which a game is drawn (default 120)")
    parser.add_argument("--think", default="100-500", help="each move's sleep, MIN-MAX ms (default 100-500)")
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    subprocess.run([TAIKAI, "cluster", "--help"], capture_output=True)  # builds what is needed
    program = light_engine()
    results = []
    for n in [int(x) for x in args.local.split(",") if x]:
        print(f"local runner, {n} games at once", file=sys.stderr)
        results.append(run_local(n, program, args))
    for n in [int(x) for x in args.cluster.split(",") if x]:
        print(f"cluster, {n} games at once", file=sys.stderr)
        results.append(run_cluster(n, program, args))
    report(results, args)


if __name__ == "__main__":
    main()
