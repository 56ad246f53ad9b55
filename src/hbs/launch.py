"""Starts a bot that is a program, confined: ``python -m hbs.launch CONFINEMENT COMMAND...``.

``CONFINEMENT`` is a JSON object: ``{"confine": {...}, "memory_mb": M}`` as
:func:`hbs.confinement.apply` takes it.  This process confines itself (resource limits, Landlock,
seccomp: all kept across ``exec``) and then becomes ``COMMAND``, run in the current folder.
"""

from __future__ import annotations

import json
import os
import sys

from . import confinement


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit("usage: python -m hbs.launch CONFINEMENT COMMAND...")
    settings = json.loads(sys.argv[1])
    command = sys.argv[2:]
    confinement.apply(settings.get("confine"), settings.get("memory_mb"))
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        print(f"hbs.launch: cannot start {command[0]!r}: {exc.strerror}", file=sys.stderr)
        sys.exit(127)


if __name__ == "__main__":
    main()
