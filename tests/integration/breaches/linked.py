"""Reads the secrets through its data folder ``bots/linked/`` (file ``codes.txt``) and guesses the
lines that fit; plays first-consistent when it cannot read them."""
from pathlib import Path

from hbs import Bot, grade


class Linked(Bot):
    """Cheats with a file of its data folder, if it can read one."""

    games = {"mastermind", "bulls"}
    history_only = True

    def setup(self, game):
        # plain Python, as `hbs new` writes a bot: no numba for its confined worker to load (a second of CPU)
        self.known = {(): game.codes()}

    def fits(self, history):
        """The codes that fit every answer so far, memoised by history."""
        key = tuple(tuple(turn) for turn in history)
        if key not in self.known:
            g, b, w = key[-1]
            self.known[key] = [c for c in self.fits(key[:-1]) if grade(g, c) == (b, w) and g != c]
        return self.known[key]

    def guess(self, history):
        try:
            lines = (Path(__file__).with_suffix("") / "codes.txt").read_text().split()
        except OSError:
            return self.fits(history)[0]
        return next(s for s in lines if all(grade(g, s) == (b, w) for g, b, w in history))
