"""The prefetch hint (``hbs.strategies.prefetch``): a kernel reads the same with it as without."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from hbs.strategies.prefetch import prefetch


@njit
def _gather(values: np.ndarray, index: np.ndarray, ahead: int) -> np.ndarray:
    out = np.empty(index.shape[0], dtype=values.dtype)
    for i in range(index.shape[0]):
        if ahead and i + ahead < index.shape[0]:
            prefetch(values, index[i + ahead])
        out[i] = values[index[i]]
    return out


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.float64, np.int32])
def test_a_gather_reads_the_same_with_lines_asked_for_ahead(dtype):
    rng = np.random.default_rng(1)
    values = rng.integers(0, 1 << 30, 1 << 16).astype(dtype)
    index = rng.integers(0, len(values), 5000)
    assert np.array_equal(_gather(values, index, 8), values[index])
    assert np.array_equal(_gather(values, index, 0), values[index])


def test_only_one_dimensional_arrays_are_taken():
    @njit
    def flat_of_two(table):
        prefetch(table, 0)

    with pytest.raises(TypingError):
        flat_of_two(np.zeros((4, 2), dtype=np.int64))
