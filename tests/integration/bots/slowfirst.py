"""The first-consistent strategy, slowed down so that a run can be interrupted mid-way."""

import time

from hbs.strategies import ConsistentBot


class SlowFirst(ConsistentBot):
    """First consistent code, 20 ms a guess."""

    def choose(self, history, subset):
        time.sleep(0.02)
        return self.space.text(subset[0])
