"""What isolation costs: `hbs run --bot knuth --game mastermind` in workers against --in-process.

    python benchmarks/isolation.py [--repeat 7] [--bot knuth] [--game mastermind]

The modes take turns (in-process, 1 worker, 2 workers, default, in-process, ...) so that a slow spell of
the machine hits them alike.  Prints, for each mode, the median and the best of the repeats of the
process's wall time, the in-run seconds, and the wall time against --in-process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time

MODES = {
    "in-process": ["--in-process"],
    "1 worker": ["--workers", "1"],  # the same serial schedule as --in-process: the cost of isolation alone
    "2 workers": ["--workers", "2"],
    "default": [],  # --workers = the usable cores
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--bot", default="knuth")
    parser.add_argument("--game", default="mastermind")
    args = parser.parse_args()
    hbs = [sys.executable, "-m", "hbs"]  # not a launcher script: a pyenv shim alone adds 0.1 s a run
    board = tempfile.mkdtemp(prefix="hbs-bench-")  # the project's scoreboard is left alone
    walls: dict[str, list[float]] = {mode: [] for mode in MODES}
    inruns: dict[str, list[float]] = {mode: [] for mode in MODES}
    for _ in range(args.repeat):
        for mode, extra in MODES.items():
            start = time.perf_counter()
            done = subprocess.run([*hbs, "run", "--bot", args.bot, "--game", args.game, "--json",
                                   "--scoreboard", board, *extra], capture_output=True, text=True, check=True)
            walls[mode].append(time.perf_counter() - start)
            inruns[mode].append(json.loads(done.stdout)["seconds"])
    base_median = statistics.median(walls["in-process"])
    base_best = min(walls["in-process"])
    print(f"{args.bot} on {args.game}, {args.repeat} runs a mode")
    print(f"{'mode':12s} {'median wall s':>14s} {'best wall s':>12s} {'median in-run s':>16s} "
          f"{'median vs in-process':>21s} {'best vs in-process':>19s}")
    for mode in MODES:
        median, best = statistics.median(walls[mode]), min(walls[mode])
        print(f"{mode:12s} {median:14.2f} {best:12.2f} {statistics.median(inruns[mode]):16.3f} "
              f"{100 * (median / base_median - 1):+20.0f}% {100 * (best / base_best - 1):+18.0f}%")


if __name__ == "__main__":
    main()
