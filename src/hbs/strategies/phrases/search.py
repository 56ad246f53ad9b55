"""What the breaker asks of a search over one spacing's phrases, whichever search it is.

:class:`~hbs.strategies.phrases.tuple_search.TupleSearch` lists each side of the phrase (up to four
words of lists up to a few tens of thousands) and counts exactly; :class:`~hbs.strategies.phrases.levels.LevelSearch`
counts the sides level by level (any number of words), exactly where that takes few enough steps
and by drawing otherwise (an *estimate*).  Both hold the word tuples whose packed features sum to
the answers' target, numbered per slot of the spacing.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np


class Search(Protocol):
    """The phrases of one spacing that fit the factorizable answers: counted, drawn, listed."""

    #: The count is exact, and :meth:`all` lists the tuples.
    exact: bool
    #: The estimate's draws (0 for an exact count), summed over its rounds.
    draws: int
    #: The exact meetings the search holds (the level search's memory; 0 for the tuple search).
    meetings: int
    #: An estimate no draw of which fitted: its count is what half a fitting draw would mean, no
    #: measure (see :class:`Estimate`; False for an exact count).
    loose: bool
    #: The word length of each slot (the spacing searched), and the word indices behind each slot's rows.
    lengths: np.ndarray | None
    slot_words: list[np.ndarray] | None

    @property
    def count(self) -> int:
        """How many word tuples fit (estimated where not :attr:`exact`)."""

    def all(self) -> np.ndarray:
        """``int64[count, n]``: every fitting tuple, each word as its index within its slot."""

    def sample(self, k: int, rng: np.random.Generator) -> np.ndarray:
        """``k`` fitting tuples drawn uniformly (without replacement where they can be listed)."""


class Estimate(Search, Protocol):
    """A search whose count is estimated: what the breaker's probe then aims at."""

    #: (Where :attr:`loose`, :meth:`loose_sample` draws from the slots' rows within the bounds alone.)

    #: The fitting tuples drawn were found by meeting four lists (where no blind draw fitted; see
    #: :mod:`~hbs.strategies.phrases.four_way`): a few of them are a few of many that fit.
    four_lists: bool

    @property
    def focus(self) -> int:
        """The slot a probe should sort out first (the widest of the slowest side or the middle)."""

    @property
    def focus_choices(self) -> list[int]:
        """The slots a probe may sort out instead of :attr:`focus` (the focus first among them)."""

    @property
    def joint_focus(self) -> list[int]:
        """The slots a probe may sort out all at once instead (none where it must take one)."""

    def loose_sample(self, k: int, rng: np.random.Generator) -> np.ndarray:
        """``k`` tuples drawn from each slot's rows that can still fit, not only from fitting tuples."""
