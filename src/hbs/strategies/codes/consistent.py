"""Consistent sets: the secrets that would have given every answer of the history so far."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from hbs.contract.bot import Bot, Guess, Turn
from hbs.strategies.codes.space import MAX_PHRASES, space_for


def narrow(space, subset: np.ndarray, guess: str, black: int, white: int) -> np.ndarray:
    """The members of ``subset`` that would answer ``(black, white)`` to ``guess`` and are not the
    guess itself (the game went on, so the guess was not the secret; in the phrase game a guess can
    get the same answer as an exact match: "a a" against "a an")."""
    found = subset[space.answers(guess, subset) == space.answer(black, white)]
    own = space.index(guess)
    return found[found != own] if own is not None else found


def fitting(space, history) -> np.ndarray:
    """Indices of the members of ``space`` consistent with every ``(guess, black, white)``."""
    subset = np.arange(space.size, dtype=np.int64)
    for guess, black, white in history:
        subset = narrow(space, subset, guess, black, white)
    return subset


def enumerable(game) -> bool:
    """Whether a bot that lists every secret can play ``game``: any code game, small phrase games."""
    return game.kind != "phrases" or game.size <= MAX_PHRASES


class NoConsistentSecret(RuntimeError):
    """The answers of the history fit no secret of the game."""


class ConsistentBot(Bot):
    """A bot that tracks the consistent set of an enumerated space and picks a guess from it.

    Subclasses implement :meth:`choose`.  Consistent sets and guesses are memoised by history, so
    playing every secret of a game walks one decision tree (the same history always gets the same
    guess).
    """

    games = staticmethod(enumerable)
    history_only = True  # its guesses are memoised by history, the same whoever asks first

    def setup(self, game) -> None:
        self.game = game
        self.space = space_for(game)
        self._sets: dict[tuple, np.ndarray] = {(): np.arange(self.space.size, dtype=np.int64)}
        self._guesses: dict[tuple, str] = {}
        # numba compiles (or loads from the cache) the grading kernel at its first call: make that
        # call here, in setup's allowance, not in the first guess's
        self.space.answers(self.space.text(0), self._sets[()][:1])

    def consistent(self, history: Sequence[Turn]) -> np.ndarray:
        """Indices (``int64[k]``, ascending) of the secrets consistent with ``history``."""
        key = _key(history)
        found = self._sets.get(key)
        if found is None:
            found = self._sets[key] = narrow(self.space, self.consistent(key[:-1]), *key[-1])
        return found

    def guess(self, history: Sequence[Turn]) -> Guess:
        key = _key(history)
        subset = self.consistent(key)
        if not len(subset):
            raise NoConsistentSecret("the answers so far fit no secret of the game")
        found = self._guesses.get(key)
        if found is None:
            found = self._guesses[key] = self.choose(key, subset)
        return Guess(found, remaining=len(subset))

    def choose(self, history: tuple, subset: np.ndarray) -> str:
        """The guess for ``history`` whose consistent set is ``subset`` (never empty)."""
        raise NotImplementedError


def _key(history: Sequence[Turn]) -> tuple:
    return tuple((str(t[0]), int(t[1]), int(t[2])) for t in history)
