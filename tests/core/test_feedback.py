"""The grading rule: the scalar reference against first principles, the kernels against the scalar."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hbs.core.feedback import (
    answer_code,
    answer_matrix,
    answer_pair,
    encode_strings,
    grade,
    grade_codes,
    grade_strings,
)


def naive_grade(guess: str, secret: str) -> tuple[int, int]:
    """First principles: pair off equal characters one by one, blacks first."""
    black = sum(guess[i] == secret[i] for i in range(min(len(guess), len(secret))))
    pool = list(secret)
    common = 0
    for ch in guess:
        if ch in pool:
            pool.remove(ch)
            common += 1
    return black, common - black


def test_worked_example_of_the_design():
    assert grade("tiger baby mauling", "the big cat") == (1, 7)


def test_classic_mastermind_answers():
    # answers as printed in Knuth (1977): secret 3632
    assert grade("1122", "3632") == (1, 0)
    assert grade("1344", "3632") == (0, 1)
    assert grade("3526", "3632") == (1, 2)
    assert grade("1462", "3632") == (1, 1)
    assert grade("3632", "3632") == (4, 0)


def test_bulls_and_cows_answer():
    assert grade("1234", "4231") == (2, 2)


text = st.text(alphabet="ab c-xyz", max_size=30)


@given(text, text)
def test_scalar_rule_matches_first_principles(guess, secret):
    assert grade(guess, secret) == naive_grade(guess, secret)


@given(text, st.lists(text, min_size=1, max_size=20))
@settings(max_examples=300)
def test_string_kernel_matches_scalar(guess, secrets):
    rows, lengths = encode_strings(secrets)
    marks = grade_strings(np.frombuffer(guess.encode(), dtype=np.uint8).copy(), rows, lengths)
    assert [tuple(m) for m in marks.tolist()] == [grade(guess, s) for s in secrets]


@st.composite
def code_sets(draw):
    pegs = draw(st.integers(1, 6))
    colors = draw(st.integers(1, 10))
    code = st.lists(st.integers(0, colors - 1), min_size=pegs, max_size=pegs)
    guesses = draw(st.lists(code, min_size=1, max_size=8))
    secrets = draw(st.lists(code, min_size=1, max_size=12))
    return pegs, colors, np.array(guesses, dtype=np.uint8), np.array(secrets, dtype=np.uint8)


def as_text(row) -> str:
    return "".join("0123456789"[i] for i in row)


@given(code_sets())
@settings(max_examples=300)
def test_code_kernels_match_scalar(case):
    pegs, colors, guesses, secrets = case
    matrix = answer_matrix(guesses, secrets, colors)
    for i, g in enumerate(guesses):
        expected = [answer_code(*grade(as_text(g), as_text(s)), pegs) for s in secrets]
        assert matrix[i].tolist() == expected
        assert grade_codes(g, secrets, colors).tolist() == expected


def test_answer_matrix_of_4x6_has_the_14_answers_of_mastermind():
    space = np.array(list(itertools.product(range(6), repeat=4)), dtype=np.uint8)
    matrix = answer_matrix(space, space, 6)
    pairs = {answer_pair(a, 4) for a in np.unique(matrix)}
    assert len(pairs) == 14 and (3, 1) not in pairs
    assert (matrix == matrix.T).all()  # the rule is symmetric for equal lengths


@given(st.integers(0, 15), st.integers(0, 15))
def test_answer_code_round_trip(black, white):
    pegs = 15
    if black + white <= pegs:
        assert answer_pair(answer_code(black, white, pegs), pegs) == (black, white)
