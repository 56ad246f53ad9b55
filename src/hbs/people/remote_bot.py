"""A bot played through its confined worker, for the commands that drive a bot step by step
(``hbs tree``, ``hbs solve``, ``hbs play``): the command's process never imports the bot."""

from __future__ import annotations

from typing import Sequence

from hbs.arena.contestant import BotRef, Contestant, bot_error, read_reply
from hbs.contract.bot import Bot, Guess, Turn
from hbs.sandbox.confinement import Plan
from hbs.errors import HbsError
from hbs.core.games import CodeGame, PhraseGame
from hbs.sandbox.workers import Budgets, WorkerFailure, cores


class RemoteBot(Bot):
    """Stands for the bot ``ref`` in this process; every call goes to its worker."""

    def __init__(self, ref: BotRef, plan: Plan, budgets: Budgets | None = None):
        self.ref, self.plan, self.budgets = ref, plan, budgets or Budgets()
        self.name = ref.name
        self.contestant: Contestant | None = None

    def setup(self, game: CodeGame | PhraseGame) -> None:
        """Start the worker and set the bot up there (raises ``UnsupportedGame`` when it declines)."""
        self.close()
        self.contestant = Contestant(self.ref, game.to_payload(), self.budgets, self.plan, cores())
        self.contestant.ready()

    def guess(self, history: Sequence[Turn]) -> Guess:
        if self.contestant is None or self.contestant.worker is None:
            raise HbsError(f"bot {self.name!r} is not running (its worker failed earlier)")
        timeout = self.budgets.guess_timeout + self.budgets.game_timeout
        try:
            reply = self.contestant.worker.request(
                {"op": "guess", "history": [[t[0], t[1], t[2]] for t in history]}, timeout)
        except WorkerFailure as exc:
            self.contestant.reset()
            raise HbsError(f"bot {self.name!r}: {exc}") from None
        if "error" in reply or "unsupported" in reply:
            raise HbsError(f"bot {self.name!r}: {bot_error(reply)}")
        guess, problem = read_reply(reply)
        if problem:
            raise HbsError(f"bot {self.name!r}: {problem}")
        return guess

    def close(self) -> None:
        """Stop the worker (and everything in its sandbox)."""
        if self.contestant is not None:
            self.contestant.reset()
            self.contestant = None
