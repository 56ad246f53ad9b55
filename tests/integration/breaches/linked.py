"""Reads the secrets through its data folder ``bots/linked/`` (file ``codes.txt``) and guesses the
lines that fit; plays first-consistent when it cannot read them."""
from pathlib import Path

from hbs.core.rule import grade
from hbs.strategies import ConsistentBot


class Linked(ConsistentBot):
    """Cheats with a file of its data folder, if it can read one."""

    def guess(self, history):
        try:
            lines = (Path(__file__).with_suffix("") / "codes.txt").read_text().split()
        except OSError:
            return super().guess(history)
        return next(s for s in lines if all(grade(g, s) == (b, w) for g, b, w in history))

    def choose(self, history, subset):
        return self.space.text(subset[0])
