"""Bots in worker processes: budgets, a memory cap, deadlines, and an optional bubblewrap sandbox.

The process that owns the oracle sends a worker only the game's rules and the history of the game
in play; the secret, the secrets file and the oracle never leave it.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError

MAX_REPLY = 1 << 20  # bytes: a guess over 10,000 characters is invalid anyway


@dataclass(frozen=True)
class Budgets:
    """What a bot may spend: guesses a game, seconds a guess plus a game's time bank, setup, memory."""

    max_guesses: int = 100
    guess_timeout: float = 10.0
    game_timeout: float = 30.0  # the bank: time beyond guess_timeout is drawn from it
    setup_timeout: float = 120.0
    memory_mb: int = 4096

    def as_dict(self) -> dict:
        return dict(vars(self))


class WorkerFailure(Exception):
    """The worker overran its time (``timeout``) or died or broke the protocol (``error``)."""

    def __init__(self, status: str, message: str):
        self.status = status
        super().__init__(message)


_spares: list["Worker"] = []


def cores() -> int:
    """The cores this process may run on (its CPU affinity, as a container or ``taskset`` sets it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def prestart(count: int = 1) -> None:
    """Start ``count`` workers now, while the rest of the command loads; the run's bots take them.

    Python, numpy and hbs load in the workers at the same time as in the runner, instead of after
    it.  A spare that no run takes is stopped at exit (and exits by itself at the end of its input).
    """
    while len(_spares) < count:
        _spares.append(Worker())


@atexit.register
def _drop_spares() -> None:
    while _spares:
        _spares.pop().kill()


def sandbox_command(paths: list[Path]) -> list[str]:
    """The bubblewrap prefix: no network, read-only views of the Python installation and ``paths``."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise InputError("--sandbox needs bubblewrap (bwrap): apt-get install bubblewrap")
    keep = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), Path(sys.executable).resolve().parent}
    keep |= {p.resolve() for p in paths if p.exists()}
    # the scratch /tmp first: the binds below go on top of it (a venv or checkout may live in /tmp)
    args = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--tmpfs", "/tmp",
            "--ro-bind", "/usr", "/usr"]
    for link in ("lib", "lib64", "bin"):
        target = Path("/") / link
        if target.is_symlink():
            args += ["--symlink", os.readlink(target), str(target)]
        elif target.exists():
            args += ["--ro-bind", str(target), str(target)]
    for path in sorted(keep):
        args += ["--ro-bind", str(path), str(path)]
    args += ["--proc", "/proc", "--dev", "/dev", "--chdir", "/tmp",
             "--setenv", "NUMBA_CACHE_DIR", "/tmp/numba-cache"]
    return args


class Worker:
    """One worker process and the line protocol of :mod:`hbs.worker`.

    The worker caps its own memory and threads when it is set up (before it loads the bot), so a
    worker can be started before the run's budgets are known: see :func:`prestart`.
    """

    def __init__(self, prefix: list[str] | None = None):
        self.process = subprocess.Popen(
            [*(prefix or []), sys.executable, "-m", "hbs.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True, env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )
        self._buffer = b""
        self._in = self.process.stdin.fileno()

    @classmethod
    def start(cls, prefix: list[str] | None = None) -> "Worker":
        """A fresh worker: one started by :func:`prestart` when there is one (not for a sandbox)."""
        while _spares and prefix is None:
            spare = _spares.pop()
            if spare.process.poll() is None:
                return spare
            spare.kill()
        return cls(prefix)

    def request(self, message: dict, timeout: float) -> dict:
        """Send ``message``; the reply, or :class:`WorkerFailure` after ``timeout`` seconds."""
        self.send(message)
        return self.receive(timeout)

    def send(self, message: dict) -> None:
        try:
            data = (json.dumps(message) + "\n").encode()
            while data:
                data = data[os.write(self._in, data):]
        except OSError:
            raise WorkerFailure("error", self._death()) from None

    def receive(self, timeout: float) -> dict:
        """The next reply, or :class:`WorkerFailure` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        out = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([out], [], [], left)[0]:
                raise WorkerFailure("timeout", f"no answer within {timeout:.2f} s")
            chunk = os.read(out, 65536)
            if not chunk:
                raise WorkerFailure("error", self._death())
            self._buffer += chunk
            if len(self._buffer) > MAX_REPLY:
                raise WorkerFailure("invalid", f"sent more than {MAX_REPLY:,} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
            if not isinstance(reply, dict):
                raise ValueError("not an object")
        except ValueError:
            raise WorkerFailure("error", "the worker broke the protocol") from None
        return reply

    def _death(self) -> str:
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "the worker stopped answering"
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
            return f"the worker was killed by {name}"
        return f"the worker exited with code {code}"

    def kill(self) -> None:
        """Stop the worker and everything it started."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                pipe.close()
            except OSError:
                pass
