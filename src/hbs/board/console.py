"""What a person sees: summary tables, game traces and progress bars (rich), never library logic."""

from __future__ import annotations

import math
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from hbs.core.record import GameRecord
from hbs.arena.summary import Summary
from hbs.board.tables import Column, Grid
from hbs.core.status import Status

if TYPE_CHECKING:
    from hbs.board.scoreboard import Standing


def count_text(n: int | None) -> str:
    """A count of remaining secrets; log10 when it is huge."""
    if n is None:
        return "-"
    if n >= 10**6:
        return f"10^{math.log10(n):.1f}"
    return str(n)


def trace(record: GameRecord, number: int, total: int) -> str:
    """One game as the seeds print it: guess number, phase, answer, secrets remaining, guess, seconds."""
    lines = [f"game {number}/{total}  secret {record.secret!r}"]
    for k, step in enumerate(record.steps, start=1):
        phase = f"{step.phase:<4} " if step.phase else ""
        answer = "SOLVED" if (record.status == Status.SOLVED and k == len(record.steps)) else f"{step.black:2d} {step.white:2d}"
        lines.append(
            f"{k:3d}: {phase}{answer:>6}  remain {count_text(step.remaining):>8}  {step.seconds:8.4f}s  {step.guess}"
        )
    end = f"  -> {record.status} in {record.guesses} guesses, {record.seconds:.4f}s"
    if record.error:
        end += "\n     " + record.error.replace("\n", "\n     ")
    if record.log:
        end += "\n     the bot's stderr:\n       " + record.log.replace("\n", "\n       ")
    lines.append(end)
    return "\n".join(lines)


def summary_table(summary: Summary) -> Grid:
    """The end-of-run table."""
    grid = Grid(f"{summary.bot} on {summary.game}", [Column("", keep=9), Column("", right=True, keep=9)],
                header=False)
    grid.add("games", summary.games)
    grid.add("solved", summary.solved)
    grid.add("total guesses", summary.total_guesses)
    grid.add("mean guesses", f"{summary.mean_guesses:.4f}")
    grid.add("min / max", f"{summary.min_guesses} / {summary.max_guesses}")
    grid.add("histogram", "  ".join(f"{k}:{v}" for k, v in sorted(summary.histogram.items())) or "-")
    grid.add("failures", "  ".join(f"{k}:{v}" for k, v in sorted(summary.failures.items())) or "none")
    grid.add("seconds", f"{summary.seconds:.3f} ({summary.seconds / max(summary.games, 1):.4f} a game)")
    return grid


STANDINGS = [Column("rank", right=True, keep=9), Column("bot", keep=9), Column("solved", right=True, keep=7), Column("total", right=True, keep=9),
             Column("mean ± 95% CI", right=True, keep=8), Column("median", right=True, keep=1),
             Column("max", right=True, keep=5), Column("failures", keep=6), Column("s/game", right=True, keep=2),
             Column("W/L/T vs leader", right=True, keep=4), Column("p vs leader", right=True, keep=3),
             Column("confinement", keep=8)]


def standings_table(board: "list[Standing]") -> Grid:
    """One board of ``hbs board``: the bots that played one secret set, the leader first."""
    from hbs.board.scoreboard import p_text, played

    first = board[0]
    grid = Grid(f"{first.game} — {first.games} secrets (set {first.secrets})", STANDINGS)
    for s in board:
        failures = ", ".join(f"{k} {v}" for k, v in sorted(s.failures.items())) or "none"
        grid.add(s.rank, s.bot, s.solved, s.total_guesses, f"{s.mean_guesses:.4f} ± {s.ci95:.4f}", f"{s.median:g}",
                 s.max_guesses, failures, f"{s.seconds_per_game:.4f}", "/".join(map(str, s.vs_leader)),
                 p_text(s.p_vs_leader), played(s.confinement))
    return grid


class RunProgress:
    """A progress bar on stderr with the running mean; silent when stderr is not a terminal."""

    def __init__(self, total: int, enabled: bool, done: int = 0):
        self.total = total
        self.done = done
        self._bots: dict[str, tuple[int, int]] = {}  # games and guesses of this run, by bot
        self._progress = None
        if enabled and sys.stderr.isatty():
            self._progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("mean {task.fields[mean]}"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._task = self._progress.add_task("games", total=total, completed=done, mean="-")

    def advance_by(self, games: int, label: str) -> None:
        """Count ``games`` played before (a resumed run) and say what plays now."""
        self.done += games
        if self._progress is not None:
            self._progress.update(self._task, advance=games, description=label)

    def advance(self, record: GameRecord) -> None:
        self.done += 1
        games, guesses = self._bots.get(record.bot, (0, 0))
        self._bots[record.bot] = (games + 1, guesses + record.guesses)
        if self._progress is not None:
            self._progress.update(self._task, advance=1, mean=self.means())

    def means(self) -> str:
        """The running mean of this run's games (of each bot's, in a tournament)."""
        if len(self._bots) == 1:
            games, guesses = next(iter(self._bots.values()))
            return f"{guesses / games:.3f}"
        return "  ".join(f"{bot} {guesses / games:.3f}" for bot, (games, guesses) in self._bots.items())

    @contextmanager
    def shown(self) -> Iterator["RunProgress"]:
        if self._progress is None:
            yield self
            return
        with self._progress:
            yield self
