"""A bot whose setup never ends."""
import time

from hbs import Bot


class SlowSetup(Bot):
    """Sleeps an hour in its setup."""

    games = frozenset({"mastermind"})

    def setup(self, game):
        time.sleep(3600)

    def guess(self, history):
        return "1122"
