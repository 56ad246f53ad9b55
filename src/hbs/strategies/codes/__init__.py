"""Code games and small phrase games: enumerated spaces, consistent sets, partition scores."""
