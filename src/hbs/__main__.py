"""The ``hbs`` command's entry point (also ``python -m hbs``).

A run that will play in workers starts its first worker before the command line is even read:
the worker loads Python, numpy and hbs while the runner loads typer and rich (see
:func:`hbs.isolation.prestart`).  Everything else is :mod:`hbs.cli`.
"""

from __future__ import annotations

import sys

from .isolation import cores, prestart

IN_PROCESS_FLAGS = {"--in-process", "--sandbox", "--help"}


def plays_in_workers(argv: list[str]) -> bool:
    """Whether ``hbs`` with these arguments is a run that plays in (unsandboxed) workers."""
    return bool(argv) and argv[0] == "run" and not IN_PROCESS_FLAGS & set(argv)


def planned_workers(argv: list[str]) -> int:
    """The ``--workers`` of these arguments (default: the number of cores; 1 if unreadable)."""
    value = None
    for i, arg in enumerate(argv):
        if arg == "--workers" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--workers="):
            value = arg.partition("=")[2]
    if value is None:
        return cores()
    try:
        return max(1, int(value))
    except ValueError:  # the command line reports it
        return 1


def main() -> None:
    argv = sys.argv[1:]
    if plays_in_workers(argv):  # never more than the cores: the rest start when the run needs them
        prestart(min(planned_workers(argv), cores()))
    from .cli import app

    app(prog_name="hbs")


if __name__ == "__main__":
    main()
