"""Partition scores and the tie rule against a plain-Python brute force."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hbs.contract.bot import load_bot, make_bot
from hbs.core.games import bulls, mastermind
from hbs.arena.play import run
from hbs.arena.replays import regrade
from hbs.core.feedback import grade, symbol_counts
from hbs.strategies.codes.partition import CRITERIA, MAX_MATRIX_BYTES, TIE, best_guess, openings, partition_scores


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


def graded(name: str, **attrs):
    """Bot ``name`` made to play without its answer matrix, however small the game."""
    cls = load_bot(name)
    return make_bot(type(f"Graded{cls.__name__}", (cls,), {"max_matrix_bytes": 0, **attrs}), {})


def guesses(bot, game) -> list[list[str]]:
    bot.setup(game)
    return [[s.guess for s in r.steps] for r in run(bot, game.name, [game.format(c) for c in game.space])]


@pytest.mark.parametrize("name, game, total", [("knuth", mastermind(4, 6), 5801), ("entropy", mastermind(4, 6), 5722),
                                              ("parts", mastermind(4, 6), 5668),
                                              # (10-15 s; its 27139 is tests/bots/test_classic.py's too)
                                              pytest.param("knuth", bulls(4), 27139, marks=pytest.mark.slow)],
                         ids=lambda v: getattr(v, "name", str(v)))
def test_without_a_matrix_every_game_is_the_same_while_the_work_allows(name, game, total):
    """Answers graded as they are counted, the opening on one code of each symmetry class: the same
    guesses in every game as with the matrix, and the published totals (Knuth 1977, Kooi 2005)."""
    plain = guesses(make_bot(load_bot(name), {}), game)
    alike = guesses(graded(name), game)
    assert alike == plain
    assert sum(map(len, alike)) == total


def brute_choice(game, pool, subset, criterion) -> int:
    """The tie rule over ``pool`` with partitions graded one by one by the scalar rule."""
    texts = [game.format(c) for c in game.space]
    scores = {g: brute_score({j: grade(texts[g], texts[j]) for j in subset}, subset, criterion) for g in pool}
    best = min(scores.values())
    ties = [g for g in pool if scores[g] <= best + TIE]
    inside = [g for g in ties if g in set(subset.tolist())]
    return (inside or ties)[0]


@pytest.mark.parametrize("name", ["knuth", "entropy"])
def test_over_the_work_the_choice_is_the_best_of_a_seeded_draw(name):
    """With little work allowed, the guess is the best (scalar rule, tie rule) of the guesses
    :meth:`scored` gives: the consistent codes, or a draw of them, the same draw every time."""
    game = mastermind(4, 6)
    bot = graded(name, work=20_000)
    bot.setup(game)
    drawn = 0
    for secret in ("3456", "6611", "2525", "1234"):
        history: list = []
        while not history or history[-1][1] != 4:
            subset = bot.consistent(history)
            if len(subset) > 2 and history:
                pool = bot.scored(bot._all, subset)
                drawn += len(pool) < len(subset)
                assert np.array_equal(pool, bot.scored(bot._all, subset))
                assert set(pool.tolist()) <= set(subset.tolist()) or len(pool) == game.size
                assert bot.choose(tuple(history), subset) == game.format(
                    game.space[brute_choice(game, pool, subset, bot.criterion)])
            guess = bot.guess(history).text
            history.append((guess, *grade(guess, secret)))
    assert drawn  # the draw was played, not only the whole consistent set


def orbits(game) -> list[int]:
    """The least index of each class of codes under every permutation of pegs and of symbols, by brute force."""
    texts = [game.format(c) for c in game.space]
    where = {t: i for i, t in enumerate(texts)}
    symbols = sorted(set("".join(texts)))
    least = {}
    for i, t in enumerate(texts):
        own = sorted(set(t))  # a permutation of the symbols matters only on those the code uses
        images = {"".join(dict(zip(own, image))[ch] for ch in order)
                  for image in itertools.permutations(symbols, len(own)) for order in itertools.permutations(t)}
        least[i] = min(where[x] for x in images if x in where)
    return sorted(set(least.values()))


@pytest.mark.parametrize("game", [mastermind(3, 4), mastermind(4, 3), bulls(2)], ids=lambda g: g.name)
def test_openings_are_the_least_code_of_each_symmetry_class(game):
    assert openings(game.space, symbol_counts(game.space, game.colors)).tolist() == orbits(game)


def test_a_game_whose_answer_matrix_would_not_fit_plays_without_it():
    """6x9 (531,441 codes) would need a 282 GB matrix (it was a MemoryError traceback): knuth sets
    up without one, opens on the best of the 11 classes and solves a game; 5-digit Bulls (30,240
    codes, 0.9 GB) keeps its matrix."""
    assert bulls(5).size ** 2 <= MAX_MATRIX_BYTES < mastermind(6, 9).size ** 2
    knuth = make_bot(load_bot("knuth"), {})
    game = mastermind(6, 9)
    knuth.setup(game)
    assert "matrix" not in knuth.space.__dict__
    [record] = run(knuth, game.name, ["924816"])
    assert record.status == "solved" and not regrade(record)
