"""The workers a tournament's runs share: a run's worker starts only in a free slot, and the run that
came first gets the next free slot, so that a bot's setup and games fill the slots the bot before it
no longer needs (its last games still playing in the others)."""

from __future__ import annotations

import threading


class Cancelled(Exception):
    """The tournament was stopped while a run waited for a slot."""


class Slots:
    """``count`` slots; :meth:`take` waits for one, the lowest ``rank`` first."""

    def __init__(self, count: int):
        self.size = max(1, count)
        self.free = list(range(self.size))  # the slots' numbers: slot k is pinned like worker k
        self._waiting: list[int] = []
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
