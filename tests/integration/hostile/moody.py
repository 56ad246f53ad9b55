"""The first-consistent strategy, except that it hangs when the first answer has no black."""
import time

from hbs import Bot


class Moody(Bot):
    """Like first, but sleeps forever after 1111 gets no black peg."""

    games = {"mastermind", "bulls"}
    history_only = True

    def setup(self, game):
        self.game = game  # it plays game.fitting: plain Python, no numba for its confined worker to load

    def guess(self, history):
        if history and history[0][1] == 0:
            time.sleep(3600)
        return self.game.fitting(history)[0]
