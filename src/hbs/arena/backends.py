"""The ways a run's games are played, behind one interface the runner calls.

A :class:`Backend` gets the bot (as the user named it), the game and the secrets still to play,
and plays them: set up first (a bot that declines or fails stops the run), then ``started()``,
then every game, ``on_record`` as each ends; records come back in secret order.  Results are the
same, guess for guess, on every backend.

- :class:`Local`: confined worker processes on this machine (the default);
- :class:`Cluster`: runners on a Ray cluster, each driving a confined worker on its node
  (:mod:`hbs.arena.ray_cluster`);
- :class:`InProcess`: the bot imported into this process (``--in-process``: trusted bots only,
  for debugging; no budget but the guesses).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from hbs.arena.local import run_isolated
from hbs.arena.slots import Slots
from hbs.arena.play import run
from hbs.core.record import GameRecord
from hbs.arena.request import Request, build_bot, prepare_bot, words_file
from hbs.core.games import Game
from hbs.sandbox import caches
from hbs.sandbox.workers import Budgets

if TYPE_CHECKING:
    from hbs.arena.ray_cluster import RayCluster

OnRecord = Callable[[GameRecord], None]


class Backend(Protocol):
    name: str  # how the run was confined, as the scoreboard records it

    def play(self, spec: Request, game: Game, secrets: Sequence[str], budgets: Budgets, on_record: OnRecord,
             started: Callable[[], None]) -> list[GameRecord]: ...


@dataclass
class Local:
    """Confined workers on this machine, ``workers`` games at a time."""

    confinement: str
    workers: int = 1
    shared: Slots | None = None  # a tournament's workers, shared by its runs (see hbs.arena.slots)
    rank: int = 0  # this run's place in the tournament: the lower, the sooner it gets a slot

    @property
    def name(self) -> str:
        return self.confinement

    def play(self, spec, game, secrets, budgets, on_record, started):
        ref, plan = prepare_bot(spec, self.confinement, game, budgets)
        started()
        try:
            return run_isolated(ref, game.name, game.to_payload(), secrets, budgets, self.workers, on_record,
                                plan, self.shared, self.rank)
        finally:
            if plan.cache:
                caches.trim(plan.cache, spec.bot)


@dataclass
class Cluster:
    """Runners on a connected Ray cluster; the bot is built on each node."""

    cluster: "RayCluster"
    confinement: str
    shared: Slots | None = None  # a tournament's runners, shared by its runs (see hbs.arena.ray_schedule)
    rank: int = 0

    @property
    def name(self) -> str:
        return self.confinement

    def play(self, spec, game, secrets, budgets, on_record, started):
        ref, _ = prepare_bot(spec, self.confinement, game, budgets, build_here=False)
        started()
        return self.cluster.play(ref, game.name, game.to_payload(), secrets, budgets, self.confinement,
                                 words_file(spec, game), on_record, self.shared, self.rank)


@dataclass
class InProcess:
    """The bot in this process: trusted code only."""

    name: str = "in-process"

    def play(self, spec, game, secrets, budgets, on_record, started):
        bot = build_bot(spec)
        bot.setup(game)
        started()
        return run(bot, game.name, secrets, budgets.max_guesses, on_record)
