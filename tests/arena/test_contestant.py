"""Games through a worker, several at once for a bot whose guesses depend on the history alone
(real worker processes, confined as a run would be)."""

from __future__ import annotations

import sys
import textwrap

import pytest

from hbs.arena.contestant import BotRef, Contestant, play_all
from hbs.arena.local import run_isolated
from hbs.arena.play import run
from hbs.arena.replays import regrade
from hbs.contract.bot import load_bot, locate, make_bot
from hbs.core.games import mastermind
from hbs.core.rule import grade
from hbs.sandbox import confinement
from hbs.sandbox.workers import Budgets, Worker

GAME = mastermind(4, 6)


def plan_for(source):
    mechanism, _ = confinement.choose("auto")
    return confinement.plan(mechanism, source, None, 4096)


def test_several_games_at_once_give_the_guesses_of_one_at_a_time(monkeypatch, batches_grow):
    secrets = GAME.codes()[::5]  # 260 games
    source = locate("knuth", [])
    asked = []
    request = Worker.request
    monkeypatch.setattr(Worker, "request", lambda self, message, timeout: (
        asked.append(len(message.get("histories", [None]))), request(self, message, timeout))[1])
    records = run_isolated(BotRef(source), GAME.name, GAME.to_payload(), secrets, Budgets(), 2, plan=plan_for(source))
    bot = make_bot(load_bot("knuth"))
    bot.setup(GAME)
    reference = run(bot, GAME.name, secrets)  # in this process, one game after another
    assert [[s.guess for s in r.steps] for r in records] == [[s.guess for s in r.steps] for r in reference]
    assert all(r.status == "solved" and not regrade(r) for r in records)
    assert max(asked) > 8 and sum(asked) == sum(r.guesses for r in records)  # batched, each guess asked once


STALLER = '''
import time
from hbs import Bot


class Staller(Bot):
    """First consistent code; stalls on one history (after 1111 got one black)."""

    games = {"mastermind"}
    history_only = HISTORY_ONLY

    def setup(self, game):
        self.game = game  # game.fitting: no numba for each worker that replaces a stalled one

    def guess(self, history):
        if len(history) == 1 and tuple(history[0][1:]) == (1, 0):
            time.sleep(30)
        return self.game.fitting(history)[0]
'''


@pytest.mark.parametrize("history_only", [False, True])
def test_a_stalled_game_times_out_alone(tmp_path, history_only):
    (tmp_path / "staller.py").write_text(textwrap.dedent(STALLER).replace("HISTORY_ONLY", str(history_only)))
    source = locate("staller", [str(tmp_path)])
    secrets = ["1111", "1122", "1123", "1234", "1345", "2345", "2456", "3456", "4566", "5555", "6666", "2316"]
    budgets = Budgets(guess_timeout=0.3, game_timeout=0.2)
    contestant = Contestant(BotRef(source), GAME.to_payload(), budgets, plan_for(source))
    try:
        records = play_all(contestant, GAME.name, secrets)
    finally:
        contestant.reset()
    stalled = {s for s in secrets if grade("1111", s) == (1, 0)}
    assert stalled == {"1234", "1345", "2316"}
    assert {r.secret for r in records if r.status == "timeout"} == stalled
    assert all(r.status == "solved" for r in records if r.secret not in stalled)
    assert all(not regrade(r) for r in records)
    assert contestant.batch is history_only or contestant.worker is None


PROGRAM = '''
import itertools, json, sys

CODES = ["".join(c) for c in itertools.product("123456", repeat=4)]


def grade(g, s):
    black = sum(a == b for a, b in zip(g, s))
    return black, sum(min(g.count(c), s.count(c)) for c in set(g)) - black


def guess(history):
    return {"guess": next(c for c in CODES if all(grade(g, c) == (b, w) for g, b, w in history))}


for line in sys.stdin:
    request = json.loads(line)
    if request["op"] == "setup":
        reply = {"ok": True, "batch": True}
    elif request["op"] == "guesses":
        reply = {"guesses": [guess(h) for h in request["histories"]][:LIMIT]}
    else:
        reply = guess(request["history"])
    print(json.dumps(reply), flush=True)
'''


@pytest.mark.parametrize("limit", ["None", "1"], ids=["answers every history", "answers only the first"])
def test_a_program_that_says_batch_plays_the_same_games(tmp_path, monkeypatch, limit, batches_grow):
    folder = tmp_path / "prog"
    folder.mkdir()
    (folder / "bot.py").write_text(textwrap.dedent(PROGRAM).replace("LIMIT", limit))
    (folder / "bot.toml").write_text(f'command = ["{sys.executable}", "bot.py"]\ngames = ["mastermind"]\n')
    source = locate("prog", [str(tmp_path)])
    secrets = GAME.codes()[::37]
    asked = []
    request = Worker.request
    monkeypatch.setattr(Worker, "request", lambda self, message, timeout: (
        asked.append(message["op"]), request(self, message, timeout))[1])
    contestant = Contestant(BotRef(source), GAME.to_payload(), Budgets(), plan_for(source))
    try:
        records = play_all(contestant, GAME.name, secrets)
    finally:
        contestant.reset()
    first = make_bot(load_bot("first"))
    first.setup(GAME)
    reference = run(first, GAME.name, secrets)  # the same rule: the first code that fits
    assert [[s.guess for s in r.steps] for r in records] == [[s.guess for s in r.steps] for r in reference]
    assert "guesses" in asked
    if limit == "1":  # a broken batch: one at a time from then on
        assert asked[asked.index("guesses") + 1:].count("guesses") == 0
