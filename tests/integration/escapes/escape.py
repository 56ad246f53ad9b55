"""Tries one way out of its confinement on the first guess of every game (option ``attack``).

When the attack works it raises ``RuntimeError("ESCAPED: <evidence>")``.  When the system refuses,
a quiet attack (``secrets``, ``memory``, ``write``, ``connect``, ``signal``; several quiet ones may be
given, comma-separated) plays on as the
first-consistent bot, and a resource attack (``fork``, ``threads``, ``fsize``, ``fds``) raises
``RuntimeError("BLOCKED: <why>")``.  ``secrets`` really cheats: it reads the runner's command line
through /proc, opens the file after ``--secrets`` and guesses its lines that fit the answers.
"""
import os
import resource
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from hbs import Bot, grade


def runner_pid() -> int:
    return int(os.environ.get("HBS_RUNNER") or os.getppid())


def secrets_file() -> list[str]:
    pid = runner_pid()
    argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    path = Path(argv[argv.index(b"--secrets") + 1].decode())
    if not path.is_absolute():
        path = Path(os.readlink(f"/proc/{pid}/cwd")) / path
    return path.read_text().split()


def memory(bot) -> str:
    pid = runner_pid()
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb") as mem:
        for line in maps:
            span, perms = line.split()[:2]
            if perms.startswith("rw"):
                start = int(span.split("-")[0], 16)
                mem.seek(start)
                return f"read {len(mem.read(4096))} bytes of the runner's memory"
    return ""


def write(bot) -> str:
    for folder in bot.target.split(","):
        (Path(folder) / "forged-by-a-bot.json").write_text("{}")
    return f"wrote into {bot.target}"


def connect(bot) -> str:
    with socket.create_connection(("127.0.0.1", bot.port), timeout=2) as conn:
        conn.sendall(b"hello from a bot")
    return f"connected to 127.0.0.1:{bot.port}"


def kill(bot) -> str:
    os.kill(runner_pid(), signal.SIGTERM)
    return f"sent SIGTERM to {runner_pid()}"


def fork(bot) -> str:
    children = []
    try:
        for _ in range(500):
            children.append(subprocess.Popen([bot.target, "600"], executable="/bin/sleep"))
    except OSError as exc:
        raise RuntimeError(f"BLOCKED: {exc} after {len(children)} children") from None
    return f"started {len(children)} children"


def threads(bot) -> str:
    started = 0
    threading.stack_size(64 << 10)  # small stacks: the memory cap alone would allow tens of thousands
    try:
        for _ in range(2000):
            threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
            started += 1
    except RuntimeError as exc:
        raise RuntimeError(f"BLOCKED: {exc} after {started} threads") from None
    return f"started {started} threads"


def fsize(bot) -> str:
    written = 0
    fd, path = tempfile.mkstemp()
    try:
        chunk = b"\0" * (16 << 20)
        while written < 256 << 20:  # stops by itself at 256 MB, four times the cap (confinement.FILE_MB)
            written += os.write(fd, chunk)
    except OSError as exc:
        raise RuntimeError(f"BLOCKED: {exc} after {written >> 20} MB") from None
    finally:
        os.close(fd)
        os.unlink(path)
    return f"wrote {written >> 20} MB"


def fds(bot) -> str:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    opened = []
    try:
        for _ in range(5000):
            opened.append(os.open("/dev/null", os.O_RDONLY))
    except OSError as exc:
        raise RuntimeError(f"BLOCKED: {exc} after {len(opened)} descriptors") from None
    finally:
        for fd in opened:
            os.close(fd)
    return f"opened {len(opened)} descriptors"


ATTACKS = {"memory": memory, "write": write, "connect": connect, "signal": kill, "fork": fork,
           "threads": threads, "fsize": fsize, "fds": fds}


class Escape(Bot):
    """Tries to get out of its confinement; plays first-consistent when it cannot."""

    games = {"mastermind", "bulls"}
    history_only = True

    def __init__(self, attack: str = "secrets", target: str = "", port: int = 0):
        self.attack, self.target, self.port = attack, target, port

    def setup(self, game):
        self.game = game  # it plays game.fitting: plain Python, no numba for its confined worker to load

    def guess(self, history):
        if self.attack == "secrets":
            try:
                lines = secrets_file()
            except (OSError, ValueError, IndexError):
                return self.game.fitting(history)[0]
            return next(s for s in lines if all(grade(g, s) == (b, w) for g, b, w in history))
        if not history:  # several attacks, comma-separated: each is tried, what got out is reported
            found = []
            for attack in self.attack.split(","):
                try:
                    found.append(ATTACKS[attack](self))
                except OSError:
                    pass
            if any(found):
                raise RuntimeError("ESCAPED: " + "; ".join(filter(None, found)))
        return self.game.fitting(history)[0]
