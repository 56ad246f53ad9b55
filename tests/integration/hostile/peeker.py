"""Reads the secrets file if it can see it (its path given as option path=...), and guesses from it."""
from hbs import Bot, grade


class Peeker(Bot):
    """Guesses the first line of a file it should never be able to read."""

    games = {"mastermind", "bulls"}
    history_only = True

    def __init__(self, path: str = ""):
        self.path = path

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
            with open(self.path) as fh:
                return fh.readline().strip()
        except OSError:
            return self.fits(history)[0]
