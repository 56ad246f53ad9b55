"""Packed character counts: several features of a word in machine integers, 8 bits a field.

Once a phrase's word lengths are known, every answer of a *factorizable* guess (see
:mod:`hbs.strategies.phrases.probes`) is a sum of per-word features: ``f(w1) + f(w2) + f(w3) = target``.
Each field holds 7 value bits and a guard bit, so that checking a sum is one subtraction and one mask
per 64-bit word: ``r = (target | G) - s`` keeps every guard bit set exactly when no field of ``s``
exceeds the target's (a field that goes below zero clears its own guard bit and borrows nothing from
the next).  Field values must stay below 128.
"""

from __future__ import annotations

import numpy as np
from numba import njit



FIELDS_PER_WORD = 8


GUARD = np.uint64(0x8080808080808080)


_NOT_GUARD = np.uint64(0x7F7F7F7F7F7F7F7F)


MAX_FIELD = 127


def pack(features: np.ndarray) -> np.ndarray:
    """``uint8[n, F]`` feature values (each < 128) packed into ``uint64[n, ceil(F / 8)]``: field ``f``
    in byte ``f % 8`` of word ``f // 8``, from the lowest, which is each row's bytes read as
    little-endian words (a loop over the fields took 50-190 µs for one row; a level search packs
    two a level, 65,000 a ten-game six-word run)."""
    n, fields = features.shape
    raw = np.zeros((n, max(1, -(-fields // FIELDS_PER_WORD)) * FIELDS_PER_WORD), dtype=np.uint8)
    raw[:, :fields] = features
    return raw.view("<u8").astype(np.uint64)


def unpacked(packed: np.ndarray, fields: np.ndarray | None = None) -> np.ndarray:
    """``int64[n, F]``: the fields of packed rows (field ``f``: byte ``f % 8`` of word ``f // 8``,
    from the lowest: the words' little-endian bytes in order), every one or only ``fields``; in C
    order, whatever ``fields`` (a kernel compiles anew for each order it is given)."""
    raw = np.ascontiguousarray(packed, dtype="<u8").view(np.uint8)
    raw = raw.reshape(packed.shape[0], FIELDS_PER_WORD * packed.shape[1])
    return (raw if fields is None else raw[:, fields]).astype(np.int64, order="C")


@njit(cache=True, nogil=True)
def packed_after(packed: np.ndarray, first: int, a: np.ndarray, b: np.ndarray, count: int) -> np.ndarray:
    """``packed`` (``uint64[n, K]``, ``first`` fields) with ``count`` (1 or 2) more fields after them:
    ``a``, then ``b`` (``uint8[n]``): what :func:`pack` gives of the fields and those columns."""
    n = packed.shape[0]
    words = max(packed.shape[1], (first + count + FIELDS_PER_WORD - 1) // FIELDS_PER_WORD)
    out = np.zeros((n, words), dtype=np.uint64)
    for i in range(n):  # (element by element: a slice assignment doubles this kernel's compile time)
        for k in range(packed.shape[1]):
            out[i, k] = packed[i, k]
    for f in range(first, first + count):
        values = a if f == first else b
        word, shift = f // FIELDS_PER_WORD, np.uint64(8 * (f % FIELDS_PER_WORD))
        for i in range(n):
            out[i, word] |= np.uint64(values[i]) << shift
    return out


@njit(cache=True, inline="always")
def _residual_at(target: np.ndarray, rows: np.ndarray, i: int, out: np.ndarray) -> bool:
    """``out = target - rows[i]`` field by field; False when some field of the row exceeds the
    target's.  (The row is read by index: a view of it, ``rows[i]``, costs two atomic reference
    counts at every call, in a join of millions of meetings half its time.)"""
    for k in range(target.shape[0]):
        r = (target[k] | GUARD) - rows[i, k]
        if (r & GUARD) != GUARD:
            return False
        out[k] = r & _NOT_GUARD
    return True


@njit(cache=True, inline="always")
def _fits(target: np.ndarray, xs: np.ndarray, x: int, ys: np.ndarray, y: int) -> bool:
    """Whether ``target - xs[x] - ys[y]`` leaves no field below 0 (:func:`_residual_at` twice, the
    rest kept nowhere: a join of millions of meetings that checks each so took half the time of one
    that wrote the first rest to scratch and read it back)."""
    for k in range(target.shape[0]):
        r = (target[k] | GUARD) - xs[x, k]
        if (r & GUARD) != GUARD:
            return False
        r = ((r & _NOT_GUARD) | GUARD) - ys[y, k]
        if (r & GUARD) != GUARD:
            return False
    return True
