"""Reads the secrets file if it can see it (its path given as option path=...), and guesses from it."""
from hbs.strategies import ConsistentBot


class Peeker(ConsistentBot):
    """Guesses the first line of a file it should never be able to read."""

    def __init__(self, path: str = ""):
        self.path = path

    def choose(self, history, subset):
        try:
            with open(self.path) as fh:
                return fh.readline().strip()
        except OSError:
            return self.space.text(subset[0])
