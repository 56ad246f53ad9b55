"""What runs on a Ray node: a runner, the actor that drives one confined bot worker game by game as
the local arena drives it, and what the driver tells it to load (:class:`Assignment`)."""

from __future__ import annotations

import shutil
import socket
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import hbs

from hbs.arena.contestant import BotRef, Contestant, play_all
from hbs.contract.bot import BotSource
from hbs.core.record import GameRecord
from hbs.errors import HbsError, InputError, UnsupportedGame
from hbs.sandbox import confinement, trees
from hbs.sandbox.workers import Budgets


@dataclass(frozen=True)
class Assignment:
    """What a runner needs to load a bot: where it is in the job's files, its options and seed, the
    game, the budgets, the confinement and the word list (in the job's files)."""

    source: dict
    options: dict
    seed: int | None
    game_name: str
    game_data: dict
    budgets: Budgets
    mechanism: str
    words: str | None


class Runner:
    """On a node: one confined bot worker, driven game by game as the local arena drives it.

    Made by the driver as a Ray actor (its working folder is the job's stage) and kept for the
    whole command: the runs of a tournament load their bots into the runners the others let go.
    """

    def __init__(self):
        self.node = socket.gethostname()
        self.game_name, self.contestant, self.problem, self.scratch = "", None, None, None

    def load(self, job: Assignment) -> dict:
        """Start the bot's worker and set the bot up (the last bot's worker is stopped first).

        Returns what went wrong, if anything, as plain data, with this node's name and hbs version:
        the mechanism missing on this node, a bot that is not there, a failed build or setup.
        """
        self.close()
        self.game_name, self.problem = job.game_name, None
        out = {"node": self.node, "version": hbs.__version__}
        try:
            self.contestant = self._contestant(job)
            self.contestant.ready()
        except HbsError as exc:
            self.problem = (type(exc).__name__, str(exc))
            return {**out, "problem": self.problem}
        return out

    def _contestant(self, job: Assignment) -> Contestant:
        from hbs.sandbox.build import build

        source, mechanism, words = job.source, job.mechanism, job.words
        if mechanism != "none" and mechanism not in confinement.available():
            raise InputError(f"node {self.node}: cannot confine bots with {mechanism} there")
        path = Path(source["path"]).resolve() if source["path"] else None
        if path is not None and not path.exists():
            raise InputError(f"node {self.node}: bot {source['name']!r} is missing from the job's files")
        found = BotSource(source["name"], str(path) if path else None, source["entry_point"])
        if found.is_program:  # its build writes into its folder: a private copy for each runner
            self.scratch = tempfile.mkdtemp(prefix="hbs-runner-")
            copy = Path(self.scratch) / path.name
            shutil.copytree(path, copy, symlinks=True)
            found = replace(found, path=str(copy))
        plan = confinement.plan(mechanism, found, Path(words).resolve() if words else None)
        if found.is_program:
            build(found.name, found.manifest(), plan, job.budgets.setup_timeout, job.budgets.memory_mb)
        return Contestant(BotRef(found, job.options, job.seed), job.game_data, job.budgets, plan, threads=1)

    def play(self, secrets: list[str]) -> list[GameRecord]:
        if self.problem or self.contestant is None:
            raise HbsError(self.problem[1] if self.problem else "a runner asked to play before a bot was loaded")
        return play_all(self.contestant, self.game_name, secrets)

    def close(self) -> None:
        """Stop the bot's worker (it removes its task cgroup) and its build's copy."""
        if self.contestant is not None:
            self.contestant.reset()
            self.contestant = None
        if self.scratch:
            trees.remove(self.scratch)
            self.scratch = None


def check_loaded(answer: dict) -> None:
    """A runner's answer to ``load`` as the error the local arena would raise."""
    if answer.get("version") != hbs.__version__:
        raise InputError(f"node {answer.get('node')} has hbs {answer.get('version')}, the driver {hbs.__version__}: "
                         "install the same hbs on every node")
    if "problem" in answer:
        kind, message = answer["problem"]
        error = {"UnsupportedGame": UnsupportedGame, "InputError": InputError,
                 "BotLoadError": InputError}.get(kind, HbsError)
        raise error(message)
