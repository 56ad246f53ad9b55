"""A hash table from packed sums to their rows, and the bitmap filter in front of it.

The searches look up millions of residuals (``target - left sum``) a guess; nine in ten match
nothing, and a filter of three bits a hashed sum in one 64-bit word turns nearly all of them away
before the table is probed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hbs.strategies.prefetch import prefetch


#: Where a key's hash starts (see :func:`_mixed`).
HASH_START = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _mixed(h: np.uint64, word: np.uint64) -> np.uint64:
    """The hash ``h`` with one more packed word of the key mixed in (from ``HASH_START``, word by word)."""
    h = (h ^ word) * np.uint64(0xFF51AFD7ED558CCD)
    return h ^ (h >> np.uint64(29))


@njit(cache=True, inline="always")
def _hash(key: np.ndarray) -> np.uint64:
    h = HASH_START
    for k in range(key.shape[0]):
        h = _mixed(h, key[k])
    return h


#: Rows the outputs below start with (16 MB at most); they double as they fill (room for every pair of rows at
#: once would be ``W**2`` rows: gigabytes for a list of 50,000 words).
START_ROWS = 1 << 20


@njit(cache=True)
def _grown(rows: np.ndarray, n: int) -> np.ndarray:
    """``rows`` with twice the room, its first ``n`` rows kept."""
    return _resized(rows, n, 2 * rows.shape[0])


@njit(cache=True, nogil=True)
def _resized(rows: np.ndarray, n: int, size: int) -> np.ndarray:
    """``rows`` with room for ``size`` rows (at least ``n``), its first ``n`` rows kept."""
    out = np.empty((size,) + rows.shape[1:], dtype=rows.dtype)
    per_row = rows.size // rows.shape[0] if rows.shape[0] else 0
    src, dst = rows.reshape(rows.size), out.reshape(out.size)
    for i in range(n * per_row):  # element by element: a slice copy compiles numba's shape-error messages
        dst[i] = src[i]
    return out


#: Keys ahead whose slot :func:`build_table` asks for (:func:`hbs.strategies.prefetch.prefetch`): a
#: level's table is megabytes, each insert a miss.  Tables of eight-word levels (1.4-3.2 million
#: keys of three words, 16-32 MB): 8 keys ahead 10-15% faster, 16 about 30%, 32 about 38% (3.2
#: million keys 78-82 ms to 49-50 ms).
TABLE_AHEAD = 32


@njit(cache=True, nogil=True)
def build_table(unique_keys: np.ndarray) -> np.ndarray:
    """Open-addressing table (``int32[T]``, -1 empty) from key hash to row of ``unique_keys``
    (rows below 2**31; int32 halves a level's largest array: 2**27 slots for 36 million sums)."""
    size = 1
    while size < 2 * unique_keys.shape[0] + 2:
        size *= 2
    table = np.full(size, -1, dtype=np.int32)
    mask = np.uint64(size - 1)
    n = unique_keys.shape[0]
    for g in range(n):
        if g + TABLE_AHEAD < n:
            prefetch(table, np.int64(_hash(unique_keys[g + TABLE_AHEAD]) & mask))
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


@njit(cache=True, nogil=True)
def found_rows(table: np.ndarray, unique_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """``int64[n]``: the row of ``unique_keys`` (through its ``table``) that each of ``keys`` is, -1 where none."""
    out = np.empty(keys.shape[0], dtype=np.int64)
    for i in range(keys.shape[0]):
        out[i] = _lookup(table, unique_keys, keys[i])
    return out


#: Bits a key of a table's filter at least (see :func:`build_filter`; 16 to 32 once rounded up to a
#: power of two): an absent key passes about 1 in 130 to 1 in 580.
FILTER_BITS = 16


@njit(cache=True, inline="always")
def _filter_step(h: np.uint64, word: np.uint64) -> np.uint64:
    """The filter's hash ``h`` with one more packed word of the key mixed in (from 0, word by word)."""
    return (h ^ word) * np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _filter_hash(key: np.ndarray) -> np.uint64:
    """A cheap multiplicative hash (:func:`_filter_step` over the key's words); its high bits index a filter."""
    h = np.uint64(0)
    for k in range(key.shape[0]):
        h = _filter_step(h, key[k])
    return h


@njit(cache=True, inline="always")
def _filter_mask(h: np.uint64, shift: np.uint64) -> np.uint64:
    """The three bits a key of hash ``h`` sets in its word of a filter whose words are named by the
    bits of ``h`` from ``shift + 6`` up: the bit each of the three 6-bit fields below names.  (The
    first is the bit a filter of one bit a key would set, in the same word: a kernel that numba
    cached against such a filter, and does not recompile for a change in this file, still finds
    every key.)"""
    six = np.uint64(63)
    return ((np.uint64(1) << ((h >> shift) & six)) | (np.uint64(1) << ((h >> (shift - np.uint64(6))) & six))
            | (np.uint64(1) << ((h >> (shift - np.uint64(12))) & six)))


@njit(cache=True, nogil=True)
def build_filter(unique_keys: np.ndarray) -> np.ndarray:
    """A bitmap of ``2**b`` bits (``b`` at least 6, ``2**b`` at least ``FILTER_BITS`` a key; the last
    element holds ``64 - b``): each key's :func:`_filter_hash` names a 64-bit word by its top
    ``b - 6`` bits and sets three bits in it (:func:`_filter_mask`), one read a lookup.  Most
    residuals that match nothing miss the table (measured: 9 of 10 in the 3-word game), and probing
    the table for them took most of the matching's time; the filter turns them away first (about a
    third less).  With one bit a key, about 1 in 16 to 1 in 24 absent keys passed (an estimate's
    1.95 million fitting draws of a seven-word guess: 86,124 passed, 6,102 of them keys); with
    three in one word, 13,411.  (Needs ``64 - b >= 12``: ``b`` at most 52.)"""
    log = 6
    while (1 << log) < FILTER_BITS * unique_keys.shape[0]:
        log += 1
    out = np.zeros((1 << log) // 64 + 1, dtype=np.uint64)
    shift = np.uint64(64 - log)
    out[-1] = shift
    for g in range(unique_keys.shape[0]):
        h = _filter_hash(unique_keys[g])
        out[(h >> shift) >> np.uint64(6)] |= _filter_mask(h, shift)
    return out


@njit(cache=True, inline="always")
def filter_has(filt: np.ndarray, h: np.uint64) -> bool:
    """Whether the key of :func:`_filter_hash` ``h`` passes the :func:`build_filter` bitmap ``filt``
    (False: the key is not in the table)."""
    shift = filt[-1]
    mask = _filter_mask(h, shift)
    return (filt[(h >> shift) >> np.uint64(6)] & mask) == mask


@njit(cache=True, inline="always")
def in_filter(filt: np.ndarray, key: np.ndarray) -> bool:
    """Whether ``key`` passes the :func:`build_filter` bitmap ``filt`` (False: not a key)."""
    return filter_has(filt, _filter_hash(key))
