"""Reports the limits its worker runs under, as an error on its first guess."""
import resource

import numba

from hbs import Bot


class Limits(Bot):
    """Raises ``RuntimeError("memory=<MB> threads=<threads numba's parallel kernels use>")``."""

    def guess(self, history):
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        raise RuntimeError(f"memory={soft >> 20}/{hard >> 20} threads={numba.get_num_threads()}")
