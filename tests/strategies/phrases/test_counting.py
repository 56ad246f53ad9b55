"""Counting the spacings: an estimate is kept for the count that follows it under the same answers;
a count after an exact one searches only the words that one found; a spacing left uncounted keeps
the mean share of phrases the counted ones kept."""

from __future__ import annotations

import math
import random

from hbs.core.feedback import grade
from hbs.core.games import PhraseGame
from hbs.core.loaders import load_words
from hbs.strategies.phrases import counting, levels
from hbs.strategies.phrases.passphrase import PhraseBreaker
from hbs.strategies.phrases.settings import Settings

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

    rng = random.Random(1)
    breaker = PhraseBreaker(PhraseGame(WORDS, 5), seed=1, searcher=Noted)
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


def _noted_refreshes(monkeypatch) -> list:
    """From now on, every count's (weights before, weights after, the counted searches' counts),
    by spacing."""
    seen = []
    refresh = counting.SpacingCounts.refresh

    def noting(self, state):
        result = refresh(self, state)
        before = dict(zip(map(tuple, state.lengths.tolist()), state.weights.tolist()))
        after = dict(zip(map(tuple, result.state.lengths.tolist()), result.state.weights.tolist()))
        seen.append((before, after, {tuple(s.lengths.tolist()): s.count for s in result.searches}))
        return result

    monkeypatch.setattr(counting.SpacingCounts, "refresh", noting)
    return seen


def _play_openings(words: tuple, settings: Settings, seeds=range(2), guesses: int = 4) -> None:
    """The first ``guesses`` guesses of five-word games of ``words`` (the level search)."""
    for seed in seeds:
        rng = random.Random(seed)
        breaker = PhraseBreaker(PhraseGame(words, 5), seed=seed, settings=settings)
        assert breaker.counts.searcher is levels.LevelSearch
        secret = " ".join(rng.choice(words) for _ in range(5))
        history = []
        for _ in range(guesses):
            guess = breaker.guess(tuple(history)).text
            history.append((guess, *grade(guess, secret)))


def _kept_the_mean_share(before: dict, after: dict, counted: dict) -> bool | None:
    """Whether each spacing a count left out kept the mean share of their phrases that the counted
    ones kept (each share capped at 1; a spacing gone from ``after`` was counted at none); None
    where every spacing was counted."""
    ratios = [min(counted.get(h, 0) / w, 1.0) for h, w in before.items() if h in counted or h not in after]
    pending = [h for h in before if h not in counted and h in after]
    if not pending or not ratios:
        return None
    share = sum(ratios) / len(ratios)
    return all(math.isclose(after[h], max(before[h] * share, counting.LEAST_WEIGHT), rel_tol=1e-9) for h in pending)


def test_a_spacing_left_uncounted_keeps_the_mean_share_the_counted_kept(root, monkeypatch):
    """The level search's counts (five words of 400 of ``data/words.txt``, four spacings counted a
    guess) estimate a spacing they leave out to keep the mean share of their phrases the counted
    spacings kept, as the tuple search's do (with the median it took before, most spacings losing
    nearly all their phrases to an answer, an eight-word game's secret spacing fell to
    ``LEAST_WEIGHT`` and was not counted again for eight guesses); the control: with
    ``Settings.mean_shrink`` off, some count's weights are not so."""
    words = tuple(load_words(root / "data" / "words.txt")[:400])
    seen = _noted_refreshes(monkeypatch)
    _play_openings(words, Settings(max_counted=3))
    checks = [_kept_the_mean_share(*counted) for counted in seen]
    assert sum(c is not None for c in checks) >= 4 and all(c is not False for c in checks)
    seen.clear()
    _play_openings(words, Settings(max_counted=3, mean_shrink=False))
    assert any(_kept_the_mean_share(*counted) is False for counted in seen)
