"""Spacing, probe design and expected-log scoring, each against the scalar rule or a brute force."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hbs.core.feedback import encode_joined, encode_strings, grade
from hbs.strategies.phrases import probes
from hbs.strategies.phrases import spacing
from hbs.strategies.phrases.alphabet import ASCII_LETTERS
from hbs.strategies.phrases.expected_cost import COST_KNOTS, expected_costs
from hbs.strategies.phrases.free_probe import design_free

WORDS = ["a", "be", "cat", "dogs", "eagle", "tea", "bead", "ace"]


def test_hypotheses_are_every_length_tuple_with_its_phrase_count():
    sizes = Counter(len(w) for w in WORDS)
    lengths, weights = spacing.hypotheses(dict(sizes), 3, 11)
    brute = Counter(tuple(len(w) for w in p) for p in itertools.product(WORDS, repeat=3) if len(" ".join(p)) == 11)
    assert {tuple(r): w for r, w in zip(lengths.tolist(), weights)} == brute


@pytest.mark.parametrize("n_words", [1, 3, 6, 8])
def test_hypotheses_list_the_product_in_order_with_exact_weights(n_words):
    """Against itertools and Python's exact integers: eight words of classes of about 1,100 words
    weigh up to 2**81, beyond float64's exact integers (the float of the exact product is expected)."""
    sizes = {3: 1109, 4: 1297, 5: 1013, 7: 977, 9: 1511} if n_words > 1 else {2: 5, 6: 10**9}
    for length in (None, 3 * n_words + n_words - 1, n_words - 2):  # (the last: shorter than its spaces)
        lengths, weights = spacing.hypotheses(sizes, n_words, length)
        combos = [c for c in itertools.product(sorted(sizes), repeat=n_words)
                  if length is None or sum(c) + n_words - 1 == length]
        assert lengths.tolist() == [list(c) for c in combos]
        assert weights.tolist() == [float(math.prod(sizes[l] for l in c)) for c in combos]


@given(st.text(alphabet=" -", min_size=1, max_size=20))
def test_space_hits_are_the_black_answer_of_a_space_probe(probe):
    sizes = Counter(len(w) for w in WORDS)
    lengths, _ = spacing.hypotheses(dict(sizes), 3)
    hits = spacing.space_hits(lengths, probe)
    for row, h in zip(lengths.tolist()[::7], hits[::7]):
        phrase = " ".join("x" * l for l in row)
        assert grade(probe, phrase)[0] == h == spacing.space_hit_count(row, probe)


def reference_space_probe(lengths, weights, width, groups, passes=4):
    """The space probe's local search written plainly: every toggle weighed by the entropy of the
    (group, spaces hit) table of every hypothesis, counted afresh with ``np.bincount``."""
    hits = np.zeros((width, len(lengths)), dtype=np.int64)
    for i, row in enumerate(lengths.tolist()):
        end = -1
        for l in row[:-1]:
            end += l + 1
            if end < width:
                hits[end, i] = 1

    def told(values):
        table = np.bincount(groups * 10 + values, weights=weights, minlength=(groups.max() + 1) * 10)
        table = table.reshape(-1, 10) / weights.sum()
        rows = table.sum(axis=1)
        cells, rows = table[table > 0], rows[rows > 0]
        return float(-(cells * np.log2(cells)).sum() + (rows * np.log2(rows)).sum())

    chosen, counts = np.zeros(width, dtype=bool), np.zeros(len(lengths), dtype=np.int64)
    best = told(counts)
    for _ in range(passes):
        improved = False
        for pos in np.flatnonzero(hits.any(axis=1)):
            trial = counts + (-1 if chosen[pos] else 1) * hits[pos]
            if told(trial) > best + 1e-12:
                best, counts, chosen[pos], improved = told(trial), trial, not chosen[pos], True
        if not improved:
            break
    return chosen


@pytest.mark.parametrize("seed", range(12))
def test_the_space_probe_is_the_plain_local_searchs(seed):
    """The design keeps a table of weights by position and updates it as toggles are kept; the
    probe is the one the search weighing every toggle over every hypothesis finds."""
    rng = np.random.default_rng(seed)
    classes = rng.choice(np.arange(1, 9), int(rng.integers(2, 6)), replace=False)
    sizes = {int(l): int(rng.integers(1, 10 ** int(rng.integers(1, 5)))) for l in classes}
    n_words = int(rng.integers(1, 6))
    lengths, weights = spacing.hypotheses(sizes, n_words)
    if seed % 3 == 0:  # weights as a game's counts leave them: some spacings near nothing
        weights = weights * np.exp(rng.normal(0, 8, len(weights)))
    phrase = lengths.sum(axis=1) + n_words - 1
    groups = np.unique(phrase, return_inverse=True)[1] if seed % 2 else np.zeros(len(lengths), dtype=np.int64)
    width = int(phrase.max()) if seed % 4 else int(np.median(phrase))
    expected = reference_space_probe(lengths, weights, width, groups)
    assert np.array_equal(spacing.design_space_probe(lengths, weights, width, groups), expected)


def entropy(values) -> float:
    n = len(values)
    return -sum(c / n * math.log2(c / n) for c in Counter(values).values())


def test_probe_design_is_at_least_as_informative_as_simple_probes():
    rng = random.Random(3)
    phrases = [" ".join(rng.choice(["cat", "tea", "ace"]) + " " + rng.choice(["dogs", "bead"]) for _ in range(1))
               for _ in range(300)]
    rows, _ = encode_strings(phrases)
    chars = rows.astype(np.int64) - 97
    chars[rows == 32] = 26  # a space: the code after the letters
    counts = np.array([[p.count(c) for c in ASCII_LETTERS] for p in phrases])
    codes, chosen, _ = probes.design_probe(chars, counts, np.ones(rows.shape[1], dtype=np.bool_), 3)
    sat = np.full(26, 4)
    guess = probes.build(probes.left_side(codes, 26), chosen, sat)
    assert probes.is_factorizable(guess, sat)
    measured = entropy([grade(guess, p) for p in phrases])
    for letter in range(26):
        simple = probes.build("-" * rows.shape[1], np.arange(26) == letter, sat)
        assert measured >= entropy([grade(simple, p) for p in phrases]) - 1e-9


def test_probe_design_tells_apart_phrases_of_the_same_letters():
    """The end of a long game: every phrase left holds as many of each letter (the right sides'
    counts have fixed them), so no letter of S alone tells any apart (the control below), and a
    design that only toggled S and then placed S's letters returned a probe of fillers only,
    answer 0 0 for all (six Diceware words: 1,004 phrases listed, four guesses of 3.3-3.9 bits).
    A letter outside S is placed with S: the probe tells them apart as well as the best single
    letter at one position, counted by the rule."""
    words = ["tea", "eat", "ate", "tae"]
    phrases = [f"{a} {b}" for a in words for b in words]
    rows, _ = encode_strings(phrases)
    chars = rows.astype(np.int64) - 97
    chars[rows == 32] = 26
    counts = np.array([[p.count(c) for c in ASCII_LETTERS] for p in phrases])
    sat = np.full(26, 2)
    for letter in range(26):  # the control: a letter of S alone tells nothing
        assert entropy([grade(probes.build("-" * 7, np.arange(26) == letter, sat), p) for p in phrases]) == 0
    codes, chosen, told = probes.design_probe(chars, counts, np.ones(7, dtype=np.bool_), 3)
    guess = probes.build(probes.left_side(codes, 26), chosen, sat)
    measured = entropy([grade(guess, p) for p in phrases])
    assert probes.is_factorizable(guess, sat) and abs(measured - told) < 1e-9
    single = max(entropy([grade(probes.build("-" * pos + ch + "-" * (6 - pos), np.arange(26) == ord(ch) - 97, sat), p)
                          for p in phrases]) for pos in range(7) for ch in "tea")
    assert single >= 1 and measured >= single - 1e-9


@given(st.integers(1, 40), st.integers(0, 2**32))
@settings(max_examples=200)
def test_letter_moves_find_the_best_letter_outside_s_at_one_position(k, seed):
    """Against the entropy counted afresh for every (letter outside S, usable empty position where
    some phrase holds it; elsewhere the move is a toggle of S, which the design tries first)."""
    rng = np.random.default_rng(seed)
    letters, width = 5, 6
    chars = rng.integers(0, letters + 1, size=(k, width))  # (the code ``letters`` is a space)
    counts = np.stack([(chars == c).sum(axis=1) for c in range(letters)], axis=1).astype(np.int64)
    chosen = rng.random(letters) < 0.4
    usable = rng.random(width) < 0.8
    left = np.full(width, -1, dtype=np.int64)
    for pos in range(width):
        if chosen.any() and usable[pos] and rng.random() < 0.3:
            left[pos] = rng.choice(np.flatnonzero(chosen))
    black = sum(((chars[:, pos] == left[pos]) for pos in range(width) if left[pos] >= 0), np.zeros(k, dtype=np.int64))
    total = counts[:, chosen].sum(axis=1).astype(np.int64)
    tw = int(counts.sum(axis=1).max()) + 1
    hist = np.zeros((width + 2) * (tw + width + 2), dtype=np.int64)
    nlogn = np.arange(k + 2) * np.log2(np.maximum(np.arange(k + 2), 1))
    order, first = probes._by_position(chars, letters)
    c, pos, score = probes._letter_moves(chars, counts, usable, chosen, left, black.astype(np.int64), total, tw,
                                         hist, nlogn, order, first)
    assert not hist.any()  # the scratch is left zeroed
    brute = {(c_, p_): entropy(list(zip((black + (chars[:, p_] == c_)).tolist(), (total + counts[:, c_]).tolist())))
             for c_ in range(letters) if not chosen[c_] for p_ in range(width)
             if usable[p_] and left[p_] < 0 and (chars[:, p_] == c_).any()}
    best = max([v for v in brute.values() if v > 1e-12], default=0.0)
    assert abs(score - best) < 1e-9
    if best > 0:
        assert abs(brute[(c, pos)] - best) < 1e-9
    else:
        assert (c, pos) == (-1, -1)


@given(st.integers(1, 60), st.integers(0, 2**32))
@settings(max_examples=200)
def test_position_scores_are_the_entropy_of_each_letter_there(k, seed):
    """The one-histogram scores of a probe position equal the entropy counted afresh for each code."""
    rng = np.random.default_rng(seed)
    space, tw = 4, 7
    base = rng.integers(0, 3, size=k)
    total = rng.integers(0, tw, size=k)
    column = rng.integers(-1, space + 2, size=k)  # codes outside 0..space match nothing
    hist = np.zeros((space + 5) * tw, dtype=np.int64)
    order, first = probes._by_position(column[:, None], space)  # (the phrases by their code there)
    scores = probes._position_scores(base, total, order[0], first[0], tw, space, hist,
                                     np.arange(k + 2) * np.log2(np.maximum(np.arange(k + 2), 1)))
    assert not hist.any()  # the scratch is left zeroed
    for c in range(-1, space + 1):
        black = base + (column == c) if c >= 0 else base  # -1: nothing at the position
        assert abs(scores[c + 1] - entropy(list(zip(black.tolist(), total.tolist())))) < 1e-9


@given(st.lists(st.lists(st.integers(0, 4), min_size=1, max_size=4), min_size=0, max_size=8))
def test_joined_rows_are_the_joined_texts_encoded(rows):
    words = ["a", "bc", "def", "ghij", "k-l"]
    width = max(len(r) for r in rows) if rows else 1
    parts = np.array([r[:1] * (width - len(r)) + r for r in rows], dtype=np.int64).reshape(len(rows), width)
    word_bytes, word_lengths = encode_strings(words)
    got = encode_joined(parts, word_bytes, word_lengths)
    expected = encode_strings([" ".join(words[i] for i in r) for r in parts.tolist()])
    assert (got[0] == expected[0]).all() and got[0].shape == expected[0].shape and (got[1] == expected[1]).all()


def brute_cost(guess: str, secrets: list[str], population: int, wins: bool = True) -> float:
    """The expected guesses after ``guess`` by the scalar rule (``wins``: a secret it equals needs none)."""
    groups = Counter(grade(guess, s) for s in secrets if s != guess or not wins)
    scale = population / len(secrets)
    knots = COST_KNOTS.tolist()

    def cost(m: float) -> float:
        x = math.log2(m)
        for (x0, y0), (x1, y1) in zip(knots, knots[1:]):
            if x <= x1:
                return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        return knots[-1][1]

    return sum(n * cost(max(1.0, n * scale)) for n in groups.values()) / len(secrets)


@given(st.lists(st.text(alphabet="abc -", min_size=1, max_size=9), min_size=1, max_size=12),
       st.lists(st.text(alphabet="abc -", min_size=1, max_size=9), min_size=1, max_size=5),
       st.integers(1, 1000))
@settings(max_examples=150)
def test_expected_costs_match_brute_force(secrets, guesses, extra):
    population = len(secrets) + extra
    g_rows, g_lens = encode_strings(guesses)
    s_rows, s_lens = encode_strings(secrets)
    costs = expected_costs(g_rows, g_lens, s_rows, s_lens, population, COST_KNOTS)
    assert np.allclose(costs, [brute_cost(g, secrets, population) for g in guesses])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("one_length", [True, False])
def test_a_free_probe_is_scored_by_the_rule_and_no_one_move_improves_it(seed, one_length):
    """Phrases of one length (as listed after the first answer told it), or words of every length
    zero-padded to the longest (a one-word game listed from its first guess)."""
    rng = random.Random(seed)
    if one_length:
        drawn = sorted({" ".join(rng.choice(WORDS) for _ in range(3)) for _ in range(300)})
        length = Counter(map(len, drawn)).most_common(1)[0][0]
        phrases = [p for p in drawn if len(p) == length]
    else:
        phrases = sorted(set(rng.sample(WORDS, min(60, len(WORDS)))))
        length = max(map(len, phrases))
        assert len(set(map(len, phrases))) > 2
    population = 3 * len(phrases)
    symbols = "- " + "".join(sorted(set("".join(WORDS))))
    start = phrases[seed] + "-" * max(length // 2, length - len(phrases[seed]))
    guess, score = design_free(encode_strings(phrases)[0], length, np.frombuffer(symbols.encode(), np.uint8),
                               np.frombuffer(start.encode(), np.uint8), population, COST_KNOTS, 50)
    text = guess.tobytes().decode()
    assert score == pytest.approx(brute_cost(text, phrases, population, wins=False))
    assert score <= brute_cost(start, phrases, population, wins=False) + 1e-12
    for i in range(len(text)):
        for c in symbols:
            assert brute_cost(text[:i] + c + text[i + 1 :], phrases, population, wins=False) >= score - 1e-9
