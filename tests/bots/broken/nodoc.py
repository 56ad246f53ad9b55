from hbs import Bot


class NoDoc(Bot):
    games = frozenset({"mastermind", "bulls"})

    def setup(self, game):
        self.game = game

    def guess(self, history):
        return self.game.fitting(history)[0]
