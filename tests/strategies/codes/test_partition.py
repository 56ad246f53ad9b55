"""Partition scores and the tie rule against a plain-Python brute force."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hbs.strategies.codes.partition import CRITERIA, TIE, best_guess, partition_scores


def brute_score(row, subset, criterion):
    sizes = Counter(row[j] for j in subset).values()
    if criterion == "minimax":
        return max(sizes)
    if criterion == "entropy":
        return sum(n * math.log2(n) for n in sizes)
    if criterion == "parts":
        return -len(sizes)
    return sum(n * n for n in sizes)


@st.composite
def cases(draw):
    g = draw(st.integers(1, 12))
    s = draw(st.integers(1, 12))
    matrix = np.array(draw(st.lists(st.lists(st.integers(0, 5), min_size=s, max_size=s), min_size=g, max_size=g)), dtype=np.uint8)
    subset = np.array(sorted(draw(st.sets(st.integers(0, s - 1), min_size=1))), dtype=np.int64)
    return matrix, subset


@given(cases(), st.sampled_from(sorted(CRITERIA)))
@settings(max_examples=200)
def test_scores_and_choice_match_brute_force(case, criterion):
    matrix, subset = case
    pool = np.arange(matrix.shape[0], dtype=np.int64)
    scores = partition_scores(matrix, pool, subset, 6, CRITERIA[criterion])
    expected = [brute_score(matrix[i], subset, criterion) for i in pool]
    assert np.allclose(scores, expected)
    # the tie rule: least score, then a guess in the consistent set, then the lowest index
    best = min(expected)
    ties = [i for i in pool if expected[i] <= best + TIE]
    in_subset = [i for i in ties if i in set(subset.tolist())]
    mask = np.zeros(max(matrix.shape), dtype=np.bool_)
    mask[subset] = True
    assert best_guess(scores, pool, mask, TIE) == (in_subset or ties)[0]
