"""The optimal bot's search, and the bundled bots on codes larger than 4x6.

    python benchmarks/optimal.py                  # the search: 4x6, 4x6 max 5, node counts
    python benchmarks/optimal.py --bulls          # + Bulls and Cows (minutes)
    python benchmarks/optimal.py --no-symmetry    # + 4x6 searched with no symmetry (what it saves)
    python benchmarks/optimal.py --larger         # the bots on 4x7, 5x6, 4x10, 5x8, 5-digit Bulls and 6x9
    python benchmarks/optimal.py --bounds 5x6,4x9 --exact-below 600 --tries 3   # a strategy and a lower bound

The search is timed in this process after a warm-up on a tiny game (numba's kernels load from the
cache; the first run ever compiles them, about a minute).  Larger codes are played with
`hbs run --in-process --json` in a fresh process a run: seconds in the run, wall, peak memory.
Every code of each game, but 6x9 (531,441 codes, played without an answer matrix): 200 codes
drawn with seed 1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

# (game arguments, name, published figure to stand beside, codes drawn (None: every code))
LARGER = [
    (["--pegs", "4", "--colors", "7"], "mastermind-4x7", "optimum 4.676 a code (Ville 2013)", None),
    (["--pegs", "5", "--colors", "6"], "mastermind-5x6", "-", None),
    (["--pegs", "4", "--colors", "10", "--alphabet", "0123456789"], "mastermind-4x10", "heuristics about 56,225",
     None),
    (["--pegs", "5", "--colors", "8"], "mastermind-5x8", "heuristics about 179,752", None),
    (["--game", "bulls", "--pegs", "5"], "bulls-5", "-", None),
    (["--pegs", "6", "--colors", "9"], "mastermind-6x9", "-", 200),
]
LARGER_BOTS = ["knuth", "entropy", "parts", "hybrid", "optimal"]


def search_figures(bulls: bool, no_symmetry: bool, threads: int) -> None:
    from hbs.core.games import bulls as bulls_game, mastermind
    from hbs.strategies.optimal import bot as optimal
    from hbs.strategies.codes.space import CodeSpace

    tiny = mastermind(2, 3)
    optimal.solve(tiny, CodeSpace(tiny).matrix, split=2)  # load the kernels (tasks included)
    cases = [(mastermind(), None, True), (mastermind(), 5, True)]
    if no_symmetry:
        cases.append((mastermind(), None, False))
    if bulls:
        cases.append((bulls_game(), None, True))
    print(f"{'game':15s} {'max':>4s} {'sym':>4s} {'total':>6s} {'seconds':>8s}  counts")
    for game, max_depth, symmetric in cases:
        matrix = CodeSpace(game).matrix
        start = time.perf_counter()
        found = optimal.solve(game, matrix, max_depth, symmetric=symmetric, threads=threads)
        seconds = time.perf_counter() - start
        counts = ", ".join(f"{k} {v:,}" for k, v in found.stats.items())
        print(f"{game.name:15s} {max_depth or '-':>4} {'yes' if symmetric else 'no':>4s} {found.total:6d} "
              f"{seconds:8.2f}  {counts}", flush=True)


def bound_figures(games: list[str], exact_below: int, tries: int, threads: int) -> None:
    """Where the exact search does not finish: the proven lower bound and a strategy exact below
    ``exact_below`` codes (hbs.strategies.optimal.bounded), each timed, the strategy re-graded."""
    import resource

    from hbs.core.games import mastermind
    from hbs.strategies.codes.space import CodeSpace
    from hbs.strategies.optimal import bounded
    from hbs.strategies.optimal.decision_tree import check, from_strategy

    print(f"{'game':15s} {'codes':>6s} {'lower':>7s} {'strategy':>8s} {'max':>3s} {'s':>7s} {'gap':>6s} "
          f"peak MB   (exact below {exact_below} codes, best of {tries})")
    for name in games:
        pegs, colors = map(int, name.split("x"))
        game = mastermind(pegs, colors, "0123456789") if colors == 10 else mastermind(pegs, colors)
        matrix = CodeSpace(game).matrix
        start = time.perf_counter()
        found = bounded.bounds(game, matrix, exact_below, tries, threads)
        seconds = time.perf_counter() - start
        regraded, worst = check(game, from_strategy(game, found.strategy))
        assert regraded == found.total
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{game.name:15s} {game.size:6d} {found.lower:7d} {found.total:8d} {worst:3d} {seconds:7.1f} "
              f"{(found.total - found.lower) / found.lower:6.2%} {peak:7.0f}", flush=True)


def drawn_codes(folder: str, args: list[str], count: int) -> str:
    """A file of ``count`` codes of the game of ``args`` (mastermind), drawn with seed 1."""
    import random

    pegs, colors = int(args[args.index("--pegs") + 1]), int(args[args.index("--colors") + 1])
    draw = random.Random(1)
    path = os.path.join(folder, f"codes-{pegs}x{colors}.txt")
    with open(path, "w") as out:
        out.writelines("".join(draw.choice("123456789"[:colors]) for _ in range(pegs)) + "\n" for _ in range(count))
    return path


def measured(command: list[str], timeout: float) -> tuple[subprocess.CompletedProcess | None, float]:
    """Run ``command``; its result (None past ``timeout``) and its own peak memory in MB."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(command, stdout=out, stderr=err, text=True)
        late = threading.Event()
        killer = threading.Timer(timeout, lambda: (late.set(), proc.kill()))
        killer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it
        killer.cancel()
        if late.is_set():
            return None, 0.0
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(command, proc.returncode, out.read(), err.read()), usage.ru_maxrss / 1024


def larger_figures(bots: list[str], games: list[str], timeout: float) -> None:
    board = tempfile.mkdtemp(prefix="hbs-bench-")
    print(f"{'bot':8s} {'game':16s} {'total':>8s} {'mean':>6s} {'max':>4s} {'in-run s':>9s} {'wall s':>8s} "
          f"{'peak MB':>8s}  published")
    for args, name, published, drawn in LARGER:
        if games and name not in games:
            continue
        if drawn:
            args = [*args, "--secrets", drawn_codes(board, args, drawn)]
            name += f" ({drawn})"
        for bot in bots:
            command = [sys.executable, "-m", "hbs", "run", "--bot", bot, *args, "--json", "--in-process",
                       "--scoreboard", board]
            start = time.perf_counter()
            done, peak = measured(command, timeout)
            wall = time.perf_counter() - start
            if done is None:
                print(f"{bot:8s} {name:16s} did not finish in {timeout:.0f} s")
                continue
            if done.returncode:
                print(f"{bot:8s} {name:16s} {done.stderr.strip().splitlines()[-1]}")
                continue
            s = json.loads(done.stdout)
            print(f"{bot:8s} {name:16s} {s['total_guesses']:8d} {s['mean_guesses']:6.3f} {s['max_guesses']:4d} "
                  f"{s['seconds']:9.1f} {wall:8.1f} {peak:8.0f}  {published}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bulls", action="store_true", help="also search Bulls and Cows (minutes)")
    parser.add_argument("--no-symmetry", action="store_true", help="also search 4x6 with no symmetry")
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--larger", action="store_true", help="play the bots on 4x7, 5x6, 4x10, 5x8")
    parser.add_argument("--bots", default=",".join(LARGER_BOTS), help="bots for --larger")
    parser.add_argument("--games", default="", help="only these games for --larger (e.g. mastermind-4x7)")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds a --larger run may take")
    parser.add_argument("--bounds", default="", help="lower bound and strategy for these games (e.g. 5x6,4x9)")
    parser.add_argument("--exact-below", type=int, default=600, help="--bounds: sets solved exactly")
    parser.add_argument("--tries", type=int, default=3, help="--bounds: guesses tried on a larger set")
    args = parser.parse_args()
    if args.bounds:
        bound_figures(args.bounds.split(","), args.exact_below, args.tries, args.threads)
    elif args.larger:
        games = [g for g in args.games.split(",") if g]
        larger_figures(args.bots.split(","), games, args.timeout)
    else:
        search_figures(args.bulls, args.no_symmetry, args.threads)


if __name__ == "__main__":
    main()
