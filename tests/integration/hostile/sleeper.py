"""Sleeps past any budget."""
import time

from hbs import Bot


class Sleeper(Bot):
    """Sleeps an hour a guess."""

    def guess(self, history):
        time.sleep(3600)
