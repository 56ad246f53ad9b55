"""Counting the spacings: an estimate is kept for the count that follows it under the same answers."""

from __future__ import annotations

import random

from hbs.core.feedback import grade
from hbs.core.games import PhraseGame
from hbs.strategies.phrases import counting, levels
from hbs.strategies.phrases.passphrase import PhraseBreaker

from test_listed_search import WORDS  # (a test's folder is on sys.path: pytest's default imports)


def test_an_estimate_is_built_once_for_the_same_answers_and_anew_after_a_count(monkeypatch):
    """The end game that searches the spacings its listing left out, finds one estimated and counts
    them all again gets that search back rather than building its levels twice (six words of
    20,000: 4-5 s a guess): the same search for the same spacing and answers under another cap on
    the meetings (see test_levels: it is the same search), built anew for another spacing, after
    another answer and once a count has run (which lets it go); the control: without the reuse
    every call builds one."""
    monkeypatch.setattr(levels, "WORK_BUDGET", 0)
    monkeypatch.setattr(levels, "FEW_BUDGET", 0)  # (every count of these small games estimated)
    built = []

    class Noted(levels.LevelSearch):
        def __init__(self, *args, **kwargs):
            built.append(kwargs["lengths"].tolist())
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(counting, "LevelSearch", Noted)
    rng = random.Random(1)
    breaker = PhraseBreaker(PhraseGame(WORDS, 5), seed=1)
    secret = " ".join(rng.choice(WORDS) for _ in range(5))
    history = []
    for _ in range(3):
        guess = breaker.guess(tuple(history)).text
        history.append((guess, *grade(guess, secret)))
    counts = breaker.counts
    state = breaker.state(tuple((breaker.alphabet.inward(g), b, w) for g, b, w in history[:2]))
    estimated = [h for h in state.lengths if not counts.search(state, h).exact]
    assert len(estimated) >= 2
    first, second = estimated[:2]
    one = counts.search(state, first)
    built.clear()
    assert counts.search(state, first, 5) is one and counts.search(state, first) is one and not built
    counts.search(state, second)
    assert built == [second.tolist()]
    counts.refresh(state)
    built.clear()
    counts.search(state, second)
    assert built == [second.tolist()]
    later = breaker.state(tuple((breaker.alphabet.inward(g), b, w) for g, b, w in history[:3]))
    counts.search(later, second)
    assert len(built) == 2
    # the control: a search that forgets the last estimate builds one each time
    search = counting.SpacingCounts.search

    def forgetting(self, *args):
        self._estimated = None
        return search(self, *args)

    monkeypatch.setattr(counting.SpacingCounts, "search", forgetting)
    built.clear()
    counts.search(state, first)
    counts.search(state, first)
    assert len(built) == 2
