"""The first-consistent strategy, slowed down so that a run can be interrupted mid-way."""

import time

from hbs import Bot


class SlowFirst(Bot):
    """First consistent code, 20 ms a guess."""

    games = {"mastermind", "bulls"}
    history_only = True

    def setup(self, game):
        self.game = game  # it plays game.fitting: plain Python, no numba for its confined worker to load

    def guess(self, history):
        time.sleep(0.02)
        return self.game.fitting(history)[0]
