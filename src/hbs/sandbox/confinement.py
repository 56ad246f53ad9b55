"""How a bot's processes are confined: which mechanism, what they may read and write, their caps.

Two mechanisms, chosen in this order by ``auto``:

- ``bwrap`` (bubblewrap, Debian/Ubuntu package ``bubblewrap``): the bot starts in new user, PID,
  network, IPC and UTS namespaces with a file system of read-only binds (the Python installation,
  hbs, the bot's own file or folder, the word list), a size-capped private ``/tmp`` and the bot's
  own compile cache; every capability dropped; the seccomp filter installed by bubblewrap.  It
  cannot see any other process, and a network namespace has no interfaces.
- ``landlock`` (Linux >= 5.13; no package, no root): the launcher restricts the process with
  Landlock (read only those same paths, write only its scratch folder and its compile cache, no
  TCP, no signals out) and installs the seccomp filter itself.

Every bot process starts as :meth:`Plan.command` says: ``prlimit`` sets its resource limits, the
sandbox wraps it, and ``python -I`` runs :mod:`hbs.sandbox.launch`, which applies the rest
(:func:`apply`) before anything of the bot is loaded or run.  ``none`` is a process with only the
memory cap; the runner prints a warning when it has to use it.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from hbs.sandbox import caches

from hbs.errors import InputError

if TYPE_CHECKING:
    from hbs.contract.bot import BotSource

CHOICES = ("auto", "bwrap", "landlock")
FILE_MB = 64  # largest file a confined bot may write
OPEN_FILES = 256
THREADS = 512  # tasks (processes and threads) a worker may have: a pids cgroup, or RLIMIT_NPROC
SCRATCH_MB = 256  # bubblewrap's private /tmp
SYSTEM = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin",
          # the few files of /etc that programs need to start: `cc` and friends are symlinks through
          # /etc/alternatives; node reads OpenSSL's configuration at start-up
          "/etc/alternatives", "/etc/ld.so.cache", "/etc/ssl/openssl.cnf", "/etc/localtime")
DEVICES_READ = ("/dev/urandom", "/dev/random", "/dev/zero")
BWRAP_PID = 2  # the bot's process id in bubblewrap's PID namespace (bubblewrap's own reaper is 1)
LIMITS = {"as": resource.RLIMIT_AS, "fsize": resource.RLIMIT_FSIZE, "nofile": resource.RLIMIT_NOFILE,
          "core": resource.RLIMIT_CORE, "nproc": resource.RLIMIT_NPROC}
FIX = ("it needs bubblewrap (apt-get install bubblewrap) or a kernel with Landlock (Linux >= 5.13); "
       "--unconfined says you trust the bots")


@lru_cache(maxsize=None)
def bwrap_path() -> str | None:
    """The ``bwrap`` binary when it is installed and can make its namespaces here (probed once)."""
    path = shutil.which("bwrap")
    if path is None:
        return None
    try:
        probe = subprocess.run([path, "--unshare-all", "--ro-bind", "/", "/", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return path if probe.returncode == 0 else None


@lru_cache(maxsize=None)
def _bwrap_has(option: str) -> bool:
    done = subprocess.run([bwrap_path(), "--help"], capture_output=True, text=True)
    return option in done.stdout


def available() -> list[str]:
    """The mechanisms that work on this machine, best first."""
    from hbs.sandbox import landlock
    from hbs.sandbox import seccomp

    found = []
    if bwrap_path():
        found.append("bwrap")
    if seccomp.supported() and landlock.abi() >= 1:
        found.append("landlock")
    return found


def choose(requested: str = "auto", unconfined: bool = False) -> tuple[str, str | None]:
    """The mechanism to use (``bwrap``, ``landlock`` or ``none``) and a warning line, if any."""
    if unconfined:
        return "none", None
    if requested not in CHOICES:
        raise InputError(f"--sandbox must be one of {', '.join(CHOICES)}, got {requested!r}")
    found = available()
    if requested == "auto":
        if found:
            return found[0], None
        return "none", f"hbs: warning: bots run unconfined on this machine: {FIX}"
    if requested not in found:
        why = ("bubblewrap (bwrap) is not installed or cannot make namespaces here: apt-get install bubblewrap"
               if requested == "bwrap" else "this kernel has no Landlock (Linux >= 5.13 with Landlock enabled)")
        raise InputError(f"--sandbox {requested}: {why}")
    return requested, None


@lru_cache(maxsize=None)
def cgroup_root(controller: str) -> Path | None:
    """Where this process may make cgroups of ``controller`` (``pids``, ``memory``): its own cgroup in
    a writable cgroup v1 hierarchy of that name, or in cgroup v2 with the controller enabled, as root
    usually can; None elsewhere."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            base = Path("/sys/fs/cgroup") / controller / path.lstrip("/")
        elif controllers == "" and path == "/" and controller in _read(Path("/sys/fs/cgroup/cgroup.subtree_control")):
            base = Path("/sys/fs/cgroup")
        else:
            continue
        if (base / "cgroup.procs").exists() and os.access(base, os.W_OK):
            return base
    return None


def pids_root() -> Path | None:
    return cgroup_root("pids")


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


class TaskCap:
    """The cgroups of one bot process tree: a pids cgroup that caps its tasks (its processes and all
    their threads) at :data:`THREADS` (unlike RLIMIT_NPROC it binds root too, and it lets the runner
    kill every task, whatever session it moved to), and for a build, which may start processes, a
    memory cgroup that caps them all together at ``memory_mb`` (an address-space limit is a process's
    own)."""

    _made = 0

    def __init__(self, root: Path, memory: Path | None = None, memory_mb: int | None = None):
        TaskCap._made += 1
        name = f"hbs-{os.getpid()}-{TaskCap._made}"
        self.paths = [root / name]
        self.paths[0].mkdir()
        (self.paths[0] / "pids.max").write_text(str(THREADS))
        if memory is not None and memory_mb:
            group = memory / name
            if group != self.paths[0]:
                group.mkdir()
                self.paths.append(group)
            limit = memory_mb << 20
            for knob in ("memory.max", "memory.limit_in_bytes"):  # cgroup v2, v1
                if (group / knob).exists():
                    (group / knob).write_text(str(limit))
                    break

    def wrap(self, args: list[str]) -> list[str]:
        """``args`` started inside the cgroups (a shell joins them, then becomes the command)."""
        join = 'while [ "$1" != -- ]; do echo $$ > "$1/cgroup.procs" || exit 126; shift; done; shift; exec "$@"'
        return ["/bin/sh", "-c", join, "sh", *map(str, self.paths), "--", *args]

    def remove(self) -> None:
        """Kill what is left in the cgroups and remove them."""
        for path in self.paths:
            for _ in range(100):
                for pid in _read(path / "cgroup.procs").split():
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except (ProcessLookupError, PermissionError, ValueError):
                        pass
                try:
                    path.rmdir()
                    break
                except OSError:
                    time.sleep(0.02)


def task_cap(plan: "Plan") -> TaskCap | None:
    """The cgroups of a confined bot process tree, where this machine lets hbs make them (a memory
    cgroup for a build only)."""
    root = pids_root() if plan.confined else None
    if root is None:
        return None
    memory = cgroup_root("memory") if plan.processes else None
    try:
        return TaskCap(root, memory, plan.memory_mb)
    except OSError:
        return None


def python_paths() -> list[str]:
    """The Python installation: prefixes, the interpreter's folder, the import path (not the cwd)."""
    cwd = Path.cwd().resolve()
    found = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent}
    found |= {Path(p) for p in sys.path if p and Path(p).is_dir()}
    import hbs

    found.add(Path(hbs.__file__).parent)
    return sorted(str(p.resolve()) for p in found if p.resolve() != cwd)


BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from hbs.sandbox.launch import main; main(sys.argv[2:])"


def python_command() -> list[str]:
    """How every bot process starts: this Python, isolated (``-I``: no current folder, script folder,
    ``PYTHON*`` variable or user site on its import path), running :mod:`hbs.sandbox.launch` from this hbs."""
    import hbs

    return [sys.executable, "-I", "-B", "-u", "-c", BOOT, str(Path(hbs.__file__).resolve().parents[1])]


@lru_cache(maxsize=None)
def prlimit_path() -> str | None:
    """util-linux's ``prlimit``, which sets a command's resource limits before it runs."""
    return shutil.which("prlimit")


@dataclass(frozen=True)
class Plan:
    """How one bot's processes are confined: ``mechanism``, the bot's own view of the files, its caps."""

    mechanism: str  # bwrap | landlock | none
    read: tuple[str, ...] = ()  # readable paths besides the Python installation
    cache: str | None = None  # the bot's own compile cache (persistent, writable)
    python: tuple[str, ...] = field(default_factory=lambda: tuple(python_paths()))
    workdir: str | None = None  # where the bot starts (a program bot's folder); else its scratch
    writable: tuple[str, ...] = ()  # more writable paths (a build writes into the bot's folder)
    processes: bool = False  # may start processes (a build)
    memory_mb: int | None = None  # the address-space cap

    @property
    def confined(self) -> bool:
        return self.mechanism != "none"

    def readable(self) -> list[str]:
        return [p for p in (*SYSTEM, *self.python, *self.read) if os.path.exists(p)]

    def limits(self) -> dict[str, int]:
        """The resource limits of every process of the bot (hard and soft alike)."""
        out = {"as": self.memory_mb << 20} if self.memory_mb else {}
        if self.confined:
            out.update(fsize=FILE_MB << 20, nofile=OPEN_FILES, core=0)
        if self.mechanism == "bwrap":  # counted in the sandbox's user namespace (docs/security.md)
            out["nproc"] = THREADS
        return out

    def command(self, inner: Sequence[str] = (), scratch: str | None = None, seccomp_fd: int | None = None) -> list[str]:
        """The command line that starts a bot process confined: resource limits set by ``prlimit``
        before anything runs, bubblewrap's sandbox (with the seccomp filter on ``seccomp_fd``), then
        :mod:`hbs.sandbox.launch`, which confines what is left and becomes ``inner`` (a program, a build), or
        the Python worker when ``inner`` is empty."""
        limits = self.limits()
        outer = [prlimit_path(), *(f"--{k}={v}" for k, v in limits.items()), "--"] if limits and prlimit_path() else []
        settings = {"mechanism": self.mechanism, "read": self.readable() + list(DEVICES_READ),
                    "write": [p for p in (scratch, self.cache, *self.writable, "/dev/null") if p],
                    "processes": self.processes, "limits": limits, "workdir": self.workdir or scratch or "/tmp",
                    "seccomp": seccomp_fd is None}
        return [*outer, *self.prefix(seccomp_fd), *python_command(), json.dumps(settings), *inner]

    def seccomp_program(self) -> bytes | None:
        """The filter bubblewrap installs for the bot (its process is pid 2 in its namespace); None where
        the launcher installs it (Landlock) or there is none."""
        from hbs.sandbox import seccomp

        if self.mechanism != "bwrap" or not seccomp.supported():
            return None
        return seccomp.program(BWRAP_PID, processes=self.processes)

    def prefix(self, seccomp_fd: int | None = None) -> list[str]:
        """Bubblewrap's arguments (none for the other mechanisms)."""
        if self.mechanism != "bwrap":
            return []
        args = [bwrap_path(), "--unshare-all", "--unshare-user", "--die-with-parent", "--new-session", "--clearenv",
                "--cap-drop", "ALL"]
        if _bwrap_has("--disable-userns"):  # no user namespace of its own inside (bubblewrap >= 0.8)
            args.append("--disable-userns")
        if _bwrap_has("--size"):
            args += ["--size", str(SCRATCH_MB << 20)]
        args += ["--perms", "1777", "--tmpfs", "/tmp"]  # first: the binds below may lie under /tmp
        for link in ("/lib", "/lib64", "/lib32", "/bin", "/sbin"):
            if os.path.islink(link):
                args += ["--symlink", os.readlink(link), link]
        for path in sorted(set(self.readable()) - {p for p in SYSTEM if os.path.islink(p)}):
            args += ["--ro-bind", path, path]
        for path in (self.cache, *self.writable):
            if path:
                args += ["--bind", path, path]
        # /proc read-only: started by root, the bot is root's uid mapped into its namespace, and a
        # writable /proc/sys (core_pattern, modprobe) or /proc/sysrq-trigger would be the host's
        args += ["--proc", "/proc", "--remount-ro", "/proc", "--dev", "/dev", "--remount-ro", "/dev",  # /dev/shm too:
                 "--remount-ro", "/", "--chdir", "/tmp"]  # a tmpfs without a size, whose pages no cap would count
        for key, value in self.environment("/tmp").items():
            args += ["--setenv", key, value]
        if seccomp_fd is not None:
            args += ["--seccomp", str(seccomp_fd)]
        return args

    def environment(self, scratch: str) -> dict[str, str]:
        """The bot's whole environment: nothing of the runner's but the locale."""
        import hbs

        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": scratch, "TMPDIR": scratch,
               "LANG": os.environ.get("LANG", "C.UTF-8"), "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1",
               "PYTHONPATH": str(Path(hbs.__file__).resolve().parents[1]),  # for a program in Python: this hbs
               "HBS_RUNNER": str(os.getpid())}
        if self.cache:
            env["NUMBA_CACHE_DIR"] = self.cache
        return env


def plan(mechanism: str, source: "BotSource", words: str | Path | None = None, memory_mb: int | None = None) -> Plan:
    """The plan for one bot: its own files and the word list readable, its own cache writable.

    The bot's files are granted by their real paths, after :meth:`BotSource.check` has made sure that
    no link in them leads out.
    """
    source.check()
    workdir = source.path if source.is_program else None
    if mechanism == "none":
        return Plan("none", python=(), workdir=workdir, memory_mb=memory_mb)
    read = [str(p.resolve()) for p in source.files() if p.exists()]
    if words:
        read.append(str(Path(words).resolve()))
    cache = caches.folder(source)
    return Plan(mechanism, tuple(read), str(cache), workdir=workdir, memory_mb=memory_mb)


def apply(settings: dict) -> None:
    """In the bot's process, first thing (see :mod:`hbs.sandbox.launch`): its resource limits (again: ``prlimit``
    set them already where it is installed), then every capability dropped, Landlock, the seccomp
    filter (unless bubblewrap installed it)."""
    for name, value in settings.get("limits", {}).items():
        resource.setrlimit(LIMITS[name], (value, value))
    if settings.get("mechanism", "none") == "none":
        return
    from hbs.sandbox import capabilities
    from hbs.sandbox import landlock
    from hbs.sandbox import seccomp

    # numba's threading layer takes a cross-process lock (a POSIX semaphore in /dev/shm) when new processes
    # would fork; a confined worker may not write there (under Landlock /dev/shm is the host's, shared by
    # every bot) and numba would warn on stderr. Under "spawn" it takes none: the worker is one process.
    multiprocessing.set_start_method("spawn", force=True)
    capabilities.drop_all()
    if settings["mechanism"] == "landlock":  # its own /proc entry too (bubblewrap's /proc shows only it)
        landlock.restrict([*settings["read"], f"/proc/{os.getpid()}"], settings["write"])
    if settings.get("seccomp") and seccomp.supported():
        seccomp.install(seccomp.program(os.getpid(), processes=bool(settings.get("processes"))))
