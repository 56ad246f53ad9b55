"""The one grading rule as a scalar reference, in plain Python (no numba: cheap to import).

For a guess ``g`` and a secret ``s`` (any strings): ``black`` = number of indices
``i < min(len(g), len(s))`` with ``g[i] == s[i]``; ``white`` = size of the multiset intersection of
the characters of ``g`` and ``s``, minus ``black``; the game is won only when ``g == s``.
The numba kernels that apply it in bulk are in :mod:`hbs.core.feedback`.
"""

from __future__ import annotations


def grade(guess: str, secret: str) -> tuple[int, int]:
    """Return ``(black, white)`` for ``guess`` against ``secret`` — the scalar reference rule."""
    black = sum(a == b for a, b in zip(guess, secret))
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return black, common - black
