import sys

from hbs.strategies import ConsistentBot


class Chatty(ConsistentBot):
    """First consistent, and says so on stderr."""

    games = frozenset({"mastermind"})

    def choose(self, history, subset):
        print(f"thinking about {len(subset)} codes", file=sys.stderr)
        return self.space.text(subset[0])
