"""Bots in worker processes: budgets, a memory cap, deadlines, and an optional bubblewrap sandbox.

The process that owns the oracle sends a worker only the game's rules and the history of the game
in play; the secret, the secrets file and the oracle never leave it.
"""

from __future__ import annotations

import json
import os
import resource
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
    """One worker process and the line protocol of :mod:`hbs.worker`."""

    def __init__(self, memory_mb: int, prefix: list[str] | None = None, threads: int | None = None):
        limit = memory_mb * 1024 * 1024

        def cap() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if threads:  # parallel workers share the cores: no more numba threads than a worker's share
            env["NUMBA_NUM_THREADS"] = str(threads)
        self.process = subprocess.Popen(
            [*(prefix or []), sys.executable, "-m", "hbs.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True, preexec_fn=cap, env=env,
        )
        self._buffer = b""
        self._in = self.process.stdin.fileno()

    def request(self, message: dict, timeout: float) -> dict:
        """Send ``message``; the reply, or :class:`WorkerFailure` after ``timeout`` seconds."""
        try:
            data = (json.dumps(message) + "\n").encode()
            while data:
                data = data[os.write(self._in, data):]
        except OSError:
            raise WorkerFailure("error", self._death()) from None
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
