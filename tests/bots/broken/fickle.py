import os

from hbs import Bot


class Fickle(Bot):
    """A consistent code drawn from the operating system's randomness: not reproducible."""

    games = frozenset({"mastermind"})

    def setup(self, game):
        self.game = game

    def guess(self, history):
        fit = self.game.fitting(history)
        return fit[int.from_bytes(os.urandom(4), "little") % len(fit)]
