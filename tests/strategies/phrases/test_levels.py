"""The level-by-level search against brute force: every tuple whose features sum to the target,
counted and listed exactly, drawn from only those; and its estimate (the middle of long phrases)
close to the true count, with draws that fit and cover the tuples evenly."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from hbs.strategies.phrases import level_sums, level_walks, levels, meeting, sum_table
from hbs.strategies.phrases.levels import LevelSearch
from hbs.strategies.phrases.packing import pack


def instance(seed: int, n_min: int = 1, n_max: int = 6, rows: int = 7, value: int = 4, fields: int = 10):
    """Random per-slot features and a target that some tuple reaches (or, now and then, an empty slot)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(n_min, n_max + 1))
    fields = int(rng.integers(1, fields + 1))  # up to two packed words
    sizes = rng.integers(0 if seed % 9 == 0 else 1, rows, n)
    feats = [rng.integers(0, value, (s, fields)).astype(np.uint8) for s in sizes]
    if all(sizes):
        chosen = [int(rng.integers(0, s)) for s in sizes]
        target = sum(feats[j][chosen[j]].astype(int) for j in range(n))
    else:
        target = np.zeros(fields, int)
    return feats, target


def brute(feats, target) -> set[tuple[int, ...]]:
    return {t for t in itertools.product(*[range(len(f)) for f in feats])
            if (sum(feats[j][t[j]].astype(int) for j in range(len(feats))) == target).all()}


def search(feats, target, **kw) -> LevelSearch:
    return LevelSearch([pack(f) for f in feats], pack(target[None].astype(np.uint8))[0], **kw)


@pytest.mark.parametrize("seed", range(60))
def test_count_and_list_equal_brute_force(seed):
    feats, target = instance(seed)
    fit = brute(feats, target)
    found = search(feats, target)
    listed = [tuple(t) for t in found.all().tolist()]
    assert found.exact and found.count == len(fit)
    assert len(listed) == len(set(listed)) and set(listed) == fit
    if fit:
        assert {tuple(t) for t in found.sample(5, np.random.default_rng(seed)).tolist()} <= fit


@pytest.mark.parametrize("seed", range(40))
def test_a_count_that_keeps_no_meetings_counts_lists_and_draws_the_same(seed, monkeypatch):
    """An exact count whose meetings are not kept (``KEPT_MEETINGS`` 0: every one) has the count,
    the list, the words used and the draws (a few of many: drawn by weight, not from the list)
    of one that keeps them, for the same generator: the guesses stay the same."""
    feats, target = instance(seed, n_min=3, rows=12)
    kept = search(feats, target)
    monkeypatch.setattr(levels, "KEPT_MEETINGS", 0)
    lazy = search(feats, target)
    assert lazy.exact and lazy.count == kept.count == len(brute(feats, target))
    assert lazy.meetings == kept.meetings
    if not kept.count:
        return
    assert lazy._ends is not None and not len(lazy._meetings[0])  # (none kept: found again where asked)
    k = max(1, kept.count // (2 * levels.LIST_FACTOR))
    for draw in range(3):
        assert np.array_equal(lazy.sample(k, np.random.default_rng(draw)), kept.sample(k, np.random.default_rng(draw)))
    assert np.array_equal(lazy.all(), kept.all())


@pytest.mark.parametrize("seed", range(20))
def test_a_join_met_again_in_a_count_is_not_joined_again_and_gives_the_same(seed, monkeypatch):
    """Searches of one count (a ``shared`` dict) whose sides and middle meet the same sums, counts
    and target join them once (unless the join has fewer steps than sums to hash): the second
    search runs no join and counts, lists and draws what a search alone does; under a cap below
    those meetings it joins again and is cut short (an estimate, as alone)."""
    feats, target = instance(seed, n_min=6, n_max=6, rows=12)
    alone = search(feats, target)
    if not alone.exact or not alone.meetings:
        return
    sides = alone._left, alone._mid, alone._right
    keyed = levels._join_key(tuple(s.keys[-1] for s in sides), tuple(s.counts[-1] for s in sides), target) is not None
    assert keyed == (sum(len(s.keys[-1]) for s in sides) <= len(sides[0].keys[-1]) * len(sides[1].keys[-1]))
    joins = []
    monkeypatch.setattr(levels, "join", lambda *a, **k: joins.append(1) or meeting.join(*a, **k))
    shared = {}
    first, again = (search(feats, target, shared=shared) for _ in range(2))
    assert len(joins) == (1 if keyed else 2) and any(key[0] == "joined" for key in shared) == keyed
    for found in (first, again):
        assert found.exact and found.count == alone.count and found.meetings == alone.meetings
        assert np.array_equal(found.all(), alone.all())
        drawn = found.sample(3, np.random.default_rng(seed))
        assert np.array_equal(drawn, alone.sample(3, np.random.default_rng(seed)))
    capped = search(feats, target, shared=shared, max_meetings=alone.meetings - 1)
    assert len(joins) == (2 if keyed else 3) and not capped.exact


@pytest.mark.parametrize("seed", range(12))
def test_searches_that_share_their_slots_rows_each_narrow_their_own(seed):
    """Spacings counted after the same answers share each slot's distinct rows under its key
    (``shared``, as ``SpacingCounts`` passes them); each search narrows a copy of its own to its
    target, so the next, another target and another order of the slots, still finds its every
    tuple (the shared rows narrowed in place left later searches short)."""
    rng = np.random.default_rng(seed)
    feats, _ = instance(seed, n_min=4, n_max=4, rows=12, fields=6)
    if not all(len(f) for f in feats):
        feats = [f if len(f) else rng.integers(0, 4, (3, f.shape[1])).astype(np.uint8) for f in feats]
    shared = {}
    for _ in range(6):
        order = rng.permutation(4)
        slots = [feats[j] for j in order]
        target = sum(f[int(rng.integers(len(f)))].astype(int) for f in slots)
        found = search(slots, target, shared=shared, slot_keys=tuple(("slot", int(j)) for j in order))
        assert found.exact and found.count == len(brute(slots, target))
        assert {tuple(t) for t in found.all().tolist()} == brute(slots, target)


@pytest.mark.parametrize("seed", list(range(60)) + [200 + s for s in range(8)])
def test_the_words_used_are_those_of_the_fitting_tuples(seed, monkeypatch):
    """An exact count over its work budget: its words found in some fitting tuple, slot by slot,
    against a brute force (seeds of 200 on: seven and eight slots, a middle of three or four); a
    count within its budget and an estimate tell none."""
    feats, target = instance(seed) if seed < 200 else instance(seed, n_min=7, n_max=8, rows=5, value=2, fields=3)
    fit = brute(feats, target)
    if fit:
        assert search(feats, target).used_words() is None  # (within the budget)
        assert search(feats, target, budget=0).used_words() is None  # (estimated)
    monkeypatch.setattr(levels, "WORK_BUDGET", -1)
    used = search(feats, target).used_words()
    assert [u.tolist() for u in used] == [sorted({t[j] for t in fit}) for j in range(len(feats))]


@pytest.mark.parametrize("seed", range(12))
def test_the_estimate_draws_only_fitting_tuples_and_is_close(seed):
    feats, target = instance(100 + seed, n_min=3, n_max=6, rows=7, value=3, fields=3)
    fit = brute(feats, target)
    assert len(fit) >= 1
    found = search(feats, target, budget=0)  # every count estimated
    assert not found.exact
    assert abs(found.count - len(fit)) <= 0.1 * len(fit)
    drawn = Counter(tuple(t) for t in found.sample(20 * len(fit), np.random.default_rng(seed)).tolist())
    assert set(drawn) <= fit
    # evenly: every tuple drawn near its share (20 expected each; a loose bound a skewed draw breaks)
    assert len(drawn) >= 0.9 * len(fit)
    assert max(drawn.values()) < 60


@pytest.mark.parametrize("seed", range(12))
def test_a_count_of_more_meetings_than_its_cap_is_estimated(seed):
    """``max_meetings``: a search whose exact count would hold more meetings is estimated (close,
    draws that fit), one within it counts exactly; ``meet`` itself stops past the cap."""
    feats, target = instance(100 + seed, n_min=3, n_max=6, rows=7, value=3, fields=3)
    fit = brute(feats, target)
    exact = search(feats, target)
    assert exact.exact and exact.count == len(fit) and exact.meetings >= 1
    assert search(feats, target, max_meetings=exact.meetings).exact
    capped = search(feats, target, max_meetings=exact.meetings - 1)
    assert not capped.exact and abs(capped.count - len(fit)) <= 0.1 * len(fit)
    assert {tuple(t) for t in capped.sample(50, np.random.default_rng(seed)).tolist()} <= fit
    left, mid, right = exact._left, exact._mid, exact._right
    args = (left.keys[-1], mid.keys[-1], right.keys[-1], right.table(-1), pack(target[None].astype(np.uint8))[0])
    *every, whole = meeting.meet(*args)
    assert whole and len(every[0]) == exact.meetings
    *some, whole = meeting.meet(*args, exact.meetings - 1)
    assert not whole


@pytest.mark.parametrize("seed", range(12))
def test_a_count_over_the_budget_is_exact_where_few_fit(monkeypatch, seed):
    """Over the work budget, a count within ``FEW_BUDGET`` steps is exact where it finds at most
    ``FEW_MEETINGS`` meetings (and lists its tuples), estimated where it finds more; the control:
    with no such budget it is estimated."""
    feats, target = instance(100 + seed, n_min=3, n_max=6, rows=7, value=3, fields=3)
    fit = brute(feats, target)
    meetings = search(feats, target).meetings
    monkeypatch.setattr(levels, "WORK_BUDGET", 0)
    found = search(feats, target)
    assert found.exact and found.count == len(fit) and {tuple(t) for t in found.all().tolist()} == fit
    monkeypatch.setattr(levels, "FEW_MEETINGS", meetings - 1)
    estimated = search(feats, target)
    assert not estimated.exact and abs(estimated.count - len(fit)) <= 0.1 * len(fit)
    monkeypatch.setattr(levels, "FEW_MEETINGS", meetings)
    assert search(feats, target).exact
    monkeypatch.setattr(levels, "FEW_BUDGET", 0)
    assert not search(feats, target).exact


@pytest.mark.parametrize("seed", range(6))
def test_six_slots_and_more_join_exactly_within_a_larger_step_budget(monkeypatch, seed):
    """Over the work budget, a join of six slots or more may take ``LONG_FEW_STEPS`` steps where
    fewer slots take ``FEW_STEPS``: with the first budget ample and the second nil, a six-slot
    count is exact (the tuples of brute force) and a five-slot one estimated; the control: with
    both nil, the six-slot count is estimated too."""
    monkeypatch.setattr(levels, "WORK_BUDGET", 0)
    monkeypatch.setattr(levels, "FEW_STEPS", 0)
    monkeypatch.setattr(levels, "LONG_FEW_STEPS", np.inf)
    six = instance(300 + seed, n_min=6, n_max=6, rows=5, value=3, fields=3)
    five = instance(300 + seed, n_min=5, n_max=5, rows=5, value=3, fields=3)
    found = search(*six)
    assert found.exact and {tuple(t) for t in found.all().tolist()} == brute(*six)
    assert not search(*five).exact
    monkeypatch.setattr(levels, "LONG_FEW_STEPS", 0)
    assert not search(*six).exact


@pytest.mark.parametrize("seed", [s for s in range(400, 420) if s % 9][:6])  # (no empty slot)
def test_seven_slots_and_more_join_exactly_within_a_larger_step_budget_still(monkeypatch, seed):
    """Seven slots and more may take ``LONGER_FEW_STEPS`` steps where six take ``LONG_FEW_STEPS``:
    with the first ample and the second nil, a seven-slot count is exact (the tuples of brute
    force) and a six-slot one estimated; the control: with both nil, seven slots are estimated too."""
    monkeypatch.setattr(levels, "WORK_BUDGET", 0)
    monkeypatch.setattr(levels, "FEW_STEPS", 0)
    monkeypatch.setattr(levels, "LONG_FEW_STEPS", 0)
    monkeypatch.setattr(levels, "LONGER_FEW_STEPS", np.inf)
    seven = instance(seed, n_min=7, n_max=7, rows=4, value=3, fields=3)
    six = instance(seed, n_min=6, n_max=6, rows=4, value=3, fields=3)
    found = search(*seven)
    assert found.exact and {tuple(t) for t in found.all().tolist()} == brute(*seven)
    assert not search(*six).exact
    monkeypatch.setattr(levels, "LONGER_FEW_STEPS", 0)
    assert not search(*seven).exact


def test_the_estimate_is_the_same_for_the_same_inputs_and_fresh_with_a_salt():
    feats, target = instance(7, n_min=4, n_max=6, rows=7, value=3, fields=3)
    one, two = search(feats, target, budget=0), search(feats, target, budget=0)
    other = search(feats, target, budget=0, salt=1)
    draw = lambda s: s.sample(50, np.random.default_rng(3)).tolist()  # noqa: E731
    assert one.count == two.count and draw(one) == draw(two)
    assert not np.array_equal(one._meetings[0], other._meetings[0])  # other draws behind the estimate


@pytest.mark.parametrize("caps", [dict(WORK_BUDGET=0, FEW_BUDGET=0), dict(WORK_BUDGET=0, FEW_MEETINGS=1)])
def test_an_estimated_count_is_the_same_under_any_cap_on_its_meetings(monkeypatch, caps):
    """What lets the counting reuse an estimate made with no cap on the meetings where a cap is
    asked (``SpacingCounts.search``): a search estimated with none (estimated at once, or after a
    join of more than ``FEW_MEETINGS``) is estimated alike (count, draws, sample) with a cap of 0,
    1, 5 or a thousand meetings; the control: a search that came out exact is not under a cap of 0."""
    for name, value in caps.items():
        monkeypatch.setattr(levels, name, value)
    draw = lambda s: s.sample(30, np.random.default_rng(1)).tolist()  # noqa: E731
    estimated = exact = exact_changed = 0
    for seed in range(30):
        feats, target = instance(500 + seed, n_min=3, n_max=6, rows=7, value=3, fields=3)
        free = search(feats, target, salt=seed)
        if not free.count:
            continue
        if free.exact:
            exact += 1
            exact_changed += not search(feats, target, salt=seed, max_meetings=0).exact
            continue
        estimated += 1
        for cap in (0, 1, 5, 1000):
            capped = search(feats, target, salt=seed, max_meetings=cap)
            assert (capped.exact, capped.loose, capped.count, capped.draws) == (False, free.loose, free.count, free.draws)
            assert draw(capped) == draw(free)
    assert estimated >= 5 and exact_changed == exact


def test_an_estimate_none_of_whose_draws_fit_stops_drawing_early(monkeypatch):
    """An estimate whose first ``FUTILE_DRAWS`` draws all miss stops there, loose, where it drew
    four times as many (eight Diceware words' loose end game: about none of 4.2 million hit); one
    whose draws hit, however rarely, draws as before.  Five slots of even fields and a target with
    an odd one: within every field's bounds, yet no tuple fits (brute force)."""
    rng = np.random.default_rng(7)
    feats = [(2 * rng.integers(0, 3, (8, 2))).astype(np.uint8) for _ in range(5)]
    target = sum(f[0].astype(int) for f in feats) + np.array([1, 0])
    assert not brute(feats, target)
    found = search(feats, target, budget=0)
    assert found.loose and found.draws == levels.FUTILE_DRAWS
    rng = np.random.default_rng(0)
    rare = [rng.integers(0, 4, (7, 6)).astype(np.uint8) for _ in range(6)]
    rare_target = sum(f[0].astype(int) for f in rare)
    assert len(brute(rare, rare_target)) == 1  # of 117,649 tuples
    hit = search(rare, rare_target, budget=0)  # (its few hits come within the first rounds)
    assert not hit.loose and hit.draws == 4 * levels.FUTILE_DRAWS
    # the control: drawing on past the most draws (a last round three times all before it), as before
    early = levels.FUTILE_DRAWS
    monkeypatch.setattr(levels, "FUTILE_DRAWS", np.inf)
    again = search(feats, target, budget=0)
    assert again.loose and again.draws == 4 * early > levels.MAX_DRAWS
    rare_again = search(rare, rare_target, budget=0)
    assert (rare_again.count, rare_again.draws) == (hit.count, hit.draws)


def test_an_estimate_stops_at_the_first_round_that_draws_its_hits(monkeypatch):
    """``enough_hits`` (``Settings.estimate_hits``: eight words stop at 2,000): an estimate draws
    rounds, each three times all before it, until that many draws fit.  Rounds of 64 here: five
    slots where about three draws in four fit stop at the first round for 40 hits, and draw 16,384
    for the default's 4,000; both counts near the brute force's."""
    monkeypatch.setattr(levels, "DRAWS", 64)
    for seed in (1, 5, 19, 34):
        feats, target = instance(900 + seed, n_min=5, n_max=5, rows=8, value=3, fields=3)
        fit = len(brute(feats, target))
        few, many = search(feats, target, budget=0, enough_hits=40), search(feats, target, budget=0)
        assert not few.exact and not many.exact
        assert few.draws == 64 and many.draws == 64 * 4**4  # (64, then 192, 768, 3,072, 12,288)
        assert abs(few.count - fit) <= 0.25 * fit and abs(many.count - fit) <= 0.02 * fit


def test_an_estimated_search_refuses_to_list():
    feats, target = instance(3, n_min=4, n_max=6, rows=7, value=3, fields=3)
    with pytest.raises(ValueError, match="cannot list"):
        search(feats, target, budget=0).all()


@pytest.mark.parametrize("seed", range(8))
def test_a_middle_of_several_slots_counts_and_lists_like_brute_force(seed):
    """Seven and eight words: the middle holds three or four slots, counted level by level too."""
    feats, target = instance(200 + seed, n_min=7, n_max=8, rows=5, value=2, fields=3)
    fit = brute(feats, target)
    found = search(feats, target)
    assert len(found.middle) == len(feats) - 4
    assert found.exact and found.count == len(fit)
    assert {tuple(t) for t in found.all().tolist()} == fit
    estimated = search(feats, target, budget=0)
    if fit:
        assert {tuple(t) for t in estimated.sample(20, np.random.default_rng(seed)).tolist()} <= fit


@pytest.mark.parametrize("seed", range(8))
def test_deferred_middle_slots_estimate_the_count_and_draw_only_fitting_tuples(seed, monkeypatch):
    """Seven and eight words in the middle of a game: a middle slot whose level would be too large
    is drawn alone (deferred); the estimate stays close and its draws fit and cover the tuples."""
    monkeypatch.setattr("hbs.strategies.phrases.levels.LEVEL_BUDGET", 0)
    feats, target = instance(300 + seed, n_min=7, n_max=8, rows=4, value=2, fields=4)
    fit = brute(feats, target)
    found = search(feats, target)
    if not fit:  # (an empty slot)
        assert found.count == 0
        return
    assert len(found._deferred) == len(feats) - 6
    assert not found.exact and not found.loose
    assert abs(found.count - len(fit)) <= 0.1 * len(fit)
    drawn = Counter(tuple(t) for t in found.sample(20 * len(fit), np.random.default_rng(seed)).tolist())
    assert set(drawn) <= fit
    assert len(drawn) >= 0.9 * len(fit) and max(drawn.values()) < 60


@pytest.mark.parametrize("cap", ["SIDE_STEPS", "SIDE_SUMS"])
@pytest.mark.parametrize("seed", range(8))
def test_a_side_slot_too_wide_to_pair_is_deferred_and_the_estimate_stays_close(seed, cap, monkeypatch):
    """Four to six words of a large list: a side's second slot whose pair level would take over
    SIDE_STEPS steps, or hold over SIDE_SUMS sums, is drawn alone (deferred): the count is estimated
    close to brute force, the draws fit and cover the tuples, and the focus is that slot (the
    probes sort it out)."""
    feats, target = instance(400 + seed, n_min=4, n_max=6, rows=7, value=3, fields=3)
    fit = brute(feats, target)
    assert not search(feats, target)._deferred  # control: under the default caps the slot is paired
    monkeypatch.setattr(f"hbs.strategies.phrases.levels.{cap}", 0)
    found = search(feats, target)
    if not fit:
        assert found.count == 0
        return
    assert len(found._deferred) == (1 if len(feats) == 4 else 2)
    assert found.focus in found._deferred
    assert not found.exact and not found.loose
    assert abs(found.count - len(fit)) <= 0.1 * len(fit)
    drawn = Counter(tuple(t) for t in found.sample(20 * len(fit), np.random.default_rng(seed)).tolist())
    assert set(drawn) <= fit
    assert len(drawn) >= 0.9 * len(fit) and max(drawn.values()) < 60


@pytest.mark.parametrize("steps, expected", [(float("inf"), "fewest"), (0, "most")])
def test_the_focus_is_the_middle_or_the_widest_slot_of_a_slow_side(steps, expected, monkeypatch):
    """The slot an estimated count's probe sorts out: the widest of the middle (four words: the slot
    with fewest distinct rows) while the sides' levels are quick to build; the widest slot of the
    side whose levels took over FOCUS_STEPS steps (four words: the widest of all, in the pair side)."""
    monkeypatch.setattr("hbs.strategies.phrases.levels.FOCUS_STEPS", steps)
    rng = np.random.default_rng(5)
    feats = [np.repeat(rng.permutation(d), 2)[:, None].astype(np.uint8) for d in (9, 3, 12, 6)]  # one field
    target = np.array([13])  # every row of every slot can fit (the others add 0 to at least 13)
    distinct = [len(np.unique(f, axis=0)) for f in feats]
    found = search(feats, target)
    assert found.count == len(brute(feats, target))
    assert found.focus == (int(np.argmin(distinct)) if expected == "fewest" else int(np.argmax(distinct)))


def test_the_middle_is_the_slots_with_fewest_rows_that_can_still_fit():
    """The middle (and the sides) are chosen on the rows left after narrowing: a slot of many rows
    the answers have nearly ruled out (a word sorted out by the probes, among words of a common
    length) is the middle, not the slot of fewest rows before narrowing (six Diceware words kept
    a sorted word on a side and met 1.8 million sums with each middle sum)."""
    wide = np.array([(v, k) for v in range(30) for k in range(2)], dtype=np.uint8)  # 60 rows, 2 can fit
    feats = [wide] + [np.stack([np.zeros(d), np.arange(d)], axis=1).astype(np.uint8) for d in (5, 6, 7, 8)]
    target = np.array([1, 10])
    found = search(feats, target)
    assert found.middle == [0]
    assert found.exact and found.count == len(brute(feats, target))


def reference_level(prev, prev_counts, rows, sizes, high, low):
    """``level_sums.combine`` by a dictionary: each in-bounds sum of (a sum below, a slot row), with
    the tuples behind it."""
    level: dict[tuple, float] = {}
    for p, d in itertools.product(range(len(prev)), range(len(rows))):
        s = prev[p].astype(int) + rows[d]
        if (s <= high).all() and (s >= low).all():
            level[tuple(s)] = level.get(tuple(s), 0.0) + prev_counts[p] * sizes[d]
    return level


@pytest.mark.parametrize("seed", range(40))
def test_a_level_is_every_in_bounds_sum_with_its_first_step(seed):
    """The bucketed aggregation (sums grouped by a few fields' values, each group in its own table)
    against a dictionary, across bucket counts: the steps per bucket range from thousands down to a
    handful, and one or several packed words."""
    rng = np.random.default_rng(seed)
    fields = int(rng.integers(1, 20))
    prev = rng.integers(0, 6, (int(rng.integers(1, 60)), fields)).astype(np.uint8)
    rows = rng.integers(0, 6, (int(rng.integers(1, 60)), fields)).astype(np.uint8)
    prev_counts = rng.integers(1, 5, len(prev)).astype(np.float64)
    sizes = rng.integers(1, 4, len(rows)).astype(np.float64)
    high = rng.integers(4, 12, fields)
    low = np.maximum(0, high - rng.integers(2, 12, fields))
    want = reference_level(prev, prev_counts, rows, sizes, high, low)
    first: dict[tuple, tuple[int, int]] = {}  # each sum's least (p, d)
    for p, d in itertools.product(range(len(prev)), range(len(rows))):
        first.setdefault(tuple(prev[p] + rows[d]), (p, d))
    for bucket_steps, dense_cells in itertools.product((1.0, 8.0, float(level_sums.BUCKET_STEPS)),
                                                       (0.0, float(level_sums.DENSE_CELLS))):
        keys, counts, table, firsts = level_sums.combine(pack(prev), prev_counts, pack(rows), sizes, levels._packed(high),
                                                         levels._packed(low), bucket_steps, dense_cells=dense_cells)
        got = {tuple(levels._fields(keys[i : i + 1])[0, :fields]): float(counts[i]) for i in range(len(keys))}
        assert len(got) == len(keys) and got == want
        assert all(sum_table._lookup(table, keys, keys[i]) == i for i in range(len(keys)))
        # each sum's first step: the least (p, d) that gives it
        for i, f in enumerate(firsts):
            assert divmod(int(f), len(rows)) == first[tuple(levels._fields(keys[i : i + 1])[0, :fields])]


def assert_boxed_is_hashed(prev, prev_counts, rows, sizes, high, low, bucket_steps, want):
    """The level found in its boxes is the level found by hash, row for row, and ``want``'s sums."""
    args = (pack(prev), prev_counts, pack(rows), sizes, levels._packed(high), levels._packed(low), bucket_steps)
    hashed = level_sums.combine(*args, dense_cells=0.0)
    boxed = level_sums.combine(*args)
    for h, b in zip(hashed, boxed):
        assert h.dtype == b.dtype and np.array_equal(h, b)
    keys, counts = boxed[0], boxed[1]
    fields = prev.shape[1]
    assert {tuple(levels._fields(keys[i : i + 1])[0, :fields]): float(counts[i]) for i in range(len(keys))} == want


@pytest.mark.parametrize("seed", range(30))
def test_a_level_found_in_its_boxes_is_the_hashed_level_row_for_row(seed):
    """Sums found by their place in a bucket's box (``level_sums._cells``) where the fields within
    the bounds span few values (every box here of at most ``SMALL_BOX`` cells): the same sums,
    counts and first steps in the same order as found by hash, and the dictionary's, over bounds
    that cut some fields and buckets of a few steps to all of them; sums below that stop at
    every field's least and most value."""
    rng = np.random.default_rng(3000 + seed)
    fields = int(rng.integers(1, 7))
    prev = rng.integers(0, 5, (int(rng.integers(1, 300)), fields)).astype(np.uint8)
    rows = rng.integers(0, 5, (int(rng.integers(1, 300)), fields)).astype(np.uint8)
    prev[0], rows[-1] = 0, 4
    prev_counts = rng.integers(1, 5, len(prev)).astype(np.float64)
    sizes = rng.integers(1, 4, len(rows)).astype(np.float64)
    high = rng.integers(3, 9, fields)
    low = np.maximum(0, high - rng.integers(2, 9, fields))
    width = np.minimum(high, prev.max(0).astype(int) + rows.max(0)) - np.maximum(low, prev.min(0).astype(int) + rows.min(0)) + 1
    assert np.prod(np.maximum(width, 1)) <= level_sums.SMALL_BOX  # (so the box, not the hash, finds them)
    want = reference_level(prev, prev_counts, rows, sizes, high, low)
    for bucket_steps in (4.0, 64.0, 1e9):
        assert_boxed_is_hashed(prev, prev_counts, rows, sizes, high, low, bucket_steps, want)


@pytest.mark.parametrize("fields, most", [(5, 3), (9, 1)])
def test_a_boxed_level_that_outgrows_its_arrays_in_a_bucket_is_the_hashed_level(fields, most):
    """A level found in its boxes (``level_sums._dense_bucket``: counts and first steps gathered by
    cell, moved to the rows as a bucket ends) whose thousands of sums outgrow the first arrays
    inside one bucket, in one packed word and in two: row for row the level found by hash, and
    the dictionary's.  (Every box here holds at most ``SMALL_BOX`` cells, so the box is used.)"""
    rng = np.random.default_rng(fields)
    prev = rng.integers(0, most + 1, (300, fields)).astype(np.uint8)
    rows = rng.integers(0, most + 1, (280, fields)).astype(np.uint8)
    prev_counts = rng.integers(1, 5, len(prev)).astype(np.float64)
    sizes = rng.integers(1, 4, len(rows)).astype(np.float64)
    high, low = np.full(fields, 2 * most), np.zeros(fields, dtype=np.int64)
    assert (2 * most + 1) ** fields <= level_sums.SMALL_BOX
    want = reference_level(prev, prev_counts, rows, sizes, high, low)
    assert len(want) > 2 * 1024
    for bucket_steps in (256.0, 1e9):
        assert_boxed_is_hashed(prev, prev_counts, rows, sizes, high, low, bucket_steps, want)


@pytest.mark.parametrize("seed", range(6))
def test_a_level_of_many_sums_grows_its_arrays_to_the_same_level(seed):
    """A level of tens of thousands of sums outgrows its first arrays (1,024 rows) many times, its
    later arrays sized from the sums the steps so far project (``level_sums._room``): the same
    sums, counts and first steps, in the same order, whether a bucket holds few steps or many,
    and every sum the dictionary's."""
    rng = np.random.default_rng(500 + seed)
    fields = int(rng.integers(6, 14))
    prev = rng.integers(0, 5, (int(rng.integers(150, 260)), fields)).astype(np.uint8)
    rows = rng.integers(0, 5, (int(rng.integers(150, 260)), fields)).astype(np.uint8)
    prev_counts = rng.integers(1, 5, len(prev)).astype(np.float64)
    sizes = rng.integers(1, 4, len(rows)).astype(np.float64)
    high = np.full(fields, 7 + int(rng.integers(0, 2)))
    low = np.zeros(fields, dtype=np.int64)
    want = reference_level(prev, prev_counts, rows, sizes, high, low)
    assert len(want) > 8 * 1024
    built = [level_sums.combine(pack(prev), prev_counts, pack(rows), sizes, levels._packed(high),
                                levels._packed(low), bucket_steps) for bucket_steps in (64.0, 4096.0, 1e9)]
    for keys, counts, _, firsts in built:
        got = {tuple(levels._fields(keys[i : i + 1])[0, :fields]): float(counts[i]) for i in range(len(keys))}
        assert len(got) == len(keys) and got == want
    one = built[-1]  # one bucket: the sums in the order first met, whatever the arrays' growth
    first_met = list(dict.fromkeys(tuple(prev[p] + rows[d]) for p, d in itertools.product(range(len(prev)), range(len(rows)))
                                   if ((prev[p] + rows[d]) <= high).all()))
    assert [tuple(levels._fields(one[0][i : i + 1])[0, :fields]) for i in range(len(one[0]))] == first_met


def test_a_level_of_over_two_to_the_32_steps_is_not_built():
    """A bucket's table names a sum's row in 32 bits: ``combine`` gives None for a level of
    ``MAX_STEPS`` steps or more (70,000 sums x 70,000 rows; the caller then draws the slot alone),
    at once; the same rows, fewer of them, give their one sum."""
    zeros = np.zeros((70_000, 1), dtype=np.uint64)
    bounds = levels._packed(np.zeros(1, dtype=np.int64))
    assert level_sums.combine(zeros, np.ones(70_000), zeros, np.ones(70_000), bounds, bounds) is None
    keys, counts, _, firsts = level_sums.combine(zeros[:1], np.ones(1), zeros[:5], np.ones(5), bounds, bounds)
    assert keys.tolist() == [[0]] and counts.tolist() == [5.0] and firsts.tolist() == [0]


def test_a_level_s_arrays_grow_to_the_projected_sums():
    """``_room``: twice the rows before a tenth of the steps, then the projection and a tenth more,
    never under what is needed nor over four times the rows there were."""
    assert level_sums._room(1024, 1100, 5.0, 100.0) == 2048
    assert level_sums._room(1024, 1100, 50.0, 100.0) == int(1100 * 2 * 1.1 + 1024)
    assert level_sums._room(1024, 1100, 10.0, 100.0) == 4096  # projected 12,124: capped
    assert level_sums._room(1024, 5000, 99.0, 100.0) >= 5000
    assert level_sums._room(1 << 20, (1 << 20) + 1, 100.0, 100.0) == int(((1 << 20) + 1) * 1.1 + 1024)


@pytest.mark.parametrize("seed", range(20))
def test_a_level_over_its_sums_cap_is_not_built(seed):
    """``combine`` with ``max_sums``: None for every level over the cap; below a tenth of the cap
    (where the projection from the steps done cannot reach it) the whole level, as without a cap."""
    rng = np.random.default_rng(1000 + seed)
    fields = int(rng.integers(1, 12))
    prev = rng.integers(0, 6, (int(rng.integers(5, 60)), fields)).astype(np.uint8)
    rows = rng.integers(0, 6, (int(rng.integers(5, 60)), fields)).astype(np.uint8)
    ones_p, ones_r = np.ones(len(prev)), np.ones(len(rows))
    high, low = np.full(fields, 12), np.zeros(fields, int)
    want = reference_level(prev, ones_p, rows, ones_r, high, low)
    args = (pack(prev), ones_p, pack(rows), ones_r, levels._packed(high), levels._packed(low), 8.0)
    if len(want) > 1:
        assert level_sums.combine(*args, max_sums=len(want) - 1) is None
    keys, counts, _, _ = level_sums.combine(*args, max_sums=10 * len(want))
    assert len(keys) == len(want) and counts.sum() == len(prev) * len(rows)


@pytest.mark.parametrize("seed", range(30))
def test_guided_positions_are_numpys_searchsorted(seed):
    """``positions`` (a guide table, then a search in the needle's bucket) gives the positions
    ``np.searchsorted(..., side="right")`` gives: weights of one kind, of very different sizes,
    repeated sums, needles that hit a sum exactly, and needles sorted or not; fewer sums than the
    guide's buckets and more (300,000: one bucket a sum)."""
    rng = np.random.default_rng(seed)
    n = int(rng.choice([1, 2, 3, 7, 50, 1000, 20_000, 300_000]))
    kind = seed % 3
    weights = (rng.integers(1, 4, n).astype(float) if kind == 0 else
               np.exp(rng.normal(0, 8, n)) if kind == 1 else rng.random(n) * 1e12)
    cum = np.cumsum(weights)
    u = np.concatenate([rng.random(5000), [0.0, 1 - 2**-53, 0.5], cum[rng.integers(0, n, 200)] / cum[-1]])
    table = level_walks.guide(cum)
    for needles in (u, np.sort(u)):
        expected = np.searchsorted(cum, needles * cum[-1], side="right")
        assert np.array_equal(level_walks.positions(cum, table, needles, cum[-1]), expected)
        # written into a column of a wider array, at most the last sum's and offset
        out = np.full((len(needles), 3), -7, dtype=np.int64)
        level_walks.positions_into(cum, table, needles, cum[-1], out, 1, 1000, n - 1)
        assert np.array_equal(out[:, 1], 1000 + np.minimum(expected, n - 1))
        assert (out[:, [0, 2]] == -7).all()
    sorted_u = np.sort(u)  # (one walk along cum, for needles in order)
    assert np.array_equal(level_walks.sorted_positions(cum, sorted_u, cum[-1]),
                          np.searchsorted(cum, sorted_u * cum[-1], side="right"))


def test_sorted_uniforms_are_uniform_and_in_order():
    """The estimate's left draws, made in order without a sort: increasing, within (0, 1), and
    uniform (a Kolmogorov-Smirnov distance against the uniform law well inside its 1% bound;
    a deciles' count each within 4 standard deviations)."""
    rng = np.random.default_rng(3)
    for k in (1, 10, 100_000):
        u = levels._sorted_uniforms(rng, k)
        assert len(u) == k and (np.diff(u) >= 0).all() and u[0] > 0 and u[-1] < 1
    k = 100_000
    u = levels._sorted_uniforms(rng, k)
    grid = np.arange(1, k + 1) / k
    assert max(np.abs(u - grid).max(), np.abs(u - grid + 1 / k).max()) < 1.63 / np.sqrt(k)
    deciles = np.histogram(u, bins=10, range=(0, 1))[0]
    assert (np.abs(deciles - k / 10) < 4 * np.sqrt(k * 0.09)).all()


@pytest.mark.parametrize("k", [1, 7, 65_536])
def test_sorted_uniforms_summed_in_place_are_the_running_sums_over_their_total(k):
    """Summed and scaled in one array (``_sorted_uniforms``), the draws are, bit for bit, the
    exponentials' running sums over their total taken in fresh arrays from the same generator
    (what the estimate drew before: the same guesses)."""
    exponentials = np.random.default_rng(k).standard_exponential(k + 1)
    sums = np.cumsum(exponentials)
    expected = np.minimum(sums[:-1] / sums[-1], np.nextafter(1.0, 0.0))
    assert np.array_equal(levels._sorted_uniforms(np.random.default_rng(k), k), expected)

    class TinyLast:  # a last exponential under 2**-53 of the total (about 1e-10 a round of millions)
        def standard_exponential(self, size):
            drawn = np.random.default_rng(0).standard_exponential(size)
            drawn[-1] = 1e-10
            return drawn

    u = levels._sorted_uniforms(TinyLast(), 4_000_000)
    assert u[-1] < 1
    cum = np.cumsum(np.ones(10))
    assert level_walks.sorted_positions(cum, u[-3:], cum[-1]).max() < len(cum)  # (a left sum, not past them)


@pytest.mark.parametrize("seed", range(30))
def test_completing_draws_finds_the_right_row_of_the_scalar_rule(seed):
    """``complete`` against field-by-field arithmetic: a draw completes when the target less its
    left, middle and deferred rows has no field below zero and is a right row; drawn so that some
    do, some go below zero at each step (with right rows equal to what such a field wraps to), and
    some leave a residual that is no right row.  More draws than its chunk, and a last chunk part full."""
    rng = np.random.default_rng(seed)
    fields, deferred = int(rng.integers(1, 20)), int(rng.integers(0, 3))
    draws = int(rng.integers(1, 3 * level_walks.CHUNK + 7))
    left, mid, rows = (rng.integers(0, 5, (int(rng.integers(1, 40)), fields)) for _ in range(3))
    extra = rng.integers(0, 3, (int(rng.integers(1, 10)), fields))
    a, m = rng.integers(0, len(left), draws), rng.integers(0, len(mid), draws)
    e = rng.integers(0, len(extra), (draws, deferred))
    target = rng.integers(4, 16, fields)
    residual = target - left[a] - mid[m] - extra[e].sum(axis=1)
    # right rows: random ones, half the fitting residuals, and those that a field gone below zero
    # would wrap to (7 bits a field): a kernel that missed the fall would find them
    chosen = residual[rng.random(draws) < 0.5]
    right = np.unique(np.concatenate([rows, np.mod(chosen, 128)]), axis=0)
    b_keys = pack(right.astype(np.uint8))
    got = level_walks.complete(pack(left.astype(np.uint8)), a, pack(mid.astype(np.uint8)), m, pack(extra.astype(np.uint8)),
                          e, b_keys, sum_table.build_table(b_keys), sum_table.build_filter(b_keys),
                          levels._packed(target))
    # the scalar rule: every partial residual non-negative (so the full one is), then a row equal to it
    position = {tuple(r): i for i, r in enumerate(right)}
    want = [position.get(tuple(r), -1) if (r >= 0).all() else -1 for r in residual]
    assert got.tolist() == want


@pytest.mark.parametrize("seed", range(30))
def test_a_step_down_picks_in_proportion_to_the_tuples_behind_it(seed):
    """``descend`` against the scalar rule: the steps down from a sum (a row of the slot and the sum
    below it, ``sum - row``, where that is a sum of the level below) in the slot's order, each
    weighted by the tuples behind it; the uniform number ``u`` picks the first whose running weight
    passes ``u`` times the total (the last where rounding leaves none), at ``u`` 0, 1 and between."""
    rng = np.random.default_rng(seed)
    fields = int(rng.integers(1, 12))
    below = np.unique(rng.integers(0, 4, (int(rng.integers(1, 40)), fields)), axis=0)
    slot = np.unique(rng.integers(0, 3, (int(rng.integers(1, 20)), fields)), axis=0)
    counts, sizes = rng.integers(1, 9, len(below)).astype(float), rng.integers(1, 4, len(slot)).astype(float)
    sums = np.unique((below[:, None, :] + slot[None, :, :]).reshape(-1, fields), axis=0)
    states = rng.integers(0, len(sums), 50)
    u = np.concatenate([[0.0, np.nextafter(1.0, 0.0)], rng.random(48)])
    b_keys = pack(below.astype(np.uint8))
    position = {tuple(r): i for i, r in enumerate(below)}
    # the level's tuples and first steps (p * len(slot) + d), as combine keeps them
    steps_of = [[(position[tuple(x - r)], d) for d, r in enumerate(slot) if tuple(x - r) in position] for x in sums]
    tuples = np.array([sum(counts[p] * sizes[d] for p, d in steps) for steps in steps_of])
    firsts = np.array([min(p * len(slot) + d for p, d in steps) for steps in steps_of])
    parents, rows = level_walks.descend(states, u, pack(sums.astype(np.uint8)), tuples, firsts, b_keys, counts,
                                        sum_table.build_table(b_keys), pack(slot.astype(np.uint8)), sizes)
    for i, state in enumerate(states):
        steps = [(position[tuple(sums[state] - r)], d) for d, r in enumerate(slot) if tuple(sums[state] - r) in position]
        running = np.cumsum([counts[p] * sizes[d] for p, d in steps])
        k = next((k for k, w in enumerate(running) if w > u[i] * running[-1]), len(steps) - 1)
        assert (parents[i], rows[i]) == steps[k]


def test_loose_draws_take_the_middle_from_its_level_not_slot_by_slot():
    """Six words whose middle pair is held by the answers (fields 0 and 1: the pair's values add up
    to the target's, 4 of 16 pairs) while each middle word alone fits any of its rows: loose draws
    take the middle's sums from its level, so every drawn pair fits (slot by slot, as before, three
    draws in four did not: a six-word game probed a middle word whose pairs were already down to
    213 again and again, while the sides kept the exact count out of reach)."""
    rng = np.random.default_rng(5)
    pair = np.array([[0, 3], [1, 2], [2, 1], [3, 0]])
    feats = []
    for j in range(6):
        if j >= 4:  # the middle: fewest rows
            f = np.concatenate([pair, rng.integers(0, 3, (4, 1))], axis=1)
        else:
            f = np.concatenate([np.zeros((7, 2), int), rng.permutation(7)[:, None]], axis=1)  # 7 distinct rows
        feats.append(f.astype(np.uint8))
    target = np.array([3, 3, int(sum(f[0, 2] for f in feats))])
    found = search(feats, target)
    assert sorted(found.middle) == [4, 5]
    drawn = found.loose_sample(2000, np.random.default_rng(1))
    middle = feats[4][drawn[:, 4]].astype(int) + feats[5][drawn[:, 5]].astype(int)
    assert (middle[:, :2] == 3).all()
    # the control: word by word, the middle pair's first two fields fit a quarter of the time
    alone = [(a[:2] + b[:2] == 3).all() for a in feats[4].astype(int) for b in feats[5].astype(int)]
    assert sum(alone) == 4
    # and every slot's rows are drawn (none is left out of the sample)
    assert all(len(set(drawn[:, j].tolist())) > 1 for j in range(6))

