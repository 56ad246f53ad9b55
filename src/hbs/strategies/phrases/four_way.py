"""Four lists met on a split of the fields: fitting tuples found where no blind draw fits.

Late in a long game (eight words: some 2^25 phrases left of the 2^66 tuples within the bounds) the
level search's estimate draws a left sum, a middle sum and the deferred slots' rows, and looks the
rest up on the right: one draw in 2^40 fits, and none of a million does (a *loose* count).  Here
the sums are met as four lists instead (Schroeppel and Shamir's split): ``P``, the left side's sums
(the *big* list) with the middle's level-two sums (the *small* one), and ``Q``, the right side's
with every row of the middle's other slots.  A few fields ``F`` are chosen (:func:`split_fields`)
and a value ``v`` of them drawn: the pairs of ``P`` whose sum is ``v`` in ``F`` (each small sum
looks its rest up among the big list's sums grouped by ``F``) and those of ``Q`` whose sum is the
target's less ``v`` are listed, then joined on every field (:func:`_joined`).  Every fitting tuple
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
#: Split values drawn at most, and the fitting tuples (of all values drawn) that are enough.
MAX_VALUES, ENOUGH_FOUND = 64, 4000
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
def _pairs(table_keys: np.ndarray, table_groups: np.ndarray, starts: np.ndarray, order: np.ndarray,
           small_fields: np.ndarray, value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (big, small) pair whose sum is ``value`` in the split's fields: for each small sum, the
    big sums (grouped by split key, see :func:`_grouped`) whose key is its rest."""
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
    big = np.empty(total, dtype=np.int64)
    small = np.empty(total, dtype=np.int64)
    at = 0
    for s in range(n):
        g = group[s]
        if g >= 0:
            for i in range(starts[g], starts[g + 1]):
                big[at] = order[i]
                small[at] = s
                at += 1
    return big, small


@njit(cache=True, nogil=True)
def _joined(pb: np.ndarray, ps: np.ndarray, qb: np.ndarray, qs: np.ndarray, h_pb: np.ndarray, h_ps: np.ndarray,
            h_qb: np.ndarray, h_qs: np.ndarray, k_pb: np.ndarray, k_ps: np.ndarray, k_qb: np.ndarray,
            k_qs: np.ndarray, target: np.ndarray, h_target: np.uint64) -> tuple[np.ndarray, np.ndarray]:
    """The (P pair, Q pair) whose four sums add up to ``target``: the fewer pairs in a hash table by
    their linear hash (the sum of its two lists' hashes), each of the others looking up the target's
    less its own hash, every match checked word by word.  Returns positions in the P and Q pairs."""
    hp = np.empty(len(pb), dtype=np.uint64)
    for i in range(len(pb)):
        hp[i] = h_pb[pb[i]] + h_ps[ps[i]]
    hq = np.empty(len(qb), dtype=np.uint64)
    for j in range(len(qb)):
        hq[j] = h_qb[qb[j]] + h_qs[qs[j]]
    p_table = len(pb) < len(qb)
    hashes, probes = (hp, hq) if p_table else (hq, hp)
    bits = 1
    while (1 << bits) < 2 * len(hashes):
        bits += 1
    shift = np.uint64(64 - bits)
    mask = (1 << bits) - 1
    table = np.full(1 << bits, -1, dtype=np.int64)
    for j in range(len(hashes)):
        slot = np.int64(hashes[j] >> shift)
        while table[slot] >= 0:
            slot = (slot + 1) & mask
        table[slot] = j
    out_p = np.empty(16, dtype=np.int64)
    out_q = np.empty(16, dtype=np.int64)
    n = 0
    for i in range(len(probes)):
        rest = h_target - probes[i]
        slot = np.int64(rest >> shift)
        while table[slot] >= 0:
            j = table[slot]
            if hashes[j] == rest:
                a, b = (j, i) if p_table else (i, j)
                fits = True
                for w in range(target.shape[0]):
                    if k_pb[pb[a], w] + k_ps[ps[a], w] + k_qb[qb[b], w] + k_qs[qs[b], w] != target[w]:
                        fits = False
                        break
                if fits:
                    if n == len(out_p):
                        out_p = np.concatenate((out_p, np.empty(n, dtype=np.int64)))
                        out_q = np.concatenate((out_q, np.empty(n, dtype=np.int64)))
                    out_p[n] = a
                    out_q[n] = b
                    n += 1
            slot = (slot + 1) & mask
    return out_p[:n], out_q[:n]


class Split:
    """One half (a big list and a small one) for the split's fields: the big list grouped by its split
    key, the small list's values in those fields, and both lists' linear hashes."""

    def __init__(self, big: np.ndarray, small: np.ndarray, fields: np.ndarray):
        self.groups = _grouped(split_keys(big, fields))
        self.small = unpacked(small, fields)
        self.big_keys, self.small_keys = big, small
        self.big_hashes, self.small_hashes = _linear_hashes(big), _linear_hashes(small)

    def pairs(self, value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return _pairs(*self.groups, self.small, value)


def quadruples_at(sides: tuple[Split, Split], value: np.ndarray, goal: np.ndarray, target: np.ndarray,
                  h_target: np.uint64) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every fitting quadruple whose ``P`` pair sums to ``value`` in the split's fields (``goal``: the
    target's values there, ``h_target`` its linear hash): ``(P big, P small, Q big, Q small)`` rows."""
    p, q = sides
    pb, ps = p.pairs(value)
    qb, qs = q.pairs(goal - value)
    if not len(pb) or not len(qb):
        return pb[:0], ps[:0], qb[:0], qs[:0]
    pi, qi = _joined(pb, ps, qb, qs, p.big_hashes, p.small_hashes, q.big_hashes, q.small_hashes,
                     p.big_keys, p.small_keys, q.big_keys, q.small_keys, target, h_target)
    return pb[pi], ps[pi], qb[qi], qs[qi]


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
