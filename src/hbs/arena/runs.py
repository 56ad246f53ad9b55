"""A whole run as a user asks for it: resume, replays, the backend that plays it, the summary.

The process that runs this owns the oracle and the secrets; in worker mode it never imports the
bot's code (bot names, files and options are checked inside the worker).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from hbs.arena.summary import Summary, summarize
from hbs.core.record import GameRecord
from hbs.arena import replays
from hbs.arena.backends import Backend, Cluster, InProcess, Local
from hbs.arena.request import Request, build_game, build_secrets
from hbs.contract.bot import locate
from hbs.errors import InputError
from hbs.sandbox.workers import Budgets

if TYPE_CHECKING:
    from hbs.arena.ray_cluster import RayCluster


@dataclass(kw_only=True)
class RunOptions:
    """How to run: budgets, parallel workers or in-process or a cluster, confinement, replays and resume."""

    budgets: Budgets = field(default_factory=Budgets)
    workers: int = 1
    in_process: bool = False
    confinement: str = "bwrap"  # bwrap | landlock | none (see hbs.sandbox.confinement.choose)
    replays: str | None = None
    resume: bool = False
    cluster: "RayCluster | None" = None  # play on this Ray cluster (connected) instead of local workers

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise InputError(f"--workers must be at least 1, got {self.workers}")

    def backend(self) -> Backend:
        """Where the games are played: in this process, on the cluster, or in local workers."""
        if self.in_process:
            return InProcess()
        if self.cluster is not None:
            return Cluster(self.cluster, self.confinement)
        return Local(self.confinement, self.workers)


@dataclass(kw_only=True)
class RunOutcome:
    """A run's result, with what the scoreboard records of it."""

    bot: str
    bot_hash: str  # a fingerprint of the bot's files
    game: str
    secrets: list[str]
    secret_set: str  # the fingerprint of ``secrets``
    records: list[GameRecord]  # every game of the replay file and this run, in secret order
    summary: Summary
    budgets: Budgets
    played: int  # games played by this run
    confinement: str = "none"  # how the bot was played: bwrap, landlock, none or in-process
    replays: str | None = None
    interrupted: bool = False


def prepare(spec: Request, options: RunOptions):
    """The game and the secrets still to play (after ``--resume``), and the games already played."""
    game = build_game(spec)
    secrets = build_secrets(spec, game)
    done: list[GameRecord] = []
    if options.resume and not options.replays:
        raise InputError("--resume needs --replays FILE")
    if options.replays:
        path = Path(options.replays)
        if options.resume:
            done = replays.resume(path, spec.bot, game.name, secrets)
        elif path.exists() and path.stat().st_size:
            raise InputError("the replay file exists: add --resume to go on with it, or give another file", path)
    seen = {r.secret for r in done}
    return game, secrets, done, [s for s in secrets if s not in seen]


def execute(spec: Request, options: RunOptions, on_record: Callable[[GameRecord], None] | None = None,
            on_start: Callable[[int, int], None] | None = None) -> RunOutcome:
    """Play the run; ``on_start(done, todo)`` before the games, ``on_record`` after each game."""
    game, secrets, done, todo = prepare(spec, options)
    fingerprint = replays.secret_set_hash(secrets)
    writer = replays.ReplayWriter(options.replays, fingerprint) if options.replays else None
    new: list[GameRecord] = []

    def record(r: GameRecord) -> None:
        new.append(r)
        if writer:
            writer.write(r)
        if on_record:
            on_record(r)

    interrupted = False
    backend = options.backend()
    start = time.perf_counter()
    try:
        backend.play(spec, game, todo, options.budgets, record,
                     lambda: on_start(len(done), len(todo)) if on_start else None)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if writer:
            writer.close()
    seconds = time.perf_counter() - start
    order = {s: i for i, s in enumerate(secrets)}
    records = sorted(done + new, key=lambda r: order[r.secret])
    if options.replays and not interrupted:
        replays.rewrite(options.replays, records, fingerprint)
    summary = summarize(spec.bot, game.name, records, seconds)
    return RunOutcome(
        bot=spec.bot, bot_hash=locate(spec.bot, spec.bots_dirs).fingerprint()[:16], game=game.name,
        secrets=secrets, secret_set=fingerprint, records=records, summary=summary, budgets=options.budgets,
        played=len(new), confinement=backend.name,
        replays=options.replays, interrupted=interrupted,
    )
