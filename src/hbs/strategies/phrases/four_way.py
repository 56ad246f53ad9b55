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
from numba.cpython.unsafe.numbers import trailing_zeros

from hbs.strategies.phrases.level_sums import _BYTE_FIELDS
from hbs.strategies.phrases.meeting import _linear_hashes
from hbs.strategies.phrases.packing import FIELDS_PER_WORD, GUARD, unpacked
from hbs.strategies.prefetch import prefetch

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


@njit(cache=True, nogil=True, inline="always")
def _bytes(keys: np.ndarray, fields: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Packed rows read as bytes (as ``level_sums._ranges`` reads them: a loop the compiler runs
    many bytes at a time), and each of ``fields``' byte in a row."""
    data = np.ascontiguousarray(keys)
    flat = data.view(np.uint8).reshape(data.shape[0], FIELDS_PER_WORD * data.shape[1])
    at = np.empty(fields.shape[0], dtype=np.int64)
    for c in range(fields.shape[0]):
        f = fields[c]
        at[c] = f - f % FIELDS_PER_WORD + _BYTE_FIELDS[f % FIELDS_PER_WORD]
    return flat, at


@njit(cache=True, nogil=True)
def _histograms(keys: np.ndarray, counts: np.ndarray, n_fields: int) -> tuple[np.ndarray, np.ndarray]:
    """``(float64[F, 128] rows, float64[F, 128] tuples)``: how many rows, and tuples behind them,
    hold each value of each field.  (Every byte of a row counted in byte order, rows as integers,
    the fields' histograms then taken from their bytes': 2.4 million sums of 24 fields, 0.065 s
    field by field, 0.041 s so.)"""
    flat, at = _bytes(keys, np.arange(n_fields))
    width = flat.shape[1]
    rows = np.zeros((width, 128), dtype=np.int64)
    tuples = np.zeros((width, 128))
    for i in range(flat.shape[0]):
        c = counts[i]
        for j in range(width):
            x = flat[i, j]
            if x < 128:
                rows[j, x] += 1
                tuples[j, x] += c
    return rows[at].astype(np.float64), tuples[at]


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
    flat, at = _bytes(keys, fields)
    out = np.zeros(flat.shape[0], dtype=np.int64)
    for i in range(flat.shape[0]):
        k = 0
        for c in range(len(fields) - 1, -1, -1):
            x = np.int64(flat[i, at[c]])
            if x > 127:
                k = -1
                break
            k = (k << 7) | x
        out[i] = k
    return out


@njit(cache=True, nogil=True, inline="always")
def _home(key: int, shift: np.uint64) -> int:
    """A split key's first slot in a table of ``2 ** (64 - shift)`` (Fibonacci hashing: the key
    times 2^64 over the golden ratio, its high bits)."""
    return np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> shift)


@njit(cache=True, nogil=True, inline="always")
def _bits(size: float) -> int:
    """The fewest bits, at least one, that count ``size`` slots: a table's size as a power of two,
    or the power of two of one already sized so."""
    bits = 1
    while (1 << bits) < size:
        bits += 1
    return bits


#: The filter of a split's big keys (:func:`_present`): ``2 ** PRESENT_BITS`` bits a slot of the groups'
#: table (at least two slots a group: one key in sixteen that none holds passes), so that
#: :func:`_rests` reads the table, megabytes out of the core's cache, only for the rests some big
#: sum holds.  (An eight-word split's right half, 52,432 distinct small rows and 399,379 groups:
#: 2,353 rests a value passed the filter; its 178 values' rests 0.73 s to 0.34 s.)
PRESENT_BITS = 3
#: Looks asked for that many steps ahead (:func:`hbs.strategies.prefetch.prefetch`) in
#: :func:`_rests` (the table's slots) and :func:`_streamed` (the groups' runs): the same split's
#: rests 0.34 s to 0.30 s, its streams 0.24 s to 0.17 s (4 and 16 steps: no better).
AHEAD = 8


#: Bits of :func:`_distinct_keys`'s bit set (256 KB, in a core's cache).
DISTINCT_BITS = 21


@njit(cache=True, nogil=True)
def _distinct_keys(keys: np.ndarray) -> float:
    """About how many distinct keys (-1: none) ``keys`` holds: linear counting, each key's bit set
    in ``2 ** DISTINCT_BITS`` and the count taken from the share left clear (the four late
    eight-word splits' big lists, 73,077-417,606 keys: within 7%, 3 ms a list of 2.7 million)."""
    shift = np.uint64(64 - DISTINCT_BITS)
    seen = np.zeros(1 << (DISTINCT_BITS - 6), dtype=np.uint64)
    held = 0
    for i in range(keys.shape[0]):
        if keys[i] >= 0:
            bit = _home(keys[i], shift)
            seen[bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)
            held += 1
    ones = 0
    for w in range(seen.shape[0]):
        x = seen[w]
        while x:
            x &= x - np.uint64(1)
            ones += 1
    size = 1 << DISTINCT_BITS
    return float(held) if ones == size else min(float(held), size * -math.log((size - ones) / size))


@njit(cache=True, nogil=True)
def _first_seen(keys: np.ndarray, table: np.ndarray, group_of: np.ndarray, group_keys: np.ndarray) -> int:
    """Each row's group (``group_of``; -1: no key), the groups numbered as their keys are first
    seen (``group_keys``) and put in ``table`` (key, group); the groups, or -1 where they would
    fill over three quarters of the table (it is then too small)."""
    bits = _bits(table.shape[0])
    shift = np.uint64(64 - bits)
    mask = table.shape[0] - 1
    most = 3 * table.shape[0] // 4
    groups = 0
    for i in range(keys.shape[0]):
        k = keys[i]
        if k < 0:
            group_of[i] = -1
            continue
        slot = _home(k, shift)
        while table[slot, 0] != -1 and table[slot, 0] != k:
            slot = (slot + 1) & mask
        if table[slot, 0] == -1:
            if groups == most:
                return -1
            table[slot, 0] = k
            table[slot, 1] = groups
            group_keys[groups] = k
            groups += 1
        group_of[i] = table[slot, 1]
    return groups


@njit(cache=True, nogil=True)
def _grouped(keys: np.ndarray, estimate: float,
             carried: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows grouped by split key (-1: none): ``(table, starts, order, carried in order)``, an
    open-addressing table of (key, group) rows, at least two slots a group (a key is looked up per
    small sum and split value: one line a look), group ``g``'s rows ``order[starts[g] : starts[g +
    1]]`` (ascending), the groups numbered as their keys are first seen, and ``carried[order]``
    (none where ``carried`` is empty), written as the rows are placed (the big list's linear
    hashes: 2.7 million gathered after, 0.09 s; scattered here, see ``meeting._sorted``).
    The table is sized for ``estimate`` groups (:func:`_distinct_keys`), so that the rows meet the
    table the lookups use (a table sized for the rows, 2^22 slots for 2.6 million rows and 400,000
    groups, missed the cache at each row, and the groups' table was built again); where that is
    too few, the rows are met again in a larger table, and where the size is not the groups', the
    table is built again for them.  (A counting sort by group: a sort of millions of keys took
    0.7 s.)"""
    n = keys.shape[0]
    bits = _bits(2 * estimate)
    group_of = np.empty(n, dtype=np.int32)
    group_keys = np.empty(n, dtype=np.int64)
    while True:
        table = np.full((1 << bits, 2), -1, dtype=np.int64)
        groups = _first_seen(keys, table, group_of, group_keys)
        if groups >= 0:
            break
        bits += 1
    met_bits = bits
    bits = _bits(2 * groups)
    if bits != met_bits:  # (the group keys met again, in order: the same groups)
        table = np.full((1 << bits, 2), -1, dtype=np.int64)
        _first_seen(group_keys[:groups], table, np.empty(groups, dtype=np.int32), group_keys[:groups].copy())
    sizes = np.zeros(groups + 1, dtype=np.int32)
    for i in range(n):
        if group_of[i] >= 0:
            sizes[group_of[i] + 1] += 1
    starts = np.cumsum(sizes.astype(np.int64))
    at = starts[:-1].astype(np.int32)
    order = np.empty(starts[groups], dtype=np.int64)
    carry = carried.shape[0] > 0
    in_order = np.empty(starts[groups] if carry else 0, dtype=carried.dtype)
    for i in range(n):
        g = group_of[i]
        if g >= 0:
            order[at[g]] = i
            if carry:
                in_order[at[g]] = carried[i]
            at[g] += 1
    return table, starts, order, in_order


#: No values to carry (:func:`_grouped`).
_NOTHING = np.zeros(0, dtype=np.uint64)


@njit(cache=True, nogil=True)
def _present(table: np.ndarray) -> np.ndarray:
    """The filter of the keys a :func:`_grouped` table holds (see ``PRESENT_BITS``)."""
    bits = _bits(table.shape[0])
    present = np.zeros(1 << max(0, bits + PRESENT_BITS - 6), dtype=np.uint64)
    p_shift = np.uint64(64 - bits - PRESENT_BITS)
    for slot in range(table.shape[0]):
        if table[slot, 0] != -1:
            bit = _home(table[slot, 0], p_shift)
            present[bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)
    return present


def _bytes_packed(rows: np.ndarray) -> np.ndarray:
    """``uint64[n]``: rows of split fields (``int64[n, k]``, k at most 8) a byte each, the first
    lowest, a field over 127 as 128.  A value ``v`` (fields up to 127) with each byte's top bit set
    less a row leaves a byte's top bit set exactly where ``v``'s field is at least the row's: every
    field of a rest checked at once, no borrow crossing a byte."""
    out = np.zeros(rows.shape[0], dtype=np.uint64)
    for c in range(rows.shape[1] - 1, -1, -1):
        out = (out << np.uint64(8)) | np.minimum(rows[:, c], 128).astype(np.uint64)
    return out


@njit(cache=True, nogil=True)
def _rests(table: np.ndarray, present: np.ndarray, row_keys: np.ndarray, row_bytes: np.ndarray,
           member_starts: np.ndarray, members: np.ndarray, sums: int, value_key: int, value_bytes: np.uint64,
           starts: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """The small sums (``sums`` of them) that make ``value`` (``value_key`` its split key,
    ``value_bytes`` its fields a byte each) in the split's fields with a group of big sums (see
    :func:`_grouped`): ``(live, live_group, pairs)``, the small sums in ascending order, each one's
    group, and the pairs those groups make.  The rests are looked up once for each distinct row of
    the small sums' split fields (``row_keys``, ``row_bytes``: each row's key and bytes; its small
    sums ``members[member_starts[r] : member_starts[r + 1]]``): a row's rest is ``value_key`` less
    its key where every field of the value is at least the row's (checked on the bytes at once)."""
    bits = _bits(table.shape[0])
    shift = np.uint64(64 - bits)
    p_shift = np.uint64(64 - bits - PRESENT_BITS)
    mask = table.shape[0] - 1
    rows = row_keys.shape[0]
    # the rests the filter passes first (no branch: their places written down), then their looks
    # into the table in a short loop of their own, each asked for ahead
    passed = np.empty(rows, dtype=np.int64)
    passed_keys = np.empty(rows, dtype=np.int64)
    guarded = value_bytes | GUARD
    n = 0
    for r in range(rows):
        k = value_key - row_keys[r]
        bit = _home(k, p_shift)
        passed[n] = r
        passed_keys[n] = k
        fits = ((guarded - row_bytes[r]) & GUARD) == GUARD
        n += np.int64((present[bit >> 6] >> np.uint64(bit & 63)) & np.uint64(1)) & np.int64(fits)
    # the rows found mark their small sums (a bit each), read back in ascending order
    marks = np.zeros((sums + 63) >> 6, dtype=np.uint64)
    group_of = np.empty(sums, dtype=np.int64)
    count = 0
    flat = table.reshape(-1)
    for i in range(n):
        if i + AHEAD < n:
            prefetch(flat, table.shape[1] * _home(passed_keys[i + AHEAD], shift))  # (its row's first element)
        k = passed_keys[i]
        slot = _home(k, shift)
        while table[slot, 0] != -1:
            if table[slot, 0] == k:
                r = passed[i]
                count += member_starts[r + 1] - member_starts[r]
                for m in range(member_starts[r], member_starts[r + 1]):
                    s = members[m]
                    marks[s >> 6] |= np.uint64(1) << np.uint64(s & 63)
                    group_of[s] = table[slot, 1]
                break
            slot = (slot + 1) & mask
    live = np.empty(count, dtype=np.int64)
    live_group = np.empty(count, dtype=np.int64)
    at, total = 0, 0
    for w in range(marks.shape[0]):
        x = marks[w]
        while x:
            s = (w << 6) + np.int64(trailing_zeros(x))
            x &= x - np.uint64(1)
            g = group_of[s]
            live[at] = s
            live_group[at] = g
            total += starts[g + 1] - starts[g]
            at += 1
    return live, live_group, total


@njit(cache=True, nogil=True)
def _pairs(starts: np.ndarray, live: np.ndarray, live_group: np.ndarray, total: int) -> tuple[np.ndarray, np.ndarray]:
    """The (big, small) pairs of the groups :func:`_rests` found: big sums as positions in the
    grouped order (a group's in a run), small ones as rows."""
    big = np.empty(total, dtype=np.int64)
    small = np.empty(total, dtype=np.int64)
    at = 0
    for x in range(live.shape[0]):
        g = live_group[x]
        for i in range(starts[g], starts[g + 1]):
            big[at] = i
            small[at] = live[x]
            at += 1
    return big, small


#: A streamed pair's filter: ``2 ** FILTER_BITS`` bits a listed pair's table slot (at least two
#: slots a pair), two bits a hash in one 64-bit word.  (The streams of an eight-word split's 220
#: values: 0.68 s with one bit a hash in four bits a slot and a value's pairs streamed again to
#: list its matches; 0.45-0.48 s with two bits in sixteen; 0.36 s listed in the one pass.)
FILTER_BITS = 4


@njit(cache=True, nogil=True)
def _streamed(hashes: np.ndarray, starts: np.ndarray, live: np.ndarray, live_group: np.ndarray, h_big: np.ndarray,
              h_small: np.ndarray, h_target: np.uint64) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (listed pair ``j``, streamed pair) whose linear hashes add up to ``h_target``: the
    listed pairs' ``hashes`` in an open-addressing table by their high bits (at most half full,
    each slot holding its hash beside its pair) and a filter (see ``FILTER_BITS``), each pair of
    the other half (the groups :func:`_rests` found, never listed) looking its rest up: a group's
    pairs through the filter first (no branch: the survivors' places written down), then the
    survivors in the table.  Returns ``(j, big position, small row)`` of each match, in the order
    streamed."""
    bits = _bits(2 * len(hashes))
    shift = np.uint64(64 - bits)
    mask = (1 << bits) - 1
    w_bits = max(1, bits + FILTER_BITS - 6)  # (the filter's words: 64 bits each)
    w_shift, b1_shift, b2_shift = np.uint64(64 - w_bits), np.uint64(58 - w_bits), np.uint64(52 - w_bits)
    low6, one = np.uint64(63), np.uint64(1)
    table = np.full(1 << bits, -1, dtype=np.int64)
    table_h = np.zeros(1 << bits, dtype=np.uint64)
    bloom = np.zeros(1 << w_bits, dtype=np.uint64)
    for j in range(len(hashes)):
        h = hashes[j]
        bloom[np.int64(h >> w_shift)] |= (one << ((h >> b1_shift) & low6)) | (one << ((h >> b2_shift) & low6))
        slot = np.int64(h >> shift)
        while table[slot] >= 0:
            slot = (slot + 1) & mask
        table[slot] = j
        table_h[slot] = h
    most = 0
    for g in live_group:
        most = max(most, starts[g + 1] - starts[g])
    passed = np.empty(most, dtype=np.int64)
    out = np.empty((64, 3), dtype=np.int64)
    n = 0
    for at in range(live.shape[0]):
        if at + AHEAD < live.shape[0]:
            prefetch(h_big, starts[live_group[at + AHEAD]])
        s = live[at]
        g = live_group[at]
        rest_s = h_target - h_small[s]
        k = 0
        for i in range(starts[g], starts[g + 1]):
            h = rest_s - h_big[i]
            word = bloom[np.int64(h >> w_shift)]
            passed[k] = i
            k += np.int64((word >> ((h >> b1_shift) & low6)) & (word >> ((h >> b2_shift) & low6)) & one)
        for c in range(k):
            i = passed[c]
            rest = rest_s - h_big[i]
            slot = np.int64(rest >> shift)
            while table[slot] >= 0:
                if table_h[slot] == rest:
                    if n == out.shape[0]:
                        grown = np.empty((2 * n, 3), dtype=np.int64)
                        grown[:n] = out
                        out = grown
                    out[n, 0], out[n, 1], out[n, 2] = table[slot], i, s
                    n += 1
                slot = (slot + 1) & mask
    return out[:n, 0].copy(), out[:n, 1].copy(), out[:n, 2].copy()


class Split:
    """One half (a big list and a small one) for the split's fields: the big list grouped by its split
    key (``table``, its filter ``present``, ``starts`` and ``order``, see :func:`_grouped`), the
    small list's distinct values in those fields (``row_keys``, their split keys, and
    ``row_bytes``, their fields a byte each; ``members[member_starts[r] : member_starts[r + 1]]``,
    the small sums of row ``r``), and both lists' linear hashes (the big list's in its grouped
    order: a value's pairs read them in runs, where read by row each was a cache miss)."""

    def __init__(self, big: np.ndarray, small: np.ndarray, fields: np.ndarray):
        big_split = split_keys(big, fields)
        self.table, self.starts, self.order, self.big_hashes = _grouped(
            big_split, _distinct_keys(big_split), _linear_hashes(big))
        self.present = _present(self.table)
        # the small sums grouped the same way (a sort of 523,666 keys, np.unique's and then the
        # members', took 0.13 s), every one of them: those with a field over 127 (no split key) in
        # one group of a key no value's rest is, whose bytes never fit either
        small_split = split_keys(small, fields)
        small_split[small_split < 0] = 1 << 62
        _, self.member_starts, self.members, _ = _grouped(small_split, _distinct_keys(small_split), _NOTHING)
        first = self.members[self.member_starts[:-1]]
        self.row_keys, self.row_bytes = small_split[first], _bytes_packed(unpacked(small[first], fields))
        self.big_keys, self.small_keys = big, small
        self.small_hashes = _linear_hashes(small)

    def rests(self, value: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
        """The small sums that make ``value`` (each field 0 to 127) with a group of big sums in the
        split's fields, their groups, and the pairs (see :func:`_rests`)."""
        if len(value) and (value.min() < 0 or value.max() > 127):
            raise ValueError(f"a split value's fields are 0 to 127: {value.tolist()}")
        value_key, value_bytes = 0, 0
        for x in reversed(value.tolist()):  # (as split_keys and _bytes_packed pack a row: 18 µs a call less)
            value_key, value_bytes = (value_key << 7) | x, (value_bytes << 8) | x
        return _rests(self.table, self.present, self.row_keys, self.row_bytes, self.member_starts, self.members,
                      len(self.small_keys), value_key, np.uint64(value_bytes), self.starts)


def quadruples_at(sides: tuple[Split, Split], value: np.ndarray, goal: np.ndarray, target: np.ndarray,
                  h_target: np.uint64) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every fitting quadruple whose ``P`` pair sums to ``value`` in the split's fields (``goal``: the
    target's values there, ``h_target`` its linear hash): ``(P big, P small, Q big, Q small)`` rows.
    The half with fewer pairs for the value lists them; the other's meet them by their linear
    hashes as they are formed (:func:`_streamed`); each match is checked field by field."""
    p, q = sides
    (*p_live, p_total), (*q_live, q_total) = p.rests(value), q.rests(goal - value)
    none = np.zeros(0, dtype=np.int64)
    if not p_total or not q_total:
        return none, none, none, none
    listed, other, l_live, o_live, total = (p, q, p_live, q_live, p_total) if p_total < q_total \
        else (q, p, q_live, p_live, q_total)
    lb, ls = _pairs(listed.starts, *l_live, total)
    j, ob, os_ = _streamed(listed.big_hashes[lb] + listed.small_hashes[ls], other.starts, *o_live,
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
