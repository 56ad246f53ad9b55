"""Counting the spacings: an estimate is kept for the count that follows it under the same answers;
a count after an exact one searches only the words that one found."""

from __future__ import annotations

import random

from hbs.core.feedback import grade
from hbs.core.games import PhraseGame
from hbs.strategies.phrases import counting, levels
from hbs.strategies.phrases.passphrase import PhraseBreaker

from test_listed_search import WORDS, play  # (a test's folder is on sys.path: pytest's default imports)


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


def test_a_count_after_an_exact_one_searches_only_the_words_it_found(monkeypatch):
    """With no count listed (``CARRY_BELOW`` 0), a spacing counted exactly over its work budget has its slots' words
    that some fitting tuple holds carried to the next answers' searches.  Every such search of
    eight five-word games against a level search of every word of the class built anew from the
    same answers: every fitting tuple of that one holds only carried words (none is left out),
    and an exact count finds the same phrases; the control: the carried words are fewer than the
    class's."""
    monkeypatch.setattr(counting, "CARRY_BELOW", 0)
    monkeypatch.setattr(levels, "WORK_BUDGET", -1)  # (every count is over it: these games' are cheap)
    found = []
    search = counting.SpacingCounts.search

    def noting(self, state, lengths, max_meetings=float("inf")):
        result = search(self, state, lengths, max_meetings)
        classes = [self.by_length[int(l)] for l in lengths]
        if isinstance(result, levels.LevelSearch) and any(len(w) < len(c) for w, c in zip(result.slot_words, classes)):
            found.append((self, state, lengths, result, classes))
        return result

    monkeypatch.setattr(counting.SpacingCounts, "search", noting)
    for seed in range(8):
        play(seed)
    assert len(found) >= 8 and any(r.exact for *_, r, _ in found)
    for counts, state, lengths, restricted, classes in found:
        answers = tuple(o for o in state.observations if counts.factorizable(o[0]))
        fields = counts.fields_of(tuple(lengths.tolist()), answers)
        anew = levels.LevelSearch(fields.slots, fields.target, slot_words=classes, lengths=lengths, budget=float("inf"))
        phrases = {tuple(classes[j][t[j]] for j in range(len(t))) for t in anew.all().tolist()}
        assert all(set(classes[j][t[j]] for t in anew.all().tolist()) <= set(restricted.slot_words[j].tolist())
                   for j in range(len(lengths)))
        if restricted.exact:
            assert {tuple(restricted.slot_words[j][t[j]] for j in range(len(t))) for t in restricted.all().tolist()} \
                == phrases
