"""Every run keeps its replay by default, beside its scoreboard record and out of git; an interrupted
re-run leaves the finished replay whole and --resume goes on; a site can leave the secrets out."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from hbs.arena.replays import read, regrade
from hbs.arena.request import Request
from hbs.arena.runs import RunOptions, execute
from hbs.board import scoreboard, site
from hbs.errors import InputError

SPEC = Request(bot="knuth", game="mastermind", limit=12)


def run(folder, interrupt_after: int | None = None, **options):
    seen = []

    def on_record(record):
        seen.append(record)
        if interrupt_after is not None and len(seen) == interrupt_after:
            raise KeyboardInterrupt

    return execute(SPEC, RunOptions(in_process=True, confinement="none", **options), on_record)


def test_a_run_keeps_its_replay_beside_the_scoreboard_and_git_never_takes_it(tmp_path):
    board = tmp_path / "scoreboard"
    outcome = run(tmp_path, replay_folder=str(board / "replays"))
    record = json.loads(scoreboard.record_run(board, outcome).read_text())
    assert record["replays"] == f"replays/knuth__mastermind-4x6__{outcome.secret_set}.jsonl"  # the folder can move
    kept = list(read(board / record["replays"]))
    assert [r.secret for r in kept] == outcome.secrets and all(not regrade(r) for r in kept)
    assert [r.guesses for r in kept] == record["guesses"]
    assert (board / "replays").stat().st_mode & 0o077 == 0  # private: it holds the secrets
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    git = ["git", "-C", str(tmp_path), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    staged = subprocess.run(git + ["ls-files"], capture_output=True, text=True, check=True).stdout.split()
    assert any(p.startswith("scoreboard/runs/") for p in staged) and not any("replays" in p for p in staged), staged


def test_an_interrupted_rerun_leaves_the_finished_replay_whole_and_resume_goes_on(tmp_path):
    folder = tmp_path / "replays"
    first = run(tmp_path, replay_folder=str(folder))
    final = folder / f"knuth__mastermind-4x6__{first.secret_set}.jsonl"
    whole = final.read_bytes()
    again = run(tmp_path, interrupt_after=5, replay_folder=str(folder))
    assert again.interrupted and final.read_bytes() == whole  # the scoreboard's replay still matches its record
    partial = final.with_name(final.name + ".partial")
    assert again.replays == str(partial) and len(list(read(partial))) == 5
    resumed = run(tmp_path, replay_folder=str(folder), resume=True)
    assert resumed.played == len(first.secrets) - 5 and not partial.exists()
    assert [r.guesses for r in read(final)] == [r.guesses for r in first.records]


def test_no_replays_keeps_none_and_cannot_resume(tmp_path):
    outcome = run(tmp_path)
    assert outcome.replays is None and not list(tmp_path.iterdir())
    with pytest.raises(InputError, match="--no-replays"):
        run(tmp_path, resume=True)


def test_a_site_without_secrets_names_games_by_number(tmp_path):
    board = tmp_path / "scoreboard"
    outcome = run(tmp_path, replay_folder=str(board / "replays"))
    scoreboard.record_run(board, outcome)
    for secrets in (True, False):
        out = tmp_path / f"site-{secrets}"
        site.write(out, scoreboard.load_runs(board), scoreboard=board, with_secrets=secrets)
        meta = (out / "data" / "runs" / f"knuth__mastermind-4x6__{outcome.secret_set}" / "meta.js").read_text()
        shown = json.loads(meta[meta.index("(") + 1: meta.rindex(")")].split(",", 1)[1])["secrets"]
        assert shown == (outcome.secrets if secrets else [f"game {k + 1}" for k in range(len(outcome.secrets))])
    published = "".join(p.read_text() for p in (tmp_path / "site-False").rglob("*.js"))
    kept = "".join(p.read_text() for p in (tmp_path / "site-True").rglob("*.js"))
    assert all(f'"secret":"{s}"' in kept and f'"secret":"{s}"' not in published for s in outcome.secrets)
