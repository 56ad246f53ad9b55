"""Reading word lists, phrase files and code files, with one clear error per problem.

Every loader accepts CRLF line ends, a missing final newline and a byte-order mark (dropped), and
raises :class:`hbs.errors.InputError` naming the file, the line and what is wrong.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from hbs.errors import InputError
from hbs.core.games import CodeGame, PhraseGame

BOM = "\ufeff"


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
    lines = text.removeprefix(BOM).replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise InputError("the file is empty", path)
    return lines


def word_problem(word: str) -> str | None:
    """Why ``word`` cannot be a word of a list (empty; a space, a control or an invisible format
    character in it), or None.

    Any other character is a character of the game: letters beyond a-z, digits, hyphens, apostrophes.
    """
    if not word:
        return "an empty line"
    for ch in word:
        kind = unicodedata.category(ch)
        if kind.startswith("Z"):
            return f"{word!r} has a space in it ({unicodedata.name(ch, hex(ord(ch)))}): words are joined by spaces"
        if kind == "Cc":
            return f"{word!r} has a control character in it ({ch!r})"
        if kind == "Cf":
            return f"{word!r} has an invisible format character in it (U+{ord(ch):04X})"
    return None


def load_words(path: str | Path) -> tuple[str, ...]:
    """A word list: one word a line (any characters but spaces and control characters), no duplicates."""
    seen: dict[str, int] = {}
    for number, word in enumerate(read_lines(path), start=1):
        what = word_problem(word)
        if what:
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
