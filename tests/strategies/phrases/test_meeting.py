"""Where the level search's sides meet: the bucketed join against a brute force over every triple
and against the plain join (the same meetings in the same order, the same cap)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from hbs.strategies.phrases import meeting
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


@pytest.mark.parametrize("seed", range(40))
def test_the_bucketed_join_finds_every_meeting_in_order(seed):
    a, d, b, target = sides(seed)
    brute = [(i, j, k) for i, j in itertools.product(range(len(a)), range(len(d)))
             for k in range(len(b)) if (a[i] + d[j] + b[k] == target).all()]
    keys = packed(a), packed(d), packed(b)
    goal = packed(target[None])[0]
    args = (*keys, build_table(keys[2]), goal)
    plain = meeting.meet(*args, plain_below=1 << 30)
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
    chosen, _, _, buckets, _ = meeting._plan(keys[2], keys[2].shape[1], meeting.BUCKET_SUMS)
    assert len(b) >= meeting.PLAIN_BELOW and len(a) * len(d) >= meeting.PLAIN_STEPS * len(b) and buckets > 1000
    found, plain = meeting.meet(*args), meeting.meet(*args, plain_below=1 << 30)
    assert found[3] and len(found[0]) > 1
    for x, y in zip(found[:3], plain[:3]):
        assert np.array_equal(x, y)
