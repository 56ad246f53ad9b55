"""Partition scores and the tie rule against a plain-Python brute force."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hbs.contract.bot import load_bot, make_bot
from hbs.core.games import bulls, mastermind
from hbs.errors import UnsupportedGame
from hbs.strategies.codes.partition import CRITERIA, MAX_MATRIX_BYTES, TIE, best_guess, partition_scores


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


def test_a_game_whose_answer_matrix_would_not_fit_is_declined_in_one_line():
    """6x9 (531,441 codes) would need a 282 GB matrix: declined before any allocation (it was a
    MemoryError traceback); 5-digit Bulls (30,240 codes, 0.9 GB) still sets up."""
    knuth = make_bot(load_bot("knuth"), {})
    with pytest.raises(UnsupportedGame, match=r"531,441 codes would need 282 GB; it plays games of up to 44,721"):
        knuth.setup(mastermind(6, 9))
    assert bulls(5).size ** 2 <= MAX_MATRIX_BYTES < mastermind(6, 9).size ** 2
