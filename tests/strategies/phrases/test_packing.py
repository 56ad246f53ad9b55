"""The packed-count search against brute force, and against the scalar grading rule."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hbs.core.feedback import grade
from hbs.strategies.phrases import probes
from hbs.strategies.phrases.alphabet import ASCII_LETTERS
from hbs.strategies.phrases.packing import MAX_FIELD, pack, packed_after
from hbs.strategies.phrases.rows import distinct_rows, group_rows, refined_order, row_order
from hbs.strategies.phrases.tuple_search import TupleSearch


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(0, 27), st.integers(0, 2**32 - 1))
def test_pack_puts_field_f_in_byte_f_mod_8_of_word_f_div_8(rows, fields, seed):
    """Against the definition, in Python integers: field ``f`` of a row is byte ``f % 8`` (from the
    lowest) of word ``f // 8``; at least one word, the bytes past the fields zero."""
    features = np.random.default_rng(seed).integers(0, MAX_FIELD + 1, (rows, fields)).astype(np.uint8)
    words = max(1, -(-fields // 8))
    expected = [[sum(int(row[f]) << 8 * (f % 8) for f in range(fields) if f // 8 == w) for w in range(words)]
                for row in features]
    packed = pack(features)
    assert packed.dtype == np.uint64 and packed.tolist() == expected


@st.composite
def feature_problems(draw):
    n_slots = draw(st.integers(1, 4))
    n_fields = draw(st.integers(1, 11))  # up to two packed words
    sizes = [draw(st.integers(1, 7)) for _ in range(n_slots)]
    slots = [np.array(draw(st.lists(st.lists(st.integers(0, 31), min_size=n_fields, max_size=n_fields),
                                      min_size=s, max_size=s)), dtype=np.uint8) for s in sizes]
    # a target that some tuple reaches, or a random one
    if draw(st.booleans()):
        pick = [draw(st.integers(0, s - 1)) for s in sizes]
        target = sum(slot[i].astype(np.int64) for slot, i in zip(slots, pick))
    else:
        target = np.array(draw(st.lists(st.integers(0, MAX_FIELD), min_size=n_fields, max_size=n_fields)))
    return slots, target


@given(feature_problems(), st.integers(0, 2**32))
@settings(max_examples=300)
def test_search_finds_exactly_the_tuples_that_sum_to_the_target(problem, seed):
    slots, target = problem
    expected = sorted(
        combo for combo in itertools.product(*(range(len(s)) for s in slots))
        if (sum(s[i].astype(np.int64) for s, i in zip(slots, combo)) == target).all()
    )
    search = TupleSearch([pack(s) for s in slots], pack(target[None, :].astype(np.uint8))[0])
    assert search.count == len(expected)
    listed = search.tuples(np.arange(search.count, dtype=np.int64))
    assert sorted(map(tuple, listed.tolist())) == expected
    drawn = search.sample(3, np.random.default_rng(seed))
    assert len(drawn) == min(3, len(expected)) and all(tuple(t) in set(expected) for t in drawn.tolist())


@given(st.integers(3, 4), st.integers(2, 11), st.integers(0, 2**32))
@settings(max_examples=200)
def test_searches_sharing_slots_list_what_a_search_alone_lists(n_slots, n_fields, seed):
    """Spacings counted after the same answers share a slot's rows (``shared``): a search that takes
    them from another's lists the same tuples in the same order, also where the other sorted the slot
    by another field (another target) or held it at another place; and so does one given the slots'
    row orders."""
    rng = np.random.default_rng(seed)
    slots = [rng.integers(0, 4, size=(int(rng.integers(3, 9)), n_fields)).astype(np.uint8) for _ in range(n_slots)]
    target = sum(s[rng.integers(len(s))].astype(np.int64) for s in slots)
    packed, keys = [pack(s) for s in slots], tuple(range(n_slots))  # the slots' names
    alone = TupleSearch(packed, pack(target[None, :].astype(np.uint8))[0]).all()
    shared: dict = {}
    TupleSearch(packed[::-1], pack(target[None, :].astype(np.uint8))[0], shared=shared, slot_keys=keys[::-1])
    TupleSearch(packed, pack(target[None, ::-1].astype(np.uint8))[0], shared=shared, slot_keys=keys)
    again = TupleSearch(packed, pack(target[None, :].astype(np.uint8))[0], shared=shared, slot_keys=keys)
    assert len(shared) and again.all().shape == alone.shape and (again.all() == alone).all()
    # the slots' row orders given (as the breaker keeps them): the right side taken in that order
    ordered = TupleSearch(packed, pack(target[None, :].astype(np.uint8))[0], slot_orders=[row_order(p) for p in packed])
    assert ordered.all().shape == alone.shape and (ordered.all() == alone).all()


@given(st.integers(1, 4), st.integers(1, 11), st.data())
@settings(max_examples=300)
def test_a_search_refined_from_its_parent_equals_one_from_scratch(n_slots, n_fields, data):
    """After one more answer (more fields), the search built from the search before it lists the
    same tuples in the same order (the guesses must not depend on what was cached).  Few values a
    field: rows equal before the last answers split after them."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32)))
    slots = [rng.integers(0, 3, size=(int(rng.integers(1, 13)), n_fields)).astype(np.uint8) for _ in range(n_slots)]
    target = sum(s[rng.integers(len(s))].astype(np.int64) for s in slots)
    kept = data.draw(st.integers(0, n_fields - 1))  # fields the parent had
    if kept:
        before = TupleSearch([pack(s[:, :kept]) for s in slots], pack(target[None, :kept].astype(np.uint8))[0])
    else:
        before = TupleSearch([np.zeros((len(s), 1), np.uint64) for s in slots], np.zeros(1, np.uint64))
    packed, goal = [pack(s) for s in slots], pack(target[None, :].astype(np.uint8))[0]
    scratch, refined = TupleSearch(packed, goal), TupleSearch(packed, goal, parent=before)
    assert refined.count == scratch.count
    everything = np.arange(scratch.count, dtype=np.int64)
    assert (refined.tuples(everything) == scratch.tuples(everything)).all()


WORDS = ["a", "at", "be", "cat", "ace", "bead", "date", "tea", "abc", "dab", "bed", "cab"]
#: Slot features kept across the examples (their spacings differ, a slot's words are those of its
#: length), as the breaker keeps them: a feature kept under a wrong key would fail the brute force.
PIECES: dict = {}


@given(st.lists(st.sampled_from(WORDS), min_size=3, max_size=3), st.data())
@settings(max_examples=60)
def test_packed_filter_equals_the_scalar_rule(secret_words, data):
    """Answers to factorizable probes, turned into packed fields, keep exactly the phrases of that
    spacing that the scalar rule says fit (slot features kept across spacings, see PIECES)."""
    lengths = np.array([len(w) for w in secret_words])
    secret = " ".join(secret_words)
    counts = np.array([[w.count(c) for c in ASCII_LETTERS] for w in WORDS], dtype=np.uint8)
    sat = probes.saturation(counts, 3)
    slots = [np.array([i for i, w in enumerate(WORDS) if len(w) == l]) for l in lengths]
    slots_bytes = [np.array([list(WORDS[i].encode()) for i in ix], dtype=np.uint8) for ix in slots]
    slots_counts = [counts[ix] for ix in slots]
    guesses = []
    for _ in range(data.draw(st.integers(1, 4))):
        left = data.draw(st.text(alphabet="abcdet -", min_size=len(secret), max_size=len(secret)))
        letters = data.draw(st.sets(st.sampled_from("abcdet"))) | set(left) - {" ", "-"}
        chosen = np.array([c in letters for c in ASCII_LETTERS])
        guesses.append(probes.build(left, chosen, sat))
    fields, targets = [[] for _ in lengths], []
    for guess in guesses:
        assert probes.is_factorizable(guess, sat)
        black, white = grade(guess, secret)
        for values, target in probes.fields(probes.word_features(guess, lengths, slots_bytes, slots_counts, PIECES),
                                            guess, black, white, lengths):
            for j, v in enumerate(values):
                fields[j].append(v)
            targets.append(target)
    packed = [pack(np.stack(f, axis=1)) for f in fields]
    search = TupleSearch(packed, pack(np.array([targets], dtype=np.uint8))[0])
    found = {" ".join(WORDS[slots[j][t[j]]] for j in range(3)) for t in search.tuples(np.arange(search.count)).tolist()}
    brute = {
        " ".join(p) for p in itertools.product(*([WORDS[i] for i in ix] for ix in slots))
        if all(grade(g, " ".join(p)) == grade(g, secret) for g in guesses)
    }
    assert secret in found and found == brute


def test_outputs_larger_than_their_first_allocation_are_counted_whole():
    """Four slots of 400 words: the right pairs (160,000) and the left matches outgrow a first
    allocation of 1,000 rows and must grow; the count is checked against a histogram convolution
    (how many 4-tuples sum to each target: an independent count)."""
    rng = np.random.default_rng(5)
    slots = [np.stack([rng.integers(0, 20, 400), rng.integers(0, 20, 400)], axis=1).astype(np.uint8) for _ in range(4)]
    target = np.array([38, 40])
    joint = np.ones((1, 1), dtype=np.int64)  # joint[a, b]: tuples so far whose two fields sum to (a, b)
    for slot in slots:
        hist = np.zeros((20, 20), dtype=np.int64)
        np.add.at(hist, (slot[:, 0], slot[:, 1]), 1)
        grown = np.zeros((joint.shape[0] + 19, joint.shape[1] + 19), dtype=np.int64)
        for a, b in zip(*np.nonzero(hist)):
            grown[a : a + joint.shape[0], b : b + joint.shape[1]] += hist[a, b] * joint
        joint = grown
    search = TupleSearch([pack(s) for s in slots], pack(target[None, :].astype(np.uint8))[0], start_rows=1000)
    assert search.count == joint[38, 40] > 1_000_000
    assert search.count == TupleSearch([pack(s) for s in slots], pack(target[None, :].astype(np.uint8))[0]).count
    drawn = search.sample(50, np.random.default_rng(1))
    assert all((sum(slots[j][t[j]].astype(int) for j in range(4)) == target).all() for t in drawn.tolist())


@given(st.integers(1, 20), st.integers(1, 2), st.integers(0, 30), st.integers(0, 2**32))
@settings(max_examples=60)
def test_one_or_two_fields_packed_after_some_equal_packing_them_all(before, after, rows, seed):
    features = np.random.default_rng(seed).integers(0, 128, (rows, before + after)).astype(np.uint8)
    extended = packed_after(pack(features[:, :before]), before, features[:, before], features[:, -1], after)
    assert extended.shape == pack(features).shape and (extended == pack(features)).all()


@given(st.integers(0, 40), st.integers(1, 3), st.integers(1, 4), st.integers(0, 2**32))
@settings(max_examples=200)
def test_the_radix_order_of_packed_rows_is_numpys_lexsort_and_groups_equal_rows(rows, words, values, seed):
    """Against numpy: the rows' order (ties by index), their groups, and the distinct rows sorted
    stably by one field."""
    rng = np.random.default_rng(seed)
    keys = pack(rng.integers(0, values, (rows, int(rng.integers(1, 8 * words + 1)))).astype(np.uint8))
    expected = np.lexsort(keys.T[::-1])
    assert (row_order(keys) == expected).all()
    order, starts, sizes = group_rows(keys)
    ordered = keys[expected]
    new = np.ones(rows, dtype=bool)
    new[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    assert (order == expected).all() and (starts == np.flatnonzero(new)).all() and sizes.sum() == rows
    field = int(rng.integers(0, 8 * keys.shape[1]))
    members, d_starts, d_sizes, distinct = distinct_rows(keys, field, row_order(keys))
    value = (ordered[new][:, field // 8] >> np.uint64(8 * (field % 8))) & np.uint64(0xFF)
    by_field = np.argsort(value, kind="stable")
    assert (distinct == ordered[new][by_field]).all() and (d_starts == starts[by_field]).all()
    assert (d_sizes == sizes[by_field]).all() and (members == expected).all()


@given(st.integers(0, 22), st.integers(1, 2), st.integers(0, 40), st.integers(1, 4), st.integers(0, 2**32))
@settings(max_examples=300)
def test_the_order_after_one_more_answer_follows_from_the_order_before(before, after, rows, values, seed):
    """The rows' order after one or two more fields, from the order before them, is numpy's lexsort
    of the rows (fields that open a word, fill one, or straddle two; few values: long runs of equal rows)."""
    features = np.random.default_rng(seed).integers(0, values, (rows, before + after)).astype(np.uint8)
    earlier = pack(features[:, :before]) if before else np.zeros((rows, 1), np.uint64)
    now = pack(features)
    order = refined_order(now, row_order(earlier), before, after)
    assert (order == np.lexsort(now.T[::-1])).all()
