"""Bots that are programs (``bots/NAME/bot.toml``): their confined build.

A program bot's worker is the program itself, started through :mod:`hbs.sandbox.launch`, which confines the
process before it becomes the program (:class:`hbs.sandbox.workers.Worker`).  Its build (``build`` in
``bot.toml``) is untrusted code too: it runs confined like the bot, except that it may start
processes and write into the bot's own folder.  It may not change a file's mode (as root under
Landlock it would own every other bot's files): hbs marks the built program executable itself.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path

from hbs.contract import sanitize
from hbs.sandbox import trees
from hbs.sandbox.confinement import Plan, task_cap
from hbs.errors import InputError
from hbs.contract.manifest import Manifest

BUILD_MEMORY_MB = 4096


def build(name: str, manifest: Manifest, plan: Plan, timeout: float, memory_mb: int = BUILD_MEMORY_MB) -> None:
    """Run the bot's build step (if any) confined, then check that its program is there.

    The build gets the bot's memory (``--memory``): each of its processes, and where hbs can make a
    memory cgroup (as root) all of them together.

    Raises :class:`InputError` (exit 2) with one line when the build fails, leaves a link that leads
    out of the folder, or the program is missing.
    """
    from hbs.contract.bot import check_links
    from hbs.sandbox.workers import Tail, spawn

    if manifest.build:
        building = replace(plan, writable=(str(manifest.folder),), processes=True, memory_mb=memory_mb,
                           workdir=str(manifest.folder))
        scratch = tempfile.mkdtemp(prefix="hbs-build-") if plan.mechanism == "landlock" else None
        cap = task_cap(building)
        env = building.environment(scratch or "/tmp") if plan.confined else None
        process = spawn(building, list(manifest.build), scratch, env, cap, stdin=subprocess.DEVNULL)
        out, err = Tail(process.stdout), Tail(process.stderr)  # the last lines only: it may write without end
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise InputError(f"bot {name!r}: the build did not finish within {timeout:g} s", manifest.path) from None
        finally:
            try:  # its whole process group: what it started too (it may not leave the group)
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            process.wait()
            if cap is not None:
                cap.remove()
            said = err.take(1) or out.take(1) or "no output"
            for tail in (out, err):
                tail.close()
            if scratch:
                trees.remove(scratch)
        if process.returncode != 0:  # what it said, and its command line, are the bot's text
            said = sanitize.clean(said, sanitize.SUMMARY)
            command = sanitize.clean(" ".join(manifest.build), sanitize.SUMMARY)
            raise InputError(f"bot {name!r}: the build `{command}` failed (exit {process.returncode}): {said}",
                             manifest.path)
        check_links(name, manifest.folder)
    program = manifest.program()
    if program is None:
        raise InputError(f"bot {name!r}: its program {manifest.command[0]!r} is missing"
                         + (" after the build" if manifest.build else ""), manifest.path)
    if manifest.build and Path(program).is_relative_to(manifest.folder):
        executable(program)


def executable(path: str) -> None:
    """Mark the file executable where it is readable, through a descriptor of the file itself (not a
    link put in its place)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISREG(mode):
            os.fchmod(fd, mode | (mode & 0o444) >> 2 | stat.S_IXUSR)
    finally:
        os.close(fd)
