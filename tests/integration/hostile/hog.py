"""Tries to allocate 64 GB."""
import numpy as np

from hbs import Bot


class Hog(Bot):
    """Allocates 64 GB."""

    def guess(self, history):
        block = np.ones(8 * 1024**3, dtype=np.float64)
        return "1122" if block[0] else "2211"
