"""The searches' stable argsort against numpy's: the same order, ties in index order."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hbs.strategies.stable_order import RUN, stable_order


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_the_order_is_numpys_stable_argsort(seed):
    """Integers with many ties or none, negatives, floats with ties, of 0 to 40 runs' length (one
    run, a merge of unequal runs, several passes): numpy's ``argsort(kind="stable")`` each time."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 40 * RUN))
    for values in (rng.integers(0, 3, n), rng.permutation(n) - n // 2, -rng.integers(0, 2**40, n),
                   rng.integers(0, 5, n) / 4.0):
        assert stable_order(values).tolist() == np.argsort(values, kind="stable").tolist()
