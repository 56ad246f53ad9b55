"""Expected-log selection over an explicit list of candidate phrases.

For a guess, the candidates split into groups by the answer they would give; a group of ``m``
phrases is expected to need ``cost(m)`` more guesses, and the guess itself wins (no more guesses)
when it is the secret.  The score of a guess is the expected number of guesses after it, estimated
on a sample of the candidates; the least wins.  ``cost`` grows with ``log2(m)``: one guess for a
single phrase, about 1.5 for two, and then roughly one more guess per 4-6 bits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hbs.core.feedback import byte_counts, string_answer

#: (log2 m, expected guesses still needed) — interpolated linearly in log2 m.
COST_KNOTS = np.array([[0.0, 1.0], [1.0, 1.5], [2.0, 1.9], [4.0, 2.5], [8.0, 3.3], [16.0, 4.6], [40.0, 9.0]])
ANSWER_WIDTH = 256


@njit(cache=True, inline="always")
def _cost(m: float, knots: np.ndarray) -> float:
    x = np.log2(m)
    for i in range(1, knots.shape[0]):
        if x <= knots[i, 0]:
            x0, y0 = knots[i - 1, 0], knots[i - 1, 1]
            x1, y1 = knots[i, 0], knots[i, 1]
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return knots[-1, 1]


@njit(cache=True)  # (not parallel: a few milliseconds a call, and a parallel loop costs 3 s of a cold compile)
def expected_costs(
    guesses: np.ndarray, guess_lengths: np.ndarray, secrets: np.ndarray, secret_lengths: np.ndarray,
    population: int, knots: np.ndarray,
) -> np.ndarray:
    """``float64[G]`` expected guesses still needed after each guess (rows of ``guesses``, byte
    strings with ``guess_lengths``) over the sample ``secrets`` drawn from ``population`` phrases."""
    n_guess = guesses.shape[0]
    k = secrets.shape[0]
    scale = population / k
    # black and white are at most a secret's length: a histogram that wide, not every possible answer
    # (zeroing 65,536 bins a guess would be most of this kernel's time)
    width = min(ANSWER_WIDTH, int(secret_lengths.max()) + 1) if k else 1
    out = np.empty(n_guess, dtype=np.float64)
    for g in range(n_guess):
        hist = np.zeros(width * width, dtype=np.int64)
        codes = np.empty(k, dtype=np.int64)
        used = np.zeros(256, dtype=np.int64)
        glen = guess_lengths[g]
        row = guesses[g]
        gcount = byte_counts(row, glen)
        for s in range(k):
            slen = secret_lengths[s]
            black, total = string_answer(row, glen, gcount, used, secrets[s], slen)
            if black == glen and glen == slen:
                codes[s] = -1  # the guess is this secret: a win, no guess after it
                continue
            code = min(black, width - 1) * width + min(total - black, width - 1)
            codes[s] = code
            hist[code] += 1
        acc = 0.0
        for s in range(k):
            code = codes[s]
            if code >= 0 and hist[code]:
                n = hist[code]
                acc += n * _cost(max(1.0, n * scale), knots)
                hist[code] = 0
        out[g] = acc / k
    return out
