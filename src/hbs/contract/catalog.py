"""Listing bots: each Python bot is loaded in a confined worker of its own, never in the listing
process; a program bot is described by its ``bot.toml`` (reading it runs nothing).

A module-level statement of a submitted bot file therefore runs under the same confinement as its
games, and one bot cannot change what the list says of another.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from hbs.sandbox import confinement
from hbs.contract import sanitize
from hbs.arena.contestant import bot_error
from hbs.contract.bot import BotSource, locate, sources
from hbs.core.games import KINDS
from hbs.errors import BotLoadError, InputError
from hbs.core.games import Game
from hbs.sandbox.workers import Worker, WorkerFailure, cores

LIST_MEMORY_MB = 2048
LIST_TIMEOUT = 60.0


@dataclass
class Listing:
    """One bot as ``hbs bots`` shows it."""

    name: str
    origin: str
    summary: str = ""
    error: str | None = None
    games: list[str] = field(default_factory=list)  # the kinds it declares (of the games asked about)
    untyped: list[str] = field(default_factory=list)  # options without a type
    program: bool = False
    seeded: bool = False  # takes a seed (programs always get one)

    def as_dict(self) -> dict:
        return dict(vars(self))


def list_bots(extra: Sequence[str] = (), mechanism: str = "bwrap", games: Sequence[Game] = ()) -> list[Listing]:
    """Every bot: the first line of its docstring, the kinds of ``games`` it plays, or why it cannot load."""
    return describe_all(list(sources(extra).values()), mechanism, games)


def describe(name: str, extra: Sequence[str], mechanism: str, games: Sequence[Game] = ()) -> Listing:
    """One bot, found by name (an unknown name raises :class:`BotLoadError`)."""
    return describe_all([locate(name, extra)], mechanism, games)[0]


def describe_all(found: list[BotSource], mechanism: str, games: Sequence[Game]) -> list[Listing]:
    payloads = [g.to_payload() for g in games]
    rows: dict[str, Listing] = {}
    for source in found:
        try:
            source.check()
        except InputError as exc:
            rows[source.name] = Listing(source.name, source.origin, error=sanitize.clean(exc, sanitize.ERROR),
                                        program=source.is_program)
    rows.update({s.name: _program(s, games) for s in found if s.is_program and s.name not in rows})
    python = [s for s in found if not s.is_program and s.name not in rows]
    width = max(2, cores())
    for start in range(0, len(python), width):
        batch = python[start:start + width]
        workers = [Worker.start(confinement.plan(mechanism, source, memory_mb=LIST_MEMORY_MB)) for source in batch]
        try:
            for source, worker in zip(batch, workers):
                worker.send({"op": "describe", "source": source.as_dict(), "games": payloads})
            for source, worker in zip(batch, workers):
                rows[source.name] = _answer(source, worker)
        finally:
            for worker in workers:
                worker.kill()
    return [rows[s.name] for s in found]


def _program(source: BotSource, games: Sequence[Game]) -> Listing:
    try:
        manifest = source.manifest()
    except BotLoadError as exc:
        return Listing(source.name, source.origin, error=str(exc), program=True)
    return Listing(source.name, source.origin, sanitize.clean(manifest.description, sanitize.SUMMARY),
                   games=[g.kind for g in games if g.kind in manifest.games], program=True, seeded=True)


def _answer(source: BotSource, worker: Worker) -> Listing:
    """The worker's reply to ``describe``, checked: the bot wrote it (its module's code runs first, and
    may write to the protocol's pipe), so only the types the runner asked for are taken."""
    try:
        reply = worker.receive(LIST_TIMEOUT)
    except WorkerFailure as exc:
        return Listing(source.name, source.origin, error=f"loading it failed: {exc}")
    if "summary" not in reply:
        return Listing(source.name, source.origin, error=bot_error(reply))
    games = [g for g in _strings(reply.get("games")) if g in KINDS]
    untyped = [sanitize.clean(u, sanitize.SUMMARY) for u in _strings(reply.get("untyped"))[:20]]
    error = bot_error(reply) if reply.get("error") else None
    return Listing(source.name, source.origin, sanitize.clean(reply.get("summary") or "", sanitize.SUMMARY),
                   error, games, untyped, seeded=reply.get("seeded") is True)


def _strings(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
