"""Decision trees: the whole strategy of a deterministic bot over every secret of a code game.

A node is a history: the bot's guess there, the answer that led to it, and how many secrets reach
it.  A node is a *leaf* for the secret equal to its guess (the code found); printed with ``*``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from hbs.arena.play import play
from hbs.contract.bot import Bot
from hbs.core.status import Status
from hbs.errors import HbsError, InputError


#: The most codes a tree is built over: it plays every code twice (the second time to show the bot
#: deterministic), so 5x8's 32,768 codes take minutes and 6x9's 531,441 would take hours.
MAX_CODES = 50_000


def check_size(game) -> None:
    """One line for a game whose tree is too large to build and print."""
    if game.size > MAX_CODES:
        raise InputError(f"hbs tree plays every code twice: {game.name} has {game.size:,} codes, it builds trees "
                         f"of games up to {MAX_CODES:,} codes (hbs run --limit or --secrets plays a sample)")


class NotDeterministic(InputError):
    """The bot gave different guesses for the same history."""


@dataclass
class Node:
    """One history of the tree."""

    guess: str
    answer: tuple[int, int] | None  # the answer to the parent's guess that led here (None at the root)
    depth: int  # guess number of ``guess``
    remaining: int = 0  # secrets that reach this node
    leaf: bool = False  # the guess is one of those secrets
    children: dict[tuple[int, int], "Node"] = field(default_factory=dict)

    def walk(self) -> Iterator["Node"]:
        yield self
        for key in sorted(self.children):
            yield from self.children[key].walk()


@dataclass
class TreeSummary:
    leaves: int
    worst: int
    total: int
    nodes: int

    @property
    def average(self) -> float:
        return self.total / self.leaves if self.leaves else 0.0

    def as_dict(self) -> dict:
        return {"leaves": self.leaves, "worst": self.worst, "total": self.total, "average": self.average,
                "nodes": self.nodes}


def build(make_bot: Callable[[], Bot], game_name: str, secrets: Iterable[str], max_guesses: int = 100) -> Node:
    """Play a fresh bot from ``make_bot`` against every secret and join the games into one tree.

    Raises :class:`NotDeterministic` when a history gets two different guesses (within the run, or
    against a second fresh bot replaying every game), and :class:`HbsError` when a game is not solved.
    """
    bot, again = make_bot(), make_bot()  # one bot for the whole run, as `hbs run` plays it
    records = [play(bot, game_name, s, max_guesses) for s in secrets]
    root: Node | None = None
    for record in records:
        if record.status != Status.SOLVED:
            raise HbsError(f"the bot did not solve {record.secret!r} ({record.status}): a tree needs every game solved")
        replay = play(again, game_name, record.secret, max_guesses)
        if [s.guess for s in replay.steps] != [s.guess for s in record.steps]:
            raise NotDeterministic(f"bot {bot.name!r} is not deterministic: two runs differ on secret {record.secret!r}")
        node, answer = None, None
        for depth, step in enumerate(record.steps, start=1):
            if depth == 1:
                node = root = root or Node(step.guess, None, 1)
            else:
                node = node.children.setdefault(answer, Node(step.guess, answer, depth))
            if node.guess != step.guess:
                raise NotDeterministic(
                    f"bot {bot.name!r} is not deterministic: after the same answers it guessed "
                    f"{node.guess!r} once and {step.guess!r} once"
                )
            node.remaining += 1
            answer = (step.black, step.white)
        node.leaf = True
    if root is None:
        raise InputError("no secrets to build a tree over")
    return root


def summarize(root: Node) -> TreeSummary:
    leaves = [n for n in root.walk() if n.leaf]
    return TreeSummary(len(leaves), max(n.depth for n in leaves), sum(n.depth for n in leaves),
                       sum(1 for _ in root.walk()))


def render(root: Node) -> Iterator[str]:
    """One line a node, indented by depth: guess number, answer that led there, guess, codes left."""
    for node in root.walk():
        answer = "    " if node.answer is None else f"{node.answer[0]} {node.answer[1]} "
        star = " *" if node.leaf else ""
        yield f"{'  ' * (node.depth - 1)}{node.depth}: {answer}{node.guess} ({node.remaining}){star}"


def to_json(node: Node) -> dict:
    """The nested tree as plain data."""
    return {
        "guess": node.guess,
        "answer": list(node.answer) if node.answer else None,
        "remaining": node.remaining,
        "leaf": node.leaf,
        "children": [to_json(node.children[k]) for k in sorted(node.children)],
    }
