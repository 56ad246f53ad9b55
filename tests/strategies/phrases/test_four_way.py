"""Four lists met on a split of the fields (``four_way``), against brute force on small lists, and
the level search that falls back on it where no blind draw fits."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from hbs.strategies.phrases import four_way, levels
from hbs.strategies.phrases.four_way import Split, meet_four, quadruples_at, split_fields
from hbs.strategies.phrases.levels import LevelSearch, _fields
from hbs.strategies.phrases.packing import pack


def lists(seed: int, sizes=(30, 6, 25, 8), fields: int = 5, value: int = 5):
    """Four lists of packed sums with tuple counts, and a target one quadruple reaches."""
    rng = np.random.default_rng(seed)
    feats = [rng.integers(0, value, (n, fields)).astype(np.uint8) for n in sizes]
    counts = [rng.integers(1, 4, n).astype(np.float64) for n in sizes]
    target = sum(f[int(rng.integers(0, len(f)))].astype(int) for f in feats)
    return [(pack(f), c) for f, c in zip(feats, counts)], pack(target[None].astype(np.uint8))[0], target, feats


def brute(feats, target) -> set[tuple[int, int, int, int]]:
    return {t for t in itertools.product(*[range(len(f)) for f in feats])
            if (sum(feats[j][t[j]].astype(int) for j in range(4)) == target).all()}


@pytest.mark.parametrize("seed", range(12))
def test_every_split_value_together_lists_each_fitting_quadruple_once(seed):
    """Over every value of the split's fields, the quadruples found are the brute force's, each once."""
    sides, packed, target, feats = lists(seed)
    split = split_fields(*sides, target, pairs=4)
    assert split is not None
    fields, probs = split
    assert len(fields) >= 1
    halves = Split(sides[0][0], sides[1][0], fields), Split(sides[2][0], sides[3][0], fields)
    h_target = four_way._linear_hashes(packed[None, :])[0]
    found = []
    for value in itertools.product(*[range(int(target[f]) + 1) for f in fields]):
        pb, ps, qb, qs = quadruples_at(halves, np.array(value), target[fields], packed, h_target)
        found += list(zip(pb.tolist(), ps.tolist(), qb.tolist(), qs.tolist()))
        # every fitting quadruple's split value has a chance of being drawn
        assert not len(pb) or np.prod(probs[np.arange(len(fields)), list(value)]) > 0
    assert len(found) == len(set(found))
    assert set(found) == brute(feats, target)


@pytest.mark.parametrize("seed", range(4))
def test_either_half_may_be_the_one_listed(seed):
    """A value's half with fewer pairs is listed, the other's pairs streamed past it: with the
    halves swapped (the other one listed) the same quadruples are found, and they are the brute
    force's; the sums repeat (three fields of 0-2), so one lookup meets several listed pairs."""
    sides, packed, target, feats = lists(seed, sizes=(30, 6, 9, 3), fields=3, value=3)
    split = split_fields(*sides, target, pairs=4)
    assert split is not None
    fields = split[0]
    h_target = four_way._linear_hashes(packed[None, :])[0]
    pq = Split(sides[0][0], sides[1][0], fields), Split(sides[2][0], sides[3][0], fields)
    found, swapped, several = set(), set(), 0
    for value in itertools.product(*[range(int(target[f]) + 1) for f in fields]):
        value = np.array(value)
        pb, ps, qb, qs = quadruples_at(pq, value, target[fields], packed, h_target)
        found |= set(zip(pb.tolist(), ps.tolist(), qb.tolist(), qs.tolist()))
        # a pair of one half met by several of the other's
        several += len(pb) > min(len(set(zip(pb.tolist(), ps.tolist()))), len(set(zip(qb.tolist(), qs.tolist()))))
        qb, qs, pb, ps = quadruples_at(pq[::-1], target[fields] - value, target[fields], packed, h_target)
        swapped |= set(zip(pb.tolist(), ps.tolist(), qb.tolist(), qs.tolist()))
    assert found == swapped == brute(feats, target)
    assert several


def test_the_count_is_unbiased_and_the_quadruples_fit():
    """Averaged over many draws of split values, the count is the brute force's (tuples weighed by
    the lists' counts); every quadruple found fits, weighed by its tuples over its value's chance."""
    sides, packed, target, feats = lists(5, sizes=(40, 7, 35, 9))
    fit = brute(feats, target)
    exact = sum(np.prod([sides[j][1][t[j]] for j in range(4)]) for t in fit)
    counts = []
    for seed in range(300):
        met = meet_four(*sides, packed, target, np.random.default_rng(seed), pairs=8)
        pb, ps, qb, qs, weights, count = met if met is not None else ((np.zeros(0, int),) * 4 + (np.zeros(0), 0.0))
        assert set(zip(pb.tolist(), ps.tolist(), qb.tolist(), qs.tolist())) <= fit
        counts.append(count)
    assert abs(np.mean(counts) - exact) < 0.1 * exact
    assert np.std(counts) > 0  # (the split's values were drawn, not every one)


def test_a_value_of_many_matches_lists_each_once():
    """Lists of a few field values (0-1 over three fields): a split value's pairs meet hundreds of
    the other half's (more than the matches' first buffer holds); over every value, the quadruples
    found are each fitting one once, against every P pair's sum met with every Q pair's."""
    rng = np.random.default_rng(7)
    sizes = (60, 12, 50, 10)
    feats = [rng.integers(0, 2, (n, 3)).astype(np.uint8) for n in sizes]
    target = np.array([3, 4, 3])
    sides = [(pack(f), np.ones(len(f))) for f in feats]
    packed = pack(target[None].astype(np.uint8))[0]
    p_sums = (feats[0][:, None, :].astype(int) + feats[1][None, :, :]).reshape(-1, 3)
    q_sums = (feats[2][:, None, :].astype(int) + feats[3][None, :, :]).reshape(-1, 3)
    fit = np.argwhere(((p_sums[:, None, :] + q_sums[None, :, :]) == target).all(axis=2))
    expected = {(int(p // 12), int(p % 12), int(q // 10), int(q % 10)) for p, q in fit}
    split = split_fields(*sides, target, pairs=40)
    fields = split[0]
    halves = Split(sides[0][0], sides[1][0], fields), Split(sides[2][0], sides[3][0], fields)
    h_target = four_way._linear_hashes(packed[None, :])[0]
    found, most = [], 0
    for value in itertools.product(*[range(int(target[f]) + 1) for f in fields]):
        pb, ps, qb, qs = quadruples_at(halves, np.array(value), target[fields], packed, h_target)
        found += list(zip(pb.tolist(), ps.tolist(), qb.tolist(), qs.tolist()))
        most = max(most, len(pb))
    assert most > 64
    assert len(found) == len(set(found)) and set(found) == expected


def test_the_histograms_count_each_fields_values():
    """Each field's rows and tuples by value, against a count field by field (eleven fields: two
    words, the second partly used)."""
    rng = np.random.default_rng(3)
    feats = rng.integers(0, 128, (300, 11)).astype(np.uint8)
    counts = rng.random(300)
    rows, tuples = four_way._histograms(pack(feats), counts, 11)
    for f in range(11):
        assert (rows[f] == np.bincount(feats[:, f], minlength=128)).all()
        assert np.allclose(tuples[f], np.bincount(feats[:, f], weights=counts, minlength=128))


def test_a_split_is_none_where_some_field_cannot_reach_the_target():
    sides, packed, target, feats = lists(3)
    assert split_fields(*sides, target + np.array([100, 0, 0, 0, 0])) is None


def rare_instance(seed: int):
    """Eight slots of 16 rows, twelve fields: a few of the 4·10^9 tuples fit, and a blind draw of
    the estimate (a million of them) misses."""
    rng = np.random.default_rng(seed)
    feats = [rng.integers(0, 4, (16, 12)).astype(np.uint8) for _ in range(8)]
    target = sum(f[int(rng.integers(0, 16))].astype(int) for f in feats)
    return feats, target


def fitting(feats, target) -> Counter:
    """Every fitting tuple, by a meeting of two halves of four slots (brute force on each half)."""
    half = lambda fs: {t: sum(fs[j][t[j]].astype(int) for j in range(4)) for t in itertools.product(*[range(len(f)) for f in fs])}
    left, right = half(feats[:4]), half(feats[4:])
    by_sum = {}
    for t, s in right.items():
        by_sum.setdefault(tuple(s), []).append(t)
    return Counter(a + b for a, s in left.items() for b in by_sum.get(tuple(target - s), []))


@pytest.mark.parametrize("level_budget", [100, 1e9])
@pytest.mark.parametrize("seed", range(2))
def test_a_search_no_draw_of_which_fits_meets_four_lists_instead_of_going_loose(seed, level_budget, monkeypatch):
    """Eight slots, the exact count out of budget, the middle's last two slots deferred or counted
    into its levels: the blind draws all miss, and the four lists (few enough pairs to be met
    whole, on no split) find every fitting tuple, the count the true one.  (A split, for many
    fitting tuples, is tested above.)  The control: without the four lists the search is loose."""
    monkeypatch.setattr(levels, "LEVEL_BUDGET", level_budget)
    feats, target = rare_instance(seed)
    fit = fitting(feats, target)
    packed = [pack(f) for f in feats]
    goal = pack(target[None].astype(np.uint8))[0]
    found = LevelSearch(packed, goal, budget=0)
    assert len(found._deferred) == (2 if level_budget == 100 else 0)
    assert not found.loose and not found.exact and found.four_lists
    assert found.count == len(fit)
    drawn = found.sample(200, np.random.default_rng(seed))
    for t in drawn.tolist():
        assert (sum(feats[j][t[j]].astype(int) for j in range(8)) == target).all()
    assert {tuple(t) for t in drawn.tolist()} == set(fit)  # (a few: each drawn)
    monkeypatch.setattr(LevelSearch, "_met_four", lambda self, target, rng: False)
    loose = LevelSearch(packed, goal, budget=0)
    assert loose.loose and not loose.four_lists


def test_the_four_lists_give_the_same_count_for_the_same_inputs():
    feats, target = rare_instance(0)
    packed = [pack(f) for f in feats]
    goal = pack(target[None].astype(np.uint8))[0]
    a, b = (LevelSearch(packed, goal, budget=0) for _ in range(2))
    assert not a.loose and a.count == b.count and a.meetings == b.meetings
    assert (_fields(goal[None])[0][:12] == target).all()


def test_the_split_keys_filter_holds_every_key_and_few_others():
    """``_grouped``'s filter (``PRESENT_BITS`` a table slot) passes every key a big sum holds, so
    that ``_rests`` misses none (the brute-force tests above), and few that none holds: the table
    is read only for those."""
    rng = np.random.default_rng(5)
    keys = rng.integers(0, 1 << 40, 200_000)
    keys[rng.random(len(keys)) < 0.1] = -1  # (a sum over 127 in a field: no key)
    table, starts, order, carried = four_way._grouped(keys, four_way._distinct_keys(keys), keys * 3)
    present = four_way._present(table)
    assert np.array_equal(carried, keys[order] * 3)
    bits = int(np.log2(len(table))) + four_way.PRESENT_BITS

    def passes(k):
        bit = (k.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits)
        return ((present[(bit >> np.uint64(6)).astype(np.int64)] >> (bit & np.uint64(63))) & np.uint64(1)).astype(bool)

    held = np.unique(keys[keys >= 0])
    assert len(held) == len(starts) - 1
    assert passes(held).all()
    others = np.setdiff1d(rng.integers(0, 1 << 40, 100_000), held)
    assert passes(others).mean() < 2.0 ** -four_way.PRESENT_BITS
    # the table itself: each key's group holds exactly its rows, in ascending order
    for slot in np.flatnonzero(table[:, 0] >= 0)[:200]:
        k, g = table[slot]
        assert np.array_equal(order[starts[g]:starts[g + 1]], np.flatnonzero(keys == k))


@pytest.mark.parametrize("seed", range(3))
def test_a_value_s_rests_are_the_field_by_field_rule(seed):
    """``Split.rests`` (every field of a rest checked at once on the rows' bytes, the rest's key a
    difference of keys) against the rule field by field: a small sum has a rest where the value's
    every field is at least its own (and it has none where one of its fields is over 127), and the
    rest's group holds exactly the big sums whose split fields are the rest.  Fields at 0, 1 and
    near 127 make borrows across fields and rows over 127."""
    rng = np.random.default_rng(seed)
    choices = np.array([0, 1, 2, 126, 127, 128, 200])
    big = rng.choice(choices, (3000, 6), p=[0.3, 0.3, 0.2, 0.08, 0.08, 0.02, 0.02]).astype(np.uint8)
    small = rng.choice(choices, (400, 6), p=[0.3, 0.3, 0.2, 0.08, 0.08, 0.02, 0.02]).astype(np.uint8)
    fields = np.array([0, 2, 3, 5])
    split = Split(pack(big), pack(small), fields)
    b, s = big[:, fields].astype(int), small[:, fields].astype(int)
    found_any = 0
    for value in [np.array(v) for v in itertools.product([0, 1, 2, 127], repeat=4)][::3]:
        live, live_group, pairs = split.rests(value)
        expected = {}
        for row in range(len(s)):
            rest = value - s[row]
            if (s[row] <= 127).all() and (rest >= 0).all():
                holders = np.flatnonzero((b == rest).all(axis=1))
                if len(holders):
                    expected[row] = holders
        assert live.tolist() == sorted(expected)
        for row, g in zip(live.tolist(), live_group.tolist()):
            assert np.array_equal(split.order[split.starts[g]:split.starts[g + 1]], expected[row])
        assert pairs == sum(len(h) for h in expected.values())
        found_any += len(live)
    assert found_any
    with pytest.raises(ValueError, match="0 to 127"):
        split.rests(np.array([0, 128, 0, 0]))


def test_the_grouping_is_numpys_whatever_the_estimate_of_its_groups():
    """``_grouped`` sizes its table from an estimate of the distinct keys (``_distinct_keys``,
    within a few percent of the count): with it, and with one far too low (the rows met again in
    larger tables) or far too high (the table built again for the groups), group ``g`` holds the
    rows of the ``g``-th distinct key as numpy first sees it, in ascending order, the table maps
    each key to its group, and the values carried come out in the grouped order."""
    rng = np.random.default_rng(7)
    keys = rng.integers(0, 1 << 40, 60_000) >> rng.integers(0, 30, 60_000)  # (many repeats)
    keys[rng.random(len(keys)) < 0.05] = -1
    held = keys[keys >= 0]
    distinct, first = np.unique(held, return_index=True)
    in_order = distinct[np.argsort(first)]  # (as first seen)
    assert abs(four_way._distinct_keys(keys) / len(distinct) - 1) < 0.05
    assert four_way._distinct_keys(np.full(5, -1)) == 0 and four_way._distinct_keys(np.arange(3)) <= 3
    carried = rng.integers(0, 1 << 60, len(keys)).astype(np.uint64)
    for estimate in (four_way._distinct_keys(keys), 1.0, 100.0 * len(distinct)):
        table, starts, order, values = four_way._grouped(keys, estimate, carried)
        assert len(starts) - 1 == len(distinct) and len(table) >= 2 * len(distinct)
        for g, k in enumerate(in_order):
            assert np.array_equal(order[starts[g]:starts[g + 1]], np.flatnonzero(keys == k))
        held_slots = table[table[:, 0] >= 0]
        assert sorted(held_slots[:, 0].tolist()) == distinct.tolist()
        assert (in_order[held_slots[:, 1]] == held_slots[:, 0]).all()
        assert np.array_equal(values, carried[order])
