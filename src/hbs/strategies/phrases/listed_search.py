"""A spacing's phrases carried as a list from one answer to the next.

Late in a game of five words or more, the level search counts a spacing exactly, and the next
guess counted it again from nothing: its levels rebuilt (millions of sums) and met, up to 1.5 s
for a few thousand phrases.  Once a level search's exact count is small, its tuples are listed
(:data:`CARRY_BELOW`; 0.02 s for 20,820 six-word tuples) and each later answer only filters them
by the fields it sets: the same phrases, exactly, in a few milliseconds.
"""

from __future__ import annotations

import numpy as np

from hbs.strategies.phrases.levels import LIST_FACTOR, from_list

#: An exact level count of at most this many tuples is listed and carried to the next answer.
CARRY_BELOW = 50_000


def filtered(tuples: np.ndarray, fields: list) -> np.ndarray:
    """The rows of ``tuples`` (``int64[k, n]``, each word as its index within its slot's word class)
    whose features sum to each field's target (``fields``: :func:`probes.fields`)."""
    keep = np.ones(len(tuples), dtype=bool)
    for values, target in fields:
        total = np.zeros(len(tuples), dtype=np.int64)
        for j, slot in enumerate(values):
            total += slot[tuples[:, j]]
        keep &= total == target
    return tuples[keep]


class ListedSearch:
    """The :class:`~hbs.strategies.phrases.search.Search` of a spacing whose tuples are listed."""

    exact, draws, meetings, loose = True, 0, 0, False

    def __init__(self, tuples: np.ndarray, lengths: np.ndarray, slot_words: list[np.ndarray]):
        self.tuples, self.lengths, self.slot_words = tuples, lengths, slot_words

    @property
    def count(self) -> int:
        return len(self.tuples)

    def all(self) -> np.ndarray:
        return self.tuples

    def sample(self, k: int, rng: np.random.Generator) -> np.ndarray:
        """As the level search's exact sample: all when at most ``k``, ``k`` without replacement
        (in list order) up to ``LIST_FACTOR * k``, uniformly with replacement beyond."""
        if self.count <= LIST_FACTOR * k:
            return from_list(self.tuples, k, rng)
        return self.tuples[np.sort(rng.integers(0, self.count, size=k))]
