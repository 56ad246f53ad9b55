"""The classic bots reproduce their published figures over the whole space, through `hbs run --json`,
and every replay line re-grades with the rule."""

from __future__ import annotations

import itertools
import json

import pytest
from typer.testing import CliRunner

from hbs.cli import app
from hbs.core.feedback import grade
from hbs.arena.replays import read, regrade

# (bot, game args, total guesses, max guesses): Knuth 1977; Kooi 2005; the design's anchors.
FIGURES = [
    ("first", ["--game", "mastermind"], 7471, 9),
    ("first", ["--game", "bulls"], 28024, 9),
    ("knuth", ["--game", "mastermind"], 5801, 5),
    ("knuth", ["--game", "bulls"], 27139, 7),
    ("knuth", ["--game", "mastermind", "--bot-option", "pool=consistent"], 5828, 6),
    ("entropy", ["--game", "mastermind"], 5722, 6),
    ("entropy", ["--game", "bulls"], 26424, 8),
    ("parts", ["--game", "mastermind"], 5668, None),
    ("hybrid", ["--game", "mastermind"], 5680, 6),
    ("hybrid", ["--game", "bulls"], 26424, 8),
]


def run_json(*args: str) -> dict:
    """`hbs run ... --in-process --json`: these are the bots' figures, the same in a worker (the
    confined path is tested in tests/integration, and by tests/cli/test_check.py on these bots)."""
    result = CliRunner().invoke(app, ["run", *args, "--in-process", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("bot, args, total, worst", FIGURES, ids=lambda v: str(v))
def test_published_figures(tmp_path, bot, args, total, worst):
    replays = tmp_path / "r.jsonl"
    summary = run_json("--bot", bot, *args, "--replays", str(replays))
    assert summary["solved"] == summary["games"] == (5040 if "bulls" in args else 1296)
    assert summary["total_guesses"] == total
    if worst is not None:
        assert summary["max_guesses"] == worst
    records = list(read(replays))
    assert len(records) == summary["games"]
    assert len({r.secret for r in records}) == summary["games"]
    assert sum(r.guesses for r in records) == total
    assert all(not regrade(r) for r in records)


@pytest.mark.slow  # every code of 5x8 (a 1 GB answer matrix): 35 s
def test_hybrid_beats_the_published_5x8_heuristics():
    """Most parts first, then entropy, over all 32,768 codes of 5x8: 179,704 (max 7), below the best
    published heuristic totals (entropy over all guesses: 179,746; from 11223: 179,752)."""
    summary = run_json("--bot", "hybrid", "--game", "mastermind", "--pegs", "5", "--colors", "8", "--no-replays")
    assert summary["solved"] == summary["games"] == 8**5
    assert (summary["total_guesses"], summary["max_guesses"]) == (179704, 7)


def test_random_is_reproducible_and_depends_on_the_seed(tmp_path):
    def guesses(seed: str, name: str) -> list[list[str]]:
        replays = tmp_path / name
        run_json("--bot", "random", "--seed", seed, "--replays", str(replays))
        records = list(read(replays))
        assert len(records) == 1296 and all(r.status == "solved" and not regrade(r) for r in records)
        for record in records:  # every guess fits every earlier answer (the scalar rule)
            for k, step in enumerate(record.steps):
                assert all(grade(s.guess, step.guess) == (s.black, s.white) for s in record.steps[:k])
        return [[s.guess for s in r.steps] for r in records]

    a, b, c = guesses("7", "a.jsonl"), guesses("7", "b.jsonl"), guesses("8", "c.jsonl")
    assert a == b  # same seed, same guesses, game for game
    assert sum(x != y for x, y in zip(a, c)) > 100  # another seed draws other guesses


WORDS = ["a", "an", "ant", "be", "bee", "cab", "dab"]


@pytest.mark.parametrize("bot", ["first", "random"])
def test_small_phrase_game_is_solved_with_consistent_guesses(tmp_path, bot):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    everything = [" ".join(p) for p in itertools.product(WORDS, repeat=2)]
    phrases = tmp_path / "phrases.txt"
    phrases.write_text("\n".join(everything) + "\n")
    replays = tmp_path / "r.jsonl"
    summary = run_json("--bot", bot, "--phrases", str(phrases), "--words", str(words), "--n-words", "2",
                       "--replays", str(replays))
    assert summary["solved"] == len(everything)
    for record in read(replays):
        assert not regrade(record)
        for k, step in enumerate(record.steps):
            # the guess fits every earlier answer (brute force over the whole phrase space)
            assert step.guess in everything
            assert all(grade(s.guess, step.guess) == (s.black, s.white) for s in record.steps[:k])
