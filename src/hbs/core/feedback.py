"""The one grading rule: a scalar reference and the numba kernels that apply it in bulk.

For a guess ``g`` and a secret ``s`` (any strings):

* ``black`` = number of indices ``i < min(len(g), len(s))`` with ``g[i] == s[i]``;
* ``white`` = size of the multiset intersection of the characters of ``g`` and ``s``, minus ``black``;
* the game is won only when ``g == s``.

Inside hbs an answer of a fixed-width code game is one small integer,
``black * (pegs + 1) + white`` (see :func:`answer_code`); ``(black, white)`` appears only at the
edges.  Codes are encoded as C-contiguous ``uint8`` arrays of symbol indices; strings of any length
as ``uint8`` byte rows padded with zeros plus an array of lengths.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from hbs.core.rule import grade  # noqa: F401  (the scalar reference, re-exported beside its kernels)


def answer_code(black: int, white: int, pegs: int) -> int:
    """The small integer that stands for ``(black, white)`` in a game of ``pegs`` positions."""
    return black * (pegs + 1) + white


def answer_pair(code: int, pegs: int) -> tuple[int, int]:
    """Inverse of :func:`answer_code`."""
    return divmod(int(code), pegs + 1)


def encode_strings(texts: list[str] | tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Encode strings as a zero-padded ``uint8[n, maxlen]`` byte matrix and ``int32[n]`` lengths.

    Only characters with code points 1..255 are accepted (0 is the padding).
    """
    lengths = np.array([len(t) for t in texts], dtype=np.int32)
    width = int(lengths.max()) if len(texts) else 0
    out = np.zeros((len(texts), max(width, 1)), dtype=np.uint8)
    for i, text in enumerate(texts):
        raw = text.encode("latin-1")
        out[i, : len(raw)] = np.frombuffer(raw, dtype=np.uint8)
    return out, lengths


@njit(cache=True)
def encode_joined(parts: np.ndarray, part_bytes: np.ndarray, part_lengths: np.ndarray, sep: int = 32) -> tuple[np.ndarray, np.ndarray]:
    """:func:`encode_strings` of texts made of parts (a phrase of words) joined by the byte ``sep``,
    without building the strings: ``parts`` is ``int64[n, m]`` part indices, ``part_bytes`` and
    ``part_lengths`` the parts as :func:`encode_strings` encodes them."""
    n, m = parts.shape
    lengths = np.empty(n, dtype=np.int32)
    for i in range(n):
        total = m - 1
        for j in range(m):
            total += part_lengths[parts[i, j]]
        lengths[i] = total
    out = np.zeros((n, max(lengths.max() if n else 0, 1)), dtype=np.uint8)
    for i in range(n):
        at = 0
        for j in range(m):
            if j:
                out[i, at] = sep
                at += 1
            p = parts[i, j]
            for c in range(part_lengths[p]):
                out[i, at + c] = part_bytes[p, c]
            at += part_lengths[p]
    return out, lengths


def encode_string(text: str) -> np.ndarray:
    """Encode one string as a ``uint8[len]`` array."""
    return np.frombuffer(text.encode("latin-1"), dtype=np.uint8).copy()


@njit(cache=True)
def symbol_counts(codes: np.ndarray, ncolors: int) -> np.ndarray:
    """``uint8[n, ncolors]``: how often each symbol occurs in each row of ``codes`` (``uint8[n, P]``)."""
    n, pegs = codes.shape
    out = np.zeros((n, ncolors), dtype=np.uint8)
    for i in range(n):
        for k in range(pegs):
            out[i, codes[i, k]] += 1
    return out


@njit(cache=True, inline="always")
def code_answer(guess, guess_counts, secret, secret_counts, ncolors, pegs):
    """The answer code of one code against another (rows of a space and of its :func:`symbol_counts`)."""
    black = 0
    for k in range(pegs):
        if guess[k] == secret[k]:
            black += 1
    total = 0
    for c in range(ncolors):
        a = guess_counts[c]
        b = secret_counts[c]
        total += a if a < b else b
    return black * (pegs + 1) + total - black


@njit(cache=True)
def grade_codes(guess: np.ndarray, secrets: np.ndarray, ncolors: int) -> np.ndarray:
    """Answer codes (``uint8[n]``) of one code ``guess`` (``uint8[P]``) against ``secrets`` (``uint8[n, P]``)."""
    n, pegs = secrets.shape
    gc = symbol_counts(guess.reshape(1, pegs), ncolors)[0]
    sc = symbol_counts(secrets, ncolors)
    out = np.empty(n, dtype=np.uint8)
    for j in range(n):
        out[j] = code_answer(guess, gc, secrets[j], sc[j], ncolors, pegs)
    return out


@njit(cache=True, parallel=True)
def answer_matrix(guesses: np.ndarray, secrets: np.ndarray, ncolors: int) -> np.ndarray:
    """The full answer matrix ``uint8[g, s]`` of ``guesses`` (``uint8[g, P]``) × ``secrets`` (``uint8[s, P]``)."""
    g, pegs = guesses.shape
    s = secrets.shape[0]
    gcounts = symbol_counts(guesses, ncolors)
    scounts = symbol_counts(secrets, ncolors)
    out = np.empty((g, s), dtype=np.uint8)
    for i in prange(g):
        row = out[i]
        guess = guesses[i]
        gc = gcounts[i]
        for j in range(s):
            row[j] = code_answer(guess, gc, secrets[j], scounts[j], ncolors, pegs)
    return out


@njit(cache=True, inline="always")
def string_answer(guess, glen, gcount, used, secret, slen):
    """``(black, total)`` of byte string ``guess[:glen]`` against ``secret[:slen]``.

    ``gcount`` (``int[256]``) holds the guess's byte counts; ``used`` is zeroed scratch, left zeroed.
    """
    black = 0
    for k in range(min(glen, slen)):
        if guess[k] == secret[k]:
            black += 1
    total = 0
    for k in range(slen):
        c = secret[k]
        if used[c] < gcount[c]:
            used[c] += 1
            total += 1
    for k in range(slen):
        used[secret[k]] = 0
    return black, total


@njit(cache=True)
def byte_counts(row: np.ndarray, length: int) -> np.ndarray:
    """``int64[256]``: how often each byte occurs in ``row[:length]``."""
    out = np.zeros(256, dtype=np.int64)
    for k in range(length):
        out[row[k]] += 1
    return out


@njit(cache=True)
def grade_strings(guess: np.ndarray, secrets: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``int32[n, 2]`` of (black, white) for a byte string ``guess`` against padded ``secrets``.

    ``guess`` is ``uint8[m]``; ``secrets`` is ``uint8[n, w]`` with true lengths ``lengths`` (``int32[n]``).
    """
    n = secrets.shape[0]
    m = guess.shape[0]
    gcount = byte_counts(guess, m)
    used = np.zeros(256, dtype=np.int64)
    out = np.empty((n, 2), dtype=np.int32)
    for j in range(n):
        black, total = string_answer(guess, m, gcount, used, secrets[j], lengths[j])
        out[j, 0] = black
        out[j, 1] = total - black
    return out
