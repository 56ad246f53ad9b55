"""The seccomp filter and the capability drop, on the real kernel, each in a Python of its own.

Each probe runs in a fresh ``python -I`` that installs the filter (or drops its capabilities) and
then tries system calls; the same probe without it is the control.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from hbs.sandbox import seccomp

pytestmark = pytest.mark.skipif(not seccomp.supported(), reason="seccomp filters are built for x86_64 and aarch64")

PROBE = r"""
import ctypes, errno, json, os, socket, sys, tempfile, threading
sys.path.insert(0, sys.argv[1])
from hbs.sandbox import capabilities, seccomp
if sys.argv[2] == "seccomp":
    seccomp.install(seccomp.program(os.getpid(), processes=sys.argv[3] == "build"))
elif sys.argv[2] == "caps":
    capabilities.drop_all()
result = {}
def attempt(name, call):
    try:
        call()
        result[name] = "ok"
    except OSError as exc:
        result[name] = errno.errorcode.get(exc.errno, str(exc.errno))
folder = tempfile.mkdtemp()
path = os.path.join(folder, "f")
open(path, "w").close()
attempt("socket_unix", lambda: socket.socket(socket.AF_UNIX).close())
attempt("socket_inet", lambda: socket.socket(socket.AF_INET).close())
attempt("socketpair", lambda: [s.close() for s in socket.socketpair()])
def datagram():
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    with a, b:
        a.send(b"x")  # no address: allowed
        a.sendto(b"x", "\0hbs-test-nobody")
attempt("sendto_address", datagram)
attempt("chmod", lambda: os.chmod(path, 0o600))
attempt("utime", lambda: os.utime(path, (0, 0)))
attempt("fork", lambda: os.waitpid(os.fork() or os._exit(0), 0) if True else None)
t = threading.Thread(target=lambda: None); t.start(); t.join(); result["thread"] = "ok"
attempt("kill_parent", lambda: os.kill(os.getppid(), 0))
attempt("kill_self", lambda: os.kill(os.getpid(), 0))
import resource
attempt("prlimit_parent", lambda: resource.prlimit(os.getppid(), resource.RLIMIT_CORE))
attempt("prlimit_self", lambda: resource.setrlimit(resource.RLIMIT_CORE, resource.getrlimit(resource.RLIMIT_CORE)))
attempt("renice_parent", lambda: os.setpriority(os.PRIO_PROCESS, os.getppid(), os.getpriority(os.PRIO_PROCESS, os.getppid())))
def renice_user():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.setpriority(2, 99999, 0) != 0:  # PRIO_USER of a user without processes: harmless
        raise OSError(ctypes.get_errno(), "setpriority")
attempt("renice_user", renice_user)
def shm():
    libc = ctypes.CDLL(None, use_errno=True)
    segment = libc.shmget(0, 4096, 0o1000 | 0o600)
    if segment < 0:
        raise OSError(ctypes.get_errno(), "shmget")
    libc.shmctl(segment, 0, None)
attempt("shmget", shm)
attempt("setsid", os.setsid)
def watch():
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(0)
    if fd < 0 or libc.inotify_add_watch(fd, b"/", 2) < 0:
        raise OSError(ctypes.get_errno(), "inotify")
attempt("inotify", watch)
attempt("memfd", lambda: os.close(os.memfd_create("hbs-probe")))
def owner():
    import fcntl
    r, w = os.pipe()
    fcntl.fcntl(r, fcntl.F_SETOWN, os.getpid())
attempt("setown", owner)
def userns():
    libc = ctypes.CDLL(None, use_errno=True)
    number = {"x86_64": 56, "aarch64": 220}[os.uname().machine]
    pid = libc.syscall(number, 0x10000000 | 17, 0, 0, 0, 0)  # clone(CLONE_NEWUSER | SIGCHLD)
    if pid == 0:
        os._exit(0)
    if pid < 0:
        raise OSError(ctypes.get_errno(), "clone")
    os.waitpid(pid, 0)
attempt("userns", userns)
result["caps"] = {k: v for k, v in capabilities.status().items() if k != "CapInh"}
print(json.dumps(result))
"""


def probe(*how: str) -> dict:
    import hbs

    parent = os.path.dirname(os.path.dirname(hbs.__file__))
    done = subprocess.run([sys.executable, "-I", "-c", PROBE, parent, *how, "", ""], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_filter_leaves_socket_pairs_and_threads_only():
    control, filtered = probe("none"), probe("seccomp", "play")
    assert all(control[k] == "ok" for k in ("socket_unix", "socket_inet", "chmod", "utime", "fork", "kill_parent"))
    assert control["sendto_address"] in ("ECONNREFUSED", "ENOENT")  # it reached the kernel's lookup
    assert filtered["socket_unix"] == filtered["socket_inet"] == "EACCES"
    assert filtered["sendto_address"] == "EACCES"
    assert filtered["chmod"] == filtered["utime"] == filtered["fork"] == filtered["kill_parent"] == "EPERM"
    assert filtered["socketpair"] == filtered["thread"] == filtered["kill_self"] == "ok"
    assert control["prlimit_parent"] == control["renice_parent"] == control["shmget"] == "ok"
    assert filtered["prlimit_parent"] == filtered["renice_parent"] == filtered["shmget"] == "EPERM"
    assert filtered["renice_user"] == "EPERM" and control["renice_user"] != "EPERM"  # a user's every process
    assert filtered["prlimit_self"] == "ok"
    assert filtered["setsid"] == filtered["inotify"] == "EPERM" and control["inotify"] == "ok"
    assert filtered["memfd"] == filtered["setown"] == "EPERM" and control["memfd"] == control["setown"] == "ok"


def test_a_build_may_start_processes_but_not_change_modes():
    filtered = probe("seccomp", "build")
    assert filtered["fork"] == "ok" and filtered["chmod"] == "EPERM" and filtered["socket_unix"] == "EACCES"
    assert filtered["setsid"] == "EPERM"  # it cannot leave the process group the runner kills
    assert filtered["userns"] == "EPERM" and probe("none")["userns"] == "ok"  # no namespace of its own


@pytest.mark.skipif(os.getuid() != 0, reason="a plain user has no capability to drop")
def test_dropping_capabilities_empties_every_set():
    control, dropped = probe("none"), probe("caps")
    assert control["caps"]["CapEff"] and control["caps"]["CapBnd"]  # root holds them
    assert dropped["caps"] == {"CapPrm": 0, "CapEff": 0, "CapBnd": 0, "CapAmb": 0}
