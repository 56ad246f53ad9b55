"""Always guesses 1111: never finds most codes."""
from hbs import Bot


class Stubborn(Bot):
    """Guesses 1111 forever."""

    def guess(self, history):
        return "1111"
