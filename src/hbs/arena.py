"""Playing bots against secrets: one game under a query budget, and a run over a set of secrets."""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from .bot import Bot, Turn
from .oracle import Oracle

STATUSES = ("solved", "exhausted", "timeout", "error", "invalid")
MAX_GUESS_LENGTH = 10_000


@dataclass
class Step:
    """One guess of a game as the runner saw it."""

    guess: str
    black: int
    white: int
    remaining: int | None = None
    phase: str | None = None
    seconds: float = 0.0


@dataclass
class GameRecord:
    """The result of one game: every guess with its answer, and how the game ended."""

    bot: str
    game: str
    secret: str
    status: str
    steps: list[Step] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None

    @property
    def guesses(self) -> int:
        return len(self.steps)


def guess_problem(guess: object) -> str | None:
    """Why ``guess`` is not a guess (``invalid`` status), or ``None`` when it is one."""
    if not isinstance(guess, str):
        return f"returned {type(guess).__name__}, not str"
    if not guess:
        return "returned an empty string"
    if len(guess) > MAX_GUESS_LENGTH:
        return f"returned {len(guess):,} characters (at most {MAX_GUESS_LENGTH:,})"
    bad = next((ch for ch in guess if not " " <= ch <= "~"), None)
    if bad is not None:
        return f"returned a character outside printable ASCII: {bad!r}"
    return None


def play(bot: Bot, game_name: str, secret: str, max_guesses: int) -> GameRecord:
    """Play one game of ``bot`` against ``secret`` in this process, within ``max_guesses``."""
    oracle = Oracle(secret)
    record = GameRecord(bot.name, game_name, secret, "exhausted")
    history: list[Turn] = []
    start = time.perf_counter()
    while oracle.guesses < max_guesses:
        bot.remaining = bot.phase = None
        tick = time.perf_counter()
        try:
            guess = bot.guess(tuple(history))
        except Exception as exc:
            record.status = "error"
            record.error = _last_lines(exc)
            break
        problem = guess_problem(guess)
        if problem:
            record.status = "invalid"
            record.error = problem
            break
        answer = oracle.ask(guess)
        record.steps.append(
            Step(guess, answer.black, answer.white, bot.remaining, bot.phase, time.perf_counter() - tick)
        )
        if answer.solved:
            record.status = "solved"
            break
        history.append(Turn(guess, answer.black, answer.white))
    record.seconds = time.perf_counter() - start
    return record


def run(
    bot: Bot,
    game_name: str,
    secrets: Iterable[str],
    max_guesses: int = 100,
    on_record: Callable[[GameRecord], None] | None = None,
) -> list[GameRecord]:
    """Play ``bot`` against every secret in order; ``on_record`` sees each game as it ends."""
    records = []
    for secret in secrets:
        record = play(bot, game_name, secret, max_guesses)
        records.append(record)
        if on_record is not None:
            on_record(record)
    return records


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
    solved = [r.guesses for r in records if r.status == "solved"]
    histogram: dict[int, int] = {}
    for n in solved:
        histogram[n] = histogram.get(n, 0) + 1
    failures: dict[str, int] = {}
    for r in records:
        if r.status != "solved":
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


def _last_lines(exc: BaseException, keep: int = 6) -> str:
    lines = "".join(traceback.format_exception(exc)).rstrip().splitlines()
    return "\n".join(lines[-keep:])
