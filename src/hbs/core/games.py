"""The games: what a secret looks like, the space of secrets, and how codes are written.

* ``mastermind`` — ``pegs`` positions, ``colors`` symbols (the first ``colors`` of ``alphabet``),
  repeats allowed; the whole space is ``colors ** pegs`` codes in lexicographic order.
* ``bulls`` — ``pegs`` distinct digits ``0-9`` (leading 0 allowed); 5040 codes for 4 pegs.
* ``phrases`` — ``n_words`` words of a word list joined by single spaces, repeats allowed.

A game object is what a bot's ``setup`` receives: it describes the rules and never a secret.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from hbs.errors import InputError

if TYPE_CHECKING:
    import numpy as np

#: The kinds of game: what ``--game`` takes and what bots declare in ``games``.
KINDS = ("mastermind", "bulls", "phrases")
DEFAULT_ALPHABET = "123456789"
DIGITS = "0123456789"
#: The largest code space hbs enumerates.
MAX_SPACE = 20_000_000


@dataclass(frozen=True, eq=True)
class CodeGame:
    """A fixed-width code game (``mastermind`` or ``bulls``)."""

    kind: str = "mastermind"
    pegs: int = 4
    colors: int = 6
    alphabet: str = DEFAULT_ALPHABET

    def __post_init__(self) -> None:
        if self.kind not in ("mastermind", "bulls"):
            raise InputError(f"unknown code game {self.kind!r}")
        if self.pegs < 1:
            raise InputError(f"--pegs must be at least 1, got {self.pegs}")
        if self.colors < 1 or self.colors > len(self.alphabet):
            raise InputError(f"--colors must be 1..{len(self.alphabet)} (the alphabet's length), got {self.colors}")
        if len(set(self.alphabet)) != len(self.alphabet):
            raise InputError(f"--alphabet has repeated symbols: {self.alphabet!r}")
        if self.kind == "bulls" and self.pegs > self.colors:
            raise InputError(f"bulls needs at most {self.colors} pegs, got {self.pegs}")
        if self.pegs >= 16:
            raise InputError(f"--pegs must be at most 15, got {self.pegs}")
        if self.size > MAX_SPACE:
            raise InputError(f"the {self.name} space has {self.size:,} codes; at most {MAX_SPACE:,} are supported")

    @property
    def distinct(self) -> bool:
        """Whether symbols may not repeat within a code (Bulls and Cows)."""
        return self.kind == "bulls"

    @property
    def name(self) -> str:
        return f"mastermind-{self.pegs}x{self.colors}" if self.kind == "mastermind" else f"bulls-{self.pegs}"

    @property
    def symbols(self) -> str:
        return self.alphabet[: self.colors]

    @property
    def size(self) -> int:
        if self.distinct:
            return math.perm(self.colors, self.pegs)
        return self.colors**self.pegs

    @property
    def n_answers(self) -> int:
        """How many answer codes exist (``(pegs + 1) ** 2``, some unreachable)."""
        return (self.pegs + 1) ** 2

    def _rows(self):
        """Every code as a tuple of symbol indices, in lexicographic order."""
        if self.distinct:
            return itertools.permutations(range(self.colors), self.pegs)
        return itertools.product(range(self.colors), repeat=self.pegs)

    @cached_property
    def space(self) -> np.ndarray:
        """Every code as ``uint8[size, pegs]`` symbol indices, in lexicographic order."""
        import numpy as np  # here, not at the top: the runner process does not need numpy

        return np.array(list(self._rows()), dtype=np.uint8).reshape(self.size, self.pegs)

    def format(self, row: np.ndarray) -> str:
        """The written form of a code given as symbol indices."""
        return "".join(self.symbols[int(i)] for i in row)

    def problem(self, text: str) -> str | None:
        """Why ``text`` is not a code of this game, or ``None`` when it is."""
        if len(text) != self.pegs:
            return f"{text!r} is not a {self.name} code: it needs {self.pegs} symbols, not {len(text)}"
        bad = sorted(set(ch for ch in text if ch not in self.symbols))
        if bad:
            return f"{text!r} is not a {self.name} code: {''.join(bad)!r} not in {self.symbols!r}"
        if self.distinct and len(set(text)) != len(text):
            return f"{text!r} is not a {self.name} code: its digits must be distinct"
        return None

    def index(self, text: str) -> int:
        """Position of a code in :attr:`space` (lexicographic rank)."""
        digits = [self.symbols.index(ch) for ch in text]
        if not self.distinct:
            rank = 0
            for d in digits:
                rank = rank * self.colors + d
            return rank
        rank, used = 0, []
        for pos, d in enumerate(digits):
            smaller = d - sum(1 for u in used if u < d)
            rank += smaller * math.perm(self.colors - pos - 1, self.pegs - pos - 1)
            used.append(d)
        return rank

    def codes(self) -> list[str]:
        """Every code, written, in lexicographic order."""
        return ["".join(self.symbols[i] for i in row) for row in self._rows()]

    def fitting(self, history) -> list[str]:
        """The codes, in lexicographic order, that fit every turn of ``history`` (guess, black,
        white; a guess answered short of solved is not the secret): by the scalar rule, in plain
        Python, for a simple bot whose worker then never loads numba.  Each history's codes are
        kept (the last 4,096), and a history's are its parent's that fit its last turn: a walk
        over a decision tree (`hbs tree`) grades each code once a node."""
        return list(_fitting(self, tuple((str(g), int(b), int(w)) for g, b, w in history)))

    def to_payload(self) -> dict:
        """The rules as JSON data, as a worker (or a bot in another language) receives them."""
        return {"kind": self.kind, "pegs": self.pegs, "colors": self.colors, "alphabet": self.alphabet}


@lru_cache(maxsize=1 << 12)
def _fitting(game: CodeGame, history: tuple) -> tuple[str, ...]:
    if not history:
        return tuple(game.codes())
    from hbs.core.rule import grade

    g, b, w = history[-1]
    return tuple(c for c in _fitting(game, history[:-1]) if grade(g, c) == (b, w) and g != c)


@dataclass(frozen=True, eq=True)
class PhraseGame:
    """The passphrase game: ``n_words`` words of ``words`` joined by single spaces."""

    words: tuple[str, ...] = field(repr=False)
    n_words: int = 3
    kind: str = "phrases"

    def __post_init__(self) -> None:
        if not self.words:
            raise InputError("the word list is empty")
        if not 1 <= self.n_words <= 8:
            raise InputError(f"--n-words must be 1..8, got {self.n_words}")

    @property
    def name(self) -> str:
        return f"phrases-{self.n_words}x{len(self.words)}"

    @property
    def size(self) -> int:
        return len(self.words) ** self.n_words

    @cached_property
    def word_set(self) -> frozenset[str]:
        return frozenset(self.words)

    def to_payload(self) -> dict:
        """The rules as JSON data, as a worker (or a bot in another language) receives them."""
        return {"kind": "phrases", "words": list(self.words), "n_words": self.n_words}

    def problem(self, text: str) -> str | None:
        """Why ``text`` is not a phrase of this game, or ``None`` when it is."""
        parts = text.split(" ")
        if len(parts) != self.n_words:
            return f"{text!r} has {len(parts)} words separated by single spaces, not {self.n_words}"
        for word in parts:
            if word not in self.word_set:
                return f"{word!r} is not in the word list" if word else f"{text!r} has an empty word"
        return None


Game = CodeGame | PhraseGame


def from_payload(data: dict) -> Game:
    """A game from its :meth:`~CodeGame.to_payload` data; bad data raises :class:`InputError`."""
    try:
        if data["kind"] == "phrases":
            return PhraseGame(tuple(data["words"]), int(data["n_words"]))
        return CodeGame(data["kind"], int(data["pegs"]), int(data["colors"]), str(data["alphabet"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"not a game: {exc!r}") from None


def defaults(words: tuple[str, ...]) -> dict[str, Game]:
    """The game of each kind that listings and checks use: 4x6 Mastermind, Bulls and Cows, 3 words."""
    return {"mastermind": mastermind(), "bulls": bulls(), "phrases": PhraseGame(words, 3)}


def bulls(pegs: int = 4) -> CodeGame:
    """Bulls and Cows with ``pegs`` distinct digits."""
    return CodeGame("bulls", pegs, 10, DIGITS)


def mastermind(pegs: int = 4, colors: int = 6, alphabet: str = DEFAULT_ALPHABET) -> CodeGame:
    """Mastermind with ``pegs`` positions and ``colors`` symbols."""
    return CodeGame("mastermind", pegs, colors, alphabet)
