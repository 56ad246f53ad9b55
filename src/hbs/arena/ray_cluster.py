"""Playing a run's games on a Ray cluster (``--backend ray [--address ADDR]``).

The driver (the ``hbs`` process) keeps the replay file and the scoreboard as a local run does.  It
hands the games out in small batches to *runners* (:mod:`hbs.arena.ray_runner`): Ray actors, one a
CPU, each on some node of the cluster.  A runner drives one confined bot worker exactly as the local
arena does (:func:`hbs.arena.contestant.play_all`): it holds the secrets of the games it plays, the
bot never sees one.  The bot's files and the word list reach the nodes through Ray's runtime
environment (a working folder staged for the job), not through a shared file system; hbs itself
(and Ray) must be installed on every node, the same version as the driver.  How the games are dealt
out, shared with a tournament's other runs and played again when a node is lost:
:mod:`hbs.arena.ray_schedule`.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from hbs.arena import ray_auth
from hbs.arena.contestant import BotRef
from hbs.arena.ray_runner import Assignment, Runner
from hbs.arena.ray_schedule import Pool, Schedule, stop
from hbs.arena.slots import Slots
from hbs.contract.bot import BotSource
from hbs.core.record import GameRecord
from hbs.errors import InputError
from hbs.sandbox.workers import Budgets

LOCAL_OBJECT_STORE = 256 << 20  # a Ray instance started by hbs on this machine holds no large objects
MISSING = "the Ray backend needs Ray: pip install 'hbs[ray]'"


def import_ray():
    """The ``ray`` module, or the one line that says how to install it."""
    try:
        import ray
    except ImportError:
        raise InputError(MISSING) from None
    return ray


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
        self.pool: Pool | None = None  # the runners no run holds, kept from one run to the next

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
        self.pool = Pool(self.ray.remote(num_cpus=1, max_restarts=0)(Runner).remote)
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self.pool is not None:
                stop(self.ray, self.pool.drain(), unplaced=set())
            self.ray.shutdown()
        finally:
            sys.stdout = self._stdout
            if self.stage is not None:
                shutil.rmtree(self.stage.folder, ignore_errors=True)

    def capacity(self) -> int:
        """How many runners play at once: ``workers``, else one a CPU of the cluster."""
        return self.workers or max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def play(self, ref: BotRef, game_name: str, game_data: dict, secrets: Sequence[str], budgets: Budgets,
             mechanism: str, words: str | Path | None, on_record: Callable[[GameRecord], None] | None = None,
             shared: Slots | None = None, rank: int = 0) -> list[GameRecord]:
        """Play every secret on the cluster; records in secret order, ``on_record`` as each arrives.

        With ``shared`` (a tournament's slots, :meth:`capacity` of them) the run's runners take
        turns with the other runs' (:mod:`hbs.arena.ray_schedule`); else it has them all.
        """
        if not secrets:
            return []
        job = Assignment(Stage.source(ref.source), ref.options, ref.seed, game_name, game_data, budgets, mechanism,
                         Stage.words(words))
        size = min(self.capacity(), len(secrets))
        return Schedule(self.ray, job, ref.name, secrets, on_record, self.pool, shared or Slots(size), rank,
                        size).play()


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
