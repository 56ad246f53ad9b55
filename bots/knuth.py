"""Knuth's minimax: the guess whose largest answer group is smallest (Knuth 1977).

Ties: a code that could be the secret first, then the lowest code.  Option ``pool=all|consistent``.
"""

from hbs.strategies import PartitionBot


class Knuth(PartitionBot):
    """Knuth's minimax: the guess whose largest answer group is smallest (Knuth 1977)."""

    criterion = "minimax"
