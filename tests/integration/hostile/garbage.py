"""Returns something that is not a guess: option kind=none|bytes|huge|control|empty."""
from hbs import Bot


class Garbage(Bot):
    """Returns garbage of the kind asked for."""

    def __init__(self, kind: str = "none"):
        self.kind = kind

    def guess(self, history):
        return {"none": None, "bytes": b"1122", "huge": "1" * 50_000_000, "control": "11\x0722", "empty": ""}[self.kind]
