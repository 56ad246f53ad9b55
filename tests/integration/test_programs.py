"""Bots that are programs (bots/NAME/bot.toml, docs/protocol.md): built, run confined, scored.

The two shipped examples (C and JavaScript) play 4x6 Mastermind through `hbs run` and must total
exactly what the Python `first` does (7471, max 9), every game re-graded by the rule.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hbs.sandbox.confinement import available
from hbs.arena.replays import read, regrade

ROOT = Path(__file__).resolve().parents[2]
# the programs' play under each mechanism is one question (tests/integration/conftest.py): the first by default
HOW = [pytest.param(["--sandbox", m], marks=pytest.mark.slow) if k else ["--sandbox", m]
       for k, m in enumerate(available())] or [["--unconfined"]]


def hbs(*args: str, cwd: Path | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hbs", *args], capture_output=True, text=True, timeout=timeout, cwd=cwd)


def copy_bot(tmp_path: Path, name: str) -> Path:
    bots = tmp_path / "bots"
    shutil.copytree(ROOT / "bots" / name, bots / name, ignore=shutil.ignore_patterns("first"))
    return bots


@pytest.mark.parametrize("name, needs", [("first_c", "cc"), ("first_js", "node")])
@pytest.mark.parametrize("how", HOW, ids=lambda h: h[-1])
def test_example_programs_play_like_the_python_first(tmp_path, name, needs, how):
    if shutil.which(needs) is None:
        pytest.skip(f"{needs} is not installed")
    bots = copy_bot(tmp_path, name)  # a fresh copy: the build runs, confined
    replays = tmp_path / "r.jsonl"
    done = hbs("run", "--bot", name, "--bots-dir", str(bots), "--json", "--replays", str(replays),
               "--scoreboard", str(tmp_path / "board"), *how)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["games"], summary["solved"], summary["total_guesses"], summary["max_guesses"]) == (1296, 1296, 7471, 9)
    records = list(read(replays))
    assert all(not regrade(r) for r in records)
    ours = tmp_path / "python.jsonl"  # the same strategy in Python: the same guesses, game for game
    python = hbs("run", "--bot", "first", "--limit", "60", "--replays", str(ours), "--scoreboard", str(tmp_path / "board"), *how)
    assert python.returncode == 0, python.stderr
    assert [[s.guess for s in r.steps] for r in read(ours)] == [[s.guess for s in r.steps] for r in records[:60]]
    if name == "first_c":
        assert (bots / name / "bot").is_file()  # built by `build` in its own folder


def test_a_program_declines_games_it_does_not_list(tmp_path):
    done = hbs("run", "--bot", "first_js", "--phrases", str(ROOT / "data" / "pass.txt"), "--limit", "2",
               "--scoreboard", str(tmp_path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "plays bulls, mastermind, not phrases" in done.stderr


def program(tmp_path: Path, toml: str, files: dict[str, str] | None = None) -> Path:
    folder = tmp_path / "bots" / "prog"
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text(textwrap.dedent(toml))
    for name, text in (files or {}).items():
        (folder / name).write_text(text)
    return folder.parent


@pytest.mark.parametrize("toml, files, why", [
    ('command = ["./missing"]\ngames = ["mastermind"]\n', {}, "its program './missing' is missing"),
    ('command = ["./p"]\nbuild = ["cc", "-o", "p", "p.c"]\ngames = ["mastermind"]\n', {"p.c": "int main( {"},
     "the build `cc -o p p.c` failed (exit 1)"),
    ('command = "./p"\ngames = ["mastermind"]\n', {}, "command must be a list of strings"),
    ('command = ["./p"]\ngames = ["chess"]\n', {}, "games must list some of mastermind, bulls, phrases, not 'chess'"),
    ('command = ["./p"\n', {}, "not TOML"),
])
def test_a_broken_program_is_one_line_and_exit_2(tmp_path, toml, files, why):
    if "cc" in toml and shutil.which("cc") is None:
        pytest.skip("cc is not installed")
    bots = program(tmp_path, toml, files)
    done = hbs("run", "--bot", "prog", "--bots-dir", str(bots), "--limit", "2", "--scoreboard", str(tmp_path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert why in done.stderr and "bot.toml" in done.stderr


def test_a_program_gets_its_options_and_the_seed(tmp_path):
    script = textwrap.dedent("""
        import json, sys
        for line in sys.stdin:
            request = json.loads(line)
            if request["op"] == "setup":
                reply = {"ok": True} if request["protocol"] == 1 else {"error": "protocol"}
                opening = request["options"]["opening"] + str(request["seed"])[-1]
            else:
                said = [turn[0] for turn in request["history"]]
                guess = opening if not said else next(c for c in ("1123", "1234") if c not in said)
                reply = {"guess": guess, "phase": "p"}
            print(json.dumps(reply), flush=True)
    """)
    toml = f'command = ["{sys.executable}", "bot.py"]\ngames = ["mastermind"]\noptions = {{opening = "112"}}\n'
    bots = program(tmp_path, toml, {"bot.py": script})
    codes = tmp_path / "codes.txt"
    codes.write_text("1123\n1234\n")
    replays = tmp_path / "r.jsonl"
    done = hbs("run", "--bot", "prog", "--bots-dir", str(bots), "--secrets", str(codes), "--seed", "3",
               "--replays", str(replays), "--json", "--scoreboard", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert [[s.guess for s in r.steps] for r in read(replays)] == [["1123"], ["1123", "1234"]]
    other = hbs("run", "--bot", "prog", "--bots-dir", str(bots), "--secrets", str(codes), "--seed", "3",
                "--bot-option", "opening=221", "--json", "--scoreboard", str(tmp_path))
    assert json.loads(other.stdout)["total_guesses"] == 5  # 2213 1123 | 2213 1123 1234
    bad = hbs("run", "--bot", "prog", "--bots-dir", str(bots), "--secrets", str(codes), "--bot-option", "depth=2",
              "--scoreboard", str(tmp_path))
    assert bad.returncode == 2 and "has no option 'depth' (options: opening)" in bad.stderr
