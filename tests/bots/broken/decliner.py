from hbs import Bot, UnsupportedGame


class Decliner(Bot):
    """Declares bulls, then declines it in setup."""

    games = frozenset({"mastermind", "bulls"})

    def setup(self, game):
        if game.kind == "bulls":
            raise UnsupportedGame("no bulls after all")
        self.game = game

    def guess(self, history):
        return self.game.fitting(history)[0]
