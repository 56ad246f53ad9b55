"""Reads the secrets through its data folder ``bots/linked/`` (file ``codes.txt``) and guesses the
lines that fit; plays first-consistent when it cannot read them."""
from pathlib import Path

from hbs import Bot, grade


class Linked(Bot):
    """Cheats with a file of its data folder, if it can read one."""

    games = {"mastermind", "bulls"}
    history_only = True

    def setup(self, game):
        self.game = game  # it plays game.fitting: plain Python, no numba for its confined worker to load

    def guess(self, history):
        try:
            lines = (Path(__file__).with_suffix("") / "codes.txt").read_text().split()
        except OSError:
            return self.game.fitting(history)[0]
        return next(s for s in lines if all(grade(g, s) == (b, w) for g, b, w in history))
