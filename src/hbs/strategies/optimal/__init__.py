"""Optimal play: the exact search, its tasks, the optimal bot, strategies as decision trees."""
