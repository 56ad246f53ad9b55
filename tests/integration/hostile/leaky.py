"""The first-consistent strategy, except that it keeps memory until its cap when 1111 gets no black."""
import numpy as np

from hbs.strategies import ConsistentBot


class Leaky(ConsistentBot):
    """Like first, with 512 MB of scratch a guess; after 1111 gets no black it keeps 64 MB blocks
    until a MemoryError (and keeps them: later guesses of this process find no room for scratch)."""

    kept: list = []

    def choose(self, history, subset):
        if len(history) == 1 and history[0][1] == 0:
            while True:
                self.kept.append(np.ones(1 << 23))
        scratch = np.ones(1 << 26)
        return self.space.text(subset[int(scratch[0]) - 1])
