"""The middle sums a join can still meet, told by its narrow fields: against a brute force over
every pair of the sides' sums, and the join after it against a brute force over every triple."""

from __future__ import annotations

import numpy as np
import pytest

from hbs.strategies.phrases import meeting, reach
from hbs.strategies.phrases.packing import pack

from test_meeting import packed, sides, triples  # (a test's folder is on sys.path: pytest's default imports)


def correlated(a, rng):
    """``a`` with its first two fields (where it has two) one of (1, 0) and (0, 1), never (0, 0) or
    (1, 1): each narrow alone, and together only two of their four values; distinct rows."""
    if a.shape[1] < 2:
        return a
    a = a.copy()
    a[:, :2] = np.eye(2, dtype=a.dtype)[rng.integers(0, 2, len(a))]
    distinct = np.unique(a, axis=0)
    return distinct[rng.permutation(len(distinct))]


def ranges(a, b, target):
    return meeting._side_ranges(packed(a), packed(b), 8 * packed(target[None]).shape[1])


@pytest.mark.parametrize("seed", range(30))
def test_the_middle_sums_kept_are_those_a_pair_of_sums_makes_up_in_the_narrow_fields(seed):
    a, d, b, target = sides(seed)
    rng = np.random.default_rng(seed)
    if seed % 2:
        a = correlated(a, rng)
    bounds = ranges(a, b, target)
    cells = int(rng.choice([4, 64, reach.REACH_CELLS]))
    fields = reach._narrow_fields(bounds[2], bounds[3], bounds[0], bounds[1], cells)
    kept = reach.reachable(packed(a), packed(d), packed(b), packed(target[None])[0], *bounds, cells=cells)
    made = {tuple(x[fields] + y[fields]) for x in a for y in b}  # every pair's sum in those fields
    assert kept.tolist() == [j for j in range(len(d)) if tuple(target[fields] - d[j, fields]) in made]
    assert {j for _, j, _ in triples(a, d, b, target)} <= set(kept.tolist())  # a middle sum that meets is kept


def test_a_middle_sum_within_every_fields_range_but_no_pairs_is_dropped():
    # left sums (1, 0) or (0, 1), never (0, 0) or (1, 1); right sums (0, 0) or (1, 1): field by
    # field a rest of 0 to 2 could be made up, but together only (1, 0), (0, 1), (2, 1), (1, 2)
    a = np.array([[1, 0, 3], [0, 1, 3]] * 3) + np.array([[0, 0, k] for k in range(6)])
    b = np.array([[0, 0, 0], [1, 1, 0]])
    d = np.array([[2, 2, 0], [1, 1, 0], [0, 0, 0], [1, 2, 0], [0, 1, 0]])
    target = np.array([2, 2, 5])
    keys, goal = (packed(a), packed(d), packed(b)), packed(target[None])[0]
    assert reach.reachable(*keys, goal, *ranges(a, b, target)).tolist() == [3, 4]
    met = meeting.meet(*keys, None, goal, plain_below=0, reach_pairs=0)
    assert met[3] and list(zip(*(x.tolist() for x in met[:3]))) == triples(a, d, b, target)
    # no middle sum left: no meeting, found whatever the join's cap (the join itself would stop there)
    unmet = np.array([[2, 2, 0], [0, 0, 0]])
    for max_steps in (np.inf, 1):
        none = meeting.meet(keys[0], packed(unmet), keys[2], None, goal, max_steps=max_steps, plain_below=0,
                            reach_pairs=0)
        assert none[3] and not len(none[0])
    assert not meeting.meet(keys[0], packed(unmet), keys[2], None, goal, max_steps=1, plain_below=0)[3]


@pytest.mark.parametrize("seed", range(30))
def test_the_join_after_the_reach_finds_the_same_meetings_in_order(seed):
    a, d, b, target = sides(seed)
    if seed % 2:
        a = correlated(a, np.random.default_rng(seed))
    keys, goal = (packed(a), packed(d), packed(b)), packed(target[None])[0]
    brute = triples(a, d, b, target)
    for bucket_sums in (1, 32):
        found = meeting.meet(*keys, None, goal, bucket_sums=bucket_sums, plain_below=0, reach_pairs=0)
        assert found[3] and list(zip(*(x.tolist() for x in found[:3]))) == brute
        if brute:  # the cap as without the reach
            assert not meeting.meet(*keys, None, goal, len(brute) - 1, bucket_sums=bucket_sums, plain_below=0,
                                    reach_pairs=0)[3]


def test_packed_rows_read_as_fields():
    # (the reach reads a row's bytes: a field past the first packed word lies in the second)
    rows = np.arange(20, dtype=np.uint8).reshape(2, 10)
    keys = pack(rows)
    least, most = meeting._side_ranges(keys, keys, 16)[:2]
    assert least[:10].tolist() == rows.min(axis=0).tolist() and most[:10].tolist() == rows.max(axis=0).tolist()
    present = reach._present(keys, np.array([9, 0]), np.array([9, 0]), np.array([11, 11]), 121)
    assert np.flatnonzero(present).tolist() == [0 * 11 + 0, 10 * 11 + 10]
