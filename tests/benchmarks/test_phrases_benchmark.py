"""``benchmarks/phrases.py``'s report: the bits each phase's guesses told, and the slowest guesses."""

from __future__ import annotations

import math
import random

import pytest

from hbs.arena.play import run
from hbs.contract.bot import load_bot, make_bot
from hbs.core.feedback import grade
from hbs.core.games import PhraseGame
from hbs.core.loaders import load_words


@pytest.fixture
def bench(benchmark_script):
    return benchmark_script("phrases")


def test_the_first_guess_tells_what_a_brute_force_over_the_list_says(bench, root):
    """One word of ``data/words.txt``: the bot counts every word at its first guess and lists those
    that fit its answer at the second, so the bits the report gives the first guess are the mean of
    log2(words / words that answer the first guess as the secret does), counted here by the rule
    over the whole list."""
    words = load_words(root / "data" / "words.txt")
    game = PhraseGame(words, 1)
    rng = random.Random(5)
    secrets = [rng.choice(words) for _ in range(12)]
    bot = make_bot(load_bot("entropy"), {"seed": "0"})
    bot.setup(game)
    records = run(bot, game.name, secrets, 100, None)
    first = records[0].steps[0].guess
    assert all(r.steps[0].guess == first and r.steps[-1].guess == r.secret for r in records)
    expected = [math.log2(len(words) / sum(grade(first, w) == grade(first, s) for w in words))
                for s in secrets]
    bits, n = bench.told(records)["p0"]
    assert n == len(secrets)
    assert bits / n == pytest.approx(sum(expected) / len(expected), abs=1e-9)
    shown = bench.slowest_guesses(records, 2).split("; ")
    steps = sorted((s.seconds for r in records[1:] for s in r.steps), reverse=True)
    assert [float(part.split(" s ")[0]) for part in shown] == pytest.approx([round(t, 2) for t in steps[:2]], abs=1e-9)
