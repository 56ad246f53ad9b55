"""A whole run as a user asks for it: resume, replays, the backend that plays it, the summary.

The process that runs this owns the oracle and the secrets; in worker mode it never imports the
bot's code (bot names, files and options are checked inside the worker).
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from hbs.arena.summary import Summary, summarize
from hbs.core.record import GameRecord
from hbs.arena import replays
from hbs.arena.backends import Backend, Cluster, InProcess, Local
from hbs.arena.request import Request, build_game, build_secrets
from hbs.arena.slots import Slots
from hbs.contract.bot import locate
from hbs.errors import InputError
from hbs.sandbox.workers import Budgets

if TYPE_CHECKING:
    from hbs.arena.ray_cluster import RayCluster
    from hbs.core.games import Game


@dataclass(kw_only=True)
class RunOptions:
    """How to run: budgets, parallel workers or in-process or a cluster, confinement, replays and resume."""

    budgets: Budgets = field(default_factory=Budgets)
    workers: int = 1
    in_process: bool = False
    confinement: str = "bwrap"  # bwrap | landlock | none (see hbs.sandbox.confinement.choose)
    replays: str | None = None  # the replay file the user named
    replay_folder: str | None = None  # else where the run keeps its replay (see kept_replays); None: nowhere
    resume: bool = False
    cluster: "RayCluster | None" = None  # play on this Ray cluster (connected) instead of local workers
    shared: Slots | None = None  # workers (or Ray runners) shared with other runs of a tournament, and
    rank: int = 0  # this run's place among them (hbs.arena.slots)

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise InputError(f"--workers must be at least 1, got {self.workers}")

    def backend(self) -> Backend:
        """Where the games are played: in this process, on the cluster, or in local workers."""
        if self.in_process:
            return InProcess()
        if self.cluster is not None:
            return Cluster(self.cluster, self.confinement, self.shared, self.rank)
        return Local(self.confinement, self.workers, self.shared, self.rank)


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


@dataclass(frozen=True)
class ReplayFiles:
    """Where a run's replay ends (``final``) and where its games are appended as they end
    (``working``: the same file for one the user named; ``NAME.partial`` beside a kept one, so that
    an interrupted re-run never leaves a replay that disagrees with the scoreboard's record)."""

    final: Path
    working: Path


def kept_replays(folder: str | Path, bot: str, game: str, secret_set: str) -> ReplayFiles:
    """The replay a run keeps by default: ``FOLDER/<bot>__<game>__<secret set>.jsonl``, the name of
    its scoreboard record, in a private folder that git never takes (it holds the secrets)."""
    folder = replays.private_folder(folder)
    final = folder / f"{bot}__{game}__{secret_set}.jsonl"
    return ReplayFiles(final, final.with_name(final.name + ".partial"))


@dataclass(frozen=True)
class Prepared:
    """What a run starts from: the game, its secrets, its replay files (None: kept nowhere), the
    games already played (``--resume``) and the secrets still to play."""

    game: Game
    secrets: list[str]
    files: ReplayFiles | None
    done: list[GameRecord]
    todo: list[str]


def prepare(spec: Request, options: RunOptions) -> Prepared:
    """The run's game, secrets and replay files, and what ``--resume`` leaves to play."""
    game = build_game(spec)
    secrets = build_secrets(spec, game)
    fingerprint = replays.secret_set_hash(secrets)
    done: list[GameRecord] = []
    files = None
    if options.replays:
        files = ReplayFiles(Path(options.replays), Path(options.replays))
        if not options.resume and files.final.exists() and files.final.stat().st_size:
            raise InputError("the replay file exists: add --resume to go on with it, or give another file", files.final)
    elif options.replay_folder:
        files = kept_replays(options.replay_folder, spec.bot, game.name, fingerprint)
        if not options.resume:
            files.working.unlink(missing_ok=True)  # a fresh run: an interrupted one's games are not this one's
        elif not files.working.exists() and files.final.is_file():
            shutil.copyfile(files.final, files.working)  # resume a finished run: nothing left to play
    elif options.resume:
        raise InputError("--resume needs the run's replays: not with --no-replays")
    if options.resume and files is not None:
        done = replays.resume(files.working, spec.bot, game.name, secrets)
    seen = {r.secret for r in done}
    return Prepared(game, secrets, files, done, [s for s in secrets if s not in seen])


def execute(spec: Request, options: RunOptions, on_record: Callable[[GameRecord], None] | None = None,
            on_start: Callable[[int, int], None] | None = None) -> RunOutcome:
    """Play the run; ``on_start(done, todo)`` before the games, ``on_record`` after each game."""
    ready = prepare(spec, options)
    game, secrets, files, done, todo = ready.game, ready.secrets, ready.files, ready.done, ready.todo
    fingerprint = replays.secret_set_hash(secrets)
    writer = replays.ReplayWriter(files.working, fingerprint) if files else None
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
    if files and not interrupted:
        replays.rewrite(files.final, records, fingerprint)
        if files.working != files.final:
            files.working.unlink(missing_ok=True)
    summary = summarize(spec.bot, game.name, records, seconds)
    return RunOutcome(
        bot=spec.bot, bot_hash=locate(spec.bot, spec.bots_dirs).fingerprint()[:16], game=game.name,
        secrets=secrets, secret_set=fingerprint, records=records, summary=summary, budgets=options.budgets,
        played=len(new), confinement=backend.name,
        replays=str(files.final if not interrupted else files.working) if files else None, interrupted=interrupted,
    )
