"""Where the level search's two sides and its middle meet on the target: every triple (left sum,
middle sum, right sum) that adds up to it.

The plain join tries each middle sum with each left sum and looks the rest up in the right side's
table: millions of lookups, nearly each a cache miss in a table of millions of sums (about 70 ns).
Here the right side's sums are split into *buckets* by a few fields, each bucket with its own small
table, and the left side's sums grouped by the same fields: for a group of left sums and a middle
sum the rest's bucket is known, and the group's lookups all go to that one table, in cache.  The
meetings come out in the plain join's order (left sum, then middle sum).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hbs.strategies.phrases.level_sums import _field, _grouped, _ranges
from hbs.strategies.phrases.packing import FIELDS_PER_WORD, _residual
from hbs.strategies.phrases.sum_table import _grown, _hash, _lookup

#: Right-side sums a bucket holds, about (on the sums of two words of 7,776 the time was the same
#: from 8 to 128 a bucket: 22 ns a lookup, against 70 in one table of 1.9 million sums).
BUCKET_SUMS = 1 << 5
#: A right side of fewer sums is joined whole: its table stays in cache (and one of 68,000 sums and
#: 4.4 million meetings joined whole in 0.36 s, by buckets in 0.99 s, most of it sorting the meetings
#: into order).  So is a join of fewer steps than four times the side's sums (bucketing them costs
#: about a step each: with 3 middle sums the two take the same time).
PLAIN_BELOW, PLAIN_STEPS = 1 << 17, 4


@njit(cache=True, nogil=True)
def _scratch(words: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A join's growing meetings (left, middle, right rows) and its two residuals."""
    rows = (np.empty(1024, dtype=np.int64), np.empty(1024, dtype=np.int64), np.empty(1024, dtype=np.int64))
    return rows[0], rows[1], rows[2], np.empty(words, dtype=np.uint64), np.empty(words, dtype=np.uint64)


@njit(cache=True, nogil=True)
def _plain(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, b_table: np.ndarray, target: np.ndarray,
           max_meetings: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    ai, di, bi, r1, r2 = _scratch(target.shape[0])
    n = 0
    for a in range(a_keys.shape[0]):
        if not _residual(target, a_keys[a], r1):
            continue
        while n + d_keys.shape[0] > ai.shape[0]:  # room for this row's meetings (not in the loop: see _bucket)
            ai, di, bi = _grown(ai, n), _grown(di, n), _grown(bi, n)
        for d in range(d_keys.shape[0]):
            if _residual(r1, d_keys[d], r2):
                g = _lookup(b_table, b_keys, r2)
                if g >= 0:
                    ai[n] = a
                    di[n] = d
                    bi[n] = g
                    n += 1
        if n > max_meetings:
            return ai[:0].copy(), di[:0].copy(), bi[:0].copy(), False
    return ai[:n].copy(), di[:n].copy(), bi[:n].copy(), True


@njit(cache=True, nogil=True)
def _tables(b_keys: np.ndarray, order: np.ndarray, first: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One open-addressing table per bucket (row of ``b_keys``, in bucket order; -1 empty), all in one array:
    bucket ``v``'s from ``at[v]`` to ``at[v + 1]`` (a power of two, at least twice its rows)."""
    buckets = first.shape[0] - 1
    at = np.zeros(buckets + 1, dtype=np.int64)
    for v in range(buckets):
        size = 1
        while size < 2 * (first[v + 1] - first[v]) + 2:
            size *= 2
        at[v + 1] = at[v] + (size if first[v + 1] > first[v] else 0)
    tables = np.full(at[-1], -1, dtype=np.int32)
    for v in range(buckets):
        mask = np.uint64(at[v + 1] - at[v] - 1)
        for i in range(first[v], first[v + 1]):
            slot = _hash(b_keys[i]) & mask
            while tables[at[v] + slot] >= 0:
                slot = (slot + np.uint64(1)) & mask
            tables[at[v] + slot] = i
    return tables, at


@njit(cache=True, nogil=True)
def _bucketed(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, target: np.ndarray, chosen: np.ndarray,
              place: np.ndarray, radix: np.ndarray, buckets: int, b_least: np.ndarray,
              max_meetings: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    n_fields = FIELDS_PER_WORD * target.shape[0]
    b_order, b_first = _grouped(b_keys, np.arange(b_keys.shape[0]), b_least, chosen, place, buckets)
    b_sorted = b_keys[b_order]  # (each bucket's rows together: its lookups stay in cache)
    tables, at = _tables(b_sorted, b_order, b_first)
    a_least, a_most = _ranges(a_keys, np.arange(a_keys.shape[0]), n_fields)
    a_place = np.zeros(chosen.shape[0], dtype=np.int64)
    groups = 1
    for c in range(chosen.shape[0]):
        a_place[c] = groups
        groups *= a_most[chosen[c]] - a_least[chosen[c]] + 1
    a_order, a_first = _grouped(a_keys, np.arange(a_keys.shape[0]), a_least, chosen, a_place, groups)
    a_sorted = a_keys[a_order]
    ai, di, bi, r1, r2 = _scratch(target.shape[0])
    n = 0
    for group in range(groups):
        lo, hi = a_first[group], a_first[group + 1]
        if lo == hi:
            continue
        head = a_sorted[lo]
        for d in range(d_keys.shape[0]):
            v = 0  # the bucket of the rest (target less the group's fields and the middle sum's)
            for c in range(chosen.shape[0]):
                f = chosen[c]
                digit = _field(target, f) - _field(head, f) - _field(d_keys[d], f) - b_least[f]
                if digit < 0 or digit >= radix[c]:
                    v = -1
                    break
                v += digit * place[c]
            if v < 0 or at[v + 1] == at[v]:
                continue
            while n + hi - lo > ai.shape[0]:
                ai, di, bi = _grown(ai, n), _grown(di, n), _grown(bi, n)
            table = tables[at[v] : at[v + 1]]
            for i in range(lo, hi):
                if _residual(target, a_sorted[i], r1) and _residual(r1, d_keys[d], r2):
                    g = _lookup(table, b_sorted, r2)
                    if g >= 0:
                        ai[n] = a_order[i]
                        di[n] = d
                        bi[n] = b_order[g]
                        n += 1
            if n > max_meetings:
                return ai[:0].copy(), di[:0].copy(), bi[:0].copy(), False
    return ai[:n].copy(), di[:n].copy(), bi[:n].copy(), True


@njit(cache=True, nogil=True)
def _plan(b_keys: np.ndarray, words: int, bucket_sums: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray]:
    """The fields that name a right-side sum's bucket (widest range first, until the buckets hold
    about ``bucket_sums`` sums), their places and radices, how many buckets, each field's least."""
    n_fields = FIELDS_PER_WORD * words
    least, most = _ranges(b_keys, np.arange(b_keys.shape[0]), n_fields)
    width = most - least + 1
    chosen = np.zeros(0, dtype=np.int64)
    place = np.zeros(0, dtype=np.int64)
    radix = np.zeros(0, dtype=np.int64)
    buckets = 1
    for f in np.argsort(-width, kind="mergesort"):
        if width[f] <= 1 or buckets * bucket_sums >= b_keys.shape[0]:
            break
        chosen = np.append(chosen, f)
        place = np.append(place, buckets)
        radix = np.append(radix, width[f])
        buckets *= width[f]
    return chosen, place, radix, buckets, least


def meet(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, b_table: np.ndarray,
         target: np.ndarray, max_meetings: float = np.inf, bucket_sums: int = BUCKET_SUMS,
         plain_below: int = PLAIN_BELOW) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Every triple (row of ``a_keys``, row of ``d_keys``, row of ``b_keys``) that sums to ``target``,
    ordered by the first then the second, and True; or, as soon as there are over ``max_meetings``,
    none and False.  (``b_table``: ``b_keys``' table, for a right side joined whole; see
    ``BUCKET_SUMS`` and ``PLAIN_BELOW`` for the other two.)"""
    if len(b_keys) < plain_below or len(a_keys) * len(d_keys) < PLAIN_STEPS * len(b_keys):
        return _plain(a_keys, d_keys, b_keys, b_table, target, max_meetings)
    chosen, place, radix, buckets, least = _plan(b_keys, target.shape[0], bucket_sums)
    if buckets == 1:
        return _plain(a_keys, d_keys, b_keys, b_table, target, max_meetings)
    ai, di, bi, whole = _bucketed(a_keys, d_keys, b_keys, target, chosen, place, radix, buckets, least, max_meetings)
    order = np.argsort(ai * len(d_keys) + di, kind="stable")
    return ai[order], di[order], bi[order], whole
