"""The slots a tournament's runs share: the lowest rank waiting gets the next free one."""

from __future__ import annotations

import threading
import time

import pytest

from hbs.arena.slots import Cancelled, Slots


def test_the_lowest_rank_waiting_gets_the_next_slot():
    slots = Slots(1)
    first = slots.take(5)
    order: list[int] = []
    lock = threading.Lock()

    def wait(rank: int) -> None:
        slot = slots.take(rank)
        with lock:
            order.append(rank)
        slots.give(slot)

    waiters = [threading.Thread(target=wait, args=(r,)) for r in (3, 1, 2)]
    for t in waiters:
        t.start()
    while len(slots._waiting) < 3:  # all three wait before the slot comes free
        time.sleep(0.01)
    slots.give(first)
    for t in waiters:
        t.join(5)
    assert order == [1, 2, 3] and slots.free == [0]


def test_cancel_wakes_every_waiter():
    slots = Slots(2)
    held = [slots.take(0), slots.take(0)]
    assert sorted(held) == [0, 1]  # each slot once
    raised: list[bool] = []

    def wait() -> None:
        with pytest.raises(Cancelled):
            slots.take(1)
        raised.append(True)

    waiter = threading.Thread(target=wait)
    waiter.start()
    while not slots._waiting:
        time.sleep(0.01)
    slots.cancel()
    waiter.join(5)
    assert raised == [True]
    with pytest.raises(Cancelled):
        slots.take(0)
