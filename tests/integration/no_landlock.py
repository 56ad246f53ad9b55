"""Runs ``python ARGS...`` as on a kernel without Landlock: its system calls answer ENOSYS.

    python tests/integration/no_landlock.py -m hbs run ...

A seccomp filter (kept across exec) makes ``landlock_create_ruleset`` fail as an old kernel does.
"""
import errno
import os
import platform
import sys

from hbs.sandbox import seccomp
from hbs.sandbox.seccomp import _ARCH, JEQ_K, LD_W_ABS, RET_ALLOW, RET_K, _errno, _op

arch = _ARCH[platform.machine()][0]
seccomp.install(b"".join([
    _op(LD_W_ABS, 4), _op(JEQ_K, arch, 1, 0), _op(RET_K, RET_ALLOW),
    _op(LD_W_ABS, 0), _op(JEQ_K, 444, 0, 1), _op(RET_K, _errno(errno.ENOSYS)), _op(RET_K, RET_ALLOW),
]))
os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
