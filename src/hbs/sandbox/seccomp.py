"""The seccomp filter every confined bot process runs under: no new processes, no sockets of its own
making, no reach into other processes, no change to any file's owner, mode or times.

A small classic-BPF program (no library needed).  Under bubblewrap it is handed to ``bwrap --seccomp
FD``, which installs it just before it starts the worker; under Landlock the launcher
(:mod:`hbs.sandbox.launch`) installs it on itself, before anything of the bot is loaded.  Either way the bot's
code starts under it and cannot lift it.  What it refuses:

- new processes: ``fork``, ``vfork``, ``clone`` without ``CLONE_THREAD`` (threads stay allowed),
  ``clone3`` (answered ENOSYS, so the C library falls back to ``clone`` for its threads);
- sockets: ``socket`` of any family, ``connect``, ``bind``, ``sendmsg``/``sendmmsg`` and ``sendto``
  with an address; ``socketpair`` only for ``AF_UNIX``.  A bot can talk to itself over a socket
  pair, never to a unix socket by path or by abstract name (a host's daemon, Ray's raylet), nor to
  the network;
- ``ptrace``, ``process_vm_readv``/``writev``, pidfds, ``kcmp``; signals to any process but the bot;
- changing a file's owner, mode, times or extended attributes (a runner started as root owns the
  other bots' files, and Landlock has no right for these);
- resource limits, scheduling and priorities of any process but the bot itself (``prlimit64``,
  ``sched_set*``, ``setpriority`` of a group or a user; ``ioprio_set``, page migration);
- System V shared memory, semaphores and message queues, POSIX message queues (under Landlock they
  would be the host's and outlive the run);
- leaving its process group (``setsid``, ``setpgid``: the runner ends a build by killing its group),
  watching paths (``inotify_add_watch``: under Landlock it would see the host's files change);
- memory file descriptors (``memfd_create``: pages no address-space cap counts), new namespaces by
  ``clone`` (a build's user namespace would hold every capability), having the kernel signal
  another process for a descriptor's I/O (``fcntl`` ``F_SETOWN``/``F_SETSIG``);
- new namespaces, mounts (old and new API), BPF, perf events, keyrings, userfaultfd, ``io_uring``,
  the kernel log, the host name, reboot, modules.

A build (``processes``) may start processes and signal them; the rest holds for it too (hbs marks
the program it builds executable itself: a linker's own ``chmod`` is refused).

Supported on x86_64 and aarch64; elsewhere :func:`supported` is False and nothing is installed.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
RET_KILL_PROCESS, RET_ALLOW = 0x80000000, 0x7FFF0000
LD_W_ABS, JEQ_K, JGE_K, JSET_K, RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
CLONE_THREAD, AF_UNIX = 0x10000, 1
CLONE_NEW = 0x7E020080  # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME
F_SETOWN, F_SETSIG, F_SETOWN_EX = 8, 10, 15  # fcntl: who gets the signal of a descriptor's I/O
X32_BIT = 0x40000000

# architecture -> (AUDIT_ARCH, {name: number}); names missing on an architecture are left out
_ARCH = {
    "x86_64": (0xC000003E, dict(
        fork=57, vfork=58, clone=56, clone3=435, socket=41, socketpair=53, connect=42, bind=49, sendto=44,
        sendmsg=46, sendmmsg=307, io_uring_setup=425, ptrace=101,
        process_vm_readv=310, process_vm_writev=311, pidfd_open=434, pidfd_getfd=438, pidfd_send_signal=424,
        kcmp=312, kill=62, tkill=200, tgkill=234, rt_sigqueueinfo=129, rt_tgsigqueueinfo=297, unshare=272,
        setns=308, mount=165, umount2=166, pivot_root=155, chroot=161, open_tree=428, move_mount=429,
        fsopen=430, fsconfig=431, fsmount=432, fspick=433, mount_setattr=442, bpf=321, perf_event_open=298,
        keyctl=250, add_key=248, request_key=249, userfaultfd=323, open_by_handle_at=304, kexec_load=246,
        init_module=175, finit_module=313, syslog=103, sethostname=170, setdomainname=171, reboot=169,
        chmod=90, fchmod=91, fchmodat=268, fchmodat2=452, chown=92, fchown=93, lchown=94, fchownat=260,
        utime=132, utimes=235, futimesat=261, utimensat=280, setxattr=188, lsetxattr=189, fsetxattr=190,
        removexattr=197, lremovexattr=198, fremovexattr=199, prlimit64=302, setpriority=141, sched_setparam=142,
        sched_setscheduler=144, sched_setaffinity=203, sched_setattr=314, ioprio_set=251, migrate_pages=256,
        move_pages=279, shmget=29, shmat=30, shmctl=31, semget=64, semop=65, semctl=66, msgget=68, msgsnd=69,
        msgrcv=70, msgctl=71, semtimedop=220, mq_open=240, setsid=112, setpgid=109, inotify_add_watch=254,
        memfd_create=319, memfd_secret=447, fcntl=72)),
    "aarch64": (0xC00000B7, dict(
        clone=220, clone3=435, socket=198, socketpair=199, connect=203, bind=200, sendto=206, sendmsg=211,
        sendmmsg=269, io_uring_setup=425, ptrace=117, process_vm_readv=270,
        process_vm_writev=271, pidfd_open=434, pidfd_getfd=438, pidfd_send_signal=424, kcmp=272, kill=129,
        tkill=130, tgkill=131, rt_sigqueueinfo=138, rt_tgsigqueueinfo=240, unshare=97, setns=268, mount=40,
        umount2=39, pivot_root=41, chroot=51, open_tree=428, move_mount=429, fsopen=430, fsconfig=431,
        fsmount=432, fspick=433, mount_setattr=442, bpf=280, perf_event_open=241, keyctl=219, add_key=217,
        request_key=218, userfaultfd=282, open_by_handle_at=265, kexec_load=104, init_module=105,
        finit_module=273, syslog=116, sethostname=161, setdomainname=162, reboot=142, fchmod=52,
        fchmodat=53, fchmodat2=452, fchownat=54, fchown=55, utimensat=88, setxattr=5, lsetxattr=6,
        fsetxattr=7, removexattr=14, lremovexattr=15, fremovexattr=16, prlimit64=261, setpriority=140,
        sched_setparam=118, sched_setscheduler=119, sched_setaffinity=122, sched_setattr=274, ioprio_set=30,
        migrate_pages=238, move_pages=239, msgget=186, msgctl=187, msgrcv=188, msgsnd=189, semget=190,
        semctl=191, semtimedop=192, semop=193, shmget=194, shmctl=195, shmat=196, mq_open=180, setsid=157,
        setpgid=154, inotify_add_watch=27, memfd_create=279, memfd_secret=447, fcntl=25)),
}
_DENIED = ("fork", "vfork", "io_uring_setup", "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open",
           "pidfd_getfd", "pidfd_send_signal", "kcmp", "tkill", "unshare", "setns", "mount", "umount2",
           "pivot_root", "chroot", "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick",
           "mount_setattr", "bpf", "perf_event_open", "keyctl", "add_key", "request_key", "userfaultfd",
           "open_by_handle_at", "kexec_load", "init_module", "finit_module", "syslog", "sethostname",
           "setdomainname", "reboot", "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown",
           "fchownat", "utime", "utimes", "futimesat", "utimensat", "ioprio_set", "migrate_pages", "move_pages",
           "shmget", "shmat", "shmctl", "semget", "semop", "semctl", "semtimedop", "msgget", "msgsnd", "msgrcv",
           "msgctl", "mq_open", "setsid", "setpgid", "inotify_add_watch", "memfd_create", "memfd_secret", "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr")
_SOCKETS = ("socket", "connect", "bind", "sendmsg", "sendmmsg")
_SIGNALS = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")  # first argument: the target pid
# first argument a pid: allowed on the bot itself only (0 or its own pid), never on another process
_OWN = ("prlimit64", "sched_setparam", "sched_setscheduler", "sched_setaffinity", "sched_setattr")
_BUILD_ONLY = ("fork", "vfork", "tkill")


def supported() -> bool:
    return platform.machine() in _ARCH


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k & 0xFFFFFFFF)


def _errno(number: int) -> int:
    return 0x00050000 | number


def _argument(index: int, high: bool = False) -> int:
    """The offset of a system call argument's low (or high) 32 bits in ``struct seccomp_data``."""
    return 16 + 8 * index + (4 if high else 0)


def program(pid: int, machine: str | None = None, processes: bool = False) -> bytes:
    """The filter for a bot whose process id is ``pid`` (as it sees itself), as packed
    ``sock_filter`` entries.

    ``processes``: a build, which may start processes and signal them.
    """
    arch, numbers = _ARCH[machine or platform.machine()]
    body = [_op(LD_W_ABS, 4), _op(JEQ_K, arch, 1, 0), _op(RET_K, RET_KILL_PROCESS), _op(LD_W_ABS, 0)]
    if arch == _ARCH["x86_64"][0]:
        body += [_op(JGE_K, X32_BIT, 0, 1), _op(RET_K, _errno(errno.EPERM))]
    refuse, no_socket = _op(RET_K, _errno(errno.EPERM)), _op(RET_K, _errno(errno.EACCES))

    def when(name: str, action: list[bytes]) -> None:  # if nr == name: action (which returns), else on
        if name in numbers:
            body.extend([_op(JEQ_K, numbers[name], 0, len(action)), *action])

    def own(index: int) -> list[bytes]:  # the argument is 0 or the bot's pid
        return [_op(LD_W_ABS, _argument(index)), _op(JEQ_K, 0, 2, 0), _op(JEQ_K, pid, 1, 0), refuse,
                _op(RET_K, RET_ALLOW)]

    def argument_is(index: int, test: int, value: int, otherwise: int) -> list[bytes]:
        """Allow when the low 32 bits of the argument pass ``test`` against ``value``, else ``otherwise``."""
        return [_op(LD_W_ABS, _argument(index)), _op(test, value, 0, 1), _op(RET_K, RET_ALLOW), _op(RET_K, otherwise)]

    for name in _DENIED:
        if not (processes and name in _BUILD_ONLY):
            when(name, [refuse])
    # clone: never into new namespaces (a user namespace would hand a build every capability in it);
    # outside a build, threads only. clone3 (whose flags sit in memory) is answered ENOSYS: the C
    # library then uses clone.
    allow = _op(RET_K, RET_ALLOW)
    if processes:
        when("clone", [_op(LD_W_ABS, _argument(0)), _op(JSET_K, CLONE_NEW, 0, 1), refuse, allow])
    else:
        when("clone", [_op(LD_W_ABS, _argument(0)), _op(JSET_K, CLONE_NEW, 1, 0), _op(JSET_K, CLONE_THREAD, 1, 0),
                       refuse, allow])
    when("clone3", [_op(RET_K, _errno(errno.ENOSYS))])
    # fcntl: no F_SETOWN/F_SETSIG, which would have the kernel signal another process (the runner)
    when("fcntl", [_op(LD_W_ABS, _argument(1)), _op(JEQ_K, F_SETOWN, 3, 0), _op(JEQ_K, F_SETOWN_EX, 2, 0),
                   _op(JEQ_K, F_SETSIG, 1, 0), allow, refuse])
    if not processes:
        for name in _SIGNALS:
            when(name, argument_is(0, JEQ_K, pid, _errno(errno.EPERM)))
    for name in _OWN:
        when(name, own(0))
    # setpriority(which, who, prio): PRIO_PROCESS (0) of itself (0) only, not a group or a user's all
    when("setpriority", [_op(LD_W_ABS, _argument(0)), _op(JEQ_K, 0, 1, 0), refuse, _op(LD_W_ABS, _argument(1)),
                         _op(JEQ_K, 0, 1, 0), refuse, _op(RET_K, RET_ALLOW)])
    for name in _SOCKETS:
        when(name, [no_socket])
    when("socketpair", argument_is(0, JEQ_K, AF_UNIX, _errno(errno.EACCES)))
    if "sendto" in numbers:  # sendto(fd, buf, len, flags, addr, addrlen): only without an address
        body.extend([_op(JEQ_K, numbers["sendto"], 0, 6), _op(LD_W_ABS, _argument(4)), _op(JEQ_K, 0, 0, 3),
                     _op(LD_W_ABS, _argument(4, high=True)), _op(JEQ_K, 0, 0, 1), _op(RET_K, RET_ALLOW), no_socket])
    body.append(_op(RET_K, RET_ALLOW))
    return b"".join(body)


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install(code: bytes | None = None) -> None:
    """Put the filter (``code``, default :func:`program`) on this process and what it starts later;
    it cannot be undone."""
    code = code if code is not None else program(os.getpid())
    buffer = ctypes.create_string_buffer(code, len(code))
    prog = _Program(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"seccomp: {os.strerror(ctypes.get_errno())}")
