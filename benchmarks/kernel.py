"""Grading-kernel throughput: guess–secret answers a second, on one core and on all cores.

    python benchmarks/kernel.py
"""

from __future__ import annotations

import time

import numba

from hbs.core.feedback import answer_matrix, grade_codes
from hbs.core.games import bulls, mastermind


def rate(fn, answers: int, repeat: int = 5) -> float:
    fn()  # compile or load the cache
    best = min(_timed(fn) for _ in range(repeat))
    return answers / best


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    cores = numba.config.NUMBA_NUM_THREADS
    for game in (mastermind(), bulls(), mastermind(4, 10, "0123456789")):
        codes, colors = game.space, game.colors
        n = len(codes)
        numba.set_num_threads(1)
        one = rate(lambda: answer_matrix(codes, codes, colors), n * n)
        single = rate(lambda: grade_codes(codes[7], codes, colors), n, repeat=50)
        numba.set_num_threads(cores)
        every = rate(lambda: answer_matrix(codes, codes, colors), n * n)
        print(
            f"{game.name:16s} answer matrix {n}x{n}: {one / 1e6:7.1f} M answers/s on 1 core, "
            f"{every / 1e6:7.1f} M/s on {cores} cores; one guess vs all: {single / 1e6:6.1f} M/s"
        )


if __name__ == "__main__":
    main()
