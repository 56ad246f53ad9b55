"""A level of the level search: the distinct packed sums of a side's first slots, with how many word
tuples give each, built from the level below and one more slot's distinct rows.

A level's sums are aggregated a *bucket* at a time: the sums that agree in a few chosen fields
(:func:`_bucket_fields`), each bucket in a small hash table that stays in cache (one table for the
whole level: 190-380 ns a step, most of it cache and TLB misses; by buckets, 38 ns).  The sums are
written to the level's arrays as they are met, and a bucket's table holds only a tag of each
sum's hash and its row there, 8 bytes a slot (see :func:`_bucket`).
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from hbs.strategies.phrases.packing import FIELDS_PER_WORD, GUARD, _residual_at
from hbs.strategies.phrases.sum_table import HASH_START, _mixed, _resized, build_table
from hbs.strategies.stable_order import stable_order


#: A level's sums are aggregated a *bucket* at a time: the sums that agree in a few chosen fields
#: (:func:`_bucket_fields`), each bucket in a small hash table that stays in cache (one table for
#: the whole level: 190-380 ns a step, most of it cache and TLB misses; by buckets, 38 ns).  At most
#: this many buckets (the chosen fields' value combinations), and about this many steps a bucket.
MAX_BUCKETS, BUCKET_STEPS = 1 << 11, 1 << 16


#: A bucket's sums are found by their place in a box (the other fields' values within the bounds,
#: ``_cells``) where the box holds at most this many cells, rather than by hash: a place is the sum
#: of one number for the sum below and one for the slot's row, so a step is an add and a read in
#: cache, with no hash, no probe and no key compared, and the sum's count and first step are kept
#: in its cell (20 bytes, 8 of them filled before) until the bucket ends (``_dense_bucket``).
#: (Levels of 100,000-word lists: 3,000-90,000 cells a bucket.)  A box of more cells than the
#: level's steps (and than ``SMALL_BOX``) is not worth filling: the steps are few.
DENSE_CELLS, SMALL_BOX = 1 << 22, 1 << 16


#: Steps a level takes under (:func:`combine` gives None from there, as over its ``max_sums``): its
#: bucket tables name a sum's row in 32 bits, and the sums are at most the steps.  (The level search
#: builds no side's level over ``levels.SIDE_STEPS``, 10^8; a middle's first pair is at most 20,000 ×
#: 20,000 rows, where its phrases are long enough to have one: six words, ``settings.MAX_WORDS``.)
MAX_STEPS = (1 << 32) - 1


@njit(cache=True, nogil=True, inline="always")
def _field(key: np.ndarray, f: int) -> int:
    return np.int64((key[f // FIELDS_PER_WORD] >> np.uint64(8 * (f % FIELDS_PER_WORD))) & np.uint64(0xFF))


#: The field each byte of a packed word holds, in memory order (a field is a byte: ``_field``).
_BYTE_FIELDS = np.arange(FIELDS_PER_WORD) if sys.byteorder == "little" else np.arange(FIELDS_PER_WORD)[::-1].copy()


@njit(cache=True, nogil=True)
def _ranges(keys: np.ndarray, rows: np.ndarray, n_fields: int) -> tuple[np.ndarray, np.ndarray]:
    """Each field's least and most value over ``keys[rows]`` (``n_fields``: all of a row's), read as
    bytes: a loop the compiler runs many bytes at a time (a side of 2.5 million sums: 6 times as
    fast as field by field)."""
    data = np.ascontiguousarray(keys)
    flat = data.view(np.uint8).reshape(data.shape[0], n_fields)
    low = np.full(n_fields, 255, dtype=np.uint8)
    high = np.zeros(n_fields, dtype=np.uint8)
    for r in rows:
        for j in range(n_fields):
            low[j] = min(low[j], flat[r, j])
            high[j] = max(high[j], flat[r, j])
    least = np.empty(n_fields, dtype=np.int64)
    most = np.empty(n_fields, dtype=np.int64)
    for j in range(n_fields):
        f = j - j % FIELDS_PER_WORD + _BYTE_FIELDS[j % FIELDS_PER_WORD]
        least[f], most[f] = low[j], high[j]
    return least, most


@njit(cache=True)
def _bucket_fields(p_least: np.ndarray, p_most: np.ndarray, d_least: np.ndarray, d_most: np.ndarray,
                   high: np.ndarray, low: np.ndarray, steps: float, bucket_steps: float) -> tuple[np.ndarray, np.ndarray, int]:
    """The fields that name a sum's bucket, widest range of sums first, until the buckets are about
    ``steps / bucket_steps`` or ``MAX_BUCKETS`` (each field's place value in the bucket number, the
    number of buckets): a field's digit is ``sum - p_least - d_least``, below its radix, so the
    bucket of ``p + d`` is the bucket number of ``p`` plus that of ``d``."""
    width = np.minimum(high, p_most + d_most) - np.maximum(low, p_least + d_least) + 1
    chosen = np.zeros(0, dtype=np.int64)
    place = np.zeros(0, dtype=np.int64)
    buckets, spread = 1, 1.0
    for f in stable_order(-width):
        if width[f] <= 1 or spread * bucket_steps >= steps:
            break
        radix = p_most[f] - p_least[f] + d_most[f] - d_least[f] + 1
        if buckets * radix <= MAX_BUCKETS:
            chosen = np.append(chosen, f)
            place = np.append(place, buckets)
            buckets *= radix
            spread *= width[f]
    return chosen, place, buckets


@njit(cache=True, nogil=True)
def _grouped(keys: np.ndarray, rows: np.ndarray, least: np.ndarray, chosen: np.ndarray, place: np.ndarray,
             buckets: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``rows`` by bucket number (stable): ``order[first[v] : first[v + 1]]`` are those of bucket
    ``v``; and ``where``, each row's place in ``order`` (``order[where[i]] == rows[i]``)."""
    number = np.zeros(rows.shape[0], dtype=np.int64)
    for i in range(rows.shape[0]):
        for c in range(chosen.shape[0]):
            number[i] += (_field(keys[rows[i]], chosen[c]) - least[chosen[c]]) * place[c]
    first = starts(number, buckets)
    at = first[:-1].copy()  # (a counting sort)
    order = np.empty(rows.shape[0], dtype=np.int64)
    where = np.empty(rows.shape[0], dtype=np.int64)
    for i in range(rows.shape[0]):
        where[i] = at[number[i]]
        order[where[i]] = rows[i]
        at[number[i]] += 1
    return order, first, where


@njit(cache=True, nogil=True)
def _bucket(v: int, p_order: np.ndarray, p_first: np.ndarray, d_order: np.ndarray, d_first: np.ndarray,
            prev_keys: np.ndarray, prev_counts: np.ndarray, d_keys: np.ndarray, d_sizes: np.ndarray,
            high: np.ndarray, low: np.ndarray, table: np.ndarray, mask: np.uint64, keys: np.ndarray,
            counts: np.ndarray, firsts: np.ndarray, n: int, at: np.ndarray) -> bool:
    """The sums of bucket ``v`` (``d_keys``, ``d_sizes`` in ``d_order``) appended to ``keys``,
    ``counts``, ``firsts`` after their first ``n`` rows, in the order first met (each sum's first
    step ``p * len(d_keys) + d`` kept, for the order).  ``at`` holds where the bucket's steps go on
    from (``a``, ``i``, ``j`` of the loops below; ``i`` -1 to start) and the rows held: False where
    the arrays are full (``at`` then names the step to go on from, once the caller has grown them),
    True once the bucket is done.  The sums are found through ``table``'s first ``mask + 1``
    entries, each ``hash >> 32 << 32 | row + 1`` (0 where free): an entry naming a row below ``n``
    is an earlier bucket's, free for this one, so the table is never cleared; the caller makes
    ``mask + 1`` at least twice the bucket's steps (the table at most half full).  The sums
    themselves lie in the output, and a probe reads their row only where the hash's high half
    agrees: the table is 8 bytes a slot, where one holding each sum's key, count and first step
    was 32 to 64 (8 MB and more for a bucket of 100,000 steps, missed in cache at every step, then
    read again to copy the sums out).  (A kernel of its own that never replaces an array, with
    rows copied element by element: an array variable that may be replaced inside the loop, or a
    row assigned whole, cost reference count updates (atomic) at every step, a third to two
    thirds of the time, ``perf`` showed.  A sum is read from its two rows where it is needed, never
    kept in a scratch row: written there and read back, 17 levels saved from games took 2.31-2.54 s
    against 2.14-2.30, interleaved.)  (Where the bucket's box is small, :func:`_dense_bucket` finds
    the same sums in the same order without a hash.)"""
    words, nd = high.shape[0], d_keys.shape[0]
    start = np.uint64(n + 1)  # (entries hold row + 1: those below start are free)
    low_half = np.uint64(0xFFFFFFFF)
    a, m, resume = at[0], at[3], at[1] >= 0
    a_end = min(v + 1, p_first.shape[0] - 1)
    while a < a_end:
        b = v - a
        if p_first[a + 1] == p_first[a] or b >= d_first.shape[0] - 1:
            a += 1  # (no step goes on from here)
            continue
        i = at[1] if resume else p_first[a]
        while i < p_first[a + 1]:
            p = p_order[i]
            j = at[2] if resume else d_first[b]
            resume = False
            while j < d_first[b + 1]:
                outside = np.uint64(0)
                h = HASH_START  # (sum_table._hash of the sum, mixed as it is added up)
                for k in range(words):
                    sk = prev_keys[p, k] + d_keys[j, k]
                    outside |= ~((high[k] | GUARD) - sk) | ~((sk | GUARD) - low[k])
                    h = _mixed(h, sk)
                if outside & GUARD:
                    j += 1
                    continue
                tag = (h >> np.uint64(32)) << np.uint64(32)
                slot = h & mask
                found = -1
                while True:
                    entry = table[slot]
                    row = entry & low_half
                    if row < start:  # free for this bucket
                        break
                    if entry ^ row == tag:
                        r = np.int64(row) - 1
                        differ = np.uint64(0)
                        for k in range(words):
                            differ |= keys[r, k] ^ (prev_keys[p, k] + d_keys[j, k])
                        if differ == 0:
                            found = r
                            break
                    slot = (slot + np.uint64(1)) & mask
                weight = prev_counts[p] * d_sizes[j]
                step = p * nd + d_order[j]
                if found >= 0:
                    counts[found] += weight
                    firsts[found] = min(firsts[found], step)
                    j += 1
                    continue
                if m == keys.shape[0]:
                    at[0], at[1], at[2], at[3] = a, i, j, m
                    return False
                table[slot] = tag | np.uint64(m + 1)
                for k in range(words):
                    keys[m, k] = prev_keys[p, k] + d_keys[j, k]
                counts[m] = weight
                firsts[m] = step
                m += 1
                j += 1
            i += 1
        a += 1
    at[3] = m
    return True


#: A dense bucket's first steps are kept in its box tagged with the bucket: ``(LAST_TAG - v) << 32 | step``
#: (a step is below 2^32, ``MAX_STEPS``), so an earlier bucket's, or a cell never met (``LAST_TAG << 33``),
#: is above any of bucket ``v``'s and drops out of their least.
LAST_TAG = np.int64(1 << 12)


@njit(cache=True, nogil=True, inline="always")
def _to_cell(cell: int, weight: float, step: int, box_counts: np.ndarray, box_firsts: np.ndarray,
             box_rows: np.ndarray, m: int, n: int, tag: np.int64) -> bool:
    """Adds a step's tuples to its box cell: whether it is the first met there in the bucket (then
    ``box_rows`` names the cell as row ``m``'s)."""
    held = box_firsts[cell]
    box_firsts[cell] = min(held, tag | step)
    if held >> 32 == tag >> 32:
        box_counts[cell] += weight
        return False
    box_counts[cell], box_rows[m - n] = weight, cell
    return True


@njit(cache=True, nogil=True)
def _dense_bucket(v: int, p_order: np.ndarray, p_first: np.ndarray, d_order: np.ndarray, d_first: np.ndarray,
                  prev_keys: np.ndarray, prev_counts: np.ndarray, d_keys: np.ndarray, d_sizes: np.ndarray,
                  high: np.ndarray, low: np.ndarray, keys: np.ndarray, n: int, at: np.ndarray, p_cell: np.ndarray,
                  d_cell: np.ndarray, box_counts: np.ndarray, box_firsts: np.ndarray, box_rows: np.ndarray) -> bool:
    """:func:`_bucket` where the bucket's sums are found in its box: the same sums in the same order,
    their keys written to ``keys`` from row ``n`` as met, their counts and first steps gathered in
    the box's cells (``box_counts``, ``box_firsts``; ``box_rows``, the cell of each new row) until
    :func:`_settle` moves them to the rows.  A row below's values are read once for its run of the
    slot's rows, and the arrays are grown before a run that might fill them (``at`` then names the
    run to start from), not tested at each sum."""
    words, nd = high.shape[0], d_keys.shape[0]
    tag = (LAST_TAG - v) << 32
    a, m, resume = at[0], at[3], at[1] >= 0
    a_end = min(v + 1, p_first.shape[0] - 1)
    while a < a_end:
        b = v - a
        if p_first[a + 1] == p_first[a] or b >= d_first.shape[0] - 1:
            a += 1
            continue
        j0, j1 = d_first[b], d_first[b + 1]
        i = at[1] if resume else p_first[a]
        resume = False
        while i < p_first[a + 1]:
            if m + (j1 - j0) > keys.shape[0]:
                at[0], at[1], at[2], at[3] = a, i, j0, m
                return False
            p = p_order[i]
            base_cell, weight_p, step_p = p_cell[p], prev_counts[p], p * nd
            if words == 1:  # (most levels: a loop with no loop over words inside)
                key_p, high_guarded, low_0 = prev_keys[p, 0], high[0] | GUARD, low[0]
                for j in range(j0, j1):
                    sk = key_p + d_keys[j, 0]
                    if (~(high_guarded - sk) | ~((sk | GUARD) - low_0)) & GUARD:
                        continue
                    if _to_cell(base_cell + d_cell[j], weight_p * d_sizes[j], step_p + d_order[j], box_counts,
                                box_firsts, box_rows, m, n, tag):
                        keys[m, 0] = sk
                        m += 1
                i += 1
                continue
            for j in range(j0, j1):
                outside = np.uint64(0)
                for k in range(words):
                    sk = prev_keys[p, k] + d_keys[j, k]
                    outside |= ~((high[k] | GUARD) - sk) | ~((sk | GUARD) - low[k])
                if outside & GUARD:
                    continue
                if _to_cell(base_cell + d_cell[j], weight_p * d_sizes[j], step_p + d_order[j], box_counts,
                            box_firsts, box_rows, m, n, tag):
                    for k in range(words):
                        keys[m, k] = prev_keys[p, k] + d_keys[j, k]
                    m += 1
            i += 1
        a += 1
    at[3] = m
    return True


@njit(cache=True, nogil=True)
def _settle(box_counts: np.ndarray, box_firsts: np.ndarray, box_rows: np.ndarray, counts: np.ndarray,
            firsts: np.ndarray, n: int, m: int) -> None:
    """A dense bucket's counts and first steps moved from its box to its rows ``n`` to ``m``."""
    for r in range(n, m):
        counts[r], firsts[r] = box_counts[box_rows[r - n]], box_firsts[box_rows[r - n]] & 0xFFFFFFFF


def combine(prev_keys: np.ndarray, prev_counts: np.ndarray, d_keys: np.ndarray, d_sizes: np.ndarray,
            high: np.ndarray, low: np.ndarray, bucket_steps: float = BUCKET_STEPS,
            max_sums: float = np.inf, table: bool = True, dense_cells: float = DENSE_CELLS) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray] | None:
    """The next level: distinct sums ``p + d`` (a sum of the level below, a distinct row of the slot)
    with ``low <= sum <= high`` in every field, and the tuples behind each
    (``sum of prev_counts[p] * d_sizes[d]``), bucket by bucket.  Returns keys, counts, their hash
    table and each sum's first step ``p * len(d_keys) + d``, or None as soon as the level holds, or
    is on course to hold, over ``max_sums`` sums (see ``_by_buckets``), or would take over
    ``MAX_STEPS`` steps or more.  (``bucket_steps``: see
    ``BUCKET_STEPS``; ``table`` False: None for the table, built where it is looked up.)  The sums
    stay in the buckets' order, a function of the level's rows and bounds alone: putting them back
    in first-seen order (two counting sorts and three gathers of millions of rows) was a sixth of a
    slow five-word guess, and the order decides only which sums an estimate's uniforms draw."""
    if float(len(prev_keys)) * len(d_keys) >= MAX_STEPS:
        return None
    keys, counts, firsts, whole = _by_buckets(prev_keys, prev_counts, d_keys, d_sizes, high, low, float(bucket_steps),
                                              float(max_sums), float(dense_cells))  # (floats: one compiled signature)
    if not whole:
        return None
    return keys, counts, build_table(keys) if table else None, firsts


@njit(cache=True, nogil=True)
def starts(keys: np.ndarray, radix: int) -> np.ndarray:
    """Where each key's items start once stably sorted by ``keys`` (each in ``0..radix-1``): a
    counting sort's first pass."""
    at = np.zeros(radix + 1, dtype=np.int64)
    for k in keys:
        at[k + 1] += 1
    for k in range(radix):
        at[k + 1] += at[k]
    return at


@njit(cache=True, nogil=True)
def _room(size: int, need: int, done: float, total: float) -> int:
    """Rows for a level's sums once ``need`` are met after ``done`` of ``total`` steps: as many as
    the steps so far project (and a tenth more), between ``need`` and four times ``size``, once a
    tenth of the steps is done; twice ``size`` (or ``need``) before.  Each larger array is fresh
    memory, its pages faulted in and zeroed by the system: doubling touched about twice a level's
    final size (late eight-word sides, 2.4 million sums of 48 bytes: 79,000 page faults a level)."""
    if 10 * done < total:
        return max(need, 2 * size)
    projected = need * (total / done) * 1.1 + 1024
    return int(max(need, min(projected, 4.0 * size)))


@njit(cache=True, nogil=True)
def _places(keys: np.ndarray, rows: np.ndarray, least: np.ndarray, place: np.ndarray, offset: int) -> np.ndarray:
    """``offset`` plus each byte of ``keys[rows]`` less ``least``, times ``place`` (both by byte),
    for each of ``rows`` (0 for the other rows): a row's part of its sums' places in a box."""
    out = np.zeros(keys.shape[0], dtype=np.int64)
    data = np.ascontiguousarray(keys)
    flat = data.view(np.uint8).reshape(data.shape[0], least.shape[0])
    for r in rows:
        out[r] = offset
        for j in range(least.shape[0]):
            out[r] += (np.int64(flat[r, j]) - least[j]) * place[j]
    return out


@njit(cache=True, nogil=True)
def _cells(prev_keys: np.ndarray, p_rows: np.ndarray, d_keys: np.ndarray, p_least: np.ndarray, p_most: np.ndarray,
           d_least: np.ndarray, d_most: np.ndarray, field_high: np.ndarray, field_low: np.ndarray,
           chosen: np.ndarray, dense_cells: float) -> tuple[bool, np.ndarray, np.ndarray, int]:
    """The place of each sum in its bucket's *box*, where the box is at most ``dense_cells`` cells:
    the values within the bounds of every field that does not name the bucket, in mixed radix.  A
    field's digit of ``p + d`` is ``(p - p_least) + (d - d_least) + (p_least + d_least - base)``,
    ``base`` its least value within the bounds, so the place is ``p_cell[p] + d_cell[d]`` (rows of
    ``p_rows`` and every row of ``d_keys``), below the box's size for a sum within the bounds.
    Returns whether the box is small enough, the two arrays and the box's cells (0 and empty arrays
    where it is not)."""
    n_fields = p_least.shape[0]
    in_bucket = np.zeros(n_fields, dtype=np.bool_)
    in_bucket[chosen] = True
    field = np.empty(n_fields, dtype=np.int64)  # the field of each byte of a row, as the rows are read
    place = np.zeros(n_fields, dtype=np.int64)  # by byte
    offset, size = np.int64(0), np.int64(1)
    for j in range(n_fields):
        f = field[j] = j - j % FIELDS_PER_WORD + _BYTE_FIELDS[j % FIELDS_PER_WORD]
        base = max(field_low[f], p_least[f] + d_least[f])
        width = min(field_high[f], p_most[f] + d_most[f]) - base + 1
        if in_bucket[f] or width <= 1:  # (one value within the bounds, or none: no sum passes)
            continue
        if float(size) * width > dense_cells:
            return False, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), 0
        place[j] = size
        offset += (p_least[f] + d_least[f] - base) * size
        size *= width
    p_cell = _places(prev_keys, p_rows, p_least[field], place, 0)
    d_cell = _places(d_keys, np.arange(d_keys.shape[0]), d_least[field], place, offset)
    return True, p_cell, d_cell, size


@njit(cache=True, nogil=True)
def _by_buckets(prev_keys: np.ndarray, prev_counts: np.ndarray, d_keys: np.ndarray, d_sizes: np.ndarray,
                high: np.ndarray, low: np.ndarray, bucket_steps: float, max_sums: float,
                dense_cells: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """:func:`combine`'s sums, counts and first steps (``p * len(d_keys) + d``), bucket by bucket,
    and whether they are all there: it stops once over ``max_sums`` sums, or once a tenth of the
    steps is done and the sums so far, scaled to all the steps, are over ``max_sums``.  A bucket's
    sums are found in its box where that holds at most ``dense_cells`` cells (see ``_cells``)."""
    words = high.shape[0]
    n_fields = FIELDS_PER_WORD * words
    room = np.empty(words, dtype=np.uint64)
    live = np.zeros(prev_keys.shape[0], dtype=np.bool_)
    for p in range(prev_keys.shape[0]):
        live[p] = _residual_at(high, prev_keys, p, room)
    p_rows = np.flatnonzero(live)
    d_rows = np.arange(d_keys.shape[0])
    p_least, p_most = _ranges(prev_keys, p_rows, n_fields)
    d_least, d_most = _ranges(d_keys, d_rows, n_fields)
    field_high, field_low = np.empty(n_fields, dtype=np.int64), np.empty(n_fields, dtype=np.int64)
    for f in range(n_fields):
        field_high[f], field_low[f] = _field(high, f), _field(low, f)
    chosen, place, buckets = _bucket_fields(p_least, p_most, d_least, d_most, field_high, field_low,
                                            float(p_rows.shape[0]) * d_keys.shape[0], bucket_steps)
    p_order, p_first, _ = _grouped(prev_keys, p_rows, p_least, chosen, place, buckets)
    d_order, d_first, _ = _grouped(d_keys, d_rows, d_least, chosen, place, buckets)
    d_grouped, sizes_grouped = d_keys[d_order], d_sizes[d_order]
    n, done, total = np.int64(0), 0.0, float(p_rows.shape[0]) * d_keys.shape[0]
    dense, p_cell, d_cell, box = _cells(prev_keys, p_rows, d_grouped, p_least, p_most, d_least, d_most, field_high,
                                          field_low, chosen, min(dense_cells, max(total, SMALL_BOX)))
    run = max(1, np.max(np.diff(d_first))) if dense else 1  # (the most sums a dense bucket's run may add)
    box_firsts = np.full(box, LAST_TAG << 33, dtype=np.int64)  # (see _to_cell: the others are written before read)
    box_counts, box_rows = np.empty(box), np.empty(box, dtype=np.int32)
    table = np.zeros(1024, dtype=np.uint64)
    at = np.empty(4, dtype=np.int64)  # (where a bucket's steps go on from, see _bucket)
    keys = np.empty((1024, words), dtype=np.uint64)
    counts = np.zeros(1024, dtype=np.float64)
    firsts = np.empty(1024, dtype=np.int64)
    for v in range(buckets):
        if n > max_sums or (10 * done >= total and n * total > max_sums * done):
            return keys[:0], counts[:0], firsts[:0], False
        steps = 0.0
        for a in range(min(v + 1, p_first.shape[0] - 1)):  # the bucket's steps
            if v - a < d_first.shape[0] - 1:
                steps += float(p_first[a + 1] - p_first[a]) * (d_first[v - a + 1] - d_first[v - a])
        done += steps
        outside = False  # is a field of the bucket's own outside the bounds?
        for c in range(chosen.shape[0]):
            f = chosen[c]
            value = (v // place[c]) % (p_most[f] - p_least[f] + d_most[f] - d_least[f] + 1) + p_least[f] + d_least[f]
            outside |= value < field_low[f] or value > field_high[f]
        if outside or steps == 0:
            continue
        slots = 1024
        while slots < 2 * steps and not dense:
            slots *= 2
        if slots > table.shape[0]:
            table = np.zeros(slots, dtype=np.uint64)
        at[0], at[1], at[2], at[3] = 0, -1, -1, n
        while True:
            if dense:
                whole = _dense_bucket(v, p_order, p_first, d_order, d_first, prev_keys, prev_counts, d_grouped,
                                      sizes_grouped, high, low, keys, n, at, p_cell, d_cell, box_counts, box_firsts,
                                      box_rows)
            else:
                whole = _bucket(v, p_order, p_first, d_order, d_first, prev_keys, prev_counts, d_grouped,
                                sizes_grouped, high, low, table, np.uint64(slots - 1), keys, counts, firsts, n, at)
            if whole:
                break
            size_out = _room(keys.shape[0], at[3] + run, done, total)  # (one at a time: less memory at once)
            keys = _resized(keys, at[3], size_out)
            counts = _resized(counts, at[3], size_out)
            firsts = _resized(firsts, at[3], size_out)
        if dense:
            _settle(box_counts, box_firsts, box_rows, counts, firsts, n, at[3])
        n = at[3]
    return keys[:n], counts[:n], firsts[:n], n <= max_sums
