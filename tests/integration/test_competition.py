"""The competition recipe (examples/competition): its steps, run end to end on a copy of the folder
as CI would run them, with real bots (one that cannot set up), hidden secrets and the published site."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from hbs.contract.bot import project_root

RECIPE = project_root() / "examples" / "competition"
SECRETS = ["1234", "6543", "1122", "5566", "3456", "2211", "6161", "4444", "1356", "2465"]


def steps(folder, *args) -> subprocess.CompletedProcess:
    env = dict(os.environ, HBS=f"{sys.executable} -m hbs")
    return subprocess.run(["bash", str(folder / "steps.sh"), *args], capture_output=True, text=True, env=env)


def test_a_submission_is_checked_then_every_bot_plays_and_the_board_is_published(tmp_path):
    folder = tmp_path / "competition"
    shutil.copytree(RECIPE, folder)
    made = subprocess.run([sys.executable, "-m", "hbs", "new", "alice", "--bots-dir", str(folder / "bots")],
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    shutil.copy(project_root() / "bots" / "first.py", folder / "bots" / "bob.py")
    (folder / "bots" / "mallory.py").write_text(
        '"""Fails its setup."""\nfrom hbs import Bot\n\n\nclass Mallory(Bot):\n    """Fails its setup."""\n\n'
        '    games = {"mastermind"}\n\n    def setup(self, game):\n        raise RuntimeError("no")\n\n'
        '    def guess(self, history):\n        return "1111"\n')
    checked = steps(folder, "check", "alice")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert steps(folder, "check", "mallory").returncode != 0  # the pull request's check goes red

    secrets = tmp_path / "hidden.txt"  # outside the repository, as CI writes the repository secret
    secrets.write_text("\n".join(SECRETS) + "\n")
    published = steps(folder, "publish", str(secrets))
    assert published.returncode == 0, published.stdout + published.stderr
    result = json.loads((folder / "tournament.json").read_text())
    assert sorted(s["bot"] for s in result["standings"]) == ["alice", "bob"]
    assert [s["bot"] for s in result["skipped"]] == ["mallory"]
    assert all(s["games"] == len(SECRETS) and s["solved"] == len(SECRETS) for s in result["standings"])
    board = (folder / "standings.md").read_text()
    assert "| alice |" in board and "| bob |" in board
    site = folder / "public"
    assert (site / "index.html").is_file() and (site / "replay.html").is_file()
    text = "".join(p.read_text() for p in site.rglob("*.js"))
    assert '"secret":"game 1"' in text and not any(f'"secret":"{s}"' in text for s in SECRETS)
    assert "replays" in os.listdir(folder / "scoreboard")  # kept, and ignored by git
    assert (folder / "scoreboard" / "replays" / ".gitignore").read_text().strip().endswith("*")
