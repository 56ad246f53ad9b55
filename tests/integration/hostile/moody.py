"""The first-consistent strategy, except that it hangs when the first answer has no black."""
import time

from hbs import Bot, grade


class Moody(Bot):
    """Like first, but sleeps forever after 1111 gets no black peg."""

    games = {"mastermind", "bulls"}
    history_only = True

    def setup(self, game):
        # plain Python, as `hbs new` writes a bot: no numba for its confined worker to load (a second of CPU)
        self.known = {(): game.codes()}

    def fits(self, history):
        """The codes that fit every answer so far, memoised by history."""
        key = tuple(tuple(turn) for turn in history)
        if key not in self.known:
            g, b, w = key[-1]
            self.known[key] = [c for c in self.fits(key[:-1]) if grade(g, c) == (b, w) and g != c]
        return self.known[key]

    def guess(self, history):
        if history and history[0][1] == 0:
            time.sleep(3600)
        return self.fits(history)[0]
