"""The first code of every bot process: confines the process, then becomes the bot.

    python -I -B -u -c BOOT HBS_PARENT SETTINGS [COMMAND...]

(:func:`hbs.sandbox.confinement.python_command`.)  ``-I`` keeps the current folder, the script's folder, the
``PYTHON*`` variables and the user's site off the import path, so only the Python installation and
this hbs load here: nothing a bot ships runs before its confinement.  ``SETTINGS`` is a JSON object
(:meth:`hbs.sandbox.confinement.Plan.command`); :func:`hbs.sandbox.confinement.apply` sets the limits, drops every
capability, applies Landlock and the seccomp filter where bubblewrap has not installed it.  Then the
process moves into the bot's folder (a program's) or its scratch, and becomes ``COMMAND`` (a
program bot, or a build) or, without one, the Python worker (:mod:`hbs.sandbox.worker`), which loads the bot.
"""

from __future__ import annotations

import json
import os
import sys

from hbs.sandbox import confinement


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit("usage: python -I -c BOOT HBS_PARENT SETTINGS [COMMAND...]")
    settings, command = json.loads(argv[0]), argv[1:]
    try:
        confinement.apply(settings)
        os.chdir(settings.get("workdir") or "/")
    except OSError as exc:
        print(f"hbs.sandbox.launch: cannot confine the bot: {exc}", file=sys.stderr)
        sys.exit(126)
    if not command:
        from hbs.sandbox.worker import main as worker

        worker()
        return
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        print(f"hbs.sandbox.launch: cannot start {command[0]!r}: {exc.strerror}", file=sys.stderr)
        sys.exit(127)
