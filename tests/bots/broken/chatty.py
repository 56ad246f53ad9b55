import sys

from hbs import Bot


class Chatty(Bot):
    """First consistent, and says so on stderr."""

    games = frozenset({"mastermind"})

    def setup(self, game):
        self.game = game  # it plays game.fitting: plain Python, no numba for its confined worker to load

    def guess(self, history):
        fit = self.game.fitting(history)
        print(f"thinking about {len(fit)} codes", file=sys.stderr)
        return fit[0]
