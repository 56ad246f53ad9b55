"""The game itself: the rule, its kernels, the games, loading secrets, the oracle, statuses."""
