"""A game for a person: guess a random secret; the bots show afterwards how they would have done."""

from __future__ import annotations

import random
from typing import Callable

from hbs.contract.guesses import guess_problem
from hbs.arena.play import play
from hbs.contract.bot import sources
from hbs.core.status import Status
from hbs.errors import HbsError, UnsupportedGame
from hbs.core.games import CodeGame, PhraseGame
from hbs.core.oracle import Oracle
from hbs.strategies.codes.consistent import fitting
from hbs.strategies.codes.space import space_for


def random_secret(game: CodeGame | PhraseGame, seed: int | None) -> str:
    """A secret drawn uniformly from the game (``seed`` None: a fresh one each time)."""
    rng = random.Random(seed)
    if isinstance(game, PhraseGame):
        return " ".join(rng.choice(game.words) for _ in range(game.n_words))
    return game.format(game.space[rng.randrange(game.size)])


class PlaySession:
    """One game of a person against the oracle."""

    def __init__(self, game: CodeGame | PhraseGame, secret: str):
        self.game, self.secret = game, secret
        self.oracle = Oracle(secret)
        self.history: list[tuple[str, int, int]] = []

    def problem(self, guess: str) -> str | None:
        if isinstance(self.game, CodeGame):
            return self.game.problem(guess)
        return guess_problem(guess)

    def ask(self, guess: str) -> bool:
        answer = self.oracle.ask(guess)
        self.history.append((guess, answer.black, answer.white))
        return answer.solved

    def hint(self) -> int | None:
        """How many secrets still fit every answer (None when the game is too large to count)."""
        try:
            space = space_for(self.game)
        except UnsupportedGame:
            return None
        return len(fitting(space, self.history))


def bots_on(spec, mechanism: str, game: CodeGame | PhraseGame, secret: str,
            max_guesses: int = 100) -> list[tuple[str, str]]:
    """How each bot does on ``secret``, each in its confined worker: ``(name, "N guesses" or status)``.

    Bots that decline the game or cannot be loaded are left out.
    """
    from dataclasses import replace

    from hbs.arena.request import remote_bot

    out = []
    for name in sources(spec.bots_dirs):
        bot = remote_bot(replace(spec, bot=name), mechanism, game)
        try:
            bot.setup(game)
        except HbsError:  # declines the game (UnsupportedGame), or cannot be loaded
            bot.close()
            continue
        try:
            record = play(bot, game.name, secret, max_guesses)
        finally:
            bot.close()
        out.append((name, f"{record.guesses} guesses" if record.status == Status.SOLVED else record.status))
    return out


def run(session: PlaySession, read: Callable[[str], str], say: Callable[[str], None],
        warn: Callable[[str], None], bots: Callable[[], list[tuple[str, str]]] | None = None) -> int:
    """Read guesses until solved; 0 when solved, 1 when the person gives up or input ends."""
    what = f"{session.game.pegs} symbols of {session.game.symbols}" if isinstance(session.game, CodeGame) \
        else f"{session.game.n_words} words of the list, joined by single spaces"
    say(f"A secret of {what} is waiting. Type a guess, `hint`, or `quit`.")
    while True:
        try:
            text = read(f"guess {len(session.history) + 1}: ").strip()
        except EOFError:
            warn("hbs: input ended; the secret was " + session.secret)
            return 1
        if not text:
            continue
        if text.lower() in ("quit", "exit"):
            say("the secret was " + session.secret)
            return 1
        if text.lower() == "hint":
            left = session.hint()
            warn("too many secrets to count in this game" if left is None else f"{left} secrets still fit")
            continue
        problem = session.problem(text)
        if problem:
            warn(problem)
            continue
        solved = session.ask(text)
        for k, (guess, black, white) in enumerate(session.history, start=1):
            say(f"  {k:2d}. {guess}   black {black} white {white}")
        if solved:
            say(f"solved in {len(session.history)} guesses!")
            for name, result in (bots() if bots else []):
                say(f"  {name}: {result}")
            return 0
