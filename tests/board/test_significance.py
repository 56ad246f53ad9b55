"""Ranks with significance: the paired test against an exact permutation test, Holm's correction by
hand, and real bots' guesses (two identical bots share a rank; entropy and first on 4x6 do not)."""

from __future__ import annotations

import numpy as np
import pytest

from hbs.arena.play import run
from hbs.board.scoreboard import standings
from hbs.board.significance import holm, paired_p, ranks
from hbs.contract.bot import load_bot, make_bot
from hbs.core.games import mastermind


def exact_signed_rank_p(d: np.ndarray) -> float:
    """Two-sided p of the signed-rank statistic over every sign flip, counted by subset sums of the
    doubled ranks (zeros dropped, tied ranks averaged): the exact null distribution."""
    d = d[d != 0]
    magnitude = np.abs(d)
    rank = np.empty(len(d))
    rank[np.argsort(magnitude, kind="stable")] = np.arange(1, len(d) + 1)
    for value in np.unique(magnitude):  # ties share their mean rank
        rank[magnitude == value] = rank[magnitude == value].mean()
    doubled = np.rint(2 * rank).astype(np.int64)
    ways = np.zeros(doubled.sum() + 1)
    ways[0] = 1
    for r in doubled:  # the sums of the subsets of ranks flipped positive
        ways[r:] = ways[r:] + ways[:-r]
    observed, centre = doubled[d > 0].sum(), doubled.sum() / 2
    far = np.abs(np.arange(len(ways)) - centre) >= abs(observed - centre) - 1e-9
    return float(ways[far].sum() / ways.sum())


@pytest.mark.parametrize("seed", range(6))
def test_the_paired_test_agrees_with_an_exact_permutation_test(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(3, 8, 80)
    b = a + rng.choice([-2, -1, 0, 0, 1, 1, 2], 80)  # mostly a little worse, as bots' guesses differ
    exact, p = exact_signed_rank_p(a - b), paired_p(a, b)
    assert p == pytest.approx(exact, abs=0.03, rel=0.25)  # the normal approximation, ties corrected
    assert (p < 0.05) == (exact < 0.05) or abs(exact - 0.05) < 0.005
    assert paired_p(b, a) == p  # two-sided


@pytest.mark.parametrize("seed", range(4))
def test_the_paired_test_is_scipys_normal_approximation(seed):
    """The p-value computed here is SciPy's (``wilcoxon``, ``method="approx"``, zeros dropped), which
    the board imported until that took 2.3 s of each command drawing one."""
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(seed)
    for n in (1, 2, 7, 40, 300):
        a = rng.integers(3, 9, n)
        b = a + rng.choice([-3, -2, -1, 0, 1, 1, 2, 6], n)
        if not (a - b).any():
            continue
        expected = stats.wilcoxon(a - b, zero_method="wilcox", alternative="two-sided", method="approx").pvalue
        assert paired_p(a, b) == pytest.approx(expected, rel=1e-12)


def test_no_secret_tells_identical_guesses_apart():
    assert paired_p([4, 5, 6], [4, 5, 6]) == 1.0
    with pytest.raises(ValueError):
        paired_p([4, 5], [4, 5, 6])


def test_holm_by_hand():
    # sorted: 0.005 <= 0.05/4, 0.01 <= 0.05/3, then 0.03 > 0.05/2: it and every later one stand
    assert holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert holm([0.001, 0.002]) == [True, True]
    assert holm([0.2, 0.001]) == [False, True]
    assert holm([]) == []


def test_a_bot_shares_the_rank_above_until_a_difference_is_significant():
    rng = np.random.default_rng(0)
    best = rng.integers(4, 6, 400)
    same = best.copy()
    same[:3] += 1  # three secrets apart: not significant
    worse = best + (rng.random(400) < 0.5)  # one guess more on half the secrets
    order, above = ranks([best.tolist(), same.tolist(), worse.tolist()])
    assert order == [1, 1, 3]
    assert above[1] > 0.05 and above[2] < 1e-10


def board_of(bots: dict[str, str]) -> list:
    """The standings of bots played in-process on every code of 4x6: name -> bot file."""
    game = mastermind(4, 6)
    secrets = game.codes()
    runs = []
    for name, bot_name in bots.items():
        bot = make_bot(load_bot(bot_name), {})
        bot.setup(game)
        records = run(bot, game.name, secrets, 100, None)
        guesses = [r.guesses for r in records]
        runs.append({"bot": name, "game": game.name, "secrets": "all", "guesses": guesses,
                     "statuses": [r.status for r in records], "seconds_per_game": 0.0,
                     "summary": {"games": len(guesses), "solved": len(guesses), "total_guesses": sum(guesses),
                                 "mean_guesses": sum(guesses) / len(guesses), "max_guesses": max(guesses),
                                 "failures": {}}})
    return standings(runs)[0]


def test_two_identical_bots_share_a_rank_and_entropy_beats_first_far_below_0_001():
    rows = board_of({"entropy": "entropy", "first": "first", "first_again": "first"})
    board = {s.bot: s for s in rows}
    assert [s.bot for s in rows][0] == "entropy" and board["entropy"].rank == 1
    assert board["entropy"].p_vs_leader is None
    assert board["first"].rank == board["first_again"].rank == 2  # the same guesses: p 1, one rank
    assert board["first"].p_vs_leader == board["first_again"].p_vs_leader < 1e-6
