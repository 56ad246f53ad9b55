"""A whole strategy of a code game as a decision tree: laid out from a search, written and read as
JSON in the format of ``hbs tree --out``, checked against every code with the scalar rule, played.

A node is ``{"guess", "answer" (the [black, white] that led there; null at the root), "remaining"
(codes that reach it), "leaf" (the guess is one of them), "children"}``, children in answer order.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Sequence

import numpy as np

from hbs.core.games import CodeGame
from hbs.core.rule import grade


class BadTree(Exception):
    """A tree that is not a complete strategy for the game (or not a tree at all)."""


def from_arrays(game: CodeGame, parent: np.ndarray, answer: np.ndarray, guess: np.ndarray,
                size: np.ndarray) -> dict:
    """The nested tree of a strategy laid out as arrays (node 0 the root; ``answer`` coded as
    ``black * (pegs + 1) + white``)."""
    codes = game.codes()
    nodes = [{"guess": codes[int(g)], "answer": None, "remaining": int(s), "leaf": False, "children": []}
             for g, s in zip(guess, size)]
    for k in range(1, len(nodes)):
        nodes[k]["answer"] = list(divmod(int(answer[k]), game.pegs + 1))
        nodes[int(parent[k])]["children"].append(nodes[k])
    for node in nodes:
        node["children"].sort(key=lambda child: child["answer"])
        node["leaf"] = node["remaining"] - sum(child["remaining"] for child in node["children"]) == 1
    return nodes[0]


def from_strategy(game: CodeGame, strategy) -> dict:
    """The nested tree of a :class:`hbs.strategies.optimal.search.Strategy`."""
    return from_arrays(game, strategy.parent, strategy.answer, strategy.guess, strategy.size)


def check(game: CodeGame, root: dict) -> tuple[int, int]:
    """``(total, worst)`` guesses of the tree over every code of ``game``, each game re-graded with the
    scalar rule; raises :class:`BadTree` when a code is not found or a node is malformed."""
    total, worst = 0, 0
    try:
        for code in game.codes():
            node, depth = root, 1
            while node["guess"] != code:
                answer = list(grade(node["guess"], code))
                node = next((c for c in node["children"] if c["answer"] == answer), None)
                if node is None:
                    raise BadTree(f"the tree does not find {code!r}")
                depth += 1
            total += depth
            worst = max(worst, depth)
    except (KeyError, TypeError) as exc:
        raise BadTree(f"not a decision tree: {exc!r}") from None
    return total, worst


def save(root: dict, path: Path) -> None:
    """Write the tree atomically (a half-written file is never read back)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(path.name + f".{os.getpid()}.tmp")
    scratch.write_text(json.dumps(root), encoding="utf-8")
    os.replace(scratch, path)


def load(path: Path) -> dict:
    """Read a tree; raises :class:`BadTree` for a file that is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BadTree(f"cannot read {path}: {exc}") from None


class Player:
    """Plays a tree: the guess after a history of ``(guess, black, white)`` turns."""

    def __init__(self, root: dict):
        self.root = root

    def node(self, history: Sequence) -> dict | None:
        """The node a history leads to; ``None`` when the history leaves the tree."""
        node = self.root
        for guess, black, white in history:
            if node["guess"] != guess:
                return None
            node = next((c for c in node["children"] if c["answer"] == [black, white]), None)
            if node is None:
                return None
        return node
