"""Replay files on disk: written game by game, read back, resumed after a kill, rewritten."""

from __future__ import annotations

import pytest

from hbs.core.record import GameRecord, Step
from hbs.arena.replays import ReplayWriter, read, regrade, resume, rewrite, secret_set_hash
from hbs.core.rule import grade
from hbs.errors import InputError

SECRETS = ["1234", "5566", "6543"]


def game(secret: str) -> GameRecord:
    steps = [Step(g, *grade(g, secret), remaining=3, phase="p", seconds=0.01) for g in ("1122", "3456")]
    steps.append(Step(secret, len(secret), 0))
    return GameRecord("knuth", "mastermind-4x6", secret, "solved", steps, seconds=0.03)


def test_what_is_written_is_read_back_and_regrades(tmp_path):
    path = tmp_path / "r.jsonl"
    with ReplayWriter(path, secret_set_hash(SECRETS)) as writer:
        for secret in SECRETS:
            writer.write(game(secret))
    back = list(read(path))
    assert [r.secret for r in back] == SECRETS and back[0].steps == game(SECRETS[0]).steps
    assert all(regrade(r) == [] for r in back)
    forged = back[1]
    forged.steps[0].black += 1
    assert regrade(forged)  # a forged answer is caught by the rule


def test_a_torn_last_line_is_cut_and_the_rest_resumed(tmp_path):
    path = tmp_path / "r.jsonl"
    with ReplayWriter(path, secret_set_hash(SECRETS)) as writer:
        for secret in SECRETS[:2]:
            writer.write(game(secret))
    path.write_bytes(path.read_bytes() + b'{"bot": "knuth", "ga')  # killed in the middle of a write
    done = resume(path, "knuth", "mastermind-4x6", SECRETS)
    assert [r.secret for r in done] == SECRETS[:2] and path.read_bytes().endswith(b"\n")
    with pytest.raises(InputError, match="belongs to bot 'knuth'"):
        resume(path, "entropy", "mastermind-4x6", SECRETS)
    with pytest.raises(InputError, match="another set of secrets"):
        resume(path, "knuth", "mastermind-4x6", SECRETS + ["1111"])


def test_rewrite_puts_the_games_in_order(tmp_path):
    path = tmp_path / "r.jsonl"
    rewrite(path, [game(s) for s in reversed(SECRETS)])
    rewrite(path, sorted(read(path), key=lambda r: SECRETS.index(r.secret)))
    assert [r.secret for r in read(path)] == SECRETS and not (tmp_path / "r.jsonl.tmp").exists()
