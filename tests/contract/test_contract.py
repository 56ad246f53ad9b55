"""The bot contract, version 1: what a bot may return, what it declares, what the runner keeps."""

from __future__ import annotations

import json
import textwrap

import numpy as np
import pytest
from typer.testing import CliRunner

from hbs import Bot, Guess, Status
from hbs.contract.guesses import read_guess
from hbs.cli import app
from hbs.errors import InputError
from hbs.core.games import PhraseGame, bulls, from_payload, mastermind
from hbs.arena.replays import read, regrade
from hbs.strategies import ConsistentBot

runner = CliRunner()


@pytest.mark.parametrize("value, expected", [
    ("1122", Guess("1122")),
    (Guess("1122", remaining=np.int64(7), phase="p1"), Guess("1122", 7, "p1")),
    (Guess("1122", remaining=0), Guess("1122", 0)),
])
def test_a_guess_is_a_str_or_a_guess(value, expected):
    guess, problem = read_guess(value)
    assert problem is None and guess == expected and type(guess.remaining) in (int, type(None))


@pytest.mark.parametrize("value, why", [
    (b"1122", "bytes, not str or hbs.Guess"),
    (Guess("1122", remaining=True), "remaining=True"),
    (Guess("1122", remaining=-1), "remaining=-1"),
    (Guess("1122", remaining=2.5), "remaining=2.5"),
    (Guess("1122", phase=3), "phase=3"),
    (Guess(""), "empty string"),
    (Guess("12\x0722"), "not printable"),
])
def test_anything_else_is_invalid_with_its_reason(value, why):
    guess, problem = read_guess(value)
    assert guess is None and why in problem


def test_games_are_declared_as_kinds_or_a_predicate():
    class Codes(Bot):
        games = {"mastermind", "bulls"}

    class Small(Bot):
        games = staticmethod(lambda game: game.size <= 2000)

    words = PhraseGame(("a", "b", "c"), 2)
    assert Codes.plays(mastermind()) and Codes.plays(bulls()) and not Codes.plays(words)
    assert Small.plays(mastermind()) and not Small.plays(bulls()) and Small.plays(words)
    assert not Bot.plays(mastermind())  # the base class declares nothing
    assert ConsistentBot.plays(words) and not ConsistentBot.plays(PhraseGame(tuple(f"w{i}" for i in range(2000)), 2))


@pytest.mark.parametrize("game", [mastermind(), mastermind(5, 8), bulls(), PhraseGame(("cat", "dog"), 4)])
def test_games_go_to_a_worker_and_back_unchanged(game):
    assert from_payload(json.loads(json.dumps(game.to_payload()))) == game


def test_a_broken_payload_is_an_input_error():
    with pytest.raises(InputError, match="not a game"):
        from_payload({"kind": "mastermind", "pegs": "four"})


def test_statuses_are_strings_everywhere():
    assert Status.SOLVED == "solved" and json.dumps(Status.TIMEOUT) == '"timeout"'
    assert [s.failure for s in Status] == [False, True, True, True, True]


TALKER = '''
import sys
from hbs import Bot, Guess


class Talker(Bot):
    """First consistent with a phase; says things on stderr and fails on its third guess."""

    games = {"mastermind"}
    history_only = HISTORY_ONLY

    def setup(self, game):
        self.game = game

    def guess(self, history):
        print(f"thinking after {len(history)} answers", file=sys.stderr)
        if len(history) == 2:
            raise RuntimeError("gave up")
        fit = self.game.fitting(history)
        return Guess(fit[0], len(fit), phase=f"p{len(history)}")
'''


@pytest.fixture(params=[False, True], ids=["one game at a time", "several games at once"])
def talker(tmp_path, request):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "talker.py").write_text(textwrap.dedent(TALKER).replace("HISTORY_ONLY", str(request.param)))
    codes = tmp_path / "codes.txt"
    codes.write_text("1111\n1122\n3456\n")  # 1111 is found at once, 1122 second; 3456 takes more
    return tmp_path


def test_what_a_bot_says_is_kept_where_its_game_failed(talker, batches_grow):
    # (batches_grow: on a slow machine the batch had stayed at one game, 3456's log its own lines only)
    replays = talker / "r.jsonl"
    result = runner.invoke(app, ["run", "--bot", "talker", "--bots-dir", str(talker / "bots"), "--secrets",
                                 str(talker / "codes.txt"), "--replays", str(replays), "--workers", "1", "--verbose"])
    assert result.exit_code == 0, result.output
    records = {r.secret: r for r in read(replays)}
    assert all(not regrade(r) for r in records.values())
    assert records["1111"].status == "solved" and records["1111"].log is None
    failed = records["3456"]
    assert failed.status == "error" and "gave up" in failed.error
    said = ["thinking after 0 answers", "thinking after 1 answers", "thinking after 2 answers"]
    if "history_only = False" in (talker / "bots" / "talker.py").read_text():
        assert failed.log.splitlines() == said
    else:  # its turns were interleaved with 1122's: what was said in both is kept, its own lines in order
        log = iter(failed.log.splitlines())
        assert all(line in log for line in said)  # a subsequence
        assert len(failed.log.splitlines()) > len(said)
    assert [s.phase for s in failed.steps] == ["p0", "p1"] and failed.steps[0].remaining == 1296
    assert "the bot's stderr:" in result.stdout and "thinking after 2 answers" in result.stdout


def test_replays_carry_a_version_and_old_files_still_read(talker):
    replays = talker / "r.jsonl"
    args = ["run", "--bot", "talker", "--bots-dir", str(talker / "bots"), "--secrets", str(talker / "codes.txt"),
            "--replays", str(replays), "--workers", "1", "--json"]
    assert runner.invoke(app, args).exit_code == 0
    lines = [json.loads(line) for line in replays.read_text().splitlines()]
    assert {line["version"] for line in lines} == {1}
    old = [{k: v for k, v in line.items() if k != "version"} for line in lines[:2]]  # as written before versions
    replays.write_text("".join(json.dumps(line) + "\n" for line in old))
    shown = runner.invoke(app, ["show", str(replays), "--game", "2"])
    assert shown.exit_code == 0 and "1122" in shown.stdout and "disagrees" not in shown.stdout
    resumed = runner.invoke(app, [*args, "--resume"])
    assert resumed.exit_code == 0 and json.loads(resumed.stdout)["games"] == 3
    newer = dict(lines[0], version=99)
    replays.write_text(json.dumps(newer) + "\n")
    refused = runner.invoke(app, ["show", str(replays)])
    assert refused.exit_code == 2 and "version 99 is newer" in refused.stderr
