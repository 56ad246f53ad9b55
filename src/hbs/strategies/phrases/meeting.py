"""Where the level search's two sides and its middle meet on the target: every triple (left sum,
middle sum, right sum) that adds up to it.

The plain join tries each middle sum with each left sum and looks the rest up in the right side's
table: millions of lookups, nearly each a cache miss in a table of millions of sums (about 70 ns).
Here the right side's sums are split into *buckets* by a few fields (those where the fewest triples of
the three sides add up to the target's, see :func:`_plan`), each bucket with its own small
table and bit filter, and the left side's sums grouped by the same fields, each group with a table
and filter too: for a group of left sums and a middle sum the rest's bucket is known (a *step*),
and the smaller of the two is looked up in the other's table, in cache (the group's left sums in
the bucket, a step each, or the bucket's right sums in the group: the slowest joins of six and
eight words look up a fifth as many).  The hash is *linear* (the packed words times constants,
added), so the rest's hash is the target's less the two sums' hashes, each computed once: a lookup
is a subtraction and a word of a filter, and only the few that pass it read the table; and a group
and middle sum whose rest lies outside what the group's and the bucket's sums span in a few more
fields (each one's least and most) is turned away before any lookup.  The join's
steps are predicted from a sample of pairs before it starts, and a caller may cap them; another
sample tells a join that would find far more meetings than its cap (:func:`meets_over`).  The
meetings come out in the plain join's order (left sum, then middle sum).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import njit

from hbs.strategies.phrases.level_sums import _field, _grouped, _ranges
from hbs.strategies.phrases.packing import FIELDS_PER_WORD, _fits, _residual_at, pack
from hbs.strategies.phrases.reach import reachable
from hbs.strategies.phrases.sum_table import _grown, _lookup, build_filter, build_table, in_filter
from hbs.strategies.stable_order import stable_order

#: Right-side sums a bucket holds, about.  Fewer make more groups of left sums (a step for each
#: group and middle sum, a cache miss each), more make more lookups: on 15 joins of six and eight
#: Diceware words (4·10^6 to 1.6·10^9 steps), 128 took 30 s in all, 32 took 32 s and 512 more; 4,
#: six times as long (the widest fields naming the buckets).  With the most selective fields
#: (:func:`_plan`), on 11 joins of six words: 64 took 9.4 s, 128 7.2 s, 256 7.9 s, 512 8.5 s.  (The
#: fields come whole: the buckets hold 128 sums or fewer on average, often far fewer, and some
#: buckets many more.)
BUCKET_SUMS = 1 << 7
#: Bits of a bucket's filter for each of its sums: 0.73 s for a join that took 0.84 s with 16 bits,
#: 0.93 s with 8, 3.05 s reading each bucket's table.  Each sum sets two bits of one word (see
#: ``_tables``): a lookup that misses passes one in 300 rather than one in 46 with one bit, and
#: a pass costs about 280 ns (the table's slot, then the row, each a cache miss); on the 29 joins
#: saved from games 10.5-10.6 s against 11.6-12.5 s, the slowest six-word join 1.43 s to 1.04 s.
FILTER_BITS = 32
#: A right side of fewer sums is joined whole: its table stays in cache, and a join of millions of
#: meetings spends more sorting them into order than bucketing saves (10,000 sums and 2 million
#: meetings: 0.055 s whole, 0.2 s by buckets; 85,000 sums and 170,000 meetings: 0.11 s whole,
#: 0.07 s by buckets; 108,000 sums and 51,000 meetings: 3.1 s whole, 0.18 s by buckets).  So is a
#: join of fewer steps than four times the side's sums (bucketing them costs about a step each).
PLAIN_BELOW, PLAIN_STEPS = 1 << 14, 4
#: A ``sum_table.build_filter`` bitmap every key passes (64 bits set; the last word: the shift).
_PASS_ALL = np.array([np.iinfo(np.uint64).max, 58], dtype=np.uint64)
#: (left sum, middle sum) pairs the join's steps are predicted from (within 10% on those 15 joins,
#: bucketed by the widest fields).
PREDICT_PAIRS = 4096
#: (left sum, middle sum) pairs :func:`meets_over` looks up, and by how many times their meetings,
#: scaled to all the pairs, must be over the cap (with at least ``OVER_HITS`` pairs met).  At the
#: cap a sample meets about ``MEETING_PAIRS * cap / pairs`` times (17 for 3.9·10^8 pairs and a cap
#: of 10^5): a join at 70% of its cap is called over with odds of 3 in 10,000, at its cap 2.5%
#: (Poisson).  With 16,384 pairs and 4 times the cap, six-word joins of 1.5-1.7 times their cap
#: ran 1-3 s before they were cut short (their samples met 4 and 9 times; 65,536 pairs met 26 and
#: 25 times, 1.5 and 2.4 times the cap).
MEETING_PAIRS, OVER_BY, OVER_HITS = 1 << 16, 1.5, 8
#: Rows of each side whose fields' values tell which fields bucket the join (see ``_selectivity``).
SHARE_ROWS = 1 << 16
#: The left side's groups, at most this many times its sums (and 1,024 more; see ``_plan``).
LEFT_GROUPS = 2
#: Fields beside the bucket fields whose ranges, a group's and a bucket's, tell a (group, middle
#: sum) pair that cannot meet before its lookups (see ``_pruned``): on the slowest six-word join
#: saved (1,047,029 x 4,005 x 2,345,829 sums, no meeting), eight such fields turn away 84% of the
#: pairs that reach a bucket and 66% of the lookups; on others 7-60% of the lookups.
PRUNE_FIELDS = 8
#: A bucketed join of this many (left sum, middle sum) pairs or more first keeps only the middle
#: sums the sides can make up in their narrow fields (:func:`~hbs.strategies.phrases.reach.reachable`:
#: a pass over each side, 10-25 ms on sides of one to two million sums; the join's plan reads the
#: same ranges).
REACH_PAIRS = 1 << 26


def _splitmix64(n: int) -> np.ndarray:
    """``n`` odd 64-bit constants of the splitmix64 sequence (the linear hash's multipliers)."""
    out, x, m = [], 0, (1 << 64) - 1
    for _ in range(n):
        x = (x + 0x9E3779B97F4A7C15) & m
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & m
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
        out.append((z ^ (z >> 31)) | 1)
    return np.array(out, dtype=np.uint64)


#: The linear hash's multipliers, one per packed word of a sum (a game's sums hold at most a few).
_MULTIPLIERS = _splitmix64(64)


@njit(cache=True, nogil=True)
def _scratch(words: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A join's growing meetings (left, middle, right rows) and its two residuals."""
    rows = (np.empty(1024, dtype=np.int64), np.empty(1024, dtype=np.int64), np.empty(1024, dtype=np.int64))
    return rows[0], rows[1], rows[2], np.empty(words, dtype=np.uint64), np.empty(words, dtype=np.uint64)


@njit(cache=True, nogil=True, inline="always")
def _tuples(a_counts: np.ndarray, d_counts: np.ndarray, b_counts: np.ndarray, a: int, d: int, b: int) -> float:
    """A meeting's tuples, its three sums' counts multiplied in this order: the one product of
    ``meeting_weights``, ``_plain``'s running sums and ``drawn_meetings``' (the same draws bit for
    bit whether a join's meetings are kept or not)."""
    return a_counts[a] * d_counts[d] * b_counts[b]


@njit(cache=True, nogil=True, inline="always")
def _outcome(ai: np.ndarray, di: np.ndarray, bi: np.ndarray, whole: bool, n: int, kept: int,
             ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool, int, np.ndarray]:
    """A whole join's outcome: its first ``kept`` meetings (all of them, or none), whether it ran
    to the end, how many met, and the running tuples by left sum."""
    return ai[:kept].copy(), di[:kept].copy(), bi[:kept].copy(), whole, n, ends


@njit(cache=True, nogil=True)
def _plain(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, b_table: np.ndarray, target: np.ndarray,
           max_meetings: float, b_filter: np.ndarray, keep: float, a_counts: np.ndarray, d_counts: np.ndarray,
           b_counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool, int, np.ndarray]:
    """The join whole: each left sum with each middle sum, the rest looked up in ``b_table`` where
    it passes ``b_filter`` (see ``meet``); the meetings kept while at most ``keep`` (none beyond:
    see :class:`Joined`), how many there are, and the tuples met through each left sum (see
    ``Joined.ends``)."""
    ai, di, bi, r1, r2 = _scratch(target.shape[0])
    n = np.int64(0)  # (not a literal zero: _grown compiles once)
    ends = np.empty(a_keys.shape[0])
    tuples = 0.0
    for a in range(a_keys.shape[0]):
        ends[a] = tuples  # (a left sum that fits nowhere: none met)
        if not _residual_at(target, a_keys, a, r1):
            continue  # (the row's work nested under an if instead compiled to a loop 4.7 times as slow)
        # room for this row's meetings (not in the loop: see _bucket)
        while n < keep and n + d_keys.shape[0] > ai.shape[0]:
            ai, di, bi = _grown(ai, n), _grown(di, n), _grown(bi, n)
        for d in range(d_keys.shape[0]):
            if _residual_at(r1, d_keys, d, r2) and in_filter(b_filter, r2):
                g = _lookup(b_table, b_keys, r2)
                if g >= 0:
                    if n < keep:
                        ai[n] = a
                        di[n] = d
                        bi[n] = g
                    tuples += _tuples(a_counts, d_counts, b_counts, a, d, g)  # (np.cumsum's order)
                    n += 1
        ends[a] = tuples
        if n > max_meetings:
            return _outcome(ai, di, bi, False, n, 0, ends)
    return _outcome(ai, di, bi, True, n, n if n <= keep else 0, ends)


#: A whole join looks its rests up among the middle sums instead, over each (left sum, right sum)
#: pair, where the middle has this many times the right side's sums or more: early eight-word
#: joins of 1,700 left by 4,600 middle by 1,800 right sums (12% of the pairs meeting) spent 7-14
#: ns a (left, middle) pair.
MIDDLE_LOOKUPS = 1.5


def _de_bruijn() -> np.ndarray:
    """The place of a 64-bit word's one set bit, by its product with the de Bruijn number
    ``0x03F79D71B4CB0A89``'s top six bits."""
    out = np.zeros(64, dtype=np.int64)
    for i in range(64):
        out[((1 << i) * 0x03F79D71B4CB0A89 & ((1 << 64) - 1)) >> 58] = i
    return out


_DE_BRUIJN = _de_bruijn()


@njit(cache=True, nogil=True, inline="always")
def _lowest(bits: np.uint64) -> tuple[int, np.uint64]:
    """The place of the lowest set bit of ``bits`` (not zero), and ``bits`` without it."""
    low = bits & (~bits + np.uint64(1))
    return _DE_BRUIJN[np.int64((low * np.uint64(0x03F79D71B4CB0A89)) >> np.uint64(58))], bits ^ low


@njit(cache=True, nogil=True)
def _plain_by_right(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, d_table: np.ndarray,
                    target: np.ndarray, max_meetings: float, d_filter: np.ndarray, keep: float, a_counts: np.ndarray,
                    d_counts: np.ndarray, b_counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool, int, np.ndarray]:
    """:func:`_plain`'s join, the same outputs bit for bit, over each left sum with each right sum,
    the rest looked up among the middle sums (``d_table``, ``d_filter``): a left sum's meetings are
    then put in the order of their middle sums (one each: the sums of a side are distinct) before
    they are kept and their tuples added up, as ``_plain`` finds them."""
    ai, di, bi, r1, r2 = _scratch(target.shape[0])
    met = np.zeros((d_keys.shape[0] + 63) // 64, dtype=np.uint64)  # a left sum's middle sums met, a bit each
    b_of = np.empty(d_keys.shape[0], dtype=np.int64)  # and the right sum each met
    n = np.int64(0)  # (not a literal zero: _grown compiles once)
    ends = np.empty(a_keys.shape[0])
    tuples = 0.0
    for a in range(a_keys.shape[0]):
        ends[a] = tuples
        if not _residual_at(target, a_keys, a, r1):
            continue
        k = 0
        for b in range(b_keys.shape[0]):
            if _residual_at(r1, b_keys, b, r2) and in_filter(d_filter, r2):
                g = _lookup(d_table, d_keys, r2)
                if g >= 0:
                    met[g >> 6] |= np.uint64(1) << np.uint64(g & 63)
                    b_of[g] = b
                    k += 1
        while n < keep and n + k > ai.shape[0]:
            ai, di, bi = _grown(ai, n), _grown(di, n), _grown(bi, n)
        for w in range(met.shape[0] if k else 0):  # (the middle sums met, in order: lowest bit first)
            bits = met[w]
            met[w] = 0
            while bits:
                low, bits = _lowest(bits)
                d = w * 64 + low
                b = b_of[d]
                if n < keep:
                    ai[n] = a
                    di[n] = d
                    bi[n] = b
                tuples += _tuples(a_counts, d_counts, b_counts, a, d, b)  # (_plain's order: np.cumsum's)
                n += 1
        ends[a] = tuples
        if n > max_meetings:
            return _outcome(ai, di, bi, False, n, 0, ends)
    return _outcome(ai, di, bi, True, n, n if n <= keep else 0, ends)


@njit(cache=True, nogil=True)
def drawn_meetings(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, b_table: np.ndarray,
                   target: np.ndarray, a_counts: np.ndarray, d_counts: np.ndarray, b_counts: np.ndarray,
                   ends: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The meeting of a plain join (:class:`Joined`, its meetings not kept) that each of ``u``
    (ascending) falls in, as ``np.searchsorted(np.cumsum(weights), u, side="right")`` finds it in
    the kept meetings' weights (``meeting_weights``; past the last, the last): the left sums the
    draws fall in (``ends``) joined again, their running sums the same bit for bit."""
    k = u.shape[0]
    ai, di, bi = np.empty(k, dtype=np.int64), np.empty(k, dtype=np.int64), np.empty(k, dtype=np.int64)
    r1, r2 = np.empty(target.shape[0], dtype=np.uint64), np.empty(target.shape[0], dtype=np.uint64)
    m = np.searchsorted(u, ends[-1], side="left")  # (the draws past the last meeting's sum: the last meeting)
    j = 0
    while j < m:
        a, first = np.searchsorted(ends, u[j], side="right"), j
        tuples = ends[a - 1] if a > 0 else 0.0
        _residual_at(target, a_keys, a, r1)
        for d in range(d_keys.shape[0]):
            if _residual_at(r1, d_keys, d, r2):
                g = _lookup(b_table, b_keys, r2)
                if g >= 0:
                    tuples += _tuples(a_counts, d_counts, b_counts, a, d, g)
                    while j < m and u[j] < tuples:
                        ai[j], di[j], bi[j] = a, d, g
                        j += 1
        if j == first:
            raise ValueError("a draw fell in no meeting: the join's running sums differ")
    for a in range(a_keys.shape[0] - 1, -1, -1):
        if j == k or not _residual_at(target, a_keys, a, r1):
            continue
        for d in range(d_keys.shape[0] - 1, -1, -1):
            g = _lookup(b_table, b_keys, r2) if _residual_at(r1, d_keys, d, r2) else -1
            if g >= 0:
                ai[j:], di[j:], bi[j:] = a, d, g
                j = k
                break
    return ai, di, bi


@njit(cache=True, nogil=True)
def meeting_weights(a_counts: np.ndarray, d_counts: np.ndarray, b_counts: np.ndarray, ai: np.ndarray, di: np.ndarray,
                    bi: np.ndarray) -> np.ndarray:
    """Each meeting's tuples, the three sums' counts multiplied: ``a_counts[ai] * d_counts[di] *
    b_counts[bi]`` bit for bit, in one pass (numpy's three gathers and two products over the 26
    million meetings of an early seven-word guess took 0.8 s of its 2.5, five arrays written)."""
    out = np.empty(ai.shape[0])
    for i in range(ai.shape[0]):
        out[i] = _tuples(a_counts, d_counts, b_counts, ai[i], di[i], bi[i])
    return out


@njit(cache=True, nogil=True, inline="always")
def _linear_hash(keys: np.ndarray, i: int) -> np.uint64:
    """Row ``i``'s *linear* hash, the sum of its words times odd constants (modulo 2**64): the hash
    of ``target - a - d`` is ``h(target) - h(a) - h(d)``, two subtractions a lookup once ``h`` of
    every sum is known (a table slot takes the high bits)."""
    h = np.uint64(0)
    for k in range(keys.shape[1]):
        h += keys[i, k] * _MULTIPLIERS[k]
    return h


@njit(cache=True, nogil=True)
def _linear_hashes(keys: np.ndarray) -> np.ndarray:
    """``uint64[n]``: each row's :func:`_linear_hash`."""
    out = np.zeros(keys.shape[0], dtype=np.uint64)
    for i in range(keys.shape[0]):
        out[i] = _linear_hash(keys, i)
    return out


@njit(cache=True, nogil=True)
def _sorted(keys: np.ndarray, where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``keys``' rows each written to its place ``where[i]`` (see ``level_sums._grouped``), and
    each one's linear hash beside it, in one pass: rows read in turn and written out of order (the
    right side of 2.7 million sums gathered in order of places: 0.15-0.19 s, scattered: 0.04 s)."""
    out = np.empty_like(keys)
    hashes = np.empty(keys.shape[0], dtype=np.uint64)
    for i in range(keys.shape[0]):
        for k in range(keys.shape[1]):
            out[where[i], k] = keys[i, k]
        hashes[where[i]] = _linear_hash(keys, i)
    return out, hashes


@njit(cache=True, nogil=True)
def _tables(hashes: np.ndarray, first: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each bucket's open-addressing table (its rows, in bucket order, by the high bits of their
    linear hashes; -1 empty) and bit filter (at least ``FILTER_BITS`` bits a row; a hash's high
    bits name a word and a bit in it, the six bits below them a second bit in the same word: one
    read tests both), all in two arrays, and where they lie: ``meta[v]`` holds bucket ``v``'s table
    start, table size (a power of two, at least twice its rows; 0: an empty bucket), filter start
    (in words) and the two shifts that turn a hash into a slot and a bit (``shift | bit_shift << 8``):
    one row, one cache line, read for each group of left sums and middle sum."""
    buckets = first.shape[0] - 1
    meta = np.zeros((buckets, 4), dtype=np.int64)
    tables_size, filter_size = 0, 0
    for v in range(buckets):
        rows = first[v + 1] - first[v]
        if rows == 0:
            continue
        size, bits = 2, 1
        while size < 2 * rows + 2:
            size *= 2
            bits += 1
        f_size, f_bits = 64, 6
        while f_size < FILTER_BITS * rows:
            f_size *= 2
            f_bits += 1
        meta[v, 0], meta[v, 1], meta[v, 2] = tables_size, size, filter_size
        meta[v, 3] = (64 - bits) | (64 - f_bits) << 8
        tables_size += size
        filter_size += f_size // 64
    tables = np.full(tables_size, -1, dtype=np.int32)
    filt = np.zeros(filter_size, dtype=np.uint64)
    for v in range(buckets):
        start, mask, fo = meta[v, 0], np.uint64(meta[v, 1] - 1), meta[v, 2]
        shift, bit_shift = np.uint64(meta[v, 3] & 0xFF), np.uint64(meta[v, 3] >> 8)
        for i in range(first[v], first[v + 1]):
            slot = hashes[i] >> shift
            while tables[start + slot] >= 0:
                slot = (slot + np.uint64(1)) & mask
            tables[start + slot] = i
            bit, second = hashes[i] >> bit_shift, (hashes[i] >> (bit_shift - np.uint64(6))) & np.uint64(63)
            filt[fo + (bit >> np.uint64(6))] |= (np.uint64(1) << (bit & np.uint64(63))) | (np.uint64(1) << second)
    return tables, filt, meta


@njit(cache=True, nogil=True, inline="always")
def _passing(hashes: np.ndarray, lo: int, hi: int, base: np.uint64, filt: np.ndarray, fo: int, fsh: np.uint64,
             kept: np.ndarray) -> int:
    """The rows ``lo..hi - 1`` whose rest's hash, ``base`` less theirs, passes the filter at ``fo``
    (bit shift ``fsh``; both its bits set, see ``_tables``), written to ``kept``; how many.  (A loop
    without a branch.)"""
    passed, second_shift = 0, fsh - np.uint64(6)
    for i in range(lo, hi):
        h = base - hashes[i]
        bit = h >> fsh
        word = filt[fo + (bit >> np.uint64(6))]
        kept[passed] = i
        passed += np.int64((word >> (bit & np.uint64(63))) & (word >> ((h >> second_shift) & np.uint64(63))) & np.uint64(1))
    return passed


@njit(cache=True, nogil=True, inline="always")
def _met(rows: np.ndarray, tables: np.ndarray, meta: np.ndarray, v: int, h: np.uint64, xs: np.ndarray, x: int,
         d_keys: np.ndarray, d: int, target: np.ndarray) -> int:
    """The row of ``rows`` in table ``v`` (``meta[v]``, see ``_tables``) that adds up to ``target``
    with ``xs[x]`` and ``d_keys[d]`` (``h``: its linear hash), or -1.  (Word by word first; then
    no field of ``xs[x]`` or ``d_keys[d]`` over the rest's, so no carry.  Rows are read by index:
    a view of one costs reference counts at every lookup.)"""
    start, mask, slot = meta[v, 0], np.uint64(meta[v, 1] - 1), h >> np.uint64(meta[v, 3] & 0xFF)
    while True:
        g = tables[start + slot]
        if g < 0:
            return -1
        same = True
        for k in range(target.shape[0]):
            if rows[g, k] + xs[x, k] + d_keys[d, k] != target[k]:
                same = False
                break
        if same and _fits(target, xs, x, d_keys, d):
            return g
        slot = (slot + np.uint64(1)) & mask


@njit(cache=True, nogil=True)
def _field_ranges(keys: np.ndarray, first: np.ndarray, fields: np.ndarray) -> np.ndarray:
    """``uint8[groups, 2, F]``: each group's (``keys[first[g] : first[g + 1]]``) least and most value
    in each of ``fields`` (an empty group's: 255 and 0)."""
    out = np.empty((first.shape[0] - 1, 2, fields.shape[0]), dtype=np.uint8)
    for g in range(first.shape[0] - 1):
        for k in range(fields.shape[0]):
            low, high = 255, 0
            for i in range(first[g], first[g + 1]):
                value = _field(keys[i], fields[k])
                low, high = min(low, value), max(high, value)
            out[g, 0, k], out[g, 1, k] = low, high
    return out


@njit(cache=True, nogil=True, inline="always")
def _pruned(need: np.ndarray, d: int, a_ranges: np.ndarray, group: int, b_ranges: np.ndarray, v: int) -> bool:
    """Whether no left sum of group ``group`` and right sum of bucket ``v`` can meet with middle
    sum ``d``: in some pruning field the rest they must make up (``need[d]``: the target's less the
    middle sum's) lies outside the sum of their ranges (``a_ranges[group]``, ``b_ranges[v]``: least
    and most)."""
    for k in range(need.shape[1]):
        if (need[d, k] < a_ranges[group, 0, k] + b_ranges[v, 0, k]
                or need[d, k] > a_ranges[group, 1, k] + b_ranges[v, 1, k]):
            return True
    return False


@njit(cache=True, nogil=True)
def _group_join(group: int, lo: int, hi: int, d_from: int, a_sorted: np.ndarray, a_hashes: np.ndarray,
                d_keys: np.ndarray, d_code: np.ndarray, d_place: np.ndarray, codes: np.ndarray,
                code_place: np.ndarray, code_first: np.ndarray, by_code: np.ndarray, marks: np.ndarray,
                d_bucket: np.ndarray, d_hashes: np.ndarray, b_sorted: np.ndarray, b_hashes: np.ndarray,
                b_first: np.ndarray, target: np.ndarray, t_hash: np.uint64, chosen: np.ndarray,
                place: np.ndarray, radix: np.ndarray, b_least: np.ndarray, tables: np.ndarray, filt: np.ndarray,
                meta: np.ndarray, a_tables: np.ndarray, a_filt: np.ndarray, a_meta: np.ndarray, ai: np.ndarray,
                di: np.ndarray, bi: np.ndarray, n: int, steps: int, max_steps: float, rest: np.ndarray,
                kept: np.ndarray, need: np.ndarray, group_ranges: np.ndarray, b_ranges: np.ndarray,
                by_codes: bool) -> tuple[int, int, int]:
    """The meetings of the left sums ``a_sorted[lo:hi]`` (group ``group``) with the middle sums
    from ``d_from`` on, in the order of the middle sums, written from ``n`` on (rows of
    ``a_sorted``, of ``d_keys``, of ``b_sorted``); returns how many are written, the middle sum it
    stopped at, short of room or over ``max_steps`` (``d_keys``' length when done), and the steps
    taken, counted from ``steps`` (for each middle sum, one and the group's left sums where its
    rest's bucket holds right sums).  The meetings of one middle sum come in no order
    (``_by_left`` orders them).

    First the middle sums whose rest's bucket holds right sums are marked in ``marks`` (a bit
    each, cleared again as they are met) and their bucket kept (``d_bucket``).  A middle sum's
    bucket is named from its chosen fields' codes (``d_code``).  Where there are at most eight and
    the group's rests are not below zero, the *distinct* codes are tested instead (``codes``, a
    byte a field, with their place ``code_place``; ``by_code[code_first[k] : code_first[k + 1]]``
    the middle sums of code ``k``, in order), every digit at once with one subtraction and two
    masks: a late eight-word join (2.7·10^8 middle sums for 3,803 groups, 4,742 distinct codes
    among 70,973 middle sums) tests 1.8·10^7 codes.  Field by field otherwise, and where not
    ``by_codes``.  Then the marked ones are met in order: for each, the smaller of the two looked
    up in the other's tables, the group's left sums in the bucket's (``meta``), or the bucket's
    right sums in the group's (``a_meta``); those whose rest passes the filter are found in a loop
    without a branch (``_passing``), then looked up.  (The meeting is written out here, once: as
    an inline function of its own, called from two places, it left numba's reference counts of
    its arrays in the loop, two atomic adds an array and middle sum, and a late eight-word join
    took twice as long.  A kernel that never replaces an array: see ``level_sums._bucket``;
    ``rest``, ``kept``: scratch, ``rest`` the target's chosen fields less the group's.)"""
    n_chosen = chosen.shape[0]
    # the digits a byte each, tested at once (below); a field holds at most packing.MAX_FIELD (127),
    # so a rest, a code and a radix's complement each fit a byte's low seven bits
    packed = by_codes and n_chosen <= 8
    r_packed, r_place, guards, lifts = np.uint64(0), 0, np.uint64(0), np.uint64(0)
    for c in range(n_chosen):
        rest[c] = _field(target, chosen[c]) - _field(a_sorted[lo], chosen[c]) - b_least[chosen[c]]
        packed &= rest[c] >= 0
        if packed:
            at = np.uint64(8 * c)
            r_packed |= np.uint64(rest[c]) << at
            guards |= np.uint64(0x80) << at
            lifts |= np.uint64(128 - radix[c]) << at
            r_place += rest[c] * place[c]
    r_packed |= guards
    if packed:
        for k in range(codes.shape[0]):
            # each byte's digit is rest - code (no borrow: its guard bit stays set) and below the
            # radix (digit + 128 - radix leaves the guard bit clear): the bucket is then the
            # rest's place less the code's
            digits = r_packed - codes[k]
            if (digits & guards) != guards or (((digits & ~guards) + lifts) & guards) != 0:
                continue
            v = r_place - code_place[k]
            if meta[v, 1] == 0:
                continue
            for q in range(code_first[k], code_first[k + 1]):
                d = by_code[q]
                if d >= d_from:
                    marks[d >> 6] |= np.uint64(1) << np.uint64(d & 63)
                    d_bucket[d] = v
    else:
        for d in range(d_from, d_keys.shape[0]):
            v = 0  # the bucket of the rest (target less the group's fields and the middle sum's)
            for c in range(n_chosen):
                digit = rest[c] - d_code[d, c]
                if digit < 0 or digit >= radix[c]:
                    v = -1
                    break
                v += digit * place[c]
            if v >= 0 and meta[v, 1] != 0:
                marks[d >> 6] |= np.uint64(1) << np.uint64(d & 63)
                d_bucket[d] = v
    passed = d_from  # the first middle sum whose step is not counted yet
    for w in range(d_from >> 6, marks.shape[0]):
        bits = marks[w]
        marks[w] = 0
        while bits:
            low, bits = _lowest(bits)
            d = w * 64 + low
            steps += d - passed  # (a step each for those passed over: no bucket of right sums)
            passed = d + 1
            if steps > max_steps:  # (the join gives up: its marks go with it)
                return n, d, steps
            steps += 1
            v = d_bucket[d]
            if _pruned(need, d, group_ranges, group, b_ranges, v):  # (its steps counted all the same)
                steps += hi - lo
                continue
            b_lo, b_hi = b_first[v], b_first[v + 1]
            if n + min(hi - lo, b_hi - b_lo) > ai.shape[0]:
                return n, d, steps - 1  # (the marks left are those set again as it goes on from d)
            steps += hi - lo
            base = t_hash - d_hashes[d]
            # (the two ways written out: one inline function for both took 5-10% longer on 29 joins
            # saved from games, four runs interleaved)
            if b_hi - b_lo < hi - lo:  # the bucket's right sums, fewer, looked up among the group's
                found = _passing(b_hashes, b_lo, b_hi, base, a_filt, a_meta[group, 2],
                                 np.uint64(a_meta[group, 3] >> 8), kept)
                for c in range(found):
                    j = kept[c]
                    g = _met(a_sorted, a_tables, a_meta, group, base - b_hashes[j], b_sorted, j, d_keys, d, target)
                    if g >= 0:
                        ai[n], di[n], bi[n] = g, d, j
                        n += 1
            else:
                found = _passing(a_hashes, lo, hi, base, filt, meta[v, 2], np.uint64(meta[v, 3] >> 8), kept)
                for c in range(found):
                    i = kept[c]
                    g = _met(b_sorted, tables, meta, v, base - a_hashes[i], a_sorted, i, d_keys, d, target)
                    if g >= 0:
                        ai[n], di[n], bi[n] = i, d, g
                        n += 1
    return n, d_keys.shape[0], steps + d_keys.shape[0] - passed


@njit(cache=True, nogil=True)
def _by_left(ai: np.ndarray, di: np.ndarray, bi: np.ndarray, a_order: np.ndarray, a_where: np.ndarray,
             b_order: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The meetings, found a group of left sums at a time (``ai`` rows of the left side in
    ``a_order``, each group's in a block; ``bi`` of the right side in ``b_order``), as rows of the
    sides themselves, ordered by left sum and otherwise as found: one stable counting sort, each
    meeting written straight to its place (``a_where``: each left sum's place in ``a_order``).  The
    places a group's meetings go to are one run for each of its left sums, a few runs written at
    once.  (Two counting sorts over every meeting, by middle sum then by left sum, took 0.45 s of a
    five-word guess of 2.6 s.)"""
    n_a = a_order.shape[0]
    count = np.zeros(n_a, dtype=np.int64)
    for k in range(ai.shape[0]):
        count[ai[k]] += 1
    at = np.empty(n_a, dtype=np.int64)  # where each (sorted) left sum's run starts, by left sum
    total = 0
    for a in range(n_a):
        at[a_where[a]] = total
        total += count[a_where[a]]
    oa, od, ob = np.empty_like(ai), np.empty_like(di), np.empty_like(bi)
    for k in range(ai.shape[0]):
        p = at[ai[k]]
        at[ai[k]] += 1
        oa[p], od[p], ob[p] = a_order[ai[k]], di[k], b_order[bi[k]]
    return oa, od, ob


@njit(cache=True, nogil=True)
def _left_groups(a_keys: np.ndarray, chosen: np.ndarray, a_least: np.ndarray,
                 a_most: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The left sums grouped by the bucket fields ``chosen`` (see ``_grouped``: ``order[first[g] :
    first[g + 1]]`` are group ``g``'s, ``where`` each one's place), a group for each combination of
    their values in range (``a_least`` to ``a_most``, each field's over the left sums)."""
    place = np.zeros(chosen.shape[0], dtype=np.int64)
    groups = 1
    for c in range(chosen.shape[0]):
        place[c] = groups
        groups *= a_most[chosen[c]] - a_least[chosen[c]] + 1
    return _grouped(a_keys, np.arange(a_keys.shape[0]), a_least, chosen, place, groups)


@njit(cache=True, nogil=True)
def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


@njit(cache=True, nogil=True)
def _stride(pairs: int) -> int:
    """A golden-ratio stride over ``pairs`` (left sum, middle sum) pairs, prime to them: every pair
    once in ``pairs`` strides, and neither part repeats in step with the other."""
    stride = max(1, int(0.6180339887 * pairs))
    while _gcd(stride, pairs) != 1:
        stride -= 1
    return stride


@njit(cache=True, nogil=True)
def _sampled_rests(a_keys: np.ndarray, d_keys: np.ndarray, target: np.ndarray, samples: int) -> np.ndarray:
    """What the right sum would be for each of ``samples`` (left sum, middle sum) pairs spread by
    ``_stride``: the target less the two, for the pairs it leaves a sum of at all (no field below 0)."""
    pairs, found = a_keys.shape[0] * d_keys.shape[0], 0
    rests = np.empty((samples, target.shape[0]), dtype=np.uint64)
    r1, r2 = np.empty(target.shape[0], dtype=np.uint64), np.empty(target.shape[0], dtype=np.uint64)
    stride = _stride(pairs)
    for k in range(samples):
        p = (k * stride) % pairs
        a, d = p // d_keys.shape[0], p % d_keys.shape[0]
        if _residual_at(target, a_keys, a, r1) and _residual_at(r1, d_keys, d, r2):
            for w in range(r2.shape[0]):  # (word by word: a row assigned at once compiles numba's shape errors, 4 s)
                rests[found, w] = r2[w]
            found += 1
    return rests[:found]


@njit(cache=True, nogil=True)
def _sampled_meetings(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, b_table: np.ndarray,
                      target: np.ndarray, samples: int) -> int:
    """How many of ``samples`` (left sum, middle sum) pairs, spread by ``_stride``, meet a right sum
    (looked up in ``b_table``)."""
    hits = 0
    for rest in _sampled_rests(a_keys, d_keys, target, samples):
        hits += _lookup(b_table, b_keys, rest) >= 0
    return hits


@njit(cache=True, nogil=True)
def _sampled_in_buckets(a_keys: np.ndarray, d_keys: np.ndarray, b_sorted: np.ndarray, target: np.ndarray,
                        samples: int, chosen: np.ndarray, place: np.ndarray, radix: np.ndarray, b_least: np.ndarray,
                        tables: np.ndarray, meta: np.ndarray) -> int:
    """``_sampled_meetings``, the right sums looked up in their buckets' tables (see ``_tables``)."""
    rests = _sampled_rests(a_keys, d_keys, target, samples)
    hashes, hits = _linear_hashes(rests), 0
    for k in range(rests.shape[0]):
        v = 0
        for c in range(chosen.shape[0]):
            digit = _field(rests[k], chosen[c]) - b_least[chosen[c]]
            if digit < 0 or digit >= radix[c]:
                v = -1
                break
            v += digit * place[c]
        if v < 0 or meta[v, 1] == 0:
            continue
        start, mask, slot = meta[v, 0], np.uint64(meta[v, 1] - 1), hashes[k] >> np.uint64(meta[v, 3] & 0xFF)
        while tables[start + slot] >= 0:
            g = tables[start + slot]
            same = True
            for w in range(rests.shape[1]):
                same = same and b_sorted[g, w] == rests[k, w]
            if same:
                hits += 1
                break
            slot = (slot + np.uint64(1)) & mask
    return hits


@njit(cache=True, nogil=True)
def _over(hits: int, pairs: int, samples: int, max_meetings: float) -> bool:
    """Whether ``hits`` of ``samples`` pairs met, scaled to all ``pairs``, is surely over ``max_meetings``."""
    return hits >= OVER_HITS and hits * float(pairs) > OVER_BY * max_meetings * samples


def meets_over(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, b_table: np.ndarray, target: np.ndarray,
               max_meetings: float) -> bool:
    """Whether the join of these sums surely finds over ``max_meetings`` meetings: the share of
    ``MEETING_PAIRS`` pairs looked up in ``b_table`` (``b_keys``' table) that meet, scaled to all
    the pairs, is over ``OVER_BY`` times that: a join capped there would be cut short.  (:func:`meet`
    asks the same of its buckets where given ``over``.)"""
    pairs = len(a_keys) * len(d_keys)
    samples = min(MEETING_PAIRS, pairs)
    if not samples:
        return False
    return _over(_sampled_meetings(a_keys, d_keys, b_keys, b_table, target, samples), pairs, samples, max_meetings)


@njit(cache=True, nogil=True)
def _predicted_steps(a_keys: np.ndarray, a_first: np.ndarray, d_keys: np.ndarray, b_first: np.ndarray,
                     target: np.ndarray, chosen: np.ndarray, place: np.ndarray, radix: np.ndarray,
                     b_least: np.ndarray) -> float:
    """The steps the join will take, about: a step for each group of left sums and middle sum, and
    the lookups, the share of ``PREDICT_PAIRS`` (left sum, middle sum) pairs whose rest falls in a
    bucket that holds right sums.  The pairs are spread by a golden-ratio stride over their
    numbering (left sum, then middle sum), so that neither part repeats in step with the other."""
    held = 0
    for g in range(a_first.shape[0] - 1):
        held += a_first[g + 1] > a_first[g]
    pairs, hits = a_keys.shape[0] * d_keys.shape[0], 0
    stride = _stride(pairs)
    for k in range(PREDICT_PAIRS):
        p = (k * stride) % pairs
        a, d = p // d_keys.shape[0], p % d_keys.shape[0]
        v = 0
        for c in range(chosen.shape[0]):
            f = chosen[c]
            digit = _field(target, f) - _field(a_keys[a], f) - _field(d_keys[d], f) - b_least[f]
            if digit < 0 or digit >= radix[c]:
                v = -1
                break
            v += digit * place[c]
        hits += v >= 0 and b_first[v + 1] > b_first[v]
    return float(held) * d_keys.shape[0] + float(pairs) * hits / PREDICT_PAIRS


@njit(cache=True, nogil=True)
def _largest_run(first: np.ndarray) -> int:
    """The most rows any group or bucket holds (``first``: where each starts; ``np.diff``'s max,
    which compiled 1.5 s longer)."""
    most = 0
    for v in range(first.shape[0] - 1):
        most = max(most, first[v + 1] - first[v])
    return most


@njit(cache=True, nogil=True)
def _bucketed(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, target: np.ndarray, chosen: np.ndarray,
              place: np.ndarray, radix: np.ndarray, buckets: int, b_least: np.ndarray, a_least: np.ndarray,
              a_most: np.ndarray, pruning: np.ndarray, max_meetings: float, max_steps: float, over: float,
              by_codes: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool, int]:
    """The bucketed join of a plan (:func:`_join_plan`): the meetings (rows of the three sides, by
    left sum), whether they are all there, and the steps it took (-1 where it gave up before
    joining: over ``max_steps`` as predicted, or ``over`` as sampled).  ``by_codes``: see
    :func:`_group_join` (False: every middle sum's bucket field by field; the same meetings and
    steps)."""
    b_order, b_first, b_where = _grouped(b_keys, np.arange(b_keys.shape[0]), b_least, chosen, place, buckets)
    a_order, a_first, a_where = _left_groups(a_keys, chosen, a_least, a_most)
    if max_steps < np.inf and _predicted_steps(a_keys, a_first, d_keys, b_first, target, chosen, place, radix,
                                               b_least) > max_steps:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), False, -1
    b_sorted, b_hashes = _sorted(b_keys, b_where)  # (each bucket's rows together: its lookups stay in cache)
    tables, filt, meta = _tables(b_hashes, b_first)
    pairs = a_keys.shape[0] * d_keys.shape[0]
    samples = min(MEETING_PAIRS, pairs)
    if over < np.inf and samples and _over(_sampled_in_buckets(a_keys, d_keys, b_sorted, target, samples, chosen,
                                                               place, radix, b_least, tables, meta),
                                           pairs, samples, over):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), False, -1
    a_sorted, a_hashes = _sorted(a_keys, a_where)
    a_tables, a_filt, a_meta = _tables(a_hashes, a_first)  # (each group's, as the buckets')
    d_code = np.empty((d_keys.shape[0], chosen.shape[0]), dtype=np.int64)  # the middle sums' chosen fields
    d_packed = np.zeros(d_keys.shape[0], dtype=np.uint64)  # ... a byte each (up to 8), and their place
    d_place = np.zeros(d_keys.shape[0], dtype=np.int64)
    for d in range(d_keys.shape[0]):
        for c in range(chosen.shape[0]):
            d_code[d, c] = _field(d_keys[d], chosen[c])
            if c < 8:
                d_packed[d] |= np.uint64(d_code[d, c]) << np.uint64(8 * c)
            d_place[d] += d_code[d, c] * place[c]
    by_code = np.argsort(d_packed, kind="mergesort")  # (the middle sums of each distinct code, in order)
    distinct = np.ones(d_keys.shape[0], dtype=np.bool_)
    distinct[1:] = d_packed[by_code[1:]] != d_packed[by_code[:-1]]
    code_first = np.append(np.flatnonzero(distinct), d_keys.shape[0])
    codes, code_place = d_packed[by_code[code_first[:-1]]], d_place[by_code[code_first[:-1]]]
    marks = np.zeros((d_keys.shape[0] + 63) // 64, dtype=np.uint64)
    d_bucket = np.empty(d_keys.shape[0], dtype=np.int64)  # (a marked middle sum's bucket)
    d_hashes = _linear_hashes(d_keys)
    t_hash = _linear_hashes(target.reshape(1, -1))[0]
    ai, di, bi, _, _ = _scratch(target.shape[0])
    rest = np.empty(chosen.shape[0], dtype=np.int64)
    kept = np.empty(max(_largest_run(a_first), _largest_run(b_first)), dtype=np.int64)
    need = np.empty((d_keys.shape[0], pruning.shape[0]), dtype=np.int64)  # the target's less the middle sum's
    for d in range(d_keys.shape[0]):
        for k in range(pruning.shape[0]):
            need[d, k] = _field(target, pruning[k]) - _field(d_keys[d], pruning[k])
    group_ranges, b_ranges = _field_ranges(a_sorted, a_first, pruning), _field_ranges(b_sorted, b_first, pruning)
    n, steps = np.int64(0), np.int64(0)  # (not literal zeros: _group_join compiles once)
    for group in range(a_first.shape[0] - 1):
        lo, hi = a_first[group], a_first[group + 1]
        d = np.int64(0)
        while lo < hi and d < d_keys.shape[0]:
            n, d, steps = _group_join(group, lo, hi, d, a_sorted, a_hashes, d_keys, d_code, d_place, codes,
                                      code_place, code_first, by_code, marks, d_bucket, d_hashes, b_sorted,
                                      b_hashes, b_first, target, t_hash, chosen, place, radix, b_least, tables, filt,
                                      meta, a_tables, a_filt, a_meta, ai, di, bi, n, steps, max_steps, rest, kept,
                                      need, group_ranges, b_ranges, by_codes)
            if n > max_meetings or steps > max_steps:
                return ai[:0].copy(), di[:0].copy(), bi[:0].copy(), False, steps
            if d < d_keys.shape[0]:
                ai, di, bi = _grown(ai, n), _grown(di, n), _grown(bi, n)
    oa, od, ob = _by_left(ai[:n], di[:n], bi[:n], a_order, a_where, b_order)
    return oa, od, ob, True, steps


@njit(cache=True, nogil=True)
def _value_counts(keys: np.ndarray, n_fields: int) -> np.ndarray:
    """``int64[n_fields, 128]``: how many of ``keys``' rows hold each value in each field, over at
    most ``SHARE_ROWS`` rows spread evenly (every row of a side of that many or fewer)."""
    step = max(1, -(-keys.shape[0] // SHARE_ROWS))
    out = np.zeros((n_fields, 128), dtype=np.int64)
    for i in range(0, keys.shape[0], step):
        for f in range(n_fields):
            out[f, _field(keys[i], f)] += 1
    return out


@njit(cache=True, nogil=True)
def _selectivity(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Each field's count of (left, middle, right) triples of the rows ``_value_counts`` reads,
    one from each side, whose values in that field add up to the target's: the expected matches
    in that field, which rank the fields about as the pairs whose rest no right sum holds would
    (what a bucket field turns away).  (Integers, at most 2^48: the same plan on any machine.)"""
    n_fields = FIELDS_PER_WORD * target.shape[0]
    ca, cd, cb = _value_counts(a_keys, n_fields), _value_counts(d_keys, n_fields), _value_counts(b_keys, n_fields)
    out = np.zeros(n_fields, dtype=np.int64)
    for f in range(n_fields):
        goal = _field(target, f)
        for x in range(goal + 1):
            if ca[f, x] == 0:
                continue
            for y in range(goal - x + 1):
                out[f] += ca[f, x] * cd[f, y] * cb[f, goal - x - y]
    return out


def _plan(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, target: np.ndarray,
          bucket_sums: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray, np.ndarray, np.ndarray,
                                     np.ndarray]:
    """The fields that name a right-side sum's bucket (the most selective first, see
    ``_selectivity``, until the buckets hold about ``bucket_sums`` sums), their places and radices,
    how many buckets, each field's least over the right sums, each field's least and most over
    the left sums, and the ``PRUNE_FIELDS`` most selective of the others (see ``_pruned``).  A field that would make the left side's groups (one for each combination of its
    values in the fields) over ``LEFT_GROUPS`` times its sums is passed over: many narrow fields
    could otherwise number them in billions.  (In Python: compiled, it was one more kernel to warm
    up, reached in a real game only where a join of under ``REACH_PAIRS`` pairs is bucketed.)"""
    return _planned(a_keys, d_keys, b_keys, target, bucket_sums,
                    *_side_ranges(a_keys, b_keys, FIELDS_PER_WORD * target.shape[0]))


@njit(cache=True, nogil=True)
def _side_ranges(a_keys: np.ndarray, b_keys: np.ndarray, n_fields: int) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                                np.ndarray]:
    """Each field's least and most over the right sums, then over the left sums."""
    least, most = _ranges(b_keys, np.arange(b_keys.shape[0]), n_fields)
    a_least, a_most = _ranges(a_keys, np.arange(a_keys.shape[0]), n_fields)
    return least, most, a_least, a_most


@njit(cache=True, nogil=True)
def _planned(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, target: np.ndarray, bucket_sums: int,
             least: np.ndarray, most: np.ndarray, a_least: np.ndarray,
             a_most: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray, np.ndarray, np.ndarray,
                                          np.ndarray]:
    """``_plan`` of sides whose ranges are known (see ``_side_ranges``)."""
    width = most - least + 1
    chosen = np.zeros(0, dtype=np.int64)
    place = np.zeros(0, dtype=np.int64)
    radix = np.zeros(0, dtype=np.int64)
    pruning = np.zeros(0, dtype=np.int64)
    buckets, groups = 1, 1
    for f in stable_order(_selectivity(a_keys, d_keys, b_keys, target)):
        if width[f] <= 1:
            continue
        a_width = max(1, a_most[f] - a_least[f] + 1)
        if buckets * bucket_sums < b_keys.shape[0] and groups * a_width <= LEFT_GROUPS * a_keys.shape[0] + 1024:
            chosen = np.append(chosen, f)
            place = np.append(place, buckets)
            radix = np.append(radix, width[f])
            buckets *= width[f]
            groups *= a_width
        elif pruning.shape[0] < PRUNE_FIELDS:
            pruning = np.append(pruning, f)
    return chosen, place, radix, buckets, least, a_least, a_most, pruning


def predicted_steps(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, target: np.ndarray,
                    bucket_sums: int = BUCKET_SUMS, plain_below: int = PLAIN_BELOW) -> float:
    """The steps :func:`meet` would take to join these sums (predicted; the plain join's, all its lookups;
    every middle sum's, before the reach drops any)."""
    plan = _join_plan(a_keys, d_keys, b_keys, target, bucket_sums, plain_below)
    if plan is None:
        return float(len(a_keys) * len(d_keys))
    chosen, place, radix, buckets, least, a_least, a_most, _ = plan
    _, b_first, _ = _grouped(b_keys, np.arange(b_keys.shape[0]), least, chosen, place, buckets)
    _, a_first, _ = _left_groups(a_keys, chosen, a_least, a_most)
    return _predicted_steps(a_keys, a_first, d_keys, b_first, target, chosen, place, radix, least)


def _whole(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, plain_below: int) -> bool:
    """Whether the right side is joined whole for its size or the join's (see ``PLAIN_BELOW``)."""
    return len(b_keys) < plain_below or len(a_keys) * len(d_keys) < PLAIN_STEPS * len(b_keys)


def _join_plan(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, target: np.ndarray, bucket_sums: int,
               plain_below: int, ranges: tuple | None = None) -> tuple | None:
    """The bucketed join's plan (see ``_plan``; ``ranges``: ``_side_ranges``' where known), or None
    where the sums are joined whole."""
    if _whole(a_keys, d_keys, b_keys, plain_below):
        return None
    if ranges is None:
        plan = _plan(a_keys, d_keys, b_keys, target, bucket_sums)
    else:
        plan = _planned(a_keys, d_keys, b_keys, target, bucket_sums, *ranges)
    return None if plan[3] == 1 else plan


class Joined(NamedTuple):
    """A join's meetings (:func:`meet`'s four) and, from :func:`join`, how many there are (``met``)
    and, for a join whole given the sums' counts, the tuples met up to the end of each left sum
    (``ends``: the running sum of ``meeting_weights`` over the meetings in order, bit for bit).
    Such a join of over ``keep`` meetings keeps none (``left`` empty, ``whole`` True): its draws
    are found again from ``ends`` (:func:`drawn_meetings`).  An early seven-word guess held 26
    million meetings (38 joins of up to 2.3 million): writing them, weighing them and summing
    the weights took twice as long as finding them."""

    left: np.ndarray
    middle: np.ndarray
    right: np.ndarray
    whole: bool
    met: int = 0
    ends: np.ndarray | None = None


def meet(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, b_table: np.ndarray | Callable[[], np.ndarray] | None,
         target: np.ndarray, max_meetings: float = np.inf, max_steps: float = np.inf, bucket_sums: int = BUCKET_SUMS,
         plain_below: int = PLAIN_BELOW, over: float | None = None,
         reach_pairs: float = REACH_PAIRS) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Every triple (row of ``a_keys``, row of ``d_keys``, row of ``b_keys``) that sums to ``target``,
    ordered by the first then the second, and True; or, as soon as there are over ``max_meetings``,
    or where its steps (a lookup, or a bucket found for a group of left sums and a middle sum; the
    plain join's are all its lookups) are predicted to be or turn out over ``max_steps``, or where
    a sample says the meetings are surely over ``over`` (:func:`meets_over`, asked of the buckets'
    tables once built: the right side needs no table of its own), none and False.  A bucketed join
    of ``reach_pairs`` pairs or more first drops the middle sums that cannot meet (see
    :mod:`~hbs.strategies.phrases.reach`): where none is left, none and True, whatever the caps.
    (``b_table``: ``b_keys``' table, for a right side joined whole, or what gives it when asked, or
    None: built if so; see ``BUCKET_SUMS`` and ``PLAIN_BELOW`` for the other two.)"""
    return tuple(join(a_keys, d_keys, b_keys, b_table, target, max_meetings, max_steps, bucket_sums, plain_below, over,
                      reach_pairs))[:4]


def join(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray,
         b_table: np.ndarray | Callable[[], np.ndarray] | None, target: np.ndarray, max_meetings: float = np.inf,
         max_steps: float = np.inf, bucket_sums: int = BUCKET_SUMS, plain_below: int = PLAIN_BELOW,
         over: float | None = None, reach_pairs: float = REACH_PAIRS,
         counts: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None, keep: float = np.inf) -> Joined:
    """:func:`meet`, as a :class:`Joined`: ``counts``, each side's sums' counts (else none: ``ends``
    None), and ``keep``, the meetings a join whole keeps at most."""
    max_meetings, max_steps = float(max_meetings), float(max_steps)  # (one compiled signature)
    over = np.inf if over is None else float(over)
    ranges, rows = None, None
    sized = min(len(a_keys), len(d_keys), len(b_keys)) > 0 and len(a_keys) * len(d_keys) >= reach_pairs
    if sized and not _whole(a_keys, d_keys, b_keys, plain_below):
        ranges = _side_ranges(a_keys, b_keys, FIELDS_PER_WORD * target.shape[0])
        rows = reachable(a_keys, d_keys, b_keys, target, *ranges)
        if not len(rows):
            return Joined(*(np.zeros(0, dtype=np.int64) for _ in range(3)), True)
        if len(rows) < len(d_keys):  # (the meetings of the middle sums kept, in the same order)
            d_keys = d_keys[rows]
        else:
            rows = None
    if rows is not None:  # (kept: drawn again, they would need the middle sums as reached)
        counts, keep = None, np.inf
    found = _joined(a_keys, d_keys, b_keys, b_table, target, max_meetings, max_steps, bucket_sums, plain_below, over,
                    ranges, counts, float(keep))
    return found if rows is None else found._replace(middle=rows[found.middle])


def _joined(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, b_table: np.ndarray | Callable[[], np.ndarray] | None,
            target: np.ndarray, max_meetings: float, max_steps: float, bucket_sums: int, plain_below: int, over: float,
            ranges: tuple | None, counts: tuple | None, keep: float) -> Joined:
    """:func:`join` past the middle sums' reach: the join whole or in buckets."""
    plan = _join_plan(a_keys, d_keys, b_keys, target, bucket_sums, plain_below, ranges)
    if plan is None:
        if len(a_keys) * len(d_keys) > max_steps:
            return Joined(*(np.zeros(0, dtype=np.int64) for _ in range(3)), False)
        if b_table is None:
            b_table = build_table(b_keys)
        elif callable(b_table):
            b_table = b_table()
        if over < np.inf and meets_over(a_keys, d_keys, b_keys, b_table, target, over):
            return Joined(*(np.zeros(0, dtype=np.int64) for _ in range(3)), False)
        weighed = counts or tuple(np.ones(len(keys)) for keys in (a_keys, d_keys, b_keys))
        # a side looked up of PLAIN_BELOW sums or more (joined whole for its few lookups) has a
        # table out of cache: a filter turns most rests away first (the 30 slowest such joins of
        # four five-word games 1.29 s against 0.68 s, and 0.10 s to build the filters)
        by_right = len(d_keys) >= MIDDLE_LOOKUPS * len(b_keys)
        looked = d_keys if by_right else b_keys
        filt = build_filter(looked) if len(looked) >= PLAIN_BELOW else _PASS_ALL
        if by_right:
            ai, di, bi, whole, met, ends = _plain_by_right(a_keys, d_keys, b_keys, build_table(d_keys), target,
                                                           max_meetings, filt, keep if counts else np.inf, *weighed)
        else:
            ai, di, bi, whole, met, ends = _plain(a_keys, d_keys, b_keys, b_table, target, max_meetings, filt,
                                                  keep if counts else np.inf, *weighed)
        return Joined(ai, di, bi, whole, met, ends if counts else None)
    ai, di, bi, whole, _ = _bucketed(a_keys, d_keys, b_keys, target, *plan, max_meetings, max_steps, over, True)
    return Joined(ai, di, bi, whole, len(ai))


def warm_join() -> None:
    """Join a few sums in buckets, after their reach, and drop them: so that numba compiles (or loads)
    the bucketed join's kernels in a set-up, where its small warm-up games join too few sums to
    bucket them (four words of 10,000: one join, of one sum a side), rather than in a real game's
    first long join (2-5 s of compiling).  (Its pairs, 320, are over ``PLAIN_STEPS`` times the
    right sums: they are not joined whole.)  Then joins them whole, keeping no meeting, and finds
    a draw of them again (:func:`drawn_meetings`): a count of that many meetings is met only in a
    long game; and joins them whole once more with the middle the larger side, as early seven-
    and eight-word joins are."""
    rng = np.random.default_rng(0)
    a, d, b = (pack(rng.integers(0, 4, (n, 2 * FIELDS_PER_WORD)).astype(np.uint8)) for n in (40, 8, 40))
    target = a[0] + d[0] + b[0]
    meet(a, d, b, None, target, plain_below=1, bucket_sums=2, reach_pairs=0)
    counts = tuple(np.ones(len(keys)) for keys in (a, d, b))
    table = build_table(b)
    found = join(a, d, b, table, target, plain_below=len(b) + 1, counts=counts, keep=0)
    drawn_meetings(a, d, b, table, target, *counts, found.ends, found.ends[-1:] / 2)
    join(a, b, d, build_table(d), target, plain_below=len(b) + 1, counts=(counts[0], counts[2], counts[1]), keep=0)
