"""A level of the level search: the distinct packed sums of a side's first slots, with how many word
tuples give each, built from the level below and one more slot's distinct rows.

A level's sums are aggregated a *bucket* at a time: the sums that agree in a few chosen fields
(:func:`_bucket_fields`), each bucket in a small hash table that stays in cache (one table for the
whole level: 190-380 ns a step, most of it cache and TLB misses; by buckets, 38 ns).
"""

from __future__ import annotations


import numpy as np
from numba import njit

from hbs.strategies.phrases.packing import FIELDS_PER_WORD, GUARD, _residual
from hbs.strategies.phrases.sum_table import _hash, _resized, build_table


#: A level's sums are aggregated a *bucket* at a time: the sums that agree in a few chosen fields
#: (:func:`_bucket_fields`), each bucket in a small hash table that stays in cache (one table for
#: the whole level: 190-380 ns a step, most of it cache and TLB misses; by buckets, 38 ns).  At most
#: this many buckets (the chosen fields' value combinations), and about this many steps a bucket.
MAX_BUCKETS, BUCKET_STEPS = 1 << 11, 1 << 16


@njit(cache=True, nogil=True, inline="always")
def _field(key: np.ndarray, f: int) -> int:
    return np.int64((key[f // FIELDS_PER_WORD] >> np.uint64(8 * (f % FIELDS_PER_WORD))) & np.uint64(0xFF))


@njit(cache=True, nogil=True)
def _ranges(keys: np.ndarray, rows: np.ndarray, n_fields: int) -> tuple[np.ndarray, np.ndarray]:
    """Each field's least and most value over ``keys[rows]``."""
    least = np.full(n_fields, 255, dtype=np.int64)
    most = np.zeros(n_fields, dtype=np.int64)
    for r in rows:
        for f in range(n_fields):
            value = _field(keys[r], f)
            least[f] = min(least[f], value)
            most[f] = max(most[f], value)
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
    for f in np.argsort(-width, kind="mergesort"):
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
             buckets: int) -> tuple[np.ndarray, np.ndarray]:
    """``rows`` by bucket number (stable): ``order[first[v] : first[v + 1]]`` are those of bucket ``v``."""
    number = np.zeros(rows.shape[0], dtype=np.int64)
    for i in range(rows.shape[0]):
        for c in range(chosen.shape[0]):
            number[i] += (_field(keys[rows[i]], chosen[c]) - least[chosen[c]]) * place[c]
    first = starts(number, buckets)
    at = first[:-1].copy()  # (a counting sort)
    order = np.empty(rows.shape[0], dtype=np.int64)
    for i in range(rows.shape[0]):
        order[at[number[i]]] = rows[i]
        at[number[i]] += 1
    return order, first


@njit(cache=True, nogil=True)
def _bucket(v: int, p_order: np.ndarray, p_first: np.ndarray, d_order: np.ndarray, d_first: np.ndarray,
            prev_keys: np.ndarray, prev_counts: np.ndarray, d_keys: np.ndarray, d_sizes: np.ndarray,
            high: np.ndarray, low: np.ndarray, t_keys: np.ndarray, t_counts: np.ndarray, t_first: np.ndarray,
            used: np.ndarray) -> int:
    """The sums of bucket ``v`` (``d_keys``, ``d_sizes`` in ``d_order``) into the empty table
    (``t_first`` -1 where free; each sum's first step ``p * len(d_keys) + d`` kept, for the order);
    returns how many distinct sums, stopping once the table is over half full.  (A kernel of its
    own that never replaces an array, with rows copied element by element: an array variable that
    may be replaced inside the loop, or a row assigned whole, cost reference count updates (atomic)
    at every step, a third to two thirds of the time, ``perf`` showed.)"""
    words, nd = high.shape[0], d_keys.shape[0]
    mask = np.uint64(t_first.shape[0] - 1)
    s = np.empty(words, dtype=np.uint64)
    m = 0
    for a in range(min(v + 1, p_first.shape[0] - 1)):
        b = v - a
        if p_first[a + 1] == p_first[a] or b >= d_first.shape[0] - 1:
            continue
        for i in range(p_first[a], p_first[a + 1]):
            p = p_order[i]
            for j in range(d_first[b], d_first[b + 1]):
                outside = np.uint64(0)
                for k in range(words):
                    s[k] = prev_keys[p, k] + d_keys[j, k]
                    outside |= ~((high[k] | GUARD) - s[k]) | ~((s[k] | GUARD) - low[k])
                if outside & GUARD:
                    continue
                slot = _hash(s) & mask
                while t_first[slot] >= 0:
                    differ = np.uint64(0)
                    for k in range(words):
                        differ |= t_keys[slot, k] ^ s[k]
                    if differ == 0:
                        break
                    slot = (slot + np.uint64(1)) & mask
                weight = prev_counts[p] * d_sizes[j]
                step = p * nd + d_order[j]
                if t_first[slot] >= 0:
                    t_counts[slot] += weight
                    t_first[slot] = min(t_first[slot], step)
                    continue
                for k in range(words):
                    t_keys[slot, k] = s[k]
                t_counts[slot] = weight
                t_first[slot] = step
                used[m] = slot
                m += 1
                if 2 * m > t_first.shape[0]:
                    return m
    return m


def combine(prev_keys: np.ndarray, prev_counts: np.ndarray, d_keys: np.ndarray, d_sizes: np.ndarray,
            high: np.ndarray, low: np.ndarray, bucket_steps: float = BUCKET_STEPS,
            max_sums: float = np.inf, table: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray] | None:
    """The next level: distinct sums ``p + d`` (a sum of the level below, a distinct row of the slot)
    with ``low <= sum <= high`` in every field, and the tuples behind each
    (``sum of prev_counts[p] * d_sizes[d]``), bucket by bucket.  Returns keys, counts, their hash
    table and each sum's first step ``p * len(d_keys) + d``, or None as soon as the level holds, or
    is on course to hold, over ``max_sums`` sums (see ``_by_buckets``).  (``bucket_steps``: see
    ``BUCKET_STEPS``; ``table`` False: None for the table, built where it is looked up.)  The sums
    stay in the buckets' order, a function of the level's rows and bounds alone: putting them back
    in first-seen order (two counting sorts and three gathers of millions of rows) was a sixth of a
    slow five-word guess, and the order decides only which sums an estimate's uniforms draw."""
    keys, counts, firsts, whole = _by_buckets(prev_keys, prev_counts, d_keys, d_sizes, high, low, float(bucket_steps),
                                              float(max_sums))  # (floats: one compiled signature)
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
def _by_buckets(prev_keys: np.ndarray, prev_counts: np.ndarray, d_keys: np.ndarray, d_sizes: np.ndarray,
                high: np.ndarray, low: np.ndarray, bucket_steps: float,
                max_sums: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """:func:`combine`'s sums, counts and first steps (``p * len(d_keys) + d``), bucket by bucket,
    and whether they are all there: it stops once over ``max_sums`` sums, or once a tenth of the
    steps is done and the sums so far, scaled to all the steps, are over ``max_sums``."""
    words = high.shape[0]
    n_fields = FIELDS_PER_WORD * words
    room = np.empty(words, dtype=np.uint64)
    live = np.zeros(prev_keys.shape[0], dtype=np.bool_)
    for p in range(prev_keys.shape[0]):
        live[p] = _residual(high, prev_keys[p], room)
    p_rows = np.flatnonzero(live)
    d_rows = np.arange(d_keys.shape[0])
    p_least, p_most = _ranges(prev_keys, p_rows, n_fields)
    d_least, d_most = _ranges(d_keys, d_rows, n_fields)
    field_high, field_low = np.empty(n_fields, dtype=np.int64), np.empty(n_fields, dtype=np.int64)
    for f in range(n_fields):
        field_high[f], field_low[f] = _field(high, f), _field(low, f)
    chosen, place, buckets = _bucket_fields(p_least, p_most, d_least, d_most, field_high, field_low,
                                            float(p_rows.shape[0]) * d_keys.shape[0], bucket_steps)
    p_order, p_first = _grouped(prev_keys, p_rows, p_least, chosen, place, buckets)
    d_order, d_first = _grouped(d_keys, d_rows, d_least, chosen, place, buckets)
    d_grouped, sizes_grouped = d_keys[d_order], d_sizes[d_order]
    size = 1024
    t_keys = np.empty((size, words), dtype=np.uint64)
    t_counts = np.zeros(size, dtype=np.float64)
    t_first = np.full(size, -1, dtype=np.int64)
    used = np.empty(size, dtype=np.int64)
    keys = np.empty((1024, words), dtype=np.uint64)
    counts = np.zeros(1024, dtype=np.float64)
    firsts = np.empty(1024, dtype=np.int64)
    n, done, total = np.int64(0), 0.0, float(p_rows.shape[0]) * d_keys.shape[0]
    for v in range(buckets):
        if n > max_sums or (10 * done >= total and n * total > max_sums * done):
            return keys[:0], counts[:0], firsts[:0], False
        for a in range(min(v + 1, p_first.shape[0] - 1)):  # the bucket's steps
            if v - a < d_first.shape[0] - 1:
                done += float(p_first[a + 1] - p_first[a]) * (d_first[v - a + 1] - d_first[v - a])
        outside = False  # is a field of the bucket's own outside the bounds?
        for c in range(chosen.shape[0]):
            f = chosen[c]
            value = (v // place[c]) % (p_most[f] - p_least[f] + d_most[f] - d_least[f] + 1) + p_least[f] + d_least[f]
            outside |= value < field_low[f] or value > field_high[f]
        if outside:
            continue
        while True:
            m = _bucket(v, p_order, p_first, d_order, d_first, prev_keys, prev_counts, d_grouped, sizes_grouped,
                        high, low, t_keys, t_counts, t_first, used)
            if 2 * m <= size:
                break
            t_first[used[:m]] = -1  # the table filled up: twice the room, and the bucket again
            size *= 2
            t_keys = np.empty((size, words), dtype=np.uint64)
            t_counts = np.zeros(size, dtype=np.float64)
            t_first = np.full(size, -1, dtype=np.int64)
            used = np.empty(size, dtype=np.int64)
        if n + m > keys.shape[0]:  # (one at a time: less memory at once)
            size_out = _room(keys.shape[0], n + m, done, total)
            keys = _resized(keys, n, size_out)
            counts = _resized(counts, n, size_out)
            firsts = _resized(firsts, n, size_out)
        for u in range(m):
            slot = used[u]
            for k in range(words):
                keys[n, k] = t_keys[slot, k]
            counts[n] = t_counts[slot]
            firsts[n] = t_first[slot]
            t_first[slot] = -1
            n += 1
    return keys[:n], counts[:n], firsts[:n], n <= max_sums
