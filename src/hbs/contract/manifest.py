"""A bot that is a program: ``bots/NAME/bot.toml`` (command, build, games, options), read and checked.

The protocol such a program speaks is ``docs/protocol.md``.  Reading a manifest runs nothing.
"""

from __future__ import annotations

import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from hbs.core.games import KINDS
from hbs.errors import BotLoadError
from hbs.sandbox import trees

FILE = "bot.toml"
SEARCH_PATH = "/usr/local/bin:/usr/bin:/bin"  # the PATH a confined program gets
MAX_BYTES = 1 << 16


@dataclass(frozen=True)
class Manifest:
    """What ``bot.toml`` says."""

    folder: Path
    command: tuple[str, ...]
    games: frozenset[str]
    build: tuple[str, ...] = ()
    description: str = ""
    options: dict[str, str] = field(default_factory=dict, hash=False)

    @property
    def path(self) -> Path:
        return self.folder / FILE

    def program(self) -> str | None:
        """The program ``command`` starts, as a path; None when it is not there."""
        name = self.command[0]
        if "/" in name:
            path = (self.folder / name).resolve()
            return str(path) if path.is_file() else None
        return shutil.which(name, path=SEARCH_PATH)


def read(folder: str | Path) -> Manifest:
    """The manifest of the bot folder ``folder``; :class:`BotLoadError` (file: what is wrong) if bad."""
    folder = Path(folder)
    path = folder / FILE
    try:
        data = tomllib.loads(trees.read_regular(path, MAX_BYTES).decode("utf-8"))
    except OSError as exc:
        raise BotLoadError(f"cannot read: {exc.strerror}", path) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise BotLoadError(f"not TOML: {str(exc)[:200] or 'nested too deep'}", path) from None
    unknown = sorted(set(data) - {"command", "build", "games", "description", "options"})
    if unknown:
        raise BotLoadError(f"unknown key {unknown[0]!r} (keys: command, build, games, description, options)", path)
    command = _strings(data.get("command"), "command", path)
    if not command:
        raise BotLoadError("command must name the program to run, e.g. command = [\"./mybot\"]", path)
    build = _strings(data.get("build", []), "build", path)
    games = _strings(data.get("games"), "games", path)
    bad = [g for g in games if g not in KINDS]
    if not games or bad:
        raise BotLoadError(f"games must list some of {', '.join(KINDS)}" + (f", not {bad[0]!r}" if bad else ""), path)
    description = data.get("description", "")
    options = data.get("options", {})
    if not isinstance(description, str) or not isinstance(options, dict):
        raise BotLoadError("description must be a string and options a table", path)
    return Manifest(folder.resolve(), tuple(command), frozenset(games), tuple(build), description,
                    {str(k): str(v) for k, v in options.items()})


def _strings(value: object, key: str, path: Path) -> list[str]:
    if value is None:
        raise BotLoadError(f"{key} is missing", path)
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise BotLoadError(f"{key} must be a list of strings", path)
    return value
