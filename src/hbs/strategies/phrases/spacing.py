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
    # each half's product is exact in float64 (below 2**53), so their float product is the float
    # of the exact product (an int64 of all n would overflow: 1,779**6)
    half = (n_words + 1) // 2
    if len(counts) and int(counts.max()) ** half >= 2**53:
        raise ValueError(f"classes of up to {int(counts.max()):,} words are too large for {n_words}-word weights")
    target = -1 if length is None else length - (n_words - 1)
    if target < 0 and length is not None:  # (shorter than its spaces: no tuple)
        return np.zeros((0, n_words), dtype=np.int64), np.zeros(0)
    rows = _tuples(sizes, counts, n_words, target, half, -1)[0]
    return _tuples(sizes, counts, n_words, target, half, rows)[1:]


@njit(cache=True)
def _tuples(sizes: np.ndarray, counts: np.ndarray, n: int, target: int, half: int,
            rows: int) -> tuple[int, np.ndarray, np.ndarray]:
    """The tuples of :func:`hypotheses` in product order, walked depth first (a prefix that cannot
    reach ``target`` letters, where it is not -1, is not gone into): how many, and with ``rows``
    (not -1: that many) their ``lengths`` and ``weights``.  Eight words of seven lengths: 5.8
    million tuples, 1.7 s as a numpy index of the whole product, whose rows of one phrase length
    (every game's second guess) were then picked out."""
    m = len(sizes)
    found = 0
    lengths = np.zeros((max(rows, 0), n), dtype=np.int64)
    weights = np.zeros(max(rows, 0))
    if m == 0:
        return found, lengths, weights
    least, most = sizes[0], sizes[m - 1]
    index = np.zeros(n, dtype=np.int64)
    partial = np.zeros(n + 1, dtype=np.int64)
    k = 0
    while k >= 0:
        if index[k] == m:
            k -= 1
            if k >= 0:
                index[k] += 1
            continue
        letters = partial[k] + sizes[index[k]]
        rest = n - 1 - k
        if target >= 0 and letters + rest * least > target:
            index[k] = m  # (sizes ascend: every later one is over too)
            continue
        if target >= 0 and letters + rest * most < target:
            index[k] += 1
            continue
        if k < n - 1:
            partial[k + 1] = letters
            k += 1
            index[k] = 0
            continue
        if rows >= 0:
            low = high = 1
            for c in range(n):
                lengths[found, c] = sizes[index[c]]
                if c < half:
                    low *= counts[index[c]]
                else:
                    high *= counts[index[c]]
            weights[found] = np.float64(low) * np.float64(high)
        found += 1
        index[k] += 1
    return found, lengths, weights


def space_positions(lengths: np.ndarray) -> np.ndarray:
    """``int64[H, n-1]`` positions of the spaces of each hypothesis (rows of ``lengths``)."""
    ends = np.cumsum(lengths, axis=1) + np.arange(lengths.shape[1])
    return ends[:, :-1]


def word_offsets(lengths: np.ndarray) -> np.ndarray:
    """Where each word of one hypothesis (``int64[n]``) starts in the phrase."""
    return np.concatenate([[0], np.cumsum(lengths[:-1] + 1)])


@njit(cache=True, nogil=True)
def _entropy_of(table: np.ndarray, held: np.ndarray, total: float) -> float:
    """Σ_groups P(group) · H(count | group) in bits, of a table of weights (``float64[groups, counts]``)
    whose cells add up to ``total``, over the cells that hold a hypothesis (``held``, how many) and
    weigh more than nothing: the tables are kept by adding and taking away weights, and a cell
    emptied that way may hold their rounding."""
    out = 0.0
    for g in range(table.shape[0]):
        row = 0.0
        for v in range(table.shape[1]):
            x = table[g, v]
            if held[g, v] > 0 and x > 0:
                p = x / total
                out -= p * np.log2(p)
                row += x
        if row > 0:
            r = row / total
            out += r * np.log2(r)
    return out


@njit(cache=True, nogil=True, inline="always")
def _spaces(lengths: np.ndarray, i: int, out: np.ndarray) -> None:
    """:func:`space_positions` of hypothesis ``i``, into ``out`` (``int64[n - 1]``): the kernels
    below walk millions of hypotheses and keep no array of them all."""
    end = 0
    for k in range(lengths.shape[1] - 1):
        end += lengths[i, k]
        out[k] = end
        end += 1


@njit(cache=True, nogil=True, inline="always")
def _shift(tables: np.ndarray, held: np.ndarray, p: int, g: int, c: int, step: int, w: float) -> None:
    tables[p, g, c] -= w
    tables[p, g, c + step] += w
    held[p, g, c] -= 1
    held[p, g, c + step] += 1


@njit(cache=True, nogil=True)
def _move(tables: np.ndarray, held: np.ndarray, spaces: np.ndarray, g: int, c: int, step: int, w: float) -> None:
    """Move a hypothesis (weight ``w``, its space positions ``spaces``) from count ``c`` to
    ``c + step`` in the tables of every position it holds a space at, and in the last (every one)."""
    width = tables.shape[0] - 1
    _shift(tables, held, width, g, c, step, w)
    for p in spaces:
        if p < width:
            _shift(tables, held, p, g, c, step, w)


@njit(cache=True, nogil=True)
def _ascent(lengths: np.ndarray, groups: np.ndarray, weights: np.ndarray, n_groups: int, width: int,
            passes: int) -> np.ndarray:
    """:func:`design_space_probe`'s local search.  ``tables[p, g, c]`` holds the weight of the
    hypotheses of group ``g`` whose spaces on the chosen positions number ``c`` and that hold a space
    at ``p`` (at ``p = width``: all of them), so that a toggle of ``p`` is weighed from two rows of it,
    not from every hypothesis; a toggle kept moves only the hypotheses with a space at ``p``, listed
    once by position (``members`` cut at ``starts``)."""
    h, n = lengths.shape
    depth = n + 1  # counts 0..n-1, and one over for a toggle's shift
    spaces = np.empty(n - 1, dtype=np.int64)
    starts = np.zeros(width + 1, dtype=np.int64)
    for i in range(h):
        _spaces(lengths, i, spaces)
        for p in spaces:
            if p < width:
                starts[p + 1] += 1
    for p in range(width):
        starts[p + 1] += starts[p]
    members = np.empty(starts[width], dtype=np.int32)
    fill = starts[:width].copy()
    tables = np.zeros((width + 1, n_groups, depth))
    held = np.zeros((width + 1, n_groups, depth), dtype=np.int64)  # how many hypotheses a cell holds
    for i in range(h):
        tables[width, groups[i], 0] += weights[i]
        held[width, groups[i], 0] += 1
        _spaces(lengths, i, spaces)
        for p in spaces:
            if p < width:
                members[fill[p]] = i
                fill[p] += 1
                tables[p, groups[i], 0] += weights[i]
                held[p, groups[i], 0] += 1
    counts = np.zeros(h, dtype=np.int64)
    chosen = np.zeros(width, dtype=np.bool_)
    total = tables[width].sum()
    best = _entropy_of(tables[width], held[width], total)
    trial = np.zeros((n_groups, depth))
    trial_held = np.zeros((n_groups, depth), dtype=np.int64)
    for _ in range(passes):
        improved = False
        for pos in range(width):
            if starts[pos] == starts[pos + 1]:
                continue  # no hypothesis has a space there
            sign = -1 if chosen[pos] else 1
            for g in range(n_groups):
                for v in range(depth):
                    x = tables[width, g, v] - tables[pos, g, v]
                    y = held[width, g, v] - held[pos, g, v]
                    if 0 <= v - sign < depth:
                        x += tables[pos, g, v - sign]
                        y += held[pos, g, v - sign]
                    trial[g, v], trial_held[g, v] = x, y
            score = _entropy_of(trial, trial_held, total)
            if score > best + 1e-12:
                best = score
                chosen[pos] = not chosen[pos]
                for j in range(starts[pos], starts[pos + 1]):
                    i = members[j]
                    _spaces(lengths, i, spaces)
                    _move(tables, held, spaces, groups[i], counts[i], sign, weights[i])
                    counts[i] += sign
                improved = True
        if not improved:
            break
    return chosen


def design_space_probe(
    lengths: np.ndarray, weights: np.ndarray, width: int, groups: np.ndarray | None = None, passes: int = 4
) -> np.ndarray:
    """A set of positions (``bool[width]``) whose space count is most informative about the hypotheses.

    ``groups`` splits the hypotheses into classes already told apart (e.g. by phrase length); the
    criterion is then the expected entropy within a class.  Local search from the empty set: toggle
    one position at a time (in order, ``passes`` times over) while the entropy grows.  Eight words'
    first guess weighs 5.8 million spacings: 10.6 s as a table of every spacing a toggle (numpy's
    ``bincount``, then a kernel, 269 toggles), 3.3 s as tables by position kept up to date.
    """
    if groups is None:
        groups = np.zeros(len(lengths), dtype=np.int64)
    n_groups = int(groups.max()) + 1 if len(groups) else 1
    return _ascent(np.ascontiguousarray(lengths, dtype=np.int64), np.ascontiguousarray(groups, dtype=np.int64),
                   np.ascontiguousarray(weights, dtype=np.float64), n_groups, width, passes)


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
