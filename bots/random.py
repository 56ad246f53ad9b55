"""Random consistent guesses, drawn from a seeded generator: same seed and history, same guess."""

import hashlib

import numpy as np

from hbs.strategies import ConsistentBot


class Random(ConsistentBot):
    """A random consistent code from a fixed seed (option seed, or hbs run --seed)."""

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, history, subset):
        # The draw depends only on the seed and the history, not on which games came before.
        digest = hashlib.blake2b(repr((self.seed, history)).encode(), digest_size=8).digest()
        rng = np.random.default_rng([self.seed, int.from_bytes(digest, "little")])
        return self.space.text(subset[rng.integers(len(subset))])
