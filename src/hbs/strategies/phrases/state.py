"""What the phrase breaker knows after a history of answers."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class State:
    """What the breaker knows after a history (never changed once memoised: a refinement is a new
    State stored in its place before any later history is looked at)."""

    length: int | None = None
    lengths: np.ndarray | None = None  # spacing hypotheses, int64[H, n]
    weights: np.ndarray | None = None
    candidates: np.ndarray | None = None  # int64[M, n] word indices, once listed
    pending: np.ndarray | None = None  # spacings not listed with the candidates (too unlikely)
    observations: list = field(default_factory=list)
