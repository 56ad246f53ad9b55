"""The workers a tournament's runs share: a run's worker starts only in a free slot, and the run that
came first gets the next free slot, so that a bot's setup and games fill the slots the bot before it
no longer needs (its last games still playing in the others).

Local runs wait for a slot in a thread a worker (:meth:`Slots.take`); a run on Ray drives its
runners from one loop, so it says it wants one (:meth:`Slots.want`) and looks between results
(:meth:`Slots.poll`): while it wants, no later run takes a slot before it."""

from __future__ import annotations

import threading


class Cancelled(Exception):
    """The tournament was stopped while a run waited for a slot."""


class Slots:
    """``count`` slots; :meth:`take` waits for one, the lowest ``rank`` first."""

    def __init__(self, count: int):
        self.size = max(1, count)
        self.free = list(range(self.size))  # the slots' numbers: slot k is pinned like worker k
        self._waiting: list[int] = []  # the ranks in line: one a take() waiting or a want()
        self._wanting: list[int] = []  # the ranks of want()
        self._cond = threading.Condition()
        self.cancelled = False

    def take(self, rank: int) -> int:
        """Wait for a free slot, the waiter of the lowest ``rank`` first, and return its number;
        :class:`Cancelled` after :meth:`cancel`."""
        with self._cond:
            self._waiting.append(rank)
            try:
                while not self.cancelled and not (self.free and rank == min(self._waiting)):
                    self._cond.wait()
                if self.cancelled:
                    raise Cancelled()
                return self.free.pop(0)
            finally:
                self._waiting.remove(rank)
                self._cond.notify_all()

    def want(self, rank: int) -> None:
        """Stand in line for a slot without waiting (see :meth:`poll`); once only, until :meth:`unwant`."""
        with self._cond:
            if rank not in self._wanting:
                self._wanting.append(rank)
                self._waiting.append(rank)

    def unwant(self, rank: int) -> None:
        """Leave the line :meth:`want` joined."""
        with self._cond:
            if rank in self._wanting:
                self._wanting.remove(rank)
                self._waiting.remove(rank)
                self._cond.notify_all()

    def poll(self, rank: int) -> int | None:
        """A free slot if ``rank`` is first in line (or the line is empty), else None, at once;
        :class:`Cancelled` after :meth:`cancel`."""
        with self._cond:
            if self.cancelled:
                raise Cancelled()
            if self.free and rank <= min(self._waiting, default=rank):
                return self.free.pop(0)
            return None

    def give(self, slot: int) -> None:
        with self._cond:
            self.free.append(slot)
            self.free.sort()
            self._cond.notify_all()

    def cancel(self) -> None:
        """Stop every run: waiters raise :class:`Cancelled`, runs in play end after their game."""
        with self._cond:
            self.cancelled = True
            self._cond.notify_all()
