"""Raises on its second guess."""
from hbs import Bot


class Raiser(Bot):
    """Raises ZeroDivisionError after one guess."""

    def guess(self, history):
        if history:
            return 1 / 0
        return "1122"
