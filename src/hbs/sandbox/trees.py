"""Folders a bot fills (its compile cache, its scratch, its own folder after a build), walked and
removed without recursion: Python's ``os.walk`` and ``shutil.rmtree`` recurse once a level, and a
bot that nests a thousand folders would take the runner down with a RecursionError."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Iterator

MAX_DEPTH = 64  # levels of folders a bot's own folder may have


class TooDeep(Exception):
    """A tree nested deeper than asked for."""


def walk(root: str | Path, max_depth: int | None = None) -> Iterator[tuple[Path, os.stat_result]]:
    """Every entry below ``root`` with its ``lstat``, parents first, links never followed; raises
    :class:`TooDeep` past ``max_depth`` levels.  Entries that vanish while it walks are skipped."""
    stack = [(Path(root), 0)]
    while stack:
        folder, depth = stack.pop()
        if max_depth is not None and depth > max_depth:
            raise TooDeep(folder)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            path = Path(entry.path)
            yield path, info
            if stat.S_ISDIR(info.st_mode):
                stack.append((path, depth + 1))


def read_regular(path: str | Path, limit: int | None = None) -> bytes:
    """The content of ``path``, read through a descriptor of the file itself: OSError for a link, a
    FIFO or a device put in its place (a FIFO would block the reader), or a file over ``limit`` bytes."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read() if limit is None else fh.read(limit + 1)
    finally:
        os.close(fd)
    if limit is not None and len(data) > limit:
        raise OSError(errno.EFBIG, f"over {limit:,} bytes")
    return data


def remove(path: str | Path) -> None:
    """Remove the tree at ``path``, however deep (coreutils' ``rm``, which keeps no stack of calls;
    without it, ``shutil.rmtree`` and whatever it cannot do left behind)."""
    if not os.path.lexists(path):
        return
    rm = shutil.which("rm")
    if rm:
        subprocess.run([rm, "-rf", "--one-file-system", "--", str(path)], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return
    try:
        shutil.rmtree(path, ignore_errors=True)
    except RecursionError:
        pass
