"""Which middle sums of a join some left and right sums can still make up to the target, told by a
few *narrow* fields at once.

A join's sides are bounded field by field (each level keeps only sums within what the other slots
can add, see ``levels._narrowed``), but not jointly: in a few fields of two or three values each
the left sums may take every value alone and never some pairs of them.  Read over those fields
together, the left side's values and the right side's are two small sets (a few thousand cells
at most); their sums, every pair of the two, are the rests the middle can be met with, and a
middle sum whose own rest is not among them meets nothing.  A join of 1,047,029 × 4,005 ×
2,345,829 sums (no meeting), 2.4-3.8 s of a six-word guess, keeps no middle sum: told in 0.05-0.07 s.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hbs.strategies.phrases.level_sums import _BYTE_FIELDS, _field
from hbs.strategies.phrases.packing import FIELDS_PER_WORD

#: The most (left cell, right cell) pairs whose sums are formed: the narrow fields are taken,
#: narrowest first, while the product of the two sides' boxes (each the product of its fields'
#: ranges) stays within this.
REACH_CELLS = 1 << 22


@njit(cache=True, nogil=True)
def _present(keys: np.ndarray, fields: np.ndarray, least: np.ndarray, width: np.ndarray, size: int) -> np.ndarray:
    """``bool[size]``: which cells of the box (``fields``, from ``least``, ``width`` values each,
    the first field the most significant) the rows of ``keys`` fall in.  (The rows read as bytes,
    as ``level_sums._ranges`` reads them: with ``_field`` of each row the reach of a join of one
    and 2.3 million sums took 38 ms, now 27.)"""
    data = np.ascontiguousarray(keys)
    flat = data.view(np.uint8).reshape(data.shape[0], FIELDS_PER_WORD * data.shape[1])
    at = np.empty(fields.shape[0], dtype=np.int64)  # each field's byte in a row
    place = np.empty(fields.shape[0], dtype=np.int64)  # and its place in a cell's number
    base, p = 0, 1
    for k in range(fields.shape[0] - 1, -1, -1):
        f = fields[k]
        at[k] = f - f % FIELDS_PER_WORD + _BYTE_FIELDS[f % FIELDS_PER_WORD]
        place[k] = p
        base += least[k] * p
        p *= width[k]
    out = np.zeros(size, dtype=np.bool_)
    for i in range(flat.shape[0]):
        c = -base
        for k in range(at.shape[0]):
            c += np.int64(flat[i, at[k]]) * place[k]
        out[c] = True
    return out


@njit(cache=True, nogil=True)
def _digits(cells: np.ndarray, width: np.ndarray) -> np.ndarray:
    """``int64[len(cells), len(width)]``: each cell's value in each field, from the box's least."""
    out = np.empty((cells.shape[0], width.shape[0]), dtype=np.int64)
    for n in range(cells.shape[0]):
        c = cells[n]
        for j in range(width.shape[0] - 1, -1, -1):
            out[n, j] = c % width[j]
            c //= width[j]
    return out


@njit(cache=True, nogil=True)
def _narrow_fields(a_least: np.ndarray, a_most: np.ndarray, b_least: np.ndarray, b_most: np.ndarray,
                   cells: int) -> np.ndarray:
    """The fields read together: by the wider of the two sides' ranges, narrowest first (the first
    on a tie), leaving out those one value on both sides, while the boxes' product is within
    ``cells``."""
    n_fields = a_least.shape[0]
    width = np.empty(n_fields, dtype=np.int64)
    for f in range(n_fields):
        width[f] = max(a_most[f] - a_least[f], b_most[f] - b_least[f]) + 1
    fields = np.zeros(0, dtype=np.int64)
    boxes = 1
    for f in np.argsort(width, kind="mergesort"):
        both = (a_most[f] - a_least[f] + 1) * (b_most[f] - b_least[f] + 1)
        if both == 1:
            continue
        if boxes * both > cells:
            break
        fields = np.append(fields, f)
        boxes *= both
    return fields


@njit(cache=True, nogil=True)
def _kept(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, target: np.ndarray, fields: np.ndarray,
          a_least: np.ndarray, a_most: np.ndarray, b_least: np.ndarray, b_most: np.ndarray) -> np.ndarray:
    """``bool[len(d_keys)]``: the middle sums whose rest in ``fields`` is a left cell plus a right cell."""
    k = fields.shape[0]
    al, aw = np.empty(k, dtype=np.int64), np.empty(k, dtype=np.int64)
    bl, bw = np.empty(k, dtype=np.int64), np.empty(k, dtype=np.int64)
    box_a, box_b, size = 1, 1, 1
    for j in range(k):
        f = fields[j]
        al[j], aw[j] = a_least[f], a_most[f] - a_least[f] + 1
        bl[j], bw[j] = b_least[f], b_most[f] - b_least[f] + 1
        box_a, box_b, size = box_a * aw[j], box_b * bw[j], size * (aw[j] + bw[j] - 1)
    sw = aw + bw - 1
    xa = _digits(np.flatnonzero(_present(a_keys, fields, al, aw, box_a)), aw)
    xb = _digits(np.flatnonzero(_present(b_keys, fields, bl, bw, box_b)), bw)
    made = np.zeros(size, dtype=np.bool_)
    for x in range(xa.shape[0]):
        for y in range(xb.shape[0]):
            c = 0
            for j in range(k):
                c = c * sw[j] + xa[x, j] + xb[y, j]
            made[c] = True
    keep = np.zeros(d_keys.shape[0], dtype=np.bool_)
    for d in range(d_keys.shape[0]):
        c, inside = 0, True
        for j in range(k):
            v = _field(target, fields[j]) - _field(d_keys[d], fields[j]) - al[j] - bl[j]
            if v < 0 or v >= sw[j]:
                inside = False
                break
            c = c * sw[j] + v
        keep[d] = inside and made[c]
    return keep


def reachable(a_keys: np.ndarray, d_keys: np.ndarray, b_keys: np.ndarray, target: np.ndarray, b_least: np.ndarray,
              b_most: np.ndarray, a_least: np.ndarray, a_most: np.ndarray, cells: int = REACH_CELLS) -> np.ndarray:
    """``int64[]``: the rows of ``d_keys`` (in order) that some row of ``a_keys`` and of ``b_keys``
    make up to ``target`` in the narrow fields (see the module; each field's least and most over
    the right sums and the left sums given); every row where no field is narrow enough.  A middle
    sum left out meets nothing: the join of the rows returned finds every meeting."""
    fields = _narrow_fields(a_least, a_most, b_least, b_most, cells)
    if not len(fields):
        return np.arange(len(d_keys))
    return np.flatnonzero(_kept(a_keys, d_keys, b_keys, target, fields, a_least, a_most, b_least, b_most))
