"""Answers typed by a person: parsing and plausibility (``1 2``, ``1,2``, ``1A2B`` for bulls)."""

from __future__ import annotations

import re

from hbs.core.games import CodeGame, PhraseGame

_PAIR = re.compile(r"^\s*(\d+)\s*[ ,/]\s*(\d+)\s*$")
_BULLS = re.compile(r"^\s*(\d+)\s*[aA]\s*(\d+)\s*[bB]\s*$")


def parse_answer(text: str, game: CodeGame | PhraseGame, guess: str) -> tuple[int, int]:
    """``(black, white)`` from what a person typed; ``ValueError`` with a clear message otherwise."""
    found = _PAIR.match(text) or (_BULLS.match(text) if game.kind == "bulls" else None)
    if not found:
        example = "`1 2` (or `1A2B`)" if game.kind == "bulls" else "`1 2`"
        raise ValueError(f"type the answer as two numbers, black then white, like {example}")
    black, white = int(found.group(1)), int(found.group(2))
    size = game.pegs if isinstance(game, CodeGame) else len(guess)
    if black + white > size:
        raise ValueError(f"impossible: black + white is at most {size}")
    if isinstance(game, CodeGame) and black == size - 1 and white == 1:
        raise ValueError(f"impossible: {size - 1} black and 1 white cannot happen")
    return black, white
