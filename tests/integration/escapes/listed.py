"""Writes a file beside itself as soon as it is imported: listing bots must not run this unconfined."""
import os
from pathlib import Path

from hbs import Bot

try:
    (Path(__file__).parent / "written-at-import").write_text(str(os.getpid()))
except OSError:
    pass


class Listed(Bot):
    """A bot whose module does something when imported."""

    def guess(self, history):
        return "1122"
