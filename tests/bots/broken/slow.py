import time

from hbs import Bot


class Slow(Bot):
    """Thinks for 1.5 seconds over its first guess."""

    games = frozenset({"mastermind"})

    def setup(self, game):
        self.game, self.thought = game, False

    def guess(self, history):
        if not history and not self.thought:  # once a process (its first guess, after that known)
            self.thought = True
            time.sleep(1.5)
        return self.game.fitting(history)[0]
