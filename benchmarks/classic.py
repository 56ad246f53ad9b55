"""The classic bots over whole code spaces: `hbs run ... --in-process --json` in a fresh process.

Prints each figure, the in-run seconds (the bot's setup and the games), the process wall time and
its peak memory.  (What workers add to this: benchmarks/isolation.py.)
Run twice: the first run compiles numba's kernels into its cache; later runs load them.

    python benchmarks/classic.py
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time

RUNS = [
    ("first", "mastermind", []),
    ("knuth", "mastermind", []),
    ("knuth", "mastermind", ["--bot-option", "pool=consistent"]),
    ("entropy", "mastermind", []),
    ("parts", "mastermind", []),
    ("first", "bulls", []),
    ("knuth", "bulls", []),
    ("entropy", "bulls", []),
]


def main() -> None:
    hbs = [sys.executable, "-m", "hbs"]  # not a launcher script: a pyenv shim alone adds 0.1 s a run
    board = tempfile.mkdtemp(prefix="hbs-bench-")  # the project's scoreboard is left alone
    print(f"{'bot':8s} {'game':11s} {'options':16s} {'total':>6s} {'max':>4s} {'in-run s':>9s} {'wall s':>7s} {'peak MB':>8s}")
    for bot, game, extra in RUNS:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        done = subprocess.run([*hbs, "run", "--bot", bot, "--game", game, *extra, "--json", "--in-process",
                               "--scoreboard", board], capture_output=True, text=True)
        wall = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        if done.returncode:
            print(f"{bot} {game}: failed: {done.stderr.strip()}")
            continue
        s = json.loads(done.stdout)
        print(
            f"{bot:8s} {game:11s} {' '.join(extra)[-16:]:16s} {s['total_guesses']:6d} {s['max_guesses']:4d} "
            f"{s['seconds']:9.3f} {wall:7.2f} {max(peak, before) / 1024:8.0f}"
        )


if __name__ == "__main__":
    main()
