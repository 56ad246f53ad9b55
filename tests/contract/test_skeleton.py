"""`hbs new`: each language's skeleton passes `hbs check` as written and takes its option; bad
input is one line and exit 2; the bundled program bots are the skeletons themselves."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hbs.contract import skeleton
from hbs.contract.bot import project_root


def hbs(*args, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hbs", *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("lang", ["python", "c", "js"])
def test_a_new_bot_passes_check_as_written_and_takes_its_option(tmp_path, lang):
    missing = skeleton.missing_tool(lang)
    if missing:
        pytest.skip(f"{missing} is not installed")
    made = hbs("new", "my_bot", "--lang", lang, "--bots-dir", "mine", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    checked = hbs("check", "my_bot", "--bots-dir", "mine", "--json", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    assert report["ok"] and len(report["findings"]) > 8 and all(f["ok"] for f in report["findings"]), report
    first = {}
    for order in ("first", "last"):  # the option reaches the bot: its first guess is the first or last code
        done = hbs("run", "--bot", "my_bot", "--bots-dir", "mine", "--bot-option", f"order={order}", "--limit", "3",
                   "--replays", f"{order}.jsonl", "--scoreboard", "board", "--json", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        first[order] = json.loads((tmp_path / f"{order}.jsonl").read_text().splitlines()[0])["guesses"][0]["guess"]
    assert first == {"first": "1111", "last": "6666"}


@pytest.mark.parametrize("args, fragment", [
    (["new", "9lives"], "letters, digits and _"),
    (["new", "ok", "--lang", "cobol"], "unknown language 'cobol'"),
    (["new", "taken"], "already there"),
    (["new", "taken", "--lang", "c"], "already there"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, fragment):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "taken.py").write_text("")
    done = hbs(*args, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and fragment in done.stderr, done.stderr
    assert sorted(p.name for p in (tmp_path / "bots").iterdir()) == ["taken.py"]  # nothing written


@pytest.mark.parametrize("name, lang", [("first_c", "c"), ("first_js", "js")])
def test_the_bundled_program_bots_are_the_skeletons(name, lang):
    folder = skeleton.SKELETONS / lang
    for source in folder.iterdir():
        bundled = project_root() / "bots" / name / source.name.replace("NAME", name)
        assert bundled.read_text() == skeleton.fill(source.read_text(), name), bundled


def test_class_names():
    assert [skeleton.class_name(n) for n in ("my_bot", "x", "a__b2")] == ["MyBot", "X", "AB2"]
