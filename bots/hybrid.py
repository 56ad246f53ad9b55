"""Most parts first, then maximum entropy: Kooi's opening (the code that splits every code into the
most groups), then the guess whose answers carry the most information.

The opening favours many small groups, where a guess that could be the secret ends games sooner;
entropy then weighs the groups by size.  Ties: a code that could be the secret first, then the
lowest code.  Option ``pool=all|consistent``.
"""

from hbs.strategies import PartitionBot


class Hybrid(PartitionBot):
    """Most parts first (Kooi 2005), then maximum entropy."""

    criterion = "entropy"
    opening = "parts"
