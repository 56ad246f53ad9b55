import time

from hbs import Bot


class Slow(Bot):
    """Thinks for 1.5 seconds over each first guess."""

    games = frozenset({"mastermind"})

    def setup(self, game):
        self.game = game

    def guess(self, history):
        if not history:
            time.sleep(1.5)
        return self.game.fitting(history)[0]
