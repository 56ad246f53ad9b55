"""Where the level search's sides meet: the bucketed join against a brute force over every triple
and against the plain join (the same meetings in the same order, the same cap)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from hbs.strategies.phrases import level_sums, meeting
from hbs.strategies.phrases.packing import pack
from hbs.strategies.phrases.sum_table import build_table


def sides(seed: int):
    """Distinct packed rows of three sides (up to 12 fields: two packed words) and a target that
    some triple reaches."""
    rng = np.random.default_rng(seed)
    fields = int(rng.integers(1, 13))
    def side(n):
        rows = np.unique(rng.integers(0, 4, (n, fields)), axis=0)
        return rows[rng.permutation(len(rows))]  # (a level's sums come in no sorted order)
    a, d, b = side(int(rng.integers(1, 300))), side(int(rng.integers(1, 12))), side(int(rng.integers(1, 300)))
    target = a[rng.integers(len(a))] + d[rng.integers(len(d))] + b[rng.integers(len(b))]
    if seed % 5 == 0:
        target = target + rng.integers(0, 2, fields)  # (perhaps no meeting)
    return a, d, b, target


def packed(rows):
    return pack(rows.astype(np.uint8))


def triples(a, d, b, target):
    """Every ``(i, j, k)`` with ``a[i] + d[j] + b[k] == target``, in that order: a brute force over
    every triple (each pair's right sums compared at once)."""
    return [(i, j, int(k)) for i in range(len(a)) for j in range(len(d))
            for k in np.flatnonzero((b == target - a[i] - d[j]).all(axis=1))]


@pytest.mark.parametrize("seed", range(40))
def test_the_bucketed_join_finds_every_meeting_in_order(seed):
    a, d, b, target = sides(seed)
    brute = triples(a, d, b, target)
    keys = packed(a), packed(d), packed(b)
    goal = packed(target[None])[0]
    args = (*keys, build_table(keys[2]), goal)
    plain = meeting.meet(*args, plain_below=1 << 30)
    for table in (None, lambda: build_table(keys[2])):  # (the plain join builds the table, or asks for it)
        assert all(np.array_equal(x, y) for x, y in zip(meeting.meet(*keys, table, goal, plain_below=1 << 30), plain))
    for bucket_sums in (1, 4, 32):
        bucketed = meeting.meet(*args, bucket_sums=bucket_sums, plain_below=0)
        for found in (plain, bucketed):
            assert found[3] and list(zip(*(x.tolist() for x in found[:3]))) == brute
        if brute:  # the cap: one meeting fewer than there are is too many
            assert not meeting.meet(*args, len(brute) - 1, bucket_sums=bucket_sums, plain_below=0)[3]
            assert meeting.meet(*args, len(brute), bucket_sums=bucket_sums, plain_below=0)[3]


def test_a_large_right_side_is_joined_by_buckets_with_the_same_meetings():
    """With the defaults: a right side of over ``PLAIN_BELOW`` sums is split into buckets (the
    plan's), and the join finds what the plain one does, in its order."""
    rng = np.random.default_rng(0)
    b = np.unique(rng.integers(0, 12, (300_000, 6)), axis=0)
    a, d = np.unique(rng.integers(0, 12, (12_000, 6)), axis=0), np.unique(rng.integers(0, 3, (200, 6)), axis=0)
    target = a[5] + d[7] + b[11]
    keys = packed(a), packed(d), packed(b)
    args = (*keys, build_table(keys[2]), packed(target[None])[0])
    chosen, _, _, buckets, *_ = meeting._plan(*keys, args[4], meeting.BUCKET_SUMS)
    assert len(b) >= meeting.PLAIN_BELOW and len(a) * len(d) >= meeting.PLAIN_STEPS * len(b) and buckets > 1000
    found, plain = meeting.meet(*args), meeting.meet(*args, plain_below=1 << 30)
    assert found[3] and len(found[0]) > 1
    for x, y in zip(found[:3], plain[:3]):
        assert np.array_equal(x, y)


def many_meetings():
    """Left sums of 3,125 rows (every five fields of 0..4, a sixth of 3) against middle sums of a
    sixth field up to 60, 70% of the rests on the right: hundreds of thousands of meetings."""
    rng = np.random.default_rng(3)
    grid = np.array(list(itertools.product(range(5), repeat=5)))
    a = np.c_[grid, np.full(len(grid), 3)][rng.permutation(len(grid))]
    d = np.array([[x, y, 0, 0, 0, k] for x in range(3) for y in range(2) for k in range(61)])
    b = np.array([list(row) + [k] for row in grid for k in range(61)])
    b = b[rng.permutation(len(b))][rng.random(len(b)) < 0.7]
    return a, d, b, np.array([4, 4, 4, 4, 4, 60])


def test_a_join_of_more_meetings_than_its_first_room_finds_them_all():
    """Groups of left sums (``many_meetings``) over the 1,024 rows of room the join starts with:
    the same meetings as the plain join's and a brute force's."""
    a, d, b, target = many_meetings()
    keys = packed(a), packed(d), packed(b)
    args = (*keys, build_table(keys[2]), packed(target[None])[0])
    rests = set(map(tuple, b.tolist()))
    brute = [(i, j) for i in range(len(a)) for j in range(len(d)) if tuple((target - a[i] - d[j]).tolist()) in rests]
    plain = meeting.meet(*args, plain_below=1 << 30)
    assert plain[3] and list(zip(plain[0].tolist(), plain[1].tolist())) == brute and len(brute) > 100_000
    for bucket_sums in (1 << 12, 64):
        assert meeting._join_plan(*keys, args[4], bucket_sums, 0) is not None  # (bucketed, not whole)
        found = meeting.meet(*args, bucket_sums=bucket_sums, plain_below=0)
        assert found[3] and all(np.array_equal(x, y) for x, y in zip(found[:3], plain[:3]))


def test_each_middle_sum_looks_up_the_smaller_of_a_group_and_a_bucket():
    """Left sums alike in the bucket fields (one large group: their other field, where every right
    sum is 0, is no bucket field) against buckets of one right sum, then single left sums against
    buckets of 64: the join looks up a bucket's right sums among the group's left sums in the
    first case, the group's left sums in the bucket in the second (the plan's groups and buckets
    show which), and finds what a brute force does, in order, either way."""
    rng = np.random.default_rng(3)
    d = np.unique(rng.integers(0, 3, (20, 3)) * [1, 1, 0], axis=0)
    large_group = np.unique(np.stack([np.zeros(400, dtype=int), rng.permutation(400) % 50, np.arange(400) % 8], axis=1), axis=0)
    one_sum_buckets = np.unique(rng.integers(0, 6, (2_000, 3)) * [1, 1, 0], axis=0)
    single = np.repeat(np.arange(8)[:, None], 3, axis=1)
    every = np.array(list(itertools.product(range(8), repeat=3)))
    for a, b, bucket_sums, bucket_smaller in ((large_group, one_sum_buckets, 4, True), (single, every, 64, False)):
        target = a[1] + d[2] + b[3]
        keys = packed(a), packed(d), packed(b)
        goal = packed(target[None])[0]
        chosen, place, radix, buckets, least, a_least, a_most, _ = meeting._plan(*keys, goal, bucket_sums)
        held = np.diff(meeting._grouped(keys[2], np.arange(len(b)), least, chosen, place, buckets)[1])
        groups = np.diff(meeting._left_groups(keys[0], chosen, a_least, a_most)[1])
        held, groups = held[held > 0], groups[groups > 0]
        assert (held.max() < groups.min()) if bucket_smaller else (groups.max() <= held.min())
        found = meeting.meet(*keys, None, goal, bucket_sums=bucket_sums, plain_below=0)
        assert found[3] and list(zip(*(x.tolist() for x in found[:3]))) == triples(a, d, b, target)


def test_a_carry_between_fields_is_no_meeting():
    """Fields near 127 whose words add up to the target's only by a carry into the next field
    (127 + 12 + 127 = 266 = 10 + 256): no meeting, bucketed or whole (the bucketed join found one
    when its field-by-field check could not turn it down)."""
    a = np.array([[127, 0, 1]] + [[0, 1, k] for k in range(100)] + [[1, 1, k] for k in range(100)])
    d = np.array([[12, 0, 0], [0, 2, 0], [0, 3, 0]])
    b = np.array([[127, 4, 1]] + [[120, 0, k] for k in range(101)])
    target = np.array([10, 5, 2])
    keys = packed(a), packed(d), packed(b)
    args = (*keys, build_table(keys[2]), packed(target[None])[0])
    assert int(keys[0][0, 0] + keys[1][0, 0] + keys[2][0, 0]) == int(args[4][0])  # (the words agree)
    brute = triples(a, d, b, target)
    for found in (meeting.meet(*args, bucket_sums=4, plain_below=0), meeting.meet(*args, plain_below=1 << 30)):
        assert found[3] and list(zip(*(x.tolist() for x in found[:3]))) == brute


@pytest.mark.parametrize("seed", range(0, 40, 7))
def test_each_fields_selectivity_is_its_share_of_triples_that_add_up(seed):
    """``_selectivity`` (sides smaller than ``SHARE_ROWS``: every row counted) against a count over
    every (left, middle, right) triple whose values in each field add up to the target's."""
    a, d, b, target = sides(seed)
    keys = packed(a), packed(d), packed(b)
    found = meeting._selectivity(*keys, packed(target[None])[0])
    sums = a[:, None, None, :] + d[None, :, None, :] + b[None, None, :, :]
    brute = (sums == target).sum(axis=(0, 1, 2))
    assert found[: len(brute)].tolist() == brute.tolist()
    assert set(found[len(brute):].tolist()) <= {len(a) * len(d) * len(b)}  # (fields past the last: every triple)


def test_the_buckets_are_named_by_the_fields_that_turn_most_pairs_away():
    """A right side whose widest field (0..63) holds every pair's rest, and a narrower one (0..15)
    that nine pairs in ten overshoot: the plan buckets by the narrow one first, where a bucket
    field turns 10 times as many steps away (counted pair by pair: a step for each group of left
    sums and middle sum, and one for each pair whose rest in that field a right sum holds), and
    the join finds the plain join's meetings."""
    rng = np.random.default_rng(7)
    def side(n, *ranges):
        return np.unique(np.stack([rng.integers(lo, hi, n) for lo, hi in ranges], axis=1), axis=0)
    b = side(40_000, (0, 64), (0, 16), (0, 64))
    a = side(3_000, (0, 8), (12, 16), (0, 64))
    d = side(400, (0, 8), (0, 16), (0, 4))
    target = np.array([63, 14, 70])
    keys = packed(a), packed(d), packed(b)
    goal = packed(target[None])[0]
    assert np.argmax(b.max(axis=0) - b.min(axis=0)) != 1 and meeting._plan(*keys, goal, 1024)[0][0] == 1
    def steps(field):
        held = set(b[:, field].tolist())
        rests = (target[field] - a[:, field, None] - d[None, :, field]).ravel()
        return len(set(a[:, field].tolist())) * len(d) + sum(r in held for r in rests.tolist())
    assert 10 * steps(1) < steps(0)
    assert meeting._join_plan(*keys, goal, 1024, 0) is not None  # (bucketed, not whole)
    found = meeting.meet(*keys, None, goal, bucket_sums=1024, plain_below=0)
    plain = meeting.meet(*keys, None, goal, plain_below=1 << 30)
    assert found[3] and len(found[0]) and all(np.array_equal(x, y) for x, y in zip(found[:3], plain[:3]))


def test_many_narrow_bucket_fields_leave_the_left_sides_groups_few():
    """A right side of 3^12 sums, every field 0..2, bucketed a sum a bucket (all twelve fields
    would do), and left sums of twelve fields 0..9: their groups, one for each combination of
    values in the chosen fields, would number 10^12 (a MemoryError before ``LEFT_GROUPS``). The
    plan keeps them within ``LEFT_GROUPS`` times the left sums (and 1,024), and the join finds the
    plain join's meetings."""
    rng = np.random.default_rng(11)
    b = np.array(list(itertools.product(range(3), repeat=12)))
    a = np.unique(rng.integers(0, 10, (1_000, 12)), axis=0)
    d = np.unique(rng.integers(0, 3, (3_000, 12)), axis=0)
    target = a[3] + d[5] + b[7]
    keys = packed(a), packed(d), packed(b)
    goal = packed(target[None])[0]
    chosen = meeting._plan(*keys, goal, 1)[0]
    assert len(chosen) and np.prod(a.max(axis=0)[chosen] - a.min(axis=0)[chosen] + 1) <= meeting.LEFT_GROUPS * len(a) + 1024
    assert meeting._join_plan(*keys, goal, 1, 0) is not None
    found = meeting.meet(*keys, None, goal, bucket_sums=1, plain_below=0)
    plain = meeting.meet(*keys, None, goal, plain_below=1 << 30)
    assert found[3] and len(found[0]) and all(np.array_equal(x, y) for x, y in zip(found[:3], plain[:3]))


def brute_steps(a, d, b, target, bucket_sums):
    """The steps the bucketed join takes, counted pair by pair from the plan's bucket fields: one
    for each (group of left sums alike in those fields, middle sum), and each left sum of a group
    whose rest falls in a bucket holding right sums."""
    chosen, *_ = meeting._plan(packed(a), packed(d), packed(b), packed(target[None])[0], bucket_sums)
    buckets = {tuple(row[chosen]) for row in b}
    groups = {tuple(row[chosen]) for row in a}
    steps = len(groups) * len(d)
    for row, mid in itertools.product(a, d):
        steps += tuple((target - row - mid)[chosen]) in buckets
    return steps


@pytest.mark.parametrize("seed", range(1, 40, 3))
def test_the_predicted_steps_are_the_joins_own_where_every_pair_is_sampled(seed):
    """Where the prediction samples every (left, middle) pair equally often, it counts the join's steps
    exactly (brute force over the pairs); a join capped one step below gives up, one capped at
    them finds every meeting."""
    rng = np.random.default_rng(seed)
    a, d, b, target = sides(seed)
    def powered(rows, most):  # (a power of two of rows: their pairs divide the sample evenly)
        rows = np.unique(np.concatenate([rows, rng.integers(0, 4, (most, rows.shape[1]))]), axis=0)
        return rows[rng.permutation(len(rows))][: min(most, 1 << (len(rows).bit_length() - 1))]
    a, d = powered(a, 256), powered(d, 16)
    assert meeting.PREDICT_PAIRS % (len(a) * len(d)) == 0
    keys = packed(a), packed(d), packed(b)
    args = (*keys, build_table(keys[2]), packed(target[None])[0])
    steps = brute_steps(a, d, b, target, 4)
    if meeting._plan(*keys, args[4], 4)[3] == 1:
        pytest.skip("a single bucket: the plain join")
    assert meeting.predicted_steps(*keys, args[4], bucket_sums=4, plain_below=0) == steps
    whole = meeting.meet(*args, bucket_sums=4, plain_below=0)
    assert not meeting.meet(*args, max_steps=steps - 1, bucket_sums=4, plain_below=0)[3]
    capped = meeting.meet(*args, max_steps=steps, bucket_sums=4, plain_below=0)
    assert capped[3] and all(np.array_equal(x, y) for x, y in zip(capped[:3], whole[:3]))



def packed_walk_taken(a, d, b, target, plan) -> bool:
    """Whether some group of left sums meets the middle sums by their distinct codes: at most eight
    bucket fields, and its rests in them (the target's less its own and the right side's least)
    not below zero."""
    chosen = plan[0]
    return len(chosen) <= 8 and ((target - b.min(axis=0) - a)[:, chosen] >= 0).all(axis=1).any()


# (the seeds of ``sides`` under 60 whose join is bucketed with some group meeting the middle sums by their codes)
@pytest.mark.parametrize("seed", [1, 5, 7, 9, 13, 15, 17, 19, 21, 31, 33, 37, 41, 43, 45, 47, 51, 59, "many"])
def test_middle_sums_met_by_their_distinct_codes_are_those_met_one_by_one(seed):
    """A group of left sums meets the middle sums whose rest's bucket holds right sums found by
    their distinct codes (``meeting._group_join``: a code tested once, its middle sums marked, then
    met in order) rather than one by one: the same meetings in the same order and the same steps
    counted (those of a brute force over the pairs), also where the meetings outgrow the join's
    first room inside a group (``many_meetings``, 1,024 rows) and it goes on from the middle sum
    it stopped at."""
    if seed == "many":
        (a, d, b, target), bucket_sums = many_meetings(), 64
    else:
        (a, d, b, target), bucket_sums = sides(seed), 4
    keys, goal = (packed(a), packed(d), packed(b)), packed(target[None])[0]
    plan = meeting._join_plan(*keys, goal, bucket_sums, 0)
    assert plan is not None and packed_walk_taken(a, d, b, target, plan)
    by_codes = meeting._bucketed(*keys, goal, *plan, np.inf, np.inf, np.inf, True)
    one_by_one = meeting._bucketed(*keys, goal, *plan, np.inf, np.inf, np.inf, False)
    assert by_codes[3] and one_by_one[3] and by_codes[4] == one_by_one[4] > 0
    assert all(np.array_equal(x, y) for x, y in zip(by_codes[:3], one_by_one[:3]))
    if seed == "many":
        assert len(by_codes[0]) > 100_000
        return
    assert by_codes[4] == brute_steps(a, d, b, target, bucket_sums)
    assert list(zip(*(x.tolist() for x in by_codes[:3]))) == triples(a, d, b, target)

@pytest.mark.parametrize("seed", range(0, 40, 3))
def test_a_sample_of_every_pair_counts_the_meetings(seed):
    """Where there are at most ``MEETING_PAIRS`` (left, middle) pairs each is looked up once: the
    hits are the join's meetings (brute force), and the join is called over a cap just when they
    are over ``OVER_BY`` times it (and at least ``OVER_HITS``): by ``meets_over``, and by ``meet``
    given the cap as ``over`` (then no meetings and False), bucketed or whole."""
    a, d, b, target = sides(seed)
    assert len(a) * len(d) <= meeting.MEETING_PAIRS
    brute = len(triples(a, d, b, target))
    keys = packed(a), packed(d), packed(b)
    table, goal = build_table(keys[2]), packed(target[None])[0]
    assert meeting._sampled_meetings(*keys, table, goal, len(a) * len(d)) == brute
    for cap in (0, 1, (brute - 1) / meeting.OVER_BY, brute / meeting.OVER_BY, brute):
        over = brute >= meeting.OVER_HITS and brute > meeting.OVER_BY * cap
        assert meeting.meets_over(*keys, table, goal, cap) == over
        for plain_below in (0, 1 << 30):  # (asked of the buckets' tables, or of the whole side's)
            assert meeting.meet(*keys, None, goal, over=cap, bucket_sums=4, plain_below=plain_below)[3] != over


def test_a_join_over_its_cap_is_told_from_a_sample():
    """The meetings of ``many_meetings``, over a million pairs, 65,536 of them looked up: caps of a
    tenth and a third of the meetings are called over (and the join capped there is indeed cut
    short, and a bucketed join given the cap as ``over`` gives up); a cap within the margin of
    ``OVER_BY`` is not, nor one at all of them (a join within its cap always runs, the same
    meetings with ``over``)."""
    a, d, b, target = many_meetings()
    keys = packed(a), packed(d), packed(b)
    table, goal = build_table(keys[2]), packed(target[None])[0]
    whole = meeting.meet(*keys, table, goal)
    meetings = len(whole[0])
    assert whole[3] and len(a) * len(d) > 16 * meeting.MEETING_PAIRS and meetings > 100_000
    for cap in (meetings / 10, meetings / 3):
        assert meeting.meets_over(*keys, table, goal, cap)
        assert not meeting.meet(*keys, table, goal, cap)[3]
        assert not meeting.meet(*keys, None, goal, over=cap, bucket_sums=64, plain_below=0)[3]
    for cap in (meetings / (0.8 * meeting.OVER_BY), meetings):
        assert not meeting.meets_over(*keys, table, goal, cap)
        found = meeting.meet(*keys, None, goal, over=cap, bucket_sums=64, plain_below=0)
        assert found[3] and all(np.array_equal(x, y) for x, y in zip(found[:3], whole[:3]))


@pytest.mark.parametrize("seed", range(6))
def test_a_sides_ranges_grouping_and_places_are_numpys(seed):
    """A side's fields' least and most (read as bytes) are numpy's over the unpacked rows, for all
    rows and for a subset; rows grouped by bucket number are numpy's stable argsort of it, each
    row's place is where the order puts it, and the rows written to their places with their
    linear hashes are numpy's gather and a hash computed apart."""
    a, _, _, _ = sides(seed)
    rng = np.random.default_rng(seed)
    keys = packed(a)
    n_fields = 8 * keys.shape[1]
    unpacked = np.zeros((len(a), n_fields), dtype=np.int64)
    unpacked[:, :a.shape[1]] = a
    for rows in (np.arange(len(a)), np.flatnonzero(rng.random(len(a)) < 0.5)):
        least, most = level_sums._ranges(keys, rows, n_fields)
        assert least.tolist() == (unpacked[rows].min(axis=0) if len(rows) else np.full(n_fields, 255)).tolist()
        assert most.tolist() == (unpacked[rows].max(axis=0) if len(rows) else np.zeros(n_fields)).tolist()
    least, most = level_sums._ranges(keys, np.arange(len(a)), n_fields)
    chosen = rng.permutation(a.shape[1])[:2]
    place = np.cumprod([1] + [int(most[f] - least[f] + 1) for f in chosen])
    number = sum((unpacked[:, f] - least[f]) * place[c] for c, f in enumerate(chosen))
    order, first, where = level_sums._grouped(keys, np.arange(len(a)), least, chosen, place[:-1], int(place[-1]))
    assert order.tolist() == np.argsort(number, kind="stable").tolist()
    assert first.tolist() == np.searchsorted(np.sort(number), np.arange(place[-1] + 1)).tolist()
    assert (order[where] == np.arange(len(a))).all()
    sorted_keys, hashes = meeting._sorted(keys, where)
    assert np.array_equal(sorted_keys, keys[order])
    multipliers = [int(m) for m in meeting._MULTIPLIERS[:keys.shape[1]]]
    assert hashes.tolist() == [sum(int(w) * m for w, m in zip(row, multipliers)) % 2**64 for row in keys[order]]


def test_a_buckets_filter_passes_its_sums_and_few_others():
    """Each bucket's filter (``_tables``) passes the hash of every sum it holds (a meeting is never
    missed) and few others: two bits a sum, in one word, pass one in 300 here (one bit a sum, as
    before, passed one in 46: each pass then reads a table and a row, cache misses both)."""
    rng = np.random.default_rng(11)
    sizes = rng.integers(0, 300, 400)
    first = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    hashes = rng.integers(0, 2**64 - 1, first[-1], dtype=np.uint64, endpoint=True)
    tables, filt, meta = meeting._tables(hashes, first)
    kept = np.empty(4 * int(sizes.max()), dtype=np.int64)
    others = rng.integers(0, 2**64 - 1, 4096, dtype=np.uint64, endpoint=True)
    passed = tried = 0
    for v in np.flatnonzero(sizes):
        lo, hi, shift = first[v], first[v + 1], np.uint64(meta[v, 3] >> 8)
        # (a rest's hash is the base less a hash: base 0 and each hash negated ask for the hash itself)
        own = np.uint64(0) - hashes[lo:hi]
        assert meeting._passing(own, 0, hi - lo, np.uint64(0), filt, meta[v, 2], shift, kept) == hi - lo
        asked = np.uint64(0) - others[: 4 * (hi - lo)]
        passed += meeting._passing(asked, 0, len(asked), np.uint64(0), filt, meta[v, 2], shift, kept)
        tried += len(asked)
    assert passed / tried < 1 / 100, passed / tried


def test_the_field_ranges_turn_away_only_pairs_that_cannot_meet():
    """``_pruned``, from a group's and a bucket's least and most values in some fields
    (``_field_ranges``), turns a (group, middle sum, bucket) away only where no left sum of the
    group and right sum of the bucket add up with the middle sum to the target in every one of
    those fields (a brute force over the pairs), and it turns many away."""
    rng = np.random.default_rng(3)
    fields = np.array([0, 2, 3, 5, 9], dtype=np.int64)
    def blocks(count):
        sizes = rng.integers(0, 6, count)
        rows = rng.integers(0, 5, (int(sizes.sum()), 10))
        return rows, packed(rows), np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    a, a_keys, a_first = blocks(30)
    b, b_keys, b_first = blocks(30)
    d = rng.integers(0, 5, (12, 10))
    target = rng.integers(4, 12, 10)
    need = (target - d)[:, fields].astype(np.int64)
    groups, buckets = meeting._field_ranges(a_keys, a_first, fields), meeting._field_ranges(b_keys, b_first, fields)
    turned = 0
    for g, v, m in itertools.product(range(30), range(30), range(12)):
        pairs = [(x, y) for x in a[a_first[g]:a_first[g + 1]] for y in b[b_first[v]:b_first[v + 1]]]
        meets = any((x[fields] + y[fields] == need[m]).all() for x, y in pairs)
        if meeting._pruned(need, m, groups, g, buckets, v):
            assert not meets
            turned += len(pairs) > 0
    assert turned > 1000


def test_a_meetings_weights_are_numpys_products_bit_for_bit():
    """``meeting_weights`` (one pass) gives what numpy's gathers and products give, bit for bit:
    the counts, and so the guesses, do not change."""
    rng = np.random.default_rng(3)
    counts = [rng.random(k) * 10.0 ** rng.integers(0, 12, k) for k in (300, 40, 500)]
    rows = [rng.integers(0, len(c), 10_000) for c in counts]
    expected = counts[0][rows[0]] * counts[1][rows[1]] * counts[2][rows[2]]
    assert np.array_equal(meeting.meeting_weights(*counts, *rows), expected)
    assert meeting.meeting_weights(*counts, *(r[:0] for r in rows)).shape == (0,)


@pytest.mark.parametrize("seed", range(12))
def test_a_join_that_keeps_no_meetings_finds_the_same_draws_again(seed):
    """A join whole that keeps none of its meetings (``keep``) gives the running tuples through
    each left sum, and ``drawn_meetings`` finds from them, for uniforms over the total, the
    meeting numpy's ``searchsorted`` over the kept meetings' cumulated weights finds (past the
    last: the last), bit for bit: so a level search's draws, and the guesses, stay the same.
    Counts up to 10^15 (sums past 2^53 round) and some of 1 (equal weights)."""
    a, d, b, target = many_meetings() if seed == 0 else sides(seed)
    rng = np.random.default_rng(seed)
    keys = packed(a), packed(d), packed(b)
    goal = packed(target[None])[0]
    def weights(n):
        return np.where(rng.random(n) < 0.3, 1.0, np.floor(rng.random(n) * 10.0 ** rng.integers(0, 6, n)) + 1)
    counts = tuple(weights(len(k)) for k in keys)
    kept = meeting.join(*keys, None, goal, plain_below=1 << 30, counts=counts)
    brute = meeting.meet(*keys, None, goal, plain_below=1 << 30)  # (against a brute force: above)
    assert kept.whole and kept.met == len(kept.left) and all(np.array_equal(x, y) for x, y in zip(kept[:3], brute[:3]))
    if not kept.met:
        return
    lazy = meeting.join(*keys, None, goal, plain_below=1 << 30, counts=counts, keep=0)
    assert lazy.whole and lazy.met == kept.met and not len(lazy.left)
    assert np.array_equal(lazy.ends, kept.ends)
    cum = np.cumsum(meeting.meeting_weights(*counts, *kept[:3]))
    assert lazy.ends[-1] == cum[-1]
    edges = cum[rng.integers(0, len(cum), 50)], [0.0, cum[-1], 2 * cum[-1]]  # (on a running sum, at and past the last)
    u = np.sort(np.concatenate([rng.random(500) * cum[-1], *edges]))
    at = np.minimum(np.searchsorted(cum, u, side="right"), len(cum) - 1)
    found = meeting.drawn_meetings(*keys, build_table(keys[2]), goal, *counts, lazy.ends, u)
    for x, y in zip(found, kept[:3]):
        assert np.array_equal(x, y[at])


def test_a_join_over_its_cap_is_cut_short_whether_it_keeps_its_meetings_or_not():
    """The cap on the meetings holds as before where the meetings are not kept."""
    a, d, b, target = many_meetings()
    keys = packed(a), packed(d), packed(b)
    goal = packed(target[None])[0]
    counts = tuple(np.ones(len(k)) for k in keys)
    for keep in (np.inf, 0):
        assert not meeting.join(*keys, None, goal, 100_000, plain_below=1 << 30, counts=counts, keep=keep).whole


@pytest.mark.parametrize("seed", range(40))
def test_a_join_over_the_right_sums_is_the_plain_joins_bit_for_bit(seed):
    """``_plain_by_right`` (each left sum with each right sum, the rest looked up among the middle
    sums) gives ``_plain``'s meetings in the same order, its count and its running tuples bit for
    bit, and the brute force's meetings; a middle of up to 300 sums (five words of bits a left
    sum), counts of very different sizes, kept meetings cut off and a cap on the meetings."""
    rng = np.random.default_rng(seed)
    a, b, d, target = sides(seed)  # (the middle the larger side: the one looked up)
    d = d[: int(rng.integers(1, len(d) + 1))]
    target = a[rng.integers(len(a))] + d[rng.integers(len(d))] + b[rng.integers(len(b))]
    brute = triples(a, d, b, target)
    pa, pd, pb, goal = packed(a), packed(d), packed(b), pack(target[None].astype(np.uint8))[0]
    counts = tuple(np.exp(rng.normal(0, 6, len(x))) for x in (a, d, b))
    for keep, most in ((np.inf, np.inf), (len(brute) // 2, np.inf), (np.inf, len(brute) // 3)):
        want = meeting._plain(pa, pd, pb, build_table(pb), goal, most, meeting._PASS_ALL, keep, *counts)
        got = meeting._plain_by_right(pa, pd, pb, build_table(pd), goal, most, meeting._PASS_ALL, keep, *counts)
        assert got[3] == want[3] and got[4] == want[4]  # (whole, and the meetings counted)
        for w, g in zip(want[:3] + (want[5] if want[3] else want[5][:0],), got[:3] + (got[5] if got[3] else got[5][:0],)):
            assert np.array_equal(w, g)  # (the running tuples: past a cap's left sum, never written)
        if keep == most == np.inf:
            assert list(zip(*(x.tolist() for x in got[:3]))) == brute


@pytest.mark.parametrize("fields, high, bucket_sums, packed_test", [
    (12, 2, 1, False),  # twelve bucket fields: over the eight a word's bytes hold, tested field by field
    (12, 3, 1, True),  # seven: a byte each, tested at once
    (6, 40, 1, None),  # groups whose rest is below zero in a bucket field: tested field by field
])
def test_a_middle_sums_bucket_is_found_with_its_digits_a_byte_each_or_field_by_field(fields, high, bucket_sums,
                                                                                    packed_test):
    """``_group_join`` names a middle sum's bucket from its digits packed a byte each (one
    subtraction and two masks for every field) where the bucket fields are at most eight and a
    group's rests are not below zero, field by field otherwise: either way the brute force's
    meetings."""
    rng = np.random.default_rng(fields * high)
    a = np.unique(rng.integers(0, high, (500, fields)), axis=0)
    d = np.unique(rng.integers(0, high, (15, fields)), axis=0)
    b = np.unique(rng.integers(0, high, (500, fields)), axis=0)
    target = a[3] + d[5] + b[7]
    keys = packed(a), packed(d), packed(b)
    goal = packed(target[None])[0]
    chosen = meeting._plan(*keys, goal, bucket_sums)[0]
    if packed_test is not None:
        assert (len(chosen) <= 8) == packed_test
    else:
        assert len(chosen) <= 8 and (a[:, chosen] > (target - b.min(axis=0))[chosen]).any()
    found = meeting.meet(*keys, None, goal, bucket_sums=bucket_sums, plain_below=0)
    assert found[3] and list(zip(*(x.tolist() for x in found[:3]))) == triples(a, d, b, target)
