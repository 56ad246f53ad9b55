"""What isolation costs: `hbs run --bot knuth --game mastermind` in workers against --in-process.

    python benchmarks/isolation.py [--repeat 3]

Prints, for each mode, the best of the repeats: the process's wall time and the in-run seconds.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time

MODES = {
    "in-process": ["--in-process"],
    "1 worker": ["--workers", "1"],
    "2 workers": ["--workers", "2"],
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bot", default="knuth")
    parser.add_argument("--game", default="mastermind")
    args = parser.parse_args()
    hbs = shutil.which("hbs") or sys.exit("install hbs first (pip install -e .)")
    results = {}
    for mode, extra in MODES.items():
        best = None
        for _ in range(args.repeat):
            start = time.perf_counter()
            done = subprocess.run([hbs, "run", "--bot", args.bot, "--game", args.game, "--json", *extra],
                                  capture_output=True, text=True, check=True)
            wall = time.perf_counter() - start
            inrun = json.loads(done.stdout)["seconds"]
            best = (wall, inrun) if best is None or wall < best[0] else best
        results[mode] = best
    base_wall, base_run = results["in-process"]
    print(f"{'mode':12s} {'wall s':>8s} {'in-run s':>9s} {'wall vs in-process':>19s}")
    for mode, (wall, inrun) in results.items():
        print(f"{mode:12s} {wall:8.2f} {inrun:9.3f} {100 * (wall / base_wall - 1):+18.0f}%")


if __name__ == "__main__":
    main()
