"""Four lists met on a split of the fields: fitting tuples found where no blind draw fits.

Late in a long game (eight words: some 2^25 phrases left of the 2^66 tuples within the bounds) the
level search's estimate draws a left sum, a middle sum and the deferred slots' rows, and looks the
rest up on the right: one draw in 2^40 fits, and none of a million does (a *loose* count).  Here
the sums are met as four lists instead (Schroeppel and Shamir's split): ``P``, the left side's sums
(the *big* list) with the middle's level-two sums (the *small* one), and ``Q``, the right side's
with every row of the middle's other slots.  A few fields ``F`` are chosen (:func:`split_fields`)
and a value ``v`` of them drawn: the pairs of ``P`` whose sum is ``v`` in ``F`` (each small sum
looks its rest up among the big list's sums grouped by ``F``) and those of ``Q`` whose sum is the
target's less ``v`` are met, the half with fewer listed and the other's streamed past them
(:func:`_streamed`), each match checked on every field.  Every fitting tuple
has one value ``v``: drawn with probability ``p(v)``, a value's fitting tuples ``C(v)`` give the
count ``C(v) / p(v)`` (unbiased), and the tuples found are weighed by ``1 / p(v)``.  ``p`` draws
each field's value alone, in proportion to the tuples of ``P`` and ``Q`` whose sums in that field
add up to the target's (a product of the fields' marginals: any value a fitting tuple takes can be
drawn).  On the six loose searches of an eight-word game (``eff.txt``, ``--seed 21``'s first
phrase, its 14th to 18th guesses): each found 68 to 4,075 fitting tuples in 1.4-3.3 s (the levels
built before it: 2-3 s), counts of 2^15 to 2^24 where the loose counts had said 2^22 to 2^28.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hbs.strategies.phrases.level_sums import _field
from hbs.strategies.phrases.meeting import _linear_hashes
from hbs.strategies.phrases.packing import unpacked

#: Pairs a split value's two halves are expected to list (the fields are chosen until they are).
SPLIT_PAIRS = 1 << 18
#: Split values drawn at most, and the fitting tuples (of all values drawn) that are enough.  256
#: (from 64, once a value took a quarter of the time: the same seconds a guess): eight Diceware words
#: 836 guesses against 844 on seeds 21-30; 512: 333 against 329 on seeds 21-24.
MAX_VALUES, ENOUGH_FOUND = 256, 4000
#: Split values drawn at least (each value's count is one draw of the estimate).
MIN_VALUES = 4
#: A split whose fields leave over this many times ``SPLIT_PAIRS`` expected is not met.
MOST_PAIRS = 16
#: Fields a split takes at most (7 bits each in a sort key).
MAX_SPLIT = 8


@njit(cache=True, nogil=True)
def _histograms(keys: np.ndarray, counts: np.ndarray, n_fields: int) -> tuple[np.ndarray, np.ndarray]:
    """``(float64[F, 128] rows, float64[F, 128] tuples)``: how many rows, and tuples behind them,
    hold each value of each field."""
    rows = np.zeros((n_fields, 128))
    tuples = np.zeros((n_fields, 128))
    for i in range(keys.shape[0]):
        for f in range(n_fields):
            x = _field(keys[i], f)
            if x < 128:
                rows[f, x] += 1.0
                tuples[f, x] += counts[i]
    return rows, tuples


def _half(big: tuple[np.ndarray, np.ndarray], small: tuple[np.ndarray, np.ndarray],
          n_fields: int) -> tuple[np.ndarray, np.ndarray]:
    """Per field, the rows and tuples of the pairs (big sum, small sum) by the value of their sum
    in that field (``float64[F, 255]`` twice)."""
    (br, bt), (sr, st) = _histograms(*big, n_fields), _histograms(*small, n_fields)
    rows = np.array([np.convolve(br[f], sr[f]) for f in range(n_fields)])
    tuples = np.array([np.convolve(bt[f], st[f]) for f in range(n_fields)])
    return rows, tuples


def split_fields(p_big, p_small, q_big, q_small, goal: np.ndarray, pairs: float | None = None):
    """The split: fields ``F`` (``int64[k]``) and each one's value probabilities (``float64[k,
    128]``, value ``x`` for ``P``, the target's less ``x`` for ``Q``), fields taken greedily (the
    one that cuts the expected pairs most) until the two halves are expected to list at most
    ``pairs`` pairs for a drawn value (none where both halves' pairs are that few: one value, every
    quadruple); None where ``MOST_PAIRS`` times as many are still expected.  Each side is
    ``(keys, counts)``; ``goal``: the target's fields (``int64``)."""
    pairs = SPLIT_PAIRS if pairs is None else pairs
    n_fields = len(goal)
    pr, pt = _half(p_big, p_small, n_fields)
    qr, qt = _half(q_big, q_small, n_fields)
    total_p = float(len(p_big[0])) * len(p_small[0])
    total_q = float(len(q_big[0])) * len(q_small[0])
    probs = np.zeros((n_fields, 128))
    share_p, share_q = np.ones(n_fields), np.ones(n_fields)
    for f in range(n_fields):
        t = int(goal[f])
        x = np.arange(t + 1)
        w = pt[f, x] * qt[f, t - x]
        total = math.fsum(w)  # (sums exactly rounded, so the same on any machine)
        if total <= 0:
            return None  # (no tuple fits this field)
        probs[f, : t + 1] = w / total
        # the share of each half's pairs a drawn value lists
        share_p[f] = math.fsum(probs[f, : t + 1] * pr[f, x]) / total_p
        share_q[f] = math.fsum(probs[f, : t + 1] * qr[f, t - x]) / total_q
    chosen: list[int] = []
    expected = total_p + total_q
    while expected > pairs and len(chosen) < MAX_SPLIT:
        p_now = total_p * math.prod(share_p[chosen].tolist())
        q_now = total_q * math.prod(share_q[chosen].tolist())
        options = [(p_now * share_p[f] + q_now * share_q[f], f) for f in range(n_fields)
                   if f not in chosen and share_p[f] < 1 and share_q[f] < 1]
        if not options:
            break
        best, f = min(options)
        if best >= expected:
            break
        chosen.append(f)
        expected = best
    if expected > MOST_PAIRS * pairs:
        return None
    fields = np.array(chosen, dtype=np.int64)
    return fields, probs[fields]


@njit(cache=True, nogil=True)
def split_keys(keys: np.ndarray, fields: np.ndarray) -> np.ndarray:
    """``int64[n]``: each sum's values in the split's fields, 7 bits each (the first lowest);
    -1 where one is over 127."""
    out = np.zeros(keys.shape[0], dtype=np.int64)
    for i in range(keys.shape[0]):
        k = 0
        for c in range(len(fields) - 1, -1, -1):
            x = _field(keys[i], fields[c])
            if x > 127:
                k = -1
                break
            k = (k << 7) | x
        out[i] = k
    return out


@njit(cache=True, nogil=True)
def _grouped(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows grouped by split key (-1: none): ``(table_keys, table_groups, starts, order)``, an
    open-addressing table from a key to its group, and group ``g``'s rows ``order[starts[g] :
    starts[g + 1]]`` (ascending).  (A counting sort by group: a sort of millions of keys took
    0.7 s.)"""
    n = keys.shape[0]
    bits = 1
    while (1 << bits) < n + n // 2:  # (at most two thirds full; two sides of 2.5 million: 50 MB each)
        bits += 1
    shift = np.uint64(64 - bits)
    mask = (1 << bits) - 1
    table_keys = np.full(1 << bits, -1, dtype=np.int64)
    table_groups = np.zeros(1 << bits, dtype=np.int32)
    group_of = np.empty(n, dtype=np.int64)
    groups = 0
    for i in range(n):
        k = keys[i]
        if k < 0:
            group_of[i] = -1
            continue
        slot = np.int64((np.uint64(k) * np.uint64(0x9E3779B97F4A7C15)) >> shift)
        while table_keys[slot] != -1 and table_keys[slot] != k:
            slot = (slot + 1) & mask
        if table_keys[slot] == -1:
            table_keys[slot] = k
            table_groups[slot] = groups
            groups += 1
        group_of[i] = table_groups[slot]
    starts = np.zeros(groups + 1, dtype=np.int64)
    for i in range(n):
        if group_of[i] >= 0:
            starts[group_of[i] + 1] += 1
    for g in range(groups):
        starts[g + 1] += starts[g]
    at = starts[:-1].copy()
    order = np.empty(starts[groups], dtype=np.int64)
    for i in range(n):
        g = group_of[i]
        if g >= 0:
            order[at[g]] = i
            at[g] += 1
    return table_keys, table_groups, starts, order


@njit(cache=True, nogil=True)
def _rests(table_keys: np.ndarray, table_groups: np.ndarray, small_fields: np.ndarray, value: np.ndarray,
           starts: np.ndarray) -> tuple[np.ndarray, int]:
    """For each small sum, the group of big sums (see :func:`_grouped`) whose split key is its rest
    to ``value`` in the split's fields (-1: none), and the pairs those groups make."""
    n = small_fields.shape[0]
    bits = 0
    while (1 << bits) < table_keys.shape[0]:
        bits += 1
    shift = np.uint64(64 - bits)
    mask = table_keys.shape[0] - 1
    group = np.full(n, -1, dtype=np.int64)
    total = 0
    for s in range(n):
        k = 0
        ok = True
        for c in range(value.shape[0] - 1, -1, -1):
            r = value[c] - small_fields[s, c]
            if r < 0 or r > 127:
                ok = False
                break
            k = (k << 7) | r
        if not ok:
            continue
        slot = np.int64((np.uint64(k) * np.uint64(0x9E3779B97F4A7C15)) >> shift)
        while table_keys[slot] != -1:
            if table_keys[slot] == k:
                g = table_groups[slot]
                group[s] = g
                total += starts[g + 1] - starts[g]
                break
            slot = (slot + 1) & mask
    return group, total


@njit(cache=True, nogil=True)
def _pairs(starts: np.ndarray, group: np.ndarray, total: int) -> tuple[np.ndarray, np.ndarray]:
    """The (big, small) pairs of the groups :func:`_rests` found: big sums as positions in the
    grouped order (a group's in a run), small ones as rows."""
    big = np.empty(total, dtype=np.int64)
    small = np.empty(total, dtype=np.int64)
    at = 0
    for s in range(group.shape[0]):
        g = group[s]
        if g >= 0:
            for i in range(starts[g], starts[g + 1]):
                big[at] = i
                small[at] = s
                at += 1
    return big, small


@njit(cache=True, nogil=True)
def _streamed(hashes: np.ndarray, starts: np.ndarray, group: np.ndarray, h_big: np.ndarray, h_small: np.ndarray,
              h_target: np.uint64) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (listed pair ``j``, streamed pair) whose linear hashes add up to ``h_target``: the
    listed pairs' ``hashes`` in an open-addressing table by their high bits (at most half full)
    and a bit filter four times as fine, each pair of the other half (the groups :func:`_rests`
    found, never listed) looking its rest up.  The matches are counted, then, where there are any
    (for most split values none), found again and listed (a loop that grew its lists as it went
    ran three times as long).  Returns ``(j, big position, small row)`` of each match."""
    bits = 1
    while (1 << bits) < 2 * len(hashes):
        bits += 1
    shift = np.uint64(64 - bits)
    mask = (1 << bits) - 1
    f_shift = np.uint64(64 - bits - 2)
    table = np.full(1 << bits, -1, dtype=np.int64)
    bloom = np.zeros(max(1, (1 << (bits + 2)) >> 6), dtype=np.uint64)
    for j in range(len(hashes)):
        f = hashes[j] >> f_shift
        bloom[f >> np.uint64(6)] |= np.uint64(1) << (f & np.uint64(63))
        slot = np.int64(hashes[j] >> shift)
        while table[slot] >= 0:
            slot = (slot + 1) & mask
        table[slot] = j
    out_j = np.empty(0, dtype=np.int64)
    out_b = np.empty(0, dtype=np.int64)
    out_s = np.empty(0, dtype=np.int64)
    n = 0
    for listing in range(2):
        for s in range(group.shape[0]):
            g = group[s]
            if g < 0:
                continue
            rest_s = h_target - h_small[s]
            for i in range(starts[g], starts[g + 1]):
                rest = rest_s - h_big[i]
                f = rest >> f_shift
                if not (bloom[f >> np.uint64(6)] >> (f & np.uint64(63))) & np.uint64(1):
                    continue
                slot = np.int64(rest >> shift)
                while table[slot] >= 0:
                    if hashes[table[slot]] == rest:
                        if listing:
                            out_j[n] = table[slot]
                            out_b[n] = i
                            out_s[n] = s
                        n += 1
                    slot = (slot + 1) & mask
        if listing or not n:
            break
        out_j, out_b, out_s = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
        n = 0
    return out_j, out_b, out_s


class Split:
    """One half (a big list and a small one) for the split's fields: the big list grouped by its split
    key, the small list's values in those fields, and both lists' linear hashes (the big list's in
    its grouped order: a value's pairs read them in runs, where read by row each was a cache miss)."""

    def __init__(self, big: np.ndarray, small: np.ndarray, fields: np.ndarray):
        self.table_keys, self.table_groups, self.starts, self.order = _grouped(split_keys(big, fields))
        self.small = unpacked(small, fields)
        self.big_keys, self.small_keys = big, small
        self.big_hashes, self.small_hashes = _linear_hashes(big)[self.order], _linear_hashes(small)

    def rests(self, value: np.ndarray) -> tuple[np.ndarray, int]:
        """Each small sum's group of big sums that makes ``value`` with it in the split's fields, and the pairs."""
        return _rests(self.table_keys, self.table_groups, self.small, value, self.starts)


def quadruples_at(sides: tuple[Split, Split], value: np.ndarray, goal: np.ndarray, target: np.ndarray,
                  h_target: np.uint64) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every fitting quadruple whose ``P`` pair sums to ``value`` in the split's fields (``goal``: the
    target's values there, ``h_target`` its linear hash): ``(P big, P small, Q big, Q small)`` rows.
    The half with fewer pairs for the value lists them; the other's meet them by their linear
    hashes as they are formed (:func:`_streamed`); each match is checked field by field."""
    p, q = sides
    (p_group, p_total), (q_group, q_total) = p.rests(value), q.rests(goal - value)
    none = np.zeros(0, dtype=np.int64)
    if not p_total or not q_total:
        return none, none, none, none
    listed, other, l_group, o_group, total = (p, q, p_group, q_group, p_total) if p_total < q_total \
        else (q, p, q_group, p_group, q_total)
    lb, ls = _pairs(listed.starts, l_group, total)
    j, ob, os_ = _streamed(listed.big_hashes[lb] + listed.small_hashes[ls], other.starts, o_group,
                           other.big_hashes, other.small_hashes, h_target)
    lb, ls, ob = listed.order[lb[j]], ls[j], other.order[ob]
    sums = listed.big_keys[lb] + listed.small_keys[ls] + other.big_keys[ob] + other.small_keys[os_]
    fits = (sums == target).all(axis=1)
    lb, ls, ob, os_ = lb[fits], ls[fits], ob[fits], os_[fits]
    return (lb, ls, ob, os_) if listed is p else (ob, os_, lb, ls)


def meet_four(p_big, p_small, q_big, q_small, target: np.ndarray, goal: np.ndarray, rng: np.random.Generator,
              pairs: float | None = None):
    """Fitting (P big, P small, Q big, Q small) quadruples found on split values drawn (see the
    module): ``(pb, ps, qb, qs, weights, count)`` (weights: each quadruple's tuples over its value's
    probability and the values drawn; their sum, the count), or None where no split serves or no
    value drawn held a fitting quadruple.  Each side is ``(keys, counts)``."""
    split = split_fields(p_big, p_small, q_big, q_small, goal, pairs)
    if split is None:
        return None
    fields, probs = split
    sides = Split(p_big[0], p_small[0], fields), Split(q_big[0], q_small[0], fields)
    cum = np.cumsum(probs, axis=1)
    goal_f = goal[fields]
    h_target = _linear_hashes(target[None, :])[0]
    found, drawn = [], 0
    while drawn < MAX_VALUES:
        u = rng.random(len(fields))
        value = np.minimum((cum < (u * cum[:, -1])[:, None]).sum(axis=1), 127)
        chance = math.prod(probs[np.arange(len(fields)), value].tolist())
        drawn += 1
        if chance > 0:
            pb, ps, qb, qs = quadruples_at(sides, value, goal_f, target, h_target)
            if len(pb):
                tuples = p_big[1][pb] * p_small[1][ps] * q_big[1][qb] * q_small[1][qs]
                found.append((pb, ps, qb, qs, tuples / chance))
        hits = sum(len(f[0]) for f in found)
        if not len(fields) or (drawn >= MIN_VALUES and hits >= ENOUGH_FOUND):
            break  # (no split: its one value holds every fitting quadruple)
    if not found:
        return None
    pb, ps, qb, qs, weights = (np.concatenate(part) for part in zip(*found))
    weights = weights / drawn
    return pb, ps, qb, qs, weights, math.fsum(weights)
