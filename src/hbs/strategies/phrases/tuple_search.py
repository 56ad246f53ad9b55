"""The meet-in-the-middle search over word tuples (up to two words a side).

The search splits the word slots into a *left* group (enumerated over distinct packed rows, pruned
field by field) and a *right* group (a hash table from packed sums to the tuples that give them,
:mod:`hbs.strategies.phrases.sum_table`); a consistent phrase is a left tuple whose residual is a
key of the table.  Tuples are numbered implicitly, entry by entry, so that any of them can be drawn
without listing the others.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hbs.strategies.phrases.packing import _NOT_GUARD, FIELDS_PER_WORD, GUARD, _residual_at
from hbs.strategies.phrases.rows import _distinct, _groups_along, _rows_at, group_rows, row_order
from hbs.strategies.phrases.sum_table import (
    START_ROWS, _filter_step, _grown, _lookup, build_filter, build_table, filter_has, in_filter,
)


@njit(cache=True, nogil=True)
def right_tuples(pc: np.ndarray, pd: np.ndarray, target: np.ndarray,
                 start_rows: int = START_ROWS) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of the right group (two slots, features ``pc``, ``pd``) whose sum fits under ``target``.

    Returns ``uint64[R, K]`` packed sums and ``int32[R, 2]`` word indices.
    """
    per = pd.shape[0]
    cap = max(1, min(pc.shape[0] * per, start_rows))
    keys = np.empty((cap, target.shape[0]), dtype=np.uint64)
    tuples = np.zeros((cap, 2), dtype=np.int32)
    n, a = np.int64(0), np.int64(0)  # (not literal zeros: _grown and _right_rows compile once)
    while a < pc.shape[0]:
        while n + per > keys.shape[0]:
            keys = _grown(keys, n)
            tuples = _grown(tuples, n)
        end = min(pc.shape[0], a + (keys.shape[0] - n) // per)  # rows whose tuples surely fit
        n = _right_rows(pc, pd, target, a, end, keys, tuples, n)
        a = end
    return keys[:n].copy(), tuples[:n].copy()


@njit(cache=True, nogil=True)
def right_side(pc: np.ndarray, pd: np.ndarray, target: np.ndarray, start_rows: int = START_ROWS
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A right group of two slots: :func:`right_tuples` grouped by their sums: the pairs (in group
    order), each group's start and size, the distinct sums, their table (:func:`build_table`) and
    its filter (:func:`build_filter`).  (One slot: :func:`right_rows`, from the slot's kept order.)"""
    keys, tuples = right_tuples(pc, pd, target, start_rows)
    order, starts, sizes = group_rows(keys)
    unique, table, filt = _sums(keys, order, starts)
    return tuples[order], starts, sizes, unique, table, filt


@njit(cache=True, nogil=True)
def right_rows(pc: np.ndarray, order: np.ndarray, target: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`right_side` of one slot whose :func:`row_order` is ``order``: its rows that fit, taken
    in that order, are already sorted."""
    scratch = np.empty(target.shape[0], dtype=np.uint64)
    rows = np.empty(order.shape[0], dtype=np.int64)
    n = 0
    for i in range(order.shape[0]):
        if _residual_at(target, pc, order[i], scratch):
            rows[n] = order[i]
            n += 1
    rows = rows[:n]
    starts, sizes = _groups_along(pc, rows)
    unique, table, filt = _sums(pc, rows, starts)
    tuples = np.zeros((n, 2), dtype=np.int32)
    for i in range(n):
        tuples[i, 0] = rows[i]
    return tuples, starts, sizes, unique, table, filt


@njit(cache=True, nogil=True)
def _sums(keys: np.ndarray, order: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct sums of a right side (the rows of ``keys`` at ``order[starts]``), their table
    and its filter."""
    unique = _rows_at(keys, order, starts)
    return unique, build_table(unique), build_filter(unique)


@njit(cache=True, nogil=True)
def entries(ltuples: np.ndarray, groups: np.ndarray, n_left: int, sizes_a: np.ndarray, sizes_b: np.ndarray,
            right_sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each match's radix (the multiplicity of each left row, then the size of its right group) and
    the running total of the tuples the matches hold."""
    radix = np.empty((len(groups), n_left + 1), dtype=np.int64)
    cum = np.empty(len(groups), dtype=np.int64)
    total = 0
    for e in range(len(groups)):
        weight = 1
        for i in range(n_left):
            radix[e, i] = sizes_a[ltuples[e, 0]] if i == 0 else sizes_b[ltuples[e, 1]]
            weight *= radix[e, i]
        radix[e, n_left] = right_sizes[groups[e]]
        total += weight * radix[e, n_left]
        cum[e] = total
    return radix, cum


@njit(cache=True, nogil=True)
def tuple_words(positions: np.ndarray, cum: np.ndarray, radix: np.ndarray, ltuples: np.ndarray, groups: np.ndarray,
                left: np.ndarray, right: np.ndarray, members_a: np.ndarray, starts_a: np.ndarray, members_b: np.ndarray,
                starts_b: np.ndarray, right_starts: np.ndarray, rtuples: np.ndarray, n: int) -> np.ndarray:
    """The word rows (per slot) of the tuples at ``positions`` of a :class:`TupleSearch`'s implicit
    list: the match whose running total (``cum``) passes each position, then the position within
    it in mixed radix (each left row's members, then the right group's tuples)."""
    out = np.empty((len(positions), n), dtype=np.int64)
    n_left = len(left)
    for p in range(len(positions)):
        e = np.searchsorted(cum, positions[p], side="right")
        rest = positions[p] - (cum[e - 1] if e > 0 else 0)
        right_digit = rest % radix[e, n_left]
        rest //= radix[e, n_left]
        for i in range(n_left - 1, -1, -1):
            digit = rest % radix[e, i]
            rest //= radix[e, i]
            if i == 0:
                out[p, left[0]] = members_a[starts_a[ltuples[e, 0]] + digit]
            else:
                out[p, left[1]] = members_b[starts_b[ltuples[e, 1]] + digit]
        row = right_starts[groups[e]] + right_digit
        for i in range(len(right)):
            out[p, right[i]] = rtuples[row, i]
    return out


@njit(cache=True, nogil=True)
def refined_pairs(parent: np.ndarray, n_left: int, first_a: np.ndarray, first_b: np.ndarray) -> int:
    """The pairs of finer rows :func:`refined_matches` would check (see :meth:`TupleSearch._within`)."""
    total = 0
    for e in range(parent.shape[0]):
        pairs = first_a[parent[e, 0] + 1] - first_a[parent[e, 0]]
        if n_left == 2:
            pairs *= first_b[parent[e, 1] + 1] - first_b[parent[e, 1]]
        total += pairs
    return total


@njit(cache=True, nogil=True)
def _right_rows(pc: np.ndarray, pd: np.ndarray, target: np.ndarray, a0: int, a1: int,
                keys: np.ndarray, tuples: np.ndarray, n: int) -> int:
    """The pairs of rows ``a0 .. a1`` of ``pc``, written from row ``n`` on (the caller made room); the next
    free row.  Its own kernel, arrays never reallocated and rows copied field by field: otherwise numba
    counts references on every step (atomic; ten times this loop's own work)."""
    scratch = np.empty(target.shape[0], dtype=np.uint64)
    for a in range(a0, a1):
        if not _residual_at(target, pc, a, scratch):
            continue
        for b in range(pd.shape[0]):
            for k in range(target.shape[0]):
                keys[n, k] = pc[a, k] + pd[b, k]
            if _residual_at(target, keys, n, scratch):
                tuples[n, 0] = a
                tuples[n, 1] = b
                n += 1
    return n


@njit(cache=True, inline="always")
def _match(table: np.ndarray, unique_keys: np.ndarray, residual: np.ndarray, a: int, b: int,
           out_t: np.ndarray, out_g: np.ndarray, n: int) -> int:
    """Record left rows ``(a, b)`` at ``n`` when ``residual`` is a key of the table; the next free row."""
    g = _lookup(table, unique_keys, residual)
    if g < 0:
        return n
    out_t[n, 0] = a
    out_t[n, 1] = b
    out_g[n] = g
    return n + 1


@njit(cache=True, inline="always")
def _rest_passes(r1: np.ndarray, rows: np.ndarray, b: int, filt: np.ndarray) -> bool:
    """Whether ``r1 - rows[b]`` leaves no field below 0 and passes the filter ``filt`` (see
    ``sum_table.in_filter``), the rest hashed as it is formed and kept nowhere: nine in ten rests
    fail the filter, and writing each to scratch to hash it took longer than the check."""
    h = np.uint64(0)
    for k in range(r1.shape[0]):
        r = (r1[k] | GUARD) - rows[b, k]
        if (r & GUARD) != GUARD:
            return False
        h = _filter_step(h, r & _NOT_GUARD)  # (sum_table._filter_hash, a word at a time)
    return filter_has(filt, h)


@njit(cache=True, nogil=True)
def left_matches(
    pa: np.ndarray, pb: np.ndarray, n_left: int, target: np.ndarray, table: np.ndarray, unique_keys: np.ndarray,
    filt: np.ndarray, sort_word: int, sort_shift: int, start_rows: int = START_ROWS,
) -> tuple[np.ndarray, np.ndarray]:
    """Left tuples (0, 1 or 2 slots, features ``pa``, ``pb``) whose residual is a key of the table
    (``filt`` its :func:`build_filter`).

    ``pb`` must be sorted ascending by the field at (``sort_word``, ``sort_shift``): the inner loop
    stops at the first row whose field exceeds the residual's.
    Returns ``int32[E, 2]`` row indices and ``int64[E]`` the matching group of the table.
    """
    words = target.shape[0]
    if n_left == 0:  # (no boolean mask: indexing by one compiles a good second of numba's machinery)
        group = _lookup(table, unique_keys, target)
        found = 1 if group >= 0 else 0
        return np.zeros((found, 2), dtype=np.int32), np.full(found, group, dtype=np.int64)
    cap = max(1, min(pa.shape[0] * (pb.shape[0] if n_left == 2 else 1), start_rows))
    out_t = np.empty((cap, 2), dtype=np.int32)  # _match writes both columns (zeroing all rows cost a tenth)
    out_g = np.empty(cap, dtype=np.int64)
    r1 = np.empty(words, dtype=np.uint64)
    r2 = np.empty(words, dtype=np.uint64)
    shift = np.uint64(sort_shift)
    n = np.int64(0)  # (not a literal zero: _grown compiles once)
    for a in range(pa.shape[0]):
        if not _residual_at(target, pa, a, r1):
            continue
        while n + (pb.shape[0] if n_left == 2 else 1) > out_t.shape[0]:  # room for this row's matches
            out_t = _grown(out_t, n)
            out_g = _grown(out_g, n)
        if n_left == 1:
            if in_filter(filt, r1):
                n = _match(table, unique_keys, r1, a, 0, out_t, out_g, n)
            continue
        limit = (r1[sort_word] >> shift) & np.uint64(0xFF)
        for b in range(pb.shape[0]):
            if (pb[b, sort_word] >> shift) & np.uint64(0xFF) > limit:
                break
            if _rest_passes(r1, pb, b, filt):
                _residual_at(r1, pb, b, r2)
                n = _match(table, unique_keys, r2, a, b, out_t, out_g, n)
    return out_t[:n].copy(), out_g[:n].copy()


@njit(cache=True, nogil=True)
def refined_matches(
    parent: np.ndarray, n_left: int, a_first: np.ndarray, a_rows: np.ndarray, b_first: np.ndarray,
    b_rows: np.ndarray, pa: np.ndarray, pb: np.ndarray, target: np.ndarray, table: np.ndarray,
    unique_keys: np.ndarray, filt: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`left_matches` after one more answer, from the matches before it (``parent``,
    ``int32[E, 2]`` rows of the coarser rows): a finer row ``a`` of ``pa`` can only match with a
    finer row of ``pb`` whose coarser rows matched.  ``a_rows[a_first[p] : a_first[p + 1]]`` are the
    finer rows of coarser row ``p`` (``b_...`` likewise).  Same matches as :func:`left_matches`, in
    its order (by ``a``, then ``b``)."""
    words = target.shape[0]
    cap = 1024
    out_t = np.zeros((cap, 2), dtype=np.int32)
    out_g = np.empty(cap, dtype=np.int64)
    r1 = np.empty(words, dtype=np.uint64)
    r2 = np.empty(words, dtype=np.uint64)
    n = np.int64(0)
    for e in range(parent.shape[0]):
        p, q = parent[e, 0], parent[e, 1]
        room = (a_first[p + 1] - a_first[p]) * ((b_first[q + 1] - b_first[q]) if n_left == 2 else 1)
        while n + room > out_t.shape[0]:
            out_t = _grown(out_t, n)
            out_g = _grown(out_g, n)
        for i in range(a_first[p], a_first[p + 1]):
            a = a_rows[i]
            if not _residual_at(target, pa, a, r1):
                continue
            if n_left == 1:
                if in_filter(filt, r1):
                    n = _match(table, unique_keys, r1, a, 0, out_t, out_g, n)
                continue
            for j in range(b_first[q], b_first[q + 1]):
                if _rest_passes(r1, pb, b_rows[j], filt):
                    _residual_at(r1, pb, b_rows[j], r2)
                    n = _match(table, unique_keys, r2, a, b_rows[j], out_t, out_g, n)
    # each (a, b) is found once (under its coarser rows): sorting by the pair is left_matches' order
    pairs = np.empty((n, 1), dtype=np.uint64)
    for e in range(n):
        pairs[e, 0] = np.uint64(out_t[e, 0]) * np.uint64(max(1, pb.shape[0])) + np.uint64(out_t[e, 1])
    order = row_order(pairs)
    return out_t[order], out_g[order]


@njit(cache=True)
def _pruning_field(rows: np.ndarray, target: np.ndarray, n_fields: int) -> int:
    """The field in which most of ``rows`` already exceed half the target (the best loop breaker)."""
    best, best_over = 0, -1
    for f in range(n_fields):
        word, shift = f // FIELDS_PER_WORD, np.uint64(8 * (f % FIELDS_PER_WORD))
        half = ((target[word] >> shift) & np.uint64(0xFF)) // np.uint64(2)
        over = 0
        for i in range(rows.shape[0]):
            over += ((rows[i, word] >> shift) & np.uint64(0xFF)) > half
        if over > best_over:
            best, best_over = f, over
    return best


#: A search refines its parent's matches (see :meth:`TupleSearch._within`) when that checks fewer
#: pairs than this share of all pairs of its left rows (measured: ``left_matches`` checks about a third).
REFINE_SHARE = 0.3


class TupleSearch:
    """All word tuples whose packed features sum to ``target``: count, sample, enumerate.

    ``slots`` is a list of packed feature arrays, one per word slot (``uint64[W_j, K]``).  The slots
    are split into a left group (enumerated over distinct packed rows, pruned field by field) and a
    right group (hashed); the largest classes go right.  Tuples are numbered implicitly: entry by
    entry (a fitting combination of left rows and a right group), then mixed-radix within it.
    """

    exact = True  # the count is exact (see :class:`hbs.strategies.phrases.levels.LevelSearch`)
    draws = meetings = 0  # (an estimate's draws, the level search's meetings: none)
    loose = False
    _NONE = np.zeros(1, dtype=np.int64)

    def __init__(self, slots: list[np.ndarray], target: np.ndarray, slot_words: list[np.ndarray] | None = None,
                 lengths: np.ndarray | None = None, start_rows: int = START_ROWS, parent: "TupleSearch | None" = None,
                 shared: dict | None = None, slot_keys: tuple | None = None, slot_orders: list | None = None):
        self.slot_words = slot_words  # the word indices of each slot's rows (``int64[W_j]``), if given
        self.lengths = lengths  # the word length of each slot (the spacing searched), if given
        self.n = len(slots)
        words = target.shape[0]
        order = sorted(range(self.n), key=lambda j: len(slots[j]))
        n_right = max(1, self.n // 2)
        self.left, self.right = order[: self.n - n_right], order[self.n - n_right :]
        empty = np.zeros((0, words), dtype=np.uint64)
        orders = slot_orders or [None] * self.n  # each slot's row_order, where known
        if n_right == 1:
            right = slots[self.right[0]]
            order_r = orders[self.right[0]] if orders[self.right[0]] is not None else row_order(right)
            self._rtuples, self._starts, self._sizes, unique, table, filt = right_rows(right, order_r, target)
        else:
            self._rtuples, self._starts, self._sizes, unique, table, filt = right_side(
                slots[self.right[0]], slots[self.right[1]], target, start_rows)
        field = _pruning_field(slots[self.left[-1]], target, FIELDS_PER_WORD * words) if len(self.left) == 2 else 0
        keys = slot_keys or (None,) * self.n  # names of the slots' rows, shared under them (see _distinct)
        self._distinct = [_distinct(slots[j], field if i == 1 else 0, shared, keys[j], orders[j])
                          for i, j in enumerate(self.left)]
        pick = [d.keys for d in self._distinct] + [empty, empty]
        within = self._within(parent)
        if within is not None:
            # the same slots before this search's last answer: only their matches can still match
            self._ltuples, self._groups = refined_matches(parent._ltuples, len(self.left), *within[0], *within[1],
                                                          pick[0], pick[1], target, table, unique, filt)
        else:
            word, shift = divmod(field, FIELDS_PER_WORD)
            self._ltuples, self._groups = left_matches(
                pick[0], pick[1], len(self.left), target, table, unique, filt, word, 8 * shift, start_rows
            )
        # an entry holds (multiplicity of each left row) x (size of the right group) tuples
        sizes = [d.sizes for d in self._distinct] + [self._NONE, self._NONE]
        self._radix, self._cum = entries(self._ltuples, self._groups, len(self.left), sizes[0], sizes[1], self._sizes)

    def _within(self, parent: "TupleSearch | None") -> list | None:
        """Each left slot's rows within the rows of ``parent`` (the same slots before the last
        answer), when refining its matches checks fewer pairs than :func:`left_matches` would (it
        stops early in a sorted slot: counted as a ``REFINE_SHARE`` of all pairs); else None."""
        if parent is None or parent.left != self.left or not self.left:
            return None
        within = [d.within(c) for d, c in zip(self._distinct, parent._distinct)] + [(self._NONE, self._NONE)]
        pairs = refined_pairs(parent._ltuples, len(self.left), within[0][0], within[1][0])
        everything = float(math.prod(len(d.keys) for d in self._distinct))
        return within if pairs < REFINE_SHARE * everything else None

    @property
    def count(self) -> int:
        """How many word tuples fit."""
        return int(self._cum[-1]) if len(self._cum) else 0

    def tuples(self, positions: np.ndarray) -> np.ndarray:
        """``int64[len(positions), n]`` word indices (per slot) of the tuples at ``positions`` of the
        (implicit) list of all fitting tuples."""
        rows = [(d.members, d.starts) for d in self._distinct] + [(self._NONE, self._NONE)] * 2
        return tuple_words(np.asarray(positions, dtype=np.int64), self._cum, self._radix, self._ltuples, self._groups,
                           np.array(self.left, dtype=np.int64), np.array(self.right, dtype=np.int64), *rows[0], *rows[1],
                           self._starts, self._rtuples, self.n)

    def all(self) -> np.ndarray:
        """``int64[count, n]`` every fitting tuple."""
        return self.tuples(np.arange(self.count, dtype=np.int64))

    def sample(self, k: int, rng: np.random.Generator) -> np.ndarray:
        """``k`` fitting tuples drawn uniformly without replacement (all of them when fewer)."""
        total = self.count
        if total <= k:
            return self.all()
        return self.tuples(np.sort(rng.choice(total, size=k, replace=False)))
