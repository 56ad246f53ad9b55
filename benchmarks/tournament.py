"""Local against Ray: wall time of whole `hbs tournament` / `hbs run` commands, backends taking turns.

    python benchmarks/tournament.py [--repeat 3] [--phrases data/pass.txt --limit 200]

Three figures, on this machine's cores:

1. a 5-bot tournament on 4x6 Mastermind (first, random, knuth, entropy, parts; 6480 games):
   `--backend local`, `--backend ray` (hbs starts Ray itself) and `--backend ray --address` (a
   cluster started beforehand with `ray start --head`, as an organiser runs one);
2. with --phrases, the main job (`hbs run --bot entropy --phrases FILE`), local and on that cluster;
3. games a second of the 4x6 tournament against the CPUs given to the cluster (1, 2).

The modes take turns so that a slow spell of the machine hits them alike; each line gives the
median wall time, the best, and the median against local.  Every run's guesses are checked to be
the same in every mode.  Needs Ray (pip install -e '.[ray]').
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

BOTS = ["first", "random", "knuth", "entropy", "parts"]
HBS = [sys.executable, "-m", "hbs"]


def timed(args: list[str]) -> tuple[float, int]:
    """Wall seconds of one command, and the total guesses it reports."""
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"{' '.join(args)}\n{done.stderr}")
    out = json.loads(done.stdout)
    total = sum(s["total_guesses"] for s in out["standings"]) if "standings" in out else out["total_guesses"]
    return time.perf_counter() - start, total


class Head:
    """A one-node Ray cluster started with `ray start --head` (its CPUs given), stopped at the end."""

    def __init__(self, cpus: int):
        started = subprocess.run(["ray", "start", "--head", f"--num-cpus={cpus}", "--include-dashboard=false",
                                  "--port=0", "--disable-usage-stats"], capture_output=True, text=True,
                                 env={**os.environ, "RAY_AUTH_MODE": "token"})
        os.environ["RAY_AUTH_MODE"] = "token"  # the drivers (hbs) send the token `ray start` made
        found = re.search(r"--address='([^']+)'", started.stdout)
        if started.returncode or not found:
            sys.exit(started.stdout + started.stderr)
        self.address = found.group(1)

    def stop(self) -> None:
        subprocess.run(["ray", "stop", "--force"], capture_output=True)
        os.environ.pop("RAY_AUTH_MODE", None)


def report(title: str, walls: dict[str, list[float]], totals: dict[str, set], extra=None) -> None:
    print(f"\n{title}")
    base = statistics.median(next(iter(walls.values())))
    for mode, times in walls.items():
        median = statistics.median(times)
        line = f"  {mode:<24} median {median:7.2f} s  best {min(times):7.2f} s  {median / base - 1:+6.1%}"
        if extra:
            line += extra(mode, median)
        print(line + f"  guesses {sorted(totals[mode])}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--phrases", help="also time the main job on this phrase file")
    parser.add_argument("--limit", type=int, help="play only the first N phrases")
    args = parser.parse_args()
    board = tempfile.mkdtemp(prefix="hbs-bench-")
    cores = os.cpu_count() or 1
    common = ["--json", "--scoreboard", board]
    tournament = [*HBS, "tournament", *(a for b in BOTS for a in ("--bot", b)), *common]
    job = [*HBS, "run", "--bot", "entropy", "--phrases", args.phrases or "", *common]
    if args.limit:
        job += ["--limit", str(args.limit)]

    head = Head(cores)
    try:
        modes = {"local": [], "ray (hbs starts it)": ["--backend", "ray"],
                 "ray --address": ["--backend", "ray", "--address", head.address]}
        walls = {m: [] for m in modes}
        totals = {m: set() for m in modes}
        jobs = {m: [] for m in ("local", "ray --address")}
        job_totals = {m: set() for m in jobs}
        for _ in range(args.repeat):
            for mode, flags in modes.items():
                wall, total = timed([*tournament, *flags])
                walls[mode].append(wall)
                totals[mode].add(total)
            if args.phrases:
                for mode in jobs:
                    wall, total = timed([*job, *modes[mode]])
                    jobs[mode].append(wall)
                    job_totals[mode].add(total)
        games = len(BOTS) * 1296
        report(f"5-bot tournament on 4x6 ({games} games), {cores} cores", walls, totals,
               lambda mode, median: f"  {games / median:6.0f} games/s")
        if args.phrases:
            report(f"main job: entropy on {args.phrases}" + (f" (first {args.limit})" if args.limit else ""),
                   jobs, job_totals)
    finally:
        head.stop()

    print("\ngames a second against the CPUs given to Ray (4x6 tournament, `ray start --head --num-cpus N`)")
    for cpus in range(1, cores + 1):
        head = Head(cpus)
        try:
            times = [timed([*tournament, "--backend", "ray", "--address", head.address])[0]
                     for _ in range(args.repeat)]
        finally:
            head.stop()
        median = statistics.median(times)
        print(f"  {cpus} CPU{'s' if cpus > 1 else ' '}  median {median:7.2f} s  {len(BOTS) * 1296 / median:6.0f} games/s")


if __name__ == "__main__":
    main()
