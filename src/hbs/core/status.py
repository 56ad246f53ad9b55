"""How a game ended: one enumeration, set by the runner (never by the bot), used everywhere."""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """A game's ending.  A ``StrEnum``: it compares equal to, and is written as, its plain string."""

    SOLVED = "solved"  # the bot guessed the secret
    EXHAUSTED = "exhausted"  # the query budget was spent
    TIMEOUT = "timeout"  # a guess overran its time (and the game's bank)
    ERROR = "error"  # the bot raised, its process died, or it ran out of memory
    INVALID = "invalid"  # the bot returned something that is not a guess

    @property
    def failure(self) -> bool:
        return self is not Status.SOLVED
