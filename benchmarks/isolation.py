"""What isolation and confinement cost: wall time of whole `hbs run` commands, modes taking turns.

    python benchmarks/isolation.py [--repeat 7] [--bot knuth] [--game mastermind] [--baseline SRC]
    python benchmarks/isolation.py --phrases data/pass.txt [--repeat 1] [--limit N]

Code games (default): `--in-process` on one core (the process's affinity cut to one core: the
baseline) and on all, confined workers (1, 2, default), Landlock and unconfined workers.  With --phrases: the main job (`--bot entropy`) confined (the default) against
`--unconfined`, each with a cold compile cache (a fresh, empty one) and then warm (the same one
again).  The modes take turns so that a slow spell of the machine hits them alike.  Prints, for
each mode, the median and best wall time of the process, the in-run seconds, and the median wall
time against the first mode.  ``--baseline SRC`` (another checkout's ``src``, e.g. made with
``git worktree add /tmp/old COMMIT``) plays every mode with that code too, in the same turns, as
``old <mode>``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ONE_CORE = "in-process 1 core"  # the baseline of issue 32: the bot in the runner, on one core
CODE_MODES = {
    ONE_CORE: ["--in-process"],
    "in-process": ["--in-process"],
    "1 worker": ["--workers", "1"],  # the same serial schedule as --in-process: the cost of isolation alone
    "2 workers": ["--workers", "2"],
    "default": [],  # --workers = the usable cores, confined by the best mechanism here
    "landlock": ["--sandbox", "landlock"],
    "unconfined": ["--unconfined"],
}
PHRASE_MODES = ["unconfined cold", "confined cold", "unconfined warm", "confined warm"]


def timed(args: list[str], env: dict, one_core: bool = False) -> tuple[float, float, dict]:
    core = min(os.sched_getaffinity(0))
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=env,
                          preexec_fn=(lambda: os.sched_setaffinity(0, {core})) if one_core else None)
    if done.returncode:
        sys.exit(done.stderr)
    summary = json.loads(done.stdout)
    return time.perf_counter() - start, summary["seconds"], summary


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--bot", default="knuth")
    parser.add_argument("--game", default="mastermind")
    parser.add_argument("--phrases", help="compare the phrase job confined and unconfined, cold and warm")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--baseline", help="another checkout's src folder, played in the same turns")
    args = parser.parse_args()
    hbs = [sys.executable, "-m", "hbs", "run", "--json"]  # not a launcher script: a pyenv shim adds 0.1 s
    board = tempfile.mkdtemp(prefix="hbs-bench-")  # the project's scoreboard is left alone
    limit = ["--limit", str(args.limit)] if args.limit else []
    walls: dict[str, list[float]] = {}
    inruns: dict[str, list[float]] = {}
    totals: dict[str, set] = {}
    for _ in range(args.repeat):
        if args.phrases:
            caches = {kind: tempfile.mkdtemp(prefix=f"hbs-cache-{kind}-") for kind in ("confined", "unconfined")}
            runs = [(mode, ["--bot", "entropy", "--phrases", args.phrases, *limit,
                            *(["--unconfined"] if mode.startswith("unconfined") else [])]) for mode in PHRASE_MODES]
        else:
            caches = None
            runs = [(mode, ["--bot", args.bot, "--game", args.game, *limit, *extra]) for mode, extra in CODE_MODES.items()]
        if args.baseline:
            runs = [(f"{who}{mode}", extra) for mode, extra in runs for who in ("", "old ")]
        for mode, extra in runs:
            env = dict(os.environ, HBS_SCOREBOARD=board)
            if mode.startswith("old "):
                env["PYTHONPATH"] = args.baseline
            if caches:  # a fresh compile cache a round: the first run of each kind is cold
                env["HBS_CACHE"] = caches["confined"]
                env["NUMBA_CACHE_DIR"] = caches["unconfined"]  # unconfined workers inherit it; confined ones do not
            wall, inrun, summary = timed([*hbs, *extra], env, mode.endswith(ONE_CORE))
            walls.setdefault(mode, []).append(wall)
            inruns.setdefault(mode, []).append(inrun)
            totals.setdefault(mode, set()).add(summary["total_guesses"])
    base = next(iter(walls))
    print(f"{'entropy on ' + args.phrases if args.phrases else args.bot + ' on ' + args.game}, {args.repeat} runs a mode")
    print(f"{'mode':16s} {'median wall s':>14s} {'best wall s':>12s} {'median in-run s':>16s} "
          f"{'median vs ' + base:>26s} {'total guesses':>14s}")
    for mode in walls:
        median, best = statistics.median(walls[mode]), min(walls[mode])
        ratio = 100 * (median / statistics.median(walls[base]) - 1)
        print(f"{mode:16s} {median:14.2f} {best:12.2f} {statistics.median(inruns[mode]):16.3f} "
              f"{ratio:+25.1f}% {','.join(map(str, sorted(totals[mode]))):>14s}")


if __name__ == "__main__":
    main()
