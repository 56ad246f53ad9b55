"""The classic bots over whole code spaces, as a user runs them: `hbs run ... --json` in a fresh process.

Prints each figure, the in-run seconds (games only), the process wall time and its peak memory.
Run twice: the first run compiles numba's kernels into its cache; later runs load them.

    python benchmarks/classic.py
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
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
    hbs = shutil.which("hbs") or sys.exit("install hbs first (pip install -e .)")
    print(f"{'bot':8s} {'game':11s} {'options':16s} {'total':>6s} {'max':>4s} {'in-run s':>9s} {'wall s':>7s} {'peak MB':>8s}")
    for bot, game, extra in RUNS:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        done = subprocess.run([hbs, "run", "--bot", bot, "--game", game, *extra, "--json"], capture_output=True, text=True)
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
