"""Counting the phrases of each spacing that fit the answers: the fields each factorizable answer
sets on a spacing's words, packed, and the search (:mod:`hbs.strategies.phrases.search`) over them,
most likely spacings first, kept from one answer to the next."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, replace
from typing import NamedTuple

import numba
import numpy as np

from hbs.strategies.phrases import probes
from hbs.strategies.phrases.levels import LevelSearch
from hbs.strategies.phrases.listed_search import CARRY_BELOW, ListedSearch, filtered
from hbs.strategies.phrases.packing import MAX_FIELD, packed_after
from hbs.strategies.phrases.rows import refined_order
from hbs.strategies.phrases.search import Search
from hbs.strategies.phrases.settings import Settings
from hbs.strategies.phrases.spacing import word_offsets
from hbs.strategies.phrases.state import State
from hbs.strategies.phrases.tuple_search import TupleSearch

FEATURE_CACHE = 20_000  # slot features (by piece of a guess) kept before the cache is emptied
KEPT_SEARCHES = 64  # (spacing, answers) fields and searches kept (the latest) when a count begins
KEPT_LISTINGS = 16  # (spacing, answers) listed tuples kept (the latest; see listed_search)
LEAST_WEIGHT = 1e-6  # an estimated spacing keeps at least this weight: only a count of zero rules it out


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


@dataclass
class Count:
    """One count of the spacings that fit (see :meth:`SpacingCounts.refresh`)."""

    searches: list[Search]  # the counted spacings that hold phrases, in the order of the spacings
    total: int  # their phrases
    rest: int  # the estimate of the phrases of the spacings not counted (0 only when all were)
    state: State  # the state with the spacings' weights brought up to date
    drawn_out: bool  # counting stopped at ``Settings.guess_draws`` or ``guess_loose``

    @property
    def possible(self) -> int:
        """The phrases that may still be the secret, counted and estimated."""
        return self.total + self.rest


class SpacingCounts:
    """The searches of a phrase game's spacings after each history, and what they share: each slot's
    features by its piece of a guess, each (spacing, answers) pair's fields and search, the packed
    slots of one count."""

    def __init__(self, n: int, by_length: dict[int, np.ndarray], class_bytes: dict, class_counts: dict,
                 sat: np.ndarray, searcher: type, settings: Settings):
        self.n, self.by_length, self.sat, self.settings = n, by_length, sat, settings
        self.class_sizes = {l: len(ix) for l, ix in by_length.items()}
        self.class_bytes, self.class_counts = class_bytes, class_counts
        self.searcher = searcher
        self._shrink = (lambda ratios: np.mean(np.minimum(ratios, 1.0))) if settings.mean_shrink else np.median
        self._pieces: dict[tuple, np.ndarray] = {}  # a slot's features by its piece of a guess; see fields
        self._kept: dict[tuple, tuple] = {}  # (spacing, factorizable answers) -> (Fields, search); see counted
        self._packed: dict[tuple, tuple] = {}  # a count's packed slots and their orders by their keys (Fields.keys)
        self._shared: dict[tuple, object] = {}  # the searches' distinct rows of those slots; see TupleSearch
        self._is_probe: dict[str, bool] = {}
        self._listings: dict[tuple, np.ndarray] = {}  # (spacing, factorizable answers) -> its tuples, listed
        self._used: dict[tuple, list] = {}  # (spacing, factorizable answers) -> the words found in its tuples
        self._estimated: tuple | None = None  # the latest estimated level search and its key; see search

    def refresh(self, state: State) -> Count:
        """Count the phrases of each spacing, most likely first.

        ``state.weights`` holds each spacing's count as last known or estimated.  Counts only
        shrink as answers come in; a spacing not counted again is estimated to keep the mean share
        of their phrases those counted kept (capped at 1: an estimate never grows; the median with
        ``Settings.mean_shrink`` off).  Most spacings lose nearly all their phrases to an answer but
        the secret's keeps many: with the median a quarter of 3-word games listed the phrases
        without the secret's spacing, and each such game took half a guess more; so did the level
        search until it took the mean too (an eight-word game's secret spacing, counted at a share
        of 3%, fell to ``LEAST_WEIGHT`` the next guess and was not counted again for eight guesses,
        while the probes sorted out the words of another).  Counting stops
        once the estimates left are under ``mixture_share`` of the counted total, or once the
        estimated counts have drawn over ``Settings.guess_draws`` or ``guess_loose`` counts were
        loose (*drawn out*).  A loose count (no draw fitted: what half a fitting draw would mean,
        no measure) is left out of that
        total: eight Diceware words counted one loose spacing a guess, its count kept on top by
        that guess, for seven guesses while the secret's lay uncounted.  Spacings with no phrase
        are dropped.
        """
        for kept, most in ((self._kept, KEPT_SEARCHES), (self._listings, KEPT_LISTINGS), (self._used, KEPT_SEARCHES)):
            for old in list(kept)[: max(0, len(kept) - most)]:  # the oldest first
                del kept[old]
        self._packed.clear()  # slots shared by this count's spacings (their parents are kept with the searches)
        self._shared.clear()
        weights = state.weights.astype(float)
        done: dict[int, Search] = {}
        ratios: list[float] = []
        batch = self.settings.refresh_batch
        draws, drawn_out, held, loose = 0, False, 0, 0
        with ExitStack() as stack:
            # the level search's kernels are long and free of the GIL: a pool of the threads (2 cores:
            # 3.3 against 3.5-4.0 s a 4-word game); the tuple search's are short between numpy steps,
            # and in a pool the threads fought over the GIL (25-30% slower on 1 and on 2 threads)
            threads = numba.get_num_threads() if issubclass(self.searcher, LevelSearch) else 1
            run = stack.enter_context(ThreadPoolExecutor(threads)).map if threads > 1 else map
            # most likely first (a spacing's weight changes only once it is counted: one order serves)
            order = np.argsort(-weights, kind="stable")
            order = order[weights[order] > 0]
            total, sure = 0, 0  # sure: the counted phrases less loose counts (a guess, no draw fitted)
            while True:
                pending = order[len(done) :]
                shrink = float(self._shrink(ratios)) if ratios else 1.0
                rest = float(np.maximum(weights[pending] * shrink, LEAST_WEIGHT).sum()) if len(pending) else 0.0
                if not len(pending) or (sure > 0 and rest < self.settings.mixture_share * sure) \
                        or len(done) >= self.settings.max_counted:
                    break
                drawn_out = draws > self.settings.guess_draws or loose >= self.settings.guess_loose
                if drawn_out:
                    break
                picked = [int(i) for i in pending[:batch]]
                room = self.settings.guess_meetings - held
                for i, search in zip(picked, run(lambda i: self.search(state, state.lengths[i], room), picked)):
                    done[i] = search
                    draws += search.draws
                    held += search.meetings
                    total += search.count
                    sure += 0 if search.loose else search.count
                    loose += search.loose
                    ratios.append(search.count / weights[i])
                    weights[i] = search.count
        if len(pending):  # an estimate never rules a spacing out: only a count of zero does
            weights[pending] = np.maximum(weights[pending] * shrink, LEAST_WEIGHT)
        live = weights > 0
        state = replace(state, lengths=state.lengths[live], weights=weights[live])
        searches = [done[i] for i in sorted(done) if done[i].count]
        self._estimated = None  # (its levels can take hundreds of megabytes)
        return Count(searches, total, int(np.ceil(rest)) if len(pending) else 0, state, drawn_out)

    def search(self, state: State, lengths: np.ndarray, max_meetings: float = np.inf) -> Search:
        answers = tuple(o for o in state.observations if self.factorizable(o[0]))  # the others: see _listed
        spacing = tuple(lengths.tolist())
        fields, search = self.counted(spacing, answers)
        if fields is None:
            return self.nothing()
        if search is None:  # the level search, never kept: its estimate's draws change with every answer
            slots = [self.by_length[int(l)] for l in lengths]
            listed = self._carried(spacing, answers)
            if listed is not None:
                return ListedSearch(listed, lengths, slots)
            # an estimate is kept for the count that may follow it under the same answers (the end
            # game, its listing short of the secret, searches the spacings left and counts them all
            # again at the first estimate: six words of 20,000 built the same levels twice, 4-5 s);
            # it is the same search under any cap on the meetings (only an exact count holds them)
            key = (spacing, answers, len(state.observations))
            if self._estimated is not None and self._estimated[0] == key:
                return self._estimated[1]
            # only the words an exact count under earlier answers found in some fitting tuple
            used = self._used_before(spacing, answers)
            if used is not None:
                fields = fields._replace(slots=[s[u] for s, u in zip(fields.slots, used)])
                slots = [w[u] for w, u in zip(slots, used)]
            # (the slots' distinct rows shared with the count's other spacings, unless cut to the words used)
            sharing = {} if used is not None else dict(shared=self._shared, slot_keys=fields.keys,
                                                        slot_orders=fields.orders)
            search = self.searcher(fields.slots, fields.target, slot_words=slots, lengths=lengths,
                                   salt=len(state.observations), max_meetings=max_meetings,
                                   enough_hits=self.settings.estimate_hits, **sharing)
            if search.exact and search.count <= CARRY_BELOW:
                listed = search.all()
                if used is not None:  # (positions among the class's words)
                    listed = np.stack([u[listed[:, j]] for j, u in enumerate(used)], axis=1)
                self._listings[(spacing, answers)] = listed
                return search
            if not search.exact:
                self._estimated = (key, search)
            found = search.used_words()
            if found is not None and used is not None:
                found = [u[f] for u, f in zip(used, found)]
            if found is not None or used is not None:
                # (set as the latest: the entries kept are this game's latest whatever games came
                # before, and the guesses the same in any worker)
                self._used.pop((spacing, answers), None)
                self._used[(spacing, answers)] = found if found is not None else used
        return search

    def _used_before(self, spacing: tuple, answers: tuple) -> list[np.ndarray] | None:
        """The words of each slot of a spacing (positions among its class's words) that an exact
        count under these answers or the latest earlier ones found in some fitting tuple (see
        :meth:`LevelSearch.used_words`; carried on through the estimates after it), or None where
        no exact count found them."""
        for k in range(len(answers), -1, -1):
            found = self._used.get((spacing, answers[:k]))
            if found is not None:
                return found
        return None

    def _carried(self, spacing: tuple, answers: tuple) -> np.ndarray | None:
        """The tuples of a spacing listed under these answers, or under all but the last and
        filtered by it (see :mod:`~hbs.strategies.phrases.listed_search`); None where neither is."""
        found = self._listings.get((spacing, answers))
        if found is None and answers and (spacing, answers[:-1]) in self._listings:
            before, fields = self._listings[(spacing, answers[:-1])], self.fields(spacing, *answers[-1])
            found = self._listings[(spacing, answers)] = before[:0] if fields is None else filtered(before, fields)
        return found

    def counted(self, spacing: tuple, answers: tuple) -> tuple[Fields | None, TupleSearch | None]:
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
            before, parent = self._kept.get((spacing, answers[:-1])) or (self.fields_of(spacing, answers[:-1]), None)
            fields = None if before is None else self.with_answer(spacing, before, answers[-1])
        else:
            fields = self.no_fields(spacing)
        if fields is not None and self.searcher is TupleSearch:
            search = TupleSearch(fields.slots, fields.target, slot_words=slots, lengths=np.array(spacing),
                                 parent=parent if answers else None, shared=self._shared, slot_keys=fields.keys,
                                 slot_orders=fields.orders)
        self._kept[key] = (fields, search)
        return fields, search

    def fields_of(self, spacing: tuple, answers: tuple) -> Fields | None:
        """The fields of :meth:`counted` alone (no search built), from the first answer on."""
        fields: Fields | None = self.no_fields(spacing)
        for answer in answers:
            fields = self.with_answer(spacing, fields, answer)
            if fields is None:
                break
        return fields

    def with_answer(self, spacing: tuple, fields: Fields, answer: tuple) -> Fields | None:
        """``fields`` and those one more factorizable answer sets, packed after them (None when it
        contradicts the spacing)."""
        found = self.fields(spacing, *answer)
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

    def no_fields(self, spacing: tuple) -> Fields:
        """The fields of no answer: one zero word a row."""
        keys = tuple(zip(spacing, word_offsets(np.array(spacing)).tolist()))
        return Fields(0, [np.zeros((self.class_sizes[l], 1), np.uint64) for l in spacing], np.zeros(1, np.uint64), keys,
                      [np.arange(self.class_sizes[l]) for l in spacing])  # equal rows: in index order

    def factorizable(self, guess: str) -> bool:
        found = self._is_probe.get(guess)
        if found is None:
            if len(self._is_probe) > FEATURE_CACHE:
                self._is_probe.clear()
            found = self._is_probe[guess] = probes.is_factorizable(guess, self.sat)
        return found

    def nothing(self) -> Search:
        """A search that finds no phrase (its slots empty, their orders given: sorting them would
        compile ``row_order`` for a call from Python, in a real game, where no other call is)."""
        return self.searcher([np.zeros((0, 1), np.uint64)] * self.n, np.zeros(1, np.uint64),
                             slot_orders=[np.zeros(0, np.int64)] * self.n)

    def fields(self, spacing: tuple, guess: str, black: int, white: int) -> list | None:
        """:func:`probes.fields` of an answer under a spacing; each slot's features kept by its
        piece of the guess (shared by the spacings with a word of that length there)."""
        if len(self._pieces) > FEATURE_CACHE:
            self._pieces.clear()
        features = probes.word_features(guess, spacing, [self.class_bytes[l] for l in spacing],
                                        [self.class_counts[l] for l in spacing], self._pieces)
        return probes.fields(features, guess, black, white, spacing)
