"""Untrusted bots through `hbs run`: each misdeed ends its game with the right status, in budget,
and the other games go on (a killed worker is replaced)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hbs.cli import app
from hbs.sandbox.confinement import available
from hbs.core.feedback import grade
from hbs.sandbox.workers import cores
from hbs.arena.replays import read, regrade

HOSTILE = str(Path(__file__).parent / "hostile")
SECRETS = ["1111", "1234", "2345", "3456", "6543"]
runner = CliRunner()


def run(tmp_path, bot, *extra, secrets=SECRETS):
    codes = tmp_path / "codes.txt"
    codes.write_text("\n".join(secrets) + "\n")
    replays = tmp_path / f"{bot}.jsonl"
    replays.unlink(missing_ok=True)
    start = time.monotonic()
    result = runner.invoke(app, ["run", "--bot", bot, "--bots-dir", HOSTILE, "--secrets", str(codes),
                                 "--replays", str(replays), "--json", "--workers", "2", *extra])
    elapsed = time.monotonic() - start
    assert result.exit_code == 0, result.output
    records = list(read(replays))
    assert [r.secret for r in records] == secrets  # one line a game, in secret order
    assert all(not regrade(r) for r in records)  # every answer, and every status against the last guess
    return json.loads(result.stdout), records, elapsed


FAST = ["--guess-timeout", "0.5", "--game-timeout", "0.5"]


@pytest.mark.parametrize("bot", ["looper", "sleeper"])
def test_bots_that_never_answer_time_out(tmp_path, bot):
    summary, records, elapsed = run(tmp_path, bot, *FAST, secrets=SECRETS[:2])
    assert {r.status for r in records} == {"timeout"}
    assert summary["failures"] == {"timeout": 2}
    assert elapsed < 60  # two games of one second each, on two workers, plus worker start-ups


def test_a_bot_that_raises(tmp_path):
    _, records, _ = run(tmp_path, "raiser")  # it guesses 1122 (none of the secrets), then raises
    assert all(r.status == "error" and r.guesses == 1 and "ZeroDivisionError" in r.error for r in records)


@pytest.mark.parametrize("kind, why", [("none", "NoneType"), ("bytes", "bytes"), ("huge", "characters"),
                                       ("control", "not printable"), ("empty", "empty")])
def test_garbage_is_invalid(tmp_path, kind, why):
    _, records, _ = run(tmp_path, "garbage", "--bot-option", f"kind={kind}", secrets=SECRETS[:2])
    assert all(r.status == "invalid" and why in r.error and r.guesses == 0 for r in records)


def test_a_bot_that_never_finds_the_code_exhausts_its_budget(tmp_path):
    _, records, _ = run(tmp_path, "stubborn", "--max-guesses", "7")
    for r in records:
        assert (r.status, r.guesses) == (("solved", 1) if r.secret == "1111" else ("exhausted", 7))


@pytest.mark.parametrize("how, why", [("exit", "exited with code 3"), ("kill", "SIGKILL")])
def test_a_bot_that_kills_its_process(tmp_path, how, why):
    _, records, _ = run(tmp_path, "suicide", "--bot-option", f"how={how}", secrets=SECRETS[:3])
    assert all(r.status == "error" and why in r.error for r in records)


def test_a_bot_that_allocates_64_gb(tmp_path):
    _, records, _ = run(tmp_path, "hog", "--memory", "2048", secrets=SECRETS[:2])
    assert all(r.status == "error" and "MemoryError" in r.error for r in records)


def test_a_bot_out_of_memory_loses_that_game_only(tmp_path):
    """What a bot keeps after a MemoryError may hold its process at the cap: the next game gets a fresh
    worker. leaky keeps memory when 1111 gets no black (2345), and needs 512 MB of scratch a guess."""
    secrets = ["2345", "1111", "1234", "1212", "1221"]
    _, records, _ = run(tmp_path, "leaky", "--memory", "2048", "--workers", "1", secrets=secrets)
    assert records[0].status == "error" and "MemoryError" in records[0].error
    assert [r.status for r in records[1:]] == ["solved"] * 4  # the same worker: each one an error


def test_a_failure_ends_only_its_own_game(tmp_path):
    summary, records, _ = run(tmp_path, "moody", *FAST)
    for r in records:
        hangs = grade("1111", r.secret)[0] == 0
        assert r.status == ("timeout" if hangs else "solved"), r.secret
    assert summary["solved"] == sum(grade("1111", s)[0] > 0 for s in SECRETS)


def test_a_bot_finds_no_secret_in_its_own_process(tmp_path):
    _, isolated, _ = run(tmp_path, "snoop")
    assert [r.guesses for r in isolated] != [1] * len(SECRETS)
    assert all(r.steps[0].guess == "1111" for r in isolated)
    # the same bot in the debug mode (same process as the oracle) does find it: the test can fail
    _, trusting, _ = run(tmp_path, "snoop", "--in-process")
    assert [r.guesses for r in trusting] == [1] * len(SECRETS)


def test_parallel_runs_equal_serial_runs(tmp_path):
    one = runner.invoke(app, ["run", "--bot", "knuth", "--limit", "60", "--workers", "1", "--replays", str(tmp_path / "a")])
    two = runner.invoke(app, ["run", "--bot", "knuth", "--limit", "60", "--workers", "2", "--replays", str(tmp_path / "b")])
    assert one.exit_code == two.exit_code == 0
    def results(path):  # everything but the timings
        games = [json.loads(line) for line in path.read_text().splitlines()]
        for game in games:
            game.pop("seconds")
            for guess in game["guesses"]:
                guess.pop("seconds")
        return games

    assert results(tmp_path / "a") == results(tmp_path / "b")


def test_resume_plays_only_what_is_missing(tmp_path):
    replays = tmp_path / "r.jsonl"
    first = runner.invoke(app, ["run", "--bot", "knuth", "--limit", "30", "--replays", str(replays), "--json"])
    lines = replays.read_text().splitlines()
    # keep 12 games and a torn 13th line, as a run killed mid-write would leave it
    replays.write_text("\n".join(lines[:12]) + "\n" + lines[12][:25])
    again = runner.invoke(app, ["run", "--bot", "knuth", "--limit", "30", "--replays", str(replays), "--json", "--resume"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["total_guesses"] == json.loads(first.stdout)["total_guesses"]
    assert [json.loads(l)["secret"] for l in replays.read_text().splitlines()] == [json.loads(l)["secret"] for l in lines]
    other = runner.invoke(app, ["run", "--bot", "first", "--limit", "30", "--replays", str(replays), "--resume"])
    assert other.exit_code == 2 and "belongs to bot 'knuth'" in other.stderr
    fresh = runner.invoke(app, ["run", "--bot", "knuth", "--limit", "30", "--replays", str(replays)])
    assert fresh.exit_code == 2 and "--resume" in fresh.stderr


@pytest.mark.parametrize("how", [["--sandbox", m] for m in available()] + [[]])
def test_confinement_hides_the_secrets_file(tmp_path, how):
    codes = str(tmp_path / "codes.txt")
    summary, records, _ = run(tmp_path, "peeker", "--bot-option", f"path={codes}", "--unconfined", secrets=["3456"])
    assert records[0].guesses == 1  # an unconfined worker can read any file: the test can fail
    summary, records, _ = run(tmp_path, "peeker", "--bot-option", f"path={codes}", *how, secrets=["3456"])
    if not available():
        pytest.skip("no confinement on this machine")
    assert summary["solved"] == 1 and records[0].steps[0].guess == "1111" and records[0].guesses > 1


def test_phrase_runs_do_not_depend_on_workers_or_cores(tmp_path, root):
    phrases = tmp_path / "p.txt"
    phrases.write_text("\n".join((root / "data" / "pass.txt").read_text().splitlines()[:4]) + "\n")
    outs = []
    for extra in (["--workers", "1"], ["--workers", "2"], ["--in-process"]):
        replays = tmp_path / f"r{len(outs)}.jsonl"
        result = runner.invoke(app, ["run", "--bot", "entropy", "--phrases", str(phrases), "--replays", str(replays), *extra])
        assert result.exit_code == 0, result.output
        outs.append([[g["guess"] for g in json.loads(l)["guesses"]] for l in replays.read_text().splitlines()])
    assert outs[0] == outs[1] == outs[2]


@pytest.mark.parametrize("workers", [1, 2])
def test_workers_run_under_the_memory_cap_and_their_share_of_cores(tmp_path, workers):
    # through `python -m hbs`, as a user runs it: the first worker is started before the options are
    # read, so it must still take the run's cap (and its thread share) before the bot loads
    codes = tmp_path / "codes.txt"
    codes.write_text("1234\n2345\n3456\n")
    replays = tmp_path / "r.jsonl"
    done = subprocess.run([sys.executable, "-m", "hbs", "run", "--bot", "limits", "--bots-dir", HOSTILE,
                           "--secrets", str(codes), "--replays", str(replays), "--memory", "1536",
                           "--workers", str(workers), "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    share = max(1, cores() // workers)
    for record in read(replays):
        assert record.status == "error" and f"memory=1536/1536 threads={share}" in record.error, record.error
