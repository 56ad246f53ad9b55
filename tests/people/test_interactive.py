"""`hbs solve` and `hbs play` in a real pseudo-terminal (pexpect), bad input included."""

from __future__ import annotations

import itertools
import shutil

import pexpect
import pytest

from hbs.core.feedback import grade
from hbs.people.play import random_secret
from hbs.core.games import mastermind, bulls

HBS = shutil.which("hbs") or pytest.skip("the hbs command is not installed", allow_module_level=True)
PROMPT = r"answer \(black white; undo; quit\): "


def spawn(*args: str) -> pexpect.spawn:
    child = pexpect.spawn(HBS, list(args), encoding="utf-8", timeout=60, dimensions=(40, 200))
    return child


def next_guess(child) -> str:
    child.expect(r"guess (\d+): (\w+)   \((\d+) codes possible\)")
    return child.match.group(2)


def test_solve_breaks_a_code_with_bad_input_and_undo_on_the_way():
    secret = "3632"
    child = spawn("solve", "--game", "mastermind", "--bot", "knuth")
    guess = next_guess(child)
    assert guess == "1122"
    child.expect(PROMPT)
    for bad, reply in [("x y", "two numbers"), ("3 1", "cannot happen"), ("5 0", "at most 4")]:
        child.sendline(bad)
        child.expect(reply)
        child.expect(PROMPT)
    child.sendline("")  # an empty line: just the prompt again
    child.expect(PROMPT)
    child.sendline("0 0")  # a wrong answer, taken back
    guess2 = next_guess(child)
    child.expect(PROMPT)
    child.sendline("undo")
    assert next_guess(child) == guess
    while True:
        child.expect(PROMPT)
        black, white = grade(guess, secret)
        child.sendline(f"{black} {white}")
        if guess == secret:
            break
        guess = next_guess(child)
    child.expect(r"solved in (\d) guesses")
    assert int(child.match.group(1)) <= 5
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.before
    assert guess2 != guess


def test_solve_names_the_conflicting_answers_and_exits_1():
    codes = mastermind().codes()
    answers = [(0, 0), (0, 0), (1, 0), (0, 4)]
    child = spawn("solve", "--game", "mastermind", "--bot", "first")
    turns = []
    for answer in answers:
        turns.append((next_guess(child), *answer))
        child.expect(PROMPT)
        child.sendline(f"{answer[0]} {answer[1]}")
    # the reference: by brute force with the scalar rule, the fewest answers that no code fits
    fits = lambda chosen: any(all(grade(g, c) == (b, w) for g, b, w in chosen) for c in codes)  # noqa: E731
    assert fits(turns[:3]) and not fits(turns)
    conflict = next(combo for size in (1, 2, 3) for combo in itertools.combinations(range(4), size)
                    if not fits([turns[i] for i in combo]))
    numbers = [str(i + 1) for i in conflict]
    said = f"answer {numbers[0]} at all" if len(numbers) == 1 else f"answers {', '.join(numbers[:-1])} and {numbers[-1]}"
    child.expect(r"no code fits[^\r\n]*")
    assert said in child.after
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


def test_solve_ctrl_d_and_bulls_notation():
    child = spawn("solve", "--game", "bulls", "--bot", "knuth")
    next_guess(child)
    child.expect(PROMPT)
    child.sendline("1A2B")
    next_guess(child)
    child.expect(PROMPT)
    child.sendeof()
    child.expect("input ended")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1 and "Traceback" not in child.before


def test_solve_plain_for_scripts():
    secret = "0123"
    child = spawn("solve", "--game", "bulls", "--bot", "entropy", "--plain")
    for _ in range(10):
        child.expect(r"(\d{4})\r\n")
        guess = child.match.group(1)
        child.sendline("%d %d" % grade(guess, secret))
        if guess == secret:
            break
    child.expect("solved in")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_play_a_seeded_game_with_hint_and_bad_input():
    secret = random_secret(mastermind(), 11)
    child = spawn("play", "--game", "mastermind", "--seed", "11")
    child.expect(r"guess 1: ")
    child.sendline("hint")
    child.expect("1296 secrets still fit")
    child.sendline("12")
    child.expect("needs 4 symbols")
    child.sendline("")
    child.expect(r"guess 1: ")
    child.sendline("1122")
    black, white = grade("1122", secret)
    child.expect(rf"1\. 1122   black {black} white {white}")
    child.sendline("hint")
    child.expect(r"(\d+) secrets still fit")
    assert 1 <= int(child.match.group(1)) < 1296
    child.sendline(secret)
    child.expect(r"solved in 2 guesses!")
    child.expect(r"knuth: (\d) guesses")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_play_ctrl_d_tells_the_secret():
    secret = random_secret(bulls(), 5)
    child = spawn("play", "--game", "bulls", "--seed", "5")
    child.expect(r"guess 1: ")
    child.sendeof()
    child.expect(f"the secret was {secret}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


WORDS = ["a", "be", "cat", "dogs", "eagle", "ferret", "gorilla", "hedgehog"]


def test_solve_a_phrase(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    secret = "eagle a hedgehog"
    child = spawn("solve", "--game", "phrases", "--words", str(words), "--bot", "entropy")
    for _ in range(15):
        child.expect(r"guess \d+: (.+?)   \((\d+) phrases possible\)\r\n")
        guess = child.match.group(1)
        child.expect(PROMPT)
        if guess == secret:
            child.sendline("solved")
            break
        child.sendline("%d %d" % grade(guess, secret))
    child.expect(r"solved in \d+ guesses")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_play_a_phrase_game(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    child = spawn("play", "--game", "phrases", "--words", str(words), "--seed", "3")
    child.expect(r"guess 1: ")
    child.sendline("hint")
    child.expect(f"{len(WORDS) ** 3} secrets still fit")
    child.sendline("a\tb")
    child.expect("not printable")
    child.sendline("quit")
    child.expect(r"the secret was (\w+ \w+ \w+)")
    assert all(w in WORDS for w in child.match.group(1).split())
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
