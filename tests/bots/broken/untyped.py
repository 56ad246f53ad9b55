from hbs import Bot


class Untyped(Bot):
    """Its option `depth` has neither a type nor a default."""

    games = frozenset({"mastermind", "bulls"})

    def __init__(self, depth):
        self.depth = depth

    def setup(self, game):
        self.game = game

    def guess(self, history):
        return self.game.fitting(history)[0]
