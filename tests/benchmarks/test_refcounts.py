"""``benchmarks/refcounts.py``: numba's reference counts found in the loops of a kernel's code."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit


@pytest.fixture
def refcounts(benchmark_script):
    return benchmark_script("refcounts")


@njit(inline="always")
def _summed(a, lo, hi):
    s = 0
    for i in range(lo, hi):
        s += a[i]
    return s


@njit(inline="always")
def _either(a, b, lo, hi):
    if lo & 1:  # an inline function that branches and passes its arrays on to another
        return _summed(a, lo, hi)
    return _summed(b, lo, hi)


@njit
def _plain_calls(a, reps):
    t = 0
    for r in range(reps):
        t += _summed(a, r % 10, 10)
    return t


@njit
def _branching_calls(a, b, reps):
    t = 0
    for r in range(reps):
        t += _either(a, b, r % 10, 10)
    return t


def test_the_counts_an_inline_function_leaves_in_a_loop_are_found_and_none_where_there_are_none(refcounts):
    """An inline function that branches between two inline calls on its arrays, called in a loop,
    leaves numba's reference counts of them in that loop (one level deep, under the inlined sum's);
    the same sum called without the branch leaves none.  (Both give the same sums.)"""
    a = np.arange(10)
    assert _plain_calls(a, 20) == _branching_calls(a, a, 20)
    assert refcounts.kernel_counts(_plain_calls) == []
    found = refcounts.kernel_counts(_branching_calls)
    assert found and all(depth == 1 and deepest == 2 for depth, deepest in found)


def test_the_bucketed_join_counts_no_reference_in_its_loops(refcounts):
    """``meeting._group_join``, compiled afresh for the types a bucketed join passes it (the join
    run as Python, so that it calls the kernel through numba's dispatcher): its code holds no
    reference count inside a loop (its meeting, written as an inline function of its own called
    from two places, left 40, and a late eight-word join took twice as long).  The join finds the
    meetings a brute force does."""
    from hbs.strategies.phrases import meeting
    from hbs.strategies.phrases.packing import FIELDS_PER_WORD, pack

    rng = np.random.default_rng(0)
    rows = [rng.integers(0, 4, (n, 2 * FIELDS_PER_WORD)).astype(np.uint8) for n in (40, 8, 40)]
    a, d, b = (pack(r) for r in rows)
    target = a[0] + d[0] + b[0]
    plan = meeting._join_plan(a, d, b, target, 2, 1)
    found = meeting._bucketed.py_func(a, d, b, target, *plan, np.inf, np.inf, np.inf, True)
    goal = rows[0][0].astype(int) + rows[1][0] + rows[2][0]
    assert list(zip(*(x.tolist() for x in found[:3]))) == [
        (i, j, k) for i in range(40) for j in range(8) for k in range(40)
        if (rows[0][i].astype(int) + rows[1][j] + rows[2][k] == goal).all()]
    fresh = njit(nogil=True)(meeting._group_join.py_func)
    fresh.compile(meeting._group_join.signatures[0])
    assert refcounts.kernel_counts(fresh) == []
