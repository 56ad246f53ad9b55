"""Maximum entropy: the guess whose answer distribution carries the most information.

Code games: the least Σ n·log2 n over the answer groups of the consistent codes (ties: a code that
could be the secret, then the lowest).  Option ``pool=all|consistent``.
Phrase games: spacing inference, packed-count search and expected-log selection
(:mod:`hbs.strategies.phrases.passphrase`); option ``seed`` picks the samples it designs its probes on.
"""

from hbs.strategies import PartitionBot
from hbs.strategies.phrases.passphrase import PhraseBreaker


class Entropy(PartitionBot):
    """Maximum entropy: the guess whose answer distribution carries the most information."""

    criterion = "entropy"
    games = frozenset({"mastermind", "bulls", "phrases"})

    def __init__(self, pool: str = "all", seed: int = 0):
        super().__init__(pool)
        self.seed = seed
        self.breaker = None

    def setup(self, game):
        if game.kind == "phrases":
            self.breaker = PhraseBreaker(game, self.seed)
            self.breaker.warm()  # numba's kernels compile here, in setup's allowance
        else:
            super().setup(game)

    def guess(self, history):
        if self.breaker is None:
            return super().guess(history)
        return self.breaker.guess(history)
