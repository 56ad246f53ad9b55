"""Games: spaces, written codes and ranks, against itertools as the reference."""

from __future__ import annotations

import itertools

import pytest

from hbs.errors import InputError
from hbs.core.games import PhraseGame, bulls, mastermind


@pytest.mark.parametrize(
    "game, expected",
    [
        (mastermind(), ["".join(p) for p in itertools.product("123456", repeat=4)]),
        (bulls(), ["".join(p) for p in itertools.permutations("0123456789", 4)]),
        (mastermind(3, 4, "abcd"), ["".join(p) for p in itertools.product("abcd", repeat=3)]),
    ],
)
def test_space_is_every_code_in_lexicographic_order(game, expected):
    codes = game.codes()
    assert codes == sorted(expected) == expected
    assert game.size == len(codes)
    assert [game.index(c) for c in codes] == list(range(len(codes)))


def test_the_c_seeds_ten_colour_game():
    game = mastermind(4, 10, "0123456789")
    assert game.size == 10_000 and game.codes()[0] == "0000" and game.codes()[-1] == "9999"


def test_names():
    assert mastermind().name == "mastermind-4x6"
    assert bulls().name == "bulls-4"


@pytest.mark.parametrize("text", ["112", "11223", "1172", "abcd", ""])
def test_mastermind_rejects_non_codes(text):
    assert mastermind().problem(text)


def test_bulls_rejects_repeated_digits_and_accepts_leading_zero():
    assert bulls().problem("0012")
    assert bulls().problem("0123") is None


@pytest.mark.parametrize("kwargs", [dict(pegs=0), dict(colors=0), dict(colors=10), dict(pegs=16)])
def test_bad_parameters_are_input_errors(kwargs):
    with pytest.raises(InputError):
        mastermind(**kwargs)


def test_phrase_game_problems():
    game = PhraseGame(("cat", "dog"), 3)
    assert game.problem("cat dog cat") is None
    assert "not in the word list" in game.problem("cat cow dog")
    assert game.problem("cat dog") and game.problem("cat  dog cat") and game.problem("cat dog cat ")
    assert game.size == 8


@pytest.mark.parametrize("game", [mastermind(), bulls(), mastermind(3, 5, "abcde")])
def test_the_fitting_codes_are_the_consistent_set_of_the_numba_kernels(game):
    """``fitting`` (plain Python, for simple bots) against the bundled bots' consistent sets, after
    histories of random guesses at random secrets."""
    import random

    from hbs.core.rule import grade
    from hbs.strategies import ConsistentBot

    reference = ConsistentBot()
    reference.setup(game)
    codes, rng = game.codes(), random.Random(7)
    for _ in range(20):
        secret, history = rng.choice(codes), []
        for _ in range(rng.randint(0, 4)):
            guess = rng.choice(codes)
            if guess != secret:
                history.append((guess, *grade(guess, secret)))
        fit = game.fitting(history)
        assert fit == [reference.space.text(i) for i in reference.consistent(history)]
        assert secret in fit
