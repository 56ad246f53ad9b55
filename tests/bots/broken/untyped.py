from hbs.strategies import ConsistentBot


class Untyped(ConsistentBot):
    """Its option `depth` has neither a type nor a default."""

    def __init__(self, depth):
        self.depth = depth

    def choose(self, history, subset):
        return self.space.text(subset[0])
