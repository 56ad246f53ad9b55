"""Packed rows in lexicographic order (a radix sort) and grouped: the distinct rows of a word slot and
the words behind each.  A slot's order is kept from one answer to the next (:func:`refined_order`).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
from numba import njit

from hbs.strategies.phrases.packing import FIELDS_PER_WORD, unpacked


@njit(cache=True, nogil=True)
def _rows_at(keys: np.ndarray, order: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The rows ``keys[order[at]]``."""
    out = np.empty((len(at), keys.shape[1]), dtype=np.uint64)
    for g in range(len(at)):
        for k in range(keys.shape[1]):
            out[g, k] = keys[order[at[g]], k]
    return out


@njit(cache=True, nogil=True, inline="always")
def _byte(x: np.uint64, shift: np.uint64) -> np.int64:
    return np.int64((x >> shift) & np.uint64(0xFF))


@njit(cache=True, nogil=True)
def _by_byte(keys: np.ndarray, col: int, shift: np.uint64, order: np.ndarray, out: np.ndarray,
             count: np.ndarray) -> bool:
    """``out``: ``order`` stably sorted by one byte of the rows of ``keys`` (a counting sort;
    ``count`` is scratch of 257); False, ``out`` untouched, when that byte is the same in every row."""
    n = order.shape[0]
    first = _byte(keys[order[0], col], shift)
    for i in range(1, n):
        if _byte(keys[order[i], col], shift) != first:
            break
    else:
        return False
    for d in range(257):
        count[d] = 0
    for i in range(n):
        count[_byte(keys[order[i], col], shift) + 1] += 1
    for d in range(256):
        count[d + 1] += count[d]
    for i in range(n):
        d = _byte(keys[order[i], col], shift)
        out[count[d]] = order[i]
        count[d] += 1
    return True


@njit(cache=True, nogil=True)
def row_order(keys: np.ndarray) -> np.ndarray:
    """The stable lexicographic order of the rows of ``keys`` (``uint64[n, K]``, first column first):
    ``np.lexsort(keys.T[::-1])``, as a least-significant-byte-first radix sort (bytes the same in
    every row are skipped: a packing uses a few of them)."""
    n, k = keys.shape
    order = np.arange(n)
    if n < 2:
        return order
    spare = np.empty(n, dtype=np.int64)
    count = np.empty(257, dtype=np.int64)
    for col in range(k - 1, -1, -1):
        for b in range(FIELDS_PER_WORD):
            if _by_byte(keys, col, np.uint64(8 * b), order, spare, count):
                order, spare = spare, order
    return order


@njit(cache=True, nogil=True)
def refined_order(packed: np.ndarray, before: np.ndarray, first: int, count: int) -> np.ndarray:
    """:func:`row_order` of ``packed`` from ``before``, the order of its first ``first`` fields (the
    packing before the last answer), when its last ``count`` fields (1 or 2) lie in one word: in
    that word they are above the earlier fields, so the order is ``before`` sorted stably by them
    within each run of rows equal in the words before (all rows for the first word).  Two counting
    passes rather than one a field."""
    n = packed.shape[0]
    col = first // FIELDS_PER_WORD
    if (first + count - 1) // FIELDS_PER_WORD != col or n < 2:
        return row_order(packed)
    order = np.empty(n, dtype=np.int64)
    for i in range(n):
        order[i] = before[i]
    spare = np.empty(n, dtype=np.int64)
    counts = np.empty(257, dtype=np.int64)
    start = 0
    while start < n:
        end = start + 1  # the run of rows equal in the words before this one's
        while end < n:
            same = True
            for k in range(col):
                if packed[order[end], k] != packed[order[start], k]:
                    same = False
                    break
            if not same:
                break
            end += 1
        if end - start > 1:
            run = order[start:end]
            out = spare[: end - start]
            for f in range(first, first + count):  # least significant first
                if _by_byte(packed, col, np.uint64(8 * (f % FIELDS_PER_WORD)), run, out, counts):
                    for i in range(end - start):
                        run[i] = out[i]
        start = end
    return order


@njit(cache=True, nogil=True)
def _groups_along(keys: np.ndarray, order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The start (in ``order``) and size of each run of equal rows of ``keys`` along ``order``."""
    n = order.shape[0]
    starts = np.empty(n, dtype=np.int64)
    m = 0
    for i in range(n):
        new = i == 0
        for k in range(keys.shape[1]):
            if new or keys[order[i], k] != keys[order[i - 1], k]:
                new = True
                break
        if new:
            starts[m] = i
            m += 1
    sizes = np.empty(m, dtype=np.int64)
    for g in range(m):
        sizes[g] = (starts[g + 1] if g + 1 < m else n) - starts[g]
    return starts[:m].copy(), sizes


@njit(cache=True, nogil=True)
def group_rows(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sort the rows of ``keys`` (``uint64[n, K]``) and group equal ones.

    Returns the sorting order, the start of each group in that order and each group's size.
    """
    order = row_order(keys)
    starts, sizes = _groups_along(keys, order)
    return order, starts, sizes


@njit(cache=True, nogil=True)
def distinct_rows(packed: np.ndarray, field: int, order: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct rows of ``packed`` sorted (stably) by one field: the members (rows of ``packed`` in
    group order), each distinct row's start among them and size, and the distinct rows; ``order``
    is :func:`row_order` of ``packed``."""
    starts, sizes = _groups_along(packed, order)
    keys = _rows_at(packed, order, starts)
    by_field = np.arange(len(starts))
    if len(starts) > 1:
        spare = np.empty(len(starts), dtype=np.int64)
        if _by_byte(keys, field // FIELDS_PER_WORD, np.uint64(8 * (field % FIELDS_PER_WORD)), by_field, spare,
                    np.empty(257, dtype=np.int64)):
            by_field = spare
    return order, starts[by_field], sizes[by_field], keys[by_field]


@njit(cache=True, nogil=True)
def rows_of(members: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """``int64[W]``: the distinct row of each packed row (see :func:`distinct_rows`)."""
    out = np.empty(len(members), dtype=np.int64)
    for r in range(len(starts)):
        for i in range(starts[r], starts[r] + sizes[r]):
            out[members[i]] = r
    return out


@njit(cache=True, nogil=True)
def refinement(members: np.ndarray, starts: np.ndarray, coarse_row_of: np.ndarray, n_coarse: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows (``members``, ``starts``) of a finer packing within the rows of a coarser one
    (``coarse_row_of``, ``n_coarse`` rows): rows ``rows[first[p] : first[p + 1]]`` refine row ``p``,
    in order (a stable counting sort by coarser row)."""
    first = np.zeros(n_coarse + 1, dtype=np.int64)
    for r in range(len(starts)):
        first[coarse_row_of[members[starts[r]]] + 1] += 1
    for p in range(n_coarse):
        first[p + 1] += first[p]
    place = first[:-1].copy()
    rows = np.empty(len(starts), dtype=np.int64)
    for r in range(len(starts)):
        p = coarse_row_of[members[starts[r]]]
        rows[place[p]] = r
        place[p] += 1
    return first, rows


class _Distinct:
    """The distinct packed rows of one slot and the words behind each, rows sorted by one field."""

    def __init__(self, packed: np.ndarray, field: int = 0, order: np.ndarray | None = None):
        order = row_order(packed) if order is None else order
        self.members, self.starts, self.sizes, self.keys = distinct_rows(packed, field, order)

    @cached_property
    def fields(self) -> np.ndarray:
        """``int64[rows, F]``: every field of each distinct row (see ``packing.unpacked``)."""
        return unpacked(self.keys)

    def own(self) -> _Distinct:
        """A copy to narrow (its arrays shared, not copied: narrowing replaces them, together with
        ``fields``)."""
        out = _Distinct.__new__(_Distinct)
        out.members, out.starts, out.sizes, out.keys, out.fields = self.members, self.starts, self.sizes, self.keys, \
            self.fields
        return out

    @cached_property
    def row_of(self) -> np.ndarray:
        """``int64[W]``: the row of each word of the slot (its members lie at ``starts[row]`` on)."""
        return rows_of(self.members, self.starts, self.sizes)

    def within(self, coarser: "_Distinct") -> tuple[np.ndarray, np.ndarray]:
        """The rows of this slot (packed with more fields than ``coarser``) within each row of
        ``coarser``: rows ``rows[first[p] : first[p + 1]]`` refine coarser row ``p``."""
        return refinement(self.members, self.starts, coarser.row_of, len(coarser.starts))


def _distinct(packed: np.ndarray, field: int, shared: dict | None, key, order: np.ndarray | None) -> _Distinct:
    """``_Distinct(packed, field, order)``, taken from ``shared`` under the slot's ``key`` (searches of
    spacings that share a slot's words and offset, counted after the same answers, share its rows)."""
    if shared is None or key is None:
        return _Distinct(packed, field, order)
    key = ("distinct", key, field)
    found = shared.get(key)
    if found is None:
        found = shared[key] = _Distinct(packed, field, order)
    return found
