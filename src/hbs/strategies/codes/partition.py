"""Partition scores: how a guess splits the consistent set by answer, and the classic criteria.

For a guess, the consistent set falls into groups of sizes ``n`` by the answer it would get.
Criteria (lower is better): ``minimax`` = largest group (Knuth); ``entropy`` = Σ n·log2 n (the
least is the most informative); ``parts`` = minus the number of groups (Kooi's most parts);
``expected`` = Σ n² (expected size).  Ties (scores within ``1e-9``) go to a guess in the consistent
set, then to the lowest index.
"""

from __future__ import annotations


import numpy as np
from numba import njit, prange

from hbs.core.feedback import code_answer, symbol_counts
from hbs.errors import InputError, UnsupportedGame
from hbs.strategies.codes.consistent import ConsistentBot
from hbs.strategies.codes.space import CodeSpace

CRITERIA = {"minimax": 0, "entropy": 1, "parts": 2, "expected": 3}
TIE = 1e-9


@njit(cache=True, inline="always")
def _score(counts: np.ndarray, criterion: int) -> float:
    """The score of a partition whose group sizes by answer are ``counts``."""
    score = 0.0
    for a in range(counts.shape[0]):
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
    return score


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
        out[p] = _score(counts, criterion)
    return out


@njit(cache=True, parallel=True)
def graded_scores(
    codes: np.ndarray, symbols: np.ndarray, pool: np.ndarray, subset: np.ndarray, n_answers: int, criterion: int
) -> np.ndarray:
    """:func:`partition_scores` without a matrix: each answer graded as it is counted.

    ``codes`` (``uint8[n, P]``) and ``symbols`` (``uint8[n, C]``, their :func:`symbol_counts`) are the
    whole space; ``pool`` and ``subset`` index it."""
    pegs, ncolors = codes.shape[1], symbols.shape[1]
    out = np.empty(pool.shape[0], dtype=np.float64)
    for p in prange(pool.shape[0]):
        counts = np.zeros(n_answers, dtype=np.int64)
        g = pool[p]
        for j in subset:
            counts[code_answer(codes[g], symbols[g], codes[j], symbols[j], ncolors, pegs)] += 1
        out[p] = _score(counts, criterion)
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
#: Over it (6x9: 531,441 codes would need 282 GB) each answer is graded as it is counted.
MAX_MATRIX_BYTES = 2_000_000_000
#: Answers a guess of a game without a matrix may grade (guesses scored × consistent codes): about
#: a second on one core.  Over it the guesses scored are the consistent codes, then a draw of them.
WORK = 150_000_000
DRAW_SEED = 0


class PartitionBot(ConsistentBot):
    """Picks the guess whose answer partition of the consistent set scores best under ``criterion``.

    Option ``pool``: ``all`` (any code of the game may be guessed) or ``consistent`` (only codes
    that could be the secret).  ``opening``: the criterion of the first guess, where it differs.

    Games whose answer matrix would be over :data:`MAX_MATRIX_BYTES` are played without one: the
    opening is scored on one code of each symmetry class (every class's members score alike on
    the whole space, and the least of a class is the one the full pool would pick), later guesses
    on the whole pool while that grades at most :data:`WORK` answers, else on the consistent codes,
    else on a seeded draw of them (:meth:`scored`).  Games whose matrix fits are played as always.
    """

    criterion = "minimax"
    opening: str | None = None
    max_matrix_bytes = MAX_MATRIX_BYTES
    work = WORK

    def __init__(self, pool: str = "all"):
        if pool not in ("all", "consistent"):
            raise InputError(f"option pool must be 'all' or 'consistent', got {pool!r}")
        self.pool = pool

    games = frozenset({"mastermind", "bulls"})

    def setup(self, game) -> None:
        if game.kind not in ("mastermind", "bulls"):
            raise UnsupportedGame(f"bot {self.name!r} plays code games (mastermind, bulls), not {game.kind}")
        super().setup(game)
        assert isinstance(self.space, CodeSpace)
        self._all = np.arange(self.space.size, dtype=np.int64)
        self._mask = np.zeros(self.space.size, dtype=np.bool_)
        self._symbols = None
        if self.space.size**2 > self.max_matrix_bytes:
            self._symbols = symbol_counts(self.space.codes, self.game.colors)
        # The opening guess (memoised): the answer matrix is built and the kernels load here,
        # within the setup allowance, and not in the first game's guess budget.
        self.guess(())

    def choose(self, history: tuple, subset: np.ndarray) -> str:
        if len(subset) <= 2:
            return self.space.text(subset[0])
        pool = self._all if self.pool == "all" else subset
        criterion = CRITERIA[self.opening if self.opening and not history else self.criterion]
        if self._symbols is None:
            scores = partition_scores(self.space.matrix, pool, subset, self.space.n_answers, criterion)
        else:
            pool = self.scored(pool, subset)
            scores = graded_scores(self.space.codes, self._symbols, pool, subset, self.space.n_answers, criterion)
        self._mask[subset] = True
        try:
            choice = best_guess(scores, pool, self._mask, TIE)
        finally:
            self._mask[subset] = False
        return self.space.text(choice)

    def scored(self, pool: np.ndarray, subset: np.ndarray) -> np.ndarray:
        """The guesses (ascending) scored for the consistent set ``subset`` of a game without a matrix."""
        if len(subset) == self.space.size:  # the opening: the least code of each symmetry class
            return openings(self.space.codes, self._symbols)
        if len(pool) * len(subset) <= self.work:
            return pool
        if len(subset) ** 2 <= self.work:
            return subset
        draw = max(1, self.work // len(subset))
        return np.sort(np.random.default_rng(DRAW_SEED).choice(subset, draw, replace=False))


def openings(codes: np.ndarray, symbols: np.ndarray) -> np.ndarray:
    """The least code (``int64``, ascending) of each class of codes alike under a permutation of the
    pegs and one of the symbols: those with the same symbol multiplicities, whatever the symbols
    and their places (``1123`` and ``3414``).  On the whole space a code and its images split the
    secrets alike, answer for answer.  ``codes`` must be in lexicographic order."""
    patterns = -np.sort(-symbols.astype(np.int16), axis=1)
    _, first = np.unique(patterns, axis=0, return_index=True)
    return np.sort(first).astype(np.int64)
