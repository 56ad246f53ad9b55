"""`hbs tree`: the figures agree with `hbs run`, every leaf's path re-grades, and randomness is refused."""

from __future__ import annotations

import json
import re
import textwrap

import pytest
from typer.testing import CliRunner

from hbs.cli import app
from hbs.core.feedback import grade

runner = CliRunner()


@pytest.mark.parametrize("bot, game, total, worst", [
    ("knuth", "mastermind", 5801, 5),
    pytest.param("first", "bulls", 28024, 9, marks=pytest.mark.slow),  # 5040 leaves, each a worker request
])
def test_tree_agrees_with_run(tmp_path, bot, game, total, worst):
    out = tmp_path / "tree.json"
    result = runner.invoke(app, ["tree", "--bot", bot, "--game", game, "--json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    run = json.loads(runner.invoke(app, ["run", "--bot", bot, "--game", game, "--json"]).stdout)
    assert (summary["leaves"], summary["total"], summary["worst"]) == (run["games"], total, worst)
    assert run["total_guesses"] == total

    # walk the nested tree: each child's answer is the rule's answer of the parent's guess on the leaf
    leaves = []

    def walk(node, path):
        path = path + [node]
        if node["leaf"]:
            leaves.append(path)
        for child in node["children"]:
            walk(child, path)

    walk(json.loads(out.read_text()), [])
    assert len(leaves) == summary["leaves"] and sum(len(p) for p in leaves) == total
    for path in leaves[::37]:
        secret = path[-1]["guess"]
        for parent, child in zip(path, path[1:]):
            assert tuple(child["answer"]) == grade(parent["guess"], secret)


def test_tree_text_looks_like_knuths():
    lines = runner.invoke(app, ["tree", "--bot", "knuth"]).stdout.splitlines()
    assert lines[0] == "1:     1122 (1296) *"  # 1122 is itself found at guess 1
    # after 1122 answered 0 0, the 4**4 codes without a 1 or a 2 remain
    assert re.match(r"^  2: 0 0 [3-6]{4} \(256\)", lines[1])
    assert sum(line.endswith("*") for line in lines) == 1296
    assert lines[-1] == "worst case 5, total 5801, average 4.4761 over 1296 codes"


def test_a_random_bot_is_refused(tmp_path):
    (tmp_path / "coin.py").write_text(textwrap.dedent('''
        import random
        from hbs.strategies import ConsistentBot

        class Coin(ConsistentBot):
            """Picks any consistent code, unseeded."""
            def choose(self, history, subset):
                return self.space.text(subset[random.randrange(len(subset))])
    '''))
    result = runner.invoke(app, ["tree", "--bot", "coin", "--bots-dir", str(tmp_path)])
    assert result.exit_code == 2 and "not deterministic" in result.stderr


def test_tree_refuses_phrases():
    result = runner.invoke(app, ["tree", "--bot", "entropy", "--game", "phrases"])
    assert result.exit_code == 2 and "code game" in result.stderr


def test_a_tree_too_large_to_build_is_one_line():
    """6x9's tree would play 531,441 codes twice (hours): refused before a bot starts."""
    result = runner.invoke(app, ["tree", "--bot", "knuth", "--pegs", "6", "--colors", "9"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "hbs: error: hbs tree plays every code twice: mastermind-6x9 has 531,441 codes, it builds trees of games "
        "up to 50,000 codes (hbs run --limit or --secrets plays a sample)"]


def test_a_long_setup_is_given_its_setup_timeout(tmp_path):
    """`--setup-timeout`, as for `hbs run`: a bot that searches a large game in its setup (1 s here)."""
    (tmp_path / "patient.py").write_text(textwrap.dedent('''
        import time
        from hbs import Bot

        class Patient(Bot):
            """First code, after a long setup."""
            games = frozenset({"mastermind"})

            def setup(self, game):
                time.sleep(1)
                self.codes = game.codes()

            def guess(self, history):
                done = {g for g, b, w in history}
                return next(c for c in self.codes if c not in done)
        '''))
    args = ["tree", "--bot", "patient", "--bots-dir", str(tmp_path), "--pegs", "1", "--colors", "3", "--json"]
    short = runner.invoke(app, [*args, "--setup-timeout", "0.3"])
    assert short.exit_code != 0 and "0.30 s" in short.output + short.stderr
    assert json.loads(runner.invoke(app, [*args, "--setup-timeout", "30"]).stdout)["leaves"] == 3
