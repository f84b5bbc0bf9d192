#!/usr/bin/env python3
"""Where a machine's CPU went between two snapshots of every process, for bench/distributed.sh.

  cpu-by-process.py snapshot FILE
      writes every process's parent, user + system ticks and its reaped children's ticks
      (/proc/<pid>/stat), and the machine's busy ticks (/proc/stat), as JSON
  cpu-by-process.py attribute BEFORE AFTER PLAYING-UP IDLE-UP BENCH-PID
      prints "group ticks" lines: the CPU each group used between the snapshots, and the machine's

PLAYING-UP and IDLE-UP are the `taikai cluster up` outputs (lines "<member> pid <pid> ...") of the cluster
that played between the snapshots and of the one that stood idle; BENCH-PID is the benchmark's shell,
whose reaped children hold the submitting client's CPU.

A process that ends between the snapshots reaches its parent's reaped-children ticks with all the CPU it
ever used; what it had used by the first snapshot is taken off, so that an engine started in an earlier
submission and stopped in this one counts only for what it did in this one.
"""
import collections
import json
import os
import re
import sys


def snapshot(path):
    procs = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:  # it ended while we looked
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        procs[pid] = {
            "ppid": fields[1],
            "own": int(fields[11]) + int(fields[12]),
            "reaped": int(fields[13]) + int(fields[14]),
        }
    with open("/proc/stat") as f:
        cpu = [int(x) for x in f.readline().split()[1:]]
    busy = cpu[0] + cpu[1] + cpu[2] + cpu[5] + cpu[6]  # user, nice, system, irq, softirq
    with open(path, "w") as f:
        json.dump({"procs": procs, "busy": busy}, f)


def members(up_file):
    """pid -> member name (kafka, scheduler, worker-1, referee-1, ...) from `taikai cluster up`'s output."""
    found = {}
    with open(up_file) as f:
        for line in f:
            m = re.match(r"\s*(\S+)\s+pid (\d+)", line)
            if m:
                found[m.group(2)] = m.group(1)
    return found


def attribute(before_path, after_path, playing_up, idle_up, bench_pid):
    with open(before_path) as f:
        before = json.load(f)
    with open(after_path) as f:
        after = json.load(f)
    playing, idle = members(playing_up), members(idle_up)
    procs = dict(before["procs"])
    procs.update(after["procs"])

    def group(pid):
        """The group of pid's own CPU; its reaped children's go to child_group(pid)."""
        for depth in range(64):
            if pid in playing:
                return "engines" if depth > 0 and playing[pid].startswith("worker") else "services"
            if pid in idle:
                return "idle cluster"
            if pid == bench_pid:
                return "client and shell"
            if pid in ("0", "2") or procs.get(pid, {}).get("ppid") == "2":
                return "kernel threads"
            if pid not in procs:
                return "other"
            pid = procs[pid]["ppid"]
        return "other"

    def child_group(pid):
        if pid in playing and playing[pid].startswith("worker"):
            return "engines"
        return group(pid)

    gone = {}  # parent -> ticks its ended children had used by the first snapshot
    for pid, p in before["procs"].items():
        if pid not in after["procs"]:
            gone[p["ppid"]] = gone.get(p["ppid"], 0) + p["own"] + p["reaped"]
    ticks = collections.Counter()
    for pid, p in after["procs"].items():
        earlier = before["procs"].get(pid, {"own": 0, "reaped": 0})
        ticks[group(pid)] += p["own"] - earlier["own"]
        ticks[child_group(pid)] += p["reaped"] - earlier["reaped"] - gone.get(pid, 0)
    for name, n in sorted(ticks.items()):
        print(name, n)
    print("machine", after["busy"] - before["busy"])


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "snapshot":
        snapshot(sys.argv[2])
    elif len(sys.argv) == 7 and sys.argv[1] == "attribute":
        attribute(*sys.argv[2:])
    else:
        sys.exit(__doc__)
