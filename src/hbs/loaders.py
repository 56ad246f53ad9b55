"""Reading word lists, phrase files and code files, with one clear error per problem.

Every loader accepts CRLF line ends and a missing final newline, and raises
:class:`hbs.errors.InputError` naming the file, the line and what is wrong.
"""

from __future__ import annotations

import re
from pathlib import Path

from .errors import InputError
from .games import CodeGame, PhraseGame

_WORD = re.compile(r"[a-z]+")


def read_lines(path: str | Path) -> list[str]:
    """The lines of a text file without their line ends; an empty file is an error."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError("not UTF-8 text", path, line) from None
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise InputError("the file is empty", path)
    return lines


def load_words(path: str | Path) -> tuple[str, ...]:
    """A word list: one word of a-z letters a line, no duplicates."""
    seen: dict[str, int] = {}
    for number, word in enumerate(read_lines(path), start=1):
        if not _WORD.fullmatch(word):
            what = "an empty line" if not word else f"{word!r} has characters outside a-z"
            raise InputError(what, path, number)
        if word in seen:
            raise InputError(f"duplicate word {word!r} (first on line {seen[word]})", path, number)
        seen[word] = number
    return tuple(seen)


def load_phrases(path: str | Path, game: PhraseGame) -> list[str]:
    """Secret phrases of ``game``: one a line, words of the game's list joined by single spaces."""
    return _load_secrets(path, game)


def load_codes(path: str | Path, game: CodeGame) -> list[str]:
    """Secret codes of ``game``, one a line."""
    return _load_secrets(path, game)


def _load_secrets(path: str | Path, game: CodeGame | PhraseGame) -> list[str]:
    out = []
    for number, line in enumerate(read_lines(path), start=1):
        problem = game.problem(line)
        if problem:
            raise InputError(problem, path, number)
        out.append(line)
    return out
