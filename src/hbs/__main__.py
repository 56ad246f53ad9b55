"""The ``hbs`` command's entry point (also ``python -m hbs``).

A run that will play in workers starts its first workers before the command line is even read:
they load Python, numpy and hbs while the runner loads typer and rich (see
:func:`hbs.sandbox.workers.prestart`).  They are started under the confinement the arguments ask for; if
the run turns out to want another one (this look at the arguments is a guess), they are not used.
Everything else is :mod:`hbs.cli`.
"""

from __future__ import annotations

import sys
import warnings

from hbs.sandbox.confinement import Plan
from hbs.sandbox.workers import cores, prestart

IN_PROCESS_FLAGS = {"--in-process", "--help"}


def plays_in_workers(argv: list[str]) -> bool:
    """Whether ``hbs`` with these arguments is a run that plays in workers."""
    return (bool(argv) and argv[0] == "run" and not IN_PROCESS_FLAGS & set(argv)
            and values(argv, "--backend")[-1:] in ([], ["local"]))


def values(argv: list[str], flag: str) -> list[str]:
    """Every value given to ``flag`` (``--flag V`` or ``--flag=V``)."""
    found = []
    for i, arg in enumerate(argv):
        if arg == flag and i + 1 < len(argv):
            found.append(argv[i + 1])
        elif arg.startswith(flag + "="):
            found.append(arg.partition("=")[2])
    return found


def planned_workers(argv: list[str]) -> int:
    """The ``--workers`` of these arguments (default: the number of cores; 1 if unreadable)."""
    given = values(argv, "--workers")
    if not given:
        return cores()
    try:
        return max(1, int(given[-1]))
    except ValueError:  # the command line reports it
        return 1


def planned_confinement(argv: list[str]) -> Plan | None:
    """The confinement plan the run will ask for, or None where the arguments do not say it plainly."""
    from hbs.sandbox import confinement
    from hbs.contract.bot import locate
    from hbs.errors import HbsError
    from hbs.sandbox.workers import Budgets
    from hbs.arena.request import default_words

    bots = values(argv, "--bot")
    if not bots:
        return None
    try:
        mechanism, _ = confinement.choose((values(argv, "--sandbox") or ["auto"])[-1], "--unconfined" in argv)
        source = locate(bots[-1], values(argv, "--bots-dir"))
        phrases = values(argv, "--phrases") or values(argv, "--game")[-1:] == ["phrases"]
        words = (values(argv, "--words") or [default_words()])[-1] if phrases else None
        memory = int((values(argv, "--memory") or [Budgets().memory_mb])[-1])
        return confinement.plan(mechanism, source, words, memory)
    except (HbsError, OSError, ValueError):  # the command line reports it
        return None


def show_notes() -> None:
    """Library warnings meant for the user (a bot's compile cache emptied) as one ``hbs: note:`` line."""
    from hbs.sandbox.caches import CacheReset

    warnings.simplefilter("always", CacheReset)
    shown = warnings.showwarning

    def show(message, category, *args, **kwargs):
        if issubclass(category, CacheReset):
            print(f"hbs: note: {message}", file=sys.stderr, flush=True)
        else:
            shown(message, category, *args, **kwargs)

    warnings.showwarning = show


def main() -> None:
    argv = sys.argv[1:]
    show_notes()
    if plays_in_workers(argv):  # never more than the cores: the rest start when the run needs them
        plan = planned_confinement(argv)
        if plan is not None:
            prestart(min(planned_workers(argv), cores()), plan)
    from hbs.cli import app

    app(prog_name="hbs")


if __name__ == "__main__":
    main()
