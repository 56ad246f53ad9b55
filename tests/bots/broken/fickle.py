import os

from hbs.strategies import ConsistentBot


class Fickle(ConsistentBot):
    """A consistent code drawn from the operating system's randomness: not reproducible."""

    games = frozenset({"mastermind"})

    def guess(self, history):
        self._guesses.clear()  # no memo: draw again every time
        return super().guess(history)

    def choose(self, history, subset):
        return self.space.text(subset[int.from_bytes(os.urandom(4), "little") % len(subset)])
