"""Listing bots: each bot is loaded in a confined worker of its own, never in the listing process.

A module-level statement of a submitted bot file therefore runs under the same confinement as its
games, and one bot cannot change what the list says of another.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from . import confinement
from .bot import sources
from .isolation import Worker, WorkerFailure, cores

LIST_MEMORY_MB = 2048
LIST_TIMEOUT = 60.0


@dataclass
class Listing:
    """One bot as ``hbs bots`` shows it."""

    name: str
    origin: str
    summary: str = ""
    error: str | None = None

    def as_dict(self) -> dict:
        return dict(vars(self))


def list_bots(extra: Sequence[str] = (), mechanism: str = "bwrap") -> list[Listing]:
    """Every bot with the first line of its docstring or why it cannot be loaded, a few at a time."""
    found = list(sources(extra).values())
    rows: list[Listing] = []
    width = max(2, cores())
    for start in range(0, len(found), width):
        batch = found[start:start + width]
        workers = [Worker.start(confinement.plan(mechanism, source)) for source in batch]
        try:
            for source, worker in zip(batch, workers):
                worker.send({"op": "describe", "source": source.as_dict(), "memory_mb": LIST_MEMORY_MB,
                             "confine": worker.confinement()})
            for source, worker in zip(batch, workers):
                rows.append(_answer(source.name, source.origin, worker))
        finally:
            for worker in workers:
                worker.kill()
    return rows


def _answer(name: str, origin: str, worker: Worker) -> Listing:
    try:
        reply = worker.receive(LIST_TIMEOUT)
    except WorkerFailure as exc:
        return Listing(name, origin, error=f"loading it failed: {exc}")
    if "summary" not in reply:
        return Listing(name, origin, error=str(reply.get("error")))
    return Listing(name, origin, str(reply.get("summary") or ""), reply.get("error"))
