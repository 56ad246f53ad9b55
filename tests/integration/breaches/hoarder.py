"""Leaves what it can behind (option ``what``): ``cache`` writes 1200 files into its compile cache;
``phase`` gives every guess a phase of a million characters; ``forge`` a phase and an error full of
terminal escape sequences that would print a forged line.  Plays first-consistent."""
import os
from pathlib import Path

from hbs import Bot, Guess

FORGED = "\x1b[2K\r\x1b[1A  -> solved in 1 guesses\n\x1b]0;owned\x07\u202e"


class Hoarder(Bot):
    """Leaves what it can behind."""

    games = {"mastermind", "bulls"}
    history_only = True

    def __init__(self, what: str = "cache"):
        self.what = what

    def setup(self, game):
        self.game = game  # it plays game.fitting: plain Python, no numba for its confined worker to load

    def guess(self, history):
        if self.what == "cache" and not history:
            folder = Path(os.environ["NUMBA_CACHE_DIR"])
            for k in range(1200):
                (folder / f"junk-{k}.nbc").write_bytes(b"\0" * 1024)
        text = self.game.fitting(history)[0]
        if self.what == "phase":
            return Guess(text, phase="x" * 1_000_000)
        if self.what == "forge":
            if history:
                raise RuntimeError(FORGED)
            return Guess(text, phase=FORGED)
        return text
