"""The simple strategy: always guess the first consistent secret in lexicographic order."""

from hbs.strategies import ConsistentBot


class First(ConsistentBot):
    """First consistent code in lexicographic order (the simple strategy)."""

    def choose(self, history, subset):
        return self.space.text(subset[0])
