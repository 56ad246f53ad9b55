"""A seccomp filter a bot's worker puts on itself: no new processes, no network, no reach into others.

A small classic-BPF program, installed with ``prctl`` (no library needed).  What it refuses, whatever
the mechanism that confines the files (bubblewrap or Landlock):

- new processes: ``fork``, ``vfork``, ``clone`` without ``CLONE_THREAD`` (threads stay allowed),
  ``clone3`` (answered ENOSYS, so the C library falls back to ``clone`` for its threads);
- sockets other than ``AF_UNIX``, and ``io_uring`` (which could open them behind the filter's back);
- ``ptrace``, ``process_vm_readv``/``writev``, pidfds; signals to any process but the worker itself;
- new namespaces, mounts, BPF, perf events, keyrings, userfaultfd.

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
X32_BIT = 0x40000000

# architecture -> (AUDIT_ARCH, {name: number}); names missing on an architecture are left out
_ARCH = {
    "x86_64": (0xC000003E, dict(
        fork=57, vfork=58, clone=56, clone3=435, socket=41, io_uring_setup=425, ptrace=101,
        process_vm_readv=310, process_vm_writev=311, pidfd_open=434, pidfd_getfd=438, pidfd_send_signal=424,
        kill=62, tkill=200, tgkill=234, rt_sigqueueinfo=129, rt_tgsigqueueinfo=297, unshare=272, setns=308,
        mount=165, umount2=166, pivot_root=155, bpf=321, perf_event_open=298, keyctl=250, add_key=248,
        request_key=249, userfaultfd=323, open_by_handle_at=304, kexec_load=246, init_module=175,
        finit_module=313)),
    "aarch64": (0xC00000B7, dict(
        clone=220, clone3=435, socket=198, io_uring_setup=425, ptrace=117, process_vm_readv=270,
        process_vm_writev=271, pidfd_open=434, pidfd_getfd=438, pidfd_send_signal=424, kill=129, tkill=130,
        tgkill=131, rt_sigqueueinfo=138, rt_tgsigqueueinfo=240, unshare=97, setns=268, mount=40, umount2=39,
        pivot_root=41, bpf=280, perf_event_open=241, keyctl=219, add_key=217, request_key=218,
        userfaultfd=282, open_by_handle_at=265, kexec_load=104, init_module=105, finit_module=273)),
}
_DENIED = ("fork", "vfork", "io_uring_setup", "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open",
           "pidfd_getfd", "pidfd_send_signal", "tkill", "unshare", "setns", "mount", "umount2", "pivot_root",
           "bpf", "perf_event_open", "keyctl", "add_key", "request_key", "userfaultfd", "open_by_handle_at",
           "kexec_load", "init_module", "finit_module")
_SIGNALS = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")  # first argument: the target pid


def supported() -> bool:
    return platform.machine() in _ARCH


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k & 0xFFFFFFFF)


def _errno(number: int) -> int:
    return 0x00050000 | number


def program(pid: int, machine: str | None = None, processes: bool = False) -> bytes:
    """The filter for a worker whose process id is ``pid``, as packed ``sock_filter`` entries.

    ``processes``: let it start processes and signal them (a bot's build step: compilers do).
    """
    arch, numbers = _ARCH[machine or platform.machine()]
    body = [_op(LD_W_ABS, 4), _op(JEQ_K, arch, 1, 0), _op(RET_K, RET_KILL_PROCESS), _op(LD_W_ABS, 0)]
    if arch == _ARCH["x86_64"][0]:
        body += [_op(JGE_K, X32_BIT, 0, 1), _op(RET_K, _errno(errno.EPERM))]

    def when(name: str, action: list[bytes]) -> None:  # if nr == name: action (which returns)
        if name in numbers:
            body.extend([_op(JEQ_K, numbers[name], 0, len(action)), *action])

    def first_argument(test: int, value: int, otherwise: int) -> list[bytes]:
        return [_op(LD_W_ABS, 16), _op(test, value, 0, 1), _op(RET_K, RET_ALLOW), _op(RET_K, otherwise)]

    for name in _DENIED:
        if not (processes and name in ("fork", "vfork", "tkill")):
            when(name, [_op(RET_K, _errno(errno.EPERM))])
    if not processes:
        when("clone", first_argument(JSET_K, CLONE_THREAD, _errno(errno.EPERM)))
        when("clone3", [_op(RET_K, _errno(errno.ENOSYS))])
        for name in _SIGNALS:
            when(name, first_argument(JEQ_K, pid, _errno(errno.EPERM)))
    when("socket", first_argument(JEQ_K, AF_UNIX, _errno(errno.EACCES)))
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
