"""Pieces bots compose: spaces of secrets, consistent sets, partition scores."""

from .consistent import ConsistentBot
from .partition import CRITERIA, PartitionBot, best_guess, partition_scores
from .space import CodeSpace, PhraseSpace, space_for

__all__ = [
    "CRITERIA",
    "CodeSpace",
    "ConsistentBot",
    "PartitionBot",
    "PhraseSpace",
    "best_guess",
    "partition_scores",
    "space_for",
]
