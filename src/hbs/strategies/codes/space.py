"""Enumerated spaces of secrets: every code of a code game, or every phrase of a small phrase game.

A space numbers its members ``0..size-1`` in lexicographic order (codes by symbol, phrases by the
word list's order) and grades any guess against any subset of them, answers as small integers.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

import numpy as np
from numba import njit

from hbs.errors import UnsupportedGame
from hbs.core.feedback import answer_matrix, encode_string, encode_strings, grade_codes, grade_strings
from hbs.core.games import CodeGame, PhraseGame

#: The largest phrase game that is enumerated phrase by phrase.
MAX_PHRASES = 2_000_000
#: Answer codes of phrase games: ``black * PHRASE_BASE + white``.
PHRASE_BASE = 1 << 16


class CodeSpace:
    """All codes of a :class:`CodeGame`, with its guess × secret answer matrix built on demand."""

    def __init__(self, game: CodeGame):
        self.game = game
        self.codes = game.space
        self.size = game.size
        self.n_answers = game.n_answers

    @cached_property
    def matrix(self) -> np.ndarray:
        """``uint8[size, size]`` answer codes, guesses by row."""
        return answer_matrix(self.codes, self.codes, self.game.colors)

    def text(self, index: int) -> str:
        return self.game.format(self.codes[index])

    def index(self, text: str) -> int | None:
        return None if self.game.problem(text) else self.game.index(text)

    def answer(self, black: int, white: int) -> int:
        return black * (self.game.pegs + 1) + white

    def answers(self, guess: str, subset: np.ndarray) -> np.ndarray:
        """Answer codes of ``guess`` against the members ``subset`` (``int64[k]``)."""
        index = self.index(guess)
        if index is not None:
            if "matrix" in self.__dict__:
                return self.matrix[index, subset]
            return grade_codes(self.codes[index], self.codes[subset], self.game.colors)
        # a guess that is not a code of the game: grade it as a string
        rows = self.codes[subset]
        symbols = np.frombuffer(self.game.symbols.encode("latin-1"), dtype=np.uint8)
        marks = grade_strings(encode_string(guess), symbols[rows], np.full(len(rows), rows.shape[1], np.int32))
        return marks[:, 0] * (self.game.pegs + 1) + marks[:, 1]


class _Bytes(dict):
    """A ``str.translate`` table: each character of a word list (and the space) to one byte; any
    other character to :data:`OTHER`, which equals none of them."""

    def __missing__(self, key: int) -> str:
        return OTHER


OTHER = "\xff"


def byte_table(words) -> _Bytes:
    """One byte (1..254, the space kept as itself) for each character of ``words``, in code point order.

    The rule only compares characters for equality, so grading the translated strings gives the
    answers of the originals: hyphens, apostrophes, ``é``, ``ß`` or ``ł`` alike.  A list of more than
    253 distinct characters is declined."""
    chars = sorted({ch for word in words for ch in word})
    codes = [b for b in range(1, 255) if b != ord(" ")]  # the space stays itself: phrases are joined by it
    if len(chars) > len(codes):
        raise UnsupportedGame(f"the word list has {len(chars):,} distinct characters; this bot grades "
                              f"phrases one byte a character (at most {len(codes)})")
    return _Bytes({ord(" "): " ", **{ord(ch): chr(code) for ch, code in zip(chars, codes)}})


class PhraseSpace:
    """Every phrase of a small :class:`PhraseGame`, as padded byte rows."""

    def __init__(self, game: PhraseGame):
        if game.size > MAX_PHRASES:
            raise UnsupportedGame(
                f"the phrase game has {game.size:,} phrases; this bot enumerates at most {MAX_PHRASES:,}"
            )
        self.game = game
        self.size = game.size
        self._bytes = byte_table(game.words)
        words, lengths = encode_strings([w.translate(self._bytes) for w in game.words])
        self.rows, self.lengths = enumerate_phrases(words, lengths, game.n_words)
        self._rank = {word: i for i, word in enumerate(game.words)}

    def text(self, index: int) -> str:
        n = len(self.game.words)
        parts = []
        for _ in range(self.game.n_words):
            index, word = divmod(int(index), n)
            parts.append(self.game.words[word])
        return " ".join(reversed(parts))

    def index(self, text: str) -> int | None:
        if self.game.problem(text):
            return None
        rank = 0
        for word in text.split(" "):
            rank = rank * len(self.game.words) + self._rank[word]
        return rank

    def answer(self, black: int, white: int) -> int:
        return black * PHRASE_BASE + white

    def answers(self, guess: str, subset: np.ndarray) -> np.ndarray:
        marks = grade_strings(encode_string(guess.translate(self._bytes)), self.rows[subset], self.lengths[subset])
        return marks[:, 0].astype(np.int64) * PHRASE_BASE + marks[:, 1]


@njit(cache=True)
def enumerate_phrases(words: np.ndarray, lengths: np.ndarray, n_words: int) -> tuple[np.ndarray, np.ndarray]:
    """Every phrase of ``n_words`` words (``uint8[W, w]`` rows, ``int32[W]`` lengths), lexicographic.

    Returns ``uint8[W**n, width]`` zero-padded rows and ``int32[W**n]`` lengths.
    """
    n = words.shape[0]
    total = n**n_words
    width = n_words * lengths.max() + n_words - 1
    rows = np.zeros((total, width), dtype=np.uint8)
    out_len = np.empty(total, dtype=np.int32)
    digits = np.zeros(n_words, dtype=np.int64)
    for p in range(total):
        rest = p
        for k in range(n_words - 1, -1, -1):
            digits[k] = rest % n
            rest //= n
        pos = 0
        for k in range(n_words):
            if k:
                rows[p, pos] = 32
                pos += 1
            w = digits[k]
            for c in range(lengths[w]):
                rows[p, pos] = words[w, c]
                pos += 1
        out_len[p] = pos
    return rows, out_len


@lru_cache(maxsize=4)
def space_for(game: CodeGame | PhraseGame) -> CodeSpace | PhraseSpace:
    """The (cached) enumerated space of ``game``."""
    return CodeSpace(game) if isinstance(game, CodeGame) else PhraseSpace(game)
