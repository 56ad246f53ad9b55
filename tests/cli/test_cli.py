"""The CLI: results on stdout, one clear error line on stderr, exit codes 0 / 1 / 2."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hbs.cli import app
from hbs.core.feedback import grade

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


def one_error_line(result, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hbs: error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


@pytest.mark.parametrize("guess, secret", [("tiger baby mauling", "the big cat"), ("1122", "1222"), ("0123", "3210")])
def test_grade(guess, secret):
    black, white = grade(guess, secret)
    assert invoke("grade", guess, secret).stdout.strip() == f"black {black} white {white}"
    assert json.loads(invoke("grade", guess, secret, "--json").stdout) == {
        "black": black, "white": white, "solved": guess == secret}


def test_run_json_keys_and_figures():
    result = invoke("run", "--bot", "knuth", "--limit", "20", "--json")
    assert result.exit_code == 0
    summary = json.loads(result.stdout)
    for key in ("bot", "game", "games", "solved", "total_guesses", "mean_guesses", "max_guesses", "seconds"):
        assert key in summary
    assert summary["games"] == 20 and summary["game"] == "mastermind-4x6"
    assert summary["mean_guesses"] == summary["total_guesses"] / 20


def test_run_table_and_verbose_trace():
    result = invoke("run", "--bot", "knuth", "--limit", "2", "--verbose")
    assert result.exit_code == 0
    # games are traced as they end (two workers: in either order)
    assert {"game 1/2  secret '1111'", "game 1/2  secret '1112'"} & {line.strip() for line in result.stdout.splitlines()}
    assert "secret '1111'" in result.stdout and "secret '1112'" in result.stdout
    assert "1122" in result.stdout and "remain     1296" in result.stdout
    assert "total guesses" in result.stdout


def test_bots_lists_bundled_bots_and_load_errors(tmp_path):
    (tmp_path / "broken.py").write_text("import nosuchmodule_hbs\n")
    result = invoke("bots", "--bots-dir", str(tmp_path), "--json")
    rows = {r["name"]: r for r in json.loads(result.stdout)}
    assert rows["knuth"]["summary"].startswith("Knuth's minimax")
    assert "ModuleNotFoundError" in rows["broken"]["error"]
    table = invoke("bots", "--bots-dir", str(tmp_path)).stdout
    assert "cannot load" in table and "knuth" in table


def test_broken_bot_run_is_one_line(tmp_path):
    (tmp_path / "broken.py").write_text("x = 1\nraise ValueError('no')\n")
    line = one_error_line(invoke("run", "--bot", "broken", "--bots-dir", str(tmp_path)))
    assert "broken.py:2: ValueError: no" in line


def test_bad_inputs_name_file_and_line(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("cat\ndog\nice cream\n")
    assert f"{words}:3:" in one_error_line(invoke("run", "--bot", "first", "--phrases", str(words), "--words", str(words)))
    secrets = tmp_path / "codes.txt"
    secrets.write_text("1234\n1237\n")
    assert f"{secrets}:2:" in one_error_line(invoke("run", "--bot", "first", "--secrets", str(secrets)))
    good = tmp_path / "w2.txt"
    good.write_text("cat\ndog\n")
    phrases = tmp_path / "p.txt"
    phrases.write_text("cat dog cat\ncat dog\n")
    assert f"{phrases}:2:" in one_error_line(invoke("run", "--bot", "first", "--phrases", str(phrases), "--words", str(good)))


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--bot", "nobody"], "unknown bot 'nobody'"),
        (["--bot", "knuth", "--bot-option", "pool"], "KEY=VALUE"),
        (["--bot", "knuth", "--bot-option", "pool=some"], "pool must be"),
        (["--bot", "knuth", "--bot-option", "depth=3"], "no option 'depth'"),
        (["--bot", "knuth", "--seed", "3"], "takes no seed"),
        (["--bot", "knuth", "--game", "chess"], "unknown game"),
        (["--bot", "knuth", "--game", "bulls", "--colors", "6"], "--colors"),
        (["--bot", "knuth", "--max-guesses", "0"], "--max-guesses"),
        (["--bot", "knuth", "--limit", "0"], "--limit"),
        (["--bot", "knuth", "--phrases", "data/pass.txt"], "plays code games"),
        (["--bot", "first", "--phrases", "data/pass.txt"], "enumerates at most"),
        (["--bot", "first", "--game", "phrases"], "needs --phrases"),
        (["--bot", "first", "--secrets", "no/such/file.txt"], "no/such/file.txt: no such file"),
        (["--bot", "knuth", "--replays", "data", "--resume"], "data: not a replay file"),
        (["--bot", "knuth", "--no-replays", "--resume"], "not with --no-replays"),
        (["--bot", "knuth", "--replays", "r.jsonl", "--no-replays"], "--replays and --no-replays"),
        (["--bot", "knuth", "--workers", "0"], "--workers"),
    ],
)
def test_bad_run_options(args, fragment):
    assert fragment in one_error_line(invoke("run", *args))


def test_show_opens_a_game_of_a_recorded_run_by_its_name(tmp_path):
    board = str(tmp_path / "board")
    assert invoke("run", "--bot", "knuth", "--limit", "5", "--scoreboard", board).exit_code == 0
    shown = invoke("show", "knuth", "--scoreboard", board, "--secret", "1113")  # its replay, kept by default
    assert shown.exit_code == 0 and "secret '1113'" in shown.stdout and "SOLVED" in shown.stdout
    assert invoke("run", "--bot", "first", "--limit", "5", "--scoreboard", board, "--no-replays").exit_code == 0
    assert "kept no replay" in one_error_line(invoke("show", "first", "--scoreboard", board))
    assert "no recorded run named 'parts'" in one_error_line(invoke("show", "parts", "--scoreboard", board))


def test_show_prints_one_game_of_a_replay_file(tmp_path):
    replays = tmp_path / "r.jsonl"
    assert invoke("run", "--bot", "knuth", "--limit", "5", "--replays", str(replays)).exit_code == 0
    by_secret = invoke("show", str(replays), "--secret", "1113")
    assert by_secret.exit_code == 0 and "secret '1113'" in by_secret.stdout and "SOLVED" in by_secret.stdout
    first = invoke("show", str(replays)).stdout
    assert "game 1/5  secret '1111'" in first and "1122" in first
    assert "--game must be 1..5" in one_error_line(invoke("show", str(replays), "--game", "9"))
    assert "--game must be 1..5, got 0" in one_error_line(invoke("show", str(replays), "--game", "0"))
    assert "no game with secret" in one_error_line(invoke("show", str(replays), "--secret", "9999"))
    assert "no such replay file" in one_error_line(invoke("show", str(tmp_path / "none.jsonl")))
    replays.write_text(replays.read_text() + "{not json\n")
    assert f"{replays}:6:" in one_error_line(invoke("show", str(replays)))
