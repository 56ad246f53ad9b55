"""Reads the secrets file if it can see it (its path given as option path=...), and guesses from it."""
from hbs import Bot


class Peeker(Bot):
    """Guesses the first line of a file it should never be able to read."""

    games = {"mastermind", "bulls"}
    history_only = True

    def __init__(self, path: str = ""):
        self.path = path

    def setup(self, game):
        self.game = game  # it plays game.fitting: plain Python, no numba for its confined worker to load

    def guess(self, history):
        try:
            with open(self.path) as fh:
                return fh.readline().strip()
        except OSError:
            return self.game.fitting(history)[0]
