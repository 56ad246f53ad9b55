"""Optimal play: the least total guesses over every code, by exact search (option max_depth=K).

4x6 Mastermind: 5625 in all (max 6), 5626 with max_depth=5; Bulls and Cows: 26274.  The strategy is
searched once and kept in the bot's own cache as a decision tree; later runs play it at once.
Where the whole search takes hours (5x6, 4x9, 4x10), option exact_below=K plays a strategy exact on
the groups of at most K codes below each opening (docs/optimal.md: with a proven lower bound).
"""

from hbs.strategies.optimal.bot import OptimalBot


class Optimal(OptimalBot):
    """Optimal play: the least total guesses over every code, by exact search (option max_depth=K)."""
