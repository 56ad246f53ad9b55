"""The level-by-level counting search: word tuples of any length whose packed features sum to a target.

:class:`~hbs.strategies.phrases.packing.TupleSearch` lists one side's word tuples (up to two words a side):
for five to eight words those lists would hold billions of rows.  Here each side of the phrase is
*counted* slot by slot instead.  Level ``k`` of a side holds the distinct packed sums of its first
``k`` slots that can still reach the target, with how many word tuples give each sum; a sum can
still reach it when every field lies between ``target - (the most the other slots can add)`` and
``target - (the least they can add)``.  The two sides meet on the target:
``count = sum over a of count_left(a) * count_right(target - a)``.

A tuple is drawn by walking down the levels from a meeting pair: at each level a (sum one level
down, distinct word row of the slot) is chosen in proportion to the tuples behind it, then one word
of that row.  Listing walks every branch.  Counts are ``float64``: exact below ``2**53`` (every count
this module lists or samples without replacement), weights beyond.
"""

from __future__ import annotations

import hashlib

import numpy as np

from hbs.strategies.phrases.level_sums import combine
from hbs.strategies.phrases.level_walks import (branches, complete, descend, guide, positions, positions_into,
                                                sorted_positions, used_steps)
from hbs.strategies.phrases.four_way import meet_four
from hbs.strategies.phrases.meeting import drawn_meetings, join, meeting_weights
from hbs.strategies.phrases.packing import GUARD, pack, unpacked
from hbs.strategies.phrases.rows import _Distinct, _distinct
from hbs.strategies.phrases.sum_table import build_filter, build_table, found_rows


#: Below this many tuples (times the draw) a sample is drawn without replacement from the full list.
LIST_FACTOR = 8


#: Steps (sums of the smaller side times middle sums) of an exact count; beyond, it is estimated.
WORK_BUDGET = 1e7


#: A count over the work budget but within ``FEW_BUDGET`` steps (a search given its own budget:
#: that budget) is counted exactly where it finds at most ``FEW_MEETINGS`` meetings and its join
#: takes at most ``FEW_STEPS`` steps (a lookup, or a bucket found; predicted from 4,096 pairs before
#: the join starts, see ``meeting.meet``), estimated otherwise: once few phrases fit, an exact count
#: lists them and the end game picks among them by expected guesses, where an estimate draws some
#: (and its draws, rare hits, cost more than the count).  The join's steps, not the nominal ones
#: (left sums times middle sums), are what its time follows: 3-5 ns a step, 0.2-0.5 s to bucket
#: the right side; the nominal steps overstate them 1.1 to 5 times.  2·10^8 steps (in place of
#: 10^8 nominal ones): six Diceware words 133 and 145 guesses on seeds 21 and 22 against 134 and
#: 147, eight 104 and 104 against 108 and 109, five the same 236 and 231; 4·10^8: six 130 and 145,
#: but guesses of 2.8 s.  Six words and more (``LONG_FEW_STEPS``, of ``LONG_SLOTS`` slots): 6·10^8,
#: where six Diceware words took 130, 144, 278, 281 guesses on seeds 21-24 against 132, 148, 282,
#: 283 (13.88 a phrase against 14.08) and their slowest guesses 1.4-2 times as long; five words
#: the same 234 and 230 on seeds 21 and 22 and slower, so they keep 2·10^8.  Seven words and
#: more (``LONGER_FEW_STEPS``, of ``LONGER_SLOTS``): 10^9, where eight Diceware words took 95, 103,
#: 98, 93 guesses on seeds 21-24 (four phrases each) against 97, 104, 99, 94, and seven 76 and 77
#: on seeds 21 and 22 against 78 and 79, their slowest guesses about as slow (2·10^9: eight words
#: 92 on seed 21, but a guess of 22 s).
#: ``FEW_BUDGET`` (10^10 nominal steps, from 10^8) spares the prediction (0.07-0.1 s a search with
#: two million right sums) where the join, at a fifth of its nominal steps, would still be over.
#: Nor is the join started where a sample of its pairs meets over ``FEW_MEETINGS`` times by a
#: margin (``meeting.meets_over``): over 20 five-word games, 80 of the 95 joins tried here were
#: cut short there, 0.1 s each (five words 12-15% less time a game, the same guesses).
FEW_MEETINGS, FEW_BUDGET, FEW_STEPS = 1e5, 1e10, 2e8
LONG_SLOTS, LONG_FEW_STEPS = 6, 6e8
LONGER_SLOTS, LONGER_FEW_STEPS = 7, 1e9


#: An exact count of more meetings than this keeps none where its sides were joined whole: its
#: draws are found again (``meeting.Joined``, ``meeting.drawn_meetings``), the same ones.  A count
#: holds at least as many tuples as meetings: this is over ``USED_MEETINGS``, ``FEW_MEETINGS``, the
#: most a listing is carried at (``listed_search.CARRY_BELOW``) and ``LIST_FACTOR`` times a sample,
#: so such a count is only ever drawn from (a listing finds its meetings again).
KEPT_MEETINGS = 1 << 17


#: Draws of the estimate: first, at most, and the hits that are enough (by default: eight words
#: stop at fewer, ``settings.ESTIMATE_HITS``).
DRAWS, MAX_DRAWS, ENOUGH_HITS = 1 << 16, 1 << 21, 4000


#: Draws after which an estimate none of whose draws fit stops drawing (its last round would draw
#: three times as many): eight words' loose end game drew 4.2 million a search, about none hitting.
FUTILE_DRAWS = 1 << 20


#: When no draw fits and the exact count would take over this many times the budget, the search
#: is ``loose`` (see :meth:`LevelSearch.sample`) instead.
LOOSE_ABOVE = 3


#: Rows of the middle's slots past its second (every row of each with every row of the others) that
#: a search met as four lists (see ``_met_four``) lists at most.
FOUR_WAY_ROWS = 1 << 20


#: Steps (sums of a level below times the slot's rows, every level past a part's first) that
#: :meth:`LevelSearch.used_words` takes at most, and the meetings it starts from at most.
USED_STEPS, USED_MEETINGS = 2e7, 1e5


#: Slots a side holds at most (its last level's sums, counted, can number millions); the middle
#: takes the rest.
SIDE_SLOTS = 2


#: A middle slot beyond the first ``SIDE_SLOTS`` is counted into a level only while that takes at
#: most this many steps (sums below times the slot's rows); otherwise it is *deferred*: drawn
#: alone, and the count estimated (seven words' third level would grow to tens of millions of sums).
LEVEL_BUDGET = 4e6


#: A side's levels that took over this many steps to build (40 ns a step where sums repeat, up to
#: 300 where nearly all are distinct) are where a guess's time goes: an estimated count's probe then
#: sorts out that side's widest slot (see ``LevelSearch.focus``).
FOCUS_STEPS = 2e7


#: A side's level that would take over this many steps is not built: its slot is deferred (drawn
#: alone, the count estimated) and the probes sort that slot out (see ``LevelSearch.focus``).
#: So is one whose level would hold over ``SIDE_SUMS`` sums (see ``_by_buckets``; about 60 bytes a
#: sum at its peak): four words of 100,000 give pair levels of hundreds of millions of sums, which
#: take minutes and more memory than a worker has; five of 20,000 built four of about ten million a
#: guess late in a game (2-2.5 s each on a slow day: under ``hbs run`` a game drew 18 s of its 30 s
#: bank).  8·10^6 (from 1.6·10^7): five words of 20,000 the same guesses, at most 6.3 s a guess
#: against 18.3; five of 100,000 49 guesses against 48 on three phrases, 6.8 s against 19.0
#: (5·10^6: 56 guesses); the other schemes measured (five, six and eight words of 7,776, six of
#: 2,048, four of 10,000 and of 100,000) played the same guesses.
SIDE_STEPS, SIDE_SUMS = 1e8, 8e6


def _few_steps(slots: int) -> float:
    """The most steps a join of few meetings may take, by the slots of the phrase (see ``FEW_STEPS``)."""
    if slots >= LONGER_SLOTS:
        return LONGER_FEW_STEPS
    return LONG_FEW_STEPS if slots >= LONG_SLOTS else FEW_STEPS


def _narrowed(distinct: list[_Distinct], goal: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Drop the distinct rows of each slot that no tuple can use (a field above the target less the
    least the other slots add, or below the target less the most they add), until none drops.
    Returns each slot's least and most field values (``int64[n, F]`` twice), or None when a slot empties."""
    fields = [d.fields for d in distinct]
    while True:
        if any(len(f) == 0 for f in fields):
            return None
        mins = np.array([f.min(axis=0) for f in fields])
        maxs = np.array([f.max(axis=0) for f in fields])
        dropped = False
        for j, (d, f) in enumerate(zip(distinct, fields)):
            high = goal - (mins.sum(axis=0) - mins[j])
            low = goal - (maxs.sum(axis=0) - maxs[j])
            keep = ((f <= high) & (f >= low)).all(axis=1)
            if not keep.all():
                d.keys, d.sizes, d.starts = d.keys[keep], d.sizes[keep], d.starts[keep]
                fields[j] = d.fields = f[keep]
                dropped = True
        if not dropped:
            return mins, maxs


def _join_key(keys: tuple[np.ndarray, ...], counts: tuple[np.ndarray, ...], target: np.ndarray) -> tuple | None:
    """A join's key among a count's searches (see ``SpacingCounts``' shared dict): a digest of its
    three sides' sums and counts and the target, or None where hashing them would take about as
    long as the join (a sum hashed costs about a step: more sums than the join's nominal steps).
    Spacings of a count often meet the same sums: early in a seven-word game, 12 of a guess's 38
    joins and 9 of another's 18 (0.5 s of 1.7)."""
    if sum(len(k) for k in keys) > len(keys[0]) * len(keys[1]):
        return None
    digest = hashlib.blake2b(digest_size=16)
    for part in (*keys, *counts, target):
        digest.update(np.array(part.shape, dtype=np.int64).tobytes())
        digest.update(np.ascontiguousarray(part).tobytes())
    return "joined", digest.digest()


def _fields(packed: np.ndarray) -> np.ndarray:
    """``int64[W, 8K]``: every field of packed rows (see ``packing.unpacked``)."""
    return unpacked(packed)


class _Side:
    """One side's levels: ``keys[k]``, ``counts[k]``, ``table(k)`` after its first ``k`` slots
    (``first``: the first slot's distinct row behind each sum of level 1; ``steps``: what building
    the levels past the first took, sums below times the slot's rows)."""

    def __init__(self, words: int):
        self.slots: list[int] = []
        self.keys = [np.zeros((1, words), dtype=np.uint64)]
        self.counts = [np.ones(1)]
        self.tables: list[np.ndarray | None] = [None]
        self.firsts: list[np.ndarray | None] = [None]  # level k's sums' first steps (see combine; k >= 2)
        self.first = np.zeros(0, dtype=np.int64)
        self.steps = 0
        self.deferred: list[int] = []  # slots whose level would take over SIDE_STEPS steps or SIDE_SUMS sums

    def add(self, slot: int, d: _Distinct, high: np.ndarray, low: np.ndarray, max_sums: float = np.inf) -> bool:
        """The next level: the sums so far with one more slot's rows, every field within
        ``low``..``high`` (``int64[F]``); False (and no level) where it would hold over ``max_sums``."""
        if not self.slots:  # the slot's own rows within the bounds, in their order
            f = d.fields
            self.first = np.flatnonzero(((f <= high) & (f >= low)).all(axis=1))
            keys, counts = d.keys[self.first], d.sizes[self.first].astype(np.float64)
            table, firsts = None, None
        else:
            level = combine(self.keys[-1], self.counts[-1], d.keys, d.sizes.astype(np.float64),
                            _packed(high), _packed(low), max_sums=max_sums, table=False)
            if level is None:
                return False
            self.steps += len(self.keys[-1]) * len(d.keys)
            keys, counts, table, firsts = level
        self.slots.append(slot)
        self.keys.append(keys)
        self.counts.append(counts)
        self.tables.append(table)
        self.firsts.append(firsts)
        return True

    def table(self, k: int) -> np.ndarray:
        """Level ``k``'s hash table (see ``sum_table.build_table``), built the first time it is asked
        for: a walk down asks for those below the top, a lookup of the rest for the right side's top;
        the others (the left side's and the middle's tops, millions of sums) are never built."""
        if self.tables[k] is None:
            self.tables[k] = build_table(self.keys[k])
        return self.tables[k]

    def walk(self, states: np.ndarray, distinct: list[_Distinct], u: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Rows of the side's slots for each top-level sum in ``states``: one drawn path each (with
        ``u``, ``float[len(states), levels]``) or every path (without; then also which state each
        path came from).  Returns ``(int64[P, levels] distinct rows, int64[P] source)``."""
        levels = len(self.slots)
        source = np.arange(len(states), dtype=np.int64)
        rows = np.zeros((len(states), levels), dtype=np.int64)
        for k in range(levels, 1, -1):
            d = distinct[self.slots[k - 1]]
            level = (self.keys[k], self.counts[k], self.firsts[k], self.keys[k - 1], self.counts[k - 1], self.table(k - 1),
                     d.keys, d.sizes.astype(np.float64))
            if u is not None:
                # (a column made contiguous: one compiled kernel, whether one state is drawn or many)
                states, rows[:, k - 1] = descend(states, np.ascontiguousarray(u[:, k - 1]), *level)
            else:
                src, states, row = branches(states, *level)
                rows, source = rows[src], source[src]
                rows[:, k - 1] = row
        if levels:
            rows[:, 0] = self.first[states]
        return rows, source


def _packed(fields: np.ndarray) -> np.ndarray:
    """Bounds (``int64[F]``) packed as a sum is, each within 0..255.  (``np.clip`` took 20 µs, a
    level search packs two a level.)"""
    return pack(np.minimum(np.maximum(fields, 0), 255).astype(np.uint8)[None])[0]


class LevelSearch:
    """All word tuples whose packed features sum to ``target``: count, sample, list (any number of slots).

    Same interface as :class:`~hbs.strategies.phrases.packing.TupleSearch`: ``slots`` is a list of packed
    feature arrays, one per word slot (``uint64[W_j, K]``).  The slots with fewest distinct rows form
    the *middle* (one slot, or all but ``2 * SIDE_SLOTS`` for longer phrases); the others are split
    into a left and a right side.  All three are counted level by level.  A tuple is a *meeting*
    (left sum, middle sum, right sum) plus a path down each.

    Every meeting is found (``exact``) by trying each middle sum with each sum of the smaller side,
    unless that takes more than ``budget`` steps (default ``WORK_BUDGET``; the middle of a game of five words or more, where
    every word is still possible and the sums hardly repeat) and finds more than a few meetings or
    would take long (``FEW_BUDGET``, ``FEW_MEETINGS``, ``FEW_STEPS``; ``LONG_FEW_STEPS`` for six slots
    and more, ``LONGER_FEW_STEPS`` for seven and more).
    Then the count is estimated and tuples
    drawn by importance: (small-side sum, middle sum) pairs are drawn in proportion to the tuples
    behind them, each weighted by the other side's tuples that complete it, and kept in proportion to
    that weight.  An estimated search cannot list its tuples.  So is one where a slot was *deferred*
    (drawn alone in the estimate rather than counted into a level): a middle slot past the second
    (``LEVEL_BUDGET``) or a side's second slot (``SIDE_STEPS``, ``SIDE_SUMS``).  The count is also
    estimated where the exact meetings would number over ``max_meetings`` (32 bytes each, held with
    the search: eight words of 2,048 held 2.5 million a search, 24 searches a guess, 3 GB).
    Where no draw fits and an exact count would take too long, the sums are met as four lists
    (:meth:`_met_four`, :mod:`~hbs.strategies.phrases.four_way`) before the count is called loose.
    """

    #: The module's ``WORK_BUDGET`` and ``FEW_BUDGET``, and the join's sizes (``meeting.meet``'s
    #: ``plain_below``, ``bucket_sums`` and ``reach_pairs``), where not None.
    #: Set-up's warm-up plays a small game with them lowered (:class:`EstimatingSearch`,
    #: :class:`JoiningSearch`, :class:`FourListSearch`): its counts then take the paths of a long game.
    work_budget: float | None = None
    few_budget: float | None = None
    join_sizes: dict | None = None
    #: a loose estimate meets the four lists before it draws (:class:`FourListSearch`)
    four_first = False

    def __init__(self, slots: list[np.ndarray], target: np.ndarray, slot_words: list[np.ndarray] | None = None,
                 lengths: np.ndarray | None = None, budget: float | None = None, salt: int = 0,
                 max_meetings: float = np.inf, shared: dict | None = None, slot_keys: tuple | None = None,
                 slot_orders: list | None = None, enough_hits: int = ENOUGH_HITS):
        self.slot_words, self.lengths = slot_words, lengths
        self._enough_hits = enough_hits  # (see _estimate)
        self.n = len(slots)
        self.exact = True
        self.loose = False  # estimated with no fitting draw: samples are loose (see sample)
        self.four_lists = False  # estimated by meeting four lists (see _met_four)
        self.draws = 0  # the estimate's draws, all rounds
        self._listed: np.ndarray | None = None  # every tuple, once listed (see all)
        self._costly = False  # the count's work was over its budget
        # (each slot's distinct rows shared by the spacings counted after the same answers, as the
        # tuple search's, under the slot's key; a copy of them narrowed, see _narrowed)
        keys, orders = slot_keys or (None,) * self.n, slot_orders or (None,) * self.n
        self._distinct = [_distinct(s, 0, shared, key, order).own() for s, key, order in zip(slots, keys, orders)]
        self._count = 0.0
        self._meetings = tuple(np.zeros(0, dtype=np.int64) for _ in range(3))
        self._weights = np.zeros(0)
        #: an exact count's meetings not kept (see KEPT_MEETINGS): how many, the tuples met up to the
        #: end of each left sum (meeting.Joined.ends) and the target, to find its draws again
        self._met, self._ends, self._target = 0, None, target
        #: middle slots drawn alone rather than counted into a level (see LEVEL_BUDGET), and their
        #: distinct rows behind each meeting (``int64[meetings, deferred]``)
        self._deferred: list[int] = []
        self._deferred_rows = np.zeros((0, 0), dtype=np.int64)
        goal = _fields(target[None, :])[0]
        bounds = _narrowed(self._distinct, goal)
        order = sorted(range(self.n), key=lambda j: (len(self._distinct[j].keys), j))
        #: the slots of the middle: those with fewest distinct rows that can still fit (narrowed:
        #: a word the probes sorted out, of a common length, otherwise sat on a side, and six
        #: Diceware words met 1.8 million sums with each middle sum), one, or all but four
        self.middle = order[: max(1, self.n - 2 * SIDE_SLOTS)]
        if bounds is None:
            return
        mins, maxs = bounds
        others = order[len(self.middle) :][::-1]  # most rows first
        self._left, self._mid, self._right = (_Side(len(target)) for _ in range(3))
        plan = [(self._mid, j) for j in self.middle]
        plan += [(self._left, j) for j in others[: (len(others) + 1) // 2]]
        plan += [(self._right, j) for j in others[(len(others) + 1) // 2 :]]
        for side, j in plan:
            steps = len(side.keys[-1]) * len(self._distinct[j].keys) if side.slots else 0
            if side is self._mid and (self._deferred or (len(side.slots) >= SIDE_SLOTS and steps > LEVEL_BUDGET)):
                self._deferred.append(j)
                continue
            rest = [i for i in range(self.n) if i not in side.slots + [j]]
            high = goal - mins[rest].sum(axis=0)
            if (high < 0).any():
                return
            mid = side is self._mid
            too_wide = not mid and steps > SIDE_STEPS  # (a side's second slot: see SIDE_STEPS)
            max_sums = np.inf if mid else SIDE_SUMS
            if too_wide or not side.add(j, self._distinct[j], high, goal - maxs[rest].sum(axis=0), max_sums):
                side.deferred.append(j)  # drawn alone
                self._deferred.append(j)
        if len(self._right.keys[-1]) < len(self._left.keys[-1]):  # enumerate the smaller side
            self._left, self._right = self._right, self._left
        work = len(self._left.keys[-1]) * len(self._mid.keys[-1])
        few_budget = (FEW_BUDGET if self.few_budget is None else self.few_budget) if budget is None else budget
        budget = (WORK_BUDGET if self.work_budget is None else self.work_budget) if budget is None else budget
        sizes = self.join_sizes or {}
        if self._deferred:  # (the count can only be estimated)
            self._estimate(target, salt, True)
            return
        few = budget < work <= few_budget  # counted exactly only if few fit, soon (see FEW_BUDGET)
        self._costly = work > budget  # (see used_words)
        if work > budget and not few and self._estimate(target, salt, work > LOOSE_ABOVE * budget):
            return
        right = self._right  # (its top level's table: built if a join of it whole asks for it)
        sides = self._left.keys[-1], self._mid.keys[-1], right.keys[-1], lambda: right.table(-1), target
        counts = self._left.counts[-1], self._mid.counts[-1], right.counts[-1]
        # (few: not joined where surely more than a few meet, see meeting.meets_over)
        cap = min(max_meetings, FEW_MEETINGS) if few else max_meetings
        # (a join met by another spacing of this count: the same sums, counts and target, whole)
        key = None if few or shared is None else _join_key(sides[:3], counts, target)
        found = shared.get(key) if key is not None else None
        if found is None or found.met > cap:  # (over the cap: cut short, as the join would be)
            found = join(*sides, cap, _few_steps(self.n) if few else np.inf, over=cap if few else None, **sizes,
                         counts=counts, keep=KEPT_MEETINGS)
            if key is not None and found.whole:
                shared[key] = found
        if not found.whole and few:  # more than a few: estimated, or (no draw fits) counted whole after all
            if self._estimate(target, salt, work > LOOSE_ABOVE * budget):
                return
            found = join(*sides, max_meetings, **sizes, counts=counts, keep=KEPT_MEETINGS)
        if not found.whole:  # (so many meetings: draws fit often, the estimate is quick)
            self._estimate(target, salt, True)
            return
        if found.met > len(found.left):  # (not kept: see meeting.Joined)
            self._met, self._ends = found.met, found.ends
            self._count = float(found.ends[-1])
            return
        ai, di, bi = found.left, found.middle, found.right
        self._meetings = (ai, di, bi)
        self._weights = meeting_weights(*counts, ai, di, bi)
        self._count = float(self._weights.sum())

    def _estimate(self, target: np.ndarray, salt: int, loose: bool) -> bool:
        """The estimated count and the weighted draws (see the class).  When no draw fits: False
        (count exactly), or with ``loose`` (an exact count would take too long) the count of half
        a fitting draw and loose draws (see :meth:`sample`)."""
        # seeded by the target and the salt: the same inputs give the same estimate, each answer fresh draws
        digest = hashlib.blake2b(target.tobytes() + salt.to_bytes(8, "little"), digest_size=8).digest()
        rng = np.random.default_rng(int.from_bytes(digest, "little"))
        if self.four_first and loose and self._met_four(target, rng):
            return True
        left_w = np.cumsum(self._left.counts[-1])
        mid_w = np.cumsum(self._mid.counts[-1])
        deferred = [self._distinct[j] for j in self._deferred]
        e_keys = np.concatenate([d.keys for d in deferred]) if deferred else self._mid.keys[-1][:0]
        offsets = np.cumsum([0] + [len(d.keys) for d in deferred])
        e_w = [np.cumsum(d.sizes.astype(np.float64)) for d in deferred]
        scale = left_w[-1] * mid_w[-1] * float(np.prod([w[-1] for w in e_w]))  # the tuples drawn among
        mid_g, e_g = guide(mid_w), [guide(w) for w in e_w]
        b_filter = build_filter(self._right.keys[-1])
        found, hits, drawn, draws = [], 0, 0, DRAWS
        while True:  # rounds of draws, each three times all before it, until enough hit
            # (the left side's draws in order, its sums read in order)
            a = sorted_positions(left_w, _sorted_uniforms(rng, draws), left_w[-1])
            m = positions(mid_w, mid_g, rng.random(draws), mid_w[-1])
            e = np.empty((draws, len(deferred)), dtype=np.int64)
            for c, w in enumerate(e_w):
                positions_into(w, e_g[c], rng.random(draws), w[-1], e, c, offsets[c], len(w) - 1)
            b = complete(self._left.keys[-1], a, self._mid.keys[-1], m, e_keys, e, self._right.keys[-1],
                         self._right.table(-1), b_filter, target)
            drawn += draws
            hit = b >= 0
            found.append((a[hit], m[hit], e[hit], b[hit]))
            hits += len(found[-1][0])
            if hits >= self._enough_hits or drawn >= MAX_DRAWS or (not hits and drawn >= FUTILE_DRAWS):
                break
            draws = 3 * drawn
        self.draws += drawn
        if not hits:
            if not loose:
                return False
            if self._met_four(target, rng):
                return True
            self.exact, self.loose = False, True
            self._count = max(1.0, scale * float(self._right.counts[-1].mean()) / (2 * drawn))
            return True
        self.exact = False
        a, m, e, b = (np.concatenate(part) for part in zip(*found))
        weights = self._right.counts[-1][b]
        self._count = float(scale * weights.sum() / drawn)
        self._meetings = (a, m, b)
        self._deferred_rows = e - offsets[:-1]
        self._weights = weights
        return True

    def _met_four(self, target: np.ndarray, rng: np.random.Generator) -> bool:
        """Where no draw fitted: the count estimated and fitting tuples found by meeting four lists
        (:mod:`~hbs.strategies.phrases.four_way`): the left side with the middle's first two slots
        (its level 2), the right side with the rows of the middle's other slots (counted into
        levels or deferred), every row of each with every row of the others.  False where a side's
        slot is deferred, those rows number over ``FOUR_WAY_ROWS``, or no fitting tuple was found."""
        keep = min(len(self._mid.slots), SIDE_SLOTS)
        upper = self._mid.slots[keep:]
        rest = upper + self._deferred
        if self._left.deferred or self._right.deferred \
                or np.prod([float(len(self._distinct[j].keys)) for j in rest]) > FOUR_WAY_ROWS:
            return False
        goal = _fields(target[None, :])[0]
        rows = np.zeros((1, 0), dtype=np.int64)
        keys, counts = np.zeros((1, len(target)), dtype=np.uint64), np.ones(1)
        for j in rest:  # (every row of a slot with every row of the slots before)
            d = self._distinct[j]
            rows = np.concatenate([np.repeat(rows, len(d.keys), axis=0),
                                   np.tile(np.arange(len(d.keys)), len(rows))[:, None]], axis=1)
            keys = np.repeat(keys, len(d.keys), axis=0) + np.tile(d.keys, (len(keys), 1))
            counts = np.repeat(counts, len(d.keys)) * np.tile(d.sizes.astype(np.float64), len(counts))
            fit = (((target | GUARD) - keys) & GUARD == GUARD).all(axis=1)  # (every field within the target's)
            rows, keys, counts = rows[fit], keys[fit], counts[fit]
        met = meet_four((self._left.keys[-1], self._left.counts[-1]), (self._mid.keys[keep], self._mid.counts[keep]),
                        (self._right.keys[-1], self._right.counts[-1]), (keys, counts), target, goal, rng)
        if met is None:
            return False
        a, m, b, e, weights, count = met
        if upper:  # the middle's sum of its slots counted into levels, found in its last level
            sums = self._mid.keys[keep][m]
            for c, j in enumerate(upper):
                sums = sums + self._distinct[j].keys[rows[e, c]]
            m = found_rows(self._mid.table(len(self._mid.slots)), self._mid.keys[-1], sums)
            # (a fitting tuple's sums lie within every level's bounds: each is found)
            assert (m >= 0).all(), "a fitting middle sum missing from its level"
        self.exact, self.four_lists = False, True
        self._meetings = (a, m, b)
        self._deferred_rows = rows[e, len(upper) :]
        self._weights = weights
        self._count = count
        return True

    def used_words(self) -> list[np.ndarray] | None:
        """Of an exact count: each slot's words (positions among its ``slots`` rows, ascending)
        that some fitting tuple holds, found level by level down from the sums that met (every
        step from a level below tried: :func:`level_walks.used_steps`); None where those steps
        would number over ``USED_STEPS`` (a middle of three slots or more), where over
        ``USED_MEETINGS`` sums met, where the count took no more work than its budget (early in a
        game: nearly every word is used, and counting again is cheap), or where the count is
        estimated."""
        if not self.exact:
            return None
        if not self.count:
            return [np.zeros(0, dtype=np.int64) for _ in range(self.n)]
        if self.meetings > USED_MEETINGS or not self._costly:
            return None
        sides = tuple(zip((self._left, self._mid, self._right), self._kept()))
        if sum(len(side.keys[k - 1]) * len(self._distinct[side.slots[k - 1]].keys)
               for side, _ in sides for k in range(2, len(side.slots) + 1)) > USED_STEPS:
            return None
        rows = {}
        for side, met in sides:
            states = np.unique(met)
            for k in range(len(side.slots), 1, -1):
                keys = side.keys[k][states]
                used_prev, used_d = used_steps(side.keys[k - 1], self._distinct[side.slots[k - 1]].keys, keys,
                                               build_table(keys))
                rows[side.slots[k - 1]] = np.flatnonzero(used_d)
                states = np.flatnonzero(used_prev)
            if side.slots:
                rows[side.slots[0]] = side.first[states]
        out = []
        for j in range(self.n):
            d = self._distinct[j]
            out.append(np.sort(np.concatenate([d.members[d.starts[r] : d.starts[r] + d.sizes[r]] for r in rows[j]]
                                              or [np.zeros(0, dtype=np.int64)])))
        return out

    @property
    def focus(self) -> int:
        """The slot whose rows a probe should sort out while the count is estimated: the widest
        slot (most distinct rows; the first on a tie) of the middle, which the exact meeting's
        steps grow with, or, where a side's level took over ``FOCUS_STEPS`` steps to build, of
        that side, which the time then goes to (four words of 100,000: a pair level of 6.7 million
        sums, 49 s a guess, with the letters over the middle word; 2-8 s with them over the side)."""
        def widest(slots: list[int]) -> int:
            return max(slots, key=lambda j: len(self._distinct[j].keys))

        sides = (self._left, self._right)
        if any(side.deferred for side in sides):
            return widest([j for side in sides for j in side.deferred])
        steps, side = max((side.steps, i) for i, side in enumerate(sides))
        return widest(sides[side].slots) if steps > FOCUS_STEPS else widest(self.middle)

    @property
    def focus_choices(self) -> list[int]:
        """The slots a probe may sort out instead of :attr:`focus` (the breaker takes the one its
        probe tells most about): those of the middle and of the enumerated side, whose rows the exact
        meeting's steps grow with, where the focus is a middle of at most two slots and no slot is
        deferred; else the focus alone (a deferred slot must be sorted out first; so must a slow
        side; and with a middle of three or four slots, eight Diceware words took 125 guesses
        against 118 on four phrases with the choice)."""
        if not self._middle_free() or len(self.middle) > 2:
            return [self.focus]
        return sorted(set(self.middle) | set(self._left.slots))

    @property
    def joint_focus(self) -> list[int]:
        """The slots a probe may lie over all at once: a middle of three or four slots, none
        deferred, holding the focus (their black count no side adds to: the middle's last level
        keeps only the sums that give it); else none."""
        if not self._middle_free() or len(self.middle) <= 2:
            return []
        return sorted(self.middle)

    def _middle_free(self) -> bool:
        """The focus lies in the middle and no slot is deferred: a probe may sort out the middle's
        words rather than the focus alone (:attr:`focus_choices`, :attr:`joint_focus`)."""
        return not self._deferred and self.focus in self.middle

    @property
    def meetings(self) -> int:
        """How many meetings (or fitting draws) the search holds (or found, where it keeps none)."""
        return self._met if self._ends is not None else len(self._meetings[0])

    def _tops(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The three top levels' sums, the right one's table and the target: a join's inputs."""
        return self._left.keys[-1], self._mid.keys[-1], self._right.keys[-1], self._right.table(-1), self._target

    def _kept(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The meetings, found again where they were not kept (see ``KEPT_MEETINGS``)."""
        if self._ends is not None and not len(self._meetings[0]):
            self._meetings = join(*self._tops(), plain_below=np.iinfo(np.int64).max)[:3]
        return self._meetings

    @property
    def count(self) -> int:
        """How many word tuples fit (exact below ``2**53`` when ``exact``, an estimate otherwise)."""
        return int(round(self._count))

    def _words(self, rows: dict[int, np.ndarray], u: np.ndarray | None) -> np.ndarray:
        """Word indices (per slot) from distinct rows, a drawn member each (``u``) or every member."""
        n_paths = len(next(iter(rows.values())))
        if u is not None:
            out = np.empty((n_paths, self.n), dtype=np.int64)
            for j, r in rows.items():
                d = self._distinct[j]
                pick = np.minimum((u[:, j] * d.sizes[r]).astype(np.int64), d.sizes[r] - 1)
                out[:, j] = d.members[d.starts[r] + pick]
            return out
        radix = np.stack([self._distinct[j].sizes[rows[j]] for j in range(self.n)], axis=1).astype(np.int64)
        per_path = radix.prod(axis=1)
        path = np.repeat(np.arange(n_paths), per_path)
        rest = np.arange(len(path)) - np.repeat(np.cumsum(per_path) - per_path, per_path)
        out = np.empty((len(path), self.n), dtype=np.int64)
        for j in range(self.n - 1, -1, -1):
            d = self._distinct[j]
            digit = rest % radix[path, j]
            rest = rest // radix[path, j]
            out[:, j] = d.members[d.starts[rows[j][path]] + digit]
        return out

    def _rows(self, meetings: np.ndarray | None, u: np.ndarray | None) -> dict[int, np.ndarray]:
        """Distinct rows of every slot along paths from the meetings ``meetings`` (one drawn path
        each, with ``u``) or along every path from every meeting (listed)."""
        found = self._kept() if meetings is None else tuple(m[meetings] for m in self._kept())
        out = self._walked(found, u)
        if self._deferred:  # (estimated: drawn paths only)
            drawn = self._deferred_rows if meetings is None else self._deferred_rows[meetings]
            out.update({j: drawn[:, c] for c, j in enumerate(self._deferred)})
        return out

    def _walked(self, found: tuple[np.ndarray, np.ndarray, np.ndarray], u: np.ndarray | None) -> dict[int, np.ndarray]:
        """Distinct rows of the slots counted into levels, walked down from (left, middle, right)
        sums ``found``: one drawn path each (``u``) or every path of each side with every path of
        the others from the same meeting."""
        walked = []
        column = 0  # u's columns: the left side's, the right side's, the middle's
        for side, states in ((self._left, found[0]), (self._right, found[2]), (self._mid, found[1])):
            levels = len(side.slots)
            walked.append(side.walk(states, self._distinct, None if u is None else u[:, column : column + levels]))
            column += levels
        (lrows, lsrc), (rrows, rsrc), (mrows, msrc) = walked
        if u is None:  # every path of each side with every path of the others, from the same meeting
            li, ri = _pair_up(lsrc, rsrc)
            lrows, rrows, src = lrows[li], rrows[ri], lsrc[li]
            pi, mi = _pair_up(src, msrc)
            lrows, rrows, mrows = lrows[pi], rrows[pi], mrows[mi]
        out = {}
        for side, rows in ((self._left, lrows), (self._right, rrows), (self._mid, mrows)):
            out.update({j: rows[:, k] for k, j in enumerate(side.slots)})
        return out

    def all(self) -> np.ndarray:
        """``int64[count, n]`` every fitting tuple (slot rows' word positions), in a fixed order."""
        if not self.exact:
            raise ValueError("an estimated search cannot list its tuples")
        if self._listed is None:
            self._listed = self._words(self._rows(None, None), None) if self.count else np.zeros((0, self.n), dtype=np.int64)
        return self._listed

    def loose_sample(self, k: int, rng: np.random.Generator) -> np.ndarray:
        """``k`` tuples of words drawn part by part: a sum of each side's and of the middle's last
        level (in proportion to the tuples behind it) walked down to its slots' rows, and each
        deferred slot's row alone, from the rows that could fit.  The tuples need not fit, but a
        probe designed on them still sorts the slots' rows out (for a search no draw of whose
        estimate fitted, or whose few hits say little).  Drawn part by part, not slot by slot: a
        middle pair whose sums the answers had cut to 213 still drew each word from its
        hundreds of rows, and the probes sorted out a middle word again and again while the
        sides kept the exact count out of reach."""
        rows = {}
        for j, d in enumerate(self._distinct):
            cum = np.cumsum(d.sizes)
            rows[j] = np.minimum(np.searchsorted(cum, rng.random(k) * cum[-1], side="right"), len(cum) - 1)
        sides = (self._left, self._mid, self._right) if hasattr(self, "_left") else ()
        if sides and all(len(side.counts[-1]) for side in sides):  # (else no levels, or an empty one)
            found = []
            for side in sides:
                cum = np.cumsum(side.counts[-1])
                found.append(np.minimum(np.searchsorted(cum, rng.random(k) * cum[-1], side="right"), len(cum) - 1))
            rows.update(self._walked((found[0], found[1], found[2]), rng.random((k, self.n))))
        return self._words(rows, rng.random((k, self.n)))

    def sample(self, k: int, rng: np.random.Generator) -> np.ndarray:
        """``k`` fitting tuples drawn uniformly (all of them when fewer; without replacement when the
        count is small, with replacement beyond; by importance when estimated; loosely, see
        :meth:`loose_sample`, when ``loose``)."""
        if self.loose:
            return self.loose_sample(k, rng)
        if self.exact and self.count <= LIST_FACTOR * k:
            return from_list(self.all(), k, rng)
        if self._ends is not None:  # (the meetings not kept: the draws' found again, the same)
            u = np.sort(rng.random(k) * self._ends[-1])
            counts = (side.counts[-1] for side in (self._left, self._mid, self._right))
            found = drawn_meetings(*self._tops(), *counts, self._ends, u)
            return self._words(self._walked(found, rng.random((k, self.n))), rng.random((k, self.n)))
        cum = np.cumsum(self._weights)
        meetings = np.minimum(np.searchsorted(cum, rng.random(k) * cum[-1], side="right"), len(cum) - 1)
        meetings.sort()
        return self._words(self._rows(meetings, rng.random((k, self.n))), rng.random((k, self.n)))


class EstimatingSearch(LevelSearch):
    """The level search of a set-up's warm-up game (``PhraseBreaker.warm``) that every count is
    estimated in, drawn (loose where no draw fits), as in the middle of a long game."""

    work_budget = few_budget = 0.0


class JoiningSearch(LevelSearch):
    """The level search of a set-up's warm-up game that tries every count as a few phrases (a
    sample of its pairs first) and joins the sides in buckets, each after the middle sums' reach,
    as at the end of a long game."""

    work_budget, few_budget = 0.0, np.inf
    join_sizes = {"plain_below": 1, "bucket_sums": 2, "reach_pairs": 0}


class FourListSearch(LevelSearch):
    """The level search of a set-up's warm-up game that estimates every count by meeting four lists
    (:meth:`LevelSearch._met_four`), as late in a long game where no draw fits: six Diceware words
    reached them in a real game only, and on an empty cache compiled them there (a guess of 3.3 s
    where it takes 1.1)."""

    work_budget = few_budget = 0.0
    four_first = True


def from_list(everything: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """``k`` rows of a listed count (all of them when fewer), without replacement, in list order."""
    if len(everything) <= k:
        return everything
    return everything[np.sort(rng.choice(len(everything), size=k, replace=False))]


def _sorted_uniforms(rng: np.random.Generator, k: int) -> np.ndarray:
    """``k`` uniform draws in increasing order, as the order statistics of ``k`` uniforms are
    distributed (the running sums of ``k + 1`` exponential draws over their total): in O(k), where
    sorting four million draws took 0.3-0.4 s, a third of a five-word guess's estimates.  (In one
    array, summed and scaled in place: four arrays of 25 MB each, new memory whose pages the
    system faulted in one by one, took 0.17-0.23 s for 3.1 million draws of a seven-word guess
    where one takes 0.03 s; the same values.)"""
    sums = rng.standard_exponential(k + 1)
    np.cumsum(sums, out=sums)
    draws = sums[:-1]
    draws /= sums[-1]
    # below 1 (a last exponential under 2**-53 of the total rounds the largest to 1: a position one
    # past the left side's sums)
    return np.minimum(draws, np.nextafter(1.0, 0.0), out=draws)


def _pair_up(lsrc: np.ndarray, rsrc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices of every (left path, right path) pair from the same meeting (sources ascending)."""
    r_start = np.searchsorted(rsrc, lsrc, side="left")
    r_end = np.searchsorted(rsrc, lsrc, side="right")
    per = r_end - r_start
    li = np.repeat(np.arange(len(lsrc), dtype=np.int64), per)
    ri = np.arange(int(per.sum()), dtype=np.int64) - np.repeat(np.cumsum(per) - per, per) + np.repeat(r_start, per)
    return li, ri
