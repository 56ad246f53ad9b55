"""The passphrase codebreaker: spacing, packed counts, expected-log selection.

Phases (the ``phase`` a bot reports):

* ``p0`` — the first guess: a space probe on the left, every letter saturated on the right; the
  answer's total is the phrase length, its black count a first word about the spacing.  One word
  (``Settings.list_first``): every word is listed at once and the first guess is the end game's.
* ``p1`` — too many phrases to list: the spacings that fit are weighed by how many phrases each
  holds (the packed-count meet-in-the-middle search), phrases are sampled from that mixture, and the
  probe (letters and spaces at chosen positions on the left, a letter set on the right) with the
  largest joint entropy of (black, count) over the sample is asked.
* ``p2`` — few enough phrases to list: the guess (a candidate phrase or a crafted probe) with the
  least expected number of guesses after it.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import sys
import time
from collections import Counter
from dataclasses import replace

import numpy as np

from hbs.contract.bot import Guess
from hbs.core.feedback import encode_joined, encode_string, encode_strings, grade_strings
from hbs.core.games import PhraseGame
from hbs.errors import UnsupportedGame
from hbs.strategies.allocator import keep_freed_memory
from hbs.strategies.phrases import probes, spacing
from hbs.strategies.phrases.alphabet import FIRST, PAD, Alphabet
from hbs.strategies.phrases.counting import SpacingCounts
from hbs.strategies.phrases.expected_cost import COST_KNOTS, expected_costs
from hbs.strategies.phrases.free_probe import design_free
from hbs.strategies.phrases.levels import EstimatingSearch, FourListSearch, JoiningSearch, LevelSearch
from hbs.strategies.phrases.meeting import warm_join
from hbs.strategies.phrases.packing import MAX_FIELD
from hbs.strategies.phrases.search import Estimate, Search
from hbs.strategies.phrases.settings import (
    FIRST_LETTERS, LEVEL_SAMPLE, MAX_LISTED_FIRST, TUPLE_WORDS, Settings, decline,
)
from hbs.strategies.phrases.state import State
from hbs.strategies.phrases.tuple_search import TupleSearch

#: Seconds the set-up's warm-up game may take (then a game of ``WARM_WORDS`` words of one length
#: reaches the end game's kernels): a set-up under 30 s (eight Diceware words' whole game took 48 s).
WARM_SECONDS, WARM_WORDS = 15.0, 12
#: Guesses of the warm-up game after which it stops if no kernel has been compiled in this process
#: and numba's cache is current for every kernel it holds: it would only load more, which a real game's guesses
#: do in milliseconds (eight words: the game cut off at 15 s gave set-ups of 26-35 s on a warm cache).
WARM_CACHED_GUESSES = 2
FIRST_SAMPLE = 3000  # phrases drawn from the word list to design the first guess's letters on
class PhraseBreaker:
    """Plays the phrase game of a word list; deterministic for a given seed."""

    def __init__(self, game: PhraseGame, seed: int = 0, settings: Settings | None = None,
                 searcher: type | None = None):
        """``searcher``: the search class (default: :class:`TupleSearch` up to ``TUPLE_WORDS`` words,
        :class:`LevelSearch` beyond)."""
        self.game, self.n, self.seed = game, game.n_words, seed
        self.settings = (settings or Settings()).for_words(self.n)
        decline(game)
        keep_freed_memory()  # (a guess's arrays reused, not faulted in afresh: see allocator)
        if searcher is None:
            searcher = TupleSearch if len(game.words) <= TUPLE_WORDS.get(self.n, 0) else LevelSearch
        self._levels = issubclass(searcher, LevelSearch)
        s = self.settings
        self._sample_size = s.sample if s.sample is not None else (LEVEL_SAMPLE.get(self.n, 1500) if self._levels else 3000)
        self._passes = s.passes if s.passes is not None else (5 if self.n >= 6 or self.n == 2 else 3)
        self.alphabet = Alphabet(game.words)
        self.letters = self.alphabet.size
        self.words = tuple(self.alphabet.inward(w) for w in game.words)  # internal letters, see alphabet.py
        self.word_bytes, self.word_lengths = encode_strings(self.words)
        # what a free probe's characters may be: the filler (first), the space and the letters
        self._free_symbols = np.array([ord(PAD), ord(" ")] + [FIRST + c for c in range(self.letters)], dtype=np.uint8)
        raw = self.word_bytes.astype(np.int64) - FIRST
        self.word_counts = np.zeros((len(self.words), self.letters), dtype=np.uint8)
        for c in range(self.letters):
            self.word_counts[:, c] = (raw == c).sum(axis=1)
        longest = int(self.word_lengths.max())
        if self.n * longest > MAX_FIELD:
            raise UnsupportedGame(f"words of {longest} letters are too long for {self.n}-word phrases")
        self.sat = probes.saturation(self.word_counts, self.n)
        by_length = {int(l): np.flatnonzero(self.word_lengths == l) for l in np.unique(self.word_lengths)}
        # (each class's bytes contiguous: one compiled probes.piece_matches for every length, the longest too)
        class_bytes = {l: np.ascontiguousarray(self.word_bytes[ix][:, :l]) for l, ix in by_length.items()}
        self.counts = SpacingCounts(self.n, by_length, class_bytes, {l: self.word_counts[ix] for l, ix in by_length.items()},
                                    self.sat, searcher, self.settings)
        self._states: dict[tuple, State] = {(): State()}
        self._guesses: dict[tuple, Guess] = {}  # in the internal letters
        self.first_guess = self._design_first()

    def warm(self, max_guesses: int = 30, seconds: float = WARM_SECONDS) -> None:
        """Play one game against a phrase of the list, so that numba compiles (or loads) every kernel now,
        in the bot's setup, and not in a game's first guesses; stop after ``seconds``, or after
        ``WARM_CACHED_GUESSES`` guesses where none compiled and numba's cache is current for every
        kernel it holds (it would only load them).  Then play a game of a few words of the list
        (``WARM_WORDS`` of one length), whose end game (exact meetings, listing, expected guesses) a
        long game cut off does not reach, nor one whose count is estimated until two phrases are
        left.  Then the same game for the middle game's kernels: for the level search with every count
        estimated, then with every count sampled and joined in buckets, then with every count met as
        four lists (:class:`EstimatingSearch`, :class:`JoiningSearch`, :class:`FourListSearch`), and a
        few sums joined in buckets (``meeting.warm_join``); for the tuple search never listed, its
        searches refined from the answer before (one word is listed from its first guess either
        way, ``Settings.list_first``: its games play the end game).  A long game cut off while its
        kernels compiled reached none of them, and the first real game compiled them (on an empty
        cache, guesses of 15-20 s for five and eight Diceware words, 5 s for three words of
        ``data/words.txt``).  The memos it fills hold what any game with the same history would
        compute: the guesses do not change."""
        secret = " ".join(self.game.words[(i * 7919) % len(self.game.words)] for i in range(self.n))
        self._play(secret, max_guesses, time.monotonic() + seconds, WARM_CACHED_GUESSES)
        common = max(Counter(map(len, self.game.words)).items(), key=lambda kv: (kv[1], -kv[0]))[0]
        few = tuple(w for w in self.game.words if len(w) == common)[:WARM_WORDS]
        counting = replace(self.settings, enumerate_below=0)  # (never listed: counted to the end)
        games = ([(LevelSearch, self.settings), (EstimatingSearch, self.settings), (JoiningSearch, self.settings),
                  (FourListSearch, self.settings)]
                 if self._levels else [(TupleSearch, self.settings), (TupleSearch, counting)])
        for searcher, settings in games:
            small = PhraseBreaker(PhraseGame(few, self.n), self.seed, settings, searcher=searcher)
            small._play(" ".join(few[(i * 7) % len(few)] for i in range(self.n)), max_guesses, float("inf"))
        if self._levels:
            warm_join()

    def _play(self, secret: str, max_guesses: int, deadline: float, cached_after: int | None = None) -> bool:
        """Play against ``secret`` until found (True), ``max_guesses`` or ``deadline`` (False), or,
        with ``cached_after``, after that many guesses if numba has compiled no kernel in this process
        and its cache is current for every kernel it holds."""
        from hbs.core.rule import grade

        history: list[tuple[str, int, int]] = []
        for played in range(max_guesses):
            if time.monotonic() > deadline:
                return False
            if cached_after is not None and played >= cached_after and not _compiled() and _all_cached():
                return False
            guess = self.guess(tuple(history)).text
            if guess == secret:
                return True
            history.append((guess, *grade(guess, secret)))
        return False

    # -- the decision ---------------------------------------------------------------------------
    def guess(self, history: tuple) -> Guess:
        """The guess (its phase and the phrases still possible with it) after a history of
        ``(guess, black, white)``."""
        key = tuple((self.alphabet.inward(str(g)), int(b), int(w)) for g, b, w in history)
        found = self._guesses.get(key)
        if found is None:
            found = self._guesses[key] = self._decide(self.state(key), key)
        return Guess(self.alphabet.outward(found.text), found.remaining, found.phase)

    def state(self, key: tuple) -> State:
        """What the breaker knows after the history ``key``.  The guess after the history before it
        is decided first: deciding refines that state (each spacing's count replaces its weight),
        and the state after an answer starts from it; otherwise the guess after a history asked at
        once differed from the one after the same history played up to (17 of 36 histories of three
        games each of three words of ``data/words.txt`` and of five of 400 of its words).  Asked at
        once, a history of ``k`` answers costs ``k`` decisions: what playing up to it costs."""
        found = self._states.get(key)
        if found is None:
            parent = key[:-1]
            if parent not in self._guesses:
                self._guesses[parent] = self._decide(self.state(parent), parent)
            found = self._states[key] = self._update(self._states[parent], *key[-1])
        return found

    def _decide(self, state: State, key: tuple) -> Guess:
        if not key:
            return self._opening()
        rng = np.random.default_rng(_seed(self.seed, key))
        if state.candidates is None:
            count = self.counts.refresh(state)
            searches, state = count.searches, count.state
            if count.possible > self.settings.enumerate_below or not all(s.exact for s in searches):
                self._states[key] = state
                probe = self._spacing_probe(state) if count.drawn_out else None
                if probe is not None:
                    return Guess(probe, count.possible, "p1")
                return self._narrowing(state, searches, count.possible, rng)
            counted = {tuple(s.lengths.tolist()) for s in searches}
            pending = np.array([h for h in state.lengths.tolist() if tuple(h) not in counted], dtype=np.int64)
            state = replace(state, pending=pending, candidates=self._listed(state, searches))
        if len(state.candidates) == 0 and state.pending is not None and len(state.pending):
            # the secret lies in a spacing too unlikely to have been counted: list those now
            searches = []
            for h in state.pending:
                search = self.counts.search(state, h)
                if not search.exact:
                    # too many to list (an estimated count; eight words of 2,048 raised "cannot list"
                    # here): those spacings alone, counted and narrowed as before a listing
                    pending = {tuple(h) for h in state.pending.tolist()}
                    keep = np.array([tuple(h) in pending for h in state.lengths.tolist()])
                    return self._decide(replace(state, lengths=state.lengths[keep], weights=state.weights[keep],
                                                candidates=None, pending=None), key)
                if search.count:
                    searches.append(search)
            state = replace(state, pending=None, candidates=self._listed(state, searches))
        self._states[key] = state
        return self._closing(state, rng)

    def _opening(self) -> Guess:
        """p0: the first guess, designed once at set-up."""
        return Guess(self.first_guess, int(self._phrases_in_all), "p0")

    def _narrowing(self, state: State, searches: list[Search], possible: int, rng: np.random.Generator) -> Guess:
        """p1: too many phrases to list: the probe most informative about a sample of them."""
        counts = np.array([float(s.count) for s in searches])
        s = self.settings
        sample = self._mixture_sample(searches, counts, rng)
        usable = np.full(int(searches[0].lengths.sum()) + self.n - 1, True)
        pin = s.pin_spacing if s.pin_spacing is not None else self._levels
        if pin and len(searches) > s.pinned_spacings:
            usable[:] = False  # spaces only: the spacing first
        estimated: list[Estimate] = [search for search in searches if not search.exact]
        if estimated:
            # an estimate's draws need not fit the answers its search cannot use (phrase guesses)
            search = max(estimated, key=lambda e: e.count)
            sample = self._consistent(sample, state.observations)
            drawn = np.unique(sample, axis=0)
            few = 0 < len(drawn) <= s.few_drawn and not any(e.loose for e in estimated)
            if few and possible <= s.few_cover * len(drawn):
                # an estimate's draws repeat a few phrases, and they are most of its count: weigh guessing them
                return Guess(self._guess_among(drawn, possible, rng), possible, "p1")
            # a few draws of a count many times larger are a few hits of a noisy estimate (six words:
            # 2 phrases drawn of 2,330 estimated, 14 of 174,000; the secret never among them, each
            # guess among them a guess lost): the probe is designed on loose draws, as where none fitted;
            # but not where the four lists found them (Settings.few_four): their few are tuples that fit
            few_design = few and not (search.four_lists and len(drawn) >= s.few_four)
            if not len(sample) or (search.loose and len(sample) < self._sample_size) or few_design:
                # a loose estimate's count (no draw fitted) says nothing of how many words its slots
                # still hold: the probe is designed on a full sample of them (on as many draws as the
                # estimate's count, a handful, it sorted nothing out: a six-word game stalled 20 guesses)
                sample = self._phrases(search, search.loose_sample(self._sample_size, rng))
            # letters only over one word (see LevelSearch.focus and focus_choices): its black count is
            # then that word's alone, its rows get sorted out, and the count can soon be exact again
            probe = self._focused(search, sample, usable)
            if not probes.letter_set(probe[: state.length], self.letters).any():  # the draws agree there
                probe = self._probe_from(sample)
            if not probe.strip(probes.PAD):
                # nothing tells the draws apart (a hundred-thousand-word game played a guess of
                # fillers only, answer 0 0): guess among them instead (the estimate's draws, which
                # fit, where there are a few)
                return Guess(self._guess_among(drawn if few else np.unique(sample, axis=0), possible, rng), possible, "p1")
            return Guess(probe, possible, "p1")
        return Guess(self._probe_from(sample, usable), possible, "p1")

    def _closing(self, state: State, rng: np.random.Generator) -> Guess:
        """p2: the phrases are listed: the guess with the least expected number of guesses after it."""
        if len(state.candidates) == 0:
            raise RuntimeError("no phrase of the word list fits the answers")
        return Guess(self._final_guess(state.candidates, len(state.candidates), rng, free=True), len(state.candidates), "p2")

    # -- state updates ----------------------------------------------------------------------------
    def _update(self, parent: State, guess: str, black: int, white: int) -> State:
        state = replace(parent, observations=parent.observations + [(guess, black, white)])
        if parent.length is None and parent.candidates is None:
            # the first guess saturates every letter: its total gives the length
            length = black + white - min(guess.count(" "), self.n - 1) + self.n - 1
            state = replace(state, length=length, **dict(zip(("lengths", "weights"),
                                                              spacing.hypotheses(self.counts.class_sizes, self.n, length))))
        if state.candidates is not None:
            rows, lens = self._rows(state.candidates)
            marks = grade_strings(encode_string(guess), rows, lens)
            keep = (marks[:, 0] == black) & (marks[:, 1] == white) & ~_equal(rows, lens, guess)
            return replace(state, candidates=state.candidates[keep])
        left = guess[: state.length]
        if not probes.letter_set(left, self.letters).any():
            keep = spacing.space_hits(state.lengths, guess) == black
            state = replace(state, lengths=state.lengths[keep], weights=state.weights[keep])
        return state

    def _listed(self, state: State, searches: list[Search]) -> np.ndarray:
        """Every phrase the searches hold that also fits the answers the search cannot use
        (guesses that are not factorizable probes) and was not guessed already."""
        if not searches:
            return np.zeros((0, self.n), dtype=np.int64)
        return self._consistent(np.concatenate([self._phrases(s, s.all()) for s in searches]), state.observations)

    def _consistent(self, phrases: np.ndarray, observations: list) -> np.ndarray:
        """The rows of ``phrases`` not guessed already that fit the answers the searches cannot use
        (guesses that are not factorizable probes)."""
        keep = np.ones(len(phrases), dtype=bool)
        rows, lens = self._rows(phrases)
        for guess, black, white in observations:
            keep &= ~_equal(rows, lens, guess)
            if not self.counts.factorizable(guess):
                marks = grade_strings(encode_string(guess), rows, lens)
                keep &= (marks[:, 0] == black) & (marks[:, 1] == white)
        return phrases[keep]

    def _phrases(self, search: Search, tuples: np.ndarray) -> np.ndarray:
        """Word indices (``int64[k, n]``) of sampled tuples, per phrase position."""
        return np.stack([search.slot_words[j][tuples[:, j]] for j in range(self.n)], axis=1)

    def _rows(self, phrases: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``encode_strings(self._texts(phrases))``, without the strings."""
        return encode_joined(phrases, self.word_bytes, self.word_lengths)

    def _texts(self, phrases: np.ndarray) -> list[str]:
        words = self.words
        return [" ".join(words[i] for i in row) for row in phrases.tolist()]

    # -- guess design -----------------------------------------------------------------------------
    def _design_first(self) -> str:
        """p0: spaces where they tell most about the spacings, then (see ``FIRST_LETTERS``) letters
        where they tell most besides, over phrases drawn from the word list; every letter saturated.
        Where every phrase is listed from the start (``Settings.list_first``), the end game's guess
        over them all."""
        listed = self.settings.list_first
        if listed if listed is not None else self.n == 1:
            if self.n > 1 and len(self.words) ** self.n > MAX_LISTED_FIRST:
                raise UnsupportedGame(f"list_first: {len(self.words) ** self.n:,} phrases, at most "
                                      f"{MAX_LISTED_FIRST:,} are listed at the first guess")
            every = np.array(list(itertools.product(range(len(self.words)), repeat=self.n)), dtype=np.int64)
            self._states[()] = State(candidates=every)
            self._phrases_in_all = float(len(every))
            return self._final_guess(every, len(every), np.random.default_rng(_seed(self.seed, ())), free=True)
        lengths, weights = spacing.hypotheses(self.counts.class_sizes, self.n)
        self._phrases_in_all = float(np.cumsum(weights)[-1]) if len(weights) else 0.0  # (added in order, as it was)
        phrase_lengths = lengths.sum(axis=1) + self.n - 1
        width = int(phrase_lengths.max())
        present = np.zeros(width + 1, dtype=bool)
        present[phrase_lengths] = True
        groups = (np.cumsum(present) - 1)[phrase_lengths]  # np.unique's inverse, without sorting 5.8 million
        marks = spacing.design_space_probe(lengths, weights, width, groups)
        codes = probes.space_codes(marks, self.letters)
        letters = self.settings.first_letters
        if letters is None:
            letters = len(self.game.words) <= FIRST_LETTERS.get(self.n, 0)
        if letters:
            rng = np.random.default_rng(self.seed)
            phrases = rng.integers(0, len(self.words), (FIRST_SAMPLE, self.n))
            chars, _ = self._letter_matrix(phrases)  # (as wide as the longest phrase drawn)
            chars = np.pad(chars, ((0, 0), (0, width - chars.shape[1])), constant_values=-1)
            lens = self.word_lengths[phrases].sum(axis=1).astype(np.int64) + self.n - 1
            codes = probes.design_left(chars, lens, codes, self.letters, self._passes)
        return probes.build(probes.left_side(codes, self.letters), np.ones(self.letters, dtype=bool), self.sat)

    def _focused(self, search: Estimate, sample: np.ndarray, usable: np.ndarray) -> str:
        """The probe with letters over one word only (``usable``'s positions of it), or over a whole
        middle (below): of the word among ``search.focus_choices`` whose best probe's answer tells
        most about ``sample`` (the first on
        a tie; five Diceware words 239 and 241 guesses against 244 and 245 on two sets of 20, six 15.5
        and 15.3 against 16.3 and 17.5 on two of 10, with the middle word alone); or, where it tells
        more (``Settings.joint_middle``), letters over every word of ``search.joint_focus`` at once:
        a middle of three or four words, whose black count no side's word adds to, so that the
        middle's last level keeps only the sums that give it.  With a single word a guess, eight
        Diceware words sorted out a middle of 375,000 sums at 1-2 bits a guess while no draw fitted
        (loose) and the exact join stayed out of reach; with the whole middle, 889 guesses against
        940 over 40 phrases)."""
        chars, counts = self._letter_matrix(sample)
        offsets = spacing.word_offsets(search.lengths)
        groups = [[j] for j in search.focus_choices]
        if self.settings.joint_middle and len(search.joint_focus) > 1:
            groups.append(list(search.joint_focus))
        best = None
        for group in groups:
            usable[:] = False
            for j in group:
                usable[int(offsets[j]) : int(offsets[j]) + int(search.lengths[j])] = True
            left, chosen, told = probes.design_probe(chars, counts, usable.astype(np.bool_), self._passes)
            if best is None or told > best[0] + 1e-9:
                best = (told, left, chosen)
        return probes.build(probes.left_side(best[1], self.letters), best[2], self.sat)

    def _spacing_probe(self, state: State) -> str | None:
        """A guess of spaces only, where they tell most about the spacings as now weighed (counted
        or estimated): the probe of a drawn-out count (see :meth:`SpacingCounts.refresh`), whose sample holds
        only the spacings it counted.  None when no position tells them apart."""
        marks = spacing.design_space_probe(state.lengths, state.weights, state.length)
        if not marks.any():
            return None
        codes = probes.space_codes(marks, self.letters)
        return probes.build(probes.left_side(codes, self.letters), np.zeros(self.letters, dtype=bool), self.sat)

    def _letter_matrix(self, phrases: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return probes.letter_matrix(self._rows(phrases)[0], phrases, self.word_counts)

    def _probe_from(self, phrases: np.ndarray, usable: np.ndarray | None = None) -> str:
        """The factorizable probe most informative about ``phrases`` (word indices, one length);
        ``usable`` (``bool[length]``) the left-side positions that may hold a letter (default all)."""
        chars, counts = self._letter_matrix(phrases)
        usable = np.ones(chars.shape[1], dtype=np.bool_) if usable is None else usable.astype(np.bool_)
        left_codes, chosen, _ = probes.design_probe(chars, counts, usable, self._passes)
        return probes.build(probes.left_side(left_codes, self.letters), chosen, self.sat)

    def _mixture_sample(self, searches: list[Search], counts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Phrases drawn uniformly from the union of several spacings' fitting phrases."""
        share = rng.multinomial(min(self._sample_size, int(counts.sum())), counts / counts.sum())
        parts = [self._phrases(s, s.sample(int(k), rng)) for s, k in zip(searches, share) if k]
        return np.concatenate(parts)

    def _guess_among(self, drawn: np.ndarray, possible: int, rng: np.random.Generator) -> str:
        """The final guess among an estimate's distinct draws ``drawn`` (at least ``possible`` phrases)."""
        return self._final_guess(drawn, max(possible, len(drawn)), rng)

    def _final_guess(self, cands: np.ndarray, possible: int, rng: np.random.Generator, free: bool = False) -> str:
        """The phrase of ``cands`` (or a probe) with the least expected guesses after it, of ``possible``;
        ``free``: the phrases are listed (p2), and a free probe may be guessed (the searches count
        with factorizable probes only: in p1 its answer would be lost to them)."""
        if len(cands) <= 2:
            return self._texts(cands[:1])[0]
        s = self.settings
        secrets = cands if len(cands) <= s.score_secrets else cands[np.sort(rng.choice(len(cands), s.score_secrets, replace=False))]
        pool = secrets if len(secrets) <= s.score_guesses else secrets[np.sort(rng.choice(len(secrets), s.score_guesses, replace=False))]
        options = self._texts(pool)
        options.append(self._probe_from(secrets))
        g_rows, g_lens = encode_strings(options)
        s_rows, s_lens = self._rows(secrets)
        costs = expected_costs(g_rows, g_lens, s_rows, s_lens, possible, COST_KNOTS)
        if free and len(cands) >= s.free_from:
            probe = self._free_probe(options[int(np.argmin(costs[: len(pool)]))], s_rows, possible)
            options.append(probe)
            costs = np.append(costs, expected_costs(*encode_strings([probe]), s_rows, s_lens, possible, COST_KNOTS))
        return options[int(np.argmin(costs))]

    def _free_probe(self, start: str, secrets: np.ndarray, possible: int) -> str:
        """The free probe (:func:`design_free`) from the phrase ``start`` followed by fillers (room
        for letters that count towards white only: half the phrases' width, and at least up to it),
        designed on the first ``free_secrets`` of ``secrets`` (encoded phrases, zero-padded to the
        longest: one length once the first answer has told it, every length where the phrases are
        listed from the start, ``Settings.list_first``)."""
        s = self.settings
        width = secrets.shape[1]
        start = start + PAD * max(width // 2, width - len(start))
        guess, _ = design_free(secrets[: s.free_secrets], width, self._free_symbols, encode_string(start), possible,
                               COST_KNOTS, s.free_passes)
        return guess.tobytes().decode("latin-1")


def _equal(rows: np.ndarray, lens: np.ndarray, text: str) -> np.ndarray:
    """``bool[n]``: which encoded rows (see :func:`encode_strings`) are ``text``."""
    raw = encode_string(text)
    if len(raw) > rows.shape[1]:
        return np.zeros(len(rows), dtype=bool)
    return (lens == len(raw)) & (rows[:, : len(raw)] == raw).all(axis=1)


def _kernels() -> list:
    """The numba kernels of ``hbs``'s modules loaded in this process."""
    from numba.core.dispatcher import Dispatcher

    return [value for name, module in list(sys.modules.items()) if name.startswith("hbs.") and module is not None
            for value in list(vars(module).values()) if isinstance(value, Dispatcher)]


def _compiled() -> int:
    """How many kernels (by signature) numba has compiled in this process rather than loaded from
    its cache, over the kernels of ``hbs``'s modules loaded."""
    return sum(sum(kernel.stats.cache_misses.values()) for kernel in _kernels())


def _all_cached() -> bool:
    """Whether numba's cache is current for every kernel of ``hbs``'s modules loaded that it holds:
    where a source file changed, its index there is stale and its kernels compile afresh, perhaps
    only in a game's later guesses.  (A kernel never cached, or never called, has no index.  One
    called by another whose index is current is left out: it compiled afresh into that one, and
    its own index, written only where a test called it alone, went stale at the next edit of its
    file and kept every warm-up playing: eight words' set-up 7 s took 17-20 s, for inlined kernels
    first, then for ``level_sums._bucket`` and the other kernels ``_by_buckets`` calls, after an
    edit of ``_bucket`` tried and reverted.  One also called alone late in a game would then compile
    there, once.  numba's own index reader; False on any doubt.)"""
    try:
        kernels = _kernels()
        current = {}
        for kernel in kernels:
            file = kernel._cache._cache_file
            current[kernel] = bool(file._load_index()) if os.path.exists(file._index_path) else None
        compiled_into = {callee for caller in kernels if current[caller] for callee in _called(caller)}
        return all(current[kernel] is not False or kernel in compiled_into for kernel in kernels)
    except Exception:  # noqa: BLE001 - another numba: the warm-up plays on
        return False


def _called(kernel) -> list:
    """The kernels ``kernel`` calls by a name of its module (compiled into it)."""
    from numba.core.dispatcher import Dispatcher

    names, space = kernel.py_func.__code__.co_names, kernel.py_func.__globals__
    return [space[name] for name in names if isinstance(space.get(name), Dispatcher)]


def _seed(seed: int, key: tuple) -> int:
    digest = hashlib.blake2b(repr((seed, key)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")
