"""Text a bot supplies (its docstring, a guess's phase, an error, what it printed), made safe to show.

Every such text is bounded and cleaned where it enters the runner, so that whatever shows it later
(a terminal, a replay, Markdown, HTML) never meets a control character: escape sequences that move
a terminal's cursor or rewrite its lines, carriage returns, bidirectional overrides.  They are shown
as Python writes them in a string (``\\x1b``, ``\\r``, ``\\u202e``).  Markdown and rich's markup
get their own escaping (:func:`markdown_cell`; rich: :class:`rich.text.Text`).
"""

from __future__ import annotations

PHASE = 100  # characters of a guess's phase
SUMMARY = 200  # of a docstring's first line
ERROR = 2000  # of an error's text
LOG = 4096  # of what a bot printed, kept with a failed game


def clean(text: object, limit: int, lines: bool = False) -> str:
    """``text`` as a string of at most ``limit`` characters, every character that is not printable
    escaped (``lines`` keeps line breaks and tabs); a longer one is cut and ends with a note of its
    length.  Cleaning a cleaned text changes nothing."""
    text = str(text)
    length = len(text)
    text = text[:limit]
    if not text.isprintable():
        text = "".join(c if c.isprintable() or (lines and c in "\n\t") else _escape(c) for c in text)
    if length <= limit and len(text) <= limit:
        return text
    note = f"… (cut from {length:,} characters)"
    return text[: limit - len(note)] + note if limit > len(note) else text[:limit]


def _escape(c: str) -> str:
    return c.encode("unicode_escape").decode("ascii") if c not in "\n\r\t" else {"\n": "\\n", "\r": "\\r", "\t": "\\t"}[c]


def markdown_cell(text: object) -> str:
    """``text`` for a cell of a Markdown table: one line, ``|`` escaped."""
    return clean(text, ERROR).replace("\\", "\\\\").replace("|", "\\|")
