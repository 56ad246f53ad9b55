"""Most parts: the guess that splits the consistent codes into the most groups (Kooi 2005).

Ties: a code that could be the secret first, then the lowest code.  Option ``pool=all|consistent``.
"""

from hbs.strategies import PartitionBot


class Parts(PartitionBot):
    """Most parts: the guess that splits the consistent codes into the most groups (Kooi 2005)."""

    criterion = "parts"
