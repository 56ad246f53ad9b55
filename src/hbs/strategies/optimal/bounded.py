"""Where the exact search does not finish: a strategy, and a proven lower bound on the optimum.

Past 4x7 the exact search of a whole game takes hours (5x6: over 17 minutes on a core without an
answer; a group of 1,300 codes below its first guess alone runs for many minutes).  What it can
still do is search the smaller groups below each opening exactly, and bound the rest.  For every
opening ``g`` (up to symmetry: the candidates the search itself tries, a guess's image under a
symmetry splitting alike), each answer's group ``S_a``:

* of at most ``exact_below`` codes is solved exactly
  (:func:`hbs.strategies.optimal.search.solve_set`, given ``g`` for its symmetries): its optimum
  goes into both figures below, and its tree into the strategy;
* of more codes is bounded from below by what its best second guess could make it cost,
  ``|S_a| + min_h Σ_b lb(|S_ab|)``, ``lb(m)`` the search's counting bound (one guess finds one
  code and splits the rest into at most ``b`` groups); and played by a strategy that tries the
  ``tries`` guesses of least lower bound (the search's own order) and keeps the cheapest, each
  built the same way down to the groups it solves exactly.

The least total over the openings of the bounds is a **lower bound** on every strategy: every
strategy opens with some guess, and then pays at least those figures.  The least total of the
strategies is the **strategy** played (an upper bound).  Where every group is solved exactly the two
meet: the optimum (4x6 with ``exact_below=300``: 5625 both).  Otherwise their gap bounds how far
the strategy can be from the optimum.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from hbs.core.games import CodeGame
from hbs.strategies.optimal.search import INF, UNLIMITED, Strategy, graft, prepared, ranked, solve_set


#: Part of the name of a saved strategy (see ``OptimalBot``): a change here that plays other guesses
#: must bump it, or a run plays the tree an older version saved.
BOUNDED_VERSION = 1


@dataclass(frozen=True)
class Bounds:
    """A proven lower bound, and the strategy found."""

    lower: int
    strategy: Strategy

    @property
    def total(self) -> int:
        return self.strategy.total


def bounds(game: CodeGame, matrix: np.ndarray, exact_below: int, tries: int = 3, threads: int = 1) -> Bounds:
    """The lower bound and the strategy of the module's docstring for every code of ``game``, the exact
    searches on ``threads`` threads (the same figures and strategy on any number)."""
    arrays, rules, ids = prepared(game, matrix)
    perfect, lb = int(rules[1]), arrays[3]

    def groups(subset: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
        row = arrays[0][guess][subset]
        return [(a, subset[row == a]) for a in range(int(rules[0])) if a != perfect and (row == a).any()]

    def least_bound(guess: int, part: np.ndarray) -> int:
        """What a group below ``guess`` costs at least, two guesses deep (a pair or less: exactly)."""
        scores = ranked(part, UNLIMITED, np.array([guess], dtype=np.int64), 1, arrays, rules)[1]
        least = int(scores[0]) if len(scores) and scores[0] < INF else 0  # INF: a single code, which no guess splits
        return max(least, int(lb[len(part)]))

    with ThreadPoolExecutor(max(1, threads)) as pool:

        def plan(subset: np.ndarray, hist: np.ndarray, count: int) -> tuple:
            """The strategy of a set over ``exact_below`` codes, its exact groups searched on the pool."""
            guesses, bounds_ = ranked(subset, UNLIMITED, hist, len(hist), arrays, rules)
            best = None
            for guess, bound in zip(guesses[:count], bounds_[:count]):
                if best is not None and bound >= best[0]:
                    break  # in order of bound: no later guess can cost less
                tree = laid_out(int(guess), subset, hist)[0]
                best = tree if best is None or tree[0] < best[0] else best  # the first of the least
            return best

        def laid_out(guess: int, subset: np.ndarray, hist: np.ndarray) -> tuple[tuple, dict[int, int]]:
            """The strategy opening ``subset`` with ``guess``, and the optimum of each group solved exactly."""
            deeper = np.append(hist, guess)
            parts = groups(subset, guess)
            pending = {a: pool.submit(solve_set, part, UNLIMITED, deeper, len(deeper), arrays, rules)
                       for a, part in parts if len(part) <= max(exact_below, 2)}  # all at once, on the pool
            planned = {a: plan(part, deeper, tries) for a, part in parts if a not in pending}  # meanwhile
            trees = [(a, pending[a].result() if a in pending else planned[a]) for a, _part in parts]
            return graft(guess, len(subset), trees), {a: int(pending[a].result()[0]) for a in pending}

        everything = np.arange(game.size, dtype=np.int64)
        none = np.empty(0, dtype=np.int64)
        if game.size <= max(exact_below, 2):  # the whole game, exactly
            strategy = solve_set(everything, UNLIMITED, none, 0, arrays, rules)
            least = int(strategy[0])
        else:
            strategy, least = None, INF
            openings, scores = ranked(everything, UNLIMITED, none, 0, arrays, rules)
            for guess in (int(g) for g, score in zip(openings, scores) if score < INF):  # every one worth trying
                parts = groups(everything, guess)
                bounded = {a: least_bound(guess, part) for a, part in parts}
                bound = game.size + sum(bounded.values())
                if strategy is not None and bound >= strategy[0]:
                    least = min(least, bound)  # it cannot beat the strategy found: not searched
                    continue
                tree, exact = laid_out(guess, everything, none)
                least = min(least, bound + sum(exact[a] - bounded[a] for a in exact))
                strategy = tree if strategy is None or tree[0] < strategy[0] else strategy
    return Bounds(least, Strategy.laid_out(strategy, ids))
