"""A stable argsort kernel for the searches' small sorts (a row's fields, a node's answers, a
node's guesses): the same order as ``np.argsort(values, kind="stable")``, in a function numba
compiles in a fraction of a second, where numpy's merge sort and quicksort took it some 4-5 s each
on a cold cache (a bot's set-up compiles every kernel it will use)."""

from __future__ import annotations

import numpy as np
from numba import njit

#: Items sorted by insertion before the runs are merged.
RUN = 16


@njit(cache=True, nogil=True)
def stable_order(values: np.ndarray) -> np.ndarray:
    """``np.argsort(values, kind="stable")``: insertion sorts of runs of ``RUN``, then merges of
    runs, the left one first on ties."""
    n = values.shape[0]
    order = np.arange(n)
    for lo in range(0, n, RUN):
        for i in range(lo + 1, min(lo + RUN, n)):
            item, j = order[i], i
            while j > lo and values[order[j - 1]] > values[item]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = item
    spare = np.empty(n, dtype=order.dtype)
    width = RUN
    while width < n:
        for lo in range(0, n, 2 * width):
            mid, hi = min(lo + width, n), min(lo + 2 * width, n)
            i, j = lo, mid
            for k in range(lo, hi):
                if j >= hi or (i < mid and values[order[i]] <= values[order[j]]):
                    spare[k] = order[i]
                    i += 1
                else:
                    spare[k] = order[j]
                    j += 1
        order, spare = spare, order
        width *= 2
    return order
