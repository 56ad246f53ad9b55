"""``hbs new``: a bot to start from, in Python or as a program (C, JavaScript), that passes
``hbs check`` as written: a docstring or description, the games it plays, an option, a setup and a
first guess that fits every answer so far.

The skeletons are files in ``skeletons/LANGUAGE/`` with ``NAME`` where the bot's name goes (and
``NAME_CLASS`` for a Python class name).  The bundled ``bots/first_c`` and ``bots/first_js`` are
these skeletons, made with their names (a test keeps them so).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from hbs.contract.bot import NAME, NAME_RULE
from hbs.errors import InputError

SKELETONS = Path(__file__).with_name("skeletons")


@dataclass(frozen=True)
class Language:
    folder: str  # in SKELETONS
    program: bool  # a folder with a bot.toml, rather than bots/NAME.py
    needs: str | None = None  # the tool the bot needs on this machine (to build or to run it)


LANGUAGES = {
    "python": Language("python", program=False),
    "c": Language("c", program=True, needs="cc"),
    "js": Language("js", program=True, needs="node"),
}


def class_name(name: str) -> str:
    """``my_bot`` -> ``MyBot``: a Python class name for a bot's name."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part) or "Bot"


def create(name: str, language: str, bots_dir: str | Path = "bots") -> list[Path]:
    """Write the skeleton of bot ``name`` in ``language`` into ``bots_dir``; the files written.
    Raises :class:`InputError` for a bad name, an unknown language or a bot already there."""
    if not NAME.fullmatch(name):
        raise InputError(f"{name!r}: {NAME_RULE}")
    if language not in LANGUAGES:
        raise InputError(f"unknown language {language!r}: one of {', '.join(LANGUAGES)}")
    lang, folder = LANGUAGES[language], Path(bots_dir)
    for taken in (folder / f"{name}.py", folder / name):
        if taken.exists() or taken.is_symlink():
            raise InputError("a bot of that name is already there: pick another name", taken)
    target = folder / name if lang.program else folder
    written = []
    try:
        target.mkdir(parents=True, exist_ok=True)
        for source in sorted((SKELETONS / lang.folder).iterdir()):
            if not source.is_file():
                continue
            path = target / source.name.replace("NAME", name)
            path.write_text(fill(source.read_text(), name))
            written.append(path)
    except OSError as exc:
        raise InputError(f"cannot write the bot there: {exc.strerror}", folder) from None
    return written


def fill(text: str, name: str) -> str:
    """A skeleton's text for bot ``name``."""
    return text.replace("NAME_CLASS", class_name(name)).replace("NAME", name)


def missing_tool(language: str) -> str | None:
    """The tool a bot in ``language`` needs that this machine lacks, or None."""
    needs = LANGUAGES[language].needs
    return needs if needs and shutil.which(needs) is None else None
