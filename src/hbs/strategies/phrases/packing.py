"""Packed character counts and the meet-in-the-middle search over word tuples.

Once a phrase's word lengths are known, every answer of a *factorizable* guess (see
:mod:`hbs.strategies.phrases.probes`) is a sum of per-word features: ``f(w1) + f(w2) + f(w3) = target``.
Several features of a word are packed into machine integers, 8 bits a field (7 value bits and a
guard bit), so that checking a sum is one subtraction and one mask per 64-bit word:
``r = (target | G) - s`` keeps every guard bit set exactly when no field of ``s`` exceeds the
target's (a field that goes below zero clears its own guard bit and borrows nothing from the next).

The search splits the word slots into a *left* group (enumerated, pruned field by field) and a
*right* group (a hash table from packed sums to the tuples that give them); a consistent phrase is a
left tuple whose residual is a key of the table (a bitmap filter turns most residuals away before
the table is probed).  Field values must stay below 128.  Rows are grouped in their lexicographic
order (a radix sort), which the breaker keeps from one answer to the next (:func:`refined_order`).
"""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np
from numba import njit

FIELDS_PER_WORD = 8
GUARD = np.uint64(0x8080808080808080)
_NOT_GUARD = np.uint64(0x7F7F7F7F7F7F7F7F)
MAX_FIELD = 127


def pack(features: np.ndarray, into: np.ndarray | None = None, first: int = 0) -> np.ndarray:
    """``uint8[n, F]`` feature values (each < 128) packed into ``uint64[n, ceil(F / 8)]``; with
    ``into`` (the packing of ``first`` fields before them), packed after those."""
    n, fields = features.shape
    words = max(1, -(-(first + fields) // FIELDS_PER_WORD))
    out = np.zeros((n, words), dtype=np.uint64)
    if into is not None:
        out[:, : into.shape[1]] = into
    for f in range(first, first + fields):
        out[:, f // FIELDS_PER_WORD] |= features[:, f - first].astype(np.uint64) << np.uint64(8 * (f % FIELDS_PER_WORD))
    return out


@njit(cache=True, nogil=True)
def packed_after(packed: np.ndarray, first: int, a: np.ndarray, b: np.ndarray, count: int) -> np.ndarray:
    """``packed`` (``uint64[n, K]``, ``first`` fields) with ``count`` (1 or 2) more fields after them:
    ``a``, then ``b`` (``uint8[n]``); :func:`pack` of one or two columns ``into`` it."""
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
def _residual(target: np.ndarray, s: np.ndarray, out: np.ndarray) -> bool:
    """``out = target - s`` field by field; False when some field of ``s`` exceeds the target's."""
    for k in range(target.shape[0]):
        r = (target[k] | GUARD) - s[k]
        if (r & GUARD) != GUARD:
            return False
        out[k] = r & _NOT_GUARD
    return True


@njit(cache=True, inline="always")
def _hash(key: np.ndarray) -> np.uint64:
    h = np.uint64(0x9E3779B97F4A7C15)
    for k in range(key.shape[0]):
        h = (h ^ key[k]) * np.uint64(0xFF51AFD7ED558CCD)
        h ^= h >> np.uint64(29)
    return h


#: Rows the outputs below start with (16 MB at most); they double as they fill (room for every pair of rows at
#: once would be ``W**2`` rows: gigabytes for a list of 50,000 words).
START_ROWS = 1 << 20


@njit(cache=True)
def _grown(rows: np.ndarray, n: int) -> np.ndarray:
    """``rows`` with twice the room, its first ``n`` rows kept."""
    out = np.empty((2 * rows.shape[0],) + rows.shape[1:], dtype=rows.dtype)
    out[:n] = rows[:n]
    return out


@njit(cache=True, nogil=True)
def right_tuples(pc: np.ndarray, pd: np.ndarray, target: np.ndarray,
                 start_rows: int = START_ROWS) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of the right group (two slots, features ``pc``, ``pd``) whose sum fits under ``target``.

    Returns ``uint64[R, K]`` packed sums and ``int32[R, 2]`` word indices.
    """
    per = pd.shape[0]
    cap = max(1, min(pc.shape[0] * per, start_rows))
    keys = np.empty((cap, target.shape[0]), dtype=np.uint64)
    tuples = np.zeros((cap, 2), dtype=np.int32)
    n, a = 0, 0
    while a < pc.shape[0]:
        while n + per > keys.shape[0]:
            keys = _grown(keys, n)
            tuples = _grown(tuples, n)
        end = min(pc.shape[0], a + (keys.shape[0] - n) // per)  # rows whose tuples surely fit
        n = _right_rows(pc, pd, target, a, end, keys, tuples, n)
        a = end
    return keys[:n].copy(), tuples[:n].copy()


@njit(cache=True, nogil=True)
def right_side(pc: np.ndarray, pd: np.ndarray, target: np.ndarray, start_rows: int = START_ROWS
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A right group of two slots: :func:`right_tuples` grouped by their sums: the pairs (in group
    order), each group's start and size, the distinct sums, their table (:func:`build_table`) and
    its filter (:func:`build_filter`).  (One slot: :func:`right_rows`, from the slot's kept order.)"""
    keys, tuples = right_tuples(pc, pd, target, start_rows)
    order, starts, sizes = group_rows(keys)
    unique, table, filt = _sums(keys, order, starts)
    return tuples[order], starts, sizes, unique, table, filt


@njit(cache=True, nogil=True)
def right_rows(pc: np.ndarray, order: np.ndarray, target: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`right_side` of one slot whose :func:`row_order` is ``order``: its rows that fit, taken
    in that order, are already sorted."""
    scratch = np.empty(target.shape[0], dtype=np.uint64)
    rows = np.empty(order.shape[0], dtype=np.int64)
    n = 0
    for i in range(order.shape[0]):
        if _residual(target, pc[order[i]], scratch):
            rows[n] = order[i]
            n += 1
    rows = rows[:n]
    starts, sizes = _groups_along(pc, rows)
    unique, table, filt = _sums(pc, rows, starts)
    tuples = np.zeros((n, 2), dtype=np.int32)
    for i in range(n):
        tuples[i, 0] = rows[i]
    return tuples, starts, sizes, unique, table, filt


@njit(cache=True, nogil=True)
def _sums(keys: np.ndarray, order: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct sums of a right side (the rows of ``keys`` at ``order[starts]``), their table
    and its filter."""
    unique = _rows_at(keys, order, starts)
    return unique, build_table(unique), build_filter(unique)


@njit(cache=True, nogil=True)
def _rows_at(keys: np.ndarray, order: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The rows ``keys[order[at]]``."""
    out = np.empty((len(at), keys.shape[1]), dtype=np.uint64)
    for g in range(len(at)):
        for k in range(keys.shape[1]):
            out[g, k] = keys[order[at[g]], k]
    return out


@njit(cache=True, nogil=True)
def entries(ltuples: np.ndarray, groups: np.ndarray, n_left: int, sizes_a: np.ndarray, sizes_b: np.ndarray,
            right_sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each match's radix (the multiplicity of each left row, then the size of its right group) and
    the running total of the tuples the matches hold."""
    radix = np.empty((len(groups), n_left + 1), dtype=np.int64)
    cum = np.empty(len(groups), dtype=np.int64)
    total = 0
    for e in range(len(groups)):
        weight = 1
        for i in range(n_left):
            radix[e, i] = sizes_a[ltuples[e, 0]] if i == 0 else sizes_b[ltuples[e, 1]]
            weight *= radix[e, i]
        radix[e, n_left] = right_sizes[groups[e]]
        total += weight * radix[e, n_left]
        cum[e] = total
    return radix, cum


@njit(cache=True, nogil=True)
def tuple_words(positions: np.ndarray, cum: np.ndarray, radix: np.ndarray, ltuples: np.ndarray, groups: np.ndarray,
                left: np.ndarray, right: np.ndarray, members_a: np.ndarray, starts_a: np.ndarray, members_b: np.ndarray,
                starts_b: np.ndarray, right_starts: np.ndarray, rtuples: np.ndarray, n: int) -> np.ndarray:
    """The word rows (per slot) of the tuples at ``positions`` of a :class:`TupleSearch`'s implicit
    list: the match whose running total (``cum``) passes each position, then the position within
    it in mixed radix (each left row's members, then the right group's tuples)."""
    out = np.empty((len(positions), n), dtype=np.int64)
    n_left = len(left)
    for p in range(len(positions)):
        e = np.searchsorted(cum, positions[p], side="right")
        rest = positions[p] - (cum[e - 1] if e > 0 else 0)
        right_digit = rest % radix[e, n_left]
        rest //= radix[e, n_left]
        for i in range(n_left - 1, -1, -1):
            digit = rest % radix[e, i]
            rest //= radix[e, i]
            if i == 0:
                out[p, left[0]] = members_a[starts_a[ltuples[e, 0]] + digit]
            else:
                out[p, left[1]] = members_b[starts_b[ltuples[e, 1]] + digit]
        row = right_starts[groups[e]] + right_digit
        for i in range(len(right)):
            out[p, right[i]] = rtuples[row, i]
    return out


@njit(cache=True, nogil=True)
def refined_pairs(parent: np.ndarray, n_left: int, first_a: np.ndarray, first_b: np.ndarray) -> int:
    """The pairs of finer rows :func:`refined_matches` would check (see :meth:`TupleSearch._within`)."""
    total = 0
    for e in range(parent.shape[0]):
        pairs = first_a[parent[e, 0] + 1] - first_a[parent[e, 0]]
        if n_left == 2:
            pairs *= first_b[parent[e, 1] + 1] - first_b[parent[e, 1]]
        total += pairs
    return total


@njit(cache=True, nogil=True)
def _right_rows(pc: np.ndarray, pd: np.ndarray, target: np.ndarray, a0: int, a1: int,
                keys: np.ndarray, tuples: np.ndarray, n: int) -> int:
    """The pairs of rows ``a0 .. a1`` of ``pc``, written from row ``n`` on (the caller made room); the next
    free row.  Its own kernel, arrays never reallocated and rows copied field by field: otherwise numba
    counts references on every step (atomic; ten times this loop's own work)."""
    scratch = np.empty(target.shape[0], dtype=np.uint64)
    for a in range(a0, a1):
        if not _residual(target, pc[a], scratch):
            continue
        for b in range(pd.shape[0]):
            for k in range(target.shape[0]):
                keys[n, k] = pc[a, k] + pd[b, k]
            if _residual(target, keys[n], scratch):
                tuples[n, 0] = a
                tuples[n, 1] = b
                n += 1
    return n


@njit(cache=True, nogil=True)
def build_table(unique_keys: np.ndarray) -> np.ndarray:
    """Open-addressing table (``int32[T]``, -1 empty) from key hash to row of ``unique_keys``
    (rows below 2**31; int32 halves a level's largest array: 2**27 slots for 36 million sums)."""
    size = 1
    while size < 2 * unique_keys.shape[0] + 2:
        size *= 2
    table = np.full(size, -1, dtype=np.int32)
    mask = np.uint64(size - 1)
    for g in range(unique_keys.shape[0]):
        slot = _hash(unique_keys[g]) & mask
        while table[slot] >= 0:
            slot = (slot + np.uint64(1)) & mask
        table[slot] = g
    return table


@njit(cache=True, inline="always")
def _lookup(table: np.ndarray, unique_keys: np.ndarray, key: np.ndarray) -> int:
    mask = np.uint64(table.shape[0] - 1)
    slot = _hash(key) & mask
    while True:
        g = table[slot]
        if g < 0:
            return -1
        same = True
        for k in range(key.shape[0]):
            if unique_keys[g, k] != key[k]:
                same = False
                break
        if same:
            return g
        slot = (slot + np.uint64(1)) & mask


#: Bits a key of a table's filter (see :func:`build_filter`): a key absent from the table passes the
#: filter with odds of about 1 in 16.
FILTER_BITS = 16


@njit(cache=True, inline="always")
def _filter_hash(key: np.ndarray) -> np.uint64:
    """A cheap multiplicative hash; its high bits index a filter."""
    h = key[0] * np.uint64(0x9E3779B97F4A7C15)
    for k in range(1, key.shape[0]):
        h = (h ^ key[k]) * np.uint64(0x9E3779B97F4A7C15)
    return h


@njit(cache=True, nogil=True)
def build_filter(unique_keys: np.ndarray) -> np.ndarray:
    """A bitmap of ``2**b`` bits (``b`` at least 6, ``2**b`` at least ``FILTER_BITS`` a key; the last
    element holds ``64 - b``) with the bit of each key's :func:`_filter_hash` set.  Most residuals
    that match nothing miss the table (measured: 9 of 10 in the 3-word game), and probing the table
    for them took most of the matching's time; the filter turns them away first (about a third less)."""
    log = 6
    while (1 << log) < FILTER_BITS * unique_keys.shape[0]:
        log += 1
    out = np.zeros((1 << log) // 64 + 1, dtype=np.uint64)
    shift = np.uint64(64 - log)
    out[-1] = shift
    for g in range(unique_keys.shape[0]):
        h = _filter_hash(unique_keys[g]) >> shift
        out[h >> np.uint64(6)] |= np.uint64(1) << (h & np.uint64(63))
    return out


@njit(cache=True, inline="always")
def filter_bit(filt: np.ndarray, key: np.ndarray) -> np.uint64:
    """``key``'s bit in the :func:`build_filter` bitmap ``filt``."""
    return _filter_hash(key) >> filt[-1]


@njit(cache=True, inline="always")
def filter_has(filt: np.ndarray, bit: np.uint64) -> bool:
    """Whether the bit :func:`filter_bit` gave is set (False: the key is not in the table)."""
    return bool((filt[bit >> np.uint64(6)] >> (bit & np.uint64(63))) & np.uint64(1))


@njit(cache=True, inline="always")
def in_filter(filt: np.ndarray, key: np.ndarray) -> bool:
    """Whether ``key``'s bit is set in the :func:`build_filter` bitmap ``filt`` (False: not a key)."""
    return filter_has(filt, filter_bit(filt, key))


@njit(cache=True, inline="always")
def _match(table: np.ndarray, unique_keys: np.ndarray, filt: np.ndarray, residual: np.ndarray, a: int, b: int,
           out_t: np.ndarray, out_g: np.ndarray, n: int) -> int:
    """Record left rows ``(a, b)`` at ``n`` when ``residual`` is a key of the table (``filt`` its
    :func:`build_filter`); the next free row."""
    if not in_filter(filt, residual):
        return n
    g = _lookup(table, unique_keys, residual)
    if g < 0:
        return n
    out_t[n, 0] = a
    out_t[n, 1] = b
    out_g[n] = g
    return n + 1


@njit(cache=True, nogil=True)
def left_matches(
    pa: np.ndarray, pb: np.ndarray, n_left: int, target: np.ndarray, table: np.ndarray, unique_keys: np.ndarray,
    filt: np.ndarray, sort_word: int, sort_shift: int, start_rows: int = START_ROWS,
) -> tuple[np.ndarray, np.ndarray]:
    """Left tuples (0, 1 or 2 slots, features ``pa``, ``pb``) whose residual is a key of the table
    (``filt`` its :func:`build_filter`).

    ``pb`` must be sorted ascending by the field at (``sort_word``, ``sort_shift``): the inner loop
    stops at the first row whose field exceeds the residual's.
    Returns ``int32[E, 2]`` row indices and ``int64[E]`` the matching group of the table.
    """
    words = target.shape[0]
    if n_left == 0:
        out_t = np.zeros((1, 2), dtype=np.int32)
        out_g = np.full(1, _lookup(table, unique_keys, target), dtype=np.int64)
        return out_t[out_g >= 0], out_g[out_g >= 0]
    cap = max(1, min(pa.shape[0] * (pb.shape[0] if n_left == 2 else 1), start_rows))
    out_t = np.empty((cap, 2), dtype=np.int32)  # _match writes both columns (zeroing all rows cost a tenth)
    out_g = np.empty(cap, dtype=np.int64)
    r1 = np.empty(words, dtype=np.uint64)
    r2 = np.empty(words, dtype=np.uint64)
    shift = np.uint64(sort_shift)
    n = 0
    for a in range(pa.shape[0]):
        if not _residual(target, pa[a], r1):
            continue
        while n + (pb.shape[0] if n_left == 2 else 1) > out_t.shape[0]:  # room for this row's matches
            out_t = _grown(out_t, n)
            out_g = _grown(out_g, n)
        if n_left == 1:
            n = _match(table, unique_keys, filt, r1, a, 0, out_t, out_g, n)
            continue
        limit = (r1[sort_word] >> shift) & np.uint64(0xFF)
        for b in range(pb.shape[0]):
            if (pb[b, sort_word] >> shift) & np.uint64(0xFF) > limit:
                break
            if _residual(r1, pb[b], r2):
                n = _match(table, unique_keys, filt, r2, a, b, out_t, out_g, n)
    return out_t[:n].copy(), out_g[:n].copy()


@njit(cache=True, nogil=True)
def refined_matches(
    parent: np.ndarray, n_left: int, a_first: np.ndarray, a_rows: np.ndarray, b_first: np.ndarray,
    b_rows: np.ndarray, pa: np.ndarray, pb: np.ndarray, target: np.ndarray, table: np.ndarray,
    unique_keys: np.ndarray, filt: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`left_matches` after one more answer, from the matches before it (``parent``,
    ``int32[E, 2]`` rows of the coarser rows): a finer row ``a`` of ``pa`` can only match with a
    finer row of ``pb`` whose coarser rows matched.  ``a_rows[a_first[p] : a_first[p + 1]]`` are the
    finer rows of coarser row ``p`` (``b_...`` likewise).  Same matches as :func:`left_matches`, in
    its order (by ``a``, then ``b``)."""
    words = target.shape[0]
    cap = 1024
    out_t = np.zeros((cap, 2), dtype=np.int32)
    out_g = np.empty(cap, dtype=np.int64)
    r1 = np.empty(words, dtype=np.uint64)
    r2 = np.empty(words, dtype=np.uint64)
    n = 0
    for e in range(parent.shape[0]):
        p, q = parent[e, 0], parent[e, 1]
        room = (a_first[p + 1] - a_first[p]) * ((b_first[q + 1] - b_first[q]) if n_left == 2 else 1)
        while n + room > out_t.shape[0]:
            out_t = _grown(out_t, n)
            out_g = _grown(out_g, n)
        for i in range(a_first[p], a_first[p + 1]):
            a = a_rows[i]
            if not _residual(target, pa[a], r1):
                continue
            if n_left == 1:
                n = _match(table, unique_keys, filt, r1, a, 0, out_t, out_g, n)
                continue
            for j in range(b_first[q], b_first[q + 1]):
                if _residual(r1, pb[b_rows[j]], r2):
                    n = _match(table, unique_keys, filt, r2, a, b_rows[j], out_t, out_g, n)
    # each (a, b) is found once (under its coarser rows): sorting by the pair is left_matches' order
    pairs = np.empty((n, 1), dtype=np.uint64)
    for e in range(n):
        pairs[e, 0] = np.uint64(out_t[e, 0]) * np.uint64(max(1, pb.shape[0])) + np.uint64(out_t[e, 1])
    order = row_order(pairs)
    return out_t[order], out_g[order]


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
    def row_of(self) -> np.ndarray:
        """``int64[W]``: the row of each word of the slot (its members lie at ``starts[row]`` on)."""
        return rows_of(self.members, self.starts, self.sizes)

    def within(self, coarser: "_Distinct") -> tuple[np.ndarray, np.ndarray]:
        """The rows of this slot (packed with more fields than ``coarser``) within each row of
        ``coarser``: rows ``rows[first[p] : first[p + 1]]`` refine coarser row ``p``."""
        return refinement(self.members, self.starts, coarser.row_of, len(coarser.starts))


@njit(cache=True)
def _pruning_field(rows: np.ndarray, target: np.ndarray, n_fields: int) -> int:
    """The field in which most of ``rows`` already exceed half the target (the best loop breaker)."""
    best, best_over = 0, -1
    for f in range(n_fields):
        word, shift = f // FIELDS_PER_WORD, np.uint64(8 * (f % FIELDS_PER_WORD))
        half = ((target[word] >> shift) & np.uint64(0xFF)) // np.uint64(2)
        over = 0
        for i in range(rows.shape[0]):
            over += ((rows[i, word] >> shift) & np.uint64(0xFF)) > half
        if over > best_over:
            best, best_over = f, over
    return best


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


#: A search refines its parent's matches (see :meth:`TupleSearch._within`) when that checks fewer
#: pairs than this share of all pairs of its left rows (measured: ``left_matches`` checks about a third).
REFINE_SHARE = 0.3


class TupleSearch:
    """All word tuples whose packed features sum to ``target``: count, sample, enumerate.

    ``slots`` is a list of packed feature arrays, one per word slot (``uint64[W_j, K]``).  The slots
    are split into a left group (enumerated over distinct packed rows, pruned field by field) and a
    right group (hashed); the largest classes go right.  Tuples are numbered implicitly: entry by
    entry (a fitting combination of left rows and a right group), then mixed-radix within it.
    """

    exact = True  # the count is exact (see :class:`hbs.strategies.phrases.levels.LevelSearch`)
    draws = meetings = 0  # (an estimate's draws, the level search's meetings: none)
    _NONE = np.zeros(1, dtype=np.int64)

    def __init__(self, slots: list[np.ndarray], target: np.ndarray, slot_words: list[np.ndarray] | None = None,
                 lengths: np.ndarray | None = None, start_rows: int = START_ROWS, parent: "TupleSearch | None" = None,
                 shared: dict | None = None, slot_keys: tuple | None = None, slot_orders: list | None = None):
        self.slot_words = slot_words  # the word indices of each slot's rows (``int64[W_j]``), if given
        self.lengths = lengths  # the word length of each slot (the spacing searched), if given
        self.n = len(slots)
        words = target.shape[0]
        order = sorted(range(self.n), key=lambda j: len(slots[j]))
        n_right = max(1, self.n // 2)
        self.left, self.right = order[: self.n - n_right], order[self.n - n_right :]
        empty = np.zeros((0, words), dtype=np.uint64)
        orders = slot_orders or [None] * self.n  # each slot's row_order, where known
        if n_right == 1:
            right = slots[self.right[0]]
            order_r = orders[self.right[0]] if orders[self.right[0]] is not None else row_order(right)
            self._rtuples, self._starts, self._sizes, unique, table, filt = right_rows(right, order_r, target)
        else:
            self._rtuples, self._starts, self._sizes, unique, table, filt = right_side(
                slots[self.right[0]], slots[self.right[1]], target, start_rows)
        field = _pruning_field(slots[self.left[-1]], target, FIELDS_PER_WORD * words) if len(self.left) == 2 else 0
        keys = slot_keys or (None,) * self.n  # names of the slots' rows, shared under them (see _distinct)
        self._distinct = [_distinct(slots[j], field if i == 1 else 0, shared, keys[j], orders[j])
                          for i, j in enumerate(self.left)]
        pick = [d.keys for d in self._distinct] + [empty, empty]
        within = self._within(parent)
        if within is not None:
            # the same slots before this search's last answer: only their matches can still match
            self._ltuples, self._groups = refined_matches(parent._ltuples, len(self.left), *within[0], *within[1],
                                                          pick[0], pick[1], target, table, unique, filt)
        else:
            word, shift = divmod(field, FIELDS_PER_WORD)
            self._ltuples, self._groups = left_matches(
                pick[0], pick[1], len(self.left), target, table, unique, filt, word, 8 * shift, start_rows
            )
        # an entry holds (multiplicity of each left row) x (size of the right group) tuples
        sizes = [d.sizes for d in self._distinct] + [self._NONE, self._NONE]
        self._radix, self._cum = entries(self._ltuples, self._groups, len(self.left), sizes[0], sizes[1], self._sizes)

    def _within(self, parent: "TupleSearch | None") -> list | None:
        """Each left slot's rows within the rows of ``parent`` (the same slots before the last
        answer), when refining its matches checks fewer pairs than :func:`left_matches` would (it
        stops early in a sorted slot: counted as a ``REFINE_SHARE`` of all pairs); else None."""
        if parent is None or parent.left != self.left or not self.left:
            return None
        within = [d.within(c) for d, c in zip(self._distinct, parent._distinct)] + [(self._NONE, self._NONE)]
        pairs = refined_pairs(parent._ltuples, len(self.left), within[0][0], within[1][0])
        everything = float(math.prod(len(d.keys) for d in self._distinct))
        return within if pairs < REFINE_SHARE * everything else None

    @property
    def count(self) -> int:
        """How many word tuples fit."""
        return int(self._cum[-1]) if len(self._cum) else 0

    def tuples(self, positions: np.ndarray) -> np.ndarray:
        """``int64[len(positions), n]`` word indices (per slot) of the tuples at ``positions`` of the
        (implicit) list of all fitting tuples."""
        rows = [(d.members, d.starts) for d in self._distinct] + [(self._NONE, self._NONE)] * 2
        return tuple_words(np.asarray(positions, dtype=np.int64), self._cum, self._radix, self._ltuples, self._groups,
                           np.array(self.left, dtype=np.int64), np.array(self.right, dtype=np.int64), *rows[0], *rows[1],
                           self._starts, self._rtuples, self.n)

    def all(self) -> np.ndarray:
        """``int64[count, n]`` every fitting tuple."""
        return self.tuples(np.arange(self.count, dtype=np.int64))

    def sample(self, k: int, rng: np.random.Generator) -> np.ndarray:
        """``k`` fitting tuples drawn uniformly without replacement (all of them when fewer)."""
        total = self.count
        if total <= k:
            return self.all()
        return self.tuples(np.sort(rng.choice(total, size=k, replace=False)))
