"""The oracle: the only holder of a secret during a game."""

from __future__ import annotations

from typing import NamedTuple

from hbs.core.rule import grade


class Answer(NamedTuple):
    """What the oracle says of one guess."""

    black: int
    white: int
    solved: bool


class Oracle:
    """Holds one secret, answers guesses with (black, white) and counts them."""

    __slots__ = ("_secret", "guesses")

    def __init__(self, secret: str):
        self._secret = secret
        self.guesses = 0

    def ask(self, guess: str) -> Answer:
        """Grade ``guess``; the game is won only on an exact match."""
        self.guesses += 1
        black, white = grade(guess, self._secret)
        return Answer(black, white, guess == self._secret)
