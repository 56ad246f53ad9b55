"""A table's filter (``sum_table.build_filter``): every key passes, few absent keys do."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from hbs.strategies.phrases import sum_table
from hbs.strategies.phrases.packing import pack


@njit  # (not cached: a cache keyed on this file would outlive a change to sum_table)
def _passes(filt: np.ndarray, keys: np.ndarray) -> np.ndarray:
    return np.array([sum_table.in_filter(filt, keys[i]) for i in range(keys.shape[0])])


def _keys(rng: np.random.Generator, n: int, fields: int) -> np.ndarray:
    return pack(rng.integers(0, 128, (n, fields)).astype(np.uint8))


@pytest.mark.parametrize("n, fields", [(1, 3), (50, 1), (5_000, 7), (200_000, 12)])
def test_every_key_passes_its_filter_and_few_absent_keys_do(n, fields):
    """No key of the table is turned away; absent keys pass at under 1.5% (three bits a key in one
    word, 21-26 bits a key: 0.26-0.44% measured; with one bit a key, 4.6-5.8% here)."""
    rng = np.random.default_rng(n)
    keys = np.unique(_keys(rng, n, fields), axis=0)
    filt = sum_table.build_filter(keys)
    assert _passes(filt, keys).all()
    absent = _keys(rng, 200_000, fields)
    held = {k.tobytes() for k in keys}
    absent = absent[[k.tobytes() not in held for k in absent]]
    assert _passes(filt, absent).mean() < 0.015


def test_a_filter_of_every_bit_passes_every_key():
    """One word of 64 bits set (``meeting._PASS_ALL``'s form: the shift of a 64-bit filter) passes
    any key."""
    filt = np.array([np.iinfo(np.uint64).max, 58], dtype=np.uint64)
    assert _passes(filt, _keys(np.random.default_rng(1), 10_000, 5)).all()
