"""Showing results: the scoreboard and its standings, the web board, the console's tables and traces."""
