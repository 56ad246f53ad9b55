"""Linux Landlock, through its three system calls: a process restricts itself, for good.

Landlock (Linux >= 5.13, no root, no package) lets a process give up access to every file but the
ones it names, TCP bind and connect (ABI 4), and signals and abstract unix sockets beyond its own
domain (ABI 6); children inherit the restriction and nothing can lift it.  The PyPI bindings we
looked at cover the file rights only, so this module speaks to the kernel with ctypes.
"""

from __future__ import annotations

import ctypes
import os
import platform
from typing import Iterable

from hbs.errors import InputError

_SYSCALLS = {"x86_64": (444, 445, 446), "aarch64": (444, 445, 446)}  # create_ruleset, add_rule, restrict_self
PR_SET_NO_NEW_PRIVS = 38
RULE_PATH_BENEATH = 1
CREATE_RULESET_VERSION = 1

# file-system rights by the ABI that brought them
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_MAKE_ALL = sum(1 << b for b in range(4, 13))  # remove dir/file, make char/dir/reg/sock/fifo/block/sym
FS_REFER, FS_TRUNCATE, FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1
FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV  # allowed on a file rule


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def abi() -> int:
    """The kernel's Landlock ABI version; 0 where it has none (not Linux, too old, or disabled)."""
    numbers = _SYSCALLS.get(platform.machine())
    if numbers is None:
        return 0
    try:
        version = _libc().syscall(numbers[0], None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
    except OSError:
        return 0
    return max(0, int(version))


def handled_fs(version: int) -> int:
    """Every file-system right this ABI can restrict."""
    rights = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_READ_DIR | FS_MAKE_ALL
    if version >= 2:
        rights |= FS_REFER
    if version >= 3:
        rights |= FS_TRUNCATE
    if version >= 5:
        rights |= FS_IOCTL_DEV
    return rights


def restrict(read: Iterable[str], write: Iterable[str]) -> int:
    """Restrict this process (and what it starts) to reading ``read`` and writing ``write``.

    Also takes away TCP bind and connect (ABI >= 4) and signals and abstract unix sockets beyond
    its own domain (ABI >= 6).  Paths that do not exist are skipped.  Returns the ABI used; raises
    :class:`InputError` where the kernel has no Landlock.
    """
    version = abi()
    if version < 1:
        raise InputError("Landlock is not available on this kernel (Linux >= 5.13 with Landlock enabled)")
    libc = _libc()
    create, add_rule, restrict_self = _SYSCALLS[platform.machine()]
    handled = handled_fs(version)
    attr = _RulesetAttr(handled, NET_BIND_TCP | NET_CONNECT_TCP if version >= 4 else 0,
                        SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if version >= 6 else 0)
    size = 8 if version < 4 else 16 if version < 6 else 24
    ruleset = libc.syscall(create, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), f"landlock_create_ruleset: {os.strerror(ctypes.get_errno())}")
    try:
        reading = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
        for paths, rights in ((read, reading), (write, handled)):
            for path in paths:
                _allow(libc, add_rule, ruleset, path, rights & handled)
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
        if libc.syscall(restrict_self, ruleset, ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), f"landlock_restrict_self: {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(ruleset)
    return version


def _allow(libc: ctypes.CDLL, add_rule: int, ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(path):
            rights &= FILE_RIGHTS
        rule = _PathBeneathAttr(rights, fd)
        if libc.syscall(add_rule, ruleset, RULE_PATH_BENEATH, ctypes.byref(rule), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), f"landlock_add_rule {path}: {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(fd)
