"""The codebreaker for a person holding a real board: the bot guesses, the person answers."""

from __future__ import annotations

import itertools
from typing import Callable

import numpy as np

from hbs.people.answer_input import parse_answer
from hbs.contract.guesses import read_guess
from hbs.errors import HbsError
from hbs.contract.bot import Bot, Turn
from hbs.core.games import CodeGame, PhraseGame
from hbs.strategies.codes.consistent import fitting
from hbs.strategies.codes.space import space_for


class NoCodeFits(Exception):
    """The answers so far fit no secret; ``conflict`` names the answers (1-based) that clash."""

    def __init__(self, conflict: tuple[int, ...] | None):
        self.conflict = conflict
        super().__init__(conflict)


class SolveSession:
    """The state of one game against a person: the bot's guesses, the answers, what still fits."""

    def __init__(self, bot: Bot, game: CodeGame | PhraseGame):
        self.bot, self.game = bot, game
        self.history: list[Turn] = []
        self.space = space_for(game) if isinstance(game, CodeGame) else None
        self.guess = ""
        self.said_remaining: int | None = None

    def next_guess(self) -> str:
        """Ask the bot for its guess after the answers so far."""
        guess, problem = read_guess(self.bot.guess(tuple(self.history)))
        if problem:
            raise HbsError(f"bot {self.bot.name!r} {problem}")
        self.guess, self.said_remaining = guess.text, guess.remaining
        return self.guess

    def remaining(self) -> int | None:
        """Secrets that fit every answer (code games), else what the bot says."""
        if self.space is None:
            return self.said_remaining
        return len(self._fitting(self.history))

    def record(self, black: int, white: int) -> bool:
        """Take the answer to the current guess; True when it says solved.  Raises :class:`NoCodeFits`."""
        turn = Turn(self.guess, black, white)
        if isinstance(self.game, CodeGame) and black == self.game.pegs:
            return True
        self.history.append(turn)
        if self.space is not None and not len(self._fitting(self.history)):
            conflict = self._conflict()
            self.history.pop()
            raise NoCodeFits(conflict)
        return False

    def undo(self) -> bool:
        """Forget the last answer; False when there is none."""
        if not self.history:
            return False
        self.history.pop()
        return True

    def _fitting(self, history: list[Turn]) -> np.ndarray:
        return fitting(self.space, history)

    def _conflict(self) -> tuple[int, ...] | None:
        """The fewest answers (up to three) that together fit no code."""
        for size in (1, 2, 3):
            for combo in itertools.combinations(range(len(self.history)), size):
                if not len(self._fitting([self.history[i] for i in combo])):
                    return tuple(i + 1 for i in combo)
        return None


def describe_conflict(conflict: tuple[int, ...] | None, total: int) -> str:
    if conflict is None:
        return f"no code fits all {total} answers"
    if len(conflict) == 1:
        return f"no code fits answer {conflict[0]} at all"
    names = ", ".join(map(str, conflict[:-1])) + f" and {conflict[-1]}"
    return f"no code fits: answers {names} contradict each other"


def run(
    session: SolveSession, plain: bool, read: Callable[[str], str], say: Callable[[str], None],
    warn: Callable[[str], None],
) -> int:
    """Play until solved; 0 when solved, 1 when the answers fit no code or input ends.

    ``say`` prints guesses and progress, ``warn`` problems (stderr in plain mode).
    """
    game = session.game
    ask = "" if plain else "answer (black white; undo; quit): "
    while True:
        try:
            guess = session.next_guess()
        except Exception as exc:  # a bot that finds nothing left to guess
            warn(f"the bot cannot go on: {exc}")
            return 1
        if plain:
            say(guess)
        else:
            left = session.remaining()
            count = f"   ({left} {'codes' if isinstance(game, CodeGame) else 'phrases'} possible)" if left is not None else ""
            say(f"guess {len(session.history) + 1}: {guess}{count}")
        while True:
            try:
                text = read(ask).strip()
            except EOFError:
                warn("hbs: input ended before the code was found")
                return 1
            if not text:
                continue
            if text.lower() in ("quit", "exit"):
                return 1
            if text.lower() == "undo":
                if not session.undo():
                    warn("nothing to undo")
                    continue
                break
            if text.lower() in ("solved", "win", "="):
                say(f"solved in {len(session.history) + 1} guesses")
                return 0
            try:
                black, white = parse_answer(text, game, guess)
            except ValueError as exc:
                warn(str(exc))
                continue
            try:
                if session.record(black, white):
                    say(f"solved in {len(session.history) + 1} guesses")
                    return 0
            except NoCodeFits as exc:
                warn(describe_conflict(exc.conflict, len(session.history) + 1))
                return 1
            break
