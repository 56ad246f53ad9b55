import time

from hbs.strategies import ConsistentBot


class Slow(ConsistentBot):
    """Thinks for 1.5 seconds over each first guess."""

    games = frozenset({"mastermind"})

    def choose(self, history, subset):
        if not history:
            time.sleep(1.5)
        return self.space.text(subset[0])
