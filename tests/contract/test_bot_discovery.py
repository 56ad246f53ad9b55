"""Bots as plugins: folders, entry points, private module names, load errors, options."""

from __future__ import annotations

import random as stdlib_random
import sys
import textwrap

import pytest

from hbs.contract.bot import Bot, discover, load_bot, make_bot
from hbs.errors import BotLoadError, InputError

GOOD = '''
from hbs import Bot

class Echo(Bot):
    """Always guesses the same code.

    More text that `hbs bots` does not show.
    """
    def __init__(self, code: str = "1122", times: int = 1):
        self.code = code * times

    def guess(self, history):
        return self.code
'''


def make_dir(tmp_path, **files):
    folder = tmp_path / "bots"
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(text))
    return folder


def test_folder_bot_is_found_with_its_summary(tmp_path):
    entries = discover([make_dir(tmp_path, echo=GOOD)])
    assert entries["echo"].summary == "Always guesses the same code."
    assert entries["echo"].cls().guess([]) == "1122"
    assert {"first", "random", "knuth", "entropy", "parts"} <= set(entries)


def test_a_bot_called_random_does_not_shadow_the_standard_library(tmp_path):
    folder = make_dir(tmp_path, random=GOOD)
    cls = load_bot("random", [folder])
    assert cls.__module__ != "random"
    assert sys.modules["random"] is stdlib_random
    import random

    assert random.Random is stdlib_random.Random


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("import nosuchmodule_hbs\n", "ModuleNotFoundError"),
        ("x = (\n", "SyntaxError"),
        ("x = 1\n\nraise RuntimeError('boom')\n", ":3: RuntimeError: boom"),
        ("x = 1\n", "defines 0 subclasses"),
    ],
)
def test_broken_bots_are_listed_with_the_reason_and_refused(tmp_path, text, fragment):
    folder = make_dir(tmp_path, broken=text)
    entry = discover([folder])["broken"]
    assert entry.cls is None and fragment in entry.error and "broken.py" in entry.error
    with pytest.raises(BotLoadError, match="cannot be loaded"):
        load_bot("broken", [folder])


def test_unknown_bot():
    with pytest.raises(BotLoadError, match="unknown bot 'nobody'"):
        load_bot("nobody")


def test_entry_point_bots(tmp_path, monkeypatch):
    pkg = tmp_path / "site"
    (pkg / "echo_pkg").mkdir(parents=True)
    (pkg / "echo_pkg" / "__init__.py").write_text(GOOD)
    info = pkg / "echo_pkg-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: echo-pkg\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[hbs.bots]\nechoep = echo_pkg:Echo\n")
    monkeypatch.syspath_prepend(str(pkg))
    cls = load_bot("echoep")
    assert cls.name == "echoep" and cls().guess([]) == "1122"


def test_options_are_converted_and_checked(tmp_path):
    cls = load_bot("echo", [make_dir(tmp_path, echo=GOOD)])
    assert make_bot(cls, {"code": "12", "times": "2"}).guess([]) == "1212"
    with pytest.raises(InputError, match="no option 'colour'"):
        make_bot(cls, {"colour": "red"})
    with pytest.raises(InputError, match="not a valid int"):
        make_bot(cls, {"times": "two"})


def test_missing_bots_dir_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no such bots folder"):
        discover([tmp_path / "nope"])


def test_base_bot_has_no_guess():
    with pytest.raises(NotImplementedError):
        Bot().guess([])
