"""A tournament: several bots on the same secrets, with the same budgets and confinement.

Each bot is one run (:func:`hbs.arena.runs.execute`) with a replay file of its own in the replay
folder (``--resume`` goes on with each), recorded on the scoreboard; at the end the standings of
that secret set are the board's.  A bot that cannot be found, loaded, built or set up (an error or
a timeout), or declines the game, is reported as skipped with its reason; the others play.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from hbs.contract import catalog, sanitize
from hbs.arena import runs as runner
from hbs.core.record import GameRecord
from hbs.errors import HbsError, InputError, UnsupportedGame
from hbs.core.games import Game
from hbs.arena.request import Request, build_game, build_secrets
from hbs.arena.slots import Slots

if TYPE_CHECKING:
    from hbs.board.scoreboard import Standing


@dataclass
class Entry:
    """One bot of a tournament: its run, or why it was skipped."""

    bot: str
    outcome: runner.RunOutcome | None = None
    skipped: str | None = None

    def as_dict(self) -> dict:
        out: dict = {"bot": self.bot, "skipped": self.skipped}
        if self.outcome is not None:
            out["summary"] = self.outcome.summary.as_dict()
        return out


def declaring(game: Game, bots_dirs: Sequence[str], mechanism: str) -> list[str]:
    """Every bot that declares it plays ``game`` (``--all``), listed confined."""
    return [row.name for row in catalog.list_bots(bots_dirs, mechanism, [game]) if game.kind in row.games]


def play(bots: Sequence[str], base: Request, options: runner.RunOptions, replays: str | None,
         on_record: Callable[[GameRecord], None] | None = None,
         on_start: Callable[[str, int, int], None] | None = None) -> list[Entry]:
    """Play every bot of ``bots`` on the secrets of ``base``; an interrupt stops them all.

    The runs share one schedule: they start together and share ``options.workers`` slots (on a
    cluster, its :meth:`~hbs.arena.ray_cluster.RayCluster.capacity` runners; see
    :class:`hbs.arena.slots.Slots`), the earlier bot first, so that a bot's setup and first games
    fill the slots the bot before it no longer needs.  Each run's games, replays and record are the
    same as when the bots play one after another.
    """
    if len(set(bots)) != len(bots):
        raise InputError("a bot is named twice")
    if not bots:
        raise InputError("no bot to play")
    build_secrets(base, build_game(base))  # the user's input: checked once, before any bot plays
    folder = Path(replays) if replays else None
    if folder is not None:
        if folder.exists() and not folder.is_dir():
            raise InputError("--replays must be a folder for a tournament", folder)
        folder.mkdir(parents=True, exist_ok=True)
    lock = threading.Lock()  # the callbacks see one run at a time

    def one(bot: str, how: runner.RunOptions) -> Entry:
        spec = replace(base, bot=bot)
        mine = replace(how, replays=str(folder / f"{bot}.jsonl") if folder else None)

        def started(done: int, todo: int) -> None:
            if on_start is not None:
                with lock:
                    on_start(bot, done, todo)

        def played(record: GameRecord) -> None:
            if on_record is not None:
                with lock:
                    on_record(record)

        try:
            return Entry(bot, runner.execute(spec, mine, played, started))
        except UnsupportedGame as exc:
            return Entry(bot, skipped=f"declines the game: {exc}")
        except InputError as exc:
            if exc.path is not None and mine.replays and Path(exc.path) == Path(mine.replays):
                raise  # the user's replay file (exists without --resume, or belongs elsewhere)
            return Entry(bot, skipped=sanitize.clean(exc, sanitize.ERROR))
        except HbsError as exc:  # its setup failed or overran: the bot's fault, not the tournament's
            return Entry(bot, skipped=sanitize.clean(exc, sanitize.ERROR))

    if options.in_process or len(bots) == 1:
        entries = []
        for bot in bots:
            entries.append(one(bot, options))
            if entries[-1].outcome is not None and entries[-1].outcome.interrupted:
                break
        return entries
    shared = Slots(options.cluster.capacity() if options.cluster is not None else options.workers)
    found: list[Entry | BaseException | None] = [None] * len(bots)
    over = [threading.Event() for _ in bots]  # not Thread.join: an interrupted join may mark a live thread over

    def play_one(rank: int) -> None:
        try:
            found[rank] = one(bots[rank], replace(options, shared=shared, rank=rank))
        except BaseException as exc:  # noqa: BLE001 - raised in the caller's thread
            found[rank] = exc
            shared.cancel()
        finally:
            over[rank].set()

    for rank in range(len(bots)):
        threading.Thread(target=play_one, args=(rank,), daemon=True).start()
    try:
        for event in over:
            while not event.wait(0.2):
                pass
    except KeyboardInterrupt:
        shared.cancel()  # every run ends after the games in play, its finished games kept
        for event in over:
            event.wait()
    for item in found:
        if isinstance(item, BaseException):
            raise item
    return [e for e in found if isinstance(e, Entry)]


def record(entries: Sequence[Entry], names: Sequence[str], scoreboard_dir: str | Path) -> list["Standing"]:
    """Record every finished run on the scoreboard; the standings of the tournament's bots on its
    secret set, as ``hbs board`` ranks them (empty when no bot played)."""
    from hbs.board import scoreboard

    played = [e.outcome for e in entries if e.outcome is not None and not e.outcome.interrupted]
    for outcome in played:
        scoreboard.record_run(scoreboard_dir, outcome)
    if not played:
        return []
    key = (played[0].game, played[0].secret_set)
    for board in scoreboard.standings(scoreboard.load_runs(scoreboard_dir)):
        if (board[0].game, board[0].secrets) == key:
            return [s for s in board if s.bot in names]
    return []

