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


def test_a_run_that_wants_a_slot_keeps_its_place_in_line():
    """A run on Ray asks without waiting (want, then poll): a later rank waiting in take() does not
    get the slot before it, an earlier one does, and leaving the line lets the later one in."""
    slots = Slots(1)
    held = slots.take(0)
    slots.want(1)
    assert slots.poll(1) is None  # none free
    got: list[int] = []
    later = threading.Thread(target=lambda: got.append(slots.take(2)))
    later.start()
    while len(slots._waiting) < 2:
        time.sleep(0.01)
    slots.give(held)
    time.sleep(0.05)
    assert got == [] and slots.poll(1) == 0  # the slot waited for rank 1's look
    assert slots.poll(0) is None  # taken: nothing free for anyone
    slots.give(0)
    slots.unwant(1)
    later.join(5)
    assert got == [0]
    slots.want(3)
    with pytest.raises(Cancelled):
        slots.cancel()
        slots.poll(3)
