"""Pieces bots compose: spaces of secrets, consistent sets, partition scores."""

from hbs.strategies.codes.consistent import ConsistentBot
from hbs.strategies.codes.partition import CRITERIA, PartitionBot, best_guess, graded_scores, partition_scores
from hbs.strategies.codes.space import CodeSpace, PhraseSpace, space_for

__all__ = [
    "CRITERIA",
    "CodeSpace",
    "ConsistentBot",
    "PartitionBot",
    "PhraseSpace",
    "best_guess",
    "graded_scores",
    "partition_scores",
    "space_for",
]
