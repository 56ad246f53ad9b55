"""Spacing, probe design and expected-log scoring, each against the scalar rule or a brute force."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hbs.feedback import encode_strings, grade
from hbs.strategies import probes, spacing
from hbs.strategies.alphabet import ASCII_LETTERS
from hbs.strategies.expected_cost import COST_KNOTS, expected_costs

WORDS = ["a", "be", "cat", "dogs", "eagle", "tea", "bead", "ace"]


def test_hypotheses_are_every_length_tuple_with_its_phrase_count():
    sizes = Counter(len(w) for w in WORDS)
    lengths, weights = spacing.hypotheses(dict(sizes), 3, 11)
    brute = Counter(tuple(len(w) for w in p) for p in itertools.product(WORDS, repeat=3) if len(" ".join(p)) == 11)
    assert {tuple(r): w for r, w in zip(lengths.tolist(), weights)} == brute


@given(st.text(alphabet=" -", min_size=1, max_size=20))
def test_space_hits_are_the_black_answer_of_a_space_probe(probe):
    sizes = Counter(len(w) for w in WORDS)
    lengths, _ = spacing.hypotheses(dict(sizes), 3)
    hits = spacing.space_hits(lengths, probe)
    for row, h in zip(lengths.tolist()[::7], hits[::7]):
        phrase = " ".join("x" * l for l in row)
        assert grade(probe, phrase)[0] == h


def entropy(values) -> float:
    n = len(values)
    return -sum(c / n * math.log2(c / n) for c in Counter(values).values())


def test_probe_design_is_at_least_as_informative_as_simple_probes():
    rng = random.Random(3)
    phrases = [" ".join(rng.choice(["cat", "tea", "ace"]) + " " + rng.choice(["dogs", "bead"]) for _ in range(1))
               for _ in range(300)]
    rows, _ = encode_strings(phrases)
    chars = rows.astype(np.int64) - 97
    chars[rows == 32] = 26  # a space: the code after the letters
    counts = np.array([[p.count(c) for c in ASCII_LETTERS] for p in phrases])
    codes, chosen = probes.design_probe(chars, counts, np.ones(rows.shape[1], dtype=np.bool_), 3)
    sat = np.full(26, 4)
    guess = probes.build(probes.left_side(codes, 26), chosen, sat)
    assert probes.is_factorizable(guess, sat)
    measured = entropy([grade(guess, p) for p in phrases])
    for letter in range(26):
        simple = probes.build("-" * rows.shape[1], np.arange(26) == letter, sat)
        assert measured >= entropy([grade(simple, p) for p in phrases]) - 1e-9


def brute_cost(guess: str, secrets: list[str], population: int) -> float:
    groups = Counter(grade(guess, s) for s in secrets if s != guess)
    scale = population / len(secrets)
    knots = COST_KNOTS.tolist()

    def cost(m: float) -> float:
        x = math.log2(m)
        for (x0, y0), (x1, y1) in zip(knots, knots[1:]):
            if x <= x1:
                return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        return knots[-1][1]

    return sum(n * cost(max(1.0, n * scale)) for n in groups.values()) / len(secrets)


@given(st.lists(st.text(alphabet="abc -", min_size=1, max_size=9), min_size=1, max_size=12),
       st.lists(st.text(alphabet="abc -", min_size=1, max_size=9), min_size=1, max_size=5),
       st.integers(1, 1000))
@settings(max_examples=150)
def test_expected_costs_match_brute_force(secrets, guesses, extra):
    population = len(secrets) + extra
    g_rows, g_lens = encode_strings(guesses)
    s_rows, s_lens = encode_strings(secrets)
    costs = expected_costs(g_rows, g_lens, s_rows, s_lens, population, COST_KNOTS)
    assert np.allclose(costs, [brute_cost(g, secrets, population) for g in guesses])
