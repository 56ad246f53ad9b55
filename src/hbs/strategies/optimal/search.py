"""The exact search for optimal play (least total guesses over every code of a code game).

The cost of a set ``S`` of codes still possible is the total number of guesses a strategy needs to
find every one of them: ``cost(S) = |S| + Σ cost(S_a)`` over the groups ``S_a`` into which the next
guess splits ``S`` by answer (the group of the exact match costs nothing more).  The search is a
depth-first branch and bound over guesses:

* **lower bounds** — a group of ``m`` codes needs at least ``lb(m)`` guesses: one guess finds at most
  one code and splits the rest into at most ``b`` groups (``b`` = the answers other than the exact
  match), so at most ``b**(k-1)`` codes are found at the k-th guess.  Guesses are tried in order of
  their bound (ties: the lower code), a guess is dropped as soon as its bound reaches the best cost
  found, and the groups of a guess are solved smallest first with what is left of the budget;
* **sets settled at once** (``n`` at most one more than the answers other than the exact match,
  14 for four pegs) — a guess that reaches the set's
  lower bound is optimal: one of its codes splitting the others into single codes (``2n - 1``); else
  one of its codes leaving one pair, or an outside code splitting it apart (``2n``); else, the set
  costing at least ``2n + 1``, a guess leaving only single codes and pairs at that total;
* **symmetry** (:mod:`hbs.strategies.optimal.symmetry`) — colours that no code of ``S`` holds are all alike (a guess needs only one of them,
  or for Bulls and Cows the first few in order); colours no earlier guess used are interchangeable
  (the k-th new colour of a guess is the k-th smallest); while the history still has position and
  colour symmetries (the first guesses), only the least code of each orbit under them is tried;
* **memo** — a set's exact cost, or the lower bound it was found to reach, keyed by a 128-bit hash
  of the set and the guesses left (a set reached by two orders of the same guesses is solved once).

``max_depth`` holds the worst case: a strategy may use at most that many guesses on any code.
The result is exact: the tests check it against a brute force on small games and against the
published optima (4x6 Mastermind 5625, 5626 with at most 5 guesses; Bulls and Cows 26274).

Cost: scoring every candidate guess against a set (a count table, ``_bounds``) is most of the
time; the loops index arrays (an array iterator or a slice costs an atomic reference count, which
two threads then fight over) and read the set's rows of the symmetric answer matrix (in cache).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from numba import njit, types
from numba.typed import Dict, List

from hbs.core.games import CodeGame
from hbs.strategies.optimal.symmetry import candidate_guesses
from hbs.strategies.stable_order import stable_order


INF = 1 << 40


#: The guesses left when the worst case is not held (deeper than any real strategy).
UNLIMITED = 64


_KEY = types.UniTuple(types.int64, 3)


_ARRAY = types.int64[::1]


# memo values: cost << 32 | (guess + 1) << 1 | exact
_SHIFT = 32


@njit(cache=True)
def lower_bounds(size: int, branches: int) -> tuple[np.ndarray, np.ndarray]:
    """``lb[m]``: least total guesses for ``m`` codes; ``depth[m]``: least worst case, for ``m <= size``."""
    lb = np.zeros(size + 1, dtype=np.int64)
    depth = np.zeros(size + 1, dtype=np.int64)
    for m in range(1, size + 1):
        remaining, count, cost, levels = m, 1, 0, 0
        while remaining > 0:
            cost += remaining
            levels += 1
            remaining -= count
            count = min(count * branches, size + 1)
        lb[m] = cost
        depth[m] = levels
    return lb, depth


@njit(cache=True, inline="always")
def _hash(subset: np.ndarray, depth_key: int) -> tuple[int, int, int]:
    a = np.uint64(1469598103934665603)
    b = np.uint64(0x9E3779B97F4A7C15)
    for x in subset:
        v = np.uint64(x + 1)
        a = (a ^ v) * np.uint64(1099511628211)
        b = (b + v * np.uint64(0xBF58476D1CE4E5B9)) * np.uint64(0x94D049BB133111EB)
        b = b ^ (b >> np.uint64(31))
    return (np.int64(a), np.int64(b) ^ np.int64(subset.shape[0]), depth_key)


@njit(cache=True)
def _reaching(matrix, subset, guesses, perfect, target, largest) -> int:
    """The first of ``guesses`` that splits ``subset`` into groups of at most ``largest`` (1 or 2)
    codes at a total of exactly ``target`` guesses (a single code costs 1 more guess, a pair
    1 + 2), else -1.  Such a guess is optimal when ``target`` is the set's lower bound.  Most
    guesses fail within a few codes; the matrix being symmetric, the answers are read from the
    set's rows (a few kB, in cache), and the groups are two bit masks (nothing to clear)."""
    n = subset.shape[0]
    for q in range(guesses.shape[0]):  # index loops: an array iterator costs an atomic increment
        g = guesses[q]
        once, twice = np.uint64(0), np.uint64(0)
        total = n
        for k in range(n):
            a = matrix[subset[k], g]
            if a == perfect:
                continue
            bit = np.uint64(1) << np.uint64(a)
            if twice & bit:
                total = -1
                break
            total += 2 if once & bit else 1
            twice |= once & bit
            once |= bit
            if (largest == 1 and twice) or total > target:
                total = -1
                break
        if total == target:
            return g
    return -1


@njit(cache=True)
def _bounds(matrix, subset, candidates, lb, mindepth, depth, perfect, counts) -> np.ndarray:
    """Each candidate's lower bound on the total over ``subset`` (``INF``: it splits nothing, or
    some group cannot be done within ``depth - 1`` more guesses)."""
    n = subset.shape[0]
    m = candidates.shape[0]
    n_answers = counts.shape[1]
    _count_rows(matrix, subset, candidates, counts)
    # branch-free over the answers (lb[0] = 0; the exact match's group, 0 or 1 code, costs lb = its
    # size, taken back); groups over `cap` codes cannot be done within depth - 1 guesses
    cap = np.searchsorted(mindepth, depth - 1, side="right") - 1
    scores = np.empty(m, dtype=np.int64)
    for p in range(m):
        total = n - np.int64(counts[p, perfect])
        parts, big = 0, 0
        for a in range(n_answers):
            c = counts[p, a]
            total += lb[c]
            parts += c > 0
            big = max(big, c)
            counts[p, a] = 0
        scores[p] = total if parts > 1 and big <= cap else INF
    return scores


@njit(cache=True)
def _count_rows(matrix, subset, candidates, counts) -> None:
    """``counts[p, a]`` += the codes of ``subset`` that answer ``a`` to candidate ``p``, counted along
    each code's row (the answer matrix is symmetric: contiguous memory)."""
    m = candidates.shape[0]
    for k in range(subset.shape[0]):
        j = subset[k]
        for p in range(m):
            counts[p, matrix[j, candidates[p]]] += 1


@njit(cache=True)
def _settle(subset, depth, beta, hist, hlen, tables, rules, memo, lists, stats, counts):
    """What a set's search starts with: ``(value, key, known, candidates, bounds)``.  ``value >= 0``:
    the set is settled at once (a single code or a pair, out of reach, below the bound's reach,
    known in ``memo``, or split at once); ``-1``: search ``candidates`` (their ``bounds`` beside)."""
    matrix, codes, perms, lb, mindepth = tables
    n_answers, perfect, ncolors, distinct, limited, symmetric = rules
    none = np.empty(0, dtype=np.int64)
    key = (np.int64(0), np.int64(0), np.int64(0))
    n = subset.shape[0]
    if n == 1:
        return (1 if depth >= 1 else INF), key, -1, none, none
    if depth <= 1:
        return INF, key, -1, none, none
    if n == 2:
        return 3, key, -1, none, none
    if mindepth[n] > depth:
        return INF, key, -1, none, none
    if lb[n] >= beta:
        return lb[n], key, -1, none, none
    key = _hash(subset, depth if limited else 0)
    known = memo.get(key, -1)
    if known >= 0:
        value = known >> _SHIFT
        if known & 1 or value >= beta:
            stats[1] += 1
            return value, key, known, none, none
    stats[0] += 1
    # Sets of at most one code more than the answers other than the exact match: a guess costs at
    # least 3n - 2 (in the set) - (its groups), each group of c codes at least 2c - 1.  So 2n - 1
    # for a code splitting the rest; else 2n: a code leaving one pair, or an outside code
    # splitting the set; else at least 2n + 1, reached by a guess leaving singles and pairs.
    small = n <= n_answers + 1
    pairs = 2 if depth >= 3 else 1  # a pair needs a third guess
    best, choice = 2 * n - 1, -1
    candidates = none
    if small:
        choice = _reaching(matrix, subset, subset, perfect, best, 1)
        if choice < 0 and pairs == 2:
            best = 2 * n
            choice = _reaching(matrix, subset, subset, perfect, best, 2)
        if choice < 0:
            best = 2 * n
            if best >= beta:  # 2n is bound enough
                if known < 0 or (known >> _SHIFT) < best:
                    memo[key] = best << _SHIFT
                return best, key, known, none, none
            candidates = candidate_guesses(codes, perms, hist, hlen, subset, ncolors, distinct, symmetric, lists)
            choice = _reaching(matrix, subset, candidates, perfect, best, 1)  # an outside code splitting it
        if choice < 0:
            best = INF if pairs == 1 else 2 * n + 1
            if best >= beta:
                if known < 0 or (known >> _SHIFT) < best:
                    memo[key] = best << _SHIFT
                return best, key, known, none, none
            choice = _reaching(matrix, subset, candidates, perfect, best, 2)
    if choice < 0:
        if not small:
            candidates = candidate_guesses(codes, perms, hist, hlen, subset, ncolors, distinct, symmetric, lists)
        stats[4] += n * candidates.shape[0]
        scores = _bounds(matrix, subset, candidates, lb, mindepth, depth, perfect, counts)
        return -1, key, known, candidates, scores
    stats[3] += 1
    memo[key] = (best << _SHIFT) | ((choice + 1) << 1) | 1
    return best, key, known, none, none


@njit(cache=True, nogil=True)
def search(subset, depth, beta, hist, hlen, tables, rules, memo, lists, stats, opening) -> int:
    """The least total guesses to find every code of ``subset`` (``int64[n]`` ascending) with at most
    ``depth`` guesses each, when that is below ``beta``; else a lower bound ``>= beta`` (``INF``: no
    strategy).  ``hist[:hlen]`` are the guesses that led here (``hist`` has room for ``depth`` more).
    ``opening``, when not empty, are the only guesses tried on ``subset`` itself (the memo then
    keeps for ``subset`` what those guesses cost: a memo of its own).

    ``tables`` = (answer matrix, codes, position permutations, lb, least depth); ``rules`` =
    [answers, the exact match's answer, colours, distinct, max depth held, symmetry used].  Exact
    results and their guesses are kept in ``memo``; ``stats`` counts [sets searched, memo hits,
    guesses tried, sets solved at once, guess x code pairs scored, memo size].

    A depth-first search over an explicit stack (numba caches no recursive function safely): level
    ``L`` holds one set, the guess being tried on it and the group of that guess being solved."""
    matrix, codes, _perms, lb, mindepth = tables
    n_answers, perfect = rules[0], rules[1]
    levels = depth + 2
    empty = np.empty(0, dtype=np.int64)
    sets = List.empty_list(_ARRAY)
    cands = List.empty_list(_ARRAY)
    bounds = List.empty_list(_ARRAY)
    grouped = List.empty_list(_ARRAY)
    starts = List.empty_list(_ARRAY)
    order = List.empty_list(_ARRAY)
    for _ in range(levels):
        sets.append(empty)
        cands.append(empty)
        bounds.append(empty)
        grouped.append(empty)
        starts.append(empty)
        order.append(empty)
    keys = np.zeros((levels, 3), dtype=np.int64)
    knowns = np.zeros(levels, dtype=np.int64)
    depths = np.zeros(levels, dtype=np.int64)
    betas = np.zeros(levels, dtype=np.int64)
    bests = np.zeros(levels, dtype=np.int64)
    choices = np.zeros(levels, dtype=np.int64)
    limits = np.zeros(levels, dtype=np.int64)
    spents = np.zeros(levels, dtype=np.int64)
    rests = np.zeros(levels, dtype=np.int64)
    nexts = np.zeros(levels, dtype=np.int64)
    guesses = np.zeros(levels, dtype=np.int64)
    counts = np.zeros(n_answers, dtype=np.int64)
    sizes = np.zeros(n_answers, dtype=np.int64)
    work = np.zeros((codes.shape[0], n_answers), dtype=np.uint16)  # _bounds' counts (sets of < 65,536)

    level = 0
    sets[0] = subset
    depths[0] = depth
    betas[0] = beta
    entering = True
    value = 0
    while True:
        if entering:  # a new set at `level`
            here = sets[level]
            value, key, known, candidates, scores = _settle(here, depths[level], betas[level], hist, hlen + level,
                                                           tables, rules, memo, lists, stats, work)
            if value < 0:
                keys[level, 0], keys[level, 1], keys[level, 2] = key
                knowns[level] = known
                if level == 0 and opening.shape[0]:
                    candidates = opening
                    scores = _bounds(matrix, here, opening, lb, mindepth, depths[0], perfect, work)
                cands[level] = candidates
                bounds[level] = scores
                bests[level], choices[level], limits[level] = INF, -1, betas[level]
                nexts[level] = -1  # no guess under way
                entering = False
        else:  # a child's `value` came back: go on with the guess under way
            level -= 1
            spents[level] += value
            nexts[level] += 1
            if spents[level] + rests[level] >= limits[level]:
                nexts[level] = -1  # this guess cannot beat the best: the next guess
        if entering:  # settled at once: back to the parent
            if level == 0:
                stats[5] = len(memo)
                return value
            entering = False
            continue
        # choose work at `level`: the next group of the guess under way, or the next guess
        here = sets[level]
        n = here.shape[0]
        pushed = False
        while not pushed:
            if nexts[level] < 0:  # a new guess: the least bound left, the lower code first among equals
                scores = bounds[level]
                if scores.shape[0] == 0:
                    break
                p = np.argmin(scores)
                if scores[p] >= limits[level]:
                    break
                scores[p] = INF + 1  # tried
                g = cands[level][p]
                stats[2] += 1
                row = matrix[g]
                counts.fill(0)
                for k in range(n):
                    counts[row[here[k]]] += 1
                start = np.zeros(n_answers + 1, dtype=np.int64)
                rest = 0
                for a in range(n_answers):
                    start[a + 1] = start[a] + counts[a]
                    sizes[a] = counts[a] if a != perfect else 0
                    rest += lb[sizes[a]]
                fill = start[:-1].copy()
                split = np.empty(n, dtype=np.int64)
                for k in range(n):
                    a = row[here[k]]
                    split[fill[a]] = here[k]
                    fill[a] += 1
                grouped[level] = split
                starts[level] = start
                order[level] = stable_order(sizes)  # the smallest groups first
                guesses[level] = g
                spents[level] = n
                rests[level] = rest
                nexts[level] = 0
            # the next non-empty group of the guess under way
            groups = order[level]
            i = nexts[level]
            start = starts[level]
            while i < n_answers and (groups[i] == perfect or start[groups[i] + 1] == start[groups[i]]):
                i += 1
            nexts[level] = i
            if i == n_answers:  # every group solved: the best guess so far
                bests[level] = spents[level]
                choices[level] = guesses[level]
                limits[level] = spents[level]
                nexts[level] = -1
                continue
            a = groups[i]
            c = start[a + 1] - start[a]
            rests[level] -= lb[c]
            hist[hlen + level] = guesses[level]
            sets[level + 1] = grouped[level][start[a]:start[a + 1]]
            depths[level + 1] = depths[level] - 1
            betas[level + 1] = limits[level] - spents[level] - rests[level]
            pushed = True
        if pushed:
            level += 1
            entering = True
            continue
        # no guess left at `level`: its value
        hist[hlen + level] = -1
        key = (keys[level, 0], keys[level, 1], keys[level, 2])
        if bests[level] < betas[level]:
            value = bests[level]
            memo[key] = (value << _SHIFT) | ((choices[level] + 1) << 1) | 1
        else:
            value = betas[level]
            if knowns[level] < 0 or (knowns[level] >> _SHIFT) < value:
                memo[key] = value << _SHIFT
        if level == 0:
            stats[5] = len(memo)
            return value


@njit(cache=True)
def _array(items) -> np.ndarray:
    out = np.empty(len(items), dtype=np.int64)
    for i in range(len(items)):
        out[i] = items[i]
    return out


@njit(cache=True)
def _copy(dst, src, n):
    """``dst[:n] = src[:n]`` as a loop: a slice copy compiles numba's shape-error messages (a second
    of a cold start)."""
    for i in range(n):
        dst[i] = src[i]


@njit(cache=True)
def _fresh(hist, hlen, depth):
    """A search's own memo, candidate lists, counts and history."""
    memo = Dict.empty(key_type=_KEY, value_type=types.int64)
    lists = Dict.empty(key_type=types.int64, value_type=types.int64[::1])
    stats = np.zeros(6, dtype=np.int64)
    work = np.full(hlen + depth + 2, -1, dtype=np.int64)
    _copy(work, hist, hlen)
    return memo, lists, stats, work


@njit(cache=True)
def ranked(subset, depth, hist, hlen, tables, rules) -> tuple[np.ndarray, np.ndarray]:
    """The guesses worth trying on ``subset`` in the order the search tries them (least lower bound
    first, the lower code among equals), and their bounds."""
    matrix, codes, perms, lb, mindepth = tables
    lists = Dict.empty(key_type=types.int64, value_type=types.int64[::1])
    candidates = candidate_guesses(codes, perms, hist, hlen, subset, rules[2], rules[3], rules[5], lists)
    counts = np.zeros((codes.shape[0], rules[0]), dtype=np.uint16)
    scores = _bounds(matrix, subset, candidates, lb, mindepth, depth, rules[1], counts)
    order = stable_order(scores)
    return candidates[order], scores[order]


def guess_cost(subset, guess, limit, depth, hist, hlen, tables, rules):
    """What opening ``subset`` with ``guess`` costs at best when below ``limit`` (else a bound
    ``>= limit``), the search's counts, and its memo and lists (to lay the strategy out from).
    Runs without the GIL (``search``), with a memo of its own.  (Not a kernel itself: one that
    calls ``search`` compiles all of it again into its own machine code, 3 s of a cold start.)"""
    memo, lists, stats, work = _fresh(hist, hlen, depth)
    total = search(subset, depth, limit, work, hlen, tables, rules, memo, lists, stats,
                   np.full(1, guess, dtype=np.int64))
    return total, stats, memo, lists


def solve_set(subset, depth, hist, hlen, tables, rules):
    """Search ``subset`` and lay its optimal strategy out as a tree (see :func:`layout`), without
    the GIL (a plain function, as :func:`guess_cost`)."""
    memo, lists, stats, work = _fresh(hist, hlen, depth)
    total = search(subset, depth, INF, work, hlen, tables, rules, memo, lists, stats, np.empty(0, dtype=np.int64))
    return layout(subset, total, depth, hist, hlen, tables, rules, memo, lists, stats)


@njit(cache=True, nogil=True)
def layout(subset, total, depth, hist, hlen, tables, rules, memo, lists, stats):
    """The strategy a search of ``subset`` left in ``memo`` as a tree, nodes in depth-first order:
    ``(total, parent[k], answer[k] (to the parent's guess), guess[k], size[k], stats)``; the root
    is node 0 (parent -1).  ``total >= INF``: no strategy within ``depth``.  A set the memo holds
    only a bound for is searched again."""
    matrix = tables[0]
    perfect = rules[1]
    limited = rules[4]
    none = np.empty(0, dtype=np.int64)
    work = np.full(hlen + depth + 2, -1, dtype=np.int64)
    _copy(work, hist, hlen)
    parents, answers = List.empty_list(types.int64), List.empty_list(types.int64)
    guesses, sizes = List.empty_list(types.int64), List.empty_list(types.int64)
    if total >= INF:
        stats[5] = len(memo)
        return total, _array(parents), _array(answers), _array(guesses), _array(sizes), stats
    sets = List([subset])
    paths = List([work[:hlen].copy()])
    meta = List([(-1, -1, depth)])
    while len(sets):
        here, path, (parent, answer, left) = sets.pop(), paths.pop(), meta.pop()
        node = len(guesses)
        n = here.shape[0]
        if n <= 2:
            g = here[0]
        else:
            known = memo.get(_hash(here, left if limited else 0), -1)
            if known < 0 or not known & 1:  # solved within a bound only: solve it again
                _copy(work, path, path.shape[0])
                search(here, left, np.int64(INF), work, path.shape[0], tables, rules, memo, lists, stats, none)
                known = memo[_hash(here, left if limited else 0)]
            g = ((known >> 1) & ((1 << (_SHIFT - 1)) - 1)) - 1
        parents.append(parent)
        answers.append(answer)
        guesses.append(g)
        sizes.append(n)
        row = matrix[g][here]
        deeper = np.empty(path.shape[0] + 1, dtype=np.int64)
        _copy(deeper, path, path.shape[0])
        deeper[-1] = g
        for a in range(rules[0] - 1, -1, -1):  # pushed in reverse: popped in answer order
            if a == perfect:
                continue
            part = here[row == a]
            if part.shape[0]:
                sets.append(part)
                paths.append(deeper)
                meta.append((node, a, left - 1))
    stats[5] = len(memo)
    return total, _array(parents), _array(answers), _array(guesses), _array(sizes), stats


def graft(guess: int, size: int, results: list[tuple[int, tuple]]) -> tuple:
    """A tree opening with ``guess`` on ``size`` codes, with each answer's tree under it."""
    total = size
    parent, answer, guesses, sizes = [np.array([-1])], [np.array([-1])], [np.array([guess])], [np.array([size])]
    stats = np.zeros(len(STAT_NAMES), dtype=np.int64)
    offset = 1
    for a, (cost, p, _a, g, s, st) in results:
        total += int(cost)
        parent.append(np.where(p < 0, 0, p + offset))  # each tree's root hangs under node 0
        answer.append(np.where(_a < 0, a, _a))
        guesses.append(g)
        sizes.append(s)
        stats += st
        offset += len(g)
    return (total, np.concatenate(parent), np.concatenate(answer), np.concatenate(guesses),
            np.concatenate(sizes), stats)


@dataclass
class Strategy:
    """A strategy as a tree: node ``k`` guesses ``guess[k]`` after the answer ``answer[k]`` (the
    game's answer code) to its parent's guess; the search's counts beside it."""

    total: int
    parent: np.ndarray
    answer: np.ndarray
    guess: np.ndarray
    size: np.ndarray
    stats: dict[str, int]

    @classmethod
    def laid_out(cls, tree: tuple, ids: np.ndarray) -> "Strategy":
        """From a tree as :func:`layout` and :func:`graft` lay it out, its answers dense (``ids``: the
        game's answer code of each)."""
        total, parent, answer, guess, size, stats = tree
        answer = np.where(answer >= 0, ids[np.maximum(answer, 0)], -1)
        return cls(int(total), parent, answer, guess, size, dict(zip(STAT_NAMES, map(int, stats))))


STAT_NAMES = ("sets searched", "memo hits", "guesses tried", "sets solved at once", "pairs scored", "memo size")


def tables(game: CodeGame, matrix: np.ndarray) -> tuple:
    """The search's constant arrays for ``game`` with its answer matrix."""
    codes = np.ascontiguousarray(game.space.astype(np.int64))
    perms = np.array(list(itertools.permutations(range(game.pegs))), dtype=np.int64)
    branches = game.pegs * (game.pegs + 3) // 2 - 1  # answers other than the exact match
    lb, mindepth = lower_bounds(game.size, branches)
    return np.ascontiguousarray(matrix), codes, perms, lb, mindepth


def prepared(game: CodeGame, matrix: np.ndarray, max_depth: int | None = None,
             symmetric: bool = True) -> tuple[tuple, np.ndarray, np.ndarray]:
    """What the kernels take for ``game``: its tables (:func:`tables`, on the dense answers), its
    rules (``[answers, the exact match's answer, colours, distinct, depth held, symmetric]``) and the
    game's answer code of each dense answer."""
    dense, ids = dense_answers(matrix)
    perfect = int(np.searchsorted(ids, game.pegs * (game.pegs + 1)))
    rules = np.array([len(ids), perfect, game.colors, game.distinct, max_depth is not None, symmetric],
                     dtype=np.int64)
    return tables(game, dense), rules, ids


def dense_answers(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The answer matrix renumbered ``0..k-1`` in the order of the answers that occur (14 of 25 for
    four pegs: smaller count tables in the search), and those answers' codes."""
    ids = np.nonzero(np.bincount(matrix.ravel(), minlength=1))[0]
    lookup = np.zeros(int(ids[-1]) + 1, dtype=np.uint8)
    lookup[ids] = np.arange(len(ids), dtype=np.uint8)
    return lookup[matrix], ids
