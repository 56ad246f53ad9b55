"""The passphrase codebreaker: spacing, packed counts, expected-log selection.

Phases (the ``phase`` a bot reports):

* ``p0`` — the first guess: a space probe on the left, every letter saturated on the right; the
  answer's total is the phrase length, its black count a first word about the spacing.
* ``p1`` — too many phrases to list: the spacings that fit are weighed by how many phrases each
  holds (the packed-count meet-in-the-middle search), phrases are sampled from that mixture, and the
  probe (letters and spaces at chosen positions on the left, a letter set on the right) with the
  largest joint entropy of (black, count) over the sample is asked.
* ``p2`` — few enough phrases to list: the guess (a candidate phrase or a crafted probe) with the
  least expected number of guesses after it.
"""

from __future__ import annotations

import hashlib
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numba
import numpy as np

from hbs.errors import UnsupportedGame
from hbs.core.feedback import encode_joined, encode_string, encode_strings, grade_strings
from hbs.core.games import PhraseGame
from hbs.strategies.phrases import probes
from hbs.strategies.phrases import spacing
from hbs.strategies.phrases.alphabet import FIRST, Alphabet
from hbs.strategies.phrases.expected_cost import COST_KNOTS, expected_costs
from hbs.strategies.phrases.levels import LevelSearch
from hbs.strategies.phrases.packing import MAX_FIELD, TupleSearch, packed_after, refined_order
from hbs.strategies.phrases.spacing import word_offsets

FEATURE_CACHE = 20_000  # slot features (by piece of a guess) kept before the cache is emptied
KEPT_SEARCHES = 64  # (spacing, answers) fields and searches kept (the latest) when a count begins
#: Seconds the set-up's warm-up game may take, well inside ``hbs run``'s default 120 s of set-up (a
#: long phrase's whole game can take longer on a busy core: it is cut off, the kernels are warm).
WARM_SECONDS = 60.0
FIRST_SAMPLE = 3000  # phrases drawn from the word list to design the first guess's letters on
LEAST_WEIGHT = 1e-6  # an estimated spacing keeps at least this weight: only a count of zero rules it out


@dataclass
class Settings:
    """The knobs of the breaker (studied on generated phrases, never on a phrase list)."""

    # phrases drawn to design a p1 probe; None: 3000 for the tuple search, 1500 for the level search
    # (on generated 3-word phrases more took fewer guesses up to 3000, none beyond)
    sample: int | None = None
    mixture_share: float = 0.05  # leave out of a probe's sample the spacings under this share
    refresh_batch: int = 2  # spacings counted at a time (fixed: the guesses must not depend on the cores)
    # spacings counted a guess at most, the most likely (seven and eight words fit thousands at the
    # first answer: counting them all takes a minute and gigabytes)
    max_counted: int = 1000
    # an estimated count's draws a guess at most, all spacings (an estimate of four rounds draws
    # millions); once over, the spacings left keep their estimated counts and the guess reads the
    # spacing: eight words would otherwise spend tens of seconds on one guess
    guess_draws: float = 1.2e7
    # the level search's exact meetings a guess holds at most, all spacings (32 bytes each); a count
    # that would take it over is estimated (eight words of 2,048: 24 exact counts of 2.5 million
    # meetings each, 3 GB)
    guess_meetings: float = 2.5e7
    enumerate_below: int = 4000  # list the phrases once at most this many fit
    score_secrets: int = 1500  # candidates the p2 scores are estimated on
    score_guesses: int = 150  # candidate phrases tried as p2 guesses
    passes: int = 3  # coordinate-ascent passes of the probe design
    # a probe's left side holds only spaces (the spacing is read exactly, the counting stays cheap)
    # until at most ``pinned_spacings`` spacings are counted; None: when the level search counts
    pin_spacing: bool | None = None
    pinned_spacings: int = 4
    # a spacing not counted again is estimated to keep the mean share of their phrases that those
    # counted kept (see _refresh), or the median; None: the mean for the tuple search
    mean_shrink: bool | None = None
    # the first guess's left side holds letters where they tell the most, with the spaces; None: for
    # the lists of FIRST_LETTERS (a space probe alone reads the spacing exactly; with letters, more
    # spacings stay likely and are counted every guess: 50-70 rather than 15-25 for 3 words)
    first_letters: bool | None = None
    few_drawn: int = 200  # an estimated count whose draws hold at most this many phrases: guess among them


class Fields(NamedTuple):
    """What the factorizable answers set on the words of a spacing, packed (see :func:`packing.pack`):
    ``count`` fields a word, in ``slots`` (``uint64[W_j, K]`` a slot) and their sums' ``target``.
    ``keys`` names each slot's packing: its word length and offset, then per answer the guess and
    how many fields it set (the spacings whose slot has the same key share its rows); ``orders``
    each slot's :func:`packing.row_order`, kept from answer to answer (:func:`packing.refined_order`)."""

    count: int
    slots: list[np.ndarray]
    target: np.ndarray
    keys: tuple
    orders: list[np.ndarray]


@dataclass(frozen=True)
class State:
    """What the breaker knows after a history (never changed once memoised: a refinement is a new
    State stored in its place before any later history is looked at)."""

    length: int | None = None
    lengths: np.ndarray | None = None  # spacing hypotheses, int64[H, n]
    weights: np.ndarray | None = None
    candidates: np.ndarray | None = None  # int64[M, n] word indices, once listed
    pending: np.ndarray | None = None  # spacings not listed with the candidates (too unlikely)
    observations: list = field(default_factory=list)


#: The largest word lists measured to play every game within a 4 GB worker and the default time
#: budgets, by words a phrase; a larger list is declined in setup, one line naming the limit.
#: The measurements behind each (memory, slowest guess, bank spent) are in docs/performance.md,
#: "Passphrase schemes".
MAX_WORDS = {3: 100_000, 4: 100_000, 5: 7_776, 6: 7_776, 7: 7_776, 8: 7_776}
#: The largest lists the tuple search (two listed sides) plays, by words a phrase; beyond (and for
#: five words and more) the level search counts them: the listed sides would outgrow the worker.
TUPLE_WORDS = {1: float("inf"), 2: float("inf"), 3: 60_000, 4: 2_048}
#: The largest lists whose first guess holds letters (``Settings.first_letters``), by words a phrase:
#: where the letters save guesses for the time they cost (more spacings stay likely and are counted);
#: larger lists make a guess too slow, four words save none.
FIRST_LETTERS = {1: float("inf"), 2: float("inf"), 3: 40_000}
#: The game's range (seven and eight words: a middle of three or four slots, whose levels past the
#: second are drawn rather than counted in the middle of a game, see ``levels.LEVEL_BUDGET``).
MAX_PHRASE_WORDS = 8
#: Spacings (word-length tuples) the first guess is designed over: (length classes) ** words
#: (eight words of seven lengths, 5,764,801: 1.4 GB and 1 s).
MAX_SPACINGS = 6_000_000


def decline(game: PhraseGame) -> None:
    """Raise :class:`UnsupportedGame`, with the reason, for a phrase game this bot cannot play
    within its limits: a clear refusal in ``setup`` rather than a crash in every game."""
    Alphabet(game.words)  # at most MAX_LETTERS characters
    if game.n_words > MAX_PHRASE_WORDS:
        raise UnsupportedGame(f"the phrase search plays 1 to {MAX_PHRASE_WORDS} words a phrase, "
                              f"not {game.n_words}")
    limit = MAX_WORDS.get(game.n_words)
    if limit is not None and len(game.words) > limit:
        raise UnsupportedGame(f"{game.n_words}-word phrases of a list of {len(game.words):,} words: the phrase "
                              f"search is measured within a 4 GB worker up to {limit:,} words")
    classes = len({len(w) for w in game.words})
    if classes**game.n_words > MAX_SPACINGS:
        raise UnsupportedGame(f"{game.n_words}-word phrases of words of {classes} lengths: "
                              f"{classes**game.n_words:,} spacings, the phrase search designs over at most "
                              f"{MAX_SPACINGS:,}")


class PhraseBreaker:
    """Plays the phrase game of a word list; deterministic for a given seed."""

    def __init__(self, game: PhraseGame, seed: int = 0, settings: Settings | None = None):
        self.game, self.n, self.seed = game, game.n_words, seed
        self.settings = settings or Settings()
        decline(game)
        self._searcher = TupleSearch if len(game.words) <= TUPLE_WORDS.get(self.n, 0) else LevelSearch
        tuples = self._searcher is TupleSearch
        s = self.settings
        self._sample_size = s.sample if s.sample is not None else (3000 if tuples else 1500)
        mean = s.mean_shrink if s.mean_shrink is not None else tuples
        self._shrink = (lambda ratios: np.mean(np.minimum(ratios, 1.0))) if mean else np.median
        self.alphabet = Alphabet(game.words)
        self.letters = self.alphabet.size
        self.words = tuple(self.alphabet.inward(w) for w in game.words)  # internal letters, see alphabet.py
        self.word_bytes, self.word_lengths = encode_strings(self.words)
        raw = self.word_bytes.astype(np.int64) - FIRST
        self.word_counts = np.zeros((len(self.words), self.letters), dtype=np.uint8)
        for c in range(self.letters):
            self.word_counts[:, c] = (raw == c).sum(axis=1)
        longest = int(self.word_lengths.max())
        if self.n * longest > MAX_FIELD:
            raise UnsupportedGame(f"words of {longest} letters are too long for {self.n}-word phrases")
        self.sat = probes.saturation(self.word_counts, self.n)
        self.by_length = {int(l): np.flatnonzero(self.word_lengths == l) for l in np.unique(self.word_lengths)}
        self.class_sizes = {l: len(ix) for l, ix in self.by_length.items()}
        self.class_bytes = {l: self.word_bytes[ix][:, :l] for l, ix in self.by_length.items()}
        self.class_counts = {l: self.word_counts[ix] for l, ix in self.by_length.items()}
        self._states: dict[tuple, State] = {(): State()}
        self._guesses: dict[tuple, tuple[str, str, int]] = {}
        self._pieces: dict[tuple, np.ndarray] = {}  # a slot's features by its piece of a guess; see _fields
        self._kept: dict[tuple, tuple] = {}  # (spacing, factorizable answers) -> (Fields, search); see _counted
        self._packed: dict[tuple, tuple] = {}  # a count's packed slots and their orders by their keys (Fields.keys)
        self._shared: dict[tuple, object] = {}  # the searches' distinct rows of those slots; see TupleSearch
        self._is_probe: dict[str, bool] = {}
        self.first_guess = self._design_first()

    def warm(self, max_guesses: int = 30, seconds: float = WARM_SECONDS) -> None:
        """Play one game against a phrase of the list, so that numba compiles (or loads) every
        kernel now, in the bot's setup, and not in a game's first guesses; stop after ``seconds``
        (a long phrase's game can take longer than setup's allowance: the kernels it did not reach
        compile in the first game).  The memos it fills hold what any game with the same history
        would compute: the guesses do not change."""
        from hbs.core.rule import grade

        secret = " ".join(self.game.words[(i * 7919) % len(self.game.words)] for i in range(self.n))
        history: list[tuple[str, int, int]] = []
        deadline = time.monotonic() + seconds
        for _ in range(max_guesses):
            if time.monotonic() > deadline:
                return
            guess = self.guess(tuple(history))[0]
            if guess == secret:
                return
            history.append((guess, *grade(guess, secret)))

    # -- the decision ---------------------------------------------------------------------------
    def guess(self, history: tuple) -> tuple[str, str, int]:
        """``(guess, phase, phrases still possible)`` for a history of ``(guess, black, white)``."""
        key = tuple((self.alphabet.inward(str(g)), int(b), int(w)) for g, b, w in history)
        found = self._guesses.get(key)
        if found is None:
            found = self._guesses[key] = self._decide(self.state(key), key)
        return (self.alphabet.outward(found[0]), *found[1:])

    def state(self, key: tuple) -> State:
        found = self._states.get(key)
        if found is None:
            found = self._states[key] = self._update(self.state(key[:-1]), *key[-1])
        return found

    def _decide(self, state: State, key: tuple) -> tuple[str, str, int]:
        if not key:
            return self._opening()
        rng = np.random.default_rng(_seed(self.seed, key))
        if state.candidates is None:
            searches, total, rest, state, drawn_out = self._refresh(state)
            if total + rest > self.settings.enumerate_below or not all(s.exact for s in searches):
                self._states[key] = state
                probe = self._spacing_probe(state) if drawn_out else None
                if probe is not None:
                    return probe, "p1", total + rest
                return self._narrowing(state, searches, total + rest, rng)
            counted = {tuple(s.lengths.tolist()) for s in searches}
            pending = np.array([h for h in state.lengths.tolist() if tuple(h) not in counted], dtype=np.int64)
            state = replace(state, pending=pending, candidates=self._listed(state, searches))
        if len(state.candidates) == 0 and state.pending is not None and len(state.pending):
            # the secret lies in a spacing too unlikely to have been counted: list those now
            searches = []
            for h in state.pending:
                search = self._search(state, h)
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

    def _opening(self) -> tuple[str, str, int]:
        """p0: the first guess, designed once at set-up."""
        total = sum(w for w in spacing.hypotheses(self.class_sizes, self.n)[1])
        return self.first_guess, "p0", int(total)

    def _narrowing(self, state: State, searches: list[TupleSearch], possible: int, rng: np.random.Generator) -> tuple[str, str, int]:
        """p1: too many phrases to list: the probe most informative about a sample of them."""
        counts = np.array([float(s.count) for s in searches])
        s = self.settings
        sample = self._mixture_sample(searches, counts, rng)
        usable = np.full(int(searches[0].lengths.sum()) + self.n - 1, True)
        pin = s.pin_spacing if s.pin_spacing is not None else self._searcher is LevelSearch
        if pin and len(searches) > s.pinned_spacings:
            usable[:] = False  # spaces only: the spacing first
        estimated = [search for search in searches if not search.exact]
        if estimated:
            # an estimate's draws need not fit the answers its search cannot use (phrase guesses)
            search = max(estimated, key=lambda e: e.count)
            sample = self._consistent(sample, state.observations)
            drawn = np.unique(sample, axis=0)
            if 0 < len(drawn) <= s.few_drawn and not any(e.loose for e in estimated):
                # an estimate's draws repeat a few phrases: weigh guessing them
                return self._guess_among(drawn, possible, rng), "p1", possible
            if not len(sample) or (search.loose and len(sample) < self._sample_size):
                # a loose estimate's count (no draw fitted) says nothing of how many words its slots
                # still hold: the probe is designed on a full sample of them (on as many draws as the
                # estimate's count, a handful, it sorted nothing out: a six-word game stalled 20 guesses)
                sample = self._phrases(search, search.loose_sample(self._sample_size, rng))
            # letters only over one word (of the middle, or of a side whose levels are slow to build,
            # see LevelSearch.focus): its black count is then that word's alone, its rows get sorted
            # out, and the count can soon be exact again
            j = search.focus
            start = int(spacing.word_offsets(search.lengths)[j])
            usable[:] = False
            usable[start : start + int(search.lengths[j])] = True
            probe = self._probe_from(sample, usable)
            if not probes.letter_set(probe[: state.length], self.letters).any():  # the draws agree there
                probe = self._probe_from(sample)
            if not probe.strip(probes.PAD):
                # nothing tells the draws apart (a hundred-thousand-word game played a guess of
                # fillers only, answer 0 0): guess among them instead
                return self._guess_among(np.unique(sample, axis=0), possible, rng), "p1", possible
            return probe, "p1", possible
        return self._probe_from(sample, usable), "p1", possible

    def _closing(self, state: State, rng: np.random.Generator) -> tuple[str, str, int]:
        """p2: the phrases are listed: the guess with the least expected number of guesses after it."""
        if len(state.candidates) == 0:
            raise RuntimeError("no phrase of the word list fits the answers")
        return self._final_guess(state.candidates, len(state.candidates), rng), "p2", len(state.candidates)

    # -- state updates ----------------------------------------------------------------------------
    def _update(self, parent: State, guess: str, black: int, white: int) -> State:
        state = replace(parent, observations=parent.observations + [(guess, black, white)])
        if parent.length is None:  # the first guess saturates every letter: its total gives the length
            length = black + white - min(guess.count(" "), self.n - 1) + self.n - 1
            state = replace(state, length=length, **dict(zip(("lengths", "weights"),
                                                              spacing.hypotheses(self.class_sizes, self.n, length))))
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

    def _listed(self, state: State, searches: list[TupleSearch]) -> np.ndarray:
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
            if not self._factorizable(guess):
                marks = grade_strings(encode_string(guess), rows, lens)
                keep &= (marks[:, 0] == black) & (marks[:, 1] == white)
        return phrases[keep]

    # -- the packed-count search ------------------------------------------------------------------
    def _refresh(self, state: State) -> tuple[list[TupleSearch], int, int, State, bool]:
        """Count the phrases of each spacing, most likely first.

        ``state.weights`` holds each spacing's count as last known or estimated.  Counts only
        shrink as answers come in; a spacing not counted again is estimated to keep the mean share
        of their phrases those counted kept (capped at 1: an estimate never grows; the median with
        ``Settings.mean_shrink`` off).  Most spacings lose nearly all their phrases to an answer but
        the secret's keeps many: with the median a quarter of 3-word games listed the phrases
        without the secret's spacing, and each such game took half a guess more.  Counting stops
        once the estimates left are under ``mixture_share`` of the counted total, or once the
        estimated counts have drawn over ``Settings.guess_draws`` (*drawn out*).  Spacings with no
        phrase are dropped.  Returns the searches of the counted spacings, their total, the estimate
        of the rest (0 only when every spacing was counted), the state with the spacings' weights
        brought up to date, and whether the count was drawn out.
        """
        for old in list(self._kept)[: max(0, len(self._kept) - KEPT_SEARCHES)]:  # the oldest first
            del self._kept[old]
        self._packed.clear()  # slots shared by this count's spacings (their parents are kept with the searches)
        self._shared.clear()
        weights = state.weights.astype(float)
        done: dict[int, TupleSearch] = {}
        ratios: list[float] = []
        batch = self.settings.refresh_batch
        draws, drawn_out, held = 0, False, 0
        with ExitStack() as stack:
            # the level search's kernels are long and free of the GIL: a pool of the threads (2 cores:
            # 3.3 against 3.5-4.0 s a 4-word game); the tuple search's are short between numpy steps,
            # and in a pool the threads fought over the GIL (25-30% slower on 1 and on 2 threads)
            threads = numba.get_num_threads() if self._searcher is LevelSearch else 1
            run = stack.enter_context(ThreadPoolExecutor(threads)).map if threads > 1 else map
            # most likely first (a spacing's weight changes only once it is counted: one order serves)
            order = np.argsort(-weights, kind="stable")
            order = order[weights[order] > 0]
            total = 0
            while True:
                pending = order[len(done) :]
                shrink = float(self._shrink(ratios)) if ratios else 1.0
                rest = float(np.maximum(weights[pending] * shrink, LEAST_WEIGHT).sum()) if len(pending) else 0.0
                if not len(pending) or (total > 0 and rest < self.settings.mixture_share * total) \
                        or len(done) >= self.settings.max_counted:
                    break
                drawn_out = draws > self.settings.guess_draws
                if drawn_out:
                    break
                picked = [int(i) for i in pending[:batch]]
                room = self.settings.guess_meetings - held
                for i, search in zip(picked, run(lambda i: self._search(state, state.lengths[i], room), picked)):
                    done[i] = search
                    draws += search.draws
                    held += search.meetings
                    total += search.count
                    ratios.append(search.count / weights[i])
                    weights[i] = search.count
        if len(pending):  # an estimate never rules a spacing out: only a count of zero does
            weights[pending] = np.maximum(weights[pending] * shrink, LEAST_WEIGHT)
        live = weights > 0
        state = replace(state, lengths=state.lengths[live], weights=weights[live])
        searches = [done[i] for i in sorted(done) if done[i].count]
        return searches, total, int(np.ceil(rest)) if len(pending) else 0, state, drawn_out

    def _search(self, state: State, lengths: np.ndarray, max_meetings: float = np.inf) -> TupleSearch | LevelSearch:
        answers = tuple(o for o in state.observations if self._factorizable(o[0]))  # the others: see _listed
        fields, search = self._counted(tuple(lengths.tolist()), answers)
        if fields is None:
            return self._nothing()
        if search is None:  # the level search, never kept: its estimate's draws change with every answer
            slots = [self.by_length[int(l)] for l in lengths]
            return LevelSearch(fields.slots, fields.target, slot_words=slots, lengths=lengths,
                               salt=len(state.observations), max_meetings=max_meetings)
        return search

    def _counted(self, spacing: tuple, answers: tuple) -> tuple[Fields | None, TupleSearch | None]:
        """The fields the factorizable ``answers`` set on the words of a spacing (:class:`Fields`;
        None when they contradict it) and, for the tuple search, the search.  Both are
        kept, and built from those of the answers but the last: one answer's features, and the
        search's matches refined rather than found again (same matches, same order)."""
        key = (spacing, answers)
        found = self._kept.get(key)
        if found is not None:
            return found
        slots = [self.by_length[l] for l in spacing]
        search = None
        if answers:
            before, parent = self._kept.get((spacing, answers[:-1])) or (self._fields_of(spacing, answers[:-1]), None)
            fields = None if before is None else self._with_answer(spacing, before, answers[-1])
        else:
            fields = self._no_fields(spacing)
        if fields is not None and self._searcher is TupleSearch:
            search = TupleSearch(fields.slots, fields.target, slot_words=slots, lengths=np.array(spacing),
                                 parent=parent if answers else None, shared=self._shared, slot_keys=fields.keys,
                                 slot_orders=fields.orders)
        self._kept[key] = (fields, search)
        return fields, search

    def _fields_of(self, spacing: tuple, answers: tuple) -> Fields | None:
        """The fields of :meth:`_counted` alone (no search built), from the first answer on."""
        fields: Fields | None = self._no_fields(spacing)
        for answer in answers:
            fields = self._with_answer(spacing, fields, answer)
            if fields is None:
                break
        return fields

    def _with_answer(self, spacing: tuple, fields: Fields, answer: tuple) -> Fields | None:
        """``fields`` and those one more factorizable answer sets, packed after them (None when it
        contradicts the spacing)."""
        found = self._fields(spacing, *answer)
        if found is None or any(t < 0 or t > MAX_FIELD for _, t in found):
            return None
        if not found:  # no letter and no black to count: nothing new
            return fields
        first = fields.count
        keys = tuple((key, answer[0], len(found)) for key in fields.keys)
        slots, orders = [], []
        for j, (key, packed, before) in enumerate(zip(keys, fields.slots, fields.orders)):
            found_slot = self._packed.get(key)
            if found_slot is None:
                slot = packed_after(packed, first, found[0][0][j], found[-1][0][j], len(found))
                found_slot = self._packed[key] = (slot, refined_order(slot, before, first, len(found)))
            slots.append(found_slot[0])
            orders.append(found_slot[1])
        targets = np.array([[t for _, t in found]], dtype=np.uint8)
        target = packed_after(fields.target[None, :], first, targets[:, 0], targets[:, -1], len(found))[0]
        return Fields(first + len(found), slots, target, keys, orders)

    def _no_fields(self, spacing: tuple) -> Fields:
        """The fields of no answer: one zero word a row."""
        keys = tuple(zip(spacing, word_offsets(np.array(spacing)).tolist()))
        return Fields(0, [np.zeros((self.class_sizes[l], 1), np.uint64) for l in spacing], np.zeros(1, np.uint64), keys,
                      [np.arange(self.class_sizes[l]) for l in spacing])  # equal rows: in index order

    def _factorizable(self, guess: str) -> bool:
        found = self._is_probe.get(guess)
        if found is None:
            if len(self._is_probe) > FEATURE_CACHE:
                self._is_probe.clear()
            found = self._is_probe[guess] = probes.is_factorizable(guess, self.sat)
        return found

    def _nothing(self) -> TupleSearch | LevelSearch:
        return self._searcher([np.zeros((0, 1), np.uint64)] * self.n, np.zeros(1, np.uint64))

    def _fields(self, spacing: tuple, guess: str, black: int, white: int) -> list | None:
        """:func:`probes.fields` of an answer under a spacing; each slot's features kept by its
        piece of the guess (shared by the spacings with a word of that length there)."""
        if len(self._pieces) > FEATURE_CACHE:
            self._pieces.clear()
        features = probes.word_features(guess, spacing, [self.class_bytes[l] for l in spacing],
                                        [self.class_counts[l] for l in spacing], self._pieces)
        return probes.fields(features, guess, black, white, spacing)

    def _phrases(self, search: TupleSearch, tuples: np.ndarray) -> np.ndarray:
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
        where they tell most besides, over phrases drawn from the word list; every letter saturated."""
        lengths, weights = spacing.hypotheses(self.class_sizes, self.n)
        phrase_lengths = lengths.sum(axis=1) + self.n - 1
        _, groups = np.unique(phrase_lengths, return_inverse=True)
        width = int(phrase_lengths.max())
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
            codes = probes.design_left(chars, lens, codes, self.letters, self.settings.passes)
        return probes.build(probes.left_side(codes, self.letters), np.ones(self.letters, dtype=bool), self.sat)

    def _spacing_probe(self, state: State) -> str | None:
        """A guess of spaces only, where they tell most about the spacings as now weighed (counted
        or estimated): the probe of a drawn-out count (see :meth:`_refresh`), whose sample holds
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
        left_codes, chosen = probes.design_probe(chars, counts, usable, self.settings.passes)
        return probes.build(probes.left_side(left_codes, self.letters), chosen, self.sat)

    def _mixture_sample(self, searches: list[TupleSearch], counts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Phrases drawn uniformly from the union of several spacings' fitting phrases."""
        share = rng.multinomial(min(self._sample_size, int(counts.sum())), counts / counts.sum())
        parts = [self._phrases(s, s.sample(int(k), rng)) for s, k in zip(searches, share) if k]
        return np.concatenate(parts)

    def _guess_among(self, drawn: np.ndarray, possible: int, rng: np.random.Generator) -> str:
        """The final guess among an estimate's distinct draws ``drawn`` (at least ``possible`` phrases)."""
        return self._final_guess(drawn, max(possible, len(drawn)), rng)

    def _final_guess(self, cands: np.ndarray, possible: int, rng: np.random.Generator) -> str:
        """The phrase of ``cands`` (or a probe) with the least expected guesses after it, of ``possible``."""
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
        return options[int(np.argmin(costs))]


def _equal(rows: np.ndarray, lens: np.ndarray, text: str) -> np.ndarray:
    """``bool[n]``: which encoded rows (see :func:`encode_strings`) are ``text``."""
    raw = encode_string(text)
    if len(raw) > rows.shape[1]:
        return np.zeros(len(rows), dtype=bool)
    return (lens == len(raw)) & (rows[:, : len(raw)] == raw).all(axis=1)


def _seed(seed: int, key: tuple) -> int:
    digest = hashlib.blake2b(repr((seed, key)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")
