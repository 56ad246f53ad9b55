"""Maximum entropy: the guess whose answer distribution carries the most information.

Ties: a code that could be the secret first, then the lowest code.  Option ``pool=all|consistent``.
"""

from hbs.strategies import PartitionBot


class Entropy(PartitionBot):
    """Maximum entropy: the guess whose answer distribution carries the most information."""

    criterion = "entropy"
