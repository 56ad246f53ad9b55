"""The phrase search's renaming of a word list's characters (hbs.strategies.phrases.alphabet)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hbs.errors import UnsupportedGame
from hbs.core.rule import grade
from hbs.strategies.phrases.alphabet import MAX_LETTERS, PAD, Alphabet

WORDS = ["drop-down", "it's", "café", "straße", "łódź", "zoë", "cat"]


def test_a_z_words_are_their_own_renaming():
    alphabet = Alphabet(["cat", "dog", "quiz"])
    assert alphabet.inward("cat dog-") == "cat dog-" == alphabet.outward("cat dog-")
    assert alphabet.pad == PAD and alphabet.size == 26


def test_other_characters_become_one_byte_letters_after_z_and_the_filler_is_unused():
    alphabet = Alphabet(WORDS)
    inside = alphabet.inward("drop-down straße")
    assert inside.encode("latin-1") and all(ch == " " or "a" <= ch <= chr(254) for ch in inside)
    assert alphabet.inward("-") != PAD and alphabet.pad not in "".join(WORDS)  # '-' is a letter here
    assert alphabet.outward(PAD) == alphabet.pad


@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3), st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
def test_renaming_keeps_every_answer(guess_words, secret_words):
    alphabet = Alphabet(WORDS)
    guess, secret = " ".join(guess_words), " ".join(secret_words)
    assert alphabet.outward(alphabet.inward(guess)) == guess
    assert grade(alphabet.inward(guess), alphabet.inward(secret)) == grade(guess, secret)


def test_too_many_characters_are_declined():
    many = [chr(0x4E00 + i) for i in range(MAX_LETTERS)]  # CJK: more than the internal letters
    with pytest.raises(UnsupportedGame, match="besides a-z"):
        Alphabet(many)
