"""NAME: the first code that fits every answer so far (a skeleton from `hbs new`: make it yours).

The first line of this docstring is what `hbs bots` shows.  `hbs check NAME` plays a few games and
says what a bot breaks; `hbs run --bot NAME --game mastermind` plays every code.
"""

from hbs import Bot, Game, Guess, UnsupportedGame


class NAME_CLASS(Bot):
    """NAME: the first code that fits every answer so far (a skeleton from `hbs new`: make it yours)."""

    games = {"mastermind", "bulls"}  # the kinds it plays (add "phrases" once it can)

    def __init__(self, order: str = "first"):  # --bot-option order=last (typed by the annotation)
        if order not in ("first", "last"):
            raise ValueError(f"order must be first or last, not {order!r}")
        self.order = order

    def setup(self, game: Game) -> None:
        """Once, before the games: precompute here (and raise UnsupportedGame to decline a game)."""
        if game.kind == "phrases":
            raise UnsupportedGame("NAME plays code games (mastermind, bulls)")
        self.game = game  # game.codes(): every code, in lexicographic order

    def guess(self, history) -> Guess:
        """The next guess, given this game's earlier Turn(guess, black, white); () is a new game."""
        fits = self.game.fitting(history)  # the codes every answer so far allows (hbs.grade is the rule)
        if self.order == "last":
            fits.reverse()
        if not fits:
            raise RuntimeError("no code fits the answers")
        return Guess(fits[0], remaining=len(fits), phase="fit")
