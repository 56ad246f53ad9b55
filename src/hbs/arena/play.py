"""Playing a bot in this process (``--in-process``, and the commands that drive a bot step by step):
one game under a query budget, and a run over a set of secrets."""

from __future__ import annotations

import time
from typing import Callable, Iterable

from hbs.contract import sanitize
from hbs.contract.bot import Bot, Turn
from hbs.contract.guesses import last_lines, read_guess
from hbs.core.oracle import Oracle
from hbs.core.record import GameRecord, take
from hbs.core.status import Status


def play(bot: Bot, game_name: str, secret: str, max_guesses: int) -> GameRecord:
    """Play one game of ``bot`` against ``secret`` in this process, within ``max_guesses``."""
    oracle = Oracle(secret)
    record = GameRecord(bot.name, game_name, secret, Status.EXHAUSTED)
    history: list[Turn] = []
    start = time.perf_counter()
    while oracle.guesses < max_guesses:
        tick = time.perf_counter()
        try:
            value = bot.guess(tuple(history))
        except Exception as exc:
            record.status = Status.ERROR
            record.error = sanitize.clean(last_lines(exc), sanitize.ERROR, lines=True)
            break
        guess, problem = read_guess(value)
        if take(record, oracle, guess, problem, time.perf_counter() - tick):
            break
        step = record.steps[-1]
        history.append(Turn(step.guess, step.black, step.white))
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
