"""Playing games: one game, a run over a set of secrets, replays, tournaments, the Ray backend."""
