"""`hbs board`: standings recomputed independently from the replay files of the runs."""

from __future__ import annotations

import json
import math
import statistics

from typer.testing import CliRunner

from hbs.cli import app
from hbs.arena.replays import read

runner = CliRunner()


def test_board_from_two_runs(tmp_path):
    board_dir = tmp_path / "board"
    guesses = {}
    for bot in ("knuth", "first"):
        replays = tmp_path / f"{bot}.jsonl"
        result = runner.invoke(app, ["run", "--bot", bot, "--limit", "150", "--replays", str(replays),
                                     "--scoreboard", str(board_dir), "--json"])
        assert result.exit_code == 0, result.output
        guesses[bot] = [r.guesses for r in read(replays)]
    rows = json.loads(runner.invoke(app, ["board", "--scoreboard", str(board_dir), "--json"]).stdout)
    assert [r["bot"] for r in rows] == ["knuth", "first"]  # the lower mean leads
    for row in rows:
        g = guesses[row["bot"]]
        for key in ("bot", "game", "secrets", "games", "solved", "total_guesses", "mean_guesses", "max_guesses", "failures"):
            assert key in row
        assert row["total_guesses"] == sum(g) and row["games"] == 150 and row["max_guesses"] == max(g)
        assert math.isclose(row["ci95"], 1.96 * statistics.stdev(g) / math.sqrt(len(g)))
        assert row["median"] == statistics.median(g)
    lead, other = guesses["knuth"], guesses["first"]
    assert rows[1]["vs_leader"] == {"won": sum(a < b for a, b in zip(other, lead)),
                                    "lost": sum(a > b for a, b in zip(other, lead)),
                                    "tied": sum(a == b for a, b in zip(other, lead))}
    assert rows[0]["vs_leader"] == {"won": 0, "lost": 0, "tied": 150}
    md = runner.invoke(app, ["board", "--scoreboard", str(board_dir), "--markdown", "--plot", str(tmp_path / "p.png")])
    assert "| knuth | 150 |" in md.stdout
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_board_without_runs_is_one_line(tmp_path):
    result = runner.invoke(app, ["board", "--scoreboard", str(tmp_path)])
    assert result.exit_code == 2 and "no runs recorded" in result.stderr
