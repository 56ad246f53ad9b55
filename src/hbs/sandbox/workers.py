"""Bots in worker processes: budgets, deadlines, and the confinement each worker is started under.

The process that owns the oracle sends a worker only the game's rules and the history of the game
in play; the secret, the secrets file and the oracle never leave it.  How a worker is confined is
a :class:`hbs.sandbox.confinement.Plan`: bubblewrap wraps the worker's command, Landlock is applied by the
worker to itself before the bot loads (in a private scratch folder this module makes and removes).
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass

from pathlib import Path

from hbs.sandbox import trees
from hbs.sandbox.confinement import Plan, TaskCap, task_cap
from hbs.errors import InputError
from hbs.contract.manifest import Manifest
from hbs.core.status import Status

MAX_REPLY = 1 << 20  # bytes: a guess over 10,000 characters is invalid anyway
PROTOCOL = 1  # the line protocol's version (docs/protocol.md)


@dataclass(frozen=True, kw_only=True)
class Budgets:
    """What a bot may spend: guesses a game, seconds a guess plus a game's time bank, setup, memory."""

    max_guesses: int = 100
    guess_timeout: float = 10.0
    game_timeout: float = 30.0  # the bank: time beyond guess_timeout is drawn from it
    setup_timeout: float = 120.0
    memory_mb: int = 4096

    def __post_init__(self) -> None:
        for flag, value in (("--max-guesses", self.max_guesses), ("--memory", self.memory_mb)):
            if value < 1:
                raise InputError(f"{flag} must be at least 1, got {value}")
        for flag, value in (("--guess-timeout", self.guess_timeout), ("--game-timeout", self.game_timeout),
                            ("--setup-timeout", self.setup_timeout)):
            if value < 0:
                raise InputError(f"{flag} must not be negative, got {value}")

    def as_dict(self) -> dict:
        return dict(vars(self))


class WorkerFailure(Exception):
    """The worker overran its time (``timeout``) or died or broke the protocol (``error``)."""

    def __init__(self, status: Status, message: str):
        self.status = status
        super().__init__(message)


_spares: dict[tuple, list["Worker"]] = {}
UNCONFINED = Plan("none", python=())


def cores() -> int:
    """The cores this process may run on (its CPU affinity, as a container or ``taskset`` sets it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def prestart(count: int = 1, plan: Plan = UNCONFINED) -> None:
    """Start ``count`` workers for ``plan`` now, while the rest of the command loads; a run takes them.

    Python, numpy and hbs load in the workers at the same time as in the runner, instead of after
    it.  A spare that no run takes is stopped at exit (and exits by itself at the end of its input).
    """
    pool = _spares.setdefault(plan, [])
    while len(pool) < count:
        pool.append(Worker(plan))


def spawn(plan: Plan, inner: list[str], scratch: str | None, env: dict | None, cap: TaskCap | None = None,
          **popen) -> subprocess.Popen:
    """Start a bot process confined as ``plan`` says (:meth:`Plan.command`), in a session of its own and
    in its pids cgroup ``cap``; bubblewrap reads the seccomp filter from a pipe handed to it."""
    code = plan.seccomp_program()
    fds: tuple[int, ...] = ()
    if code is not None:
        read, write = os.pipe()
        os.write(write, code)  # a few hundred bytes: the pipe holds them
        os.close(write)
        fds = (read,)
    args = plan.command(inner, scratch, fds[0] if fds else None)
    popen = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **popen}
    try:
        return subprocess.Popen(cap.wrap(args) if cap else args, start_new_session=True, env=env,
                                pass_fds=fds, **popen)
    finally:
        for fd in fds:
            os.close(fd)


@atexit.register
def _drop_spares() -> None:
    for pool in _spares.values():
        while pool:
            pool.pop().kill()


class Tail:
    """The last lines a process writes to a pipe: read as they come by a thread, so the process never
    blocks on a full pipe, and drained once more when asked, so nothing written before is missed."""

    KEEP = 4096  # bytes

    def __init__(self, pipe):
        self.pipe, self.fd = pipe, pipe.fileno()
        os.set_blocking(self.fd, False)
        self._lock = threading.Lock()
        self._data = bytearray()
        self._open = True
        self.written = 0  # bytes written in all
        self.first = b""  # the beginning of what was written
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        while self._open:
            try:
                ready = select.select([self.fd], [], [], 0.5)[0]
            except (OSError, ValueError):
                return
            if ready and not self._drain():
                return

    def _drain(self) -> bool:
        """Read what is there; False at the end of the pipe."""
        with self._lock:
            while self._open:
                try:
                    chunk = os.read(self.fd, 65536)
                except BlockingIOError:
                    return True
                except OSError:
                    return False
                if not chunk:
                    self._open = False
                    return False
                self._data += chunk
                self.written += len(chunk)
                if len(self.first) < 200:
                    self.first += chunk[: 200 - len(self.first)]
                if len(self._data) > 2 * self.KEEP:
                    del self._data[: -self.KEEP]
            return False

    def take(self, lines: int = 20) -> str:
        """The last ``lines`` lines written since the last call (at most :attr:`KEEP` bytes)."""
        self._drain()
        with self._lock:
            text = bytes(self._data[-self.KEEP:]).decode("utf-8", "replace")
            self._data.clear()
        return "\n".join(text.rstrip().splitlines()[-lines:])

    def clear(self) -> None:
        """Forget what was written so far (what the pump has read of it: no read here)."""
        if self._data:
            with self._lock:
                self._data.clear()

    def close(self) -> None:
        self._thread.join(timeout=2)  # the process is gone: the pipe ends
        with self._lock:
            self._open = False
            self.pipe.close()


class Worker:
    """One worker process and the line protocol of :mod:`hbs.sandbox.worker`.

    The worker caps its own memory and threads when it is set up (before it loads the bot), so a
    worker can be started before the run's budgets are known: see :func:`prestart`.
    """

    def __init__(self, plan: Plan = UNCONFINED, program: Manifest | None = None):
        self.plan = plan
        self.scratch = tempfile.mkdtemp(prefix="hbs-bot-") if plan.mechanism == "landlock" else None
        env = dict(os.environ, PYTHONUNBUFFERED="1") if not plan.confined else plan.environment(self.scratch or "/tmp")
        inner = list(program.command) if program is not None else []
        self.cap = task_cap(plan)
        self.process = spawn(plan, inner, self.scratch, env, self.cap)
        self.stderr = Tail(self.process.stderr)
        self._buffer = b""
        self._in = self.process.stdin.fileno()

    @classmethod
    def start(cls, plan: Plan = UNCONFINED, program: Manifest | None = None) -> "Worker":
        """A fresh worker for ``plan``: one started by :func:`prestart` when there is one."""
        if program is not None:
            return cls(plan, program)
        pool = _spares.get(plan, [])
        while pool:
            spare = pool.pop()
            if spare.process.poll() is None:
                return spare
            spare.kill()
        return cls(plan)

    def peak_mb(self) -> float:
        """The largest peak resident memory of the worker's processes (its sandbox's included), MB."""
        peak, todo = 0, [self.process.pid]
        while todo:
            pid = todo.pop()
            try:
                status = Path(f"/proc/{pid}/status").read_text()
                todo += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
            except (OSError, ValueError):
                continue
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
        return peak / 1024

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
            raise WorkerFailure(Status.ERROR, self._death()) from None

    def receive(self, timeout: float) -> dict:
        """The next reply, or :class:`WorkerFailure` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        out = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([out], [], [], left)[0]:
                raise WorkerFailure(Status.TIMEOUT, f"no answer within {timeout:.2f} s")
            chunk = os.read(out, 65536)
            if not chunk:
                raise WorkerFailure(Status.ERROR, self._death())
            self._buffer += chunk
            if len(self._buffer) > MAX_REPLY:
                raise WorkerFailure(Status.INVALID, f"sent more than {MAX_REPLY:,} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
            if not isinstance(reply, dict):
                raise ValueError("not an object")
        except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
            raise WorkerFailure(Status.ERROR, "the worker broke the protocol") from None
        return reply

    def _death(self) -> str:
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "the worker stopped answering"
        if self.plan.mechanism == "bwrap" and code > 128:  # bubblewrap passes a signal on as 128 + signal
            code = 128 - code
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
        if self.cap is not None:
            self.cap.remove()
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                pipe.close()
            except OSError:
                pass
        self.stderr.close()
        if self.scratch:
            trees.remove(self.scratch)
