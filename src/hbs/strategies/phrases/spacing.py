"""Spacing: the word lengths of a phrase, inferred from where its spaces are.

A hypothesis is a tuple of word lengths ``(l1, ..., lN)``; its prior weight is the number of phrases
it holds (the product of the word-list's class sizes), since all phrases are equally likely.  A
*space probe* puts spaces at a set ``T`` of positions of the guess's left side; its black count
(when the left side holds nothing else that can match) is how many of the phrase's spaces lie in
``T``.  Probes are chosen to maximise the entropy of that count under the hypotheses' weights.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit


def hypotheses(class_sizes: dict[int, int], n_words: int, length: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every tuple of word lengths (``int64[H, n]``, in ``itertools.product`` order) with its prior
    weight (``float64[H]``: the float of the exact product of its class sizes).

    With ``length``, only tuples whose phrase (spaces included) has that length.
    """
    sizes = np.array(sorted(class_sizes), dtype=np.int64)
    counts = np.array([class_sizes[int(l)] for l in sizes], dtype=np.int64)
    index = np.indices((len(sizes),) * n_words, dtype=np.int8).reshape(n_words, -1).T
    if length is not None:
        total = np.zeros(len(index), dtype=np.int64)
        for c in range(n_words):
            total += sizes[index[:, c]]
        index = index[total + n_words - 1 == length]
    # each half's product is exact in float64 (below 2**53), so their float product is the float
    # of the exact product (an int64 of all n would overflow: 1,779**6)
    half = (n_words + 1) // 2
    if len(counts) and int(counts.max()) ** half >= 2**53:
        raise ValueError(f"classes of up to {int(counts.max()):,} words are too large for {n_words}-word weights")
    products = [np.ones(len(index), dtype=np.int64) for _ in range(2)]
    for c in range(n_words):
        products[c >= half] *= counts[index[:, c]]
    return sizes[index], products[0].astype(np.float64) * products[1].astype(np.float64)


def space_positions(lengths: np.ndarray) -> np.ndarray:
    """``int64[H, n-1]`` positions of the spaces of each hypothesis (rows of ``lengths``)."""
    ends = np.cumsum(lengths, axis=1) + np.arange(lengths.shape[1])
    return ends[:, :-1]


def word_offsets(lengths: np.ndarray) -> np.ndarray:
    """Where each word of one hypothesis (``int64[n]``) starts in the phrase."""
    return np.concatenate([[0], np.cumsum(lengths[:-1] + 1)])


def _entropy_by_group(values: np.ndarray, groups: np.ndarray, weights: np.ndarray, n_groups: int) -> float:
    """Σ_groups P(group) · H(values | group), in bits (``values`` small non-negative integers)."""
    width = int(values.max()) + 1 if len(values) else 1
    # bincount adds up in the same order as np.add.at, many times faster: the first guess of long
    # phrases weighs millions of spacings here
    table = np.bincount(groups * width + values, weights=weights, minlength=n_groups * width).reshape(n_groups, width)
    return _table_entropy(table)


def _table_entropy(table: np.ndarray) -> float:
    """:func:`_entropy_by_group` of a table of weights (``float64[groups, values]``)."""
    total = table.sum()
    p = table[table > 0] / total
    rows = table.sum(axis=1)
    rows = rows[rows > 0] / total
    return float(-(p * np.log2(p)).sum() + (rows * np.log2(rows)).sum())


@njit(cache=True, nogil=True)
def _toggled_table(counts: np.ndarray, hit: np.ndarray, sign: int, groups: np.ndarray, weights: np.ndarray,
                   n_groups: int) -> np.ndarray:
    """The table of :func:`_entropy_by_group` of ``counts + sign * hit``, without the sum's array:
    the weights added in the order ``np.bincount`` adds them (the same table, bit for bit), as wide
    as its largest value.  Eight words' first guess weighs 5.8 million spacings 269 times here:
    11 s in numpy's bincount and the temporaries, now about a third."""
    most = 0
    for i in range(counts.shape[0]):
        most = max(most, counts[i] + sign * hit[i])
    width = most + 1
    table = np.zeros(n_groups * width)
    for i in range(counts.shape[0]):
        table[groups[i] * width + counts[i] + sign * hit[i]] += weights[i]
    return table.reshape(n_groups, width)


def design_space_probe(
    lengths: np.ndarray, weights: np.ndarray, width: int, groups: np.ndarray | None = None, passes: int = 4
) -> np.ndarray:
    """A set of positions (``bool[width]``) whose space count is most informative about the hypotheses.

    ``groups`` splits the hypotheses into classes already told apart (e.g. by phrase length); the
    criterion is then the expected entropy within a class.  Local search from the empty set: toggle
    one position at a time while the entropy grows.
    """
    if groups is None:
        groups = np.zeros(len(lengths), dtype=np.int64)
    n_groups = int(groups.max()) + 1 if len(groups) else 1
    spaces = space_positions(lengths)
    hit = np.zeros((width, len(lengths)), dtype=np.int8)  # (a position holds one space at most)
    for k in range(spaces.shape[1]):
        inside = spaces[:, k] < width
        hit[spaces[inside, k], np.flatnonzero(inside)] = 1
    chosen = np.zeros(width, dtype=bool)
    counts = np.zeros(len(lengths), dtype=np.int64)
    best = _entropy_by_group(counts, groups, weights, n_groups)
    useful = np.flatnonzero(hit.any(axis=1))
    for _ in range(passes):
        improved = False
        for pos in useful:
            sign = -1 if chosen[pos] else 1
            score = _table_entropy(_toggled_table(counts, hit[pos], sign, groups, weights, n_groups))
            if score > best + 1e-12:
                best, counts = score, counts + sign * hit[pos]
                chosen[pos] = not chosen[pos]
                improved = True
        if not improved:
            break
    return chosen


def space_hits(lengths: np.ndarray, probe: str) -> np.ndarray:
    """How many spaces of each hypothesis fall on a space of ``probe`` (``int64[H]``)."""
    spaces = space_positions(lengths)
    marks = np.frombuffer(probe.encode("latin-1"), dtype=np.uint8) == ord(" ")
    inside = spaces < len(probe)
    return (inside & marks[np.minimum(spaces, len(probe) - 1)]).sum(axis=1)


def space_hit_count(lengths: Sequence[int], probe: str) -> int:
    """:func:`space_hits` of one hypothesis, without arrays (it is asked once a spacing and answer)."""
    hits, end = 0, -1
    for l in lengths[:-1]:
        end += int(l) + 1
        if end < len(probe) and probe[end] == " ":
            hits += 1
    return hits
