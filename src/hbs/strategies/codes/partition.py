"""Partition scores: how a guess splits the consistent set by answer, and the classic criteria.

For a guess, the consistent set falls into groups of sizes ``n`` by the answer it would get.
Criteria (lower is better): ``minimax`` = largest group (Knuth); ``entropy`` = Σ n·log2 n (the
least is the most informative); ``parts`` = minus the number of groups (Kooi's most parts);
``expected`` = Σ n² (expected size).  Ties (scores within ``1e-9``) go to a guess in the consistent
set, then to the lowest index.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from hbs.errors import InputError, UnsupportedGame
from hbs.strategies.codes.consistent import ConsistentBot
from hbs.strategies.codes.space import CodeSpace

CRITERIA = {"minimax": 0, "entropy": 1, "parts": 2, "expected": 3}
TIE = 1e-9


@njit(cache=True, parallel=True)
def partition_scores(
    matrix: np.ndarray, pool: np.ndarray, subset: np.ndarray, n_answers: int, criterion: int
) -> np.ndarray:
    """``float64[len(pool)]`` scores of each guess row ``pool[i]`` of ``matrix`` (``uint8[g, s]``)
    over the secret columns ``subset`` (``int64[k]``), under ``criterion`` (see :data:`CRITERIA`)."""
    out = np.empty(pool.shape[0], dtype=np.float64)
    for p in prange(pool.shape[0]):
        counts = np.zeros(n_answers, dtype=np.int64)
        row = matrix[pool[p]]
        for j in subset:
            counts[row[j]] += 1
        score = 0.0
        for a in range(n_answers):
            n = counts[a]
            if n == 0:
                continue
            if criterion == 0:
                score = max(score, float(n))
            elif criterion == 1:
                score += n * np.log2(n)
            elif criterion == 2:
                score -= 1.0
            else:
                score += float(n) * n
        out[p] = score
    return out


@njit(cache=True)
def best_guess(scores: np.ndarray, pool: np.ndarray, in_subset: np.ndarray, tol: float) -> int:
    """The pool member with the least score; ties within ``tol`` prefer ``in_subset``, then the lowest.

    ``pool`` (``int64[k]``) must be ascending; ``in_subset`` is a ``bool[size]`` mask.
    """
    best = scores.min()
    fallback = -1
    for p in range(pool.shape[0]):
        if scores[p] <= best + tol:
            if in_subset[pool[p]]:
                return pool[p]
            if fallback < 0:
                fallback = pool[p]
    return fallback


#: The largest answer matrix a partition bot builds (one byte an answer, every code against every
#: code): 2 GB, within the 4 GB worker with room for the rest; 5x8 (32,768 codes) takes 1.07 GB.
MAX_MATRIX_BYTES = 2_000_000_000


class PartitionBot(ConsistentBot):
    """Picks the guess whose answer partition of the consistent set scores best under ``criterion``.

    Option ``pool``: ``all`` (any code of the game may be guessed) or ``consistent`` (only codes
    that could be the secret).
    """

    criterion = "minimax"

    def __init__(self, pool: str = "all"):
        if pool not in ("all", "consistent"):
            raise InputError(f"option pool must be 'all' or 'consistent', got {pool!r}")
        self.pool = pool

    games = frozenset({"mastermind", "bulls"})

    def setup(self, game) -> None:
        if game.kind not in ("mastermind", "bulls"):
            raise UnsupportedGame(f"bot {self.name!r} plays code games (mastermind, bulls), not {game.kind}")
        if game.size**2 > MAX_MATRIX_BYTES:
            raise UnsupportedGame(
                f"bot {self.name!r} scores its guesses on the whole answer matrix: {game.size:,} codes would "
                f"need {game.size**2 / 1e9:,.0f} GB; it plays games of up to {math.isqrt(MAX_MATRIX_BYTES):,} codes")
        super().setup(game)
        assert isinstance(self.space, CodeSpace)
        self._all = np.arange(self.space.size, dtype=np.int64)
        self._mask = np.zeros(self.space.size, dtype=np.bool_)
        # The opening guess (memoised): the answer matrix is built and the kernels load here,
        # within the setup allowance, and not in the first game's guess budget.
        self.guess(())

    def choose(self, history: tuple, subset: np.ndarray) -> str:
        if len(subset) <= 2:
            return self.space.text(subset[0])
        pool = self._all if self.pool == "all" else subset
        scores = partition_scores(self.space.matrix, pool, subset, self.space.n_answers, CRITERIA[self.criterion])
        self._mask[subset] = True
        try:
            choice = best_guess(scores, pool, self._mask, TIE)
        finally:
            self._mask[subset] = False
        return self.space.text(choice)
