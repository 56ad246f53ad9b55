"""The optimal bot: its search against a brute force on small games, the published optima through
`hbs run` (re-graded), its saved decision tree, bad input, and the same strategy on any thread count."""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pytest
from typer.testing import CliRunner

from hbs.cli import app
from hbs.core.games import DIGITS, CodeGame, PhraseGame, mastermind
from hbs.arena.replays import read, regrade
from hbs.core.rule import grade
from hbs.strategies.optimal import bot as optimal
from hbs.strategies.optimal import bounded
from hbs.strategies.optimal.decision_tree import check, from_strategy, save
from hbs.strategies.codes.space import CodeSpace

runner = CliRunner()
NONE = 10**9


def brute_force(game: CodeGame, max_depth: int | None) -> int:
    """The least total guesses by plain recursion over every guess, no bound and no symmetry, the
    answers from the scalar rule (memoised by the set of codes left)."""
    codes = game.codes()
    found = game.pegs, 0

    @lru_cache(maxsize=None)
    def cost(left: tuple[str, ...], depth: int) -> int:
        if len(left) == 1:
            return 1 if depth >= 1 else NONE
        if depth <= 1:
            return NONE
        best = NONE
        for guess in codes:
            groups: dict[tuple[int, int], list[str]] = {}
            for code in left:
                groups.setdefault(grade(guess, code), []).append(code)
            if len(groups) == 1 and guess not in left:
                continue  # learns nothing
            total = len(left) + sum(cost(tuple(g), depth - 1) for a, g in groups.items() if a != found)
            best = min(best, total)
        return best

    return cost(tuple(codes), max_depth or 99)


SMALL = [  # each brute force under 2 s
    (mastermind(2, 4), None), (mastermind(3, 3), None), (mastermind(3, 3), 3), (mastermind(2, 5), None),
    (mastermind(4, 2), None), (mastermind(5, 2), None), (mastermind(3, 4), 3),
    (CodeGame("bulls", 2, 4, DIGITS), None), (CodeGame("bulls", 3, 4, DIGITS), None),
    (CodeGame("bulls", 2, 5, DIGITS), None), (CodeGame("bulls", 2, 6, DIGITS), 3),
]
# brute_force() on larger games, run once (8 s to 8 minutes each): too slow for the suite
BRUTE_FORCE_FIGURES = [
    (mastermind(3, 4), None, 206), (mastermind(3, 4), 4, 206), (mastermind(4, 3), None, 246),
    (mastermind(4, 3), 3, None), (CodeGame("bulls", 3, 5, DIGITS), None, 196), (mastermind(3, 5), None, 451),
    (CodeGame("bulls", 3, 6, DIGITS), None, 436),
]


@pytest.mark.parametrize("game, max_depth", SMALL, ids=lambda v: getattr(v, "name", str(v)))
def test_search_equals_brute_force(game, max_depth):
    expected = brute_force(game, max_depth)
    # searched whole, with no symmetry, and as tasks down to sets of 4 codes
    for symmetric, split in ((True, optimal.SPLIT), (False, optimal.SPLIT), (True, 4)):
        try:
            found = optimal.solve(game, CodeSpace(game).matrix, max_depth, symmetric=symmetric, split=split)
        except optimal.NoStrategy:
            assert expected >= NONE
            continue
        assert found.total == expected
        # the strategy itself: every code found, re-graded with the rule, within max_depth
        total, worst = check(game, from_strategy(game, found))
        assert total == expected
        assert max_depth is None or worst <= max_depth


@pytest.mark.parametrize("game, max_depth, total", BRUTE_FORCE_FIGURES, ids=lambda v: getattr(v, "name", str(v)))
def test_search_equals_brute_force_figures(game, max_depth, total):
    # searched whole, and (Bulls: one opening stands for all) as tasks down to sets of 16 codes
    for split in (optimal.SPLIT, 16) if game.kind == "bulls" else (optimal.SPLIT,):
        try:
            found = optimal.solve(game, CodeSpace(game).matrix, max_depth, split=split)
        except optimal.NoStrategy:
            assert total is None
            continue
        assert found.total == total
        assert check(game, from_strategy(game, found))[0] == total


def test_symmetry_prunes_without_changing_the_optimum():
    game = mastermind(3, 5)
    matrix = CodeSpace(game).matrix
    plain, reduced = optimal.solve(game, matrix, symmetric=False), optimal.solve(game, matrix)
    assert plain.total == reduced.total == 451  # = brute_force(mastermind(3, 5), None), 7 minutes of it
    assert reduced.stats["pairs scored"] < plain.stats["pairs scored"] / 2


def test_same_strategy_on_any_number_of_threads():
    game = CodeGame("bulls", 3, 7, DIGITS)  # 210 codes searched as tasks down to sets of 20 (3 levels)
    found = [optimal.solve(game, CodeSpace(game).matrix, threads=threads, split=20) for threads in (1, 2, 3)]
    whole = optimal.solve(game, CodeSpace(game).matrix)
    assert found[0].total == whole.total == check(game, from_strategy(game, found[1]))[0]
    for other in found[1:]:
        assert other.stats == found[0].stats  # the same tasks, searched alike
        for name in ("parent", "answer", "guess", "size"):
            assert np.array_equal(getattr(other, name), getattr(found[0], name))


def run_json(*args: str) -> dict:
    result = runner.invoke(app, ["run", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# Koyama and Lai 1993: 5625 in all (max 6); 5626 when no code may take a sixth guess.
@pytest.mark.parametrize("options, total, worst", [
    ([], 5625, 6), pytest.param(["--bot-option", "max_depth=5"], 5626, 5, marks=pytest.mark.slow)])
def test_published_optimum_through_hbs_run(tmp_path, options, total, worst):
    replays = tmp_path / "r.jsonl"
    summary = run_json("--bot", "optimal", *options, "--replays", str(replays))
    assert (summary["solved"], summary["total_guesses"], summary["max_guesses"]) == (1296, total, worst)
    records = list(read(replays))
    assert sum(r.guesses for r in records) == total and all(not regrade(r) for r in records)


@pytest.mark.slow
def test_bulls_and_cows_optimum(tmp_path):
    summary = run_json("--bot", "optimal", "--game", "bulls", "--setup-timeout", "900")
    assert (summary["solved"], summary["total_guesses"]) == (5040, 26274)


def test_max_depth_no_strategy_meets_is_one_line_exit_2():
    result = runner.invoke(app, ["run", "--bot", "optimal", "--bot-option", "max_depth=4", "--json"])
    assert result.exit_code == 2
    assert "no strategy finds every mastermind-4x6 code within 4 guesses" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_hbs_tree_writes_the_optimal_tree(tmp_path):
    out = tmp_path / "optimal.json"
    result = runner.invoke(app, ["tree", "--bot", "optimal", "--json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["leaves"], summary["total"], summary["worst"]) == (1296, 5625, 6)
    assert check(mastermind(), json.loads(out.read_text())) == (5625, 6)


def test_the_saved_tree_is_played_without_search(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    game = mastermind(3, 4)

    def fresh(**options):
        bot = optimal.OptimalBot(**options)
        bot.setup(game)
        return bot

    first = fresh()
    saved = list((tmp_path / "strategies").glob("*.json"))  # beside it, the workers' lock
    assert first.searched and len(saved) == 1
    second = fresh()
    assert not second.searched
    assert second.guess([]).text == first.guess([]).text
    assert fresh(max_depth=4).searched  # another max_depth: another strategy
    # a tree that misses codes is not played: the bot searches again and rewrites it
    save({"guess": "111", "answer": None, "remaining": 64, "leaf": True, "children": []}, saved[0])
    third = fresh()
    assert third.searched and check(game, json.loads(saved[0].read_text()))[0] == 206


def test_declares_what_it_searches_in_a_default_setup():
    assert optimal.OptimalBot.plays(mastermind()) and optimal.OptimalBot.plays(mastermind(3, 5))
    assert not optimal.OptimalBot.plays(CodeGame("bulls", 4, 10, DIGITS))  # plays it when asked by name
    assert not optimal.OptimalBot.plays(PhraseGame(("a", "b"), 2))


def test_declines_what_it_cannot_search():
    bot = optimal.OptimalBot()
    with pytest.raises(optimal.UnsupportedGame, match="at most 10,000 codes"):
        bot.setup(mastermind(5, 8))
    with pytest.raises(optimal.UnsupportedGame, match="code games"):
        bot.setup(PhraseGame(("a", "b"), 2))


def test_symmetry_keeps_the_optimum_on_4x7_sets():
    """The sets the opening 1234 leaves on 4x7 (where the published mean, 4.676 a code, admits 11227
    or 11228 and the search finds 11228): searched with every code as a candidate, the same costs."""
    from hbs.strategies.optimal import search

    game = mastermind(4, 7)
    dense, ids = search.dense_answers(CodeSpace(game).matrix)
    arrays = search.tables(game, dense)
    perfect = int(np.searchsorted(ids, 20))
    first = game.codes().index("1234")
    for answer in range(len(ids)):
        subset = np.nonzero(dense[first] == answer)[0].astype(np.int64)
        if answer == perfect or not 0 < len(subset) <= 180:
            continue
        costs = [search.solve_set(subset, 63, np.array([first]), 1, arrays,
                                  np.array([len(ids), perfect, 7, 0, 0, symmetric]))[0] for symmetric in (1, 0)]
        assert costs[0] == costs[1], (answer, len(subset), costs)


@pytest.mark.parametrize("game", [g for g, depth in SMALL if depth is None], ids=lambda g: g.name)
def test_bounds_hold_the_optimum(game):
    """Where the exact search does not finish, a strategy and a proven lower bound: the brute force's
    optimum lies between them, and they meet on it where every group is searched exactly."""
    expected = brute_force(game, None)
    matrix = CodeSpace(game).matrix
    for exact_below, tries in ((0, 1), (2, 1), (4, 2), (game.size, 1)):
        found = bounded.bounds(game, matrix, exact_below, tries)
        assert found.lower <= expected <= found.total
        assert check(game, from_strategy(game, found.strategy))[0] == found.total
    assert found.lower == found.total == expected


def test_bounds_on_4x6_and_4x7_around_the_published_optima():
    rough = bounded.bounds(mastermind(), CodeSpace(mastermind()).matrix, 0, 1, threads=2)
    assert rough.lower <= 5625 < rough.total < 5801  # between the optimum and Knuth's
    exact = bounded.bounds(mastermind(), CodeSpace(mastermind()).matrix, 300, 1, threads=2)
    assert exact.lower == exact.total == 5625  # every group below each opening searched: the optimum
    game = mastermind(4, 7)
    wider = bounded.bounds(game, CodeSpace(game).matrix, 100, 2, threads=2)
    assert wider.lower <= 11228 <= wider.total  # Ville 2013: 4.676 a code


def test_exact_below_plays_its_strategy_through_hbs_run(tmp_path):
    replays = tmp_path / "r.jsonl"
    summary = run_json("--bot", "optimal", "--bot-option", "exact_below=100", "--bot-option", "tries=1",
                       "--replays", str(replays))
    expected = bounded.bounds(mastermind(), CodeSpace(mastermind()).matrix, 100, 1).total
    assert (summary["solved"], summary["total_guesses"]) == (1296, expected)
    assert all(not regrade(r) for r in read(replays))


@pytest.mark.parametrize("options, message", [
    (["exact_below=-1"], "exact_below must be 0"), (["exact_below=100", "tries=-1"], "tries must be 1 or more"),
    (["tries=2"], "tries goes with exact_below"),
    (["exact_below=100", "max_depth=5"], "do not go together")])
def test_bad_exact_below_is_one_line_exit_2(options, message):
    args = [arg for option in options for arg in ("--bot-option", option)]
    result = runner.invoke(app, ["run", "--bot", "optimal", *args, "--json"])
    assert result.exit_code == 2 and message in result.output
    assert len(result.output.strip().splitlines()) == 1
