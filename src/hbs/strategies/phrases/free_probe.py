"""The end game's free probe: any string, designed on the listed phrases by the rule itself.

Once the phrases are listed (p2), a guess need not be a factorizable probe (letters of a set S on
the left, S saturated on the right, so that the search can count): any string is scored by the rule
against the list.  A phrase of the list may win outright but tells little when the phrases left
share most of their words (six Diceware words, 476 phrases left: the best phrase split them into 31
answers, the best factorizable probe into 20).  :func:`design_free` starts from a string and moves
one character at a time (a letter, a space or the filler, at any position of the phrase or past it,
where a character counts towards white only) while the expected number of guesses after it falls.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hbs.strategies.phrases.expected_cost import _cost
from hbs.strategies.phrases.probes import bin_sum


@njit(cache=True)
def design_free(secrets: np.ndarray, length: int, symbols: np.ndarray, start: np.ndarray, population: int,
                knots: np.ndarray, passes: int) -> tuple[np.ndarray, float]:
    """Coordinate ascent from the guess ``start`` (``uint8[W]``, ``W >= length``) on the expected
    guesses after it over ``secrets`` (``uint8[k, length]``, a sample of ``population`` phrases, at
    most ``length`` long, the shorter ones padded with zero bytes, which no guess holds): each pass
    tries every byte of ``symbols`` (the list's letters and the space; a byte no phrase holds, the
    filler, is ``symbols[0]``) at every position and keeps each move that lowers the score.
    Returns the guess and its score (as :func:`expected_costs` scores a guess that is no phrase of
    the list)."""
    k = secrets.shape[0]
    width_g = len(start)
    guess = start.copy()
    counts = np.zeros((k, 256), dtype=np.int64)
    for s in range(k):
        for i in range(length):
            counts[s, secrets[s, i]] += 1
    gcount = np.zeros(256, dtype=np.int64)
    for i in range(width_g):
        gcount[guess[i]] += 1
    black = np.zeros(k, dtype=np.int64)
    total = np.zeros(k, dtype=np.int64)
    for s in range(k):
        for i in range(length):
            if guess[i] == secrets[s, i]:
                black[s] += 1
        for c in range(256):
            if gcount[c] and counts[s, c]:
                total[s] += min(gcount[c], counts[s, c])
    width = length + 1
    hist = np.zeros((length + 1) * width, dtype=np.int64)
    scale = population / k
    per_bin = np.zeros(k + 1)  # an answer of n phrases: n times the guesses expected after it
    for m in range(1, k + 1):
        per_bin[m] = m * _cost(max(1.0, m * scale), knots)
    best = bin_sum(black, total, width, hist, per_bin) / k
    trial_black = np.empty(k, dtype=np.int64)
    trial_total = np.empty(k, dtype=np.int64)
    kept_black = np.empty(k, dtype=np.int64)
    kept_total = np.empty(k, dtype=np.int64)
    for _ in range(passes):
        moved = False
        for i in range(width_g):
            old = guess[i]
            best_b, best_score = -1, best
            for t in range(len(symbols)):
                b = symbols[t]
                if b == old:
                    continue
                for s in range(k):
                    bl = black[s]
                    to = total[s]
                    if i < length:
                        c = secrets[s, i]
                        if c == b:
                            bl += 1
                        elif c == old:
                            bl -= 1
                    if gcount[old] <= counts[s, old]:  # every copy of the old one matched: one match less
                        to -= 1
                    if gcount[b] < counts[s, b]:  # the phrase holds more b than the guess did: one more
                        to += 1
                    trial_black[s] = bl
                    trial_total[s] = to
                score = bin_sum(trial_black, trial_total, width, hist, per_bin) / k
                if score < best_score - 1e-12:
                    best_b, best_score = b, score
                    for s in range(k):  # (not a slice copy: see sum_table._grown)
                        kept_black[s] = trial_black[s]
                        kept_total[s] = trial_total[s]
            if best_b >= 0:
                for s in range(k):
                    black[s] = kept_black[s]
                    total[s] = kept_total[s]
                gcount[old] -= 1
                gcount[best_b] += 1
                guess[i] = best_b
                best = best_score
                moved = True
        if not moved:
            break
    return guess, best
