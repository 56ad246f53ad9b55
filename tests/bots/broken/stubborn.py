from hbs import Bot


class Stubborn(Bot):
    """Declares mastermind, but guesses 1111 forever."""

    games = frozenset({"mastermind"})

    def guess(self, history):
        return "1111"
