"""What a bot returns for a guess, checked: a string or an :class:`hbs.Guess` whose text is a guess, its
count and phase of the right types (the phase cut and cleaned); and the error lines kept of a bot's
exception."""

from __future__ import annotations

import traceback
from numbers import Integral

from hbs.contract import sanitize
from hbs.contract.bot import Guess


MAX_GUESS_LENGTH = 10_000


def guess_problem(text: object) -> str | None:
    """Why ``text`` is not the text of a guess (``invalid`` status), or ``None`` when it is one."""
    if not isinstance(text, str):
        return f"returned {type(text).__name__}, not str"
    if not text:
        return "returned an empty string"
    if len(text) > MAX_GUESS_LENGTH:
        return f"returned {len(text):,} characters (at most {MAX_GUESS_LENGTH:,})"
    if not text.isprintable():
        bad = next(ch for ch in text if not ch.isprintable())
        return f"returned a character that is not printable: {bad!r}"
    return None


def read_guess(value: object) -> tuple[Guess | None, str | None]:
    """What a bot returned, as a :class:`Guess` (its phase bounded and cleaned); or why it is not one
    (``invalid`` status)."""
    if isinstance(value, str):
        value = Guess(value)
    if not isinstance(value, Guess):
        return None, f"returned {type(value).__name__}, not str or hbs.Guess"
    remaining, phase = value.remaining, value.phase
    if remaining is not None:
        if isinstance(remaining, bool) or not isinstance(remaining, Integral) or remaining < 0:
            return None, f"returned remaining={sanitize.clean(repr(remaining), sanitize.PHASE)}, not a count (int >= 0) or None"
        remaining = int(remaining)
    if phase is not None:
        if not isinstance(phase, str):
            return None, f"returned phase={sanitize.clean(repr(phase), sanitize.PHASE)}, not a str or None"
        phase = sanitize.clean(phase, sanitize.PHASE)
    problem = guess_problem(value.text)
    if problem:
        return None, problem
    if remaining is value.remaining and phase is value.phase:
        return value, None
    return Guess(value.text, remaining, phase), None


def last_lines(exc: BaseException, keep: int = 6) -> str:
    """The last ``keep`` lines of an exception's traceback (what a replay keeps of an error)."""
    lines = "".join(traceback.format_exception(exc)).rstrip().splitlines()
    return "\n".join(lines[-keep:])
