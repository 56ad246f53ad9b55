"""A spacing's exact count carried as a list to the next answer: the same tuples as the level
search counts anew, and as the scalar rule keeps."""

from __future__ import annotations

import random

import numpy as np

from hbs.core.feedback import grade
from hbs.core.games import PhraseGame
from hbs.strategies.phrases.counting import SpacingCounts
from hbs.strategies.phrases.levels import LevelSearch
from hbs.strategies.phrases.listed_search import ListedSearch
from hbs.strategies.phrases.passphrase import PhraseBreaker

WORDS = ("ant", "bee", "cod", "doe", "eel", "elk", "emu", "gnu", "hen", "owl", "pug", "ram", "yak",
         "bear", "boar", "crab", "crow", "deer", "duck", "frog", "goat", "hare", "ibis", "lion", "lynx",
         "mole", "moth", "mule", "newt", "orca", "puma", "seal", "slug", "swan", "toad", "wasp", "wolf")


def listed_searches(monkeypatch) -> list:
    """Every search the counting returns listed, from now on: (counts, state, lengths, search)."""
    found = []
    search = SpacingCounts.search

    def noting(self, state, lengths, max_meetings=float("inf")):
        result = search(self, state, lengths, max_meetings)
        if isinstance(result, ListedSearch):
            found.append((self, state, lengths, result))
        return result

    monkeypatch.setattr(SpacingCounts, "search", noting)
    return found


def play(seed: int) -> None:
    """A five-word game of ``WORDS`` to its end."""
    rng = random.Random(seed)
    breaker = PhraseBreaker(PhraseGame(WORDS, 5), seed=seed)
    secret = " ".join(rng.choice(WORDS) for _ in range(5))
    history = []
    while (guess := breaker.guess(tuple(history)).text) != secret:
        history.append((guess, *grade(guess, secret)))
        assert len(history) < 30


def test_a_carried_list_holds_what_the_level_search_counts_anew_and_the_rule_keeps(monkeypatch):
    """Each listed search of eight games against a level search built anew from the same answers
    (an exact count, itself checked against a brute force in test_levels.py) and against the
    scalar rule: every listed phrase gives each answer its guess had."""
    found = listed_searches(monkeypatch)
    for seed in range(8):
        play(seed)
    assert len(found) >= 8  # (the path was taken)
    for counts, state, lengths, listed in found:
        answers = tuple(o for o in state.observations if counts.factorizable(o[0]))
        fields = counts.fields_of(tuple(lengths.tolist()), answers)
        anew = LevelSearch(fields.slots, fields.target, slot_words=listed.slot_words, lengths=lengths, budget=float("inf"))
        assert anew.exact and {tuple(t) for t in anew.all().tolist()} == {tuple(t) for t in listed.all().tolist()}
        for row in listed.all()[:50]:
            phrase = " ".join(WORDS[listed.slot_words[j][row[j]]] for j in range(len(row)))
            assert all(grade(guess, phrase) == (black, white) for guess, black, white in answers)


def test_a_listed_sample_is_drawn_from_the_list():
    tuples = np.arange(40).reshape(20, 2)
    listed = ListedSearch(tuples, np.array([3, 3]), [np.arange(20), np.arange(20)])
    rng = np.random.default_rng(0)
    assert listed.count == 20 and listed.exact and not listed.loose
    assert np.array_equal(listed.sample(25, rng), tuples)  # all, when fewer
    few = listed.sample(5, rng)  # without replacement, in list order
    assert len({tuple(r) for r in few.tolist()}) == 5 and (np.diff(few[:, 0]) > 0).all()
    many = listed.sample(2, rng)  # (20 > 8 * 2: with replacement)
    assert all(tuple(r) in {tuple(t) for t in tuples.tolist()} for r in many.tolist())
