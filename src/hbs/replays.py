"""Replays: JSON Lines, one game a line, appended and flushed game by game.

A line holds at least ``bot, game, secret, status, guesses (guess, black, white), seconds``;
anyone can re-grade it with the rule (:func:`regrade`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Iterator

from .arena import GameRecord, Step
from .errors import InputError
from .feedback import grade


def to_json(record: GameRecord) -> dict:
    """The replay line of ``record`` as a dict."""
    guesses = []
    for s in record.steps:
        item: dict = {"guess": s.guess, "black": s.black, "white": s.white}
        if s.remaining is not None:
            item["remaining"] = s.remaining
        if s.phase is not None:
            item["phase"] = s.phase
        guesses.append(item)
    out = {
        "bot": record.bot,
        "game": record.game,
        "secret": record.secret,
        "status": record.status,
        "guesses": guesses,
        "seconds": round(record.seconds, 6),
    }
    if record.error:
        out["error"] = record.error
    return out


def from_json(data: dict) -> GameRecord:
    """A :class:`GameRecord` from a replay line's dict."""
    steps = [
        Step(g["guess"], g["black"], g["white"], g.get("remaining"), g.get("phase")) for g in data["guesses"]
    ]
    return GameRecord(
        data["bot"], data["game"], data["secret"], data["status"], steps, data.get("seconds", 0.0), data.get("error")
    )


class ReplayWriter:
    """Appends replay lines to a file, flushing (and syncing) each game as it ends."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self._file: IO[str] = open(self.path, "a", encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write replays: {exc.strerror}", path) from None

    def write(self, record: GameRecord) -> None:
        self._file.write(json.dumps(to_json(record)) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> "ReplayWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read(path: str | Path) -> Iterator[GameRecord]:
    """The games of a replay file; a line that is not a replay raises :class:`InputError`."""
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                yield from_json(json.loads(line))
            except (ValueError, KeyError, TypeError) as exc:
                raise InputError(f"not a replay line ({exc})", path, number) from None


def regrade(record: GameRecord) -> list[str]:
    """Problems found when re-grading ``record`` with the rule (empty when it is sound)."""
    problems = []
    for number, step in enumerate(record.steps, start=1):
        if grade(step.guess, record.secret) != (step.black, step.white):
            problems.append(f"guess {number} {step.guess!r}: recorded {step.black},{step.white}")
    solved = bool(record.steps) and record.steps[-1].guess == record.secret
    if solved != (record.status == "solved"):
        problems.append(f"status {record.status!r} but last guess {'is' if solved else 'is not'} the secret")
    return problems
