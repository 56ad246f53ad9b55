"""Loops forever on every guess."""
from hbs import Bot


class Looper(Bot):
    """Never answers."""

    def guess(self, history):
        while True:
            pass
