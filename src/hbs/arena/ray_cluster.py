"""Playing a run's games on a Ray cluster (``--backend ray [--address ADDR]``).

The driver (the ``hbs`` process) keeps the replay file and the scoreboard as a local run does.  It
hands the games out in small batches to *runners*: Ray actors, one a CPU, each on some node of the
cluster.  A runner drives one confined bot worker exactly as the local arena does
(:func:`hbs.arena.contestant.play_all`): it holds the secrets of the games it plays, the bot never sees
one.  The bot's files and the word list reach the nodes through Ray's runtime environment (a
working folder staged for the job), not through a shared file system; hbs itself (and Ray) must be
installed on every node, the same version as the driver.

Faults: a runner lost with its node (or killed) loses its batch, which is played again by another
runner; each game is recorded once, when its result reaches the driver.  A game whose runner is lost
:data:`TRIES` times is recorded as an ``error``.  Games are deterministic, so a game played again
gives the same guesses.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import sys
import tempfile
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Sequence

import hbs

from hbs.sandbox import confinement, trees
from hbs.arena.contestant import BotRef, Contestant, play_all
from hbs.core.record import GameRecord
from hbs.contract.bot import BotSource
from hbs.arena import ray_auth
from hbs.errors import HbsError, InputError, UnsupportedGame
from hbs.sandbox.workers import Budgets
from hbs.core.status import Status

TRIES = 3  # a game whose runner is lost this many times is recorded as an error
BATCH_SECONDS = 0.5  # the work a batch should hold, once the games' pace is known
MAX_BATCH = 64
LOCAL_OBJECT_STORE = 256 << 20  # a Ray instance started by hbs on this machine holds no large objects
MISSING = "the Ray backend needs Ray: pip install 'hbs[ray]'"


def import_ray():
    """The ``ray`` module, or the one line that says how to install it."""
    try:
        import ray
    except ImportError:
        raise InputError(MISSING) from None
    return ray


def lost(ray) -> tuple[type[BaseException], ...]:
    """Ray's exceptions for a runner gone with its node, or killed."""
    return ray.exceptions.RayActorError, ray.exceptions.ObjectLostError, ray.exceptions.NodeDiedError


def check_address(address: str) -> None:
    """An unreachable ``--address`` is the user's input: one line, at once (Ray itself retries for long)."""
    if address == "auto":
        return
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise InputError(f"--address must be HOST:PORT (the head's GCS address) or auto, got {address!r}")
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), timeout=5).close()
    except OSError as exc:
        raise InputError(f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}") from None


@dataclass(frozen=True)
class Stage:
    """The job's working folder: every bot's files under ``bots/``, the word list under ``words/``."""

    folder: Path

    @classmethod
    def make(cls, sources: Sequence[BotSource], words: str | Path | None) -> "Stage":
        """The stage of ``sources`` (a bot that fails its check is left out: its run says why, as
        locally) and ``words``; removed again if it cannot be made."""
        folder = Path(tempfile.mkdtemp(prefix="hbs-ray-stage-"))
        try:
            cls._fill(folder, sources, words)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return cls(folder)

    @staticmethod
    def _fill(folder: Path, sources: Sequence[BotSource], words: str | Path | None) -> None:
        (folder / "bots").mkdir()
        for source in sources:
            try:
                source.check()  # no link leads out, nothing but files and folders: copies keep links as links
            except InputError:
                continue
            for path in source.files():
                target = folder / "bots" / path.name
                if path.is_dir():
                    shutil.copytree(path, target, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", ".*"))
                else:
                    shutil.copy2(path, target, follow_symlinks=False)
        if words:
            (folder / "words").mkdir()
            shutil.copy2(words, folder / "words" / Path(words).name)

    @staticmethod
    def source(source: BotSource) -> dict:
        """Where the bot is in the stage, relative to the working folder on a node."""
        path = f"bots/{Path(source.path).name}" if source.path else None
        return {"name": source.name, "path": path, "entry_point": source.entry_point}

    @staticmethod
    def words(words: str | Path | None) -> str | None:
        return f"words/{Path(words).name}" if words else None


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
    whole command: a tournament loads each bot in turn into the same runners.
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


def _raise(answer: dict) -> None:
    """A runner's answer to ``load`` as the error the local arena would raise."""
    if answer.get("version") != hbs.__version__:
        raise InputError(f"node {answer.get('node')} has hbs {answer.get('version')}, the driver {hbs.__version__}: "
                         "install the same hbs on every node")
    if "problem" in answer:
        kind, message = answer["problem"]
        error = {"UnsupportedGame": UnsupportedGame, "InputError": InputError,
                 "BotLoadError": InputError}.get(kind, HbsError)
        raise error(message)


class RayCluster:
    """A connection to a Ray cluster (or a Ray instance hbs starts on this machine) for one command.

    ``sources`` and ``words`` are every bot and the word list the command will play: they are staged
    into the job's runtime environment when it connects.  ``workers``: runners a run uses (default:
    one a CPU of the cluster).
    """

    def __init__(self, address: str | None, sources: Sequence[BotSource], words: str | Path | None,
                 workers: int | None = None):
        if address:
            check_address(address)
            ray_auth.authenticate(address)  # before Ray loads: it reads the mode once
        self.ray = import_ray()
        self.address, self.sources, self.words, self.workers = address, list(sources), words, workers
        self.stage: Stage | None = None
        self.pool: list = []  # runners kept from one run to the next (a tournament's bots)
        self._runner = None

    def __enter__(self) -> "RayCluster":
        # Ray prints some messages of its own (a raylet gone) on sys.stdout: they go to stderr, so
        # that stdout keeps only what hbs prints (--json)
        self._stdout, sys.stdout = sys.stdout, sys.stderr
        self.stage = Stage.make(self.sources, self.words)
        kwargs = dict(runtime_env={"working_dir": str(self.stage.folder)}, include_dashboard=False,
                      log_to_driver=False, logging_level=logging.ERROR, configure_logging=True)
        if not self.address:
            kwargs.update(num_cpus=os.cpu_count() or 1, object_store_memory=LOCAL_OBJECT_STORE)
        try:
            self.ray.init(address=self.address or "local", **kwargs)  # local: a new instance, not the last `ray start`
        except (ConnectionError, RuntimeError, ValueError) as exc:
            sys.stdout = self._stdout
            shutil.rmtree(self.stage.folder, ignore_errors=True)
            where = f"the Ray cluster at {self.address}" if self.address else "a local Ray instance"
            raise InputError(f"cannot connect to {where}: {str(exc).splitlines()[0]}") from None
        self._runner = self.ray.remote(num_cpus=1, max_restarts=0)(Runner)
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self._stop(self.pool, unplaced=set())
            self.ray.shutdown()
        finally:
            sys.stdout = self._stdout
            if self.stage is not None:
                shutil.rmtree(self.stage.folder, ignore_errors=True)

    def cpus(self) -> int:
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def play(self, ref: BotRef, game_name: str, game_data: dict, secrets: Sequence[str], budgets: Budgets,
             mechanism: str, words: str | Path | None,
             on_record: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
        """Play every secret on the cluster; records in secret order, ``on_record`` as each arrives.

        Every runner loads the bot at once; the first to answer is waited for before any game, so
        that a bot that declines the game or fails its setup stops the run at once, as locally.
        """
        if not secrets:
            return []
        ray = self.ray
        job = Assignment(Stage.source(ref.source), ref.options, ref.seed, game_name, game_data, budgets, mechanism,
                         Stage.words(words))
        size = min(self.workers or self.cpus(), len(secrets))
        while len(self.pool) < size:
            self.pool.append(self._runner.remote())
        used, self.pool = self.pool[:size], self.pool[size:]
        loading = {runner.load.remote(job): runner for runner in used}

        def fresh():
            runner = self._runner.remote()
            return runner.load.remote(job), runner

        schedule = _Schedule(ray, ref.name, game_name, secrets, on_record)
        try:
            first = next(iter(loading))
            try:
                _raise(ray.get(first))
            except ray.exceptions.RuntimeEnvSetupError as exc:
                raise InputError(f"the job's files could not be set up on a node: {str(exc).splitlines()[-1]}") from None
            except lost(ray):
                raise HbsError("the first runner was lost while it loaded the bot") from None
            runner = loading.pop(first)
            schedule.starting.update(loading)
            records = schedule.run([runner], fresh)
        except BaseException:
            self._stop([*used, *schedule.made, *schedule.starting.values()], set(schedule.starting.values()))
            raise
        self._stop(schedule.lost, set())
        # the runners kept for the next bot: those set up first, then those still starting (a
        # runner the cluster cannot place yet must not be the one the next run waits for)
        self.pool = schedule.idle + self.pool + list(schedule.starting.values())
        return records

    def _stop(self, runners: list, unplaced: set) -> None:
        """Stop ``runners``: those that were placed close their bot worker first (it cleans its task
        cgroup); then each is killed."""
        ray = self.ray
        closing = [r.close.remote() for r in runners if r not in unplaced]
        if closing:
            ray.wait(closing, num_returns=len(closing), timeout=10)
        for runner in runners:
            try:
                ray.kill(runner, no_restart=True)
            except Exception:  # noqa: BLE001 - a runner already gone
                pass


class _Schedule:
    """The driver's loop: batches out to idle runners, results in, lost batches played again."""

    def __init__(self, ray, bot: str, game: str, secrets: Sequence[str], on_record):
        self.ray, self.bot, self.game, self.secrets, self.on_record = ray, bot, game, secrets, on_record
        self.todo = deque(range(len(secrets)))
        self.records: list[GameRecord | None] = [None] * len(secrets)
        self.tries = [0] * len(secrets)
        self.seconds, self.games = 0.0, 0
        self.starting: dict = {}  # a runner's load() result -> the runner, until it answers
        self.idle: list = []  # runners set up and waiting for a batch
        self.lost: list = []  # runners gone (their node, or killed)
        self.made: list = []  # replacements made during the run

    def batch(self, runners: int) -> list[int]:
        """The next batch: one game until the pace is known, then about :data:`BATCH_SECONDS` of work,
        but never more than half a fair share of what is left (so that the runners end together)."""
        size = 1
        if self.games:
            size = int(BATCH_SECONDS / max(self.seconds / self.games, 1e-4))
        share = len(self.todo) // (2 * max(runners, 1))
        size = max(1, min(size, MAX_BATCH, share))
        return [self.todo.popleft() for _ in range(size)]

    def keep(self, index: int, record: GameRecord) -> None:
        if self.records[index] is None:
            self.records[index] = record
            self.seconds += record.seconds
            self.games += 1
            if self.on_record is not None:
                self.on_record(record)

    def run(self, ready: list, fresh: Callable[[], tuple]) -> list[GameRecord]:
        """Play every game on the runners ``ready`` and those still in :attr:`starting`, which join
        as they answer; ``fresh()`` makes a replacement for a lost runner (its load() result and it).

        A replacement that cannot be placed (the lost node took its CPU with it) waits, for a node
        to come back, while the others play on.
        """
        ray = self.ray
        self.idle = list(ready)
        busy: dict = {}  # a batch's result -> (runner, batch)
        while self.todo or busy:
            while self.idle and self.todo:
                runner = self.idle.pop()
                batch = self.batch(len(self.idle) + len(busy) + 1)
                busy[runner.play.remote([self.secrets[i] for i in batch])] = (runner, batch)
            done, _ = ray.wait([*busy, *self.starting], num_returns=1)
            for ref in done:
                if ref in self.starting:
                    runner = self.starting.pop(ref)
                    try:
                        _raise(ray.get(ref))
                    except lost(ray):
                        self._replace(runner, fresh)
                        continue
                    self.idle.append(runner)
                    continue
                runner, batch = busy.pop(ref)
                try:
                    records = ray.get(ref)
                except lost(ray):
                    self._lost(batch)
                    self._replace(runner, fresh)
                    continue
                except ray.exceptions.RayTaskError as exc:
                    raise HbsError(f"a runner failed: {str(exc).strip().splitlines()[-1]}") from None
                for index, record in zip(batch, records):
                    self.keep(index, record)
                self.idle.append(runner)
        return [r for r in self.records if r is not None]

    def _replace(self, runner, fresh: Callable[[], tuple]) -> None:
        self.lost.append(runner)
        loaded, made = fresh()
        self.made.append(made)
        self.starting[loaded] = made

    def _lost(self, batch: list[int]) -> None:
        """A batch whose runner died: played again (first in line), or an error after :data:`TRIES`."""
        again = []
        for index in batch:
            self.tries[index] += 1
            if self.tries[index] >= TRIES:
                record = GameRecord(self.bot, self.game, self.secrets[index], Status.ERROR,
                                    error=f"its runner was lost {TRIES} times (node gone or runner killed)")
                self.keep(index, record)
            else:
                again.append(index)
        self.todo.extendleft(reversed(again))


BACKENDS = ("local", "ray")


def backend(name: str, address: str | None, sources: Sequence[BotSource], words: str | Path | None,
            workers: int | None):
    """The cluster a command plays on (a context manager): ``None`` for the local backend."""
    from contextlib import nullcontext

    if name not in BACKENDS:
        raise InputError(f"--backend must be one of {', '.join(BACKENDS)}, got {name!r}")
    if name == "local":
        if address:
            raise InputError("--address is for --backend ray")
        return nullcontext(None)
    return RayCluster(address, sources, words, workers)
