"""The typed errors of hbs.  The library raises them and never prints or exits; the CLI turns each
into one line on stderr and an exit code (``exit_code``)."""

from __future__ import annotations

from pathlib import Path


class HbsError(Exception):
    """Base of every error hbs reports to a user."""

    exit_code = 1


class InputError(HbsError):
    """Bad input from the user: a file, a line in it, or an option.  Exit code 2."""

    exit_code = 2

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        where = ""
        if self.path is not None:
            where = f"{self.path}:{line}: " if line is not None else f"{self.path}: "
        super().__init__(where + message)


class BotLoadError(InputError):
    """A bot that is unknown, fails to import, or does not define exactly one Bot subclass."""


class UnsupportedGame(InputError):
    """A bot declines to play a game (raised from ``Bot.setup``)."""
