"""The scoreboard on real files: runs recorded, read back, ranked, written as Markdown."""

from __future__ import annotations

import json

from hbs.core.record import GameRecord, Step
from hbs.arena.summary import summarize
from hbs.arena.runs import RunOutcome
from hbs.board.scoreboard import Standing, load_runs, markdown, record_run, standings
from hbs.sandbox.workers import Budgets


def outcome(bot: str, guesses: list[int], secret_set: str = "s1") -> RunOutcome:
    records = [GameRecord(bot, "mastermind-4x6", f"{k:04d}", "solved", [Step("1111", 0, 0)] * n)
               for k, n in enumerate(guesses)]
    return RunOutcome(bot=bot, bot_hash="0" * 16, game="mastermind-4x6", secrets=[r.secret for r in records],
                      secret_set=secret_set, records=records, summary=summarize(bot, "mastermind-4x6", records, 1.0),
                      budgets=Budgets(), played=len(records), confinement="bwrap")


def test_recorded_runs_come_back_ranked_by_total(tmp_path):
    record_run(tmp_path, outcome("slow", [5, 5, 6]))
    record_run(tmp_path, outcome("fast", [4, 5, 4]))
    record_run(tmp_path, outcome("other", [1], secret_set="s2"))
    (tmp_path / "runs" / "broken.json").write_text("{")
    skipped = []
    runs = load_runs(tmp_path, skip=skipped.append)
    assert len(runs) == 3 and len(skipped) == 1
    boards = standings(runs)
    board = next(b for b in boards if b[0].secrets == "s1")
    assert [s.bot for s in board] == ["fast", "slow"] and [s.total_guesses for s in board] == [13, 16]
    assert board[1].vs_leader == (0, 2, 1)  # slow against fast, secret by secret: won, lost, tied
    assert json.loads((tmp_path / "runs" / "fast__mastermind-4x6__s1.json").read_text())["guesses"] == [4, 5, 4]


def test_markdown_cells_escape_what_a_record_holds():
    fields = {name: 0 for name in Standing.__dataclass_fields__}
    row = Standing(**{**fields, "bot": "a|b\nc", "game": "g", "secrets": "s", "failures": {"error": 1},
                      "vs_leader": (0, 0, 0), "confinement": "bwrap", "median": 0.0, "p_vs_leader": None})
    lines = markdown([[row]]).splitlines()
    assert lines[4].startswith("| 0 | a\\|b\\\\nc | ") and len(lines) == 5  # shown: a|b\nc, on one row
