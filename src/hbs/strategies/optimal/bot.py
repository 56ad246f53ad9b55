"""Optimal play: the strategy of least total guesses over every code of a code game.

The search itself (bounds, symmetry, memo) is :mod:`hbs.strategies.optimal.search`.  Here: the
search of a whole game as tasks on threads, and the ``optimal`` bot that plays what it found.

A set of at least ``split`` codes is not searched in one piece: the guess the search would try
first on it (the least lower bound) has its groups searched as sets of their own (split again when
large); what they cost, ``c0``, is then the limit for every other guess worth trying, each searched
alone (a memo of its own) to tell whether it costs less than ``c0``.  The least (the first in the
search's order among equals) is the set's guess.  Every task's result depends only on its set, its
guess and ``c0``, so the strategy is the same on any number of threads.

The whole game is split only when one opening stands for all (Bulls and Cows: every first guess
is alike): different openings' searches share most of their sets (the same guesses in another
order), which separate memos would search again (4x7: 47 s in tasks, 20 s whole).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hbs.contract.bot import Bot, Guess
from hbs.errors import InputError, UnsupportedGame
from hbs.core.games import CodeGame
from hbs.strategies.codes.consistent import NoConsistentSecret
from hbs.strategies.optimal.bounded import BOUNDED_VERSION, bounds
from hbs.strategies.optimal.decision_tree import BadTree, Player, check, from_strategy, load, save
from hbs.strategies.optimal.search import (
    INF,
    STAT_NAMES,
    Strategy,
    UNLIMITED,
    graft,
    guess_cost,
    layout,
    prepared,
    ranked,
    solve_set,
)
from hbs.strategies.codes.space import space_for


class NoStrategy(Exception):
    """No strategy finds every code within ``max_depth`` guesses."""


#: Sets of at least this many codes are searched as tasks (see the module's docstring).
SPLIT = 1000


def solve(game: CodeGame, matrix: np.ndarray, max_depth: int | None = None, symmetric: bool = True,
          threads: int = 1, split: int = SPLIT) -> Strategy:
    """The optimal strategy for every code of ``game``, at most ``max_depth`` guesses a code if given,
    searched on ``threads`` threads (the same strategy for any number).

    Raises :class:`NoStrategy` when ``max_depth`` cannot be met."""
    arrays, rules, ids = prepared(game, matrix, max_depth, symmetric)
    depth = max_depth if max_depth is not None else UNLIMITED
    root = _Part(np.arange(game.size, dtype=np.int64), np.empty(0, dtype=np.int64), depth)
    total, parent, answer, guess, size, stats = _Tasks(arrays, rules, threads, split).run(root)
    if total >= INF:
        raise NoStrategy(f"no strategy finds every {game.name} code within {max_depth} guesses")
    return Strategy.laid_out((total, parent, answer, guess, size, stats), ids)


@dataclass(eq=False)
class _Part:
    """A set searched as tasks: its first guess's groups (``children``), then its other guesses."""

    subset: np.ndarray
    hist: np.ndarray
    depth: int
    parent: _Part | None = None
    answer: int = -1
    guesses: np.ndarray | None = None
    bounds: np.ndarray | None = None
    children: list[_Part] = field(default_factory=list)
    waiting: int = 0
    limit: int = INF
    best: tuple | None = None  # (total, rank, memo, lists) of the best other guess so far
    stats: np.ndarray = field(default_factory=lambda: np.zeros(len(STAT_NAMES), dtype=np.int64))
    result: tuple | None = None  # solve_set's tuple


class _Tasks:
    """Runs the search of a set as tasks on a thread pool (see the module's docstring)."""

    def __init__(self, arrays, rules, threads: int, split: int):
        self.arrays, self.rules, self.split = arrays, rules, split
        self.pool = ThreadPoolExecutor(max(1, threads))
        self.running: dict = {}

    def run(self, root: _Part) -> tuple:
        with self.pool:
            self._open(root)
            while self.running:
                done, _ = wait(self.running, return_when=FIRST_COMPLETED)
                for future in done:  # any order: a part's best is the least (total, rank)
                    part, rank = self.running.pop(future)
                    self._done(part, rank, future.result())
        return root.result

    def _submit(self, part: _Part, rank: int, fn, *args) -> None:
        self.running[self.pool.submit(fn, *args)] = (part, rank)

    def _open(self, part: _Part) -> None:
        args = (part.depth, part.hist, len(part.hist), self.arrays, self.rules)
        if len(part.subset) < self.split or part.depth < 2:
            self._submit(part, -1, solve_set, part.subset, *args)
            return
        part.guesses, part.bounds = ranked(part.subset, *args)
        if part.parent is None and len(part.guesses) > 1:  # see the module's docstring
            self._submit(part, -1, solve_set, part.subset, *args)
            return
        first = part.guesses[0]
        row = self.arrays[0][first][part.subset]
        hist = np.append(part.hist, first)
        for a in range(int(self.rules[0])):
            if a != self.rules[1] and (row == a).any():
                part.children.append(_Part(part.subset[row == a], hist, part.depth - 1, part, a))
        part.waiting = len(part.children)
        for child in part.children:
            self._open(child)

    def _done(self, part: _Part, rank: int, result: tuple) -> None:
        if rank < 0:  # a set searched whole
            part.result = result
            self._resolved(part)
            return
        total, stats, memo, lists = result
        part.stats += stats
        if total < part.limit and (part.best is None or (total, rank) < part.best[:2]):
            part.best = (total, rank, memo, lists)
        part.waiting -= 1
        if part.waiting == 0:
            self._finish(part)

    def _resolved(self, part: _Part) -> None:
        parent = part.parent
        if parent is None:
            return
        parent.waiting -= 1
        if parent.waiting == 0:
            self._first_done(parent)

    def _first_done(self, part: _Part) -> None:
        """The first guess's groups are done: the limit for the others; search those worth it."""
        first = int(part.guesses[0])
        results = [(child.answer, child.result) for child in part.children]
        part.result = graft(first, len(part.subset), results)
        part.limit = int(min(part.result[0], INF))
        for rank in range(1, len(part.guesses)):
            if part.bounds[rank] < part.limit:
                part.waiting += 1
                self._submit(part, rank, guess_cost, part.subset, part.guesses[rank], part.limit, part.depth,
                             part.hist, len(part.hist), self.arrays, self.rules)
        if part.waiting == 0:
            self._finish(part)

    def _finish(self, part: _Part) -> None:
        if part.best is not None:  # another guess beat the first
            total, _rank, memo, lists = part.best
            stats = part.result[5] + part.stats
            memos = stats[5]
            part.result = layout(part.subset, total, part.depth, part.hist, len(part.hist), self.arrays,
                                 self.rules, memo, lists, stats)
            part.result[5][5] = memos
        else:
            part.result[5][:] += part.stats
        part.best = None
        self._resolved(part)


@contextlib.contextmanager
def _searching(path: Path | None):
    """Hold the lock beside a saved strategy's file (nothing when there is none or no lock can be
    made): the workers of one run set up at once, and only the first should search."""
    lock = None
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            lock = open(path.with_suffix(".lock"), "w")  # noqa: SIM115 - held across the yield
            fcntl.flock(lock, fcntl.LOCK_EX)
        except OSError:
            lock = None
    try:
        yield
    finally:
        if lock is not None:
            lock.close()


#: The largest code game the optimal bot searches (its answer matrix: 100 MB).
MAX_CODES = 10_000
#: The largest code game the optimal bot declares it plays (searched in seconds: 4x6 has 1296 codes).
MAX_DECLARED = 2_000
#: Part of the saved strategy's file name: a new search may choose other (equally good) guesses.
SEARCH_VERSION = 2


class OptimalBot(Bot):
    """Exact optimal play for code games: the strategy of least total guesses over every code.

    Option ``max_depth=K`` (0: none) holds the worst case to ``K`` guesses; a ``K`` that no strategy
    meets is declined in ``setup``.  Option ``exact_below=K`` (0: the whole game, exactly) plays, where
    the whole search would take hours, the strategy of :mod:`hbs.strategies.optimal.bounded`: the
    groups of at most ``K`` codes below each opening solved exactly, the larger ones by the best of
    ``tries`` guesses (0: 3).  The strategy is searched in ``setup`` and kept in the bot's own
    cache (``$NUMBA_CACHE_DIR``, writable for a confined bot) as a decision tree in the format of
    ``hbs tree --out``: a later run checks it against every code and plays it without searching.
    """

    # What it declares (for `hbs tournament --all`, `hbs check`, `hbs bots`): the code games it
    # searches within a default setup allowance.  It plays larger ones when asked by name (Bulls and
    # Cows: `hbs run --bot optimal --game bulls --setup-timeout 600`).
    games = staticmethod(lambda game: game.kind in ("mastermind", "bulls") and game.size <= MAX_DECLARED)
    history_only = True  # a walk down a fixed tree

    def __init__(self, max_depth: int = 0, threads: int = 0, exact_below: int = 0, tries: int = 0):
        if max_depth < 0:
            raise InputError(f"option max_depth must be 0 (no limit) or more, got {max_depth}")
        if exact_below < 0:
            raise InputError(f"option exact_below must be 0 (the whole game, exactly) or more, got {exact_below}")
        if tries < 0:
            raise InputError(f"option tries must be 1 or more (0: the default, 3), got {tries}")
        if tries and not exact_below:
            raise InputError("option tries goes with exact_below: the exact search tries every guess")
        if exact_below and max_depth:
            raise InputError("options exact_below and max_depth do not go together: exact_below plays a "
                             "strategy exact only below that many codes, with no worst case held")
        self.max_depth = max_depth or None
        self.exact_below, self.tries = exact_below, tries or 3
        self.threads = threads or len(os.sched_getaffinity(0))
        self.player: Player | None = None
        self.searched = False

    def setup(self, game) -> None:
        if game.kind not in ("mastermind", "bulls"):
            raise UnsupportedGame(f"bot {self.name!r} plays code games (mastermind, bulls), not {game.kind}")
        if game.size > MAX_CODES:
            raise UnsupportedGame(f"bot {self.name!r} searches games of at most {MAX_CODES:,} codes; "
                                  f"{game.name} has {game.size:,}")
        path = self._saved(game)
        with _searching(path):  # one worker searches; the others wait for its tree and read it
            root = self._load(game, path) if path else None
            if root is None:
                try:
                    if self.exact_below:
                        found = bounds(game, space_for(game).matrix, self.exact_below, self.tries,
                                       self.threads).strategy
                    else:
                        found = solve(game, space_for(game).matrix, self.max_depth, threads=self.threads)
                except NoStrategy as exc:
                    raise UnsupportedGame(str(exc)) from None
                root = from_strategy(game, found)
                self.searched = True
                if path:
                    try:
                        save(root, path)
                    except OSError:
                        pass  # a read-only cache: search again next time
        self.player = Player(root)

    def guess(self, history) -> Guess:
        node = self.player.node([(str(t[0]), int(t[1]), int(t[2])) for t in history])
        if node is None:
            raise NoConsistentSecret("the answers so far leave the optimal strategy: they fit no code")
        return Guess(node["guess"], node["remaining"], "tree")

    def _saved(self, game) -> Path | None:
        folder = os.environ.get("NUMBA_CACHE_DIR")
        if not folder:
            return None
        alphabet = hashlib.sha256(game.symbols.encode()).hexdigest()[:8]
        depth = self.max_depth or "any"
        exact = f"-bounded{BOUNDED_VERSION}-below{self.exact_below}x{self.tries}" if self.exact_below else ""
        return Path(folder) / "strategies" / f"optimal-v{SEARCH_VERSION}-{game.name}-{alphabet}-max{depth}{exact}.json"

    def _load(self, game, path: Path) -> dict | None:
        """The saved tree when it finds every code within ``max_depth``; else ``None``."""
        if not path.exists():
            return None
        try:
            root = load(path)
            _total, worst = check(game, root)
        except BadTree:
            return None
        return root if self.max_depth is None or worst <= self.max_depth else None
