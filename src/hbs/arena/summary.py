"""Totals of a run: games, solved, guesses, their histogram, failures by status, seconds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from hbs.core.record import GameRecord
from hbs.core.status import Status


@dataclass
class Summary:
    """Totals of a run."""

    bot: str
    game: str
    games: int
    solved: int
    total_guesses: int
    mean_guesses: float
    min_guesses: int
    max_guesses: int
    histogram: dict[int, int]
    failures: dict[str, int]
    seconds: float

    def as_dict(self) -> dict:
        out = dict(vars(self))
        out["histogram"] = {str(k): v for k, v in sorted(self.histogram.items())}
        return out


def summarize(bot: str, game: str, records: Sequence[GameRecord], seconds: float) -> Summary:
    """Summarize ``records``: guess counts over all games, the histogram over the solved ones."""
    counts = [r.guesses for r in records]
    solved = [r.guesses for r in records if r.status == Status.SOLVED]
    histogram: dict[int, int] = {}
    for n in solved:
        histogram[n] = histogram.get(n, 0) + 1
    failures: dict[str, int] = {}
    for r in records:
        if r.status != Status.SOLVED:
            failures[r.status] = failures.get(r.status, 0) + 1
    return Summary(
        bot=bot,
        game=game,
        games=len(records),
        solved=len(solved),
        total_guesses=sum(counts),
        mean_guesses=sum(counts) / len(counts) if counts else 0.0,
        min_guesses=min(counts, default=0),
        max_guesses=max(counts, default=0),
        histogram=histogram,
        failures=failures,
        seconds=seconds,
    )
