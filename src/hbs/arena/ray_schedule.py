"""A run's games on a Ray cluster: the driver's loop that seats runners, hands them batches, takes
the results in and plays a lost runner's batch again.

A run holds its runners in slots (:class:`hbs.arena.slots.Slots`): its own, or those a tournament's
runs share.  The first runner waits for a slot; more are seated as slots come free while games are
left for them, the earlier run first; a runner with no game left gives its slot back at once, so
that the next bot is set up in it while this bot's last games are still in play elsewhere.
A runner let go keeps running (:class:`Pool`): the next run loads its bot into it.

Faults: a runner lost with its node (or killed) loses its batch, which is played again by another
runner; each game is recorded once, when its result reaches the driver.  A game whose runner is lost
:data:`TRIES` times is recorded as an ``error``.  Games are deterministic, so a game played again,
on any runner, gives the same guesses.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Callable, Sequence

from hbs.arena.ray_runner import Assignment, check_loaded
from hbs.arena.slots import Cancelled, Slots
from hbs.core.record import GameRecord
from hbs.core.status import Status
from hbs.errors import HbsError, InputError

TRIES = 3  # a game whose runner is lost this many times is recorded as an error
BATCH_SECONDS = 0.5  # the work a batch should hold, once the games' pace is known
MAX_BATCH = 64
POLL = 0.05  # seconds between looks for a free slot, while a run wants one
WAKE = 0.5  # the longest a run waits for its runners before it looks whether the tournament was stopped


def lost(ray) -> tuple[type[BaseException], ...]:
    """Ray's exceptions for a runner gone with its node, or killed."""
    return ray.exceptions.RayActorError, ray.exceptions.ObjectLostError, ray.exceptions.NodeDiedError


def stop(ray, runners: Sequence, unplaced: set) -> None:
    """Stop ``runners``: those that were placed close their bot worker first (it cleans its task
    cgroup); then each is killed."""
    closing = [r.close.remote() for r in runners if r not in unplaced]
    if closing:
        ray.wait(closing, num_returns=len(closing), timeout=10)
    for runner in runners:
        try:
            ray.kill(runner, no_restart=True)
        except Exception:  # noqa: BLE001 - a runner already gone
            pass


class Pool:
    """The runners no run holds, for the next run to load its bot into; shared by a tournament's runs."""

    def __init__(self, make: Callable[[], object]):
        self.make = make  # a new runner actor
        self.runners: list = []
        self._lock = threading.Lock()

    def get(self):
        with self._lock:
            return self.runners.pop() if self.runners else self.make()

    def put(self, runner, loading: bool = False) -> None:
        """Keep ``runner`` for the next run; one still ``loading`` (it may be a replacement the cluster
        cannot place) is handed out last, so that no run waits for it while another runner is ready."""
        with self._lock:
            if loading:
                self.runners.insert(0, runner)
            else:
                self.runners.append(runner)

    def drain(self) -> list:
        with self._lock:
            out, self.runners = self.runners, []
            return out


class Schedule:
    """One run's loop: ``secrets`` played by the bot of ``job`` on at most ``size`` runners, seated in
    ``slots`` in the order of ``rank``."""

    def __init__(self, ray, job: Assignment, bot: str, secrets: Sequence[str], on_record, pool: Pool,
                 slots: Slots, rank: int, size: int):
        self.ray, self.job, self.bot, self.secrets, self.on_record = ray, job, bot, secrets, on_record
        self.pool, self.slots, self.rank, self.size = pool, slots, rank, size
        self.todo = deque(range(len(secrets)))
        self.records: list[GameRecord | None] = [None] * len(secrets)
        self.tries = [0] * len(secrets)
        self.seconds, self.games = 0.0, 0
        self.seats: dict = {}  # a runner this run holds -> its slot
        self.starting: dict = {}  # a runner's load() result -> the runner, until it answers
        self.idle: list = []  # runners set up and waiting for a batch
        self.busy: dict = {}  # a batch's result -> (runner, batch)
        self.lost: list = []  # runners gone (their node, or killed)

    def play(self) -> list[GameRecord]:
        """Every game's record, in secret order; the runners let go (or stopped, on an error)."""
        try:
            self._start()
            records = self._run()
        except BaseException:
            held = list(self.seats)
            stop(self.ray, [*held, *self.lost], set(self.starting.values()))
            for runner in held:
                self.slots.give(self.seats.pop(runner))
            raise
        finally:
            self.slots.unwant(self.rank)
        for runner in self.starting.values():  # still loading: the next run's, after the ready ones
            self._leave(runner, loading=True)
        for runner in self.idle:
            self._leave(runner)
        stop(self.ray, self.lost, set())
        return records

    def _start(self) -> None:
        """Seat the first runner (waiting for a slot) and as many more as are free; the first is
        waited for before any game, so that a bot that declines the game or fails its setup stops the
        run at once, as locally."""
        try:
            self._sit(self.slots.take(self.rank))
        except Cancelled:
            raise KeyboardInterrupt from None
        self._grow()
        first = next(iter(self.starting))
        runner = self.starting.pop(first)  # placed from here on: closed, not only killed, if it fails
        while not self.ray.wait([first], timeout=WAKE)[0]:
            if self.slots.cancelled:
                raise KeyboardInterrupt
        if not self._loaded(first):
            raise HbsError("the first runner was lost while it loaded the bot")
        self.idle.append(runner)

    def _loaded(self, ref) -> bool:
        """Whether the runner of the ``load()`` result ``ref`` set the bot up: False if the runner was
        lost; the error the local arena would raise if the bot or the job's files failed."""
        ray = self.ray
        try:
            check_loaded(ray.get(ref))
        except ray.exceptions.RuntimeEnvSetupError as exc:
            raise InputError(f"the job's files could not be set up on a node: {str(exc).splitlines()[-1]}") from None
        except lost(ray):
            return False
        return True

    def _run(self) -> list[GameRecord]:
        """Play every game on the runners set up and those still starting, which join as they answer.

        A replacement for a lost runner that cannot be placed (the lost node took its CPU with it)
        waits, for a node to come back, while the others play on.  A cancelled tournament stops
        handing out batches, waits for those in play and ends the run with ``KeyboardInterrupt``.
        """
        ray = self.ray
        while self.todo or self.busy:
            if self.slots.cancelled:
                if not self.busy:
                    raise KeyboardInterrupt
            else:
                self._grow()
                while self.idle and self.todo:
                    runner = self.idle.pop()
                    batch = self._batch(len(self.idle) + len(self.busy) + 1)
                    self.busy[runner.play.remote([self.secrets[i] for i in batch])] = (runner, batch)
                if not self.todo:  # the last batch is out: the runners left idle are the next run's
                    while self.idle:
                        self._leave(self.idle.pop())
            waiting = [*self.busy, *self.starting]
            if not waiting:  # every runner let go, a lost batch back: wait for a slot
                time.sleep(POLL)
                continue
            wants = bool(self.todo) and len(self.seats) < self.size
            done, _ = ray.wait(waiting, num_returns=1, timeout=POLL if wants else WAKE)
            for ref in done:
                self._answer(ref)
        if self.slots.cancelled:
            raise KeyboardInterrupt
        return [r for r in self.records if r is not None]

    def _answer(self, ref) -> None:
        """Take in what a runner answered: its load, or a batch's records."""
        ray = self.ray
        if ref in self.starting:
            runner = self.starting.pop(ref)
            if self._loaded(ref):
                self.idle.append(runner)
            else:
                self._replace(runner)
            return
        runner, batch = self.busy.pop(ref)
        try:
            records = ray.get(ref)
        except lost(ray):
            self._lost(batch)
            self._replace(runner)
            return
        except ray.exceptions.RayTaskError as exc:
            raise HbsError(f"a runner failed: {str(exc).strip().splitlines()[-1]}") from None
        for index, record in zip(batch, records):
            self._keep(index, record)
        self.idle.append(runner)

    def _sit(self, slot: int, runner=None) -> None:
        """A runner (the pool's, or ``runner``) in ``slot``, loading the bot."""
        runner = runner if runner is not None else self.pool.get()
        self.seats[runner] = slot
        self.starting[runner.load.remote(self.job)] = runner

    def _grow(self) -> None:
        """Seat more runners in free slots while games are left for them and this run has fewer than
        :attr:`size`; stand in line for the next slot while it still wants one."""
        try:
            while self.todo and len(self.seats) < self.size:
                self.slots.want(self.rank)
                slot = self.slots.poll(self.rank)
                if slot is None:
                    return
                self._sit(slot)
        except Cancelled:
            pass
        self.slots.unwant(self.rank)

    def _leave(self, runner, loading: bool = False) -> None:
        self.pool.put(runner, loading)
        self.slots.give(self.seats.pop(runner))

    def _replace(self, runner) -> None:
        """A lost runner's slot to a new runner (not the pool's: it may be on the lost node too)."""
        made = self.pool.make()
        self.lost.append(runner)
        self._sit(self.seats.pop(runner), made)

    def _batch(self, runners: int) -> list[int]:
        """The next batch: one game until the pace is known, then about :data:`BATCH_SECONDS` of work,
        but never more than half a fair share of what is left (so that the runners end together)."""
        size = 1
        if self.games:
            size = int(BATCH_SECONDS / max(self.seconds / self.games, 1e-4))
        share = len(self.todo) // (2 * max(runners, 1))
        size = max(1, min(size, MAX_BATCH, share))
        return [self.todo.popleft() for _ in range(size)]

    def _keep(self, index: int, record: GameRecord) -> None:
        if self.records[index] is None:
            self.records[index] = record
            self.seconds += record.seconds
            self.games += 1
            if self.on_record is not None:
                self.on_record(record)

    def _lost(self, batch: list[int]) -> None:
        """A batch whose runner died: played again (first in line), or an error after :data:`TRIES`."""
        again = []
        for index in batch:
            self.tries[index] += 1
            if self.tries[index] >= TRIES:
                record = GameRecord(self.bot, self.job.game_name, self.secrets[index], Status.ERROR,
                                    error=f"its runner was lost {TRIES} times (node gone or runner killed)")
                self._keep(index, record)
            else:
                again.append(index)
        self.todo.extendleft(reversed(again))
