"""Bots that are programs (``bots/NAME/bot.toml``): their confined build, and how a worker starts them.

A program bot's worker is the program itself, started through :mod:`hbs.launch`, which confines
the process before it becomes the program.  Its build (``build`` in ``bot.toml``) is untrusted
code too: it runs confined like the bot, except that it may start processes and write into the
bot's own folder.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace

from .confinement import Plan
from .errors import InputError
from .manifest import Manifest


def command(manifest: Manifest, plan: Plan, scratch: str | None, memory_mb: int | None) -> list[str]:
    """The command line that starts the program confined as ``plan`` says."""
    settings = {"confine": plan.payload(scratch), "memory_mb": memory_mb}
    return [*plan.prefix(), sys.executable, "-m", "hbs.launch", json.dumps(settings), *manifest.command]


def build(name: str, manifest: Manifest, plan: Plan, timeout: float) -> None:
    """Run the bot's build step (if any) confined, then check that its program is there.

    Raises :class:`InputError` (exit 2) with one line when the build fails or the program is missing.
    """
    if manifest.build:
        building = replace(plan, writable=(str(manifest.folder),), processes=True)
        scratch = tempfile.mkdtemp(prefix="hbs-build-") if plan.mechanism == "landlock" else None
        try:
            done = subprocess.run(
                command(replace(manifest, command=manifest.build), building, scratch, 4096),
                cwd=manifest.folder, env=building.environment(scratch or "/tmp") if plan.confined else None,
                capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            raise InputError(f"bot {name!r}: the build did not finish within {timeout:g} s", manifest.path) from None
        finally:
            if scratch:
                shutil.rmtree(scratch, ignore_errors=True)
        if done.returncode != 0:
            said = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
            raise InputError(f"bot {name!r}: the build `{' '.join(manifest.build)}` failed "
                             f"(exit {done.returncode}): {said}", manifest.path)
    if manifest.program() is None:
        raise InputError(f"bot {name!r}: its program {manifest.command[0]!r} is missing"
                         + (" after the build" if manifest.build else ""), manifest.path)
