"""Giving up every capability: a bot started by a runner that is root gets no privilege from it.

Under Landlock a worker started by root would keep root's capabilities: change any file's owner,
mode or times, read the kernel log, set the host name, reboot.  :func:`drop_all` empties the
bounding, ambient, inheritable, permitted and effective sets and locks the secure bits, so that no
later ``exec`` (of a set-uid program, or of anything as uid 0) gives one back.  Under bubblewrap
the worker's capabilities are its user namespace's only; they are dropped all the same.
"""

from __future__ import annotations

import ctypes
import platform
from pathlib import Path

PR_CAPBSET_DROP, PR_SET_SECUREBITS, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 24, 28, 47, 4
# noroot, no set-uid fixup, no ambient raise, each locked; keep-caps off and locked
SECURE_BITS = 0b11101111
CAPSET = {"x86_64": 126, "aarch64": 91}
VERSION_3 = 0x20080522


class _Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _Data(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def last_cap() -> int:
    try:
        return int(Path("/proc/sys/kernel/cap_last_cap").read_text())
    except (OSError, ValueError):
        return 63


def drop_all() -> None:
    """Empty every capability set of this process, for good.  Without ``CAP_SETPCAP`` (a plain
    user's process) the bounding set and the secure bits stay as they are: such a process has no
    capability to lose, and ``no_new_privs`` keeps a set-uid program from giving it one."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in range(last_cap() + 1):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    libc.prctl(PR_SET_SECUREBITS, SECURE_BITS, 0, 0, 0)
    number = CAPSET.get(platform.machine())
    if number is None:
        return
    header, data = _Header(VERSION_3, 0), (_Data * 2)()
    if libc.syscall(number, ctypes.byref(header), ctypes.byref(data)) != 0:
        raise OSError(ctypes.get_errno(), "capset: cannot drop the capabilities")


def status() -> dict[str, int]:
    """This process's capability sets, as /proc/self/status shows them (``CapEff``, ``CapBnd``...)."""
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("Cap"):
            key, _, value = line.partition(":")
            out[key] = int(value.strip(), 16)
    return out
