from hbs import UnsupportedGame
from hbs.strategies import ConsistentBot


class Decliner(ConsistentBot):
    """Declares bulls, then declines it in setup."""

    games = frozenset({"mastermind", "bulls"})

    def setup(self, game):
        if game.kind == "bulls":
            raise UnsupportedGame("no bulls after all")
        super().setup(game)

    def choose(self, history, subset):
        return self.space.text(subset[0])
