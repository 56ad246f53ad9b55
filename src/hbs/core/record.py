"""The record of one game: every guess with its answer and how the game ended (what a replay keeps)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hbs.core.status import Status

if TYPE_CHECKING:
    from hbs.contract.bot import Guess
    from hbs.core.oracle import Oracle


@dataclass
class Step:
    """One guess of a game as the runner saw it."""

    guess: str
    black: int
    white: int
    remaining: int | None = None
    phase: str | None = None
    seconds: float = 0.0


@dataclass
class GameRecord:
    """The result of one game: every guess with its answer, and how the game ended."""

    bot: str
    game: str
    secret: str
    status: Status
    steps: list[Step] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None
    log: str | None = None  # the last lines the bot wrote to stderr, kept when the game failed

    @property
    def guesses(self) -> int:
        return len(self.steps)


def take(record: GameRecord, oracle: Oracle, guess: Guess | None, problem: str | None, spent: float) -> bool:
    """Apply one guess to the game: invalid ends it, else the oracle answers and the step is kept.

    Returns True when the game is over (invalid or solved).
    """
    if guess is None:
        record.status, record.error = Status.INVALID, str(problem)
        return True
    answer = oracle.ask(guess.text)
    record.steps.append(Step(guess.text, answer.black, answer.white, guess.remaining, guess.phase, spent))
    if answer.solved:
        record.status = Status.SOLVED
    return answer.solved
