"""Replays: JSON Lines, one game a line, appended and flushed game by game.

A line holds at least ``bot, game, secret, status, guesses (guess, black, white), seconds``;
anyone can re-grade it with the rule (:func:`regrade`).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Iterator

from hbs.core.record import GameRecord, Step
from hbs.errors import InputError
from hbs.core.rule import grade
from hbs.core.status import Status

SYNC_SECONDS = 0.2  # a replay file is synced to disk at least this often

#: The replay format's version, written in every line (files of before it, without one, are read as 1).
VERSION = 1


def secret_set_hash(secrets: list[str]) -> str:
    """A short fingerprint of a set of secrets (in order)."""
    return hashlib.sha1("\n".join(secrets).encode()).hexdigest()[:16]


def private_folder(folder: str | Path) -> Path:
    """``folder`` made (readable by its owner alone) with a ``.gitignore`` of everything in it: kept
    replays hold the secrets, and a scoreboard folder is often committed."""
    folder = Path(folder)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        ignore = folder / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# replays hold the secrets: never committed (hbs keeps them here)\n*\n")
    except OSError as exc:
        raise InputError(f"cannot keep replays there: {exc.strerror}", folder) from None
    return folder


def to_json(record: GameRecord, secret_set: str | None = None) -> dict:
    """The replay line of ``record`` as a dict (with the fingerprint of its secret set)."""
    guesses = []
    for s in record.steps:
        item: dict = {"guess": s.guess, "black": s.black, "white": s.white, "seconds": round(s.seconds, 6)}
        if s.remaining is not None:
            item["remaining"] = s.remaining
        if s.phase is not None:
            item["phase"] = s.phase
        guesses.append(item)
    out = {
        "version": VERSION,
        "bot": record.bot,
        "game": record.game,
        "secret": record.secret,
        "status": record.status,
        "guesses": guesses,
        "seconds": round(record.seconds, 6),
    }
    if record.error:
        out["error"] = record.error
    if record.log:
        out["log"] = record.log
    if secret_set:
        out["set"] = secret_set
    return out


def from_json(data: dict) -> GameRecord:
    """A :class:`GameRecord` from a replay line's dict (any version up to :data:`VERSION`)."""
    if int(data.get("version", 1)) > VERSION:
        raise ValueError(f"replay format version {data['version']} is newer than this hbs reads ({VERSION})")
    steps = [
        Step(g["guess"], g["black"], g["white"], g.get("remaining"), g.get("phase"), g.get("seconds", 0.0))
        for g in data["guesses"]
    ]
    return GameRecord(
        data["bot"], data["game"], data["secret"], Status(data["status"]), steps, data.get("seconds", 0.0),
        data.get("error"), data.get("log"),
    )


class ReplayWriter:
    """Appends replay lines to a file, each game in one write as it ends, synced to disk at least
    every :data:`SYNC_SECONDS` and at the end.

    A line is written whole with a single ``write`` on a file opened for appending, so a run killed
    at any moment leaves at most a torn last line, which :func:`resume` trims; a killed process
    loses nothing it wrote (the kernel holds it), a machine that loses power at most the games of
    the last :data:`SYNC_SECONDS`.  (A sync a game cost 1.5 ms here: a cluster's driver receiving
    thousands of games a second would spend its time waiting on the disk.)
    """

    def __init__(self, path: str | Path, secret_set: str | None = None):
        self.path = Path(path)
        self.secret_set = secret_set
        self._fd: int | None = None  # opened at the first game: a run that plays none leaves no file
        self._synced = 0.0
        folder = self.path.parent
        if self.path.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
            raise InputError("cannot write replays there", path)

    def write(self, record: GameRecord) -> None:
        if self._fd is None:
            try:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            except OSError as exc:
                raise InputError(f"cannot write replays: {exc.strerror}", self.path) from None
        os.write(self._fd, (json.dumps(to_json(record, self.secret_set)) + "\n").encode())
        now = time.monotonic()
        if now - self._synced >= SYNC_SECONDS:
            os.fsync(self._fd)
            self._synced = now

    def close(self) -> None:
        if self._fd is not None:
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "ReplayWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read(path: str | Path) -> Iterator[GameRecord]:
    """The games of a replay file; a line that is not a replay raises :class:`InputError`."""
    if not Path(path).is_file():
        raise InputError("no such replay file", path)
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                yield from_json(json.loads(line))
            except (ValueError, KeyError, TypeError) as exc:
                raise InputError(f"not a replay line ({exc})", path, number) from None


def resume(path: str | Path, bot: str, game: str, secrets: list[str]) -> list[GameRecord]:
    """The games already in a replay file of the same bot, game and secret set.

    A torn last line (a run killed while writing) is cut off the file; any other line that is not a
    replay of this bot, game and secret set raises :class:`InputError` naming the line.
    """
    path = Path(path)
    if not path.exists():
        return []
    if not path.is_file():
        raise InputError("not a replay file", path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path) from None
    if raw and not raw.endswith(b"\n"):
        raw = raw[: raw.rfind(b"\n") + 1]
        with open(path, "r+b") as fh:
            fh.truncate(len(raw))
    fingerprint = secret_set_hash(secrets)
    wanted = set(secrets)
    records = []
    for number, line in enumerate(raw.decode("utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            record = from_json(data)
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(f"not a replay line ({exc})", path, number) from None
        if record.bot != bot or record.game != game:
            raise InputError(f"belongs to bot {record.bot!r} on {record.game}, not {bot!r} on {game}", path, number)
        if data.get("set") != fingerprint or record.secret not in wanted:
            raise InputError("belongs to another set of secrets", path, number)
        records.append(record)
    return records


def rewrite(path: str | Path, records: list[GameRecord], secret_set: str | None = None) -> None:
    """Replace the file by ``records`` (atomically: a temporary file renamed over it)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(to_json(record, secret_set)) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def regrade(record: GameRecord) -> list[str]:
    """Problems found when re-grading ``record`` with the rule (empty when it is sound)."""
    problems = []
    for number, step in enumerate(record.steps, start=1):
        if grade(step.guess, record.secret) != (step.black, step.white):
            problems.append(f"guess {number} {step.guess!r}: recorded {step.black},{step.white}")
    solved = bool(record.steps) and record.steps[-1].guess == record.secret
    if solved != (record.status == Status.SOLVED):
        problems.append(f"status {record.status!r} but last guess {'is' if solved else 'is not'} the secret")
    return problems
