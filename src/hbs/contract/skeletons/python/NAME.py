"""NAME: the first code that fits every answer so far (a skeleton from `hbs new`: make it yours).

The first line of this docstring is what `hbs bots` shows.  `hbs check NAME` plays a few games and
says what a bot breaks; `hbs run --bot NAME --game mastermind` plays every code.
"""

from hbs import Bot, Game, Guess, UnsupportedGame, grade


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
        self.codes = game.codes()  # every code, in lexicographic order
        if self.order == "last":
            self.codes.reverse()

    def guess(self, history) -> Guess:
        """The next guess, given this game's earlier Turn(guess, black, white); () is a new game."""
        fits = [code for code in self.codes
                if all(grade(turn.guess, code) == (turn.black, turn.white) and turn.guess != code for turn in history)]
        if not fits:
            raise RuntimeError("no code fits the answers")
        return Guess(fits[0], remaining=len(fits), phase="fit")
