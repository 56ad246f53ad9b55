"""A tournament: several bots on the same secrets, with the same budgets and confinement.

Each bot is one run (:func:`hbs.arena.runs.execute`) with a replay file of its own in the replay
folder (``--resume`` goes on with each), recorded on the scoreboard; at the end the standings of
that secret set are the board's.  A bot that cannot be found, loaded, built or set up (an error or
a timeout), or declines the game, is reported as skipped with its reason; the others play.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from hbs.contract import catalog, sanitize
from hbs.arena import runs as runner
from hbs.core.record import GameRecord
from hbs.errors import HbsError, InputError, UnsupportedGame
from hbs.core.games import Game
from hbs.arena.request import Request, build_game, build_secrets

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
    """Play every bot of ``bots`` in turn on the secrets of ``base``; stops after an interrupted run."""
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
    entries = []
    for bot in bots:
        spec = replace(base, bot=bot)
        mine = replace(options, replays=str(folder / f"{bot}.jsonl") if folder else None)
        try:
            outcome = runner.execute(spec, mine, on_record,
                                     (lambda done, todo, bot=bot: on_start(bot, done, todo)) if on_start else None)
        except UnsupportedGame as exc:
            entries.append(Entry(bot, skipped=f"declines the game: {exc}"))
            continue
        except InputError as exc:
            if exc.path is not None and mine.replays and Path(exc.path) == Path(mine.replays):
                raise  # the user's replay file (exists without --resume, or belongs elsewhere)
            entries.append(Entry(bot, skipped=sanitize.clean(exc, sanitize.ERROR)))
            continue
        except HbsError as exc:  # its setup failed or overran: the bot's fault, not the tournament's
            entries.append(Entry(bot, skipped=sanitize.clean(exc, sanitize.ERROR)))
            continue
        entries.append(Entry(bot, outcome))
        if outcome.interrupted:
            break
    return entries


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

