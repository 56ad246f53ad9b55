"""Word lists as people's passphrase schemes have them: hyphens, apostrophes, digits, letters beyond
a-z, a byte-order mark; and the phrase bot's clear refusal of games beyond its limits (one line,
exit 2, not one error a game)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from hbs.arena.replays import read, regrade
from hbs.core.rule import grade

ROOT = Path(__file__).resolve().parents[2]
ODD = ["drop-down", "it's", "4x4", "café", "straße", "łódź", "zoë"]  # EFF-style, digits, latin-1 and beyond


#: One worker: each worker's set-up compiles (or loads) every phrase kernel, so two set-ups on a
#: cold cache compile them twice at once (the suite's other process has the other core)
ONE_WORKER = ("--workers", "1")


def hbs(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hbs", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def lists(tmp_path: Path, words: list[str], n_words: int) -> tuple[Path, Path]:
    """A word list saved with a byte-order mark and CRLF, and every phrase of it (mark too)."""
    listed, phrases = tmp_path / "words.txt", tmp_path / "phrases.txt"
    listed.write_bytes(("\ufeff" + "\r\n".join(words) + "\r\n").encode())
    every = [" ".join(p) for p in itertools.product(words, repeat=n_words)]
    phrases.write_bytes(("\ufeff" + "\n".join(every) + "\n").encode())
    return listed, phrases


def test_a_list_with_any_characters_is_played_and_graded_by_the_rule(tmp_path):
    words, phrases = lists(tmp_path, ODD, 2)
    replays = tmp_path / "r.jsonl"
    done = hbs("run", "--bot", "random", "--words", str(words), "--n-words", "2", "--phrases", str(phrases),
               "--replays", str(replays), "--json", "--scoreboard", str(tmp_path / "board"))
    assert done.returncode == 0, done.stderr
    games = list(read(replays))
    assert len(games) == len(ODD) ** 2 and all(g.status == "solved" for g in games)
    assert all(not regrade(g) for g in games)  # every answer is the rule's, on the characters as written
    for game in games:  # a consistent bot: each guess fits every answer before it
        for i, step in enumerate(game.steps):
            assert all(grade(earlier.guess, step.guess) == (earlier.black, earlier.white) for earlier in game.steps[:i])


def test_the_phrase_bot_plays_words_of_any_characters(tmp_path):
    """entropy on every 2-word phrase of the odd list: all solved, every answer the rule's, and its
    probes written in the list's own characters, a space and a filler the list does not use."""
    words, phrases = lists(tmp_path, ODD + ["yo-yo", "t-shirt", "o'clock"], 2)
    replays = tmp_path / "r.jsonl"
    done = hbs("run", "--bot", "entropy", "--words", str(words), "--n-words", "2", "--phrases", str(phrases),
               "--replays", str(replays), "--json", "--scoreboard", str(tmp_path / "board"), *ONE_WORKER)
    assert done.returncode == 0, done.stderr
    games = list(read(replays))
    assert len(games) == 10**2 and all(g.status == "solved" for g in games)
    assert all(not regrade(g) for g in games)
    allowed = set("".join(ODD) + "yo-yo t-shirt o'clock") | {"#"}  # '-' is a character of the list: '#' fills
    assert {ch for g in games for step in g.steps for ch in step.guess} <= allowed
    assert max(len(g.steps) for g in games) <= 6


def test_the_phrase_bot_declines_what_it_cannot_play_in_one_line(tmp_path):
    cases = []
    seven = tmp_path / "seven.txt"  # 7 words of 10,000: over the 7,776 measured for seven words
    seven.write_text(" ".join((ROOT / "data" / "words.txt").read_text().split()[:7]) + "\n")
    cases.append((["--n-words", "7", "--phrases", str(seven), "--words", str(ROOT / "data" / "words.txt")],
                  "up to 7,776 words"))
    big = tmp_path / "big.txt"  # 100,001 words: one over the largest list measured for 3 words
    big.write_text("".join(f"{''.join(chr(97 + (i // 26**k) % 26) for k in range(4))}\n" for i in range(100_001)))
    three = tmp_path / "three.txt"
    three.write_text("aaaa baaa caaa\n")
    cases.append((["--words", str(big), "--phrases", str(three)], "up to 100,000 words"))
    six_list = tmp_path / "six_list.txt"  # 20,001 words: one over the largest list measured for 6 words
    six_list.write_text("".join(big.read_text().splitlines(keepends=True)[:20_001]))
    six = tmp_path / "six.txt"
    six.write_text("aaaa baaa caaa daaa eaaa faaa\n")
    cases.append((["--n-words", "6", "--words", str(six_list), "--phrases", str(six)], "up to 20,000 words"))
    lengths = tmp_path / "lengths.txt"  # words of 13 lengths: 13**7 = 62,748,517 spacings for 7 words
    lengths.write_text("".join(f"{chr(97 + i)}{'x' * (k - 1)}\n" for i in range(26) for k in range(3, 16)))
    many = tmp_path / "many.txt"
    many.write_text("axx bxx cxx dxx exx fxx gxx\n")
    cases.append((["--n-words", "7", "--words", str(lengths), "--phrases", str(many)], "62,748,517 spacings"))
    for args, why in cases:
        done = hbs("run", "--bot", "entropy", *args, "--scoreboard", str(tmp_path / "board"))
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and why in lines[0] and lines[0].startswith("hbs: error:"), done.stderr


# eight words: one game took 35 s of the suite's ~11 minutes on CI's two cores (its deferred middle is
# also checked against brute force in tests/strategies/phrases/test_levels.py); `python -m pytest -m slow` plays it
@pytest.mark.parametrize(("n_words", "played", "most"),
                         [(5, 3, 12), (6, 2, 15), pytest.param(8, 1, 20, marks=pytest.mark.slow)])
def test_the_phrase_bot_plays_five_to_eight_words(tmp_path, n_words, played, most):
    """Five to eight words a phrase (Diceware's counts), confined through `hbs run`: the level search
    counts and draws them (six: a middle of two words, eight: of four); every game solved, every
    answer the rule's."""
    import random

    rng = random.Random(3)
    words = sorted(rng.sample([w for w in (ROOT / "data" / "words.txt").read_text().split() if 4 <= len(w) <= 8], 300))
    listed, phrases = tmp_path / "words.txt", tmp_path / "phrases.txt"
    listed.write_text("\n".join(words) + "\n")
    phrases.write_text("\n".join(" ".join(rng.choice(words) for _ in range(n_words)) for _ in range(played)) + "\n")
    replays = tmp_path / "r.jsonl"
    done = hbs("run", "--bot", "entropy", "--words", str(listed), "--n-words", str(n_words), "--phrases", str(phrases),
               "--replays", str(replays), "--json", "--scoreboard", str(tmp_path / "board"), *ONE_WORKER)
    assert done.returncode == 0, done.stderr
    games = list(read(replays))
    assert len(games) == played and all(g.status == "solved" for g in games)
    assert all(not regrade(g) for g in games)
    assert max(len(g.steps) for g in games) <= most  # 300**5 = 2.4e12 phrases: 41 bits; 300**6: 49; 300**8: 66
