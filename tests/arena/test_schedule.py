"""How the local backend deals games to its workers (in-process: no worker is started)."""

from __future__ import annotations

import os

from hypothesis import given, strategies as st

from hbs.arena.local import Blocks, deal, pinned
from hbs.core.record import GameRecord, Step
from hbs.core.games import mastermind
from hbs.core.rule import grade


@given(st.integers(0, 300), st.integers(1, 8), st.lists(st.integers(0, 7), max_size=400))
def test_every_game_is_taken_once_whoever_asks(count, workers, askers):
    blocks = Blocks(range(count), workers)
    taken = []
    for worker in askers + [k for k in range(workers) for _ in range(count)]:  # then everyone drains
        index = blocks.take(worker % workers)
        if index is not None:
            taken.append(index)
    assert sorted(taken) == list(range(count))
    assert all(blocks.take(k) is None for k in range(workers))


def test_a_worker_plays_its_own_block_in_order_first():
    blocks = Blocks(range(10), 2)
    assert [blocks.take(0) for _ in range(5)] == [0, 1, 2, 3, 4]
    assert blocks.take(0) == 9  # its block done: the last game of the largest block left
    assert [blocks.take(1) for _ in range(4)] == [5, 6, 7, 8]
    assert blocks.take(1) is None and blocks.take(0) is None


def test_games_are_dealt_by_their_answer_to_the_first_guess():
    codes = mastermind(4, 6).codes()
    first = GameRecord("bot", "mastermind-4x6", codes[0], "solved", [Step("1122", 1, 0)])
    order = deal(codes, first)
    assert sorted(order) == list(range(1, len(codes)))  # every game but the first, once
    answers = [grade("1122", codes[i]) for i in order]
    assert answers == sorted(answers)  # grouped by answer
    same = [i for i in order if grade("1122", codes[i]) == (0, 0)]
    assert same == sorted(same)  # stable: secret order within an answer
    assert deal(codes[:3], GameRecord("bot", "g", codes[0], "error")) == [1, 2]  # no guess: as given


def test_each_worker_gets_a_core_of_this_process():
    cores = sorted(os.sched_getaffinity(0))
    assert pinned(len(cores)) == cores
    assert pinned(2 * len(cores)) == cores + cores
