"""Takes stock of what it may do, on the first guess of each game, and tries what a root runner's
privileges would allow (option ``attack``, comma-separated; ``target``, ``unix``, ``abstract``):

- ``caps``: holds any capability (effective, permitted, bounding or ambient sets);
- ``chmod``: changes the mode and the times of the file ``target`` (another bot's file);
- ``syslog``: reads the kernel log; ``fifo``: makes itself SCHED_FIFO; ``hostname``: sets the host name
  (to what it is);
- ``unix``: connects to the unix socket at the path ``unix``; ``abstract``: to the abstract name ``abstract``;
- ``tcp``: makes an internet socket at all;
- ``sysctl``: writes /proc/sys/kernel/core_pattern (its own value back: the host's, were it writable);
- ``prlimit``: sets a resource limit of the runner (to what it is: another process's, were it allowed);
- ``ipc``: makes a System V shared memory segment (and removes it at once: the host's, outliving the run);
- ``devshm``: writes a file into /dev/shm (and removes it: memory no cap counts).

What got through is raised as ``RuntimeError("ESCAPED: ...")``; else it plays first-consistent.
"""
import ctypes
import os
import socket
from pathlib import Path

from hbs import Bot


def caps(bot) -> str:
    held = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("CapEff", "CapPrm", "CapBnd", "CapAmb") and int(value, 16):
            held[key] = value.strip()
    return f"holds capabilities {held}" if held else ""


def chmod(bot) -> str:
    os.chmod(bot.target, 0o777)
    os.utime(bot.target, (0, 0))
    return f"changed the mode and times of {bot.target}"


def syslog(bot) -> str:
    libc = ctypes.CDLL(None, use_errno=True)
    buffer = ctypes.create_string_buffer(4096)
    got = libc.klogctl(3, buffer, 4096)  # SYSLOG_ACTION_READ_ALL
    if got < 0:
        raise OSError(ctypes.get_errno(), "klogctl")
    return f"read {got} bytes of the kernel log"


def fifo(bot) -> str:
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    return "made itself SCHED_FIFO"


def hostname(bot) -> str:
    name = socket.gethostname().encode()  # its own name back: the host's, were it allowed
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.sethostname(name, len(name)) != 0:
        raise OSError(ctypes.get_errno(), "sethostname")
    return "set the host name"


def unix(bot) -> str:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(bot.unix)
        conn.sendall(b"hello from a bot")
    return f"connected to {bot.unix}"


def abstract(bot) -> str:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect("\0" + bot.abstract)
        conn.sendall(b"hello from a bot")
    return f"connected to @{bot.abstract}"


def datagram(bot) -> str:
    """A socket pair (allowed) used to send to a named socket (not)."""
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    with left, right:
        left.sendto(b"hello from a bot", "\0" + bot.abstract + "-dgram")
    return f"sent a datagram to @{bot.abstract}-dgram"


def sysctl(bot) -> str:
    path = Path("/proc/sys/kernel/core_pattern")
    value = path.read_bytes()
    with open(path, "wb") as fh:
        fh.write(value)
    return "wrote the host's core_pattern"


def prlimit(bot) -> str:
    import resource

    runner = int(os.environ.get("HBS_RUNNER") or os.getppid())
    limits = resource.prlimit(runner, resource.RLIMIT_CORE)
    resource.prlimit(runner, resource.RLIMIT_CORE, limits)
    return f"set a resource limit of process {runner}"


def ipc(bot) -> str:
    libc = ctypes.CDLL(None, use_errno=True)
    segment = libc.shmget(0, 4096, 0o1000 | 0o600)  # IPC_PRIVATE, IPC_CREAT
    if segment < 0:
        raise OSError(ctypes.get_errno(), "shmget")
    libc.shmctl(segment, 0, None)  # IPC_RMID
    return "made a System V shared memory segment"


def devshm(bot) -> str:
    path = Path("/dev/shm") / f"hbs-bot-{os.getpid()}"
    path.write_bytes(b"x")
    path.unlink()
    return "wrote into /dev/shm"


def tcp(bot) -> str:
    socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
    return "made an internet socket"


ATTACKS = {f.__name__: f for f in (caps, chmod, syslog, fifo, hostname, unix, abstract, datagram, tcp, sysctl,
                                   prlimit, ipc, devshm)}


class Inventory(Bot):
    """Takes stock of its privileges; plays first-consistent when it has none."""

    games = {"mastermind", "bulls"}
    history_only = True

    def __init__(self, attack: str = "caps", target: str = "", unix: str = "", abstract: str = ""):
        self.attack, self.target, self.unix, self.abstract = attack, target, unix, abstract

    def setup(self, game):
        self.game = game  # it plays game.fitting: plain Python, no numba for its confined worker to load

    def guess(self, history):
        if not history:
            found = []
            for attack in self.attack.split(","):
                try:
                    found.append(ATTACKS[attack](self))
                except OSError:
                    pass
            if any(found):
                raise RuntimeError("ESCAPED: " + "; ".join(filter(None, found)))
        return self.game.fitting(history)[0]
