"""The local backend's scheduling: every secret played in worker processes on this machine, a few
games at a time, each worker (and the runner thread driving it) on a core of its own, the games
dealt in blocks that share their first answer."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Callable, Sequence

from hbs.arena.contestant import BotRef, Contestant, play_games, play_isolated
from hbs.arena.slots import Cancelled, Slots
from hbs.core.record import GameRecord
from hbs.core.rule import grade
from hbs.sandbox import caches
from hbs.sandbox.confinement import Plan
from hbs.sandbox.workers import UNCONFINED, cores


def run_isolated(
    ref: BotRef,
    game_name: str,
    game_data: dict,
    secrets: Sequence[str],
    budgets,
    workers: int = 1,
    on_record: Callable[[GameRecord], None] | None = None,
    plan: Plan = UNCONFINED,
    shared: Slots | None = None,
    rank: int = 0,
) -> list[GameRecord]:
    """Play every secret in worker processes, ``workers`` games at a time; records in secret order.

    ``on_record`` sees each game as it ends (in the order they end).  The bot is set up once before
    any game so that a bot that declines the game or fails its setup stops the run at once.  The
    first game is played first; the rest are dealt out to the workers by :func:`deal`.

    With ``shared`` (a tournament's), each worker starts only in a free slot, the run of the lowest
    ``rank`` first, and gives its slot back as soon as it has no game left; a cancelled tournament
    ends the run with ``KeyboardInterrupt`` once the games in play are over.
    """
    workers = max(1, min(workers, len(secrets)))
    threads = max(1, cores() // (shared.size if shared else workers))
    cpus = pinned(shared.size if shared else workers) if threads == 1 else None
    contestants = [Contestant(ref, game_data, budgets, plan, threads, cpus[k] if cpus else None)
                   for k in range(workers)]
    held: list[int | None] = [None] * workers  # the shared slot each worker is in
    records: list[GameRecord | None] = [None] * len(secrets)
    lock = threading.Lock()
    stop = threading.Event()
    failure: list[BaseException] = []

    def keep(index: int, record: GameRecord) -> None:
        records[index] = record
        if on_record is not None:
            on_record(record)

    def seat(worker: int) -> bool:
        """Wait for a shared slot for ``worker`` (its core is the slot's); False when cancelled."""
        try:
            held[worker] = shared.take(rank)
        except Cancelled:
            return False
        contestants[worker].cpu = cpus[held[worker]] if cpus else None
        return True

    def unseat(worker: int) -> None:
        if held[worker] is not None:
            contestants[worker].reset()  # its memory is the next run's
            shared.give(held[worker])
            held[worker] = None

    def serve(contestant: Contestant, worker: int) -> None:
        try:
            if shared is not None and worker and not (queue.left() and seat(worker) and queue.left()):
                return  # no game left for it (before or after its wait for a slot), or cancelled
            if contestant.cpu is not None:  # this thread only: the bot's worker is on the same core
                os.sched_setaffinity(0, {contestant.cpu})

            def take() -> int | None:
                with lock:
                    return None if stop.is_set() or (shared and shared.cancelled) else queue.take(worker)

            def kept(index: int, record: GameRecord) -> None:
                with lock:
                    if not stop.is_set():
                        keep(index, record)

            play_games(contestant, game_name, secrets, take, kept)
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            failure.append(exc)
            stop.set()
        finally:
            if shared is not None:
                unseat(worker)

    try:
        if shared is None:
            # all set up at once (the first answers for the bot), but where the bot's compile cache
            # is empty only the first: its set-up compiles the bot's kernels, which the others'
            # set-ups (started as they take their first game) then load instead of compiling too
            for contestant in contestants[:1] if fresh_cache(plan) else contestants:
                contestant.start()
        elif not seat(0):
            raise KeyboardInterrupt
        contestants[0].ready()
        if not secrets:
            return []
        keep(0, play_isolated(contestants[0], game_name, secrets[0]))
        queue = Blocks(deal(secrets, records[0]), workers)
        servers = [threading.Thread(target=serve, args=(c, k), daemon=True) for k, c in enumerate(contestants)]
        for t in servers:
            t.start()
        for t in servers:
            while t.is_alive():
                t.join(0.2)
    finally:
        stop.set()
        for c in contestants:
            c.reset()
        if shared is not None:
            for worker in range(workers):
                unseat(worker)
    if failure:
        raise failure[0]
    if shared is not None and shared.cancelled:
        raise KeyboardInterrupt
    return [r for r in records if r is not None]


def fresh_cache(plan: Plan) -> bool:
    """Whether the bot's own compile cache holds nothing yet (its first run, or its first since
    it was emptied over its cap).  Counted as the cap counts it, never following a link."""
    return plan.cache is not None and caches.usage(Path(plan.cache))[1] == 0


def pinned(workers: int) -> list[int | None]:
    """The core of each worker and of the runner's thread that drives it, where each worker has one
    thread: a guess is a round trip between the two, and one on the same core is answered about three
    times sooner than one that wakes another core.  Which core plays a game changes nothing in it."""
    try:
        found = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return [None] * workers
    return [found[k % len(found)] for k in range(workers)]


def deal(secrets: Sequence[str], first: GameRecord) -> list[int]:
    """The order the games after the first are dealt out in: by the answer each secret gives to the
    first game's first guess (stably), so that the secrets of one answer play one after another.

    A bot that memoises its decisions by history (most do) walks its decision tree once a worker;
    contiguous blocks of this order share the subtrees below the first answer, so two workers walk
    little of the tree twice.  Where and when a game is played changes nothing in it.
    """
    rest = range(1, len(secrets))
    if not first.steps:
        return list(rest)
    opening = first.steps[0].guess
    return sorted(rest, key=lambda i: grade(opening, secrets[i]))


class Blocks:
    """Which game each worker plays next: worker ``k`` plays the ``k``-th contiguous block of
    ``order``, and one whose block is done takes the last game of the largest block left."""

    def __init__(self, order: Sequence[int], workers: int):
        self.order = list(order)
        bounds = [len(self.order) * k // workers for k in range(workers + 1)]
        self.blocks = [[bounds[k], bounds[k + 1]] for k in range(workers)]  # [next, end) of each

    def left(self) -> int:
        """How many games no worker has taken yet."""
        return sum(end - start for start, end in self.blocks)

    def take(self, worker: int) -> int | None:
        block = self.blocks[worker]
        if block[0] < block[1]:
            block[0] += 1
            return self.order[block[0] - 1]
        largest = max(self.blocks, key=lambda b: b[1] - b[0])
        if largest[0] >= largest[1]:
            return None
        largest[1] -= 1
        return self.order[largest[1]]
