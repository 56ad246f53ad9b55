"""The entropy bot on phrase games: exhaustive small games, consistency, determinism, generality."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from pathlib import Path

import pytest

from hbs.core.feedback import grade
from hbs.core.games import PhraseGame
from hbs.core.loaders import load_words
from hbs.core.oracle import Oracle
from hbs.strategies.phrases import counting, passphrase
from hbs.strategies.phrases.counting import SpacingCounts
from hbs.strategies.phrases.passphrase import PhraseBreaker
from hbs.strategies.phrases.settings import Settings

TINY = ["a", "be", "cat", "dogs", "eagle", "ferret", "gorilla", "hedgehog", "iguana", "jaguarundi"]


def every_count_loose(monkeypatch):
    """Every count of the level search estimated, however few fit, on 2 draws, and never met as
    four lists (``FOUR_WAY_ROWS`` below one row): no draw fits, the counts are loose (the regime of
    six and eight Diceware words late in a game before the four lists, and of a search they cannot
    serve).  Returns the module."""
    from hbs.strategies.phrases import levels

    for name, value in (("WORK_BUDGET", 100), ("FEW_BUDGET", 100), ("DRAWS", 2), ("MAX_DRAWS", 2), ("FOUR_WAY_ROWS", 0)):
        monkeypatch.setattr(levels, name, value)
    monkeypatch.setattr(counting, "CARRY_BELOW", -1)  # (none carried listed: see listed_search)
    return levels


def recorded(monkeypatch, owner: type, name: str) -> list:
    """What the method ``owner.name`` returns from now on, call by call (it still runs)."""
    found, method = [], getattr(owner, name)

    def noting(*args, **kwargs):
        found.append(method(*args, **kwargs))
        return found[-1]

    monkeypatch.setattr(owner, name, noting)
    return found


def solve(breaker: PhraseBreaker, secret: str, budget: int = 40, check=None) -> list[str]:
    oracle, history, guesses = Oracle(secret), [], []
    while len(guesses) < budget:
        made = breaker.guess(tuple(history))
        guess, phase = made.text, made.phase
        if check:
            check(breaker, tuple(history), guess, phase)
        guesses.append(guess)
        answer = oracle.ask(guess)
        if answer.solved:
            return guesses
        history.append((guess, answer.black, answer.white))
    raise AssertionError(f"{secret!r} not solved in {budget} guesses: {guesses}")


def test_every_phrase_of_a_tiny_list_is_solved_and_the_bot_believes_only_the_truth():
    game = PhraseGame(tuple(TINY), 3)
    everything = [" ".join(p) for p in itertools.product(TINY, repeat=3)]
    breaker = PhraseBreaker(game)
    counts = []
    brute: dict[tuple, frozenset] = {(): frozenset(everything)}

    def fitting_after(history) -> frozenset:
        """Every phrase the answers of ``history`` leave (by the rule, over all 1000), memoised by prefix."""
        key = tuple(history)
        if key not in brute:
            g, b, w = key[-1]
            brute[key] = frozenset(p for p in fitting_after(key[:-1]) if grade(g, p) == (b, w) and g != p)
        return brute[key]

    for secret in everything:

        def check(bot, history, guess, phase):
            state = bot.state(history)
            if state.candidates is None:
                return
            texts = set(bot._texts(state.candidates))
            fitting = fitting_after(history)
            assert texts <= fitting  # never a phrase the answers rule out
            pending = state.pending is not None and [len(w) for w in secret.split()] in state.pending.tolist()
            assert secret in texts or pending  # the truth is listed, or in a spacing not listed yet
            if phase == "p2" and " " in guess and "-" not in guess and guess in fitting:
                assert guess in texts

        counts.append(len(solve(breaker, secret, check=check)))
    assert len(counts) == 1000 and max(counts) <= 10


@pytest.mark.parametrize("n_words", [1, 2, 4])
def test_other_phrase_lengths(n_words):
    game = PhraseGame(tuple(TINY), n_words)
    rng = random.Random(n_words)
    breaker = PhraseBreaker(game)
    for _ in range(60):
        secret = " ".join(rng.choice(TINY) for _ in range(n_words))
        assert solve(breaker, secret)[-1] == secret


def test_long_words_and_repeated_words():
    words = ("x", "internationalization", "counterrevolutionaries", "ab", "ba", "aa")
    breaker = PhraseBreaker(PhraseGame(words, 3))
    for secret in ("x x x", "internationalization counterrevolutionaries x", "ab ba aa", "aa aa aa",
                   "counterrevolutionaries counterrevolutionaries counterrevolutionaries"):
        assert solve(breaker, secret)[-1] == secret


def test_fifty_word_list(root):
    words = load_words(root / "data" / "words.txt")
    rng = random.Random(50)
    fifty = tuple(sorted(rng.sample(words, 50)))
    breaker = PhraseBreaker(PhraseGame(fifty, 3))
    lengths = [len(solve(breaker, " ".join(rng.choice(fifty) for _ in range(3)))) for _ in range(150)]
    assert max(lengths) <= 12


def test_same_input_same_guesses(root):
    words = load_words(root / "data" / "words.txt")
    rng = random.Random(7)
    secrets = [" ".join(rng.choice(words) for _ in range(3)) for _ in range(8)]
    first = [solve(PhraseBreaker(PhraseGame(words, 3)), s) for s in secrets]
    again = PhraseBreaker(PhraseGame(words, 3))  # one bot for all: its memo must not change anything
    assert [solve(again, s) for s in reversed(secrets)] == list(reversed(first))


@pytest.mark.parametrize("n_words, pool", [(3, None), (5, 400)])
def test_the_guess_after_a_history_does_not_depend_on_the_histories_asked_before(root, n_words, pool):
    """A breaker asked at once for the guess after a history (a program replaying a game's record,
    a bot built on the breaker that asks out of order) gives the one it gave after playing up to it.
    Deciding a guess refines the state (each counted spacing's count replaces its weight) that the
    next answer's state starts from; asked at once, the states were built from unrefined ones and
    11 of the 26 histories here got another guess."""
    words = load_words(root / "data" / "words.txt")
    if pool:
        words = tuple(sorted(random.Random(3).sample([w for w in words if 3 <= len(w) <= 6], pool)))
    rng = random.Random(11)
    for _ in range(2):
        secret = " ".join(rng.choice(words) for _ in range(n_words))
        played = PhraseBreaker(PhraseGame(words, n_words))
        guesses = solve(played, secret)
        history = [(g, *grade(g, secret)) for g in guesses[:-1]]
        for k in range(2, len(history) + 1):
            asked = PhraseBreaker(PhraseGame(words, n_words)).guess(tuple(history[:k])).text
            assert asked == guesses[k], (k, secret)


def test_loose_estimates_still_narrow_without_repeating_a_probe(monkeypatch, root):
    """Five words where every count is estimated and no draw fits (a tiny budget and 2 draws: the
    regime of six Diceware words; with the middle chosen on the rows that can still fit, 16 draws
    fitted every time): the estimates are loose, and the probes must still tell the
    phrases apart.  A probe repeated in a game tells nothing new; designed on as many loose draws
    as the loose count (a handful) one was repeated here (and a six-word game repeated one for 20
    guesses)."""
    levels = every_count_loose(monkeypatch)
    rng = random.Random(3)
    words = tuple(sorted(rng.sample([w for w in load_words(root / "data" / "words.txt") if 3 <= len(w) <= 6], 40)))
    breaker = PhraseBreaker(PhraseGame(words, 5))
    loose = []
    estimate = levels.LevelSearch._estimate

    def noting(search, *args):
        found = estimate(search, *args)
        loose.append(search.loose)
        return found

    monkeypatch.setattr(levels.LevelSearch, "_estimate", noting)
    for _ in range(8):
        guesses = solve(breaker, " ".join(rng.choice(words) for _ in range(5)))
        assert len(set(guesses)) == len(guesses), guesses
    assert sum(loose) >= 3  # the regime was reached (8 loose estimates of 32)


def test_a_loose_count_does_not_stop_the_counting_of_other_spacings(monkeypatch, root):
    """Six words of 3 to 8 letters (spacings read from letter probes, not pinned), every count
    estimated and no draw fitting (loose counts: what half a fitting draw would mean, no measure of
    the spacing's phrases): counting goes on past a loose count to the next spacing, so a count
    whose searches are all loose has none left uncounted (or ran out of draws).  Eight Diceware
    words counted one loose spacing a guess for seven guesses while the secret's lay uncounted
    (104, 104, 104, 106 guesses on four phrases each of seeds 21-24 against 101, 100, 104, 104
    now).  The control (this test on the rule before, the loose count in the total that stops
    counting) fails: all-loose counts with spacings left."""
    every_count_loose(monkeypatch)
    rng = random.Random(3)
    words = tuple(sorted(rng.sample([w for w in load_words(root / "data" / "words.txt") if 3 <= len(w) <= 8], 60)))
    breaker = PhraseBreaker(PhraseGame(words, 6), settings=Settings(pin_spacing=False))
    counts = recorded(monkeypatch, SpacingCounts, "refresh")
    for _ in range(2):
        solve(breaker, " ".join(rng.choice(words) for _ in range(6)))
    all_loose = [c for c in counts if c.searches and all(s.loose for s in c.searches)]
    assert all_loose  # the regime was reached
    assert all(c.rest == 0 or c.drawn_out for c in all_loose), [(len(c.searches), c.rest) for c in all_loose]


@pytest.mark.parametrize(("n_words", "drawn"), [(7, 1500), (8, 6000)])
def test_loose_probes_are_designed_on_the_sample_of_their_phrase_length(monkeypatch, root, n_words, drawn):
    """Where no draw of an estimate fits, the probe is designed on tuples drawn part by part, as
    many as ``LEVEL_SAMPLE`` gives the phrase's length (eight Diceware words: 6000, fewer guesses
    than on 1500), 1500 otherwise, and as many as ``Settings.sample`` where it is set: read from
    the draws the game asks for.  The control (no ``LEVEL_SAMPLE``) draws 1500 for eight words."""
    levels = every_count_loose(monkeypatch)
    rng = random.Random(n_words)
    words = tuple(sorted(rng.sample([w for w in load_words(root / "data" / "words.txt") if 3 <= len(w) <= 4], 30)))
    secret = " ".join(rng.choice(words) for _ in range(n_words))
    asked = []
    draw = levels.LevelSearch.loose_sample

    def noting(search, k, generator):
        asked.append(k)
        return draw(search, k, generator)

    monkeypatch.setattr(levels.LevelSearch, "loose_sample", noting)
    for settings, expected in ((Settings(), drawn), (Settings(sample=700), 700)):
        asked.clear()
        solve(PhraseBreaker(PhraseGame(words, n_words), settings=settings), secret, budget=60)
        # (a mixture of spacings draws its share of the sample from each: smaller draws)
        assert asked and max(asked) == expected and asked.count(expected) >= 2, (settings.sample, asked)


@pytest.mark.parametrize("cover", [float("inf"), None])
def test_a_guess_among_draws_only_where_they_are_most_of_the_count(monkeypatch, root, cover):
    """Five words with every count estimated on 1024 draws: an estimate's few distinct draws of a
    count many times larger are a noisy estimate's few hits (six Diceware words: 2 draws of an
    estimated 2,330, 14 of 174,000, the secret never among them).  A guess among them is made
    only while the estimate counts at most ``few_cover`` (2) times as many phrases, and then it
    is (draws that are most of the count); the control (no such limit) guesses among draws of
    up to 500 times as many."""
    from hbs.strategies.phrases import levels

    for name in ("WORK_BUDGET", "FEW_BUDGET"):
        monkeypatch.setattr(levels, name, 100)  # (every count estimated, however few fit)
    monkeypatch.setattr(levels, "DRAWS", 1024)
    monkeypatch.setattr(levels, "MAX_DRAWS", 1024)
    rng = random.Random(3)
    words = tuple(sorted(rng.sample([w for w in load_words(root / "data" / "words.txt") if 3 <= len(w) <= 6], 40)))
    breaker = PhraseBreaker(PhraseGame(words, 5), settings=Settings() if cover is None else Settings(few_cover=cover))
    calls = []
    among = PhraseBreaker._guess_among

    def noting(self, drawn, possible, rng):
        calls.append((len(drawn), possible))
        return among(self, drawn, possible, rng)

    monkeypatch.setattr(PhraseBreaker, "_guess_among", noting)
    for _ in range(6):
        solve(breaker, " ".join(rng.choice(words) for _ in range(5)))
    over = [(drawn, possible) for drawn, possible in calls if possible > 2 * drawn]
    if cover is None:
        assert calls and not over, calls  # (guesses among draws that are most of the count still made)
    else:
        assert over, calls  # the control: the regime is reached


@pytest.mark.parametrize("few_four", [1, 10**9])
def test_a_probe_is_designed_on_the_tuples_the_four_lists_found(monkeypatch, root, few_four):
    """Six words with every count estimated on one blind draw, which misses once few fit: the
    four lists find fitting tuples, a few of many.  Where those hold at least ``few_four`` phrases
    (not yet guessed) the probe is designed on them, never on loose draws (draws that need not fit); the control
    (no four-list draws ever enough) designs on loose draws there, as for an estimate's few hits."""
    from hbs.strategies.phrases import levels

    for name, value in (("WORK_BUDGET", 100), ("FEW_BUDGET", 100), ("DRAWS", 1), ("MAX_DRAWS", 1), ("FUTILE_DRAWS", 1)):
        monkeypatch.setattr(levels, name, value)
    loose_of_four = []
    loose_sample = levels.LevelSearch.loose_sample
    consistent = recorded(monkeypatch, PhraseBreaker, "_consistent")  # (the draws that fit, last)

    def noting(self, k, rng):
        loose_of_four.append(self.four_lists and not self.loose and len(consistent[-1]) > 0)
        return loose_sample(self, k, rng)

    monkeypatch.setattr(levels.LevelSearch, "loose_sample", noting)
    met = recorded(monkeypatch, levels.LevelSearch, "_met_four")
    rng = random.Random(5)
    words = tuple(sorted(rng.sample([w for w in load_words(root / "data" / "words.txt") if 3 <= len(w) <= 6], 40)))
    breaker = PhraseBreaker(PhraseGame(words, 6), settings=Settings(few_four=few_four))
    for _ in range(3):
        solve(breaker, " ".join(rng.choice(words) for _ in range(6)))
    assert any(met), "the regime (the four lists met) is reached"
    if few_four == 1:
        assert not any(loose_of_four), loose_of_four
    else:
        assert any(loose_of_four), loose_of_four  # the control


def test_a_guess_counts_a_few_loose_spacings_then_is_drawn_out(monkeypatch, root):
    """Every count loose (no draw fits): a guess counts ``Settings.guess_loose`` loose spacings (a
    batch of two may take it one past), then is drawn out and reads the spacing, where each loose
    count had cost its levels for no measure (eight words: a guess counted seven, 25 s, once a
    futile estimate drew a quarter of what it had, and three no longer drew the guess out); the
    control: with no such cap the same games count more in a guess."""
    every_count_loose(monkeypatch)
    counts = recorded(monkeypatch, SpacingCounts, "refresh")
    most = {}
    for cap in (3, 10**9):
        rng = random.Random(3)
        words = tuple(sorted(rng.sample([w for w in load_words(root / "data" / "words.txt") if 3 <= len(w) <= 8], 60)))
        breaker = PhraseBreaker(PhraseGame(words, 6), settings=Settings(pin_spacing=False, guess_loose=cap))
        counts.clear()
        solve(breaker, " ".join(rng.choice(words) for _ in range(6)))
        loose = [sum(s.loose for s in c.searches) for c in counts]
        most[cap] = max(loose)
        if cap == 3:
            assert 3 <= most[cap] <= 4  # (the regime reached)
            assert all(c.drawn_out or c.rest == 0 for c, n in zip(counts, loose) if n >= 3)
    assert most[10**9] > 4, most


def test_the_settings_hits_stop_every_estimate_of_a_game(monkeypatch, root):
    """``Settings.estimate_hits`` reaches each estimated count of a game (``SpacingCounts.search``):
    five words, every count estimated, rounds of 64 draws; with one hit enough every estimate that
    hit stops at its first round, where with the default (the control) some draw on.  Eight words
    take 2,000 hits and 6·10^6 draws a guess by default, other lengths 4,000 and 1.2·10^7; what a
    caller sets is kept."""
    from hbs.strategies.phrases import levels
    from hbs.strategies.phrases.settings import ESTIMATE_HITS, GUESS_DRAWS

    eight, seven = Settings().for_words(8), Settings().for_words(7)
    assert (eight.estimate_hits, eight.guess_draws) == (ESTIMATE_HITS[8], GUESS_DRAWS[8]) == (2000, 6e6)
    assert (seven.estimate_hits, seven.guess_draws) == (levels.ENOUGH_HITS, 1.2e7)
    assert Settings(estimate_hits=7, guess_draws=0).for_words(8) == Settings(estimate_hits=7, guess_draws=0)
    monkeypatch.setattr(levels, "WORK_BUDGET", 100)
    monkeypatch.setattr(levels, "FEW_BUDGET", 100)  # (every count estimated, however few fit,
    monkeypatch.setattr(counting, "CARRY_BELOW", -1)  # and none carried listed: see listed_search)
    monkeypatch.setattr(levels, "DRAWS", 64)
    rng = random.Random(4)
    words = tuple(sorted(rng.sample([w for w in load_words(root / "data" / "words.txt") if 3 <= len(w) <= 6], 40)))
    secret = " ".join(rng.choice(words) for _ in range(5))
    found, draws = recorded(monkeypatch, counting.SpacingCounts, "search"), {}
    for hits in (1, None):
        start = len(found)
        breaker, history = PhraseBreaker(PhraseGame(words, 5), settings=Settings(estimate_hits=hits)), []
        for _ in range(4):  # (the first guesses: the counts estimated)
            guess = breaker.guess(tuple(history)).text
            history.append((guess, *grade(guess, secret)))
        draws[hits] = [s.draws for s in found[start:] if isinstance(s, levels.LevelSearch) and not s.exact
                       and not s.loose and not s.four_lists]
    assert draws[1] and set(draws[1]) == {64}
    assert draws[None] and max(draws[None]) > 64


def test_a_drawn_out_count_reads_the_spacing_and_the_game_goes_on(monkeypatch, root):
    """Five words with every count estimated and a guess's draws capped at none
    (``Settings.guess_draws`` 0): a count stops after its first spacings, and the guess is then
    spaces only, where they tell most about every spacing still weighed.  Its answer keeps the
    secret's spacing (the bot believes the truth) and rules others out, and the games are solved
    with no guess twice."""
    from hbs.strategies.phrases import levels

    monkeypatch.setattr(levels, "WORK_BUDGET", 100)
    monkeypatch.setattr(levels, "FEW_BUDGET", 100)  # (every count estimated, however few fit,
    monkeypatch.setattr(counting, "CARRY_BELOW", -1)  # and none carried listed: see listed_search)
    rng = random.Random(4)
    words = tuple(sorted(rng.sample([w for w in load_words(root / "data" / "words.txt") if 3 <= len(w) <= 6], 40)))
    breaker = PhraseBreaker(PhraseGame(words, 5), settings=Settings(guess_draws=0))
    probes = recorded(monkeypatch, PhraseBreaker, "_spacing_probe")
    narrowed = []
    for _ in range(4):
        secret = " ".join(rng.choice(words) for _ in range(5))
        guesses = solve(breaker, secret)
        assert len(set(guesses)) == len(guesses), guesses
        truth = [len(w) for w in secret.split(" ")]
        history = []
        for guess in guesses[:-1]:
            key = tuple((breaker.alphabet.inward(g), b, w) for g, b, w in history)
            history.append((guess, *grade(guess, secret)))
            if guess in probes:
                assert not guess.strip(" -#")  # spaces (and fillers) only
                before = breaker.state(key).lengths
                after = breaker.state(key + ((breaker.alphabet.inward(guess), *history[-1][1:]),)).lengths
                assert (after == truth).all(axis=1).any()
                narrowed.append(len(after) < len(before))
    assert narrowed and any(narrowed)  # the regime was reached, and its probes told spacings apart


def test_a_secret_in_an_uncounted_spacing_too_large_to_list_is_narrowed_not_refused(monkeypatch, root):
    """The phrases were listed from the spacings counted, none fits the answers, and the secret lies
    in a spacing left uncounted whose count is estimated (eight words of 2,048: "an estimated search
    cannot list its tuples"): those spacings are counted and narrowed instead.  Here counting stops
    early (``mixture_share`` 0.6 leaves likely spacings uncounted) and every uncounted spacing's
    search is estimated when the listing reaches for it."""
    from hbs.strategies.phrases.levels import LevelSearch

    rng = random.Random(5)
    words = tuple(sorted(rng.sample([w for w in load_words(root / "data" / "words.txt") if 3 <= len(w) <= 5], 30)))
    breaker = PhraseBreaker(PhraseGame(words, 5), settings=Settings(mixture_share=0.6))
    reached = []
    search = SpacingCounts.search

    def estimated_when_listing(self, state, lengths, max_meetings=float("inf")):
        found = search(self, state, lengths, max_meetings)
        if max_meetings == float("inf") and isinstance(found, LevelSearch) and found.count:  # the listing's
            reached.append(tuple(lengths))
            fields = self.fields_of(tuple(lengths.tolist()), tuple(
                o for o in state.observations if self.factorizable(o[0])))
            return LevelSearch(fields.slots, fields.target, slot_words=found.slot_words, lengths=lengths, budget=0)
        return found

    monkeypatch.setattr(SpacingCounts, "search", estimated_when_listing)
    for _ in range(12):
        secret = " ".join(rng.choice(words) for _ in range(5))
        guesses = solve(breaker, secret)
        assert guesses[-1] == secret and len(set(guesses)) == len(guesses)
    assert reached  # the path was taken


@pytest.mark.slow
def test_a_sample_no_probe_tells_apart_is_guessed_among_not_probed_with_fillers(benchmark_script):
    """Four words of 100,000 (the list `benchmarks/phrases.py --sample-words 100000` draws): in
    this game, at its 16th guess, the estimated searches' draws could not be told apart by any
    probe, and the bot played fillers only (answer 0 0: a guess that tells nothing).  It now
    guesses among the draws.  ~60 s."""
    words_file = Path("/usr/share/dict/american-english-large")
    if not words_file.exists():
        pytest.skip("needs Debian's wamerican-large (apt-get install wamerican-large)")
    bench = benchmark_script("phrases")
    breaker = PhraseBreaker(PhraseGame(bench.sampled(str(words_file), 100_000, 11), 4))
    guesses = solve(breaker, "Rosa pomade's mandibular polestar's")
    assert all(g.strip("-#") for g in guesses), guesses


def test_the_first_guess_holds_letters_that_tell_more_and_still_reads_the_length(root):
    """The first guess's letters (``Settings.first_letters``): its answers, graded by the rule over
    phrases the bot never saw, hold more information than the space probe's alone (the control),
    and each still gives the phrase's length exactly."""
    words = load_words(root / "data" / "words.txt")
    game = PhraseGame(words, 3)
    rng = random.Random(5)
    phrases = [" ".join(rng.choice(words) for _ in range(3)) for _ in range(2000)]

    def entropy(guess: str) -> float:
        counts = Counter(grade(guess, p) for p in phrases).values()
        return -sum(c / len(phrases) * math.log2(c / len(phrases)) for c in counts)

    lettered, spaces = PhraseBreaker(game), PhraseBreaker(game, settings=Settings(first_letters=False))
    width = max(len(w) for w in words) * 3 + 2
    assert any(ch.isalpha() for ch in lettered.first_guess[:width])
    assert not any(ch.isalpha() for ch in spaces.first_guess[:width])  # the control: spaces and fillers
    assert entropy(lettered.first_guess) > entropy(spaces.first_guess) + 0.5  # measured: 6.8 bits against 5.7
    guess = lettered.first_guess
    for phrase in phrases[:300]:
        assert lettered.state(((guess, *grade(guess, phrase)),)).length == len(phrase)


def test_one_word_is_listed_from_the_first_guess_and_solved_in_fewer_guesses(root):
    """One word (``Settings.list_first``): every word is listed at the first guess, which reports
    them all; each of 300 secret words of ``data/words.txt`` is found, for the first 20 the bot
    believing after each answer exactly the words that give every answer so far as the secret did
    (the rule over the whole list, the brute force); over the 300 it takes fewer guesses than with
    the space probe first (the control; measured: 1185 against 1234, as `benchmarks/phrases.py
    --words data/words.txt --n-words 1 --generate 300 --seed 5`)."""
    words = load_words(root / "data" / "words.txt")
    game = PhraseGame(words, 1)
    rng = random.Random(5)
    secrets = [rng.choice(words) for _ in range(300)]
    listed, probed = PhraseBreaker(game), PhraseBreaker(game, settings=Settings(list_first=False))
    assert listed.guess(()).remaining == len(words) and listed.guess(()).phase == "p0"
    totals = []
    for breaker in (listed, probed):
        total = 0
        for k, secret in enumerate(secrets):
            history = []
            while True:
                guess = breaker.guess(tuple(history))
                if breaker is listed and history and k < 20:
                    fits = [w for w in words if all(grade(g, w) == (b, wh) for g, b, wh in history)]
                    assert guess.remaining == len(fits) and secret in fits
                history.append((guess.text, *grade(guess.text, secret)))
                if guess.text == secret:
                    break
                assert len(history) < 12
            total += len(history)
        totals.append(total)
    assert totals[0] < totals[1], totals


def test_listing_every_phrase_first_is_refused_for_too_many_phrases():
    """``Settings.list_first`` set for three words of 200 (8 million phrases, over
    ``MAX_LISTED_FIRST``): one clear refusal at set-up, not a listing of them all; two words of the
    same list (40,000) are listed and a phrase found."""
    from hbs.errors import UnsupportedGame
    from hbs.strategies.phrases.settings import MAX_LISTED_FIRST

    words = tuple(f"w{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(200))
    assert 200 ** 3 > MAX_LISTED_FIRST >= 200 ** 2
    with pytest.raises(UnsupportedGame, match="8,000,000 phrases, at most 1,000,000"):
        PhraseBreaker(PhraseGame(words, 3), settings=Settings(list_first=True))
    breaker = PhraseBreaker(PhraseGame(words, 2), settings=Settings(list_first=True))
    assert breaker.guess(()).remaining == 200 ** 2
    assert solve(breaker, "wbc wgh")[-1] == "wbc wgh"


def _entropy(answers) -> float:
    counts = Counter(answers)
    total = sum(counts.values())
    return -sum(c / total * math.log2(c / total) for c in counts.values())


def test_an_estimated_count_probes_the_word_it_tells_most_about(root):
    """Letters over one word: of the words a search offers (``focus_choices``), the one whose best
    probe's answers, graded by the scalar rule over the sample, tell most; the control: the
    probes over the other words tell less (and differ), so the choice is not the first word's."""
    import numpy as np

    from hbs.strategies.phrases import probes

    rng = random.Random(2)
    words = tuple(sorted(rng.sample([w for w in load_words(root / "data" / "words.txt") if len(w) == 5], 300)))
    breaker = PhraseBreaker(PhraseGame(words, 3))
    sample = np.random.default_rng(0).integers(0, len(words), (400, 3))
    texts = breaker._texts(sample)

    class Offer:  # what the breaker reads of an estimated search here
        lengths = np.array([5, 5, 5])
        focus_choices = [0, 1, 2]
        joint_focus: list[int] = []

    usable = np.ones(17, dtype=bool)
    told = []
    for j in Offer.focus_choices:
        only = type("Only", (Offer,), {"focus_choices": [j]})
        probe = breaker._focused(only, sample, usable)
        assert not probes.letter_set(probe[: 6 * j], breaker.letters).any()  # letters over word j alone
        assert not probes.letter_set(probe[6 * j + 5 : 17], breaker.letters).any()
        told.append((_entropy(grade(probe, t) for t in texts), probe))
    chosen = breaker._focused(Offer, sample, usable)
    assert chosen == max(told, key=lambda t: t[0])[1]
    assert len({p for _, p in told}) == 3 and max(told)[0] > min(told)[0]


def test_an_estimated_count_may_probe_the_whole_middle_at_once(root):
    """Letters over every word of ``joint_focus`` at once where that tells more about the sample
    (by the scalar rule) than letters over any one word; the control: with
    ``Settings.joint_middle`` off the probe lies over one word, and tells less."""
    import numpy as np

    from hbs.strategies.phrases import probes
    from hbs.strategies.phrases.settings import Settings

    rng = random.Random(2)
    words = tuple(sorted(rng.sample([w for w in load_words(root / "data" / "words.txt") if len(w) == 5], 300)))
    sample = np.random.default_rng(0).integers(0, len(words), (400, 3))

    class Offer:  # an estimated search with a middle of three words
        lengths = np.array([5, 5, 5])
        focus_choices = [1]
        joint_focus = [0, 1, 2]

    told = {}
    for joint in (True, False):
        breaker = PhraseBreaker(PhraseGame(words, 3), settings=Settings(joint_middle=joint))
        probe = breaker._focused(Offer, sample, np.ones(17, dtype=bool))
        over = [probes.letter_set(probe[6 * j : 6 * j + 5], breaker.letters).any() for j in range(3)]
        assert over == ([True, True, True] if joint else [False, True, False])
        told[joint] = _entropy(grade(probe, t) for t in breaker._texts(sample))
    assert told[True] > told[False]


def test_focus_choices_are_the_middle_and_the_enumerated_side():
    """Five slots (a middle of one, two sides of two): the middle and the side the meeting
    enumerates; seven slots (a middle of three): the focus alone."""
    import numpy as np

    from hbs.strategies.phrases.levels import LevelSearch
    from hbs.strategies.phrases.packing import pack

    rng = np.random.default_rng(1)
    for n, many in ((5, False), (7, True)):
        feats = [rng.integers(0, 3, (6, 2)).astype(np.uint8) for _ in range(n)]
        target = sum(f[0].astype(int) for f in feats)
        search = LevelSearch([pack(f) for f in feats], pack(target[None].astype(np.uint8))[0])
        choices = search.focus_choices
        assert search.focus in choices
        if many:
            assert choices == [search.focus]
            assert search.joint_focus == (sorted(search.middle) if search.focus in search.middle else [])
        else:
            assert choices == sorted(search.middle + search._left.slots) and len(choices) == 3
            assert search.joint_focus == []  # a middle of one word



WARM_STOP = """
import sys
from hbs.core.games import PhraseGame
from hbs.core.loaders import load_words
from hbs.strategies.phrases import passphrase
if sys.argv[2] == "control":
    passphrase._compiled = lambda: 1  # as if a kernel had been compiled: the game plays on
breaker = passphrase.PhraseBreaker(PhraseGame(tuple(load_words(sys.argv[1])[:2000]), 4))
breaker.warm(seconds=float("inf") if sys.argv[2] == "control" else passphrase.WARM_SECONDS)  # (cold: compiles)
print(len(breaker._guesses), passphrase._compiled())
"""


def test_on_a_warm_cache_the_warm_up_game_stops_after_its_first_guesses(root):
    """Set-up's long game is there to compile kernels; where every kernel came from numba's cache
    (none compiled in the process) it stops after ``WARM_CACHED_GUESSES`` guesses (eight Diceware
    words: set-ups of 26-35 s, 14 s).  In fresh processes: the control, told a kernel was compiled,
    plays the four-word game on (and fills the cache where it was empty); then a process that
    compiles nothing plays two guesses."""
    import subprocess
    import sys

    def warm(mode: str) -> list[int]:
        done = subprocess.run([sys.executable, "-c", WARM_STOP, str(root / "data" / "words.txt"), mode],
                              capture_output=True, text=True, check=True)
        return [int(x) for x in done.stdout.split()]

    played, _ = warm("control")
    assert played > passphrase.WARM_CACHED_GUESSES + 3
    assert warm("warm") == [passphrase.WARM_CACHED_GUESSES, 0]


STALE = """
import importlib.util
import sys
spec = importlib.util.spec_from_file_location("hbs._stale_probe", sys.argv[1])
module = sys.modules["hbs._stale_probe"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
from hbs.strategies.phrases import passphrase
cached = passphrase._all_cached()
module.twice(3)
if len(sys.argv) > 2:
    module.inner(3)  # (an inlined kernel called alone, as a test calls one: it gets an index)
print(cached, passphrase._compiled())
"""


def test_a_kernel_whose_source_changed_keeps_the_warm_up_playing(tmp_path):
    """numba's cache is per source file: where one changed, its kernels compile afresh, perhaps only
    in a game's later guesses, so the warm-up plays on (``_all_cached`` False) though its first
    guesses compiled nothing.  A module of ``hbs`` with one kernel, in fresh processes: no index
    yet (nothing stale; it compiles), then current (it loads), then its source changed."""
    import os
    import subprocess
    import sys

    source = tmp_path / "probe.py"
    source.write_text("from numba import njit\n\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> list[str]:
        return subprocess.run([sys.executable, "-c", STALE, str(source)], env=env, capture_output=True, text=True,
                              check=True).stdout.split()

    assert run() == ["True", "1"]
    assert run() == ["True", "0"]
    source.write_text(source.read_text() + "# changed\n")
    assert run() == ["False", "1"]


def test_an_inlined_kernels_stale_index_does_not_keep_the_warm_up_playing(tmp_path):
    """A kernel inlined into others compiles alone only where a test calls it: its index, stale once
    its file changed, says nothing of the games' kernels.  A module with one inlined into
    another, in fresh processes: both called (both indexed), the source changed and only the outer
    one called (its index current again, the inlined one's stale): the cache counts as current.
    The control: the outer one's index stale too, it does not."""
    import os
    import subprocess
    import sys

    source = tmp_path / "probe.py"
    source.write_text("from numba import njit\n\n\n@njit(cache=True, inline='always')\ndef inner(x):\n"
                      "    return x + 1\n\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * inner(x)\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run(*extra: str) -> list[str]:
        return subprocess.run([sys.executable, "-c", STALE, str(source), *extra], env=env, capture_output=True,
                              text=True, check=True).stdout.split()

    assert run("inner") == ["True", "2"]
    source.write_text(source.read_text() + "# changed\n")
    assert run() == ["False", "1"]  # (the control: the outer kernel's index was stale)
    assert run() == ["True", "0"]  # (the inlined kernel's index alone is stale)



def test_a_callees_index_left_stale_by_a_reverted_edit_does_not_keep_the_warm_up_playing(tmp_path):
    """A kernel called by another (not inlined) compiles into it; its own index is refreshed only
    where it compiles.  An edit that moves the caller (numba names an index by the kernel's line)
    compiles both, the callee's index now that of the edit; reverted, the caller's old index is
    current and it loads, so the callee never compiles and its index stays stale for good
    (``level_sums._bucket`` under ``_by_buckets`` after an A/B of ``_bucket``: eight words' set-up
    7 s took 20 s).  Fresh processes: the original compiled, the edit compiled (the control: a stale
    callee whose caller's index is not current keeps it playing), the original again: current."""
    import os
    import subprocess
    import sys

    source = tmp_path / "probe.py"
    original = ("from numba import njit\n\n\n@njit(cache=True)\ndef inner(x):\n    return x + 1\n\n\n"
                "@njit(cache=True)\ndef twice(x):\n    return 2 * inner(x)\n")
    edited = original.replace("\n\n\n@njit(cache=True)\ndef twice", "\n\n\n\n@njit(cache=True)\ndef twice")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run(text: str, *extra: str) -> list[str]:
        source.write_text(text)
        return subprocess.run([sys.executable, "-c", STALE, str(source), *extra], env=env, capture_output=True,
                              text=True, check=True).stdout.split()

    assert run(original, "inner") == ["True", "2"]
    assert run(edited) == ["False", "2"]  # (the control: the callee's index stale, the caller's new one absent)
    assert run(original) == ["True", "0"]  # (the caller's index current: the callee's stale one is left out)


WARM_CHECK = """
import sys
from hbs.core.games import PhraseGame
from hbs.core.loaders import load_words
from hbs.strategies.phrases import expected_cost, four_way, level_walks, meeting, tuple_search
from hbs.strategies.phrases.levels import LevelSearch
from hbs.strategies.phrases.passphrase import WARM_WORDS, PhraseBreaker
from hbs.strategies.phrases.tuple_search import TupleSearch
words, n = tuple(load_words(sys.argv[1])[:2000]), int(sys.argv[3])
breaker = PhraseBreaker(PhraseGame(words, n))  # (five words: the level search; three: the tuple search)
if sys.argv[2] == "warm":
    breaker.warm(seconds=0.0)  # the long game cut off before its first guess
else:  # the controls: the long game alone, cut off the same, and then the small game alone
    breaker._play("any secret", 30, 0.0)
    if sys.argv[2] == "small":
        few = tuple(w for w in words if len(w) == 5)[:WARM_WORDS]
        small = PhraseBreaker(PhraseGame(few, n), searcher=LevelSearch if n == 5 else TupleSearch)
        small._play(" ".join(few[:n]), 30, float("inf"))
kernels = [expected_cost.expected_costs]  # the end game's, then the middle game's
kernels += ([level_walks.branches, level_walks.guide, meeting._sampled_meetings, meeting._bucketed,
             four_way._streamed, meeting.drawn_meetings, meeting._plain_by_right] if n == 5
            else [tuple_search.refined_matches])
print(*(len(k.signatures) for k in kernels))
"""


@pytest.mark.parametrize(("n_words", "mode", "compiled"), [(5, "warm", "11111111"), (5, "small", "11000000"),
                                                           (5, "control", "00000000"), (3, "warm", "11"),
                                                           (3, "small", "10"), (3, "control", "00")])
def test_a_cut_off_warm_up_still_reaches_the_end_games_kernels(root, n_words, mode, compiled):
    """Set-up's warm-up game is cut off after ``WARM_SECONDS`` (eight words' whole game took 48 s
    of set-up); a game of a few words of one length then compiles (or loads) the end game's kernels
    (listing, expected guesses), so that the first real game does not, and the same game again
    compiles the middle game's: for the level search with every count estimated, then with every
    count sampled and joined in buckets, then with every count met as four lists (and a draw found
    again in a join that kept no meeting, ``meeting.warm_join``); for the tuple search never
    listed, its searches refined from the answer before (on an empty cache five and eight Diceware
    words compiled them in their first real game, guesses of 15 and 18.6 s; three words, 5.2 s;
    six words the four lists' kernels in their 16th game, a guess of 3.3 s).  In a fresh process: the
    kernels' signatures are there after the warm-up; after the small game alone (the warm-up
    before), the end game's only; after the cut-off game alone, none."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", WARM_CHECK, str(root / "data" / "words.txt"), mode, str(n_words)],
                         capture_output=True, text=True, check=True).stdout.split()
    assert "".join("1" if int(k) > 0 else "0" for k in out) == compiled, out


NO_COMPILE_CHECK = """
import importlib, pkgutil, random, sys
import hbs.strategies.phrases as package
from numba.core.registry import CPUDispatcher
from hbs.core.games import PhraseGame
from hbs.core.loaders import load_words
from hbs.core.rule import grade
from hbs.strategies.phrases.passphrase import PhraseBreaker
words, n, games = load_words(sys.argv[1])[: int(sys.argv[2])], int(sys.argv[3]), int(sys.argv[4])
modules = [importlib.import_module(f"{package.__name__}.{m.name}") for m in pkgutil.iter_modules(package.__path__)]
kernels = {f"{m.__name__}.{k}": v for m in modules for k, v in vars(m).items() if isinstance(v, CPUDispatcher)}
breaker = PhraseBreaker(PhraseGame(words, n))
if sys.argv[5] == "warm":
    breaker.warm()
before = {k: len(v.signatures) for k, v in kernels.items()}
rng = random.Random(5)
for _ in range(games):
    secret, history = " ".join(rng.choice(words) for _ in range(n)), []
    while not history or history[-1][0] != secret:
        guess = breaker.guess(tuple(history)).text
        history.append((guess, *grade(guess, secret)))
print(*sorted(k for k, v in kernels.items() if len(v.signatures) > before[k]))
"""


@pytest.mark.parametrize(("n_words", "list_words", "games"), [(1, 10_000, 30), (2, 10_000, 30), (4, 10_000, 2),
                                                             (5, 2_000, 1)])
def test_games_after_the_warm_up_compile_no_kernel(root, n_words, list_words, games):
    """Set-up compiles (or loads) every kernel a game reaches: in a fresh process, no kernel of the
    phrase engine gains a compiled signature in the games after ``warm`` (an inventory of them all).
    Games found kernels the warm-up missed: four words of 10,000 compiled the bucketed join in
    their second game (a guess of 7.6 s on an empty cache), six Diceware words the four lists' in
    their 16th (3.3 s), two words a sort for a spacing that fits nothing.  The control: the same
    games without the warm-up compile kernels."""
    import subprocess
    import sys

    def compiled(mode: str) -> list[str]:
        args = [str(root / "data" / "words.txt"), str(list_words), str(n_words), str(games), mode]
        return subprocess.run([sys.executable, "-c", NO_COMPILE_CHECK, *args], capture_output=True, text=True,
                              check=True).stdout.split()

    assert compiled("warm") == []
    assert compiled("cold") != []  # (the control: the games reach kernels)
