"""Tournaments, local and on Ray: wall time of whole `hbs tournament` / `hbs run` commands, modes taking turns.

    python benchmarks/tournament.py [--repeat 3] [--baseline OLD/src] [--phrases data/pass.txt --limit 200]

Figures, on this machine's cores:

1. a 5-bot tournament on 4x6 Mastermind (first, random, knuth, entropy, parts; 6480 games):
   `--backend local`, `--backend ray` (hbs starts Ray itself) and `--backend ray --address` (a
   cluster started beforehand with `ray start --head`, as an organiser runs one);
2. with --phrases, a 3-bot tournament on those phrases (entropy and two phrase bots built on its
   engine with other sampling seeds, written to a temporary bots folder), local and on that cluster;
3. games a second of the 4x6 tournament against the CPUs given to the cluster (1, 2).

``--baseline SRC`` (another checkout's ``src``, e.g. ``git worktree add /tmp/old COMMIT``) plays
the tournaments with that code too, in the same turns, as ``old <mode>``: before and after.
The modes take turns so that a slow spell of the machine hits them alike; each line gives the
median wall time, the best, and the median against the first mode.  Every mode's guesses are
checked to be the same.  Needs Ray (pip install -e '.[ray]').
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


SEEDED = """
from hbs import Bot
from hbs.strategies.phrases.passphrase import PhraseBreaker


class Seeded(Bot):
    \"\"\"The phrase engine of entropy, its samples drawn with seed SEED.\"\"\"

    games = {"phrases"}

    def setup(self, game):
        self.breaker = PhraseBreaker(game, SEED)
        self.breaker.warm()

    def guess(self, history):
        return self.breaker.guess(history)
"""


def timed(args: list[str], baseline: str | None = None) -> tuple[float, int]:
    """Wall seconds of one command (with ``baseline`` first on the import path), and the total
    guesses it reports."""
    env = dict(os.environ, PYTHONPATH=baseline) if baseline else None
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    if done.returncode:
        sys.exit(f"{' '.join(args)}\n{done.stderr}")
    out = json.loads(done.stdout)
    total = sum(s["total_guesses"] for s in out["standings"]) if "standings" in out else out["total_guesses"]
    return time.perf_counter() - start, total


class Head:
    """A one-node Ray cluster started with `ray start --head` (its CPUs given), stopped at the end."""

    def __init__(self, cpus: int):
        if not os.path.exists(os.path.expanduser("~/.ray/auth_token")):  # Ray 2.60's default: a token
            subprocess.run(["ray", "get-auth-token", "--generate"], capture_output=True)
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
    parser.add_argument("--baseline", help="another checkout's src folder, played in the same turns")
    parser.add_argument("--phrases", help="also a 3-bot tournament on this phrase file")
    parser.add_argument("--limit", type=int, help="play only the first N phrases")
    args = parser.parse_args()
    board = tempfile.mkdtemp(prefix="hbs-bench-")
    bots_dir = tempfile.mkdtemp(prefix="hbs-bench-bots-")
    for seed in (1, 2):
        with open(os.path.join(bots_dir, f"seeded{seed}.py"), "w") as out:
            out.write(SEEDED.replace("SEED", str(seed)))
    cores = os.cpu_count() or 1
    common = ["--json", "--scoreboard", board, "--no-replays"]
    tournament = [*HBS, "tournament", *(a for b in BOTS for a in ("--bot", b)), *common]
    phrase_tournament = [*HBS, "tournament", "--bot", "entropy", "--bot", "seeded1", "--bot", "seeded2",
                         "--bots-dir", bots_dir, "--phrases", args.phrases or "", *common]
    if args.limit:
        phrase_tournament += ["--limit", str(args.limit)]
    whos = {"": None, **({"old ": args.baseline} if args.baseline else {})}

    head = Head(cores)
    try:
        backends = {"local": [], "ray (hbs starts it)": ["--backend", "ray"],
                    "ray --address": ["--backend", "ray", "--address", head.address]}
        modes = {f"{who}{name}": (flags, src) for name, flags in backends.items() for who, src in whos.items()}
        phrase_modes = {m: v for m, v in modes.items() if "hbs starts" not in m}
        walls = {m: [] for m in modes}
        totals = {m: set() for m in modes}
        phrase_walls = {m: [] for m in phrase_modes}
        phrase_totals = {m: set() for m in phrase_modes}
        for _ in range(args.repeat):
            for mode, (flags, src) in modes.items():
                wall, total = timed([*tournament, *flags], src)
                walls[mode].append(wall)
                totals[mode].add(total)
            if args.phrases:
                for mode, (flags, src) in phrase_modes.items():
                    wall, total = timed([*phrase_tournament, *flags], src)
                    phrase_walls[mode].append(wall)
                    phrase_totals[mode].add(total)
        games = len(BOTS) * 1296
        report(f"5-bot tournament on 4x6 ({games} games), {cores} cores", walls, totals,
               lambda mode, median: f"  {games / median:6.0f} games/s")
        if args.phrases:
            report(f"3-bot tournament on {args.phrases}" + (f" (first {args.limit})" if args.limit else ""),
                   phrase_walls, phrase_totals)
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
