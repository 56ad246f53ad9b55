"""Whether a difference between two bots on the same secrets is real, and the ranks bots share when
it is not.

The test is Wilcoxon's signed-rank test on the per-secret differences of guesses (two-sided; the
secrets both bots solved in as many guesses are left out, the ``wilcox`` treatment of zeros), by its
normal approximation with tied ranks averaged and the variance corrected for them (what
``scipy.stats.wilcoxon(method="approx")`` computes: here in a few lines, where importing SciPy took
2.3 s of every command that draws a board).  Why this test: the differences are small integers
(mostly -1, 0 and +1) with a long tail where a bot fails a game, and a rank test is not carried by a
few such games; it needs no resampling, so a board is the same each time it is drawn (a bootstrap
would need a seed and thousands of resamples for p-values of 1e-6); and it gives the tiny p-values a
large secret set earns.  It tests a shift of the paired differences, while the board ranks by solved
games and then by mean guesses: where the two disagree (one bot better on most secrets, worse on
average) the bots are not called different and share a rank.

Ranks: the leader is first; each bot after it is compared with the bot just above it, and takes the
next rank only when that difference is significant at :data:`ALPHA` after Holm's step-down
correction over those comparisons (``k`` bots make ``k - 1`` of them: on a board of ten bots an
uncorrected 5% would call one tie in three a difference); else it shares the rank above.
"""

from __future__ import annotations

import math
from typing import Sequence

ALPHA = 0.05


def paired_p(a: Sequence[int], b: Sequence[int]) -> float:
    """Two-sided p-value that the guesses ``a`` and ``b`` on the same secrets (in the same order)
    differ: 1.0 where no secret tells them apart."""
    if len(a) != len(b):
        raise ValueError(f"paired guesses of {len(a)} and {len(b)} secrets")
    import numpy as np  # (numpy loads here: only boards need it, not every command)

    d = np.asarray(a, dtype=np.int64) - np.asarray(b, dtype=np.int64)
    d = d[d != 0]
    if not len(d):
        return 1.0
    magnitude = np.abs(d)
    values, ties = np.unique(magnitude, return_counts=True)
    first = np.cumsum(ties) - ties  # sorted positions where each magnitude starts
    rank = (first + (ties + 1) / 2)[np.searchsorted(values, magnitude)]  # ties share their mean rank
    n = len(d)
    positive = float(rank[d > 0].sum())
    statistic = min(positive, n * (n + 1) / 2 - positive)
    variance = (n * (n + 1) * (2 * n + 1) - 0.5 * float((ties * (ties * ties - 1)).sum())) / 24
    z = (statistic - n * (n + 1) / 4) / math.sqrt(variance)
    return math.erfc(abs(z) / math.sqrt(2))


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> list[bool]:
    """Which of ``p_values`` are significant at ``alpha`` together (Holm's step-down: the k-th
    smallest is held to ``alpha / (m - k + 1)``, and once one is not, none after it is)."""
    m = len(p_values)
    out = [False] * m
    for k, i in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        if p_values[i] > alpha / (m - k):
            break
        out[i] = True
    return out


def ranks(guesses: Sequence[Sequence[int]], alpha: float = ALPHA) -> tuple[list[int], list[float]]:
    """The ranks of bots listed in board order (their guesses on the same secrets), and each one's
    p-value against the bot just above it (1.0 for the first)."""
    above = [1.0] + [paired_p(guesses[i], guesses[i - 1]) for i in range(1, len(guesses))]
    different = holm(above[1:], alpha)
    out = [1] if guesses else []
    for i in range(1, len(guesses)):
        out.append(i + 1 if different[i - 1] else out[-1])
    return out, above
