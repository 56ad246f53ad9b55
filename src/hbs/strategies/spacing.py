"""Spacing: the word lengths of a phrase, inferred from where its spaces are.

A hypothesis is a tuple of word lengths ``(l1, ..., lN)``; its prior weight is the number of phrases
it holds (the product of the word-list's class sizes), since all phrases are equally likely.  A
*space probe* puts spaces at a set ``T`` of positions of the guess's left side; its black count
(when the left side holds nothing else that can match) is how many of the phrase's spaces lie in
``T``.  Probes are chosen to maximise the entropy of that count under the hypotheses' weights.
"""

from __future__ import annotations

import itertools
import math

import numpy as np


def hypotheses(class_sizes: dict[int, int], n_words: int, length: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every tuple of word lengths (``int64[H, n]``) with its prior weight (``float64[H]``).

    With ``length``, only tuples whose phrase (spaces included) has that length.
    """
    sizes = sorted(class_sizes)
    rows, weights = [], []
    for combo in itertools.product(sizes, repeat=n_words):
        if length is not None and sum(combo) + n_words - 1 != length:
            continue
        rows.append(combo)
        weights.append(float(math.prod(class_sizes[l] for l in combo)))  # (int64 would overflow: 1,779**6)
    return np.array(rows, dtype=np.int64).reshape(-1, n_words), np.array(weights)


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
    table = np.zeros((n_groups, width))
    np.add.at(table, (groups, values), weights)
    total = table.sum()
    p = table[table > 0] / total
    rows = table.sum(axis=1)
    rows = rows[rows > 0] / total
    return float(-(p * np.log2(p)).sum() + (rows * np.log2(rows)).sum())


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
    hit = np.zeros((len(lengths), width), dtype=np.int64)
    for k in range(spaces.shape[1]):
        inside = spaces[:, k] < width
        hit[np.flatnonzero(inside), spaces[inside, k]] += 1
    chosen = np.zeros(width, dtype=bool)
    counts = np.zeros(len(lengths), dtype=np.int64)
    best = _entropy_by_group(counts, groups, weights, n_groups)
    useful = np.flatnonzero(hit.any(axis=0))
    for _ in range(passes):
        improved = False
        for pos in useful:
            step = -hit[:, pos] if chosen[pos] else hit[:, pos]
            score = _entropy_by_group(counts + step, groups, weights, n_groups)
            if score > best + 1e-12:
                best, counts = score, counts + step
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
