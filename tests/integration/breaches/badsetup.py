"""A bot whose setup raises."""
from hbs import Bot


class BadSetup(Bot):
    """Raises in its setup."""

    games = frozenset({"mastermind"})

    def setup(self, game):
        raise RuntimeError("no setup for you")

    def guess(self, history):
        return "1122"
