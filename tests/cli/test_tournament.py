"""`hbs tournament`: several bots on the same secrets; standings checked against each bot's replays."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from hbs.arena.replays import read, regrade


def tournament(tmp_path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hbs", "tournament", "--scoreboard", str(tmp_path / "board"), *args],
                          capture_output=True, text=True, timeout=600)


def test_standings_agree_with_every_bots_replays(tmp_path):
    done = tournament(tmp_path, "--bot", "knuth", "--bot", "first", "--bot", "nobody", "--limit", "60",
                      "--replays", str(tmp_path / "r"), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [e["bot"] for e in result["skipped"]] == ["nobody"] and "unknown bot" in result["skipped"][0]["why"]
    guesses = {}
    for bot in ("knuth", "first"):
        records = list(read(tmp_path / "r" / f"{bot}.jsonl"))
        assert len(records) == 60 and all(r.status == "solved" and not regrade(r) for r in records)
        guesses[bot] = [r.guesses for r in records]
    rows = {row["bot"]: row for row in result["standings"]}
    assert [row["bot"] for row in result["standings"]] == ["knuth", "first"]  # fewer guesses lead
    for bot, g in guesses.items():
        assert rows[bot]["total_guesses"] == sum(g) and rows[bot]["confinement"] in ("bwrap", "landlock", "none")
    lead, other = guesses["knuth"], guesses["first"]
    assert rows["first"]["vs_leader"] == {"won": sum(a < b for a, b in zip(other, lead)),
                                          "lost": sum(a > b for a, b in zip(other, lead)),
                                          "tied": sum(a == b for a, b in zip(other, lead))}
    assert not (tmp_path / "r" / "nobody.jsonl").exists()  # a bot that never played leaves no file
    board = subprocess.run([sys.executable, "-m", "hbs", "board", "--scoreboard", str(tmp_path / "board"), "--json"],
                           capture_output=True, text=True)
    assert {r["bot"] for r in json.loads(board.stdout)} == {"knuth", "first"}  # each run recorded


@pytest.mark.slow  # every bundled bot, twice: 10 s (test_standings_agree_with_every_bots_replays plays two)
def test_all_plays_every_bot_that_declares_the_game_and_resume_goes_on(tmp_path):
    args = ["--all", "--game", "bulls", "--limit", "25", "--workers", "1", "--replays", str(tmp_path / "r"), "--json"]
    done = tournament(tmp_path, *args)
    assert done.returncode == 0, done.stderr
    played = {row["bot"]: row["total_guesses"] for row in json.loads(done.stdout)["standings"]}
    expected = {"entropy", "first", "hybrid", "knuth", "parts", "random"}
    expected |= {"first_c"} if shutil.which("cc") else set()
    expected |= {"first_js"} if shutil.which("node") else set()
    assert set(played) == expected  # every bundled bot declares bulls
    knuth = tmp_path / "r" / "knuth.jsonl"
    knuth.write_text("".join(knuth.read_text().splitlines(keepends=True)[:10]))  # as a killed run leaves it
    again = tournament(tmp_path, *args, "--resume")
    assert again.returncode == 0, again.stderr
    assert {row["bot"]: row["total_guesses"] for row in json.loads(again.stdout)["standings"]} == played
    assert len(list(read(knuth))) == 25


def test_a_bot_that_declines_the_game_is_skipped(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("a\nab\nabc\nb\nba\n")
    phrases = tmp_path / "p.txt"
    phrases.write_text("a ab\nba b\nabc a\n")
    done = tournament(tmp_path, "--bot", "first", "--bot", "knuth", "--phrases", str(phrases), "--words", str(words),
                      "--n-words", "2", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [r["bot"] for r in result["standings"]] == ["first"] and result["standings"][0]["solved"] == 3
    assert result["skipped"][0]["bot"] == "knuth" and "declines the game" in result["skipped"][0]["why"]


@pytest.mark.parametrize("args, why", [
    ([], "give the bots with --bot NAME (repeatable), or --all"),
    (["--bot", "knuth", "--all"], "or --all"),
    (["--bot", "knuth", "--bot", "knuth"], "a bot is named twice"),
    (["--bot", "knuth", "--limit", "0"], "--limit must be at least 1"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, why):
    done = tournament(tmp_path, *args)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and why in done.stderr, done.stderr


def test_replays_must_be_a_folder(tmp_path):
    (tmp_path / "file").write_text("")
    done = tournament(tmp_path, "--bot", "knuth", "--limit", "3", "--replays", str(tmp_path / "file"))
    assert done.returncode == 2 and "must be a folder" in done.stderr
