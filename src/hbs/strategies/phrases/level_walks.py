"""The walks of the level search: the paths down the levels from a meeting (see :mod:`meeting`) to
the words (one drawn in proportion to the tuples behind each step, or every one), and the draws of
an estimate.
"""

from __future__ import annotations


import numpy as np
from numba import njit

from hbs.strategies.prefetch import prefetch

from hbs.strategies.phrases.packing import GUARD, _NOT_GUARD, _residual_at
from hbs.strategies.phrases.sum_table import _filter_hash, _grown, _lookup, filter_has


@njit(cache=True, nogil=True, inline="always")
def _single(s: int, counts: np.ndarray, firsts: np.ndarray, prev_counts: np.ndarray, d_sizes: np.ndarray) -> int:
    """Sum ``s``'s one step down (``p * len(d_sizes) + d``) where it has only one, or -1: its first
    step's tuples are then all of its own (every step has some).  Late in a game nine sums in ten
    have one step (2.7 million of 3.1 million pairs), and a walk over every path looked up every
    slot row for each (0.3 s to list 20,820 six-word tuples)."""
    f = firsts[s]
    nd = d_sizes.shape[0]
    return f if counts[s] == prev_counts[f // nd] * d_sizes[f % nd] else -1


@njit(cache=True, nogil=True)
def descend(states: np.ndarray, u: np.ndarray, keys: np.ndarray, counts: np.ndarray, firsts: np.ndarray,
            prev_keys: np.ndarray, prev_counts: np.ndarray, prev_table: np.ndarray, d_keys: np.ndarray,
            d_sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One step down for each drawn sum ``keys[states[i]]`` (of ``counts`` tuples, ``firsts`` its first
    step, see :func:`level_sums.combine`): the (sum below, slot row) chosen with probability
    proportional to the tuples behind it, by the uniform number ``u[i]``.  (The steps down are
    looked up once, their running tuples kept: a second pass of lookups, each a cache miss in a
    table of thousands of sums, was a tenth of a six-word game.)"""
    parents = np.empty(states.shape[0], dtype=np.int64)
    rows = np.empty(states.shape[0], dtype=np.int64)
    r = np.empty(keys.shape[1], dtype=np.uint64)
    step_parent = np.empty(d_keys.shape[0], dtype=np.int64)
    step_row = np.empty(d_keys.shape[0], dtype=np.int64)
    running = np.empty(d_keys.shape[0], dtype=np.float64)
    nd = d_keys.shape[0]
    for i in range(states.shape[0]):
        f = _single(states[i], counts, firsts, prev_counts, d_sizes)
        if f >= 0:
            parents[i], rows[i] = f // nd, f % nd
            continue
        key = keys[states[i]]
        total = 0.0
        n = 0
        for d in range(d_keys.shape[0]):
            if _residual_at(key, d_keys, d, r):
                p = _lookup(prev_table, prev_keys, r)
                if p >= 0:
                    total += prev_counts[p] * d_sizes[d]
                    step_parent[n], step_row[n], running[n] = p, d, total
                    n += 1
        if n == 0:
            raise ValueError("a level's sum with no step down")
        pick = u[i] * total
        k = 0  # the first step whose running tuples pass the pick (the last where none does)
        while k < n - 1 and not running[k] > pick:
            k += 1
        parents[i], rows[i] = step_parent[k], step_row[k]
    return parents, rows


@njit(cache=True, nogil=True)
def branches(states: np.ndarray, keys: np.ndarray, counts: np.ndarray, firsts: np.ndarray, prev_keys: np.ndarray,
             prev_counts: np.ndarray, prev_table: np.ndarray, d_keys: np.ndarray,
             d_sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every step down from each sum ``keys[states[i]]`` (see :func:`descend`): (i, sum below, slot
    row), in order."""
    nd = d_keys.shape[0]
    cap = max(16, 2 * states.shape[0])
    src = np.empty(cap, dtype=np.int64)
    parents = np.empty(cap, dtype=np.int64)
    rows = np.empty(cap, dtype=np.int64)
    r = np.empty(keys.shape[1], dtype=np.uint64)
    n = np.int64(0)  # (not a literal zero: _grown compiles once)
    for i in range(states.shape[0]):
        key = keys[states[i]]
        while n + d_keys.shape[0] > src.shape[0]:  # room for this sum's steps (not in the loop: see _bucket)
            src, parents, rows = _grown(src, n), _grown(parents, n), _grown(rows, n)
        f = _single(states[i], counts, firsts, prev_counts, d_sizes)
        if f >= 0:
            src[n], parents[n], rows[n] = i, f // nd, f % nd
            n += 1
            continue
        for d in range(d_keys.shape[0]):
            if _residual_at(key, d_keys, d, r):
                p = _lookup(prev_table, prev_keys, r)
                if p >= 0:
                    src[n] = i
                    parents[n] = p
                    rows[n] = d
                    n += 1
    return src[:n].copy(), parents[:n].copy(), rows[:n].copy()


#: Draws :func:`complete` takes a phase at a time (and needles :func:`positions` searches).
CHUNK = 64
#: Middle sums of more bytes than this (a core's cache, about) have :func:`complete` ask for the
#: next chunk's rows as it takes a chunk (:func:`hbs.strategies.prefetch.prefetch`): seven words'
#: 3.1 million draws over 878,980 middle sums (14 MB) 120-129 ms to 96-103; over 16,434 and
#: 64,926 (in cache) the asking alone cost a few ms.
FAR_BYTES = 1 << 21


@njit(cache=True, nogil=True)
def complete(a_keys: np.ndarray, a: np.ndarray, d_keys: np.ndarray, m: np.ndarray, e_keys: np.ndarray,
             e: np.ndarray, b_keys: np.ndarray, b_table: np.ndarray, b_filter: np.ndarray,
             target: np.ndarray) -> np.ndarray:
    """For each draw ``i``: the row of ``b_keys`` equal to ``target - a_keys[a[i]] - d_keys[m[i]]``
    less ``e_keys[e[i, c]]`` for each column ``c`` of ``e`` (rows of deferred slots), or -1
    (``b_filter``: the :func:`~hbs.strategies.phrases.sum_table.build_filter` of ``b_keys``).

    ``CHUNK`` draws a phase at a time: their middle rows gathered, then their residuals and filter
    hashes, then the filter read, then the table probed.  Each phase's loads are independent of each
    other and the processor overlaps them; draw by draw, every one waited on the one before (2.4
    times the time, eight words; most draws fit all but the right side, and the filter turns them away).
    A field that goes below zero clears its guard bit and stays within its byte, so the residual
    is taken whole and checked once."""
    n, words = a.shape[0], target.shape[0]
    out = np.full(n, -1, dtype=np.int64)
    mid = np.empty((CHUNK, words), dtype=np.uint64)
    rest = np.empty((CHUNK, words), dtype=np.uint64)
    hashes = np.empty(CHUNK, dtype=np.uint64)
    fits = np.empty(CHUNK, dtype=np.bool_)
    d_flat = d_keys.reshape(-1)
    ahead = d_keys.size * 8 > FAR_BYTES  # (the next chunk's middle rows asked for: see FAR_BYTES)
    for start in range(0, n, CHUNK):
        size = min(n - start, CHUNK)
        if ahead:
            for j in range(start + CHUNK, min(n, start + 2 * CHUNK)):
                prefetch(d_flat, m[j] * words)
        for j in range(size):
            for k in range(words):
                mid[j, k] = d_keys[m[start + j], k]
        for j in range(size):
            i = start + j
            below = np.uint64(0)  # a field's guard bit cleared at some step
            for k in range(words):
                v = (target[k] | GUARD) - a_keys[a[i], k]
                below |= ~v
                v = ((v & _NOT_GUARD) | GUARD) - mid[j, k]
                below |= ~v
                for c in range(e.shape[1]):
                    v = ((v & _NOT_GUARD) | GUARD) - e_keys[e[i, c], k]
                    below |= ~v
                rest[j, k] = v & _NOT_GUARD
            fits[j] = not (below & GUARD)
            hashes[j] = _filter_hash(rest[j])
        for j in range(size):
            fits[j] = fits[j] and filter_has(b_filter, hashes[j])
        for j in range(size):
            if fits[j]:
                out[start + j] = _lookup(b_table, b_keys, rest[j])
    return out


#: Buckets a guide table has at least (see :func:`guide`; one a sum over that).  A quarter as
#: many buckets as sums had a search walk a few sums in each needle's bucket, its branches
#: mispredicted: 17 ns a needle over 500 to 120,000 sums; with 2^17 buckets (1 MB, in cache) most
#: needles' buckets hold no sum's end, 4-8 ns under 40,000 sums, 14 ns at 120,000; over 2^17
#: sums, one bucket a sum: 19-26 ns at 0.4-2 million sums, against 27-30.
GUIDE_BUCKETS = 1 << 17


@njit(cache=True, nogil=True)
def guide(cum: np.ndarray) -> np.ndarray:
    """A guide table of the nondecreasing ``cum`` (``cum[-1] > 0``) for :func:`positions`: entry
    ``k`` is how many of ``cum`` are at most ``k / buckets`` of ``cum[-1]``, for
    ``max(len(cum), GUIDE_BUCKETS)`` buckets (the last entry: ``len(cum)``)."""
    n = cum.shape[0]
    buckets = max(n, GUIDE_BUCKETS)
    out = np.empty(buckets + 2, dtype=np.int64)
    width = cum[n - 1] / buckets
    i = 0
    for k in range(buckets + 1):
        v = k * width
        while i < n and cum[i] <= v:
            i += 1
        out[k] = i
    out[buckets + 1] = n
    return out


@njit(cache=True, nogil=True)
def positions(cum: np.ndarray, table: np.ndarray, u: np.ndarray, scale: float) -> np.ndarray:
    """``np.searchsorted(cum, u * scale, side="right")``, the same positions, by way of the
    :func:`guide` ``table``: each search starts in its needle's bucket, a few sums wide, rather
    than over all of ``cum`` (numpy's binary search over millions of sums in random order took
    150-220 ns a needle, most of an estimate's time; over 533 sums still 68 ns, its branches
    mispredicted).  ``CHUNK`` needles a phase at a time, as :func:`complete` takes its draws:
    their buckets read, then the first sum of each, then the searches, in cache (3 million needles
    over 3.4 million sums: 0.21 s needle by needle, 0.16 s so)."""
    out = np.empty((u.shape[0], 1), dtype=np.int64)
    positions_into(cum, table, u, scale, out, 0, 0, cum.shape[0])
    return out.reshape(u.shape[0])


@njit(cache=True, nogil=True)
def positions_into(cum: np.ndarray, table: np.ndarray, u: np.ndarray, scale: float, out: np.ndarray, column: int,
                   offset: int, most: int) -> None:
    """:func:`positions`, each at most ``most`` and plus ``offset``, written to ``out[:, column]``
    (an estimate's deferred slots' rows, a column each: with numpy's clip, sum and strided copy
    after the search, 1.5 million needles took twice the search's time)."""
    n = cum.shape[0]
    buckets = table.shape[0] - 2
    step = buckets / cum[n - 1]
    lows = np.empty(CHUNK, dtype=np.int64)
    highs = np.empty(CHUNK, dtype=np.int64)
    near = np.empty(CHUNK, dtype=np.float64)
    for start in range(0, u.shape[0], CHUNK):
        size = min(u.shape[0] - start, CHUNK)
        for j in range(size):
            k = min(max(int(u[start + j] * scale * step), 0), buckets)
            lows[j], highs[j] = table[k], table[k + 1]
        for j in range(size):  # (loads only: the sums the searches below start from, in cache then)
            near[j] = cum[min(lows[j], n - 1)]
        for j in range(size):
            x = u[start + j] * scale
            lo, hi = lows[j], highs[j]
            while lo > 0 and cum[lo - 1] > x:  # (rounding put x in a bucket too high or too low)
                lo -= 1
            while hi < n and cum[hi] <= x:
                hi += 1
            while lo < hi:  # the first of cum[lo:hi + 1] above x: cum[lo - 1] <= x < cum[hi]
                mid = (lo + hi) >> 1
                if cum[mid] <= x:
                    lo = mid + 1
                else:
                    hi = mid
            out[start + j, column] = offset + min(lo, most)


@njit(cache=True, nogil=True)
def sorted_positions(cum: np.ndarray, u: np.ndarray, scale: float) -> np.ndarray:
    """:func:`positions` of needles ``u`` in increasing order: one walk along ``cum`` (the left
    side's draws of an estimate, millions of needles over millions of sums: 4 to 5 times faster than
    a guided search each)."""
    n = cum.shape[0]
    out = np.empty(u.shape[0], dtype=np.int64)
    i = 0
    for j in range(u.shape[0]):
        x = u[j] * scale
        while i < n and cum[i] <= x:
            i += 1
        out[j] = i
    return out


@njit(cache=True, nogil=True)
def used_steps(prev_keys: np.ndarray, d_keys: np.ndarray, met_keys: np.ndarray,
               met_table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which sums of the level below (``prev_keys``) and which distinct rows of the slot
    (``d_keys``) a step to one of the sums ``met_keys`` (their table ``met_table``) takes: every
    (sum, row) pair added and looked up.  A field over ``MAX_FIELD`` sets its guard bit (two
    fields add up to at most 254, no carry): such a sum is no sum of a level."""
    used_prev = np.zeros(prev_keys.shape[0], dtype=np.bool_)
    used_d = np.zeros(d_keys.shape[0], dtype=np.bool_)
    s = np.empty(prev_keys.shape[1], dtype=np.uint64)
    for p in range(prev_keys.shape[0]):
        for d in range(d_keys.shape[0]):
            over = np.uint64(0)
            for k in range(prev_keys.shape[1]):
                s[k] = prev_keys[p, k] + d_keys[d, k]
                over |= s[k]
            if not (over & GUARD) and _lookup(met_table, met_keys, s) >= 0:
                used_prev[p] = True
                used_d[d] = True
    return used_prev, used_d
